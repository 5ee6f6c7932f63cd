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
    from ndcg_core.ui import playground, plots, widgets

    return mo, nc, playground, plots, presets, widgets


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    # nDCG playground
    """)
    return


@app.cell
def _(mo, presets):
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
    k_text = mo.ui.text(value="", label=playground.K_FIELD, placeholder="any whole number; empty: the slider")
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
    # the next (playground.PAGE_CSS sizes both to the window). The preset's note comes
    # after the numbers, so that on a small screen the numbers stay in view.
    mo.vstack(
        [
            mo.Html(playground.PAGE_CSS),
            mo.hstack([preset_dropdown, gain_dropdown, discount_dropdown], justify="start", gap=1.5, wrap=True),
            labels_text,
            missed_text,
            mo.hstack([k_slider, k_text], justify="start", align="center", gap=1.5, widths=[3, 1]),
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
    ideal_radio,
    k_problem,
    k_value,
    labels_text,
    missed_text,
    mo,
    nc,
    playground,
    unjudged_radio,
    widgets,
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

    # The numbers come straight after the controls (on a slide, one arrow press reveals
    # them). The controls are not shown again here: redrawing nine widgets on every edit
    # would cost more than everything else. Gain table and Base appear only when used.
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
            mo.Html(playground.stats_html(result)),
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
    mo.vstack(_numbers, gap=0.7)
    return problem, result


@app.cell
def _(mo, preset_dropdown, presets):
    mo.md(presets.preset(preset_dropdown.value).note).callout(kind="info")
    return


@app.cell
def _(mo, playground, result):
    mo.stop(result is None)
    mo.vstack([mo.md("**Rank by rank**"), mo.Html(playground.table_html(result.table))], gap=0.3)
    return


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
def _(mo, plots, result):
    mo.stop(result is None)
    mo.Html(plots.gains_per_rank_html(result.table, result.k))
    return


@app.cell
def _(mo, plots, result):
    mo.stop(result is None)
    mo.Html(plots.ndcg_at_cutoffs_html(result.curve, result.k))
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
