"""Figures for chapter 12 ("Which measure?"): the measure family side by side, and what
missing judgments do to each measure.

The numbers come from :mod:`ndcg_core.teaching.measures`; these functions only draw them,
in the projector style (large type, thick lines, Okabe–Ito colours, values written on the
bars, series told apart by dash pattern as well as colour). Each takes ``height`` (inches at
its 10-inch width; by default the page's) and ``slide=True`` for a deck, which draws it as an
inline SVG checked stroke by stroke: grid and legend frame in a grey of 3:1 or more
(:data:`~ndcg_core.ui.plots._style.SLIDE_RC`) and no text under 18 pt.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from ._style import COLORS, new_figure, projector_style
from .concepts import SERIES, SERIES_DASHES

__all__ = ["measure_bars", "holes_bars", "sampling_plot"]

#: One colour per measure kind: binary measures blue, nDCG green, bpref orange.
_KIND = {"P@": COLORS["blue"], "AP": COLORS["blue"], "MAP": COLORS["blue"], "nDCG": COLORS["green"],
         "bpref": COLORS["orange"]}


def _colour(name: str) -> str:
    for prefix, colour in _KIND.items():
        if name.startswith(prefix):
            return colour
    return COLORS["grey"]


def measure_bars(
    values: pd.DataFrame, title: str = "One ranking, six measures", *, height: float | None = None, slide: bool = False
) -> Figure:
    """Horizontal bars, one per measure, its value written at the end of the bar.

    ``values`` is :func:`ndcg_core.teaching.measures.measure_values`' table (index: measure
    names, column ``value``). Binary measures are blue, nDCG green, bpref orange.
    """
    names = list(values.index)
    numbers = [float(v) for v in values["value"]]
    with projector_style(slide=slide):
        fig = new_figure(10, 0.75 * len(names) + 1.6 if height is None else height)
        ax = fig.add_subplot()
        y = np.arange(len(names))[::-1]
        bars = ax.barh(y, numbers, height=0.62, color=[_colour(n) for n in names])
        ax.bar_label(bars, labels=[f"{v:.4f}" for v in numbers], padding=6, fontsize=19, fontweight="bold")
        ax.set_yticks(y, names)
        ax.set_xlim(0, 1.22)
        ax.set_xticks([0, 0.25, 0.5, 0.75, 1.0])
        ax.set_xlabel("value (every measure lies between 0 and 1)")
        ax.set_title(title)
        ax.grid(axis="y", visible=False)
    return fig


def holes_bars(
    table: pd.DataFrame,
    title: str = "Unjudged documents: which measure holds up?",
    after_label: str = "with the unjudged documents",
    *,
    height: float | None = None,
    slide: bool = False,
) -> Figure:
    """Pairs of horizontal bars per measure: as before (every document judged) and after.

    ``table`` is :func:`ndcg_core.teaching.measures.holes_table`' or
    :func:`~ndcg_core.teaching.measures.unjudged_on_top_table`' table (its first column is
    ``all judged``, its second the values after). The change is written next to each pair.
    """
    names = list(table.index)
    after = table.columns[1]
    small = 18 if slide else 17  # the values; the legend at 18 on a slide, 16 on the page
    with projector_style(slide=slide):
        fig = new_figure(10, 1.05 * len(names) + 1.8 if height is None else height)
        ax = fig.add_subplot()
        y = np.arange(len(names))[::-1] * 1.0
        h = 0.38
        full = ax.barh(y + h / 2, table["all judged"], height=h, color=COLORS["blue"], label="every document judged")
        holed = ax.barh(y - h / 2, table[after], height=h, color=COLORS["sky"], hatch="//",
                        edgecolor=COLORS["blue"], label=after_label)
        ax.bar_label(full, labels=[f"{v:.2f}" for v in table["all judged"]], padding=5, fontsize=small)
        ax.bar_label(holed, labels=[f"{v:.2f} ({c:+.2f})" for v, c in zip(table[after], table["change"])],
                     padding=5, fontsize=small, fontweight="bold")
        ax.set_yticks(y, names)
        ax.set_xlim(0, 1.5)
        ax.set_xticks([0, 0.25, 0.5, 0.75, 1.0])
        fig.suptitle(title, fontsize=21, fontweight="bold")
        fig.legend(handles=[full, holed], loc="outside lower center", ncols=2, fontsize=18 if slide else 16)
        ax.grid(axis="y", visible=False)
    return fig


def sampling_plot(
    curves: pd.DataFrame, fraction: float | None = None, *, height: float | None = None, slide: bool = False
) -> Figure:
    """Each measure's mean over runs as a share of its value with every judgment, against
    the share of judgments kept (100 % on the left, fewer to the right).

    ``curves`` is :func:`ndcg_core.teaching.measures.sampling_curves`' table; ``fraction``
    marks the share the learner picked with a vertical line. On a slide the legend (18 pt) goes
    under the axes in three columns, off the curves.
    """
    mean = curves.groupby(["measure", "fraction"], sort=False)["share"].mean().unstack("fraction")
    measures = list(dict.fromkeys(curves["measure"]))
    with projector_style(slide=slide):
        fig = new_figure(10, 5.6 if height is None else height)
        ax = fig.add_subplot()
        for j, name in enumerate(measures):
            row = mean.loc[name].sort_index(ascending=False)
            ax.plot(row.index, row.to_numpy(), marker="o", color=SERIES[j % len(SERIES)],
                    linestyle=SERIES_DASHES[j % len(SERIES_DASHES)], label=name)
        ax.axhline(1.0, color=COLORS["grey"], linewidth=1.5)
        if fraction is not None:
            ax.axvline(fraction, color=COLORS["black"], linewidth=1.5, linestyle=":")
        ax.set_xlim(1.03, min(mean.columns) - 0.03)
        ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        top = float(np.nanmax(mean.to_numpy()))
        ax.set_ylim(0, max(1.25, top + 0.08))
        ax.set_xlabel("judgments kept (drawn at random)")
        ax.set_ylabel("share of full value" if slide else "mean value / value with all")  # a slide's is shorter
        ax.set_title("Thinning the judgments: who stays near 100 %?")
        if slide:
            fig.legend(loc="outside lower center", ncols=3)
        else:
            ax.legend(loc="lower left", fontsize=15, ncols=2)
    return fig
