"""The gains figure: gain and discounted gain per rank (bars), with cumulative DCG and IDCG (lines)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.artist import Artist
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from ..._validation import check_positive_int
from ._style import COLORS
from .compositor import Plot, layered, new_frame, nice_end, nice_top, static_figure

__all__ = ["MAX_BARS", "STEP_BINS", "BREAKDOWN_COLUMNS", "GainsPlot", "check_breakdown", "gains_per_rank",
           "gains_per_rank_html"]

#: Up to this many ranks the gains plot draws a pair of bars per rank. Past it (a list of
#: thousands, where a bar is narrower than a pixel) each series is one filled outline that
#: covers exactly what its bars would (:data:`STEP_BINS` steps across the axis, each from the
#: lowest to the highest bar it stands for), and the unjudged ranks are red ticks: 20,000
#: bars were 20,000 SVG elements, seconds to draw and to show on every edit.
MAX_BARS = 100
#: Steps across the gains plot past :data:`MAX_BARS` ranks (a step is about 2-3 pixels
#: wide as the playground shows the plot).
STEP_BINS = 250
#: The columns of :func:`ndcg_core.breakdown`'s table the figure reads.
BREAKDOWN_COLUMNS = ("rank", "status", "gain", "discounted_gain", "dcg", "idcg")


def check_breakdown(table: object) -> pd.DataFrame:
    if not isinstance(table, pd.DataFrame):
        raise TypeError(
            f"table must be the DataFrame from ndcg_core.breakdown(...); got {type(table).__name__}."
        )
    missing = [c for c in BREAKDOWN_COLUMNS if c not in table.columns]
    if missing:
        raise ValueError(
            f"table must be the DataFrame from ndcg_core.breakdown(...); it lacks the column(s) "
            f"{', '.join(missing)}."
        )
    return table


class GainsPlot(Plot):
    """key = (number of ranks, y top); data = the breakdown table."""

    def build(self) -> None:
        rows, top = self.key  # type: ignore[misc]
        self.rows: int = rows
        self.top: float = top
        # four-digit y ticks (a list of thousands) need a little more room for the axis label
        self.fig, ax = new_frame(10.0, 5.0, {"left": 0.085 if top < 1000 else 0.105, "right": 0.985, "bottom": 0.155,
                                               "top": 0.74})
        self.ax = ax
        ranks = np.arange(1, rows + 1, dtype=float)
        width = 0.4
        anim = self.animated
        self.bars = rows <= MAX_BARS
        if self.bars:
            self.gain_bars = ax.bar(ranks - width / 2, np.zeros(rows), width, color="white", edgecolor=COLORS["blue"],
                                    hatch="//", linewidth=1.6, label="gain g(ℓᵢ)", animated=anim)
            self.discounted_bars = ax.bar(ranks + width / 2, np.zeros(rows), width, color=COLORS["blue"],
                                          label="discounted gain g(ℓᵢ)·d(i)", animated=anim)
        else:  # thousands of ranks: one outline per series, the unjudged ranks as red ticks
            self.bin = -(-rows // STEP_BINS)  # ceil: ranks per step
            self.edges = np.append(np.arange(0, rows, self.bin), rows) + 0.5
            steps = np.zeros(len(self.edges) - 1)
            self.gain_steps = ax.stairs(steps, self.edges, fill=True, facecolor="white", edgecolor=COLORS["blue"],
                                        hatch="//", linewidth=1.2, label="gain g(ℓᵢ)", animated=anim)
            self.discounted_steps = ax.stairs(steps, self.edges, fill=True, color=COLORS["blue"], linewidth=0,
                                              label="discounted gain g(ℓᵢ)·d(i)", animated=anim)
            (self.unjudged_ticks,) = ax.plot([], [], color=COLORS["red"], linewidth=1.0, animated=anim)
        marker = "o" if rows <= 30 else None
        (self.idcg_line,) = ax.plot(ranks, np.zeros(rows), color=COLORS["orange"], linestyle="--", marker=marker,
                                    label="cumulative IDCG", animated=anim)
        (self.dcg_line,) = ax.plot(ranks, np.zeros(rows), color=COLORS["black"], marker=marker,
                                   label="cumulative DCG", animated=anim)
        # the totals' labels sit on a light box, so a line running under them does not cross the digits
        backing = {"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none", "alpha": 0.8}
        self.dcg_note = ax.annotate("", (rows, 0), xytext=(-8, -28), textcoords="offset points", ha="right",
                                    fontsize=18, fontweight="bold", animated=anim, annotation_clip=False,
                                    bbox=backing, zorder=6)
        self.idcg_note = ax.annotate("", (rows, 0), xytext=(-8, 12), textcoords="offset points", ha="right",
                                     fontsize=18, fontweight="bold", color=COLORS["orange"], animated=anim,
                                     annotation_clip=False, bbox=backing, zorder=6)
        ax.set_xlim(0.4, rows + 0.6)
        ax.set_ylim(0, top)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("rank i" if self.bars else "rank i (red ticks: unjudged ranks)")
        ax.set_ylabel("gain")
        ax.set_title("What each rank adds, and the running totals", pad=64)
        ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncols=2, frameon=False)
        ax.grid(axis="x", visible=False)

    def update(self, data: tuple[pd.DataFrame, int]) -> tuple[list[Artist], list[Artist]]:
        table, cut = data
        n = len(table)
        gains = np.zeros(self.rows)
        discounted = np.zeros(self.rows)
        gains[:n] = table["gain"].to_numpy(dtype=float)
        discounted[:n] = table["discounted_gain"].to_numpy(dtype=float)
        dcg = table["dcg"].to_numpy(dtype=float)
        idcg = table["idcg"].to_numpy(dtype=float)
        status = table["status"].to_numpy()
        if not self.bars:
            return self._update_steps(cut, n, gains, discounted, dcg, idcg, status)
        for bar, height in zip(self.gain_bars, gains):
            bar.set_height(height)
        for bar, height in zip(self.discounted_bars, discounted):
            bar.set_height(height)
        self._set_totals(cut, n, dcg, idcg)
        marks = [
            self.ax.text(rank, self.top * 0.02, "?", ha="center", va="bottom", fontsize=24, fontweight="bold",
                         color=COLORS["red"], animated=self.animated)
            for rank in np.flatnonzero(status == "unjudged") + 1
        ]
        live: list[Artist] = [*self.gain_bars, *self.discounted_bars, self.idcg_line, self.dcg_line,
                              self.idcg_note, self.dcg_note, *marks]
        return live, marks

    def _set_totals(self, cut: int, n: int, dcg: np.ndarray, idcg: np.ndarray) -> None:
        ranks = np.arange(1, n + 1, dtype=float)
        self.idcg_line.set_data(ranks, idcg)
        self.dcg_line.set_data(ranks, dcg)
        self.dcg_note.xy = (n, dcg[-1])
        self.dcg_note.set_text(f"DCG@{cut} = {dcg[-1]:.4f}")
        self.idcg_note.xy = (n, idcg[-1])
        self.idcg_note.set_text(f"IDCG@{cut} = {idcg[-1]:.4f}")

    def _update_steps(self, cut: int, n: int, gains: np.ndarray, discounted: np.ndarray, dcg: np.ndarray,
                      idcg: np.ndarray, status: np.ndarray) -> tuple[list[Artist], list[Artist]]:
        """:meth:`update` past :data:`MAX_BARS` ranks: a handful of SVG elements at any length."""
        for steps, values in ((self.gain_steps, gains), (self.discounted_steps, discounted)):
            padded = np.zeros(len(self.edges[:-1]) * self.bin)
            padded[: len(values)] = values
            per_step = padded.reshape(-1, self.bin)  # the bars each step stands for
            steps.set_data(np.maximum(per_step.max(axis=1), 0.0), self.edges, np.minimum(per_step.min(axis=1), 0.0))
        judged = np.zeros(len(self.edges[:-1]) * self.bin, dtype=bool)
        judged[: len(status)] = status == "unjudged"
        unjudged = (self.edges[:-1][judged.reshape(-1, self.bin).any(axis=1)] + self.edges[1:][
            judged.reshape(-1, self.bin).any(axis=1)]) / 2  # a tick in the middle of each step with one
        # one path: a vertical tick per step holding an unjudged rank, separated by NaN (pen up)
        xs = np.repeat(unjudged, 3)
        ys = np.tile([0.0, self.top * 0.03, np.nan], len(unjudged))
        xs[2::3] = np.nan
        self.unjudged_ticks.set_data(xs, ys)
        self._set_totals(cut, n, dcg, idcg)
        return [self.gain_steps, self.discounted_steps, self.unjudged_ticks, self.idcg_line, self.dcg_line,
                self.idcg_note, self.dcg_note], []


#: Up to this cutoff the gains plot shows every rank 1..k, past the list's end too.
_SHOW_EMPTY_RANKS_UP_TO = 20


def _gains_key(table: pd.DataFrame, k: int | None) -> tuple[tuple[int, float], tuple[pd.DataFrame, int]]:
    table = check_breakdown(table)
    if len(table) == 0:
        raise ValueError("table has no ranks to draw; give at least one label.")
    n = len(table)
    if k is not None:
        k = check_positive_int(k, "k")
        if k < n:
            raise ValueError(f"k must be at least the table's {n} ranks; got k={k}. Pass the k the table was made with.")
    slots = n if k is None else max(n, min(k, _SHOW_EMPTY_RANKS_UP_TO))
    if slots > MAX_BARS:  # the axis ends on a nice number, so that similar lengths share a frame
        slots = nice_end(slots)
    columns = [table[c].to_numpy(dtype=float) for c in ("gain", "discounted_gain", "dcg", "idcg")]
    highest = max(float(np.max(c)) for c in columns)
    return (slots, nice_top(highest * 1.3)), (table, n if k is None else k)


def _same_slots_roomy_enough(key: tuple[int, float]) -> Callable[[Any], bool]:
    slots, top = key
    return lambda other: other[0] == slots and top <= other[1] <= 3 * top


def gains_per_rank(table: pd.DataFrame, k: int | None = None) -> Figure:
    """Gain and discounted gain per rank (bars), with cumulative DCG and IDCG (lines).

    ``table`` is :func:`ndcg_core.breakdown`'s per-rank table. Unjudged ranks are marked
    ``?``; the gap between the two lines at the last rank is what nDCG < 1 measures. Past
    :data:`MAX_BARS` ranks the bars become stepped lines and the ``?`` marks red ticks.
    With the cutoff ``k`` (up to 20) the axis shows every rank 1..k, also those past the end
    of a shorter list, and the totals are labelled ``DCG@k``.
    """
    key, data = _gains_key(table, k)
    return static_figure(GainsPlot(key, animated=False), data)


def gains_per_rank_html(table: pd.DataFrame, k: int | None = None) -> str:
    """:func:`gains_per_rank` as HTML: a cached PNG frame with the bars and lines as SVG on top.

    The y axis stays put while the data fit it and fill at least a third of it, so
    successive edits are easy to compare (and cheap to draw); only then is it rescaled.
    """
    key, data = _gains_key(table, k)
    cut = data[1]
    dcg, idcg = float(table["dcg"].iloc[-1]), float(table["idcg"].iloc[-1])
    return layered(
        GainsPlot, key, "Gain and discounted gain per rank with cumulative DCG and IDCG",
        accept=_same_slots_roomy_enough(key),
    ).html(data, f"DCG@{cut} = {dcg:.4f}, IDCG@{cut} = {idcg:.4f}")
