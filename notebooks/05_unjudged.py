# /// script
# requires-python = ">=3.11"
# dependencies = ["marimo", "ndcg-lab"]
# [tool.marimo.opengraph]
# title = "05 · Unjudged documents"
# description = "Gain 0 or condensed lists, the unjudged fraction, and how a shallow pool punishes a novel system"
# ///

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _():
    import marimo as mo
    import ndcg_core as nc
    from ndcg_core.teaching import claims, compare
    from ndcg_core.teaching import pooling as ncpool
    from ndcg_core.teaching import toy as nctoy
    import ndcg_core.ui.plots as ncplots
    from ndcg_core.ui import tables, widgets
    return claims, compare, mo, nc, ncplots, ncpool, nctoy, tables, widgets


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    # 05 · Unjudged documents: what the assessors never saw

    Judging documents costs time, so a test collection labels only some of them for each
    query. A system under test retrieves others as well. Those documents have no label at
    all, and every nDCG figure quietly decides what they are worth.
    """)
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Where the holes come from: pooling

    TREC-style collections are judged by **pooling**: the organisers take the top $d$
    documents (the pool depth, often 10 to 100) of every *contributing* run, merge them, and
    have assessors judge only that pool. A document outside the pool is absent from the
    qrels file. When a run retrieves it, it is **unjudged**. In a typed list below, `?`
    stands for such a document.

    Scoring unjudged documents as not relevant is biased against systems whose results were
    not in the pool. For DCG the error runs one way: an unjudged relevant document counts 0,
    so a score can only be too low. nDCG can also be **too high**: its ideal list comes from
    the same incomplete judgments, so it is too short, and the pooled systems are flattered
    (below, with the default pool, *classic* and *tuned* both score higher against the pool
    than against the full truth). The bias **compounds with the
    cutoff**, since a deeper cutoff reaches more documents no assessor saw, and **with
    novelty**, since a system that finds what no other system finds contributed little to
    the pool. It is usually small at shallow cutoffs on a well-built collection, and large
    against a shallow pool.
    """)
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Two ways to read a `?`

    **Gain 0** (trec_eval's default): an unjudged document is treated as not relevant. It
    keeps its rank and adds nothing.

    **Condensed list** (trec_eval `-J`, ir_measures `judged_only`): the unjudged documents
    are removed *before* ranking, and the judged ones close up. The label at rank $i$ is
    then the $i$-th *judged* document of the run:

    $$\mathrm{DCG}@k_{\text{condensed}} = \sum_{i=1}^{\min(k,\,n_J)} g\big(\ell^{J}_i\big)\, d(i)$$

    where $\ell^J_1, \ell^J_2, \dots$ are the run's judged labels in run order and $n_J$
    their number. Both readings divide by the same ideal list, built from every judged
    document of the query.
    """)
    return


@app.cell
def _(mo, widgets):
    labels_text = widgets.labels_input("3, ?, 2, ?, ?, 1, 0, ?, 2, 0")
    missed_text = widgets.missed_input("2, 1")
    k_slider = mo.ui.slider(1, 10, value=5, label="k", show_value=True)
    mo.vstack([labels_text, missed_text, k_slider])
    return k_slider, labels_text, missed_text


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


@app.cell
def _(input_error, judgments, k_slider, labels, mo, nc):
    mo.stop(labels is None, input_error)
    _k = k_slider.value
    zero_config = nc.NDCGConfig(k=_k)
    condensed_config = nc.NDCGConfig(k=_k, unjudged="condense")
    _zero = zero_config.score(labels, judgments)
    _condensed = condensed_config.score(labels, judgments)
    mo.vstack([
        mo.hstack(
            [
                mo.stat(f"{_zero.ndcg:.4f}", label=f"nDCG@{_k} · unjudged = gain 0"),
                mo.stat(f"{_condensed.ndcg:.4f}", label=f"nDCG@{_k} · condensed"),
                mo.stat(f"{_zero.unjudged_fraction:.0%}", label=f"Unjudged in the top {_k}"),
            ],
            justify="start",
            gap=4,
        ),
        mo.md(f"- {zero_config.describe()}\n- {condensed_config.describe()}"),
    ])
    return condensed_config, zero_config


@app.cell
def _(condensed_config, input_error, judgments, k_slider, labels, mo, nc, tables):
    mo.stop(labels is None, input_error)
    _k = k_slider.value
    _as_returned = nc.breakdown(labels, _k, judgments=judgments)
    _closed_up = nc.breakdown(labels, _k, judgments=judgments, unjudged=condensed_config.unjudged)
    _columns = ["rank", "label", "discounted_gain", "dcg", "ndcg"]
    _names = ["rank", "label", "g·d", "DCG@i", "nDCG@i"]
    _left = _as_returned[_columns].set_axis(_names, axis=1).set_index("rank")
    _right = _closed_up[_columns].set_axis(_names, axis=1).set_index("rank")
    mo.hstack(
        [
            mo.vstack([mo.md("**As returned** (— = unjudged or past the end)"), mo.md(tables.markdown_table(_left))]),
            mo.vstack([mo.md("**Condensed**"), mo.md(tables.markdown_table(_right))]),
        ],
        justify="start",
        gap=3,
        widths="equal",
    )
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## What condensing rewards

    Condensing never charges anything for an unjudged document: whatever stands behind it
    moves up. It assumes the unjudged gap tells nothing, so it cannot tell apart two runs
    that differ only in how much unjudged material they returned, and it rewards a run that
    returned fewer documents overall: a run of 3, ?, ?, ?, 1 scores exactly like the
    shorter 3, 1. Two runs below agree on everything that was judged. Run **A** filled ranks 2–4
    with documents nobody judged; run **B** filled them with documents the assessors saw and
    rejected (label 0).
    """)
    return


