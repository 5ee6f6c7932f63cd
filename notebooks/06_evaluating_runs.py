# /// script
# requires-python = ">=3.11"
# dependencies = ["marimo", "ndcg-lab"]
# [tool.marimo.opengraph]
# title = "06 · Evaluating runs"
# description = "Qrels and run files, ties across tools, averaging over topics, and your own run scored like trec_eval"
# ///

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _():
    import marimo as mo
    import ndcg_core as nc
    from ndcg_core.teaching import pooling as ncpool
    from ndcg_core.teaching import toy as nctoy
    import ndcg_core.ui.plots as ncplots
    from ndcg_core.ui import tables, widgets
    return mo, nc, ncplots, ncpool, nctoy, tables, widgets


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    # 06 · Evaluating runs: from two files to one number

    A retrieval experiment ends with two text files: the **qrels** (the judgments) and the
    **run** (what a system returned). This chapter reads them the way trec_eval does, shows
    where tools disagree on the same files, and ends with your own run, scored topic by
    topic and explained rank by rank.
    """)
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## The two file formats

    A **qrels** line judges one document for one topic: `QID ITER DOCID REL`.

    ```text
    101 0 DOC-0005 0
    101 0 DOC-0032 2
    101 0 DOC-0098 1
    ```

    `ITER` is historical and ignored (usually 0). `REL` is an integer label; a negative
    label means "in the pool but not judged": it earns nothing, stays out of the ideal list
    and counts as unjudged.

    A **run** line scores one retrieved document: `QID Q0 DOCID RANK SCORE RUN`.

    ```text
    101 Q0 DOC-1043 1 4.9062 classic
    101 Q0 DOC-0621 2 4.7012 classic
    ```

    `Q0` is ignored, and so is **`RANK`**: trec_eval orders the documents by `SCORE`,
    highest first, whatever ranks the file claims. `RUN` names the system; fields after the
    sixth are ignored. Fields are separated by spaces or tabs; lines starting with `#` are
    comments. A malformed line is reported with the file name and the line number. Edit
    the lines below: the ranks claim DOC-0001 comes first, the scores disagree. Then
    replace a score by a word, or delete a field, to see how a bad line is reported (the
    box applies your edit when you click outside it).
    """)
    return


@app.cell
def _(mo):
    run_lines = mo.ui.text_area(
        value="101 Q0 DOC-0001 1 12.5 mine\n101 Q0 DOC-0002 2 13.0 mine\n101 Q0 DOC-0003 3 12.5 mine\n",
        label="Run lines",
        full_width=True,
        rows=4,
    )
    run_lines
    return (run_lines,)


