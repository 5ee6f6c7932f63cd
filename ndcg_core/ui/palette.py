"""The one colour table of everything ndcg_core.ui draws: figures, the playground's numbers, its table.

The Okabe–Ito hues (told apart by colour-blind viewers), darkened where the original is too
pale for a projector: every colour that draws data or text has at least 4.5:1 contrast against
the white paper and the table's stripe (WCAG's bar for text; plot lines need 3:1). ``sky`` (the
gain bars' fill, drawn hatched and edged in ``blue``) and ``yellow`` (a background band, never
text) are the two fills that only need 3:1 and none. A plain dictionary with no imports, so the
playground's HTML can use it without loading matplotlib; :mod:`ndcg_core.ui.plots` re-exports
it as ``plots.COLORS``.

>>> COLORS["blue"], COLORS["orange"], COLORS["green"]
('#0072B2', '#A45A00', '#007A5A')
>>> round(contrast_ratio(COLORS["orange"], COLORS["white"]), 2)
5.2
"""

from __future__ import annotations

__all__ = ["COLORS", "TEXT_COLORS", "FILL_COLORS", "contrast_ratio", "relative_luminance"]

#: Okabe–Ito hues (orange, green, red, purple darkened), then the greys for text, captions,
#: table rules, stripes and paper.
COLORS = {
    "blue": "#0072B2",
    "orange": "#A45A00",
    "green": "#007A5A",
    "red": "#C04A00",
    "purple": "#A8407A",
    "sky": "#2E86C1",
    "yellow": "#F0E442",
    "grey": "#666666",
    "black": "#000000",
    "text": "#333333",
    "caption": "#555555",
    "stripe": "#f2f6fa",
    "white": "#ffffff",
}

#: Colours used for text or lines (numbers, labels, curves): at least 4.5:1 on paper and stripe.
TEXT_COLORS = ("blue", "orange", "green", "red", "purple", "grey", "black", "text", "caption")
#: Colours used only as fills next to an edge or a hatch: at least 3:1 on paper.
FILL_COLORS = ("sky",)


def relative_luminance(color: str) -> float:
    """WCAG 2.x relative luminance of a ``#rrggbb`` colour (0 black .. 1 white).

    >>> relative_luminance("#ffffff"), relative_luminance("#000000")
    (1.0, 0.0)
    """
    text = color.lstrip("#")
    if len(text) != 6:
        raise ValueError(f"color must be '#rrggbb'; got {color!r}.")
    channels = [int(text[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast_ratio(first: str, second: str) -> float:
    """WCAG contrast ratio (L1 + 0.05) / (L2 + 0.05) of two colours, from 1 to 21.

    >>> contrast_ratio("#000000", "#ffffff")
    21.0
    """
    light, dark = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)
