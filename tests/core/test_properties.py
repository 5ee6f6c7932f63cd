"""Properties of DCG and nDCG that hold for every input (hypothesis)."""

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import ndcg_core as nc

label = st.integers(min_value=0, max_value=4)
labels_lists = st.lists(label, min_size=0, max_size=40)
nonempty = st.lists(label, min_size=1, max_size=40)
cutoff = st.one_of(st.none(), st.integers(min_value=1, max_value=60))
gains = st.sampled_from(["linear", "exponential", {0: 0, 1: 0.5, 2: 1.25, 3: 4, 4: 4.5}])
discounts = st.sampled_from(["log2", "log2_shifted", "reciprocal", "none", ("jarvelin_kekalainen", 2), ("jarvelin_kekalainen", 3)])


def options(gain, discount):
    if isinstance(discount, tuple):
        return dict(gain=gain, discount=discount[0], base=discount[1])
    return dict(gain=gain, discount=discount)


@st.composite
def list_with_missed(draw):
    """A ranked list plus judged labels it missed; judgments = both."""
    labels = draw(labels_lists)
    missed = draw(st.lists(label, max_size=10))
    return labels, labels + missed


@given(list_with_missed(), cutoff, gains, discounts)
def test_ndcg_in_unit_interval(case, k, gain, discount):
    labels, judgments = case
    value = nc.ndcg(labels, k, judgments=judgments, **options(gain, discount))
    assert 0.0 <= value <= 1.0 + 1e-12


@given(list_with_missed(), cutoff, gains, discounts)
def test_ndcg_is_one_exactly_when_top_k_gains_equal_the_ideal(case, k, gain, discount):
    labels, judgments = case
    opts = options(gain, discount)
    table = nc.breakdown(labels, k, judgments=judgments, **opts)
    assume(table["idcg"].iloc[-1] > 0 if len(table) else False)
    top_equal = (table["gain"].to_numpy() == table["ideal_gain"].to_numpy()).all()
    value = nc.ndcg(labels, k, judgments=judgments, **opts)
    if top_equal:
        assert value == pytest.approx(1.0, abs=1e-12)
    elif discount not in ("none",) and not isinstance(discount, tuple):
        # With a strictly decreasing discount, any other top-k loses gain.
        assert value < 1.0 - 1e-12


@given(nonempty, cutoff, gains)
def test_sorted_list_scores_one(labels, k, gain):
    gain_of = nc.resolve_gain(gain)
    ideal = sorted(labels, key=lambda l: gain_of(np.array([float(l)]))[0], reverse=True)
    assume(nc.idcg(labels, k, gain=gain) > 0)
    assert nc.ndcg(ideal, k, gain=gain) == pytest.approx(1.0, abs=1e-12)


@given(nonempty, st.data(), cutoff, st.sampled_from(["linear", "exponential"]), discounts)
def test_moving_a_more_relevant_document_up_never_lowers_dcg(labels, data, k, gain, discount):
    i = data.draw(st.integers(0, len(labels) - 1))
    j = data.draw(st.integers(0, len(labels) - 1))
    i, j = min(i, j), max(i, j)
    # the same list twice: the more relevant of the two documents at rank i+1 (better), or at j+1 (worse)
    high, low = max(labels[i], labels[j]), min(labels[i], labels[j])
    better, worse = list(labels), list(labels)
    better[i], better[j] = high, low
    worse[i], worse[j] = low, high
    opts = options(gain, discount)
    assert nc.dcg(better, k, **opts) >= nc.dcg(worse, k, **opts) - 1e-12


@given(labels_lists, st.integers(1, 50), st.sampled_from(["linear", "exponential"]), discounts)
def test_dcg_never_decreases_with_k(labels, k, gain, discount):
    opts = options(gain, discount)
    assert nc.dcg(labels, k + 1, **opts) >= nc.dcg(labels, k, **opts)


