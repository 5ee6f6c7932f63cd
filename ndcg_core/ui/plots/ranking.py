"""The playground's figures: discount curves, gains per rank, nDCG at every cutoff.

Each figure comes two ways:

- ``discount_curves``, ``gains_per_rank``, ``ndcg_at_cutoffs`` return a complete
  :class:`matplotlib.figure.Figure` (no pyplot state; freed when dropped);
- the ``*_html`` twins return the same picture as HTML, fast enough to redraw on every
  keystroke of a live lecture: the static part (axes, ticks, labels, legend) as a PNG drawn
  once, the data (bars, lines, markers, the numbers) as a small SVG on top. They keep a few
  frames per plot (a small LRU cache keyed by what fixes the axes: the number of ranks, the
  y range, the chosen discount). See ``bench/ui_latency.py``.

Both ways share one builder per figure, so they draw the same thing.
"""

from __future__ import annotations

import base64
import io
import math
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from numbers import Real
from typing import Any

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.backends.backend_svg import RendererSVG
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, MultipleLocator

from ..._validation import check_positive_int
from ...labels import MAX_LABELS
from ...discounts import Discount, DiscountFunction, resolve_discount
from ._style import COLORS, projector_style

__all__ = [
    "discount_curves",
    "gains_per_rank",
    "ndcg_at_cutoffs",
    "discount_curves_html",
    "gains_per_rank_html",
    "ndcg_at_cutoffs_html",
    "to_svg",
    "stacked_html",
    "warm_frames",
    "DISCOUNT_CURVE_NAMES",
    "PNG_DPI",
    "SMALLEST_TEXT_PT",
]

#: The five named discounts drawn side by side (``"log"`` or a callable is drawn only when chosen).
DISCOUNT_CURVE_NAMES = ("log2", "log2_shifted", "reciprocal", "jarvelin_kekalainen", "none")
#: Resolution of the HTML twins' PNG frame: a 10-inch figure is 1000 pixels wide.
PNG_DPI = 100
#: The smallest text in these figures, in points (legend entries and ticks; 18 pt = 25 px at PNG_DPI):
#: a slide must draw a figure at 0.8 of its width or more for it to reach 20 px.
SMALLEST_TEXT_PT = 18
#: Figures kept per plot for fast redraws (about 1 MB each once drawn: the Agg pixels are freed).
CACHE_SIZE = 12
#: Up to this many ranks the gains plot draws a pair of bars per rank. Past it (a list of
#: thousands, where a bar is narrower than a pixel) each series is one filled outline that
#: covers exactly what its bars would (:data:`STEP_BINS` steps across the axis, each from the
#: lowest to the highest bar it stands for), and the unjudged ranks are red ticks: 20,000
#: bars were 20,000 SVG elements, seconds to draw and to show on every edit.
MAX_BARS = 100
#: Steps across the gains plot past :data:`MAX_BARS` ranks (a step is about 2-3 pixels
#: wide as the playground shows the plot).
STEP_BINS = 250
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
_BREAKDOWN_COLUMNS = ("rank", "status", "gain", "discounted_gain", "dcg", "idcg")
#: y-axis tops: the axes change only when the data outgrow one, so redraws stay cheap.
_NICE_STEPS = (1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0)


#: Text a size larger than :data:`~ndcg_core.plots._style.PROJECTOR_RC`'s: the playground shows
#: these figures beside its controls, at about two thirds of their 1000-pixel width on a
#: 1920x1080 projector (about half on a 1280x720 one), and their text must still carry.
_RANKING_RC = {
    "axes.titlesize": 21,
    "axes.labelsize": 19,
    "xtick.labelsize": 18,
    "ytick.labelsize": 18,
    "legend.fontsize": 18,
}


@contextmanager
def _style() -> Iterator[None]:
    """:func:`projector_style` with ``_RANKING_RC`` on top."""
    with projector_style(), mpl.rc_context(_RANKING_RC):
        yield


# --------------------------------------------------------------------------- helpers


def _b(base: float | None) -> str:
    return f"{2 if base is None else base:g}"


