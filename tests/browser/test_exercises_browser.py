"""End-to-end: notebooks 07 (exercises) and 08 (exam practice) in headless chromium.

A right answer shows success, a natural-log answer names that mistake, garbage shows the
expected-form message, and no page ever shows a traceback.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from marimo_page import (
    assert_no_traceback,
    open_notebook,
    page_text,
    run_and_settle,
    select_option,
    set_text,
    wait_for_text,
)

import ndcg_core as nc
import ndcg_core.teaching.compare
import ndcg_core.teaching.exam
import ndcg_core.teaching.pooling
import ndcg_core.teaching.toy
from ndcg_core.ui.exam_sheet import exam_html

NB07 = "07_exercises.py"
NB08 = "08_exam_practice.py"
TOTAL = len(nc.exercises.all_exercises())


def flat(page) -> str:
    """The page's visible text on one line, so text split across elements (bold, code) reads as typed."""
    text = re.sub(r"\s*\n\s*", " ", page_text(page))
    return re.sub(r" ([:.,;)])", r"\1", text)


def press(page, name: str) -> None:
    run_and_settle(page, lambda: page.get_by_role("button", name=name).click(), what=f"pressing {name!r}")


def answer_07(page, text: str) -> None:
    """Type the answer, leave the box (marimo sends a text box's value when it loses focus) and
    wait for that run, then press Check. Pressing Check straight away sends the text and the
    press as two runs, and the wait could end on the first, before the verdict is drawn."""
    box = page.get_by_label("Your answer", exact=True)
    changed = box.input_value() != text
    box.fill(text)
    run_and_settle(page, lambda: box.press("Tab"), expect_run=changed, what=f"typing {text!r}")
    press(page, "Check")


def test_07_a_right_answer_is_confirmed_and_counted(lab_server, page):
    open_notebook(page, lab_server, NB07 + "&learner=counted-" + str(id(page)))
    assert f"Your progress: 0 of {TOTAL} solved" in flat(page)
    select_option(page, "Exercise", "nDCG@5 of the lecture example")
    answer_07(page, "0,78")
    text = flat(page)
    assert "Right: nDCG@5 = 0.7763, which is 0.78 to 2 decimals." in text
    # the progress cell re-runs after the feedback, on the mo.state update the check makes
    wait_for_text(page, f"Your progress: 1 of {TOTAL} solved")
    assert_no_traceback(page)


def test_07_a_natural_log_answer_names_the_mistake(lab_server, page):
    open_notebook(page, lab_server, NB07)
    assert "DCG@5 of the lecture example" in flat(page)  # the first exercise is selected
    answer_07(page, "3.51")  # 1/ln(2) + 2/ln(4) + 1/ln(5)
    text = flat(page)
    assert "Not quite: 3.51 is what DCG@5 comes to with the natural logarithm ln in the discount." in text
    assert "Progress is not being kept" in text  # no name typed: the page works, and says so
    assert_no_traceback(page)


def test_07_garbage_gets_the_expected_form(lab_server, page):
    open_notebook(page, lab_server, NB07)
    answer_07(page, "two point four")
    text = flat(page)
    assert "The answer 'two point four' is not a number I can read. Type a decimal number such as 0.78" in text
    assert_no_traceback(page)


def test_07_ideal_order_choice_and_worked_solution(lab_server, page):
    open_notebook(page, lab_server, NB07)
    select_option(page, "Chapter", "04 · The ideal list")
    select_option(page, "Exercise", "Build the ideal ranking")
    answer_07(page, "3, 2, 1")
    assert "holds only the labels in the ranked list" in flat(page)
    select_option(page, "Chapter", "03 · Discounts")
    select_option(page, "Exercise", "Changing the log base")
    page.get_by_label("B) DCG changes, nDCG stays the same", exact=True).check()
    press(page, "Check")
    assert "Right. log_b(x) = log2(x)/log2(b)" in flat(page)
    page.get_by_text("Worked solution", exact=True).click()
    page.get_by_text("Answer:", exact=True).filter(visible=True).first.wait_for(state="visible")
    assert "1/log10(i+1)" in flat(page)  # the demo table computed by ndcg_core
    assert_no_traceback(page)


def _one_of_each_kind(chapter: str) -> list:
    """The chapter's first exercise and the first of each kind not yet picked in earlier chapters."""
    picked = _one_of_each_kind.__dict__.setdefault("kinds", set())
    chosen = []
    for position, exercise in enumerate(nc.exercises.for_chapter(chapter)):
        if position == 0 or exercise.kind not in picked:
            picked.add(exercise.kind)
            chosen.append(exercise)
    return chosen


def test_07_every_chapter_and_every_kind_of_exercise_opens_without_a_traceback(lab_server, page):
    """Every chapter of the bank, and in it the first exercise and one of each kind (numeric,
    ideal ranking, comparison, concept, code, paired...) the earlier chapters did not show.
    That every exercise of the bank renders as 07 shows it is checked without a browser
    (tests/ui/test_widgets.py::test_every_bank_exercise_shows_as_notebook_07_shows_it)."""
    open_notebook(page, lab_server, NB07)
    _one_of_each_kind.__dict__.pop("kinds", None)
    kinds = set()
    for number, title in nc.exercises.CHAPTERS.items():
        select_option(page, "Chapter", f"{number} · {title}")
        for position, exercise in enumerate(_one_of_each_kind(number)):
            if position:  # the chapter opens on its first exercise
                select_option(page, "Exercise", exercise.title)
            assert page.get_by_role("heading", name=exercise.title, exact=True).count() >= 1
            kinds.add(exercise.kind)
        assert_no_traceback(page)
    assert kinds == {ex.kind for ex in nc.exercises.all_exercises()}
    # a code exercise shows a code box, run in the sandbox when asked
    select_option(page, "Chapter", "01 · The lecture example")
    select_option(page, "Exercise", "Write dcg(rels, k)")
    assert "Not run yet" in flat(page)


