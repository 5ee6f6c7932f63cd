r"""trec_eval's measures by name: the ``-m`` syntax, and the measures beyond nDCG.

:func:`parse_measures` reads measure specs as trec_eval 10.0's ``-m`` does and puts them
in trec_eval's output order. :func:`trec_measure_values` computes, for every topic at
once, the measures that :func:`ndcg_core.trec.evaluate_run` takes from here: the binary
ones (``P``, ``map``) and the rest of trec_eval's nDCG family (``dcg``, ``ideal_dcg``,
``ndcg`` with gain values, ``ndcg_rel``, ``Rndcg``).

==================  ========================  ==========================================
spec                output names              value per topic (ranks i = 1..n)
==================  ========================  ==========================================
``map``             ``map``                   :math:`\frac{1}{R}\sum_{i:\,rel_i}
                                              \frac{|\{j \le i: rel_j\}|}{i}`
``Rprec``           ``Rprec``                 relevant documents in the top R, over R
                                              (P@R; the top min(R, n) are looked at)
``bpref``           ``bpref``                 :math:`\frac{1}{R}\sum_{i:\,rel_i} \bigl(1 -
                                              \frac{\min(N_i, R)}{\min(N, R)}\bigr)`, N_i
                                              judged non-relevant documents above i
                                              (1 when N_i = 0), N those in the qrels
``P``, ``P.5,10``   ``P_5`` ...               relevant documents in the top k, over k
``dcg``             ``dcg``                   :math:`\sum_i g(\ell_i)\,d(i)`
``ideal_dcg``       ``ideal_dcg``             the same sum over the ideal list
``ndcg.1=3,2=9``    ``ndcg_1=3,2=9``          ``dcg`` / ``ideal_dcg`` with gain 3 for
                                              label 1 and 9 for label 2
``ndcg_rel``        ``ndcg_rel``              nDCG at each relevant document, averaged
                                              over the R' documents of positive gain
``Rndcg``           ``Rndcg``                 nDCG averaged at the R levels (where the
                                              ideal gain changes)
``ndcg``            ``ndcg``                  (computed by :mod:`.evaluate`)
``ndcg_cut.5,10``   ``ndcg_cut_5`` ...        (computed by :mod:`.evaluate`)
``unjudged_cut``    ``unjudged_cut_5`` ...    (ndcg-eval's own; :mod:`.evaluate`)
==================  ========================  ==========================================

Conventions, all trec_eval 10.0's: a document is *relevant* for ``P`` and ``map`` when
its qrels label is at least ``relevance_level`` (``-l``, default 1) and R counts those
labels in the qrels; the gain of label l is l unless a gain value is given
(``ndcg.l=gain``), an unjudged document's is 0; the ideal list holds the positive gains of
the judged documents (label 0 or more), largest first; the discount is 1/log2(i+1). The
``--gain`` and ``--discount`` of ndcg-eval replace the default gain and the discount of
the gain-valued measures (not of ``P`` and ``map``).

Differences from trec_eval 10.0, on purpose:

- gain values are sorted exactly. trec_eval compares them through an integer cast, so
  two gains less than 1 apart (``ndcg.1=0.9,2=0.5``) can be put in the wrong order in
  its ideal list (it then prints 0 or more than 1); with gains that differ by at least 1
  (integer gains always) the two agree;
- each of ``dcg``, ``ideal_dcg``, ``ndcg``, ``ndcg_rel``, ``Rndcg`` has its own gain
  values (trec_eval's ``dcg``, ``ideal_dcg`` and ``ndcg`` share one parameter list and
  crash when only one of them is given values); repeating a measure adds to it
  (``-m P.5 -m P.10`` gives both; trec_eval keeps the first);
- ``Rndcg`` of a topic with no positive ideal gain (with ``relevance_level=0`` a topic
  judged all 0, or gain values all 0 or less) is 0, as
  any nDCG whose IDCG is 0 (trec_eval divides 0 by 0 and prints ``-nan``);
- a cutoff must be a whole number (trec_eval reads ``ndcg_cut.23.4`` as 23) and
  ``ndcg_cut`` takes no gain values (trec_eval would read ``ndcg_cut.1=3.5`` as cutoff 1).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..discounts import DiscountFunction
from ..kernel import dcg_of_segments, running_dcg_of_segments
from ..gains import GainFunction

__all__ = [
    "CUTOFF_FAMILIES",
    "DEFAULT_CUTOFFS",
    "DEFAULT_UNJUDGED_CUTOFFS",
    "GAIN_FAMILIES",
    "MEASURE_FAMILIES",
    "Measure",
    "check_trec_options",
    "close_gains",
    "describe_measure",
    "parse_measures",
    "top_ranks",
    "trec_measure_values",
]

DEFAULT_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
DEFAULT_UNJUDGED_CUTOFFS = (5, 10, 20)
#: In trec_eval's output order (its measures.c table), then ndcg-eval's own unjudged_cut.
MEASURE_FAMILIES = ("map", "Rprec", "bpref", "P", "dcg", "ideal_dcg", "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut", "unjudged_cut")
CUTOFF_FAMILIES = ("P", "ndcg_cut", "unjudged_cut")
#: Measures without parameters (binary, judged by ``relevance_level``).
_PLAIN_FAMILIES = ("map", "Rprec", "bpref")
GAIN_FAMILIES = ("dcg", "ideal_dcg", "ndcg", "ndcg_rel", "Rndcg")
_FAMILY_ORDER = {name: i for i, name in enumerate(MEASURE_FAMILIES)}
_VALID = "map, Rprec, bpref, P, P.5,10, dcg, ideal_dcg, ndcg, ndcg.1=3,2=9, ndcg_rel, Rndcg, ndcg_cut, ndcg_cut.5,10 or unjudged_cut.10"


@dataclass(frozen=True, order=True)
class Measure:
    """One measure: its ``family``, cutoff ``k`` (0 when none) and gain values.

    ``params`` is the gain-value text as typed (``"1=3,2=9"``, printed in the name as
    trec_eval does); ``gains`` the same as ``(label, gain)`` pairs.
    """

    order: int = field(repr=False)
    k: int
    family: str
    params: str = ""
    gains: tuple[tuple[int, float], ...] = field(default=(), compare=False)

    @property
    def name(self) -> str:
        """The output name, as trec_eval prints it: ``ndcg``, ``P_10``, ``ndcg_1=3,2=9``."""
        if self.family in CUTOFF_FAMILIES:
            return f"{self.family}_{self.k}"
        return f"{self.family}_{self.params}" if self.params else self.family


def _measure(family: str, k: int = 0, params: str = "", gains: tuple[tuple[int, float], ...] = ()) -> Measure:
    return Measure(_FAMILY_ORDER[family], k, family, params, gains)


def _unknown(spec: str, family: str) -> ValueError:
    hint = ""
    stem, _, number = family.rpartition("_")
    if stem in CUTOFF_FAMILIES and number.isdigit():
        hint = f" Write the cutoff after a dot: {stem}.{number}."
    elif family in ("runid", "num_q"):
        hint = " runid and num_q are lines of ndcg-eval's output (-m runid, -m num_q), not values per topic."
    elif family.lower() in {f.lower() for f in MEASURE_FAMILIES}:
        right = next(f for f in MEASURE_FAMILIES if f.lower() == family.lower())
        hint = f" Measure names are case-sensitive: write {right}."
    return ValueError(f"measure must be one of {_VALID}; got {spec!r}.{hint}")


def _gain_values(family: str, params: str, spec: str) -> tuple[tuple[int, float], ...]:
    pairs: dict[int, float] = {}
    for token in params.split(","):
        level_text, equals, gain_text = token.strip().partition("=")
        level_text, gain_text = level_text.strip(), gain_text.strip()
        if not equals:
            if family == "ndcg" and token.strip().isdigit():
                raise ValueError(
                    f"measure ndcg takes no cutoff; got {spec!r}. Use ndcg_cut.{params} for nDCG at a cutoff "
                    "(ndcg takes gain values instead, e.g. ndcg.1=3.5,2=9.0)."
                )
            raise ValueError(
                f"measure {family} parameters must be label=gain pairs separated by commas; got {token.strip()!r} "
                f"in {spec!r}. Write e.g. {family}.1=3.5,2=9.0."
            )
        if not level_text.isdigit():
            raise ValueError(
                f"measure {family} labels must be whole numbers 0 or more; got {level_text!r} in {spec!r}. "
                f"Write e.g. {family}.1=3.5,2=9.0 (labels as in the qrels file)."
            )
        try:
            gain = float(gain_text)
        except ValueError:
            gain = math.nan
        if not math.isfinite(gain):
            raise ValueError(
                f"measure {family} gains must be finite numbers; got {gain_text!r} for label {level_text} in {spec!r}. "
                f"Write e.g. {family}.1=3.5,2=9.0."
            )
        level = int(level_text)
        if level in pairs:
            raise ValueError(f"measure {family} gives label {level} a gain twice in {spec!r}; give each label one gain.")
        pairs[level] = gain
    return tuple(pairs.items())


def parse_measures(specs: str | Sequence[str]) -> tuple[Measure, ...]:
    """Parse measure specs in trec_eval's ``-m`` syntax, in trec_eval's output order.

    ``"map"``; ``"P"`` (cutoffs 5, 10, 15, 20, 30, 100, 200, 500, 1000) or ``"P.5,10"``;
    ``"dcg"``, ``"ideal_dcg"``, ``"ndcg"``, ``"ndcg_rel"``, ``"Rndcg"``, each with optional
    gain values ``".1=3.5,2=9.0"`` (label=gain; other labels keep their default gain);
    ``"ndcg_cut"`` or ``"ndcg_cut.5,10"``; ``"unjudged_cut"`` or ``"unjudged_cut.10"``.
    Repeated specs are merged.

    Examples
    --------
    >>> [m.name for m in parse_measures(["ndcg_cut.10,5", "ndcg", "P.10", "map", "ndcg.1=3,2=9"])]
    ['map', 'P_10', 'ndcg', 'ndcg_1=3,2=9', 'ndcg_cut_5', 'ndcg_cut_10']
    """
    if isinstance(specs, str):
        specs = [specs]
    found: set[Measure] = set()
    for spec in specs:
        if not isinstance(spec, str):
            raise TypeError(f"measure must be text such as {_VALID}; got {spec!r} ({type(spec).__name__}).")
        spec = spec.strip()
        family, dot, params = spec.partition(".")
        if family not in MEASURE_FAMILIES:
            raise _unknown(spec, family)
        if family in _PLAIN_FAMILIES:
            if dot:
                raise ValueError(f"measure {family} takes no parameters; got {spec!r}. Write {family}.")
            found.add(_measure(family))
        elif family in GAIN_FAMILIES:
            if not dot:
                found.add(_measure(family))
            else:
                found.add(_measure(family, 0, params.strip(), _gain_values(family, params, spec)))
        elif not dot:
            defaults = DEFAULT_UNJUDGED_CUTOFFS if family == "unjudged_cut" else DEFAULT_CUTOFFS
            found.update(_measure(family, k) for k in defaults)
        else:
            for token in params.split(","):
                token = token.strip()
                if not token.isdigit() or int(token) < 1:
                    hint = ""
                    if "=" in token and family == "ndcg_cut":
                        hint = (
                            " ndcg_cut takes cutoffs only (trec_eval has no gain values for it): for gain values "
                            "write ndcg.1=3.5,2=9.0, or give ndcg_cut a --gain-table."
                        )
                    raise ValueError(
                        f"measure {family} cutoffs must be positive whole numbers separated by commas; "
                        f"got {token!r} in {spec!r}. Write e.g. {family}.5,10.{hint}"
                    )
                found.add(_measure(family, int(token)))
    if not found:
        raise ValueError(f"at least one measure is needed, such as {_VALID}.")
    return tuple(sorted(found))


def describe_measure(name: str) -> str:
    """The measure's output name in words, for configuration sentences.

    Examples
    --------
    >>> [describe_measure(n) for n in ("ndcg", "ndcg_cut_10", "P_5", "ndcg_1=3,2=9")]
    ['nDCG (whole run)', 'nDCG@10', 'P@5', 'nDCG (whole run; gains 1=3,2=9)']
    """
    family, _, rest = name.partition("_")
    for known in sorted(MEASURE_FAMILIES, key=len, reverse=True):
        if name == known or name.startswith(known + "_"):
            family, rest = known, name[len(known) + 1 :]
            break
    words = {
        "map": "MAP",
        "Rprec": "R-precision (P@R)",
        "bpref": "bpref",
        "dcg": "DCG (whole run)",
        "ideal_dcg": "ideal DCG (whole judgments)",
        "ndcg": "nDCG (whole run)",
        "ndcg_rel": "nDCG averaged over relevant documents",
        "Rndcg": "nDCG averaged at the R levels",
    }
    if family == "P":
        return f"P@{rest}"
    if family == "ndcg_cut":
        return f"nDCG@{rest}"
    if family == "unjudged_cut":
        return f"unjudged fraction in the top {rest}"
    phrase = words.get(family, name)
    if rest:
        phrase = phrase[:-1] + f"; gains {rest})" if phrase.endswith(")") else f"{phrase} (gains {rest})"
    return phrase


# --------------------------------------------------------------------------- per topic


class _Lists:
    """Rows grouped by list (topic): where each list starts, its topic and each row's rank."""

    def __init__(self, codes: np.ndarray, n_topics: int):
        n = len(codes)
        change = np.ones(n, dtype=bool)
        if n:
            np.not_equal(codes[1:], codes[:-1], out=change[1:])
        self.starts = np.flatnonzero(change)
        del change
        self.topic = codes[self.starts].astype(np.intp)
        self.sizes = np.diff(np.append(self.starts, n))
        self.length = np.zeros(n_topics, dtype=np.int64)
        self.length[self.topic] = self.sizes
        self.first = np.zeros(n_topics, dtype=np.int64)
        self.first[self.topic] = self.starts
        self.n_topics = n_topics
        self.n = n

    @property
    def rank0(self) -> np.ndarray:
        """Each row's 0-based rank in its list (int32 when that holds every rank)."""
        kind = np.int32 if self.n < 2**31 else np.int64
        rank0 = np.arange(self.n, dtype=kind)
        rank0 -= np.repeat(self.starts.astype(kind), self.sizes)
        return rank0

    def count(self, flags: np.ndarray) -> np.ndarray:
        """Running count of true flags within each list (exact, int32 when it fits)."""
        kind = np.int32 if self.n < 2**31 else np.int64
        running = np.cumsum(flags, dtype=kind)
        if len(self.starts) > 1:
            before = np.zeros(len(self.starts), dtype=kind)
            before[1:] = running[self.starts[1:] - 1]
            running -= np.repeat(before, self.sizes)
        return running

    def at(self, running: np.ndarray, count: np.ndarray, topics: np.ndarray) -> np.ndarray:
        """The running sum of the first ``count`` rows of each topic's list (0 for none)."""
        count = np.minimum(count, self.length[topics])
        out = np.zeros(len(topics))
        some = count > 0
        out[some] = running[self.first[topics[some]] + count[some] - 1]
        return out