def _curve_label(name: str, base: float | None) -> str:
    return {
        "log2": "1/log₂(i+1)",
        "log2_shifted": "1/log₂(i+2), shifted",
        "reciprocal": "1/i, reciprocal",
        "jarvelin_kekalainen": f"Järvelin–Kekäläinen, b = {_b(base)}",
        "none": "none (plain CG)",
        "log": f"1/log_{_b(base)}(i+1)",
    }.get(name, "your discount")


#: x-axis ends for the nDCG curve: the axes change only when the cutoffs outgrow one.
_CUTOFF_ENDS = (5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100)


def _nice_end(value: int) -> int:
    """The smallest of 5, 6, 8, 10, 12, 15, 20, ... 100 that is >= value; past 100, the smallest
    'nice' whole number >= value (120, 150, 200, ... 10,000, 12,000: see :func:`_nice_top`), so
    that lists of 9,998, 9,999 and 10,000 labels share one cached frame.

    >>> [_nice_end(v) for v in (1, 7, 100, 101, 9_999, 10_000, 10_001)]
    [5, 8, 100, 120, 10000, 10000, 12000]
    """
    return next((end for end in _CUTOFF_ENDS if end >= value), None) or int(_nice_top(value))


def _nice_top(value: float) -> float:
    """The smallest 'nice' number (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 times a power of ten) >= value."""
    if not math.isfinite(value) or value <= 1.0:
        return 1.0
    scale = 10.0 ** math.floor(math.log10(value))
    for step in _NICE_STEPS:
        if step * scale >= value * (1 - 1e-12):
            return step * scale
    return 10.0 * scale


def _new_figure(width: float, height: float, margins: dict[str, float]) -> tuple[Figure, Any]:
    fig = Figure(figsize=(width, height), dpi=PNG_DPI)
    FigureCanvasAgg(fig)
    fig.subplots_adjust(**margins)
    return fig, fig.add_subplot()


