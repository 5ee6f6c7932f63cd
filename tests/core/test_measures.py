"""R-precision, bpref and MAP of ndcg_core.binary, with trec_eval 10.0's conventions.

Expected values are written as their hand derivations. pytrec_eval (trec_eval's C code) is
the oracle: 'Rprec', 'bpref' and 'map' on random topics with unjudged documents (absent from
the qrels, or labelled -1: in the pool but unjudged), missed judged documents and every
relevance threshold.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ndcg_core as nc
from ndcg_core.binary import average_precision, binarise, bpref, mean_average_precision, r_precision

LECTURE = [1, 0, 2, 1, 0]
LECTURE_JUDGMENTS = [2, 1, 1]


@pytest.mark.parametrize("labels, judgments, threshold, expected", [
    # R = 3 (judged 2, 1, 1); top 3 = 1, 0, 2: two relevant
    pytest.param(LECTURE, LECTURE_JUDGMENTS, 1, 2 / 3, id="lecture"),
    # threshold 2: R = 1 (only the 2); top 1 = label 1, not relevant at 2
    pytest.param(LECTURE, LECTURE_JUDGMENTS, 2, 0 / 1, id="lecture-threshold-2"),
    # R = 4, the list holds 2 documents, both relevant: divisor stays R
    pytest.param([2, 1], [2, 1, 1, 1], 1, 2 / 4, id="shorter-than-R"),
    # no relevant judgment: R = 0 gives 0
    pytest.param([0, 0], [0, 0], 1, 0.0, id="R-zero"),
    # judgments=None: R from the list itself (2 relevant); top 2 = 0, 1
    pytest.param([0, 1, 1], None, 1, 1 / 2, id="judgments-from-the-list"),
    # an unjudged document counts as not relevant: R = 2, top 2 = ?, 1
    pytest.param([None, 1, 1], [1, 1], 1, 1 / 2, id="unjudged-not-relevant"),
    # perfect ranking: all R relevant on top
    pytest.param([3, 2, 1, 0], [3, 2, 1, 0, 0], 1, 3 / 3, id="perfect"),
])
def test_r_precision_hand_values(labels, judgments, threshold, expected):
    assert r_precision(labels, judgments=judgments, threshold=threshold) == pytest.approx(expected, abs=1e-15)


@pytest.mark.parametrize("labels, judgments, threshold, expected", [
    # R = 3, N = 2. Relevant at ranks 1, 3, 4 with 0, 1, 1 judged non-relevant above:
    # (1 + (1 - 1/min(2, 3)) + (1 - 1/min(2, 3))) / 3
    pytest.param(LECTURE, [2, 1, 1, 0, 0], 1, (1 + (1 - 1 / 2) + (1 - 1 / 2)) / 3, id="lecture"),
    # the same judged documents with unjudged ones in between: unjudged are skipped
    pytest.param([1, None, 0, None, 2, 1, 0], [2, 1, 1, 0, 0], 1, (1 + 1 / 2 + 1 / 2) / 3, id="unjudged-skipped"),
    # R = 1, N = 5: 3 non-relevant above the relevant one: 1 - min(3, 1)/min(5, 1) = 0
    pytest.param([0, 0, 0, 1], [1, 0, 0, 0, 0, 0], 1, 1 - 1 / 1, id="at-most-R-nonrelevant-count"),
    # R = 3, N = 1: one non-relevant above two of them: 1 + (1 - 1/1) + (1 - 1/1), / 3
    pytest.param([1, 0, 1, 1], [1, 1, 1, 0], 1, (1 + 0 + 0) / 3, id="divisor-min-R-N"),
    # R = 2, N = 4, one relevant never returned (adds 0, counts in R)
    pytest.param([0, 2], [2, 1, 0, 0, 0, 0], 1, (1 - 1 / 2) / 2, id="missed-relevant"),
    # no judged non-relevant document at all: every relevant one adds 1
    pytest.param([1, None, 1], [1, 1, 1], 1, (1 + 1) / 3, id="N-zero"),
    # threshold 2: label 1 counts as non-relevant. R = 1 (the 2), N = 4 (1, 1, 0, 0);
    # the 2 at rank 3 has two non-relevant above: 1 - min(2, 1)/min(4, 1)
    pytest.param(LECTURE, [2, 1, 1, 0, 0], 2, 1 - 1 / 1, id="threshold-2"),
    pytest.param([0, 0], [0, 0], 1, 0.0, id="R-zero"),
    pytest.param([], [1, 0], 1, 0.0, id="empty-list"),
])
def test_bpref_hand_values(labels, judgments, threshold, expected):
    assert bpref(labels, judgments=judgments, threshold=threshold) == pytest.approx(expected, abs=1e-15)


def test_bpref_differs_from_ap_when_documents_are_unjudged():
    """AP counts an unjudged document as not relevant; bpref skips it."""
    complete = [1, 0, 1]
    holes = [None, None, 1, 0, 1]  # two unjudged documents on top
    judged = [1, 1, 0]
    assert bpref(holes, judgments=judged) == bpref(complete, judgments=judged)
    # AP: relevant at ranks 3 and 5 -> (1/3 + 2/5) / 2, against (1/1 + 2/3) / 2 without the holes
    assert average_precision(holes, judgments=judged) == pytest.approx((1 / 3 + 2 / 5) / 2)
    assert average_precision(complete, judgments=judged) == pytest.approx((1 / 1 + 2 / 3) / 2)


@pytest.mark.parametrize("topics, expected", [
    # lecture AP = (1/1 + 2/3 + 3/4)/3; a topic with its one relevant document at rank 2: 1/2
    pytest.param([(LECTURE, LECTURE_JUDGMENTS), ([0, 1], [1])], ((1 + 2 / 3 + 3 / 4) / 3 + 1 / 2) / 2, id="two"),
    # one topic: MAP = its AP
    pytest.param([(LECTURE, LECTURE_JUDGMENTS)], (1 + 2 / 3 + 3 / 4) / 3, id="one"),
    # each topic weighs the same, whatever its R: AP 1 (R = 1) and AP (1/2 + 2/4 + ...)/4 ...
    pytest.param([([1], [1]), ([0, 1, 0, 1], [1, 1, 1, 1])], (1 + (1 / 2 + 2 / 4) / 4) / 2, id="topics-weigh-same"),
    pytest.param([([0], [0])], 0.0, id="no-relevant"),
])
def test_mean_average_precision_hand_values(topics, expected):
    assert mean_average_precision(topics) == pytest.approx(expected, abs=1e-15)


def test_map_with_a_cutoff_is_the_mean_of_map_cut():
    topics = [(LECTURE, LECTURE_JUDGMENTS), ([0, 1, 1], [1, 1, 1])]
    # cutoff 2: lecture (1/1)/3; second topic (1/2)/3
    assert mean_average_precision(topics, 2) == pytest.approx(((1 / 1) / 3 + (1 / 2) / 3) / 2)


def test_exported_from_the_package():
    assert nc.r_precision is r_precision and nc.bpref is bpref and nc.mean_average_precision is mean_average_precision
    assert {"r_precision", "bpref", "mean_average_precision"} <= set(nc.__all__)


@pytest.mark.parametrize("call, error, message", [
    pytest.param(lambda: r_precision([1, 1], judgments=[1]), ValueError,
                 r"^judgments must hold every relevant document of the list; the list has 2", id="rprec-short"),
    pytest.param(lambda: bpref([1, 0, 0], judgments=[1, 0]), ValueError,
                 r"^judgments must hold every non-relevant document of the list; the list has 2 non-relevant "
                 r"documents \(label below 1\)", id="bpref-nonrel-short"),
    pytest.param(lambda: bpref([1], threshold=0), ValueError, r"^threshold must be a number above 0", id="t0"),
    pytest.param(lambda: bpref([1, -2]), ValueError, r"labels\[1\] must be a non-negative number", id="neg"),
    pytest.param(lambda: mean_average_precision([]), ValueError, r"^topics must hold at least one topic", id="none"),
    pytest.param(lambda: mean_average_precision([[1, 0]]), TypeError,
                 r"^topics\[0\] must be a \(labels, judgments\) pair", id="not-a-pair"),
    pytest.param(lambda: mean_average_precision(0.5), TypeError, r"^topics must be a list of", id="number"),
])
def test_errors_name_the_problem_and_the_fix(call, error, message):
    with pytest.raises(error, match=message):
        call()


labels_st = st.lists(st.one_of(st.none(), st.integers(0, 3)), max_size=30)
missed_st = st.lists(st.integers(0, 3), max_size=8)


@settings(max_examples=200, deadline=None)
@given(labels_st, missed_st, st.integers(1, 3))
def test_properties(labels, missed, threshold):
    judged = [x for x in labels if x is not None] + missed
    rp = r_precision(labels, judgments=judged, threshold=threshold)
    bp = bpref(labels, judgments=judged, threshold=threshold)
    assert 0.0 <= rp <= 1.0 and 0.0 <= bp <= 1.0
    # binary measures only see the binarised list (bpref also keeps which are unjudged)
    flat = [None if x is None else b for x, b in zip(labels, binarise(labels, threshold))]
    flat_judged = [int(x >= threshold) for x in judged]
    assert r_precision(flat, judgments=flat_judged) == pytest.approx(rp, abs=1e-12)
    assert bpref(flat, judgments=flat_judged) == pytest.approx(bp, abs=1e-12)
    # bpref skips unjudged documents: removing them changes nothing
    assert bpref([x for x in labels if x is not None], judgments=judged, threshold=threshold) == bp
    # the best ordering of the same documents (relevant first) gets P@R = bpref = 1 when all are found
    best = sorted((x for x in judged), reverse=True)
    if any(x >= threshold for x in judged):
        assert r_precision(best, judgments=judged, threshold=threshold) == 1.0
        assert bpref(best, judgments=judged, threshold=threshold) == 1.0


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(labels_st, missed_st), min_size=1, max_size=5))
def test_map_is_the_mean_of_ap(topics):
    pairs = [(labels, [x for x in labels if x is not None] + missed) for labels, missed in topics]
    aps = [average_precision(labels, judgments=judged) for labels, judged in pairs]
    assert mean_average_precision(pairs) == pytest.approx(sum(aps) / len(aps), abs=1e-12)
    assert min(aps) <= mean_average_precision(pairs) + 1e-12 and mean_average_precision(pairs) <= max(aps) + 1e-12


pytrec_eval = pytest.importorskip("pytrec_eval")


def _oracle_topic(run_labels, missed):
    """A one-topic qrels and run: run label None = absent from the qrels, -1 = pooled but unjudged."""
    docs = [f"d{i:02d}" for i in range(len(run_labels))]
    qrels = {"q": {doc: lab for doc, lab in zip(docs, run_labels) if lab is not None}}
    qrels["q"].update({f"m{i}": lab for i, lab in enumerate(missed)})
    run = {"q": {doc: float(len(docs) - i) for i, doc in enumerate(docs)}}
    ours = [None if x is None or x < 0 else x for x in run_labels]
    judged = [x for x in ours if x is not None] + [x for x in missed if x >= 0]
    return qrels, run, ours, judged


run_label_st = st.lists(st.one_of(st.none(), st.integers(-1, 3)), min_size=1, max_size=25)


@settings(max_examples=150, deadline=None)
@given(run_label_st, st.lists(st.integers(-1, 3), max_size=8), st.integers(1, 3))
def test_agrees_with_pytrec_eval(run_labels, missed, level):
    qrels, run, ours, judged = _oracle_topic(run_labels, missed)
    if not qrels["q"]:
        return
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"Rprec", "bpref", "map"}, relevance_level=level)
    got = evaluator.evaluate(run).get("q")
    if got is None:
        return
    assert r_precision(ours, judgments=judged, threshold=level) == pytest.approx(got["Rprec"], abs=1e-12)
    assert bpref(ours, judgments=judged, threshold=level) == pytest.approx(got["bpref"], abs=1e-12)
    assert average_precision(ours, judgments=judged, threshold=level) == pytest.approx(got["map"], abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(run_label_st, st.lists(st.integers(0, 3), min_size=1, max_size=6)), min_size=1, max_size=6),
       st.integers(1, 2))
def test_map_agrees_with_pytrec_eval_mean(topics, level):
    """MAP over topics = the mean of pytrec_eval's per-topic 'map' (what trec_eval's 'all' line prints)."""
    qrels, run, pairs = {}, {}, []
    for number, (run_labels, missed) in enumerate(topics):
        one_qrels, one_run, ours, judged = _oracle_topic(run_labels, missed)
        qrels[f"q{number}"], run[f"q{number}"] = one_qrels["q"], one_run["q"]
        pairs.append((ours, judged))
    got = pytrec_eval.RelevanceEvaluator(qrels, {"map"}, relevance_level=level).evaluate(run)
    expected = sum(got[f"q{n}"]["map"] for n in range(len(topics))) / len(topics)
    assert mean_average_precision(pairs, threshold=level) == pytest.approx(expected, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(run_label_st, st.lists(st.integers(-1, 3), max_size=8), st.integers(1, 3))
def test_the_one_list_measures_agree_with_ndcg_eval_per_topic(run_labels, missed, level):
    """The core's single-list functions and the whole-run evaluator (ndcg-eval's Rprec, bpref, map)
    give the same per-topic numbers: two implementations, one definition."""
    qrels, run, ours, judged = _oracle_topic(run_labels, missed)
    if not any(x >= 0 for x in qrels["q"].values()):
        return  # no judged document at all: trec_eval has nothing to score
    table = nc.evaluate_run(qrels, run, ["Rprec", "bpref", "map"], relevance_level=level).per_topic
    row = table.loc["q"]
    assert r_precision(ours, judgments=judged, threshold=level) == pytest.approx(row["Rprec"], abs=1e-12)
    assert bpref(ours, judgments=judged, threshold=level) == pytest.approx(row["bpref"], abs=1e-12)
    assert average_precision(ours, judgments=judged, threshold=level) == pytest.approx(row["map"], abs=1e-12)
