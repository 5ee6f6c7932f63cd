# /// script
# requires-python = ">=3.11"
# dependencies = ["marimo", "ndcg-lab"]
# [tool.marimo.opengraph]
# title = "02 · Gains"
# description = "What a label is worth: linear vs exponential vs a table"
# ///

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _():
    import marimo as mo
    import ndcg_core as nc
    from ndcg_core.teaching import compare
    import ndcg_core.ui.plots as ncplots
    from ndcg_core.ui import tables, widgets
    return compare, mo, nc, ncplots, tables, widgets


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    # 02 · Gains: what a label is worth

    nDCG is three decisions stacked on top of each other: what a relevance label is worth,
    how fast its worth fades down the ranking, and what the best possible score is.
    This chapter is about the first decision.
    """)
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Labels are codes, not amounts

    An assessor grades each document on a small ordered scale, for example

    | label | meaning |
    | :---: | --- |
    | 0 | not relevant |
    | 1 | marginally relevant |
    | 2 | relevant |
    | 3 | highly relevant |

    (The lecture uses three grades, 0 to 2: not, somewhat and very relevant.) Grades pay off
    only if the measure prices a higher label above a lower one; a measure that only asks
    "relevant or not" throws them away (chapter 09). The digits only put the grades in order. Nothing in the judging says that a 2 is
    worth twice a 1. Before anything is added up, a **gain function** $g$ turns each
    label $\ell$ into the number that the measure will actually sum:

    $$\mathrm{DCG}@k = \sum_{i=1}^{k} g(\ell_i)\, d(i)$$

    where $d(i)$ is the discount at rank $i$ (chapter 03).
    """)
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Two common choices

    - **linear** $g(\ell) = \ell$: the label itself is the gain.
    - **exponential** $g(\ell) = 2^{\ell} - 1$: each step up the scale more than doubles
      the gain, and a 0 still gives 0.

    The lecture example uses linear gain; many web-search evaluations use exponential gain.
    """)
    return


@app.cell
def _(compare, mo, tables):
    _table = compare.gain_values((0, 1, 2, 3), ("linear", "exponential"))
    mo.vstack([
        mo.md("**Gain of each label**"),
        mo.md(tables.markdown_table(_table)),
    ])
    return


@app.cell
def _(mo, ncplots):
    mo.Html(ncplots.to_svg(ncplots.gain_bars((0, 1, 2, 3), ("linear", "exponential"))))
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Promote one document

    Relabel one document and keep everything else fixed. Its discount $d(i)$ does not
    change, so its contribution $g(\ell)\,d(i)$ is multiplied by the ratio of the gains.
    Going from label 2 to label 3:

    - linear: $\;3/2 = 1.5$
    - exponential: $\;(2^3-1)/(2^2-1) = 7/3 \approx 2.33$

    Edit the list below (labels separated by commas or spaces, `?` for an unjudged
    document), pick a document and a new label, and compare.
    """)
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
def _(labels, labels_error, mo):
    mo.stop(labels is None, labels_error)
    promote_rank_slider = mo.ui.slider(
        1, len(labels), value=1, label="Rank of the document to relabel", show_value=True
    )
    promote_label_dropdown = mo.ui.dropdown(
        options=["0", "1", "2", "3", "4"], value="3", label="New label"
    )
    mo.hstack([promote_rank_slider, promote_label_dropdown], justify="start", gap=3)
    return promote_label_dropdown, promote_rank_slider


@app.cell
def _(compare, labels, mo, promote_label_dropdown, promote_rank_slider, tables, widgets):
    _rank = promote_rank_slider.value
    _new = int(promote_label_dropdown.value)
    try:
        _table = compare.promote(labels, _rank, _new)
    except (TypeError, ValueError) as _err:
        promote_view = widgets.error_callout(_err)
    else:
        _shown = _table[
            ["old_label", "new_label", "old_gain", "new_gain", "factor",
             "old_contribution", "new_contribution", "dcg_before", "dcg_after"]
        ].T
        _shown.index = [
            "label before", "label after", "gain before", "gain after", "factor (gain after / before)",
            "contribution g(ℓ)·d(i) before", "contribution after", "DCG of the list before", "DCG after",
        ]
        _shown.index.name = f"rank {_rank}, d({_rank}) = {_table['discount'].iloc[0]:.4f}"
        _parts = []
        if (_table["old_gain"] == 0).any():
            # a gain of 0 has no factor: nothing times any number is still nothing
            _shown = _shown.drop(index="factor (gain after / before)")
            _parts.append(mo.md(
                f"The label before is {_table['old_label'].iloc[0]:g}, worth gain 0, so no factor "
                "turns it into the new gain: the contribution grows from 0 by the whole new "
                "contribution instead."
            ))
        promote_view = mo.vstack([mo.md(tables.markdown_table(_shown)), *_parts])
    promote_view
    return


