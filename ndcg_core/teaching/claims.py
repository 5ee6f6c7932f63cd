r"""The numbers behind claims the chapters state in words, computed so prose cannot drift.

- :func:`cutoff_drop`: when is nDCG at a larger cutoff lower than at a smaller one? (C29)
- :func:`pool_scenarios`: what deepening the pool does to a system outside it, and what
  adding it to the pool does (C44-C46, C51; chapter 05's toy collection);
- :func:`rank_move`: what AP and DCG lose when one relevant document moves down (C17, C23);
- :func:`swapped` and :func:`binary_table`: P@k, AP and nDCG side by side (C34, C35; chapter 09).

The condition of :func:`cutoff_drop`, for non-negative gains and cutoffs :math:`k < K`:
write :math:`\Delta D = DCG@K - DCG@k` and :math:`\Delta I = IDCG@K - IDCG@k`. Then

.. math:: nDCG@K < nDCG@k \iff \Delta D \cdot IDCG@k < DCG@k \cdot \Delta I

(cross-multiply :math:`(D + \Delta D)/(I + \Delta I) < D/I`). It needs :math:`\Delta I > 0`,
i.e. more documents with positive gain than :math:`k`: with at most :math:`k` of them the
ideal is used up by rank :math:`k`, :math:`\Delta I = 0`, and nDCG@K >= nDCG@k. The
essay's "fewer relevant documents than k" is therefore not the condition.

>>> drop = cutoff_drop([1, 1, 0, 0], 2, 4, judgments=[1, 1, 1])
>>> drop.drops, drop.relevant, drop.ideal_gain > 0
(True, 3, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

import pandas as pd

from .._validation import check_labels
from ..binary import average_precision, binarise, precision
from ..metrics import dcg, idcg, ndcg
from .pooling import pooling_table

__all__ = ["CutoffDrop", "cutoff_drop", "POOL_SCENARIOS", "pool_scenarios", "rank_move", "swapped", "binary_table"]


class CutoffDrop(NamedTuple):
    """nDCG at two cutoffs and what each sum gained between them."""

    small: int
    large: int
    ndcg_small: float
    ndcg_large: float
    relevant: int  #: judged documents with a positive gain
    run_gain: float  #: DCG@large - DCG@small
    ideal_gain: float  #: IDCG@large - IDCG@small

    @property
    def drops(self) -> bool:
        """nDCG@large < nDCG@small."""
        return self.ndcg_large < self.ndcg_small

    @property
    def gain_ratio(self) -> float | None:
        """ΔD/ΔI, what the ranks between the cutoffs add to DCG over what they add to IDCG (None
        when the ideal is used up, ΔI = 0). nDCG@large < nDCG@small exactly when it is below nDCG@small.

        >>> CutoffDrop(10, 100, 0.9, 0.8, 12, 0.5, 1.0).gain_ratio
        0.5
        """
        return None if self.ideal_gain == 0 else self.run_gain / self.ideal_gain


def cutoff_drop(
    labels: Sequence[float | None],
    small: int,
    large: int,
    *,
    judgments: Sequence[float],
    gain: object = "linear",
    discount: object = "log2",
) -> CutoffDrop:
    """nDCG@small and nDCG@large of one run, with the gains that decide which is larger."""
    if not isinstance(small, int) or not isinstance(large, int) or not 1 <= small < large:
        raise ValueError(f"small and large must be cutoffs with 1 <= small < large; got {small!r} and {large!r}.")
    opts = {"gain": gain, "discount": discount}
    run_gain = dcg(labels, large, **opts) - dcg(labels, small, **opts)  # type: ignore[arg-type]
    ideal_gain = idcg(judgments, large, **opts) - idcg(judgments, small, **opts)  # type: ignore[arg-type]
    relevant = sum(1 for x in judgments if x > 0)
    return CutoffDrop(small, large, ndcg(labels, small, judgments=judgments, **opts),  # type: ignore[arg-type]
                      ndcg(labels, large, judgments=judgments, **opts), relevant,  # type: ignore[arg-type]
                      run_gain, ideal_gain)


#: Chapter 05's scenarios: name -> (systems in the pool, depth).
POOL_SCENARIOS: dict[str, tuple[tuple[str, ...], int]] = {
    "depth 10, classic + tuned": (("classic", "tuned"), 10),
    "depth 100, classic + tuned": (("classic", "tuned"), 100),
    "depth 10, novel in the pool too": (("classic", "tuned", "novel"), 10),
}


def pool_scenarios(
    qrels_full: pd.DataFrame,
    runs: Mapping[str, object],
    system: str = "novel",
    *,
    scenarios: Mapping[str, tuple[tuple[str, ...], int]] = POOL_SCENARIOS,
    k: int = 10,
) -> pd.DataFrame:
    """One row per pool scenario: ``system``'s nDCG@k against the pool and the truth, and its place.

    Columns: ``ndcg_pooled``, ``ndcg_truth``, ``unjudged``, ``place`` (1 = best of all systems
    by pooled nDCG), ``systems`` (how many), ``best`` (the best system by pooled nDCG).
    """
    rows = {}
    for name, (pool, depth) in scenarios.items():
        table = pooling_table(qrels_full, runs, list(pool), depth, k=k)
        order = table["ndcg_pooled"].sort_values(ascending=False)
        rows[name] = {
            "ndcg_pooled": float(table.loc[system, "ndcg_pooled"]),
            "ndcg_truth": float(table.loc[system, "ndcg_truth"]),
            "unjudged": float(table.loc[system, "unjudged"]),
            "place": int(list(order.index).index(system)) + 1,
            "systems": len(table),
            "best": str(order.index[0]),
        }
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "pool"
    return frame


def rank_move(from_rank: int = 10, to_rank: int = 100, *, others: Sequence[int] = (1,)) -> pd.DataFrame:
    """What moving one relevant document (label 1) from ``from_rank`` to ``to_rank`` costs.

    ``others`` are ranks of further relevant documents (label 1) that stay put. One row per
    measure (``AP``, ``DCG`` with 1/log2(i+1), ``DCG`` with 1/i): value before, after, and the
    share of the before-value that is lost.

    >>> float(rank_move(10, 100, others=()).loc["AP", "after"])  # 1/100: precision 1/100 at rank 100, R = 1
    0.01
    """
    if not 1 <= from_rank < to_rank or from_rank in others or to_rank in others:
        raise ValueError(
            f"from_rank and to_rank must be different free ranks with from_rank < to_rank; got {from_rank}, {to_rank}."
        )
    n = max([to_rank, *others])

    def listed(rank: int) -> list[int]:
        return [1 if (i == rank or i in others) else 0 for i in range(1, n + 1)]

    before, after = listed(from_rank), listed(to_rank)
    judged = [1] * (len(others) + 1)
    rows = {
        "AP": (average_precision(before, judgments=judged), average_precision(after, judgments=judged)),
        "DCG, 1/log2(i+1)": (dcg(before), dcg(after)),
        "DCG, 1/i": (dcg(before, discount="reciprocal"), dcg(after, discount="reciprocal")),
    }
    frame = pd.DataFrame(
        {"before": [b for b, _ in rows.values()], "after": [a for _, a in rows.values()]},
        index=pd.Index(list(rows), name="measure"),
    )
    frame["lost"] = 1 - frame["after"] / frame["before"]
    return frame


def swapped(labels: Sequence[float | None], first: int, second: int) -> list[float | None]:
    """The list with the documents at ranks ``first`` and ``second`` (1-based) exchanged.

    >>> swapped([1, 0, 0, 3, 0], 1, 4)
    [3, 0, 0, 1, 0]
    """
    items = list(labels)
    check_labels(items)
    for name, rank in (("first", first), ("second", second)):
        if isinstance(rank, bool) or not isinstance(rank, int) or not 1 <= rank <= len(items):
            raise ValueError(f"{name} must be a rank from 1 to {len(items)} (the length of the list); got {rank!r}.")
    items[first - 1], items[second - 1] = items[second - 1], items[first - 1]
    return items


def binary_table(
    lists: Mapping[str, Sequence[float | None]],
    k: int,
    *,
    judgments: Sequence[float],
    threshold: float = 1,
    gains: Sequence[str] = ("linear",),
) -> pd.DataFrame:
    """P@k and AP (binary, at ``threshold``) next to nDCG@k (graded) for each named list.

    All lists are rankings for one query whose judged labels are ``judgments``. Columns:
    ``binarised`` (the list as the binary measures see it, as text), ``precision``,
    ``average_precision`` (trec_eval's, with R from ``judgments``) and one ``ndcg_<gain>``
    per gain.

    >>> t = binary_table({"A": [1, 0, 0, 3, 0], "B": [3, 0, 0, 1, 0]}, 5, judgments=[3, 1])
    >>> t["precision"].tolist(), t["average_precision"].tolist()
    ([0.4, 0.4], [0.75, 0.75])
    >>> bool(t.loc["A", "ndcg_linear"] < t.loc["B", "ndcg_linear"])
    True
    """
    rows = {}
    for name, labels in lists.items():
        row: dict[str, object] = {
            "binarised": ", ".join(map(str, binarise(labels, threshold))),
            "precision": precision(labels, k, threshold=threshold),
            "average_precision": average_precision(labels, k, judgments=judgments, threshold=threshold),
        }
        for gain in gains:
            row[f"ndcg_{gain}"] = ndcg(labels, k, judgments=judgments, gain=gain)  # type: ignore[arg-type]
        rows[name] = row
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "list"
    return frame
