"""ndcg_core.teaching.exercises: reading typed answers (numbers, choices, ideal orders) and the
messages for answers that cannot be read.
"""

from __future__ import annotations

import re

import pytest

from ndcg_core.teaching import exercises as ex


@pytest.mark.parametrize("text, percent, value, decimals", [
    ("0.78", False, 0.78, 2),
    ("0,78", False, 0.78, 2),
    (" 2.43 ", False, 2.43, 2),
    ("2.4307", False, 2.4307, 4),
    ("3", False, 3.0, 0),
    (".5", False, 0.5, 1),
    ("+1.5", False, 1.5, 1),
    ("\u22121.5", False, -1.5, 1),
    ("≈ 2.43", False, 2.43, 2),
    ("~2.43", False, 2.43, 2),
    ("= 2.43", False, 2.43, 2),
    ("78 %", True, 0.78, 2),
    ("78%", True, 0.78, 2),
    ("77,6 %", True, 0.776, 3),
    ("3/4", False, 0.75, None),
    ("2.43 / 3.13", False, 2.43 / 3.13, None),
    ("1,5/2", False, 0.75, None),
])
def test_parse_number_reads_what_students_type(text, percent, value, decimals):
    parsed = ex.parse_number(text, percent_allowed=percent)
    assert parsed.value == pytest.approx(value)
    assert parsed.decimals == decimals
    assert parsed.percent == text.rstrip().endswith("%")


@pytest.mark.parametrize("text, percent, message", [
    ("", False, r"the answer is empty\. Type a decimal number such as 0\.78"),
    ("   ", True, r"the answer is empty\. Type .*percentage such as 78 %"),
    ("abc", False, r"the answer 'abc' is not a number I can read\. Type a decimal number such as 0\.78"),
    ("0.78 0.79", False, r"is not a number I can read"),
    ("nan", False, r"is not a number I can read"),
    ("inf", False, r"is not a number I can read"),
    ("1e5", False, r"is not a number I can read"),
    ("__import__('os')", False, r"is not a number I can read"),
    ("1,234.5", False, r"mixes a decimal point and a decimal comma"),
    ("3/0", False, r"the fraction '3/0' divides by zero"),
    ("78 %", False, r"is a percentage, but only nDCG .* can be given in percent"),
    ("1" * 300, False, r"the answer is 300 characters long"),
])
def test_parse_number_rejects_other_text_with_the_expected_form(text, percent, message):
    with pytest.raises(ValueError, match=message):
        ex.parse_number(text, percent_allowed=percent)


def test_parse_number_needs_text():
    with pytest.raises(TypeError, match=r"answer must be text; got 0\.78 \(float\)"):
        ex.parse_number(0.78)  # type: ignore[arg-type]


def test_a_long_unreadable_answer_is_shortened_in_the_message():
    message = ex.check("lecture-dcg", "x" * 60).message
    assert "xxx..." in message and "x" * 41 not in message


@pytest.mark.parametrize("answer, message", [
    ("abc", r"^The answer 'abc' is not a number I can read\. Type a decimal number such as 0\.78"),
    ("", r"^The answer is empty"),
    ("243 %", r"^The answer '243 %' is a percentage, but only nDCG"),
])
def test_unreadable_answers_give_the_expected_form_not_a_verdict(answer, message):
    feedback = ex.check("lecture-dcg", answer)
    assert not feedback.correct and feedback.misconception is None
    assert re.search(message, feedback.message)


def test_non_text_answer_is_a_message_not_a_crash():
    feedback = ex.check("lecture-dcg", None)  # type: ignore[arg-type]
    assert not feedback.correct and "must be text" in feedback.message


def test_ndcg_typed_as_a_bare_percentage_asks_for_the_percent_sign():
    feedback = ex.check("lecture-ndcg", "78")
    assert not feedback.correct and feedback.misconception is None
    assert "nDCG lies between 0 and 1" in feedback.message and "78 %" in feedback.message


@pytest.mark.parametrize("answer, index", [
    ("b", 1), ("B", 1), ("B)", 1), ("(b)", 1), ("b.", 1), ("option B", 1),
    ("By 1.5 under linear gain and by 7/3, about 2.33, under exponential gain", 1),
    ("b) by 1.5 under linear gain and by 7/3, about 2.33, under exponential gain.", 1),
    ("  a  ", 0), ("D", 3),
])
def test_multiple_choice_reads_a_letter_or_the_option_text(answer, index):
    feedback = ex.check("gains-ratio", answer)
    assert feedback.correct == (index == 1)


@pytest.mark.parametrize("answer, message", [
    ("E", r"^The answer 'E' is not one of the options \(A\) By 1\.5.*Answer with one letter, A to D"),
    ("", r"^The answer is empty\. Answer with one letter, A to D"),
    ("x" * 500, r"^The answer is 500 characters long"),
])
def test_multiple_choice_rejects_other_text_with_the_expected_form(answer, message):
    feedback = ex.check("gains-ratio", answer)
    assert not feedback.correct and re.search(message, feedback.message)


@pytest.mark.parametrize("answer, right", [
    ("A", True), ("ranking a", True), ("Ranking A", True), ("b", False), ("same", False), ("tie", False),
])
def test_comparison_reads_letters_and_words(answer, right):
    assert ex.check("gains-compare", answer).correct is right


def test_comparison_rejects_other_text():
    feedback = ex.check("gains-compare", "maybe")
    assert re.search(r"^The answer 'maybe' is not one of the options", feedback.message)
    assert ex.check("gains-flip", "yes").correct and not ex.check("gains-flip", "no").correct
    assert ex.check("gains-flip", "perhaps").message.startswith("The answer 'perhaps' is not one of the options")


@pytest.mark.parametrize("answer", ["2, 1, 1", "2 1 1", "2,1,1,0,0", "2;1;1", " 2, 1, 1, 0 "])
def test_ideal_order_accepts_trailing_zeros_and_any_separator(answer):
    assert ex.check("lecture-ideal", answer).correct


@pytest.mark.parametrize("answer, message", [
    ("", r"^Type the ideal order as labels separated by commas"),
    ("2, x, 1", r"^Label 2 is 'x', which is not a relevance label"),
    ("2, -1", r"^Label 2 is '-1', a negative label"),
    ("2 ? 1 1", r"^The ideal list holds judged documents only"),
    ("2, 1", r"^Not right: your list has 1 document\(s\) with label 1, but the query has 2"),
    ("2, 0, 1, 1", r"has a 0 before a relevant label"),
    ("1" * 300, r"characters long"),
])
def test_ideal_order_messages(answer, message):
    feedback = ex.check("lecture-ideal", answer)
    assert not feedback.correct and re.search(message, feedback.message)
