"""Deck 04's content (``notebooks/decks/04_ideal_list.py``): the ideal list.

A twenty-minute segment on normalisation: IDCG built one rank at a time, the 1.0 trap of an
ideal built from the run itself, why one normalised scale is not another, when nDCG@100
falls below nDCG@10, what a mean over topics hides; then three questions for the class.

Each concept slide is two cells of the deck: :func:`ndcg_core.ui.deck.concept` (its
heading and the control, never redrawn by an edit) and a result revealed by the next arrow
press (:func:`ideal_result`, :func:`trap_result`, :func:`delay_result`, :func:`cutoff_result`),
which holds the numbers the control moves beside it and the table or plot under both.
The exercise slides are :mod:`ndcg_core.ui.deck`'s (question -> hints -> worked solution, one
rank per press), but for :func:`order_solution` (the ideal ranking built one rank per press). The numbers come from :mod:`ndcg_core`, :mod:`ndcg_core.teaching` and
:func:`ndcg_core.ui.playground.evaluate`: nothing here computes a score.

>>> r = evaluate_ideal("1, 0, 2, 1, 0", "", 5)
>>> round(r.scored.idcg, 4), round(r.scored.ndcg, 4)
(3.1309, 0.7763)
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import marimo as mo
import pandas as pd

from ...config import NDCGConfig
from ...metrics import ndcg, ndcg_curve
from ...teaching import claims, compare, exercises
from .. import deck, lecture, plots
from ..palette import COLORS
from ..playground import STATS_CSS, TABLE_CSS, PlaygroundResult, evaluate, stats_html

__all__ = [
    "TITLE_MD",
    "REMEMBER_MD",
    "TRAP_RUN",
    "TRAP_MISSED",
    "TRAP_K",
    "IDEAL_SOURCES",
    "DELAY_K",
    "CUTOFFS",
    "EXERCISES",
    "DELAY_TOPICS",
    "DEEP_RUN",
    "AVERAGE_JUDGMENTS",
    "AVERAGE_SYSTEMS",
    "delayed_run",
    "average_tables",
    "stat_boxes_html",
    "evaluate_ideal",
    "ideal_status",
    "ideal_result",
    "evaluate_trap",
    "trap_result",
    "delay_scores",
    "delay_result",
    "cutoff_sentence",
    "cutoff_result",
    "average_result",
    "kicker",
    "order_solution_parts",
    "order_solution",
]

#: The title slide: what the segment covers.
TITLE_MD = r"""
# The ideal list: what a perfect nDCG means

**In the next twenty minutes**

1. **IDCG**: the best DCG the judgments allow, built one rank at a time; nDCG = DCG / IDCG
2. **The 1.0 trap**: an ideal built from the run's own labels
3. **Normalised is not comparable**: the same slip costs two topics differently
4. **Deeper is not always higher**: when nDCG@100 falls below nDCG@10
5. **What a mean over topics hides**
6. Three questions for the class, worked one rank at a time
"""

#: The summary slide: six short lines (the page's *What to remember* says more).
REMEMBER_MD = r"""
## What to remember

- **IDCG@k**: every judged document of the query, sorted by gain, cut at k
- **nDCG@k = DCG@k / IDCG@k**, in [0, 1] with non-negative gains; exactly 1 when IDCG@k > 0
  and the top k carry the ideal gains
