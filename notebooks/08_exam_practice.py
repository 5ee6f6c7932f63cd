# /// script
# requires-python = ">=3.11"
# dependencies = ["marimo", "ndcg-lab"]
# [tool.marimo.opengraph]
# title = "08 · Exam practice"
# description = "Generated exam problems: a seed you can share, a score, worked solutions, a printable sheet"
# ///

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _():
    import marimo as mo
    import ndcg_core as nc
    from ndcg_core.teaching import exam
    from ndcg_core.infra import progress, store
    from ndcg_core.teaching import exercises
    from ndcg_core.ui import exam_sheet, widgets
    return exam, exam_sheet, exercises, mo, nc, progress, store, widgets


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    # 08 · Exam practice

    Exam tasks on DCG and nDCG are short and mechanical, and the marks are lost on small
    slips: a natural log instead of $\log_2$, an ideal list sorted from the run, a cutoff
    one rank off. This page generates fresh problems of that kind as often as you like.

    Answer all of them, press **Mark my answers**, and you get a score, the mistake behind
    each wrong answer where it can be recognised, and a worked solution for every problem.
    Change an answer after marking and its verdict (and the score) say "not checked" until
    you mark again. With your name typed below, every marked answer is kept, and a set aimed
    at your recurring mistakes is one tick away.
    """)
    return


@app.cell
def _(widgets):
    learner_box = widgets.learner_input()
    learner_box
    return (learner_box,)


@app.cell
def _(learner_box, mo, progress, store, widgets):
    learner, _note = widgets.checked_name(learner_box.value)
    my_mistakes = []
    if learner:
        try:
            my_mistakes = progress.recurring_mistakes(learner)
        except store.StoreError as _err:
            _note += f"\n\n**Progress cannot be read**: {_err}"
    practise_box = mo.ui.checkbox(
        label="Practise my mistakes: " + (", ".join(f"{_m.name} ({_m.count}×)" for _m in my_mistakes[:3])
                                          + (f" and {len(my_mistakes) - 3} more" if len(my_mistakes) > 3 else "")
                                          if my_mistakes else "none recorded yet"),
        disabled=not my_mistakes,
    )
    mo.vstack([mo.md(_note), practise_box])
    return learner, my_mistakes, practise_box


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Seed and settings

    A set is fixed by its **seed** and the settings below: the same seed and settings give
    the same problems on any computer, so you can hand a seed to a classmate, or come back
    to a set you got wrong. Make it harder with longer lists, higher labels, other gains
    and discounts, unjudged documents (`?`) and relevant documents the list missed.
    """)
    return


@app.cell
def _(mo):
    get_seed, set_seed = mo.state(2026)
    return get_seed, set_seed


@app.cell
def _(exam, get_seed, mo):
    seed_text = mo.ui.text(value=str(get_seed()), label="Seed", placeholder=f"0 to {exam.MAX_SEED}")
    return (seed_text,)


@app.cell
def _(mo, set_seed):
    import random

    new_seed_button = mo.ui.button(
        label="New random seed",
        on_click=lambda _count: set_seed(random.SystemRandom().randrange(1_000_000)),
    )
    return (new_seed_button,)


@app.cell
def _(exam, mo):
    level_dropdown = mo.ui.dropdown(
        options={"like the lecture's exam": "lecture", "easy": "easy", "medium": "medium", "hard": "hard"},
        value="like the lecture's exam",
        label="Difficulty",
    )
    return (level_dropdown,)


