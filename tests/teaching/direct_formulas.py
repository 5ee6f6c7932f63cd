"""Direct formulas for the teaching tests: DCG, IDCG and nDCG with plain ``math``, no ndcg_core.

The bank's answers and the generated exam problems are checked against these, so every
right answer is compared with an independent formula. ``make`` builds a throwaway
exercise (check() accepts exercise objects, as the exam does).
"""

from __future__ import annotations

from math import log, log2

import ndcg_core as nc
from ndcg_core.teaching.exercises import Exercise, Setting


def direct_gain(label: float, gain: str, table: dict | None = None) -> float:
    if gain == "linear":
        return label
    if gain == "exponential":
        return 2**label - 1
    assert table is not None
    return table[label]


def direct_discount(i: int, discount: str, base: float | None) -> float:
    if discount == "log2":
        return 1 / log2(i + 1)
    if discount == "log2_shifted":
        return 1 / log2(i + 2)
    if discount == "reciprocal":
        return 1 / i
    if discount == "log":
        return log(base or 2) / log(i + 1)
    if discount == "jarvelin_kekalainen":
        b = base or 2
        return 1.0 if i < b else log(b) / log(i)
    assert discount == "none"
    return 1.0


def direct_dcg(labels, k, gain="linear", discount="log2", base=None, unjudged="zero", table=None) -> float:
    if unjudged == "condense":
        run = [x for x in labels if x is not None]
    else:
        run = [0 if x is None else x for x in labels]
    n = len(run) if k is None else min(k, len(run))
    return sum(direct_gain(run[i - 1], gain, table) * direct_discount(i, discount, base) for i in range(1, n + 1))


def direct_scores(s: Setting) -> tuple[float, float, float]:
    table = dict(s.gain_table) if s.gain_table else None
    top = direct_dcg(s.labels, s.k, s.gain, s.discount, s.base, s.unjudged, table)
    if s.ideal == "judgments" and s.all_judgments is not None:
        source = list(s.all_judgments)
    else:
        source = [x for x in s.labels if x is not None]
    ideal = sorted(source, key=lambda x: direct_gain(x, s.gain, table), reverse=True)
    best = direct_dcg(ideal, s.k, s.gain, s.discount, s.base, "zero", table)
    return top, best, (top / best if best > 0 else 0.0)


def make(labels: str, *, asks: str = "dcg", judgments: str | None = None, missed: str | None = None,
         k: int | None = None, precision: int = 2, rank: int | None = None, kind: str = "numeric",
         **setting: object) -> Exercise:
    """A throwaway exercise (check() accepts exercise objects, as the exam does)."""
    s = Setting(
        labels=tuple(nc.parse_labels(labels)),
        judgments=None if judgments is None else tuple(nc.parse_labels(judgments)),
        missed=None if missed is None else tuple(nc.parse_labels(missed)),
        config=nc.NDCGConfig(k=k, **setting),  # type: ignore[arg-type]
    )
    return Exercise(id="test", chapter="01", kind=kind, title="test", prompt="test", asks=asks,
                    setting=s, rank=rank, precision=precision, hints=("hint",))


LECTURE_DCG = 1 / log2(2) + 0 / log2(3) + 2 / log2(4) + 1 / log2(5) + 0 / log2(6)
LECTURE_IDCG = 2 / log2(2) + 1 / log2(3) + 1 / log2(4)
