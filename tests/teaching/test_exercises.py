"""ndcg_core.exercises: the bank, answer parsing, checking, misconception diagnosis,
worked solutions and the code checker.

Expected values are written as their hand derivations. ``direct_*`` below recompute
DCG/IDCG/nDCG with plain ``math`` (no ndcg_core), so the bank's answers are checked
against an independent formula.
"""

from __future__ import annotations

import math
import re
from math import log, log2, log10

import pytest

import ndcg_core as nc
from ndcg_core.teaching import exercises as ex
from ndcg_core.teaching.exercises import Exercise, Feedback, Setting
from ndcg_core.teaching.exercises.values import quantity

# --------------------------------------------------------------------------- direct formulas


def direct_gain(label: float, gain: str, table: dict | None = None) -> float:
    if gain == "linear":
        return label
    if gain == "exponential":
        return 2**label - 1
    assert table is not None
    return table[label]


def direct_discount(i: int, discount: str, base: float | None) -> float:
    if discount == "log2":
        return 1 / log2(i + 1)
    if discount == "log2_shifted":
        return 1 / log2(i + 2)
    if discount == "reciprocal":
        return 1 / i
    if discount == "log":
        return log(base or 2) / log(i + 1)
    if discount == "jarvelin_kekalainen":
        b = base or 2
        return 1.0 if i < b else log(b) / log(i)
    assert discount == "none"
    return 1.0


def direct_dcg(labels, k, gain="linear", discount="log2", base=None, unjudged="zero", table=None) -> float:
    if unjudged == "condense":
        run = [x for x in labels if x is not None]
    else:
        run = [0 if x is None else x for x in labels]
    n = len(run) if k is None else min(k, len(run))
    return sum(direct_gain(run[i - 1], gain, table) * direct_discount(i, discount, base) for i in range(1, n + 1))


def direct_scores(s: Setting) -> tuple[float, float, float]:
    table = dict(s.gain_table) if s.gain_table else None
    top = direct_dcg(s.labels, s.k, s.gain, s.discount, s.base, s.unjudged, table)
    if s.ideal == "judgments" and s.all_judgments is not None:
        source = list(s.all_judgments)
    else:
        source = [x for x in s.labels if x is not None]
    ideal = sorted(source, key=lambda x: direct_gain(x, s.gain, table), reverse=True)
    best = direct_dcg(ideal, s.k, s.gain, s.discount, s.base, "zero", table)
    return top, best, (top / best if best > 0 else 0.0)


def make(labels: str, *, asks: str = "dcg", judgments: str | None = None, missed: str | None = None,
         k: int | None = None, precision: int = 2, rank: int | None = None, kind: str = "numeric",
         **setting: object) -> Exercise:
    """A throwaway exercise (check() accepts exercise objects, as the exam does)."""
    s = Setting(
        labels=tuple(nc.parse_labels(labels)),
        judgments=None if judgments is None else tuple(nc.parse_labels(judgments)),
        missed=None if missed is None else tuple(nc.parse_labels(missed)),
        config=nc.NDCGConfig(k=k, **setting),  # type: ignore[arg-type]
    )
    return Exercise(id="test", chapter="01", kind=kind, title="test", prompt="test", asks=asks,
                    setting=s, rank=rank, precision=precision, hints=("hint",))


LECTURE_DCG = 1 / log2(2) + 0 / log2(3) + 2 / log2(4) + 1 / log2(5) + 0 / log2(6)
LECTURE_IDCG = 2 / log2(2) + 1 / log2(3) + 1 / log2(4)


# --------------------------------------------------------------------------- the bank


def test_lecture_exercises_hold_the_lecture_numbers():
    assert ex.expected_answer("lecture-dcg") == pytest.approx(LECTURE_DCG)
    assert ex.expected_answer("lecture-idcg") == pytest.approx(LECTURE_IDCG)
    assert ex.expected_answer("lecture-ndcg") == pytest.approx(LECTURE_DCG / LECTURE_IDCG)
    assert [ex.format_answer(i) for i in ("lecture-dcg", "lecture-idcg", "lecture-ndcg")] == ["2.43", "3.13", "0.78"]


