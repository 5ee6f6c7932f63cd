"""The exercises that end the playground and chapters 02-06 ("Check yourself"), in a real browser.

For each chapter the first numeric exercise is answered twice through its own answer box
and **Check** button: the right value (derived by hand below) gets a success callout, the
value a common mistake produces gets a callout naming that mistake. ``ndcg-lab`` serves every
chapter as one page (show_slide_with does nothing there); the same cards as slides are
walked by tests/browser/test_slides_legibility.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from first_exercises import FIRST_NUMERIC  # tests/first_exercises.py
from marimo_page import (
    assert_no_traceback,
    open_notebook,
    page_text,
    run_and_settle,
    show_slide_with,
)
from playwright.sync_api import Page, expect
from shared_pages import NotebookPages, on_notebook

import ndcg_core as nc
from ndcg_core.teaching.exercises import MISCONCEPTIONS
from ndcg_core.ui.widgets import answer_label

pytestmark = pytest.mark.browser

NOTEBOOKS_DIR = Path(__file__).resolve().parents[2] / "notebooks"



def flat(text: str) -> str:
    return " ".join(text.split())


def check_answer(page: Page, ex_id: str, typed: str) -> None:
    """Type ``typed`` into the exercise's answer box and press Enter (Enter checks)."""
    box = page.get_by_label(answer_label(ex_id), exact=True)
    expect(box).to_have_count(1)
    show_slide_with(page, box, max_slides=60)
    run_and_settle(page, lambda: (box.fill(typed), box.press("Enter")), what=f"checking {typed!r} for {ex_id}")


def callout(page: Page, kind: str, text: str):
    return page.locator(f"marimo-callout-output[data-kind='\"{kind}\"']").filter(has_text=text)


@pytest.mark.parametrize("filename", [pytest.param(name, marks=on_notebook(name)) for name in FIRST_NUMERIC])
def test_first_numeric_exercise_right_then_a_named_mistake(
    notebook_pages: NotebookPages, filename: str, artifacts_dir: Path
) -> None:
    ex_id, right, wrong, misconception = FIRST_NUMERIC[filename]
    exercise = nc.exercises.get(ex_id)
    places = exercise.precision
    page = notebook_pages.take(filename)  # as its first run left it: the page test_accessibility read
    assert "Check yourself" in page_text(page)
    assert "Right:" not in page_text(page)  # no feedback before Check is pressed

    check_answer(page, ex_id, f"{right:.{places}f}")
    success = callout(page, "success", f"Right: {exercise.quantity} =")
    expect(success).to_have_count(1)
    expect(success).to_contain_text(f"which is {right:.{places}f} to {places} decimals.")
    page.screenshot(path=str(artifacts_dir / f"exercises_{filename[:-3]}_right.png"))
    assert_no_traceback(page)

    check_answer(page, ex_id, f"{wrong:.{places}f}")
    expect(callout(page, "success", "Right:")).to_have_count(0)
    warning = callout(page, "warn", f"Not quite: {wrong:.{places}f} is what")
    expect(warning).to_have_count(1)
    expect(warning).to_contain_text(MISCONCEPTIONS[misconception].name)
    page.screenshot(path=str(artifacts_dir / f"exercises_{filename[:-3]}_wrong.png"))
    assert_no_traceback(page)


def test_an_option_and_the_worked_solution(page: Page, lab_server: str) -> None:
    """A multiple-choice card in the vertical view: pick the right option, open the solution."""
    open_notebook(page, lab_server, "06_evaluating_runs.py")
    exercise = nc.exercises.get("runs-tiebreak")
    option = page.get_by_label(exercise.choices[exercise.answer_option], exact=True)
    expect(option).to_have_count(1)
    run_and_settle(page, option.check, what="choosing the option")
    # the Check button of this card: in the same cell as the option
    button = page.locator(".marimo-cell").filter(has=option).get_by_role("button", name="Check", exact=True)
    expect(button).to_have_count(1)
    run_and_settle(page, button.click, what="pressing Check")
    expect(callout(page, "success", "Right. trec_eval sorts by score")).to_have_count(1)
    solutions = page.get_by_text("Worked solution", exact=True)
    cards = (NOTEBOOKS_DIR / "06_evaluating_runs.py").read_text(encoding="utf-8").count("widgets.exercise_card(")
    expect(solutions).to_have_count(cards)  # one per card: runs-ndcg-cut, runs-tiebreak, ...
    row = page.get_by_role("cell", name="0, 1, 2 (file order)", exact=True)  # the solution's table, by ndcg_core
    expect(row).to_be_hidden()  # folded until asked for
    solutions.nth(1).click()
    expect(row).to_be_visible()
    assert f"Answer: {exercise.choices[exercise.answer_option]}" in flat(page_text(page))
    assert_no_traceback(page)
