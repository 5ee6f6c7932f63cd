r"""The exam's code task, and the seed rule every seeded draw of the exam follows.

The exam asks for ``dcg(rels, k)`` and then ``ndcg(rels, k)`` built on it. :func:`code_task`
draws a seed's four cases on top of each fixed battery; :data:`MODEL_CODE` is the answer key's
model answer; :func:`code_notes` says what the cases cannot see. The code itself is run only by
:func:`ndcg_core.infra.sandbox.check_code_text`, in a separate limited process, never here.
:mod:`ndcg_core.teaching.exam` re-exports every name.
"""

from __future__ import annotations

import random
import re
from typing import NamedTuple

__all__ = ["MAX_SEED", "check_seed", "CodeTask", "code_task", "MODEL_CODE", "code_notes"]

#: The largest seed a set takes (nine digits, as the seed box accepts them).
MAX_SEED = 999_999_999


def check_seed(seed: object) -> int:
    """``seed`` itself when it is a whole number from 0 to :data:`MAX_SEED`, else a clear error."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be a whole number from 0 to {MAX_SEED}; got {seed!r} ({type(seed).__name__}).")
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be a whole number from 0 to {MAX_SEED}; got {seed}.")
    return seed



class CodeTask(NamedTuple):
    """A seeded code task as the exam sets it: write ``dcg(rels, k)``, then ``ndcg(rels, k)``
    built on it; each is checked on its battery plus the seeded ``cases``."""

    seed: int
    functions: tuple[str, ...]
    title: str
    prompt: str
    cases: tuple[tuple[str, tuple[int, ...], int], ...]

    @property
    def exercises(self) -> tuple[str, ...]:
        """The code exercises that check each function (``code-dcg``, ``code-ndcg``)."""
        return tuple(f"code-{f}" for f in self.functions)

    @property
    def starter(self) -> str:
        """What the code box starts with: the import and both functions to fill in."""
        return "from math import log2\n\n" + "\n\n".join(f"def {f}(rels, k):\n    ..." for f in self.functions) + "\n"


def code_task(seed: int) -> CodeTask:
    """The code task of a seed: ``dcg`` and then ``ndcg`` calling it (as the exam asks), with
    four seeded cases on top of each fixed battery. Check a typed answer with
    ``ndcg_core.infra.sandbox.check_code_text(exercise, source, task.cases)`` for each of
    ``task.exercises`` (a sandboxed process each); :func:`code_notes` says what the checker
    cannot see.

    >>> task = code_task(2026)
    >>> task == code_task(2026), task.functions, len(task.cases)
    (True, ('dcg', 'ndcg'), 4)
    """
    seed = check_seed(seed)
    rng = random.Random(f"ndcg-lab-exam/{seed}/code")
    rng.choice(("dcg", "ndcg"))  # the draw that once chose one function: kept, so each seed keeps its cases
    cases = []
    for n in range(1, 5):
        length = rng.randint(3, 8)
        rels = tuple(rng.randint(0, 3) for _ in range(length))
        k = rng.randint(1, length + 2)
        cases.append((f"seeded case {n}", rels, k))
    prompt = ("(a) Write `def dcg(rels, k):` returning DCG@k with linear gain and the discount 1/log2(i+1), "
              "i the rank counted from 1. (b) Write `def ndcg(rels, k):` returning nDCG@k: it calls your `dcg` "
              "twice, on rels and on rels sorted largest first (the exam's ideal), and divides; 0 when the "
              "ideal DCG is 0. `rels` is a list of labels, best-ranked first; k may be larger than the list. "
              "`from math import log2` is allowed; nothing else is imported.")
    return CodeTask(seed, ("dcg", "ndcg"), "Code: write dcg(rels, k), then ndcg(rels, k) on top of it", prompt,
                    tuple(cases))


#: A model answer to the code task, the exam's short implementation with nDCG built on DCG
#: (printed in the sheet's answer key; a test runs it through the sandbox's checker).
MODEL_CODE = """from math import log2


def dcg(rels, k):
    return sum(rels[i] / log2(i + 2) for i in range(min(k, len(rels))))


def ndcg(rels, k):
    best = dcg(sorted(rels, reverse=True), k)
    return dcg(rels, k) / best if best > 0 else 0.0
"""


def code_notes(task: CodeTask, source: str) -> list[str]:
    r"""What the test cases cannot see in an answer to ``task``: an ``ndcg`` that does not
    call ``dcg`` (the exam asks for one built on the other). Read from the text only; the
    code is never compiled or run here.

    >>> code_notes(code_task(1), "def dcg(rels, k):\n    return 0\ndef ndcg(rels, k):\n    return dcg(rels, k)")
    []
    >>> code_notes(code_task(1), "def ndcg(rels, k):\n    return 1.0")[0][:35]
    '`ndcg` does not call `dcg`: the exa'
    """
    if "ndcg" not in task.functions or "dcg" not in task.functions:
        return []
    body = re.search(r"^def\s+ndcg\s*\(.*?(?=^\S|\Z)", source or "", flags=re.S | re.M)
    if body is None or re.search(r"(?<![\w.])dcg\s*\(", body.group(0).split("\n", 1)[-1]):
        return []
    return ["`ndcg` does not call `dcg`: the exam asks for nDCG built on your DCG function "
            "(`dcg(rels, k) / dcg(sorted(rels, reverse=True), k)`), so the discount is written once."]
