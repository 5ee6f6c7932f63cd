"""Deck 03 (discounts) as a lecturer drives it, at 1280x720: the controls on its concept slides
move the numbers beside them, and a worked solution grows one rank per press and still fits.

The expected numbers are derived by hand here (the derivation beside each), then checked
against ndcg_core; the legibility rules (tests/browser/legibility.py) are checked on the states
the plain walk of test_slides_legibility.py does not reach (a control changed, every rank of
a solution shown).
"""

from __future__ import annotations

from math import e, log2
from pathlib import Path

import pytest
from legibility import LEGIBILITY_JS, RULES
from marimo_page import (
    DECK_STILL_JS,
    assert_no_traceback,
    open_notebook,
    run_and_settle,
    select_option,
)
from playwright.sync_api import Page, expect

import ndcg_core as nc
from ndcg_core.ui.plots import ranking

pytestmark = pytest.mark.browser

LECTURE = [1, 0, 2, 1, 0]
PRESENT = ".reveal .slides > section.present"
_STATE_JS = r"""
() => {
  const s = [...document.querySelectorAll('.reveal .slides > section')];
  const i = s.findIndex((x) => x.classList.contains('present'));
  return [i, document.querySelectorAll('.reveal .fragment.visible').length];
}
"""
_BLUR_JS = "() => { let a = document.activeElement; while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement; if (a && a.blur) a.blur(); }"


def _text(page: Page) -> str:
    return " ".join(page.locator(PRESENT).inner_text().split())


def _advance_until(page: Page, needle: str, max_steps: int = 40) -> str:
    """Press the right arrow (slides and fragments) until ``needle`` is on the present slide."""
    for _ in range(max_steps):
        text = _text(page)
        if needle in text:
            return text
        before = page.evaluate(_STATE_JS)
        page.evaluate(_BLUR_JS)
        page.keyboard.press("ArrowRight")
        page.wait_for_function(f"(b) => JSON.stringify(({_STATE_JS})()) !== JSON.stringify(b)", arg=before, polling="raf")
        page.wait_for_function(DECK_STILL_JS, polling="raf")
    raise AssertionError(f"{needle!r} did not appear within {max_steps} steps; slide text:\n{_text(page)}")


def _legible(page: Page, shot: Path) -> list[str]:
    page.wait_for_function(DECK_STILL_JS, polling="raf")
    shot.parent.mkdir(exist_ok=True)
    page.screenshot(path=str(shot))
    return page.evaluate(LEGIBILITY_JS, {**RULES, "plotTextPx": ranking.SMALLEST_TEXT_PT * ranking.PNG_DPI / 72})


@pytest.fixture
def deck(page: Page, lab_slides_server: str) -> Page:
    page.set_viewport_size({"width": 1280, "height": 720})
    open_notebook(page, lab_slides_server, "03_discounts.py")
    return page


def test_the_log_base_moves_dcg_not_ndcg_and_jk_moves_both(deck: Page, artifacts_dir: Path) -> None:
    page = deck
    text = _advance_until(page, "nDCG stays at")
    # base 10 to start: DCG@5 = 1/log10(2) + 2/log10(4) + 1/log10(5) = log2(10) * (1 + 2/2 + 1/log2(5))
    dcg2 = 1 + 2 / log2(4) + 1 / log2(5)  # 2.4307
    idcg2 = 2 + 1 / log2(3) + 1 / log2(4)  # 3.1309
    assert f"{log2(10) * dcg2:.4f}" == f"{nc.dcg(LECTURE, 5, discount='log', base=10):.4f}" == "8.0745"
    assert "8.0745" in text and f"nDCG stays at {dcg2 / idcg2:.4f}" in text and "base 2: 2.4307" in text
    select_option(page, "Log base b", "e ≈ 2.718")
    text = _text(page)
    assert f"{log2(e) * dcg2:.4f}" in text and f"nDCG stays at {dcg2 / idcg2:.4f}" in text
    # Järvelin–Kekäläinen with b = 3: ranks 1 and 2 keep 1, rank 3 gets 1/log3(3) = 1, rank 4 1/log3(4)
    # DCG@5 = 1 + 0 + 2 + 1/log3(4); IDCG@5 = 2 + 1 + 1 (the ideal 2, 1, 1 sits at ranks 1-3)
    select_option(page, "Log base b", "3")
    select_option(page, "With", "Järvelin–Kekäläinen")
    text = _text(page)
    expected = (3 + log2(3) / log2(4)) / 4
    assert f"{expected:.4f}" == f"{nc.ndcg(LECTURE, 5, discount='jarvelin_kekalainen', base=3):.4f}"
    # with b = 2: DCG@5 = 1 + 0 + 2/log2(3) + 1/log2(4), IDCG@5 = 2 + 1/log2(2) + 1/log2(3)
    at_2 = (1 + 2 / log2(3) + 1 / 2) / (2 + 1 + 1 / log2(3))  # 0.7606
    assert f"nDCG moves: {at_2:.4f} → {expected:.4f}" in text
    assert _legible(page, artifacts_dir / "deck03" / "base_jk3.png") == []
    assert_no_traceback(page)