@pytest.mark.parametrize("exercise_id, answer", [
    ("lecture-dcg", "2.43"), ("lecture-idcg", "3.13"), ("lecture-ndcg", "0.78"),
    ("lecture-ndcg", "0,78"), ("lecture-ndcg", " 0.78 "), ("lecture-ndcg", "78 %"), ("lecture-ndcg", "78%"),
    ("lecture-ndcg", "2.43/3.13"), ("lecture-dcg", " 2.43 "), ("lecture-dcg", "≈ 2.43"),
])
def test_lecture_answers_as_typed_in_class_are_right(exercise_id, answer):
    feedback = ex.check(exercise_id, answer)
    assert feedback == Feedback(True, feedback.message, None)
    assert feedback.message.startswith("Right")


def test_every_chapter_has_two_to_six_exercises_and_every_kind_is_used():
    for chapter in ex.CHAPTERS:
        assert 2 <= len(ex.for_chapter(chapter)) <= 6, chapter
    kinds = {e.kind for e in ex.all_exercises()}
    assert kinds == set(ex.KINDS)
    asks = {e.asks for e in ex.all_exercises() if e.kind == "numeric"}
    assert {"dcg", "idcg", "ndcg", "term"} <= asks


def test_concept_exercises_cover_the_four_pitfalls():
    concept_ids = {e.id for e in ex.all_exercises() if e.kind == "concept"}
    assert {"ideal-cutoff", "ideal-trap-concept", "unjudged-condense-rewards", "discounts-base-cancel"} <= concept_ids


BANK = ex.all_exercises()
NUMERIC = [e for e in BANK if e.kind == "numeric"]


@pytest.mark.parametrize("exercise", NUMERIC, ids=lambda e: e.id)
def test_numeric_bank_answers_match_a_direct_formula(exercise):
    s = exercise.setting
    if exercise.asks == "term":
        run = [0 if x is None else x for x in s.labels]
        expected = direct_gain(run[exercise.rank - 1], s.gain) * direct_discount(exercise.rank, s.discount, s.base)
    elif exercise.asks == "unjudged":
        top = s.labels[: s.k]
        expected = sum(x is None for x in top) / len(top)
    else:
        expected = dict(zip(("dcg", "idcg", "ndcg"), direct_scores(s)))[exercise.asks]
    assert ex.expected_answer(exercise) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("exercise", NUMERIC, ids=lambda e: e.id)
def test_numeric_bank_answers_round_unambiguously_and_check_as_right(exercise):
    value = ex.expected_answer(exercise)
    scaled = value * 10**exercise.precision
    # at least a tenth of a unit away from a rounding boundary, so 2-decimal rounding is not a coin toss
    assert abs(scaled - math.floor(scaled) - 0.5) > 0.1, (exercise.id, value)
    assert ex.check(exercise, ex.format_answer(exercise)).correct
    assert ex.check(exercise, f"{value:.6f}").correct


@pytest.mark.parametrize("exercise", BANK, ids=lambda e: e.id)
def test_every_bank_exercise_renders_statement_hints_and_a_solution_with_its_answer(exercise):
    text = ex.statement(exercise.id)
    assert exercise.prompt.strip() in text
    solution = ex.solution(exercise.id)
    if exercise.kind != "code":
        assert ex.hints(exercise.id)
        assert ex.format_answer(exercise) in solution
        assert solution.splitlines()[-1].startswith("**Answer:**")
    for cutoff in re.findall(r"@(\d+)", exercise.title + " " + exercise.prompt) if exercise.kind != "concept" else ():
        assert exercise.setting is not None and int(cutoff) == exercise.setting.k, exercise.id


@pytest.mark.parametrize("exercise", [e for e in BANK if e.kind in ("concept", "comparison")], ids=lambda e: e.id)
def test_choice_exercises_accept_their_answer_by_letter_and_by_text(exercise):
    answer = ex.expected_answer(exercise)
    index = exercise.choices.index(answer)
    assert ex.check(exercise.id, "ABCDEFGH"[index]).correct
    assert ex.check(exercise.id, answer).correct
    assert ex.check(exercise.id, f" {answer.upper()} ").correct
    for other in range(len(exercise.choices)):
        if other != index:
            assert not ex.check(exercise.id, "abcdefgh"[other]).correct


