# /// script
# requires-python = ">=3.11"
# dependencies = ["marimo", "ndcg-lab"]
# [tool.marimo.opengraph]
# title = "13 · Is run B really better?"
# description = "Per-topic differences, paired tests and confidence intervals: when a gain in mean nDCG is real, when it is noise, and the many-comparisons trap"
# ///

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _():
    import marimo as mo
    import ndcg_core as nc
    from ndcg_core.trec import significance as ncsig
    from ndcg_core.teaching import significance_demo as ncdemo
    import ndcg_core.ui.plots as ncplots
    from ndcg_core.ui import widgets
    return mo, nc, ncdemo, ncplots, ncsig, widgets


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    # 13 · Is run B really better? Differences, tests and intervals

    Chapter 06 ranks runs by their **mean** nDCG over the topics. But the mean hides the
    topics: run B can beat run A on average because it is better, or because it was lucky on
    a few topics. This chapter looks at the **per-topic differences**, asks how often chance
    alone would produce a difference this large (a **p-value**), and how far the true
    difference could be from the one measured (a **confidence interval**).

    Why topics vary so much: normalisation does not make topics comparable. A topic with one
    top-graded document loses a fixed share of its nDCG for each position that document
    drops; a topic with fifty relevant documents can afford delays. So per-topic nDCG
    spreads widely, and a 0.02 gain in the mean can be noise.
    """)
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Two runs, topic by topic

    Pick two runs of the toy collection (ten topics), or upload qrels and two runs of your
    own (all three files). Both runs are scored with the same measure, exactly as
    `ndcg-eval` scores them; a topic one run has no lines for scores 0 there, as trec_eval's
    `-c` does.
    """)
    return


@app.cell
def _(mo, widgets):
    measure_dropdown = mo.ui.dropdown(
        {"nDCG (whole run)": "ndcg", "nDCG@10": "ndcg_cut.10", "nDCG@5": "ndcg_cut.5"},
        value="nDCG@10", label="Measure",
    )
    baseline_dropdown = mo.ui.dropdown(["classic", "novel", "tuned"], value="classic", label="Run A (the baseline)")
    other_dropdown = mo.ui.dropdown(["classic", "novel", "tuned"], value="tuned", label="Run B")
    qrels_upload = widgets.file_upload("Your qrels")
    run_a_upload = widgets.file_upload("Your run A")
    run_b_upload = widgets.file_upload("Your run B")
    mo.vstack([
        mo.hstack([measure_dropdown, baseline_dropdown, other_dropdown], justify="start", gap=2),
        mo.md("Or upload your own:"),
        mo.hstack([qrels_upload, run_a_upload, run_b_upload], justify="start", gap=1),
    ])
    return baseline_dropdown, measure_dropdown, other_dropdown, qrels_upload, run_a_upload, run_b_upload


@app.cell
def _(
    baseline_dropdown, measure_dropdown, mo, nc, ncdemo, ncsig, other_dropdown, qrels_upload, run_a_upload,
    run_b_upload, widgets,
):
    pair = None
    _uploaded = any(_u.value for _u in (qrels_upload, run_a_upload, run_b_upload))
    _shown = None
    try:
        if _uploaded:
            _qrels, _e1 = widgets.read_upload(qrels_upload, nc.trec.read_qrels, what="qrels")
            _run_a, _e2 = widgets.read_upload(run_a_upload, nc.trec.read_run, what="run A")
            _run_b, _e3 = widgets.read_upload(run_b_upload, nc.trec.read_run, what="run B")
            _problem = _e1 or _e2 or _e3
            _names = (run_a_upload.name() or "A", run_b_upload.name() or "B")
            if _names[0] == _names[1]:
                _names = (f"A: {_names[0]}", f"B: {_names[1]}")
        else:
            _problem = None
        if _problem is not None:
            _shown = _problem
        else:
            if _uploaded:
                _comparison = ncsig.compare_runs(_qrels, {_names[0]: _run_a, _names[1]: _run_b}, measure_dropdown.value)[0]
            else:  # the toy collection's runs: the same for every learner, computed once per server
                _comparison = ncdemo.toy_comparison(measure_dropdown.value, baseline_dropdown.value, other_dropdown.value)
            pair = _comparison.pairs[0]
            _shown = mo.md(f"{_comparison.describe()}\n\n{ncdemo.summary_markdown(pair)}")
    except (TypeError, ValueError) as _err:
        _shown = widgets.error_callout(_err)
    _shown
    return (pair,)


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    Below, each bar is one topic: B's score minus A's, sorted from B's largest gain to its
    largest loss. The dashed line is the mean difference, the number the two means differ
    by. Few tall bars or many small ones can give the same mean.
    """)
    return


@app.cell
def _(measure_dropdown, mo, ncplots, pair):
    mo.stop(pair is None, mo.md("*Pick two different runs to see their per-topic differences.*"))
    ncplots.difference_bars(
        pair.topics, pair.differences, baseline=pair.baseline, other=pair.other, measure=measure_dropdown.selected_key
    )
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## The randomization test: what if A and B were interchangeable?

    If the two runs were equally good, which of a topic's two scores is called "A" and which
    "B" would be arbitrary: each difference $d_q$ could as well have been $-d_q$. The
    randomization test flips the signs in every possible way ($2^n$ ways for $n$ topics;
    10,000 random ones when there are more than 20 topics), computes the mean difference of
    each, and counts how many land as far from 0 as the observed one, or further. That share
    is the two-sided **p-value**. No formula, no assumption of a bell curve: just the
    relabellings the null hypothesis allows.
    """)
    return


