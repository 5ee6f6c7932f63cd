# /// script
# requires-python = ">=3.11"
# dependencies = ["marimo", "ndcg-lab"]
# [tool.marimo.opengraph]
# title = "03 · Discounts"
# description = "How fast a rank loses worth: five discounts side by side; why the log base cancels"
# ///

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", layout_file="layouts/03_discounts.slides.json", css_file="layouts/slides.css")


@app.cell
def _():
    import marimo as mo
    from ndcg_core.ui import deck, widgets
    from ndcg_core.ui.decks import discounts as content
    return content, deck, mo, widgets


@app.cell(hide_code=True)
def _(content, deck):
    deck.title(content.TITLE_MD)
    return


@app.cell
def _(content, widgets):
    chapter_answers = widgets.answer_boxes(content.EXERCISES)
    return (chapter_answers,)


@app.cell
def _(content, deck):
    # the deck's own widgets (short labels for the projector); nothing is drawn on the page
    deck_discount, deck_k, deck_hide = content.discount_controls()
    deck_head = content.share_controls()
    deck_sink_rank, deck_sink_other = content.sink_controls()
    deck_log_base, deck_base_family = content.base_controls()
    deck_shifted_button, deck_reciprocal_button = deck.step_button(), deck.step_button()
    return (
        deck_base_family,
        deck_discount,
        deck_head,
        deck_hide,
        deck_k,
        deck_log_base,
        deck_reciprocal_button,
        deck_shifted_button,
        deck_sink_other,
        deck_sink_rank,
    )


@app.cell
def _(content):
    content.candidates_slide()
    return


@app.cell
def _(deck, deck_discount, deck_k):
    deck.concept("Choose a discount", [[deck_discount, deck_k]])
    return


@app.cell
def _(content, deck_discount, deck_hide, deck_k):
    content.discount_result(deck_discount.value, deck_k.value, hidden=deck_hide.value, tools=[deck_hide])
    return


@app.cell
def _(deck, deck_head):
    deck.concept("Weight in the top h of 100 ranks", [deck_head])
    return


@app.cell
def _(content, deck_head):
    content.share_result(deck_head.value)
    return


@app.cell
def _(deck, deck_sink_other, deck_sink_rank):
    deck.concept("A relevant document sinks: AP and DCG", [deck_sink_rank, deck_sink_other])
    return


@app.cell
def _(content, deck_sink_other, deck_sink_rank):
    content.sink_result(deck_sink_rank.value, deck_sink_other.value)
    return


@app.cell
def _(content):
    content.shifted_slide()
    return


@app.cell
def _(content):
    content.exam_code_note()
    return


@app.cell
def _(deck, deck_base_family, deck_log_base):
    deck.concept("The log base cancels in nDCG", [[deck_log_base, deck_base_family]])
    return


@app.cell
def _(content, deck_base_family, deck_log_base):
    content.base_result(deck_log_base.value, deck_base_family.value)
    return


@app.cell
def _(content, deck):
    deck.text("", content.REMEMBER_MD)
    return


@app.cell
def _(content, deck):
    deck.text("", content.CHECK_MD)
    return


@app.cell
def _(chapter_answers, deck):
    deck.question(chapter_answers, "discounts-shifted-dcg", hints="under the answer")
    return


@app.cell
def _(deck):
    deck.hints("discounts-shifted-dcg")
    return


@app.cell
def _(deck, deck_shifted_button):
    deck.solution("discounts-shifted-dcg", deck_shifted_button)
    return


@app.cell
def _(chapter_answers, deck):
    deck.question(chapter_answers, "discounts-reciprocal-dcg", hints="under the answer")
    return


@app.cell
def _(deck):
    deck.hints("discounts-reciprocal-dcg")
    return


@app.cell
def _(deck, deck_reciprocal_button):
    deck.solution("discounts-reciprocal-dcg", deck_reciprocal_button)
    return


if __name__ == "__main__":
    app.run()
