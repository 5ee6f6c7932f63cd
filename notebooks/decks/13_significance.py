# /// script
# requires-python = ">=3.11"
# dependencies = ["marimo", "ndcg-lab"]
# [tool.marimo.opengraph]
# title = "13 · Is run B really better?"
# description = "Per-topic differences, the randomization test, intervals that narrow with topics, significant vs large, and the many-comparisons trap"
# ///

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", layout_file="layouts/13_significance.slides.json", css_file="layouts/slides.css")


@app.cell
def _():
    import marimo as mo
    from ndcg_core.trec import significance as ncsig
    from ndcg_core.teaching import significance_demo as ncdemo
    import ndcg_core.ui.plots as ncplots
    from ndcg_core.ui import deck, widgets
    return deck, mo, ncdemo, ncplots, ncsig, widgets


@app.cell
def _(deck):
    deck.title(r"""
    # 13 · Is run B really better?

    - the mean hides the topics: look at the **per-topic differences**
    - the **randomization test**: what if A and B were interchangeable?
    - the **interval** and the number of topics
    - significant is not large, large is not significant
    - the **many-comparisons** trap, live
    """)
    return


@app.cell
def _(mo):
    pair_controls = {
        "measure": mo.ui.dropdown({"nDCG (whole run)": "ndcg", "nDCG@10": "ndcg_cut.10", "nDCG@5": "ndcg_cut.5"},
                                  value="nDCG@10", label="Measure"),
        "a": mo.ui.dropdown(["classic", "novel", "tuned"], value="classic", label="Run A"),
        "b": mo.ui.dropdown(["classic", "novel", "tuned"], value="tuned", label="Run B"),
    }
    return (pair_controls,)


@app.cell
def _(deck, pair_controls):
    deck.concept(
        "Two runs, topic by topic",
        [tuple(pair_controls.values())],
        lead="Ten topics of the toy collection, both runs scored as `ndcg-eval` scores them. Which run is better, and how sure are we?",
        numbers_width="40%",
    )
    return


@app.cell
def _(ncdemo, pair_controls):
    _a, _b = pair_controls["a"].value, pair_controls["b"].value
    try:
        if _a == _b:
            raise ValueError(f"runs {_a} and {_b} are the same run: pick two different runs.")
        deck_pair = ncdemo.toy_comparison(pair_controls["measure"].value, _a, _b).pairs[0]
        deck_problem = None
    except (TypeError, ValueError) as _err:
        deck_pair, deck_problem = None, _err
    return deck_pair, deck_problem


@app.cell
def _(deck, deck_pair, deck_problem, mo, ncdemo, ncplots, pair_controls):
    if deck_pair is None:
        _shown = mo.callout(mo.md(f"**Cannot compare:** {deck_problem}"), kind="danger")
    else:
        _bars = ncplots.difference_bars(
            deck_pair.topics, deck_pair.differences, baseline=deck_pair.baseline, other=deck_pair.other,
            measure=pair_controls["measure"].selected_key, height=3.4,
        )
        _rows = [ncdemo.summary_rows(deck_pair)[_i] for _i in (2, 3, 6, 7)]  # the slide keeps four of them
        _numbers = "\n\n".join(f"{_what}: **{_value}**" for _what, _value in _rows)
        _shown = deck.panel(mo.md(_numbers).text, mo.as_html(_bars).text)
    _shown
    return


@app.cell
def _(deck):
    deck.text(
        "What if A and B were interchangeable?",
        "If the runs were equally good, calling a topic's two scores \"A\" and \"B\" would be arbitrary: each "
        "difference $d_q$ could as well be $-d_q$. Flip the signs in all $2^n$ ways, take each mean, and count "
        "how many are as far from 0 as the observed one: that share is the **p-value**.",
        ask="Before the next press: how many of the 1,024 relabellings do you expect to beat tuned's gain?",
    )
    return


@app.cell
def _(deck_pair, mo, ncplots, ncsig):
    mo.stop(deck_pair is None)
    _test = ncsig.randomization_test(deck_pair.differences, keep_null=True)
    ncplots.randomization_histogram(_test.null, _test.observed, _test.p_value, exact=_test.exact, height=3.4)
    return


@app.cell
def _(mo):
    deck_controls = {
        "topics": mo.ui.slider(steps=[3, 5, 10, 20, 30, 50, 75, 100, 150, 200], value=10, label="Topics used",
                               show_value=True),
    }
    return (deck_controls,)


@app.cell
def _(deck, deck_controls):
    deck.concept(
        "More topics, a narrower interval",
        [deck_controls["topics"]],
        lead="A simulated pair, true gain 0.04 (B over A). The bootstrap interval: the middle 95 % of 10,000 resampled means.",
        numbers_width="40%",
    )
    return


@app.cell
def _(ncdemo):
    DECK_STEPS = list(ncdemo.SLIDER_STEPS)
    deck_results = ncdemo.slider_comparisons()
    return DECK_STEPS, deck_results


