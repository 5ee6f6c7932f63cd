"""Deck 04 (the ideal list) driven as a lecturer drives it, at 1280x720 (``ndcg-lab slides``).

test_slides_legibility.py walks every slide as it opens; here the lecturer's presses change
them: the ideal ranking built one rank per press, the trap's ideal switched to the run's own
labels, the worked solutions stepped to their last rank. Every state is checked against
ndcg_core's values and against the legibility rules (it must still fit the slide), and a
screenshot of it goes to tests/artifacts/legibility/04_pressed_*.png.

Hand-derived values (linear gain, 1/log2(i+1)):
- lecture example 1, 0, 2, 1, 0, judgments 2, 1, 1: IDCG@1 = 2, IDCG@2 = 2 + 1/log2(3) = 2.6309,
  IDCG@3 = 2.6309 + 1/log2(4) = 3.1309;
- with the missed 2, 2 the ideal is 2, 2, 2, 1, 1: IDCG@5 = 2 + 2/log2(3) + 2/log2(4) + 1/log2(5) + 1/log2(6);
- the trap: run 3, 0, 0, 0, 0 with the missed 3, 2, 2, 1: IDCG@5 = 3 + 3/log2(3) + 2/log2(4) + 2/log2(5) + 1/log2(6)
  = 7.1410 and nDCG@5 = 3 / 7.1410 = 0.4201; with the ideal from the run itself IDCG@5 = 3, nDCG@5 = 1;
- ideal-order: 0, 3, 1, 0, 2 with the missed 2, 1: ideal 3, 2, 2, 1, 1;
- ideal-trap-ndcg: 3 / (3 + 3/log2(3) + 2/log2(4)) = 3 / 5.8928 = 0.5091.
"""

from __future__ import annotations

import re
from math import log2
from pathlib import Path

import pytest
from legibility import assert_legible
from marimo_page import DECK_STILL_JS, assert_no_traceback, open_notebook, run_and_settle, set_text, show_slide_with
from playwright.sync_api import Locator, Page, expect

import ndcg_core as nc

pytestmark = pytest.mark.browser

DECK = "04_ideal_list.py"
PRESENT = ".reveal .slides > section.present"


def open_deck(page: Page, base_url: str) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    open_notebook(page, base_url, DECK)
    page.wait_for_function(DECK_STILL_JS, polling="raf")


def present(page: Page) -> Locator:
    return page.locator(PRESENT)


def press(page: Page, name: str, times: int = 1) -> None:
    button = present(page).get_by_role("button", name=name, exact=True)
    for n in range(times):
        run_and_settle(page, button.click, what=f"press {n + 1} of {name!r}")


def reveal(page: Page, css: str) -> Locator:
    """Press the right arrow until an element ``css`` is shown on the present slide (a fragment too)."""
    target = present(page).locator(css).first
    show_slide_with(page, target)
    page.wait_for_function(DECK_STILL_JS, polling="raf")
    return target


_STEP_JS = ("() => [[...document.querySelectorAll('.reveal .slides > section')].findIndex((s) => s.classList.contains('present')), "
            "document.querySelectorAll('.reveal .fragment.visible').length].join(':')")


def goto(page: Page, text: str, max_steps: int = 40) -> None:
    """Press the right arrow until the slide shown holds ``text`` (from the slide's first step)."""
    for _ in range(max_steps):
        if text in present(page).inner_text():
            page.wait_for_function(DECK_STILL_JS, polling="raf")
            return
        before = page.evaluate(_STEP_JS)
        page.evaluate("() => { let a = document.activeElement; while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement; if (a && a.blur) a.blur(); }")
        page.keyboard.press("ArrowRight")
        page.wait_for_function(f"(b) => ({_STEP_JS})() !== b", arg=before, polling="raf")
        page.wait_for_function(DECK_STILL_JS, polling="raf")
    raise AssertionError(f"no slide within {max_steps} presses shows {text!r}")


def legible(page: Page, out: Path, name: str) -> None:
    assert_legible(page, out / f"04_pressed_{name}.png")


@pytest.fixture
def out(artifacts_dir: Path) -> Path:
    folder = artifacts_dir / "legibility"
    folder.mkdir(exist_ok=True)
    return folder


