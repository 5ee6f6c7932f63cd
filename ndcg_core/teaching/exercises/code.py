r"""Code exercises: a learner's own ``dcg(rels, k)`` or ``ndcg(rels, k)`` against a battery of cases.

Two ways in, one judgement:

- :func:`ndcg_core.infra.sandbox.check_code_text` takes the code as *typed in the page* and
  runs it in a separate, restricted, time- and memory-limited process (the infrastructure
  layer's sandbox): never in the server's process. This is what notebooks 07 and 08 use, in
  every mode. It asks this module for the cases (:func:`code_battery`) and for the verdicts on
  what the learner's function returned (:func:`judge_results`).
- :func:`check_code` calls a *function object* the learner defined in their own kernel (a
  notebook opened for editing, a script).

Each case of :data:`BATTERY` is compared with the core's value; a wrong value is matched
against the common mistakes (:mod:`.misconceptions`), an exception is reported with a hint.

>>> from math import log2
>>> def my_dcg(rels, k):
...     return sum(rels[i] / log2(i + 2) for i in range(min(k, len(rels))))
>>> check_code("code-dcg", my_dcg).passed
True
"""

from __future__ import annotations

import math
import re
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

__all__ = ["CodeCase", "CodeReport", "BATTERY", "check_code", "code_battery", "judge_results", "battery_markdown",
           "code_span"]


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
    #: Why no case could be run (syntax error, wrong name, time limit, ...); "" when they ran.
    message: str = ""

    @property
    def passed(self) -> bool:
        """Whether every case ran and passed."""
        return not self.message and bool(self.cases) and all(c.passed for c in self.cases)

    @property
    def failures(self) -> list[CodeCase]:
        """The cases that did not pass, in battery order."""
        return [c for c in self.cases if not c.passed]

    def markdown(self) -> str:
        """A summary line, then a table of the failing cases (input, expected, got, why).

        Every text that comes from the learner's code (what it raised or returned, the
        compiler's message quoting it) is a :func:`code_span`: shown as typed, never read as
        Markdown (``__subclasses__`` stays as it is, not bold or italic).
        """
        if self.message:
            return f"**{self.function}**: not checked. {self.message}"
        ok = sum(c.passed for c in self.cases)
        head = f"**{self.function}**: {ok} of {len(self.cases)} cases pass."
        if self.passed:
            return head + " Every case gives the expected value."
        rows = [[f"`{c.call}`", c.what, format_number(c.expected), c.got, c.problem] for c in self.failures]
        return head + "\n\n" + pipe_table(["call", "case", "expected", "got", "what went wrong"], rows)


def code_span(text: object) -> str:
    """``text`` as a Markdown code span: shown exactly as typed, never read as markup (no
    italics from ``__subclasses__``, no superscript from ``^``, no live link or ``<img>``).
    Whitespace runs become one space; a pipe becomes ``¦`` (a table cell ends at ``|``).

    >>> code_span("__subclasses__"), code_span("a `b` c")
    ('`__subclasses__`', '`` a `b` c ``')
    """
    flat = " ".join(str(text).split()).replace("|", "¦")
    ticks = "`" * (max((len(run) for run in re.findall(r"`+", flat)), default=0) + 1)
    pad = " " if "`" in flat else ""
    return f"{ticks}{pad}{flat}{pad}{ticks}"


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
    function, battery = code_battery(exercise_id)
    if not callable(func):
        raise TypeError(
            f"func must be a function {function}(rels, k); got {func!r} ({type(func).__name__}). "
            f"Define it with def {function}(rels, k): ... and pass the function itself, without calling it."
        )
    cases = []
    for what, rels, k in battery:
        given = list(rels)
        try:
            got = func(given, k)
        except Exception as err:  # the learner's code may raise anything
            cases.append(_judge(function, what, rels, k, {"error": type(err).__name__, "message": str(err)}))
            continue
        number = None
        if not isinstance(got, bool) and isinstance(got, Real) and math.isfinite(float(got)):
            number = float(got)
        cases.append(_judge(function, what, rels, k, {
            "value": number, "shown": _show(got), "type": type(got).__name__,
            "changed": None if given == list(rels) else _show(given)}))
    return CodeReport(f"{function}(rels, k)", _constant_return(tuple(cases)))


