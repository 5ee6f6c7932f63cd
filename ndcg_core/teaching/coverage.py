r"""The claim coverage map: where each claim of the sources is explained, demonstrated, exercised.

``data/claims.md`` lists the teachable claims of the two source documents (ids C01-C58);
``data/coverage.toml`` gives, for each id, the cells that **explain** it (``"NN_notebook:
heading or phrase"``), the widgets that **demonstrate** it live (``"NN_notebook: widget
label"``) and what **exercises** it (bank exercise ids, ``"exam: <kind>"``). An empty column
carries a written reason. :func:`problems` checks the map against the notebooks, the bank
and the exam; :func:`coverage_table` is what the lecturers' page shows.

>>> table = coverage_table()
>>> table.index[0], len(table) >= 56
('C01', True)
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pandas as pd

from .exercises import all_exercises
from .paths import DATA_DIR, notebooks_dir

__all__ = ["COVERAGE_PATH", "CLAIMS_PATH", "COLUMNS", "Claim", "read_claims", "read_coverage", "coverage_table",
           "problems", "notebook_cells"]

COVERAGE_PATH = DATA_DIR / "coverage.toml"
CLAIMS_PATH = DATA_DIR / "claims.md"
#: The three columns of the map.
COLUMNS = ("explained", "demonstrated", "exercised")
#: A widget made by an ndcg_core.ui.widgets helper: its label -> the call that makes it.
_HELPER_WIDGETS = {
    "Relevance labels": "widgets.labels_input(",
    "Judged documents not in the list": "widgets.missed_input(",
    "Gain": "widgets.gain_dropdown(",
    "Discount": "widgets.discount_dropdown(",
    "Your code": "widgets.code_box(",
}


@dataclass(frozen=True)
class Claim:
    """One claim of ``data/claims.md``: its id, its text and its source (E essay, C concept card)."""

    id: str
    text: str
    source: str


def read_claims(path: Path | None = None) -> dict[str, Claim]:
    """The claims table of ``data/claims.md`` (rows ``| C01 | text | src |``), id -> claim."""
    text = (CLAIMS_PATH if path is None else Path(path)).read_text(encoding="utf-8")
    rows = re.findall(r"^\|\s*(C\d{2})\s*\|\s*(.+?)\s*\|\s*([EC, ]+?)\s*\|\s*$", text, flags=re.M)
    return {cid: Claim(cid, claim, src) for cid, claim, src in rows}


@lru_cache(maxsize=1)
def _coverage() -> tuple[tuple[str, dict], ...]:
    with COVERAGE_PATH.open("rb") as handle:
        return tuple(tomllib.load(handle).items())


def read_coverage(path: Path | None = None) -> dict[str, dict]:
    """The coverage map, claim id -> its table (the three columns and any reasons)."""
    if path is None:
        return dict(_coverage())
    with Path(path).open("rb") as handle:
        return tomllib.load(handle)


def notebook_cells(name: str, folder: Path | None = None) -> list[str]:
    """The source of each ``@app.cell`` of notebook ``name`` (``"02_gains"``)."""
    path = (notebooks_dir() if folder is None else folder) / f"{name}.py"
    return re.split(r"^@app\.cell", path.read_text(encoding="utf-8"), flags=re.M)[1:]


def _place(entry: str) -> tuple[str, str]:
    notebook, _, what = entry.partition(":")
    return notebook.strip(), what.strip()


def problems(coverage: Mapping[str, Mapping] | None = None, claims: Mapping[str, Claim] | None = None,
             folder: Path | None = None) -> list[str]:
    """Everything wrong with the map, in words; an empty list when it is complete and every place exists."""
    from .exam import EXAM_KINDS

    coverage = read_coverage() if coverage is None else coverage
    claims = read_claims() if claims is None else claims
    bank = {ex.id for ex in all_exercises()}
    out = [f"{cid}: missing from the coverage map" for cid in claims if cid not in coverage]
    out += [f"{cid}: not a claim of claims.md" for cid in coverage if cid not in claims]
    cells: dict[str, list[str]] = {}
    for cid, row in coverage.items():
        for column in COLUMNS:
            entries = row.get(column)
            if not isinstance(entries, list):
                out.append(f"{cid}: {column} must be a list")
                continue
            if not entries and not str(row.get(f"{column}_reason", "")).strip():
                out.append(f"{cid}: {column} is empty and gives no {column}_reason")
            for entry in entries:
                if column == "exercised":
                    if entry.startswith("exam:"):
                        if entry[5:].strip() not in EXAM_KINDS:
                            out.append(f"{cid}: {entry!r} is not an exam kind ({', '.join(EXAM_KINDS)})")
                    elif entry not in bank:
                        out.append(f"{cid}: exercise {entry!r} is not in the bank")
                    continue
                notebook, what = _place(entry)
                if notebook not in cells:
                    try:
                        cells[notebook] = notebook_cells(notebook, folder)
                    except FileNotFoundError:
                        out.append(f"{cid}: notebook {notebook!r} does not exist")
                        cells[notebook] = []
                        continue
                source = cells[notebook]
                if column == "explained":
                    if not any(what in cell and "mo.md(" in cell for cell in source):
                        out.append(f"{cid}: no prose cell of {notebook} contains {what!r}")
                else:
                    made = f'label="{what}"' in "".join(source) or (
                        what in _HELPER_WIDGETS and _HELPER_WIDGETS[what] in "".join(source))
                    if not made:
                        out.append(f"{cid}: {notebook} has no widget labelled {what!r}")
    return out


def coverage_table(coverage: Mapping[str, Mapping] | None = None,
                   claims: Mapping[str, Claim] | None = None) -> pd.DataFrame:
    """One row per claim: its text and the three columns as text (a reason in brackets when empty)."""
    coverage = read_coverage() if coverage is None else coverage
    claims = read_claims() if claims is None else claims
    rows = {}
    for cid, claim in claims.items():
        row = coverage.get(cid, {})
        cells = {"claim": claim.text}
        for column in COLUMNS:
            entries = row.get(column, [])
            cells[column] = "; ".join(entries) if entries else f"(none: {row.get(f'{column}_reason', 'no reason given')})"
        rows[cid] = cells
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "id"
    return frame