def _whole(value: object) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, np.integer))


def check_trec_options(max_docs: object, relevance_level: object) -> None:
    """Check trec_eval's ``-M`` (``max_docs``: None or a whole number 0 or more) and ``-l``
    (``relevance_level``: a whole number 0 or more); raise ValueError naming the fix.

    Examples
    --------
    >>> check_trec_options(100, 1)
    >>> check_trec_options(-5, 1)
    Traceback (most recent call last):
    ...
    ValueError: max_docs must be a whole number 0 or more (documents kept per topic, trec_eval -M); got -5.
    """
    if max_docs is not None and (not _whole(max_docs) or max_docs < 0):  # type: ignore[operator]
        raise ValueError(
            f"max_docs must be a whole number 0 or more (documents kept per topic, trec_eval -M); got {max_docs!r}."
        )
    if not _whole(relevance_level) or relevance_level < 0:  # type: ignore[operator]
        raise ValueError(
            f"relevance_level must be a whole number 0 or more; got {relevance_level!r}. "
            "Labels at least this count as relevant (trec_eval -l; default 1)."
        )


def top_ranks(topic: np.ndarray, max_docs: int) -> np.ndarray:
    """Mask of the rows within the top ``max_docs`` of their topic (rows grouped by topic,
    in rank order): trec_eval's ``-M``, which cuts each topic's ranking after sorting.

    Examples
    --------
    >>> top_ranks(np.array([0, 0, 0, 1, 1]), 2).tolist()
    [True, True, False, True, True]
    """
    return _Lists(np.asarray(topic), int(np.max(topic, initial=-1)) + 1).rank0 < max_docs


