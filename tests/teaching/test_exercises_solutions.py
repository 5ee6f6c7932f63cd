"""ndcg_core.teaching.exercises: statements, hints, worked solutions, the chapter card, and the
Markdown -> HTML of the printable sheet.
"""

from __future__ import annotations

from math import log2

import pytest

from ndcg_core.teaching import exercises as ex
from ndcg_core.teaching.exercises import Exercise, Setting


def test_notebook_07_runs_headless():
    from notebook_runs import default_run  # one run per session, shared with tests/notebooks

    _, defs = default_run(ex.BANK_PATH.parent.parent / "notebooks" / "07_exercises.py")
    assert defs["exercise"].id == "lecture-dcg"  # opens on the lecture example
    assert defs["answer"].value == {"lecture-dcg": {"answer": "", "check": 0}}  # nothing typed or checked
    assert defs["help_tabs"].value == "Hints and solution folded"  # help starts folded


def test_card_before_an_answer_has_no_feedback():
    card = ex.card("gains-exp-dcg", None)
    assert card.feedback is None
    assert card.statement.startswith("### DCG@5 with exponential gain\n\n")
    assert card.statement.endswith("Give DCG@5 to 2 decimals.")
    assert list(card.folded) == ["Hint 1", "Hint 2", "Worked solution"]
    assert card.folded["Hint 1"] == ex.hints("gains-exp-dcg")[0]
    assert card.folded["Worked solution"] == ex.solution("gains-exp-dcg")


def test_card_checks_the_submitted_answer():
    # exponential gain 2^l - 1 on 1, 0, 2, 1, 0: gains 1, 0, 3, 1, 0
    right = 1 / log2(2) + 3 / log2(4) + 1 / log2(5)
    linear = 1 / log2(2) + 2 / log2(4) + 1 / log2(5)
    good = ex.card("gains-exp-dcg", f"{right:.2f}").feedback
    assert good is not None and good.correct and good.kind == "success"
    bad = ex.card("gains-exp-dcg", f"{linear:.2f}").feedback
    assert bad is not None and not bad.correct and bad.kind == "warn"
    assert bad.misconception == "gain-linear-for-exponential"
    empty = ex.card("gains-exp-dcg", "").feedback
    assert empty is not None and not empty.correct and empty.message.startswith("The answer is empty.")


def test_card_leaves_the_options_to_the_answer_box():
    exercise = ex.get("gains-ratio")
    card = ex.card(exercise, None)
    assert exercise.choices[1] not in card.statement  # the radio buttons show the options
    assert exercise.choices[1] in ex.statement(exercise)
    assert ex.card(exercise, exercise.choices[1]).feedback.correct
    assert not ex.card(exercise, exercise.choices[0]).feedback.correct


def test_card_of_a_code_exercise_never_runs_the_text():
    feedback = ex.card("code-ndcg", "def ndcg(rels, k): return 1").feedback
    assert feedback is not None and not feedback.correct
    assert "Typed text is never run." in feedback.message


def test_statement_without_options_leaves_out_the_lettered_options():
    assert "- A) " in ex.statement("gains-ratio")
    assert "- A) " not in ex.statement("gains-ratio", with_options=False)


def test_hint_items_are_numbered_for_an_accordion():
    assert list(ex.hint_items("lecture-dcg")) == ["Hint 1", "Hint 2", "Hint 3"]


def test_worked_solution_of_the_lecture_dcg_is_written_term_by_term():
    text = ex.solution("lecture-dcg")
    assert "DCG@5 = 1/log2(2) + 0/log2(3) + 2/log2(4) + 1/log2(5) + 0/log2(6) = 1 + 0 + 1 + 0.4307 + 0 = 2.4307" in text
    assert "| 4 | 1 | 1 | 1/log2(5) = 0.4307 | 0.4307 | 2.4307 |" in text
    ndcg_text = ex.solution("lecture-ndcg")
    assert "nDCG@5 = DCG@5 / IDCG@5 = 2.4307 / 3.1309 = 0.7763" in ndcg_text


def test_worked_solutions_name_other_discounts_and_gains():
    assert "1/log2(3) = 0.6309" in ex.solution("discounts-shifted-dcg")  # rank 1 of the shifted discount
    assert "2/3" in ex.solution("discounts-reciprocal-dcg")
    assert "2^2 - 1 = 3" in ex.solution("gains-exp-dcg")
    condensed = ex.solution("unjudged-condensed-ndcg")
    assert "`2, 1, 0`" in condensed


def test_feedback_kind_maps_to_a_callout():
    assert ex.check("lecture-dcg", "2.43").kind == "success"
    assert ex.check("lecture-dcg", "9").kind == "warn"


def test_code_exercise_checked_as_text_explains_edit_mode():
    feedback = ex.check("code-dcg", "def dcg(rels, k): return 0")
    assert not feedback.correct and "ndcg-lab edit" in feedback.message and "never run" in feedback.message


def test_unknown_demo_is_an_error():
    bad = Exercise(id="d", chapter="01", kind="concept", title="t", prompt="p", asks="choice",
                   setting=Setting(labels=(1,)), options=("a", "b"), answer_option=0, demo="movie")
    with pytest.raises(ValueError, match=r"demo must be one of gains, curve"):
        ex.solution(bad)
