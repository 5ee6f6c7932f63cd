"""Deck 01's content (``notebooks/decks/01_playground.py``): scoring a ranking with graded
relevance, on the lecture example ``1, 0, 2, 1, 0``.

The deck's concept slides hold the playground's controls (its own copies, made by
:func:`controls`), the numbers and the plot they move (:func:`ndcg_core.ui.deck.numbers`); the
ideal ranking is built one rank per press (:mod:`ndcg_core.ui.lecture`); two exercises close it.

>>> "DCG and nDCG" in TITLE_MD
True
>>> sorted(controls())
['base', 'discount', 'gain', 'gain_table', 'k', 'labels', 'missed']
"""

from __future__ import annotations

from typing import Any

import marimo as mo

from ...teaching import presets
from .. import playground, widgets

__all__ = ["TITLE_MD", "EXERCISES", "controls"]

#: The deck's title slide: what the twenty minutes cover.
TITLE_MD = r"""
# Scoring a ranking with graded relevance: DCG and nDCG

**In the next twenty minutes**

1. One query, five results, graded 0, 1 or 2: the lecture example `1, 0, 2, 1, 0`
2. **Gain**: what a relevance label is worth (linear or exponential)
3. **Discount**: why rank 1 counts more than rank 5
4. **Cutoff k and the ideal ranking**: from DCG to nDCG = DCG / IDCG
5. Two exercises, worked one rank at a time
"""

#: The deck's exercises (worked one rank at a time).
EXERCISES = ("lecture-dcg", "lecture-ndcg")


def controls() -> dict[str, Any]:
    """The deck's own controls, on the lecture example (the playground's first preset), under
    the playground's labels: ``labels``, ``missed``, ``gain``, ``gain_table``, ``discount``,
    ``base`` and ``k`` (a slider, 1 to :data:`ndcg_core.ui.playground.K_SLIDER_MAX`)."""
    preset = presets.PRESETS[0]
    return dict(
        labels=widgets.labels_input(preset.labels),
        missed=widgets.missed_input(preset.missed),
        gain=widgets.gain_dropdown(preset.gain),
        gain_table=mo.ui.text(value=preset.gain_table, label="Gain table"),
        discount=widgets.discount_dropdown(preset.discount),
        base=mo.ui.number(value=preset.base, step=0.5, label="Base"),
        k=mo.ui.slider(1, playground.K_SLIDER_MAX, value=preset.k, label="k", show_value=True, full_width=True),
    )
