"""Deck 13 (is run B really better?) under ``ndcg-lab slides``: walked slide by slide, its numbers
are ndcg_core.trec.significance's, and a question slide checks an answer.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from marimo_page import assert_no_traceback, run_and_settle
from playwright.sync_api import Page, expect
from test_chapters_02_04 import advance, deck_state, open_deck, reveal_until, slide_text

from ndcg_core import trec
from ndcg_core.teaching.exercises import MISCONCEPTIONS
from ndcg_core.trec.significance import compare_runs, format_p
from ndcg_core.ui.widgets import answer_label

pytestmark = pytest.mark.browser

TOY = Path(__file__).resolve().parents[2] / "data" / "toy"


def flat(text: str) -> str:
    return " ".join(text.split())


def test_deck_13_walk_numbers_and_a_checked_answer(page: Page, lab_slides_server: str, artifacts_dir: Path) -> None:
    open_deck(page, lab_slides_server, "13_significance.py")
    qrels = trec.read_qrels(TOY / "qrels.txt")
    runs = {n: trec.read_run(TOY / f"run_{n}.txt") for n in ("classic", "tuned")}
    pair = compare_runs(qrels, runs, "ndcg_cut.10")[0].pairs[0]
    text = flat(reveal_until(page, "Mean difference B − A", max_steps=4))
    assert f"Mean difference B − A: {pair.mean_difference:+.4f}" in text
    assert f"p, randomization test: {format_p(pair.randomization_p_value)}" in text
    shots = 0
    page.screenshot(path=str(artifacts_dir / f"deck13_{shots:02d}.png"))
    for _ in range(60):
        if "question 2 of 4" in slide_text(page):
            break
        advance(page)
        shots += 1
        page.screenshot(path=str(artifacts_dir / f"deck13_{shots:02d}.png"))
    else:
        raise AssertionError("no slide with question 2 of 4")
    present = page.locator(".reveal .slides > section.present")
    box = present.get_by_label(answer_label("signif-t-by-hand"), exact=True)
    expect(box).to_have_count(1)
    run_and_settle(page, lambda: (box.fill("1.09"), box.press("Enter")), what="an unpaired t on the slide")
    expect(present.get_by_text(MISCONCEPTIONS["unpaired-test"].name, exact=False)).to_have_count(1)
    page.screenshot(path=str(artifacts_dir / "deck13_answer.png"))
    assert deck_state(page)[0] > 0
    assert_no_traceback(page)
