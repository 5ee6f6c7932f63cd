"""Deck 02's content (``notebooks/decks/02_gains.py``): what a relevance label is worth.

A twenty-minute segment: the title slide (:data:`TITLE_MD`), four concept slides that each hold
a control, the numbers and the plot it moves, a discussion slide, a summary, then exercises.
The slide words (title, concept, text, question, hints, solution) are
:mod:`ndcg_core.ui.deck`'s; this module holds what only this deck shows: the concept slides'
results (:func:`gains_result`, :func:`promote_result`, :func:`runs_result`), the numbers at the
top right beside the controls and the plot under both (``ndcg-deck-*`` classes in
notebooks/decks/layouts/slides.css).

The numbers come from :mod:`ndcg_core.teaching.compare` (gain values, a relabelled document,
runs under several configurations) and the figures from :mod:`ndcg_core.ui.plots`: nothing here
computes a score.

>>> "Gains" in TITLE_MD
True
>>> "×1.5" in promote_numbers_html([2, 1], 1, 3)
True
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from typing import Any

import marimo as mo
import pandas as pd

from ...config import NDCGConfig
from ...gains import parse_gain_table
from ...metrics import Labels
from ...teaching import compare
from .. import plots, tables

__all__ = [
    "TITLE_MD",
    "GAINS",
    "SWAP_RUNS",
    "SWAP_JUDGMENTS",
    "FLIP_RUNS",
    "FLIP_JUDGMENTS",
    "EXERCISES",
    "PLOT_HEIGHT_IN",
    "gain_table_values",
    "gains_numbers_html",
    "gains_result",
    "promote_numbers_html",
    "promote_result",
    "runs_scores",
    "runs_numbers_html",
    "runs_figure",
    "runs_result",
    "problem",
]

#: The deck's title slide: what the twenty minutes cover.
TITLE_MD = r"""
# Gains: what a relevance label is worth

**In the next twenty minutes** (chapter 02 of NDCG Lab)

