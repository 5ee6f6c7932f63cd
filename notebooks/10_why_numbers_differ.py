# /// script
# requires-python = ">=3.11"
# dependencies = ["marimo", "ndcg-lab"]
# [tool.marimo.opengraph]
# title = "10 · Why do two nDCG numbers differ?"
# description = "Upload qrels and a run, type the number another tool printed, and find the convention that explains it, topic by topic"
# ///

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _():
    import marimo as mo
    import ndcg_core as nc
    import pandas as pd
    from ndcg_core.trec import conventions as ncconv
    from ndcg_core.teaching import toy as nctoy
    from ndcg_core.ui import tables, widgets
    return mo, nc, ncconv, nctoy, pd, tables, widgets


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    # 10 · Why do two nDCG numbers differ?

    Your run scores **0.79** in one tool and **0.83** in another. Neither tool is broken:
    "nDCG@10" is not one formula but a family, and tools pick different members. This page
    names the choices, one at a time, and then does the detective work for you: upload your
    qrels and run, type the number the other tool printed, and it finds which choices
    reproduce that number and explains, topic by topic, where the difference comes from.

    The reference point throughout is **trec_eval** (`ndcg_cut.k`), which pytrec_eval and
    ir_measures run too and which `ndcg-eval` matches to the last digit.
    """)
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## 1. The gain: what a label is worth

    trec_eval, pytrec_eval, ir_measures and scikit-learn add the label itself,
    $g(\ell) = \ell$. The TREC Web track's `gdeval`, ranx's `ndcg_burges` and many
    learning-to-rank libraries use the exponential gain $g(\ell) = 2^{\ell} - 1$.

    The two agree on labels 0 and 1 and part from label 2 on: a label-3 document is worth
    3 or 7. So if your qrels hold only 0 and 1, the gain cannot explain your difference.
    """)
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## 2. The discount: how much a rank costs

    The usual discount at rank $i$ (counted from 1) is $1/\log_2(i+1)$: rank 1 is not
    discounted, rank 2 is worth 0.63, rank 3 half. Code that counts ranks from 0 writes the
    same thing as $1/\log_2(i+2)$; code that mixes the two conventions discounts *every*
    rank one step too much. The 2002 original by Järvelin and Kekäläinen leaves rank 1
    alone and uses $1/\log_2(i)$ from rank 2 on.

    The base of the logarithm is **not** a difference: it cancels out of nDCG (it only
    scales DCG).

    **The tool's version can be the difference.** trec_eval itself changed. In the
    `m_ndcg.c` of its 9.0 rewrite (2008, in the history of github.com/usnistgov/trec_eval)
    the loop over 0-based positions $i$ adds the gain itself at $i = 0$ and
    $\text{gain}/\log_2(i+1)$ after that: ranks 1 **and** 2 are undiscounted, rank
    $r \ge 2$ gets $1/\log_2 r$, which is the Järvelin–Kekäläinen discount with base 2.
    trec_eval 10.0 divides by $\log_2(i+2)$, the usual $1/\log_2(r+1)$. Its changelog does not say in which release
    the code changed, so an nDCG from an older paper is comparable with today's only if the
    trec_eval version is known.
    """)
    return


@app.cell
def _(mo, nc):
    _today = nc.ndcg([1, 0, 2, 1, 0], 5, judgments=[2, 1, 1])
    _old = nc.ndcg([1, 0, 2, 1, 0], 5, judgments=[2, 1, 1], discount="jarvelin_kekalainen", base=2)
    mo.md(
        f"On the lecture example (1, 0, 2, 1, 0; judged 2, 1, 1) nDCG@5 is **{_today:.4f}** with "
        f"today's discount and **{_old:.4f}** with the old trec_eval's "
        "(`discount=\"jarvelin_kekalainen\", base=2` in `ndcg_core`)."
    )
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## 3. The ideal list: normalised by what?

    $\mathrm{nDCG}@k = \mathrm{DCG}@k / \mathrm{IDCG}@k$, where IDCG is the DCG of the best
    possible ranking. trec_eval builds that ranking from **every judged document** of the
    topic, including the relevant ones your run never found.

    scikit-learn's `ndcg_score` only sees the documents you hand it, so when you call it
    per topic with your run's documents the ideal is built from the **retrieved list**: a
    missed relevant document costs nothing, and the number goes up. trec_eval's `-M k -m ndcg`
    does the opposite: the run is cut at $k$ documents, the ideal is not.
    """)
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## 4. Ties: who goes first when scores are equal

    A run orders documents by score. When two scores are equal, the order is a rule:
    trec_eval puts the larger document id first (descending, in byte order; chapter 06
    quotes its source); hand-written code usually keeps the order of the file; ranx sorts
    with NumPy's default `argsort` (`sort_dict_by_value` in `ranx/data_structures/common.py`),
    which is not a stable sort, so tied documents follow no documented rule; trectools'
    order depends on its version; scikit-learn and TorchMetrics give tied documents the
    **mean** of their gains.

    Ties matter only when scores tie, and they tie more often than you think: a run that
    prints scores with one or two decimals, or a model that outputs many equal scores.
    """)
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## 5. Unjudged documents and negative labels

    A document your run retrieved but the qrels never mention is **unjudged**. trec_eval
    gives it gain 0 and leaves it where it is; with `-J` (ir_measures' `judged_only=True`) it
    removes it before ranking, so the judged documents below move up.

    Some collections use **negative labels** (−1, −2) for spam or unreadable pages.
    trec_eval reads them as "in the pool but not judged": gain 0, left out of the ideal list.
    Code that takes the label as it is adds a negative gain instead.
    """)
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## 6. Which topics enter the mean

    A run's nDCG is a mean over topics, and tools average over different sets. trec_eval
    averages over the topics in **both** the qrels and the run: a topic the run skipped
    drops out. `trec_eval -c` and ir_measures average over **every qrels topic**, a missed
    one scoring 0 (ir_measures since terrierteam/ir_measures#17, 2021, which makes a qrels
    topic missing from the run score 0). A loop over the run's topics (the way scikit-learn is usually applied)
    averages over the **run's topics**, scoring one without judgments 0.

    The same per-topic numbers, three different means: always report the topic count.
    """)
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## 7. The cutoff, off by one

    nDCG@10 adds the first ten ranks. A loop that stops one rank early or late, or a slice
    written with the wrong end, gives nDCG@9 or nDCG@11 under the name nDCG@10. And
    trec_eval's `ndcg` (without `_cut`) scores the whole run, not the top 10.

    ## How this page finds the difference

    The library scores your run under every combination of these choices: 2 gains ×
    3 discounts × 4 ideal lists × 4 tie rules × 5 ways with unjudged and negative labels ×
    3 topic sets × 4 cutoffs, **5,760 configurations** for one $k$. It keeps those that
    round to the number you typed at its printed decimals; per-topic values pin the
    choice down much more than a mean does. It never guesses a formula it was not given: if
    nothing matches, it says so and shows the nearest configurations.
    """)
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Your qrels and run

    Start with the toy collection (ten topics; the *tuned* run prints one decimal, so its
    scores tie), or upload your own files: at most 20 MB each, read in memory, never from
    the server's disk. For larger files, `ndcg-eval --match 0.4312 QRELS RUN` does the same
    search on the command line.
    """)
    return


@app.cell
def _(mo, widgets):
    MAX_CUTOFF = 1000  # deeper: tick "No cutoff" (the whole run)
    qrels_upload = widgets.file_upload("Upload qrels")
    run_upload = widgets.file_upload("Upload run")
    qrels_choice = mo.ui.dropdown(
        options=["toy: full truth", "toy: pooled qrels", "uploaded qrels"], value="toy: full truth", label="Qrels"
    )
    run_choice = mo.ui.dropdown(
        options=["toy: classic", "toy: tuned", "toy: novel", "uploaded run"], value="toy: tuned", label="Run"
    )
    # no start/stop: the browser would clamp 0 to 1 and 100000 to 1,000 without a word; the
    # cell below says what is wrong with a cutoff instead
    cutoff_number = mo.ui.number(step=1, value=10, label="Cutoff k")
    whole_checkbox = mo.ui.checkbox(value=False, label="No cutoff: nDCG of the whole run (trec_eval's ndcg)")
    mo.vstack([
        mo.hstack([qrels_choice, qrels_upload], justify="start", gap=2),
        mo.hstack([run_choice, run_upload], justify="start", gap=2),
        mo.hstack([cutoff_number, whole_checkbox], justify="start", gap=2),
    ])
    return MAX_CUTOFF, cutoff_number, qrels_choice, qrels_upload, run_choice, run_upload, whole_checkbox


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
def _(mo, nc, qrels_choice, qrels_upload, run_choice, run_upload, toy, toy_error, widgets):
    chosen_qrels = chosen_run = load_problem = None
    if qrels_choice.value == "uploaded qrels":
        chosen_qrels, load_problem = widgets.read_upload(qrels_upload, nc.read_qrels, what="qrels")
    elif toy is None:
        load_problem = toy_error
    else:
        chosen_qrels = toy.qrels_full if qrels_choice.value == "toy: full truth" else toy.qrels
    if load_problem is None:
        if run_choice.value == "uploaded run":
            chosen_run, load_problem = widgets.read_upload(run_upload, nc.read_run, what="run")
        elif toy is None:
            load_problem = toy_error
        else:
            chosen_run = toy.runs[run_choice.value.split(": ")[1]]
    if load_problem is not None:
        chosen_qrels = chosen_run = None
    mo.stop(load_problem is not None, load_problem)
    _unused = [
        f"You uploaded {_upload.name()}: choose **uploaded {_what}** in {_what.capitalize()} to use it."
        for _upload, _choice, _what in ((qrels_upload, qrels_choice, "qrels"), (run_upload, run_choice, "run"))
        if _upload.value and not _choice.value.startswith("uploaded")
    ]
    mo.md(
        f"Read **{qrels_choice.value}** ({len(chosen_qrels):,} judgments, "
        f"{chosen_qrels['query_id'].nunique():,} topics) and **{run_choice.value}** "
        f"({len(chosen_run):,} lines, {chosen_run['query_id'].nunique():,} topics). " + " ".join(_unused)
    )
    return chosen_qrels, chosen_run


@app.cell
def _(MAX_CUTOFF, cutoff_number, mo, whole_checkbox):
    if whole_checkbox.value:
        k, k_problem = None, None
    elif (cutoff_number.value is None or float(cutoff_number.value) != int(cutoff_number.value)
          or not 1 <= cutoff_number.value <= MAX_CUTOFF):
        _got = "nothing" if cutoff_number.value is None else f"{cutoff_number.value:g}"
        _fix = ("Type a whole number of ranks, e.g. 10." if cutoff_number.value is None
                or float(cutoff_number.value) != int(cutoff_number.value) else
                "A cutoff counts ranks, so it starts at 1: type 1 or more." if cutoff_number.value < 1 else
                f"For a cutoff deeper than {MAX_CUTOFF:,}, tick *No cutoff* (nDCG of the whole run).")
        k, k_problem = None, mo.callout(
            mo.md(f"Cutoff k must be a whole number of ranks from 1 to {MAX_CUTOFF}; got {_got}. {_fix}"),
            kind="warn",
        )
    else:
        k, k_problem = int(cutoff_number.value), None
    measure = "nDCG (whole run)" if k is None else f"nDCG@{k}"
    return k, k_problem, measure


@app.cell
def _(chosen_qrels, chosen_run, k, k_problem, mo, nc, widgets):
    mo.stop(chosen_qrels is None or chosen_run is None)
    mo.stop(k_problem is not None, k_problem)
    try:
        scores = nc.trec.score_conventions(chosen_qrels, chosen_run, k)
        scores_problem = None
    except (TypeError, ValueError) as _err:
        scores, scores_problem = None, widgets.error_callout(_err)
    mo.stop(scores is None, scores_problem)
    return (scores,)


@app.cell
def _(k, measure, mo, ncconv, pd, scores, tables):
    _rows = []
    for _preset in ncconv.PRESETS.values():
        _conv = _preset.convention
        _rows.append({
            "tool": _preset.name,
            measure: scores.mean(_conv),
            "how it differs from trec_eval": "; ".join(
                ncconv.describe_value(_d, getattr(_conv, _d), k) for _d in _conv.differences(ncconv.TREC_EVAL)
            ) or "—",
            "checked": "against the tool" if _preset.verified else "from its source code",
        })
    _table = pd.DataFrame(_rows).set_index("tool")
    mo.vstack([
        mo.md(f"**What each tool would print for this run** ({measure}, the mean as each tool takes it):"),
        mo.md(tables.markdown_table(_table).replace("| --- ", "| :--- ")),
    ])
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## The number your other tool printed

    Type it as printed (`0.4312`; `0,4312` works too): its decimals set how close a
    configuration must come. Or paste the tool's per-topic values, one topic a line, as
    `trec_eval -q` prints them (`ndcg_cut_10  101  0.4312`), as ir_measures prints them
    (`101  nDCG@10  0.4312`) or as `qid,value` lines (a line `all,0.4312` for the mean).
    Click outside the box to apply it.

    No second tool at hand? Pick one below and press the button: the page computes what
    that tool would print for this run (through the library, the way the table above does),
    fills it in, and shows that the search finds the tool again.
    """)
    return


