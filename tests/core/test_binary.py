"""ndcg_core.binary: precision at k and average precision with trec_eval's conventions.

Every expected value is written as its hand derivation. pytrec_eval (trec_eval's C code)
is the oracle for the conventions: P@k divides by k, AP divides by the number of relevant
judged documents, a label at or above the relevance level counts as relevant.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ndcg_core as nc
from ndcg_core.binary import average_precision, binarise, num_relevant, precision

LECTURE = [1, 0, 2, 1, 0]
LECTURE_JUDGMENTS = [2, 1, 1]


@pytest.mark.parametrize("labels, k, threshold, expected", [
    pytest.param(LECTURE, 5, 1, 3 / 5, id="lecture-p5"),
    pytest.param(LECTURE, 1, 1, 1 / 1, id="lecture-p1"),
    pytest.param(LECTURE, 2, 1, 1 / 2, id="lecture-p2"),
    pytest.param(LECTURE, 5, 2, 1 / 5, id="lecture-p5-threshold-2"),
    pytest.param([3, 0], 4, 1, 1 / 4, id="shorter-than-k-divides-by-k"),
    pytest.param([1, None, 2], 3, 1, 2 / 3, id="unjudged-not-relevant"),
    pytest.param(LECTURE, None, 1, 3 / 5, id="whole-list"),
    pytest.param([], None, 1, 0.0, id="empty"),
    pytest.param([0.5, 1.5], 2, 1, 1 / 2, id="fractional-labels"),
])
def test_precision_hand_values(labels, k, threshold, expected):
    assert precision(labels, k, threshold=threshold) == pytest.approx(expected, abs=1e-15)


@pytest.mark.parametrize("labels, k, judgments, threshold, expected", [
    # relevant at ranks 1, 3, 4: precisions 1/1, 2/3, 3/4; R = 3
    pytest.param(LECTURE, None, LECTURE_JUDGMENTS, 1, (1 / 1 + 2 / 3 + 3 / 4) / 3, id="lecture"),
    # threshold 2: only rank 3 is relevant, precision 1/3; R = 1 (one judged label >= 2)
    pytest.param(LECTURE, None, LECTURE_JUDGMENTS, 2, (1 / 3) / 1, id="lecture-threshold-2"),
    # one of three relevant found at rank 1: 1/1 divided by R = 3
    pytest.param([3], None, [3, 3, 2], 1, 1 / 3, id="missed-documents-count-in-R"),
    # the cutoff: ranks 1..3 only, precisions 1/1 and 2/3, divisor still R = 3 (map_cut)
    pytest.param(LECTURE, 3, LECTURE_JUDGMENTS, 1, (1 / 1 + 2 / 3) / 3, id="map-cut-3"),
    # judgments=None: R = relevant documents of the list itself
    pytest.param([0, 1, 0, 1], None, None, 1, (1 / 2 + 2 / 4) / 2, id="ideal-from-the-list"),
    pytest.param([0, 0], None, [0, 0], 1, 0.0, id="nothing-relevant"),
    pytest.param([0, None, 2], None, [2, 1], 1, (1 / 3) / 2, id="unjudged-keeps-its-rank"),
    # relevant at 10 vs at 100: 1/10 vs 1/100 (R = 1)
    pytest.param([0] * 9 + [1], None, [1], 1, 1 / 10, id="rank-10"),
    pytest.param([0] * 99 + [1], None, [1], 1, 1 / 100, id="rank-100"),
])
def test_average_precision_hand_values(labels, k, judgments, threshold, expected):
    assert average_precision(labels, k, judgments=judgments, threshold=threshold) == pytest.approx(expected, abs=1e-15)


def test_swapping_two_relevant_documents_moves_ndcg_but_not_p_or_ap():
    """C34/C35: best answer (3) at rank 4 and a lesser one (1) at rank 1, and the reverse."""
    a, b = [1, 0, 0, 3, 0], [3, 0, 0, 1, 0]
    judged = [3, 1]
    assert precision(a, 5) == precision(b, 5) == 2 / 5
    assert average_precision(a, judgments=judged) == average_precision(b, judgments=judged) == (1 / 1 + 2 / 4) / 2
    assert nc.ndcg(a, 5, judgments=judged) < nc.ndcg(b, 5, judgments=judged)
    # the gap grows with the top label's weight: exponential prices the 3 at 7
    gap_lin = nc.ndcg(b, 5, judgments=judged) - nc.ndcg(a, 5, judgments=judged)
    gap_exp = (nc.ndcg(b, 5, judgments=judged, gain="exponential")
               - nc.ndcg(a, 5, judgments=judged, gain="exponential"))
    assert gap_exp > gap_lin > 0


def test_binarise_and_num_relevant():
    assert binarise([3, 1, 0, None, 2], threshold=2) == [1, 0, 0, 0, 1]
    assert num_relevant([2, 1, 1, 0]) == 3
    assert num_relevant([2, 1, 1, 0], threshold=2) == 1


@pytest.mark.parametrize("call, error, message", [
    pytest.param(lambda: precision([1], 0), ValueError, r"^k must be a positive int", id="k-zero"),
    pytest.param(lambda: precision([1], 2, threshold=0), ValueError,
                 r"^threshold must be a number above 0; got threshold=0\. A label 0 is never relevant", id="t0"),
    pytest.param(lambda: precision([1], 2, threshold="1"), TypeError, r"^threshold must be a number above 0", id="t-str"),
    pytest.param(lambda: precision([1, -1], 2), ValueError, r"labels\[1\] must be a non-negative number", id="neg"),
    pytest.param(lambda: average_precision([1, 1], judgments=[1]), ValueError,
                 r"^judgments must hold every relevant document of the list", id="judgments-short"),
])
def test_errors_name_the_problem_and_the_fix(call, error, message):
    with pytest.raises(error, match=message):
        call()


labels_st = st.lists(st.one_of(st.none(), st.integers(0, 3)), max_size=30)


@settings(max_examples=200, deadline=None)
@given(labels_st, st.integers(1, 40), st.integers(1, 3))
def test_properties(labels, k, threshold):
    p = precision(labels, k, threshold=threshold)
    ap = average_precision(labels, judgments=[x for x in labels if x is not None], threshold=threshold)
    assert 0.0 <= p <= 1.0
    assert 0.0 <= ap <= 1.0
    # binary measures only see the binarised list
    flat = binarise(labels, threshold)
    assert precision(flat, k) == p
    assert average_precision(flat, judgments=flat) == pytest.approx(ap, abs=1e-12)


pytrec_eval = pytest.importorskip("pytrec_eval")


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(-1, 3), min_size=1, max_size=25), st.lists(st.integers(0, 3), max_size=6),
       st.integers(1, 3))
def test_agrees_with_pytrec_eval(run_labels, missed, level):
    """trec_eval's P_5, P_10, map and map_cut_10 on one topic; a -1 qrels label is unjudged."""
    docs = [f"d{i:02d}" for i in range(len(run_labels))]
    qrels = {"q": {doc: lab for doc, lab in zip(docs, run_labels)}}
    qrels["q"].update({f"m{i}": lab for i, lab in enumerate(missed)})
    run = {"q": {doc: float(len(docs) - i) for i, doc in enumerate(docs)}}
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"P_5", "P_10", "map", "map_cut_10"}, relevance_level=level)
    got = evaluator.evaluate(run).get("q")
    if got is None:
        return
    ours = [None if x < 0 else x for x in run_labels]
    judged = [x for x in list(run_labels) + list(missed) if x >= 0]
    assert precision(ours, 5, threshold=level) == pytest.approx(got["P_5"], abs=1e-12)
    assert precision(ours, 10, threshold=level) == pytest.approx(got["P_10"], abs=1e-12)
    assert average_precision(ours, judgments=judged, threshold=level) == pytest.approx(got["map"], abs=1e-12)
    assert average_precision(ours, 10, judgments=judged, threshold=level) == pytest.approx(got["map_cut_10"], abs=1e-12)
