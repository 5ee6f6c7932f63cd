# /// script
# requires-python = ">=3.11"
# dependencies = ["marimo", "ndcg-lab"]
# [tool.marimo.opengraph]
# title = "12 · Which measure?"
# description = "P@k, P@R, AP, MAP, nDCG and bpref side by side on one ranking, which measure fits which judgments, and which ones hold up when judgments go missing"
# ///

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _():
    import marimo as mo
    import ndcg_core as nc
    from ndcg_core.teaching import measures, toy
    from ndcg_core.ui import plots, tables, widgets
    return measures, mo, nc, plots, tables, toy, widgets


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    # 12 · Which measure? The lecture's family side by side

    Every evaluation measure compares a ranked list with the **ground truth**, the judgments
    of the query. The lecture names six: P@k, P@R, AP, MAP, nDCG and bpref. They read the
    same list differently, and they need different things from the judgments. This chapter
    puts all six on one ranking you edit, then asks which of them still work when some
    documents were never judged. (Read it after chapters 05 and 09.)
    """)
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Six measures in one breath

    $R$ is the number of relevant documents of the query, found or not. A binary measure
    counts a label at or above the threshold $t$ as relevant, $[\ell_i \ge t]$.

    | measure | formula | in words |
    | :--- | :--- | :--- |
    | P@k | $\displaystyle \frac{1}{k}\sum_{i=1}^{k} [\ell_i \ge t]$ | share of relevant documents in the top $k$ |
    | P@R | $\displaystyle \frac{1}{R}\sum_{i=1}^{R} [\ell_i \ge t]$ | the same, cut at rank $R$ |
    | AP | $\displaystyle \frac{1}{R}\sum_{i:\,\ell_i \ge t} P@i$ | precision at every relevant document, averaged over all $R$ |
    | MAP | $\displaystyle \frac{1}{\lvert Q\rvert}\sum_{q} AP(q)$ | AP averaged over topics, each topic weighs the same |
    | nDCG@k | $\displaystyle \frac{\mathrm{DCG}@k}{\mathrm{IDCG}@k}$ | grades and positions of the top $k$, against the ideal |
    | bpref | $\displaystyle \frac{1}{R}\sum_{r}\Bigl(1 - \frac{\min(n_r, R)}{\min(R, N)}\Bigr)$ | how few judged non-relevant documents rank above each relevant one |

    In bpref, $n_r$ counts the judged non-relevant documents above the relevant document
    $r$ and $N$ is the number of judged non-relevant documents of the query (trec_eval's
    definition).
    """)
    return


@app.cell
def _(mo, widgets):
    labels_text = widgets.labels_input("1, 0, 2, 1, 0")
    missed_text = widgets.missed_input()
    k_slider = mo.ui.slider(1, 10, value=5, label="k", show_value=True)
    threshold_slider = mo.ui.slider(1, 3, value=1, label="Relevance threshold", show_value=True)
    mo.vstack([labels_text, missed_text, mo.hstack([k_slider, threshold_slider], justify="start", gap=3)])
    return k_slider, labels_text, missed_text, threshold_slider


