"""One look for every figure: big type, thick lines, high-contrast colours.

Sized for a classroom projector: 18 pt text at the default figure width (at least 20 px
when a slide draws the figure at 0.8 of its width or more), lines of
3 pt, a colour-blind-safe palette (Okabe–Ito, :data:`ndcg_core.ui.palette.COLORS`, the only
colour table) on a white background.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import matplotlib as mpl
from matplotlib.figure import Figure

from ..palette import COLORS

__all__ = ["COLORS", "PROJECTOR_RC", "SLIDE_RC", "projector_style", "new_figure"]

PROJECTOR_RC = {
    "font.size": 18,
    "axes.titlesize": 21,
    "axes.titleweight": "bold",
    "axes.labelsize": 19,
    "xtick.labelsize": 18,
    "ytick.labelsize": 18,
    "legend.fontsize": 18,
    "lines.linewidth": 3.0,
    "lines.markersize": 9,
    "axes.linewidth": 1.4,
    "axes.grid": True,
    "grid.alpha": 0.35,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "figure.dpi": 100,
    "savefig.dpi": 100,
    "figure.facecolor": "white",
    "axes.facecolor": "white",
}

#: Over :data:`PROJECTOR_RC` for a figure a deck draws as an inline SVG: its grid and its legend's
#: frame in the palette's grey (5.7:1 on white; matplotlib's pale grid, #b0b0b0, is 2.2:1 and the
#: frame, #cccccc, 1.6:1, under the slides' 3:1 for plot strokes), the grid thin and dashed so it
#: stays behind the data, and no legend text under 18 pt.
SLIDE_RC = {
    "grid.color": COLORS["grey"],
    "grid.alpha": 1.0,
    "grid.linewidth": 0.8,
    "grid.linestyle": (0, (4, 4)),
    "legend.edgecolor": COLORS["grey"],
    "legend.fontsize": 18,
}


@contextmanager
def projector_style(*, slide: bool = False) -> Iterator[None]:
    """Apply the projector settings while a figure is built; ``slide=True`` adds :data:`SLIDE_RC`."""
    with mpl.rc_context({**PROJECTOR_RC, **SLIDE_RC} if slide else PROJECTOR_RC):
        yield


def new_figure(width: float = 10.0, height: float = 5.0) -> Figure:
    """A Figure not registered with pyplot (no global state, freed when dropped).

    Call inside :func:`projector_style` so the settings apply to its axes.
    """
    return Figure(figsize=(width, height), layout="constrained")
