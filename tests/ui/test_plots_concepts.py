"""ndcg_core.plots.concepts: the figures of chapters 02-04 show ndcg_core's numbers, legibly."""

from __future__ import annotations

import gc
import weakref
from math import log2

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.collections import PathCollection  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

import ndcg_core as nc
import ndcg_core.teaching.compare
import ndcg_core.teaching.exam
import ndcg_core.teaching.pooling
import ndcg_core.teaching.toy  # noqa: E402
from ndcg_core.ui.plots import concepts  # noqa: E402


def bars(ax) -> list[Rectangle]:
    return [patch for container in ax.containers for patch in container.patches]


def legend_texts(ax) -> list[str]:
    return [t.get_text() for t in ax.get_legend().get_texts()]


def assert_projector_legible(fig: Figure) -> None:
    """Labelled axes, a title, large type, thick lines (the projector style was applied)."""
    ax = fig.axes[0]
    assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title()
    assert ax.title.get_fontsize() >= 18
    assert ax.xaxis.label.get_fontsize() >= 16
    assert all(t.get_fontsize() >= 14 for t in ax.get_xticklabels() + ax.get_yticklabels())
    for line in ax.get_lines():
        if line.get_linestyle() not in ("None", "none", ""):
            assert line.get_linewidth() >= 2.5


FIGURES = [
    pytest.param(lambda: concepts.gain_bars(), id="gain_bars"),
    pytest.param(lambda: concepts.contribution_bars([2, 3, 0, 1, 2], highlight=1), id="contribution_bars"),
    pytest.param(lambda: concepts.weight_share_curves(), id="weight_share_curves"),
    pytest.param(lambda: concepts.delay_curves({"A": [1, 0.5], "B": [1, 0.7]}, mark=2), id="delay_curves"),
    pytest.param(lambda: concepts.topic_strips({"A": [0.8, 0.8], "B": [1.0, 0.6]}), id="topic_strips"),
]


@pytest.mark.parametrize("make", FIGURES)
def test_figures_are_plain_figures_outside_pyplot(make):
    before = plt.get_fignums()
    fig = make()
    assert isinstance(fig, Figure)
    assert plt.get_fignums() == before  # not registered with pyplot: nothing to close, nothing leaks
    assert_projector_legible(fig)
    ref = weakref.ref(fig)
    del fig
    gc.collect()
    assert ref() is None  # dropped by the notebook -> freed


@pytest.mark.parametrize("make", FIGURES)
def test_figures_render_to_svg(make):
    from ndcg_core.ui.plots import to_svg

    svg = to_svg(make())
    assert svg.startswith("<svg") and "</svg>" in svg


def test_gain_bars_heights_are_the_gains():
    fig = concepts.gain_bars((0, 1, 2, 3), ("linear", "exponential"))
    ax = fig.axes[0]
    heights = [b.get_height() for b in bars(ax)]
    assert heights == [0, 1, 2, 3, 2**0 - 1, 2**1 - 1, 2**2 - 1, 2**3 - 1]
    assert legend_texts(ax) == ["linear", "exponential"]
    written = sorted(t.get_text() for t in ax.texts)
    assert written == sorted(["0", "1", "2", "3", "0", "1", "3", "7"])


def test_gain_bars_with_a_table_writes_fractions():
    fig = concepts.gain_bars((0, 1, 2), {"table": {0: 0, 1: 0.5, 2: 2.25}})
    assert [t.get_text() for t in fig.axes[0].texts] == ["0", "0.5", "2.25"]


def test_contribution_bars_heights_and_totals():
    fig = concepts.contribution_bars([2, 3, 0, 1, 2], highlight=2)
    ax = fig.axes[0]
    heights = [b.get_height() for b in bars(ax)]
    linear = [2 / log2(2), 3 / log2(3), 0, 1 / log2(5), 2 / log2(6)]
    exponential = [3 / log2(2), 7 / log2(3), 0, 1 / log2(5), 3 / log2(6)]
    assert heights == pytest.approx(linear + exponential)
    assert legend_texts(ax) == [f"linear: DCG = {sum(linear):.2f}", f"exponential: DCG = {sum(exponential):.2f}"]
    others = [p for p in ax.patches if p not in bars(ax)]  # the highlight band around rank 2
    assert len(others) == 1
    assert others[0].get_window_extent().x0 < ax.transData.transform((2 - 0.3, 0))[0]
    assert others[0].get_window_extent().x1 > ax.transData.transform((2 + 0.3, 0))[0]


def test_gain_bars_tell_the_gains_apart_without_colour():
    ax = concepts.gain_bars((0, 1, 2, 3), {"linear": "linear", "exponential": "exponential", "table": {0: 0, 1: 1, 2: 2, 3: 5}}).axes[0]
    hatches = [b.get_hatch() or "" for b in bars(ax)]
    assert [hatches[0], hatches[4], hatches[8]] == concepts.SERIES_HATCHES[:3]
    assert all(hatches[4 * j : 4 * j + 4] == [hatches[4 * j]] * 4 for j in range(3))
    assert [h.get_hatch() or "" for h in ax.get_legend().legend_handles] == concepts.SERIES_HATCHES[:3]


