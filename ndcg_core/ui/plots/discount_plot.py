"""The discount curves figure: d(i) of the five named discounts by rank, the chosen one highlighted."""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.artist import Artist
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from ..._validation import check_positive_int
from ...discounts import Discount, DiscountFunction, resolve_discount
from ...labels import MAX_LABELS
from ._style import COLORS
from .compositor import Layered, Plot, layered, new_frame, static_figure

__all__ = ["DISCOUNT_CURVE_NAMES", "MAX_DOTS", "MAX_DISCOUNT_RANK", "DiscountPlot", "curve_label",
           "discount_curves", "discount_curves_html"]

#: The five named discounts drawn side by side (``"log"`` or a callable is drawn only when chosen).
DISCOUNT_CURVE_NAMES = ("log2", "log2_shifted", "reciprocal", "jarvelin_kekalainen", "none")
#: The discount plot marks at most about this many of the ranks 1..k with dots (evenly spaced,
#: rank 1 first); each dot is an element of the page.
MAX_DOTS = 100
#: The discount plot draws ranks up to k, but never past this rank (the longest list a
#: learner can type, ``ndcg_core.labels.MAX_LABELS``): a typed k of 10**9 drew nothing better
#: and needed gigabytes. The note still names k; the dashed line at k shows when k is drawn.
MAX_DISCOUNT_RANK = MAX_LABELS

_CURVE_COLORS = {
    "log2": COLORS["blue"],
    "log2_shifted": COLORS["orange"],
    "reciprocal": COLORS["green"],
    "jarvelin_kekalainen": COLORS["purple"],
    "none": COLORS["grey"],
}
_CHOSEN_EXTRA_COLOR = COLORS["red"]
#: Each discount curve has its own dash pattern too, so the curves are told apart without colour.
_CURVE_STYLES = {
    "log2": "-",
    "log2_shifted": (0, (6, 2)),
    "reciprocal": (0, (6, 2, 1.5, 2)),
    "jarvelin_kekalainen": (0, (1.5, 1.5)),
    "none": (0, (8, 2, 1.5, 2, 1.5, 2)),
}


def _b(base: float | None) -> str:
    return f"{2 if base is None else base:g}"


def curve_label(name: str, base: float | None) -> str:
    return {
        "log2": "1/log₂(i+1)",
        "log2_shifted": "1/log₂(i+2), shifted",
        "reciprocal": "1/i, reciprocal",
        "jarvelin_kekalainen": f"Järvelin–Kekäläinen, b = {_b(base)}",
        "none": "none (plain CG)",
        "log": f"1/log_{_b(base)}(i+1)",
    }.get(name, "your discount")



