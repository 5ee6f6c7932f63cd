"""Deck 02 (notebooks/02_gains.py under ``ndcg-lab slides``): what a relevance label is worth.

A twenty-minute segment: the title slide (:data:`TITLE_MD`), four concept slides that each hold
a control, the numbers and the plot it moves, a discussion slide, a summary, then exercises
(their slides come from :mod:`ndcg_core.ui.lecture`). Every concept slide is two cells of the
notebook: :func:`head` (the heading, one short line and the controls), then, one arrow press
later, the result (:func:`gains_result`, :func:`promote_result`, :func:`runs_result`): the
numbers at the top right beside the controls, the plot under both. Keeping the controls in a
cell of their own means an edit redraws the numbers and the plot, never the control in use.

The numbers come from :mod:`ndcg_core.teaching.compare` (gain values, a relabelled document,
runs under several configurations) and the figures from :mod:`ndcg_core.ui.plots`: nothing here
computes a score. The slides' CSS travels with them (:data:`DECK_CSS`, a ``<style>`` in each
slide's HTML), scoped to the deck's own class names, so notebooks/layouts/slides.css (shared by
every deck) needs no rule for this deck.

>>> "Gains" in TITLE_MD
True
>>> "×1.5" in promote_numbers_html([2, 1], 1, 3)
True
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from string import Template
from typing import Any

import marimo as mo
import pandas as pd

from ...config import NDCGConfig
from ...gains import parse_gain_table
from ...metrics import Labels
from ...teaching import compare, exercises
from .. import lecture, plots, tables

__all__ = [
    "DECK_CSS",
    "TITLE_MD",
    "GAINS",
    "PLOT_HEIGHT_IN",
    "head",
    "text_slide",
    "gain_table_values",
    "gains_numbers_html",
    "gains_result",
    "promote_numbers_html",
    "promote_result",
    "runs_scores",
    "runs_numbers_html",
    "runs_figure",
    "runs_result",
    "concept_answer",
    "problem",
    "question",
    "solution",
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

#: The two gain functions every slide compares.
GAINS = {"linear": "linear", "exponential": "exponential"}

#: Height of the deck's figures (inches, at their 10-inch width): short enough to sit under the
#: controls on a 1280x720 slide while drawn 820 px wide (their 18 pt text then shows at 20 px).
PLOT_HEIGHT_IN = 3.9

#: The deck's look, scoped to its own classes (a ``<style>`` in every slide of :func:`head`
#: and of the results). The plot is drawn at least 820 px wide (its 18 pt text, in an SVG 720
#: units wide, then shows at 20.5 px, 19.7 px at the 0.96 scale of a 1280x720 window, within the
#: checker's half-pixel tolerance), and wider on a larger window (1.15 of its height, at most
#: 0.68 of its width: about 1240 px at 1920x1080). Colours come from :data:`plots.COLORS`.
DECK_CSS = Template("""
<style>
.reveal .mo-slide-content:has(.ndcg-deck-head) { position: relative; width: calc(100% - 40px); }
.reveal .mo-slide-content:has(.ndcg-deck-head) .fragment :is(.output, .output-area, .marimo-cell):has(.ndcg-deck-numbers) { position: static; }
.reveal .ndcg-deck-head { max-width: calc(100% - var(--ndcg-deck-numbers-width, 27rem)); }
.reveal .ndcg-deck-head h2.ndcg-deck-title { font-size: max(34px, 4.4vh); margin: 0 0 0.2rem 0; line-height: 1.2; }
.reveal .ndcg-deck-head .ndcg-deck-lead, .reveal .ndcg-deck-head .ndcg-deck-lead * { font-size: max(22px, 2.8vh); margin: 0 0 0.3rem 0; }
.reveal .ndcg-deck-numbers { position: absolute; top: 0; right: 0; max-width: 36rem; }
.reveal .ndcg-deck-numbers table { border-collapse: collapse; }
.reveal .ndcg-deck-numbers :is(th, td) { font-size: max(23px, 3vh); padding: 0.15rem 0.55rem; text-align: right; color: $text; }
.reveal .ndcg-deck-numbers th:first-child, .reveal .ndcg-deck-numbers td:first-child { text-align: left; }
.reveal .ndcg-deck-numbers td { font-variant-numeric: tabular-nums; font-weight: 600; }
.reveal .ndcg-deck-numbers thead th { border-bottom: 2px solid $text; }
.reveal .ndcg-deck-numbers tbody tr:nth-child(even) { background: $stripe; }
.reveal .ndcg-deck-numbers .ndcg-deck-note { font-size: 21px; margin: 0.2rem 0 0 0; max-width: 25rem; color: $text; }
.reveal .ndcg-deck-plot { display: flex; justify-content: center; }
.reveal .ndcg-deck-plot svg { width: clamp(820px, min(115vh, 68vw), 1300px); max-width: none; height: auto; }
.reveal .mo-slide-content:has(.ndcg-deck-exercise) .ndcg-exercise-statement { grid-row: 1; }
.reveal .mo-slide-content:has(.ndcg-deck-exercise) .ndcg-exercise-answer { grid-row: 1 / span 3; }
.reveal .mo-slide-content:has(.ndcg-deck-exercise) > .fragment:has(.ndcg-exercise-hints) { grid-column: 1; grid-row: 2; }
.reveal .mo-slide-content:has(.ndcg-deck-exercise) > .fragment:has(.ndcg-deck-answer) { grid-column: 1; grid-row: 3; }
.reveal .mo-slide-content marimo-radio { zoom: 1.7; }
.reveal .ndcg-deck-answer { border-left: 4px solid $green; padding-left: 0.8rem; }
.reveal .mo-slide-content :is(.ndcg-deck-problem, .ndcg-deck-result, .ndcg-exercise-answer) marimo-callout-output { zoom: 1.55; }
.reveal .ndcg-deck-solution :is(th, td) { padding: 0.1rem 0.6rem; line-height: 1.3; }
.reveal .ndcg-deck-solution :is(p, table) { margin-top: 0.35rem; margin-bottom: 0.35rem; }
.reveal .ndcg-deck-solution h2 { margin: 0 0 0.3rem 0; }
.reveal .ndcg-deck-text { max-width: max(60rem, 80vw); }
.reveal .ndcg-deck-text :is(p, li) { font-size: max(24px, 3.2vh); line-height: 1.4; }
.reveal .ndcg-deck-text h2 { font-size: max(34px, 4.6vh); margin: 0 0 0.6rem 0; }
.reveal .ndcg-deck-text .ndcg-deck-ask { border-left: 4px solid $blue; padding-left: 0.8rem; margin-top: 0.8rem; }
</style>
""").substitute(plots.COLORS)


def head(title: str, controls: Sequence[Any] = (), *, lead: str = "", numbers_width: str = "27rem") -> Any:
    """A concept slide's first cell: its heading, one short line (Markdown) and its controls.

    Each item of ``controls`` is a row: a widget alone (a text box then takes the row's full
    width) or a list of widgets side by side. ``numbers_width`` is the room left at the right
    for the numbers the next press reveals.
    """
    parts: list[Any] = [mo.Html(f'{DECK_CSS}<h2 class="ndcg-deck-title">{html.escape(title)}</h2>')]
    if lead:
        parts.append(mo.Html(f'<div class="ndcg-deck-lead">{mo.md(lead).text}</div>'))
    for row in controls:
        if isinstance(row, (list, tuple)):
            parts.append(mo.hstack(list(row), justify="start", gap=1.2, align="end", wrap=True))
        else:
            parts.append(row)
    inner = mo.vstack(parts, gap=0.2).text
    return mo.Html(f'<div class="ndcg-deck-head" style="--ndcg-deck-numbers-width: {numbers_width}">{inner}</div>')


def text_slide(title: str, body_md: str, *, ask: str = "") -> Any:
    """A short slide of text (a discussion, the summary): a heading, a few lines, and the
    question for the class (``ask``) set off at the bottom."""
    ask_html = f'<div class="ndcg-deck-ask">{mo.md(ask).text}</div>' if ask else ""
    return mo.Html(
        f'{DECK_CSS}<div class="ndcg-deck-text"><h2>{html.escape(title)}</h2>{mo.md(body_md).text}{ask_html}</div>'
    )


def _plot_html(fig: Any) -> str:
    fig.set_size_inches(10, PLOT_HEIGHT_IN)
    return f'<div class="ndcg-deck-plot">{plots.to_svg(fig, max_width="1300px")}</div>'


def _result(numbers_html: str, plot_html: str) -> Any:
    return mo.Html(f'{DECK_CSS}<div class="ndcg-deck-result"><div class="ndcg-deck-numbers">{numbers_html}</div>{plot_html}</div>')


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


# ---- the last exercise: a concept question, its answer on the same slide


def concept_answer(exercise_id: str) -> Any:
    """A concept exercise's worked solution (no table to step through), as a fragment under its
    question and hints: the explanation and the answer."""
    card = exercises.card(exercise_id, None)
    text = card.folded["Worked solution"]
    return mo.Html(f'{DECK_CSS}<div class="ndcg-deck-answer">{mo.md("**Worked solution.** " + text).text}</div>')


def solution(exercise_id: str, presses: int, button: Any, *, sections: bool = False) -> Any:
    """An exercise's worked solution, one rank per press of ``button``, its table rows kept
    tight enough that the last press (every rank, the sum and the answer) still fits a
    1280x720 slide: :func:`ndcg_core.ui.lecture.exercise_solution`, or with ``sections=True``
    (one table per ranking) :func:`ndcg_core.ui.lecture.exercise_solution_sections`."""
    shown = (lecture.exercise_solution_sections if sections else lecture.exercise_solution)(exercise_id, presses, button)
    return mo.Html(f'{DECK_CSS}<div class="ndcg-deck-solution">{shown.text}</div>')


def problem(callout: Any) -> Any:
    """A message (a callout such as :func:`ndcg_core.ui.widgets.error_callout`) sized for the slide."""
    return mo.Html(f'{DECK_CSS}<div class="ndcg-deck-problem">{callout.text}</div>')


def question(answers: Any, exercise_id: str) -> Any:
    """An exercise's question slide (:func:`ndcg_core.ui.lecture.exercise_question`) laid out for
    this deck: the statement, then the hints (the next fragment) and for a concept question its
    worked solution (:func:`concept_answer`) in the left column; the answer box and the verdict
    alone in the right one, so that a long verdict never pushes the hints off the slide."""
    shown = lecture.exercise_question(answers, exercise_id)
    return mo.Html(f'{DECK_CSS}<div class="ndcg-deck-exercise">{shown.text}</div>')