def test_the_ideal_one_rank_per_press_and_the_trap_switched(page: Page, lab_slides_server: str, out: Path) -> None:
    open_deck(page, lab_slides_server)
    reveal(page, ".ndcg-ideal-steps-box")
    steps = present(page).locator(".ndcg-ideal-steps-box")
    for shown, idcg in [(1, 2 / log2(2)), (2, 2 + 1 / log2(3)), (3, 2 + 1 / log2(3) + 1 / log2(4))]:
        press(page, "Next rank of the ideal")
        expect(steps.locator("tbody tr")).to_have_count(shown)
        assert f"{idcg:.4f}" in steps.inner_text()
    assert f"{nc.idcg([2, 1, 1], 5):.4f}" == f"{2 + 1 / log2(3) + 1 / log2(4):.4f}"
    assert f"{nc.idcg([2, 2, 2, 1, 1], 5):.4f}" == f"{2 + 2 / log2(3) + 2 / log2(4) + 1 / log2(5) + 1 / log2(6):.4f}"
    legible(page, out, "ideal_3_ranks")
    press(page, "Next rank of the ideal")  # the next press starts again
    expect(steps.locator("tbody tr")).to_have_count(0)
    # the most the slide holds at k = 5: five ideal ranks (2, 2, 2, 1, 1 with the missed 2, 2)
    # (the presses keep counting across an edit: 4 so far, so one more shows 5 % 6 = 5 ranks)
    set_text(page, "Judged documents not in the list", "2, 2")
    press(page, "Next rank of the ideal")
    expect(steps.locator("tbody tr")).to_have_count(5)
    assert f"IDCG@5 = {nc.idcg([1, 0, 2, 1, 0, 2, 2], 5):.4f}" in steps.inner_text()
    legible(page, out, "ideal_5_ranks")

    reveal(page, ".ndcg-side-result")
    side = present(page).locator(".ndcg-deck-side")
    trap = 3 / (3 + 3 / log2(3) + 2 / log2(4) + 2 / log2(5) + 1 / log2(6))
    assert f"{nc.ndcg([3], 5, judgments=[3, 3, 2, 2, 1]):.4f}" == f"{trap:.4f}"
    assert f"nDCG@5\n{trap:.4f}" in side.inner_text()
    run_and_settle(page, present(page).get_by_label("the run's own labels", exact=True).check,
                   what="the ideal from the run's own labels")
    expect(side).to_contain_text("1.0000")
    assert "IDCG@5\n3.0000" in side.inner_text() and "only what the run found" in side.inner_text()
    legible(page, out, "trap_from_the_run")
    assert_no_traceback(page)


def test_the_worked_solutions_one_rank_per_press(page: Page, lab_slides_server: str, out: Path) -> None:
    open_deck(page, lab_slides_server)
    button = page.get_by_role("button", name="Next rank of the ideal ranking", exact=True)
    show_slide_with(page, button)
    for _ in range(5):
        press(page, "Next rank of the ideal ranking")
    slide = present(page)
    expect(slide.locator("tbody tr")).to_have_count(5)
    expect(slide).to_contain_text("Answer: 3, 2, 2, 1, 1 (then zeros)")
    legible(page, out, "order_solution_done")

    show_slide_with(page, page.get_by_role("button", name="Next rank of the solution", exact=True))
    for _ in range(6):
        press(page, "Next rank of the solution")
    answer = 3 / (3 + 3 / log2(3) + 2 / log2(4))
    assert f"{nc.ndcg([3, 0, 0], 3, judgments=[3, 3, 2]):.4f}" == f"{answer:.4f}"
    expect(present(page)).to_contain_text(f"nDCG@3 = {answer:.4f}")
    legible(page, out, "trap_solution_done")
    assert_no_traceback(page)


def test_checked_answers_still_fit_their_slides(page: Page, lab_slides_server: str, out: Path) -> None:
    """A verdict (a callout naming the mistake) makes a question slide taller: it must still fit,
    with the hints shown too (and, on the vote, its solution)."""
    open_deck(page, lab_slides_server)
    box = page.get_by_label("Your answer: nDCG when relevant documents were missed", exact=True)
    show_slide_with(page, box)
    reveal(page, ".ndcg-exercise-hints")
    run_and_settle(page, lambda: (box.fill("1"), box.press("Enter")), what="the answer 1 (the ideal from the run)")
    expect(present(page)).to_contain_text("Checked answer")
    legible(page, out, "trap_question_checked")

    goto(page, "Check yourself · question 3 of 3")
    vote = present(page).get_by_label(re.compile(r"^C\) When IDCG@k > 0"))
    expect(vote).to_be_visible()
    run_and_settle(page, vote.check, what="option C")
    press(page, "Check")
    expect(present(page)).to_contain_text("Checked answer")
    for _ in range(2):  # the hint, then the solution
        page.evaluate("() => document.activeElement && document.activeElement.blur()")
        before = page.evaluate("() => document.querySelectorAll('.reveal .fragment.visible').length")
        page.keyboard.press("ArrowRight")
        page.wait_for_function("(n) => document.querySelectorAll('.reveal .fragment.visible').length > n", arg=before)
    expect(present(page)).to_contain_text("Worked solution.")
    legible(page, out, "vote_checked_and_solved")
    assert_no_traceback(page)
