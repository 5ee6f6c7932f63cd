"""ndcg_core.teaching.exercises: each common mistake is named when a wrong answer matches it,
and is not named when its value equals the right one.
"""

from __future__ import annotations

from math import log, log2, log10

from direct_formulas import LECTURE_DCG, LECTURE_IDCG, direct_dcg, make

from ndcg_core.teaching import exercises as ex
from ndcg_core.teaching.exercises import Exercise


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
    # "By 1.5 under either gain: the labels fix the ratio" reads labels as amounts (issue 20's review).
    assert ex.check("gains-ratio", "A").misconception == "labels-are-amounts"
    assert ex.check("ideal-trap-concept", "A").misconception == "ideal-from-run"
    assert ex.check("gains-ratio", "C").misconception == "gain-doubles"  # every wrong option names one


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
