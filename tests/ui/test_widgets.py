"""ndcg_core.ui.widgets: the notebooks' marimo pieces, written once.

The pieces are built here as the notebooks build them and read back through marimo's own
objects (``.value``, ``.selected_key``, ``.text``); the exercise cards are checked with
answers derived by hand on the lecture example (labels 1, 0, 2, 1, 0; judgments 2, 1, 1).
"""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from math import log2

import marimo as mo
import pytest

import ndcg_core as nc
from ndcg_core.teaching import exercises
from ndcg_core.ui import widgets

DCG_5 = 1 / log2(2) + 0 / log2(3) + 2 / log2(4) + 1 / log2(5) + 0 / log2(6)


def shown(element: object) -> str:
    """What a piece shows, as text: callouts' inner HTML inlined (with their kind), labels decoded."""

    def callout(match: re.Match) -> str:
        inner = shown(mo.Html(json.loads(html.unescape(match.group(1)))))
        return f" [callout {json.loads(html.unescape(match.group(2)))}] {inner} [/callout] "

    raw = re.sub(r"<marimo-callout-output data-html='([^']*)' data-kind='([^']*)'[^>]*>", callout,
                 getattr(element, "text", ""))
    text = html.unescape(raw)
    return text.replace("\\u003c", "<").replace("\\u003e", ">").replace('\\"', '"')


# --------------------------------------------------------------------------- errors and inputs


def test_error_callout_shows_the_message_word_for_word_in_red() -> None:
    err = ValueError("label 2 is 'x', which is not a relevance label.")
    text = shown(widgets.error_callout(err))
    assert "[callout danger]" in text
    assert "label 2 is 'x', which is not a relevance label." in text
    assert "Traceback" not in text and "ValueError" not in text


def test_error_callout_with_a_lead() -> None:
    text = shown(widgets.error_callout(ValueError("the list of labels is empty."), lead="**Cannot compute:**"))
    assert "<strong>Cannot compute:</strong> the list of labels is empty." in text


def test_labels_inputs_carry_the_binding_labels() -> None:
    labels = widgets.labels_input()
    missed = widgets.missed_input("2, 1")
    assert labels.value == "1, 0, 2, 1, 0"  # the lecture example by default
    assert missed.value == "2, 1" and widgets.missed_input().value == ""
    assert "Relevance labels" in shown(labels)
    assert "Judged documents not in the list" in shown(missed)
    assert nc.parse_labels(widgets.labels_input("3, ?, 1").value) == [3, None, 1]


# --------------------------------------------------------------------------- gains and discounts, in words


def test_every_discount_has_a_readable_option_and_no_internal_name_shows() -> None:
    options = widgets.discount_options()
    assert list(options.values()) == list(nc.DISCOUNT_NAMES)  # the stable names underneath, in order
    assert list(options) == [
        "1/log2(i+1)", "1/log2(i+2), shifted", "1/i", "1/log_b(i+1)", "Järvelin–Kekäläinen (base b)", "none (plain CG)",
    ]  # fmt: skip
    for text in options:
        assert "_" not in text.replace("log_b", "")  # no log2_shifted, jarvelin_kekalainen


def test_a_fixed_base_is_written_into_the_option() -> None:
    options = widgets.discount_options(("log", "jarvelin_kekalainen"), base=2)
    assert options == {"1/log_2(i+1)": "log", "Järvelin–Kekäläinen (base 2)": "jarvelin_kekalainen"}


def test_gain_options_keep_the_words_the_playground_binds() -> None:
    assert widgets.gain_options() == {"linear": "linear", "exponential": "exponential", "table": "table"}
    assert widgets.gain_options(("linear", "exponential"), formula=True) == {
        "linear, g(l) = l": "linear", "exponential, g(l) = 2^l - 1": "exponential",
    }  # fmt: skip


@pytest.mark.parametrize("name", nc.DISCOUNT_NAMES)
def test_discount_dropdown_shows_words_and_gives_the_stable_name(name: str) -> None:
    dropdown = widgets.discount_dropdown(name)
    assert dropdown.value == name
    assert dropdown.selected_key == widgets.DISCOUNT_LABELS[name]
    assert "Discount" in shown(dropdown)