@app.cell
def difficulty_knobs(exam, level_dropdown, mo, widgets):
    # A difficulty sets every knob below; each knob can still be moved on its own after.
    # "like the lecture's exam" is ExamSettings' defaults with the practice kinds (the same
    # questions as the real exam: a multi-part task, a concept question and single steps;
    # every kind comes once before any repeats; the code task is below).
    _lecture_questions = [
        "a multi-part task (DCG, ideal, IDCG, nDCG, compare and why)",
        "a concept question",
        "DCG@k",
        "nDCG@k",
        "the ideal ranking",
    ]
    _question_options = {
        "DCG@k": "dcg",
        "IDCG@k": "idcg",
        "nDCG@k": "ndcg",
        "one discounted term": "term",
        "the ideal ranking": "ideal",
        "which ranking is higher": "compare",
        "a multi-part task (DCG, ideal, IDCG, nDCG, compare and why)": "task",
        "a concept question": "concept",
    }
    if level_dropdown.value == "lecture":
        _s = exam.ExamSettings(problems=5, kinds=exam.PRACTICE_KINDS)
        _questions = _lecture_questions
    else:
        _s = exam.exam_settings(level_dropdown.value)
        _questions = [_label for _label, _kind in _question_options.items() if _kind in _s.kinds]
    problems_slider = mo.ui.slider(1, 12, value=_s.problems, label="Problems", show_value=True)
    length_slider = mo.ui.slider(2, 12, value=_s.length, label="Documents per list", show_value=True)
    max_label_slider = mo.ui.slider(1, 4, value=_s.max_label, label="Highest label", show_value=True)
    precision_slider = mo.ui.slider(1, 4, value=_s.precision, label="Decimals asked for", show_value=True)
    gains_multiselect = mo.ui.multiselect(
        options=widgets.gain_options(exam.EXAM_GAINS, formula=True),
        value=[widgets.gain_label(_g, formula=True) for _g in _s.gains],
        label="Gains",
    )
    discounts_multiselect = mo.ui.multiselect(
        options=widgets.discount_options(exam.EXAM_DISCOUNTS, base=2),
        value=[widgets.discount_label(_d, base=2 if _d == "jarvelin_kekalainen" else None) for _d in _s.discounts],
        label="Discounts",
    )
    unjudged_slider = mo.ui.slider(0, 4, value=_s.unjudged, label="Unjudged documents per list", show_value=True)
    policies_multiselect = mo.ui.multiselect(
        options={"gain 0": "zero", "condensed": "condense"},
        value=[{"zero": "gain 0", "condense": "condensed"}[_p] for _p in _s.unjudged_policies],
        label="Unjudged documents scored as",
    )
    missed_slider = mo.ui.slider(0, 4, value=_s.missed, label="Missed relevant documents per list", show_value=True)
    kinds_multiselect = mo.ui.multiselect(options=_question_options, value=_questions, label="Questions")
    return (
        discounts_multiselect,
        gains_multiselect,
        kinds_multiselect,
        length_slider,
        max_label_slider,
        missed_slider,
        policies_multiselect,
        precision_slider,
        problems_slider,
        unjudged_slider,
    )


@app.cell
def _(
    discounts_multiselect,
    gains_multiselect,
    kinds_multiselect,
    length_slider,
    level_dropdown,
    max_label_slider,
    missed_slider,
    mo,
    new_seed_button,
    policies_multiselect,
    precision_slider,
    problems_slider,
    seed_text,
    unjudged_slider,
):
    mo.vstack([
        mo.hstack([seed_text, new_seed_button, level_dropdown], justify="start", align="center"),
        mo.hstack([problems_slider, precision_slider], justify="start"),
        mo.hstack([length_slider, max_label_slider], justify="start"),
        mo.hstack([gains_multiselect, discounts_multiselect], justify="start"),
        mo.hstack([unjudged_slider, policies_multiselect], justify="start"),
        missed_slider,
        kinds_multiselect,
    ])
    return


@app.cell
def _(
    discounts_multiselect,
    exam,
    gains_multiselect,
    kinds_multiselect,
    length_slider,
    max_label_slider,
    missed_slider,
    mo,
    my_mistakes,
    policies_multiselect,
    practise_box,
    precision_slider,
    problems_slider,
    seed_text,
    unjudged_slider,
    widgets,
):
    try:
        _seed = exam.parse_seed(seed_text.value)
        if practise_box.value and my_mistakes:
            exam_set = exam.practice_set(_seed, [_m.misconception for _m in my_mistakes],
                                         problems=problems_slider.value)
        else:
            exam_set = exam.generate_exam(
                _seed,
                exam.ExamSettings(
                    problems=problems_slider.value,
                    length=length_slider.value,
                    max_label=max_label_slider.value,
                    gains=tuple(gains_multiselect.value),
                    discounts=tuple(discounts_multiselect.value),
                    unjudged=unjudged_slider.value,
                    unjudged_policies=tuple(policies_multiselect.value),
                    missed=missed_slider.value,
                    kinds=tuple(kinds_multiselect.value),
                    precision=precision_slider.value,
                ),
            )
    except (TypeError, ValueError) as _err:
        exam_set = None
        _shown = widgets.error_callout(_err)
    else:
        _what = ("problems aimed at your recurring mistakes" if practise_box.value and my_mistakes
                 else exam_set.describe())
        _shown = mo.md(f"**Seed {exam_set.seed}**: {_what}.")
    _shown
    return (exam_set,)


@app.cell
def _(exam_set, mo, widgets):
    mo.stop(exam_set is None)
    answers = widgets.exam_answer_boxes(exam_set.problems)
    mark_button = widgets.check_button("Mark my answers")
    return answers, mark_button


@app.cell
def _(answers, exam_set, exercises, mark_button, mo):
    _parts = []
    for _i, _p in enumerate(exam_set.problems, start=1):
        _parts.append(mo.md(f"### {_p.title}\n\n{exercises.statement(_p)}"))
        _parts.append(answers[f"a{_i}"])
    mo.vstack([mo.md("## The problems"), *_parts, mark_button])
    return


