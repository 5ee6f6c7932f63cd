r"""The DCG kernel: the one place where gains meet discounts.

.. math:: \mathrm{DCG}@k = \sum_{i=1}^{\min(k,n)} g_i\, d(i)

:math:`g_i` is the gain at rank i, already computed by a gain function (an unjudged
document has gain 0, or was condensed away before), and :math:`d(i)` the discount factor
of rank i, as :meth:`ndcg_core.discounts.DiscountFunction.prefix` gives them for ranks
1..n. IDCG is the same sum over the ideal list's gains, largest first.

Every DCG and IDCG in ndcg_core is summed here, and nowhere else:

- :func:`dcg_at` for one list: :func:`ndcg_core.dcg`, :func:`~ndcg_core.idcg`,
  :func:`~ndcg_core.ndcg`, :func:`~ndcg_core.score`, and the tie-averaged rule of
  :func:`ndcg_core.trec.tie_rules` (each tied position gets its group's mean gain);
- :func:`running_dcg` for the per-rank table: :func:`ndcg_core.breakdown` (and so
  :func:`~ndcg_core.ndcg_curve`);
- :func:`dcg_per_list` for many lists laid end to end, every cutoff at once:
  :func:`ndcg_core.trec.evaluate_run` (all topics of a run in one numpy pass);
- :func:`dcg_of_segments` and :func:`running_dcg_of_segments` for trec_eval's other gain
  measures (``dcg``, ``ideal_dcg``, ``ndcg_rel``, ``Rndcg``: :mod:`ndcg_core.trec.measures`);
- :func:`running_dcg` on a matrix (one list per row) and :func:`dcg_of_lists` for the
  reconciler, which scores every topic under every convention
  (:mod:`ndcg_core.trec.reconcile`).

The kernel checks nothing: its callers validate labels, cutoffs, gains and discounts at
the public boundary.

>>> import numpy as np
>>> gains = np.array([1.0, 0.0, 2.0, 1.0, 0.0])  # the lecture example, linear gain
>>> factors = 1 / np.log2(np.arange(1, 6) + 1)  # d(i) = 1/log2(i+1)
>>> round(dcg_at(gains, factors), 4)
2.4307
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

__all__ = [
    "dcg_at",
    "running_dcg",
    "dcg_of_lists",
    "dcg_of_segments",
    "running_dcg_of_segments",
    "ListSegments",
    "list_segments",
    "dcg_per_list",
]


def dcg_at(gains: np.ndarray, factors: np.ndarray, k: int | None = None) -> float:
    r"""DCG@k of one ranked list: :math:`\sum_{i=1}^{\min(k,n)} g_i\, d(i)`.

    Parameters
    ----------
    gains : numpy.ndarray
        :math:`g_1, \dots, g_n`, the gains in rank order (rank 1 first).
    factors : numpy.ndarray
        :math:`d(1), d(2), \dots`: at least :math:`\min(k, n)` discount factors.
    k : int or None
        The cutoff (already checked); ``None`` sums the whole list.

    Returns
    -------
    float
        0.0 for an empty list.

    Examples
    --------
    >>> round(dcg_at(np.array([1.0, 0.0, 2.0]), np.array([1.0, 0.5, 0.25]), k=2), 4)
    1.0
    """
    n = len(gains) if k is None else min(k, len(gains))
    if n == 0:
        return 0.0
    return float(gains[:n] @ factors[:n])


def running_dcg(gains: np.ndarray, factors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""The discounted gains :math:`g_i\, d(i)` of one list and their running sums DCG@1..DCG@n.

    .. math:: \mathrm{DCG}@j = \sum_{i=1}^{j} g_i\, d(i), \qquad j = 1, \dots, n

    ``factors`` holds at least n factors. Both arrays returned have n entries (the sums
    are taken in rank order). ``gains`` may also be a matrix of equally long lists, one per
    row (ranks along the last axis): the sums run along each row.

    Examples
    --------
    >>> terms, cumulative = running_dcg(np.array([1.0, 0.0, 2.0]), np.array([1.0, 0.5, 0.25]))
    >>> terms.tolist(), cumulative.tolist()
    ([1.0, 0.0, 0.5], [1.0, 1.0, 1.5])
    """
    terms = gains * factors[: gains.shape[-1]]
    return terms, np.cumsum(terms, axis=-1)


def dcg_of_lists(gains: np.ndarray, rank_factors: np.ndarray, lists: np.ndarray, n_lists: int) -> np.ndarray:
    r"""The whole-list DCG of many lists given as (list, rank) pairs in any order.

    .. math:: \mathrm{DCG}_t = \sum_{j:\ \mathrm{list}_j = t} g_j\, d(\mathrm{rank}_j)

    ``gains[j]`` and ``rank_factors[j]`` (the discount factor of entry j's rank) belong to
    list ``lists[j]`` (0 <= lists[j] < n_lists). A list with no entry gets 0.

    >>> dcg_of_lists(np.array([1.0, 2.0, 1.0]), np.array([1.0, 0.5, 1.0]), np.array([0, 0, 2]), 3).tolist()
    [2.0, 0.0, 1.0]
    """
    return np.bincount(lists, gains * rank_factors, minlength=n_lists)