def test_ideal_exercises_answer_the_sorted_judgments():
    assert ex.expected_answer("lecture-ideal") == [2, 1, 1]
    # the list's relevant labels 3, 1, 2 plus the missed 2, 1
    assert ex.expected_answer("ideal-order") == [3, 2, 2, 1, 1]


def test_comparison_answers_follow_the_direct_formula():
    a = direct_dcg([3, 0, 0], 3, "exponential")  # 7
    b = direct_dcg([2, 2, 0], 3, "exponential")  # 3 + 3/log2(3)
    assert a == pytest.approx(7) and b == pytest.approx(3 + 3 / log2(3))
    assert ex.expected_answer("gains-compare") == "Ranking A"
    # linear: 3 against 2 + 2/log2(3) = 3.26, so B wins; exponential: A wins
    assert direct_dcg([2, 2, 0], 3) > direct_dcg([3, 0, 0], 3)
    assert ex.expected_answer("gains-flip") == "Yes, the other ranking wins"


def test_concept_demos_show_what_their_answers_claim():
    base = ex.get("discounts-base-cancel").setting
    ndcgs = {round(nc.ndcg(list(base.labels), 5, judgments=list(base.judgments), discount="log", base=b), 12)
             for b in (2, math.e, 10)}
    assert len(ndcgs) == 1  # nDCG does not depend on the base ...
    dcgs = {round(nc.dcg(list(base.labels), 5, discount="log", base=b), 6) for b in (2, math.e, 10)}
    assert len(dcgs) == 3  # ... DCG does
    cutoff = ex.get("ideal-cutoff").setting
    curve = nc.ndcg_curve(list(cutoff.labels), judgments=list(cutoff.judgments))
    assert curve[2] == pytest.approx(1.0) and curve[9] < curve[2]
    trap = ex.get("ideal-trap-concept").setting
    assert nc.ndcg(list(trap.labels), 3) == 1.0  # ideal from the run: looks perfect
    assert nc.ndcg(list(trap.labels), 3, judgments=list(trap.judgments)) < 1.0
    rewards = ex.get("unjudged-condense-rewards")
    run1 = list(rewards.setting.labels)
    run2 = list(dict(rewards.demo_lists)["run 2"])
    judged = list(rewards.setting.judgments)
    assert nc.ndcg(run1, 5, judgments=judged, unjudged="condense") == nc.ndcg(run2, 5, judgments=judged)
    assert nc.ndcg(run1, 5, judgments=judged) < nc.ndcg(run2, 5, judgments=judged)
    for exercise in BANK:
        if exercise.demo:
            assert "Computed exactly" in ex.solution(exercise.id)


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


# --------------------------------------------------------------------------- parsing


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


# --------------------------------------------------------------------------- misconceptions


def named(exercise: Exercise | str, value: float, digits: int = 2) -> str | None:
    feedback = ex.check(exercise, f"{value:.{digits}f}")
    assert not feedback.correct, feedback
    return feedback.misconception


def coincides(exercise: Exercise | str, misconception: str, value: float, digits: int = 2) -> None:
    """The mistaken value equals the right one: typing it is right and nothing is named."""
    assert misconception not in ex.mistaken_values(exercise)
    feedback = ex.check(exercise, f"{value:.{digits}f}")
    assert feedback.correct and feedback.misconception is None


LECTURE = "1, 0, 2, 1, 0"


def test_exponential_for_linear_gain():
    value = 1 + (2**2 - 1) / log2(4) + 1 / log2(5)  # 2.93
    assert named("lecture-dcg", value) == "gain-exponential-for-linear"
    binary = make("1, 0, 1", judgments="1, 1", k=3)  # 2^1 - 1 = 1: both gains agree
    coincides(binary, "gain-exponential-for-linear", direct_dcg([1, 0, 1], 3, "exponential"))


def test_linear_for_exponential_gain():
    assert named("gains-exp-dcg", LECTURE_DCG) == "gain-linear-for-exponential"
    binary = make("1, 0, 1", judgments="1, 1", k=3, gain="exponential")
    coincides(binary, "gain-linear-for-exponential", direct_dcg([1, 0, 1], 3, "linear"))