def test_contribution_bars_tell_the_gains_apart_without_colour():
    # deck 02's promote slide shows both gains side by side: a greyscale print or a colour-blind
    # reader must still see which bar is which, so each gain has its own hatch (and the legend too)
    ax = concepts.contribution_bars([2, 3, 0, 1, 2], highlight=2).axes[0]
    hatches = [b.get_hatch() or "" for b in bars(ax)]
    assert hatches[:5] == [hatches[0]] * 5 and hatches[5:] == [hatches[5]] * 5
    assert hatches[0] != hatches[5]
    handles = ax.get_legend().legend_handles
    assert [h.get_hatch() or "" for h in handles] == [hatches[0], hatches[5]]


def test_contribution_bars_without_highlight_has_only_bars():
    ax = concepts.contribution_bars([1, 0, 2], gains=["linear"]).axes[0]
    assert [b.get_height() for b in bars(ax)] == pytest.approx([1, 0, 2 / log2(4)])
    assert [p for p in ax.patches if p not in bars(ax)] == []


def test_contribution_bars_with_a_cutoff_and_unjudged():
    ax = concepts.contribution_bars([1, None, 2, 3], 3, gains=["linear"], discount="reciprocal").axes[0]
    assert [b.get_height() for b in bars(ax)] == pytest.approx([1 / 1, 0, 2 / 3])


def test_weight_share_curves_end_at_one_and_pass_through_the_share():
    fig = concepts.weight_share_curves(("log2", "reciprocal", "none"), n=100, head=10)
    ax = fig.axes[0]
    curves = [line for line in ax.get_lines() if len(line.get_xdata()) == 100]
    assert len(curves) == 3
    for line, discount in zip(curves, ("log2", "reciprocal", "none")):
        y = np.asarray(line.get_ydata())
        assert y[-1] == pytest.approx(1.0)
        assert y[9] == pytest.approx(nc.teaching.compare.weight_share(discount, 100, 10))
        assert np.all(np.diff(y) > 0)
    harmonic = sum(1 / i for i in range(1, 11)) / sum(1 / i for i in range(1, 101))
    assert legend_texts(ax) == ["log2: 22% in the top 10", f"reciprocal: {harmonic:.0%} in the top 10", "none: 10% in the top 10"]


def test_delay_curves_plot_the_values_given():
    fig = concepts.delay_curves({"five": [1.0, 0.78, 0.68], "one": [1.0, 0.63, 0.5]}, mark=2, ylabel="nDCG@10")
    ax = fig.axes[0]
    lines = [line for line in ax.get_lines() if line.get_marker() == "o"]
    assert [list(line.get_ydata()) for line in lines] == [[1.0, 0.78, 0.68], [1.0, 0.63, 0.5]]
    assert list(lines[0].get_xdata()) == [1, 2, 3]
    assert ax.get_ylabel() == "nDCG@10"
    assert any(list(line.get_xdata()) == [2, 2] for line in ax.get_lines())  # the marked position


def test_topic_strips_show_each_topic_and_the_mean():
    fig = concepts.topic_strips({"steady": [0.8, 0.9, 0.7], "all or nothing": [1.0, 1.0, 0.0]})
    ax = fig.axes[0]
    dots = [c for c in ax.collections if isinstance(c, PathCollection)]
    assert [sorted(d.get_offsets()[:, 1].tolist()) for d in dots] == [[0.7, 0.8, 0.9], [0.0, 1.0, 1.0]]
    assert [t.get_text() for t in ax.texts] == [f"mean {(0.8 + 0.9 + 0.7) / 3:.2f}", f"mean {2 / 3:.2f}"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["steady", "all or nothing"]


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        pytest.param(lambda: concepts.delay_curves({}), TypeError, r"curves must be a non-empty \{name: values\} mapping", id="delay-empty"),
        pytest.param(lambda: concepts.topic_strips([0.5]), TypeError, r"systems must be a non-empty \{name: per-topic values\} mapping", id="strips-list"),
        pytest.param(lambda: concepts.gain_bars(gains=[]), ValueError, r"gains must name at least one gain", id="gain-bars-empty"),
        pytest.param(lambda: concepts.contribution_bars([1, -1]), ValueError, r"labels\[1\] must be a non-negative number", id="contrib-negative"),
        pytest.param(lambda: concepts.weight_share_curves(n=5, head=10), ValueError, r"head must be at most n; got head=10 and n=5", id="share-head"),
    ],
)
def test_figure_errors(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_contribution_bars_of_one_huge_label_stay_readable():
    # label 1000: exponential gain 2^1000 - 1 has 302 digits; a single rank has one integer tick
    import warnings

    from ndcg_core.ui.plots import to_svg

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "constrained_layout not applied"
        fig = concepts.contribution_bars([1000], highlight=1)
        to_svg(fig)
    ax = fig.axes[0]
    labels = [text.get_text() for text in ax.get_legend().get_texts()]
    assert labels == ["linear: DCG = 1000.00", f"exponential: DCG = {2.0**1000 - 1:.3e}"]
    assert list(ax.get_xticks()) == [1]
