# /// script
# requires-python = ">=3.11"
# dependencies = ["marimo", "ndcg-lab"]
# [tool.marimo.opengraph]
# title = "04 · The ideal list"
# description = "Normalisation: IDCG from the judgments, the 1.0 trap, why topics differ, nDCG@100 < nDCG@10"
# ///

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _():
    import marimo as mo
    import ndcg_core as nc
    from ndcg_core.teaching import claims, compare
    import ndcg_core.ui.plots as ncplots
    from ndcg_core.ui import playground, tables, widgets
    return claims, compare, mo, nc, ncplots, playground, tables, widgets


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    # 04 · The ideal list: what a perfect score means

    The third decision inside nDCG: what the top of the scale is. DCG alone has no upper
    limit, so it is divided by the best DCG that the judgments allow.
    """)
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## IDCG and the ratio

    Take **every judged document of the query**, the ones your list found and the ones it
    missed, sort them by gain, best first, and compute the DCG of the first $k$. That is the
    ideal DCG, $\mathrm{IDCG}@k$. Then

    $$\mathrm{nDCG}@k = \frac{\mathrm{DCG}@k}{\mathrm{IDCG}@k} \in [0, 1]$$

    is the fraction of the obtainable gain that the ranking captured. Two conditions come
    with that sentence. The range $[0, 1]$ needs **non-negative gains**: a gain table may
    give a label a negative gain, and then DCG can fall below 0 and the ratio leaves the
    interval (the ideal leaves negative-gain documents out, chapter 02). And nDCG@k is exactly 1 when the top $k$ of the list carry the same gains as
    the top $k$ of the ideal list **and IDCG@k > 0**: with no positive judgment IDCG@k = 0,
    every list "carries the ideal gains", and nDCG is defined as 0 (see below), not 1.

    The ideal needs the labels of every relevant document of the query, also those the run
    never returned: nDCG needs **complete judgments**. CG and DCG are not normalised;
    nDCG is.
    """)
    return


@app.cell
def _(mo, widgets):
    labels_text = widgets.labels_input("1, 0, 2, 1, 0")
    missed_text = widgets.missed_input()
    k_slider = mo.ui.slider(1, 10, value=5, label="k", show_value=True)
    mo.vstack([labels_text, missed_text, k_slider])
    return k_slider, labels_text, missed_text


@app.cell
def _(compare, labels_text, missed_text, playground, widgets):
    try:  # a message names the box it is about
        labels, _missed = playground.read_lists(labels_text.value, missed_text.value)
        judgments = compare.judged_labels(labels, _missed)
        input_error = None
    except (TypeError, ValueError) as _err:
        labels = judgments = None
        input_error = widgets.error_callout(_err)
    return input_error, judgments, labels


@app.cell
def _(compare, input_error, judgments, k_slider, labels, mo, nc, tables):
    mo.stop(labels is None, input_error)
    _k = k_slider.value
    _config = nc.NDCGConfig(k=_k)
    _scored = _config.score(labels, judgments)
    _table = nc.breakdown(labels, _k, judgments=judgments)
    _tops = _table[["rank", "label", "ideal_label"]].set_index("rank").T
    _tops.index = ["your list", "ideal list"]
    _parts = [
        mo.hstack(
            [
                mo.stat(f"{_scored.dcg:.4f}", label=f"DCG@{_k}"),
                mo.stat(f"{_scored.idcg:.4f}", label=f"IDCG@{_k}"),
                mo.stat(f"{_scored.ndcg:.4f}", label=f"nDCG@{_k}"),
            ],
            justify="start",
            gap=4,
        ),
        mo.md(f"**Labels of the top {_k}** (— = past the end of the list or unjudged)"),
        mo.md(tables.markdown_table(_tops.rename_axis("rank", axis=1))),
    ]
    if _scored.idcg == 0:
        _parts.append(mo.callout(mo.md(
            "No judged document of this query has a positive gain, so IDCG@k = 0 and "
            "DCG/IDCG would divide by zero. The convention (trec_eval's too) is to report "
            "nDCG = 0 for such a query."
        ), kind="info"))
    elif compare.is_ideal(labels, _k, judgments=judgments):
        _parts.append(mo.md(f"Your top {_k} carries exactly the ideal gains, so nDCG@{_k} = 1."))
    else:
        _parts.append(mo.md(f"Your top {_k} differs from the ideal top {_k}, so nDCG@{_k} < 1."))
    _parts.append(mo.md(_config.describe()))
    mo.vstack(_parts)
    return