@app.cell
def _(mo):
    get_target, set_target = mo.state("")
    return get_target, set_target


@app.cell
def _(get_target, mo, set_target):
    target_text = mo.ui.text_area(
        value=get_target(),
        label="What the other tool printed",
        placeholder="0.4312, or one topic a line: ndcg_cut_10  101  0.4312",
        full_width=True,
        rows=4,
        on_change=set_target,
    )
    target_text
    return (target_text,)


@app.cell
def _(mo, ncconv):
    tool_dropdown = mo.ui.dropdown(options=list(ncconv.PRESETS), value="scikit-learn", label="Tool")
    per_topic_checkbox = mo.ui.checkbox(value=False, label="per topic (qid,value lines)")
    return per_topic_checkbox, tool_dropdown


@app.cell
def _(mo, ncconv, per_topic_checkbox, scores, set_target, tool_dropdown):
    _convention = ncconv.PRESETS[tool_dropdown.value].convention
    _mean = f"{scores.mean(_convention):.4f}"
    if per_topic_checkbox.value:
        _lines = [f"{_q},{_v:.4f}" for _q, _v in scores.per_topic(_convention).items()]
        _printed = "\n".join([*_lines, f"all,{_mean}"])
    else:
        _printed = _mean
    show_button = mo.ui.button(
        label=f"Show me what {tool_dropdown.value} would print for this run",
        on_click=lambda _count, printed=_printed: set_target(printed),  # bound now: marimo deletes a cell's _names after its run
    )
    mo.hstack([tool_dropdown, per_topic_checkbox, show_button], justify="start", align="center", gap=2)
    return