def test_08_marks_a_set_names_mistakes_and_offers_a_self_contained_sheet(lab_server, page, tmp_path):
    open_notebook(page, lab_server, NB08)
    set_text(page, "Seed", "4242")
    exam_set = nc.teaching.exam.generate_exam(4242, nc.teaching.exam.ExamSettings(problems=5, kinds=nc.teaching.exam.PRACTICE_KINDS))
    text = flat(page)
    assert f"Seed 4242: {exam_set.describe()}." in text  # the notebook's defaults: ExamSettings(kinds=PRACTICE_KINDS)
    numeric = [i for i, p in enumerate(exam_set.problems) if p.kind == "numeric"]
    with_ln = [i for i in numeric if "log-natural" in nc.exercises.mistaken_values(exam_set.problems[i])]
    wrong_ln = with_ln[0]
    right, garbage = [i for i in numeric if i != wrong_ln][:2]
    ln_value = nc.exercises.mistaken_values(exam_set.problems[wrong_ln])["log-natural"][0]
    for index, typed in ((right, nc.exercises.format_answer(exam_set.problems[right])), (wrong_ln, f"{ln_value:.2f}"),
                         (garbage, "abc")):
        box = page.get_by_label(f"Answer {index + 1}", exact=True)
        run_and_settle(page, lambda: (box.fill(typed), box.press("Enter")), what=f"answer {index + 1}")
    press(page, "Mark my answers")
    wait_for_text(page, "Review: worked solutions")  # the review cell runs after the marking cell
    text = flat(page)
    total = len(exam_set.problems)  # a multi-part task counts each of its parts
    assert f"Score: 1 / {total} ({round(100 / total)} %)" in text
    assert "Right:" in text
    assert "with the natural logarithm ln in the discount" in text
    assert "The answer 'abc' is not a number I can read." in text
    assert text.count("No answer given.") == total - 3
    assert_no_traceback(page)

    with page.expect_download() as download:
        page.get_by_text("Download the printable sheet", exact=True).click()
    saved = tmp_path / "sheet.html"
    download.value.save_as(saved)
    sheet = saved.read_text(encoding="utf-8")
    assert download.value.suggested_filename == "ndcg-exam-seed-4242.html"
    assert sheet == exam_html(exam_set, code=nc.teaching.exam.code_task(4242))
    assert not re.search(r"https?://|<script|<link|src=", sheet, re.IGNORECASE)


@pytest.mark.parametrize("seed, message", [
    ("abc", "seed must be a whole number from 0 to 999999999; got 'abc'. Type digits only, e.g. 2026."),
    ("-5", "seed must be a whole number from 0 to 999999999; got '-5'."),
])
def test_08_a_bad_seed_shows_a_message_not_a_traceback(lab_server, page, seed, message):
    open_notebook(page, lab_server, NB08)
    set_text(page, "Seed", seed)
    text = flat(page)
    assert message in text
    assert page.get_by_role("button", name="Mark my answers").count() == 0
    assert_no_traceback(page)


def test_07_a_verdict_marks_itself_stale_while_the_answer_is_edited(lab_server, page):
    """Checked, the verdict is current; typing in the box (not yet sent: marimo sends on
    Enter) fades it and says it is not checked; Enter draws it anew for the new answer."""
    open_notebook(page, lab_server, NB07)
    box = page.get_by_label("Your answer", exact=True)
    run_and_settle(page, lambda: (box.fill("2.43"), box.press("Enter")), what="checking 2.43")
    wait_for_text(page, "Right:")
    verdict = page.locator("[data-ndcg-verdict-for]")
    expect(verdict).to_have_count(1)
    expect(verdict).not_to_have_class(re.compile("ndcg-stale"))
    box.click()
    page.keyboard.press("End")
    page.keyboard.type("9")
    expect(verdict).to_have_class(re.compile("ndcg-stale"))
    assert "Not checked: you are editing the answer" in verdict.evaluate(
        "(e) => getComputedStyle(e, '::before').content")
    page.keyboard.press("Backspace")  # back to the checked answer: current again
    expect(verdict).not_to_have_class(re.compile("ndcg-stale"))
    page.keyboard.type("9")
    run_and_settle(page, lambda: box.press("Enter"), what="checking 2.439")
    expect(verdict).not_to_have_class(re.compile("ndcg-stale"))
    assert "2.439" in verdict.inner_text()


def test_08_difficulty_sets_the_knobs_and_the_code_task_asks_dcg_then_ndcg(lab_server, page):
    open_notebook(page, lab_server, NB08)
    select_option(page, "Difficulty", "hard")
    hard = nc.teaching.exam.generate_exam(2026, nc.teaching.exam.exam_settings("hard"))
    wait_for_text(page, "lists of 7 documents; labels 0 to 4")
    text = flat(page)
    assert f"Seed 2026: {hard.describe()}." in text
    assert "Code: write dcg(rels, k), then ndcg(rels, k) on top of it" in text
    code = page.get_by_label("Your code: dcg(rels, k), then ndcg(rels, k)", exact=True)
    run_and_settle(page, lambda: code.fill(nc.teaching.exam.MODEL_CODE), what="typing the model answer")
    press(page, "Run my code")
    wait_for_text(page, "Every case gives the expected value.")
    text = flat(page)
    assert text.count("12 of 12 cases pass. Every case gives the expected value.") == 2, text  # dcg and ndcg
    assert_no_traceback(page)