def test_natural_log():
    value = 1 / log(2) + 2 / log(4) + 1 / log(5)  # 3.51
    assert named("lecture-dcg", value) == "log-natural"
    # the base cancels out of nDCG, so there the mistake cannot be seen
    coincides("lecture-ndcg", "log-natural", (1 / log(2) + 2 / log(4) + 1 / log(5)) / (2 / log(2) + 1 / log(3) + 1 / log(4)))


def test_base_10_log():
    value = 1 / log10(2) + 2 / log10(4) + 1 / log10(5)  # 8.07
    assert named("lecture-dcg", value) == "log-base10"
    coincides("lecture-ndcg", "log-base10", LECTURE_DCG / LECTURE_IDCG)


def test_log2_of_the_rank_is_the_jarvelin_kekalainen_form():
    value = 1 + 2 / log2(3) + 1 / log2(4)  # rank 1 undiscounted, then 1/log2(i)
    assert named("lecture-dcg", value) == "discount-log2-i"
    top_only = make("2, 0, 0", judgments="2", k=3)  # rank 1 is undiscounted either way
    coincides(top_only, "discount-log2-i", 2.0)


def test_ranks_shifted_by_one():
    value = 1 / log2(3) + 2 / log2(5) + 1 / log2(6)  # 1.88
    assert named("lecture-dcg", value) == "rank-shift"
    nothing = make("0, 0, 0", judgments="1", k=3)  # nothing relevant: every discount gives 0
    coincides(nothing, "rank-shift", 0.0)


def test_another_discount_is_named_with_its_formula():
    value = 1 / 1 + 2 / 3 + 1 / 4  # reciprocal 1/i
    feedback = ex.check("lecture-dcg", f"{value:.2f}")
    assert feedback.misconception == "discount-other" and "reciprocal discount 1/i" in feedback.message
    top_only = make("2, 0, 0", judgments="2", k=3)
    coincides(top_only, "discount-other", 2.0)


def test_unjudged_policy():
    zero = (2 + 1 / log2(4)) / LECTURE_IDCG  # ? kept in place: 0.80
    assert named("unjudged-condensed-ndcg", zero) == "unjudged-policy"
    condensed = (2 + 1 / log2(3)) / LECTURE_IDCG  # 2, 1, 0 after condensing: 0.84
    assert named("unjudged-zero-ndcg", condensed) == "unjudged-policy"
    at_the_end = make("2, 1, ?", asks="ndcg", judgments="2, 1", k=3)  # nothing moves up
    coincides(at_the_end, "unjudged-policy", 1.0)


def test_ideal_from_the_run():
    assert named("ideal-trap-ndcg", 3 / 3) == "ideal-from-run"
    feedback = ex.check("ideal-trap-ndcg", "100 %")
    assert feedback.misconception == "ideal-from-run"
    # the lecture list holds every relevant document, so both ideals agree
    coincides("lecture-ndcg", "ideal-from-run", LECTURE_DCG / LECTURE_IDCG)


def test_unsorted_ideal():
    assert named("lecture-idcg", LECTURE_DCG) == "ideal-unsorted"  # the run order used as the ideal
    as_listed = make("0, 0, 3", asks="idcg", judgments="1, 3", k=3)  # judgments written 1, 3
    assert named(as_listed, 1 + 3 / log2(3)) == "ideal-unsorted"
    already = make("2, 1, 1", asks="idcg", judgments="2, 1, 1", k=3)
    coincides(already, "ideal-unsorted", LECTURE_IDCG)


def test_cutoff_off_by_one():
    exercise = make("1, 0, 2, 1, 3", k=4)
    one_more = 1 + 2 / log2(4) + 1 / log2(5) + 3 / log2(6)
    assert named(exercise, one_more) == "cutoff-off-by-one"
    assert named(exercise, 1 + 2 / log2(4)) == "cutoff-off-by-one"  # one rank too few
    coincides("lecture-dcg", "cutoff-off-by-one", LECTURE_DCG)  # ranks 4 and 6 add nothing new


def test_no_normalisation():
    assert named("lecture-ndcg", LECTURE_DCG) == "no-normalisation"
    unit_ideal = make("1, 0", asks="ndcg", judgments="1", k=2)  # IDCG = 1/log2(2) = 1
    coincides(unit_ideal, "no-normalisation", 1.0)


