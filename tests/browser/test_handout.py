"""``ndcg-lab handout``: one PDF per deck, a page per slide, with the slide's speaker notes and
its text searchable.

Runs the real command (it serves ``ndcg-lab slides`` itself and prints with the project's
Chromium) and reads the PDFs back with pypdf. The suite prints two decks (``--deck``): 01, whose
ideal stepper and worked solutions print every rank, and 13, whose slides repeat notes in their
fragments; the legibility walk (test_slides_legibility.py) pictures every slide of every deck,
and ``ndcg-lab handout`` without ``--deck`` prints them all the same way.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pypdf = pytest.importorskip("pypdf", reason="reading the handouts back needs pypdf (pip install pypdf)")

REPO = Path(__file__).resolve().parents[2]
DECKS = "01,13"
LAYOUTS = [REPO / "notebooks" / "decks" / "layouts" / name
           for name in ("01_playground.slides.json", "13_significance.slides.json")]


def test_handout_writes_a_pdf_per_deck_with_every_slide_and_its_notes(tmp_path: Path, chromium: object) -> None:
    env = {key: value for key, value in os.environ.items() if key != "NDCG_LAB_PASSWORD"}
    done = subprocess.run(
        [sys.executable, "-m", "ndcg_core.ui.lab", "handout", "--out", str(tmp_path), "--deck", DECKS],
        capture_output=True, text=True, timeout=900, env=env,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert sorted(p.name for p in tmp_path.glob("*.pdf")) == ["01_playground.pdf", "13_significance.pdf"]
    for layout in LAYOUTS:
        cells = json.loads(layout.read_text(encoding="utf-8"))["data"]["cells"]
        slides = sum(cell["type"] == "slide" for cell in cells)
        pdf = tmp_path / layout.name.replace(".slides.json", ".pdf")
        assert f"wrote {pdf}" in done.stdout
        reader = pypdf.PdfReader(pdf)
        assert len(reader.pages) == slides, (pdf.name, len(reader.pages), slides)
        texts = [page.extract_text() for page in reader.pages]
        assert all(f"Slide {n} of {slides}" in text for n, text in enumerate(texts, start=1)), pdf.name
        notes = [cell["speakerNotes"] for cell in cells if cell.get("speakerNotes")]
        printed = " ".join(" ".join(texts).split())
        for note in notes:  # every note is printed once (the PDF breaks lines: compare the words)
            opening = " ".join(note.split()[:8])
            assert printed.count(opening) == notes.count(note), (pdf.name, note[:60], printed.count(opening))
    first = " ".join(pypdf.PdfReader(tmp_path / "01_playground.pdf").pages[0].extract_text().split())
    assert "Twenty minutes on one question" in first
    # the slides' own text can be searched: the worked example's numbers, the last slide's answer
    whole = " ".join(" ".join(page.extract_text() for page in pypdf.PdfReader(tmp_path / "01_playground.pdf").pages).split())
    assert "2.4307" in whole and "0.7763" in whole
    # and marimo's badge is not printed (the Back link and the arrows are hidden from the picture)
    assert "Scroll for more" not in whole


def test_handout_names_the_decks_when_asked_for_one_that_does_not_exist(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "ndcg_core.ui.lab", "handout", "--out", str(tmp_path), "--deck", "77"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "no slide deck is called '77'; the decks are 01, 02, 03, 04" in done.stderr
    assert not list(tmp_path.glob("*.pdf"))
