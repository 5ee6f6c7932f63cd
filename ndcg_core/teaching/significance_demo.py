"""Chapter 13's simulated runs: per-topic scores with a known true difference.

Real collections have a few dozen topics; to show how the number of topics moves the
interval and the p-value, and what chance alone produces, the chapter draws per-topic
scores from a simple seeded model:

- each topic has a difficulty :math:`h_q \\sim \\mathrm{Beta}(2, 2)` (its score under an
  average system, between 0 and 1; topics differ a lot);
- a run scores :math:`h_q + \\delta + \\varepsilon_q`, clipped to [0, 1], where δ is the
  run's true advantage and :math:`\\varepsilon_q \\sim N(0, \\sigma^2)` its topic-by-topic
  luck.

The tests are those of :mod:`ndcg_core.trec.significance`; nothing here computes one.

What the chapter shows is the same for every learner (seeded), so the comparisons it opens on
are computed once per process and kept (:func:`slider_comparisons`, :func:`simulated_comparison`,
:func:`many_comparisons`, :func:`toy_comparison`): a classroom worker pays for them once, not
once per student. The results they return are shared: read them, do not change them.

>>> pair = simulated_pair(5, 0.1, 0.05, seed=1)  # or simulated_pair(**SLIDER_PAIR)
>>> list(pair.columns), pair.shape
(['A', 'B'], (5, 2))
"""

from __future__ import annotations

import functools

import numpy as np

from .._lazy import pd
from ..trec import significance as _sig
from ..trec.significance import Comparison, PairedComparison, format_p

__all__ = ["simulated_pair", "random_runs", "summary_rows", "summary_markdown", "TINY_BUT_SIGNIFICANT",
           "LARGE_NOT_SIGNIFICANT", "SLIDER_PAIR", "SLIDER_STEPS", "SIMULATED", "slider_comparisons",
           "simulated_comparison", "many_comparisons", "toy_comparison"]

#: Many topics, a tiny true gain and little topic-by-topic luck: p far below 0.05.
TINY_BUT_SIGNIFICANT = {"n_topics": 2000, "true_difference": 0.004, "noise": 0.02, "seed": 13}
#: Six topics, a large true gain and much luck: a wide interval that holds 0.
LARGE_NOT_SIGNIFICANT = {"n_topics": 6, "true_difference": 0.12, "noise": 0.25, "seed": 4}
#: The pair the topics slider takes its first n topics from.
SLIDER_PAIR = {"n_topics": 200, "true_difference": 0.04, "noise": 0.1, "seed": 3}
#: The numbers of topics the slider offers.
SLIDER_STEPS = (3, 5, 10, 20, 30, 50, 75, 100, 150, 200)
#: The two simulated pairs by name.
SIMULATED = {"tiny but significant": TINY_BUT_SIGNIFICANT, "large but not significant": LARGE_NOT_SIGNIFICANT}


def _topics(n: int) -> list[str]:
    return [f"T{i:04d}" for i in range(1, n + 1)]


def simulated_pair(n_topics: int, true_difference: float, noise: float, *, seed: int = 0) -> pd.DataFrame:
    """Scores of runs A and B on ``n_topics`` topics (columns ``A``, ``B``; index the topics).

    A scores the topic's difficulty plus its own luck; B the same plus ``true_difference``.
    """
    if n_topics < 1:
        raise ValueError(f"n_topics must be 1 or more; got {n_topics}.")
    if noise < 0:
        raise ValueError(f"noise must be 0 or more; got {noise}.")
    rng = np.random.default_rng(seed)
    difficulty = rng.beta(2, 2, n_topics)
    a = np.clip(difficulty + rng.normal(0, noise, n_topics), 0, 1)
    b = np.clip(difficulty + true_difference + rng.normal(0, noise, n_topics), 0, 1)
    return pd.DataFrame({"A": a, "B": b}, index=pd.Index(_topics(n_topics), name="query_id"))


def random_runs(n_runs: int = 20, n_topics: int = 50, *, noise: float = 0.1, seed: int = 0) -> pd.DataFrame:
    """``n_runs`` runs with no true difference at all: the same topics, each its own luck.

    Columns ``run01`` ... ; every difference between two of them is chance.

    >>> random_runs(3, 4, seed=1).shape
    (4, 3)
    """
    if n_runs < 2 or n_topics < 2:
        raise ValueError(f"random_runs needs at least 2 runs and 2 topics; got {n_runs} and {n_topics}.")
    rng = np.random.default_rng(seed)
    difficulty = rng.beta(2, 2, n_topics)
    scores = np.clip(difficulty[:, None] + rng.normal(0, noise, (n_topics, n_runs)), 0, 1)
    return pd.DataFrame(
        scores, columns=[f"run{i:02d}" for i in range(1, n_runs + 1)], index=pd.Index(_topics(n_topics), name="query_id")
    )


