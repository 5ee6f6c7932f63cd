"""The nDCG-at-every-cutoff figure: nDCG@1, nDCG@2, ... with the cutoff k marked."""

from __future__ import annotations

from collections.abc import Sequence
from numbers import Real

import numpy as np
from matplotlib.artist import Artist
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, MultipleLocator

from ..._validation import check_positive_int
from ._style import COLORS
from .compositor import Plot, layered, new_frame, nice_end, static_figure

__all__ = ["CurvePlot", "ndcg_at_cutoffs", "ndcg_at_cutoffs_html"]


class CurvePlot(Plot):
    """key = last cutoff drawn; data = (curve, k)."""

    def build(self) -> None:
        last: int = self.key  # type: ignore[assignment]
        self.last = last
        self.fig, ax = new_frame(10.0, 4.6, {"left": 0.085, "right": 0.975, "bottom": 0.17, "top": 0.78})
        self.ax = ax
        anim = self.animated
        marker = "o" if last <= 30 else None
        (self.line,) = ax.plot([], [], color=COLORS["green"], marker=marker, label="nDCG@cutoff",
                               animated=anim)
        (self.tail,) = ax.plot([], [], color=COLORS["green"], linestyle=":", animated=anim,
                               label="past the end")
        self.cut = ax.axvline(1, color=COLORS["black"], linestyle="--", linewidth=2.2, animated=anim)
        (self.dot,) = ax.plot([], [], marker="o", markersize=17, color=COLORS["red"], markeredgecolor="black",
                              markeredgewidth=1.6, linestyle="none", zorder=5, animated=anim)
        self.note = self.fig.text(0.975, 0.81, "", ha="right", va="bottom", fontsize=21, fontweight="bold",
                                  color=COLORS["red"], animated=anim)
        ax.set_xlim(0.5, last + 0.5)
        ax.set_ylim(0, 1.08)
        # past 999 cutoffs, fewer ticks: five-digit labels ran into each other and off the figure
        ax.xaxis.set_major_locator(MaxNLocator(integer=True) if last < 1000 else
                                     MaxNLocator(nbins=4, integer=True, prune="upper"))
        ax.yaxis.set_major_locator(MultipleLocator(0.2))  # the same ticks at any text size
        ax.set_xlabel("cutoff")
        ax.set_ylabel("nDCG")
        ax.set_title("nDCG at every cutoff: it can go down", pad=44)
        ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncols=2, columnspacing=1.0, handlelength=1.6, frameon=False)

    def update(self, data: tuple[np.ndarray, int]) -> tuple[list[Artist], list[Artist]]:
        y, k = data
        x = np.arange(1, len(y) + 1)
        self.line.set_data(x, y)
        if k > len(y):
            self.tail.set_data([len(y), k], [y[-1], y[-1]])
        else:
            self.tail.set_data([], [])
        at_k = float(y[min(k, len(y)) - 1])
        self.cut.set_xdata([k, k])
        self.dot.set_data([k], [at_k])
        self.note.set_text(f"nDCG@{k} = {at_k:.4f}")
        return [self.line, self.tail, self.cut, self.dot, self.note], []


def _curve_data(curve: Sequence[float], k: int) -> tuple[int, tuple[np.ndarray, int]]:
    if isinstance(curve, (str, bytes)) or not isinstance(curve, Sequence) or not all(
        isinstance(v, Real) and not isinstance(v, bool) and np.isfinite(float(v)) for v in curve
    ):
        raise TypeError("curve must be a list of finite numbers, as ndcg_core.ndcg_curve(...) returns.")
    if not curve:
        raise ValueError("curve is empty: there is no cutoff to draw. Give at least one label.")
    k = check_positive_int(k, "k")
    y = np.asarray(curve, dtype=float)
    return nice_end(max(k, len(y))), (y, k)


def ndcg_at_cutoffs(curve: Sequence[float], k: int) -> Figure:
    """nDCG at every cutoff 1, 2, ... with the cutoff k marked.

    ``curve`` is :func:`ndcg_core.ndcg_curve`'s list, which by default runs to the end of the
    longer of the ranked list and the ideal list. Past that end neither DCG nor IDCG changes,
    so a k beyond the curve is drawn on a flat dotted extension at the curve's last value.
    """
    last, data = _curve_data(curve, k)
    return static_figure(CurvePlot(last, animated=False), data)


def ndcg_at_cutoffs_html(curve: Sequence[float], k: int) -> str:
    """:func:`ndcg_at_cutoffs` as HTML: a cached PNG frame with the curve as SVG on top."""
    last, data = _curve_data(curve, k)
    y, k = data
    at_k = float(y[min(k, len(y)) - 1])
    return layered(CurvePlot, last, "nDCG at every cutoff").html(data, f"nDCG@{k} = {at_k:.4f}")
