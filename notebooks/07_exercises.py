# /// script
# requires-python = ">=3.11"
# dependencies = ["marimo", "ndcg-lab"]
# [tool.marimo.opengraph]
# title = "07 · Exercises"
# description = "Every chapter's exercises: check an answer, get the mistake named, see the worked solution"
# ///

# The answer box, the feedback callout and the folded hints and worked solution come from
# ndcg_core.ui.widgets, the same pieces that end chapters 01-06 ("Check yourself").

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _():
    import marimo as mo
    import ndcg_core as nc
    from ndcg_core.teaching import exercises
    from ndcg_core.ui import widgets
    return exercises, mo, nc, widgets


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    # 07 · Exercises

    Every chapter ends with a few exercises; here they all are in one place. Pick a
    chapter and an exercise, type your answer and press **Check** (or Ctrl+Enter). A right answer is
    confirmed. A wrong one is compared with what the usual mistakes would give (natural
    log instead of $\log_2$, the ideal list built from the run, a forgotten
    normalisation, ...) and, when it matches one, the mistake is named with a hint on how
    to fix it.
    """)
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## How to type an answer

    - **Numbers** as you would write them: `2.43`, `2,43`, or a fraction such as `3/4`.
      nDCG may also be a percentage: `78 %`. Give the number of decimals the exercise asks
      for and round only at the end.
    - **An ideal ranking** as labels separated by commas or spaces, best first: `2, 1, 1`.
      Trailing zeros may be left out.
    - **Multiple choice**: pick an option.

    Hints and the worked solution are folded away under each exercise: open them when
    you want them.
    """)
    return


@app.cell
def _(mo):
    get_progress, set_progress = mo.state({})
    return get_progress, set_progress


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
    if exercise.kind == "code":
        answer_form = None
        _shown = mo.callout(
            mo.md(
                "This exercise is answered with code, not text: see **Code exercises** at the "
                "end of this page."
            ),
            kind="info",
        )
    else:
        answer_form = widgets.answer_box(exercise, label="Your answer")
        _shown = answer_form
    _shown
    return (answer_form,)


@app.cell
def _(answer_form, exercise, exercises, mo, set_progress, widgets):
    if answer_form is None:
        _out = mo.md("")
    elif answer_form.value is None:
        _out = mo.md("*Type your answer and press **Check**.*")
    else:
        try:
            _feedback = exercises.check(exercise.id, answer_form.value)
        except (TypeError, ValueError) as _err:
            _out = widgets.error_callout(_err)
        else:
            _solved = _feedback.correct
            set_progress(lambda _p: {**_p, exercise.id: _p.get(exercise.id, False) or _solved})
            _out = widgets.feedback_callout(_feedback)
    _out
    return


@app.cell
def _(exercise, widgets):
    widgets.folded_help(exercise)
    return


@app.cell
def _(exercises, get_progress, mo):
    _progress = get_progress()
    _rows = []
    for _number, _title in exercises.CHAPTERS.items():
        _ids = [_ex.id for _ex in exercises.for_chapter(_number)]
        _tried = sum(_id in _progress for _id in _ids)
        _solved = sum(bool(_progress.get(_id)) for _id in _ids)
        _rows.append(f"| {_number} · {_title} | {len(_ids)} | {_tried} | {_solved} |")
    _total = len(exercises.all_exercises())
    _done = sum(bool(_v) for _v in _progress.values())
    mo.md(
        f"## Your progress: {_done} of {_total} solved\n\n"
        "| chapter | exercises | tried | solved |\n|:---|:---|:---|:---|\n"
        + "\n".join(_rows)
        + "\n\nProgress is kept for this browser session only: a reload starts afresh."
    )
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Code exercises: write `dcg(rels, k)` and `ndcg(rels, k)`

    The two functions below are the short implementation from the exam: linear gain,
    discount $1/\log_2(i+1)$, and for nDCG an ideal list sorted from `rels` itself. The
    checker calls them on a battery of cases (the lecture example, a cutoff beyond the
    list, an all-zero list, an empty list, ...) and compares every result with
    the exact values NDCG Lab computes.

    On this page nothing you type is ever run: the page only runs the code stored in the
    notebook. To write your own versions, open the notebook for editing with

    ```
    ndcg-lab edit
    ```

    choose `07_exercises.py`, replace the bodies of `dcg` and `ndcg` in the two cells
    below, and run them: the report under them updates with every change. Start by
    fixing what the report says about the exam's `ndcg`.
    """)
    return


@app.cell
def _():
    from math import log2

    def dcg(rels, k):
        """DCG@k, linear gain, discount 1/log2(rank + 1). Rewrite me in edit mode."""
        return sum(rels[i] / log2(i + 2) for i in range(min(k, len(rels))))
    return (dcg,)


@app.cell
def _(dcg):
    def ndcg(rels, k):
        """nDCG@k with the ideal list sorted from rels (the exam's version). Fix me in edit mode."""
        ideal = sorted(rels, reverse=True)
        return dcg(rels, k) / dcg(ideal, k)
    return (ndcg,)


@app.cell
def _(dcg, exercises, mo, ndcg, set_progress):
    import inspect

    _parts = []
    for _id, _function in (("code-dcg", dcg), ("code-ndcg", ndcg)):
        _report = exercises.check_code(_id, _function)
        _passed = _report.passed
        if mo.app_meta().mode == "edit":  # in run mode this is the shipped code, not the learner's
            set_progress(lambda _p, _key=_id, _ok=_passed: {**_p, _key: _p.get(_key, False) or _ok})
        _parts.append(mo.md(f"```python\n{inspect.getsource(_function).rstrip()}\n```"))
        _parts.append(mo.callout(mo.md(_report.markdown()), kind="success" if _passed else "warn"))
    mo.vstack(_parts)
    return


if __name__ == "__main__":
    app.run()