def _topic_totals(topics: np.ndarray, values: np.ndarray, n_topics: int) -> np.ndarray:
    """Sum of ``values`` per topic, added in row order (float, one per topic)."""
    return np.bincount(topics, weights=values, minlength=n_topics).astype(float, copy=False)


def _level_gains(gain: GainFunction, pairs: tuple[tuple[int, float], ...], labels: np.ndarray) -> np.ndarray:
    out = np.asarray(gain(labels), dtype=float)
    for level, value in pairs:
        out[labels == level] = value
    return out


def _factors(discount: DiscountFunction, n: int) -> np.ndarray:
    return np.asarray(discount.prefix(n), dtype=float) if n > 0 else np.zeros(0)


def _gain_family(
    m: Measure,
    run: _Lists,
    labels: np.ndarray,
    q_topic: np.ndarray,
    q_labels: np.ndarray,
    num_rel: np.ndarray,
    gain: GainFunction,
    discount: DiscountFunction,
) -> np.ndarray:
    n_topics = run.n_topics
    judged = q_labels >= 0
    ideal_gains = _level_gains(gain, m.gains, q_labels[judged].astype(float))
    ideal_topic = q_topic[judged]
    positive = ideal_gains > 0  # trec_eval's ideal list stops at the first gain <= 0
    ideal_gains, ideal_topic = ideal_gains[positive], ideal_topic[positive]
    order = np.lexsort((-ideal_gains, ideal_topic))
    ideal_gains, ideal_topic = ideal_gains[order], ideal_topic[order]
    ideal = _Lists(ideal_topic, n_topics)
    factors = _factors(discount, int(max(run.length.max(initial=0), ideal.length.max(initial=0))))
    run_gains = _level_gains(gain, m.gains, labels)
    run_factors, ideal_factors = factors[run.rank0], factors[ideal.rank0]
    if m.family in ("dcg", "ideal_dcg", "ndcg"):
        idcg = dcg_of_segments(ideal_gains, ideal_factors, ideal.starts, ideal.topic, n_topics)
        if m.family == "ideal_dcg":
            return idcg
        dcg = dcg_of_segments(run_gains, run_factors, run.starts, run.topic, n_topics)
        if m.family == "dcg":
            return dcg
        return np.divide(dcg, idcg, out=np.zeros(n_topics), where=idcg > 0)

    all_topics = np.arange(n_topics)
    running = running_dcg_of_segments(run_gains, run_factors, run.starts, run.sizes)
    ideal_running = running_dcg_of_segments(ideal_gains, ideal_factors, ideal.starts, ideal.sizes)
    m_rel = ideal.length  # documents of positive gain in the ideal list
    idcg = ideal.at(ideal_running, m_rel, all_topics)
    dcg = run.at(running, run.length, all_topics)
    if m.family == "ndcg_rel":
        # nDCG at each retrieved document of positive gain (ideal cut at min(i, R')), then
        # dcg / idcg once for each such document not retrieved; averaged over the R'
        rows = np.flatnonzero(run_gains > 0)
        topics = np.repeat(run.topic, run.sizes)[rows]
        at = np.minimum(rows - run.first[topics] + 1, m_rel[topics])
        terms = running[rows] / ideal.at(ideal_running, at, topics)
        total = _topic_totals(topics, terms, n_topics)
        retrieved = np.bincount(topics, minlength=n_topics)
        missed = np.divide((m_rel - retrieved) * dcg, idcg, out=np.zeros(n_topics), where=idcg > 0)
        total += missed
        return np.divide(total, m_rel, out=np.zeros(n_topics), where=(total > 0) & (m_rel > 0))

    # Rndcg: nDCG where the ideal gain changes (after each run of equal positive gains in
    # the ideal list), with the run cut at that rank or its end; plus once at the run's
    # end when it is at least two longer than the ideal list
    ends = np.ones(len(ideal_gains), dtype=bool)
    if len(ideal_gains):
        same = (ideal_topic[1:] == ideal_topic[:-1]) & (ideal_gains[1:] == ideal_gains[:-1])
        ends[:-1] = ~same
    points = np.flatnonzero(ends)
    p_topic = ideal_topic[points]
    p_count = ideal.rank0[points] + 1
    p_values = run.at(running, p_count, p_topic) / ideal_running[points]
    total = _topic_totals(p_topic, p_values, n_topics)
    count = np.bincount(p_topic, minlength=n_topics).astype(float)
    tail = (run.length >= m_rel + 2) & (idcg > 0)
    total[tail] += dcg[tail] / idcg[tail]
    count[tail] += 1
    # no positive ideal gain: 0, as nDCG with IDCG = 0 (trec_eval divides 0 by 0 and prints -nan)
    value = np.divide(total, count, out=np.zeros(n_topics), where=count > 0)
    value[num_rel == 0] = 0.0
    return value


