r"""Binary measures of one ranked list: precision at k and average precision.

They exist in ndcg_core for one lesson: set next to nDCG, they show what graded labels add.
A binary measure first **binarises** the labels: a document is relevant when its label is
at or above a relevance threshold (trec_eval's ``-l`` level, default 1), and every label
above the threshold counts the same. So it cannot reward a very relevant document ranked
above a somewhat relevant one; nDCG can.

The conventions are trec_eval's (``m_P.c``, ``m_map.c``, ``m_map_cut.c``):

- ``P@k`` = relevant documents in the top k / k, also when the list is shorter than k;
- ``AP`` = the sum, over the relevant documents the list returned, of the precision at
  each one's rank, divided by the number of **relevant judged documents** of the query
  (``num_rel``), retrieved or not; with a cutoff k (trec_eval's ``map_cut``) only ranks
  1..k are summed, the divisor stays ``num_rel``; no relevant document retrieved gives 0;
- an unjudged document (``None``) is not relevant (as trec_eval scores a document absent
  from the qrels).

>>> precision([1, 0, 2, 1, 0], 5)
0.6
>>> round(average_precision([1, 0, 2, 1, 0], judgments=[2, 1, 1]), 4)
0.8056
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from numbers import Real

import numpy as np

from ._validation import check_judgments, check_k, check_labels

__all__ = ["check_threshold", "binarise", "precision", "average_precision", "num_relevant"]


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
    if found > total:
        raise ValueError(
            f"judgments must hold every relevant document of the list; the list has {found} relevant "
            f"documents (label at or above {threshold:g}) but the judgments only {total}. "
            "Give all judged labels of the query, the list's own included."
        )
    return summed / total
