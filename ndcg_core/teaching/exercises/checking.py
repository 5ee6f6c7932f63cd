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
from typing import Any

import numpy as np

from ...gains import resolve_gain
from ...labels import parse_labels
from .answers import COMPARE_SYNONYMS, parse_choice, parse_number
from .bank import resolve
from .formatting import format_labels, format_number
from .misconceptions import MISCONCEPTIONS, Variant, variants
from .model import COMPARE_OPTIONS, MAX_ANSWER_CHARS, Exercise, Feedback
from .values import ideal_labels, quantity, tolerance, winner

__all__ = ["check", "expected_answer", "format_answer", "mistaken_values", "diagnose"]


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

    Only mistakes whose value differs from the right one by more than the tolerance are
    listed: the others cannot be told apart from a right answer.

    >>> round(mistaken_values("lecture-dcg")["log-natural"][0], 4)
    3.5067
    """
    ex = resolve(exercise)
    if ex.kind != "numeric":
        return {}
    assert ex.setting is not None
    right = expected_answer(ex)
    tol = tolerance(ex.precision)
    out: dict[str, list[float]] = {}
    for v in variants(ex.setting, ex.asks, ex.precision):
        value = v.value(ex.rank)
        if value is not None and abs(value - right) > tol:
            out.setdefault(v.misconception, []).append(value)
    return out


def diagnose(exercise: str | Exercise, value: float) -> list[Variant]:
    """The common mistakes whose value ``value`` matches (and the right value does not),
    closest first; ties go to the order of :data:`MISCONCEPTIONS`.

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
        if mistaken is None or abs(mistaken - right) <= tol:
            continue
        distance = abs(value - mistaken)
        if distance <= tol:
            found.append((round(distance, 9), priority.index(variant.misconception), order, variant))
    return [v for *_, v in sorted(found, key=lambda f: f[:3])]


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
    try:
        parsed = parse_number(answer_text, percent_allowed=ex.asks == "ndcg")
    except (TypeError, ValueError) as err:
        return Feedback(False, _sentence(str(err)), None)
    right = float(expected_answer(ex))
    tol = tolerance(ex.precision)
    value = parsed.value
    typed = f"{value * 100:.{max((parsed.decimals or 2) - 2, 0)}f} %" if parsed.percent else _readable(
        value, parsed.decimals)
    what = ex.quantity
    if abs(value - right) <= tol:
        return Feedback(
            True,
            f"Right: {what} = {format_number(right)}, which is {right:.{ex.precision}f} to "
            f"{_plural(ex.precision, 'decimal')}.",
            None,
        )
    if ex.asks == "ndcg" and not parsed.percent and 1 < value <= 100 and abs(value / 100 - right) <= tol:
        return Feedback(
            False,
            f"nDCG lies between 0 and 1, and {typed} does not. If you meant a percentage, type "
            f"{typed} %, or write it as a fraction such as {value / 100:.{ex.precision}f}.",
            None,
        )
    matches = diagnose(ex, value)
    if matches:
        first = matches[0]
        m = MISCONCEPTIONS[first.misconception]
        others: list[str] = []
        for v in matches[1:]:
            if v.misconception != first.misconception and v.misconception not in others:
                others.append(v.misconception)
        also = ""
        if others:
            also = " (The same number also comes from " + " or from ".join(
                MISCONCEPTIONS[o].name for o in others[:2]) + ".)"
        return Feedback(False, f"Not quite: {typed} is what {what} comes to with {first.name}. {m.hint}{also}", m.id)
    if parsed.decimals is not None and 1 <= parsed.decimals < ex.precision and abs(value - right) <= tolerance(
            parsed.decimals):
        m = MISCONCEPTIONS["too-few-decimals"]
        return Feedback(
            False,
            f"Nearly: {typed} is right to {_plural(parsed.decimals, 'decimal')}, "
            f"but the exercise asks for {ex.precision}. {m.hint}",
            m.id,
        )
    factor = 10 ** ex.precision
    truncated = math.trunc(right * factor) / factor
    if abs(value - truncated) <= 1e-9 and abs(truncated - right) > tol:
        m = MISCONCEPTIONS["truncated"]
        return Feedback(False, f"Nearly: {typed} has the right digits but they were cut off, not rounded. {m.hint}", m.id)
    return Feedback(
        False,
        f"Not right: {typed} is not {what} here, and it matches none of the usual mistakes. "
        "Work through the ranks one by one (gain, then discount, then the product); the hints help.",
        None,
    )


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
    if relevant == run_relevant and relevant != right:
        m = MISCONCEPTIONS["ideal-unsorted"]
        return Feedback(False, f"Not quite: {shown} is the ranked list in its own order, not the ideal one. {m.hint}", m.id)
    if relevant == sorted(run_relevant, reverse=True) and not same_labels:
        m = MISCONCEPTIONS["ideal-from-run"]
        return Feedback(False, f"Not quite: {shown} uses only the labels in the ranked list. {m.hint}", m.id)
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
                           "the hints help.", None)


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