@app.cell
def _(mo):
    # what was marked, per set of answer boxes: (presses, the answers marked)
    marked_memo = {}
    return (marked_memo,)


@app.cell
def _(answers, exam, exam_set, learner, mark_button, marked_memo, mo, widgets):
    mo.stop(exam_set is None)
    _n = len(exam_set.problems)
    _now = [answers.value[f"a{_i}"] for _i in range(1, _n + 1)]
    _key = id(answers)
    _presses, _marked = marked_memo.get(_key, (0, None))
    if (mark_button.value or 0) > _presses:
        _presses, _marked = mark_button.value, list(_now)
        marked_memo[_key] = (_presses, _marked)
        _fresh = True
    else:
        _fresh = False
    mo.stop(
        _marked is None,
        mo.md("*Answer the problems, then press **Mark my answers**. Empty answers count as wrong.*"),
    )
    result = exam.mark(exam_set, _marked)
    _changed = [_i for _i in range(1, _n + 1) if _now[_i - 1] != _marked[_i - 1]]
    _problems = []
    if _fresh and learner:
        for _p, _a, _fb in zip(exam_set.problems, _marked, result.feedback):
            if _a not in (None, ""):
                _problem = widgets.record_check(learner, _p.id, _a, _fb)
                if _problem and _problem not in _problems:
                    _problems.append(_problem)
    _verdicts = []
    for _i, (_p, _fb) in enumerate(zip(exam_set.problems, result.feedback), start=1):
        _verdicts.append(mo.md(f"**{_p.title}**"))
        if _i in _changed:
            _verdicts.append(mo.callout(mo.md("**Not checked**: you changed this answer after marking."), kind="neutral"))
        elif exam_set.problems[_i - 1].choices:
            _verdicts.append(widgets.feedback_callout(_fb))
        else:  # fades while its box is edited, until marked again
            _verdicts.append(widgets.stale_marked(widgets.feedback_callout(_fb), answers[f"a{_i}"],
                                                  _marked[_i - 1] or ""))
    if _changed:
        _head = mo.callout(mo.md(
            f"## Score: not checked\n\nYou changed answer {', '.join(map(str, _changed))} after marking. "
            "Press **Mark my answers** again for a new score."), kind="neutral")
    else:
        _head = mo.md(f"## Score: {result.score} / {result.total} ({result.percent:.0f} %)")
    mo.vstack([_head, *[mo.callout(mo.md(_x), kind="warn") for _x in _problems], *_verdicts])
    return (result,)


@app.cell
def _(exam_set, exercises, mo, result):
    mo.stop(exam_set is None)
    _items = {}
    for _p, _fb in zip(exam_set.problems, result.feedback):
        _mark = "right" if _fb.correct else "to review"
        _items[f"{_p.title} ({_mark})"] = mo.md(exercises.solution(_p))
    mo.vstack([mo.md("## Review: worked solutions"), mo.accordion(_items)])
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## The code task

    The exam also asks for code: first `dcg(rels, k)`, then `ndcg(rels, k)` built on it.
    Both are checked on a fixed battery of cases plus four the seed draws. Your code runs in
    a separate process with a time limit, a memory limit and no access to files or the
    network; `from math import log2` is the only import allowed.
    """)
    return


@app.cell
def _(exam, mo, seed_text, widgets):
    try:
        code_task = exam.code_task(exam.parse_seed(seed_text.value))
    except (TypeError, ValueError) as _err:
        code_task = None
        code_answer = None
        _shown = widgets.error_callout(_err)
    else:
        code_answer = widgets.code_box(code_task.functions, value=code_task.starter)
        _shown = mo.vstack([mo.md(f"### {code_task.title}\n\n{code_task.prompt}"), code_answer["code"],
                            code_answer["run"]])
    _shown
    return code_answer, code_task


@app.cell
def _(code_answer, code_task, exam, learner, mo, widgets):
    mo.stop(code_task is None)
    widgets.code_report(code_answer, code_task.exercises, extra_cases=code_task.cases, learner=learner,
                        notes=lambda _code: exam.code_notes(code_task, _code))
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## A printable sheet

    The sheet holds the same problems and the code task with room to write (lines for the
    reasons asked in words, a box for the code), then the answer key and the worked
    solutions on a new page. It is a single HTML file with everything inside it:
    open it in any browser, offline, and print it.
    """)
    return


@app.cell
def _(code_task, exam_set, exam_sheet, mo):
    mo.stop(exam_set is None)
    mo.download(
        data=lambda: exam_sheet.exam_html(exam_set, code=code_task).encode("utf-8"),
        filename=f"ndcg-exam-seed-{exam_set.seed}.html",
        mimetype="text/html",
        label="Download the printable sheet",
    )
    return


if __name__ == "__main__":
    app.run()
