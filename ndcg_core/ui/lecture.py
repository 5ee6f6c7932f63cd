"""The lecturer's pieces of the playground: its toolbar and the slides of its deck.

- :data:`DECK_ENV` / :func:`in_deck`: ``ndcg-lab slides`` sets ``NDCG_LAB_DECK=1`` for the
  server it starts, so notebook 01's deck-only cells (a concept slide that holds a control, the
  numbers and the plot that control moves, side by side) draw themselves only in the deck and
  cost nothing on the page.
- The toolbar's logic: :func:`ideal_step_count` (one rank of the ideal ranking per press of
  *Next rank of the ideal*), :func:`ideal_steps_html` (the ideal ranking built up to that rank),
  :func:`solution_step` (a worked solution revealed one rank per press).
- :func:`concept_slide` and :func:`exercise_question` compose a slide from widgets and HTML;
  :data:`TITLE_MD` is the deck's title slide.

The numbers come from :func:`ndcg_core.ui.playground.evaluate` (the per-rank breakdown), the
exercises from :mod:`ndcg_core.teaching.exercises`: nothing here computes a score.

>>> from ndcg_core.ui.playground import evaluate
>>> r = evaluate("1, 0, 2, 1, 0", "", k=5)
>>> ideal_rows(r)
3
>>> [ideal_step_count(r, presses) for presses in range(6)]
[0, 1, 2, 3, 0, 1]
"""

from __future__ import annotations

import html
import os
from collections.abc import Mapping, Sequence
from typing import Any

import marimo as mo

from ..teaching import exercises
from . import widgets
from .playground import PlaygroundResult, stats_html

__all__ = [
    "DECK_ENV",
    "in_deck",
    "HANDOUT_ENV",
    "in_handout",
    "TITLE_MD",
    "HIDDEN_NOTE",
    "ideal_rows",
    "ideal_step_count",
    "ideal_steps_html",
    "solution_step",
    "concept_head",
    "concept_result",
    "exercise_question",
    "exercise_hints",
    "exercise_solution",
]

#: The environment variable ``ndcg-lab slides`` sets for its server (``"1"``: a deck).
DECK_ENV = "NDCG_LAB_DECK"
#: Set to ``"1"`` by ``ndcg-lab handout`` for the deck server it starts: every step-by-step
#: slide (the ideal ranking, a worked solution) is drawn in its final state, all ranks shown,
#: since a printed page cannot be pressed.
HANDOUT_ENV = "NDCG_LAB_HANDOUT"


def in_deck(environ: Mapping[str, str] | None = None) -> bool:
    """True when the notebook is served as a slide deck (``ndcg-lab slides``).

    >>> in_deck({}), in_deck({"NDCG_LAB_DECK": "1"})
    (False, True)
    """
    return (os.environ if environ is None else environ).get(DECK_ENV, "") == "1"


def in_handout(environ: Mapping[str, str] | None = None) -> bool:
    """True when the deck is being printed by ``ndcg-lab handout`` (step-by-step slides end state).

    >>> in_handout({}), in_handout({"NDCG_LAB_HANDOUT": "1"})
    (False, True)
    """
    return (os.environ if environ is None else environ).get(HANDOUT_ENV, "") == "1"


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

#: Shown in place of the numbers while the lecturer hides them.
HIDDEN_NOTE = "The numbers are hidden while you work them out: switch off **Hide the numbers** to show them."


def ideal_rows(result: PlaygroundResult) -> int:
    """The ranks of the ideal ranking that add gain (ideal gain > 0) within the cutoff."""
    return int((result.table["ideal_gain"] > 0).sum())


def ideal_step_count(result: PlaygroundResult, presses: int) -> int:
    """How many ranks of the ideal ranking to show after ``presses`` presses of *Next rank*.

    One rank per press; after the last rank that adds gain the next press starts again at 0.
    In a handout (:func:`in_handout`) every rank is shown, whatever the presses.
    """
    if isinstance(presses, bool) or not isinstance(presses, int) or presses < 0:
        raise ValueError(f"presses must be a whole number >= 0; got {presses!r}.")
    if in_handout():
        return ideal_rows(result)
    return presses % (ideal_rows(result) + 1)


def _cell(text: object, *, header: bool = False) -> str:
    tag = "th" if header else "td"
    return f"<{tag}>{html.escape(str(text))}</{tag}>"


