"""The compositor: a figure as a cached static PNG frame with its data drawn as SVG on top.

Each figure of the playground (:mod:`.discount_plot`, :mod:`.gains_plot`, :mod:`.cutoff_plot`)
is a :class:`Plot`: ``build`` draws the static frame (axes, ticks, labels, legend) for a
``key``, ``update`` draws the data. It comes two ways:

- :func:`static_figure`: a complete :class:`matplotlib.figure.Figure` (no pyplot state);
- :func:`layered` + :meth:`Layered.html`: the same picture as HTML, fast enough to redraw on
  every keystroke of a live lecture: the frame as a PNG drawn once, the data as a small SVG on
  top. A few frames per plot are kept (an LRU cache keyed by what fixes the axes). See
  ``bench/ui_latency.py``.

Also here: :func:`to_svg` (any figure as inline SVG), :func:`stacked_html`, the playground's
text sizes (:data:`RANKING_RC`) and the axis ends that let similar lists share a frame
(:func:`nice_end`, :func:`nice_top`).
"""

from __future__ import annotations

import base64
import io
import math
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from html import escape
from typing import Any

import matplotlib as mpl
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.backends.backend_svg import RendererSVG
from matplotlib.figure import Figure

from ._style import COLORS, projector_style

__all__ = [
    "PNG_DPI", "SMALLEST_TEXT_PT", "CACHE_SIZE", "OVERLAY_FONTTYPE", "RANKING_RC", "ranking_style",
    "nice_end", "nice_top", "new_frame", "Plot", "static_figure", "Layered", "layered", "LAYERED",
    "encode_frame_png", "EXACT_COLORS", "stacked_html", "to_svg",
]

#: Resolution of the HTML twins' PNG frame: a 10-inch figure is 1000 pixels wide.
PNG_DPI = 100
#: The smallest text in these figures, in points (legend entries and ticks; 18 pt = 25 px at PNG_DPI):
#: a slide must draw a figure at 0.8 of its width or more for it to reach 20 px.
SMALLEST_TEXT_PT = 18
#: Figures kept per plot for fast redraws (about 1 MB each once drawn: the Agg pixels are freed).
CACHE_SIZE = 12
#: y-axis tops: the axes change only when the data outgrow one, so redraws stay cheap.
_NICE_STEPS = (1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0)



#: Text a size larger than :data:`~ndcg_core.plots._style.PROJECTOR_RC`'s: the playground shows
#: these figures beside its controls, at about two thirds of their 1000-pixel width on a
#: 1920x1080 projector (about half on a 1280x720 one), and their text must still carry.
RANKING_RC = {
    "axes.titlesize": 21,
    "axes.labelsize": 19,
    "xtick.labelsize": 18,
    "ytick.labelsize": 18,
    "legend.fontsize": 18,
}


@contextmanager
def ranking_style() -> Iterator[None]:
    """:func:`projector_style` with ``RANKING_RC`` on top."""
    with projector_style(), mpl.rc_context(RANKING_RC):
        yield


#: x-axis ends for the nDCG curve: the axes change only when the cutoffs outgrow one.
_CUTOFF_ENDS = (5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100)


def nice_end(value: int) -> int:
    """The smallest of 5, 6, 8, 10, 12, 15, 20, ... 100 that is >= value; past 100, the smallest
    'nice' whole number >= value (120, 150, 200, ... 10,000, 12,000: see :func:`nice_top`), so
    that lists of 9,998, 9,999 and 10,000 labels share one cached frame.

    >>> [nice_end(v) for v in (1, 7, 100, 101, 9_999, 10_000, 10_001)]
    [5, 8, 100, 120, 10000, 10000, 12000]
    """
    return next((end for end in _CUTOFF_ENDS if end >= value), None) or int(nice_top(value))


def nice_top(value: float) -> float:
    """The smallest 'nice' number (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 times a power of ten) >= value."""
    if not math.isfinite(value) or value <= 1.0:
        return 1.0
    scale = 10.0 ** math.floor(math.log10(value))
    for step in _NICE_STEPS:
        if step * scale >= value * (1 - 1e-12):
            return step * scale
    return 10.0 * scale


def new_frame(width: float, height: float, margins: dict[str, float]) -> tuple[Figure, Any]:
    fig = Figure(figsize=(width, height), dpi=PNG_DPI)
    FigureCanvasAgg(fig)
    fig.subplots_adjust(**margins)
    return fig, fig.add_subplot()