def test_gain_dropdown_and_a_subset_of_options() -> None:
    gain = widgets.gain_dropdown("exponential", names=("linear", "exponential"))
    assert gain.value == "exponential" and gain.selected_key == "exponential"
    discount = widgets.discount_dropdown("reciprocal", names=("log2", "reciprocal"))
    assert list(json.loads(html.unescape(re.search(r"data-options='([^']*)'", discount.text).group(1)))) == [
        "1/log2(i+1)", "1/i",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("make", "match"),
    [
        (lambda: widgets.discount_label("cosine"), r"discount must be one of 'log2', 'log2_shifted', .*; got 'cosine'"),
        (lambda: widgets.discount_dropdown("log", names=("log2", "reciprocal")),
         r"value must be one of the discounts offered \('log2', 'reciprocal'\); got 'log'"),
        (lambda: widgets.gain_dropdown("table", names=("linear",)),
         r"value must be one of the gains offered \('linear'\); got 'table'"),
        (lambda: widgets.gain_label("quadratic"), r"gain must be one of 'linear', 'exponential', 'table'; got 'quadratic'"),
    ],
    ids=["unknown-discount", "discount-not-offered", "gain-not-offered", "unknown-gain"],
)
def test_option_errors_name_what_is_offered(make, match: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=match):
        make()


# --------------------------------------------------------------------------- "Check yourself"


def test_check_yourself_heading_says_how_to_answer() -> None:
    text = shown(widgets.check_yourself("Four exercises on gains.", more="Code exercises are in notebook 07."))
    assert "Check yourself</h2>" in text
    assert ("Four exercises on gains. Type your answer and press <strong>Enter</strong> (or <strong>Check</strong>), "
            "or pick an option and press <strong>Check</strong>.") in text
    assert text.index("Notebook 07 collects") < text.index("Code exercises are in notebook 07.")


def test_answer_labels_are_words_and_unique_in_every_chapter() -> None:
    assert widgets.answer_label("lecture-dcg") == "Your answer: DCG@5 of the lecture example"
    for number in exercises.CHAPTERS:
        labels = [widgets.answer_label(ex) for ex in exercises.for_chapter(number)]
        assert len(set(labels)) == len(labels), number
        for ex, label in zip(exercises.for_chapter(number), labels):
            assert ex.id not in label


def test_answer_boxes_hold_a_box_and_a_check_button_keyed_by_id() -> None:
    boxes = widgets.answer_boxes(("lecture-term", "gains-compare"))
    assert boxes.value == {"lecture-term": {"answer": "", "check": 0}, "gains-compare": {"answer": None, "check": 0}}
    text = shown(boxes["lecture-term"]["answer"])
    assert "Your answer: One discounted term" in text
    assert "Check" in shown(boxes["lecture-term"]["check"])
    options = shown(boxes["gains-compare"]["answer"])
    assert "marimo-radio" in options
    for choice in exercises.get("gains-compare").choices:
        assert json.dumps(choice, ensure_ascii=False)[1:-1] in options


def test_answer_box_takes_a_label_and_refuses_code_exercises() -> None:
    assert "Your answer<" in shown(widgets.answer_box("lecture-dcg", label="Your answer")["answer"])
    with pytest.raises(ValueError, match=r"exercise 'code-dcg' is answered with code, not text; use widgets.code_box"):
        widgets.answer_box("code-dcg")
    with pytest.raises(ValueError, match=r"exercise_ids must not repeat an exercise"):
        widgets.answer_boxes(("lecture-dcg", "lecture-dcg"))


class Submitted:
    """Stands in for answer_boxes(...): each exercise's {"answer": ..., "check": presses}."""

    def __init__(self, presses: int = 0, **answers: str | None) -> None:
        self.value = {k: {"answer": v, "check": presses} for k, v in answers.items()}

    def __getitem__(self, ex_id: str) -> object:
        return {"answer": mo.md(f"(answer box of {ex_id})"), "check": mo.md("(Check)")}