@app.cell
def _(judgments, k_slider, labels, mo, nc, tables):
    mo.stop(labels is None)  # the cell above shows the message once
    breakdown_table = nc.breakdown(labels, k_slider.value, judgments=judgments)
    _shown = breakdown_table[
        ["rank", "label", "gain", "discount", "dcg", "ideal_label", "ideal_gain", "idcg", "ndcg"]
    ].set_index("rank")
    _shown.columns = ["label", "g(ℓ)", "d(i)", "DCG@i", "ideal label", "ideal g", "IDCG@i", "nDCG@i"]
    mo.vstack([mo.md("**Rank by rank**"), mo.md(tables.markdown_table(_shown))])
    return (breakdown_table,)


@app.cell
def _(breakdown_table, mo, ncplots):
    mo.Html(ncplots.to_svg(ncplots.gains_per_rank(breakdown_table)))
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Normalised is not the same as comparable

    Dividing by IDCG puts every topic on a 0-to-1 scale, but the scale does not mean the
    same thing on every topic, unlike recall. It depends on what the ideal list looks like.

    Two topics, the same mistake: some non-relevant documents are ranked above the highly
    relevant ones. Topic **A** has five highly relevant documents (label 3); topic **B** has
    one. Each run ranks all of its topic's highly relevant documents right after the
    non-relevant ones.
    """)
    return


@app.cell
def _(mo):
    delay_slider = mo.ui.slider(
        1, 6, value=2, label="Rank of the first highly relevant document", show_value=True
    )
    delay_slider
    return (delay_slider,)


@app.cell
def _(compare, delay_slider, mo, nc, tables):
    DELAY_TOPICS = {"A: five of label 3": 5, "B: one of label 3": 1}

    def delayed_run(first_rank, top_documents):
        """Non-relevant documents above rank `first_rank`, then the topic's label-3 documents."""
        return [0] * (first_rank - 1) + [3] * top_documents

    _runs = {_name: delayed_run(delay_slider.value, _n) for _name, _n in DELAY_TOPICS.items()}
    _judged = {_name: [3] * _n for _name, _n in DELAY_TOPICS.items()}
    _table = compare.per_topic(_runs, _judged, nc.NDCGConfig(k=10))
    mo.vstack([
        mo.md(f"**nDCG@10 when the first highly relevant document is at rank {delay_slider.value}**"),
        mo.md(tables.markdown_table(_table[["relevant", "ndcg"]])),
        mo.md(
            "The same slip costs topic B a bigger share of its score: its one document carries "
            "all of the obtainable gain. Averaging the two numbers mixes two different scales."
        ),
    ])
    return DELAY_TOPICS, delayed_run