def close_gains(pairs: Sequence[tuple[int, float]], max_label: int) -> tuple[float, float] | None:
    """Two different gains less than 1 apart, which trec_eval 10.0 may misorder; else None.

    trec_eval sorts the gains of labels 0 .. ``max_label`` (``pairs`` given, the others
    gain = label) with a comparison cast to an integer, so such gains compare as equal.

    Examples
    --------
    >>> close_gains([(1, 3.0), (2, 9.0)], 2) is None
    True
    >>> close_gains([(1, 2.0), (2, 1.5)], 2)
    (1.5, 2.0)
    """
    given = dict(pairs)
    gains = sorted({given.get(level, float(level)) for level in range(max(max_label, 0) + 1)} | set(given.values()))
    for low, high in zip(gains, gains[1:]):
        if high - low < 1:
            return (low, high)
    return None


def trec_measure_values(
    measures: Sequence[Measure],
    topic: np.ndarray,
    labels: np.ndarray,
    q_topic: np.ndarray,
    q_labels: np.ndarray,
    n_topics: int,
    *,
    gain: GainFunction,
    discount: DiscountFunction,
    relevance_level: int = 1,
    judged_only: bool = False,
) -> dict[str, np.ndarray]:
    r"""Values of the measures computed here (``map``, ``P``, ``dcg``, ``ideal_dcg``, gain-valued
    ``ndcg``, ``ndcg_rel``, ``Rndcg``) for every topic; other measures are skipped.

    Parameters
    ----------
    measures : sequence of Measure
        From :func:`parse_measures`.
    topic, labels : numpy.ndarray
        The ranked run, one row per document: its topic (0 .. n_topics-1; each topic's
        rows together, in rank order, already cut by ``-M``) and its qrels label (NaN:
        unjudged).
    q_topic, q_labels : numpy.ndarray
        The qrels, one row per judgment: topic and label (negative: pooled, not judged).
    n_topics : int
        Topics with no run row score as an empty ranking (``ideal_dcg`` is still theirs).
    gain, discount
        The default gain (trec_eval: linear) and the discount (trec_eval: log2) of the
        gain-valued measures.
    relevance_level : int
        Labels at least this are relevant for ``P`` and ``map`` (trec_eval ``-l``).
    judged_only : bool
        Remove unjudged documents from the ranking first (trec_eval ``-J``).

    Returns
    -------
    dict
        Output name -> array of ``n_topics`` values.

    Examples
    --------
    Topic 0 ranks labels 1, unjudged, 2; its qrels are 2, 1, 1, 0:

    >>> from ndcg_core.gains import resolve_gain
    >>> from ndcg_core.discounts import resolve_discount
    >>> out = trec_measure_values(parse_measures(["map", "P.2", "dcg"]), np.array([0, 0, 0]),
    ...     np.array([1.0, np.nan, 2.0]), np.array([0, 0, 0, 0]), np.array([2, 1, 1, 0]), 1,
    ...     gain=resolve_gain("linear"), discount=resolve_discount("log2"))
    >>> {name: round(float(v[0]), 4) for name, v in out.items()}
    {'map': 0.5556, 'P_2': 0.5, 'dcg': 2.0}

    MAP is (1/1 + 2/3) / 3, as three documents are relevant; DCG is 1/log2(2) + 2/log2(4).
    """
    check_trec_options(None, relevance_level)
    wanted = [m for m in measures if m.family in _PLAIN_FAMILIES + ("P", "ndcg_rel", "Rndcg", "dcg", "ideal_dcg")]
    wanted += [m for m in measures if m.family == "ndcg" and m.params]
    if not wanted:
        return {}
    topic = np.asarray(topic)
    labels = np.asarray(labels, dtype=float)
    if judged_only:
        judged = ~np.isnan(labels)
        topic, labels = topic[judged], labels[judged]
    run = _Lists(topic, n_topics)
    with np.errstate(invalid="ignore"):
        relevant = labels >= relevance_level  # NaN (unjudged) never is
    num_rel = np.bincount(q_topic[q_labels >= relevance_level], minlength=n_topics)
    out: dict[str, np.ndarray] = {}
    all_topics = np.arange(n_topics)
    found: np.ndarray | None = None
    for m in wanted:
        if m.family in ("P", "map", "Rprec") and found is None:
            found = run.count(relevant)  # relevant documents up to each rank
        if m.family == "P":
            out[m.name] = run.at(found, np.full(n_topics, m.k), all_topics) / m.k
        elif m.family == "map":
            rows = np.flatnonzero(relevant)
            precision = found[rows] / (rows - run.first[topic[rows]] + 1)  # at each relevant rank
            total = _topic_totals(topic[rows], precision, n_topics)
            out[m.name] = np.divide(total, num_rel, out=np.zeros(n_topics), where=num_rel > 0)
        elif m.family == "Rprec":  # relevant in the top min(R, n), over R (at() stops at n)
            in_top_r = run.at(found, num_rel, all_topics)
            out[m.name] = np.divide(in_top_r, num_rel, out=np.zeros(n_topics), where=num_rel > 0)
        elif m.family == "bpref":
            out[m.name] = _bpref(run, topic, labels, relevant, q_topic, q_labels, num_rel, relevance_level)
        else:
            out[m.name] = _gain_family(m, run, labels, q_topic, q_labels, num_rel, gain, discount)
    return out


