"""Deck 02 (gains) as a lecturer drives it: states the arrow keys never reach.

tests/browser/test_slides_legibility.py checks every slide and fragment as the right arrow
shows them. Here the deck's buttons and controls are used too, and every state they lead to
must pass the same legibility rules at 1280x720: each worked solution at every press of its
button (one rank per press, up to the answer), the two-run slides with the other run in the
plot, and the concept slides with a typo in their box (the message shows on the slide).

Numbers are checked against values derived by hand (written out next to each).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from legibility import LEGIBILITY_JS, RULES
from marimo_page import (
    DECK_STILL_JS,
    assert_no_traceback,
    open_notebook,
    run_and_settle,
    set_text,
)
from playwright.sync_api import Page, expect
from test_chapters_02_04 import advance, slide_text

from ndcg_core.ui.plots import ranking

pytestmark = pytest.mark.browser

FILE = "02_gains.py"


def open_deck(page: Page, base_url: str) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    open_notebook(page, base_url, FILE)
    expect(page.locator(".reveal .slides > section.present")).to_have_count(1)


def problems(page: Page) -> list[str]:
    page.wait_for_function(DECK_STILL_JS, polling="raf")
    rules = {**RULES, "plotTextPx": ranking.SMALLEST_TEXT_PT * ranking.PNG_DPI / 72}
    return list(page.evaluate(LEGIBILITY_JS, rules))


def goto_text(page: Page, needle: str, max_steps: int = 60) -> str:
    """Arrow on until ``needle`` is in the present slide's visible text."""
    for _ in range(max_steps):
        text = slide_text(page)
        if needle in text:
            return text
        advance(page)
    raise AssertionError(f"no slide shows {needle!r} within {max_steps} steps")


@pytest.mark.parametrize(
    ("button", "ranks", "answer"),
    [
        # exponential gain on 1, 0, 2, 1, 0: 1 + 0 + 3/log2(4) + 1/log2(5) + 0 = 1 + 1.5 + 0.4307 = 2.9307
        pytest.param("Next rank of the solution", 5, "DCG@5 = 2.9307", id="exp-dcg"),
        # A = 3, 0, 0: DCG@3 = 7; B = 2, 2, 0: 3 + 3/log2(3) = 4.8928; A wins
        pytest.param("Next rank of the worked comparison", 6, "Ranking A", id="compare"),
    ],
)
def test_each_worked_solution_fits_at_every_press(page: Page, lab_slides_server: str, artifacts_dir: Path,
                                                 button: str, ranks: int, answer: str) -> None:
    open_deck(page, lab_slides_server)
    goto_text(page, button)
    press = page.locator(".reveal .slides > section.present").get_by_role("button", name=button, exact=True)
    found = []
    for shown in range(1, ranks + 1):
        run_and_settle(page, press.click, what=f"press {shown} of {button!r}")
        text = slide_text(page)
        if shown < ranks:
            assert f"{shown} of {ranks} table rows shown" in text, text
        found += [f"press {shown}: {p}" for p in problems(page)]
    page.screenshot(path=str(artifacts_dir / f"deck02_solution_{button.split()[-1]}.png"))
    text = slide_text(page)
    assert answer in text and "Answer:" in text and "table rows shown" not in text, text
    if button.endswith("comparison"):
        # ranking A folded to its result, ranking B's table in full: 4.8928 / 10.3928 = 0.4708
        assert "nDCG = 7 / 10.3928 = 0.6735" in text and "nDCG = 4.8928 / 10.3928 = 0.4708" in text
    assert not found, "\n".join(found)
    assert_no_traceback(page)


