# /// script
# requires-python = ">=3.11"
# dependencies = ["marimo", "ndcg-lab"]
# [tool.marimo.opengraph]
# title = "03 · Discounts"
# description = "How fast a rank loses worth: five discounts side by side; why the log base cancels"
# ///

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _():
    import math

    import marimo as mo
    import ndcg_core as nc
    from ndcg_core.teaching import claims, compare
    import ndcg_core.ui.plots as ncplots
    from ndcg_core.ui import tables, widgets
    import pandas as pd
    return claims, compare, math, mo, nc, ncplots, pd, tables, widgets


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    # 03 · Discounts: how fast a rank loses worth

    The second decision inside nDCG: how much less a document counts because it sits lower
    in the ranking. A **discount** $d(i)$ multiplies the gain of the document at rank $i$:

    $$\mathrm{DCG}@k = \sum_{i=1}^{k} g(\ell_i)\, d(i)$$
    """)
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## The candidates

    | name | discount $d(i)$ |
    | --- | --- |
    | standard (the lecture's) | $1/\log_2(i+1)$ |
    | shifted | $1/\log_2(i+2)$ |
    | reciprocal | $1/i$ |
    | Järvelin–Kekäläinen, base $b$ | $1$ for $i < b$, then $1/\log_b(i)$ |
    | none (plain CG) | $1$ |

    The standard discount leaves rank 1 at full gain ($\log_2 2 = 1$), keeps about 0.63 at
    rank 2, 0.39 at rank 5, 0.29 at rank 10 and still 0.15 at rank 100: steep at the top,
    flat in the tail.
    """)
    return


@app.cell
def _(compare, mo, nc, tables):
    DISCOUNT_COLUMNS = {
        "1/log2(i+1)": "log2",
        "1/log2(i+2)": "log2_shifted",
        "1/i": "reciprocal",
        "JK b=2": nc.resolve_discount("jarvelin_kekalainen", base=2),
        "none": "none",
    }
    mo.vstack([
        mo.md("**The discount at ranks 1, 2, 5, 10 and 100**"),
        mo.md(tables.markdown_table(compare.discount_values((1, 2, 5, 10, 100), DISCOUNT_COLUMNS), 2)),
    ])
    return (DISCOUNT_COLUMNS,)


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Try them on a list

    Choose a discount and a cutoff. The list starts as the lecture example, which holds
    every judged document of its query (labels 2, 1, 1), so the ideal list is built from it.
    """)
    return


@app.cell
def _(mo, widgets):
    labels_text = widgets.labels_input("1, 0, 2, 1, 0")
    discount_dropdown = widgets.discount_dropdown(
        "log2", names=("log2", "log2_shifted", "reciprocal", "jarvelin_kekalainen", "none")
    )
    k_slider = mo.ui.slider(1, 10, value=5, label="k", show_value=True)
    jk_base_slider = mo.ui.slider(
        steps=[2, 3, 4, 5, 10], value=2, label="Järvelin–Kekäläinen base b", show_value=True
    )
    mo.vstack([labels_text, mo.hstack([discount_dropdown, k_slider, jk_base_slider], justify="start", gap=2)])
    return discount_dropdown, jk_base_slider, k_slider, labels_text


@app.cell
def _(compare, discount_dropdown, jk_base_slider, k_slider, labels_text, mo, nc, widgets):
    discount_base = jk_base_slider.value if discount_dropdown.value == "jarvelin_kekalainen" else None
    try:
        _labels = nc.parse_labels(labels_text.value)
        _config = nc.NDCGConfig(discount=discount_dropdown.value, base=discount_base, k=k_slider.value)
        _scored = _config.score(_labels, compare.judged_labels(_labels))
    except (TypeError, ValueError) as _err:
        _view = widgets.error_callout(_err)
    else:
        _k = k_slider.value
        _view = mo.vstack([
            mo.hstack(
                [
                    mo.stat(f"{_scored.dcg:.4f}", label=f"DCG@{_k}"),
                    mo.stat(f"{_scored.idcg:.4f}", label=f"IDCG@{_k}"),
                    mo.stat(f"{_scored.ndcg:.4f}", label=f"nDCG@{_k}"),
                ],
                justify="start",
                gap=4,
            ),
            mo.md(_config.describe()),
        ])
    _view
    return (discount_base,)


@app.cell
def _(discount_base, discount_dropdown, k_slider, mo, ncplots):
    mo.Html(ncplots.to_svg(ncplots.discount_curves(
        discount_dropdown.value, base=discount_base, k=k_slider.value, max_rank=20
    )))
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Why a logarithm

    1. **Never negative.** $1/\log_2(i+1)$ stays above zero at every rank, however long
       the list, so a deep document can add little but never subtract.
    2. **It fades slowly.** The logarithm grows slowly, so its reciprocal shrinks slowly:
       rank 100 still keeps 0.15 of its gain, and the deep tail counts for something.
       The essay contrasts this with average precision, "where a document at rank 100
       contributes almost nothing". Precisely: AP adds, for each relevant document it
       finds, the precision at that rank divided by the number $R$ of relevant documents,
       so a relevant document at rank 100 adds $(\text{relevant in the top }100)/(100R)$:
       little unless many relevant documents rank above it. The table below moves one
       relevant document from rank 10 to rank 100 and compares what each measure loses.
    3. **Smooth, decreasing and convex.** Every step down costs a little less than the one
       before, without jumps, so no handful of positions dominates the score. The essay
       calls the discount "concave"; as a function of the rank, $1/\log_2(i+1)$ is
       decreasing and **convex** (its steps shrink). What is concave is $\log_2(i+1)$
       itself and the cumulative discount $\sum_{j \le i} 1/\log_2(j+1)$, which grows
       ever more slowly.

    How much of the total weight of ranks 1 to 100 sits in the top 10?
    """)
    return