def _bpref(
    run: _Lists,
    topic: np.ndarray,
    labels: np.ndarray,
    relevant: np.ndarray,
    q_topic: np.ndarray,
    q_labels: np.ndarray,
    num_rel: np.ndarray,
    relevance_level: int,
) -> np.ndarray:
    r"""trec_eval's bpref of every topic (``m_bpref.c``).

    For each retrieved relevant document, 1 - min(N_i, R) / min(N, R), where N_i counts
    the judged non-relevant documents (label 0 .. relevance_level - 1) ranked above it
    and N those in the qrels; 1 when N_i = 0. The sum over the topic is divided by R.
    Unjudged documents (absent from the qrels, or negative there) are skipped.
    """
    n_topics = run.n_topics
    with np.errstate(invalid="ignore"):
        nonrel = (labels >= 0) & (labels < relevance_level)
    judged_q = (q_labels >= 0) & (q_labels < relevance_level)
    num_nonrel = np.bincount(q_topic[judged_q], minlength=n_topics)
    rows = np.flatnonzero(relevant)
    above = run.count(nonrel)[rows]  # a relevant row is not non-relevant: the count above it
    row_topic = topic[rows]
    r = num_rel[row_topic]
    terms = np.ones(len(rows))
    some = above > 0
    # as trec_eval: 1.0 - ((double) MIN(nonrel_so_far, R) / (double) MIN(num_nonrel, R))
    terms[some] = 1.0 - np.minimum(above[some], r[some]) / np.minimum(num_nonrel[row_topic[some]], r[some])
    total = _topic_totals(row_topic, terms, n_topics)
    return np.divide(total, num_rel, out=total.copy(), where=num_rel > 0)
