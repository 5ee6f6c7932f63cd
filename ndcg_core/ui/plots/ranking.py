"""The playground's figures: discount curves, gains per rank, nDCG at every cutoff.

Each figure comes two ways:

- ``discount_curves``, ``gains_per_rank``, ``ndcg_at_cutoffs`` return a complete
  :class:`matplotlib.figure.Figure` (no pyplot state; freed when dropped);
- the ``*_html`` twins return the same picture as HTML, fast enough to redraw on every
  keystroke of a live lecture: the static part (axes, ticks, labels, legend) as a PNG drawn
  once, the data (bars, lines, markers, the numbers) as a small SVG on top. They keep a few
  frames per plot (a small LRU cache keyed by what fixes the axes: the number of ranks, the
  y range, the chosen discount). See ``bench/ui_latency.py``.

Both ways share one builder per figure, so they draw the same thing. Each figure has its
module (:mod:`.discount_plot`, :mod:`.gains_plot`, :mod:`.cutoff_plot`); the frame cache,
the PNG/SVG layers and :func:`to_svg` are the compositor's (:mod:`.compositor`). This module
gathers the playground's figures under one name and draws the first frames ahead
(:func:`warm_frames`).
"""

from __future__ import annotations

# Besides __all__, importable from here (tests and the bench read them): the frame cache and its
# size, the figures' plot classes and their limits.
from .compositor import CACHE_SIZE, LAYERED, PNG_DPI, SMALLEST_TEXT_PT, layered, stacked_html, to_svg  # noqa: F401
from .cutoff_plot import CurvePlot, ndcg_at_cutoffs, ndcg_at_cutoffs_html
from .discount_plot import (  # noqa: F401
    DISCOUNT_CURVE_NAMES,
    MAX_DISCOUNT_RANK,
    MAX_DOTS,
    DiscountPlot,
    discount_curves,
    discount_curves_html,
)
from .gains_plot import MAX_BARS, STEP_BINS, GainsPlot, gains_per_rank, gains_per_rank_html  # noqa: F401

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

#: The gains frames' y tops :func:`warm_frames` draws: each serves the lists whose own top is
#: from a third of it to it (see :func:`gains_per_rank_html`), so together any list of labels
#: 0-3 with linear gain (and most with exponential gain) of up to 10 ranks.
WARM_TOPS = (2.5, 8.0, 20.0)


def warm_frames() -> int:
    """Draw ahead the frames a lecture's first edits need; returns how many were drawn.

    The frames are cached per process, and one is drawn during the edit that first needs it
    (about 40 ms). The playground opens at k = 5 on five labels, and a class types lists of
    about that length, so this draws the gains frames for 5 and 6 ranks at :data:`WARM_TOPS`
    and the nDCG-curve frames that end at 6, 8 and 10 (about 0.4 s; the server's worker calls
    it before the first visitor, after drawing the lecture example).
    """
    drawn = 0
    for slots in (5, 6):
        for top in WARM_TOPS:
            layered(GainsPlot, (slots, top), "Gain and discounted gain per rank with cumulative DCG and IDCG")
            drawn += 1
    for last in (6, 8, 10):
        layered(CurvePlot, last, "nDCG at every cutoff")
        drawn += 1
    return drawn