@app.cell
def _(mo, nc, run_lines, widgets):
    _MAX_LINES = 20_000  # pasted lines (a paste of 20,000 takes the browser about a second); upload more
    _SHOW = 20  # ranks listed (a list of thousands took the page a minute to draw)
    try:
        _count = run_lines.value.count("\n") + 1
        if _count > _MAX_LINES:
            raise ValueError(
                f"run lines: {_count:,} lines were pasted; at most {_MAX_LINES:,} can be pasted here. "
                "Upload the run as a file under 'Your run, scored like trec_eval' below instead."
            )
        # bytes, never str: the reader would take a one-line str for a file path on the server
        _typed = nc.read_run(run_lines.value.encode("utf-8"), name="run lines")
        _ranked = nc.ranked_labels({}, _typed, _typed["query_id"].iat[0])
        _lines = [
            f"{_rank}. {_doc} (score {_score:g})"
            for _rank, (_doc, _score) in enumerate(zip(_ranked.doc_ids[:_SHOW], _ranked.scores[:_SHOW]), start=1)
        ]
        _more = len(_ranked.doc_ids) - _SHOW
        _tail = f"\n\n*... and {_more:,} more documents of this topic (the first {_SHOW} are shown).*" if _more > 0 else ""
        _topics = _typed["query_id"].nunique()
        _others = f" ({_topics:,} topics; the first is shown)" if _topics > 1 else ""
        _shown = mo.md(
            f"Read {len(_typed):,} lines{_others}. Topic **{_ranked.query_id}** in trec_eval's order "
            "(the rank column played no part):\n\n" + "\n".join(_lines) + _tail
        )
    except (TypeError, ValueError) as _err:
        _shown = widgets.error_callout(_err)
    _shown
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Ties: the same file, different numbers

    When two documents have the same score, the order between them is a choice, and tools
    choose differently. trec_eval breaks ties by **document id, descending** (byte order,
    as C's `strcmp`): its `get_trec_results.c` says ranks are assigned "by sorting by the
    sim field with ties broken deterministically (using docno)", and a maintainer explains
    in usnistgov/trec_eval#22 that the id is "basically random with respect to the system".
    pytrec_eval and ir_measures run the same code. trectools' order has changed between
    versions (in its `trec_eval.py` an older `get_ndcg` kept the order of the run as read, a
    newer one sorts by score, then id descending); scikit-learn and torchmetrics give tied
    documents the **mean** of their gains; TF-Ranking's `sort_by_scores` shuffles ties at
    random unless told not to (`shuffle_ties=True` by default). A sort that is not stable,
    such as NumPy's default `argsort`, follows no rule at all.

    Below, every document has the same score. Edit the ids and the labels (in file order):
    the best and worst rows show how far a tie alone can move nDCG.
    """)
    return


@app.cell
def _(mo):
    tie_ids_text = mo.ui.text(value="d3, d1, d2", label="Document ids, in file order", full_width=True)
    tie_labels_text = mo.ui.text(value="2, 0, 1", label="Their labels, in file order", full_width=True)
    mo.vstack([tie_ids_text, tie_labels_text])
    return tie_ids_text, tie_labels_text


@app.cell
def _(mo, nc, tables, tie_ids_text, tie_labels_text, widgets):
    try:
        _ids = [_t for _t in tie_ids_text.value.replace(",", " ").split() if _t]
        _labels = nc.parse_labels(tie_labels_text.value)
        _table = nc.trec.tie_rules(_ids, [1.0] * len(_ids), _labels)
        _table = _table.rename(columns={"order": "ranking", "ndcg": f"nDCG@{len(_ids)}"})
        _shown = mo.vstack([
            mo.md(f"**All {len(_ids)} documents scored 1.0**; ideal list from their labels."),
            mo.md(tables.markdown_table(_table)),
        ])
    except (TypeError, ValueError) as _err:
        _shown = widgets.error_callout(_err)
    _shown
    return


@app.cell
def _(mo, nc):
    _found = [2, 0, 1]
    _judged = [2, 1, 0, 2]
    mo.md(
        "Tools also differ in the **ideal list**. scikit-learn builds it only from the documents "
        "it is given, so a relevant document the run never retrieved costs nothing: the list "
        f"2, 0, 1 scores nDCG@3 = {nc.ndcg(_found, 3):.4f} that way, but "
        f"{nc.ndcg(_found, 3, judgments=_judged):.4f} in trec_eval when the topic has another, "
        "unretrieved document of label 2. A bare number is not a specification."
    )
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Averaging over topics

    A run is reported as the **mean** over topics. Which topics? trec_eval's default
    averages over the topics present in *both* the qrels and the run: a topic the run has
    no line for silently drops out. With `-c` (complete averaging) every qrels topic counts
    and a missing one scores 0. Topics that appear only in the run are always ignored.
    Drop some topics from the *tuned* run of the toy collection and compare:
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
def _(mo, toy, toy_error):
    mo.stop(toy is None, toy_error)
    _topics = sorted(toy.qrels["query_id"].cat.categories)
    drop_select = mo.ui.multiselect(options=_topics, value=_topics[:2], label="Topics missing from the run")
    drop_select
    return (drop_select,)


@app.cell
def _(drop_select, mo, nc, ncpool, tables, toy, widgets):
    _run = toy.runs["tuned"]
    _run = _run[~_run["query_id"].isin(list(drop_select.value))]
    try:
        _table = ncpool.averaging_table(toy.qrels, _run, "ndcg_cut.10")
        _table.columns = ["nDCG@10", "topics averaged"]
        _shown = mo.vstack([
            mo.md(tables.markdown_table(_table.rename_axis("averaging"))),
            mo.md(nc.evaluate_run(toy.qrels, _run, "ndcg_cut.10").describe()),
        ])
    except (TypeError, ValueError) as _err:
        _shown = widgets.error_callout(_err)
    _shown
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    Neither mean is wrong; they answer different questions. A system that fails to answer
    hard topics looks better under the default. Always say which average you report and
    over how many topics, as the sentence above does.

    ## Your run, scored like trec_eval

    Choose the qrels and the run: the toy collection's files, or your own uploads (at most
    20 MB each; nothing is read from the server's disk except the toy files). The numbers
    for the default configuration (linear gain, 1/log2(i+1), gain 0 for unjudged documents)
    are trec_eval's, to the last digit. The command `ndcg-eval` prints the same numbers in
    trec_eval's format for files of any size.
    """)
    return


