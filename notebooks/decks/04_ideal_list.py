# /// script
# requires-python = ">=3.11"
# dependencies = ["marimo", "ndcg-lab"]
# [tool.marimo.opengraph]
# title = "04 · The ideal list"
# description = "Normalisation: IDCG from the judgments, the 1.0 trap, why topics differ, nDCG@100 < nDCG@10"
# ///

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", layout_file="layouts/04_ideal_list.slides.json", css_file="layouts/slides.css")


@app.cell
def _():
    import marimo as mo
    from ndcg_core.ui import deck, widgets
    from ndcg_core.ui.decks import ideal as content
    return content, deck, mo, widgets


@app.cell(hide_code=True)
def _(content, deck):
    deck.title(content.TITLE_MD)
    return


@app.cell
def _(content, deck, mo, widgets):
    # the deck's own controls (nothing here is drawn: each slide shows the ones it is about)
    labels_text = widgets.labels_input("1, 0, 2, 1, 0")
    missed_text = widgets.missed_input()
    k_slider = mo.ui.slider(1, 10, value=5, label="k", show_value=True)
    ideal_button = deck.step_button("Next rank of the ideal")
    ideal_source_radio = mo.ui.radio(
        options=content.IDEAL_SOURCES, value=next(iter(content.IDEAL_SOURCES)), label="Ideal list from", inline=True
    )
    delay_slider = mo.ui.slider(1, 6, value=2, label="Rank of the first highly relevant document", show_value=True)
    relevant_slider = mo.ui.slider(10, 60, value=15, label="Relevant documents judged for the topic", show_value=True)
    return (
        delay_slider,
        ideal_button,
        ideal_source_radio,
        k_slider,
        labels_text,
        missed_text,
        relevant_slider,
    )


@app.cell
def _(content, widgets):
    chapter_answers = widgets.answer_boxes(content.EXERCISES)
    return (chapter_answers,)


@app.cell
def _(deck):
    order_solution_button = deck.step_button("Next rank of the ideal ranking")
    trap_solution_button = deck.step_button()
    return order_solution_button, trap_solution_button


@app.cell
def _(relevant_slider):
    deep_judgments = [1] * relevant_slider.value
    return (deep_judgments,)


@app.cell
def _(content):
    average_tables = content.average_tables()
    return (average_tables,)


@app.cell
def _(deck, ideal_button, labels_text, missed_text):
    deck.concept("IDCG: the best DCG the judgments allow", [labels_text, missed_text, ideal_button])
    return


@app.cell
def _(content, ideal_button, k_slider, labels_text, missed_text):
    content.ideal_result(labels_text.value, missed_text.value, k_slider.value, ideal_button.value)
    return


@app.cell
def _(content, deck, ideal_source_radio):
    deck.concept(
        "The 1.0 trap: an ideal from the run itself",
        [ideal_source_radio],
        lead=f"Run: `{content.TRAP_RUN}`. Judged, but missed by the run: `{content.TRAP_MISSED}`.",
    )
    return


@app.cell
def _(content, ideal_source_radio):
    content.trap_result(ideal_source_radio.value)
    return


@app.cell
def _(deck, delay_slider):
    deck.concept(
        "Normalised is not comparable",
        [delay_slider],
        lead="Topic **A** has five documents of label 3, topic **B** one; non-relevant ones come first.",
    )
    return


@app.cell
def _(content, delay_slider):
    content.delay_result(delay_slider.value, content.DELAY_TOPICS, content.delayed_run)
    return


@app.cell
def _(deck, relevant_slider):
    deck.concept(
        "Deeper is not always higher",
        [relevant_slider],
        lead="The run's relevant documents: ranks 1–8, 30 and 60 of 100.",
    )
    return


@app.cell
def _(content, deep_judgments):
    content.cutoff_result(content.DEEP_RUN, deep_judgments)
    return


@app.cell
def _(average_tables, content):
    content.average_result(average_tables)
    return


@app.cell
def _(content, deck):
    deck.text("", content.REMEMBER_MD)
    return


@app.cell
def _(chapter_answers, content, deck):
    deck.question(chapter_answers, "ideal-order", hints="under the answer", kicker=content.kicker("ideal-order"))
    return


@app.cell
def _(deck):
    deck.hints("ideal-order")
    return


@app.cell
def _(content, order_solution_button):
    content.order_solution(order_solution_button.value, order_solution_button)
    return


@app.cell
def _(chapter_answers, content, deck):
    deck.question(chapter_answers, "ideal-trap-ndcg", hints="under the answer", kicker=content.kicker("ideal-trap-ndcg"))
    return


@app.cell
def _(deck):
    deck.hints("ideal-trap-ndcg")
    return


@app.cell
def _(deck, trap_solution_button):
    deck.solution("ideal-trap-ndcg", trap_solution_button)
    return


@app.cell
def _(chapter_answers, content, deck):
    deck.question(chapter_answers, "ideal-one-exactly", hints="beside", kicker=content.kicker("ideal-one-exactly"))
    return


@app.cell
def _(deck):
    deck.hints("ideal-one-exactly")
    return


@app.cell
def _(deck):
    deck.answer("ideal-one-exactly", tables=False)
    return


if __name__ == "__main__":
    app.run()
