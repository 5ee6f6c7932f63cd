"""Figures for the concept chapters (02 gains, 03 discounts, 04 the ideal list).

Every function computes through :mod:`ndcg_core` and returns a
:class:`matplotlib.figure.Figure` built with :func:`new_figure` (not registered
with pyplot, so it is freed when the notebook drops it), drawn in the projector
style: large type, thick lines, Okabe–Ito colours, labelled axes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import FixedLocator, MaxNLocator, NullFormatter, NullLocator

from ...teaching import compare
from ...discounts import Discount, resolve_discount
from ...gains import Gain
from ...metrics import Labels, breakdown
from ._style import COLORS, new_figure, projector_style

__all__ = ["gain_bars", "contribution_bars", "weight_share_curves", "delay_curves", "topic_strips"]

#: Colour order for series: blue, orange, green, red, purple, sky.
SERIES = [COLORS[name] for name in ("blue", "orange", "green", "red", "purple", "sky")]
#: A dash pattern per series (same order), so that curves are told apart without colour.
#: a hatch per series, so bars side by side are told apart without colour (the first stays plain)
SERIES_HATCHES = ["", "//", "..", "xx", "\\\\", "++"]
SERIES_DASHES = ["-", (0, (6, 2)), (0, (6, 2, 1.5, 2)), (0, (1.5, 1.5)), (0, (8, 2, 1.5, 2, 1.5, 2)), (0, (3, 3))]


def _fmt(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".") if abs(x - round(x)) > 1e-9 else f"{round(x):d}"


def gain_bars(
    labels: Sequence[float] = (0, 1, 2, 3),
    gains: Sequence[str] | Mapping[str, Gain] = ("linear", "exponential"),
) -> Figure:
    """Grouped bars: the gain of each label under each gain function, values written on the bars
    (each gain with its own colour and hatch, :data:`SERIES_HATCHES`)."""
    table = compare.gain_values(labels, gains)
    with projector_style():
        fig = new_figure(10, 4.6)
        ax = fig.add_subplot()
        x = np.arange(len(table.index))
        width = 0.8 / len(table.columns)
        for j, name in enumerate(table.columns):
            offset = (j - (len(table.columns) - 1) / 2) * width
            bars = ax.bar(x + offset, table[name], width, label=name, color=SERIES[j % len(SERIES)],
                          hatch=SERIES_HATCHES[j % len(SERIES_HATCHES)], edgecolor="white", linewidth=0)
            ax.bar_label(bars, labels=[_fmt(v) for v in table[name]], padding=3, fontsize=18)
        ax.set_xticks(x, [str(label) for label in table.index])
        ax.set_xlabel("relevance label ℓ")
        ax.set_ylabel("gain g(ℓ)")
        ax.set_title("What each label is worth")
        ax.set_ylim(0, max(1.0, float(table.to_numpy().max())) * 1.18)
        ax.legend(loc="upper left")
        ax.grid(axis="x", visible=False)
    return fig


def contribution_bars(
    labels: Labels,
    k: int | None = None,
    *,
    gains: Sequence[str] | Mapping[str, Gain] = ("linear", "exponential"),
    discount: Discount = "log2",
    base: float | None = None,
    highlight: int | None = None,
) -> Figure:
    """Grouped bars per rank: the discounted gain g(ℓ_i)·d(i) under each gain function.

    The legend gives each gain's DCG@k (the sum of its bars). Each gain has its own colour and
    hatch (:data:`SERIES_HATCHES`), so the bars are told apart in greyscale and by a colour-blind
    reader. ``highlight`` outlines one rank (e.g. the document the learner just relabelled).
    """
    named = compare.named_items(gains, "gains")
    tables = {
        name: breakdown(labels, k, gain=gain, discount=discount, base=base)  # type: ignore[arg-type]
        for name, gain in named.items()
    }
    with projector_style():
        fig = new_figure(10, 4.8)
        ax = fig.add_subplot()
        first = next(iter(tables.values()))
        ranks = first["rank"].to_numpy()
        width = 0.8 / len(tables)
        top = 0.0
        for j, (name, table) in enumerate(tables.items()):
            offset = (j - (len(tables) - 1) / 2) * width
            values = table["discounted_gain"].to_numpy()
            total = float(table["dcg"].iloc[-1]) if len(table) else 0.0  # the kernel's running sum
            shown = f"{total:.2f}" if abs(total) < 1e6 else f"{total:.3e}"  # 2^1000 - 1 has 302 digits
            ax.bar(ranks + offset, values, width, color=SERIES[j % len(SERIES)], label=f"{name}: DCG = {shown}",
                   hatch=SERIES_HATCHES[j % len(SERIES_HATCHES)], edgecolor="white", linewidth=0)
            top = max(top, float(values.max()) if len(values) else 0.0)
        if highlight is not None and 1 <= highlight <= len(ranks):
            ax.axvspan(highlight - 0.45, highlight + 0.45, color=COLORS["yellow"], alpha=0.35, zorder=0, lw=0)
        ax.set_xlabel("rank i")
        ax.set_ylabel("discounted gain g(ℓᵢ)·d(i)")
        ax.set_title("What each rank adds to DCG")
        # every rank of a short list (MaxNLocator falls back to fractions below two integers)
        ax.xaxis.set_major_locator(FixedLocator(ranks) if len(ranks) <= 12 else MaxNLocator(integer=True))
        ax.set_xlim(0.4, len(ranks) + 0.6)
        ax.set_ylim(0, max(1.0, top) * 1.15)
        ax.legend(loc="upper right")
        ax.grid(axis="x", visible=False)
    return fig


def weight_share_curves(
    discounts: Sequence[str] | Mapping[str, Discount] = ("log2", "reciprocal", "none"),
    n: int = 100,
    head: int = 10,
    *,
    dashes: bool = False,
    ylabel: str | None = None,
) -> Figure:
    """Cumulative share of the total discount weight of ranks 1..n, by rank (log-scaled axis).

    A dotted line marks rank ``head``; the legend gives each discount's share there.
    ``dashes=True`` draws each curve with its own dash pattern too (:data:`SERIES_DASHES`);
    ``ylabel`` replaces the y axis label (a shorter one for a slide).
    """
    named = compare.named_items(discounts, "discounts")
    ranks = np.arange(1, n + 1)
    with projector_style():
        fig = new_figure(10, 4.8)
        ax = fig.add_subplot()
        for j, (name, discount) in enumerate(named.items()):
            factors = resolve_discount(discount).prefix(n)  # type: ignore[arg-type]
            share = np.cumsum(factors) / factors.sum()
            at_head = compare.weight_share(discount, n, head)  # type: ignore[arg-type]
            ax.plot(ranks, share, color=SERIES[j % len(SERIES)], label=f"{name}: {at_head:.0%} in the top {head}",
                    linestyle=SERIES_DASHES[j % len(SERIES_DASHES)] if dashes else "-")
        ax.axvline(head, color=COLORS["grey"], linestyle=":", linewidth=2.5)
        ax.set_xscale("log")
        ticks = [t for t in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000) if t <= n]
        ax.xaxis.set_major_locator(FixedLocator(ticks))
        ax.xaxis.set_major_formatter(lambda value, _pos: f"{value:g}")
        ax.xaxis.set_minor_locator(NullLocator())
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_ylim(0, 1.02)
        ax.yaxis.set_major_formatter(lambda value, _pos: f"{value:.0%}")
        ax.set_xlabel("rank i (log scale)")
        ax.set_ylabel(f"share of the weight of ranks 1–{n}" if ylabel is None else ylabel)
        ax.set_title(f"How much of the weight sits in the top ranks (of {n})")
        ax.legend(loc="upper left")
    return fig


def delay_curves(
    curves: Mapping[str, Sequence[float]],
    *,
    xlabel: str = "rank of the first highly relevant document",
    ylabel: str = "nDCG",
    title: str = "The same delay costs topics differently",
    mark: int | None = None,
) -> Figure:
    """Lines of a score (nDCG) against a position 1, 2, ... for several named cases.

    Element j of each curve is the value at position j + 1. ``mark`` draws a vertical
    line at one position (the learner's current choice).
    """
    if not isinstance(curves, Mapping) or not curves:
        raise TypeError(f"curves must be a non-empty {{name: values}} mapping; got {curves!r}.")
    with projector_style():
        fig = new_figure(10, 4.8)
        ax = fig.add_subplot()
        longest = 1
        for j, (name, values) in enumerate(curves.items()):
            y = np.asarray(values, dtype=float)
            x = np.arange(1, len(y) + 1)
            longest = max(longest, len(y))
            ax.plot(x, y, marker="o", color=SERIES[j % len(SERIES)], label=name)
        if mark is not None:
            ax.axvline(mark, color=COLORS["grey"], linestyle=":", linewidth=2.5)
        ax.set_xlim(0.5, longest + 0.5)
        ax.set_ylim(0, 1.05)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        ax.legend(loc="upper right")
    return fig


def topic_strips(
    systems: Mapping[str, Sequence[float]],
    *,
    ylabel: str = "nDCG of one topic",
    title: str = "One mean, different systems",
) -> Figure:
    """Per-topic scores of each system as dots, with the mean as a thick bar and its value."""
    if not isinstance(systems, Mapping) or not systems:
        raise TypeError(f"systems must be a non-empty {{name: per-topic values}} mapping; got {systems!r}.")
    with projector_style():
        fig = new_figure(10, 4.8)
        ax = fig.add_subplot()
        for j, values in enumerate(systems.values()):
            y = np.asarray(values, dtype=float)
            spread = np.linspace(-0.15, 0.15, len(y)) if len(y) > 1 else np.zeros(1)
            color = SERIES[j % len(SERIES)]
            ax.scatter(j + spread, y, s=150, color=color, edgecolor="black", linewidth=1.2, zorder=3)
            mean = float(y.mean())
            ax.hlines(mean, j - 0.22, j + 0.22, color=COLORS["black"], linewidth=5, zorder=4)
            ax.annotate(f"mean {mean:.2f}", (j + 0.25, mean), va="center", fontsize=16, fontweight="bold")
        ax.set_xticks(range(len(systems)), list(systems))
        ax.set_xlabel("system")
        ax.set_xlim(-0.6, len(systems) - 0.4 + 0.45)
        ax.set_ylim(-0.05, 1.08)
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        ax.grid(axis="x", visible=False)
    return fig
