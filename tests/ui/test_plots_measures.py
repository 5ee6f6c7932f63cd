"""ndcg_core.ui.plots.measures: chapter 12's figures draw the numbers of teaching.measures, legibly."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from ndcg_core.teaching import measures  # noqa: E402
from ndcg_core.ui.plots import measures as figures  # noqa: E402

LECTURE = [1, 0, 2, 1, 0]


def bar_widths(ax) -> list[float]:
    return [patch.get_width() for container in ax.containers for patch in container.patches]


def test_measure_bars_draw_the_six_values_with_their_numbers():
    values = measures.measure_values(LECTURE, 5, judgments=LECTURE)
    before = plt.get_fignums()
    fig = figures.measure_bars(values)
    assert plt.get_fignums() == before  # not registered with pyplot
    ax = fig.axes[0]
    assert bar_widths(ax) == pytest.approx(list(values["value"]))
    ticks = sorted(zip(ax.get_yticks(), (t.get_text() for t in ax.get_yticklabels())), reverse=True)
    assert [name for _, name in ticks] == ["P@5", "P@R", "AP", "MAP", "nDCG@5", "bpref"]  # top to bottom, the card's order
    written = [t.get_text() for t in ax.texts]
    assert f"{values.loc['nDCG@5', 'value']:.4f}" in written  # 0.7763, the lecture's nDCG@5
    assert ax.title.get_fontsize() >= 18 and all(t.get_fontsize() >= 16 for t in ax.get_yticklabels())


@pytest.mark.parametrize("table", [
    pytest.param(lambda: measures.holes_table(LECTURE, 5, judgments=LECTURE, ranks=[2]), id="holes"),
    pytest.param(lambda: measures.unjudged_on_top_table(LECTURE, 5, judgments=LECTURE, count=2), id="on-top"),
])
def test_holes_bars_draw_before_and_after_with_the_change(table):
    frame = table()
    fig = figures.holes_bars(frame, title="t", after_label="after")
    ax = fig.axes[0]
    widths = bar_widths(ax)
    n = len(frame)
    assert widths[:n] == pytest.approx(list(frame.iloc[:, 0])) and widths[n:] == pytest.approx(list(frame.iloc[:, 1]))
    written = [t.get_text() for t in ax.texts]
    assert any(f"({c:+.2f})" in w for c in frame["change"] for w in written)
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["every document judged", "after"]


def test_sampling_plot_one_line_per_measure_and_the_chosen_share():
    truth = {"q": {"a": 1, "b": 0, "c": 1, "d": 0, "e": 1}}
    runs = {"r": {"q": {"a": 5.0, "b": 4.0, "c": 3.0, "d": 2.0, "e": 1.0}}}
    curves = measures.sampling_curves(truth, runs, (1.0, 0.6, 0.3), k=3, seed=3)
    fig = figures.sampling_plot(curves, 0.6)
    ax = fig.axes[0]
    named = [line for line in ax.get_lines() if not line.get_label().startswith("_")]
    assert [line.get_label() for line in named] == list(dict.fromkeys(curves["measure"]))
    assert all(line.get_linewidth() >= 2.5 for line in named)
    assert any(list(line.get_xdata()) == [0.6, 0.6] for line in ax.get_lines())  # the chosen share
    assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title()