@given(list_with_missed(), cutoff, st.sampled_from([0.5, 2, 3, 10]), discounts)
def test_linear_ndcg_unchanged_by_scaling_labels(case, k, factor, discount):
    labels, judgments = case
    opts = options("linear", discount)
    scaled = [x * factor for x in labels]
    scaled_judgments = [x * factor for x in judgments]
    assert nc.ndcg(scaled, k, judgments=scaled_judgments, **opts) == pytest.approx(
        nc.ndcg(labels, k, judgments=judgments, **opts), abs=1e-12
    )


@given(list_with_missed(), cutoff, st.sampled_from([1.5, math.e, 3, 10]), gains)
def test_log_base_cancels_in_ndcg_but_not_in_dcg(case, k, base, gain):
    labels, judgments = case
    in_base = nc.ndcg(labels, k, judgments=judgments, gain=gain, discount="log", base=base)
    in_log2 = nc.ndcg(labels, k, judgments=judgments, gain=gain, discount="log2")
    assert in_base == pytest.approx(in_log2, abs=1e-12)
    dcg2 = nc.dcg(labels, k, gain=gain, discount="log2")
    # 1/log_b(i+1) = ln(b)/ln(i+1) = log2(b) * 1/log2(i+1): DCG is scaled by log2(b).
    assert nc.dcg(labels, k, gain=gain, discount="log", base=base) == pytest.approx(dcg2 * math.log2(base), rel=1e-12, abs=1e-12)
    if dcg2 > 0:
        assert nc.dcg(labels, k, gain=gain, discount="log", base=base) != pytest.approx(dcg2)


@given(st.lists(st.one_of(st.none(), label), max_size=40), cutoff, gains, discounts)
def test_condense_equals_scoring_without_unjudged(labels, k, gain, discount):
    opts = options(gain, discount)
    judged = [x for x in labels if x is not None]
    judgments = judged + [3]
    assert nc.ndcg(labels, k, judgments=judgments, unjudged="condense", **opts) == nc.ndcg(judged, k, judgments=judgments, **opts)
    assert nc.dcg(labels, k, unjudged="condense", **opts) == nc.dcg(judged, k, **opts)


@given(st.lists(st.one_of(st.none(), label), max_size=40), cutoff)
def test_zero_policy_equals_unjudged_as_zero(labels, k):
    as_zero = [0 if x is None else x for x in labels]
    assert nc.dcg(labels, k) == nc.dcg(as_zero, k)


@settings(max_examples=50)
@given(list_with_missed(), gains, discounts)
def test_curve_and_breakdown_agree_with_ndcg(case, gain, discount):
    labels, judgments = case
    opts = options(gain, discount)
    curve = nc.ndcg_curve(labels, judgments=judgments, **opts)
    for k, value in enumerate(curve, start=1):
        assert value == pytest.approx(nc.ndcg(labels, k, judgments=judgments, **opts), abs=1e-12)


@given(st.lists(label, min_size=1, max_size=30),
       st.tuples(*[st.integers(min_value=-5, max_value=5)] * 5), cutoff, discounts)
def test_a_best_run_scores_one_under_any_gain_table(judgments, table_gains, k, discount):
    """The ideal is the best obtainable ranking, also when a gain table prices labels below 0:
    the positive-gain documents, largest gain first, with nothing else in the top k, score 1,
    and no ordering of the judged documents scores more."""
    table = dict(enumerate(table_gains))
    shape = {key: v for key, v in options("linear", discount).items() if key != "gain"}
    positive = sorted((x for x in judgments if table[x] > 0), key=lambda x: -table[x])
    assume(positive)
    best = positive + [None] * 5  # the penalised documents are not retrieved
    assert nc.ndcg(best, k, judgments=judgments, gain=table, **shape) == pytest.approx(1.0)
    for order in (sorted(judgments, key=lambda x: table[x]), judgments):
        assert nc.ndcg(order, k, judgments=judgments, gain=table, **shape) <= 1.0 + 1e-12