def test_the_sinking_document_slide_answers_its_switch(deck: Page, artifacts_dir: Path) -> None:
    page = deck
    text = _advance_until(page, "Share of its value lost")
    # alone at rank 10, then 100: AP 1/10 -> 1/100 (90 % lost), 1/i the same, log2: 1 - log2(11)/log2(101)
    assert "AP 90 %" in text and f"DCG, log₂ {1 - log2(11) / log2(101):.0%}".replace("%", " %") in text
    switch = page.locator(PRESENT).get_by_role("switch", name="Another relevant one at rank 1")
    expect(switch).to_have_count(1)
    run_and_settle(page, switch.click, what="the switch")
    text = _text(page)
    # with a relevant document at rank 1 too (R = 2): AP (1 + 2/10)/2 = 0.6 -> (1 + 2/100)/2 = 0.51, 15 % lost
    assert "AP 15 %" in text and "0.6000" in text and "0.5100" in text
    assert _legible(page, artifacts_dir / "deck03" / "sink_with_rank1.png") == []


def test_the_worked_solution_grows_one_rank_per_press_and_fits(deck: Page, artifacts_dir: Path) -> None:
    page = deck
    _advance_until(page, "Worked solution: DCG@5 with the shifted discount")
    button = page.locator(PRESENT).get_by_role("button", name="Next rank of the solution")
    rows = page.locator(f"{PRESENT} table tbody tr")
    # shifted discount, rank by rank: 1/log2(3), 0, 2/log2(5), 1/log2(6), 0
    running = [1 / log2(3), 1 / log2(3), 1 / log2(3) + 2 / log2(5), 1 / log2(3) + 2 / log2(5) + 1 / log2(6)]
    running.append(running[-1])
    for shown, total in enumerate(running, start=1):
        run_and_settle(page, button.click, what=f"press {shown} of the solution button")
        expect(rows).to_have_count(shown)
        assert f"{total:.4f}" in rows.nth(shown - 1).inner_text()
    text = _text(page)
    assert f"{nc.dcg(LECTURE, 5, discount='log2_shifted'):.4f}" == f"{running[-1]:.4f}" == "1.8791"
    assert "DCG@5 = 1.8791 ≈ 1.88" in text
    assert _legible(page, artifacts_dir / "deck03" / "solution_all_ranks.png") == []


def test_a_checked_answer_and_the_hints_still_fit_the_question_slide(deck: Page, artifacts_dir: Path) -> None:
    page = deck
    _advance_until(page, "Hint 2.")  # the first exercise's question with its hints revealed
    assert "DCG@5 with the shifted discount" in _text(page)
    box = page.locator(PRESENT).get_by_label("Your answer: DCG@5 with the shifted discount", exact=True)
    # the standard discount's DCG@5 (2.43) instead of the shifted one's: a slip the verdict names
    run_and_settle(page, lambda: (box.fill("2.43"), box.press("Enter")), what="checking 2.43")
    expect(page.locator(PRESENT).get_by_text("Not quite", exact=False)).to_have_count(1)
    assert _legible(page, artifacts_dir / "deck03" / "question_checked.png") == []