@app.cell
def _(labels, mo, ncplots, promote_rank_slider):
    # a bar per rank stays readable (and fast: a 5,000-bar figure took 5 s to draw and 20 s
    # to show) up to 50 ranks; a longer list shows its first 50 and says so
    _shown = min(len(labels), 50)
    _rank = promote_rank_slider.value
    _plot = mo.Html(ncplots.to_svg(ncplots.contribution_bars(
        labels, _shown, highlight=_rank if _rank <= _shown else None)))
    if _shown < len(labels):
        _beyond = f" The relabelled rank {_rank} is beyond them: its numbers are in the table above." if _rank > _shown else ""
        _plot = mo.vstack([_plot, mo.md(f"*The bars show ranks 1 to {_shown} of the {len(labels):,} in the list "
                                        f"(the legend's DCG is DCG@{_shown}).{_beyond}*")])
    _plot
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Exponential gain cares more about where the best documents sit

    Because the top label is worth so much more than the next one, exponential gain makes
    the score depend strongly on the position of the highly relevant documents. Two runs for
    the same query, which has one document of label 3 and one of label 2:

    - run **A** puts the 3 at rank 1 and the 2 at rank 4;
    - run **B** swaps them: the 2 at rank 1, the 3 at rank 4.
    """)
    return


@app.cell
def _(compare, mo, nc, tables):
    SWAP_RUNS = {"A: 3 on top": [3, 0, 0, 2], "B: 2 on top": [2, 0, 0, 3]}
    SWAP_JUDGMENTS = [3, 2]
    _configs = {
        "linear gain": nc.NDCGConfig(k=4),
        "exponential gain": nc.NDCGConfig(k=4, gain="exponential"),
    }
    _table = compare.compare_runs(SWAP_RUNS, _configs, judgments=SWAP_JUDGMENTS)
    _gap = _table.iloc[0] - _table.iloc[1]
    mo.vstack([
        mo.md("**nDCG@4 of the two runs**"),
        mo.md(tables.markdown_table(_table)),
        mo.md(
            f"The gap between A and B is **{_gap['linear gain']:.4f}** with linear gain and "
            f"**{_gap['exponential gain']:.4f}** with exponential gain."
        ),
    ])
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## When exponential gain is the right call

    Exponential gain says: a document that settles the information need is worth far more
    than one that merely discusses the topic. That only holds up if the assessors used the
    top label for exactly that, documents that answer the need, and not simply for "very
    much on topic". Then the big jump from 3 to 7 marks a real difference in kind, rather
    than an arbitrary step on a scale.

    That is also why the labels must be **defined before the collection is built**: what
    each grade means, and what the top grade is reserved for, is fixed before anyone
    judges. A label scheme invented after the fact, once one can see which system it
    favours, makes the gain function arbitrary.
    """)
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## A gain is a chosen weighting

    Exponential gain does not turn the labels into measurements: a gain of 7 is not a
    claim that the document is seven times as useful as one with gain 1. It is a weighting
    somebody chose. So two collections that map labels to gains differently report two
    different measures, even when both tables say "nDCG@4".

    The choice can even reverse a comparison. Run **A** finds three documents of label 2,
    run **B** finds the single 3 and nothing else:
    """)
    return


@app.cell
def _(compare, mo, nc, tables):
    FLIP_RUNS = {"A: three 2s": [2, 2, 2, 0], "B: one 3": [3, 0, 0, 0]}
    FLIP_JUDGMENTS = [3, 2, 2, 2]
    _configs = {
        "linear gain": nc.NDCGConfig(k=4),
        "exponential gain": nc.NDCGConfig(k=4, gain="exponential"),
    }
    _table = compare.compare_runs(FLIP_RUNS, _configs, judgments=FLIP_JUDGMENTS)
    _winner = {name: _table[name].idxmax() for name in _table.columns}
    mo.vstack([
        mo.md("**nDCG@4** (the query has one document of label 3 and three of label 2)"),
        mo.md(tables.markdown_table(_table)),
        mo.md(
            f"Linear gain ranks **{_winner['linear gain']}** first; "
            f"exponential gain ranks **{_winner['exponential gain']}** first."
        ),
        mo.md("Stated in full, the two numbers are different measures:"),
        mo.md("\n".join(f"- {config.describe()}" for config in _configs.values())),
    ])
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Your own gain table

    Any table of `label:gain` pairs is a gain function. Type one below; it is applied to the
    list you typed above. Here the ideal list is built from that list's own labels, as if it
    held every judged document of the query.

    A gain may be negative, a penalty (say `0:-1` for a document that wastes the reader's
    time). The ideal list then **leaves the negative-gain documents out**: the best ranking
    puts them below the cutoff, and an ideal that counted them would no longer be the best
    obtainable, so even a perfect run would not score 1. trec_eval's `ndcg` builds its ideal
    the same way. A run that ranks penalised documents inside the cutoff can score below 0.
    """)
    return


