r"""Binary measures of one ranked list: P@k, R-precision, AP, MAP and bpref.

They exist in ndcg_core for one lesson: set next to nDCG, they show what graded labels add,
and what each measure needs from the judgments. A binary measure first **binarises** the
labels: a document is relevant when its label is at or above a relevance threshold
(trec_eval's ``-l`` level, default 1), and every label above the threshold counts the same.
So it cannot reward a very relevant document ranked above a somewhat relevant one; nDCG can.

The conventions are trec_eval 10.0's (``m_P.c``, ``m_map.c``, ``m_map_cut.c``,
``m_Rprec.c``, ``m_bpref.c``); R is the number of **relevant judged documents** of the
query (trec_eval's ``num_rel``), retrieved or not:

- ``P@k`` = relevant documents in the top k / k, also when the list is shorter than k;
- ``P@R`` (R-precision) = relevant documents in the top R / R, also when the list is
  shorter than R; R = 0 gives 0;
- ``AP`` = the sum, over the relevant documents the list returned, of the precision at
  each one's rank, divided by R; with a cutoff k (trec_eval's ``map_cut``) only ranks
  1..k are summed, the divisor stays R; no relevant document retrieved gives 0;
- ``MAP`` = the mean of AP over topics: every topic weighs the same;
- ``bpref`` looks at **judged documents only**: an unjudged document is skipped; each
  relevant document adds 1 - min(n, R) / min(R, N), n = judged non-relevant documents
  ranked above it, N = judged non-relevant documents of the query; the sum is divided by R;
- elsewhere an unjudged document (``None``) is not relevant (as trec_eval scores a
  document absent from the qrels).

>>> precision([1, 0, 2, 1, 0], 5)
0.6
>>> round(average_precision([1, 0, 2, 1, 0], judgments=[2, 1, 1]), 4)
0.8056
>>> round(r_precision([1, 0, 2, 1, 0], judgments=[2, 1, 1]), 4)
0.6667
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from numbers import Real

import numpy as np

from ._validation import check_judgments, check_k, check_labels

__all__ = [
    "check_threshold",
    "binarise",
    "precision",
    "average_precision",
    "num_relevant",
    "r_precision",
    "bpref",
    "mean_average_precision",
]


def check_threshold(threshold: object) -> float:
    """The relevance threshold: a finite number above 0 (label 0 is never relevant).

    >>> check_threshold(2)
    2.0
    """
    if isinstance(threshold, bool) or not isinstance(threshold, Real):
        raise TypeError(
            f"threshold must be a number above 0; got threshold={threshold!r} ({type(threshold).__name__}). "
            "Give the lowest label that counts as relevant, e.g. threshold=1."
        )
    value = float(threshold)
    if not math.isfinite(value) or value <= 0:
        raise ValueError(
            f"threshold must be a number above 0; got threshold={threshold!r}. A label 0 is never relevant: "
            "give the lowest label that counts as relevant, e.g. threshold=1."
        )
    return value


def binarise(labels: Sequence[float | None], threshold: float = 1) -> list[int]:
    """The labels as a binary measure sees them: 1 at or above ``threshold``, else 0 (None: 0).

    >>> binarise([3, 1, 0, None, 2], threshold=2)
    [1, 0, 0, 0, 1]
    """
    level = check_threshold(threshold)
    array = check_labels(labels)
    return [int(x >= level) for x in np.nan_to_num(array, nan=0.0)]


def num_relevant(judgments: Sequence[float], threshold: float = 1) -> int:
    """How many judged documents are relevant (label at or above ``threshold``): AP's divisor.

    >>> num_relevant([2, 1, 1, 0])
    3
    """
    level = check_threshold(threshold)
    return int((check_judgments(judgments) >= level).sum())


def precision(labels: Sequence[float | None], k: int | None = None, *, threshold: float = 1) -> float:
    r"""Precision at k: the share of the top k that is relevant.

    .. math:: P@k = \frac{1}{k} \sum_{i=1}^{\min(k, n)} [\ell_i \ge t]

    ``k=None`` is the whole list (then the divisor is its length; an empty list gives 0.0).
    As in trec_eval, the divisor is k even when the list holds fewer than k documents.

    >>> precision([1, 0, 2, 1, 0], 5)
    0.6
    >>> precision([3, 0], 4)
    0.25
    """
    k = check_k(k)
    relevant = binarise(labels, threshold)
    depth = len(relevant) if k is None else k
    if depth == 0:
        return 0.0
    return sum(relevant[:depth]) / depth


def average_precision(
    labels: Sequence[float | None],
    k: int | None = None,
    *,
    judgments: Sequence[float] | None = None,
    threshold: float = 1,
) -> float:
    r"""Average precision (trec_eval's ``map`` for one topic; ``map_cut.k`` with ``k``).

    .. math:: AP@k = \frac{1}{R} \sum_{i=1}^{\min(k, n)} [\ell_i \ge t]\, P@i

    where :math:`R` is the number of relevant judged documents of the query (``judgments``,
    all its judged labels; ``None``: the list's own labels, as if it held every judged
    document). A relevant document the list did not return adds 0 and still counts in R.

    >>> round(average_precision([1, 0, 2, 1, 0], judgments=[2, 1, 1]), 4)  # (1/1 + 2/3 + 3/4) / 3
    0.8056
    >>> average_precision([3], judgments=[3, 3, 2])  # one of three relevant found, at rank 1
    0.3333333333333333
    """
    k = check_k(k)
    relevant = binarise(labels, threshold)
    if judgments is None:
        total = sum(relevant)
    else:
        total = num_relevant(judgments, threshold)
    depth = len(relevant) if k is None else min(k, len(relevant))
    found = 0
    summed = 0.0
    for rank, rel in enumerate(relevant[:depth], start=1):
        if rel:
            found += 1
            summed += found / rank
    if found == 0 or total == 0:
        return 0.0
    _check_covers(found, total, "relevant", f"label at or above {threshold:g}")
    return summed / total


def _check_covers(in_list: int, judged: int, what: str, rule: str) -> None:
    """The judgments must hold at least the list's own judged documents of each kind."""
    if in_list > judged:
        raise ValueError(
            f"judgments must hold every {what} document of the list; the list has {in_list} {what} "
            f"documents ({rule}) but the judgments only {judged}. "
            "Give all judged labels of the query, the list's own included."
        )


def r_precision(
    labels: Sequence[float | None],
    *,
    judgments: Sequence[float] | None = None,
    threshold: float = 1,
) -> float:
    r"""R-precision: the precision at rank R, R = the number of relevant judged documents.

    .. math:: P@R = \frac{1}{R} \sum_{i=1}^{\min(R, n)} [\ell_i \ge t]

    trec_eval's ``Rprec``: the divisor is R even when the list holds fewer than R
    documents; R = 0 gives 0.0. At rank R precision equals recall (both count the relevant
    documents of the top R and divide by R), so a perfect ranking scores 1.

    Parameters
    ----------
    labels : sequence of float or None
        The ranked list's labels; ``None`` = unjudged (not relevant).
    judgments : sequence of float, optional
        All judged labels of the query, the list's own included; R counts those at or
        above ``threshold``. ``None``: the list's own labels, as if it held every judged
        document.
    threshold : float
        The lowest label that counts as relevant (trec_eval's ``-l``, default 1).

    Returns
    -------
    float
        A value in [0, 1].

    Raises
    ------
    ValueError
        When ``judgments`` hold fewer relevant documents than the list itself.

    Examples
    --------
    The lecture example: R = 3 (judged labels 2, 1, 1); the top 3 are 1, 0, 2, two relevant:

    >>> round(r_precision([1, 0, 2, 1, 0], judgments=[2, 1, 1]), 4)
    0.6667
    >>> r_precision([2, 1], judgments=[2, 1, 1, 1])  # R = 4, a list of 2: 2 / 4
    0.5
    """
    relevant = binarise(labels, threshold)
    total = sum(relevant) if judgments is None else num_relevant(judgments, threshold)
    _check_covers(sum(relevant), total, "relevant", f"label at or above {threshold:g}")
    if total == 0:
        return 0.0
    return sum(relevant[:total]) / total


def bpref(
    labels: Sequence[float | None],
    *,
    judgments: Sequence[float] | None = None,
    threshold: float = 1,
) -> float:
    r"""Binary preference: how many judged non-relevant documents each relevant one beats.

    .. math:: \mathrm{bpref} = \frac{1}{R} \sum_{r} \left(1 - \frac{\min(n_r, R)}{\min(R, N)}\right)

    summed over the relevant documents :math:`r` of the list, with :math:`n_r` the judged
    non-relevant documents ranked above :math:`r`, :math:`R` the relevant and :math:`N` the
    non-relevant judged documents of the query (a term is 1 when :math:`n_r = 0`).

    Buckley and Voorhees (SIGIR 2004) made it for incomplete judgments: it reads only
    judged documents, so an **unjudged document is skipped**, not counted as non-relevant
    as P@k, P@R and AP count it. The definition is trec_eval 10.0's ``bpref``
    (``m_bpref.c``): at most R non-relevant documents count, the divisor is min(R, N),
    R = 0 gives 0.0.

    Parameters
    ----------
    labels : sequence of float or None
        The ranked list's labels; ``None`` = unjudged (skipped).
    judgments : sequence of float, optional
        All judged labels of the query, the list's own included: R counts those at or
        above ``threshold``, N those below it. ``None``: the list's own judged labels.
    threshold : float
        The lowest label that counts as relevant (trec_eval's ``-l``, default 1).

    Returns
    -------
    float
        A value in [0, 1].

    Raises
    ------
    ValueError
        When ``judgments`` hold fewer relevant or fewer non-relevant documents than the list.

    Examples
    --------
    The lecture example: R = 3, N = 2 (judged labels 2, 1, 1, 0, 0). The relevant documents
    at ranks 1, 3 and 4 have 0, 1 and 1 judged non-relevant documents above them:

    >>> round(bpref([1, 0, 2, 1, 0], judgments=[2, 1, 1, 0, 0]), 4)  # (1 + (1 - 1/2) + (1 - 1/2)) / 3
    0.6667

    An unjudged document in between changes nothing:

    >>> round(bpref([1, None, 0, 2, None, 1, 0], judgments=[2, 1, 1, 0, 0]), 4)
    0.6667
    """
    level = check_threshold(threshold)
    array = check_labels(labels)
    judged = array[~np.isnan(array)]
    if judgments is None:
        pool = judged
    else:
        pool = check_judgments(judgments)
    total = int((pool >= level).sum())
    nonrel_total = int((pool < level).sum())
    rule = f"label at or above {level:g}"
    _check_covers(int((judged >= level).sum()), total, "relevant", rule)
    _check_covers(int((judged < level).sum()), nonrel_total, "non-relevant", f"label below {level:g}")
    if total == 0:
        return 0.0
    nonrel_above = 0
    summed = 0.0
    for label in judged:
        if label < level:
            nonrel_above += 1
        elif nonrel_above == 0:
            summed += 1.0
        else:
            summed += 1.0 - min(nonrel_above, total) / min(nonrel_total, total)
    return summed / total


def mean_average_precision(
    topics: Iterable[tuple[Sequence[float | None], Sequence[float] | None]],
    k: int | None = None,
    *,
    threshold: float = 1,
) -> float:
    r"""MAP: the mean of average precision over topics, each topic weighing the same.

    .. math:: \mathrm{MAP} = \frac{1}{|Q|} \sum_{q \in Q} AP(q)

    Parameters
    ----------
    topics : iterable of (labels, judgments) pairs
        One pair per topic: the ranked list's labels and all judged labels of the topic
        (``None``: the list's own labels), as :func:`average_precision` takes them.
    k : int, optional
        Cutoff (trec_eval's ``map_cut.k``); ``None`` = the whole list (``map``).
    threshold : float
        The lowest label that counts as relevant.

    Returns
    -------
    float
        The mean AP (trec_eval's ``map`` averaged over the topics given: topics without a
        run are the caller's choice, 0 under trec_eval ``-c``).

    Raises
    ------
    ValueError
        For no topics at all.

    Examples
    --------
    The lecture topic (AP = (1/1 + 2/3 + 3/4) / 3) and a topic with its one relevant
    document at rank 2 (AP = 1/2):

    >>> round(mean_average_precision([([1, 0, 2, 1, 0], [2, 1, 1]), ([0, 1], [1])]), 4)
    0.6528
    """
    if isinstance(topics, (str, bytes)) or not isinstance(topics, Iterable):
        raise TypeError(
            f"topics must be a list of (labels, judgments) pairs, one per topic; got {type(topics).__name__}. "
            "Example: [([1, 0, 2], [2, 1, 1]), ([0, 1], [1])]."
        )
    values = []
    for number, pair in enumerate(topics):
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(
                f"topics[{number}] must be a (labels, judgments) pair; got {pair!r}. "
                "Write each topic as (ranked labels, all judged labels) or (ranked labels, None)."
            )
        labels, judged = pair
        values.append(average_precision(labels, k, judgments=judged, threshold=threshold))
    if not values:
        raise ValueError("topics must hold at least one topic; got none. MAP is a mean over topics.")
    return sum(values) / len(values)
