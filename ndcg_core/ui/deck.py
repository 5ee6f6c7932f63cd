"""The one vocabulary of NDCG Lab's slide decks (``notebooks/decks/*.py``, ``ndcg-lab slides``).

A deck is a marimo notebook of its own whose ``layouts/<name>.slides.json`` makes each cell a
slide, a fragment (shown by the next arrow press) or a skipped cell. Each slide cell is one call
of a word here:

- :func:`title`: a title slide (Markdown); :func:`text`: a short slide of text with a question
  for the class;
- a **concept** slide is two cells: :func:`concept` (its heading, one line and the control(s) it
  is about), then, one press later, :func:`numbers` (the numbers beside the control, the plot
  the control moves under both) or a deck's own result;
- an **exercise** is three cells, each one line from its exercise id: :func:`question` (the
  statement, the answer box that checks, the verdict), :func:`hints` (a fragment) and
  :func:`solution` (the worked solution, one rank per press of its :func:`step_button`) or, for a
  question without a table to step through, :func:`answer` (a fragment).

Every slide's look is in one stylesheet, ``notebooks/decks/layouts/slides.css``, which each deck
names (``css_file=``); the classes it styles are the ones these words write. In a handout
(``ndcg-lab handout`` sets :data:`HANDOUT_ENV`) step-by-step slides are drawn in their final
state. The numbers come from :mod:`ndcg_core` and the exercises from
:mod:`ndcg_core.teaching.exercises`: nothing here computes a score.

>>> solution_step("Intro.\\n\\n| i | x |\\n|:--|:--|\\n| 1 | a |\\n| 2 | b |\\n\\nSum", 1)
('Intro.\\n\\n| i | x |\\n|:--|:--|\\n| 1 | a |', 2)
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
    "HANDOUT_ENV",
    "in_handout",
    "HIDDEN_NOTE",
    "HINTS_PLACES",
    "title",
    "text",
    "concept",
    "numbers",
    "question",
    "hints",
    "answer",
    "step_button",
    "solution",
    "solution_step",
    "solution_sections_step",
]

#: Set to ``"1"`` by ``ndcg-lab handout`` for the deck server it starts: every step-by-step
#: slide (the ideal ranking, a worked solution) is drawn in its final state, all ranks shown,
#: since a printed page cannot be pressed.
HANDOUT_ENV = "NDCG_LAB_HANDOUT"

#: Shown in place of the numbers while the lecturer hides them.
HIDDEN_NOTE = "The numbers are hidden while you work them out: switch off **Hide the numbers** to show them."

#: Where :func:`question` puts the next fragments (the hints, then an answer): under the answer
#: box (right column), under the statement (left column, the answer box and its verdict alone
#: on the right), or beside a vote (statement and options on the left, hints and answer right).
HINTS_PLACES = ("under the answer", "under the statement", "beside")


def in_handout(environ: Mapping[str, str] | None = None) -> bool:
    """True when the deck is being printed by ``ndcg-lab handout`` (step-by-step slides end state).

    >>> in_handout({}), in_handout({"NDCG_LAB_HANDOUT": "1"})
    (False, True)
    """
    return (os.environ if environ is None else environ).get(HANDOUT_ENV, "") == "1"


def _html(content: Any) -> str:
    return content if isinstance(content, str) else mo.as_html(content).text


def title(markdown: str) -> Any:
    """A title slide: what the twenty minutes cover (Markdown, a ``#`` heading and a list)."""
    return mo.Html(f'<div class="ndcg-deck-title-slide">{mo.md(markdown).text}</div>')


def text(heading: str, body_md: str, *, ask: str = "") -> Any:
    """A short slide of text (a discussion, the summary): a heading, a few lines (Markdown),
    and the question for the class (``ask``) set off at the bottom."""
    ask_html = f'<div class="ndcg-deck-ask">{mo.md(ask).text}</div>' if ask else ""
    heading_html = f"<h2>{html.escape(heading)}</h2>" if heading else ""
    return mo.Html(f'<div class="ndcg-deck-text">{heading_html}{mo.md(body_md).text}{ask_html}</div>')


def concept(heading: str, controls: Sequence[Any] = (), *, lead: str = "", numbers_width: str | None = None) -> Any:
    """A concept slide's first cell: its heading, one ``lead`` line (Markdown) and its controls.

    Each item of ``controls`` is a row: a widget alone (a text box then takes the row's full
    width) or a list of widgets side by side. ``numbers_width`` (a CSS length) keeps
    the heading, the lead and the controls out of that much room at the right, where the next
    press reveals the numbers (slides.css puts them there); by default only the heading is kept
    out of it. Give the
    controls from a dictionary or a tuple, never by their own names in the cell, so that a
    change redraws the numbers, not the control in use.
    """
    parts: list[Any] = [mo.Html(f'<h2 class="ndcg-concept-head">{html.escape(heading)}</h2>')]
    if lead:
        parts.append(mo.Html(f'<div class="ndcg-deck-lead">{mo.md(lead).text}</div>'))
    for row in controls:
        if isinstance(row, (list, tuple)):
            parts.append(mo.hstack(list(row), justify="start", gap=1.2, align="end", wrap=True))
        else:
            parts.append(row)
    inner = mo.vstack(parts, gap=0.25).text
    if numbers_width is None:
        return mo.Html(f'<div class="ndcg-concept">{inner}</div>')
    return mo.Html(f'<div class="ndcg-concept ndcg-concept-narrow" style="--ndcg-numbers-width: '
                   f'{html.escape(numbers_width)}">{inner}</div>')


def numbers(
    result: PlaygroundResult | None,
    plot_html: str | None,
    *,
    problem: BaseException | None = None,
    hidden: bool = False,
    tools: Sequence[Any] = (),
) -> Any:
    """A concept slide's second cell (revealed by the next arrow press): the numbers (DCG@k,
    IDCG@k, nDCG@k) beside the control, ``tools`` (the lecturer's buttons) under them, and the
    plot the control moves (or a table) under everything.

    ``result=None`` shows the input's problem instead; ``hidden=True`` hides the numbers and
    the plot, which would give them away (the lecturer's *Hide the numbers* switch).
    """
    if result is None:
        return mo.callout(mo.md(f"**Cannot compute:** {problem}"), kind="danger")
    shown: list[Any] = [mo.Html(stats_html(result, hidden=hidden, compact=True))]
    if tools:
        shown.append(mo.hstack(list(tools), justify="end", gap=1, align="center"))
    if hidden:
        inner = f'<p class="ndcg-step-status">{HIDDEN_NOTE.replace("**", "")}</p>'
    elif plot_html is None:
        inner = '<p class="ndcg-step-status">Nothing to draw until the input is fixed.</p>'
    else:
        inner = plot_html
    return panel(mo.vstack(shown, gap=0.3).text, inner)


def panel(numbers_html: str, plot_html: str, *, kind: str = "") -> Any:
    """A concept slide's second cell from HTML: ``numbers_html`` top right (beside the control),
    ``plot_html`` under everything; ``kind`` adds a class for a deck's own variant."""
    extra = f" {kind}" if kind else ""
    return mo.Html(
        f'<div class="ndcg-concept-result{extra}"><div class="ndcg-concept-numbers">{numbers_html}</div>'
        f'<div class="ndcg-concept-plot">{plot_html}</div></div>'
    )


def question(answers: Any, exercise_id: str, *, hints: str = "under the statement", kicker: str = "") -> Any:
    """An exercise's question slide: the statement (under a ``kicker`` line such as "Check
    yourself · question 1 of 3"), its answer box with its own Check button, and once checked
    the verdict. ``hints`` says where the next fragments go (:data:`HINTS_PLACES`).

    ``answers`` is :func:`ndcg_core.ui.widgets.answer_boxes` of the deck's exercises.
    """
    if hints not in HINTS_PLACES:
        raise ValueError(f"hints must be one of {', '.join(map(repr, HINTS_PLACES))}; got {hints!r}.")
    ex = exercises.get(exercise_id)
    box = answers[exercise_id]  # widgets.answer_box: the answer and its own Check button
    answer_parts = [
        mo.hstack([box["answer"], box["check"]], justify="start", align="end", widths=[8, 1]),
        widgets.verdict(answers, exercise_id, exercise=ex, learner=widgets.learner_name()),
    ]
    statement = exercises.card(ex, None).statement
    kicker_html = f'<p class="ndcg-deck-kicker">{html.escape(kicker)}</p>' if kicker else ""
    place = {"under the answer": "", "under the statement": " ndcg-hints-under-statement",
             "beside": " ndcg-hints-beside"}[hints]
    return mo.Html(
        f'<div class="ndcg-exercise-question{place}">'
        f'<div class="ndcg-exercise-statement">{kicker_html}{mo.md(statement).text}</div>'
        f'<div class="ndcg-exercise-answer">{mo.vstack(answer_parts, gap=0.3).text}</div></div>'
    )


def hints(exercise_id: str) -> Any:
    """An exercise's hints, one paragraph each (a fragment beside its question)."""
    card = exercises.card(exercise_id, None)
    shown = [f"**{name}.** {body}" for name, body in card.folded.items() if name != "Worked solution"]
    return mo.Html(f'<div class="ndcg-exercise-hints">{mo.md(chr(10).join(h + chr(10) for h in shown)).text}</div>')


def answer(exercise_id: str, *, tables: bool = True) -> Any:
    """A question's worked solution as one fragment under its question and hints (a concept
    question or a vote: no table to step through). ``tables=False`` leaves out the solution's
    computed tables and its "Computed exactly" line (the page has them)."""
    body = exercises.card(exercise_id, None).folded["Worked solution"]
    if not tables:
        body = "\n\n".join(p for p in body.split("\n\n")
                           if not p.lstrip().startswith("|") and not p.startswith("Computed exactly"))
    return mo.Html(f'<div class="ndcg-deck-answer">{mo.md("**Worked solution.** " + body).text}</div>')


def step_button(label: str = "Next rank of the solution") -> Any:
    """A button whose value counts its presses: one more rank (or step) of a slide per press."""
    return mo.ui.button(label=label, value=0, on_click=lambda n: n + 1)


def solution(exercise_id: str, button: Any, *, sections: bool = False) -> Any:
    """An exercise's worked solution, one table row (one rank) per press of ``button``
    (:func:`step_button`); ``sections=True`` for a solution in several tables (one per ranking
    or per gain), earlier tables folded to their results (:func:`solution_sections_step`).

    In a handout (:func:`in_handout`) the whole solution is printed, with no button.
    """
    card = exercises.card(exercise_id, None)
    heading = mo.md(f"## Worked solution: {exercises.get(exercise_id).title}")
    if in_handout():
        body = mo.vstack([heading, mo.md(card.folded["Worked solution"])])
    else:
        presses = int(button.value)
        step = solution_sections_step if sections else solution_step
        shown, rows = step(card.folded["Worked solution"], presses)
        note = f"{presses} of {rows} ranks shown: the button shows the next." if rows and presses < rows else ""
        body = mo.vstack([heading, mo.md(shown), mo.hstack([button, mo.md(note)], justify="start")])
    return mo.Html(f'<div class="ndcg-exercise-solution">{body.text}</div>')


def _table_rows(lines: Sequence[str]) -> list[int]:
    rows: list[int] = []
    for i, line in enumerate(lines):
        if line.startswith("|") and i >= 2 and lines[i - 1].startswith("|") and (
            rows and rows[-1] == i - 1 or set(lines[i - 1].replace("|", "").strip()) <= set(":- ")
        ):
            rows.append(i)
    return rows


def solution_step(solution_md: str, shown: int) -> tuple[str, int]:
    r"""A worked solution revealed one table row (one rank) at a time, for a slide.

    Returns (Markdown, number of table rows). The Markdown runs up to the ``shown``-th row of
    all the solution's tables together (the text after a table, its sum, comes with the
    table's last row). A solution in steps (paragraphs opening ``**Step``) keeps only its
    first paragraph and the current step, plus the step before when the current one has no
    table, so that it fits a slide.

    >>> md = "Intro.\n\n| i | x |\n|:--|:--|\n| 1 | a |\n| 2 | b |\n\nSum = a + b"
    >>> solution_step(md, 2)[0].endswith("Sum = a + b")
    True
    >>> steps = "Setup.\n\n**Step 1.**\n\n| i |\n|:-|\n| 1 |\n\nS1\n\n**Step 2.**\n\n| i |\n|:-|\n| 9 |\n\nS2"
    >>> solution_step(steps, 1)[0]
    'Setup.\n\n**Step 1.**\n\n| i |\n|:-|\n| 1 |\n\nS1'
    >>> solution_step(steps, 2)
    ('Setup.\n\n**Step 2.**\n\n| i |\n|:-|\n| 9 |\n\nS2', 2)
    """
    lines = solution_md.split("\n")
    rows = _table_rows(lines)
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
