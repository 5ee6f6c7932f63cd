r"""P@k and AP exercises: the right value, the mistakes that give a wrong one, the worked steps.

Chapter 09 sets the binary measures next to nDCG; its numeric exercises ask for them too.
The values come from :mod:`ndcg_core.binary` (trec_eval's conventions: relevant means a
label of 1 or more, P@k divides by k, AP divides by R, every relevant judged document of
the query, found or not). The mistakes are the ones a learner makes by hand:

- ``ap-over-retrieved``: AP divided by the relevant documents the list found, not by R;
- ``ap-over-returned``: AP divided by the number of documents in the list;
- ``precision-over-returned``: P@k divided by the length of a list shorter than k;
- ``precision-as-recall``: relevant documents in the top k divided by R, not by k;
- ``grades-as-counts``: the labels added up where a binary measure counts documents.

>>> from .model import Setting
>>> from ndcg_core import NDCGConfig
>>> s = Setting(labels=(1, 0, 2, 1, 0), judgments=(2, 1, 1, 1), config=NDCGConfig(k=5))
>>> round(binary_quantity(s, "ap"), 4)  # (1/1 + 2/3 + 3/4) / 4
0.6042
>>> round(mistaken_value(s, "ap-over-retrieved"), 4)  # (1/1 + 2/3 + 3/4) / 3
0.8056
"""

from __future__ import annotations

from collections.abc import Callable

from ...binary import average_precision, binarise, num_relevant, precision
from .formatting import format_number
from .model import Setting

__all__ = ["BINARY_ASKS", "BINARY_MISTAKES", "binary_quantity", "mistaken_value", "binary_mistakes",
           "solution_lines"]

#: What a binary numeric exercise can ask: P@k, or AP (AP@k with a cutoff).
BINARY_ASKS = ("precision", "ap")


def _depth(setting: Setting) -> int:
    n = len(setting.labels)
    return n if setting.k is None else min(setting.k, n)


def _total(setting: Setting) -> int:
    judged = setting.all_judgments
    return num_relevant(judged) if judged is not None else sum(binarise(setting.labels))


def _precision_sum(setting: Setting, value: Callable[[int, float | None], float]) -> tuple[float, int]:
    """Sum over the relevant documents in the top k of ``value(rank, label)``; and how many."""
    relevant = binarise(setting.labels)
    summed, found = 0.0, 0
    for rank in range(1, _depth(setting) + 1):
        if relevant[rank - 1]:
            found += 1
            summed += value(rank, setting.labels[rank - 1])
    return summed, found


def binary_quantity(setting: Setting, asks: str) -> float:
    """P@k (``"precision"``) or AP (``"ap"``) of the setting's list, as trec_eval computes them."""
    if asks == "precision":
        return precision(list(setting.labels), setting.k)
    if asks == "ap":
        return average_precision(list(setting.labels), setting.k, judgments=setting.all_judgments)
    raise ValueError(f"asks must be one of {', '.join(BINARY_ASKS)}; got {asks!r}.")


def _ap_sum(setting: Setting) -> tuple[float, int]:
    relevant = binarise(setting.labels)
    return _precision_sum(setting, lambda rank, _label: sum(relevant[:rank]) / rank)


def _graded_precision(setting: Setting, rank: int) -> float:
    return sum(x or 0 for x in setting.labels[:rank]) / rank


def _ap_over_retrieved(setting: Setting) -> float | None:
    summed, found = _ap_sum(setting)
    return summed / found if found else None


def _ap_over_returned(setting: Setting) -> float | None:
    summed, _ = _ap_sum(setting)
    return summed / _depth(setting) if _depth(setting) else None


def _precision_over_returned(setting: Setting) -> float | None:
    n = _depth(setting)
    return sum(binarise(setting.labels)[:n]) / n if n else None


def _precision_as_recall(setting: Setting) -> float | None:
    total = _total(setting)
    return sum(binarise(setting.labels)[:_depth(setting)]) / total if total else None


def _graded_precision_at_k(setting: Setting) -> float | None:
    return _graded_precision(setting, setting.k) if setting.k else None


def _graded_ap(setting: Setting) -> float | None:
    summed, _ = _precision_sum(setting, lambda rank, _label: _graded_precision(setting, rank))
    total = _total(setting)
    return summed / total if total else None


#: (misconception id, the quantity it is a mistake for) -> what the mistake computes.
BINARY_MISTAKES: dict[tuple[str, str], Callable[[Setting], float | None]] = {
    ("ap-over-retrieved", "ap"): _ap_over_retrieved,
    ("ap-over-returned", "ap"): _ap_over_returned,
    ("grades-as-counts", "ap"): _graded_ap,
    ("precision-over-returned", "precision"): _precision_over_returned,
    ("precision-as-recall", "precision"): _precision_as_recall,
    ("grades-as-counts", "precision"): _graded_precision_at_k,
}


def binary_mistakes(asks: str) -> list[str]:
    """The misconception ids of the mistakes that apply to ``asks``, in a fixed order."""
    return [mid for mid, of in BINARY_MISTAKES if of == asks]


def mistaken_value(setting: Setting, misconception: str, asks: str | None = None) -> float | None:
    """The value ``misconception`` gives for the setting (None where it cannot be computed)."""
    for (mid, of), compute in BINARY_MISTAKES.items():
        if mid == misconception and (asks is None or asks == of):
            return compute(setting)
    raise ValueError(f"no binary mistake {misconception!r} for {asks!r}.")


def solution_lines(asks: str, setting: Setting, right: float) -> list[str]:
    """The worked steps of a P@k or AP exercise, as Markdown lines."""
    n = _depth(setting)
    relevant = binarise(setting.labels)
    ranks = [rank for rank in range(1, n + 1) if relevant[rank - 1]]
    where = {0: "nowhere", 1: f"at rank {ranks[0] if ranks else 0}"}.get(
        len(ranks), "at ranks " + ", ".join(str(r) for r in ranks))
    lines = ["A binary measure first turns every label into relevant (1 or more) or not: "
             f"the relevant documents of the top {n} sit {where}."]
    if asks == "precision":
        k = setting.k if setting.k is not None else n
        shorter = " (the list is shorter, but P@k still divides by k, as trec_eval does)" if n < k else ""
        return lines + [f"P@{k} = relevant documents in the top {k} / k = {len(ranks)}/{k}{shorter} "
                        f"= {format_number(right)}"]
    total = _total(setting)
    steps = [f"{i}/{rank}" for i, rank in enumerate(ranks, start=1)]
    lines.append("At each relevant document, the precision at its rank (relevant so far / rank): "
                 + (", ".join(steps) if steps else "none") + ".")
    lines.append(f"R = {total}: every relevant judged document of the query, found or not.")
    if not ranks or not total:
        return lines + ["No relevant document was found, so AP = 0."]
    name = "AP" if setting.k is None else f"AP@{setting.k}"
    return lines + [f"{name} = ({' + '.join(steps)}) / {total} = {format_number(right)}"]
