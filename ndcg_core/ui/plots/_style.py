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

__all__ = ["COLORS", "PROJECTOR_RC", "projector_style", "new_figure"]

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


@contextmanager
def projector_style() -> Iterator[None]:
    """Apply the projector settings while a figure is built."""
    with mpl.rc_context(PROJECTOR_RC):
        yield


def new_figure(width: float = 10.0, height: float = 5.0) -> Figure:
    """A Figure not registered with pyplot (no global state, freed when dropped).

    Call inside :func:`projector_style` so the settings apply to its axes.
    """
    return Figure(figsize=(width, height), layout="constrained")