def code_battery(exercise_id: str | Exercise, extra_cases: Sequence[tuple[str, Sequence[int], int]] = ()
                 ) -> tuple[str, tuple[tuple[str, tuple[int, ...], int], ...]]:
    """The function name and the cases ``(what, rels, k)`` a code exercise's function is run on:
    :data:`BATTERY`, then ``extra_cases`` (the exam's seeded cases).

    >>> function, cases = code_battery("code-dcg", [("mine", [2, 1], 2)])
    >>> function, len(cases) == len(BATTERY["dcg"]) + 1, cases[-1]
    ('dcg', True, ('mine', (2, 1), 2))

    Raises
    ------
    ValueError
        If the exercise is not a code exercise.
    """
    ex = resolve(exercise_id)
    if ex.kind != "code":
        raise ValueError(
            f"exercise_id must name a code exercise ('code-dcg' or 'code-ndcg'); got {ex.id!r} ({ex.kind}). "
            "Check typed answers with check(exercise_id, answer_text)."
        )
    function = ex.function
    extra = tuple((str(w), tuple(int(x) for x in r), int(k)) for w, r, k in extra_cases)
    return function, tuple(BATTERY[function]) + extra


def judge_results(function: str, cases: Sequence[tuple[str, Sequence[int], int]],
                  results: Sequence[dict[str, Any]] | None, message: str = "") -> CodeReport:
    """The report on what a learner's ``function`` did on each of ``cases``.

    ``results`` holds one dict per case, as the sandbox reports them: ``value`` (a finite float
    or None), ``shown``, ``type``, ``changed``; or ``error`` and ``message``. ``results=None``
    means no case could run, and ``message`` says why (it becomes the report's message).

    >>> judge_results("dcg", [("one", (1,), 1)], [{"value": 1.0, "shown": "1.0"}]).passed
    True
    >>> judge_results("dcg", [("one", (1,), 1)], None, "Your code did not finish.").markdown()
    '**dcg(rels, k)**: not checked. Your code did not finish.'
    """
    name = f"{function}(rels, k)"
    if results is None:
        return CodeReport(name, (), message)
    return CodeReport(name, _constant_return(tuple(_judge(function, what, rels, k, result)
                                                   for (what, rels, k), result in zip(cases, results))))


def _constant_return(cases: tuple[CodeCase, ...]) -> tuple[CodeCase, ...]:
    """One diagnosis, not a coincidence per case, for a function that returns the same number
    whatever it is given (``return 1``): that value matches some mistake on some case by chance."""
    failed = [c for c in cases if not c.passed]
    values = {c.got for c in cases if c.got != "an error"}
    expected = {round(c.expected, 9) for c in cases}
    numeric = all(c.passed or c.problem.startswith(("matches", "does not match")) for c in cases)
    if len(failed) < 2 or len(values) != 1 or len(expected) < 3 or not numeric:
        return cases  # not one number every time (an error, a text, a list changed): each case says why
    (value,) = values
    why = (f"returns {value} for every case, whatever rels and k are: the function must compute its result "
           "from rels, rank by rank up to k (compare the worked solution of the lecture example).")
    return tuple(c if c.passed else c._replace(problem=why) for c in cases)


def _judge(function: str, what: str, rels: Sequence[int], k: int, result: dict[str, Any]) -> CodeCase:
    """One case's verdict from what the learner's function did (a value, or an error)."""
    call = f"{function}({list(rels)}, {k})"
    expected = _expected(function, rels, k)
    if "error" in result:
        kind, text = result["error"], result.get("message", "")
        return CodeCase(call, what, expected, "an error", False,
                        f"raised {kind}{': ' + code_span(text) if text else ''}. "
                        f"{_error_hint(function, kind, text)}".strip())
    shown = code_span(result.get("shown", ""))
    if result.get("changed") is not None:
        return CodeCase(call, what, expected, shown, False,
                        f"changed the list it was given to {code_span(result['changed'])} (sorted it in place?). "
                        "Work on a copy: sorted(rels, reverse=True) returns a new list.")
    value = result.get("value")
    if value is None:
        return CodeCase(call, what, expected, shown, False,
                        f"returned {shown} ({result.get('type', '?')}); return a finite number.")
    value = float(value)
    if math.isclose(value, expected, rel_tol=1e-9, abs_tol=1e-9):
        return CodeCase(call, what, expected, format_number(value), True, "")
    return CodeCase(call, what, expected, format_number(value), False, _code_diagnosis(function, rels, k, value))


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _error_hint(function: str, kind: str, text: str = "") -> str:
    if kind == "ZeroDivisionError":
        if function == "ndcg":
            return "When the ideal DCG is 0 (no relevant document), nDCG is defined as 0: check before dividing."
        return "Rank 1 needs log2(1 + 1) = 1 in the denominator: use log2(i + 2) for a 0-based index i."
    if kind in ("SystemExit", "KeyboardInterrupt"):
        return ("raise SystemExit (or exit()) ends a whole program; a function gives its result back with "
                "return: end it with return and the number.")
    if kind == "IndexError":
        return "k may be larger than the list: stop at min(k, len(rels))."
    if kind == "NameError" and any(w in text for w in ("'open'", "'exec'", "'eval'", "'input'", "'compile'")):
        return ("Files, input and running other code are not available here; the function needs only rels, k "
                "and math.log2.")
    if kind == "NameError" and "log2" in text:
        return "Import it first: from math import log2."
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