@app.cell
def _(compare, condensed_config, mo, nc, tables, zero_config):
    CONDENSE_RUNS = {"A: 3, ?, ?, ?, 1": [3, None, None, None, 1], "B: 3, 0, 0, 0, 1": [3, 0, 0, 0, 1]}
    CONDENSE_JUDGMENTS = [3, 1, 0, 0, 0]
    _configs = {
        "gain 0": nc.NDCGConfig(k=5, unjudged=zero_config.unjudged),
        "condensed": nc.NDCGConfig(k=5, unjudged=condensed_config.unjudged),
    }
    _table = compare.compare_runs(CONDENSE_RUNS, _configs, judgments=CONDENSE_JUDGMENTS)
    _table["unjudged in top 5"] = [nc.unjudged_fraction(_run, 5) for _run in CONDENSE_RUNS.values()]
    mo.vstack([
        mo.md("**nDCG@5**, judged labels of the query: 3, 1, 0, 0, 0"),
        mo.md(tables.markdown_table(_table)),
        mo.md(
            "With gain 0 the two runs tie. Condensed, **A** wins: it is rewarded for retrieving "
            "documents that were never checked, while **B** pays for documents known to be useless. "
            "If A's unjudged documents are in fact non-relevant, condensing flatters A. Condensing is "
            "useful as a second opinion (does the ranking of systems survive it?), not as the answer."
        ),
    ])
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## The unjudged fraction at k

    A number that cannot tell "not relevant" from "never looked at" needs a companion: the
    share of the top $k$ that has no judgment,

    $$u@k = \frac{\big|\{\, i \le \min(k, n) : \ell_i = \text{?} \,\}\big|}{\min(k, n)}.$$

    Report it next to nDCG@k. A high value is a red flag: either the system is poor, or it
    finds documents the pool never contained, and nDCG cannot tell you which. (The
    denominator differs between tools: trec_eval 10's `unj.k` divides by $k$,
    ir_measures' `Judged@k` is $1 - u@k$ with the same $\min(k, n)$ as here.)
    """)
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## A shallow pool and a novel system

    The toy collection in `data/toy/` has 10 topics and three systems. *classic* and
    *tuned* find the documents conventional systems find; *novel* works differently and
    finds many relevant documents the other two rank low. The collection also holds the
    **full truth**: a label for every document any system retrieved.

    Build a pool the TREC way: choose its depth and which systems contribute, and compare
    each system's nDCG@10 against the pooled qrels with its nDCG@10 against the truth.
    """)
    return


