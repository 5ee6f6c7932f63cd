# /// script
# requires-python = ">=3.11"
# dependencies = ["marimo", "ndcg-lab"]
# [tool.marimo.opengraph]
# title = "09 · Graded vs binary measures"
# description = "P@k and AP next to nDCG: a swap they cannot see, a relevance threshold, and what a document loses from rank 10 to 100"
# ///

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", layout_file="layouts/09_graded_vs_binary.slides.json", css_file="layouts/slides.css")


@app.cell
def _():
    import marimo as mo
    import ndcg_core as nc
    from ndcg_core.teaching import claims, compare
    from ndcg_core.ui import deck, tables, widgets
    import pandas as pd
    return claims, compare, deck, mo, nc, pd, tables, widgets


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    # 09 · Graded vs binary measures: what the grades buy

    Precision at $k$ and average precision are the classic **binary** measures: a document
    is relevant or not. nDCG reads the grades. This chapter puts them side by side on a
    list you edit, to show what a graded measure can see that a binary one cannot. (Read
    it after chapter 04; it uses the ideal list of that chapter.)
    """)
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Binarising, then counting

    A binary measure first turns each label into 1 (relevant) or 0 at a **relevance
    threshold** $t$: a label at or above $t$ is relevant (trec_eval's `-l`, default 1).
    Everything above the threshold looks alike. Then, with $R$ the number of relevant
    judged documents of the query:

    $$\Large P@k = \frac{1}{k}\sum_{i=1}^{k} [\ell_i \ge t]$$

    $$\Large AP = \frac{1}{R}\sum_{i:\,\ell_i \ge t} P@i .$$

    As in trec_eval, $P@k$ divides by $k$ even when the list is shorter, and $AP$ divides by
    all $R$ relevant documents, also those the list never returned (they add 0).
    """)
    return


@app.cell
def _(mo, widgets):
    labels_text = widgets.labels_input("1, 0, 0, 3, 0")
    missed_text = widgets.missed_input()
    k_slider = mo.ui.slider(1, 10, value=5, label="k", show_value=True)
    threshold_slider = mo.ui.slider(1, 3, value=1, label="Relevance threshold", show_value=True)
    mo.vstack([labels_text, missed_text, mo.hstack([k_slider, threshold_slider], justify="start", gap=3)])
    return k_slider, labels_text, missed_text, threshold_slider