class _Plot:
    """One figure split into a static frame and the data artists drawn on top of it.

    ``key`` fixes everything static; :meth:`update` sets the data and returns the artists
    to draw (``live``) and any artists it created for this picture only (``temporary``).
    With ``animated=True`` the data artists are skipped by a full draw, so the full draw
    is the reusable background.
    """

    def __init__(self, key: Hashable, animated: bool) -> None:
        self.key = key
        self.animated = animated
        with _style():
            self.build()

    def build(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def update(self, data: Any) -> tuple[list[Artist], list[Artist]]:  # pragma: no cover - abstract
        raise NotImplementedError

    fig: Figure


def _static_figure(plot: _Plot, data: Any) -> Figure:
    """A complete figure: the frame with the data drawn in, no caching."""
    with _style():
        plot.update(data)
    return plot.fig


_SVG_DPI = 72  # matplotlib's SVG unit: one point
#: How the overlay writes text: "none" (SVG text in DejaVu Sans, matplotlib's font, falling back
#: to the browser's sans-serif; small) or "path" (glyph outlines: exact everywhere, larger).
OVERLAY_FONTTYPE = "none"


class _Layered:
    """A cached :class:`_Plot` shown as two layers: its static frame as a PNG (encoded once)
    and the data as a small SVG drawn on top. An edit redraws only the SVG, and the browser
    keeps the unchanged PNG without decoding it again."""

    def __init__(self, plot: _Plot, alt: str) -> None:
        self.plot = plot
        canvas: FigureCanvasAgg = plot.fig.canvas  # type: ignore[assignment]
        with _style():
            canvas.draw()
        png = _encode_frame_png(canvas)
        canvas.__dict__.pop("renderer", None)  # the Agg pixels are not needed again: free them
        plot.fig.set_dpi(_SVG_DPI)  # the overlay is drawn in points; both layers fill one box
        self.width, self.height = plot.fig.bbox.width, plot.fig.bbox.height
        self.background = base64.b64encode(png).decode("ascii")
        self.alt = _attr(alt)
        self.lock = threading.Lock()

    def html(self, data: Any, caption: str) -> str:
        with self.lock, _style(), mpl.rc_context({"svg.fonttype": OVERLAY_FONTTYPE, "svg.hashsalt": "ndcg-lab"}):
            buffer = io.StringIO()
            renderer = RendererSVG(self.width, self.height, buffer,
                                   metadata={"Creator": None, "Date": None, "Format": None, "Type": None})
            live, temporary = self.plot.update(data)
            for artist in live:
                artist.draw(renderer)
            renderer.finalize()
            for artist in temporary:
                artist.remove()
        svg = _compact(_short_coordinates(_without_style_sheet(buffer.getvalue())))
        svg = _SVG_SIZE.sub(
            lambda m: f'<svg{m.group(1)} aria-hidden="true" style="position: absolute; left: 0; top: 0; '
            f'width: 100%; height: 100%; {_SVG_ROOT_STYLE}"',
            svg,
            count=1,
        )
        return (
            f'<figure class="ndcg-plot" style="margin: 0; width: 100%; max-width: 1000px">'
            f'<div style="position: relative; width: 100%">'
            f'<img src="data:image/png;base64,{self.background}" alt="{self.alt}: {_attr(caption)}" '
            f'style="display: block; width: 100%; height: auto">{svg}</div></figure>'
        )


def _encode_frame_png(canvas: FigureCanvasAgg) -> bytes:
    """A static frame as a small palette PNG (64 colours: the axes, text and legend need no more).

    Encoded once per cached frame and resent with every edit, so it must be small, and a new
    frame (a list that outgrows the axes) is built during an edit, so it must be quick: Pillow's
    fast octree quantizer at zlib level 6 gives a smaller file than median cut at level 9 in
    a seventh of the time (6 ms, not 41, for a 1000x500 frame). The octree rounds a colour by
    a unit or two, so palette entries that close to a colour of :data:`COLORS` (white and black
    among them) are set back to it exactly.
    """
    from PIL import Image

    width, height = canvas.get_width_height()
    image = Image.frombuffer("RGBA", (width, height), canvas.buffer_rgba(), "raw", "RGBA", 0, 1).convert("RGB")
    quantized = image.quantize(64, method=Image.Quantize.FASTOCTREE)
    palette = quantized.getpalette() or []
    for i in range(0, len(palette) - 2, 3):
        entry = palette[i: i + 3]
        exact = next((c for c in _EXACT_COLORS if max(abs(a - b) for a, b in zip(entry, c)) <= 3), None)
        if exact is not None:
            palette[i: i + 3] = exact
    quantized.putpalette(palette)
    out = io.BytesIO()
    quantized.save(out, format="PNG", compress_level=6)
    return out.getvalue()


#: The palette's colours as RGB triples (:func:`_encode_frame_png` keeps them exact).
_EXACT_COLORS = [tuple(int(value[i: i + 2], 16) for i in (1, 3, 5)) for value in COLORS.values()
                 if isinstance(value, str) and len(value) == 7 and value.startswith("#")] + [(255, 255, 255), (0, 0, 0)]


def _attr(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")


_LAYERED: dict[type, OrderedDict[Hashable, _Layered]] = {}
_CACHE_LOCK = threading.Lock()


def _layered(kind: type[_Plot], key: Hashable, alt: str, accept: Callable[[Any], bool] | None = None) -> _Layered:
    """The cached frame for ``key``, or the most recently used one whose key ``accept`` takes."""
    with _CACHE_LOCK:
        cache = _LAYERED.setdefault(kind, OrderedDict())
        found = key if key in cache else None
        if found is None and accept is not None:
            found = next((k for k in reversed(cache) if accept(k)), None)
        if found is not None:
            cache.move_to_end(found)
            return cache[found]
    entry = _Layered(kind(key, animated=True), alt)
    with _CACHE_LOCK:
        cache[key] = entry
        cache.move_to_end(key)
        while len(cache) > CACHE_SIZE:
            cache.popitem(last=False)
    return entry


# --------------------------------------------------------------------------- discount curves


class _DiscountPlot(_Plot):
    """key = (chosen DiscountFunction, last rank drawn); data = k."""

    def build(self) -> None:
        chosen, last = self.key  # type: ignore[misc]
        self.chosen: DiscountFunction = chosen
        self.last: int = last
        self.fig, ax = _new_figure(10.0, 5.0, {"left": 0.09, "right": 0.55, "bottom": 0.155, "top": 0.88})
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
                        label=f"{_curve_label(name, chosen.base)} (chosen)")
            else:
                ax.plot(ranks, resolve_discount(name).prefix(last), color=_CURVE_COLORS[name], linewidth=2.6,
                        linestyle=_CURVE_STYLES[name], zorder=3, label=_curve_label(name, None))
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
        ax.set_title(f"Discount by rank: {_curve_label(chosen.name, chosen.base).split(',')[0]}")
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
    return _static_figure(_DiscountPlot((chosen, last), animated=False), k)


def discount_curves_html(
    discount: Discount = "log2",
    *,
    base: float | None = None,
    k: int = 5,
    max_rank: int | None = None,
) -> str:
    """:func:`discount_curves` as HTML: a cached PNG frame with the k markers as SVG on top."""
    chosen, last, k = _discount_key(discount, base, k, max_rank)
    alt = f"Discount by rank, {_curve_label(chosen.name, chosen.base)} highlighted among the five discounts"
    caption = f"ranks 1 to {k} marked"
    if chosen.name == "custom":
        return _Layered(_DiscountPlot((chosen, last), animated=True), alt).html(k, caption)
    return _layered(_DiscountPlot, (chosen, last), alt).html(k, caption)


# --------------------------------------------------------------------------- gains per rank


def _check_breakdown(table: object) -> pd.DataFrame:
    if not isinstance(table, pd.DataFrame):
        raise TypeError(
            f"table must be the DataFrame from ndcg_core.breakdown(...); got {type(table).__name__}."
        )
    missing = [c for c in _BREAKDOWN_COLUMNS if c not in table.columns]
    if missing:
        raise ValueError(
            f"table must be the DataFrame from ndcg_core.breakdown(...); it lacks the column(s) "
            f"{', '.join(missing)}."
        )
    return table


class _GainsPlot(_Plot):
    """key = (number of ranks, y top); data = the breakdown table."""

    def build(self) -> None:
        rows, top = self.key  # type: ignore[misc]
        self.rows: int = rows
        self.top: float = top
        # four-digit y ticks (a list of thousands) need a little more room for the axis label
        self.fig, ax = _new_figure(10.0, 5.0, {"left": 0.085 if top < 1000 else 0.105, "right": 0.985, "bottom": 0.155,
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
    table = _check_breakdown(table)
    if len(table) == 0:
        raise ValueError("table has no ranks to draw; give at least one label.")
    n = len(table)
    if k is not None:
        k = check_positive_int(k, "k")
        if k < n:
            raise ValueError(f"k must be at least the table's {n} ranks; got k={k}. Pass the k the table was made with.")
    slots = n if k is None else max(n, min(k, _SHOW_EMPTY_RANKS_UP_TO))
    if slots > MAX_BARS:  # the axis ends on a nice number, so that similar lengths share a frame
        slots = _nice_end(slots)
    columns = [table[c].to_numpy(dtype=float) for c in ("gain", "discounted_gain", "dcg", "idcg")]
    highest = max(float(np.max(c)) for c in columns)
    return (slots, _nice_top(highest * 1.3)), (table, n if k is None else k)


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
    return _static_figure(_GainsPlot(key, animated=False), data)


def gains_per_rank_html(table: pd.DataFrame, k: int | None = None) -> str:
    """:func:`gains_per_rank` as HTML: a cached PNG frame with the bars and lines as SVG on top.

    The y axis stays put while the data fit it and fill at least a third of it, so
    successive edits are easy to compare (and cheap to draw); only then is it rescaled.
    """
    key, data = _gains_key(table, k)
    cut = data[1]
    dcg, idcg = float(table["dcg"].iloc[-1]), float(table["idcg"].iloc[-1])
    return _layered(
        _GainsPlot, key, "Gain and discounted gain per rank with cumulative DCG and IDCG",
        accept=_same_slots_roomy_enough(key),
    ).html(data, f"DCG@{cut} = {dcg:.4f}, IDCG@{cut} = {idcg:.4f}")


# --------------------------------------------------------------------------- nDCG at every cutoff


class _CurvePlot(_Plot):
    """key = last cutoff drawn; data = (curve, k)."""

    def build(self) -> None:
        last: int = self.key  # type: ignore[assignment]
        self.last = last
        self.fig, ax = _new_figure(10.0, 4.6, {"left": 0.085, "right": 0.975, "bottom": 0.17, "top": 0.78})
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
    return _nice_end(max(k, len(y))), (y, k)


def ndcg_at_cutoffs(curve: Sequence[float], k: int) -> Figure:
    """nDCG at every cutoff 1, 2, ... with the cutoff k marked.

    ``curve`` is :func:`ndcg_core.ndcg_curve`'s list, which by default runs to the end of the
    longer of the ranked list and the ideal list. Past that end neither DCG nor IDCG changes,
    so a k beyond the curve is drawn on a flat dotted extension at the curve's last value.
    """
    last, data = _curve_data(curve, k)
    return _static_figure(_CurvePlot(last, animated=False), data)


def ndcg_at_cutoffs_html(curve: Sequence[float], k: int) -> str:
    """:func:`ndcg_at_cutoffs` as HTML: a cached PNG frame with the curve as SVG on top."""
    last, data = _curve_data(curve, k)
    y, k = data
    at_k = float(y[min(k, len(y)) - 1])
    return _layered(_CurvePlot, last, "nDCG at every cutoff").html(data, f"nDCG@{k} = {at_k:.4f}")


def stacked_html(*figures: str, gap_px: int = 12) -> str:
    """The ``*_html`` figures one under the other, ``gap_px`` apart, as one piece of HTML.

    One output for several plots: the playground redraws its two list plots in one cell,
    so that an edit costs one cell run, not two. 12 px is the space marimo's page leaves
    between two outputs (PAGE_CSS gives each output 6 px above and below).
    """
    if not all(isinstance(f, str) for f in figures):
        raise TypeError("stacked_html takes the HTML strings the *_html figures return.")
    return (f'<div class="ndcg-plots" style="display: flex; flex-direction: column; gap: {int(gap_px)}px">'
            + "".join(figures) + "</div>")


#: The gains frames' y tops :func:`warm_frames` draws: each serves the lists whose own top is
#: from a third of it to it (see :func:`gains_per_rank_html`), so together any list of labels
#: 0-3 with linear gain (and most with exponential gain) of up to 10 ranks.
_WARM_TOPS = (2.5, 8.0, 20.0)


def warm_frames() -> int:
    """Draw ahead the frames a lecture's first edits need; returns how many were drawn.

    The frames are cached per process, and one is drawn during the edit that first needs it
    (about 40 ms). The playground opens at k = 5 on five labels, and a class types lists of
    about that length, so this draws the gains frames for 5 and 6 ranks at :data:`_WARM_TOPS`
    and the nDCG-curve frames that end at 6, 8 and 10 (about 0.4 s; the server's worker calls
    it before the first visitor, after drawing the lecture example).
    """
    drawn = 0
    for slots in (5, 6):
        for top in _WARM_TOPS:
            _layered(_GainsPlot, (slots, top), "Gain and discounted gain per rank with cumulative DCG and IDCG")
            drawn += 1
    for last in (6, 8, 10):
        _layered(_CurvePlot, last, "nDCG at every cutoff")
        drawn += 1
    return drawn


# --------------------------------------------------------------------------- SVG


_SVG_SIZE = re.compile(r'<svg([^>]*?) width="[^"]*" height="[^"]*"')
#: matplotlib's SVG opens with ``<style>*{stroke-linejoin: round; stroke-linecap: butt}</style>``.
#: Inline in HTML that is a style sheet of the whole page: each plot redrawn on an edit added
#: one and removed one, and the browser recomputed the style of every element of the page each
#: time (``UpdateLayoutTree`` of several ms per plot in a Chromium trace). The same two
#: properties, set on the ``<svg>`` element, are inherited by everything inside it alone.
_SVG_STYLE_SHEET = re.compile(r'\s*<defs>\s*<style type="text/css">\*\{stroke-linejoin: round; stroke-linecap: butt\}</style>\s*</defs>')
_SVG_ROOT_STYLE = "stroke-linejoin: round; stroke-linecap: butt"


_PATH_DATA = re.compile(r'( d="| [xy]=")([^"]*)"')
_LONG_NUMBER = re.compile(r"(-?\d+\.\d\d)\d+")


def _short_coordinates(svg: str) -> str:
    """The overlay's coordinates (path data, x and y) to 2 decimals of a point, not 6: a
    hundredth of a point is far below a pixel, and the overlay is resent on every edit.
    Text (the numbers written in the plot) is left as it is.

    >>> _short_coordinates('<path d="M 86.123077 304.2 L 1.005 2"/><text x="3.14159">0.776340</text>')
    '<path d="M 86.12 304.2 L 1.00 2"/><text x="3.14">0.776340</text>'
    """
    return _PATH_DATA.sub(lambda m: m.group(1) + _LONG_NUMBER.sub(r"\1", m.group(2)) + '"', svg)


_BETWEEN_TAGS = re.compile(r">\s+<")
_GROUP_TAG = re.compile(r'<g id="[^"]*">|<g[ >]|</g>')


def _compact(svg: str) -> str:
    r"""The overlay with fewer nodes for the page to build on every edit: no white space
    between tags (each run of it was a text node) and no ``<g id="patch_1">``-style wrapper
    around each artist (matplotlib's names, repeated in every plot of the page); groups
    that do something (a ``clip-path``) stay.

    >>> _compact('<svg>\n <g id="line2d_1">\n  <g clip-path="url(#p)">\n   <use x="1"/>\n  </g>\n </g>\n</svg>')
    '<svg><g clip-path="url(#p)"><use x="1"/></g></svg>'
    """
    svg = _BETWEEN_TAGS.sub("><", svg)
    out, kept, at = [], [], 0
    for m in _GROUP_TAG.finditer(svg):
        tag = m.group(0)
        if tag == "</g>":
            if not kept.pop():
                out.append(svg[at:m.start()])
                at = m.end()
        elif tag.startswith('<g id="'):
            kept.append(False)
            out.append(svg[at:m.start()])
            at = m.end()
        else:
            kept.append(True)
    out.append(svg[at:])
    return "".join(out)


def _without_style_sheet(svg: str) -> str:
    """matplotlib's SVG text from its ``<svg`` tag on, without its page-wide ``<style>`` element
    (the caller sets :data:`_SVG_ROOT_STYLE` on the ``<svg>`` element instead)."""
    svg = svg[svg.index("<svg"):]
    return _SVG_STYLE_SHEET.sub("", svg, count=1)


def to_svg(fig: Figure, *, max_width: str = "1000px") -> str:
    """The figure as an inline SVG element that scales to its container (up to ``max_width``).

    Text stays text (``svg.fonttype = none``), so the output is small and sharp at any
    projector resolution; no XML prologue, so it can be embedded in HTML directly.
    """
    if not isinstance(fig, Figure):
        raise TypeError(f"fig must be a matplotlib Figure; got {type(fig).__name__}.")
    buffer = io.StringIO()
    with mpl.rc_context({"svg.fonttype": "none", "svg.hashsalt": "ndcg-lab"}):
        fig.savefig(buffer, format="svg")
    svg = _without_style_sheet(buffer.getvalue())
    title = next((ax.get_title() for ax in fig.axes if ax.get_title()), "figure")
    title = title.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
    return _SVG_SIZE.sub(
        lambda m: f'<svg{m.group(1)} width="100%" style="max-width: {max_width}; height: auto; {_SVG_ROOT_STYLE}" '
        f'role="img" aria-label="{title}"',
        svg,
        count=1,
    )

