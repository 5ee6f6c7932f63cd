r"""The right values of a setting, computed by the core: the quantities, the ideal order, the winner.

Nothing numeric is typed into the bank: every right answer comes from here, and here
from :meth:`ndcg_core.NDCGConfig.score`, :func:`ndcg_core.breakdown` and
:func:`ndcg_core.unjudged_fraction`.

>>> from ndcg_core import NDCGConfig
>>> from .model import Setting
>>> lecture = Setting(labels=(1, 0, 2, 1, 0), judgments=(2, 1, 1), config=NDCGConfig(k=5))
>>> round(quantity(lecture, "ndcg"), 4), ideal_labels(lecture)
(0.7763, [2.0, 1.0, 1.0])
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import pandas as pd

from ...metrics import breakdown, unjudged_fraction
from .binary import BINARY_ASKS, binary_quantity
from .measures import MEASURE_ASKS, MISTAKES, measure_quantity
from .model import ASKS, Setting

__all__ = ["quantity", "rank_table", "ideal_labels", "winner", "tolerance"]


def rank_table(setting: Setting, k: int | None) -> pd.DataFrame:
    """The per-rank :func:`ndcg_core.breakdown` of the setting's list, cut at ``k``."""
    return breakdown(list(setting.labels), k, judgments=setting.ideal_judgments,
                     unjudged=setting.unjudged, **setting.kwargs())


def quantity(setting: Setting, asks: str, rank: int | None = None) -> float:
    """The value of ``asks`` (``"dcg"``, ``"idcg"``, ``"ndcg"``, ``"term"`` at ``rank``,
    ``"unjudged"``, the unjudged fraction, the binary ``"precision"`` (P@k) and ``"ap"``, or
    chapter 12's ``"rprec"``, ``"bpref"``, ``"map"`` and their mistakes, see :mod:`.measures`)
    under ``setting``. A term at a rank past
    the end of the list (a condensed list is shorter) is 0: no document, no gain.

    >>> round(quantity(Setting(labels=(1, 0, 2, 1, 0)), "term", rank=3), 4)
    1.0

    Raises
    ------
    ValueError
        For another ``asks``, or a term without a rank.
    """
    if asks in MEASURE_ASKS or any(asks == name for m in MISTAKES.values() for *_, name in m):
        return measure_quantity(setting, asks)
    if asks == "unjudged":
        return unjudged_fraction(list(setting.labels), setting.k)
    if asks in BINARY_ASKS:
        return binary_quantity(setting, asks)
    if asks == "term":
        if rank is None:
            raise ValueError("a term needs the rank it is asked at; got rank=None.")
        terms = rank_table(setting, rank)["discounted_gain"]
        return float(terms.iloc[rank - 1]) if rank <= len(terms) else 0.0
    if asks not in ("dcg", "idcg", "ndcg"):
        raise ValueError(f"asks must be one of {', '.join(ASKS['numeric'])}; got {asks!r}.")
    return float(getattr(setting.config.score(list(setting.labels), setting.all_judgments), asks))


def ideal_labels(setting: Setting) -> list[float]:
    """The ideal order of the judged labels (by gain, largest first), zeros left out."""
    source = setting.all_judgments if setting.all_judgments is not None else tuple(
        x for x in setting.labels if x is not None)
    table = breakdown(list(source), None, judgments=list(source), **setting.kwargs())
    return [float(x) for x, g in zip(table["ideal_label"], table["ideal_gain"]) if g > 0]


def winner(setting: Setting, labels_b: Sequence[float | int | None]) -> str:
    """Which list has the higher nDCG: ``"A"`` (the setting's), ``"B"`` or ``"same"``."""
    a = quantity(setting, "ndcg")
    b = quantity(replace(setting, labels=tuple(labels_b)), "ndcg")
    if math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12):
        return "same"
    return "A" if a > b else "B"


def tolerance(precision: int) -> float:
    """Half a unit of the last asked decimal, plus a small epsilon for float noise.

    >>> round(tolerance(2), 9)
    0.005000001
    """
    return 0.5 * 10.0 ** -precision + 1e-9
