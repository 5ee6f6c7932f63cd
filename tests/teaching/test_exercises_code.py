"""ndcg_core.teaching.exercises: a learner's own dcg/ndcg against the checker's battery.
"""

from __future__ import annotations

from math import log, log2

import pytest
from direct_formulas import LECTURE_DCG

from ndcg_core.infra.sandbox import check_code_text
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
    assert case.got == "`'0.78'`" and "return a finite number" in case.problem

    def natural_log(rels, k):
        return sum(rels[i] / log(i + 2) for i in range(min(k, len(rels))))

    case = ex.check_code("code-dcg", natural_log).cases[0]
    assert "natural logarithm" in case.problem


def test_check_code_errors():
    with pytest.raises(ValueError, match=r"exercise_id must name a code exercise .*got 'lecture-dcg' \(numeric\)"):
        ex.check_code("lecture-dcg", exam_dcg)
    with pytest.raises(TypeError, match=r"func must be a function dcg\(rels, k\); got 2\.43 \(float\)"):
        ex.check_code("code-dcg", 2.43)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- what the sandbox says, as the page shows it


def _shown_html(markdown_text: str) -> str:
    """The report as marimo renders it (its own Markdown, with its extensions)."""
    import marimo as mo

    return mo.md(markdown_text).text


def test_a_refused_name_is_shown_as_typed_not_as_markdown():
    report = check_code_text("code-dcg", "def dcg(rels, k):\n    return ().__subclasses__")
    html = _shown_html(report.markdown())
    assert '<code>Line 2: "__subclasses__" is an invalid attribute name because it starts with "_"</code>' in html
    assert "<em>" not in html and "<strong>subclasses" not in html  # not italic, not bold
    assert '"_".. ' not in report.markdown()


def test_the_cpu_limit_message_shows_the_power_as_python_writes_it():
    from ndcg_core.infra import sandbox

    html = _shown_html(sandbox.CPU_MESSAGE)
    assert "<code>10 ** (10 ** 10)</code>" in html
    assert "<sup>" not in html and "10)10))" not in html


@pytest.mark.parametrize("source, where", [
    ("def dcg(rels, k):\n    raise SystemExit", "case"),
    ("raise SystemExit\ndef dcg(rels, k):\n    return 0", "top"),
])
def test_raise_system_exit_is_named_not_reported_as_out_of_memory(source, where):
    report = check_code_text("code-dcg", source)
    text = report.markdown()
    assert "out of memory" not in text and "ran out" not in text
    assert "SystemExit" in text and "return" in text
    if where == "case":
        assert report.cases and all("raised SystemExit. raise SystemExit (or exit()) ends a whole program" in c.problem
                                    for c in report.cases)
    else:
        assert report.message == ("Your code stopped before dcg was defined: `SystemExit`. raise SystemExit (or exit()) "
                                  "ends a whole program; define the function and let it return its result.")


def test_a_constant_return_gets_one_diagnosis_not_a_coincidence_per_case():
    report = check_code_text("code-dcg", "def dcg(rels, k):\n    return 1")
    problems = {c.problem for c in report.failures}
    assert problems == {"returns 1 for every case, whatever rels and k are: the function must compute its result "
                        "from rels, rank by rank up to k (compare the worked solution of the lecture example)."}
    assert "reciprocal" not in report.markdown() and "one rank too many" not in report.markdown()
    # a function that computes something keeps its per-case diagnosis
    from math import log
    natural = ex.check_code("code-dcg", lambda rels, k: sum(rels[i] / log(i + 2) for i in range(min(k, len(rels)))))
    assert any("natural logarithm" in c.problem for c in natural.failures)


def test_what_a_learner_raises_is_shown_as_text():
    report = check_code_text("code-dcg", "def dcg(rels, k):\n    raise ValueError('<img src=x> __x__ | y')")
    html = _shown_html(report.markdown())
    assert "<img" not in html and "<code>&lt;img src=x&gt; __x__ ¦ y</code>" in html
    assert "<strong>x</strong>" not in html and "<em>" not in html