@app.cell
def _(DECK_STEPS, deck, deck_controls, deck_results, mo, ncplots, ncsig):
    _n = deck_controls["topics"].value
    _r = deck_results[_n]
    _numbers = mo.md(
        f"**{_n} topics**\n\nmean difference **{_r.mean_difference:+.4f}**\n\n95 % interval "
        f"[{_r.ci_low:+.4f}, {_r.ci_high:+.4f}]\n\nrandomization p = **{ncsig.format_p(_r.randomization_p_value)}**"
    ).text
    _plot = ncplots.interval_by_topics(
        DECK_STEPS, [deck_results[_k].mean_difference for _k in DECK_STEPS],
        [deck_results[_k].ci_low for _k in DECK_STEPS], [deck_results[_k].ci_high for _k in DECK_STEPS], current=_n,
        height=3.6,
    )
    deck.panel(_numbers, mo.as_html(_plot).text)
    return


@app.cell
def _(deck, ncdemo, ncsig):
    def _line(title, name):
        _n, _r = ncdemo.simulated_comparison(name)
        return (f"| {title} | {_n} | {_r.mean_difference:+.4f} | [{_r.ci_low:+.4f}, {_r.ci_high:+.4f}] "
                f"| {ncsig.format_p(_r.randomization_p_value)} |")

    deck.text(
        "Significant is not large, large is not significant",
        "| pair | topics | mean difference | 95 % interval | p |\n|---|---|---|---|---|\n"
        + _line("significant but tiny", "tiny but significant") + "\n"
        + _line("large but not significant", "large but not significant"),
        ask="Which of the two would you ship? Which would you test on more topics?",
    )
    return


@app.cell
def _(deck):
    deck.text(
        "What a p-value does and does not say",
        "- **does:** *if* A and B were equally good, a difference this far from 0 turns up with probability p\n"
        "- **not** the probability that A and B are equally good\n"
        "- **not** the size of the difference: read the interval\n"
        "- a large p does **not** show the runs are equal: it means \"cannot tell\"",
        ask="p = 0.03. Is there a 3 % chance that the runs are equally good?",
    )
    return


@app.cell
def _(mo):
    trap_controls = {"draw": mo.ui.button(value=0, on_click=lambda value: value + 1, label="Draw 20 new random runs")}
    return (trap_controls,)


@app.cell
def _(deck, trap_controls):
    deck.concept(
        "Twenty runs, no real difference",
        [trap_controls["draw"]],
        lead="Every pair of 20 runs drawn with no true difference at all: 190 tests at 0.05.",
        numbers_width="40%",
    )
    return


@app.cell
def _(deck, mo, ncdemo, ncplots, ncsig, trap_controls):
    _seed = trap_controls["draw"].value + 3
    _trap = ncdemo.many_comparisons(_seed, 20, 50, rounds=2000)
    _raw = sum(_p.randomization_p_value < 0.05 for _p in _trap.pairs)
    _holm = sum(_p.randomization_p_holm < 0.05 for _p in _trap.pairs)
    _numbers = mo.md(
        f"**{_raw} of 190** below 0.05\n\nchance alone: about 9.5\n\nafter Holm's correction: **{_holm}**"
    ).text
    deck.panel(_numbers, mo.as_html(ncplots.p_value_matrix([str(_i) for _i in range(1, 21)], _trap.p_value_matrix(), size=4.2)).text)
    return


@app.cell
def _(widgets):
    chapter_answers = widgets.answer_boxes(("signif-mean-difference", "signif-t-by-hand", "signif-p-value-meaning", "signif-many-comparisons"))
    return (chapter_answers,)


@app.cell
def _(chapter_answers, deck):
    deck.question(chapter_answers, "signif-mean-difference", hints="under the answer", kicker="Check yourself · question 1 of 4")
    return


@app.cell
def _(deck):
    deck.hints("signif-mean-difference")
    return


@app.cell
def _(deck):
    deck.answer("signif-mean-difference")
    return


@app.cell
def _(chapter_answers, deck):
    deck.question(chapter_answers, "signif-t-by-hand", hints="under the answer", kicker="Check yourself · question 2 of 4")
    return


@app.cell
def _(deck):
    deck.hints("signif-t-by-hand")
    return


@app.cell
def _(deck):
    deck.answer("signif-t-by-hand")
    return


@app.cell
def _(chapter_answers, deck):
    deck.question(chapter_answers, "signif-p-value-meaning", hints="beside", kicker="Check yourself · question 3 of 4")
    return


@app.cell
def _(deck):
    deck.hints("signif-p-value-meaning")
    return


@app.cell
def _(deck):
    deck.answer("signif-p-value-meaning", tables=False)
    return


@app.cell
def _(chapter_answers, deck):
    deck.question(chapter_answers, "signif-many-comparisons", hints="beside", kicker="Check yourself · question 4 of 4")
    return


@app.cell
def _(deck):
    deck.hints("signif-many-comparisons")
    return


@app.cell
def _(deck):
    deck.answer("signif-many-comparisons", tables=False)
    return


@app.cell
def _(deck):
    deck.text(
        "What to remember",
        "- compare runs **topic by topic**: the differences cancel how hard each topic is\n"
        "- p: how often chance alone gives a difference this large, *assuming* no difference\n"
        "- the interval gives the size; it narrows like $1/\\sqrt n$\n"
        "- significant ≠ large; not significant ≠ equal\n"
        "- many comparisons: correct (Holm) or decide the comparison first\n"
        "- `ndcg-eval QRELS RUN --compare RUN2 RUN3` prints it all",
    )
    return


if __name__ == "__main__":
    app.run()