@app.cell
def _(mo, ncplots, ncsig, pair):
    mo.stop(pair is None)
    _test = ncsig.randomization_test(pair.differences, keep_null=True)
    ncplots.randomization_histogram(_test.null, _test.observed, _test.p_value, exact=_test.exact)
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    The paired **t-test** asks the same question with a formula: $t = \bar d / (s_d/\sqrt n)$,
    the mean difference in units of its standard error, compared with Student's t
    distribution with $n-1$ degrees of freedom. The **Wilcoxon signed-rank** test uses only
    the ranks of $|d_q|$ and their signs. On the toy runs the three usually agree; they part
    ways on few topics, or when one topic's difference dwarfs the others.

    ## More topics, a narrower interval

    The **bootstrap interval** resamples the topics with replacement 10,000 times and keeps
    the middle 95 % of the resampled mean differences. It says how far the true mean
    difference could be from the measured one, given how much the topics vary. Below, a
    simulated pair of runs with a true gain of 0.04 (B over A), 200 topics. Move the slider
    to use only the first $n$ of them.
    """)
    return


@app.cell
def _(mo):
    topics_slider = mo.ui.slider(
        steps=[3, 5, 10, 20, 30, 50, 75, 100, 150, 200], value=10, label="Topics used", show_value=True
    )
    topics_slider
    return (topics_slider,)


@app.cell
def _(ncdemo):
    SLIDER_STEPS = list(ncdemo.SLIDER_STEPS)
    slider_results = ncdemo.slider_comparisons()  # the same for every learner: computed once per server
    return SLIDER_STEPS, slider_results


@app.cell
def _(SLIDER_STEPS, mo, ncplots, ncsig, slider_results, topics_slider):
    _r = slider_results[topics_slider.value]
    _verdict = "excludes 0" if _r.ci_low > 0 or _r.ci_high < 0 else "holds 0: the data cannot tell A and B apart"
    mo.vstack([
        mo.md(
            f"With **{topics_slider.value} topics**: mean difference {_r.mean_difference:+.4f}, 95 % interval "
            f"[{_r.ci_low:+.4f}, {_r.ci_high:+.4f}] ({_verdict}); randomization p = {ncsig.format_p(_r.randomization_p_value)}, "
            f"t-test p = {ncsig.format_p(_r.t_p_value)}."
        ),
        ncplots.interval_by_topics(
            SLIDER_STEPS,
            [slider_results[_n].mean_difference for _n in SLIDER_STEPS],
            [slider_results[_n].ci_low for _n in SLIDER_STEPS],
            [slider_results[_n].ci_high for _n in SLIDER_STEPS],
            current=topics_slider.value,
        ),
    ])
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Significant is not large, large is not significant

    Two simulated pairs. On the left, 2,000 topics and a tiny true gain: the test is sure the
    gain is not zero, and the interval shows how small it is. On the right, 6 topics and a
    large gain: the interval is so wide that the test cannot rule out zero, or even a loss.
    """)
    return


