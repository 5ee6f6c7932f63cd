# /// script
# requires-python = ">=3.11"
# dependencies = ["marimo", "ndcg-lab"]
# [tool.marimo.opengraph]
# title = "12 · Which measure?"
# description = "P@k, P@R, AP, MAP, nDCG and bpref side by side on one ranking, which measure fits which judgments, and which ones hold up when judgments go missing"
# ///

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", layout_file="layouts/12_which_measure.slides.json", css_file="layouts/slides.css")


@app.cell
def _():
    import marimo as mo
    import ndcg_core as nc
    from ndcg_core.teaching import measures, toy
    from ndcg_core.ui import deck, widgets
    from ndcg_core.ui.decks import measures as content
    return content, deck, measures, mo, nc, toy, widgets


@app.cell(hide_code=True)
def _(content, deck):
    deck.title(content.TITLE_MD)
    return


@app.cell
def _(widgets):
    labels_text = widgets.labels_input("1, 0, 2, 1, 0")
    return (labels_text,)


@app.cell
def _(labels_text, widgets):
    labels, judgments, input_error = widgets.read_ranking(labels_text.value)
    return input_error, judgments, labels


@app.cell
def _(content, widgets):
    chapter_answers = widgets.answer_boxes(content.EXERCISES)
    return (chapter_answers,)


@app.cell
def _(deck, labels_text):
    deck.concept(
        "One ranking, six measures",
        [labels_text],
        lead="Every measure compares the list with the judgments; R = the number of relevant documents.",
        numbers_width="24rem",
    )
    return


@app.cell
def _(content, input_error, judgments, labels, mo):
    mo.stop(labels is None, input_error)
    content.family_result(labels, judgments)
    return


@app.cell
def _(content, deck):
    deck.text(
        "Which measure for which judgments?",
        content.kinds_markdown(),
        ask="**Ask the class:** a shallow pool, binary labels. Which row are we in?",
    )
    return


@app.cell
def _(mo):
    on_top_dropdown = mo.ui.dropdown(options=[str(i) for i in range(0, 6)], value="2", label="Unjudged documents on top")
    return (on_top_dropdown,)


@app.cell
def _(deck, on_top_dropdown):
    deck.concept(
        "A new system's unjudged documents",
        [on_top_dropdown],
        lead="Same judged documents, same order, plus documents nobody judged on top.",
        numbers_width="24rem",
    )
    return


@app.cell
def _(content, input_error, judgments, labels, mo, on_top_dropdown):
    mo.stop(labels is None, input_error)
    content.on_top_result(labels, judgments, int(on_top_dropdown.value))
    return


@app.cell
def _(measures, toy):
    _toy = toy.read_toy_collection()
    sampling = measures.sampling_curves(_toy.qrels_full, _toy.runs, k=10)
    return (sampling,)


@app.cell
def _(mo):
    kept_dropdown = mo.ui.dropdown(options=["100", "80", "60", "40", "30", "20", "10"], value="30", label="Judgments kept (%)")
    return (kept_dropdown,)


@app.cell
def _(deck, kept_dropdown):
    deck.concept(
        "Thin the judgments at random",
        [kept_dropdown],
        lead="The toy collection: ten topics, three runs; keep a random share of the judgments.",
        numbers_width="24rem",
    )
    return


@app.cell
def _(content, kept_dropdown, sampling):
    content.sampling_result(sampling, int(kept_dropdown.value))
    return


@app.cell
def _(deck):
    deck.text(
        "What to remember",
        "- Every measure compares a ranked list with the ground truth; R = the relevant documents of the query.\n"
        "- P@R cuts each query's list at its own R. MAP is the plain mean of AP: every topic weighs the same.\n"
        "- nDCG@k: graded, complete judgments; top k, grade and position; needs the ideal ranking.\n"
        "- bpref: made for incomplete binary judgments; it skips unjudged documents.\n"
        "- Measures that count unjudged as not relevant sink when judgments are missing.",
    )
    return


@app.cell
def _(chapter_answers, deck):
    deck.question(chapter_answers, "measures-rprec", hints="under the answer", kicker="Check yourself · question 1 of 3")
    return


@app.cell
def _(deck):
    deck.hints("measures-rprec")
    return


@app.cell
def _(deck):
    deck.answer("measures-rprec")
    return


@app.cell
def _(chapter_answers, deck):
    deck.question(chapter_answers, "measures-bpref", hints="under the answer", kicker="Check yourself · question 2 of 3")
    return


@app.cell
def _(deck):
    deck.hints("measures-bpref")
    return


@app.cell
def _(deck):
    deck.answer("measures-bpref")
    return


@app.cell
def _(chapter_answers, deck):
    deck.question(chapter_answers, "measures-map", hints="under the answer", kicker="Check yourself · question 3 of 3")
    return


@app.cell
def _(deck):
    deck.hints("measures-map")
    return


@app.cell
def _(deck):
    deck.answer("measures-map")
    return


if __name__ == "__main__":
    app.run()