def test_ratio_inverted():
    assert named("lecture-ndcg", LECTURE_IDCG / LECTURE_DCG) == "ratio-inverted"
    perfect = make("2, 1", asks="ndcg", judgments="2, 1", k=2)
    coincides(perfect, "ratio-inverted", 1.0)


def test_rounded_early():
    exercise = make("1, 0, 0, 2, 2", judgments="2, 2, 1", k=5)
    exact = 1 + 2 / log2(5) + 2 / log2(6)  # 2.6351 -> 2.64
    rounded_terms = 1.00 + 0.86 + 0.77  # each term rounded first: 2.63
    assert round(exact, 2) == 2.64
    assert named(exercise, rounded_terms) == "rounded-early"
    exact_terms = make("2, 0, 2", judgments="2, 2", k=3)  # 2/log2(2) + 2/log2(4) = 3 exactly
    coincides(exact_terms, "rounded-early", 2.00 + 1.00)


def test_truncated():
    feedback = ex.check("lecture-ndcg", "0.77")  # 0.7763 cut off
    assert feedback.misconception == "truncated"
    exact = make("2, 0, 2", judgments="2, 2", k=3)  # 3.0: cutting off and rounding agree
    feedback = ex.check(exact, "3.00")
    assert feedback.correct and feedback.misconception is None


def test_too_few_decimals():
    feedback = ex.check("lecture-dcg", "2.4")
    assert feedback.misconception == "too-few-decimals" and "asks for 2" in feedback.message
    assert ex.check("runs-ndcg-cut", f"{ex.expected_answer('runs-ndcg-cut'):.2f}").misconception == "too-few-decimals"
    # enough decimals: not this mistake
    assert ex.check("lecture-dcg", "2.43").misconception is None
    # a whole number is not read as "right to 0 decimals"
    assert ex.check("lecture-ndcg", "1").misconception != "too-few-decimals"


def test_ideal_ascending():
    assert ex.check("lecture-ideal", "1, 1, 2").misconception == "ideal-ascending"
    single = make("0, 2", asks="ideal", judgments="2", kind="ideal")  # one relevant document: no order to get wrong
    feedback = ex.check(single, "2")
    assert feedback.correct and feedback.misconception is None


def test_ideal_order_from_the_run_and_in_run_order():
    assert ex.check("ideal-order", "3, 2, 1").misconception == "ideal-from-run"
    assert ex.check("lecture-ideal", "1, 0, 2, 1, 0").misconception == "ideal-unsorted"
    assert ex.check("ideal-order", "3, 1, 2, 2, 1").misconception == "ideal-unsorted"


def test_comparison_names_the_gain_mistake():
    feedback = ex.check("gains-compare", "B")
    assert feedback.misconception == "gain-linear-for-exponential"


def test_concept_options_can_name_a_misconception():
    assert ex.check("gains-ratio", "A").misconception == "gain-linear-for-exponential"
    assert ex.check("ideal-trap-concept", "A").misconception == "ideal-from-run"
    assert ex.check("gains-ratio", "C").misconception is None


def test_a_wrong_answer_matching_no_mistake_names_none():
    feedback = ex.check("lecture-dcg", "2.20")
    assert not feedback.correct and feedback.misconception is None
    assert "matches none of the usual mistakes" in feedback.message


def test_ties_between_mistakes_prefer_the_registry_order_and_mention_the_other():
    # nDCG = 1 comes from the run order as ideal and from no discount at all (CG = 4 = ICG)
    feedback = ex.check("lecture-ndcg", "1.00")
    assert feedback.misconception == "ideal-unsorted"
    assert "also comes from a different discount" in feedback.message


def test_every_misconception_has_a_name_and_a_hint():
    for m in ex.MISCONCEPTIONS.values():
        assert m.name and m.hint.endswith(".")


# --------------------------------------------------------------------------- code exercises


def exam_dcg(rels, k):
    return sum(rels[i] / log2(i + 2) for i in range(min(k, len(rels))))


def exam_ndcg(rels, k):
    ideal = sorted(rels, reverse=True)
    return exam_dcg(rels, k) / exam_dcg(ideal, k)


def test_the_exam_dcg_passes_every_case():
    report = ex.check_code("code-dcg", exam_dcg)
    assert report.passed and report.failures == []
    assert len(report.cases) == 8
    lecture = report.cases[0]
    assert lecture.expected == pytest.approx(LECTURE_DCG)
    assert "8 of 8 cases pass" in report.markdown()