@app.cell
def _(labels_text, missed_text, widgets):
    labels, judgments, input_error = widgets.read_ranking(labels_text.value, missed_text.value)
    return input_error, judgments, labels


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    MAP is a mean over topics, so it needs more than one list. Here are two more topics of
    the same system; edit them too. Each line is one topic: its ranked labels, then `|` and
    the labels of judged documents that list missed.
    """)
    return


@app.cell
def _(mo):
    topics_text = mo.ui.text_area(
        value="0, 0, 1, 0, 0 | 1\n1, 1, 0 |",
        label="Other topics (ranked labels | missed judged labels)",
        rows=3,
        full_width=True,
    )
    topics_text
    return (topics_text,)


@app.cell
def _(
    input_error,
    judgments,
    k_slider,
    labels,
    measures,
    mo,
    threshold_slider,
    topics_text,
    widgets,
):
    mo.stop(labels is None, input_error)
    try:
        _others = measures.parse_topics(topics_text.value)
        family = measures.measure_values(labels, k_slider.value, judgments=judgments,
                                         threshold=threshold_slider.value, other_topics=_others)
        family_error = None
    except (TypeError, ValueError) as _err:
        family = None
        family_error = widgets.error_callout(_err)
    return family, family_error


@app.cell
def _(family, family_error, mo, plots, tables):
    mo.stop(family is None, family_error)
    _numbers = mo.hstack(
        [mo.stat(value=f"{v:.4f}", label=name) for name, v in family["value"].items()],
        justify="start", gap=1, wrap=True,
    )
    _shown = family.copy()
    _shown.columns = ["value", "reads the list as"]
    mo.vstack([_numbers, plots.measure_bars(family), mo.md(tables.markdown_table(_shown, 4))])
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    Try it: put the label-2 document first. nDCG rises; P@k, P@R and AP do not move
    (chapter 09: to them both documents are just "relevant"). Add a missed relevant
    document (`1` in the second box): R grows, so P@R, AP and bpref fall, and nDCG falls too,
    because its ideal gets better. P@k does not care: it never looks past rank k.
    """)
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Which measure for which judgments?

    The measures differ in **what they look at** and **what they need from the judgments**.
    Judgments are binary (relevant or not) or graded (0, 1, 2, 3); they are complete (every
    retrieved document judged) or incomplete (only a pool was judged). The lecture's card
    gives the graded, complete row; the others follow from the definitions above.
    """)
    return


@app.cell
def _(measures, mo, tables):
    _kinds = measures.judgment_kinds().set_index(["labels", "judgments"])
    _kinds.columns = ["measure", "looks at", "needs"]
    mo.md(tables.markdown_table(_kinds.reset_index().set_index("labels"), 4))
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    The table's short words hide two details. "Complete judgments" for nDCG means every
    **relevant** document of the query judged with its grade, since the ideal ranking is built
    from them; a retrieved document nobody judged does not stop nDCG, it is scored 0 or
    removed (chapter 05), with the bias that brings. And bpref is not immune to missing
    judgments: it needs judged non-relevant documents, and when few are left its divisor
    $\min(R, N)$ makes it jumpy (the thinning plot below shows it wandering above 100 %).
    """)
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## A new system's unjudged documents

    A system that did not take part in the pool returns documents nobody judged. Put some
    of them on top of your list; the judgments stay as they are. P@R and AP count each one
    as not relevant, nDCG with unjudged = 0 gives it gain 0: all three fall, although the
    system found exactly the same judged documents in the same order. bpref skips unjudged
    documents and condensed nDCG removes them: both **hold up**.
    """)
    return


@app.cell
def _(mo):
    on_top_slider = mo.ui.slider(0, 5, value=2, label="Unjudged documents on top", show_value=True)
    on_top_slider
    return (on_top_slider,)


@app.cell
def _(
    input_error,
    judgments,
    k_slider,
    labels,
    measures,
    mo,
    on_top_slider,
    plots,
    tables,
    threshold_slider,
):
    mo.stop(labels is None, input_error)
    on_top = measures.unjudged_on_top_table(labels, k_slider.value, judgments=judgments, count=on_top_slider.value,
                                            threshold=threshold_slider.value)
    _held = [name for name, change in on_top["change"].items() if abs(change) < 1e-12]
    mo.vstack([
        plots.holes_bars(on_top, title="A new system: unjudged documents on top",
                         after_label=f"with {on_top_slider.value} unjudged on top"),
        mo.md(tables.markdown_table(on_top, 4)),
        mo.md(f"Unchanged with {on_top_slider.value} unjudged documents on top: {', '.join(_held)}."),
    ])
    return (on_top,)


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Remove judgments and watch

    Now the other way: keep the list, and pick ranks whose documents were never judged.
    Each becomes `?`, and its label leaves the judgments, so $R$ or $N$ shrinks. P@R and AP
    count the document as not relevant; nDCG with unjudged = 0 gives it gain 0 in place;
    condensed nDCG removes it and moves the rest up; bpref skips it. On one short list every
    measure can move, because the judgments themselves changed: the fair test needs many
    topics (next section).
    """)
    return