def ideal_steps_html(result: PlaygroundResult, shown: int, *, hidden: bool = False) -> str:
    """The ideal ranking built rank by rank: ranks 1..``shown`` with their ideal label, gain,
    discount, discounted gain and running IDCG (from the per-rank breakdown), then a line that
    says what the next press adds.

    >>> from ndcg_core.ui.playground import evaluate
    >>> page = ideal_steps_html(evaluate("1, 0, 2, 1, 0", k=5), 2)
    >>> "IDCG@2 = 2.6309" in page and "rank 3" in page
    True
    """
    total = ideal_rows(result)
    shown = max(0, min(int(shown), total))
    table = result.table
    heads = ["rank i", "ideal label", "gain", "discount", "gain × discount", "IDCG@i"]
    rows = []
    for r in table.iloc[:shown].itertuples(index=False):
        rows.append(
            "<tr>"
            + "".join(
                _cell(v)
                for v in (
                    int(r.rank),
                    f"{r.ideal_label:g}",
                    f"{r.ideal_gain:.4f}",
                    f"{r.discount:.4f}",
                    "····" if hidden else f"{r.ideal_discounted_gain:.4f}",
                    "····" if hidden else f"{r.idcg:.4f}",
                )
            )
            + "</tr>"
        )
    if total == 0:
        status = "No judged document has a positive gain: the ideal ranking adds nothing, IDCG = 0."
    elif shown == 0:
        status = "Press <b>Next rank of the ideal</b> to place the best judged document at rank 1."
    elif shown < total:
        idcg = "····" if hidden else f"{float(table['idcg'].iloc[shown - 1]):.4f}"
        status = f"IDCG@{shown} = {idcg}. The next press places rank {shown + 1}."
    else:
        idcg = "····" if hidden else f"{float(table['idcg'].iloc[total - 1]):.4f}"
        status = (f"IDCG@{result.k if result.k is not None else total} = {idcg}: every judged relevant "
                  "document is placed (the ranks after it add 0). The next press starts again.")
    head = "<tr>" + "".join(_cell(h, header=True) for h in heads) + "</tr>"
    body = f'<table class="ndcg-breakdown ndcg-ideal-steps"><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table>'
    return f'<div class="ndcg-ideal-steps-box">{body if shown else ""}<p class="ndcg-step-status">{status}</p></div>'


def solution_step(solution_md: str, shown: int) -> tuple[str, int]:
    r"""A worked solution revealed one table row (one rank) at a time, for a slide.

    Returns (Markdown, number of table rows). The Markdown runs up to the ``shown``-th row of
    all the solution's tables together (the text after a table, its sum, comes with the
    table's last row). A solution in steps (paragraphs opening ``**Step``) keeps only its
    first paragraph and the current step, plus the step before when the current one has no
    table, so that it fits a slide.

    >>> md = "Intro.\n\n| i | x |\n|:--|:--|\n| 1 | a |\n| 2 | b |\n\nSum = a + b"
    >>> solution_step(md, 1)
    ('Intro.\n\n| i | x |\n|:--|:--|\n| 1 | a |', 2)
    >>> solution_step(md, 2)[0].endswith("Sum = a + b")
    True
    >>> steps = "Setup.\n\n**Step 1.**\n\n| i |\n|:-|\n| 1 |\n\nS1\n\n**Step 2.**\n\n| i |\n|:-|\n| 9 |\n\nS2"
    >>> solution_step(steps, 1)[0]
    'Setup.\n\n**Step 1.**\n\n| i |\n|:-|\n| 1 |\n\nS1'
    >>> solution_step(steps, 2)
    ('Setup.\n\n**Step 2.**\n\n| i |\n|:-|\n| 9 |\n\nS2', 2)
    """
    lines = solution_md.split("\n")
    rows = []
    for i, line in enumerate(lines):
        if line.startswith("|") and i >= 2 and lines[i - 1].startswith("|") and (
            rows and rows[-1] == i - 1 or set(lines[i - 1].replace("|", "").strip()) <= set(":- ")
        ):
            rows.append(i)
    if not rows:
        return solution_md, 0
    shown = max(0, min(int(shown), len(rows)))
    if shown == len(rows):
        visible = lines
    elif shown and rows[shown - 1] + 1 not in rows:  # a table is complete: add its sum paragraph
        end = rows[shown - 1] + 2
        while end < len(lines) and lines[end].strip():
            end += 1
        visible = lines[:end]
    else:
        visible = lines[: rows[shown]]
    starts = [i for i, line in enumerate(visible) if line.startswith("**Step")]
    if not starts:
        return "\n".join(visible).rstrip("\n"), len(rows)
    head = visible[: starts[0]]
    keep = starts[-1]
    if len(starts) > 1 and not any(line.startswith("|") for line in visible[keep:]):
        keep = starts[-2]
    return "\n".join(head + visible[keep:]).rstrip("\n"), len(rows)