def test_the_exam_ndcg_crashes_on_lists_without_a_relevant_document():
    report = ex.check_code("code-ndcg", exam_ndcg)
    failing = {case.what: case for case in report.failures}
    assert set(failing) == {"all zeros (IDCG = 0)", "an empty list"}
    case = failing["all zeros (IDCG = 0)"]
    assert case.call == "ndcg([0, 0, 0], 3)" and case.expected == 0.0 and case.got == "an error"
    assert case.problem.startswith("raised ZeroDivisionError") and "defined as 0" in case.problem
    text = report.markdown()
    assert "6 of 8 cases pass" in text and "`ndcg([0, 0, 0], 3)`" in text


def test_a_fixed_ndcg_passes():
    def ndcg(rels, k):
        best = exam_dcg(sorted(rels, reverse=True), k)
        return exam_dcg(rels, k) / best if best > 0 else 0.0

    assert ex.check_code("code-ndcg", ndcg).passed


def test_code_mistakes_are_reported_with_input_expected_and_got():
    def zero_based(rels, k):  # 1/log2(i + 1) with a 0-based i: log2(1) = 0 at rank 1
        return sum(rels[i] / log2(i + 1) for i in range(min(k, len(rels))))

    report = ex.check_code("code-dcg", zero_based)
    lecture = report.cases[0]
    assert not lecture.passed and "ZeroDivisionError" in lecture.problem and "log2(i + 2)" in lecture.problem

    def shifted(rels, k):  # 1-based rank with the exam's i + 2
        return sum(rels[i - 1] / log2(i + 2) for i in range(1, min(k, len(rels)) + 1))

    case = ex.check_code("code-dcg", shifted).cases[0]
    assert case.got == f"{1 / log2(3) + 2 / log2(5) + 1 / log2(6):.4f}" and "every rank shifted by one" in case.problem

    def no_cutoff_guard(rels, k):
        return sum(rels[i] / log2(i + 2) for i in range(k))

    beyond = {c.what: c for c in ex.check_code("code-dcg", no_cutoff_guard).failures}
    assert "IndexError" in beyond["k beyond the end of the list"].problem
    assert "min(k, len(rels))" in beyond["k beyond the end of the list"].problem

    def sorts_in_place(rels, k):
        rels.sort(reverse=True)
        return 1.0

    case = ex.check_code("code-ndcg", sorts_in_place).cases[0]
    assert "changed the list it was given" in case.problem

    def returns_text(rels, k):
        return "0.78"

    case = ex.check_code("code-dcg", returns_text).cases[0]
    assert case.got == "'0.78'" and "return a finite number" in case.problem

    def natural_log(rels, k):
        return sum(rels[i] / log(i + 2) for i in range(min(k, len(rels))))

    case = ex.check_code("code-dcg", natural_log).cases[0]
    assert "natural logarithm" in case.problem


def test_check_code_errors():
    with pytest.raises(ValueError, match=r"exercise_id must name a code exercise .*got 'lecture-dcg' \(numeric\)"):
        ex.check_code("lecture-dcg", exam_dcg)
    with pytest.raises(TypeError, match=r"func must be a function dcg\(rels, k\); got 2\.43 \(float\)"):
        ex.check_code("code-dcg", 2.43)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- lookup and the bank file


def test_lookup_errors():
    with pytest.raises(ValueError, match=r"exercise_id must be the id of an exercise in the bank; got 'nope'"):
        ex.get("nope")
    with pytest.raises(ValueError, match=r"exercise_id must be the id .*; got 3"):
        ex.check(3, "1")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"chapter must be one of '01', .*; got '2'\. Chapters are numbered with two digits"):
        ex.for_chapter("2")


def test_load_bank_reads_the_default_and_a_path():
    assert list(ex.load_bank()) == [e.id for e in BANK]
    assert list(ex.load_bank(ex.BANK_PATH)) == [e.id for e in BANK]


GOOD = """
[[exercise]]
id = "t-1"
chapter = "01"
kind = "numeric"
asks = "dcg"
title = "t"
prompt = "p"
hints = ["h"]
[exercise.inputs]
labels = "1, 0"
"""


