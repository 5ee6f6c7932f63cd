"""The chapter notebooks hold the student's page only; the lecture decks are files of their own.

A deck-only cell in a chapter (one that draws only under ``ndcg-lab slides``, the old
``mo.stop(not lecture.in_deck())`` guard, or one that composes slides with ndcg_core.ui.deck or
ndcg_core.ui.decks) would run in every student's session for nothing, and make a reader of the
page wade through slides. Each deck lives in notebooks/decks/ beside its layout.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
CHAPTERS = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.py"))
DECKS = sorted((NOTEBOOKS / "decks").glob("[0-9][0-9]_*.py"))

#: What only a deck says: the environment switch of old, the deck vocabulary, the deck modules,
#: a slides layout.
DECK_ONLY = re.compile(
    r"in_deck\(|NDCG_LAB_DECK|from ndcg_core\.ui\.decks\b|ndcg_core\.ui\.decks\.|from ndcg_core\.ui import[^\n]*\bdeck\b"
    r"|\bdeck\.(title|concept|numbers|question|hints|answer|solution|text|step_button)\(|layout_file|css_file"
)


def test_there_are_chapters_and_decks() -> None:
    assert len(CHAPTERS) >= 10
    assert [p.name for p in DECKS] == ["01_playground.py", "02_gains.py", "03_discounts.py", "04_ideal_list.py",
                                       "09_graded_vs_binary.py", "12_which_measure.py"]


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.name for p in CHAPTERS])
def test_no_chapter_notebook_has_a_deck_only_cell(path: Path) -> None:
    cells = re.split(r"^@app\.cell", path.read_text(encoding="utf-8"), flags=re.M)
    found = [(n, m.group(0)) for n, cell in enumerate(cells) for m in [DECK_ONLY.search(cell)] if m]
    assert found == [], f"{path.name}: deck-only code in the page (cell, match): {found}"


def test_the_pattern_catches_a_deck_only_cell() -> None:
    for cell in ("    mo.stop(not lecture.in_deck())\n", "    from ndcg_core.ui.decks import gains as gains_deck\n",
                 '    deck.question(chapter_answers, "gains-exp-dcg")\n', "    from ndcg_core.ui import deck, widgets\n",
                 'app = marimo.App(layout_file="layouts/x.slides.json")\n'):
        assert DECK_ONLY.search(cell), cell
    for cell in ("    widgets.exercise_card(chapter_answers, \"gains-exp-dcg\")\n", "    lecture.ideal_steps_html(r, 2)\n"):
        assert not DECK_ONLY.search(cell), cell


@pytest.mark.parametrize("path", DECKS, ids=[p.name for p in DECKS])
def test_each_deck_has_its_chapter_and_its_layout(path: Path) -> None:
    assert (NOTEBOOKS / path.name).is_file()
    assert (NOTEBOOKS / "decks" / "layouts" / path.name.replace(".py", ".slides.json")).is_file()
