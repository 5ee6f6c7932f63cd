# /// script
# requires-python = ">=3.11"
# dependencies = ["marimo", "ndcg-lab"]
# [tool.marimo.opengraph]
# title = "01 · Playground"
# description = "Type a ranked list, flip gain, discount and cutoff, and watch DCG, IDCG and nDCG recompute"
# ///

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", app_title="Deck 01: DCG and nDCG", layout_file="layouts/01_playground.slides.json", css_file="layouts/slides.css")


@app.cell
def _():
    import marimo as mo
    from ndcg_core.ui import deck, lecture, playground, plots, widgets
    from ndcg_core.ui.decks import playground as content

    return content, deck, lecture, mo, playground, plots, widgets


@app.cell(hide_code=True)
def _(content, deck):
    deck.title(content.TITLE_MD)
    return


@app.cell
def _(deck, mo):
    # The lecturer's tools: back to the lecture example, hide the numbers, build the ideal
    # ranking one rank per press (ndcg_core.ui.lecture has the logic).
    reset_button = mo.ui.button(label="Reset to the lecture example", value=0, on_click=lambda n: n + 1)
    hide_switch = mo.ui.switch(label="Hide the numbers")
    ideal_button = deck.step_button("Next rank of the ideal")
    return hide_switch, ideal_button, reset_button


@app.cell
def _(content, reset_button):
    reset_button.value  # a press rebuilds every control from the lecture example
    # The slides show the controls through this dictionary, not by their names: a change then
    # reruns the numbers and the plot, never the slide that holds the control in use.
    controls = content.controls()
    return (controls,)


@app.cell
def _(controls):
    # one name per control, so that the cell that computes reruns when any of them changes
    labels_text, missed_text, gain_dropdown, gain_table_text, discount_dropdown, base_number, k_slider = (
        controls[_name] for _name in ("labels", "missed", "gain", "gain_table", "discount", "base", "k"))
    return (
        base_number,
        discount_dropdown,
        gain_dropdown,
        gain_table_text,
        k_slider,
        labels_text,
        missed_text,
    )


@app.cell
def _(
    base_number,
    discount_dropdown,
    gain_dropdown,
    gain_table_text,
    k_slider,
    labels_text,
    missed_text,
    playground,
):
    try:
        result = playground.evaluate(
            labels_text.value,
            missed_text.value,
            gain=gain_dropdown.value,
            gain_table=gain_table_text.value,
            discount=discount_dropdown.value,
            base=base_number.value,
            k=k_slider.value,
        )
        problem = None
    except (TypeError, ValueError) as _err:
        result, problem = None, _err
    return problem, result


@app.cell
def _(content, widgets):
    chapter_answers = widgets.answer_boxes(content.EXERCISES)
    return (chapter_answers,)


@app.cell
def _(controls, deck):
    deck.concept("The lecture example", [controls["labels"]])
    return


@app.cell
def _(deck, hide_switch, plots, problem, reset_button, result):
    deck.numbers(result, None if result is None else plots.gains_per_rank_html(result.table, result.k),
                 problem=problem, hidden=hide_switch.value, tools=[reset_button, hide_switch])
    return


@app.cell
def _(controls, deck):
    deck.concept("Gain: what a label is worth", [[controls["gain"], controls["gain_table"]]])
    return


@app.cell
def _(deck, hide_switch, plots, problem, result):
    deck.numbers(result, None if result is None else plots.gains_per_rank_html(result.table, result.k),
                 problem=problem, hidden=hide_switch.value)
    return


@app.cell
def _(controls, deck):
    deck.concept("Discount: what a rank costs", [[controls["discount"], controls["base"]]])
    return


@app.cell
def _(
    base_number,
    deck,
    discount_dropdown,
    hide_switch,
    k_slider,
    playground,
    plots,
    problem,
    result,
):
    try:
        _plot = plots.discount_curves_html(discount_dropdown.value,
                                           base=playground.base_for(discount_dropdown.value, base_number.value),
                                           k=k_slider.value)
    except (TypeError, ValueError):
        _plot = None  # the numbers show the message
    deck.numbers(result, _plot, problem=problem, hidden=hide_switch.value)
    return


@app.cell
def _(controls, deck):
    deck.concept("Cutoff k: only the top k count", [controls["k"]])
    return


@app.cell
def _(deck, hide_switch, plots, problem, result):
    deck.numbers(result, None if result is None else plots.ndcg_at_cutoffs_html(result.curve, result.k),
                 problem=problem, hidden=hide_switch.value)
    return


@app.cell
def _(controls, deck, ideal_button):
    deck.concept("IDCG: the ideal ranking", [[controls["missed"], ideal_button]])
    return


@app.cell
def _(deck, hide_switch, ideal_button, lecture, problem, result):
    deck.numbers(result, None if result is None else lecture.ideal_steps_html(
        result, lecture.ideal_step_count(result, ideal_button.value), hidden=hide_switch.value),
        problem=problem, hidden=hide_switch.value)
    return


@app.cell
def _(deck):
    dcg_solution_button = deck.step_button()
    ndcg_solution_button = deck.step_button("Next step of the worked nDCG")
    return dcg_solution_button, ndcg_solution_button


@app.cell
def _(chapter_answers, deck):
    deck.question(chapter_answers, "lecture-dcg")
    return


@app.cell
def _(deck):
    deck.hints("lecture-dcg")
    return


@app.cell
def _(dcg_solution_button, deck):
    deck.solution("lecture-dcg", dcg_solution_button)
    return


@app.cell
def _(chapter_answers, deck):
    deck.question(chapter_answers, "lecture-ndcg")
    return


@app.cell
def _(deck):
    deck.hints("lecture-ndcg")
    return


@app.cell
def _(deck, ndcg_solution_button):
    deck.solution("lecture-ndcg", ndcg_solution_button)
    return


if __name__ == "__main__":
    app.run()