@app.cell
def _(DISCOUNT_COLUMNS, claims, compare, mo, pd, tables):
    _shares = pd.DataFrame(
        {"share in ranks 1–10": [compare.weight_share(_d, 100, 10) for _d in DISCOUNT_COLUMNS.values()]},
        index=pd.Index(list(DISCOUNT_COLUMNS), name="discount"),
    )
    _moved = claims.rank_move(10, 100, others=())
    _with_top = claims.rank_move(10, 100, others=(1,))
    mo.vstack([
        mo.md(tables.markdown_table(_shares, 3)),
        mo.md("**One relevant document (label 1) moves from rank 10 to rank 100**, the only relevant one:"),
        mo.md(tables.markdown_table(_moved, 4)),
        mo.md(
            f"AP loses {_moved.loc['AP', 'lost']:.0%} of its value, as much as DCG with 1/i "
            f"({_moved.loc['DCG, 1/i', 'lost']:.0%}); DCG with the logarithm loses "
            f"{_moved.loc['DCG, 1/log2(i+1)', 'lost']:.0%}. With a second relevant document "
            f"fixed at rank 1, AP loses {_with_top.loc['AP', 'lost']:.0%} and the logarithmic "
            f"DCG {_with_top.loc['DCG, 1/log2(i+1)', 'lost']:.0%}. Chapter 09 puts these "
            "measures side by side on a list you edit."
        ),
    ])
    return