@pytest.mark.parametrize("change, message", [
    (("asks = \"dcg\"", "asks = \"map\""), r"exercise 1 \('t-1'\): asks must be one of dcg, idcg, ndcg, term, unjudged for a numeric exercise; got 'map'"),
    (("kind = \"numeric\"", "kind = \"essay\""), r"kind must be one of numeric, ideal, comparison, concept, code; got 'essay'"),
    (("chapter = \"01\"", "chapter = \"7\""), r"chapter must be one of 01, 02, 03, 04, 05, 06; got '7'"),
    (("id = \"t-1\"", "id = \"T 1\""), r"id must be lowercase words joined by hyphens"),
    (("id = \"t-1\"", "id = \"\""), r"id must be a non-empty text; got ''"),
    (("title = \"t\"", "title = 3"), r"title must be a non-empty text; got 3"),
    (("hints = [\"h\"]", "hints = []"), r"hints must hold at least one hint"),
    (("hints = [\"h\"]", "hints = \"h\""), r"hints must be a list of texts; got 'h'"),
    (("hints = [\"h\"]", "hints = [\"h\"]\nprecision = 0"), r"precision must be a positive whole number; got 0"),
    (("hints = [\"h\"]", "hints = [\"h\"]\ncolour = 1"), r"unknown keys \['colour'\]"),
    (("labels = \"1, 0\"", "labels = \"1, x\""), r"inputs\.labels: label 2 is 'x'"),
    (("labels = \"1, 0\"", "labels = [1, 0]"), r"inputs\.labels must be typed labels in quotes"),
    (("labels = \"1, 0\"", "labels = \"1, 0\"\nk = 0"), r"inputs\.k must be a positive whole number; got 0"),
    (("labels = \"1, 0\"", "labels = \"1, 0\"\nspeed = 1"), r"inputs has unknown keys \['speed'\]"),
    (("labels = \"1, 0\"", "labels = \"1, 0\"\njudgments = \"1\"\nmissed = \"1\""), r"gives both judgments and missed"),
    (("labels = \"1, 0\"", "labels = \"1, 0\"\njudgments = \"1, ?\""), r"inputs\.judgments must not hold \?"),
    (("labels = \"1, 0\"", "labels = \"1, 0\"\ngain = \"cubic\""), r"inputs do not make a valid configuration: gain must be one of"),
    (("labels = \"1, 0\"", "labels = \"1, 0\"\ngain = \"table\"\ngain_table = \"1\""), r"inputs\.gain_table: gain table entry 1 must look like label:gain"),
    (("labels = \"1, 0\"", "labels = \"3, 0\"\njudgments = \"1\""), r"inputs do not make a valid configuration: judgments must list every judged document"),
    (("labels = \"1, 0\"", "k = 2"), r"inputs\.labels is missing"),
    (("[exercise.inputs]\nlabels = \"1, 0\"", ""), r"a numeric exercise needs an \[inputs\] table"),
    (("asks = \"dcg\"", "asks = \"term\""), r"a term exercise needs a rank between 1 and 2; got None"),
])
def test_bank_errors_name_the_entry_and_the_problem(tmp_path, change, message):
    old, new = change
    assert old in GOOD
    path = tmp_path / "bank.toml"
    path.write_text(GOOD.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ValueError, match=r"bank\.toml, exercise 1.*" + message if "exercise 1" not in message else message):
        ex.load_bank(path)


def test_a_term_exercise_counts_the_ranks_of_the_condensed_list(tmp_path):
    path = tmp_path / "bank.toml"
    path.write_text(GOOD.replace('asks = "dcg"', 'asks = "term"\nrank = 2').replace(
        'labels = "1, 0"', 'labels = "1, ?"\nunjudged = "condense"'), encoding="utf-8")
    with pytest.raises(ValueError, match=r"a term exercise needs a rank between 1 and 1; got 2"):
        ex.load_bank(path)


CONCEPT = """
[[exercise]]
id = "c-1"
chapter = "02"
kind = "concept"
title = "t"
prompt = "p"
hints = ["h"]
options = ["yes", "no"]
answer = "A"
"""