class DiscountPlot(Plot):
    """key = (chosen DiscountFunction, last rank drawn); data = k."""

    def build(self) -> None:
        chosen, last = self.key  # type: ignore[misc]
        self.chosen: DiscountFunction = chosen
        self.last: int = last
        self.fig, ax = new_frame(10.0, 5.0, {"left": 0.09, "right": 0.55, "bottom": 0.155, "top": 0.88})
        self.ax = ax
        ranks = np.arange(1, last + 1)
        names = list(DISCOUNT_CURVE_NAMES)
        if chosen.name not in names:
            names.append(chosen.name)
        color = _CURVE_COLORS.get(chosen.name, _CHOSEN_EXTRA_COLOR)
        self.factors = chosen.prefix(last)
        for name in names:
            if name == chosen.name:
                ax.plot(ranks, self.factors, color=color, linewidth=6, zorder=5, solid_capstyle="round",
                        label=f"{curve_label(name, chosen.base)} (chosen)")
            else:
                ax.plot(ranks, resolve_discount(name).prefix(last), color=_CURVE_COLORS[name], linewidth=2.6,
                        linestyle=_CURVE_STYLES[name], zorder=3, label=curve_label(name, None))
        self.cut = ax.axvline(1, color=COLORS["black"], linestyle="--", linewidth=2.2, zorder=4,
                              animated=self.animated)
        (self.dots,) = ax.plot([], [], linestyle="none", marker="o", markersize=12, color=color,
                               markeredgecolor="black", markeredgewidth=1.6, zorder=6, animated=self.animated,
                               label="ranks 1..k that count")
        self.note = self.fig.text(0.575, 0.17, "", ha="left", va="bottom", fontsize=19, fontweight="bold",
                                  animated=self.animated)
        ax.set_xlim(0.5, last + 0.5)
        ax.set_ylim(0, max(1.08, float(self.factors.max()) * 1.08))
        # past 999 ranks, fewer ticks: five-digit labels side by side ran into each other
        ax.xaxis.set_major_locator(MaxNLocator(integer=True) if last < 1000 else MaxNLocator(nbins=3, integer=True))
        ax.set_xlabel("rank i")
        ax.set_ylabel("discount d(i)")
        ax.set_title(f"Discount by rank: {curve_label(chosen.name, chosen.base).split(',')[0]}")
        ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)

    def update(self, k: int) -> tuple[list[Artist], list[Artist]]:
        top = min(k, self.last)
        step = -(-top // MAX_DOTS)  # ceil: at most MAX_DOTS dots, rank 1 among them
        self.dots.set_data(np.arange(1, top + 1)[::step], self.factors[:top:step])
        self.cut.set_xdata([k, k])
        self.cut.set_visible(k <= self.last)
        # a long k on two lines, so the note stays inside the figure
        self.note.set_text(f"k = {k}: ranks 1–{k} count" if k < 1000 else f"k = {k:,}:\nranks 1–{k:,} count")
        self.note.set_y(0.17 if k < 1000 else 0.07)
        return [self.cut, self.dots, self.note], []


def _discount_key(discount: Discount, base: float | None, k: int, max_rank: int | None) -> tuple[Any, int, int]:
    k = check_positive_int(k, "k")
    chosen = resolve_discount(discount, base)
    last = max(10, min(k, MAX_DISCOUNT_RANK)) if max_rank is None else check_positive_int(max_rank, "max_rank")
    return chosen, last, k


def discount_curves(
    discount: Discount = "log2",
    *,
    base: float | None = None,
    k: int = 5,
    max_rank: int | None = None,
) -> Figure:
    """The discount factor d(i) of the five named discounts by rank, the chosen one highlighted.

    Parameters
    ----------
    discount, base
        The chosen discount, as in :func:`ndcg_core.dcg`. ``"log"`` (with a base other
        than 2) or a callable is drawn as an extra, highlighted curve; the
        Järvelin–Kekäläinen curve uses ``base`` when it is the chosen one, else base 2.
    k
        The cutoff: ranks 1..k of the chosen curve are marked with dots, k with a dashed line.
    max_rank
        Last rank drawn (default: ``max(10, k)``, at most :data:`MAX_DISCOUNT_RANK`). Past
        :data:`MAX_DOTS` ranks, every few ranks get a dot (evenly spaced from rank 1).
    """
    chosen, last, k = _discount_key(discount, base, k, max_rank)
    return static_figure(DiscountPlot((chosen, last), animated=False), k)


def discount_curves_html(
    discount: Discount = "log2",
    *,
    base: float | None = None,
    k: int = 5,
    max_rank: int | None = None,
) -> str:
    """:func:`discount_curves` as HTML: a cached PNG frame with the k markers as SVG on top."""
    chosen, last, k = _discount_key(discount, base, k, max_rank)
    alt = f"Discount by rank, {curve_label(chosen.name, chosen.base)} highlighted among the five discounts"
    caption = f"ranks 1 to {k} marked"
    if chosen.name == "custom":
        return Layered(DiscountPlot((chosen, last), animated=True), alt).html(k, caption)
    return layered(DiscountPlot, (chosen, last), alt).html(k, caption)
