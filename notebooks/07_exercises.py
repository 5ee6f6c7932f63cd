# /// script
# requires-python = ">=3.11"
# dependencies = ["marimo", "ndcg-lab"]
# [tool.marimo.opengraph]
# title = "07 · Exercises"
# description = "Every chapter's exercises: check an answer, get the mistake named, see the worked solution"
# ///

# The answer box, the verdict and the code box come from ndcg_core.ui.widgets, the same pieces
# that end chapters 01-06 ("Check yourself"); progress lives in ndcg_core.infra.progress.

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _():
    import marimo as mo
    import ndcg_core as nc
    from ndcg_core.infra import progress, store
    from ndcg_core.teaching import exercises
    from ndcg_core.ui import widgets
    return exercises, mo, nc, progress, store, widgets


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    # 07 · Exercises

    Every chapter ends with a few exercises; here they all are in one place, with the two
    code exercises of the exam. Pick a chapter and an exercise, type your answer and press
    **Enter** or **Check**. A right answer is confirmed. A wrong one is compared with what
    the usual mistakes would give (natural log instead of $\log_2$, the ideal list built
    from the run, a forgotten normalisation, ...) and, when it matches one, the mistake is
    named with a hint on how to fix it.
    """)
    return


@app.cell
def _(widgets):
    learner_box = widgets.learner_input()
    learner_box
    return (learner_box,)


@app.cell
def _(learner_box, mo, widgets):
    learner, _note = widgets.checked_name(learner_box.value)
    mo.md(_note)
    return (learner,)


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## How to type an answer

    - **Numbers** as you would write them: `2.43`, `2,43`, or a fraction such as `3/4`.
      nDCG and other fractions may also be a percentage: `78 %`. Give the number of
      decimals the exercise asks for and round only at the end: an answer is right when
      it rounds to the right value at the asked decimals, and any further decimals you
      give must be right too.
    - **An ideal ranking** as labels separated by commas or spaces, best first: `2, 1, 1`.
      Trailing zeros may be left out.
    - **Multiple choice**: pick an option and press **Check**.
    - **Code**: write the function in the code box and press **Run my code**.

    Hints and the worked solution are in the tabs under each exercise: open them when you
    want them; a new exercise starts with them folded.
    """)
    return


@app.cell
def _(exercises, mo):
    chapter_dropdown = mo.ui.dropdown(
        options={f"{_number} · {_title}": _number for _number, _title in exercises.CHAPTERS.items()},
        value="01 · The lecture example",
        label="Chapter",
    )
    chapter_dropdown
    return (chapter_dropdown,)


@app.cell
def _(chapter_dropdown, exercises, mo):
    _chapter = exercises.for_chapter(chapter_dropdown.value)
    exercise_dropdown = mo.ui.dropdown(
        options={_ex.title: _ex.id for _ex in _chapter},
        value=_chapter[0].title,
        label="Exercise",
    )
    exercise_dropdown
    return (exercise_dropdown,)


@app.cell
def _(exercise_dropdown, exercises):
    exercise = exercises.get(exercise_dropdown.value)
    return (exercise,)


@app.cell
def _(exercise, exercises, mo):
    mo.md(f"## {exercise.title}\n\n" + exercises.statement(exercise, with_options=False))
    return


@app.cell
def _(exercise, mo, widgets):
    # new widgets for every exercise: nothing typed, checked or opened carries over
    if exercise.kind == "code":
        answer = widgets.code_box(exercise.function)
    else:
        answer = widgets.answer_boxes((exercise.id,), label="Your answer")
    help_tabs = widgets.help_tabs(exercise)
    return answer, help_tabs


@app.cell
def _(answer, exercise, mo):
    if exercise.kind == "code":
        _shown = mo.vstack([answer["code"], answer["run"]])
    else:
        _shown = mo.hstack([answer[exercise.id]["answer"], answer[exercise.id]["check"]],
                           justify="start", align="end", widths=[8, 1])
    _shown
    return


@app.cell
def _(answer, exercise, learner, widgets):
    if exercise.kind == "code":
        _out = widgets.code_report(answer, exercise.id, learner=learner)
    else:
        _out = widgets.verdict(answer, exercise.id, exercise=exercise, learner=learner)
    _out
    return


@app.cell
def _(help_tabs):
    help_tabs
    return


@app.cell
def _(answer, exercise, exercises, learner, mo, progress, store):
    from urllib.parse import quote

    answer  # re-read the log after every check
    _total = len(exercises.all_exercises())
    _rows = []
    _mistakes = []
    _problem = ""
    _done = {}
    if learner:
        try:
            _done = progress.solved_ids(learner)
            _mistakes = progress.recurring_mistakes(learner)
        except store.StoreError as _err:
            _problem = f"\n\n**Progress cannot be read**: {_err}"
    for _row in progress.chapter_progress(learner or "nobody", tried=_done):
        _rows.append(f"| {_row.chapter} · {_row.title} | {_row.exercises} | {_row.tried} | {_row.solved} |")
    _exam = progress.exam_progress(learner or "nobody", tried=_done)  # 08: generated sets, no fixed count
    _rows.append(f"| {_exam.chapter} · {_exam.title} | generated | {_exam.tried} | {_exam.solved} |")
    _solved = sum(bool(_v) for _k, _v in _done.items() if _k in {_e.id for _e in exercises.all_exercises()})
    _head = f"## Your progress: {_solved} of {_total} solved" if learner else "## Your progress"
    _kept = (
        f"Kept for **{learner}** across reloads and restarts; checks in chapters 01-06 and 08 count too."
        if learner else "**Progress is not being kept**: type your name at the top of the page."
    )
    _list = ""
    if _mistakes:
        _items = "\n".join(
            f"- {_m.name}: {_m.count} time{'s' if _m.count != 1 else ''}" for _m in _mistakes[:6])
        if _mistakes[6:]:  # the rest named too, never dropped without a word
            _items += "\n\nAlso: " + "; ".join(
                f"{_m.name} ({_m.count} time{'s' if _m.count != 1 else ''})" for _m in _mistakes[6:]) + "."
        _list = (f"\n\n### Your recurring mistakes\n\n{_items}\n\nPractise these in "
                 f"[08 · Exam practice](/?file=08_exam_practice.py&learner={quote(learner)}): tick "
                 "**Practise my mistakes** there.")
    mo.md(
        f"{_head}\n\n{_kept}{_problem}\n\n"
        "| chapter | exercises | tried | solved |\n|:---|:---|:---|:---|\n" + "\n".join(_rows) + _list
    )
    return


@app.cell(hide_code=True)
def _(exercises, mo):
    mo.md(
        r"""
    ## About the code exercises

    The two code exercises of chapter 01 ask for the exam's short implementation:
    linear gain, discount $1/\log_2(i+1)$, and for nDCG an ideal list sorted from `rels`
    itself. The checker runs your function on a battery of cases (the lecture example, a
    cutoff beyond the list, an all-zero list, an empty list, ...) and compares every result
    with the exact values NDCG Lab computes. Your code runs in a separate process with a
    time limit, a memory limit and no access to files or the network; `import math` is the
    only import allowed.

    """
        + exercises.code.battery_markdown("dcg")
    )
    return


if __name__ == "__main__":
    app.run()
