"""Chapter 13's paired exercises: the right values, the named mistakes (derived by hand), the bank's checks."""

from __future__ import annotations

import math

import pytest

from ndcg_core.teaching import exercises as ex
from ndcg_core.teaching.exercises.paired_data import read_scores

# scores A 0.50 0.40 0.70 0.30 0.60, B 0.60 0.55 0.65 0.45 0.70: differences 0.10 0.15 -0.05 0.15 0.10
MEAN = 0.45 / 5
SS = 0.01**2 + 0.06**2 + 0.14**2 + 0.06**2 + 0.01**2  # squared deviations from 0.09: 0.027
S = math.sqrt(SS / 4)
T = MEAN / (S / math.sqrt(5))  # = sqrt(6)
VAR_A = (0**2 + 0.1**2 + 0.2**2 + 0.2**2 + 0.1**2) / 4  # mean 0.50
VAR_B = (0.01**2 + 0.04**2 + 0.06**2 + 0.14**2 + 0.11**2) / 4  # mean 0.59


@pytest.mark.parametrize(
    ("exercise", "typed", "misconception"),
    [
        pytest.param("signif-mean-difference", f"{-MEAN:.3f}", "difference-reversed", id="reversed"),
        pytest.param("signif-mean-difference", "0.450", "sum-not-mean", id="sum"),
        pytest.param("signif-t-by-hand", f"{MEAN / math.sqrt(VAR_A / 5 + VAR_B / 5):.2f}", "unpaired-test", id="unpaired"),
        pytest.param("signif-t-by-hand", f"{-T:.2f}", "difference-reversed", id="t-reversed"),
        pytest.param("signif-t-by-hand", f"{MEAN / (math.sqrt(SS / 5) / math.sqrt(5)):.2f}", "sd-population", id="sd-n"),
        pytest.param("signif-t-by-hand", f"{MEAN / (S / 5):.2f}", "se-without-root", id="s-over-n"),
        pytest.param("signif-t-by-hand", f"{MEAN / S:.2f}", "t-without-se", id="d_z"),
    ],
)
def test_named_mistakes(exercise, typed, misconception):
    feedback = ex.check(exercise, typed)
    assert not feedback.correct and feedback.misconception == misconception
    assert ex.MISCONCEPTIONS[misconception].name in feedback.message


def test_right_values_by_hand():
    assert ex.expected_answer("signif-mean-difference") == pytest.approx(MEAN, abs=1e-12)
    assert ex.expected_answer("signif-t-by-hand") == pytest.approx(math.sqrt(6), rel=1e-9)
    assert T == pytest.approx(math.sqrt(6))
    assert ex.check("signif-t-by-hand", "2.45").correct and ex.check("signif-t-by-hand", "2,449").correct
    assert not ex.check("signif-t-by-hand", "2.44").correct
    assert ex.check("signif-t-by-hand", "seven").misconception is None
    solution = ex.solution("signif-t-by-hand")
    assert "0.1 + 0.15 − 0.05 + 0.15 + 0.1" in solution and "with 4 degrees of freedom" in solution
    assert "Run A, topics 1 to 5: `0.50, 0.40, 0.70, 0.30, 0.60`" in ex.statement("signif-t-by-hand")


def test_mistaken_values_are_listed():
    values = ex.mistaken_values("signif-t-by-hand")
    assert values["t-without-se"] == [pytest.approx(MEAN / S)]
    assert set(values) == {"unpaired-test", "difference-reversed", "sd-population", "se-without-root", "t-without-se"}


@pytest.mark.parametrize(
    ("inputs", "message"),
    [
        ({"scores_a": "0.5"}, "inputs.scores_b must be scores in quotes"),
        ({"scores_a": "0.5, x", "scores_b": "0.1, 0.2"}, "inputs.scores_a must hold numbers separated by commas"),
        ({"scores_a": "0.5, 0.4", "scores_b": "0.1"}, "must give 2 or more topics each, as many; got 2 and 1"),
        ({"scores_a": "0.5, 0.4", "scores_b": "0.1, 0.2", "k": 3}, "inputs has unknown keys"),
    ],
)
def test_bad_scores_are_named(inputs, message):
    with pytest.raises(ValueError, match=message):
        read_scores(inputs)


def test_chapter_13_is_in_the_bank():
    assert ex.CHAPTERS["13"] == "Is run B really better?"
    ids = [e.id for e in ex.for_chapter("13")]
    assert ids[:2] == ["signif-mean-difference", "signif-t-by-hand"] and len(ids) == 7
