"""ndcg_core.teaching.exercises: a learner's own dcg/ndcg against the checker's battery.
"""

from __future__ import annotations

from math import log, log2

import pytest
from direct_formulas import LECTURE_DCG

from ndcg_core.teaching import exercises as ex


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
