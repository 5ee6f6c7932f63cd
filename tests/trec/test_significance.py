"""ndcg_core.trec.significance: every figure checked against scipy.stats, by hand and by property.

scipy is the oracle: ``ttest_rel``, ``wilcoxon``, ``permutation_test`` (paired, "samples")
and ``bootstrap`` on the same per-topic numbers, to 1e-9. The data sets hold ties, zero
differences and a single nonzero difference. ranx's comparison is checked behind the
``ranx`` marker (it compiles with numba on first use: ``pytest -m ranx``).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats

from ndcg_core import trec
from ndcg_core.trec.significance import (
    EXACT_MAX,
    bootstrap_interval,
    compare_runs,
    compare_scores,
    holm,
    paired_comparison,
    randomization_test,
)

ROOT = Path(__file__).resolve().parents[2]
TOY = ROOT / "data" / "toy"
TOL = dict(rtol=1e-9, atol=1e-12)


def _mean_diff(x, y, axis=-1):
    return np.mean(x - y, axis=axis)


def scipy_randomization(a, b, n_resamples=np.inf, rng=None):
    return stats.permutation_test(
        (b, a), _mean_diff, permutation_type="samples", vectorized=True, n_resamples=n_resamples, rng=rng
    )


def _data_sets():
    rng = np.random.default_rng(7)
    a = rng.random(12)
    grid = np.arange(9) / 8  # dyadic scores: exact sums, many tied differences
    ga = rng.choice(grid, 14)
    gb = rng.choice(grid, 14)
    single = ga.copy()
    single[3] = (single[3] + 0.375) % 1
    with_zeros = gb.copy()
    with_zeros[:5] = ga[:5]
    return {
        "uniform": (a, rng.random(12)),
        "ties": (ga, gb),
        "zeros": (ga, with_zeros),
        "single-nonzero": (ga, single),
        "two-topics": (np.array([0.2, 0.6]), np.array([0.5, 0.4])),
        "constant-shift": (ga[:6], ga[:6] + 0.125),
    }


DATA = _data_sets()


@pytest.mark.parametrize("name", DATA)
def test_every_figure_matches_scipy(name):
    a, b = DATA[name]
    result = paired_comparison(a, b, rounds=2000, seed=3)
    t = stats.ttest_rel(b, a)
    with np.errstate(all="ignore"):
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            w = stats.wilcoxon(b - a)
    perm = scipy_randomization(a, b)
    boot = stats.bootstrap(
        (b - a,), np.mean, n_resamples=2000, vectorized=True, method="percentile", rng=np.random.default_rng(3)
    )
    np.testing.assert_allclose(result.mean_difference, np.mean(b) - np.mean(a), **TOL)
    np.testing.assert_allclose(result.t_statistic, t.statistic, **TOL)
    np.testing.assert_allclose(result.t_p_value, t.pvalue, **TOL)
    np.testing.assert_allclose(result.wilcoxon_statistic, w.statistic, **TOL)
    np.testing.assert_allclose(result.wilcoxon_p_value, w.pvalue, equal_nan=True, **TOL)
    assert result.randomization_exact
    np.testing.assert_allclose(result.randomization_p_value, perm.pvalue, **TOL)
    np.testing.assert_allclose([result.ci_low, result.ci_high], boot.confidence_interval, **TOL)
    # Cohen's d_z = t / sqrt(n): the effect size and scipy's t agree
    np.testing.assert_allclose(result.effect_size * math.sqrt(len(a)), t.statistic, **TOL)


def test_null_distribution_is_scipys():
    a, b = DATA["ties"]
    mine = randomization_test(b - a, keep_null=True)
    theirs = scipy_randomization(a, b)
    np.testing.assert_allclose(np.sort(mine.null), np.sort(theirs.null_distribution), **TOL)
    assert mine.rounds == 2 ** len(a) == len(theirs.null_distribution)


def test_worked_example_by_hand():
    # differences 0.10, 0.15, -0.05, 0.15, 0.10: mean 0.45 / 5 = 0.09; deviations 0.01, 0.06,
    # -0.14, 0.06, 0.01; sum of squares 0.027; s = sqrt(0.027 / 4); t = 0.09 / (s / sqrt 5) = sqrt 6
    a = [0.50, 0.40, 0.70, 0.30, 0.60]
    b = [0.60, 0.55, 0.65, 0.45, 0.70]
    r = paired_comparison(a, b)
    assert r.mean_difference == pytest.approx(0.09, abs=1e-12)
    assert r.t_statistic == pytest.approx(math.sqrt(6), rel=1e-9)
    assert r.effect_size == pytest.approx(0.09 / math.sqrt(0.027 / 4), rel=1e-9)
    # randomization: of 32 sign assignments, |mean| >= 0.09 for: all signs as observed (0.45),
    # and flipping only the -0.05 (0.55), and their mirror images: 4 / 32
    assert r.randomization_exact and r.randomization_rounds == 32
    assert r.randomization_p_value == pytest.approx(4 / 32)
    assert (r.wins, r.ties, r.losses) == (4, 0, 1)
    # an unpaired (Welch) test on the same numbers sees the topic spread and a far larger p
    assert stats.ttest_ind(b, a, equal_var=False).pvalue > r.t_p_value


def test_monte_carlo_agrees_with_exact_and_scipy():
    rng = np.random.default_rng(11)
    a, b = rng.random(22), rng.random(22) + 0.08
    exact = randomization_test(b - a, exact_max=22)
    assert exact.exact and exact.rounds == 2**22
    mc = randomization_test(b - a, rounds=20_000, seed=5)
    assert not mc.exact and mc.rounds == 20_000
    se = math.sqrt(exact.p_value * (1 - exact.p_value) / 20_000) * 2
    assert abs(mc.p_value - exact.p_value) < 5 * se + 1e-4
    theirs = scipy_randomization(a, b, n_resamples=20_000, rng=np.random.default_rng(5))
    assert abs(mc.p_value - theirs.pvalue) < 10 * se + 1e-4
    # seeded: the same seed, the same p; the +1 keeps a Monte Carlo p above 0
    assert randomization_test(b - a, rounds=20_000, seed=5).p_value == mc.p_value
    far = randomization_test(np.full(40, 0.3) + rng.random(40) * 0.01, rounds=1000)
    assert far.p_value == pytest.approx(2 / 1001)


def test_exact_up_to_exact_max():
    d = np.linspace(-0.2, 0.5, EXACT_MAX)
    assert randomization_test(d).exact
    assert not randomization_test(np.append(d, 0.1)).exact


def test_holm_by_hand():
    # sorted 0.01, 0.03, 0.04 times 3, 2, 1: 0.03, 0.06, 0.04 -> running max 0.03, 0.06, 0.06
    assert holm([0.01, 0.04, 0.03]).tolist() == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5]).tolist() == [0.5]
    assert holm([0.6, 0.7]).tolist() == [1.0, 1.0]
    with pytest.raises(ValueError, match="p_values must be a flat list of numbers from 0 to 1"):
        holm([0.2, 1.5])


@given(st.lists(st.floats(0, 1), min_size=1, max_size=30))
def test_holm_properties(p):
    adjusted = holm(p)
    assert (adjusted >= np.asarray(p) - 1e-15).all() and (adjusted <= 1).all()
    order = np.argsort(p, kind="stable")
    assert (np.diff(adjusted[order]) >= -1e-15).all()


def test_bootstrap_by_hand():
    # every resample of identical differences has the same mean
    assert bootstrap_interval([0.25, 0.25, 0.25, 0.25]) == (0.25, 0.25)
    low, high = bootstrap_interval([0.0, 1.0], rounds=4000, seed=1)
    # resampled means of two topics are 0, 0.5 or 1 (probabilities 1/4, 1/2, 1/4)
    assert (low, high) == (0.0, 1.0)


GRID = st.sampled_from([0.0, 0.125, 0.25, 0.5, 0.625, 0.75, 1.0])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(GRID, GRID), min_size=2, max_size=10))
def test_randomization_matches_scipy_on_any_small_data(pairs):
    a = np.array([p[0] for p in pairs])
    b = np.array([p[1] for p in pairs])
    if not (b - a).any():
        with pytest.raises(ValueError, match="there is no difference to test"):
            paired_comparison(a, b)
        return
    r = paired_comparison(a, b, rounds=200)
    np.testing.assert_allclose(r.randomization_p_value, scipy_randomization(a, b).pvalue, **TOL)
    swapped = paired_comparison(b, a, rounds=200)
    assert swapped.mean_difference == -r.mean_difference
    assert swapped.randomization_p_value == pytest.approx(r.randomization_p_value, abs=1e-12)
    assert swapped.t_p_value == pytest.approx(r.t_p_value, rel=1e-9, nan_ok=True)
    assert 0 < r.randomization_p_value <= 1
    assert r.wins + r.ties + r.losses == len(a)
    order = np.random.default_rng(0).permutation(len(a))
    shuffled = paired_comparison(a[order], b[order], rounds=200)
    assert shuffled.randomization_p_value == pytest.approx(r.randomization_p_value, abs=1e-12)


@pytest.mark.parametrize(
    ("a", "b", "message"),
    [
        pytest.param([0.5], [0.6], "a paired test needs at least 2 topics; got 1", id="one-topic"),
        pytest.param([0.5, 0.4], [0.5, 0.4], "have the same ndcg on every one of the 2 topics", id="identical"),
        pytest.param([0.5, 0.4], [0.5, 0.4, 0.1], "one score per topic, the same topics; got 2 and 3", id="lengths"),
        pytest.param([0.5, float("nan")], [0.5, 0.4], "must be finite numbers", id="nan"),
    ],
)
def test_bad_input_is_named(a, b, message):
    with pytest.raises(ValueError, match=message):
        paired_comparison(a, b)


def test_bad_options_are_named():
    with pytest.raises(ValueError, match="confidence must be a number between 0 and 1"):
        paired_comparison([0.1, 0.2], [0.3, 0.1], confidence=95)
    with pytest.raises(ValueError, match="seed must be a whole number of 0 or more"):
        randomization_test([0.1, 0.2], seed=-1)
    with pytest.raises(ValueError, match="exact_max must be from 0 to 24"):
        randomization_test([0.1, 0.2], exact_max=30)
    with pytest.raises(ValueError, match="a comparison needs at least 2 runs"):
        compare_scores({"A": {"q1": 0.1}})
    with pytest.raises(ValueError, match="baseline must be one of the runs"):
        compare_scores({"A": {"q1": 0.1, "q2": 0.3}, "B": {"q1": 0.2, "q2": 0.1}}, baseline="Z")


def test_many_runs_get_holm():
    rng = np.random.default_rng(2)
    scores = {f"r{i}": dict(zip("abcdefgh", rng.random(8))) for i in range(4)}
    c = compare_scores(scores, rounds=500)
    assert [(p.baseline, p.other) for p in c.pairs] == [("r0", "r1"), ("r0", "r2"), ("r0", "r3")]
    for key in ("t", "wilcoxon", "randomization"):
        raw = [getattr(p, f"{key}_p_value") for p in c.pairs]
        np.testing.assert_allclose([getattr(p, f"{key}_p_holm") for p in c.pairs], holm(raw))
    every = compare_scores(scores, pairs="all", rounds=500)
    assert len(every.pairs) == 6
    assert "Holm's correction over the 6 comparisons" in every.describe()
    one = compare_scores({k: scores[k] for k in ("r0", "r1")}, rounds=500)
    assert one.pairs[0].randomization_p_holm == one.pairs[0].randomization_p_value


def test_compare_runs_on_the_toy_collection():
    qrels = trec.read_qrels(TOY / "qrels.txt")
    runs = {name: trec.read_run(TOY / f"run_{name}.txt") for name in ("classic", "novel", "tuned")}
    comparisons = compare_runs(qrels, runs, ["ndcg", "ndcg_cut.10"], rounds=1000)
    assert [c.measure for c in comparisons] == ["ndcg", "ndcg_cut_10"]
    for c in comparisons:
        assert c.runs == ("classic", "novel", "tuned") and len(c.scores) == 10
        for pair in c.pairs:
            expected = trec.evaluate_run(qrels, runs[pair.other], [c.measure.replace("ndcg_cut_", "ndcg_cut.")])
            assert pair.mean_other == pytest.approx(float(expected.means[0]), abs=1e-12)
        assert c.filled == {}
        assert len(c.pairs) == 2 and c.pairs[0].randomization_exact


def test_missing_topics_score_zero_as_dash_c():
    qrels = trec.read_qrels(TOY / "qrels.txt")
    full = trec.read_run(TOY / "run_novel.txt")
    part = full[full["query_id"] != "105"]
    [c] = compare_runs(qrels, {"novel": full, "part": part}, rounds=200)
    assert c.filled == {"part": ("105",)}
    assert c.scores.loc["105", "part"] == 0.0
    assert "run part has no lines for 1 of them (105): scored 0 there, as trec_eval -c does" in c.describe()
    # the same as evaluating the partial run with -c
    dash_c = trec.evaluate_run(qrels, part, ["ndcg"], complete=True)
    assert c.pairs[0].mean_other == pytest.approx(float(dash_c.means[0]), abs=1e-12)


def test_compare_runs_needs_a_shared_topic():
    qrels = {"q1": {"d1": 1}}
    with pytest.raises(ValueError, match="the runs and the qrels must share at least one topic"):
        compare_runs(qrels, {"a": {"x": {"d1": 1.0}}, "b": {"y": {"d1": 1.0}}})


@pytest.mark.ranx
def test_ranx_agrees(request):  # pragma: no cover - needs ranx (numba): pytest -m ranx
    if "ranx" not in (request.config.option.markexpr or ""):
        pytest.skip("ranx compiles with numba on first use: run it on purpose with pytest -m ranx")
    # ranx (numba) is not in the test extra on purpose: loaded by name only when asked for
    tests = pytest.importorskip("ranx.statistical_tests")
    fisher_randomization_test, paired_student_t_test = tests.fisher_randomization_test, tests.paired_student_t_test

    a, b = DATA["uniform"]
    r = paired_comparison(a, b, rounds=10_000)
    p_t, _ = paired_student_t_test(a, b)
    assert p_t == pytest.approx(r.t_p_value, rel=1e-9)
    # ranx: Monte Carlo with 1,000 permutations, seed 42, count / n (no +1): close, not equal
    p_fisher, _ = fisher_randomization_test(a, b, n_permutations=10_000, random_seed=42)
    assert abs(p_fisher - r.randomization_p_value) < 0.03


def test_format_p_never_prints_zero():
    from ndcg_core.trec.significance import format_p

    assert format_p(0.0) == "0.0000"  # a true 0 (t-test on a constant shift) stays 0
    assert format_p(4e-5) == "<0.0001" and format_p(4e-5, 2) == "<0.01"
    assert format_p(0.5) == "0.5000" and format_p(float("nan")) == "nan"
