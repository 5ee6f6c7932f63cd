r"""nDCG of a whole TREC run: every topic at once, the trec_eval way.

:func:`evaluate_run` scores every topic of a run against the qrels in one vectorised
pass (numpy over all topics; no Python loop per topic) and returns a
:class:`RunEvaluation`: the per-topic table, the mean over topics and the configuration
sentence. Its numbers equal trec_eval's ``ndcg`` and ``ndcg_cut.k`` for the default
configuration, and ``RunEvaluation.explain(query_id)`` gives the per-rank table of one
topic (:func:`ndcg_core.breakdown` on that topic's ranked labels).

Measures (named as trec_eval names them; ``-m`` syntax):

=====================  ==========================  =====================================
spec                   output names                value per topic
=====================  ==========================  =====================================
``ndcg``               ``ndcg``                    DCG of the whole run / IDCG of the
                                                   whole ideal list
``ndcg_cut``           ``ndcg_cut_5`` ...          DCG@k / IDCG@k (ideal truncated at
``ndcg_cut.5,10``      ``ndcg_cut_1000``           k); default cutoffs 5, 10, 15, 20,
                                                   30, 100, 200, 500, 1000
``unjudged_cut.10``    ``unjudged_cut_10``         share of unjudged documents among the
                                                   top min(k, n) of the run as returned
                                                   (default cutoffs 5, 10, 20)
=====================  ==========================  =====================================

trec_eval's other measures (``map``, ``P``, ``dcg``, ``ideal_dcg``, ``ndcg`` with gain
values, ``ndcg_rel``, ``Rndcg``) and the ``-m`` parsing come from :mod:`.measures`;
``max_docs`` and ``relevance_level`` are trec_eval's ``-M`` and ``-l``.

Semantics (trec_eval 9's, see also :mod:`ndcg_core.trec`):

- the ranking is score descending, ties by document id descending (``strcmp``);
- the ideal list holds every judged document of the topic (qrels label 0 or more),
  sorted by gain; negative qrels labels mean "pooled but not judged": no gain, not in
  the ideal, removed by condensing, counted as unjudged;
- IDCG = 0 gives nDCG = 0;
- topics in the run but not in the qrels are ignored; by default the mean runs over the
  topics in both; ``complete=True`` (trec_eval ``-c``) averages over every qrels topic,
  a topic the run missed scoring 0;
- ``unjudged="condense"`` (trec_eval ``-J``) removes unjudged documents before ranking;
- a gain table may hold fractional gains; they are used exactly (trec_eval's ``ndcg.L=G``
  sorts them with an integer-truncating comparison and can report 0 or more than 1).

The chapters' helpers built on it (judging pools, several runs' means, the two averages)
live in :mod:`ndcg_core.teaching.pooling`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from .._lazy import pd
from .._validation import check_choice, check_k
from ..config import NDCGConfig
from ..discounts import Discount, DiscountFunction, resolve_discount
from ..gains import Gain, GainFunction, resolve_gain
from ..kernel import ListSegments, dcg_per_list, list_segments
from ..metrics import UNJUDGED_POLICIES, breakdown
from .measures import (
    DEFAULT_CUTOFFS,
    DEFAULT_UNJUDGED_CUTOFFS,
    MEASURE_FAMILIES,
    Measure,
    check_trec_options,
    describe_measure,
    parse_measures,
    top_ranks,
    trec_measure_values,
)
from .ranking import RankedTopic, ranked_topic, ranking_order
from .tables import Table, as_table, doc_key_plan, factorize_keys, pack_keys, packing_plan, repack_keys, unpack_keys

__all__ = [
    "DEFAULT_CUTOFFS",
    "DEFAULT_UNJUDGED_CUTOFFS",
    "MEASURE_FAMILIES",
    "Measure",
    "parse_measures",
    "evaluate_run",
    "RunEvaluation",
]


# --------------------------------------------------------------------------- the result


@dataclass(frozen=True)
class RunEvaluation:
    """The result of :func:`evaluate_run`.

    Attributes
    ----------
    per_topic : pandas.DataFrame
        One row per evaluated topic (index ``query_id``, in trec_eval's byte order), one
        column per measure. Made on first use from ``topics`` and ``values``.
    mean : pandas.Series
        The mean of each measure over the evaluated topics (summed in topic order, then
        divided by ``num_q``, as trec_eval).
    topics : tuple of str
        The evaluated topics, in the order of ``per_topic``'s rows.
    values : numpy.ndarray
        ``per_topic``'s numbers: one row per topic, one column per measure.
    means : numpy.ndarray
        ``mean``'s numbers, one per measure.
    num_q : int
        The number of topics averaged over.
    missing_topics : tuple of str
        Qrels topics the run has no line for (scored 0 when ``complete``, else left out).
    ignored_topics : tuple of str
        Run topics the qrels do not judge (always left out).
    """

    topics: tuple[str, ...] = field(repr=False)
    values: np.ndarray = field(repr=False, compare=False)
    means: np.ndarray = field(repr=False, compare=False)
    num_q: int
    measures: tuple[str, ...]
    config: NDCGConfig
    complete: bool
    missing_topics: tuple[str, ...]
    ignored_topics: tuple[str, ...]
    run_id: str | None
    _qrels: Table = field(repr=False, compare=False)
    _run: Table = field(repr=False, compare=False)

    @cached_property
    def per_topic(self) -> pd.DataFrame:
        return pd.DataFrame(
            self.values,
            columns=list(self.measures),
            index=pd.Index(list(self.topics), name="query_id", dtype=object),
        )

    @cached_property
    def mean(self) -> pd.Series:
        return pd.Series(self.means, index=list(self.measures), dtype=float)

    def describe(self) -> str:
        """The configuration sentence, with the measures and how topics were averaged."""
        names = [describe_measure(name) for name in self.measures]
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        sentence = self.config.describe()
        rest = sentence.split(" with ", 1)[1] if " with " in sentence else sentence
        rest = rest.rstrip(".")
        topics = "topic" if self.num_q == 1 else "topics"
        if self.complete:
            how = f"mean over all {self.num_q} qrels {topics}, a topic without run lines scoring 0 (complete averaging)"
        else:
            how = f"mean over the {self.num_q} {topics} in both the qrels and the run"
            if self.missing_topics:
                n = len(self.missing_topics)
                how += f"; {n} qrels topic{'s' if n != 1 else ''} without run lines left out"
        if self.ignored_topics:
            n = len(self.ignored_topics)
            how += f"; {n} run topic{'s' if n != 1 else ''} without judgments ignored"
        return f"{listed} with {rest}; {how}."

    def ranked(self, query_id: object) -> RankedTopic:
        """The ranked labels of one topic (see :func:`ndcg_core.trec.ranked_labels`)."""
        query = str(query_id)
        if query not in set(self.topics) and query not in self.missing_topics:
            known = list(self.topics[:8])
            more = ", ..." if len(self.topics) > 8 else ""
            raise ValueError(
                f"topic must be one of the evaluated topics; got {query!r}. "
                f"Evaluated topics: {', '.join(known)}{more}."
            )
        return ranked_topic(self._qrels, self._run, query)

    def explain(self, query_id: object, k: int | None = None) -> pd.DataFrame:
        """The per-rank table of one topic: :func:`ndcg_core.breakdown` plus ``doc_id``.

        The table's last ``ndcg`` value at rank k equals ``per_topic.loc[query_id,
        "ndcg_cut_<k>"]`` (``"ndcg"`` for ``k=None``). Under condensing, unjudged
        documents are removed first, as in the evaluation.
        """
        k = check_k(k)
        topic = self.ranked(query_id)
        config = self.config
        table = breakdown(
            topic.labels,
            k,
            judgments=topic.judgments,
            gain=config.gain,
            discount=config.discount,
            base=config.base,
            unjudged=config.unjudged,
        )
        if config.unjudged == "condense":
            docs = [doc for doc, label in zip(topic.doc_ids, topic.labels) if label is not None]
        else:
            docs = topic.doc_ids
        shown = docs[: len(table)]
        table.insert(1, "doc_id", shown + [""] * (len(table) - len(shown)))
        return table

    def to_trec(self, *, per_topic: bool = False, digits: int = 4, summary: bool = True) -> str:
        """The result in trec_eval's output format (``name<TAB>qid|all<TAB>value``).

        Names are left-justified to 22 characters and values printed as C's ``%6.4f``,
        so for the default configuration the lines are byte-identical to trec_eval's.
        ``per_topic`` adds each topic's lines first (trec_eval ``-q``); ``summary=False``
        leaves out the summary (``runid``, ``num_q`` and the ``all`` lines; trec_eval ``-n``).
        """
        if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= 15:
            raise ValueError(f"digits must be a whole number from 0 to 15; got {digits!r}.")
        lines: list[str] = []
        if per_topic:
            for query_id, row in zip(self.topics, self.values.tolist()):
                for name, value in zip(self.measures, row):
                    lines.append(f"{name:<22}\t{query_id}\t{value:6.{digits}f}")
        if not summary:
            return "".join(line + "\n" for line in lines)
        if self.run_id is not None:
            lines.append(f"{'runid':<22}\tall\t{self.run_id}")
        lines.append(f"{'num_q':<22}\tall\t{self.num_q}")
        for name, value in zip(self.measures, self.means.tolist()):
            lines.append(f"{name:<22}\tall\t{value:6.{digits}f}")
        return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- evaluation


def _sorted_indexer(haystack: np.ndarray, needles: np.ndarray, *, presorted: bool = False) -> np.ndarray:
    """For each needle, its position in ``haystack`` (unique values), or -1 when absent.

    Binary search in the sorted haystack (numpy only). ``presorted``: both arrays are
    sorted and unique, so the shorter one can be searched in the longer.
    """
    if len(haystack) == 0 or len(needles) == 0:
        return np.full(len(needles), -1, dtype=np.intp)
    if presorted and len(haystack) < len(needles):
        at = np.searchsorted(needles, haystack)
        np.minimum(at, len(needles) - 1, out=at)
        found = needles[at] == haystack
        # positions in the haystack: int32 unless it is huge (half the memory of a run-long array)
        where = np.full(len(needles), -1, dtype=np.int32 if len(haystack) < np.iinfo(np.int32).max else np.intp)
        where[at[found]] = np.flatnonzero(found)
        return where
    order = None if presorted else np.argsort(haystack, kind="stable")
    ordered = haystack if order is None else haystack[order]
    at = np.searchsorted(ordered, needles)
    np.minimum(at, len(ordered) - 1, out=at)
    found = ordered[at] == needles
    where = at if order is None else order[at]
    return np.where(found, where, -1)


def _doc_indexer(q: Table, r: Table) -> np.ndarray:
    """For each of the run's document names, its position among the qrels' (-1: absent).

    Tables from the fast reader hold their documents' keys in byte order: a merge of two
    sorted arrays, no string compared. Keys packed alike (:class:`~.tables.KeyPlan`) are
    compared as they are; otherwise the qrels' keys are written in the run's packing (a
    qrels id that cannot be is no id of the run), or both are unpacked.
    """
    if q.doc_keys is None or r.doc_keys is None:
        return pd.Index(q.doc_names).get_indexer(r.doc_names)
    q_plan, r_plan = doc_key_plan(q), doc_key_plan(r)
    if r_plan is not None and not r_plan.same_as(q_plan):
        q_words = q.doc_keys if q_plan is None else unpack_keys(q.doc_keys, q_plan)
        fits, q_packed = repack_keys(q_words, r_plan)
        del q_words
        if not fits.any():  # no qrels id can be one of the run's
            return np.full(len(r.doc_keys), -1, dtype=np.int32)
        found = _keys_indexer(q_packed, r.doc_keys)  # positions among the qrels keys that fit
        where = np.flatnonzero(fits).astype(found.dtype)
        return np.where(found >= 0, where[np.maximum(found, 0)], -1)
    if q_plan is not None and r_plan is None:  # the qrels packed, the run's own words
        return _keys_indexer(unpack_keys(q.doc_keys, q_plan), r.doc_keys)
    return _keys_indexer(q.doc_keys, r.doc_keys)


def _keys_indexer(q_keys: np.ndarray, r_keys: np.ndarray) -> np.ndarray:
    """:func:`_doc_indexer` for keys that compare with each other, each array sorted and unique."""
    words = max(q_keys.shape[1], r_keys.shape[1])
    if words == 1:
        return _sorted_indexer(q_keys[:, 0], r_keys[:, 0], presorted=True)
    q_keys, r_keys = _widened(q_keys, words), _widened(r_keys, words)
    plan = packing_plan([q_keys, r_keys])
    if plan is not None and len(plan) == 1:  # both packed alike into one word: still sorted
        return _sorted_indexer(pack_keys(q_keys, plan)[:, 0], pack_keys(r_keys, plan)[:, 0], presorted=True)
    n_q = len(q_keys)
    both = np.concatenate((q_keys, r_keys))
    del q_keys, r_keys
    codes, _ = factorize_keys(both)  # in byte order: each table's part stays sorted
    return _sorted_indexer(codes[:n_q], codes[n_q:], presorted=True)


def _widened(keys: np.ndarray, words: int) -> np.ndarray:
    """Keys with zero words added up to ``words`` (zero words are a shorter id's end)."""
    if keys.shape[1] == words:
        return keys
    out = np.zeros((len(keys), words), dtype=np.uint64)
    out[:, : keys.shape[1]] = keys
    return out


def _preview(items: Sequence[str], n: int = 6) -> str:
    shown = ", ".join(items[:n])
    return shown + (", ..." if len(items) > n else "")


def evaluate_run(
    qrels: object,
    run: object,
    measures: str | Sequence[str] = ("ndcg", "ndcg_cut"),
    *,
    gain: Gain = "linear",
    discount: Discount = "log2",
    base: float | None = None,
    unjudged: str = "zero",
    complete: bool = False,
    max_docs: int | None = None,
    relevance_level: int = 1,
) -> RunEvaluation:
    r"""nDCG of every topic of a run, and the mean over topics, as trec_eval computes them.

    .. math:: \mathrm{nDCG}@k(q) = \frac{\sum_{i=1}^{\min(k,n_q)} g(\ell_{q,i})\, d(i)}
              {\sum_{i=1}^{\min(k,m_q)} g(\ell^*_{q,i})\, d(i)},
              \qquad \overline{\mathrm{nDCG}@k} = \frac{1}{|Q|} \sum_{q \in Q} \mathrm{nDCG}@k(q)

    where :math:`\ell_{q,i}` is the label of the run's rank-i document for topic q (0 if
    unjudged), :math:`\ell^*_{q,\cdot}` every judged label of q sorted by gain, and Q the
    evaluated topics.

    Parameters
    ----------
    qrels, run : table or dict
        From :func:`ndcg_core.trec.read_qrels` / :func:`~ndcg_core.trec.read_run`, or
        ``{query_id: {doc_id: value}}`` dicts.
    measures : str or sequence of str
        trec_eval ``-m`` specs (see :func:`parse_measures`); default ``ndcg`` and
        ``ndcg_cut`` with cutoffs 5, 10, 15, 20, 30, 100, 200, 500, 1000.
    gain, discount, base
        As in :func:`ndcg_core.dcg`; trec_eval's are ``"linear"`` and ``"log2"``. A gain
        table may hold fractional gains: they are used exactly.
    unjudged : {"zero", "condense"}
        ``"condense"`` removes unjudged documents before ranking (trec_eval ``-J``).
    complete : bool
        Average over every qrels topic, a topic without run lines scoring 0 (``-c``).
    max_docs : int, optional
        Only the top ``max_docs`` documents of each topic's ranking count (trec_eval
        ``-M``: the ranking is cut after sorting, before ``unjudged="condense"``).
    relevance_level : int
        Labels at least this are relevant for ``P`` and ``map`` (trec_eval ``-l``).

    Returns
    -------
    RunEvaluation

    Raises
    ------
    ValueError, TypeError
        For a bad measure, gain or discount; a document listed twice; no topic shared
        by qrels and run (unless ``complete``).

    Examples
    --------
    >>> qrels = {"q1": {"d1": 2, "d2": 1, "d3": 1, "d9": 0}, "q2": {"d1": 1}}
    >>> run = {"q1": {"d2": 3.0, "d7": 2.0, "d1": 1.0}, "q2": {"d5": 1.0}}
    >>> result = evaluate_run(qrels, run, ["ndcg_cut.3"])
    >>> result.per_topic["ndcg_cut_3"].round(4).to_dict()
    {'q1': 0.6388, 'q2': 0.0}

    ``q1`` ranks d2 (label 1), d7 (unjudged), d1 (label 2); its ideal list is 2, 1, 1, 0:
    (1/log2(2) + 0/log2(3) + 2/log2(4)) / (2/log2(2) + 1/log2(3) + 1/log2(4)).

    >>> result.to_trec().splitlines()
    ['num_q                 \tall\t2', 'ndcg_cut_3            \tall\t0.3194']
    """
    parsed = parse_measures(measures)
    check_trec_options(max_docs, relevance_level)
    check_choice(unjudged, "unjudged", UNJUDGED_POLICIES)
    if not isinstance(complete, (bool, np.bool_)):
        raise TypeError(f"complete must be True or False; got {complete!r} ({type(complete).__name__}).")
    g = resolve_gain(gain)
    d = resolve_discount(discount, base)
    config = NDCGConfig(gain=g, discount=d, k=None, unjudged=unjudged)
    q = as_table(qrels, "qrels")
    r = as_table(run, "run")
    if len(q.values) == 0:
        raise ValueError("qrels must judge at least one document; got empty qrels. Read them with read_qrels().")
    topics = _map_topics(q, r, bool(complete))
    sorted_topic, label_values = _ranked_run(q, r, topics, max_docs)
    n_topics = len(topics.names)
    values = _unjudged_cut_values(parsed, sorted_topic, label_values, n_topics)
    listed = trec_measure_values(  # map, P and the rest of the nDCG family: every topic, listed or not
        parsed, sorted_topic, label_values, topics.q_topic, q.values, n_topics,
        gain=g, discount=d, relevance_level=relevance_level, judged_only=unjudged == "condense",
    )
    values.update(listed)
    values.update(_ndcg_values(parsed, q, topics.q_topic, sorted_topic, label_values, g, d, unjudged, n_topics))
    del sorted_topic, label_values

    names = tuple(m.name for m in parsed)
    in_run = topics.in_run
    rows = np.ones(n_topics, dtype=bool) if complete else in_run
    table = np.column_stack([(values[name] if name in listed else np.where(in_run, values[name], 0.0))[rows] for name in names])
    num_q = int(rows.sum())
    totals = np.cumsum(table, axis=0)[-1] if num_q else np.zeros(len(names))  # in topic order, as trec_eval
    run_id = r.attrs.get("run_id")
    return RunEvaluation(
        topics=tuple(str(t) for t in topics.names[rows]),
        values=table,
        means=totals / max(num_q, 1),
        num_q=num_q,
        measures=names,
        config=config,
        complete=bool(complete),
        missing_topics=topics.missing,
        ignored_topics=topics.ignored,
        run_id=None if run_id is None else str(run_id),
        _qrels=q,
        _run=r,
    )


@dataclass(frozen=True)
class _Topics:
    """The qrels topics in byte order (strcmp), and how both tables' topics map onto them."""

    names: np.ndarray  # the qrels topics, in byte order
    q_topic: np.ndarray  # each qrels row's topic (position in names)
    run_to_topic: np.ndarray  # each run topic code's position in names (-1: not judged)
    in_run: np.ndarray  # which of names the run retrieves for
    missing: tuple[str, ...]  # qrels topics without run lines
    ignored: tuple[str, ...]  # run topics without judgments


def _map_topics(q: Table, r: Table, complete: bool) -> _Topics:
    """The evaluated topics: the qrels', in byte order; run topics mapped onto them."""
    by_name = np.array(sorted(range(len(q.query_names)), key=q.query_names.__getitem__), dtype=np.intp)
    topics = q.query_names[by_name]
    n_topics = len(topics)
    position = np.empty(n_topics, dtype=np.intp)
    position[by_name] = np.arange(n_topics)
    topic_position = {str(t): i for i, t in enumerate(topics)}
    run_to_topic = np.array([topic_position.get(str(t), -1) for t in r.query_names], dtype=np.intp)
    used = np.bincount(r.query_codes, minlength=len(r.query_names)) > 0
    in_run = np.zeros(n_topics, dtype=bool)
    in_run[run_to_topic[used & (run_to_topic >= 0)]] = True
    if not complete and not in_run.any():
        raise ValueError(
            "run and qrels must share at least one topic; the run's topics are "
            f"{_preview(sorted(str(t) for t in r.query_names[used])) or 'none'} and the qrels' are "
            f"{_preview([str(t) for t in topics])}. Check that both files belong to the same test collection."
        )
    return _Topics(
        names=topics,
        q_topic=position[q.query_codes],
        run_to_topic=run_to_topic,
        in_run=in_run,
        missing=tuple(str(t) for t in topics[~in_run]),
        ignored=tuple(sorted(str(t) for t in r.query_names[used & (run_to_topic < 0)])),
    )


def _ranked_run(q: Table, r: Table, topics: _Topics, max_docs: int | None) -> tuple[np.ndarray, np.ndarray]:
    """Each rank position's topic and qrels label (NaN: unjudged), topic by topic in
    trec_eval's order (score descending, document id descending among ties), cut at
    ``max_docs`` per topic (``-M``). Run topics without judgments are dropped first."""
    run_to_topic = topics.run_to_topic
    if np.array_equal(run_to_topic, np.arange(len(run_to_topic))):  # the same topics: codes as they are
        r_topic = r.query_codes
    else:
        r_topic = run_to_topic.astype(np.int32)[r.query_codes]
    r_scores = r.values
    r_docs = r.doc_codes
    keep = r_topic >= 0
    if not keep.all():
        r_topic, r_scores, r_docs = r_topic[keep], r_scores[keep], r_docs[keep]
    del keep
    order = ranking_order(r_topic, r_scores, r_docs, r.doc_names, r.doc_keys)
    del r_scores
    # labels of the ranked documents: join on (topic, document); NaN = unjudged (absent
    # from the qrels, or negative there: "pooled but not judged")
    label_values = _ranked_labels(q, topics.q_topic, r_topic, r_docs, _doc_indexer(q, r).astype(np.int32, copy=False), order)
    del r_docs
    sorted_topic = _ranked_topics(r_topic, order)
    del order, r_topic
    if max_docs is not None:  # trec_eval -M: each topic's ranking cut after sorting
        top = top_ranks(sorted_topic, max_docs)
        sorted_topic, label_values = sorted_topic[top], label_values[top]
    return sorted_topic, label_values


def _unjudged_cut_values(
    parsed: Sequence[Measure], sorted_topic: np.ndarray, label_values: np.ndarray, n_topics: int
) -> dict[str, np.ndarray]:
    """``unjudged_cut_k``: the share of unjudged documents in each topic's top min(k, n)."""
    unjudged_cutoffs = sorted({m.k for m in parsed if m.family == "unjudged_cut"})
    if not unjudged_cutoffs:
        return {}
    unjudged_rows = np.isnan(label_values).astype(float)

    def unjudged_parts(lists: ListSegments, rows: slice) -> np.ndarray:
        counts = [lists.sums(np.where(lists.rank0 < k, unjudged_rows[rows], 0.0), n_topics) for k in unjudged_cutoffs]
        return np.array([lists.lengths(n_topics), *counts], dtype=float)

    lengths, *counts = _by_topic_chunks(sorted_topic, 1 + len(unjudged_cutoffs), n_topics, unjudged_parts)
    values = {}
    for k, count in zip(unjudged_cutoffs, counts):
        shown = np.minimum(lengths, k)
        values[f"unjudged_cut_{k}"] = np.divide(count, shown, out=np.zeros(n_topics), where=shown > 0)
    return values


def _ndcg_values(
    parsed: Sequence[Measure],
    q: Table,
    q_topic: np.ndarray,
    sorted_topic: np.ndarray,
    label_values: np.ndarray,
    g: GainFunction,
    d: DiscountFunction,
    unjudged: str,
    n_topics: int,
) -> dict[str, np.ndarray]:
    """``ndcg`` (whole run) and ``ndcg_cut_k`` of every topic, slice by slice of whole topics."""
    cutoffs = sorted({m.k for m in parsed if m.family == "ndcg_cut"})
    wants_whole = any(m.family == "ndcg" and not m.params for m in parsed)
    if not cutoffs and not wants_whole:
        return {}
    if unjudged == "condense":
        judged = ~np.isnan(label_values)
        sorted_topic, label_values = sorted_topic[judged], label_values[judged]
    ideal_source = q.values >= 0
    ideal_topic = q_topic[ideal_source]
    ideal_gains = _gains(g, q.values[ideal_source].astype(float))
    ideal_order = np.lexsort((-ideal_gains, ideal_topic))
    ideal_gains = ideal_gains[ideal_order]
    ideal_topic = ideal_topic[ideal_order]
    longest = max(_longest_list(sorted_topic), _longest_list(ideal_topic))
    factors = _prefix(d, longest)
    ks: list[int | None] = ([None] if wants_whole else []) + list(cutoffs)

    def run_dcg(lists: ListSegments, rows: slice) -> np.ndarray:
        return dcg_per_list(_gains(g, label_values[rows]), factors, lists, n_topics, ks)

    def ideal_dcg(lists: ListSegments, rows: slice) -> np.ndarray:
        return dcg_per_list(ideal_gains[rows], factors, lists, n_topics, ks)

    dcg = _by_topic_chunks(sorted_topic, len(ks), n_topics, run_dcg)
    idcg = _by_topic_chunks(ideal_topic, len(ks), n_topics, ideal_dcg)
    ratio = np.divide(dcg, idcg, out=np.zeros_like(dcg), where=idcg > 0)
    return {"ndcg" if k is None else f"ndcg_cut_{k}": ratio[row] for row, k in enumerate(ks)}


_CHUNK_ROWS = 1 << 16  # rows joined, or summed per topic, at a time


def _ranked_labels(
    q: Table,
    q_topic: np.ndarray,
    r_topic: np.ndarray,
    r_docs: np.ndarray,
    doc_in_qrels: np.ndarray,
    order: np.ndarray,
) -> np.ndarray:
    """The qrels label (float; NaN: unjudged, i.e. absent or negative there) of run row
    ``order[i]``, for each rank position i.

    ``doc_in_qrels`` maps the run's document codes onto the qrels' (-1: absent). The
    (topic, document) pairs are looked up a slice of positions at a time in the sorted
    qrels pairs, so no temporary is as long as the run.
    """
    n_docs = max(len(q.doc_names), 1)
    pairs = q_topic.astype(np.int64)
    pairs *= n_docs
    pairs += q.doc_codes
    by_pair = np.argsort(pairs, kind="stable")
    pairs = pairs[by_pair]
    judged = q.values[by_pair].astype(float)
    del by_pair
    judged[judged < 0] = np.nan  # pooled, not judged
    labels = np.full(len(order), np.nan)
    if len(pairs) == 0:
        return labels
    for begin in range(0, len(order), _CHUNK_ROWS):
        rows = order[begin : begin + _CHUNK_ROWS]
        docs = doc_in_qrels[r_docs[rows]]
        at_judged = np.flatnonzero(docs >= 0)
        wanted = r_topic[rows[at_judged]].astype(np.int64)
        del rows
        wanted *= n_docs
        wanted += docs[at_judged]
        del docs
        at = np.searchsorted(pairs, wanted)
        np.minimum(at, len(pairs) - 1, out=at)
        found = pairs[at] == wanted
        labels[begin + at_judged[found]] = judged[at[found]]
    return labels


def _ranked_topics(r_topic: np.ndarray, order: np.ndarray) -> np.ndarray:
    """``r_topic[order]``: each rank position's topic. The ranking moves rows only within
    their topic when the run lists each topic's lines together; then that is ``r_topic``
    itself, and no copy is made."""
    moved = np.empty(len(order), dtype=r_topic.dtype)
    same = True
    for begin in range(0, len(order), _CHUNK_ROWS):
        part = slice(begin, begin + _CHUNK_ROWS)
        np.take(r_topic, order[part], out=moved[part])
        same = same and np.array_equal(moved[part], r_topic[part])
    if same:
        del moved
        return r_topic
    return moved


def _longest_list(sorted_topic: np.ndarray) -> int:
    """The number of rows of the longest topic (rows grouped by topic)."""
    if len(sorted_topic) == 0:
        return 0
    change = np.flatnonzero(sorted_topic[1:] != sorted_topic[:-1]) + 1
    return int(np.diff(np.concatenate(([0], change, [len(sorted_topic)]))).max())


def _by_topic_chunks(sorted_topic: np.ndarray, n_values: int, n_topics: int, compute) -> np.ndarray:  # type: ignore[no-untyped-def]
    """``compute(lists, rows)`` on slices of about _CHUNK_ROWS rows holding whole topics
    (``lists`` is the slice's :func:`~ndcg_core.kernel.list_segments`), each giving an
    ``(n_values, n_topics)`` array; the topics of each slice are taken from its array.

    Every topic's value is computed from its own rows only, so the slices give the numbers
    one pass over all rows would, with temporaries of a slice's length.
    """
    out = np.zeros((n_values, n_topics))
    n = len(sorted_topic)
    if n == 0:
        return out
    # the first row of each topic (rows grouped by topic), and the end
    starts = np.flatnonzero(sorted_topic[1:] != sorted_topic[:-1]) + 1
    starts = np.concatenate((starts, [n]))
    begin = 0
    while begin < n:
        end = int(starts[np.searchsorted(starts, begin + _CHUNK_ROWS)]) if begin + _CHUNK_ROWS < n else n
        rows = slice(begin, end)
        lists = list_segments(sorted_topic[rows])
        out[:, lists.ids] = compute(lists, rows)[:, lists.ids]
        begin = end
    return out


def _gains(gain: GainFunction, labels: np.ndarray) -> np.ndarray:
    """Gains of many labels (NaN, an unjudged document, gains 0)."""
    return np.asarray(gain(labels), dtype=float)


def _prefix(discount: DiscountFunction, n: int) -> np.ndarray:
    if n <= 0:
        return np.zeros(0)
    return np.asarray(discount.prefix(n), dtype=float)