@app.cell
def _(chosen_qrels, chosen_run, measure, mo, nc, ncconv, scores, target_text, widgets):
    _k = scores.k  # a target is matched at the cutoff the tools' table was made for
    _typed = target_text.value.strip()
    mo.stop(
        not _typed,
        mo.callout(mo.md("Type the number your other tool printed above, or press **Show me what … would print**."),
                   kind="info"),
    )
    found = found_problem = None
    try:
        _target = nc.trec.read_target(_typed, k=_k, paths=False)
        _outside = [(_q, _v) for _q, _v in ([("the mean", _target.mean)] if _target.mean is not None else [])
                    + list(_target.per_topic.items()) if _v < 0]  # above 1: the matcher says 'divide by 100'
        if _outside:
            _q, _v = _outside[0]
            _where = _q if _q == "the mean" else f"topic {_q}"
            raise ValueError(
                f"nDCG lies between 0 and 1, so {_v:g} ({_where}) cannot be an nDCG value. Paste the "
                "nDCG the other tool printed (not a difference, a rank or a percentage)."
            )
        if _target.measure is not None and _target.k != _k:
            raise ValueError(
                f"the pasted values are {_target.measure}, but the cutoff above asks for {measure}: "
                "set Cutoff k (or No cutoff) to the pasted measure, or paste the values of this one."
            )
        found = nc.trec.reconcile(chosen_qrels, chosen_run, _target, k=_k)
    except (TypeError, ValueError) as _err:
        found_problem = widgets.error_callout(_err, lead="**Cannot read what you typed:**")
    mo.stop(found is None, found_problem)
    _changes = [
        ncconv.describe_value(_d, getattr(found.best, _d), _k)
        for _d in found.best.differences(ncconv.TREC_EVAL, topics=found.target.mean is not None)
    ]
    _how = "trec_eval's own convention" if not _changes else "trec_eval's convention with " + " and ".join(_changes)
    _tools = found.matches["presets"].iloc[0] if found.matched else ""
    if found.matched:
        _verdict = mo.callout(
            mo.md(f"**It matches:** {found.target.describe()} is {measure} under {_how}"
                  + (f" (as {_tools} compute it)." if _tools else ".")),
            kind="success",
        )
    else:
        _verdict = mo.callout(
            mo.md(f"**Nothing matches** {found.target.describe()}; the nearest is {_how}."),
            kind="warn",
        )
    mo.vstack([_verdict, mo.md(found.markdown())])
    return (found,)


