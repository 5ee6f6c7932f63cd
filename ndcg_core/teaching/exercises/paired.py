r"""Paired exercises (chapter 13): two runs' scores on a few topics; compute the mean
difference or the paired t statistic by hand.

A ``paired`` exercise stores the per-topic scores of run A and run B (``inputs.scores_a``,
``inputs.scores_b``); its right value and the values of the usual mistakes come from
:func:`ndcg_core.trec.significance.paired_comparison` and scipy, never typed into the bank.

.. math:: \bar d = \frac1n \sum_q (b_q - a_q), \qquad
          t = \frac{\bar d}{s_d / \sqrt n}, \quad s_d^2 = \frac{1}{n-1}\sum_q (d_q - \bar d)^2

The named mistakes (:data:`PAIRED_MISCONCEPTIONS`, added to the checker's catalogue):
an unpaired test (each run's spread instead of the differences'), the difference taken
A − B, the standard deviation with n instead of n − 1, the standard error without the
square root (s/n), no standard error at all (s alone: that is the effect size d_z), the
sum of the differences instead of their mean.

>>> from ndcg_core.teaching.exercises import check
>>> check("signif-t-by-hand", "2.45").correct
True
>>> check("signif-t-by-hand", "1.09").misconception
'unpaired-test'
"""

from __future__ import annotations

import math

import numpy as np

from ...trec.significance import paired_comparison
from .answers import parse_number
from .checking import grade, same_at
from .formatting import format_number
from .misconceptions import MISCONCEPTIONS
from .paired_data import PAIRED_MISCONCEPTIONS, SIGNIFICANCE_CONCEPTS, read_scores
from .model import Exercise, Feedback
from .values import tolerance

__all__ = ["PAIRED_MISCONCEPTIONS", "SIGNIFICANCE_CONCEPTS", "read_scores", "paired_value", "paired_variants", "check_paired",
           "given_lines", "paired_solution"]

_NAMES = {"mean-difference": "the mean difference (B − A)", "t-statistic": "the paired t statistic"}


def _arrays(ex: Exercise) -> tuple[np.ndarray, np.ndarray]:
    assert ex.scores is not None
    return np.asarray(ex.scores[0], dtype=float), np.asarray(ex.scores[1], dtype=float)


def paired_value(ex: Exercise) -> float:
    """The right value: the mean difference B − A, or the paired t statistic (via the library)."""
    a, b = _arrays(ex)
    result = paired_comparison(a, b, rounds=100)
    return result.mean_difference if ex.asks == "mean-difference" else result.t_statistic


def paired_variants(ex: Exercise) -> list[tuple[str, float]]:
    """(misconception id, the value it gives) for each mistake that applies, finite values only."""
    a, b = _arrays(ex)
    d = b - a
    n = len(d)
    mean = float(d.mean())
    s = float(np.std(d, ddof=1))
    if ex.asks == "mean-difference":
        out = [("difference-reversed", -mean), ("sum-not-mean", float(d.sum()))]
    else:
        unpaired = mean / math.sqrt(np.var(a, ddof=1) / n + np.var(b, ddof=1) / n)
        pop = float(np.std(d, ddof=0))
        out = [
            ("unpaired-test", unpaired),
            ("difference-reversed", -mean / (s / math.sqrt(n))),
            ("sd-population", mean / (pop / math.sqrt(n)) if pop else math.inf),
            ("se-without-root", mean / (s / n)),
            ("t-without-se", mean / s),
        ]
    return [(m, v) for m, v in out if math.isfinite(v)]


def _what(ex: Exercise) -> str:
    return _NAMES[ex.asks]


def check_paired(ex: Exercise, answer_text: str) -> Feedback:
    """The verdict on a typed mean difference or t statistic, naming a mistake where one fits."""
    try:
        parsed = parse_number(answer_text, percent_allowed=False)
    except (TypeError, ValueError) as err:
        message = str(err)
        return Feedback(False, message[:1].upper() + message[1:], None)
    right = paired_value(ex)
    p = ex.precision
    value = parsed.value
    typed = format_number(value) if parsed.decimals is None else f"{value:.{parsed.decimals}f}"
    if grade(value, parsed.decimals, right, p).correct:
        return Feedback(True, f"Right: {_what(ex)} = {format_number(right)}, which is {right:.{p}f} to {p} decimals.", None)
    tol = tolerance(p)
    for misconception, mistaken in paired_variants(ex):
        if not same_at(mistaken, right, p) and (abs(value - mistaken) <= tol or same_at(value, mistaken, p)):
            m = MISCONCEPTIONS[misconception]
            return Feedback(False, f"Not quite: {typed} is what {_what(ex)} comes to with {m.name}. {m.hint}", m.id)
    how = ("Take each topic's difference B − A, then their mean"
           + ("." if ex.asks == "mean-difference" else ", their standard deviation s (divide by n − 1) and t = mean / (s/√n)."))
    return Feedback(False, f"Not right: {typed} is not {_what(ex)} here, and it matches none of the usual mistakes. {how}", None)


def given_lines(ex: Exercise) -> list[str]:
    """The data of the statement: each run's scores, topic by topic (two short lines)."""
    a, b = ex.scores or ((), ())
    n = len(a)
    return [
        f"- Run A, topics 1 to {n}: `{', '.join(f'{x:.2f}' for x in a)}`",
        f"- Run B, topics 1 to {n}: `{', '.join(f'{y:.2f}' for y in b)}`",
    ]


def _signed_sum(values: np.ndarray) -> str:
    text = format_number(float(values[0]))
    for x in values[1:]:
        text += f" − {format_number(-float(x))}" if x < 0 else f" + {format_number(float(x))}"
    return text


def paired_solution(ex: Exercise) -> str:
    """The worked solution: differences, mean, (standard deviation, standard error, t)."""
    a, b = _arrays(ex)
    d = b - a
    n = len(d)
    mean = float(d.mean())
    lines = [
        "Differences d = B − A, topic by topic: " + ", ".join(format_number(float(x)) for x in d) + ".",
        f"Mean difference: d̄ = ({_signed_sum(d)}) / {n} = {format_number(mean)}.",
    ]
    if ex.asks == "t-statistic":
        squares = [(float(x) - mean) ** 2 for x in d]
        s = math.sqrt(sum(squares) / (n - 1))
        lines += [
            "Squared deviations (d − d̄)²: " + ", ".join(format_number(q) for q in squares)
            + f"; their sum is {format_number(sum(squares))}.",
            f"Standard deviation: s = √({format_number(sum(squares))} / {n - 1}) = {format_number(s)}.",
            f"Standard error: s / √{n} = {format_number(s / math.sqrt(n))}.",
            f"t = d̄ / (s/√n) = {format_number(mean)} / {format_number(s / math.sqrt(n))} = {format_number(mean / (s / math.sqrt(n)))}, "
            f"with {n - 1} degrees of freedom.",
        ]
    right = paired_value(ex)
    lines.append(f"**Answer:** {format_number(right)} ≈ **{right:.{ex.precision}f}**")
    return "\n\n".join(lines)