def summary_rows(pair: PairedComparison) -> list[tuple[str, str]]:
    """The figures of one comparison as (what, value) rows, in words, for a table.

    >>> from ndcg_core.trec.significance import paired_comparison
    >>> rows = summary_rows(paired_comparison([0.5, 0.4, 0.7, 0.3, 0.6], [0.6, 0.55, 0.65, 0.45, 0.7]))
    >>> rows[2], rows[4]
    (('Mean difference B − A', '+0.0900'), ('p, paired t-test', '0.0705'))
    """
    return [
        (f"Mean of {pair.baseline} (A)", f"{pair.mean_baseline:.4f}"),
        (f"Mean of {pair.other} (B)", f"{pair.mean_other:.4f}"),
        ("Mean difference B − A", f"{pair.mean_difference:+.4f}"),
        (f"{pair.confidence:.0%} bootstrap interval", f"[{pair.ci_low:+.4f}, {pair.ci_high:+.4f}]"),
        ("p, paired t-test", format_p(pair.t_p_value)),
        ("p, Wilcoxon signed-rank", format_p(pair.wilcoxon_p_value)),
        ("p, randomization test", format_p(pair.randomization_p_value)),
        ("Effect size d_z (mean / sd of differences)", f"{pair.effect_size:.2f}"),
        (f"Topics {pair.other} wins / ties / loses", f"{pair.wins} / {pair.ties} / {pair.losses}"),
    ]


def summary_markdown(pair: PairedComparison) -> str:
    """:func:`summary_rows` as a two-column Markdown table."""
    return "| figure | value |\n|---|---|\n" + "\n".join(f"| {what} | {value} |" for what, value in summary_rows(pair))


@functools.lru_cache(maxsize=None)
def slider_comparisons(rounds: int = 4000) -> dict[int, PairedComparison]:
    """The comparison of :data:`SLIDER_PAIR`'s first n topics for each n of :data:`SLIDER_STEPS`
    (computed once per process).

    >>> r = slider_comparisons()
    >>> sorted(r) == list(SLIDER_STEPS) and r[200].ci_high - r[200].ci_low < r[10].ci_high - r[10].ci_low
    True
    """
    scores = simulated_pair(**SLIDER_PAIR)
    return {n: _sig.paired_comparison(scores["A"][:n], scores["B"][:n], rounds=rounds) for n in SLIDER_STEPS}


@functools.lru_cache(maxsize=None)
def simulated_comparison(name: str) -> tuple[int, PairedComparison]:
    """The number of topics and the comparison of the simulated pair ``name`` of :data:`SIMULATED`
    (computed once per process)."""
    if name not in SIMULATED:
        raise ValueError(f"name must be one of {sorted(SIMULATED)}; got {name!r}.")
    scores = simulated_pair(**SIMULATED[name])
    return len(scores), _sig.paired_comparison(scores["A"], scores["B"])


@functools.lru_cache(maxsize=64)
def many_comparisons(seed: int, n_runs: int = 20, n_topics: int = 50, rounds: int = 2000) -> Comparison:
    """Every pair of :func:`random_runs` (``n_runs`` runs with no true difference, ``seed``)
    compared, Holm-corrected together (the last 64 seeds asked for are kept)."""
    return _sig.compare_scores(random_runs(n_runs, n_topics, seed=seed), pairs="all", rounds=rounds, seed=seed)


@functools.lru_cache(maxsize=64)
def toy_comparison(measure: str, baseline: str, other: str) -> Comparison:
    """Run ``other`` against run ``baseline`` of the toy collection at ``measure`` (the last 64
    asked for are kept); ValueError for the same run twice or a run the collection lacks."""
    from .toy import read_toy_collection

    toy = read_toy_collection()
    for run in (baseline, other):
        if run not in toy.runs:
            raise ValueError(f"the toy collection has runs {sorted(toy.runs)}; got {run!r}.")
    if baseline == other:
        raise ValueError(
            f"runs {baseline} and {other} are the same run: there is no difference to test. Pick two different runs."
        )
    return _sig.compare_runs(toy.qrels, {baseline: toy.runs[baseline], other: toy.runs[other]}, measure)[0]
