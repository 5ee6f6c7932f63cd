"""End-to-end: notebooks 07 (exercises) and 08 (exam practice) in headless chromium.

A right answer shows success, a natural-log answer names that mistake, garbage shows the
expected-form message, and no page ever shows a traceback.

Each page load of a notebook costs seconds of CPU, so the tests of 07 share one page and those
of 08 another, each loaded once per module (``page07``, ``page08``): before each test the page
is put back as it opened and that is asserted (every control's value and the page's whole text
equal those of the fresh page), so a test sees what a fresh page shows, in any order and run
alone. The test that needs a learner in the address, with no progress yet, opens its own page.
"""

from __future__ import annotations

import re

import pytest
from conftest import _FORGET_JS, PAGE_VIEWPORT
from playwright.sync_api import expect
from marimo_page import (
    assert_no_traceback,
    install_tracker,
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
from ndcg_core.ui.widgets import HELP_FOLDED

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


# --------------------------------------------------------------------------- pages shared by the module's tests

#: Every control whose state a learner can change: text boxes, dropdowns, sliders, options, tabs, foldings.
CONTROLS = ("input, select, textarea, [role=slider], [role=tab], [role=radio], [role=checkbox], [role=switch], "
            "[aria-expanded]")
_CONTROL_STATE_JS = r"""
(elements) => elements.map((e) => {
  const role = e.getAttribute('role') || '';
  let state;
  if (role === 'slider') state = e.getAttribute('aria-valuenow');
  else if (role === 'tab') state = e.getAttribute('aria-selected');
  else if (['radio', 'checkbox', 'switch'].includes(role)) state = e.getAttribute('aria-checked');
  else if (e.type === 'checkbox' || e.type === 'radio') state = String(e.checked);
  else if (e.hasAttribute('aria-expanded')) state = e.getAttribute('aria-expanded');
  else state = e.value;
  return [e.tagName.toLowerCase(), role || e.type || '', e.getAttribute('aria-label') || '', state].join(' | ');
})
"""


def page_state(page) -> tuple[list[str], str]:
    """(each control's kind, name and value in page order, the page's visible text)."""
    return page.locator(CONTROLS).evaluate_all(_CONTROL_STATE_JS), flat(page)


def assert_as_opened(page, opened: tuple[list[str], str]) -> None:
    """The page shows what it showed when it was opened: every control and all the text."""
    controls, text = page_state(page)
    assert controls == opened[0], ("controls differ from the fresh page",
                                   [c for c in controls if c not in opened[0]], [c for c in opened[0] if c not in controls])
    assert text == opened[1], ("text differs from the fresh page", text[:3000], opened[1][:3000])


def _shared_page(browser_context, base_url: str, notebook: str):
    """A page of ``notebook`` opened once for the module's tests, with what it showed as opened."""
    shared = browser_context.new_page()
    shared.set_viewport_size(PAGE_VIEWPORT)
    install_tracker(shared)
    try:
        open_notebook(shared, base_url, notebook)
        assert_no_traceback(shared)
        yield shared, page_state(shared)
    finally:
        try:
            shared.evaluate(_FORGET_JS)
        except Exception:  # a crashed page: nothing to forget
            pass
        shared.close()
        browser_context.clear_cookies()


@pytest.fixture(scope="module")
def shared_07(browser_context, lab_server):
    yield from _shared_page(browser_context, lab_server, NB07)


@pytest.fixture(scope="module")
def shared_08(browser_context, lab_server):
    yield from _shared_page(browser_context, lab_server, NB08)


CHAPTER_01 = "01 · The lecture example"
CHAPTER_02 = "02 · Gains"
LECTURE = "like the lecture's exam"
SEED = "2026"  # the notebook's first seed


def _shown(page, label: str) -> str:
    return page.get_by_label(label, exact=True).evaluate("(e) => e.options[e.selectedIndex].text.trim()")


@pytest.fixture
def page07(shared_07):
    """The module's 07 page as a fresh one opens: chapter 01 on its first exercise, nothing typed,
    checked or unfolded (asserted). Chapter 01 is chosen from another chapter, which draws its
    first exercise with new widgets, as a page load does; its help is folded if it is not."""
    page, opened = shared_07
    if _shown(page, "Chapter") == CHAPTER_01:
        select_option(page, "Chapter", CHAPTER_02)
    select_option(page, "Chapter", CHAPTER_01)
    # The new exercise's help tabs show the tab chosen for an earlier one at the same position
    # (the page keeps the old tabs' selection): fold them, as a fresh page shows them.
    folded = page.get_by_role("tab", name=HELP_FOLDED, exact=True)
    if folded.get_attribute("aria-selected") != "true":
        run_and_settle(page, folded.click, what="folding the help")
    assert_as_opened(page, opened)
    return page


@pytest.fixture
def page08(shared_08):
    """The module's 08 page as a fresh one opens: seed 2026 like the lecture's exam, nothing
    answered, marked or run (asserted). The difficulty rebuilds every knob; a seed typed anew
    draws new answer boxes and a new code box, as a page load does."""
    page, opened = shared_08
    select_option(page, "Difficulty", LECTURE)
    if page.get_by_label("Seed", exact=True).input_value() == SEED:
        set_text(page, "Seed", "1")
    set_text(page, "Seed", SEED)
    assert_as_opened(page, opened)
    return page


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


def test_07_a_natural_log_answer_names_the_mistake(page07):
    assert "DCG@5 of the lecture example" in flat(page07)  # the first exercise is selected
    answer_07(page07, "3.51")  # 1/ln(2) + 2/ln(4) + 1/ln(5)
    text = flat(page07)
    assert "Not quite: 3.51 is what DCG@5 comes to with the natural logarithm ln in the discount." in text
    assert "Progress is not being kept" in text  # no name typed: the page07 works, and says so
    assert_no_traceback(page07)


def test_07_garbage_gets_the_expected_form(page07):
    answer_07(page07, "two point four")
    text = flat(page07)
    assert "The answer 'two point four' is not a number I can read. Type a decimal number such as 0.78" in text
    assert_no_traceback(page07)


def test_07_ideal_order_choice_and_worked_solution(page07):
    select_option(page07, "Chapter", "04 · The ideal list")
    select_option(page07, "Exercise", "Build the ideal ranking")
    answer_07(page07, "3, 2, 1")
    assert "holds only the labels in the ranked list" in flat(page07)
    select_option(page07, "Chapter", "03 · Discounts")
    select_option(page07, "Exercise", "Changing the log base")
    page07.get_by_label("B) DCG changes, nDCG stays the same", exact=True).check()
    press(page07, "Check")
    assert "Right. log_b(x) = log2(x)/log2(b)" in flat(page07)
    page07.get_by_text("Worked solution", exact=True).click()
    page07.get_by_text("Answer:", exact=True).filter(visible=True).first.wait_for(state="visible")
    assert "1/log10(i+1)" in flat(page07)  # the demo table computed by ndcg_core
    assert_no_traceback(page07)


def _one_of_each_kind(chapter: str) -> list:
    """The chapter's first exercise and the first of each kind not yet picked in earlier chapters."""
    picked = _one_of_each_kind.__dict__.setdefault("kinds", set())
    chosen = []
    for position, exercise in enumerate(nc.exercises.for_chapter(chapter)):
        if position == 0 or exercise.kind not in picked:
            picked.add(exercise.kind)
            chosen.append(exercise)
    return chosen


def test_07_every_chapter_and_every_kind_of_exercise_opens_without_a_traceback(page07):
    """Every chapter of the bank, and in it the first exercise and one of each kind (numeric,
    ideal ranking, comparison, concept, code, paired...) the earlier chapters did not show.
    That every exercise of the bank renders as 07 shows it is checked without a browser
    (tests/ui/test_widgets.py::test_every_bank_exercise_shows_as_notebook_07_shows_it)."""
    _one_of_each_kind.__dict__.pop("kinds", None)
    kinds = set()
    for number, title in nc.exercises.CHAPTERS.items():
        select_option(page07, "Chapter", f"{number} · {title}")
        for position, exercise in enumerate(_one_of_each_kind(number)):
            if position:  # the chapter opens on its first exercise
                select_option(page07, "Exercise", exercise.title)
            assert page07.get_by_role("heading", name=exercise.title, exact=True).count() >= 1
            kinds.add(exercise.kind)
        assert_no_traceback(page07)
    assert kinds == {ex.kind for ex in nc.exercises.all_exercises()}
    # a code exercise shows a code box, run in the sandbox when asked
    select_option(page07, "Chapter", "01 · The lecture example")
    select_option(page07, "Exercise", "Write dcg(rels, k)")
    assert "Not run yet" in flat(page07)


def test_08_marks_a_set_names_mistakes_and_offers_a_self_contained_sheet(page08, tmp_path):
    set_text(page08, "Seed", "4242")
    exam_set = nc.teaching.exam.generate_exam(4242, nc.teaching.exam.ExamSettings(problems=5, kinds=nc.teaching.exam.PRACTICE_KINDS))
    text = flat(page08)
    assert f"Seed 4242: {exam_set.describe()}." in text  # the notebook's defaults: ExamSettings(kinds=PRACTICE_KINDS)
    numeric = [i for i, p in enumerate(exam_set.problems) if p.kind == "numeric"]
    with_ln = [i for i in numeric if "log-natural" in nc.exercises.mistaken_values(exam_set.problems[i])]
    wrong_ln = with_ln[0]
    right, garbage = [i for i in numeric if i != wrong_ln][:2]
    ln_value = nc.exercises.mistaken_values(exam_set.problems[wrong_ln])["log-natural"][0]
    for index, typed in ((right, nc.exercises.format_answer(exam_set.problems[right])), (wrong_ln, f"{ln_value:.2f}"),
                         (garbage, "abc")):
        box = page08.get_by_label(f"Answer {index + 1}", exact=True)
        run_and_settle(page08, lambda: (box.fill(typed), box.press("Enter")), what=f"answer {index + 1}")
    press(page08, "Mark my answers")
    wait_for_text(page08, "Review: worked solutions")  # the review cell runs after the marking cell
    text = flat(page08)
    total = len(exam_set.problems)  # a multi-part task counts each of its parts
    assert f"Score: 1 / {total} ({round(100 / total)} %)" in text
    assert "Right:" in text
    assert "with the natural logarithm ln in the discount" in text
    assert "The answer 'abc' is not a number I can read." in text
    assert text.count("No answer given.") == total - 3
    assert_no_traceback(page08)

    with page08.expect_download() as download:
        page08.get_by_text("Download the printable sheet", exact=True).click()
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
def test_08_a_bad_seed_shows_a_message_not_a_traceback(page08, seed, message):
    set_text(page08, "Seed", seed)
    text = flat(page08)
    assert message in text
    assert page08.get_by_role("button", name="Mark my answers").count() == 0
    assert_no_traceback(page08)


def test_07_a_verdict_marks_itself_stale_while_the_answer_is_edited(page07):
    """Checked, the verdict is current; typing in the box (not yet sent: marimo sends on
    Enter) fades it and says it is not checked; Enter draws it anew for the new answer."""
    box = page07.get_by_label("Your answer", exact=True)
    run_and_settle(page07, lambda: (box.fill("2.43"), box.press("Enter")), what="checking 2.43")
    wait_for_text(page07, "Right:")
    verdict = page07.locator("[data-ndcg-verdict-for]")
    expect(verdict).to_have_count(1)
    expect(verdict).not_to_have_class(re.compile("ndcg-stale"))
    box.click()
    page07.keyboard.press("End")
    page07.keyboard.type("9")
    expect(verdict).to_have_class(re.compile("ndcg-stale"))
    assert "Not checked: you are editing the answer" in verdict.evaluate(
        "(e) => getComputedStyle(e, '::before').content")
    page07.keyboard.press("Backspace")  # back to the checked answer: current again
    expect(verdict).not_to_have_class(re.compile("ndcg-stale"))
    page07.keyboard.type("9")
    run_and_settle(page07, lambda: box.press("Enter"), what="checking 2.439")
    expect(verdict).not_to_have_class(re.compile("ndcg-stale"))
    assert "2.439" in verdict.inner_text()


def test_08_difficulty_sets_the_knobs_and_the_code_task_asks_dcg_then_ndcg(page08):
    select_option(page08, "Difficulty", "hard")
    hard = nc.teaching.exam.generate_exam(2026, nc.teaching.exam.exam_settings("hard"))
    wait_for_text(page08, "lists of 7 documents; labels 0 to 4")
    text = flat(page08)
    assert f"Seed 2026: {hard.describe()}." in text
    assert "Code: write dcg(rels, k), then ndcg(rels, k) on top of it" in text
    code = page08.get_by_label("Your code: dcg(rels, k), then ndcg(rels, k)", exact=True)
    run_and_settle(page08, lambda: code.fill(nc.teaching.exam.MODEL_CODE), what="typing the model answer")
    press(page08, "Run my code")
    wait_for_text(page08, "Every case gives the expected value.")
    text = flat(page08)
    assert text.count("12 of 12 cases pass. Every case gives the expected value.") == 2, text  # dcg and ndcg
    assert_no_traceback(page08)
