"""What an edit in the playground reruns (bench/ui_latency.py measures what that costs).

marimo reruns every cell that names a changed control, then every cell that uses a name those
cells define. Each cell run is a round of messages the page renders (queued, running, output,
idle...), so the playground keeps its edit path short: a labels edit reruns one cell in each
column (the numbers with the table, and the two plots the list moves), and the deck-only cells
at the bottom, which see the controls through ``deck_controls``, rerun on none of them.

The cells are read from the notebook's source (the ``@app.cell`` functions: their arguments
are the names they use, their returns the names they define), so the check does not depend
on marimo's internals.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PLAYGROUND = Path(__file__).resolve().parents[2] / "notebooks" / "01_playground.py"


def _cells() -> list[tuple[int, set[str], set[str], str]]:
    """(line, names used, names defined, source) of every cell, in file order."""
    tree = ast.parse(PLAYGROUND.read_text(encoding="utf-8"))
    cells = []
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        if not any("app.cell" in ast.unparse(d) for d in node.decorator_list):
            continue
        uses = {a.arg for a in node.args.args}
        defines: set[str] = set()
        for sub in ast.walk(node):
            if isinstance(sub, ast.Return) and sub.value is not None:
                value = sub.value
                items = value.elts if isinstance(value, ast.Tuple) else [value]
                defines |= {i.id for i in items if isinstance(i, ast.Name)}
        cells.append((node.lineno, uses, defines, ast.unparse(node)))
    return cells


def rerun_by(control: str) -> list[tuple[int, set[str], set[str], str]]:
    """The cells an edit of ``control`` reruns: those naming it, then their descendants."""
    cells = _cells()
    changed = {control}
    hit: list[tuple[int, set[str], set[str], str]] = []
    grew = True
    while grew:
        grew = False
        for cell in cells:
            if cell not in hit and cell[1] & changed and control not in cell[2]:
                hit.append(cell)
                changed |= cell[2]
                grew = True
    return sorted(hit)


def test_a_labels_edit_reruns_two_cells_the_numbers_with_the_table_and_the_two_plots() -> None:
    cells = rerun_by("labels_text")
    assert len(cells) == 2, [c[0] for c in cells]
    numbers, plots = cells
    assert "playground.evaluate(" in numbers[3] and "playground.table_html(" in numbers[3]
    assert "plots.gains_per_rank_html(" in plots[3] and "plots.ndcg_at_cutoffs_html(" in plots[3]
