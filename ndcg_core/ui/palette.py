"""The one colour table of everything ndcg_core.ui draws: figures, the playground's numbers, its table.

Okabe–Ito colours (safe for colour-blind viewers and on projectors) plus the greys of text
and backgrounds. A plain dictionary with no imports, so the playground's HTML can use it
without loading matplotlib; :mod:`ndcg_core.ui.plots` re-exports it as ``plots.COLORS``.

>>> COLORS["blue"], COLORS["orange"], COLORS["green"]
('#0072B2', '#E69F00', '#009E73')
"""

from __future__ import annotations

__all__ = ["COLORS"]

#: Okabe–Ito colours, then the greys for text, captions, table rules, stripes and paper.
COLORS = {
    "blue": "#0072B2",
    "orange": "#E69F00",
    "green": "#009E73",
    "red": "#D55E00",
    "purple": "#CC79A7",
    "sky": "#56B4E9",
    "yellow": "#F0E442",
    "grey": "#666666",
    "black": "#000000",
    "text": "#333333",
    "caption": "#555555",
    "stripe": "#f2f6fa",
    "white": "#ffffff",
}