@app.cell
def _(found, k, mo, ncconv, tables):
    _table = found.table(10).copy()
    _columns = list(ncconv.DIMENSIONS)
    if found.target.mean is not None:
        _columns.append("value")
    _table = _table[[*_columns, "distance", "mismatched", "match", "presets"]]
    _legend = "; ".join(
        f"{_d} *{_v}*: {ncconv.describe_value(_d, _v, k)}"
        for _d in ncconv.DIMENSIONS
        for _v in dict.fromkeys(_table[_d])
        if _v != getattr(ncconv.TREC_EVAL, _d) and _v != "listed"
    )
    _legend = "Values that are not trec_eval's: " + (_legend or "none") + "."
    _table["match"] = _table["match"].map({True: "yes", False: "no"})
    _table = _table.rename(columns={"value": "mean", "mismatched": "topics off", "presets": "tools"})
    _table.index = range(1, len(_table) + 1)
    mo.vstack([
        mo.md(
            "**The candidates**, best first: matches (a named tool first, then the fewest changes from "
            "trec_eval), then the nearest misses. *distance* is the largest difference from what you typed; "
            "*topics off* counts the pasted topics that do not round to their value."
        ),
        mo.md(tables.markdown_table(_table.rename_axis("#"), 6).replace("| --- ", "| :--- ")),
        mo.md(_legend),
    ])
    return


@app.cell
def _(found, mo, tables):
    _table = found.topic_table().rename(
        columns={"query_id": "topic", "convention": "this configuration", "change": "change", "reason": "why"}
    )
    _shown = (
        mo.md(tables.markdown_table(_table.set_index("topic")).replace("| --- ", "| :--- "))
        if len(_table) <= 30
        else mo.ui.table(_table.round(4), selection=None, page_size=15, show_download=False)
    )
    mo.vstack([
        mo.md(
            "**Topic by topic**: trec_eval's value, the best configuration's value and why they differ, "
            "largest change first (*target* is the value you pasted for the topic)."
        ),
        _shown,
    ])
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## What to remember

    - Two nDCG numbers for the same run differ because the tools made different choices,
      not because one of them is wrong: gain, discount, ideal list, tie rule, unjudged and
      negative labels, the topics in the mean, the cutoff.
    - The ideal list and the topic set move numbers the most; ties and negative labels only
      where your data has them.
    - Per-topic values identify a convention far better than one mean: ask the other tool
      for them (`trec_eval -q`, ir_measures' `iter_calc`).
    - Report nDCG with its configuration and its topic count, so nobody has to reconcile
      your number.
    """)
    return


if __name__ == "__main__":
    app.run()
