# /// script
# requires-python = ">=3.11"
# dependencies = ["marimo", "ndcg-lab"]
# [tool.marimo.opengraph]
# title = "01 · Playground"
# description = "Type a ranked list, flip gain, discount and cutoff, and watch DCG, IDCG and NDCG recompute"
# ///

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="columns", app_title="NDCG playground")


@app.cell(column=0)
def _():
    import marimo as mo
    import ndcg_core as nc
    from ndcg_core.teaching import exercises
    from ndcg_core.teaching import presets
    from ndcg_core.ui import playground, plots

    return exercises, mo, nc, playground, plots, presets


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    # NDCG playground
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
def _(mo, nc, playground, preset_dropdown, presets):
    _preset = presets.preset(preset_dropdown.value)
    labels_text = mo.ui.text(value=_preset.labels, label="Relevance labels", full_width=True)
    missing_text = mo.ui.text(value=_preset.missing, label="Judged documents not in the list", full_width=True)
    gain_dropdown = mo.ui.dropdown(options=list(playground.GAIN_CHOICES), value=_preset.gain, label="Gain")
    gain_table_text = mo.ui.text(value=_preset.gain_table, label="Gain table")
    discount_dropdown = mo.ui.dropdown(options=list(nc.DISCOUNT_NAMES), value=_preset.discount, label="Discount")
    base_number = mo.ui.number(value=_preset.base, step=0.5, label="Base")
    k_slider = mo.ui.slider(1, 100, value=_preset.k, label="k", include_input=True, full_width=True)
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
            missing_text,
            k_slider,
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
        labels_text,
        missing_text,
        unjudged_radio,
    )


@app.cell
def _(
    base_number,
    discount_dropdown,
    gain_dropdown,
    gain_table_text,
    ideal_radio,
    k_slider,
    labels_text,
    missing_text,
    mo,
    playground,
    unjudged_radio,
):
    try:
        result = playground.evaluate(
            labels_text.value,
            missing_text.value,
            gain=gain_dropdown.value,
            gain_table=gain_table_text.value,
            discount=discount_dropdown.value,
            base=base_number.value,
            k=k_slider.value,
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
    if discount_dropdown.value in playground.TAKES_BASE:
        _extra.append(base_number)
    _numbers = [mo.hstack(_extra, justify="start", gap=1.5)] if _extra else []
    if result is None:
        _numbers.append(mo.callout(mo.md(f"**Cannot compute:** {problem}"), kind="danger"))
    else:
        _numbers += [
            mo.Html(playground.stats_html(result)),
            mo.md(f"**Configuration:** {result.config.describe()}"),
        ]
        if result.scored.idcg <= 0:
            _numbers.append(
                mo.callout(
                    mo.md(
                        f"**IDCG@{result.k} = 0**, so NDCG is reported as 0 rather than computed. "
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
    $\mathrm{NDCG}@k = \mathrm{DCG}@k / \mathrm{IDCG}@k$ is the share of the obtainable gain
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
def _(base_number, discount_dropdown, k_slider, mo, playground, plots):
    # Each plot has its own cell and reads only what it draws. The *_html versions keep the
    # axes as a cached picture and redraw only the data on top (see ndcg_core.plots.ranking).
    try:
        _html = plots.discount_curves_html(
            discount_dropdown.value,
            base=playground.base_for(discount_dropdown.value, base_number.value),
            k=k_slider.value,
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
    *Gain* to exponential: a label 2 is now worth 3, not 2. Choose *Discount* `log` and change
    the base: DCG changes, NDCG does not, because the base cancels in the ratio. Open the
    *Missed highly relevant documents* preset and take the ideal list from the list itself.
    """)
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Check yourself

    The lecture example by hand: the playground opens on it, so work each answer on paper
    first (or type another list above, so the screen does not give it away), then press
    **Check**. A wrong answer that a common slip produces is named, with a hint on the fix.
    Hints and the worked solution are folded under each exercise. Notebook 07 has more.
    """)
    return


@app.cell
def _(exercises, mo):
    chapter_answers = mo.ui.dictionary({
        _ex.id: (
            mo.ui.radio(_ex.choices, label=f"Your answer ({_ex.id})")
            if _ex.choices
            else mo.ui.text(label=f"Your answer ({_ex.id})", placeholder=_ex.placeholder, full_width=True)
        ).form(submit_button_label="Check", bordered=False)
        for _ex in map(exercises.get, ("lecture-term", "lecture-dcg", "lecture-ideal", "lecture-ndcg"))
    })
    return (chapter_answers,)


@app.cell
def _(chapter_answers, exercises, mo):
    def exercise_card(ex_id):
        """Statement, answer box, feedback once checked, hints and worked solution folded."""
        card = exercises.card(ex_id, chapter_answers.value[ex_id])
        return mo.vstack([
            mo.md(card.statement),
            chapter_answers[ex_id],
            mo.md("") if card.feedback is None else mo.callout(mo.md(card.feedback.message), kind=card.feedback.kind),
            mo.accordion({name: mo.md(text) for name, text in card.folded.items()}),
        ])
    return (exercise_card,)


@app.cell
def _(exercise_card):
    exercise_card("lecture-term")
    return


@app.cell
def _(exercise_card):
    exercise_card("lecture-dcg")
    return


@app.cell
def _(exercise_card):
    exercise_card("lecture-ideal")
    return


@app.cell
def _(exercise_card):
    exercise_card("lecture-ndcg")
    return


if __name__ == "__main__":
    app.run()
