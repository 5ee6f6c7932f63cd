"""Deck 01 (the lecture example) in the states the arrow keys never reach, at 1280x720.

tests/browser/test_slides_legibility.py walks every slide and fragment with the right arrow.
Here the lecturer's buttons are pressed too: each worked solution at every press, up to its
answer, and a checked answer under its question. Every state must pass the same legibility
rules (tests/browser/legibility.py): nothing outside the slide, no scrolling, no small text.
"""

from __future__ import annotations

from math import log2
from pathlib import Path

import pytest
from legibility import LEGIBILITY_JS, RULES
from marimo_page import DECK_STILL_JS, assert_no_traceback, open_notebook, run_and_settle
from playwright.sync_api import Page, expect
from test_chapters_02_04 import advance, slide_text

from ndcg_core.ui.plots import ranking

pytestmark = pytest.mark.browser

PRESENT = ".reveal .slides > section.present"


def problems(page: Page) -> list[str]:
    page.wait_for_function(DECK_STILL_JS, polling="raf")
    return list(page.evaluate(LEGIBILITY_JS, {**RULES, "plotTextPx": ranking.SMALLEST_TEXT_PT * ranking.PNG_DPI / 72}))


def goto_text(page: Page, needle: str, max_steps: int = 80) -> str:
    for _ in range(max_steps):
        text = " ".join(slide_text(page).split())
        if needle in text:
            return text
        advance(page)
    raise AssertionError(f"no slide shows {needle!r} within {max_steps} steps")


@pytest.fixture
def deck(page: Page, lab_slides_server: str) -> Page:
    page.set_viewport_size({"width": 1280, "height": 720})
    open_notebook(page, lab_slides_server, "01_playground.py")
    expect(page.locator(PRESENT)).to_have_count(1)
    return page


def test_the_worked_dcg_grows_one_rank_per_press_and_fits(deck: Page, artifacts_dir: Path) -> None:
    page = deck
    goto_text(page, "Worked solution: DCG@5 of the lecture example")
    button = page.locator(PRESENT).get_by_role("button", name="Next rank of the solution")
    # 1, 0, 2, 1, 0 under 1/log2(i+1): running DCG 1, 1, 1 + 2/log2(4) = 2, 2 + 1/log2(5) = 2.4307, 2.4307
    running = [1.0, 1.0, 2.0, 2 + 1 / log2(5), 2 + 1 / log2(5)]
    out = artifacts_dir / "deck01"
    out.mkdir(exist_ok=True)
    for press, total in enumerate(running, start=1):
        run_and_settle(page, button.click, what=f"press {press} of the solution button")
        rows = page.locator(f"{PRESENT} table tbody tr")
        expect(rows).to_have_count(press)
        assert f"{total:.4f}".rstrip("0").rstrip(".") in rows.nth(press - 1).inner_text()
        page.screenshot(path=str(out / f"dcg_solution_{press}.png"))
        assert problems(page) == [], f"after press {press}"
    assert "2.4307" in slide_text(page)
    assert_no_traceback(page)


def test_a_checked_answer_fits_under_its_question(deck: Page, artifacts_dir: Path) -> None:
    page = deck
    goto_text(page, "Hint 1")  # the first exercise with its hints shown
    box = page.locator(PRESENT).get_by_label("Your answer: DCG@5 of the lecture example", exact=True)
    # 1/ln 2 + 2/ln 4 + 1/ln 5 = 3.51: the natural logarithm, a mistake the verdict names
    run_and_settle(page, lambda: (box.fill("3.51"), box.press("Enter")), what="checking 3.51")
    expect(page.locator(PRESENT).get_by_text("natural logarithm", exact=False).first).to_be_visible()
    page.screenshot(path=str(artifacts_dir / "deck01_checked.png"))
    assert problems(page) == []


def test_reset_shows_the_hidden_numbers_again(deck: Page) -> None:
    """Reset to the lecture example also switches Hide the numbers off (it used to stay on)."""
    page = deck
    goto_text(page, "Reset to the lecture example")
    present = page.locator(PRESENT)
    run_and_settle(page, present.get_by_role("switch", name="Hide the numbers").click, what="hide the numbers")
    expect(present).not_to_contain_text("0.7763")
    run_and_settle(page, present.get_by_role("button", name="Reset to the lecture example").click, what="reset")
    expect(present).to_contain_text("0.7763")  # 2.4307 / 3.1309, shown again
    expect(present.get_by_role("switch", name="Hide the numbers")).not_to_be_checked()


def test_the_worked_ndcg_fits_at_every_press_up_to_its_answer(deck: Page, artifacts_dir: Path) -> None:
    """Issue 20: the last slide scrolled from the 6th press and its answer fell below the slide.
    8 presses: the list's 5 ranks, then the ideal's 3 (2, 1, 1); the answer nDCG@5 = 0.7763."""
    page = deck
    goto_text(page, "Worked solution: nDCG@5 of the lecture example")
    button = page.locator(PRESENT).get_by_role("button", name="Next step of the worked nDCG")
    out = artifacts_dir / "deck01"
    out.mkdir(exist_ok=True)
    found = []
    for press in range(1, 9):
        run_and_settle(page, button.click, what=f"press {press} of the worked nDCG")
        page.screenshot(path=str(out / f"ndcg_solution_{press}.png"))
        found += [f"press {press}: {p}" for p in problems(page)]
    expect(page.locator(PRESENT)).to_contain_text("0.7763")
    assert_no_traceback(page)
    assert not found, "\n".join(found)


def test_the_ideal_ranking_table_has_spaced_columns_and_fits(deck: Page, artifacts_dir: Path) -> None:
    """Issue 20: deck 01's ideal stepper drew its columns with no space between ("2.00001.0000")."""
    page = deck
    goto_text(page, "Press Next rank of the ideal")
    button = page.locator(PRESENT).get_by_role("button", name="Next rank of the ideal")
    for press in range(1, 4):  # the ideal 2, 1, 1: three ranks with gain
        run_and_settle(page, button.click, what=f"press {press} of the ideal button")
    rows = page.locator(f"{PRESENT} table.ndcg-ideal-steps tbody tr")
    expect(rows).to_have_count(3)
    padding = rows.first.locator("td").nth(2).evaluate("td => parseFloat(getComputedStyle(td).paddingLeft)")
    assert padding >= 4, padding
    assert "3.1309" in rows.nth(2).inner_text()  # IDCG@3 = 2 + 1/log2(3) + 1/log2(4)
    page.screenshot(path=str(artifacts_dir / "deck01" / "ideal_3_ranks.png"))
    assert problems(page) == []
