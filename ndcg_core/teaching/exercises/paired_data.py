"""The data of chapter 13's paired exercises: the named mistakes and the bank's score lists.

Plain data, importing nothing of the checker: :mod:`.misconceptions` adds these mistakes
to its catalogue and :mod:`.bank` reads a paired exercise's scores with
:func:`read_scores`; the checking lives in :mod:`.paired`.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["PAIRED_MISCONCEPTIONS", "SIGNIFICANCE_CONCEPTS", "read_scores"]

#: The mistakes of a paired computation: (id, how it is named, the hint that fixes it).
PAIRED_MISCONCEPTIONS: tuple[tuple[str, str, str], ...] = (
    ("unpaired-test", "an unpaired (two-sample) t-test that ignores which scores belong to the same topic",
     "The runs answered the same topics: take the difference on each topic first, then the mean and "
     "standard deviation of those differences. The spread of each run's scores mixes in how hard the "
     "topics are."),
    ("difference-reversed", "the difference taken as A − B instead of B − A",
     "The question asks how much B gains over A: subtract A's score from B's on each topic."),
    ("sd-population", "the standard deviation divided by n instead of n − 1",
     "The sample standard deviation of the differences divides the sum of squares by n − 1."),
    ("se-without-root", "the standard error s/n instead of s/√n",
     "The standard error of a mean is the standard deviation divided by the square root of n."),
    ("t-without-se", "the mean difference divided by the standard deviation, not the standard error",
     "d̄ / s is the effect size d_z; the t statistic divides by s/√n, so t = d_z·√n."),
    ("sum-not-mean", "the sum of the differences instead of their mean",
     "Divide the sum of the differences by the number of topics."),
)
#: Concept mistakes of the chapter (multiple choice): (id, name, hint).
SIGNIFICANCE_CONCEPTS: tuple[tuple[str, str, str], ...] = (
    ("p-is-null-probability", "the belief that the p-value is the probability that the runs are equally good",
     "The p-value assumes no difference and asks how often chance alone gives a difference this large. "
     "It is a statement about the data under that assumption, not about the assumption."),
    ("significant-means-large", "the belief that a significant difference is a large one",
     "Significance measures how sure we can be that the difference is not zero; with enough topics a "
     "tiny difference is significant. Look at the size (the mean difference and its interval) too."),
    ("not-significant-means-equal", "the belief that a non-significant difference shows the runs are equal",
     "Too few topics can hide a large difference: a wide interval that holds 0 says 'we cannot tell', "
     "not 'they are the same'."),
    ("many-comparisons-ignored", "each of many comparisons tested at 0.05 as if it were the only one",
     "With 20 independent comparisons at 0.05, about one is 'significant' by chance. Correct for the "
     "number of comparisons (Holm) or decide the comparison before looking."),
    ("ci-covers-topics", "the belief that the interval holds 95 % of the topics' differences",
     "The interval is about the mean difference, not single topics: most topics' differences can lie "
     "outside it, and it narrows as topics are added while the topics' spread does not."),
    ("p-counts-topics", "the belief that the p-value counts the topics on which one run wins",
     "The p-value is computed from the mean difference over all topics: 1 − p is not the share of topics "
     "B wins. Count the topics B wins from the per-topic differences themselves."),
    ("many-topics-always-significant", "the belief that with enough topics every difference comes out significant",
     "More topics narrow the interval around the true difference; when the true difference is exactly 0, "
     "the test still says 'significant' only 5 % of the time, however many topics there are."),
    ("mean-settles-it", "the belief that the mean difference alone shows which run is better",
     "A mean over a few topics moves a lot from one sample of topics to another: read its interval. "
     "When the interval holds 0, the data cannot tell which run is better."),
    ("large-p-favours-baseline", "the belief that a p-value above 0.05 shows the baseline is better",
     "A large p-value says the data cannot tell the runs apart; it favours neither run. The sign of the "
     "mean difference says which run did better on these topics."),
    ("chance-rules-out-all", "the belief that if some significant results are chance, none of them can be real",
     "Some of the discoveries may be real and some chance: a correction such as Holm's keeps those that "
     "stand out beyond what chance gives, a new set of topics tests the rest."),
    ("retest-same-topics", "the belief that testing again on the same topics confirms a result",
     "The same topics give the same differences and the same p-value: that is no new evidence. Confirm "
     "on topics the comparison has not seen."),
    ("paired-for-sizes", "the belief that a paired test is for samples of different sizes",
     "A paired test needs the same topics in both runs, so the samples have the same size by design. "
     "It pairs them to take out how hard each topic is."),
)


def read_scores(inputs: Mapping[str, object]) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """``inputs.scores_a`` and ``inputs.scores_b`` of a paired exercise, as numbers.

    >>> read_scores({"scores_a": "0.5, 0.4", "scores_b": "0.6, 0.3"})
    ((0.5, 0.4), (0.6, 0.3))
    """
    unknown = set(inputs) - {"scores_a", "scores_b"}
    if unknown:
        raise ValueError(f"inputs has unknown keys {sorted(unknown)}; a paired exercise takes scores_a and scores_b.")
    out = []
    for key in ("scores_a", "scores_b"):
        text = inputs.get(key)
        if not isinstance(text, str):
            raise ValueError(f"inputs.{key} must be scores in quotes such as \"0.5, 0.4, 0.7\"; got {text!r}.")
        try:
            out.append(tuple(float(x) for x in text.replace(";", ",").split(",") if x.strip()))
        except ValueError:
            raise ValueError(f"inputs.{key} must hold numbers separated by commas; got {text!r}.") from None
    a, b = out
    if len(a) != len(b) or len(a) < 2:
        raise ValueError(f"inputs.scores_a and scores_b must give 2 or more topics each, as many; got {len(a)} and {len(b)}.")
    return a, b