def dcg_of_segments(
    gains: np.ndarray, rank_factors: np.ndarray, starts: np.ndarray, ids: np.ndarray, n_lists: int
) -> np.ndarray:
    r"""The whole-list DCG of many lists laid end to end (rows grouped by list).

    .. math:: \mathrm{DCG}_t = \sum_{i=1}^{n_t} g_{t,i}\, d(i)

    ``rank_factors[r]`` is the discount factor of row r's rank; the list ``ids[j]`` starts at
    row ``starts[j]``. A list id without rows gets 0.

    >>> dcg_of_segments(np.array([1.0, 2.0, 1.0]), np.array([1.0, 0.5, 1.0]), np.array([0, 2]), np.array([0, 2]), 3).tolist()
    [2.0, 0.0, 1.0]
    """
    out = np.zeros(n_lists)
    if len(starts):
        out[ids] = np.add.reduceat(gains * rank_factors, starts)
    return out


def running_dcg_of_segments(
    gains: np.ndarray, rank_factors: np.ndarray, starts: np.ndarray, sizes: np.ndarray
) -> np.ndarray:
    r"""DCG@1, DCG@2, ... within each of many lists laid end to end (rows grouped by list).

    .. math:: \mathrm{DCG}_t@j = \sum_{i=1}^{j} g_{t,i}\, d(i)

    One running sum over all rows in extended precision, less each list's start (then
    rounded to float), so that long runs of small terms keep trec_eval's digits.

    >>> running_dcg_of_segments(np.array([1.0, 2.0, 1.0]), np.array([1.0, 0.5, 1.0]), np.array([0, 2]), np.array([2, 1])).tolist()
    [1.0, 2.0, 1.0]
    """
    running = np.cumsum(gains * rank_factors, dtype=np.longdouble)
    before = np.zeros(len(starts), dtype=np.longdouble)
    before[1:] = running[starts[1:] - 1]
    running -= np.repeat(before, sizes)
    return running.astype(float)


class ListSegments(NamedTuple):
    """Several ranked lists laid end to end in one array (rows sorted by list).

    ``starts[j]`` is the first row of the j-th list present, ``ids[j]`` that list's id
    (0..n_lists-1), and ``rank0[r]`` row r's 0-based rank within its list.
    """

    starts: np.ndarray
    ids: np.ndarray
    rank0: np.ndarray

    def sums(self, values: np.ndarray, n_lists: int) -> np.ndarray:
        """The sum of ``values`` (one per row) within each list; 0 for a list without rows.

        Examples
        --------
        >>> lists = list_segments(np.array([0, 0, 2]))
        >>> lists.sums(np.array([1.0, 2.0, 5.0]), 3).tolist()
        [3.0, 0.0, 5.0]
        """
        out = np.zeros(n_lists)
        if len(self.starts):
            out[self.ids] = np.add.reduceat(values, self.starts)
        return out

    def lengths(self, n_lists: int) -> np.ndarray:
        """The number of rows of each list (0 for a list without rows)."""
        out = np.zeros(n_lists, dtype=np.int64)
        if len(self.starts):
            out[self.ids] = np.diff(np.append(self.starts, len(self.rank0)))
        return out


def list_segments(sorted_ids: np.ndarray) -> ListSegments:
    """The lists of rows sorted by list id: where each starts, its id, each row's rank.

    Examples
    --------
    >>> lists = list_segments(np.array([3, 3, 3, 5, 5]))
    >>> lists.starts.tolist(), lists.ids.tolist(), lists.rank0.tolist()
    ([0, 3], [3, 5], [0, 1, 2, 0, 1])
    """
    n = len(sorted_ids)
    if n == 0:
        empty = np.zeros(0, dtype=np.intp)
        return ListSegments(empty, empty, empty)
    change = np.empty(n, dtype=bool)
    change[0] = True
    np.not_equal(sorted_ids[1:], sorted_ids[:-1], out=change[1:])
    starts = np.flatnonzero(change)
    lengths = np.diff(np.append(starts, n))
    rank0 = np.arange(n, dtype=np.int64)
    rank0 -= np.repeat(starts, lengths)
    return ListSegments(starts, sorted_ids[starts], rank0)


def dcg_per_list(
    gains: np.ndarray,
    factors: np.ndarray,
    lists: ListSegments,
    n_lists: int,
    cutoffs: Sequence[int | None],
) -> np.ndarray:
    r"""DCG@k of every list laid end to end, for every cutoff: one numpy pass, no loop per list.

    .. math:: \mathrm{DCG}@k(q) = \sum_{i=1}^{\min(k,n_q)} g_{q,i}\, d(i)

    Parameters
    ----------
    gains : numpy.ndarray
        One gain per row, rows grouped by list and in rank order within each.
    factors : numpy.ndarray
        :math:`d(1), d(2), \dots`: at least as many factors as the longest list has rows.
    lists : ListSegments
        The lists' layout (:func:`list_segments` of the rows' list ids).
    n_lists : int
        The number of list ids; a list without rows has DCG 0.
    cutoffs : sequence of int or None
        The cutoffs k (``None``: the whole list).

    Returns
    -------
    numpy.ndarray
        Shape ``(len(cutoffs), n_lists)``: row c holds DCG@cutoffs[c] of each list.

    Examples
    --------
    Two lists, (1, 0, 2) and (2, 1), with factors 1, 1/2, 1/4:

    >>> gains = np.array([1.0, 0.0, 2.0, 2.0, 1.0])
    >>> lists = list_segments(np.array([0, 0, 0, 1, 1]))
    >>> dcg_per_list(gains, np.array([1.0, 0.5, 0.25]), lists, 2, [1, None]).tolist()
    [[1.0, 2.0], [1.5, 2.5]]
    """
    terms = gains * factors[lists.rank0]
    out = np.zeros((len(cutoffs), n_lists))
    for row, k in enumerate(cutoffs):
        top = terms if k is None else np.where(lists.rank0 < k, terms, 0.0)
        out[row] = lists.sums(top, n_lists)
    return out