@app.cell
def _(input_error, labels, mo):
    mo.stop(labels is None, input_error)
    holes_select = mo.ui.multiselect(
        options=[str(i) for i in range(1, len(labels) + 1)],
        value=["2"] if len(labels) >= 2 else [],
        label="Make these ranks unjudged",
    )
    holes_select
    return (holes_select,)


@app.cell
def _(
    holes_select,
    judgments,
    k_slider,
    labels,
    measures,
    mo,
    plots,
    tables,
    threshold_slider,
):
    mo.stop(labels is None)
    _ranks = sorted(int(r) for r in holes_select.value)
    holes = measures.holes_table(labels, k_slider.value, judgments=judgments, ranks=_ranks,
                                 threshold=threshold_slider.value)
    _held = [name for name, change in holes["change"].items() if abs(change) < 1e-12]
    _say = ("Nothing is unjudged yet: pick a rank." if not _ranks else
            f"Unchanged: {', '.join(_held) if _held else 'none'}.")
    mo.vstack([plots.holes_bars(holes, title="Judgments removed: what moves?", after_label="with the ranks unjudged"),
               mo.md(tables.markdown_table(holes, 4)), mo.md(_say)])
    return (holes,)


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Many topics: thin the judgments at random

    One list is too small to judge a measure by. The toy collection of chapter 05 has ten
    topics, three runs and a judgment for every document they retrieved. Keep a random
    share of those judgments (a smaller share is part of every larger one), treat the rest
    as unjudged, and follow each measure's mean as a share of its value with all judgments.
    A measure **holds up** when it stays near 100 % and keeps the runs in the same order.
    """)
    return


@app.cell
def _(measures, toy):
    _toy = toy.read_toy_collection()
    sampling = measures.sampling_curves(_toy.qrels_full, _toy.runs, k=10)
    return (sampling,)


@app.cell
def _(mo):
    kept_slider = mo.ui.slider(steps=[10, 20, 30, 40, 60, 80, 100], value=30,
                               label="Judgments kept (%)", show_value=True)
    kept_slider
    return (kept_slider,)


@app.cell
def _(kept_slider, measures, mo, plots, sampling, tables):
    _fraction = kept_slider.value / 100
    _summary = measures.sampling_summary(sampling, _fraction)
    _bpref = _summary.loc["bpref", "share of full value"]
    _map = _summary.loc["MAP", "share of full value"]
    mo.vstack([
        plots.sampling_plot(sampling, _fraction),
        mo.md(tables.markdown_table(_summary, 4)),
        mo.md(f"With {kept_slider.value} % of the judgments, bpref keeps {_bpref:.0%} of its value and MAP "
              f"{_map:.0%}. MAP, P@R and nDCG with unjudged = 0 count every unjudged document as not "
              "relevant, so they sink as judgments go; bpref and condensed nDCG read judged documents only."),
    ])
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## What to remember

    - Every measure compares a ranked list with the ground truth: P@k, P@R, AP, MAP, nDCG
      and bpref. $R$ is the number of relevant documents of the query.
    - P@R cuts each query's list at its own $R$; there precision equals recall.
    - MAP is the plain mean of AP over topics: each topic weighs the same.
    - nDCG@k is for graded, complete judgments: it looks at the top $k$, grade and position,
      and needs the ideal ranking.
    - bpref is made for incomplete binary judgments: it skips unjudged documents and asks
      how many judged non-relevant documents rank above each relevant one.
    - Measures that count an unjudged document as not relevant (P@k, P@R, AP, MAP, nDCG with
      gain 0) sink when judgments are missing, and punish a new system for documents nobody
      judged; report the unjudged fraction next to them.
    """)
    return


@app.cell(hide_code=True)
def _(widgets):
    widgets.check_yourself("Six exercises on P@R, MAP, bpref and which measure fits which judgments.")
    return


@app.cell
def _(widgets):
    chapter_answers = widgets.answer_boxes(("measures-rprec", "measures-bpref", "measures-map", "measures-map-weights", "measures-bpref-unjudged", "measures-incomplete-binary"))
    return (chapter_answers,)


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "measures-rprec")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "measures-bpref")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "measures-map")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "measures-map-weights")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "measures-bpref-unjudged")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "measures-incomplete-binary")
    return


if __name__ == "__main__":
    app.run()