@app.cell
def _(mo):
    UPLOAD_LIMIT = 20_000_000
    qrels_upload = mo.ui.file(label="Upload qrels", max_size=UPLOAD_LIMIT, kind="button")
    run_upload = mo.ui.file(label="Upload run", max_size=UPLOAD_LIMIT, kind="button")
    qrels_choice = mo.ui.dropdown(
        options=["toy: pooled qrels", "toy: full truth", "uploaded qrels"], value="toy: pooled qrels", label="Qrels"
    )
    run_choice = mo.ui.dropdown(
        options=["toy: classic", "toy: tuned", "toy: novel", "uploaded run"], value="toy: tuned", label="Run"
    )
    mo.vstack([
        mo.hstack([qrels_choice, qrels_upload], justify="start", gap=2),
        mo.hstack([run_choice, run_upload], justify="start", gap=2),
    ])
    return UPLOAD_LIMIT, qrels_choice, qrels_upload, run_choice, run_upload


@app.cell
def _(mo, widgets):
    gain_dropdown = widgets.gain_dropdown("linear", names=("linear", "exponential"))
    discount_dropdown = widgets.discount_dropdown("log2")
    cutoff_dropdown = mo.ui.dropdown(options=["5", "10", "20", "100", "1000"], value="10", label="Cutoff k")
    condense_box = mo.ui.checkbox(value=False, label="Judged documents only (-J)")
    complete_box = mo.ui.checkbox(value=False, label="Complete averaging (-c)")
    mo.hstack([gain_dropdown, discount_dropdown, cutoff_dropdown, condense_box, complete_box], justify="start", gap=2)
    return complete_box, condense_box, cutoff_dropdown, discount_dropdown, gain_dropdown


@app.cell
def _(
    UPLOAD_LIMIT,
    mo,
    nc,
    qrels_choice,
    qrels_upload,
    run_choice,
    run_upload,
    toy,
    toy_error,
    widgets,
):
    def _uploaded(widget, reader, what):
        if not widget.value:
            return None, mo.callout(mo.md(f"Upload a {what} file, or choose a toy file."), kind="info")
        return reader(widget.contents(), name=widget.name(), max_bytes=UPLOAD_LIMIT), None

    chosen_qrels = chosen_run = None
    try:
        if qrels_choice.value == "uploaded qrels":
            chosen_qrels, load_problem = _uploaded(qrels_upload, nc.read_qrels, "qrels")
        else:
            mo.stop(toy is None, toy_error)
            chosen_qrels, load_problem = (toy.qrels if qrels_choice.value == "toy: pooled qrels" else toy.qrels_full), None
        if load_problem is None:
            if run_choice.value == "uploaded run":
                chosen_run, load_problem = _uploaded(run_upload, nc.read_run, "run")
            else:
                mo.stop(toy is None, toy_error)
                chosen_run, load_problem = toy.runs[run_choice.value.split(": ")[1]], None
    except (TypeError, ValueError) as _err:
        chosen_qrels = chosen_run = None
        load_problem = widgets.error_callout(_err)
    return chosen_qrels, chosen_run, load_problem


@app.cell
def _(
    chosen_qrels,
    chosen_run,
    complete_box,
    condense_box,
    cutoff_dropdown,
    discount_dropdown,
    gain_dropdown,
    load_problem,
    mo,
    nc,
    widgets,
):
    mo.stop(chosen_qrels is None or chosen_run is None, load_problem)
    k = int(cutoff_dropdown.value)
    try:
        evaluation = nc.evaluate_run(
            chosen_qrels,
            chosen_run,
            ["ndcg", f"ndcg_cut.{k}", f"unjudged_cut.{k}"],
            gain=gain_dropdown.value,
            discount=discount_dropdown.value,
            unjudged="condense" if condense_box.value else "zero",
            complete=complete_box.value,
        )
        evaluation_error = None
    except (TypeError, ValueError) as _err:
        evaluation = None
        evaluation_error = widgets.error_callout(_err)
    mo.stop(evaluation is None, evaluation_error)
    _notes = []
    if evaluation.missing_topics:
        _notes.append(f"qrels topics without run lines: {', '.join(evaluation.missing_topics[:12])}"
                      + (" …" if len(evaluation.missing_topics) > 12 else ""))
    if evaluation.ignored_topics:
        _notes.append(f"run topics without judgments (ignored): {', '.join(evaluation.ignored_topics[:12])}"
                      + (" …" if len(evaluation.ignored_topics) > 12 else ""))
    mo.vstack([
        mo.hstack(
            [
                mo.stat(f"{evaluation.mean[f'ndcg_cut_{k}']:.4f}", label=f"Mean nDCG@{k}"),
                mo.stat(f"{evaluation.mean['ndcg']:.4f}", label="Mean NDCG (whole run)"),
                mo.stat(f"{evaluation.mean[f'unjudged_cut_{k}']:.0%}", label=f"Unjudged in the top {k}"),
                mo.stat(f"{evaluation.num_q}", label="Topics averaged"),
            ],
            justify="start",
            gap=4,
        ),
        mo.md(evaluation.describe()),
        *[mo.md(f"- {_note}") for _note in _notes],
        mo.md("**In trec_eval's format** (`ndcg-eval` prints the same lines):"),
        mo.md(f"```\n{evaluation.to_trec()}```"),
    ])
    return evaluation, k


