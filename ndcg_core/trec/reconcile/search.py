r"""The reconciler's search space, scored: nDCG of every topic under every convention.

:func:`score_conventions` scores a run under every combination of the conventions in
:mod:`ndcg_core.trec.conventions` and returns a :class:`ConventionScores`. The search is
vectorised: each tie order and each treatment of unjudged and negative labels is one
pass of numpy over all topics; gains, discounts, ideal lists and cutoffs are read off
dense per-topic prefix sums (``bench/reconcile_speed.py`` times it).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from ..._lazy import pd
from ..._validation import check_k
from ...discounts import resolve_discount
from ...kernel import dcg_of_lists, running_dcg
from ..conventions import DIMENSIONS, Convention
from ..tables import qrels_frame, run_frame

__all__ = ["POLICIES", "ConventionScores", "canonical", "score_conventions"]

#: (unjudged, negatives) pairs searched: with unjudged documents at gain 0, a negative
#: label scores 0 whether it is "unjudged" or "zero", so that pair is searched once.
POLICIES = (("zero", "unjudged"), ("zero", "as_is"), ("condense", "unjudged"), ("condense", "zero"), ("condense", "as_is"))


def canonical(convention: Convention) -> Convention:
    """The one form the search scores a convention in: with unjudged documents at gain 0,
    negative labels "zero" and "unjudged" give the same numbers, searched once as "unjudged"."""
    if convention.unjudged == "zero" and convention.negatives == "zero":
        return replace(convention, negatives="unjudged")
    return convention



# --------------------------------------------------------------------------- scoring


def _column_codes(column: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    if isinstance(column.dtype, pd.CategoricalDtype):
        return column.cat.codes.to_numpy(np.int64), np.asarray(column.cat.categories.astype(str), dtype=object)
    codes, uniques = pd.factorize(column, sort=False)
    return codes.astype(np.int64), np.asarray([str(u) for u in uniques], dtype=object)


def _byte_rank(names: np.ndarray) -> np.ndarray:
    """Each name's position in strcmp's byte order (Python's code-point order is the same)."""
    try:
        order = np.argsort(names.astype("S"), kind="stable")
    except UnicodeEncodeError:
        order = np.array(sorted(range(len(names)), key=names.__getitem__), dtype=np.intp)
    rank = np.empty(len(names), dtype=np.int64)
    rank[order] = np.arange(len(names))
    return rank


def _segments(topic: np.ndarray) -> np.ndarray:
    """0-based rank of each row within its topic, for rows grouped by topic."""
    n = len(topic)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    change = np.empty(n, dtype=bool)
    change[0] = True
    np.not_equal(topic[1:], topic[:-1], out=change[1:])
    starts = np.flatnonzero(change)
    return np.arange(n, dtype=np.int64) - np.repeat(starts, np.diff(np.append(starts, n)))


def _gain(name: str, values: np.ndarray) -> np.ndarray:
    return values if name == "linear" else np.exp2(values) - 1.0


class _Ranked:
    """Rows of one ordering: topic, 0-based rank, label value (0 when unjudged)."""

    def __init__(self, topic: np.ndarray, values: np.ndarray, n_topics: int, depth: int, group: np.ndarray | None = None):
        self.topic = topic
        self.values = values
        self.rank0 = _segments(topic)
        self.n_topics = n_topics
        self.depth = depth
        self.group = group  # tie groups (the averaging rule), else None
        self.top = np.flatnonzero(self.rank0 < depth)

    def gains(self, gain: str) -> np.ndarray:
        g = _gain(gain, self.values)
        if self.group is None:
            return g
        sizes = np.bincount(self.group)
        return (np.bincount(self.group, g) / sizes)[self.group]

    def sums(self, gains: np.ndarray, factors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Cumulative DCG at ranks 1..depth (n_topics x depth) and DCG of the whole list."""
        dense = np.zeros((self.n_topics, self.depth))
        top = self.top
        dense[self.topic[top], self.rank0[top]] = gains[top]
        _, prefix = running_dcg(dense, factors)
        whole = dcg_of_lists(gains, factors[self.rank0], self.topic, self.n_topics)
        return prefix, whole

    def top_labels(self) -> np.ndarray:
        """Labels of ranks 1..depth (n_topics x depth), -inf where a topic has fewer documents."""
        dense = np.full((self.n_topics, self.depth), -np.inf)
        dense[self.topic[self.top], self.rank0[self.top]] = self.values[self.top]
        return dense


def _ratio(dcg: np.ndarray, idcg: np.ndarray) -> np.ndarray:
    return np.divide(dcg, idcg, out=np.zeros(len(dcg)), where=idcg > 0)


@dataclass(frozen=True)
class ConventionScores:
    """Per-topic nDCG of one run under every convention (from :func:`score_conventions`).

    Attributes
    ----------
    topics : tuple of str
        Every topic of the qrels or the run, in byte order (trec_eval's).
    k : int or None
        The cutoff asked for (``None``: the whole run).
    cutoffs : tuple of str
        The cutoff values searched: ``k``, ``k-1`` (when k > 1), ``k+1``, ``whole``; only
        ``k`` (the whole run) when k is None.
    values : numpy.ndarray
        nDCG, shape (gain, discount, ideal, ties, policy, cutoff, topic), in the order of
        :data:`~ndcg_core.trec.conventions.DIMENSIONS` and :data:`POLICIES`.
    in_qrels, in_run : numpy.ndarray of bool
        Which topics the qrels judge and the run retrieves for.
    facts : pandas.DataFrame
        One row per topic (index ``query_id``), what the explanations cite, counted under
        trec_eval's ranking: ``relevant`` (qrels labels > 0), ``retrieved``,
        ``retrieved_relevant``, ``relevant_in_top`` (in the top k), ``top_label`` (the
        largest qrels label), ``tied_in_top`` (top-k documents sharing their score with
        another document), ``unjudged_in_top``, ``negative_judged`` (qrels lines with a
        negative label), ``negative_retrieved``, ``label_at_k`` and ``label_after_k`` (the
        labels at ranks k and k + 1; NaN for no document or an unjudged one).
    """

    topics: tuple[str, ...]
    k: int | None
    cutoffs: tuple[str, ...]
    values: np.ndarray = field(repr=False)
    in_qrels: np.ndarray = field(repr=False)
    in_run: np.ndarray = field(repr=False)
    facts: pd.DataFrame = field(repr=False, compare=False)

    def index(self, convention: Convention) -> tuple[int, ...]:
        """The position of ``convention`` (topics aside) in :attr:`values`."""
        c = canonical(convention)
        if c.cutoff not in self.cutoffs:
            raise ValueError(f"cutoff {c.cutoff!r} is not searched for k={self.k}; choose from {', '.join(self.cutoffs)}.")
        return (
            DIMENSIONS["gain"].index(c.gain),
            DIMENSIONS["discount"].index(c.discount),
            DIMENSIONS["ideal"].index(c.ideal),
            DIMENSIONS["ties"].index(c.ties),
            POLICIES.index((c.unjudged, c.negatives)),
            self.cutoffs.index(c.cutoff),
        )

    def convention(self, index: tuple[int, ...], topics: str = "both") -> Convention:
        """The convention at ``index`` of :attr:`values` (the inverse of :meth:`index`)."""
        g, d, i, t, p, c = index
        unjudged, negatives = POLICIES[p]
        return Convention(
            gain=DIMENSIONS["gain"][g],
            discount=DIMENSIONS["discount"][d],
            ideal=DIMENSIONS["ideal"][i],
            ties=DIMENSIONS["ties"][t],
            unjudged=unjudged,
            negatives=negatives,
            topics=topics,
            cutoff=self.cutoffs[c],
        )

    def topic_mask(self, topics: str) -> np.ndarray:
        """Which topics a topic set (``both``, ``qrels``, ``run``) averages over."""
        if topics == "both":
            return self.in_qrels & self.in_run
        if topics == "qrels":
            return self.in_qrels
        if topics == "run":
            return self.in_run
        raise ValueError(f"topics must be both, qrels or run for a mean; got {topics!r}.")

    def per_topic(self, convention: Convention) -> pd.Series:
        """nDCG of each topic of ``convention``'s topic set (every topic for ``listed``)."""
        row = self.values[self.index(convention)]
        mask = np.ones(len(self.topics), dtype=bool) if convention.topics == "listed" else self.topic_mask(convention.topics)
        return pd.Series(row[mask], index=pd.Index(np.asarray(self.topics, dtype=object)[mask], name="query_id"), name="ndcg")

    def mean(self, convention: Convention) -> float:
        """The mean nDCG over ``convention``'s topic set (0.0 for an empty set)."""
        values = self.per_topic(convention)
        return float(values.sum() / len(values)) if len(values) else 0.0

    def means(self) -> np.ndarray:
        """Means of every convention: :attr:`values`' shape with the topic axis replaced by
        the topic sets ``both``, ``qrels``, ``run``."""
        out = []
        for topics in DIMENSIONS["topics"]:
            mask = self.topic_mask(topics)
            count = int(mask.sum())
            out.append(self.values[..., mask].sum(axis=-1) / max(count, 1))
        return np.stack(out, axis=-1)

    def position(self, query_id: str) -> int:
        """The index of a topic in :attr:`topics` (and on the last axis of :attr:`values`)."""
        return int(self.facts.index.get_loc(query_id))


def score_conventions(qrels: object, run: object, k: int | None) -> ConventionScores:
    r"""nDCG@k of every topic under every convention of the search space.

    .. math:: \mathrm{nDCG}@k_c(q) = \frac{\sum_{i=1}^{k_c} g_c(\ell_{q,\pi_c(i)})\, d_c(i)}
              {\sum_{i=1}^{k_c} g_c(\ell^{*}_{q,c,i})\, d_c(i)}

    for each convention c: its ranking :math:`\pi_c` (tie order, unjudged documents
    kept or removed), gain :math:`g_c`, discount :math:`d_c`, cutoff :math:`k_c` and
    ideal labels :math:`\ell^*_{q,c}` (all judgments, the retrieved list or its top k,
    sorted). An ideal DCG of 0 or less gives 0.

    Parameters
    ----------
    qrels, run : table or dict
        From :func:`~ndcg_core.trec.read_qrels` / :func:`~ndcg_core.trec.read_run`, or
        ``{query_id: {doc_id: value}}`` dicts. The run's row order is its file order.
    k : int or None
        The cutoff of the number to reconcile; ``None`` for the whole run.

    Examples
    --------
    >>> scores = score_conventions({"q1": {"a": 2, "b": 1}}, {"q1": {"b": 1.0, "c": 0.5}}, 2)
    >>> round(float(scores.per_topic(Convention()).loc["q1"]), 4)  # 1 / (2 + 1/log2(3))
    0.3801
    >>> round(float(scores.per_topic(Convention(ideal="retrieved")).loc["q1"]), 4)
    1.0
    """
    k = check_k(k)
    topics, q_topic, r_topic, q_label, scores, raw, rd_codes, rd_names = _aligned(qrels, run)
    n_topics = len(topics)
    in_qrels = np.bincount(q_topic, minlength=n_topics) > 0
    in_run = np.bincount(r_topic, minlength=n_topics) > 0

    # the orderings: topic, score descending, then the tie rule
    file_order = np.lexsort((-scores, r_topic))
    doc_rank = _byte_rank(rd_names)[rd_codes]
    orders = {
        "docno_desc": np.lexsort((-doc_rank, -scores, r_topic)),
        "docno_asc": np.lexsort((doc_rank, -scores, r_topic)),
        "file_order": file_order,
        "averaged": file_order,
    }
    judged = ~np.isnan(raw)
    negative = judged & (raw < 0)
    clipped = np.where(judged, np.maximum(raw, 0.0), 0.0)
    as_is = np.where(judged, raw, 0.0)
    keeps = {"all": None, "nonnegative": judged & ~negative, "judged": judged}
    label_values = {"clipped": clipped, "as_is": as_is}

    # "k" is the cutoff asked for; with k=None that is the whole run, and the only cutoff
    cutoffs = ("k",) if k is None else (("k",) + (("k-1",) if k > 1 else ()) + ("k+1", "whole"))
    depth = 0 if k is None else k + 1
    cut_at = {"k": k, "k-1": None if k is None else k - 1, "k+1": None if k is None else k + 1, "whole": None}
    longest = max(
        np.bincount(r_topic, minlength=n_topics).max(initial=0),
        np.bincount(q_topic, minlength=n_topics).max(initial=0),
        depth,
        1,
    )
    factors = {name: resolve_discount(name).prefix(int(longest)) for name in DIMENSIONS["discount"]}
    gains, discounts, ideals, ties = (DIMENSIONS[d] for d in ("gain", "discount", "ideal", "ties"))
    values = np.zeros((len(gains), len(discounts), len(ideals), len(ties), len(POLICIES), len(cutoffs), n_topics))

    def ranked(order: np.ndarray, keep_name: str, value_name: str, group: bool = False) -> _Ranked:
        return _ranked_rows(order, keeps[keep_name], r_topic, scores, label_values[value_name], n_topics, depth, group)

    # ideal lists from all judgments: per treatment of negative labels
    q_order = np.lexsort((-q_label, q_topic))
    judgment_ideal = _judgment_ideals(q_order, q_topic, q_label, n_topics, depth)
    # ideal lists from the retrieved documents: one sort serves every policy
    retrieved_order = np.lexsort((-as_is, r_topic))

    idcg_cache: dict[tuple[int, str, str], dict[str, np.ndarray]] = {}

    def idcg_at(ideal: _Ranked, gain: str, discount: str) -> dict[str, np.ndarray]:
        key = (id(ideal), gain, discount)
        if key in idcg_cache:
            return idcg_cache[key]
        prefix, whole = ideal.sums(_gain(gain, ideal.values), factors[discount])
        out = {name: whole if cut_at[name] is None else prefix[:, cut_at[name] - 1] for name in cutoffs}
        out["whole"] = whole
        idcg_cache[key] = out
        return out

    cache_retrieved: dict[tuple[str, str], _Ranked] = {}
    for ti, tie in enumerate(ties):
        for pi, policy in enumerate(POLICIES):
            keep_name, value_name = _POLICY_ROWS[policy]
            lists = ranked(orders[tie], keep_name, value_name, group=tie == "averaged")
            key = (keep_name, value_name)
            if key not in cache_retrieved:
                cache_retrieved[key] = ranked(retrieved_order, keep_name, value_name)
            retrieved = cache_retrieved[key]
            top_labels = lists.top_labels() if depth else None
            for gi, gain in enumerate(gains):
                run_gains = lists.gains(gain)
                for di, discount in enumerate(discounts):
                    prefix, whole = lists.sums(run_gains, factors[discount])
                    dcg = {name: whole if cut_at[name] is None else prefix[:, cut_at[name] - 1] for name in cutoffs}
                    by_ideal = {
                        "judgments": idcg_at(judgment_ideal[policy[1]], gain, discount),
                        "retrieved": idcg_at(retrieved, gain, discount),
                    }
                    by_ideal["judgments_full"] = {name: by_ideal["judgments"]["whole"] for name in cutoffs}
                    by_ideal["retrieved_top_k"] = _top_k_ideal(top_labels, by_ideal["retrieved"], cut_at, gain, factors[discount])
                    for ii, ideal in enumerate(ideals):
                        for ci, name in enumerate(cutoffs):
                            values[gi, di, ii, ti, pi, ci] = _ratio(dcg[name], by_ideal[ideal][name])

    facts = _topic_facts(topics, k, orders["docno_desc"], r_topic, raw, scores, q_order, q_topic, q_label)
    return ConventionScores(topics, k, cutoffs, values, in_qrels, in_run, facts)


#: (unjudged, negatives) -> (which run rows are ranked, which label values they carry)
_POLICY_ROWS = {
    ("zero", "unjudged"): ("all", "clipped"),
    ("zero", "as_is"): ("all", "as_is"),
    ("condense", "unjudged"): ("nonnegative", "clipped"),
    ("condense", "zero"): ("judged", "clipped"),
    ("condense", "as_is"): ("judged", "as_is"),
}


def _ranked_rows(
    order: np.ndarray,
    keep: np.ndarray | None,
    r_topic: np.ndarray,
    scores: np.ndarray,
    values: np.ndarray,
    n_topics: int,
    depth: int,
    group: bool,
) -> _Ranked:
    """The run rows of ``order`` that ``keep`` keeps, as a :class:`_Ranked`; ``group``
    marks runs of tied scores (the averaging tie rule)."""
    if keep is not None:
        order = order[keep[order]]
    topic = r_topic[order]
    groups = None
    if group and len(order):
        s = scores[order]
        change = np.concatenate(([True], (topic[1:] != topic[:-1]) | (s[1:] != s[:-1])))
        groups = np.cumsum(change) - 1
    return _Ranked(topic, values[order], n_topics, depth, groups)


def _judgment_ideals(q_order, q_topic, q_label, n_topics: int, depth: int) -> dict[str, _Ranked]:  # type: ignore[no-untyped-def]
    """The ideal lists from all judgments (sorted by label), per treatment of negative labels."""
    ideals = {}
    for negatives in ("unjudged", "zero", "as_is"):
        rows = q_order if negatives != "unjudged" else q_order[q_label[q_order] >= 0]
        labels = q_label[rows] if negatives != "zero" else np.maximum(q_label[rows], 0.0)
        ideals[negatives] = _Ranked(q_topic[rows], labels, n_topics, depth)
    return ideals


def _aligned(qrels: object, run: object):  # type: ignore[no-untyped-def]
    """Both tables on one topic numbering (every topic of either, in byte order): the
    topics, each qrels and run row's topic, the qrels labels, the run's scores, each run
    row's qrels label (NaN: not in the qrels) and the run's document codes and names."""
    qf, rf = qrels_frame(qrels), run_frame(run)
    qt_codes, qt_names = _column_codes(qf["query_id"])
    rt_codes, rt_names = _column_codes(rf["query_id"])
    used_q = qt_names[np.unique(qt_codes)] if len(qt_codes) else qt_names[:0]
    used_r = rt_names[np.unique(rt_codes)] if len(rt_codes) else rt_names[:0]
    topics = tuple(sorted(set(used_q.tolist()) | set(used_r.tolist())))
    position = {name: i for i, name in enumerate(topics)}
    q_topic = np.array([position.get(n, -1) for n in qt_names], dtype=np.int64)[qt_codes]
    r_topic = np.array([position.get(n, -1) for n in rt_names], dtype=np.int64)[rt_codes]
    q_label = qf["relevance"].to_numpy(np.float64)
    scores = rf["score"].to_numpy(np.float64)
    qd_codes, qd_names = _column_codes(qf["doc_id"])
    rd_codes, rd_names = _column_codes(rf["doc_id"])
    n_docs = max(len(qd_names), 1)
    run_doc_in_qrels = pd.Index(qd_names).get_indexer(rd_names)[rd_codes]
    run_keys = np.where(run_doc_in_qrels >= 0, r_topic * n_docs + run_doc_in_qrels, -1)
    hit = pd.Index(q_topic * n_docs + qd_codes).get_indexer(run_keys)
    raw = np.where(hit >= 0, q_label[np.maximum(hit, 0)], np.nan)
    return topics, q_topic, r_topic, q_label, scores, raw, rd_codes, rd_names


def _top_k_ideal(
    top_labels: np.ndarray | None,
    retrieved: dict[str, np.ndarray],
    cut_at: dict[str, int | None],
    gain: str,
    factors: np.ndarray,
) -> dict[str, np.ndarray]:
    """The ideal DCG of the run's own top k (its labels sorted), per cutoff; the whole
    retrieved list's for the whole-run cutoff."""
    out: dict[str, np.ndarray] = {}
    for name, cut in cut_at.items():
        if name not in retrieved:
            continue
        if cut is None:
            out[name] = retrieved[name]
        else:
            best = -np.sort(-top_labels[:, :cut], axis=1)  # type: ignore[index]
            top_gains = np.where(np.isfinite(best), _gain(gain, np.where(np.isfinite(best), best, 0.0)), 0.0)
            out[name] = running_dcg(top_gains, factors)[1][:, -1]
    return out


def _topic_facts(topics, k, order, r_topic, raw, scores, q_order, q_topic, q_label) -> pd.DataFrame:  # type: ignore[no-untyped-def]
    """The per-topic counts of :attr:`ConventionScores.facts`, all topics at once."""
    n = len(topics)
    t, label, score = r_topic[order], raw[order], scores[order]
    rank0 = _segments(t)
    in_top = rank0 < (k if k is not None else len(t) + 1)
    tied = np.zeros(len(t), dtype=bool)
    same = (t[1:] == t[:-1]) & (score[1:] == score[:-1])
    tied[1:] |= same
    tied[:-1] |= same
    judged = ~np.isnan(label)
    positive = judged & (label > 0)
    negative = judged & (label < 0)

    def count(topic: np.ndarray, flags: np.ndarray) -> np.ndarray:
        return np.bincount(topic, flags.astype(np.int64), minlength=n).astype(np.int64)

    def label_at(rank: int | None) -> np.ndarray:
        out = np.full(n, np.nan)
        if rank is not None:
            at = rank0 == rank - 1
            out[t[at]] = label[at]
        return out

    top_label = np.zeros(n)
    ordered_topics = q_topic[q_order]
    if len(ordered_topics):
        first = np.concatenate(([True], ordered_topics[1:] != ordered_topics[:-1]))
        top_label[ordered_topics[first]] = q_label[q_order][first]
    return pd.DataFrame(
        {
            "relevant": count(q_topic, q_label > 0),
            "retrieved": count(t, np.ones(len(t), dtype=bool)),
            "retrieved_relevant": count(t, positive),
            "relevant_in_top": count(t, positive & in_top),
            "top_label": top_label.astype(np.int64),
            "tied_in_top": count(t, tied & in_top),
            "unjudged_in_top": count(t, (~judged | negative) & in_top),
            "negative_judged": count(q_topic, q_label < 0),
            "negative_retrieved": count(t, negative),
            "label_at_k": label_at(k),
            "label_after_k": label_at(None if k is None else k + 1),
        },
        index=pd.Index(np.asarray(topics, dtype=object), name="query_id"),
    )
