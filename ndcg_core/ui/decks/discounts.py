"""Deck 03's content (``notebooks/decks/03_discounts.py``): how fast a rank loses worth.

Twenty minutes on the discount d(i), the second choice inside nDCG, on the lecture example
``1, 0, 2, 1, 0`` (judged 2, 1, 1):

1. :data:`TITLE_MD`: what the segment covers;
2. :func:`candidates_slide`: the five discounts at ranks 1, 2, 5, 10 and 100;
3. a concept slide per control (:func:`ndcg_core.ui.deck.concept`, then one press later
   :func:`discount_result`, :func:`share_result`, :func:`sink_result`, :func:`base_result`);
   the ``*_controls`` functions make their widgets (call them in a cell of their own and unpack
   the tuple, so that marimo sees each widget as a global);
4. :func:`shifted_slide` and :func:`exam_code_note`: the shifted variant, two right answers;
5. :data:`REMEMBER_MD`, then :data:`CHECK_MD` and the exercises (:data:`EXERCISES`) through
   :mod:`ndcg_core.ui.deck` (question, hints, solution one rank per press).

Every number comes from :mod:`ndcg_core` (through :func:`ndcg_core.ui.playground.evaluate`,
:mod:`ndcg_core.teaching.compare` and :mod:`ndcg_core.teaching.claims`); nothing here computes
a score. The look is in notebooks/decks/layouts/slides.css (``ndcg-concept-*`` and
``ndcg-d03-*``).

>>> html = discount_result("reciprocal", 5).text
>>> "0.6765" in html and "reciprocal discount 1/i" in html   # (1 + 2/3 + 1/4) / (2 + 1/2 + 1/3)
True
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from typing import Any

import marimo as mo
import pandas as pd

from ...discounts import resolve_discount
from ...teaching import claims, compare
from .. import deck, plots, tables, widgets
from ..palette import COLORS
from ..playground import HIDDEN_VALUE, STATS_CSS, evaluate

__all__ = [
    "LECTURE_LABELS",
    "CANDIDATES",
    "SHARE_DISCOUNTS",
    "EXERCISES",
    "TITLE_MD",
    "REMEMBER_MD",
    "CHECK_MD",
    "HIDDEN_NOTE",
    "number_boxes_html",
    "candidates_slide",
    "discount_controls",
    "discount_result",
    "share_controls",
    "share_result",
    "sink_controls",
    "sink_result",
    "shifted_slide",
    "exam_code_note",
    "base_controls",
    "base_result",
]

#: The lecture example: every judged document of its query (2, 1, 1) is in the list, so the
#: ideal list is built from the list's own labels.
LECTURE_LABELS = "1, 0, 2, 1, 0"

#: The five discounts of the chapter, by the name the slides show.
CANDIDATES = {
    "1/log₂(i+1), standard": "log2",
    "1/log₂(i+2), shifted": "log2_shifted",
    "1/i, reciprocal": "reciprocal",
    "Järvelin–Kekäläinen, b = 2": resolve_discount("jarvelin_kekalainen", base=2),
    "none (plain CG)": "none",
}

#: The discounts of the weight-share slide: plotted in this order (blue, orange, green, red).
SHARE_DISCOUNTS = {"1/log₂(i+1)": "log2", "1/log₂(i+2)": "log2_shifted", "1/i": "reciprocal", "none": "none"}

#: The deck's two exercises (ids of :mod:`ndcg_core.teaching.exercises`).
EXERCISES = ("discounts-shifted-dcg", "discounts-reciprocal-dcg")

#: The deck's title slide: what the segment covers.
TITLE_MD = r"""
# Discounts: how fast a rank loses worth

**In the next twenty minutes**, on the lecture example `1, 0, 2, 1, 0` (judged 2, 1, 1)

1. Five candidates for the discount d(i) in DCG@k = Σ g(ℓᵢ) · d(i)
2. Choose one and watch DCG, IDCG and nDCG move
3. Why a logarithm: where the weight sits, what a sinking document costs
4. The shifted variant: same input, two right answers
5. The log base cancels in nDCG, not in DCG
6. Two exercises, worked one rank at a time
"""

#: The summary, before the exercises.
REMEMBER_MD = r"""
## What to remember