@app.cell
def _(evaluation, k, mo):
    mo.stop(evaluation is None)
    _table = evaluation.per_topic[["ndcg", f"ndcg_cut_{k}", f"unjudged_cut_{k}"]].round(4).reset_index()
    _table.columns = ["topic", "nDCG (whole run)", f"nDCG@{k}", f"unjudged@{k}"]
    mo.vstack([
        mo.md("**Per topic**"),
        mo.ui.table(_table, selection=None, page_size=10, show_download=False),
    ])
    return


@app.cell
def _(evaluation, k, mo, ncplots, run_choice):
    mo.stop(evaluation is None)
    mo.Html(ncplots.to_svg(ncplots.topic_strips(
        {run_choice.value: evaluation.per_topic[f"ndcg_cut_{k}"].tolist()},
        ylabel=f"nDCG@{k} of one topic",
        title="Every topic's score, and their mean",
    )))
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ### One topic, rank by rank

    The per-rank table of one topic, as `ndcg-eval --explain QID` prints it: each retrieved
    document with its label (— when unjudged), gain, discount and running DCG, next to the
    ideal list and the running IDCG. The last nDCG@i is the topic's nDCG@k above.
    """)
    return


@app.cell
def _(evaluation, mo):
    mo.stop(evaluation is None)
    _topics = list(evaluation.per_topic.index)
    topic_dropdown = mo.ui.dropdown(options=_topics, value=_topics[0], label="Topic", searchable=len(_topics) > 20)
    topic_dropdown
    return (topic_dropdown,)


@app.cell
def _(evaluation, k, mo, tables, topic_dropdown, widgets):
    mo.stop(evaluation is None or topic_dropdown.value is None)
    try:
        _table = evaluation.explain(topic_dropdown.value, k)
        _shown_columns = ["rank", "doc_id", "label", "gain", "discount", "dcg", "ideal_label", "idcg", "ndcg"]
        _table = _table[_shown_columns]
        _table.columns = ["rank", "document", "label", "g(ℓ)", "d(i)", "DCG@i", "ideal label", "IDCG@i", "nDCG@i"]
        _value = evaluation.per_topic.loc[topic_dropdown.value, f"ndcg_cut_{k}"]
        _shown = mo.vstack([
            mo.md(f"Topic **{topic_dropdown.value}**: nDCG@{k} = **{_value:.4f}**"),
            mo.md(tables.markdown_table(_table.set_index("rank")))
            if len(_table) <= 30
            else mo.ui.table(_table.round(4), selection=None, page_size=20, show_download=False),
        ])
    except (TypeError, ValueError) as _err:
        _shown = widgets.error_callout(_err)
    _shown
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## What to remember

    - A qrels line is `QID ITER DOCID REL`, a run line `QID Q0 DOCID RANK SCORE RUN`. The
      ranking comes from the scores; the rank column is ignored.
    - Tied scores are ordered by a rule, and tools use different rules: trec_eval sorts the
      tied documents by id, descending. The same file can give different nDCG in different
      tools, and the ideal list may differ too.
    - The mean over topics depends on which topics count: the default keeps only topics in
      both files; `-c` scores missing ones as 0. Report the number of topics.
    - State the configuration with every result: gain, discount, cutoff, unjudged
      documents, ideal list, averaging. `ndcg-eval` and this notebook print it for you.
    - To understand one topic's number, read its per-rank table.
    """)
    return


@app.cell(hide_code=True)
def _(widgets):
    widgets.check_yourself("Five exercises on evaluating runs.")
    return


@app.cell
def _(widgets):
    chapter_answers = widgets.answer_boxes(("runs-ndcg-cut", "runs-tiebreak", "runs-average", "runs-config", "runs-negative-label"))
    return (chapter_answers,)


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "runs-ndcg-cut")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "runs-tiebreak")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "runs-average")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "runs-config")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "runs-negative-label")
    return


if __name__ == "__main__":
    app.run()
