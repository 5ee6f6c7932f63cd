r"""How other tools order tied scores, and what that does to nDCG (chapter 06's table).

trec_eval orders equal scores by document id descending; other tools keep the file order,
sort ascending, or (scikit-learn, torchmetrics) give every tied position the group's mean
gain. :func:`tie_rules` scores one list under each rule.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from numbers import Real

import numpy as np

from .._lazy import pd
from .._validation import check_k, check_labels
from ..discounts import Discount, DiscountFunction, resolve_discount
from ..gains import Gain, GainFunction, resolve_gain
from ..kernel import dcg_at
from ..metrics import idcg, ndcg

__all__ = ["TIE_RULES", "tie_rules"]


#: The tie rules compared by :func:`tie_rules`, in the order of its rows.
TIE_RULES = (
    "trec_eval, pytrec_eval, ir_measures: document id descending",
    "trectools 0.0.50 get_ndcg: document id ascending (its order changed between versions)",
    "file order kept (a stable sort; ranx gave this here)",
    "scikit-learn with ignore_ties=True: its argsort, reversed",
    "scikit-learn, torchmetrics: tied documents share their mean gain",
    "best order of the tied documents",
    "worst order of the tied documents",
)


def _check_tie_input(doc_ids: object, scores: object, labels: object) -> tuple[list[str], np.ndarray, np.ndarray]:
    if isinstance(doc_ids, (str, bytes)) or not isinstance(doc_ids, Sequence):
        raise TypeError(f"document ids must be a list of ids; got {type(doc_ids).__name__}.")
    docs = [str(doc) for doc in doc_ids]
    repeated = [doc for i, doc in enumerate(docs) if doc in docs[:i]]
    if repeated:
        raise ValueError(f"document ids must not repeat; {repeated[0]!r} appears twice. Each document is ranked once.")
    if isinstance(scores, (str, bytes)) or not isinstance(scores, Sequence):
        raise TypeError(f"scores must be a list of numbers; got {type(scores).__name__}.")
    for i, score in enumerate(scores):
        if isinstance(score, bool) or not isinstance(score, Real) or not math.isfinite(float(score)):
            raise ValueError(f"scores[{i}] must be a finite number; got {score!r}.")
    values = np.asarray(scores, dtype=float)
    array = check_labels(labels)
    if not (len(docs) == len(values) == len(array)):
        raise ValueError(
            f"document ids, scores and labels must have one entry per document; got {len(docs)} ids, "
            f"{len(values)} scores and {len(array)} labels."
        )
    if not docs:
        raise ValueError("document ids must name at least one document.")
    return docs, values, array


def tie_rules(
    doc_ids: Sequence[str],
    scores: Sequence[float],
    labels: Sequence[float | None],
    k: int | None = None,
    *,
    judgments: Sequence[float] | None = None,
    gain: Gain = "linear",
    discount: Discount = "log2",
    base: float | None = None,
) -> pd.DataFrame:
    r"""nDCG@k of one list with tied scores under the tie rules of common tools.

    The documents are given in file order. Every rule sorts by score, highest first; they
    differ only inside a group of equal scores (see :data:`TIE_RULES`). The averaging rule
    of scikit-learn and torchmetrics (McSherry and Najork) gives every position of a tied
    group the group's mean gain:

    .. math:: \mathrm{DCG}@k = \sum_{G} \bar g_G \sum_{i \in G,\ i \le k} d(i)
              = \sum_{i=1}^{\min(k,n)} \bar g_{G(i)}\, d(i)

    (:math:`G(i)` is the tied group of rank i): the ordinary DCG sum over the averaged gains.

    The ideal list is the same for every rule (``judgments``, by default the list's own
    labels), so only the order of the ties differs.

    Returns
    -------
    pandas.DataFrame
        Index: the rule; columns ``order`` (document ids, rank 1 first; tied groups in
        brackets for the averaging rule), ``labels`` (``?`` = unjudged) and ``ndcg``.

    Examples
    --------
    Three documents tie on 1.0; in file order d3 (label 2), d1 (0), d2 (1):

    >>> table = tie_rules(["d3", "d1", "d2"], [1.0, 1.0, 1.0], [2, 0, 1], 3)
    >>> table["ndcg"].round(4).tolist()
    [1.0, 0.6199, 0.9502, 0.7602, 0.81, 1.0, 0.6199]
    """
    k = check_k(k)
    docs, values, array = _check_tie_input(doc_ids, scores, labels)
    judged = array[~np.isnan(array)] if judgments is None else judgments
    g, d = resolve_gain(gain), resolve_discount(discount, base)
    n = len(docs)
    rank_of = {doc: i for i, doc in enumerate(sorted(docs))}  # code point order = strcmp's byte order
    worth = np.nan_to_num(array, nan=-1.0)
    file_order = sorted(range(n), key=lambda i: -values[i])  # stable: ties keep the file order
    orders = [
        sorted(range(n), key=lambda i: (-values[i], -rank_of[docs[i]])),
        sorted(range(n), key=lambda i: (-values[i], rank_of[docs[i]])),
        file_order,
        [int(i) for i in np.argsort(values)[::-1]],  # what ndcg_score(ignore_ties=True) does
        file_order,
        sorted(range(n), key=lambda i: (-values[i], -worth[i])),
        sorted(range(n), key=lambda i: (-values[i], worth[i])),
    ]

    def shown(i: int) -> str:
        return "?" if np.isnan(array[i]) else f"{array[i]:g}"

    rows = []
    for rule, order in zip(TIE_RULES, orders):
        if rule.startswith("scikit-learn, torchmetrics"):
            value = _tie_averaged_ndcg(values[order], array[order], k, judged, g, d)
            groups = _tie_groups(values[order])
            order_text = _grouped([docs[i] for i in order], groups)
            label_text = _grouped([shown(i) for i in order], groups)
        else:
            ranked = [None if np.isnan(array[i]) else float(array[i]) for i in order]
            value = ndcg(ranked, k, judgments=judged, gain=g, discount=d)
            order_text = ", ".join(docs[i] for i in order)
            label_text = ", ".join(shown(i) for i in order)
        rows.append({"order": order_text, "labels": label_text, "ndcg": float(value)})
    return pd.DataFrame(rows, index=pd.Index(TIE_RULES, name="rule"))


def _tie_groups(ordered_scores: np.ndarray) -> np.ndarray:
    """Start of each run of equal scores."""
    return np.flatnonzero(np.concatenate(([True], ordered_scores[1:] != ordered_scores[:-1])))


def _grouped(items: list[str], starts: np.ndarray) -> str:
    ends = list(starts[1:]) + [len(items)]
    parts = []
    for start, end in zip(starts, ends):
        members = items[start:end]
        parts.append(members[0] if len(members) == 1 else "[" + ", ".join(members) + "]")
    return ", ".join(parts)


def _tie_averaged_ndcg(
    ordered_scores: np.ndarray,
    ordered_labels: np.ndarray,
    k: int | None,
    judged: object,
    g: GainFunction,
    d: DiscountFunction,
) -> float:
    """nDCG@k when every position of a tied group gets the group's mean gain."""
    starts = _tie_groups(ordered_scores)
    sizes = np.diff(np.append(starts, len(ordered_scores)))
    gains = np.asarray(g(ordered_labels), dtype=float)
    averaged = np.repeat(np.add.reduceat(gains, starts) / sizes, sizes)
    dcg = dcg_at(averaged, d.prefix(len(averaged)), k)
    best = idcg(judged, k, gain=g, discount=d)  # type: ignore[arg-type]
    return dcg / best if best > 0 else 0.0
