"""Deck 02 (notebooks/decks/02_gains.py, served by ``ndcg-lab slides``), run headless.

The deck draws its slides (the concept slides' numbers and plots, the exercises); the chapter
notebook notebooks/02_gains.py draws none of them. The layout gives every slide speaker notes
for the lecturer.
"""

from __future__ import annotations

import json
from math import log2
from pathlib import Path

from test_notebooks_02_04 import load_app, plain

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
LAYOUT = json.loads((NOTEBOOKS / "decks" / "layouts" / "02_gains.slides.json").read_text(encoding="utf-8"))["data"]["cells"]


def test_every_slide_has_speaker_notes_for_the_lecturer() -> None:
    slides = [c for c in LAYOUT if c["type"] == "slide"]
    assert len(slides) == 13
    for n, cell in enumerate(slides, 1):
        notes = cell.get("speakerNotes", "")
        assert len(notes.split()) >= 25, f"slide {n} has no real speaker notes: {notes!r}"
    assert all("speakerNotes" not in c for c in LAYOUT if c["type"] != "slide")


def test_the_page_draws_no_deck_slide() -> None:
    outputs, _ = load_app("02_gains.py").run()
    text = plain(outputs)
    assert text.count("02 · Gains: what a label is worth") == 1
    for deck_only in ("In the next twenty minutes", "Labels are codes; a gain function prices them", "Worked solution:",
                      "Fix what the labels mean before judging"):
        assert deck_only not in text


def test_the_deck_draws_its_slides() -> None:
    outputs, _ = load_app("decks/02_gains.py").run()
    text = plain(outputs)
    assert "Gains: what a relevance label is worth" in text and "In the next twenty minutes" in text
    # 2, 3, 0, 1, 2 with rank 1 from 2 to 3: linear DCG 2 + 3/log2(3) + 1/log2(5) + 2/log2(6) = 5.0972 -> 6.0972
    before = 2 + 3 / log2(3) + 1 / log2(5) + 2 / log2(6)
    assert f"{before:.4f}" == "5.0972"
    for shown in ("5.0972", "6.0972", "×1.5", "×2.33", "gap A − B", "higher nDCG", "What to remember",
                  "Check yourself", "0 of 5 ranks shown", "0 of 6 ranks shown", "What a gain of 7 claims"):
        assert shown in text, shown
    assert "Traceback" not in text