def concept_head(title: str, controls: Sequence[Any]) -> Any:
    """A concept slide's first cell: its heading and the control(s) the slide is about.

    notebooks/layouts/slides.css puts the numbers of :func:`concept_result` (the next cell, a
    fragment) beside the control and its plot under both.
    """
    return mo.vstack([mo.Html(f'<h2 class="ndcg-concept-head">{html.escape(title)}</h2>'),
                      mo.hstack(list(controls), justify="start", gap=1.2, align="end", wrap=True)], gap=0.3)


def concept_result(
    result: PlaygroundResult | None,
    plot_html: str | None,
    *,
    problem: BaseException | None = None,
    hidden: bool = False,
    tools: Sequence[Any] = (),
) -> Any:
    """A concept slide's second cell (revealed by the next arrow press): the numbers (DCG@k,
    IDCG@k, NDCG@k) beside the control, ``tools`` (the lecturer's buttons) under them, and the
    plot the control moves (or a table) under everything.

    ``result=None`` shows the input's problem instead; ``hidden=True`` hides the numbers and
    the plot, which would give them away (the lecturer's *Hide the numbers* switch).
    """
    if result is None:
        return mo.callout(mo.md(f"**Cannot compute:** {problem}"), kind="danger")
    numbers: list[Any] = [mo.Html(stats_html(result, hidden=hidden, compact=True))]
    if tools:
        numbers.append(mo.hstack(list(tools), justify="end", gap=1, align="center"))
    if hidden:
        inner = f'<p class="ndcg-step-status">{HIDDEN_NOTE.replace("**", "")}</p>'
    elif plot_html is None:
        inner = '<p class="ndcg-step-status">Nothing to draw until the input is fixed.</p>'
    else:
        inner = plot_html
    return mo.Html(
        f'<div class="ndcg-concept-result"><div class="ndcg-concept-numbers">{mo.vstack(numbers, gap=0.3).text}</div>'
        f'<div class="ndcg-concept-plot">{inner}</div></div>'
    )


def exercise_question(answers: Any, exercise_id: str, *, hints: str = "under the answer") -> Any:
    """An exercise's question slide: the statement on the left; its answer box and, once
    checked, the verdict on the right. The hints, the next fragment, come ``"under the
    answer"`` or ``"under the statement"`` (where a verdict that explains a mistake at length
    would push them off the slide)."""
    if hints not in ("under the answer", "under the statement"):
        raise ValueError(f"hints must be 'under the answer' or 'under the statement'; got {hints!r}.")
    ex = exercises.get(exercise_id)
    box = answers[exercise_id]  # widgets.answer_box: the answer and its own Check button
    answer = [
        mo.hstack([box["answer"], box["check"]], justify="start", align="end", widths=[8, 1]),
        widgets.verdict(answers, exercise_id, exercise=ex, learner=widgets.learner_name()),
    ]
    statement = exercises.card(ex, None).statement
    return mo.Html(
        f'<div class="ndcg-exercise-question{" ndcg-hints-under-statement" if hints == "under the statement" else ""}">'
        f'<div class="ndcg-exercise-statement">{mo.md(statement).text}</div>'
        f'<div class="ndcg-exercise-answer">{mo.vstack(answer, gap=0.3).text}</div></div>'
    )


def exercise_hints(exercise_id: str) -> Any:
    """An exercise's hints, one paragraph each (a fragment beside its question)."""
    card = exercises.card(exercise_id, None)
    hints = [f"**{name}.** {text}" for name, text in card.folded.items() if name != "Worked solution"]
    return mo.Html(f'<div class="ndcg-exercise-hints">{mo.md(chr(10).join(h + chr(10) for h in hints)).text}</div>')


def exercise_solution(exercise_id: str, presses: int, button: Any) -> Any:
    """An exercise's worked solution, one table row (one rank) per press of ``button``.

    In a handout (:func:`in_handout`) the whole solution is printed, with no button.
    """
    card = exercises.card(exercise_id, None)
    title = exercises.get(exercise_id).title
    if in_handout():
        return mo.vstack([mo.md(f"## Worked solution: {title}"), mo.md(card.folded["Worked solution"])])
    text, rows = solution_step(card.folded["Worked solution"], presses)
    if rows and presses < rows:
        note = f"{presses} of {rows} ranks shown: the button shows the next."
    else:
        note = ""
    body = mo.vstack([mo.md(f"## Worked solution: {title}"), mo.md(text), mo.hstack([button, mo.md(note)], justify="start")])
    return mo.Html(f'<div class="ndcg-exercise-solution">{body.text}</div>')


