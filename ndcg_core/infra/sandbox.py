r"""Learner code in a separate, restricted, time- and memory-limited process.

A learner types ``def dcg(rels, k): ...`` in the page; :func:`check_code_text` runs it
*outside* the server's process (:func:`run_cases`) on the code exercise's cases and returns
the teaching layer's report (:func:`ndcg_core.teaching.exercises.judge_results`). The server's process
only ever handles the text and the JSON the child writes back; it never compiles or calls
the learner's code.

Three layers, each enough to stop the common attacks on its own for what it covers:

1. **A separate process**: ``python -I`` (isolated: no PYTHONPATH, no user site, no current
   folder on the path) running :mod:`ndcg_core.infra.sandbox_child` by path, in a fresh
   empty temporary folder (removed afterwards), with an empty environment. It is killed at
   the wall-clock limit (:data:`WALL_SECONDS`). Whatever happens in it, the server carries on.
2. **OS limits** set in the child before the learner's text is compiled
   (``resource.setrlimit``): CPU time :data:`CPU_SECONDS`, address space :data:`MEMORY_BYTES`,
   no new processes (``RLIMIT_NPROC`` 0: ``fork`` fails), no file writes (``RLIMIT_FSIZE`` 0),
   no new file descriptors (``RLIMIT_NOFILE`` 3: no ``open``, no socket), no core file.
3. **A restricted language**: RestrictedPython compiles the text (no names starting with
   ``_``, so no ``__import__``/``__class__`` escapes; guarded attribute and item access), with
   a small set of builtins and ``import math`` the only import allowed. What the code prints
   is collected in memory and dropped, so the output the server reads is one bounded JSON line.

Why RestrictedPython: it is the well-kept library made for exactly this (Zope/Plone's, pure
Python, maintained since 1999), it refuses the escapes at compile time with a readable
message; it is not a sandbox on its own (its own documentation says so), hence the process
and the OS limits around it. A container or seccomp would need root or a compiled helper.

At most :data:`MAX_RUNNING` children run at once in one server (a classroom pressing
**Run** together queues briefly instead of loading the two cores with twenty children).

>>> check_code_text("code-dcg", "def dcg(rels, k): return 0.0").passed
False
>>> outcome = run_cases("def dcg(rels, k):\n    return float(sum(rels[:k]))", "dcg", [((1, 2), 2)])
>>> outcome.status, outcome.results[0]["value"]
('ok', 3.0)
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from ..teaching.exercises import CodeReport, Exercise, code_battery, judge_results
from .processes import stop_process_tree

__all__ = ["CPU_SECONDS", "CPU_MESSAGE", "WALL_SECONDS", "MEMORY_BYTES", "MAX_SOURCE_CHARS", "MAX_RUNNING",
           "Outcome", "run_cases", "check_code_text"]

#: CPU seconds the child may use (RLIMIT_CPU): then the OS stops it.
CPU_SECONDS = 2
#: Wall-clock seconds before the server kills the child (a sleep or a blocked read).
WALL_SECONDS = 5.0
#: Address space of the child (RLIMIT_AS), Python itself included.
MEMORY_BYTES = 256 * 1024 * 1024
#: The longest code accepted (characters).
MAX_SOURCE_CHARS = 5_000
#: Children at once per server process.
MAX_RUNNING = 4
#: The most the server reads back from a child (bytes).
MAX_REPLY_BYTES = 200_000

#: What a learner reads when the child hit the CPU limit (Markdown: the power in a code span,
#: so the page does not read ``^`` or ``*`` as markup).
CPU_MESSAGE = (f"Your code used more than {CPU_SECONDS} s of computing time, so it was stopped. "
               "Is there a loop that never ends, or a number grown enormous (like `10 ** (10 ** 10)`)?")

_CHILD = Path(__file__).with_name("sandbox_child.py")
_SLOTS = threading.BoundedSemaphore(MAX_RUNNING)


class Outcome(NamedTuple):
    """What the child reported.

    ``status``: ``"ok"`` (``results`` holds one dict per case: ``value`` (a finite float or
    None), ``shown``, ``type``, ``changed``; or ``error`` and ``message``), or one of
    ``"refused"``, ``"error"``, ``"missing"``, ``"signature"``, ``"timeout"``, ``"memory"``,
    ``"crashed"``, ``"too-long"``, ``"busy"``, ``"empty"``. ``message`` is what a learner reads.
    """

    status: str
    message: str
    results: tuple[dict[str, Any], ...] = ()


def _quoted(text: object) -> str:
    """What the learner's code (or the compiler quoting it) said, as a Markdown code span: the
    page shows it as typed (``__subclasses__`` is not read as bold or italic)."""
    flat = " ".join(str(text).split()).rstrip(".").replace("``", "` `")  # a single ` fits in a `` span
    return (f"`` {flat} ``" if "`" in flat else f"`{flat}`") if flat else ""


def _message(status: str, reply: dict[str, Any], function: str) -> str:
    signature = f"def {function}(rels, k):"
    if status == "refused":
        return (f"Your code was not run: {_quoted(reply.get('message', ''))}. Only plain Python is allowed here: "
                "no names starting with _, and import math is the only import.")
    if status == "error":
        message = str(reply.get("message", "")).rstrip(".")
        advice = (" raise SystemExit (or exit()) ends a whole program; define the function and let it return "
                  "its result." if message.startswith(("SystemExit", "KeyboardInterrupt")) else "")
        return f"Your code stopped before {function} was defined: {_quoted(message)}.{advice}"
    if status == "missing":
        defined = reply.get("defined") or []
        has = f"It defines {', '.join(defined)}." if defined else "It defines no function."
        return f"Your code has no function named {function}. {has} Start with {signature}"
    if status == "signature":
        return (f"{_quoted(reply.get('signature'))} cannot be called as {function}(rels, k): it must take exactly "
                f"the two arguments rels and k. Start with {signature}")
    if status == "memory":
        return (f"Your code ran out of memory (the limit is {MEMORY_BYTES // 2**20} MB). DCG needs no "
                "large lists: add the terms one by one.")
    return ""


def run_cases(source: str, function: str, cases: Sequence[tuple[Sequence[int], int]]) -> Outcome:
    """Run ``source`` (a learner's text) in a child process and call ``function`` on each case.

    Never raises for anything the learner typed; every outcome is an :class:`Outcome` with a
    message. The server's process does not compile or execute ``source``.
    """
    if not isinstance(source, str) or not source.strip():
        return Outcome("empty", f"Type your function first: def {function}(rels, k): ...")
    if len(source) > MAX_SOURCE_CHARS:
        return Outcome("too-long", f"Your code is {len(source):,} characters long; the limit is "
                                   f"{MAX_SOURCE_CHARS:,}. DCG fits in five lines.")
    request = json.dumps({"source": source, "function": function, "cases": [[list(r), k] for r, k in cases],
                          "cpu_seconds": CPU_SECONDS, "memory_bytes": MEMORY_BYTES})
    if not _SLOTS.acquire(timeout=2 * WALL_SECONDS):
        return Outcome("busy", "The server is running other learners' code right now; press Run again in a moment.")
    folder = tempfile.mkdtemp(prefix="ndcg-sandbox-")
    try:
        proc = subprocess.Popen(
            [sys.executable, "-I", "-B", str(_CHILD)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, cwd=folder, env={"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"},
            start_new_session=True)
        try:
            out, _ = proc.communicate(request.encode() + b"\n", timeout=WALL_SECONDS)
        except subprocess.TimeoutExpired:
            _kill(proc)
            return Outcome("timeout", f"Your code did not finish within {WALL_SECONDS:g} s, so it was stopped. "
                                      "Is there a loop that never ends (a while loop whose condition stays true)?")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        _SLOTS.release()
    if proc.returncode in (-24, 152) or proc.returncode == -9 and not out:  # SIGXCPU / killed at the CPU limit
        return Outcome("timeout", CPU_MESSAGE)
    try:
        reply = json.loads(out[:MAX_REPLY_BYTES].decode("utf-8", "replace").strip().splitlines()[-1])
        status = str(reply["status"])
    except (ValueError, IndexError, KeyError, TypeError):
        return Outcome("crashed", "Your code stopped the checker's process without an answer (it ran out of "
                                  f"memory, {MEMORY_BYTES // 2**20} MB, or of time). Simplify it and run again.")
    if status == "ok":
        return Outcome("ok", "", tuple(reply.get("results", ())))
    return Outcome(status, _message(status, reply, function))


def _kill(proc: subprocess.Popen[bytes]) -> None:
    stop_process_tree(proc, grace=WALL_SECONDS, signum=9)


def check_code_text(exercise_id: str | Exercise, source: str,
                    extra_cases: Sequence[tuple[str, Sequence[int], int]] = ()) -> CodeReport:
    """Run a learner's typed ``def dcg(rels, k): ...`` (or ``ndcg``) against the battery.

    The cases come from :func:`ndcg_core.teaching.exercises.code_battery` (``extra_cases``,
    ``(what, rels, k)``, run after the battery: the exam's seeded cases); the text goes to
    :func:`run_cases`; the verdicts come from :func:`ndcg_core.teaching.exercises.judge_results`.
    A problem that stops every case (syntax, a missing function, the time limit, ...) is the
    report's ``message``; never an exception.

    >>> report = check_code_text("code-dcg", "def dcg(rels, k): return 0.0")
    >>> report.passed, len(report.failures) > 0
    (False, True)
    >>> check_code_text("code-dcg", "import os").message.startswith("Your code stopped")
    True
    """
    function, cases = code_battery(exercise_id, extra_cases)
    outcome = run_cases(source, function, [(rels, k) for _, rels, k in cases])
    if outcome.status != "ok":
        return judge_results(function, cases, None, outcome.message)
    return judge_results(function, cases, outcome.results)
