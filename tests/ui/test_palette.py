"""Contrast on a projector (issue 14): every colour that draws text or data is readable on white.

WCAG 2.x contrast ratios: 4.5:1 for text (numbers, labels, annotations), 3:1 for graphical
objects (lines, bars, markers). Checked on the colour table and on every artist the
playground's three figures draw, with their smallest text size.
"""

from __future__ import annotations

import matplotlib.colors as mcolors
import pytest
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.text import Text

import ndcg_core as nc
from ndcg_core.ui.palette import COLORS, FILL_COLORS, TEXT_COLORS, contrast_ratio
from ndcg_core.ui.plots import ranking


def test_contrast_ratio_of_known_pairs() -> None:
    # WCAG's own extremes and a mid grey: (1 + 0.05) / (0 + 0.05) = 21; #777777 on white is 4.48
    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast_ratio("#ffffff", "#ffffff") == pytest.approx(1.0)
    assert contrast_ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
    with pytest.raises(ValueError, match=r"color must be '#rrggbb'"):
        contrast_ratio("red", "#ffffff")


@pytest.mark.parametrize("name", TEXT_COLORS)
def test_text_colours_reach_4_5_on_paper_and_stripe(name: str) -> None:
    assert contrast_ratio(COLORS[name], COLORS["white"]) >= 4.5
    assert contrast_ratio(COLORS[name], COLORS["stripe"]) >= 4.5


@pytest.mark.parametrize("name", FILL_COLORS)
def test_fill_colours_reach_3_on_paper(name: str) -> None:
    assert contrast_ratio(COLORS[name], COLORS["white"]) >= 3.0


def _figures():
    table = nc.breakdown([1, None, 2, 1, 0], 5, judgments=[2, 1, 1])
    return {
        "discount curves": ranking.discount_curves("jarvelin_kekalainen", base=2, k=5),
        "gains per rank": ranking.gains_per_rank(table, 5),
        "nDCG at cutoffs": ranking.ndcg_at_cutoffs(nc.ndcg_curve([1, 0, 2, 1, 0], judgments=[2, 1, 1]), 5),
    }


def _hex(color: object) -> str | None:
    rgba = mcolors.to_rgba(color)
    if rgba[3] == 0:
        return None
    return mcolors.to_hex(rgba[:3])


@pytest.mark.parametrize("name", ["discount curves", "gains per rank", "nDCG at cutoffs"])
def test_every_line_bar_and_text_of_the_playground_figures_has_contrast(name: str) -> None:
    fig = _figures()[name]
    white = COLORS["white"]
    for line in fig.findobj(Line2D):
        if len(line.get_xdata()) and line.get_visible() and line.get_linewidth() > 1.0:
            colour = _hex(line.get_color())
            assert colour is not None and contrast_ratio(colour, white) >= 3.0, (name, line.get_label(), colour)
            assert line.get_alpha() in (None, 1.0), (name, line.get_label())
    for bar in fig.axes[0].patches:
        if isinstance(bar, Rectangle) and bar.get_height() > 0:
            edge, face = _hex(bar.get_edgecolor()), _hex(bar.get_facecolor())
            assert max(contrast_ratio(c, white) for c in (edge, face) if c) >= 3.0, (name, edge, face)
    for text in fig.findobj(Text):
        if text.get_text().strip() and text.get_visible():
            colour = _hex(text.get_color())
            assert contrast_ratio(colour, white) >= 4.5, (name, text.get_text(), colour)
            assert text.get_fontsize() >= ranking.SMALLEST_TEXT_PT, (name, text.get_text(), text.get_fontsize())


def test_gain_bars_differ_from_discounted_bars_by_pattern_not_only_colour() -> None:
    fig = _figures()["gains per rank"]
    bars = [b for b in fig.axes[0].patches if isinstance(b, Rectangle) and b.get_height() > 0]
    hatches = {b.get_hatch() for b in bars}
    assert hatches == {"//", None}