- The discount says how much rank i counts: 1/log₂(i+1) gives 1, 0.63, 0.39, 0.29, 0.15 at ranks 1, 2, 5, 10, 100.
- A logarithm is never negative, fades slowly (the tail still counts) and is smooth: decreasing and convex.
- 1/log₂(i+2) and 1/log₂(i+1) give different numbers on the same input: **say which one you used**.
- 1/i puts the weight in the first ranks: a reader who reaches rank i with chance 1/i (a reader who always reads n results is a step, CG@n).
- The log base cancels in nDCG, not in DCG (nor for Järvelin–Kekäläinen). No discount: CG ignores the order.
"""

#: The slide before the exercises.
CHECK_MD = r"""
## Check yourself: two exercises

On paper first, two minutes each, on the lecture example `1, 0, 2, 1, 0` at k = 5:

1. DCG@5 with the **shifted** discount 1/log₂(i+2)
2. DCG@5 with the **reciprocal** discount 1/i

Then type the class's answer in the box and press **Enter**: the verdict names the usual slips.
The hints come next, then the worked solution, one rank per press.
"""

#: Shown in place of the numbers and the plot while *Hide the numbers* is on.
HIDDEN_NOTE = "The numbers are hidden while the class works them out: turn off Hide the numbers to show them."


def _pct(x: float) -> str:
    return f"{x:.0%}".replace("%", " %")


def number_boxes_html(items: Sequence[tuple[str, str, str, str]], *, hidden: bool = False) -> str:
    """Number boxes in the playground's style (``ndcg-stat`` classes, enlarged on a slide):
    one per ``(label, value, caption, colour name of the palette)``; an empty caption is left out.
    ``hidden=True`` shows :data:`ndcg_core.ui.playground.HIDDEN_VALUE` for every value.

    >>> html = number_boxes_html([("AP loses", "90 %", "", "blue")])
    >>> 'class="ndcg-stat-value"' in html and "90 %" in html and "#0072B2" in html
    True
    """
    boxes = []
    for label, value, caption, color in items:
        if color not in COLORS:
            raise ValueError(f"color must be a name of ndcg_core.ui.palette.COLORS; got {color!r}.")
        caption_html = (
            f'<div class="ndcg-stat-caption" style="color: {COLORS["caption"]}">{html.escape(caption)}</div>'
            if caption else ""
        )
        boxes.append(
            f'<div class="ndcg-stat" style="border-color: {COLORS[color]}; background: {COLORS["white"]}">'
            f'<div class="ndcg-stat-label" style="color: {COLORS["text"]}">{html.escape(label)}</div>'
            f'<div class="ndcg-stat-value" style="color: {COLORS[color]}">{HIDDEN_VALUE if hidden else html.escape(value)}</div>'
            f"{caption_html}</div>"
        )
    return f'{STATS_CSS}<div class="ndcg-stats compact">{"".join(boxes)}</div>'


def _panel(numbers_html: str, plot_html: str, tools: Sequence[Any] = ()) -> Any:
    """A concept slide's second cell in deck 01's layout: the numbers top right (beside the
    control), ``tools`` under them, the plot or table under everything."""
    numbers = numbers_html + "".join(mo.as_html(t).text for t in tools)
    return deck.panel(numbers, plot_html, kind="ndcg-d03-panel")


def _note(text: str) -> str:
    return f'<p class="ndcg-d03-note">{text}</p>'


def _svg(fig: Any) -> str:
    return f'<div class="ndcg-d03-svg">{plots.to_svg(fig, max_width="880px")}</div>'


# --------------------------------------------------------------------------- the candidates


def candidates_slide() -> Any:
    """The five discounts at ranks 1, 2, 5, 10 and 100 (two decimals), one row each."""
    values = compare.discount_values((1, 2, 5, 10, 100), CANDIDATES).T
    values.index.name = "discount d(i)"
    values.columns = [f"rank {r}" for r in values.columns]
    return mo.vstack([
        mo.md("## Five candidates for the discount d(i)"),
        mo.md(r"Each rank's gain is multiplied by its discount: $\mathrm{DCG}@k = \sum_{i=1}^{k} g(\ell_i)\, d(i)$"),
        mo.md(tables.markdown_table(values, 2)),
        mo.md("The standard discount is **steep at the top, flat in the tail**: rank 2 keeps 0.63, "
              "rank 100 still 0.15."),
    ], gap=0.6)


# --------------------------------------------------------------------------- choose a discount


def discount_controls() -> tuple[Any, Any, Any]:
    """The discount slide's widgets: the Discount dropdown (the five named discounts, the
    Järvelin–Kekäläinen one with base 2), the k slider (1 to 10) and *Hide the numbers*."""
    discount = widgets.discount_dropdown("log2", names=tuple(v if isinstance(v, str) else v.name
                                                             for v in CANDIDATES.values()))
    k = mo.ui.slider(1, 10, value=5, label="k", show_value=True)
    hide = mo.ui.switch(label="Hide the numbers")
    return discount, k, hide


def discount_result(discount: str, k: int, *, hidden: bool = False, tools: Sequence[Any] = ()) -> Any:
    """DCG@k, IDCG@k, nDCG@k of the lecture example under ``discount`` (base 2 for
    Järvelin–Kekäläinen), the discount in words, and the five discount curves with the chosen
    one highlighted and ranks 1..k marked. ``hidden`` hides the numbers and the plot."""
    base = 2 if discount == "jarvelin_kekalainen" else None
    try:
        result = evaluate(LECTURE_LABELS, discount=discount, base=base, k=k)
        plot = plots.discount_curves_html(discount, base=base, k=k)
    except (TypeError, ValueError) as err:
        return widgets.error_callout(err, lead="**Cannot compute:**")
    s = result.scored
    numbers = number_boxes_html(
        [(f"DCG@{k}", f"{s.dcg:.4f}", "", "blue"), (f"IDCG@{k}", f"{s.idcg:.4f}", "", "orange"),
         (f"nDCG@{k}", f"{s.ndcg:.4f}", "", "green")],
        hidden=hidden,
    )
    words = resolve_discount(discount, base).describe.split(" (")[0]
    numbers += _note("Chosen: " + html.escape(words))
    inner = f'<p class="ndcg-step-status">{HIDDEN_NOTE}</p>' if hidden else plot
    return _panel(numbers, inner, tools)


# --------------------------------------------------------------------------- where the weight sits


def share_controls() -> Any:
    """The weight-share slide's slider: how many top ranks h (1 to 50) out of 100."""
    return mo.ui.slider(steps=[1, 2, 3, 5, 10, 20, 50], value=10, label="Top h ranks", show_value=True)