@app.cell
def _(mo, ncplots):
    mo.Html(ncplots.to_svg(ncplots.weight_share_curves(
        {"1/log2(i+1)": "log2", "1/log2(i+2)": "log2_shifted", "1/i": "reciprocal", "none": "none"}, 100, 10
    )))
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## The shifted variant: same input, two right answers

    The bounded-loss variant $1/\log_2(i+2)$ moves the whole curve one rank to the right:
    rank 1 keeps only $1/\log_2 3 \approx 0.63$. Today's common evaluation tools (trec_eval
    10, scikit-learn, ranx) use $1/\log_2(i+1)$; older trec_eval releases left ranks 1 and 2
    undiscounted (chapter 10 shows the code). Code that uses the shifted form, and does not
    say so, reports different numbers for identical input, and both are internally
    consistent.

    Careful with code: the exam's short implementation writes `log2(i + 2)`, but its `i`
    counts from 0, so rank $i+1$ gets $\log_2((i+1)+1)$: that is the **standard** discount.
    The shifted one is $\log_2(\text{rank}+2)$.
    """)
    return


@app.cell
def _(compare, mo, nc, tables):
    LECTURE = [1, 0, 2, 1, 0]
    LECTURE_JUDGMENTS = [2, 1, 1]
    _configs = {
        "1/log2(i+1)": nc.NDCGConfig(k=5),
        "1/log2(i+2)": nc.NDCGConfig(k=5, discount="log2_shifted"),
    }
    _table = compare.score_configs(LECTURE, _configs, judgments=LECTURE_JUDGMENTS)
    _steps = compare.discount_values((1, 2), {"1/log2(i+1)": "log2", "1/log2(i+2)": "log2_shifted"})
    _curves = {_name: nc.ndcg_curve(LECTURE, judgments=LECTURE_JUDGMENTS, discount=_d)
               for _name, _d in (("1/log2(i+1)", "log2"), ("1/log2(i+2)", "log2_shifted"))}
    _jump = {_name: max(abs(_b - _a) for _a, _b in zip(_c, _c[1:])) for _name, _c in _curves.items()}
    _drop = {_name: float(_steps.loc[1, _name] - _steps.loc[2, _name]) for _name in _curves}
    mo.vstack([
        mo.md("**The lecture example (1, 0, 2, 1, 0; judged 2, 1, 1) at k = 5**"),
        mo.md(tables.markdown_table(_table[["dcg", "idcg", "ndcg"]])),
        mo.md(
            "**Across cutoffs.** The essay says the shifted discount lets a list be compared "
            "across cutoffs \"more naturally\". What holds: the shifted curve is flatter at the "
            f"top, so moving a document from rank 1 to rank 2 costs it {_drop['1/log2(i+2)']:.4f} of "
            f"its gain instead of {_drop['1/log2(i+1)']:.4f} (the \"bounded loss\"). What does not "
            "follow: nDCG stays non-monotone in k under both discounts, and on this list the "
            f"largest change of nDCG from one cutoff to the next is {_jump['1/log2(i+2)']:.4f} with "
            f"the shifted discount against {_jump['1/log2(i+1)']:.4f} with the standard one. So "
            "compare nDCG values only at one stated cutoff, whichever discount you use."
        ),
    ])
    return LECTURE, LECTURE_JUDGMENTS


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## The reciprocal discount: a reader who may stop at any rank

    $1/i$ halves the weight by rank 2 and keeps a tenth at rank 10. It fits a reader who
    reaches rank $i$ with probability $1/i$: rank 1 always, rank 2 half the time, rank 10 one
    time in ten, so each rank counts by the chance that it is seen. The essay's reader, who
    reads a fixed, small number $n$ of results and ignores the rest, is a different
    discount: a **step**, 1 up to rank $n$ and 0 after it, which gives CG@$n$ (with binary
    labels, $n$ times P@$n$). $1/i$ decays much faster than
    the logarithm: of the weight of ranks 1 to 100, more than half sits in ranks 1 to 10
    (see the table above), against about a fifth for the logarithm.

    The essay says $1/i$ gives the measure "the character of average precision". The
    precise part: AP weighs the **first** relevant document it finds exactly like $1/i$
    (found at rank $i$, it adds $1/(iR)$), and the table above shows AP and DCG with $1/i$
    losing the same share when a lone relevant document sinks. Beyond the first one they
    differ: AP's weight for a later relevant document is (relevant documents so far)$/i$,
    so it grows with what was found above; and AP sees only relevant or not.
    """)
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## The log base cancels in nDCG, not in DCG

    Changing the base of the logarithm multiplies every discount by the same number:

    $$\frac{1}{\log_b(i+1)} = \frac{\log_2 b}{\log_2(i+1)}$$

    DCG and IDCG are both multiplied by $\log_2 b$, so DCG changes and their ratio, nDCG,
    does not. A DCG reported without its base cannot be compared with another DCG; an nDCG
    can (for this discount).

    The Järvelin–Kekäläinen discount is different: ranks before $b$ keep the factor 1, which
    the base does not scale, so there the base changes nDCG too.
    """)
    return


@app.cell
def _(math, mo):
    log_base_dropdown = mo.ui.dropdown(
        options={"2": 2.0, "e ≈ 2.718": math.e, "3": 3.0, "10": 10.0},
        value="10",
        label="Log base",
    )
    log_base_dropdown
    return (log_base_dropdown,)


@app.cell
def _(LECTURE, LECTURE_JUDGMENTS, compare, log_base_dropdown, math, mo, nc, tables):
    _b = log_base_dropdown.value
    _configs = {
        "1/log2(i+1)": nc.NDCGConfig(k=5),
        "1/log_b(i+1)": nc.NDCGConfig(k=5, discount="log", base=_b),
        "JK base 2": nc.NDCGConfig(k=5, discount="jarvelin_kekalainen", base=2),
        "JK base b": nc.NDCGConfig(k=5, discount="jarvelin_kekalainen", base=_b),
    }
    _table = compare.score_configs(LECTURE, _configs, judgments=LECTURE_JUDGMENTS)
    _ratio = _table.loc["1/log_b(i+1)", "dcg"] / _table.loc["1/log2(i+1)", "dcg"]
    mo.vstack([
        mo.md(f"**The lecture example at k = 5, base b = {log_base_dropdown.selected_key}**"),
        mo.md(tables.markdown_table(_table[["dcg", "idcg", "ndcg"]])),
        mo.md(
            f"DCG with base b is {_ratio:.4f} times DCG with base 2, and "
            f"$\\log_2 b = {math.log2(_b):.4f}$; nDCG stays at {_table.loc['1/log_b(i+1)', 'ndcg']:.4f}."
        ),
        mo.md(
            "The Järvelin–Kekäläinen discount with this base at ranks 1 to 5 (a factor 1 is not "
            "scaled by the base; if all five are 1, it is plain CG here, which ignores the order):"
        ),
        mo.md(tables.markdown_table(compare.discount_values(
            [1, 2, 3, 4, 5], {"JK base b": nc.resolve_discount("jarvelin_kekalainen", base=_b)}
        ).T)),
    ])
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## What to remember

    - The discount decides how much a document counts at rank $i$. The standard one,
      $1/\log_2(i+1)$, gives 1, 0.63, 0.39, 0.29, 0.15 at ranks 1, 2, 5, 10, 100.
    - A logarithm is never negative, fades slowly so the deep ranks still count, and is
      smooth: $1/\log_2(i+1)$ is decreasing and convex (the cumulative discount is the
      concave one).
    - The shifted $1/\log_2(i+2)$ and the standard discount give different numbers on the
      same input; both are "nDCG". Say which one you used.
    - $1/i$ concentrates the weight in the first ranks: a reader who reaches rank $i$ with
      probability $1/i$. A reader who always reads exactly $n$ results is the step discount
      (CG@$n$, P@$n$). AP weighs its first relevant document like $1/i$ (divided by R).
    - The log base cancels in nDCG but not in DCG (not for Järvelin–Kekäläinen either).
    - Without a discount you get CG, which ignores the order of the list.
    """)
    return


@app.cell(hide_code=True)
def _(widgets):
    widgets.check_yourself("Six exercises on discounts.")
    return


@app.cell
def _(widgets):
    chapter_answers = widgets.answer_boxes(("discounts-shifted-dcg", "discounts-reciprocal-dcg", "discounts-jk-dcg", "discounts-base-cancel", "discounts-convex", "discounts-tail-ap"))
    return (chapter_answers,)


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "discounts-shifted-dcg")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "discounts-reciprocal-dcg")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "discounts-jk-dcg")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "discounts-base-cancel")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "discounts-convex")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "discounts-tail-ap")
    return


if __name__ == "__main__":
    app.run()