@app.cell
def _(DELAY_TOPICS, delay_slider, delayed_run, mo, nc, ncplots):
    _curves = {
        _name: [nc.ndcg(delayed_run(_r, _n), 10, judgments=[3] * _n) for _r in range(1, 7)]
        for _name, _n in DELAY_TOPICS.items()
    }
    mo.Html(ncplots.to_svg(ncplots.delay_curves(_curves, ylabel="nDCG@10", mark=delay_slider.value)))
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## nDCG is not monotone in k

    With non-negative gains DCG can only grow with $k$, and so can IDCG, but not at the same
    pace. From cutoff 10 to 100 the run adds $\Delta D = \mathrm{DCG}@100 - \mathrm{DCG}@10$
    and the ideal adds $\Delta I = \mathrm{IDCG}@100 - \mathrm{IDCG}@10$. Then

    $$\mathrm{nDCG}@100 < \mathrm{nDCG}@10 \iff \frac{\Delta D}{\Delta I} < \mathrm{nDCG}@10
    \quad(\Delta I > 0).$$

    So **nDCG@100 can be lower than nDCG@10** for the same run on the same topic, but only
    when the topic has **more relevant documents than the smaller cutoff** (10 here), so that
    the ideal keeps gaining below rank 10, and the run gains less there, relative to the
    ideal, than it did in its top 10. With at most 10 relevant documents the ideal is used
    up by rank 10, $\Delta I = 0$, and nDCG@100 $\ge$ nDCG@10. The essay's wording "when
    fewer documents are relevant than $k$" is not the condition: with 15 relevant documents,
    fewer than $k = 100$, the demo below gives nDCG@10 = 0.8701 and nDCG@100 = 0.7377. Read
    with $k$ the **smaller** cutoff it names the opposite case, at most 10 relevant
    documents, where nDCG cannot fall. State the cutoff and keep it fixed.

    The run below has relevant documents (label 1) at ranks 1–8, 30 and 60 out of 100.
    Change how many relevant documents the topic has in total.
    """)
    return


@app.cell
def _(mo):
    relevant_slider = mo.ui.slider(
        10, 60, value=15, label="Relevant documents judged for the topic", show_value=True
    )
    relevant_slider
    return (relevant_slider,)


@app.cell
def _(claims, mo, nc, relevant_slider):
    DEEP_RUN = [1 if _rank <= 8 or _rank in (30, 60) else 0 for _rank in range(1, 101)]
    deep_judgments = [1] * relevant_slider.value
    _at10 = nc.ndcg(DEEP_RUN, 10, judgments=deep_judgments)
    _at100 = nc.ndcg(DEEP_RUN, 100, judgments=deep_judgments)
    _relation = "lower than" if _at100 < _at10 else ("equal to" if _at100 == _at10 else "higher than")
    _drop = claims.cutoff_drop(DEEP_RUN, 10, 100, judgments=deep_judgments)
    if _drop.gain_ratio is None:
        _why = (f"The topic has {_drop.relevant} relevant documents, no more than 10: the ideal is "
                "used up by rank 10 (ΔI = 0), so nDCG@100 cannot be lower.")
    else:
        _why = (f"The topic has {_drop.relevant} relevant documents, more than 10: below rank 10 the "
                f"run adds ΔD = {_drop.run_gain:.4f} and the ideal ΔI = {_drop.ideal_gain:.4f}; "
                f"ΔD/ΔI = {_drop.gain_ratio:.4f} is "
                f"{'below' if _drop.drops else 'not below'} nDCG@10 = {_drop.ndcg_small:.4f}.")
    mo.vstack([
        mo.hstack(
            [mo.stat(f"{_at10:.4f}", label="nDCG@10"), mo.stat(f"{_at100:.4f}", label="nDCG@100")],
            justify="start",
            gap=4,
        ),
        mo.md(
            f"With {relevant_slider.value} relevant documents, nDCG@100 is **{_relation}** nDCG@10. "
            + _why
        ),
    ])
    return DEEP_RUN, deep_judgments


@app.cell
def _(DEEP_RUN, deep_judgments, mo, nc, ncplots):
    mo.Html(ncplots.to_svg(ncplots.ndcg_at_cutoffs(nc.ndcg_curve(DEEP_RUN, judgments=deep_judgments), 10)))
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## The 1.0 trap: an ideal built from the list itself

    The exam's short implementation builds the ideal list by sorting the run's own labels,
    `ideal = sorted(rels, reverse=True)`. It only knows the documents the run returned, so
    the relevant documents the run **missed** never enter IDCG. The denominator then depends
    on what the system happened to find: a run that returned a single highly graded document
    and nothing else scores a perfect 1.0.

    **What to write in the exam.** The ideal ranking always comes from *every* relevant
    document of the query. The lecture example gives them (2, 1, 1), so its ideal is
    2, 1, 1, 0, 0. The exam's short code sorts the run's labels instead; that is the same
    ideal **only when the run contains every relevant document**, as the lecture's run does,
    so the code is right there. When a task says the run missed relevant documents, add
    them to the ideal; the short code would overstate nDCG.

    Try it with the lists at the top of this chapter: type `3` as the relevance labels and
    `3, 2, 2, 1` as the judged documents not in the list.
    """)
    return


@app.cell
def _(compare, judgments, k_slider, labels, mo, nc, tables):
    mo.stop(labels is None)  # the message shows once, under the boxes
    _k = k_slider.value
    IDEAL_CONFIGS = {
        "ideal from all judged documents": nc.NDCGConfig(k=_k),
        "ideal from the list itself": nc.NDCGConfig(k=_k, ideal="list"),
    }
    ONE_HIT_JUDGMENTS = [3, 3, 2, 2, 1]
    _table = compare.compare_runs(
        {"your list": labels, "one document of label 3": [3]},
        IDEAL_CONFIGS,
        judgments={"your list": judgments, "one document of label 3": ONE_HIT_JUDGMENTS},
    )
    mo.vstack([
        mo.md(
            f"**nDCG@{_k}** (the one-document run's query has judged labels "
            f"{', '.join(map(str, ONE_HIT_JUDGMENTS))})"
        ),
        mo.md(tables.markdown_table(_table)),
    ])
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## IDCG = 0

    If no judged document of a query has a positive gain, every ranking has DCG 0 and so
    does the ideal: the ratio is $0/0$. The measure is then defined as 0, not computed.
    Such a query says nothing about the system, yet it still enters an average as a 0, so
    report how many queries had nothing relevant.
    """)
    return


@app.cell
def _(mo, nc):
    _scored = nc.score([0, 0, 0], 3, judgments=[0, 0, 0, 0])
    mo.md(
        f"Labels 0, 0, 0 with judged labels 0, 0, 0, 0: DCG@3 = {_scored.dcg:g}, "
        f"IDCG@3 = {_scored.idcg:g}, nDCG@3 = {_scored.ndcg:g}."
    )
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Averaging over queries, and what the average hides

    Because every query's nDCG lies in $[0, 1]$ (non-negative gains), the values can be averaged over a
    benchmark, and the mean is what papers report. One number, though, hides a lot. Two
    systems on the same four topics (k = 5):
    """)
    return