- **The ideal comes from all judgments**, never from the run's own labels (the 1.0 trap)
- **Normalised is not comparable**: one slip costs a topic with one top document most
- **nDCG@100 < nDCG@10** only with more than 10 relevant documents: state the cutoff
- **IDCG = 0**: nDCG is defined as 0; a mean hides the spread, so report the count
"""

#: The trap slide's run (five documents, one of them relevant: label 3) and the judged documents it missed.
TRAP_RUN = "3, 0, 0, 0, 0"
TRAP_MISSED = "3, 2, 2, 1"
TRAP_K = 5
#: The trap slide's choice: where the ideal list comes from (shown label -> NDCGConfig.ideal).
IDEAL_SOURCES = {"all judged documents": "judgments", "the run's own labels": "list"}
#: The cutoff of the delay slide (the page's table and plot use nDCG@10 too).
DELAY_K = 10
#: The two cutoffs of the cutoff slide.
CUTOFFS = (10, 100)
#: The delay slide's two topics (name -> number of label-3 documents), as on the page.
DELAY_TOPICS = {"A: five of label 3": 5, "B: one of label 3": 1}
#: The cutoff slide's run: relevant documents at ranks 1-8, 30 and 60 of 100, as on the page.
DEEP_RUN = [1 if rank <= 8 or rank in (30, 60) else 0 for rank in range(1, 101)]
#: The averages slide's four topics and two systems (nDCG@5), as on the page.
AVERAGE_JUDGMENTS = {"t1": [3, 2, 1, 1], "t2": [2, 2, 1], "t3": [3], "t4": [2, 1, 1, 1, 1]}
AVERAGE_SYSTEMS = {
    "steady": {"t1": [2, 3, 0, 1, 0], "t2": [2, 0, 2, 1, 0], "t3": [0, 3, 0, 0, 0], "t4": [1, 2, 1, 0, 1]},
    "all or nothing": {"t1": [3, 2, 1, 1, 0], "t2": [2, 2, 1, 0, 0], "t3": [0, 0, 0, 0, 0], "t4": [2, 1, 1, 1, 1]},
}
#: The deck's questions, in order: build the ideal, the trap computed, a vote.
EXERCISES = ("ideal-order", "ideal-trap-ndcg", "ideal-one-exactly")


def stat_boxes_html(items: Sequence[tuple[str, float, str]]) -> str:
    """Number boxes like the playground's (``.ndcg-stat-value``: the deck's big numbers), one per
    ``(label, value, colour name of ndcg_core.ui.palette.COLORS)``, values to 4 decimals.

    >>> page = stat_boxes_html([("nDCG@10 of A", 0.5, "blue")])
    >>> "nDCG@10 of A" in page and "0.5000" in page and COLORS["blue"] in page
    True
    """
    boxes = []
    for label, value, color in items:
        if color not in COLORS:
            raise ValueError(f"color must be a name of ndcg_core.ui.palette.COLORS; got {color!r}.")
        boxes.append(
            f'<div class="ndcg-stat" style="border-color: {COLORS[color]}; background: {COLORS["white"]}">'
            f'<div class="ndcg-stat-label" style="color: {COLORS["text"]}">{html.escape(label)}</div>'
            f'<div class="ndcg-stat-value" style="color: {COLORS[color]}">{float(value):.4f}</div></div>'
        )
    return f'{STATS_CSS}<div class="ndcg-stats compact">{"".join(boxes)}</div>'


def _side_result(plot: str, numbers: str, note: str = "") -> Any:
    """The plot (850 px, on the left) with the numbers stacked on its right and ``note`` (one
    short paragraph, escaped here) under them."""
    return mo.Html(_side_html(plot, numbers, note))


def _side_html(plot: str, numbers: str, note: str = "") -> str:
    side = numbers + (f'<p class="ndcg-deck-note">{html.escape(note)}</p>' if note else "")
    return (f'<div class="ndcg-side-result"><div class="ndcg-side-plot">{plot}</div>'
            f'<div class="ndcg-deck-side">{side}</div></div>')


def _svg_plot(fig: Any) -> str:
    """A figure of :mod:`ndcg_core.ui.plots` as an SVG for the projector: its grid drawn as
    dotted dark grey lines (3:1 and more against white, not pale grey), legend frames edged in
    dark grey, no text under 18 pt."""
    for ax in fig.axes:
        ax.grid(True, color=COLORS["grey"], alpha=1.0, linewidth=0.8, linestyle=":")
        legend = ax.get_legend()
        if legend is not None:
            legend.get_frame().set_edgecolor(COLORS["grey"])
        for text in ax.texts:
            text.set_fontsize(max(18.0, float(text.get_fontsize())))
    return f'<figure class="ndcg-plot">{plots.to_svg(fig)}</figure>'


# --------------------------------------------------------------------------- IDCG, one rank per press


def evaluate_ideal(labels_text: str, missed_text: str, k: int) -> PlaygroundResult:
    """The IDCG slide's numbers: the typed list and missed judged documents, linear gain,
    1/log2(i+1), cutoff ``k`` (:func:`ndcg_core.ui.playground.evaluate`; bad input raises its
    ``ValueError`` naming the field and the token)."""
    return evaluate(labels_text, missed_text, k=k)


def ideal_status(result: PlaygroundResult) -> str:
    """One sentence under the ideal ranking: is the typed top k already ideal, and IDCG = 0.

    >>> ideal_status(evaluate_ideal("1, 0, 2, 1, 0", "", 5))
    'Your top 5 differs from the ideal top 5, so nDCG@5 < 1.'
    >>> ideal_status(evaluate_ideal("2, 1, 1", "", 5))
    'Your top 5 carries exactly the ideal gains, so nDCG@5 = 1.'
    """
    k = result.k
    if result.scored.idcg <= 0:
        return (f"No judged document has a positive gain: IDCG@{k} = 0, there is nothing to divide by, "
                f"and nDCG@{k} is defined as 0.")
    if compare.is_ideal(result.labels, k, judgments=result.judgments):
        return f"Your top {k} carries exactly the ideal gains, so nDCG@{k} = 1."
    return f"Your top {k} differs from the ideal top {k}, so nDCG@{k} < 1."


def ideal_result(labels_text: str, missed_text: str, k: int, presses: int) -> Any:
    """The IDCG slide's result: DCG@k, IDCG@k, nDCG@k beside the controls; under them the ideal
    ranking built up to rank ``presses`` (one rank per press of *Next rank of the ideal*) and
    :func:`ideal_status`. Bad input shows its message instead."""
    try:
        result = evaluate_ideal(labels_text, missed_text, k)
    except (TypeError, ValueError) as err:
        return deck.numbers(None, None, problem=err)
    shown = lecture.ideal_step_count(result, presses)
    table = lecture.ideal_steps_html(result, shown)
    status = f'<p class="ndcg-deck-status">{html.escape(ideal_status(result))}</p>'
    shown_html = deck.numbers(result, f"<div>{table}{status}</div>").text
    return mo.Html(f'{TABLE_CSS}<div class="ndcg-ideal-steps-result">{shown_html}</div>')


# --------------------------------------------------------------------------- the 1.0 trap


def evaluate_trap(source: str) -> PlaygroundResult:
    """The trap slide's numbers: the run :data:`TRAP_RUN` (one relevant document, label 3) whose query
    also has the judged documents :data:`TRAP_MISSED`, at k = :data:`TRAP_K`, with the ideal from
    ``source`` (``"judgments"`` or ``"list"``, the values of :data:`IDEAL_SOURCES`).

    >>> round(evaluate_trap("judgments").scored.ndcg, 4), evaluate_trap("list").scored.ndcg
    (0.4201, 1.0)
    """
    if source not in IDEAL_SOURCES.values():
        raise ValueError(f"source must be one of {', '.join(map(repr, IDEAL_SOURCES.values()))}; got {source!r}.")
    return evaluate(TRAP_RUN, TRAP_MISSED, k=TRAP_K, ideal=source)


def trap_result(source: str) -> Any:
    """The trap slide's result: the per-rank plot, whose IDCG line falls onto the DCG line when
    the ideal comes from the run itself, with the numbers and the ideal ranking beside it."""
    result = evaluate_trap(source)
    ideal = [f"{x:g}" for x in result.table["ideal_label"] if x > 0]
    note = f"The ideal ranking: {', '.join(ideal)}" + (" (only what the run found)." if source == "list" else ".")
    return _side_result(plots.gains_per_rank_html(result.table, result.k), stats_html(result, compact=True), note)


# --------------------------------------------------------------------------- normalised, not comparable


def delayed_run(first_rank: int, top_documents: int) -> list[float]:
    """Non-relevant documents above rank ``first_rank``, then ``top_documents`` of label 3.

    >>> delayed_run(3, 2)
    [0, 0, 3, 3]
    """
    return [0] * (first_rank - 1) + [3] * top_documents


def average_tables() -> dict[str, pd.DataFrame]:
    """Each system of :data:`AVERAGE_SYSTEMS`: its per-topic nDCG@5
    (:func:`ndcg_core.teaching.compare.per_topic`)."""
    return {name: compare.per_topic(runs, AVERAGE_JUDGMENTS, NDCGConfig(k=5)) for name, runs in AVERAGE_SYSTEMS.items()}


def delay_scores(
    first_rank: int, topics: Mapping[str, int], delayed_run: Callable[[int, int], Sequence[float]]
) -> dict[str, list[float]]:
    """nDCG@:data:`DELAY_K` of each topic's run for the first highly relevant document at ranks
    1..6 (element j: rank j + 1), as the page's plot shows them. ``topics`` maps a name to its
    number of label-3 documents; ``delayed_run(first_rank, n)`` is the page's run builder.
    ``first_rank`` is checked: 1..6."""
    if isinstance(first_rank, bool) or not isinstance(first_rank, int) or not 1 <= first_rank <= 6:
        raise ValueError(f"first_rank must be a whole number from 1 to 6; got {first_rank!r}.")
    return {
        name: [ndcg(delayed_run(rank, n), DELAY_K, judgments=[3] * n) for rank in range(1, 7)]
        for name, n in topics.items()
    }


def delay_result(
    first_rank: int, topics: Mapping[str, int], delayed_run: Callable[[int, int], Sequence[float]]
) -> Any:
    """The delay slide's result: each topic's nDCG@10 at the chosen rank, in the colour of its
    line, and the curves with that rank marked."""
    curves = delay_scores(first_rank, topics, delayed_run)
    colors = ("blue", "orange", "green", "red", "purple")
    numbers = stat_boxes_html([
        (f"nDCG@{DELAY_K} of {name.split(':')[0]}", values[first_rank - 1], colors[j % len(colors)])
        for j, (name, values) in enumerate(curves.items())
    ])
    fig = plots.delay_curves(curves, ylabel=f"nDCG@{DELAY_K}", mark=first_rank)
    return _side_result(_svg_plot(fig), numbers, f"First highly relevant document at rank {first_rank}.")


# --------------------------------------------------------------------------- deeper is not always higher


def cutoff_sentence(run: Sequence[float], judgments: Sequence[float]) -> str:
    """What the cutoff slide says: is nDCG@100 lower than nDCG@10, and why (ΔD/ΔI against
    nDCG@10, or ΔI = 0 when the ideal is used up by rank 10).

    >>> run = [1 if r <= 8 or r in (30, 60) else 0 for r in range(1, 101)]
    >>> cutoff_sentence(run, [1] * 10).split(". ")[0]
    'With 10 relevant documents, nDCG@100 is higher than nDCG@10'
    """
    small, large = CUTOFFS
    drop = claims.cutoff_drop(run, small, large, judgments=judgments)
    if drop.ndcg_large < drop.ndcg_small:
        relation = "lower than"
    elif drop.ndcg_large == drop.ndcg_small:
        relation = "equal to"
    else:
        relation = "higher than"
    head = f"With {drop.relevant} relevant documents, nDCG@{large} is {relation} nDCG@{small}."
    if drop.gain_ratio is None:
        return head + f" The ideal is used up by rank {small} (ΔI = 0): nDCG@{large} cannot be lower."
    return head + (f" Below rank {small}: ΔD/ΔI = {drop.gain_ratio:.4f}, "
                   f"{'below' if drop.drops else 'not below'} nDCG@{small} = {drop.ndcg_small:.4f}.")


def cutoff_result(run: Sequence[float], judgments: Sequence[float]) -> Any:
    """The cutoff slide's result: nDCG@10 and nDCG@100 with :func:`cutoff_sentence` beside the
    slider, and nDCG at every cutoff (cutoff 10 marked) under them."""
    small, large = CUTOFFS
    numbers = stat_boxes_html([
        (f"nDCG@{small}", ndcg(run, small, judgments=judgments), "blue"),
        (f"nDCG@{large}", ndcg(run, large, judgments=judgments), "green"),
    ])
    return _side_result(plots.ndcg_at_cutoffs_html(ndcg_curve(run, judgments=judgments), small), numbers,
                        cutoff_sentence(run, judgments))


# --------------------------------------------------------------------------- what a mean hides


def average_result(average_tables: Mapping[str, pd.DataFrame]) -> Any:
    """The averages slide (no control): the strip plot of each system's per-topic nDCG@5 and,
    beside it, each system's mean and how many topics the second system wins
    (``average_tables``: system -> :func:`ndcg_core.teaching.compare.per_topic`, two systems or more)."""
    if not isinstance(average_tables, Mapping) or len(average_tables) < 2:
        raise ValueError("average_tables must map two systems or more to their per-topic tables.")
    colors = ("blue", "orange", "green", "red", "purple")
    names = list(average_tables)
    means = [(f"mean of {name}", float(average_tables[name]["ndcg"].mean()), colors[j % len(colors)])
             for j, name in enumerate(names)]
    first, second = (average_tables[name]["ndcg"] for name in names[:2])
    topics = len(first)
    wins = int((second > first).sum())
    fig = plots.topic_strips({name: table["ndcg"].tolist() for name, table in average_tables.items()},
                             ylabel="nDCG@5 of one topic", title="Same topics, two systems")
    head = deck.concept(f"What a mean over {topics} topics hides")
    note = f"'{names[1]}' is better on {wins} of the {topics} topics."
    return mo.Html(head.text + _side_html(_svg_plot(fig), stat_boxes_html(means), note))


# --------------------------------------------------------------------------- the questions


def kicker(exercise_id: str) -> str:
    """The line over a question's statement: "Check yourself · question n of 3".

    >>> kicker("ideal-trap-ndcg")
    'Check yourself · question 2 of 3'
    """
    if exercise_id not in EXERCISES:
        raise ValueError(f"exercise_id must be one of the deck's questions {', '.join(EXERCISES)}; got {exercise_id!r}.")
    return f"Check yourself · question {EXERCISES.index(exercise_id) + 1} of {len(EXERCISES)}"


def order_solution_parts(exercise_id: str = "ideal-order") -> tuple[str, PlaygroundResult]:
    """The worked solution of *Build the ideal ranking*: the sentence that gathers the judged
    relevant documents (the list's and the missed ones) and the result whose ideal ranking
    :func:`ndcg_core.ui.lecture.ideal_steps_html` builds one rank per press.

    >>> text, result = order_solution_parts()
    >>> text
    'Relevant in the list: 3, 1, 2. Missed by the list: 2, 1. Sort all of them by gain, best first:'
    >>> list(result.table["ideal_label"][:5])
    [3.0, 2.0, 2.0, 1.0, 1.0]
    """
    setting = exercises.get(exercise_id).setting
    if setting.labels is None or setting.missed is None:
        raise ValueError(f"exercise {exercise_id!r} has no ranked list with missed documents to build an ideal from.")
    found = [label for label in setting.labels if label]
    config = setting.config
    result = evaluate(", ".join(f"{x:g}" for x in setting.labels), ", ".join(f"{x:g}" for x in setting.missed),
                      gain=str(config.gain), discount=str(config.discount), base=config.base, k=None)
    text = (f"Relevant in the list: {', '.join(f'{x:g}' for x in found)}. "
            f"Missed by the list: {', '.join(f'{x:g}' for x in setting.missed)}. Sort all of them by gain, best first:")
    return text, result


def order_solution(presses: int, button: Any, exercise_id: str = "ideal-order") -> Any:
    """The worked solution slide of *Build the ideal ranking*: one rank of the ideal per press of
    ``button``; once every relevant document is placed, the answer."""
    text, result = order_solution_parts(exercise_id)
    total = lecture.ideal_rows(result)
    shown = min(int(presses), total)
    # the table without its status line, which names the IDCG slide's button: this slide says
    # how many ranks are placed itself
    table = re.sub(r'<p class="ndcg-step-status">.*?</p>', "", lecture.ideal_steps_html(result, shown), flags=re.S)
    parts = [mo.md(f"## Worked solution: {exercises.get(exercise_id).title}"), mo.md(text), mo.Html(table)]
    if shown == total:
        labels = ", ".join(f"{x:g}" for x in result.table["ideal_label"][:total])
        parts.append(mo.md(f"**Answer:** {labels} (then zeros)"))
        parts.append(button)
    else:
        parts.append(mo.hstack([button, mo.md(f"{shown} of {total} ranks placed: the button places the next.")],
                               justify="start"))
    return mo.Html(f'{TABLE_CSS}<div class="ndcg-exercise-solution">{mo.vstack(parts, gap=0.4).text}</div>')
