# /// script
# requires-python = ">=3.11"
# dependencies = ["marimo", "ndcg-lab"]
# [tool.marimo.opengraph]
# title = "01 · Playground"
# description = "Type a ranked list, flip gain, discount and cutoff, and watch DCG, IDCG and nDCG recompute"
# ///

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="columns", app_title="nDCG playground")


@app.cell(column=0)
def _():
    import marimo as mo
    import ndcg_core as nc
    from ndcg_core.teaching import presets
    from ndcg_core.ui import lecture, playground, plots, widgets

    return lecture, mo, nc, playground, plots, presets, widgets


@app.cell(hide_code=True)
def _(mo):
    mo.md("""
    # nDCG playground
    """)
    return


@app.cell
def _(mo):
    # The lecturer's toolbar: back to the lecture example, hide the numbers, build the ideal
    # ranking one rank per press (ndcg_core.ui.lecture has the logic).
    reset_button = mo.ui.button(label="Reset to the lecture example", value=0, on_click=lambda n: n + 1)
    hide_switch = mo.ui.switch(label="Hide the numbers")
    ideal_button = mo.ui.button(label="Next rank of the ideal", value=0, on_click=lambda n: n + 1)
    mo.hstack([reset_button, hide_switch, ideal_button], justify="start", gap=1.2, align="center")
    return hide_switch, ideal_button, reset_button


@app.cell
def _(mo, presets, reset_button):
    reset_button.value  # a press rebuilds every control from the lecture example
    preset_dropdown = mo.ui.dropdown(
        options=presets.preset_titles(),
        value=presets.PRESETS[0].title,
        label="Preset",
    )
    return (preset_dropdown,)


@app.cell
def _(mo, playground, preset_dropdown, presets, widgets):
    _preset = presets.preset(preset_dropdown.value)
    labels_text = widgets.labels_input(_preset.labels)
    missed_text = widgets.missed_input(_preset.missed)
    gain_dropdown = widgets.gain_dropdown(_preset.gain)
    gain_table_text = mo.ui.text(value=_preset.gain_table, label="Gain table")
    discount_dropdown = widgets.discount_dropdown(_preset.discount)
    base_number = mo.ui.number(value=_preset.base, step=0.5, label="Base")
    # the slider covers 1-100 and shows its value; any other cutoff is typed in "Type k", taken as
    # typed or refused with a message (playground.choose_k), never rounded or clamped
    k_slider = mo.ui.slider(1, playground.K_SLIDER_MAX, value=_preset.k, label="k", show_value=True, full_width=True)
    k_text = mo.ui.text(value="", label=playground.K_FIELD, placeholder="e.g. 250")
    unjudged_radio = mo.ui.radio(
        options={"gain 0": "zero", "condense (drop them)": "condense"},
        value="gain 0" if _preset.unjudged == "zero" else "condense (drop them)",
        label="Unjudged documents",
        inline=True,
    )
    ideal_radio = mo.ui.radio(
        options={"all judged documents": "judgments", "the list itself (pitfall)": "list"},
        value="all judged documents" if _preset.ideal == "judgments" else "the list itself (pitfall)",
        label="Ideal list from",
        inline=True,
    )
    # On one projector screen: the controls, numbers and table in this column, the plots in
    # the next (playground.PAGE_STYLES sizes both to the window and styles the numbers and the
    # table once, so the cells that redraw on an edit carry no style sheet).
    mo.vstack(
        [
            mo.Html(playground.PAGE_STYLES),
            mo.hstack([preset_dropdown, gain_dropdown, discount_dropdown], justify="start", gap=1.5, wrap=True),
            labels_text,
            missed_text,
            mo.hstack([k_slider, k_text], justify="start", align="center", gap=1.5, widths=[2, 1]),
            mo.hstack([unjudged_radio, ideal_radio], justify="start", gap=1.5, wrap=True),
        ],
        gap=0.6,
    )
    return (
        base_number,
        discount_dropdown,
        gain_dropdown,
        gain_table_text,
        ideal_radio,
        k_slider,
        k_text,
        labels_text,
        missed_text,
        unjudged_radio,
    )


@app.cell
def _(k_slider, k_text, playground):
    k_value, k_problem = playground.choose_k(k_text.value, k_slider.value)
    return k_problem, k_value