@app.cell
def _(compare, labels_text, missed_text, nc, widgets):
    try:
        labels = nc.parse_labels(labels_text.value)
        _missed = nc.parse_labels(missed_text.value) if missed_text.value.strip() else []
        judgments = compare.judged_labels(labels, _missed)
        input_error = None
    except (TypeError, ValueError) as _err:
        labels = judgments = None
        input_error = widgets.error_callout(_err)
    return input_error, judgments, labels


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Swap a highly and a somewhat relevant document

    Pick two ranks to swap. The list opens with a somewhat relevant document (label 1) at
    rank 1 and the best answer (label 3) at rank 4: swapping ranks 1 and 4 puts the best
    answer first.
    """)
    return


@app.cell
def _(input_error, labels, mo):
    mo.stop(labels is None, input_error)
    swap_first_slider = mo.ui.slider(1, len(labels), value=1, label="Swap rank", show_value=True)
    swap_second_slider = mo.ui.slider(1, len(labels), value=min(4, len(labels)), label="with rank", show_value=True)
    mo.hstack([swap_first_slider, swap_second_slider], justify="start", gap=3)
    return swap_first_slider, swap_second_slider


@app.cell
def _(
    claims,
    judgments,
    k_slider,
    labels,
    mo,
    swap_first_slider,
    swap_second_slider,
    tables,
    threshold_slider,
    widgets,
):
    _k = k_slider.value
    _t = threshold_slider.value
    try:
        _after = claims.swapped(labels, swap_first_slider.value, swap_second_slider.value)
        swap_table = claims.binary_table(
            {"your list": labels, "after the swap": _after}, _k, judgments=judgments, threshold=_t,
            gains=("linear", "exponential"),
        )
    except (TypeError, ValueError) as _err:
        swap_table = None
        _view = widgets.error_callout(_err)
    else:
        _shown = swap_table.copy()
        _shown.insert(0, "labels", [", ".join("?" if x is None else f"{x:g}" for x in _l) for _l in (labels, _after)])
        _shown.columns = ["labels", f"relevant (label ≥ {_t})", f"P@{_k}", f"AP@{_k}",
                          f"nDCG@{_k} linear", f"nDCG@{_k} exponential"]
        _before, _now = swap_table.iloc[0], swap_table.iloc[1]
        _same_binary = (_before["precision"] == _now["precision"]
                        and _before["average_precision"] == _now["average_precision"])
        _moved = _before["ndcg_linear"] != _now["ndcg_linear"]
        if _same_binary and _moved:
            _say = (f"P@{_k} and AP@{_k} do not move: both documents are 'relevant' to them. nDCG@{_k} does: "
                    f"{_before['ndcg_linear']:.4f} → {_now['ndcg_linear']:.4f} with linear gain, "
                    f"{_before['ndcg_exponential']:.4f} → {_now['ndcg_exponential']:.4f} with exponential gain. "
                    f"The gap is {abs(_now['ndcg_linear'] - _before['ndcg_linear']):.4f} with linear gain and "
                    f"{abs(_now['ndcg_exponential'] - _before['ndcg_exponential']):.4f} with exponential gain: "
                    "it grows with the weight of the top label.")
        elif not _moved:
            _say = "This swap changes no measure here: pick two ranks with different labels inside the top k."
        else:
            _say = (f"This swap moves the binary measures too: it exchanges a relevant and a non-relevant document "
                    f"(at threshold {_t}). Swap two documents that are both relevant to see the difference.")
        _view = mo.vstack([mo.md(tables.markdown_table(_shown.set_index("labels"), 4)), mo.md(_say)])
    _view
    return (swap_table,)


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    Binary measures cannot reward a very relevant document ranked above a somewhat relevant
    one: to them both are "relevant". A run with the best answer at rank 4 and a lesser one
    at rank 1 scores below the reverse under nDCG, and the gap grows with the weight the gain
    gives the top label.

    ## The threshold decides which grades merge

    Move the relevance threshold. At 1 every positive label is relevant; at 2 a label 1
    counts as not relevant, like a 0; at 3 only the top grade counts. P@k and AP change with
    the threshold, nDCG does not: it never binarises.
    """)
    return