@pytest.mark.parametrize("change, message", [
    (("answer = \"A\"", "answer = \"C\""), r"answer must be one letter A to B; got 'C'"),
    (("options = [\"yes\", \"no\"]", "options = [\"yes\"]"), r"a concept exercise needs 2 to 8 options; got 1"),
    (("answer = \"A\"", "answer = \"A\"\noption_notes = [\"x\"]"), r"option_notes must have one note per option \(2\); got 1"),
    (("answer = \"A\"", "answer = \"A\"\noption_misconceptions = [\"guessing\", \"\"]"), r"option_misconceptions names 'guessing'"),
    (("answer = \"A\"", "answer = \"A\"\noption_misconceptions = \"x\""), r"option_misconceptions must be a list"),
    (("answer = \"A\"", "answer = \"A\"\ndemo = \"curve\""), r"a demo needs an \[inputs\] table"),
    (("answer = \"A\"", "answer = \"A\"\ndemo = \"movie\""), r"demo must be one of gains, curve"),
    (("answer = \"A\"", "answer = \"A\"\ndemo_lists = 3"), r"demo_lists must be a table"),
])
def test_concept_bank_errors(tmp_path, change, message):
    old, new = change
    path = tmp_path / "bank.toml"
    path.write_text(CONCEPT.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ValueError, match=r"exercise 1 \('c-1'\): " + message):
        ex.load_bank(path)


def test_bank_file_errors(tmp_path):
    with pytest.raises(ValueError, match=r"exercise bank .*missing\.toml does not exist"):
        ex.load_bank(tmp_path / "missing.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("[[exercise]\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"exercise bank .*broken\.toml is not valid TOML"):
        ex.load_bank(broken)
    empty = tmp_path / "empty.toml"
    empty.write_text("title = 'x'\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"must hold \[\[exercise\]\] entries; found none"):
        ex.load_bank(empty)
    twice = tmp_path / "twice.toml"
    twice.write_text(GOOD + GOOD, encoding="utf-8")
    with pytest.raises(ValueError, match=r"twice\.toml, exercise 2: id 't-1' is used twice"):
        ex.load_bank(twice)
    comparison = tmp_path / "comparison.toml"
    comparison.write_text(GOOD.replace('kind = "numeric"', 'kind = "comparison"').replace('asks = "dcg"', 'asks = "higher"'),
                          encoding="utf-8")
    with pytest.raises(ValueError, match=r"a comparison exercise needs inputs\.labels_b"):
        ex.load_bank(comparison)
    inputs = tmp_path / "inputs.toml"
    inputs.write_text(GOOD.replace('[exercise.inputs]\nlabels = "1, 0"', 'inputs = 3'), encoding="utf-8")
    with pytest.raises(ValueError, match=r"inputs must be a table of settings"):
        ex.load_bank(inputs)


def test_unknown_quantity_is_an_error():
    with pytest.raises(ValueError, match=r"asks must be one of dcg, idcg, ndcg, term, unjudged; got 'map'"):
        quantity(Setting(labels=(1, 0)), "map")


def test_unknown_demo_is_an_error():
    bad = Exercise(id="d", chapter="01", kind="concept", title="t", prompt="p", asks="choice",
                   setting=Setting(labels=(1,)), options=("a", "b"), answer_option=0, demo="movie")
    with pytest.raises(ValueError, match=r"demo must be one of gains, curve"):
        ex.solution(bad)


# --------------------------------------------------------------------------- markdown -> html


def test_markdown_to_html_escapes_text_and_renders_the_subset():
    out = ex.markdown_to_html("Hello <script>alert(1)</script> **bold** `code`\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | <2> |")
    assert "<script>" not in out and "&lt;script&gt;" in out
    assert "<strong>bold</strong>" in out and "<code>code</code>" in out
    assert "<ul><li>one</li><li>two</li></ul>" in out
    assert "<th>a</th>" in out and "<td>&lt;2&gt;</td>" in out


def test_notebook_07_runs_headless():
    import importlib.util

    path = ex.BANK_PATH.parent.parent / "notebooks" / "07_exercises.py"
    spec = importlib.util.spec_from_file_location("notebook_07", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    _, defs = module.app.run()
    assert defs["exercise"].id == "lecture-dcg"  # opens on the lecture example
    assert defs["answer_form"].value is None  # nothing checked until Check is pressed


# --------------------------------------------------------------------------- a chapter's exercise card


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
