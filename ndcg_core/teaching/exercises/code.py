r"""Code exercises: a learner's own ``dcg(rels, k)`` or ``ndcg(rels, k)`` against a battery of cases.

:func:`check_code` calls the learner's *function object* (defined in a notebook opened for
editing, in the learner's own kernel) on each case of :data:`BATTERY` and compares it with
the core's value; typed text is never evaluated. A wrong value is matched against the
common mistakes (:mod:`.misconceptions`), an exception is reported with a hint.

>>> from math import log2
>>> def my_dcg(rels, k):
...     return sum(rels[i] / log2(i + 2) for i in range(min(k, len(rels))))
>>> check_code("code-dcg", my_dcg).passed
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from numbers import Real
from typing import Any, NamedTuple

from ...config import NDCGConfig
from ...metrics import dcg, ndcg
from .bank import resolve
from .formatting import format_number, pipe_table
from .misconceptions import MISCONCEPTIONS, variants
from .model import Exercise, Setting
from .values import quantity

__all__ = ["CodeCase", "CodeReport", "BATTERY", "check_code", "battery_markdown"]


class CodeCase(NamedTuple):
    """One call of the learner's function and its outcome."""

    call: str
    what: str
    expected: float
    got: str
    passed: bool
    problem: str


class CodeReport(NamedTuple):
    """The outcome of running a learner's function against the battery."""

    function: str
    cases: tuple[CodeCase, ...]

    @property
    def passed(self) -> bool:
        """Whether every case passed."""
        return all(c.passed for c in self.cases)

    @property
    def failures(self) -> list[CodeCase]:
        """The cases that did not pass, in battery order."""
        return [c for c in self.cases if not c.passed]

    def markdown(self) -> str:
        """A summary line, then a table of the failing cases (input, expected, got, why)."""
        ok = sum(c.passed for c in self.cases)
        head = f"**{self.function}**: {ok} of {len(self.cases)} cases pass."
        if self.passed:
            return head + " Every case gives the expected value."
        rows = [[f"`{c.call}`", c.what, format_number(c.expected), c.got, c.problem] for c in self.failures]
        return head + "\n\n" + pipe_table(["call", "case", "expected", "got", "what went wrong"], rows)


#: The cases each function is run on: (what the case is, rels, k).
BATTERY: dict[str, tuple[tuple[str, tuple[int, ...], int], ...]] = {
    "dcg": (
        ("the lecture example", (1, 0, 2, 1, 0), 5),
        ("the lecture example, cut at 3", (1, 0, 2, 1, 0), 3),
        ("k beyond the end of the list", (1, 0, 2, 1, 0), 10),
        ("k = 1", (3, 2, 1), 1),
        ("all zeros", (0, 0, 0), 3),
        ("an empty list", (), 5),
        ("the best document last", (0, 0, 3), 3),
        ("a longer graded list", (3, 2, 3, 0, 1, 2), 6),
    ),
    "ndcg": (
        ("the lecture example", (1, 0, 2, 1, 0), 5),
        ("the lecture example, cut at 2", (1, 0, 2, 1, 0), 2),
        ("an ideal list already", (3, 2, 1), 3),
        ("worst order first", (0, 1, 2, 3), 4),
        ("k = 1", (1, 3), 1),
        ("k beyond the end of the list", (2, 0, 1), 10),
        ("all zeros (IDCG = 0)", (0, 0, 0), 3),
        ("an empty list", (), 5),
    ),
}


def _expected(function: str, rels: Sequence[int], k: int) -> float:
    return dcg(list(rels), k) if function == "dcg" else ndcg(list(rels), k)


def battery_markdown(function: str) -> str:
    """The battery of ``function`` (``"dcg"`` or ``"ndcg"``) as a table with the expected values.

    >>> print(battery_markdown("dcg").splitlines()[4])
    | `dcg([1, 0, 2, 1, 0], 5)` | the lecture example | 2.4307 |
    """
    rows = [[f"`{function}({list(rels)}, {k})`", what, format_number(_expected(function, rels, k))]
            for what, rels, k in BATTERY[function]]
    return "The checker's cases, with their expected values:\n\n" + pipe_table(["call", "case", "expected"], rows)


