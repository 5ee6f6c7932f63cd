r"""Checking a typed answer: the right answer, the verdict, and the mistake behind a wrong one.

:func:`check` reads the answer (:mod:`.answers`), compares it with the right value at the
asked precision (:func:`expected_answer`), and for a wrong one looks for the common mistake
(:mod:`.misconceptions`) whose value it matches. Every outcome is a :class:`Feedback`,
never an exception: a learner sees a message, not a traceback.

>>> check("lecture-ndcg", "0,78").correct
True
>>> check("lecture-dcg", "3.51").misconception
'log-natural'
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from typing import Any, NamedTuple

import numpy as np

from ...gains import resolve_gain
from ...labels import parse_labels
from .answers import COMPARE_SYNONYMS, parse_choice, parse_number
from .bank import resolve
from .formatting import format_labels, format_number
from .measures import MEASURE_ASKS
from .misconceptions import MISCONCEPTIONS, Variant, variants
from .model import COMPARE_OPTIONS, MAX_ANSWER_CHARS, Exercise, Feedback
from .values import ideal_labels, quantity, tolerance, winner

__all__ = ["check", "expected_answer", "format_answer", "mistaken_values", "diagnose", "grade", "Grade", "same_at",
           "intermediate_values"]


def expected_answer(exercise: str | Exercise) -> Any:
    """The right answer, computed from the stored settings.

    A float for numeric exercises, a list of labels for ideal-order exercises, the
    option text for comparison and concept exercises, None for code exercises.

    >>> round(expected_answer("lecture-ndcg"), 4)
    0.7763
    >>> expected_answer("lecture-ideal")
    [2.0, 1.0, 1.0]
    """
    ex = resolve(exercise)
    if ex.kind == "numeric":
        assert ex.setting is not None
        return quantity(ex.setting, ex.asks, ex.rank)
    if ex.kind == "ideal":
        assert ex.setting is not None
        return ideal_labels(ex.setting)
    if ex.kind == "comparison":
        assert ex.setting is not None and ex.labels_b is not None
        options = COMPARE_OPTIONS[ex.asks]
        if ex.asks == "higher":
            return options[{"A": 0, "B": 1, "same": 2}[winner(ex.setting, ex.labels_b)]]
        flipped = winner(ex.setting, ex.labels_b) != winner(
            ex.setting.with_config(gain=ex.other_gain or "exponential"), ex.labels_b)
        return options[0] if flipped else options[1]
    if ex.kind == "concept":
        assert ex.answer_option is not None
        return ex.choices[ex.answer_option]
    return None


def format_answer(exercise: str | Exercise) -> str:
    """The right answer as a learner would write it (to the asked precision).

    >>> format_answer("lecture-ndcg"), format_answer("lecture-ideal")
    ('0.78', '2, 1, 1')
    """
    ex = resolve(exercise)
    value = expected_answer(ex)
    if ex.kind == "numeric":
        return f"{value:.{ex.precision}f}"
    if ex.kind == "ideal":
        return format_labels(value)
    if value is None:
        return "(checked by running your code)"
    return str(value)


def mistaken_values(exercise: str | Exercise) -> dict[str, list[float]]:
    """What each common mistake gives for a numeric exercise (misconception id -> values).

    Only mistakes whose value rounds to another value than the right one at the asked
    decimals are listed: the others cannot be told apart from a right answer.

    >>> round(mistaken_values("lecture-dcg")["log-natural"][0], 4)
    3.5067
    """
    ex = resolve(exercise)
    if ex.kind != "numeric":
        return {}
    assert ex.setting is not None
    right = expected_answer(ex)
    out: dict[str, list[float]] = {}
    for v in variants(ex.setting, ex.asks, ex.precision):
        value = v.value(ex.rank)
        if value is not None and not same_at(value, right, ex.precision):
            out.setdefault(v.misconception, []).append(value)
    return out


def diagnose(exercise: str | Exercise, value: float) -> list[Variant]:
    """The common mistakes whose value ``value`` matches (the same at the asked decimals, or
    within half a unit of them) and the right value does not, closest first; ties go to the
    order of :data:`MISCONCEPTIONS`.

    >>> [v.misconception for v in diagnose("lecture-ndcg", 2.43)]
    ['no-normalisation']
    """
    ex = resolve(exercise)
    assert ex.setting is not None
    right = float(expected_answer(ex))
    tol = tolerance(ex.precision)
    priority = list(MISCONCEPTIONS)
    found: list[tuple[float, int, int, Variant]] = []
    for order, variant in enumerate(variants(ex.setting, ex.asks, ex.precision)):
        mistaken = variant.value(ex.rank)
        if mistaken is None or same_at(mistaken, right, ex.precision):
            continue
        distance = abs(value - mistaken)
        if distance <= tol or same_at(value, mistaken, ex.precision):
            found.append((round(distance, 9), priority.index(variant.misconception), order, variant))
    return [v for *_, v in sorted(found, key=lambda f: f[:3])]


# --------------------------------------------------------------------------- the grading rule

#: Below this distance from a rounding boundary (a 5 in the next digit) both roundings count:
#: float noise must not decide between 0.12 and 0.13 for an exact 0.125.
_BOUNDARY = 1e-9


def _roundings(value: float, decimals: int) -> set[Decimal]:
    """``value`` rounded half-up to ``decimals`` decimals (both neighbours on a boundary)."""
    unit = Decimal(1).scaleb(-decimals)
    return {Decimal(repr(v)).quantize(unit, rounding=ROUND_HALF_UP) for v in (value - _BOUNDARY, value + _BOUNDARY)}


def _cuts(value: float, decimals: int) -> set[Decimal]:
    unit = Decimal(1).scaleb(-decimals)
    return {Decimal(repr(v)).quantize(unit, rounding=ROUND_DOWN) for v in (value - _BOUNDARY, value + _BOUNDARY)}


def same_at(a: float, b: float, decimals: int) -> bool:
    """Whether ``a`` and ``b`` round (half up) to the same value at ``decimals`` decimals.

    >>> same_at(0.7763, 0.78, 2), same_at(0.772, 0.7763, 2), same_at(0.125, 0.13, 2)
    (True, False, True)
    """
    return bool(_roundings(a, decimals) & _roundings(b, decimals))


class Grade(NamedTuple):
    """The verdict of :func:`grade` on a typed number.

    ``verdict`` is one of ``"right"``, ``"right-extra"`` (right, with extra decimals that
    are right too), ``"extra-wrong"`` (it rounds to the right value, but its extra decimals
    disagree with the exact value) and ``"wrong"`` (it rounds to another value).
    """

    verdict: str

    @property
    def correct(self) -> bool:
        """Whether the answer counts as right."""
        return self.verdict in ("right", "right-extra")


def grade(typed: float, decimals: int | None, right: float, precision: int,
          intermediates: Sequence[float] = ()) -> Grade:
    """The one grading rule for a typed number (ARCHITECTURE.md, conventions: "an answer is right when it
    rounds to the right value at the asked decimals; extra decimals must be right too").

    1. The typed value, rounded half up to the ``precision`` asked for, must equal the
       exact value ``right`` rounded the same way. ``0.7714`` and ``0.772`` are 0.77, not
       the 0.78 of nDCG = 0.7763: wrong. Fewer decimals are fine when they round the same
       (``1`` for 1.00), else wrong (``0.8`` for 0.78).
    2. Decimals beyond the asked ones must be right too: rounded (or cut) at the typed
       number of decimals, the exact value, or a value reached by rounding intermediate
       steps at the asked precision (``intermediates``: for nDCG, DCG and IDCG rounded
       first, so ``2.43 / 3.13 = 0.7764``), must give the typed digits. ``0.7799``
       rounds to 0.78 but its last two digits are not nDCG's: ``"extra-wrong"``.
    3. A fraction (``decimals=None``, e.g. ``2.43/3.13``) has no typed digits: rule 1 only.

    >>> grade(0.7763, 4, 0.776336, 2).verdict, grade(0.772, 3, 0.776336, 2).verdict
    ('right-extra', 'wrong')
    >>> grade(0.7764, 4, 0.776336, 2, [2.43 / 3.13]).verdict, grade(0.7799, 4, 0.776336, 2).verdict
    ('right-extra', 'extra-wrong')
    """
    if not same_at(typed, right, precision):
        return Grade("wrong")
    if decimals is None or decimals <= precision:
        return Grade("right")
    unit = Decimal(1).scaleb(-decimals)
    shown = Decimal(repr(typed)).quantize(unit, rounding=ROUND_HALF_UP)
    for candidate in (right, *intermediates):
        if shown in _roundings(candidate, decimals) or shown in _cuts(candidate, decimals):
            return Grade("right-extra")
    return Grade("extra-wrong")


def intermediate_values(exercise: str | Exercise) -> list[float]:
    """Values a learner reaches by rounding intermediate steps at the asked precision.

    For nDCG: DCG and IDCG each rounded before dividing, and every term rounded before
    adding (then the ratio). They make extra decimals right (:func:`grade`, rule 2); they
    never make a wrong answer at the asked precision right.

    >>> [round(v, 4) for v in intermediate_values("lecture-ndcg")][:1]
    [0.7764]
    """
    ex = resolve(exercise)
    if ex.kind != "numeric" or ex.asks != "ndcg":
        return []
    assert ex.setting is not None
    p = ex.precision
    top, best = quantity(ex.setting, "dcg"), quantity(ex.setting, "idcg")
    out = []
    if round(best, p) > 0:
        out.append(round(top, p) / round(best, p))
    for v in variants(ex.setting, ex.asks, p):
        if v.misconception == "rounded-early":
            value = v.value(ex.rank)
            if value is not None:
                out.append(value)
    return out


def check(exercise_id: str | Exercise, answer_text: str) -> Feedback:
    """Check a learner's typed answer; name the mistake behind a wrong one where it can.

    Parameters
    ----------
    exercise_id : str or Exercise
        An id from the bank (``"lecture-dcg"``) or an exercise object (exam problems).
    answer_text : str
        What the learner typed, as typed.

    Examples
    --------
    >>> check("lecture-dcg", " 2.43 ").correct
    True
    >>> fb = check("lecture-ndcg", "2.43")
    >>> fb.correct, fb.misconception
    (False, 'no-normalisation')
    >>> check("lecture-ndcg", "seventy").misconception is None
    True
    """
    ex = resolve(exercise_id)
    if ex.kind == "numeric":
        return _check_numeric(ex, answer_text)
    if ex.kind == "ideal":
        return _check_ideal(ex, answer_text)
    if ex.kind == "comparison":
        return _check_comparison(ex, answer_text)
    if ex.kind == "concept":
        return _check_concept(ex, answer_text)
    return Feedback(
        False,
        f"**{ex.title}** is a code exercise: write `def {ex.function}(rels, k)` in a cell "
        "of notebook 07 opened for editing (`ndcg-lab edit`) and the notebook runs the checker on "
        "your function. Typed text is never run.",
        None,
    )


def _sentence(message: str) -> str:
    return message[:1].upper() + message[1:]


def _readable(value: float, decimals: int | None) -> str:
    if decimals is None:
        return f"{value:.4f}".rstrip("0").rstrip(".")
    return f"{value:.{max(decimals, 0)}f}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _check_numeric(ex: Exercise, answer_text: str) -> Feedback:
    assert ex.setting is not None
    fraction_asked = ex.asks in ("ndcg", "unjudged", "precision", "ap", *MEASURE_ASKS)
    try:
        parsed = parse_number(answer_text, percent_allowed=fraction_asked)
    except (TypeError, ValueError) as err:
        return Feedback(False, _sentence(str(err)), None)
    right = float(expected_answer(ex))
    p = ex.precision
    tol = tolerance(p)
    value = parsed.value
    typed = f"{value * 100:.{max((parsed.decimals or 2) - 2, 0)}f} %" if parsed.percent else _readable(
        value, parsed.decimals)
    what = ex.quantity
    verdict = grade(value, parsed.decimals, right, p, intermediate_values(ex))
    if verdict.correct:
        return Feedback(
            True,
            f"Right: {what} = {format_number(right)}, which is {right:.{p}f} to "
            f"{_plural(p, 'decimal')}.",
            None,
        )
    if verdict.verdict == "extra-wrong":
        return Feedback(
            False,
            f"Nearly: {typed} rounds to the right value at {_plural(p, 'decimal')}, but its further "
            f"decimals are not those of {what} (nor what rounding the steps at {_plural(p, 'decimal')} "
            f"gives). Give {_plural(p, 'decimal')}, or only decimals you computed.",
            None,
        )
    if fraction_asked and not parsed.percent and 1 < value <= 100 and same_at(value / 100, right, p):
        between = {"ndcg": "nDCG", "precision": "P@k", "ap": "AP"}.get(
            ex.asks, ex.quantity if ex.asks in MEASURE_ASKS else "A fraction")
        return Feedback(
            False,
            f"{between} lies between 0 and 1, and {typed} does not. If you meant a percentage, type "
            f"{typed} %, or write it as a fraction such as {value / 100:.{p}f}.",
            None,
        )
    matches = diagnose(ex, value)
    if matches:
        first = matches[0]
        m = MISCONCEPTIONS[first.misconception]
        others: list[str] = []
        for v in matches[1:]:
            if v.name != first.name and v.name not in others:
                others.append(v.name)
        also = ""
        if others:
            also = " (The same number also comes from " + " or from ".join(others[:2]) + ".)"
        return Feedback(False, f"Not quite: {typed} is what {what} comes to with {first.name}. {m.hint}{also}", m.id)
    if parsed.decimals is not None and 1 <= parsed.decimals < p and same_at(value, right, parsed.decimals):
        m = MISCONCEPTIONS["too-few-decimals"]
        return Feedback(
            False,
            f"Nearly: {typed} is right to {_plural(parsed.decimals, 'decimal')}, "
            f"but the exercise asks for {p}. {m.hint}",
            m.id,
        )
    factor = 10 ** p
    truncated = math.trunc(right * factor + 1e-9) / factor
    if parsed.decimals == p and abs(value - truncated) <= 1e-9 and not same_at(truncated, right, p):
        m = MISCONCEPTIONS["truncated"]
        return Feedback(False, f"Nearly: {typed} has the right digits but they were cut off, not rounded. {m.hint}", m.id)
    if abs(value - right) <= tol:
        rounded = next(iter(_roundings(value, p)))
        return Feedback(
            False,
            f"Close, but not right: {typed} is {rounded} to {_plural(p, 'decimal')}, and {what} is not. "
            "Keep four or more decimals in every step and round only the final answer (half up: "
            "look at the next digit).",
            None,
        )
    if ex.asks in ("precision", "ap"):
        how = ("Mark the relevant documents (label 1 or more) and count; the worked solution shows "
               "every step.")
    elif ex.asks in MEASURE_ASKS:
        how = "Work through the list rank by rank; the worked solution shows every step."
    elif ex.asks == "unjudged":
        how = ("Count the unjudged (?) documents among the top k ranks and divide by the number of "
               "documents there (k, or the list's length when it is shorter).")
    else:
        how = ("Work through the ranks one by one (gain, then discount, then the product); the worked "
               "solution shows every step.")
    return Feedback(False, f"Not right: {typed} is not {what} here, and it matches none of the usual mistakes. {how}",
                    None)


def _check_ideal(ex: Exercise, answer_text: str) -> Feedback:
    assert ex.setting is not None
    if not isinstance(answer_text, str) or not answer_text.strip():
        return Feedback(False, "Type the ideal order as labels separated by commas, e.g. 3, 2, 0.", None)
    if len(answer_text) > MAX_ANSWER_CHARS:
        return Feedback(False, f"The answer is {len(answer_text)} characters long; type just the labels, e.g. 3, 2, 0.", None)
    try:
        typed = parse_labels(answer_text)
    except (TypeError, ValueError) as err:
        return Feedback(False, _sentence(str(err)), None)
    if any(x is None for x in typed):
        return Feedback(False, "The ideal list holds judged documents only: leave out the ? (unjudged) entries.", None)
    answer = [float(x) for x in typed]  # type: ignore[arg-type]
    while answer and answer[-1] == 0:
        answer.pop()
    right = ideal_labels(ex.setting)
    gain = resolve_gain(ex.setting.config.gain)

    def gains(xs: Sequence[float]) -> list[float]:
        return [float(g) for g in gain(np.asarray(xs, dtype=float))] if xs else []

    shown = format_labels(answer) or "only zeros"
    relevant = [x for x in answer if x > 0]
    inner_zero = len(relevant) != len(answer)
    same_labels = Counter(relevant) == Counter(right)
    if same_labels and not inner_zero and gains(relevant) == gains(right):
        return Feedback(True, f"Right: the ideal order is {format_labels(right)}, then the zeros.", None)
    if same_labels and inner_zero and gains(relevant) == gains(right):
        return Feedback(False, f"Not quite: {shown} has a 0 before a relevant label. In the ideal ranking every "
                               "relevant document comes before the non-relevant ones.", None)
    run_relevant = [float(x) for x in ex.setting.labels if x is not None and x > 0]
    as_given = [float(x) for x in (ex.setting.judgments or ()) if x > 0]
    if relevant == sorted(run_relevant, reverse=True) and not same_labels:
        m = MISCONCEPTIONS["ideal-from-run"]
        return Feedback(False, f"Not quite: {shown} is sorted, but it holds only the labels in the ranked "
                               f"list and leaves out the judged documents the list missed. {m.hint}", m.id)
    if relevant == run_relevant and relevant != right:
        m = MISCONCEPTIONS["ideal-unsorted"]
        return Feedback(False, f"Not quite: {shown} is the ranked list in its own order, not the ideal one. {m.hint}", m.id)
    if same_labels and relevant == as_given:
        m = MISCONCEPTIONS["ideal-unsorted"]
        return Feedback(False, f"Not quite: {shown} is the judgments in the order they were given. {m.hint}", m.id)
    if same_labels and len(relevant) > 1 and gains(relevant) == sorted(gains(right)):
        m = MISCONCEPTIONS["ideal-ascending"]
        return Feedback(False, f"Not quite: {shown} runs from the smallest label to the largest. {m.hint}", m.id)
    if same_labels:
        m = MISCONCEPTIONS["ideal-unsorted"]
        return Feedback(False, f"Not quite: {shown} has the right labels, but not sorted by gain. {m.hint}", m.id)
    have, want = Counter(relevant), Counter(right)
    for label in sorted(set(have) | set(want), reverse=True):
        if have[label] != want[label]:
            return Feedback(
                False,
                f"Not right: your list has {have[label]} document(s) with label {label:g}, but the query has "
                f"{want[label]} judged document(s) with that label (count the ranked list and the missed ones). "
                "The ideal list holds every judged relevant document exactly once.",
                None,
            )
    return Feedback(False, f"Not right: {shown} is not the ideal order.", None)


def _check_comparison(ex: Exercise, answer_text: str) -> Feedback:
    assert ex.setting is not None and ex.labels_b is not None
    options = COMPARE_OPTIONS[ex.asks]
    try:
        index = parse_choice(answer_text, options, COMPARE_SYNONYMS[ex.asks])
    except (TypeError, ValueError) as err:
        return Feedback(False, _sentence(str(err)), None)
    right = expected_answer(ex)
    a = quantity(ex.setting, "ndcg")
    b = quantity(replace(ex.setting, labels=ex.labels_b), "ndcg")
    name = "nDCG" if ex.setting.k is None else f"nDCG@{ex.setting.k}"
    numbers = f"{name} of A = {format_number(a)}, of B = {format_number(b)}"
    if options[index] == right:
        if ex.asks == "flips":
            other = ex.setting.with_config(gain=ex.other_gain or "exponential")
            a2 = quantity(other, "ndcg")
            b2 = quantity(replace(other, labels=ex.labels_b), "ndcg")
            numbers += f"; with {other.gain} gain A = {format_number(a2)}, B = {format_number(b2)}"
        return Feedback(True, f"Right: {numbers}.", None)
    if ex.asks == "higher":
        picked = ("A", "B", "same")[index]
        for variant in variants(ex.setting, "ndcg", ex.precision):
            if variant.asks != "ndcg" or variant.rounding is not None:
                continue
            if variant.winner(ex.labels_b) == picked:
                m = MISCONCEPTIONS[variant.misconception]
                return Feedback(False, f"Not quite: that would be the answer with {variant.name}. {m.hint}", m.id)
    return Feedback(False, "Not right. Compute nDCG of both rankings under the stated configuration and compare; "
                           "the worked solution shows both.", None)


def _check_concept(ex: Exercise, answer_text: str) -> Feedback:
    try:
        index = parse_choice(answer_text, ex.choices)
    except (TypeError, ValueError) as err:
        return Feedback(False, _sentence(str(err)), None)
    note = ex.option_notes[index] if index < len(ex.option_notes) else ""
    if index == ex.answer_option:
        return Feedback(True, f"Right. {note}".strip(), None)
    misconception = ex.option_misconceptions[index] if index < len(ex.option_misconceptions) else None
    return Feedback(False, f"Not quite. {note}".strip(), misconception)
