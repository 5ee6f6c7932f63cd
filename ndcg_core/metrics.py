r"""CG, DCG, IDCG and nDCG of one ranked list, and the per-rank breakdown.

Every function here follows the same conventions (see the package docstring):
ranks are 1-based, ``k=None`` is the whole list, unjudged documents (``None``)
get gain 0 or are condensed away, and the ideal list comes from ``judgments``
(all judged labels of the query) when given, else from the list itself. The sums
themselves are taken by :mod:`ndcg_core.kernel`, the one DCG kernel.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from ._lazy import pd
from ._validation import check_choice, check_judgments, check_k, check_labels
from .discounts import Discount, DiscountFunction, resolve_discount
from .gains import Gain, GainFunction, resolve_gain
from .kernel import dcg_at, running_dcg

__all__ = [
    "dcg",
    "idcg",
    "ndcg",
    "breakdown",
    "ndcg_curve",
    "unjudged_fraction",
    "UNJUDGED_POLICIES",
    "Scored",
    "score",
]

Labels = Sequence[float | int | None]
UNJUDGED_POLICIES = ("zero", "condense")


class Scored(NamedTuple):
    """DCG@k, IDCG@k and nDCG@k of one list, computed together."""

    dcg: float
    idcg: float
    ndcg: float
    k: int | None
    unjudged_fraction: float


def _prepare_run(labels: object, unjudged: str) -> np.ndarray:
    array = check_labels(labels)
    check_choice(unjudged, "unjudged", UNJUDGED_POLICIES)
    if unjudged == "condense":
        array = array[~np.isnan(array)]
    return array


def _cut(n: int, k: int | None) -> int:
    return n if k is None else min(k, n)


def _dcg_of(labels: np.ndarray, k: int | None, gain: GainFunction, discount: DiscountFunction) -> float:
    n = _cut(len(labels), k)
    if n == 0:  # no gain or discount function is called on an empty list
        return 0.0
    return dcg_at(gain(labels[:n]), discount.prefix(n))


def _dcg_of_gains(gains: np.ndarray, k: int | None, discount: DiscountFunction) -> float:
    """DCG@k of gains already computed (the ideal list's: sorted, largest first, none negative).

    The zero gains at the end add nothing and are not summed, so IDCG@k is the same float
    at every k past the last positive gain (a dot product over a longer array may round
    differently in the last bit, and nDCG@100 would then differ from nDCG@10 by 1e-16).
    """
    n = min(_cut(len(gains), k), int(np.count_nonzero(gains)))
    if n == 0:
        return 0.0
    return dcg_at(gains[:n], discount.prefix(n))


def _ideal(source: np.ndarray, gain: GainFunction, *, with_labels: bool = False) -> tuple[np.ndarray | None, np.ndarray]:
    """The ideal list: every judged document, largest gain first; (labels or None, gains).

    Sorted by gain, not by label, so a table gain that is not monotone in the label
    still gives the best possible ordering. A document whose gain is negative is left
    out: the best obtainable ranking puts it below the cutoff, never inside it (as
    trec_eval's ``ndcg``, whose ideal stops at the first gain that is not positive).
    The labels (for the per-rank table) come from a stable sort; the gains alone from a
    plain one, which is faster.
    """
    gains = gain(source)
    if gains.size and gains.min() < 0:
        source, gains = source[gains >= 0], gains[gains >= 0]
    if not with_labels:
        return None, -np.sort(-gains)
    order = np.argsort(-gains, kind="stable")
    return source[order], gains[order]


def _check_consistent(run: np.ndarray, judgments: np.ndarray) -> None:
    """The list cannot hold more relevant documents of a grade than were judged."""
    judged, judged_counts = np.unique(judgments[judgments > 0], return_counts=True)
    available = dict(zip(judged.tolist(), judged_counts.tolist()))
    found, found_counts = np.unique(run[run > 0], return_counts=True)
    for label, count in zip(found.tolist(), found_counts.tolist()):
        if count > available.get(label, 0):
            raise ValueError(
                f"judgments must list every judged document of the query, including those in the "
                f"ranked list; the list has {count} document(s) with label {label:g} but judgments has "
                f"{available.get(label, 0)}. Add the list's own relevant labels to judgments."
            )


def _resolve(gain: Gain, discount: Discount, base: float | None) -> tuple[GainFunction, DiscountFunction]:
    return resolve_gain(gain), resolve_discount(discount, base)


def _ideal_source(run: np.ndarray, judgments: object) -> np.ndarray:
    if judgments is None:
        return run[~np.isnan(run)]
    judged = check_judgments(judgments)
    _check_consistent(run, judged)
    return judged


def dcg(
    labels: Labels,
    k: int | None = None,
    *,
    gain: Gain = "linear",
    discount: Discount = "log2",
    base: float | None = None,
    unjudged: str = "zero",
) -> float:
    r"""Discounted cumulative gain of a ranked list of relevance labels.

    .. math:: \mathrm{DCG}@k = \sum_{i=1}^{\min(k,n)} g(\ell_i)\, d(i)

    with the lecture's defaults :math:`g(\ell) = \ell` and :math:`d(i) = 1/\log_2(i+1)`.

    Parameters
    ----------
    labels : sequence of numbers or None
        Relevance labels in rank order (rank 1 first); ``None`` is an unjudged document.
    k : int or None
        Cutoff: only ranks 1..k count. ``None`` scores the whole list; a k beyond the
        list is fine.
    gain : {"linear", "exponential"}, mapping or callable
        Label -> gain; see :mod:`ndcg_core.gains`.
    discount : {"log2", "log2_shifted", "reciprocal", "log", "jarvelin_kekalainen", "none"} or callable
        Rank -> factor; see :mod:`ndcg_core.discounts`. ``"none"`` gives plain CG.
    base : float, optional
        Logarithm base of the ``"log"`` and ``"jarvelin_kekalainen"`` discounts (default 2).
    unjudged : {"zero", "condense"}
        ``"zero"`` gives unjudged documents gain 0; ``"condense"`` removes them from the
        list before ranking (trec_eval ``-J``).

    Returns
    -------
    float

    Raises
    ------
    TypeError, ValueError
        For a label that is not a number, a negative or non-finite label, a bad k, an
        unknown gain or discount.

    Examples
    --------
    The lecture example: 1/log2(2) + 0/log2(3) + 2/log2(4) + 1/log2(5) + 0/log2(6).

    >>> round(dcg([1, 0, 2, 1, 0], 5), 4)
    2.4307
    >>> round(dcg([1, 0, 2, 1, 0], 5, gain="exponential"), 4)
    2.9307
    """
    k = check_k(k)
    run = _prepare_run(labels, unjudged)
    g, d = _resolve(gain, discount, base)
    return _dcg_of(run, k, g, d)


def idcg(
    judgments: Sequence[float],
    k: int | None = None,
    *,
    gain: Gain = "linear",
    discount: Discount = "log2",
    base: float | None = None,
) -> float:
    r"""Ideal DCG: the DCG of every judged document sorted by gain, largest first.

    .. math:: \mathrm{IDCG}@k = \sum_{i=1}^{\min(k,m)} g(\ell^*_i)\, d(i),
              \qquad g(\ell^*_1) \ge g(\ell^*_2) \ge \dots \ge g(\ell^*_m)

    Parameters
    ----------
    judgments : sequence of numbers
        All judged labels of the query, in any order (judged non-relevant documents
        may be left out: they add nothing). A document whose gain is negative (a gain
        table may price a label below 0) is left out: the best ranking keeps it below
        the cutoff, as trec_eval's ideal does.
    k, gain, discount, base
        As in :func:`dcg`.

    Examples
    --------
    The lecture's three relevant documents, 2, 1, 1: 2/log2(2) + 1/log2(3) + 1/log2(4).

    >>> round(idcg([2, 1, 1], 5), 4)
    3.1309
    >>> idcg([1, 0, 0], 3, gain={0: -1, 1: 1})  # the two penalised documents stay out
    1.0
    """
    k = check_k(k)
    judged = check_judgments(judgments)
    g, d = _resolve(gain, discount, base)
    return _dcg_of_gains(_ideal(judged, g)[1], k, d)


def score(
    labels: Labels,
    k: int | None = None,
    *,
    judgments: Sequence[float] | None = None,
    gain: Gain = "linear",
    discount: Discount = "log2",
    base: float | None = None,
    unjudged: str = "zero",
) -> Scored:
    """DCG@k, IDCG@k, nDCG@k and the unjudged fraction in one pass (what the notebooks show).

    Arguments as in :func:`ndcg`.

    Examples
    --------
    >>> s = score([1, 0, 2, 1, 0], 5, judgments=[2, 1, 1])
    >>> round(s.dcg, 4), round(s.idcg, 4), round(s.ndcg, 4)
    (2.4307, 3.1309, 0.7763)
    """
    k = check_k(k)
    raw = check_labels(labels)
    fraction = _unjudged_fraction_of(raw, k)
    run = _prepare_run(raw, unjudged)
    g, d = _resolve(gain, discount, base)
    _, ideal = _ideal(_ideal_source(run, judgments), g)
    top = _dcg_of(run, k, g, d)
    best = _dcg_of_gains(ideal, k, d)
    return Scored(top, best, top / best if best > 0 else 0.0, k, fraction)


def ndcg(
    labels: Labels,
    k: int | None = None,
    *,
    judgments: Sequence[float] | None = None,
    gain: Gain = "linear",
    discount: Discount = "log2",
    base: float | None = None,
    unjudged: str = "zero",
) -> float:
    r"""Normalised DCG: the fraction of the obtainable gain the ranking captured.

    .. math:: \mathrm{nDCG}@k = \frac{\mathrm{DCG}@k}{\mathrm{IDCG}@k}
              \quad (0 \text{ when } \mathrm{IDCG}@k = 0)

    Parameters
    ----------
    labels, k, gain, discount, base, unjudged
        As in :func:`dcg`.
    judgments : sequence of numbers, optional
        All judged labels of the query (the list's own relevant documents and those it
        missed). The ideal list is built from them, as trec_eval does.
        If omitted, the ideal is built from ``labels`` themselves: the short exam
        implementation's convention. That is a pitfall: a list that holds one highly
        graded document and misses all others then scores 1.0.

    Returns
    -------
    float
        In [0, 1] for non-negative gains; 0.0 when no judged document has a positive gain.
        Documents with a negative gain are left out of the ideal list (see below).

    Examples
    --------
    DCG@5 = 2.4307 over IDCG@5 = 3.1309 for the lecture example:

    >>> round(ndcg([1, 0, 2, 1, 0], 5, judgments=[2, 1, 1]), 4)
    0.7763

    The pitfall: the ideal built from the run alone ignores the missed documents.

    >>> ndcg([3, 0, 0], 3), round(ndcg([3, 0, 0], 3, judgments=[3, 3, 2]), 4)
    (1.0, 0.5091)

    A gain table may give a label a negative gain (a penalty). The ideal leaves such
    documents out, so it stays the best obtainable ranking: here IDCG@3 = 1, not
    1 - 1/log2(3) - 1/log2(4) < 0, and the optimal run scores 1.0. A run that ranks the
    penalised documents inside the cutoff can then score below 0.

    >>> ndcg([1, None, None], 3, judgments=[1, 0, 0], gain={0: -1, 1: 1})
    1.0
    >>> round(ndcg([1, 0, 0], 3, judgments=[1, 0, 0], gain={0: -1, 1: 1}), 4)  # 1 - 0.6309 - 0.5
    -0.1309
    """
    return score(
        labels, k, judgments=judgments, gain=gain, discount=discount, base=base, unjudged=unjudged
    ).ndcg


def _unjudged_fraction_of(raw: np.ndarray, k: int | None) -> float:
    n = _cut(len(raw), k)
    if n == 0:
        return 0.0
    return float(np.isnan(raw[:n]).sum() / n)


def unjudged_fraction(labels: Labels, k: int | None = None) -> float:
    """Fraction of unjudged documents (``None``) among the top k of the list as returned.

    The denominator is the number of documents actually in the top k,
    ``min(k, len(labels))`` (as ir_measures' ``Judged@k``; trec_eval 10's ``unj.k``
    divides by k instead). An empty list gives 0.0.

    Examples
    --------
    >>> unjudged_fraction([1, None, 2, None, 0], 4)
    0.5
    """
    return _unjudged_fraction_of(check_labels(labels), check_k(k))


_STATUS = np.array(["judged", "unjudged", "past end"], dtype=object)


def breakdown(
    labels: Labels,
    k: int | None = None,
    *,
    judgments: Sequence[float] | None = None,
    gain: Gain = "linear",
    discount: Discount = "log2",
    base: float | None = None,
    unjudged: str = "zero",
) -> pd.DataFrame:
    r"""The per-rank table a learner writes by hand: one row per rank.

    Columns: ``rank``; ``label`` (NaN for an unjudged document or a rank past the end of
    the list), ``status`` ("judged", "unjudged" or "past end"); ``gain`` :math:`g(\ell_i)`,
    ``discount`` :math:`d(i)`, ``discounted_gain`` :math:`g(\ell_i) d(i)`, ``dcg``
    (cumulative DCG@i); ``ideal_label``, ``ideal_gain``, ``ideal_discounted_gain``,
    ``idcg`` (cumulative IDCG@i); ``ndcg`` (nDCG@i, 0 where IDCG@i = 0).

    The table has ``min(k, max(n, m))`` rows, n the list's length (after condensing) and
    m the ideal list's length, so ranks the ideal fills beyond a short list are shown.

    Examples
    --------
    >>> table = breakdown([1, 0, 2, 1, 0], 5, judgments=[2, 1, 1])
    >>> table[["rank", "label", "discounted_gain", "dcg", "ideal_label", "idcg"]].round(4)
       rank  label  discounted_gain     dcg  ideal_label    idcg
    0     1    1.0           1.0000  1.0000          2.0  2.0000
    1     2    0.0           0.0000  1.0000          1.0  2.6309
    2     3    2.0           1.0000  2.0000          1.0  3.1309
    3     4    1.0           0.4307  2.4307          0.0  3.1309
    4     5    0.0           0.0000  2.4307          0.0  3.1309
    >>> round(float(table["ndcg"].iloc[-1]), 4)
    0.7763
    """
    k = check_k(k)
    run = _prepare_run(labels, unjudged)
    g, d = _resolve(gain, discount, base)
    source = _ideal_source(run, judgments)
    ideal_labels, ideal_gains = _ideal(source, g, with_labels=True)
    n, m = len(run), len(ideal_gains)
    rows = max(n, m) if k is None else min(k, max(n, m))
    ranks = np.arange(1, rows + 1)
    factors = d.prefix(rows) if rows else np.zeros(0)

    inside, ideal_inside = min(n, rows), min(m, rows)
    label = np.full(rows, np.nan)
    label[:inside] = run[:inside]
    status_code = np.full(rows, 2, dtype=np.intp)  # codes into _STATUS: a fancy index, no per-row str
    status_code[:inside] = np.isnan(run[:inside])
    status = _STATUS[status_code]
    gains = np.zeros(rows)
    gains[:inside] = g(run[:inside])
    ideal_label = np.zeros(rows)
    ideal_gain = np.zeros(rows)
    ideal_label[:ideal_inside] = ideal_labels[:ideal_inside]  # type: ignore[index]
    ideal_gain[:ideal_inside] = ideal_gains[:ideal_inside]
    discounted, cumulative = running_dcg(gains, factors)
    ideal_discounted, cumulative_ideal = running_dcg(ideal_gain, factors)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(cumulative_ideal > 0, cumulative / np.where(cumulative_ideal > 0, cumulative_ideal, 1), 0.0)
    return pd.DataFrame(
        {
            "rank": ranks,
            "label": label,
            "status": status,
            "gain": gains,
            "discount": factors,
            "discounted_gain": discounted,
            "dcg": cumulative,
            "ideal_label": ideal_label,
            "ideal_gain": ideal_gain,
            "ideal_discounted_gain": ideal_discounted,
            "idcg": cumulative_ideal,
            "ndcg": ratio,
        }
    )


def ndcg_curve(
    labels: Labels,
    *,
    judgments: Sequence[float] | None = None,
    gain: Gain = "linear",
    discount: Discount = "log2",
    base: float | None = None,
    unjudged: str = "zero",
    max_k: int | None = None,
) -> list[float]:
    """nDCG@k for every cutoff k = 1, 2, ..., as a list (element j is nDCG@(j+1)).

    The curve runs to ``max_k`` or, by default, to the longer of the list and the ideal
    list. It is not monotone: nDCG@100 can be lower than nDCG@10 when fewer documents
    are relevant than the cutoff.

    Examples
    --------
    >>> [round(x, 4) for x in ndcg_curve([1, 0, 2, 1, 0], judgments=[2, 1, 1])]
    [0.5, 0.3801, 0.6388, 0.7763, 0.7763]
    """
    table = breakdown(
        labels, max_k, judgments=judgments, gain=gain, discount=discount, base=base, unjudged=unjudged
    )
    return [float(x) for x in table["ndcg"]]
