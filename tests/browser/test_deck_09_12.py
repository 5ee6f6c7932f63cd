"""Decks 09 (graded vs binary) and 12 (which measure?) driven as a lecturer drives them, at
1280x720 (``ndcg-lab slides``): every step-by-step worked solution pressed to its answer, and a
checked answer with its hints and worked answer shown, each state checked against the legibility
rules (test_slides_legibility.py walks the slides as they open; nothing there presses a button).
Screenshots go to tests/artifacts/legibility/09_pressed_*.png and 12_pressed_*.png.

Hand-derived answers (linear gain, 1/log2(i+1), relevant = label >= 1):
- binary-best-fourth: list 1, 0, 0, 3, 0 with a missed 1 ... DCG@5 = 1 + 3/log2(5) = 2.2920,
  IDCG@5 = 3 + 1/log2(3) = 3.6309, nDCG@5 = 2.2920 / 3.6309 = 0.6313;
- binary-precision-short: relevant at ranks 1 and 3 of a three-document list: P@5 = 2/5 = 0.4;
- binary-ap: relevant at ranks 2, 3, 5, R = 4: AP = (1/2 + 2/3 + 3/5) / 4 = 0.4417;
- measures-bpref: R = 4, N = 3, relevant at ranks 1, 4, 7 with 0, 1, 2 judged non-relevant above:
  (1 + (1 - 1/3) + (1 - 2/3)) / 4 = 2 / 4 = 0.5.
"""

from __future__ import annotations

from math import log2
from pathlib import Path

import pytest
from legibility import assert_legible
from marimo_page import DECK_STILL_JS, assert_no_traceback, open_notebook, run_and_settle, show_slide_with
from playwright.sync_api import Page, expect


pytestmark = pytest.mark.browser

PRESENT = ".reveal .slides > section.present"
#: (exercise, what its last press shows), in the order of their slides
SOLUTIONS = [
    ("binary-best-fourth", f"nDCG@5 = DCG@5 / IDCG@5 = 2.292 / 3.6309 = {(1 + 3 / log2(5)) / (3 + 1 / log2(3)):.4f}"),
    ("binary-precision-short", "P@5 = 0.4"),
    ("binary-ap", f"AP = (1/2 + 2/3 + 3/5) / 4 = {(1 / 2 + 2 / 3 + 3 / 5) / 4:.4f}"),
]


def legible(page: Page, out: Path, name: str) -> None:
    assert_legible(page, out / f"{name}.png")


@pytest.fixture
def out(artifacts_dir: Path) -> Path:
    folder = artifacts_dir / "legibility"
    folder.mkdir(exist_ok=True)
    return folder


def test_deck_09_every_worked_solution_fits_at_every_press(page: Page, lab_slides_server: str, out: Path) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    open_notebook(page, lab_slides_server, "09_graded_vs_binary.py")
    page.wait_for_function(DECK_STILL_JS, polling="raf")
    # slides not shown are hidden from the accessibility tree: count the buttons with them
    buttons = page.get_by_role("button", name="Next rank of the solution", exact=True, include_hidden=True)
    expect(buttons).to_have_count(len(SOLUTIONS))
    for i, (exercise, answer) in enumerate(SOLUTIONS):
        show_slide_with(page, buttons.nth(i))
        button = page.locator(PRESENT).get_by_role("button", name="Next rank of the solution", exact=True)
        for press in range(1, 16):
            run_and_settle(page, button.click, what=f"press {press} of {exercise}'s solution")
            legible(page, out, f"09_pressed_{exercise}_{press:02d}")
            if "Answer:" in page.locator(PRESENT).inner_text():
                break
        else:
            raise AssertionError(f"{exercise}: no answer after 15 presses")
        expect(page.locator(PRESENT)).to_contain_text(answer)
    assert_no_traceback(page)


def test_deck_12_a_checked_answer_its_hints_and_worked_answer_fit(page: Page, lab_slides_server: str, out: Path) -> None:
    """bpref's question: a wrong answer (0.38 counts the unjudged as non-relevant) is named, the
    hints and then the worked answer (which takes the hints' place) fit beside the verdict."""
    page.set_viewport_size({"width": 1280, "height": 720})
    open_notebook(page, lab_slides_server, "12_which_measure.py")
    page.wait_for_function(DECK_STILL_JS, polling="raf")
    box = page.get_by_label("Your answer: bpref with unjudged documents", exact=True)
    show_slide_with(page, box)
    run_and_settle(page, lambda: (box.fill("0.38"), box.press("Enter")), what="the answer 0.38")
    slide = page.locator(PRESENT)
    expect(slide).to_contain_text("Checked answer")
    legible(page, out, "12_pressed_bpref_checked")
    for shown in ("Hint 1.", "Answer: bpref = 0.5"):
        page.evaluate("() => document.activeElement && document.activeElement.blur()")
        before = page.evaluate("() => document.querySelectorAll('.reveal .fragment.visible').length")
        page.keyboard.press("ArrowRight")
        page.wait_for_function("(n) => document.querySelectorAll('.reveal .fragment.visible').length > n", arg=before)
        expect(slide).to_contain_text(shown)
        legible(page, out, f"12_pressed_bpref_{'hints' if shown.startswith('Hint') else 'answer'}")
    expect(slide.locator(".ndcg-exercise-hints")).to_be_hidden()  # the worked answer took its place
    expect(slide).to_contain_text("Checked answer")  # the verdict's line stays, its explanation gives way
    assert_no_traceback(page)