@app.cell
def _(nctoy, widgets):
    try:
        toy = nctoy.read_toy_collection()
        toy_error = None
    except (OSError, TypeError, ValueError) as _err:
        toy = None
        toy_error = widgets.error_callout(_err, lead="The toy collection could not be read:")
    return toy, toy_error


@app.cell
def _(mo, nctoy):
    depth_slider = mo.ui.slider(1, 100, value=10, label="Pool depth", show_value=True)
    pool_select = mo.ui.multiselect(
        options=list(nctoy.TOY_RUNS), value=["classic", "tuned"], label="Systems in the pool"
    )
    mo.hstack([depth_slider, pool_select], justify="start", gap=3)
    return depth_slider, pool_select


@app.cell
def _(depth_slider, mo, nc, ncpool, pool_select, tables, toy, toy_error, widgets):
    mo.stop(toy is None, toy_error)
    try:
        pooling = ncpool.pooling_table(toy.qrels_full, toy.runs, list(pool_select.value), depth_slider.value, k=10)
        pooling_error = None
    except (TypeError, ValueError) as _err:
        pooling = None
        pooling_error = widgets.error_callout(_err)
    mo.stop(pooling is None, pooling_error)
    _shown = pooling[["in_pool", "ndcg_pooled", "unjudged", "ndcg_condensed", "ndcg_truth"]].copy()
    _shown["in_pool"] = _shown["in_pool"].map({True: "yes", False: "no"})
    _shown.columns = ["in the pool", "nDCG@10 · pool", "unjudged@10 · pool", "nDCG@10 · pool, condensed", "nDCG@10 · truth"]
    _shown.index.name = "system"
    _judged = int(pooling["judged"].iloc[0])
    mo.vstack([
        mo.hstack(
            [
                mo.stat(f"{_judged:,}", label="Judgments in the pool"),
                mo.stat(f"{len(toy.qrels_full):,}", label="Judgments in the full truth"),
                mo.stat(pooling["ndcg_pooled"].idxmax(), label="Best system · pool"),
                mo.stat(pooling["ndcg_truth"].idxmax(), label="Best system · truth"),
            ],
            justify="start",
            gap=4,
        ),
        mo.md(tables.markdown_table(_shown)),
        mo.md(
            f"Mean over the 10 topics. {nc.NDCGConfig(k=10).describe()} The condensed column "
            "removes unjudged documents before ranking instead."
        ),
    ])
    return (pooling,)


@app.cell
def _(depth_slider, mo, nc, ncplots, ncpool, pool_select, pooling, toy):
    mo.stop(pooling is None)
    _pooled = ncpool.pool_qrels(toy.qrels_full, {_n: toy.runs[_n] for _n in pool_select.value}, depth_slider.value)
    _strips = {}
    for _name in ("novel", "tuned"):
        for _qrels, _which in ((_pooled, "pool"), (toy.qrels_full, "truth")):
            _values = nc.evaluate_run(_qrels, toy.runs[_name], "ndcg_cut.10", complete=True).per_topic["ndcg_cut_10"]
            _strips[f"{_name} · {_which}"] = _values.tolist()
    mo.Html(ncplots.to_svg(ncplots.topic_strips(
        _strips, ylabel="nDCG@10 of one topic", title=f"Pool depth {depth_slider.value}: per-topic nDCG@10"
    )))
    return


