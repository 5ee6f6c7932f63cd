# /// script
# requires-python = ">=3.11"
# dependencies = ["marimo", "ndcg-lab"]
# [tool.marimo.opengraph]
# title = "02 · Gains"
# description = "What a label is worth: linear vs exponential vs a table"
# ///

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", layout_file="layouts/02_gains.slides.json", css_file="layouts/slides.css")


@app.cell
def _():
    import marimo as mo
    import ndcg_core as nc
    from ndcg_core.ui import deck, widgets
    from ndcg_core.ui.decks import gains as content
    return content, deck, mo, nc, widgets


@app.cell(hide_code=True)
def _(content, deck):
    deck.title(content.TITLE_MD)
    return


@app.cell
def _(widgets):
    labels_text = widgets.labels_input("2, 3, 0, 1, 2")
    labels_text
    return (labels_text,)


@app.cell
def _(labels_text, nc, widgets):
    try:
        labels = nc.parse_labels(labels_text.value)
        labels_error = None
    except (TypeError, ValueError) as _err:
        labels = None
        labels_error = widgets.error_callout(_err)
    return labels, labels_error


@app.cell
def _(mo):
    gain_table_text = mo.ui.text(value="0:0, 1:0.5, 2:2, 3:5", label="Gain table", full_width=True)
    gain_table_text
    return (gain_table_text,)


@app.cell
def _(content, widgets):
    chapter_answers = widgets.answer_boxes(content.EXERCISES)
    return (chapter_answers,)


@app.cell
def _(deck, gain_table_text):
    deck.concept(
        "Labels are codes; a gain function prices them",
        [gain_table_text],
        lead="DCG@k = Σ g(ℓᵢ)·d(i): the gain g(ℓ) is what DCG adds up, not the label ℓ.",
        numbers_width="27rem",
    )
    return


@app.cell
def _(content, gain_table_text):
    content.gains_result(gain_table_text.value)
    return


@app.cell
def _(labels, mo):
    # a dropdown, not a slider: its value reads from the back row and arrow keys stay the deck's
    deck_rank_dropdown = mo.ui.dropdown(
        options=[str(_i) for _i in range(1, min(len(labels or [0]), 50) + 1)], value="1",
        label="Rank of the document to relabel",
    )
    deck_label_dropdown = mo.ui.dropdown(options=["0", "1", "2", "3", "4"], value="3", label="New label")
    return deck_label_dropdown, deck_rank_dropdown


@app.cell
def _(deck, deck_label_dropdown, deck_rank_dropdown, labels_text):
    deck.concept(
        "Promote one document",
        [labels_text, [deck_rank_dropdown, deck_label_dropdown]],
        lead="Its discount d(i) stays; its contribution g(ℓ)·d(i) grows by the ratio of the gains.",
        numbers_width="26rem",
    )
    return


@app.cell
def _(content, deck_label_dropdown, deck_rank_dropdown, labels, labels_error, mo):
    mo.stop(labels is None, content.problem(labels_error) if labels is None else None)
    content.promote_result(labels, int(deck_rank_dropdown.value), int(deck_label_dropdown.value))
    return


@app.cell
def _(content, mo):
    swap_run_radio = mo.ui.radio(options=list(content.SWAP_RUNS), value=list(content.SWAP_RUNS)[0], label="Run in the plot", inline=True)
    return (swap_run_radio,)


@app.cell
def _(deck, swap_run_radio):
    deck.concept(
        "Exponential gain: where the 3 sits matters",
        [swap_run_radio],
        lead="One query, judged 3 and 2. Run A puts the 3 at rank 1 and the 2 at rank 4; run B swaps them.",
        numbers_width="27rem",
    )
    return


@app.cell
def _(content, swap_run_radio):
    content.runs_result(content.SWAP_RUNS, content.SWAP_JUDGMENTS, 4, swap_run_radio.value, gap=True)
    return


@app.cell
def _(content, mo):
    flip_run_radio = mo.ui.radio(options=list(content.FLIP_RUNS), value=list(content.FLIP_RUNS)[0], label="Run in the plot", inline=True)
    return (flip_run_radio,)


@app.cell
def _(deck, flip_run_radio):
    deck.concept(
        "A gain is a chosen weighting: it can flip the winner",
        [flip_run_radio],
        lead="One query, judged 3, 2, 2, 2. Run A finds three 2s; run B finds the single 3 and nothing else.",
        numbers_width="27rem",
    )
    return


@app.cell
def _(content, flip_run_radio):
    content.runs_result(content.FLIP_RUNS, content.FLIP_JUDGMENTS, 4, flip_run_radio.value)
    return


@app.cell
def _(deck):
    deck.text(
        "Fix what the labels mean before judging",
        "- Exponential gain says: a document that **answers** the need is worth far more than one "
        "that only discusses the topic.\n"
        "- That holds only if the assessors kept the top label for exactly that.\n"
        "- A label scheme or gain chosen **after** seeing which system it favours makes the measure arbitrary.\n"
        "- So: define the labels first, and **state the gain** with every nDCG you report.",
        ask="**Ask the class:** your assessors gave 3 to anything \"very much on topic\". Is exponential gain justified?",
    )
    return


@app.cell
def _(deck):
    deck.text(
        "What to remember",
        "- Labels are ordered codes; the **gain function** decides what each is worth.\n"
        "- Linear ℓ gives 0, 1, 2, 3; exponential 2^ℓ − 1 gives 0, 1, 3, 7.\n"
        "- From 2 to 3 multiplies a document's contribution by 1.5 (linear) or 7/3 ≈ 2.33 (exponential).\n"
        "- Exponential gain makes the score hinge on where the top-graded documents sit.\n"
        "- Different gains are different measures: the choice can reverse which run wins.",
    )
    return


@app.cell
def _(deck):
    deck.text(
        "Check yourself",
        "Three exercises on gains, on paper first:\n\n"
        "1. DCG@5 of the lecture example with exponential gain\n"
        "2. One excellent or two good documents?\n"
        "3. What a gain of 7 claims",
        ask="Two minutes each; then an answer from the room goes into the box, and we check it.",
    )
    return


@app.cell
def _(deck):
    exp_solution_button = deck.step_button()
    compare_solution_button = deck.step_button("Next rank of the worked comparison")
    return compare_solution_button, exp_solution_button


@app.cell
def _(chapter_answers, deck):
    deck.question(chapter_answers, "gains-exp-dcg", hints="under the statement")
    return


@app.cell
def _(deck):
    deck.hints("gains-exp-dcg")
    return


@app.cell
def _(deck, exp_solution_button):
    deck.solution("gains-exp-dcg", exp_solution_button)
    return


@app.cell
def _(chapter_answers, deck):
    deck.question(chapter_answers, "gains-compare", hints="under the statement")
    return


@app.cell
def _(deck):
    deck.hints("gains-compare")
    return


@app.cell
def _(compare_solution_button, deck):
    deck.solution("gains-compare", compare_solution_button, sections=True)
    return


@app.cell
def _(chapter_answers, deck):
    deck.question(chapter_answers, "gains-weighting", hints="under the statement")
    return


@app.cell
def _(deck):
    deck.hints("gains-weighting")
    return


@app.cell
def _(deck):
    deck.answer("gains-weighting")
    return


if __name__ == "__main__":
    app.run()