def test_exercise_card_before_an_answer_shows_no_feedback() -> None:
    text = shown(widgets.exercise_card(widgets.answer_boxes(("lecture-dcg",)), "lecture-dcg", learner=None))
    assert "DCG@5 of the lecture example" in text
    assert "Your answer: DCG@5 of the lecture example" in text
    assert "Hint 1" in text and "Worked solution" in text
    assert "[callout" not in text and "Not checked yet" in text


def test_exercise_card_confirms_a_right_answer() -> None:
    text = shown(widgets.exercise_card(Submitted(**{"lecture-dcg": f"{DCG_5:.2f}"}), "lecture-dcg", learner=None))
    assert "[callout success] " in text and "Right:" in text
    assert "(answer box of lecture-dcg)" in text


def test_exercise_card_names_a_common_mistake() -> None:
    # natural log instead of log2: 1/ln 2 + 2/ln 4 + 1/ln 5
    from math import log

    wrong = 1 / log(2) + 2 / log(4) + 1 / log(5)
    text = shown(widgets.exercise_card(Submitted(**{"lecture-dcg": f"{wrong:.2f}"}), "lecture-dcg", learner=None))
    assert "[callout warn] " in text
    assert exercises.MISCONCEPTIONS["log-natural"].name in text


def test_check_with_an_empty_box_or_no_option_gets_a_message() -> None:
    assert "The answer box is empty" in shown(widgets.verdict(Submitted(1, **{"lecture-dcg": ""}), "lecture-dcg"))
    assert "No option is chosen" in shown(widgets.verdict(Submitted(1, **{"gains-compare": None}), "gains-compare"))


def test_an_option_changed_after_its_check_is_marked_not_checked() -> None:
    choices = exercises.get("gains-compare").choices
    boxes = Submitted(1, **{"gains-compare": choices[0]})
    assert "Checked answer" in shown(widgets.verdict(boxes, "gains-compare"))
    boxes.value["gains-compare"]["answer"] = choices[1]
    text = shown(widgets.verdict(boxes, "gains-compare"))
    assert "Not checked" in text and "[callout success]" not in text
    boxes.value["gains-compare"]["check"] = 2
    assert "Checked answer" in shown(widgets.verdict(boxes, "gains-compare"))


def test_a_new_box_with_a_dead_boxs_id_starts_unchecked() -> None:
    """CPython reuses the id of a freed object: the new box must not inherit the old one's check."""
    import weakref

    choices = exercises.get("gains-compare").choices
    box = Submitted(0, **{"gains-compare": choices[0]})
    dead = Submitted()
    gone = weakref.ref(dead)
    del dead
    assert gone() is None
    # what a freed box with this id left behind: checked 5 times, with the answer the new box holds
    widgets._CHECKED[(id(box), "gains-compare")] = (gone, 5, choices[0])
    fresh = shown(widgets.verdict(box, "gains-compare"))
    assert "Not checked yet: pick an option and press" in fresh  # as a box nobody has checked
    assert "[callout" not in fresh  # no verdict inherited


def test_a_check_is_logged_for_a_named_learner(tmp_path, monkeypatch) -> None:
    from ndcg_core.infra import progress, store
    monkeypatch.setenv(store.DATA_DIR_ENV, str(tmp_path))
    widgets.verdict(Submitted(**{"lecture-dcg": "3.51"}), "lecture-dcg", learner="ana")
    assert [(c.exercise, c.misconception) for c in progress.history("ana")] == [("lecture-dcg", "log-natural")]
    store.store_path().write_bytes(b"garbage" * 100)
    text = shown(widgets.verdict(Submitted(**{"lecture-dcg": "2.43"}), "lecture-dcg", learner="ana"))
    assert "Progress not saved" in text and "not an NDCG Lab database" in text and "Right:" in text


def test_feedback_callout_and_folded_help() -> None:
    right = shown(widgets.feedback_callout(exercises.check("lecture-ndcg", "0,78")))
    assert "[callout success]" in right
    folded = shown(widgets.folded_help("lecture-ndcg"))
    assert "Hint 1" in folded and "Worked solution" in folded


