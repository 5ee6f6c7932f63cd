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
    from ndcg_core.teaching import exercises
    from ndcg_core.ui import widgets
    return exam, exercises, mo, nc, widgets


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    # 08 · Exam practice

    Exam tasks on DCG and nDCG are short and mechanical, and the marks are lost on small
    slips: a natural log instead of $\log_2$, an ideal list sorted from the run, a cutoff
    one rank off. This page generates fresh problems of that kind as often as you like.

    Answer all of them, press **Mark my answers**, and you get a score, the mistake behind
    each wrong answer where it can be recognised, and a worked solution for every problem.
    """)
    return


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
def _(exam, mo, widgets):
    problems_slider = mo.ui.slider(1, 12, value=5, label="Problems", show_value=True)
    length_slider = mo.ui.slider(2, 12, value=5, label="Documents per list", show_value=True)
    max_label_slider = mo.ui.slider(1, 4, value=3, label="Highest label", show_value=True)
    precision_slider = mo.ui.slider(1, 4, value=2, label="Decimals asked for", show_value=True)
    gains_multiselect = mo.ui.multiselect(
        options=widgets.gain_options(exam.EXAM_GAINS, formula=True),
        value=[widgets.gain_label("linear", formula=True)],
        label="Gains",
    )
    discounts_multiselect = mo.ui.multiselect(
        options=widgets.discount_options(exam.EXAM_DISCOUNTS, base=2),
        value=[widgets.discount_label("log2")],
        label="Discounts",
    )
    unjudged_slider = mo.ui.slider(0, 4, value=0, label="Unjudged documents per list", show_value=True)
    policies_multiselect = mo.ui.multiselect(
        options={"gain 0": "zero", "condensed": "condense"},
        value=["gain 0"],
        label="Unjudged documents scored as",
    )
    missed_slider = mo.ui.slider(0, 4, value=0, label="Missed relevant documents per list", show_value=True)
    kinds_multiselect = mo.ui.multiselect(
        options={
            "DCG@k": "dcg",
            "IDCG@k": "idcg",
            "nDCG@k": "ndcg",
            "one discounted term": "term",
            "the ideal ranking": "ideal",
            "which ranking is higher": "compare",
        },
        value=["DCG@k", "IDCG@k", "nDCG@k", "one discounted term", "the ideal ranking"],
        label="Questions",
    )
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
        mo.hstack([seed_text, new_seed_button], justify="start", align="center"),
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
    policies_multiselect,
    precision_slider,
    problems_slider,
    seed_text,
    unjudged_slider,
    widgets,
):
    try:
        exam_set = exam.generate_exam(
            exam.parse_seed(seed_text.value),
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
        _shown = mo.md(f"**Seed {exam_set.seed}**: {exam_set.settings.describe()}.")
    _shown
    return (exam_set,)


@app.cell
def _(exam_set, exercises, mo):
    mo.stop(exam_set is None)
    _fields = {}
    _parts = []
    for _i, _p in enumerate(exam_set.problems, start=1):
        _key = f"a{_i}"
        _fields[_key] = (
            mo.ui.radio(_p.choices, label=f"Answer {_i}")
            if _p.choices
            else mo.ui.text(label=f"Answer {_i}", placeholder=_p.placeholder)
        )
        _text = exercises.statement(_p).replace("{", "{{").replace("}", "}}")
        _parts.append(f"### {_p.title}\n\n{_text}\n\n{{{_key}}}")
    answers_form = (
        mo.md("## The problems\n\n" + "\n\n---\n\n".join(_parts))
        .batch(**_fields)
        .form(submit_button_label="Mark my answers", bordered=False)
    )
    answers_form
    return (answers_form,)


@app.cell
def _(answers_form, exam, exam_set, mo, widgets):
    mo.stop(exam_set is None)
    mo.stop(
        answers_form.value is None,
        mo.md("*Answer the problems, then press **Mark my answers**. Empty answers count as wrong.*"),
    )
    result = exam.mark(exam_set, [answers_form.value[f"a{_i}"] for _i in range(1, len(exam_set.problems) + 1)])
    _verdicts = []
    for _p, _fb in zip(exam_set.problems, result.feedback):
        _verdicts.append(mo.md(f"**{_p.title}**"))
        _verdicts.append(widgets.feedback_callout(_fb))
    mo.vstack([
        mo.md(f"## Score: {result.score} / {result.total} ({result.percent:.0f} %)"),
        *_verdicts,
    ])
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
    ## A printable sheet

    The sheet holds the same problems with space for the answers, then the answer key and
    the worked solutions on a new page. It is a single HTML file with everything inside it:
    open it in any browser, offline, and print it.
    """)
    return


@app.cell
def _(exam, exam_set, mo):
    mo.stop(exam_set is None)
    mo.download(
        data=lambda: exam.exam_html(exam_set).encode("utf-8"),
        filename=f"ndcg-exam-seed-{exam_set.seed}.html",
        mimetype="text/html",
        label="Download the printable sheet",
    )
    return


if __name__ == "__main__":
    app.run()
