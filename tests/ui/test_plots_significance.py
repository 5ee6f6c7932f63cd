"""ndcg_core.ui.plots.significance: chapter 13's figures draw the library's numbers, legibly."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from ndcg_core.trec.significance import compare_scores, randomization_test  # noqa: E402
from ndcg_core.ui.plots import significance as plots  # noqa: E402


def legible(fig: Figure) -> None:
    ax = fig.axes[0]
    assert ax.get_title() and ax.title.get_fontsize() >= 18
    for label in ax.get_xticklabels() + ax.get_yticklabels():
        assert label.get_fontsize() >= 18


def test_difference_bars_are_sorted_and_split_into_gains_and_losses():
    topics, d = ["q1", "q2", "q3", "q4"], [0.1, -0.3, 0.4, 0.0]
    fig = plots.difference_bars(topics, d, baseline="classic", other="tuned")
    legible(fig)
    ax = fig.axes[0]
    heights = [p.get_height() for c in ax.containers for p in c.patches]
    assert heights == [0.4, 0.1, 0.0, -0.3]  # gains container (sorted), then losses
    assert [t.get_text() for t in ax.get_xticklabels()] == ["q3", "q1", "q4", "q2"]
    assert "mean +0.050" in [t.get_text() for t in ax.get_legend().get_texts()]  # (0.1 - 0.3 + 0.4 + 0) / 4
    assert ax.get_title() == "tuned ahead on 2, behind on 1, tied on 1 topics"


def test_randomization_histogram_marks_the_observed_mean_and_counts_every_assignment():
    test = randomization_test([0.1, 0.15, -0.05, 0.15, 0.1], keep_null=True)
    fig = plots.randomization_histogram(test.null, test.observed, test.p_value, exact=test.exact)
    legible(fig)
    ax = fig.axes[0]
    assert sum(p.get_height() for c in ax.containers for p in c.patches) == 32  # all 2^5 sign assignments
    lines = [line.get_xdata()[0] for line in ax.get_lines()]
    assert lines == pytest.approx([0.09, -0.09])
    assert "p = 0.125" in ax.get_title()


def test_interval_by_topics_marks_the_current_count():
    fig = plots.interval_by_topics([5, 10, 20], [0.1, 0.05, 0.04], [-0.1, -0.02, 0.01], [0.3, 0.12, 0.07], current=10)
    legible(fig)
    assert "10 topics" in [t.get_text() for t in fig.axes[0].get_legend().get_texts()]


def test_p_value_matrix_counts_pairs_below_alpha():
    rng = np.random.default_rng(0)
    scores = {f"r{i}": dict(zip("abcdefgh", rng.random(8) + (0.5 if i == 0 else 0))) for i in range(4)}
    c = compare_scores(scores, pairs="all", rounds=500)
    matrix = c.p_value_matrix()
    below = sum(p.randomization_p_value < 0.05 for p in c.pairs)
    fig = plots.p_value_matrix(["1", "2", "3", "4"], matrix)
    legible(fig)
    assert fig.axes[0].get_title() == f"{below} of 6 pairs 'significant' at 0.05"
    assert np.isnan(np.diag(matrix)).all() and np.allclose(matrix, matrix.T, equal_nan=True)