# ---- appended for the chapter decks (deck 02): a worked solution in several tables, one rank per press


def _section_starts(lines: Sequence[str]) -> list[int]:
    """The lines that open a section of a solution: a bold line (not ``**Answer``) whose next
    non-blank line is a table row."""
    starts = []
    for i, line in enumerate(lines):
        if not line.startswith("**") or line.startswith(("**Answer", "**Step")):
            continue
        following = next((x for x in lines[i + 1:] if x.strip()), "")
        if following.startswith("|"):
            starts.append(i)
    return starts


def solution_sections_step(solution_md: str, shown: int) -> tuple[str, int]:
    r"""A worked solution in sections (a bold line such as ``**Ranking A, linear gain:**``
    opening each table) revealed one table row (one rank) at a time, small enough for a slide.

    Returns (Markdown, number of table rows in all sections). The text before the first
    section stays; each section before the current one folds to its bold line and its last
    line (its result); the current section runs up to its shown rows (with its sums once its
    table is complete, as :func:`solution_step`); the closing ``**Answer:**`` paragraph comes
    with the last row. A solution with fewer than two sections is :func:`solution_step`'s.

    >>> md = ("Two runs.\n\n**Run A:**\n\n| i | x |\n|:--|:--|\n| 1 | a |\n\nDCG = a\n\n"
    ...       "**Run B:**\n\n| i | x |\n|:--|:--|\n| 1 | b |\n| 2 | c |\n\nDCG = b + c\n\n**Answer:** B")
    >>> solution_sections_step(md, 1)
    ('Two runs.\n\n**Run A:**\n\n| i | x |\n|:--|:--|\n| 1 | a |\n\nDCG = a', 3)
    >>> print(solution_sections_step(md, 2)[0])
    Two runs.
    <BLANKLINE>
    **Run A:** DCG = a
    <BLANKLINE>
    **Run B:**
    <BLANKLINE>
    | i | x |
    |:--|:--|
    | 1 | b |
    >>> solution_sections_step(md, 3)[0].endswith("DCG = b + c\n\n**Answer:** B")
    True
    """
    lines = solution_md.split("\n")
    starts = _section_starts(lines)
    if len(starts) < 2:
        return solution_step(solution_md, shown)
    answer_at = next((i for i in range(starts[-1], len(lines)) if lines[i].startswith("**Answer")), len(lines))
    head = lines[: starts[0]]
    bounds = [*starts, answer_at]
    sections = ["\n".join(lines[a:b]).strip("\n") for a, b in zip(bounds, bounds[1:])]
    rows = [solution_step(s, 0)[1] for s in sections]
    total = sum(rows)
    if total == 0:
        return solution_md, 0
    shown = max(0, min(int(shown), total))
    current, before = 0, 0
    while current < len(sections) - 1 and shown > before + rows[current]:
        before += rows[current]
        current += 1
    parts = ["\n".join(head).strip("\n")] if any(x.strip() for x in head) else []
    for section in sections[:current]:
        kept = [x for x in section.split("\n") if x.strip()]
        parts.append(f"{kept[0]} {kept[-1]}" if len(kept) > 1 and not kept[-1].startswith("|") else kept[0])
    parts.append(solution_step(sections[current], shown - before)[0])
    if shown == total and answer_at < len(lines):
        parts.append("\n".join(lines[answer_at:]).strip("\n"))
    return "\n\n".join(parts), total


def exercise_solution_sections(exercise_id: str, presses: int, button: Any) -> Any:
    """:func:`exercise_solution` for a solution in several tables (one per ranking or per gain):
    one rank per press of ``button``, earlier tables folded to their results
    (:func:`solution_sections_step`), so that it fits a slide."""
    card = exercises.card(exercise_id, None)
    text, rows = solution_sections_step(card.folded["Worked solution"], presses)
    note = f"{presses} of {rows} ranks shown: the button shows the next." if rows and presses < rows else ""
    title = exercises.get(exercise_id).title
    body = mo.vstack([mo.md(f"## Worked solution: {title}"), mo.md(text), mo.hstack([button, mo.md(note)], justify="start")])
    return mo.Html(f'<div class="ndcg-exercise-solution">{body.text}</div>')
