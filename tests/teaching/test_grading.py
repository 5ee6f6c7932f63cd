"""The grading rule (checking.grade): right when the answer rounds to the right value at the
asked decimals, extra decimals right too. One table of typed answers, as a student types them.

Hand derivation of the lecture example (labels 1, 0, 2, 1, 0; judgments 2, 1, 1; k = 5; linear
gain; discount 1/log2(i+1)):
  DCG@5  = 1/1 + 0 + 2/2 + 1/log2(5) + 0 = 2 + 0.43068 = 2.43068      -> 2.43
  IDCG@5 = 2/1 + 1/log2(3) + 1/2 = 2 + 0.63093 + 0.5 = 3.13093        -> 3.13
  nDCG@5 = 2.43068 / 3.13093 = 0.776343                               -> 0.78
DCG and IDCG rounded first: 2.43 / 3.13 = 0.776358 -> "0.7764" is right (rounding the steps at
the asked precision), "0.7763" is right (the exact value).
"""

from __future__ import annotations

import pytest

from ndcg_core.teaching import exercises as ex
from ndcg_core.teaching.exercises.checking import grade, intermediate_values, same_at

# (typed, correct, misconception, words in the message)
TABLE = [
    ("0.78", True, None, "Right"),                       # right
    ("0,78", True, None, "Right"),                       # decimal comma
    ("78 %", True, None, "Right"),                       # percentage
    ("0.7763", True, None, "Right"),                     # right with extra digits (exact)
    ("0.77634", True, None, "Right"),                    # more extra digits, exact
    ("0.776", True, None, "Right"),                      # extra digit, exact
    ("0.7764", True, None, "Right"),                     # extra digits from 2.43 / 3.13
    ("2.43/3.13", True, None, "Right"),                  # the division itself
    ("0.7799", False, None, "further decimals are not those of nDCG@5"),  # extra digits disagree
    ("0.7751", False, None, "further decimals are not those of nDCG@5"),
    ("0.7714", False, None, "0.77 to 2 decimals"),       # extra digits rounding to another value
    ("0.772", False, None, "0.77 to 2 decimals"),
    ("0.77", False, "truncated", "cut off, not rounded"),  # truncated
    ("0.8", False, "too-few-decimals", "asks for 2"),    # too few decimals
    ("2.43", False, "no-normalisation", "DCG without normalisation"),
]


@pytest.mark.parametrize("typed, correct, misconception, words", TABLE)
def test_grading_table_lecture_ndcg(typed, correct, misconception, words):
    fb = ex.check("lecture-ndcg", typed)
    assert fb.correct is correct, fb.message
    assert fb.misconception == misconception
    assert words in fb.message


def test_rounded_early_is_named_when_it_changes_the_answer():
    # lecture DCG@5 with terms rounded to 1 decimal: 1 + 1 + 0.4 = 2.4, the exact 2.43068 -> 2.4 too,
    # so look for an exercise where rounding the terms early gives another value at the asked decimals.
    for exercise in ex.all_exercises():
        if exercise.kind != "numeric":
            continue
        early = ex.mistaken_values(exercise).get("rounded-early")
        if early:
            fb = ex.check(exercise, f"{early[0]:.{exercise.precision}f}")
            assert not fb.correct
            assert fb.misconception is not None
            return
    pytest.skip("no bank exercise where early rounding changes the answer")


def test_the_rule_itself():
    # rule 1: rounding at the asked decimals decides; rule 2: extra decimals must be right
    assert grade(0.78, 2, 0.776343, 2).verdict == "right"
    assert grade(1.0, 0, 0.999999, 2).verdict == "right"          # "1" for 1.00
    assert grade(0.7763, 4, 0.776343, 2).verdict == "right-extra"
    assert grade(0.7764, 4, 0.776343, 2).verdict == "extra-wrong"  # without the intermediates
    assert grade(0.7764, 4, 0.776343, 2, intermediate_values("lecture-ndcg")).verdict == "right-extra"
    assert grade(0.772, 3, 0.776343, 2).verdict == "wrong"
    assert grade(2.43 / 3.13, None, 0.776343, 2).verdict == "right"
    # a half-way value: 0.125 is 0.13 (half up) even if float noise makes it 0.12499999999
    assert same_at(0.12499999999999, 0.13, 2)
    assert grade(0.13, 2, 0.12499999999999, 2).correct


def test_dcg_extra_digits():
    # DCG@5 = 2.43068: 2.43 right, 2.4307 right, 2.431 right (2.43068 -> 2.431), 2.4399 extra-wrong
    assert ex.check("lecture-dcg", "2.4307").correct
    assert ex.check("lecture-dcg", "2.431").correct
    assert not ex.check("lecture-dcg", "2.4399").correct


def test_unjudged_fraction_accepts_a_percentage():
    # find a bank exercise asking the unjudged fraction and answer it as a percentage
    found = [e for e in ex.all_exercises() if e.kind == "numeric" and e.asks == "unjudged"]
    if not found:
        pytest.skip("no unjudged-fraction exercise in the bank")
    e = found[0]
    value = ex.expected_answer(e)
    assert ex.check(e, f"{value * 100:.{max(e.precision - 2, 0)}f} %").correct
    wrong = ex.check(e, "0.999" if value < 0.5 else "0.001")
    assert "gain, then discount" not in wrong.message


def test_ideal_leaving_out_missed_documents_is_not_called_unsorted():
    # ideal-order: labels 0, 3, 1, 0, 2, missed 2, 1: ideal 3, 2, 2, 1, 1. "3, 2, 1" is sorted
    fb = ex.check("ideal-order", "3, 2, 1")
    assert fb.misconception == "ideal-from-run"
    assert "unsorted" not in fb.message and "leaves out the judged documents the list missed" in fb.message


def test_the_other_mistake_with_the_same_number_is_named():
    fb = ex.check("lecture-ndcg", "1")
    if "also comes from" in fb.message:
        assert "a different discount)" not in fb.message
