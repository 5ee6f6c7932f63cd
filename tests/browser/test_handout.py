"""``ndcg-lab handout``: one PDF per deck, a page per slide, with the slide's speaker notes.

Runs the real command (it serves ``ndcg-lab slides`` itself and prints with the project's
Chromium) and reads the PDFs back with pypdf.
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
LAYOUTS = sorted((REPO / "notebooks" / "decks" / "layouts").glob("*.slides.json"))


def test_handout_writes_a_pdf_per_deck_with_every_slide_and_its_notes(tmp_path: Path, chromium: object) -> None:
    env = {key: value for key, value in os.environ.items() if key != "NDCG_LAB_PASSWORD"}
    done = subprocess.run(
        [sys.executable, "-m", "ndcg_core.ui.lab", "handout", "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=900, env=env,
    )
    assert done.returncode == 0, done.stderr[-3000:]
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