@app.cell
def _(
    base_number,
    discount_dropdown,
    gain_dropdown,
    gain_table_text,
    hide_switch,
    ideal_button,
    ideal_radio,
    k_problem,
    k_value,
    labels_text,
    missed_text,
    mo,
    nc,
    playground,
    preset_dropdown,
    presets,
    unjudged_radio,
    widgets,
    lecture,
):
    try:
        if k_problem is not None:
            raise k_problem
        result = playground.evaluate(
            labels_text.value,
            missed_text.value,
            gain=gain_dropdown.value,
            gain_table=gain_table_text.value,
            discount=discount_dropdown.value,
            base=base_number.value,
            k=k_value,
            unjudged=unjudged_radio.value,
            ideal=ideal_radio.value,
        )
        problem = None
    except (TypeError, ValueError) as _err:
        result, problem = None, _err

    # The numbers come straight after the controls, then the preset's note and the table
    # rank by rank: one cell, so that an edit reruns one cell in this column (each cell run
    # is a round of messages the page renders). The controls are not shown again here:
    # redrawing nine widgets on every edit would cost more than everything else. Gain table
    # and Base appear only when used. The preset's note comes after the numbers, so that on
    # a small screen the numbers stay in view.
    _extra = []
    if gain_dropdown.value == "table":
        _extra.append(gain_table_text)
    if discount_dropdown.value in nc.TAKES_BASE:
        _extra.append(base_number)
    _numbers = [mo.hstack(_extra, justify="start", gap=1.5)] if _extra else []
    if result is None:
        _numbers.append(widgets.error_callout(problem, lead="**Cannot compute:**"))
    else:
        _numbers += [
            mo.Html(playground.stats_html(result, hidden=hide_switch.value, css=False)),
            mo.md(f"**Configuration:** {result.config.describe()}"),
        ]
        if k_value != k_slider.value:
            _numbers.append(mo.md(f"*k = {k_value}, as typed in **{playground.K_FIELD}**; clear that box to use "
                                  "the slider again.*"))
        for _note in playground.notes(result):
            _numbers.append(mo.callout(mo.md(_note), kind="info"))
        if result.scored.idcg <= 0:
            _numbers.append(
                mo.callout(
                    mo.md(
                        f"**IDCG@{result.k} = 0**, so nDCG is reported as 0 rather than computed. "
                        "No judged document has a positive gain, so even a perfect ranking would "
                        "score 0 and there is nothing to divide by. Add a relevant judgment "
                        "(a label above 0) to the list or under *Judged documents not in the list*."
                    ),
                    kind="warn",
                )
            )
    _parts = [mo.vstack(_numbers, gap=0.7), mo.md(presets.preset(preset_dropdown.value).note).callout(kind="info")]
    if result is not None:
        if hide_switch.value:
            _shown = mo.md(lecture.HIDDEN_NOTE)
        else:
            _shown = mo.Html(playground.table_html(result.table, css=False))
        if ideal_button.value:
            _parts += [mo.md("**The ideal ranking, one rank per press**"),
                       mo.Html(lecture.ideal_steps_html(result, lecture.ideal_step_count(result, ideal_button.value)))]
        _parts.append(mo.vstack([mo.md("**Rank by rank**"), _shown], gap=0.3))
    mo.vstack(_parts, gap=1.0)
    return problem, result


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    Each row adds the gain of rank $i$ times its discount:
    $\mathrm{DCG}@k = \sum_{i=1}^{k} g(\ell_i)\, d(i)$. The ideal columns do the same for all
    judged documents sorted by gain, and
    $\mathrm{nDCG}@k = \mathrm{DCG}@k / \mathrm{IDCG}@k$ is the share of the obtainable gain
    the ranking captured (0 when $\mathrm{IDCG}@k = 0$).
    """)
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    **Typing a list.** Type the relevance labels of a ranked result list, best-ranked first,
    and every number, the table and the plots recompute. `?` marks a document nobody judged.
    Under *Judged documents not in the list* go the labels of relevant documents the system
    never returned: they belong in the ideal list even though the ranking missed them.
    """)
    return


@app.cell(column=1)
def _(base_number, discount_dropdown, k_value, mo, playground, plots):
    mo.stop(k_value is None)
    try:
        _html = plots.discount_curves_html(
            discount_dropdown.value,
            base=playground.base_for(discount_dropdown.value, base_number.value),
            k=k_value,
        )
    except (TypeError, ValueError):
        mo.stop(True)  # the numbers above already show the message
    mo.Html(_html)
    return


@app.cell
def _(hide_switch, mo, plots, result):
    # Both plots the list moves, in one cell: an edit reruns one cell in this column.
    mo.stop(result is None or hide_switch.value)
    mo.Html(plots.stacked_html(plots.gains_per_rank_html(result.table, result.k),
                               plots.ndcg_at_cutoffs_html(result.curve, result.k)))
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    **Things to try.** Move the 2 from rank 3 to rank 1 and see how much DCG@5 gains. Switch
    *Gain* to exponential: a label 2 is now worth 3, not 2. Choose *Discount* 1/log_b(i+1) and
    change the base: DCG changes, nDCG does not, because the base cancels in the ratio. Open the
    *Missed highly relevant documents* preset and take the ideal list from the list itself:
    the exam's short code does that, and it is right only when the run contains every
    relevant document (as the lecture's run does); otherwise build the ideal from all judged
    documents (chapter 04 says what to write in the exam).
    """)
    return


@app.cell(hide_code=True)
def _(widgets):
    widgets.check_yourself("The lecture example by hand: the playground opens on it, so work each answer on paper first (or type another list above, so the screen does not give it away).")
    return


@app.cell
def _(widgets):
    chapter_answers = widgets.answer_boxes(("lecture-term", "lecture-dcg", "lecture-ideal", "lecture-ndcg"))
    return (chapter_answers,)


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "lecture-term")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "lecture-dcg")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "lecture-ideal")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "lecture-ndcg")
    return


if __name__ == "__main__":
    app.run()