@app.cell
def _(mo):
    gain_table_text = mo.ui.text(value="0:0, 1:0.5, 2:2, 3:5", label="Gain table", full_width=True)
    gain_table_text
    return (gain_table_text,)


@app.cell
def _(compare, gain_table_text, labels, labels_error, mo, nc, tables, widgets):
    mo.stop(labels is None, labels_error)
    try:
        _table = nc.parse_gain_table(gain_table_text.value)
        _gains = {"linear": "linear", "exponential": "exponential", "your table": _table}
        _values = compare.gain_values(sorted(_table), _gains)
        _configs = {_name: nc.NDCGConfig(gain=_gain) for _name, _gain in _gains.items()}
        _scores = compare.score_configs(
            labels, _configs, judgments=compare.judged_labels(labels)
        )
    except (TypeError, ValueError) as _err:
        gain_table_view = widgets.error_callout(_err)
    else:
        gain_table_view = mo.vstack([
            mo.md("**Gain of each label in your table**"),
            mo.md(tables.markdown_table(_values)),
            mo.md("**Your list under the three gains** (whole list)"),
            mo.md(tables.markdown_table(_scores[["dcg", "idcg", "ndcg"]])),
            mo.md(f"Stated in full: {_configs['your table'].describe()}"),
        ])
    gain_table_view
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## CG ignores order; DCG does not

    Without a discount the sum of gains is the plain **cumulative gain**
    $\mathrm{CG} = \sum_i g(\ell_i)$. Turn your list upside down: CG cannot tell the
    difference, DCG can.
    """)
    return


@app.cell
def _(labels, labels_error, mo, nc):
    mo.stop(labels is None, labels_error)
    _reversed = list(reversed(labels))
    _shown = {"your list": labels, "reversed": _reversed}
    _rows = [
        f"| {_name} | {', '.join('?' if _x is None else f'{_x:g}' for _x in _list)} "
        f"| {nc.dcg(_list, discount='none'):.4f} | {nc.dcg(_list):.4f} |"
        for _name, _list in _shown.items()
    ]
    mo.md(
        "| ranking | labels | CG (no discount) | DCG (1/log₂(i+1)) |\n| --- | --- | :---: | :---: |\n"
        + "\n".join(_rows)
    )
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## What to remember

    - Labels are ordered codes; the **gain function** decides what each one is worth.
    - Linear $g(\ell)=\ell$ gives 0, 1, 2, 3; exponential $g(\ell)=2^\ell-1$ gives 0, 1, 3, 7.
      Moving a document from 2 to 3 multiplies its contribution by 1.5 or by 7/3 ≈ 2.33.
    - Exponential gain makes the score hinge on where the top-graded documents sit; it suits
      a scale whose top label means "answers the need".
    - Define the labels before judging; a scheme chosen afterwards makes the gain arbitrary.
    - A gain is a chosen weighting, not a measurement: numbers computed with different gains
      are different measures, and the choice can reverse which system looks better.
      State the gain with every result.
    - CG ignores the order of the list; DCG does not.
    """)
    return


@app.cell(hide_code=True)
def _(widgets):
    widgets.check_yourself("Six exercises on gains.")
    return


@app.cell
def _(widgets):
    chapter_answers = widgets.answer_boxes(("gains-exp-dcg", "gains-compare", "gains-flip", "gains-ratio", "gains-weighting", "gains-labels-first"))
    return (chapter_answers,)


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "gains-exp-dcg")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "gains-compare")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "gains-flip")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "gains-ratio")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "gains-weighting")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "gains-labels-first")
    return


if __name__ == "__main__":
    app.run()