@app.cell(hide_code=True)
def _(claims, mo, toy):
    mo.stop(toy is None)
    _story = claims.pool_scenarios(toy.qrels_full, toy.runs, "novel")
    _shallow, _deep, _joined = (_story.iloc[_i] for _i in range(3))
    _places = {1: "the best", 2: "second", 3: "the worst"}
    mo.md(f"""
    With the default pool (top 10 of *classic* and *tuned*), *novel* scores
    {_shallow['ndcg_pooled']:.3f} and is {_places.get(int(_shallow['place']), _shallow['place'])}
    of the {int(_shallow['systems'])} systems: {_shallow['unjudged']:.0%} of its top 10 was never
    judged, and gain 0 counts all of it as useless. Against the truth it scores
    {_shallow['ndcg_truth']:.3f}, the best. The pooled systems are flattered too: the pool knows
    only the relevant documents *they* found, so their ideal lists are short.

    Deepening the pool is not enough: at depth 100 (still *classic* and *tuned*) *novel* rises
    to {_deep['ndcg_pooled']:.3f} but is still {_places.get(int(_deep['place']), _deep['place'])}, with
    {_deep['unjudged']:.0%} of its top 10 unjudged, because the other systems never retrieved
    its documents. It recovers only when it **joins** the pool: at depth 10 with *novel*
    contributing it scores {_joined['ndcg_pooled']:.3f} and is
    {_places.get(int(_joined['place']), _joined['place'])}. Try both with the controls above, and
    set the depth to 1 to see how little of a ranking is then judged. Condensing rescues
    *novel* here, but only by scoring it on the few documents of its top 10 that were judged.
    """)
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## What an honest report includes

    - the full configuration: gain, discount (and base), cutoff, the treatment of unjudged
      documents, and where the ideal list comes from;
    - how the qrels were made: pool depth and the contributing systems, and whether the
      system being reported was one of them;
    - the unjudged fraction at the same cutoff, next to every nDCG value;
    - the number of topics, and how missing topics were averaged;
    - when the unjudged fraction is high: the condensed score as a second opinion, or
      better, new judgments for the unjudged documents of the top ranks.

    The one real remedy is a **guarantee, not a fix**: judge every document that any system
    returned above the cutoff. Then nothing in any top $k$ is unjudged, but only if the pool
    is as deep as the cutoff and every reported system contributes to it.
    """)
    return


@app.cell
def _(depth_slider, mo, pool_select, pooling):
    mo.stop(pooling is None)
    _contributors = ", ".join(pool_select.value)
    _novel = pooling.loc["novel"]
    mo.callout(
        mo.md(
            f"**Example report.** *novel*: nDCG@10 = {_novel['ndcg_pooled']:.4f} (mean over 10 topics; "
            f"linear gain, discount 1/log2(i+1), unjudged documents as gain 0, ideal from all judged "
            f"documents; qrels from a depth-{depth_slider.value} pool of {_contributors}, "
            f"{'including' if _novel['in_pool'] else 'not including'} *novel*); "
            f"{_novel['unjudged']:.0%} of its top 10 is unjudged; condensed: {_novel['ndcg_condensed']:.4f}."
        ),
        kind="info",
    )
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## What to remember

    - Test collections judge a pool, not the whole collection. A retrieved document outside
      the pool is **unjudged**.
    - Gain 0 treats unjudged documents as non-relevant: it punishes systems that find what
      the pool missed. Condensing drops them before ranking: it rewards retrieving
      unchecked documents over documents known to be non-relevant.
    - Report the **unjudged fraction at k** beside nDCG@k; a high value means the number
      says little.
    - A shallow pool underrates systems that did not contribute to it and flatters the ones
      that did: their ideal lists contain only what they found.
    - State the configuration and the pool with every result.
    """)
    return


@app.cell(hide_code=True)
def _(widgets):
    widgets.check_yourself("Six exercises on unjudged documents.")
    return


@app.cell
def _(widgets):
    chapter_answers = widgets.answer_boxes(("unjudged-zero-ndcg", "unjudged-condensed-ndcg", "unjudged-fraction", "unjudged-condense-rewards", "unjudged-novel", "unjudged-shallow"))
    return (chapter_answers,)


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "unjudged-zero-ndcg")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "unjudged-condensed-ndcg")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "unjudged-fraction")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "unjudged-condense-rewards")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "unjudged-novel")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "unjudged-shallow")
    return


if __name__ == "__main__":
    app.run()
