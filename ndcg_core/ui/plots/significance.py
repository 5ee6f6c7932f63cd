"""Figures of chapter 13 (is run B really better?): per-topic differences, the randomization
distribution, the interval as topics are added, and the p-values of many comparisons.

Each takes numbers computed by :mod:`ndcg_core.trec.significance` and draws them; none
computes a statistic itself.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure

from ..palette import COLORS
from ._style import new_figure, projector_style

__all__ = ["difference_bars", "randomization_histogram", "interval_by_topics", "p_value_matrix"]

_BETTER, _WORSE = COLORS["blue"], COLORS["orange"]


def difference_bars(
    topics: Sequence[str],
    differences: Sequence[float],
    *,
    baseline: str = "A",
    other: str = "B",
    measure: str = "nDCG",
    max_labels: int = 30,
    height: float = 5.0,
) -> Figure:
    """Per-topic differences (other − baseline) as bars sorted from largest gain to largest loss.

    Gains in blue, losses in orange and hatched (told apart without colour); the mean
    difference as a dashed line. Topic names are written under the bars when there are at
    most ``max_labels`` topics. ``height`` in inches (a slide takes 3.4).
    """
    d = np.asarray(differences, dtype=float)
    order = np.argsort(-d, kind="stable")
    values = d[order]
    with projector_style():
        fig = new_figure(10, height)
        ax = fig.add_subplot()
        x = np.arange(len(values))
        gains = values >= 0
        ax.bar(x[gains], values[gains], color=_BETTER, width=0.8, label=f"{other} better")
        ax.bar(x[~gains], values[~gains], color="white", edgecolor=_WORSE, hatch="//", linewidth=2, width=0.8,
               label=f"{baseline} better")
        ax.axhline(0, color=COLORS["black"], linewidth=1.4)
        mean = float(d.mean()) if len(d) else 0.0
        ax.axhline(mean, color=COLORS["green"], linestyle=(0, (6, 2)), linewidth=3, label=f"mean {mean:+.3f}")
        if len(values) <= max_labels:
            ax.set_xticks(x, [str(topics[i]) for i in order], rotation=60 if len(values) > 10 else 0, ha="right" if len(values) > 10 else "center")
        else:
            ax.set_xticks([])
            ax.set_xlabel(f"{len(values)} topics, sorted")
        ax.set_ylabel(f"{measure}: {other} − {baseline}")
        ahead, behind = int((values > 0).sum()), int((values < 0).sum())
        tied = len(values) - ahead - behind
        ax.set_title(f"{other} ahead on {ahead}, behind on {behind}" + (f", tied on {tied}" if tied else "") + " topics")
        ax.grid(axis="x", visible=False)
        ax.legend(loc="upper right")
    return fig


def randomization_histogram(
    null: Sequence[float], observed: float, p_value: float, *, exact: bool, height: float = 5.0
) -> Figure:
    """The randomization (sign-flip) distribution of the mean difference, the observed mean marked.

    The bars as far from 0 as the observed mean, or further (either side), are the p-value's
    share; they are drawn dark, the rest pale.
    """
    values = np.asarray(null, dtype=float)
    with projector_style():
        fig = new_figure(10, height)
        ax = fig.add_subplot()
        span = max(float(np.abs(values).max()) if len(values) else 0.0, abs(observed)) or 1.0
        bins = np.linspace(-span * 1.02, span * 1.02, 41)
        counts, edges = np.histogram(values, bins=bins)
        centres = (edges[:-1] + edges[1:]) / 2
        far = np.abs(centres) >= abs(observed) - 1e-15
        ax.bar(centres[~far], counts[~far], width=np.diff(edges)[~far], color=COLORS["grey"], alpha=0.35,
               label="relabellings")
        ax.bar(centres[far], counts[far], width=np.diff(edges)[far], color=_WORSE, label="as far out as observed")
        for x, style in ((observed, "-"), (-observed, (0, (4, 2)))):
            ax.axvline(x, color=_BETTER, linewidth=3.5, linestyle=style)
        top = counts.max() if len(counts) else 1
        right = observed > 0
        ax.annotate(f"observed\n{observed:+.3f}", (observed, top * 0.9), xytext=(-10 if right else 10, 0),
                    textcoords="offset points", color=_BETTER, fontsize=18, ha="right" if right else "left",
                    bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.85})
        how = "all sign assignments" if exact else f"{len(values):,} random relabellings"
        ax.set_title(f"If A and B were interchangeable: p = {p_value:.3g}")
        ax.set_ylim(0, top * 1.25)
        ax.set_xlabel(f"mean difference ({how})")
        ax.set_ylabel("count")
        ax.grid(axis="x", visible=False)
        ax.legend(loc="upper left", framealpha=0.9)
    return fig


def interval_by_topics(
    topic_counts: Sequence[int],
    means: Sequence[float],
    lows: Sequence[float],
    highs: Sequence[float],
    *,
    current: int | None = None,
    height: float = 5.0,
) -> Figure:
    """The mean difference and its interval as more topics are used; 0 marked, ``current`` outlined."""
    n = np.asarray(topic_counts)
    with projector_style():
        fig = new_figure(10, height)
        ax = fig.add_subplot()
        ax.fill_between(n, lows, highs, color=COLORS["sky"], alpha=0.3, label="95 % interval")
        ax.plot(n, means, color=_BETTER, marker="o", label="mean difference")
        ax.axhline(0, color=COLORS["black"], linewidth=1.4)
        if current is not None and current in set(n.tolist()):
            i = int(np.flatnonzero(n == current)[0])
            ax.errorbar([current], [means[i]], yerr=[[means[i] - lows[i]], [highs[i] - means[i]]], color=_WORSE,
                        linewidth=4, capsize=10, marker="s", markersize=12, label=f"{current} topics")
        ax.set_xscale("log")
        ticks = [t for t in (2, 3, 5, 10, 20, 50, 100, 200, 500, 1000, 2000) if n.min() <= t <= n.max()]
        ax.set_xticks(ticks, [str(t) for t in ticks])
        ax.minorticks_off()
        ax.set_xlabel("number of topics")
        ax.set_ylabel("B − A")
        ax.set_title("The interval narrows as topics are added")
        ax.legend(loc="upper right")
    return fig


def p_value_matrix(names: Sequence[str], p_values: np.ndarray, *, alpha: float = 0.05, size: float = 8.0) -> Figure:
    """Every pair's p-value as a grid: pairs below ``alpha`` filled (and marked ✕), the rest pale.
    ``size`` is the figure's height in inches (a slide takes 4.2)."""
    p = np.asarray(p_values, dtype=float)
    with projector_style():
        fig = new_figure(size * 9 / 8, size)
        ax = fig.add_subplot()
        shown = np.where(np.isnan(p), np.nan, (p < alpha).astype(float))
        cmap = ListedColormap(["#f2f6fa", COLORS["orange"]])
        ax.imshow(shown, cmap=cmap, vmin=0, vmax=1)
        rows, cols = np.nonzero(p < alpha)
        ax.scatter(cols, rows, marker="x", color="white", s=60, linewidths=2.5)
        ticks = np.arange(len(names))
        step = 1 if len(names) <= 10 else (2 if size >= 6 else 5)  # a small grid keeps its labels apart
        ax.set_xticks(ticks[::step], [str(n) for n in names][::step])
        ax.set_yticks(ticks[::step], [str(n) for n in names][::step])
        ax.set_xlabel("run")
        ax.set_ylabel("run")
        ax.grid(False)
        count = int(np.nansum(p < alpha) // 2)
        pairs = len(names) * (len(names) - 1) // 2
        ax.set_title(f"{count} of {pairs} pairs 'significant' at {alpha:g}")
    return fig