def share_result(head: int, n: int = 100) -> Any:
    """The share of the total discount weight of ranks 1..``n`` that sits in ranks 1..``head``,
    for the standard discount and for 1/i (number boxes), and the cumulative share of four
    discounts (the plot, whose legend gives all four shares)."""
    try:
        log_share = compare.weight_share("log2", n, head)
        rec_share = compare.weight_share("reciprocal", n, head)
        fig = plots.weight_share_curves(SHARE_DISCOUNTS, n, head, dashes=True, ylabel="share of the weight")
    except (TypeError, ValueError) as err:
        return widgets.error_callout(err, lead="**Cannot compute:**")
    numbers = number_boxes_html([
        ("1/log₂(i+1)", _pct(log_share), "", "blue"),
        ("1/i", _pct(rec_share), "", "green"),
        ("none", _pct(compare.weight_share("none", n, head)), "", "red"),
    ])
    return _panel(numbers, _svg(fig))


# --------------------------------------------------------------------------- a sinking document


def sink_controls() -> tuple[Any, Any]:
    """The sinking-document slide's widgets: the rank it sinks to (from rank 10) and whether a
    second relevant document stays at rank 1."""
    to_rank = mo.ui.slider(steps=[20, 30, 50, 100], value=100, label="Sinks from rank 10 to", show_value=True)
    other = mo.ui.switch(label="Another relevant one at rank 1")
    return to_rank, other


def sink_result(to_rank: int, other_at_top: bool = False) -> Any:
    """What one relevant document (label 1) loses when it moves from rank 10 to ``to_rank``,
    under average precision and DCG with 1/i and with 1/log₂(i+1) (:func:`claims.rank_move`):
    the lost shares as number boxes, the values before and after as a table."""
    try:
        moved = claims.rank_move(10, to_rank, others=(1,) if other_at_top else ())
    except (TypeError, ValueError) as err:
        return widgets.error_callout(err, lead="**Cannot compute:**")
    numbers = '<p class="ndcg-d03-caption">Share of its value lost</p>' + number_boxes_html([
        ("AP", _pct(moved.loc["AP", "lost"]), "", "purple"),
        ("DCG, 1/i", _pct(moved.loc["DCG, 1/i", "lost"]), "", "green"),
        ("DCG, log₂", _pct(moved.loc["DCG, 1/log2(i+1)", "lost"]), "", "blue"),
    ])
    moved = moved.loc[["AP", "DCG, 1/i", "DCG, 1/log2(i+1)"]]  # the boxes' order
    shown = moved.rename(index={"DCG, 1/log2(i+1)": "DCG, 1/log₂(i+1)"}).rename(
        columns={"before": "at rank 10", "after": f"at rank {to_rank}", "lost": "share lost"})
    shown["share lost"] = [_pct(x) for x in moved["lost"]]
    table = tables.markdown_table(shown, 4)
    return _panel(numbers, f'<div class="ndcg-d03-table">{mo.md(table).text}</div>')


