"""A callback never reads a cell's private name after the cell has run.

marimo renames a cell's ``_name`` locals (``_cell_XXXX_name``) and deletes them once the cell has
run, so a ``lambda`` or ``def`` made in a cell that reads one of them later, when a button calls
it, fails with NameError in the server log and the page does nothing (chapter 10's "Show me what
TOOL would print" button did). Bind the value when the callback is made:
``lambda _count, printed=_printed: set_target(printed)``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.py")) + sorted((REPO / "notebooks" / "decks").glob("*.py"))


def _late_private_reads(source: str) -> list[str]:
    """``name (line)`` for each cell-private name a nested lambda/def reads but does not own."""
    found: list[str] = []
    for cell in ast.parse(source).body:
        if not isinstance(cell, ast.FunctionDef):
            continue
        for node in ast.walk(cell):
            if node is cell or not isinstance(node, ast.Lambda | ast.FunctionDef):
                continue
            args = node.args
            own = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
            own |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
            body = node.body if isinstance(node.body, list) else [node.body]
            for inner in (n for part in body for n in ast.walk(part)):
                if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store):
                    own.add(inner.id)
            for part in body:
                for inner in ast.walk(part):
                    if (isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Load)
                            and inner.id.startswith("_") and not inner.id.startswith("__") and inner.id not in own):
                        found.append(f"{inner.id} (line {inner.lineno})")
    return found


def test_the_check_finds_a_late_read():
    source = "def _(set_target):\n    _printed = 1\n    b = lambda _count: set_target(_printed)\n"
    assert _late_private_reads(source) == ["_printed (line 3)"]
    bound = "def _(set_target):\n    _printed = 1\n    b = lambda _count, printed=_printed: set_target(printed)\n"
    assert _late_private_reads(bound) == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(REPO / "notebooks")))
def test_no_callback_reads_a_deleted_private_name(path):
    assert _late_private_reads(path.read_text("utf-8")) == []