@app.cell
def _(claims, input_error, judgments, k_slider, labels, mo, pd, tables):
    mo.stop(labels is None, input_error)
    _k = k_slider.value
    _rows = {}
    for _t in (1, 2, 3):
        _row = claims.binary_table({"t": labels}, _k, judgments=judgments, threshold=_t).iloc[0]
        _rows[f"threshold {_t}"] = _row
    threshold_table = pd.DataFrame(_rows).T
    threshold_table.index.name = "binarised at"
    threshold_table.columns = ["relevant", f"P@{_k}", f"AP@{_k}", f"nDCG@{_k}"]
    mo.vstack([
        mo.md(f"**Your list at every threshold** (nDCG@{_k} with linear gain never binarises)"),
        mo.md(tables.markdown_table(threshold_table, 4)),
    ])
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## From rank 10 to rank 100: what AP and DCG lose

    Now the other way round: how much do the measures care about depth? One relevant
    document (label 1) starts at rank 10 and sinks. For a lone relevant document AP is the
    precision at its rank, $1/i$, divided by $R = 1$: it falls like the reciprocal discount.
    The logarithmic discount falls far more slowly, so DCG still counts the deep tail.
    """)
    return


@app.cell
def _(mo):
    sink_slider = mo.ui.slider(11, 100, value=100, label="Move the relevant document from rank 10 to rank", show_value=True)
    top_switch = mo.ui.switch(value=False, label="Another relevant document stays at rank 1")
    mo.hstack([sink_slider, top_switch], justify="start", gap=3)
    return sink_slider, top_switch


@app.cell
def _(claims, mo, sink_slider, tables, top_switch):
    _to = sink_slider.value
    _moves = claims.rank_move(10, _to, others=(1,) if top_switch.value else ())
    _shown = _moves.copy()
    _shown.columns = ["at rank 10", f"at rank {_to}", "share lost"]
    _ap, _log = _moves.loc["AP", "lost"], _moves.loc["DCG, 1/log2(i+1)", "lost"]
    mo.vstack([
        mo.md(tables.markdown_table(_shown, 4)),
        mo.md(
            f"From rank 10 to rank {_to}, AP loses {_ap:.0%} of its value and DCG with 1/log2(i+1) "
            f"{_log:.0%}: {'AP' if _ap > _log else 'DCG'} is the one that cares more about the move. "
            f"DCG with 1/i loses {_moves.loc['DCG, 1/i', 'lost']:.0%}."
        ),
    ])
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## What to remember

    - P@k and AP binarise the labels at a relevance threshold: everything at or above it is
      "relevant", everything below it is not. They cannot reward a very relevant document
      ranked above a somewhat relevant one; nDCG can.
    - Swapping two relevant documents of different grades leaves P@k and AP unchanged and
      moves nDCG; the gap grows with the gain of the top label.
    - trec_eval's conventions: P@k divides by k; AP divides by the number of relevant judged
      documents, found or not.
    - For a lone relevant document AP weighs rank $i$ by $1/i$, like the reciprocal discount;
      the logarithmic discount keeps far more of a document that sinks from rank 10 to 100.
    - Graded labels only help when the measure prices a higher label above a lower one.
    """)
    return


@app.cell(hide_code=True)
def _(widgets):
    widgets.check_yourself("Six exercises on graded vs binary measures.")
    return


@app.cell
def _(widgets):
    chapter_answers = widgets.answer_boxes(("binary-best-fourth", "binary-swap", "binary-precision-short", "binary-gap-weight", "binary-ap", "binary-ap-weight"))
    return (chapter_answers,)


@app.cell
def _(deck):
    best_fourth_button = deck.step_button()
    return (best_fourth_button,)


@app.cell
def _(chapter_answers, deck):
    deck.question(chapter_answers, "binary-best-fourth")
    return


@app.cell
def _(deck):
    deck.hints("binary-best-fourth")
    return


@app.cell
def _(best_fourth_button, deck):
    deck.solution("binary-best-fourth", best_fourth_button)
    return


@app.cell
def _(chapter_answers, deck):
    deck.question(chapter_answers, "binary-swap")
    return


@app.cell
def _(deck):
    deck.hints("binary-swap")
    return


@app.cell
def _(deck):
    deck.answer("binary-swap", tables=False)
    return


@app.cell
def _(chapter_answers, deck):
    deck.question(chapter_answers, "binary-precision-short")
    return


@app.cell
def _(deck):
    deck.hints("binary-precision-short")
    return


@app.cell
def _(deck):
    deck.answer("binary-precision-short", tables=False)
    return


@app.cell
def _(chapter_answers, deck):
    deck.question(chapter_answers, "binary-gap-weight")
    return


@app.cell
def _(deck):
    deck.hints("binary-gap-weight")
    return


@app.cell
def _(deck):
    deck.answer("binary-gap-weight", tables=False)
    return


@app.cell
def _(chapter_answers, deck):
    deck.question(chapter_answers, "binary-ap")
    return


@app.cell
def _(deck):
    deck.hints("binary-ap")
    return


@app.cell
def _(deck):
    deck.answer("binary-ap", tables=False)
    return


@app.cell
def _(chapter_answers, deck):
    deck.question(chapter_answers, "binary-ap-weight")
    return


@app.cell
def _(deck):
    deck.hints("binary-ap-weight")
    return


@app.cell
def _(deck):
    deck.answer("binary-ap-weight", tables=False)
    return


if __name__ == "__main__":
    app.run()