@app.cell
def _(mo, ncdemo, ncsig):
    def _summary(title, name):
        _n, _r = ncdemo.simulated_comparison(name)
        return mo.md(
            f"### {title}\n\n"
            f"- topics: **{_n}**\n"
            f"- mean difference: **{_r.mean_difference:+.4f}**\n"
            f"- 95 % interval: [{_r.ci_low:+.4f}, {_r.ci_high:+.4f}]\n"
            f"- randomization p: **{ncsig.format_p(_r.randomization_p_value)}**; t-test p: {ncsig.format_p(_r.t_p_value)}\n"
            f"- effect size d_z: {_r.effect_size:.2f}"
        )

    mo.hstack(
        [
            _summary("Significant but tiny", "tiny but significant"),
            _summary("Large but not significant", "large but not significant"),
        ],
        widths="equal", gap=2,
    )
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## What a p-value does and does not say

    - It **does** say: *if* A and B were equally good, a mean difference at least this far
      from 0 would turn up with probability $p$ (here: in that share of the relabellings).
    - It does **not** say the probability that A and B are equally good, nor that B is better.
      It is computed assuming no difference; it cannot also measure that assumption.
    - It does **not** say how large the difference is: with enough topics, a difference too
      small to matter gets a tiny $p$. Read the interval for the size.
    - A large $p$ does **not** show that the runs are equal: with few topics a large real
      difference can hide in the noise. "Not significant" means "cannot tell".
    - It is about **these topics** as a sample of topics: a test collection built from one
      kind of query says little about another.

    ## The many-comparisons trap

    One test at 0.05 gives a false alarm 1 time in 20 when nothing differs. Compare twenty
    runs with one another and you make 190 comparisons. Below, twenty runs drawn with **no
    true difference at all** (each topic's score is the topic's difficulty plus luck), every
    pair tested. Draw again and count the "discoveries".
    """)
    return


@app.cell
def _(mo):
    draw_button = mo.ui.button(value=0, on_click=lambda value: value + 1, label="Draw 20 new random runs")
    draw_button
    return (draw_button,)


@app.cell
def _(draw_button, mo, ncdemo, ncplots, ncsig):
    _seed = draw_button.value + 3  # the first draw: a typical one (9 of 190 below 0.05)
    _trap = ncdemo.many_comparisons(_seed, 20, 50, rounds=2000)
    _raw = sum(_p.randomization_p_value < 0.05 for _p in _trap.pairs)
    _holm = sum(_p.randomization_p_holm < 0.05 for _p in _trap.pairs)
    mo.vstack([
        mo.md(
            f"Draw {draw_button.value + 1}: **{_raw} of {len(_trap.pairs)}** pairs have p < 0.05 "
            f"(chance alone gives about {0.05 * len(_trap.pairs):.1f} on average). After Holm's correction "
            f"for the {len(_trap.pairs)} comparisons: **{_holm}**."
        ),
        ncplots.p_value_matrix([str(_i) for _i in range(1, 21)], _trap.p_value_matrix()),
    ])
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    Holm's correction sorts the $m$ p-values, multiplies the smallest by $m$, the next by
    $m-1$, and so on (keeping the sequence non-decreasing): the chance of even one false
    alarm among all $m$ comparisons stays at most 0.05. `ndcg-eval --compare RUN2 RUN3 ...`
    prints the corrected p-values next to the raw ones whenever it compares more than one
    run with the baseline.

    ## The same from the command line

    ```text
    ndcg-eval -m ndcg_cut.10 data/toy/qrels.txt data/toy/run_classic.txt \
              --compare data/toy/run_novel.txt data/toy/run_tuned.txt
    ```

    prints each run's mean, the difference with its interval, the three p-values, the
    Holm-corrected ones and the effect size (`--format csv` or `json` for a report).

    ## What to remember

    - Compare runs **topic by topic**: the per-topic differences cancel how hard each topic
      is, which varies far more than systems do. An unpaired test leaves it in.
    - The **p-value** is the share of relabellings (or the t distribution's tail) at least as
      extreme as the observed mean difference, assuming the runs are interchangeable.
    - The **interval** gives the size; it narrows like $1/\sqrt n$ as topics are added.
    - Significant ≠ large; not significant ≠ equal.
    - Many comparisons produce "significant" results by chance: correct (Holm) or decide
      the comparison in advance.
    """)
    return


@app.cell(hide_code=True)
def _(widgets):
    widgets.check_yourself("Six exercises on comparing runs.", more="A seventh (why pair by topic) is in notebook 07.")
    return


@app.cell
def _(widgets):
    chapter_answers = widgets.answer_boxes(("signif-mean-difference", "signif-t-by-hand", "signif-p-value-meaning", "signif-tiny-but-significant", "signif-large-not-significant", "signif-many-comparisons"))
    return (chapter_answers,)


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "signif-mean-difference")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "signif-t-by-hand")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "signif-p-value-meaning")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "signif-tiny-but-significant")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "signif-large-not-significant")
    return


@app.cell
def _(chapter_answers, widgets):
    widgets.exercise_card(chapter_answers, "signif-many-comparisons")
    return


if __name__ == "__main__":
    app.run()