# --------------------------------------------------------------------------- layers


def test_only_widgets_imports_marimo_and_the_ui_package_is_cheap() -> None:
    """``import ndcg_core.ui`` (and its tables and palette) loads neither marimo nor matplotlib."""
    code = (
        "import sys, ndcg_core.ui, ndcg_core.ui.tables, ndcg_core.ui.palette, ndcg_core.ui.playground; "
        "print(sorted(m for m in ('marimo', 'matplotlib') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_a_checked_answer_is_shown_as_typed_and_escaped_once() -> None:
    raw = widgets.verdict(Submitted(1, **{"lecture-ideal": "2 > 1, <b>1</b>"}), "lecture-ideal").text
    assert "<code>2 &gt; 1, &lt;b&gt;1&lt;/b&gt;</code>" in raw  # the browser shows 2 > 1, <b>1</b>
    assert "<b>1</b>" not in raw  # never as markup


@pytest.mark.parametrize("typed", ['<a href="https://example.org">me</a>', "<img src=x onerror=alert(1)>",
                                   "**bold** _it_ [l](https://e.org)"])
def test_the_name_box_message_shows_what_was_typed_as_text(typed) -> None:
    name, note = widgets.checked_name(typed)
    assert name is None
    html = mo.md(note).text
    assert "<a " not in html and "<img" not in html and "<em>" not in html and "<strong>bold" not in html
    assert "may hold letters, digits, spaces" in html


def test_a_text_verdict_names_its_box_so_the_page_can_mark_it_stale_while_it_is_edited() -> None:
    """While a learner edits a checked answer the old verdict must not look current: it is
    wrapped with its box's object id, and the head script (ui.stale) fades it on typing."""
    from ndcg_core.ui import front, stale

    answers = widgets.answer_boxes(("lecture-dcg",))
    box = answers["lecture-dcg"]["answer"]
    assert stale.ATTRIBUTE not in widgets.verdict(answers, "lecture-dcg").text  # nothing checked: nothing to mark
    answers = widgets.answer_boxes(("lecture-dcg",))
    box = answers["lecture-dcg"]["answer"]
    answers._update({"lecture-dcg": {"answer": "2.43", "check": 1}})
    out = widgets.verdict(answers, "lecture-dcg")
    assert f'{stale.ATTRIBUTE}="{box._id}" {stale.CHECKED}="2.43"' in out.text and "Right:" in out.text
    assert f"object-id='{box._id}'" in box.text  # the id the page's box carries
    assert stale.STALE_HEAD in front.CHROME_HEAD  # the head every notebook page gets
    assert "Not checked: you are editing the answer" in stale.STALE_HEAD


@pytest.mark.parametrize("exercise", exercises.all_exercises(), ids=lambda ex: ex.id)
def test_every_bank_exercise_shows_as_notebook_07_shows_it(exercise: exercises.Exercise) -> None:
    """The pieces 07's cells build for the chosen exercise (heading and statement, answer box or
    code box, the verdict before any check, the help tabs) render for every exercise of the bank.
    The browser test opens one exercise of each chapter and kind (tests/browser/test_exercises_browser.py)."""
    heading = mo.md(f"## {exercise.title}\n\n" + exercises.statement(exercise, with_options=False))
    assert exercise.title in heading.text
    if exercise.kind == "code":
        answer = widgets.code_box(exercise.function)
        shown_answer = mo.vstack([answer["code"], answer["run"]])
        verdict = widgets.code_report(answer, exercise.id, learner=None)
        assert "Not run yet" in shown(verdict)
    else:
        answer = widgets.answer_boxes((exercise.id,), label="Your answer")
        shown_answer = mo.hstack([answer[exercise.id]["answer"], answer[exercise.id]["check"]])
        verdict = widgets.verdict(answer, exercise.id, exercise=exercise, learner=None)
        assert "Not checked yet" in shown(verdict)
    assert "Your answer" in shown(shown_answer) or "Your code" in shown(shown_answer)
    tabs = widgets.help_tabs(exercise)
    assert "Worked solution" in shown(tabs) or "Hint" in shown(tabs)