def check_code(exercise_id: str | Exercise, func: Callable[..., Any]) -> CodeReport:
    """Run a learner's ``dcg(rels, k)`` or ``ndcg(rels, k)`` against a battery of cases.

    The function is called (in the caller's own Python process: a notebook opened for
    editing) with a fresh list each time; every exception it raises is caught and
    reported with the case. Expected values come from :func:`ndcg_core.dcg` and
    :func:`ndcg_core.ndcg` (linear gain, discount 1/log2(i+1), and for ``ndcg`` the
    ideal list sorted from ``rels`` itself, as in the exam's signature). A function that
    never returns blocks the caller like any other cell would; interrupt it there.

    Raises
    ------
    ValueError
        If the exercise is not a code exercise.
    TypeError
        If ``func`` is not callable.
    """
    ex = resolve(exercise_id)
    if ex.kind != "code":
        raise ValueError(
            f"exercise_id must name a code exercise ('code-dcg' or 'code-ndcg'); got {ex.id!r} ({ex.kind}). "
            "Check typed answers with check(exercise_id, answer_text)."
        )
    function = ex.function
    if not callable(func):
        raise TypeError(
            f"func must be a function {function}(rels, k); got {func!r} ({type(func).__name__}). "
            f"Define it with def {function}(rels, k): ... and pass the function itself, without calling it."
        )
    cases = []
    for what, rels, k in BATTERY[function]:
        call = f"{function}({list(rels)}, {k})"
        expected = _expected(function, rels, k)
        given = list(rels)
        try:
            got = func(given, k)
        except Exception as err:  # the learner's code may raise anything
            cases.append(CodeCase(call, what, expected, "an error", False,
                                  f"raised {type(err).__name__}: {err}. {_error_hint(function, err)}".strip()))
            continue
        if given != list(rels):
            cases.append(CodeCase(call, what, expected, _show(got), False,
                                  f"changed the list it was given to {given} (sorted it in place?). "
                                  "Work on a copy: sorted(rels, reverse=True) returns a new list."))
            continue
        if isinstance(got, bool) or not isinstance(got, Real) or not math.isfinite(float(got)):
            cases.append(CodeCase(call, what, expected, _show(got), False,
                                  f"returned {_show(got)} ({type(got).__name__}); return a finite number."))
            continue
        value = float(got)
        if math.isclose(value, expected, rel_tol=1e-9, abs_tol=1e-9):
            cases.append(CodeCase(call, what, expected, format_number(value), True, ""))
            continue
        cases.append(CodeCase(call, what, expected, format_number(value), False,
                              _code_diagnosis(function, rels, k, value)))
    return CodeReport(f"{function}(rels, k)", tuple(cases))


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _error_hint(function: str, err: Exception) -> str:
    if isinstance(err, ZeroDivisionError):
        if function == "ndcg":
            return "When the ideal DCG is 0 (no relevant document), nDCG is defined as 0: check before dividing."
        return "Rank 1 needs log2(1 + 1) = 1 in the denominator: use log2(i + 2) for a 0-based index i."
    if isinstance(err, IndexError):
        return "k may be larger than the list: stop at min(k, len(rels))."
    return ""


def _code_diagnosis(function: str, rels: Sequence[int], k: int, value: float) -> str:
    setting = Setting(labels=tuple(rels), config=NDCGConfig(k=k, ideal="list"))
    right = quantity(setting, function)
    for variant in variants(setting, function, 4):
        if variant.rounding is not None:
            continue
        mistaken = variant.value()
        if mistaken is not None and not math.isclose(mistaken, right, abs_tol=1e-9) and math.isclose(
                mistaken, value, rel_tol=1e-9, abs_tol=1e-9):
            return f"matches {variant.name}. {MISCONCEPTIONS[variant.misconception].hint}"
    return "does not match the expected value; compare your terms with the worked solution of the lecture example."
