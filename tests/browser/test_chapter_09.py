"""Chapter 09 (graded vs binary measures) in a real browser, as a page and as a slide deck.

The swap that leaves P@k and AP unchanged and moves nDCG, the relevance-threshold slider,
and the rank-10-to-100 comparison; every expected number is computed here by ndcg_core.
Every slide of the deck (content, no code box, no traceback, ending on an exercise's Check
button) is checked by the legibility walk of tests/browser/test_slides_legibility.py.
"""

from __future__ import annotations

import re

import pytest
from marimo_page import assert_no_traceback, run_and_settle, set_text
from playwright.sync_api import Page, expect
from test_chapters_02_04 import (
    BOTH_VIEWS,
    goto_slide_with,
    open_deck,
    reveal_until,
    served,
    slide_text,
)

import ndcg_core as nc
from ndcg_core.teaching import claims

pytestmark = pytest.mark.browser

NB09 = "09_graded_vs_binary.py"
START = [1, 0, 0, 3, 0]  # a lesser answer at rank 1, the best answer at rank 4
JUDGED = [3, 1]


def flat(text: str) -> str:
    return " ".join(text.split())


def slider(page: Page, view: str, name: str):
    scope = page.locator(".reveal .slides > section.present" if view == "slides" else "body")
    thumb = scope.get_by_role("slider", name=name, exact=True)
    expect(thumb).to_have_count(1)
    return thumb


def press_on(page: Page, thumb, key: str, what: str) -> None:
    run_and_settle(page, lambda: (thumb.focus(), page.keyboard.press(key)), what=what)


@BOTH_VIEWS
def test_09_the_swap_leaves_p_and_ap_and_moves_ndcg(page: Page, request: pytest.FixtureRequest, view: str) -> None:
    open_deck(page, served(request, view), NB09, view)
    goto_slide_with(page, "with rank")
    text = flat(reveal_until(page, "do not move"))
    after = claims.swapped(START, 1, 4)
    assert after == [3, 0, 0, 1, 0]
    p, ap = nc.precision(START, 5), nc.average_precision(START, 5, judgments=JUDGED)
    assert (p, ap) == (nc.precision(after, 5), nc.average_precision(after, 5, judgments=JUDGED))
    assert text.count(f"{p:.4f}") >= 2 and text.count(f"{ap:.4f}") >= 2
    before_ndcg, after_ndcg = nc.ndcg(START, 5, judgments=JUDGED), nc.ndcg(after, 5, judgments=JUDGED)
    assert before_ndcg < after_ndcg
    assert f"nDCG@5 does: {before_ndcg:.4f} → {after_ndcg:.4f} with linear gain" in text
    assert "P@5 and AP@5 do not move" in text
    # swap ranks 1 and 5 instead (a relevant and a non-relevant document): now P@5 stays, AP moves
    press_on(page, slider(page, view, "with rank"), "ArrowUp", "one step up on 'with rank'")
    text = flat(reveal_until(page, "This swap moves the binary measures too"))
    moved = claims.swapped(START, 1, 5)
    assert f"{nc.average_precision(moved, 5, judgments=JUDGED):.4f}" in text
    assert_no_traceback(page)


def test_09_the_threshold_slider_binarises(page: Page, lab_server: str) -> None:
    open_deck(page, lab_server, NB09, "page")
    goto_slide_with(page, "Relevance threshold")
    press_on(page, slider(page, "page", "Relevance threshold"), "ArrowUp", "threshold 1 -> 2")
    text = flat(slide_text(page))
    assert "relevant (label ≥ 2)" in text
    at2 = nc.precision(START, 5, threshold=2)
    assert at2 == 1 / 5 and f"{at2:.4f}" in text
    assert f"{nc.average_precision(START, 5, judgments=JUDGED, threshold=2):.4f}" in text
    assert f"{nc.ndcg(START, 5, judgments=JUDGED):.4f}" in text  # nDCG never binarises
    assert_no_traceback(page)


def test_09_rank_10_to_100_what_ap_and_dcg_lose(page: Page, lab_server: str) -> None:
    open_deck(page, lab_server, NB09, "page")
    goto_slide_with(page, "Move the relevant document from rank 10 to rank")
    text = flat(slide_text(page))
    table = claims.rank_move(10, 100, others=())
    assert f"AP loses {table.loc['AP', 'lost']:.0%} of its value and DCG with 1/log2(i+1) " \
           f"{table.loc['DCG, 1/log2(i+1)', 'lost']:.0%}: AP is the one that cares more" in text
    assert f"{1 / 100:.4f}" in text and f"{nc.dcg([0] * 99 + [1]):.4f}" in text
    press_on(page, slider(page, "page", "Move the relevant document from rank 10 to rank"), "ArrowDown", "to rank 99")
    text = flat(slide_text(page))
    table = claims.rank_move(10, 99, others=())
    assert f"From rank 10 to rank 99, AP loses {table.loc['AP', 'lost']:.0%}" in text
    switch = page.get_by_role("switch", name="Another relevant document stays at rank 1").or_(
        page.get_by_label("Another relevant document stays at rank 1", exact=True)).first
    run_and_settle(page, switch.click, what="the switch 'Another relevant document stays at rank 1'")
    with_top = claims.rank_move(10, 99, others=(1,))
    expect(page.get_by_text(re.compile(rf"AP loses {with_top.loc['AP', 'lost']:.0%} of its value"))).to_have_count(1)
    assert_no_traceback(page)


def test_09_bad_input_shows_the_message(page: Page, lab_server: str) -> None:
    open_deck(page, lab_server, NB09, "page")
    set_text(page, "Relevance labels", "1, -1")
    text = flat(slide_text(page))
    assert "label 2 is '-1', a negative label" in text and "pooled but unjudged" in text
    assert_no_traceback(page)