@app.cell
def _(compare, mo, nc, tables):
    AVERAGE_JUDGMENTS = {"t1": [3, 2, 1, 1], "t2": [2, 2, 1], "t3": [3], "t4": [2, 1, 1, 1, 1]}
    AVERAGE_SYSTEMS = {
        "steady": {"t1": [2, 3, 0, 1, 0], "t2": [2, 0, 2, 1, 0], "t3": [0, 3, 0, 0, 0], "t4": [1, 2, 1, 0, 1]},
        "all or nothing": {"t1": [3, 2, 1, 1, 0], "t2": [2, 2, 1, 0, 0], "t3": [0, 0, 0, 0, 0], "t4": [2, 1, 1, 1, 1]},
    }
    average_tables = {
        _name: compare.per_topic(_runs, AVERAGE_JUDGMENTS, nc.NDCGConfig(k=5))
        for _name, _runs in AVERAGE_SYSTEMS.items()
    }
    _side = average_tables["steady"][["relevant"]].copy()
    for _name, _table in average_tables.items():
        _side[f"nDCG@5 {_name}"] = _table["ndcg"]
    _means = {_name: _table["ndcg"].mean() for _name, _table in average_tables.items()}
    _wins = int((average_tables["all or nothing"]["ndcg"] > average_tables["steady"]["ndcg"]).sum())
    mo.vstack([
        mo.md(tables.markdown_table(_side)),
        mo.md(
            f"Mean over {len(AVERAGE_JUDGMENTS)} topics: steady **{_means['steady']:.4f}**, "
            f"all or nothing **{_means['all or nothing']:.4f}**. The mean prefers *steady*, yet "
            f"*all or nothing* is better on {_wins} of the {len(AVERAGE_JUDGMENTS)} topics and fails "
            "one completely (topic t3, which has a single relevant document)."
        ),
    ])
    return (average_tables,)


@app.cell
def _(average_tables, mo, ncplots):
    mo.Html(ncplots.to_svg(ncplots.topic_strips(
        {_name: _table["ndcg"].tolist() for _name, _table in average_tables.items()},
        ylabel="nDCG@5 of one topic",
        title="Same topics, two systems: the mean hides the spread",
    )))
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## What to remember

    - IDCG@k is the DCG of **every judged document** of the query, sorted by gain, cut at k.
      nDCG@k = DCG@k / IDCG@k is the fraction of the obtainable gain; with non-negative
      gains it lies in [0, 1], and it is 1 exactly when IDCG@k > 0 and the top k carry the
      ideal gains.
    - Normalised does not mean comparable across topics: the same slip costs a topic with
      one top document far more than a topic with many.
    - nDCG is not monotone in k: nDCG@100 can be lower than nDCG@10, but only when the topic
      has more relevant documents than 10 and the run gains less below rank 10 than the
      ideal does (with at most 10 relevant documents it cannot drop). Fix the cutoff and
      state it.
    - Building the ideal from the run's own labels ignores what the run missed and can give
      a one-document run a perfect 1.0. Build it from all judged documents; the exam's short
      code is right only when the run contains every relevant document.
    - IDCG = 0 means no relevant judgment: nDCG is defined as 0. Report such queries.
    - A mean over queries hides the spread: report the number of queries and look at the
      per-query values.
    """)
    return


@app.cell(hide_code=True)
def _(widgets):
    widgets.check_yourself(
        "Six exercises on the ideal list.",
        more=(
            "The chapter's code exercise, writing `ndcg(rels, k)` yourself, is in notebook 07. "
            "A page like this one never runs code typed into it: code exercises are answered in "
            "the notebook opened for editing (`ndcg-lab edit`)."
        ),
    )
    return


@app.cell
def _(widgets):
    chapter_answers = widgets.answer_boxes(("ideal-order", "ideal-trap-ndcg", "ideal-trap-concept", "ideal-cutoff", "ideal-drop-condition", "ideal-one-exactly"))
    return (chapter_answers,)


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "ideal-order")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "ideal-trap-ndcg")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "ideal-trap-concept")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "ideal-cutoff")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "ideal-drop-condition")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "ideal-one-exactly")
    return

if __name__ == "__main__":
    app.run()