def test_two_run_slides_and_typos_stay_on_the_slide(page: Page, lab_slides_server: str, artifacts_dir: Path) -> None:
    open_deck(page, lab_slides_server)
    found: list[str] = []
    # the gain slide with a typo in its gain table: the message, not a traceback
    goto_text(page, "Labels are codes")
    set_text(page, "Gain table", "0:0, 1")
    text = goto_text(page, "Gain table:")
    assert "gain table entry 2 must look like label:gain; got '1'" in text
    found += [f"gain slide, bad table: {p}" for p in problems(page)]
    set_text(page, "Gain table", "0:0, 1:1, 2:3, 3:7, 4:15, 5:31")
    goto_text(page, "your table")
    found += [f"gain slide, six labels: {p}" for p in problems(page)]
    set_text(page, "Gain table", "0:0, 1:0.5, 2:2, 3:5")
    # the promotion slide with a bad list: its message where the numbers were
    goto_text(page, "Promote one document")
    set_text(page, "Relevance labels", "1, high, 2")
    text = goto_text(page, "which is not a relevance label")
    found += [f"promotion slide, bad list: {p}" for p in problems(page)]
    # an unjudged document promoted to 3: it counted gain 0, so no factor; ?, 2, ?, 1 has linear
    # DCG 2/log2(3) + 1/log2(5) = 1.2619 + 0.4307 = 1.6925 before, 3 + 1.6925 = 4.6925 after
    set_text(page, "Relevance labels", "?, 2, ?, 1")
    text = goto_text(page, "DCG after")
    assert "from 0" in text and "1.6925" in text and "4.6925" in text, text
    found += [f"promotion slide, unjudged: {p}" for p in problems(page)]
    # a list of 20 and a gain table of six labels still fit (the numbers beside the controls)
    set_text(page, "Relevance labels", "3, 2, 3, 0, 1, 2, 2, 0, 1, 3, 0, 0, 2, 1, 0, 3, 2, 1, 1, 0")
    goto_text(page, "DCG after")
    found += [f"promotion slide, 20 ranks: {p}" for p in problems(page)]
    set_text(page, "Relevance labels", "2, 3, 0, 1, 2")
    # run B of the swap in the plot: 2 at rank 1, 3 at rank 4; exponential DCG@4 = 3 + 7/log2(5) = 6.0147,
    # linear 2 + 3/log2(5) = 3.2920; nDCG@4 stays in the table (B: 0.7724 linear, 0.6764 exponential)
    goto_text(page, "where the 3 sits")
    text = goto_text(page, "gap A − B")
    assert "0.1336" in text and "0.2561" in text  # 0.9060 - 0.7724 and 0.9324 - 0.6764
    present = page.locator(".reveal .slides > section.present")
    run_and_settle(page, present.get_by_label("B: 2 on top", exact=True).check, what="run B in the plot")
    text = slide_text(page)
    assert "exponential: DCG = 6.01" in text and "linear: DCG = 3.29" in text, text
    found += [f"swap slide, run B: {p}" for p in problems(page)]
    page.screenshot(path=str(artifacts_dir / "deck02_swap_run_b.png"))
    # the flip: linear gain ranks A (three 2s) first, exponential gain B (the single 3)
    goto_text(page, "it can flip the winner")
    text = goto_text(page, "higher nDCG")
    assert re.search(r"higher nDCG\s+A\s+B", text), text
    assert_no_traceback(page)
    assert not found, "\n".join(found)


def test_checked_answers_hints_and_solution_fit_together(page: Page, lab_slides_server: str, artifacts_dir: Path) -> None:
    """A lecturer checks an answer from the room (a wrong one: its feedback is the longest), then
    reveals the hints (and on the last slide the worked solution): all of it on the slide."""
    open_deck(page, lab_slides_server)
    found: list[str] = []
    # 2.43 is linear gain's DCG@5 of 1, 0, 2, 1, 0: the feedback names that slip
    goto_text(page, "Score the lecture ranking again")
    set_text(page, "Your answer: DCG@5 with exponential gain", "2.43")
    text = goto_text(page, "Hint 2.")
    assert "2.43 is what DCG@5 comes to with linear gain" in text, text
    found += [f"exp-dcg, checked and hints: {p}" for p in problems(page)]
    page.screenshot(path=str(artifacts_dir / "deck02_exercise_checked.png"))
    for question, option, feedback, last in (
        ("One excellent or two good documents?", "Both score the same", "an ideal list built only from the labels", "Hint 2."),
        ("What a gain of 7 claims", "B) That the assessor rated the document seven times higher", "the 7 comes from the formula",
         "Worked solution."),
    ):
        goto_text(page, question)
        present = page.locator(".reveal .slides > section.present")
        run_and_settle(page, present.get_by_label(option, exact=True).check, what=f"choose {option!r}")
        run_and_settle(page, present.get_by_role("button", name="Check", exact=True).click, what="Check")
        text = goto_text(page, last)
        assert feedback in text, text
        found += [f"{question} checked, {last}: {p}" for p in problems(page)]
    page.screenshot(path=str(artifacts_dir / "deck02_last_checked.png"))
    assert_no_traceback(page)
    assert not found, "\n".join(found)