1. Labels are ordered codes; a **gain function** turns them into the amounts DCG adds up
2. **Linear** g(ℓ) = ℓ or **exponential** g(ℓ) = 2^ℓ − 1: what promoting one document is worth
3. Exponential gain punishes burying the best document
4. A gain is a chosen weighting: it can flip which run wins
5. Three exercises, worked one rank at a time
"""

#: The two-run slides: a swap of the 3 and the 2 (exponential gain widens the gap), and two
#: runs whose order a gain flips (the page's tables show the same runs).
SWAP_RUNS = {"A: 3 on top": [3, 0, 0, 2], "B: 2 on top": [2, 0, 0, 3]}
SWAP_JUDGMENTS = [3, 2]
FLIP_RUNS = {"A: three 2s": [2, 2, 2, 0], "B: one 3": [3, 0, 0, 0]}
FLIP_JUDGMENTS = [3, 2, 2, 2]
#: The deck's exercises: two computed one rank per press, then a concept question.
EXERCISES = ("gains-exp-dcg", "gains-compare", "gains-weighting")

#: The two gain functions every slide compares.
GAINS = {"linear": "linear", "exponential": "exponential"}

#: Height of the deck's figures (inches, at their 10-inch width): short enough to sit under the
#: controls on a 1280x720 slide while drawn 820 px wide (their 18 pt text then shows at 20 px).
PLOT_HEIGHT_IN = 3.9

def _plot_html(fig: Any) -> str:
    fig.set_size_inches(10, PLOT_HEIGHT_IN)
    return f'<div class="ndcg-deck-plot">{plots.to_svg(fig, max_width="1300px")}</div>'


def _result(numbers_html: str, plot_html: str) -> Any:
    return mo.Html(f'<div class="ndcg-deck-result"><div class="ndcg-deck-numbers">{numbers_html}</div>{plot_html}</div>')


def _table_html(table: pd.DataFrame, *, digits: int = 4) -> str:
    return mo.md(tables.markdown_table(table, digits)).text


# ---- slide: labels are codes, a gain prices them


def gain_table_values(gain_table: Mapping[float, float]) -> pd.DataFrame:
    """The gain of each label of ``gain_table`` under linear gain, exponential gain and the table
    (:func:`ndcg_core.teaching.compare.gain_values`), one row per label in order."""
    labels = sorted(gain_table)
    return compare.gain_values(labels, {**GAINS, "your table": dict(gain_table)})


def gains_numbers_html(gain_table: Mapping[float, float]) -> str:
    """The numbers of the gain slide: each label's gain under the three gains, one row per gain
    (one column per label, so that a longer table grows sideways, beside the controls)."""
    shown = gain_table_values(gain_table).T
    shown.columns = [str(label) for label in shown.columns]
    shown.index.name = "label ℓ"
    return _table_html(shown, digits=2)


def gains_result(gain_table_text: str) -> Any:
    """The gain slide's result: the table of gains and the bars of :func:`plots.gain_bars`
    for linear, exponential and the typed table; a typo shows its message instead."""
    try:
        table = parse_gain_table(gain_table_text)
        numbers = gains_numbers_html(table)
        fig = plots.gain_bars(sorted(table), {**GAINS, "your table": table})
    except (TypeError, ValueError) as err:
        return problem(mo.callout(mo.md(f"**Gain table:** {html.escape(str(err))}"), kind="danger"))
    return _result(numbers, _plot_html(fig))


# ---- slide: promote one document


def _g(x: float) -> str:
    if math.isnan(x):  # an unjudged document has no label
        return "?"
    return f"{x:.4f}".rstrip("0").rstrip(".") if abs(x - round(x)) > 1e-9 else f"{round(x):d}"


def promote_numbers_html(labels: Labels, rank: int, new_label: float) -> str:
    """The numbers of the promotion slide (:func:`ndcg_core.teaching.compare.promote`): per gain,
    the document's gain before and after, the factor, DCG of the list before and after.

    A label worth gain 0 has no factor, nor has an unjudged document (``?``, gain 0 in DCG): its
    cell says "from 0" (0 times any factor is still 0).
    """
    table = compare.promote(labels, rank, new_label)
    rows = {
        "gain": [f"{_g(r.old_gain)} → {_g(r.new_gain)}" for r in table.itertuples()],
        "factor": [
            "from 0" if r.old_gain == 0 or math.isnan(r.old_gain) else "×" + f"{r.factor:.2f}".rstrip("0").rstrip(".")
            for r in table.itertuples()
        ],
        "DCG before": [f"{r.dcg_before:.4f}" for r in table.itertuples()],
        "DCG after": [f"{r.dcg_after:.4f}" for r in table.itertuples()],
    }
    shown = pd.DataFrame(rows, index=table.index).T
    shown.index.name = f"rank {rank}: {_g(table['old_label'].iloc[0])} → {_g(table['new_label'].iloc[0])}"
    return _table_html(shown)


def promote_result(labels: Labels, rank: int, new_label: float) -> Any:
    """The promotion slide's result: the numbers and the discounted gain of every rank under
    both gains (:func:`plots.contribution_bars`), the relabelled rank highlighted. Lists longer
    than 50 show their first 50 bars (the numbers are the whole list's)."""
    try:
        numbers = promote_numbers_html(labels, rank, new_label)
    except (TypeError, ValueError) as err:
        return problem(mo.callout(mo.md(f"**Cannot compute:** {html.escape(str(err))}"), kind="danger"))
    shown = min(len(labels), 50)
    fig = plots.contribution_bars(labels, shown, highlight=rank if rank <= shown else None)
    note = f'<p class="ndcg-deck-note">The bars show ranks 1 to {shown} of {len(labels):,}.</p>' if shown < len(labels) else ""
    return _result(numbers + note, _plot_html(fig))


# ---- slides: two runs, two gains


def runs_scores(runs: Mapping[str, Sequence[float]], judgments: Sequence[float], k: int) -> pd.DataFrame:
    """nDCG@k of each run under linear and exponential gain
    (:func:`ndcg_core.teaching.compare.compare_runs`): one row per run, one column per gain."""
    configs = {f"{name} gain": NDCGConfig(k=k, gain=gain) for name, gain in GAINS.items()}  # type: ignore[arg-type]
    return compare.compare_runs(dict(runs), configs, judgments=list(judgments))


def runs_numbers_html(runs: Mapping[str, Sequence[float]], judgments: Sequence[float], k: int, *, gap: bool = False) -> str:
    """The numbers of a two-run slide: nDCG@k per run and gain, then which run wins under each
    gain (the run's name up to its colon), or with ``gap=True`` the first run's nDCG minus the
    second's."""
    scores = runs_scores(runs, judgments, k)
    shown = scores.map(lambda x: f"{x:.4f}")
    if gap:
        first, second = list(scores.index)[:2]
        shown.loc[f"gap {first.split(':')[0]} − {second.split(':')[0]}"] = [
            f"{scores.loc[first, name] - scores.loc[second, name]:.4f}" for name in scores.columns
        ]
    else:
        shown.loc["higher nDCG"] = [
            str(scores[name].idxmax()).split(":")[0] if scores[name].nunique() > 1 else "tie" for name in scores.columns
        ]
    shown.columns = [name.replace(" gain", "") for name in shown.columns]
    shown.index.name = f"nDCG@{k}"
    return _table_html(shown)


def runs_figure(runs: Mapping[str, Sequence[float]], k: int, shown_run: str) -> Any:
    """What each rank of ``shown_run`` adds under both gains (:func:`plots.contribution_bars`;
    the legend gives each gain's DCG@k), on the y range of the tallest run, so that switching
    runs moves the bars and not the axis."""
    if shown_run not in runs:
        raise ValueError(f"shown_run must be one of {list(runs)}; got {shown_run!r}.")
    figs = {name: plots.contribution_bars(list(run), k) for name, run in runs.items()}
    top = max(f.axes[0].get_ylim()[1] for f in figs.values())
    fig = figs[shown_run]
    fig.axes[0].set_ylim(0, top)
    with plots.projector_style():  # the title's size and weight, as the figure's own
        fig.axes[0].set_title(f"Run {shown_run}: what each rank adds")
    return fig


def runs_result(runs: Mapping[str, Sequence[float]], judgments: Sequence[float], k: int, shown_run: str, *,
                gap: bool = False) -> Any:
    """A two-run slide's result: the numbers (:func:`runs_numbers_html`) and the bars of
    ``shown_run`` (:func:`runs_figure`)."""
    fig = runs_figure(runs, k, shown_run)
    return _result(runs_numbers_html(runs, judgments, k, gap=gap), _plot_html(fig))


def problem(callout: Any) -> Any:
    """A message (a callout such as :func:`ndcg_core.ui.widgets.error_callout`) sized for the slide."""
    return mo.Html(f'<div class="ndcg-deck-problem">{callout.text}</div>')