class Plot:
    """One figure split into a static frame and the data artists drawn on top of it.

    ``key`` fixes everything static; :meth:`update` sets the data and returns the artists
    to draw (``live``) and any artists it created for this picture only (``temporary``).
    With ``animated=True`` the data artists are skipped by a full draw, so the full draw
    is the reusable background.
    """

    def __init__(self, key: Hashable, animated: bool) -> None:
        self.key = key
        self.animated = animated
        with ranking_style():
            self.build()

    def build(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def update(self, data: Any) -> tuple[list[Artist], list[Artist]]:  # pragma: no cover - abstract
        raise NotImplementedError

    fig: Figure


def static_figure(plot: Plot, data: Any) -> Figure:
    """A complete figure: the frame with the data drawn in, no caching."""
    with ranking_style():
        plot.update(data)
    return plot.fig


_SVG_DPI = 72  # matplotlib's SVG unit: one point
#: How the overlay writes text: "none" (SVG text in DejaVu Sans, matplotlib's font, falling back
#: to the browser's sans-serif; small) or "path" (glyph outlines: exact everywhere, larger).
OVERLAY_FONTTYPE = "none"


class Layered:
    """A cached :class:`Plot` shown as two layers: its static frame as a PNG (encoded once)
    and the data as a small SVG drawn on top. An edit redraws only the SVG, and the browser
    keeps the unchanged PNG without decoding it again."""

    def __init__(self, plot: Plot, alt: str) -> None:
        self.plot = plot
        canvas: FigureCanvasAgg = plot.fig.canvas  # type: ignore[assignment]
        with ranking_style():
            canvas.draw()
        png = encode_frame_png(canvas)
        canvas.__dict__.pop("renderer", None)  # the Agg pixels are not needed again: free them
        plot.fig.set_dpi(_SVG_DPI)  # the overlay is drawn in points; both layers fill one box
        self.width, self.height = plot.fig.bbox.width, plot.fig.bbox.height
        self.background = base64.b64encode(png).decode("ascii")
        self.alt = escape(alt)
        self.lock = threading.Lock()

    def html(self, data: Any, caption: str) -> str:
        with self.lock, ranking_style(), mpl.rc_context({"svg.fonttype": OVERLAY_FONTTYPE, "svg.hashsalt": "ndcg-lab"}):
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
            f'<img src="data:image/png;base64,{self.background}" alt="{self.alt}: {escape(caption)}" '
            f'style="display: block; width: 100%; height: auto">{svg}</div></figure>'
        )


def encode_frame_png(canvas: FigureCanvasAgg) -> bytes:
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
        exact = next((c for c in EXACT_COLORS if max(abs(a - b) for a, b in zip(entry, c)) <= 3), None)
        if exact is not None:
            palette[i: i + 3] = exact
    quantized.putpalette(palette)
    out = io.BytesIO()
    quantized.save(out, format="PNG", compress_level=6)
    return out.getvalue()


#: The palette's colours as RGB triples (:func:`encode_frame_png` keeps them exact).
EXACT_COLORS = [tuple(int(value[i: i + 2], 16) for i in (1, 3, 5)) for value in COLORS.values()
                 if isinstance(value, str) and len(value) == 7 and value.startswith("#")] + [(255, 255, 255), (0, 0, 0)]


#: The cached frames: plot class -> key -> frame, least recently used first.
LAYERED: dict[type, OrderedDict[Hashable, Layered]] = {}
_CACHE_LOCK = threading.Lock()


def layered(kind: type[Plot], key: Hashable, alt: str, accept: Callable[[Any], bool] | None = None) -> Layered:
    """The cached frame for ``key``, or the most recently used one whose key ``accept`` takes."""
    with _CACHE_LOCK:
        cache = LAYERED.setdefault(kind, OrderedDict())
        found = key if key in cache else None
        if found is None and accept is not None:
            found = next((k for k in reversed(cache) if accept(k)), None)
        if found is not None:
            cache.move_to_end(found)
            return cache[found]
    entry = Layered(kind(key, animated=True), alt)
    with _CACHE_LOCK:
        cache[key] = entry
        cache.move_to_end(key)
        while len(cache) > CACHE_SIZE:
            cache.popitem(last=False)
    return entry


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
    title = escape(title)
    return _SVG_SIZE.sub(
        lambda m: f'<svg{m.group(1)} width="100%" style="max-width: {max_width}; height: auto; {_SVG_ROOT_STYLE}" '
        f'role="img" aria-label="{title}"',
        svg,
        count=1,
    )

