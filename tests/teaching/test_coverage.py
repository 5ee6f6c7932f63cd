"""data/coverage.toml: every claim of data/claims.md is explained, demonstrated and exercised.

Each named place must exist: a prose cell of the notebook holding the phrase, a widget with
that label, a bank exercise id or an exam kind; an empty column needs a written reason.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ndcg_core.teaching import coverage
from ndcg_core.teaching import exercises as ex

REPO = Path(__file__).resolve().parents[2]
CLAIMS = coverage.read_claims()
MAP = coverage.read_coverage()


def test_the_claims_are_c01_to_c58_in_order():
    assert list(CLAIMS) == [f"C{i:02d}" for i in range(1, 59)]
    assert CLAIMS["C37"].text.startswith("Lecture example: labels 1, 0, 2, 1, 0")


def test_every_claim_is_in_the_map_and_every_place_exists():
    assert coverage.problems() == []


@pytest.mark.parametrize("claim", list(CLAIMS))
def test_no_column_is_empty_without_a_reason(claim):
    row = MAP[claim]
    for column in coverage.COLUMNS:
        assert row[column] or row.get(f"{column}_reason", "").strip(), f"{claim}: {column}"


def test_every_claim_is_exercised_by_a_bank_exercise():
    """At least one exercise per claim (the issue's bar); exam kinds come on top."""
    bank = {e.id for e in ex.all_exercises()}
    for claim, row in MAP.items():
        assert any(entry in bank for entry in row["exercised"]), claim


def test_the_checker_finds_what_is_wrong(tmp_path):
    broken = {cid: dict(row) for cid, row in MAP.items()}
    del broken["C01"]
    broken["C02"] = {**broken["C02"], "exercised": ["no-such-exercise", "exam: essay"]}
    broken["C03"] = {**broken["C03"], "demonstrated": ["02_gains: No such slider"]}
    broken["C04"] = {**broken["C04"], "explained": ["02_gains: a sentence that is nowhere"]}
    broken["C05"] = {**broken["C05"], "demonstrated": []}
    broken["C06"] = {**broken["C06"], "explained": ["99_nothing: x"]}
    found = coverage.problems(broken)
    assert found == [
        "C01: missing from the coverage map",
        "C02: exercise 'no-such-exercise' is not in the bank",
        "C02: 'exam: essay' is not an exam kind (dcg, idcg, ndcg, term, ideal, compare, task, concept)",
        "C03: 02_gains has no widget labelled 'No such slider'",
        "C04: no prose cell of 02_gains contains 'a sentence that is nowhere'",
        "C05: demonstrated is empty and gives no demonstrated_reason",
        "C06: notebook '99_nothing' does not exist",
    ]


def test_the_shipped_claims_file_is_the_shared_one_when_present():
    found = [folder / "shared" / "CLAIMS.md" for folder in REPO.parents if (folder / "shared" / "CLAIMS.md").exists()]
    shared = found[0] if found else None
    if shared is None:
        pytest.skip("the shared CLAIMS.md is not next to this checkout")
    assert (REPO / "data" / "claims.md").read_text(encoding="utf-8") == shared.read_text(encoding="utf-8")


def test_the_table_shows_every_claim_with_its_three_columns():
    table = coverage.coverage_table()
    assert list(table.index) == list(CLAIMS)
    assert list(table.columns) == ["claim", *coverage.COLUMNS]
    assert table.loc["C09", "demonstrated"].startswith("(none: ")