# --------------------------------------------------------------------------- the shifted variant


def shifted_slide() -> Any:
    """The lecture example at k = 5 under the standard and the shifted discount: two right answers."""
    configs = {
        "1/log₂(i+1), standard": {"discount": "log2"},
        "1/log₂(i+2), shifted": {"discount": "log2_shifted"},
    }
    rows = {}
    for name, options in configs.items():
        s = evaluate(LECTURE_LABELS, k=5, **options).scored
        rows[name] = {"DCG@5": s.dcg, "IDCG@5": s.idcg, "nDCG@5": s.ndcg}
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "discount"
    return mo.vstack([
        mo.md("## The shifted variant: same input, two right answers"),
        mo.md("1/log₂(i+2) moves the curve one rank to the right: rank 1 keeps only 1/log₂ 3 ≈ 0.63."),
        mo.md("**The lecture example `1, 0, 2, 1, 0` at k = 5**"),
        mo.md(tables.markdown_table(table, 4)),
        mo.md("trec_eval 10, scikit-learn and ranx use 1/log₂(i+1) (older trec_eval left ranks 1 and 2 undiscounted). "
              "Both numbers are consistent: "
              "**say which discount you used**."),
    ], gap=0.5)


def exam_code_note() -> Any:
    """The shifted slide's fragment: the exam's short code is the standard discount."""
    text = mo.md(
        "**Careful with code.** The exam's `log2(i + 2)` counts i from 0: rank i + 1 gets "
        "log₂((i + 1) + 1), the **standard** discount. The shifted one is log₂(rank + 2)."
    ).text
    return mo.Html(f'<div class="ndcg-d03-caution">{text}</div>')


# --------------------------------------------------------------------------- the log base


#: The base slide's two discounts that take a base.
BASE_FAMILIES = {"1/log_b(i+1)": "log", "Järvelin–Kekäläinen": "jarvelin_kekalainen"}


def base_controls() -> tuple[Any, Any]:
    """The base slide's widgets: the log base b (2, e, 3, 10) and the discount that uses it."""
    base = mo.ui.dropdown(options={"2": 2.0, "e ≈ 2.718": math.e, "3": 3.0, "10": 10.0}, value="10",
                          label="Log base b")
    family = mo.ui.dropdown(options=BASE_FAMILIES, value="1/log_b(i+1)", label="With")
    return base, family


def base_result(base: float, family: str = "log", k: int = 5) -> Any:
    """DCG@k, IDCG@k, nDCG@k of the lecture example with ``family`` ("log" or
    "jarvelin_kekalainen") and base ``base``; each box's caption gives the value with base 2,
    so the class sees DCG scale by log₂ b and nDCG stay (for "log") or move (for
    Järvelin–Kekäläinen). The plot: the discount curves, this one highlighted."""
    try:
        result = evaluate(LECTURE_LABELS, discount=family, base=base, k=k)
        at_2 = evaluate(LECTURE_LABELS, discount=family, base=2, k=k).scored
        plot = plots.discount_curves_html(family, base=base, k=k)
    except (TypeError, ValueError) as err:
        return widgets.error_callout(err, lead="**Cannot compute:**")
    s = result.scored
    numbers = number_boxes_html([
        (f"DCG@{k}", f"{s.dcg:.4f}", f"base 2: {at_2.dcg:.4f}", "blue"),
        (f"IDCG@{k}", f"{s.idcg:.4f}", f"base 2: {at_2.idcg:.4f}", "orange"),
        (f"nDCG@{k}", f"{s.ndcg:.4f}", f"base 2: {at_2.ndcg:.4f}", "green"),
    ])
    same = f"{s.ndcg:.4f}" == f"{at_2.ndcg:.4f}"
    if family == "log":
        lines = [f"DCG is {s.dcg / at_2.dcg:.4f} × base 2's (log₂ b = {math.log2(base):.4f})",
                 f"nDCG stays at {s.ndcg:.4f}"]
    else:
        lines = ["Ranks before b keep the factor 1:",
                 f"nDCG stays at {s.ndcg:.4f}" if same else f"nDCG moves: {at_2.ndcg:.4f} → {s.ndcg:.4f}"]
    note = "<br>".join(html.escape(line) for line in lines)
    return _panel(numbers + f'<p class="ndcg-d03-note ndcg-d03-right">{note}</p>', plot)
