"""Chapter 09's numeric P@k and AP exercises: the right value is pytrec_eval's, hand-derived
here too, and the common mistakes are named.
"""

from __future__ import annotations

import pytest

from ndcg_core.teaching import exercises as ex
from ndcg_core.teaching.exercises import binary as exbinary

pytrec_eval = pytest.importorskip("pytrec_eval")

#: exercise id -> (pytrec_eval measure, the value derived by hand)
DERIVED = {
    # labels 2, 0, 1, 0, 3: relevant (>= 1) at ranks 1, 3, 5 -> 3 / 5
    "binary-precision-at-5": ("P_5", 3 / 5),
    # labels 1, 0, 2 and nothing at ranks 4, 5: 2 relevant / k = 5 (trec_eval divides by k)
    "binary-precision-short": ("P_5", 2 / 5),
    # relevant at ranks 2, 3, 5; R = 4 (one relevant document never returned)
    "binary-ap": ("map", (1 / 2 + 2 / 3 + 3 / 5) / 4),
    # map_cut.3: only rank 1 of the top 3 is relevant; the divisor stays R = 4
    "binary-ap-cutoff": ("map_cut_3", (1 / 1) / 4),
}


def pytrec_value(exercise_id: str, measure: str) -> float:
    """The exercise's list and judgments as a TREC run and qrels, scored by pytrec_eval."""
    setting = ex.get(exercise_id).setting
    labels = list(setting.labels)
    run = {"q": {f"d{i}": float(len(labels) - i) for i in range(len(labels))}}  # no ties: file order
    qrels = {"q": {f"d{i}": int(label) for i, label in enumerate(labels)}}
    missed = list(setting.all_judgments)
    for label in labels:
        if label > 0:
            missed.remove(label)  # the run's own relevant documents are among the judgments
    qrels["q"].update({f"missed{i}": int(label) for i, label in enumerate(missed)})
    asked = {"P_5": "P.5", "map": "map", "map_cut_3": "map_cut.3"}[measure]
    return pytrec_eval.RelevanceEvaluator(qrels, {asked}).evaluate(run)["q"][measure]


@pytest.mark.parametrize("exercise_id", sorted(DERIVED))
def test_the_right_value_is_pytrec_evals(exercise_id):
    measure, by_hand = DERIVED[exercise_id]
    right = ex.expected_answer(exercise_id)
    assert right == pytest.approx(by_hand, abs=1e-12)
    assert right == pytest.approx(pytrec_value(exercise_id, measure), abs=1e-9)
    assert ex.check(exercise_id, f"{by_hand:.2f}").correct


@pytest.mark.parametrize("exercise_id, wrong, misconception", [
    # AP divided by the 3 relevant documents found instead of R = 4
    ("binary-ap", (1 / 2 + 2 / 3 + 3 / 5) / 3, "ap-over-retrieved"),
    # AP divided by the 5 documents returned
    ("binary-ap", (1 / 2 + 2 / 3 + 3 / 5) / 5, "ap-over-returned"),
    # precision from the labels' sums: 2/2, 3/3, 4/5 at the relevant ranks
    ("binary-ap", (2 / 2 + 3 / 3 + 4 / 5) / 4, "grades-as-counts"),
    ("binary-ap-cutoff", 1 / 1, "ap-over-retrieved"),
    ("binary-ap-cutoff", 1 / 3, "ap-over-returned"),
    # 2 relevant over the 3 documents returned instead of k = 5
    ("binary-precision-short", 2 / 3, "precision-over-returned"),
    # 2 relevant over R = 4: recall
    ("binary-precision-short", 2 / 4, "precision-as-recall"),
    ("binary-precision-at-5", 3 / 4, "precision-as-recall"),
    # labels summed: (2 + 0 + 1 + 0 + 3) / 5
    ("binary-precision-at-5", 6 / 5, "grades-as-counts"),
])
def test_a_named_mistake(exercise_id, wrong, misconception):
    feedback = ex.check(exercise_id, f"{wrong:.2f}")
    assert not feedback.correct and feedback.misconception == misconception
    assert ex.MISCONCEPTIONS[misconception].hint in feedback.message


def test_percentages_are_read_and_the_worked_solution_shows_the_steps():
    assert ex.check("binary-precision-short", "40 %").correct
    solution = ex.solution("binary-ap")
    assert "1/2, 2/3, 3/5" in solution and "R = 4" in solution and "AP = (1/2 + 2/3 + 3/5) / 4 = 0.4417" in solution
    assert "AP@3 = (1/1) / 4 = 0.25" in ex.solution("binary-ap-cutoff")
    assert "2/5 (the list is shorter, but P@k still divides by k" in ex.solution("binary-precision-short")
    assert "Give P@5 to 2 decimals." in ex.statement("binary-precision-at-5")


def test_at_least_three_binary_numeric_exercises_in_chapter_09():
    binary = [e for e in ex.for_chapter("09") if e.kind == "numeric" and e.asks in exbinary.BINARY_ASKS]
    assert {e.asks for e in binary} == {"precision", "ap"} and len(binary) >= 3


def test_an_unknown_binary_mistake_is_an_error():
    with pytest.raises(ValueError, match="no binary mistake 'x'"):
        exbinary.mistaken_value(ex.get("binary-ap").setting, "x", "ap")
    with pytest.raises(ValueError, match="asks must be one of precision, ap"):
        exbinary.binary_quantity(ex.get("binary-ap").setting, "dcg")
