r"""Is run B really better than run A? Paired significance tests over topics.

Two or more runs scored on the same qrels (any configuration :func:`evaluate_run`
accepts) give one number per topic each. Comparing run B with run A looks at the
per-topic **differences** :math:`d_q = s_B(q) - s_A(q)` and asks whether their mean
:math:`\bar d` could be noise:

- the **mean difference** :math:`\bar d` with a seeded **bootstrap** confidence interval
  (percentile method: the middle ``confidence`` share of the means of ``rounds``
  resamples of the topics, drawn with replacement; :func:`scipy.stats.bootstrap`);
- the **paired t-test**, :math:`t = \bar d / (s_d / \sqrt n)` with n - 1 degrees of
  freedom (:func:`scipy.stats.ttest_rel`);
- the **Wilcoxon signed-rank test** on the differences (:func:`scipy.stats.wilcoxon`,
  its defaults: zero differences dropped, exact null distribution for small samples
  without ties, else the normal approximation);
- the **paired randomization test** (Fisher's sign-flip test): under the null hypothesis
  the label "A" or "B" of each topic's two scores is arbitrary, so each :math:`d_q` is as
  likely to be :math:`-d_q`. The p-value is the share of the :math:`2^n` sign assignments
  whose mean is at least as far out as the observed one. Exact (all :math:`2^n`
  enumerated) when ``n <= exact_max`` (default 20), else ``rounds`` seeded Monte Carlo
  assignments with :math:`p = (\text{count} + 1) / (\text{rounds} + 1)`. Two-sided as
  :func:`scipy.stats.permutation_test`: twice the smaller one-sided p, at most 1, with
  a relative tolerance of 100 machine epsilons for null values equal to the observed mean;
- the **effect size** Cohen's :math:`d_z = \bar d / s_d` (the mean difference in standard
  deviations of the differences; :math:`t = d_z \sqrt n`);
- with more than one pair, **Holm's** step-down correction of each test's p-values over the
  pairs compared (``holm``): sort the m p-values, multiply the i-th smallest by
  :math:`m - i + 1`, make the sequence non-decreasing, cap at 1.

Topics. The runs are compared on the topics of the qrels that at least one run retrieved
for (with ``complete=True``: every qrels topic). A run with no lines for one of those topics
scores 0 on it, as trec_eval's ``-c`` does; :attr:`Comparison.filled` lists them, and
:meth:`Comparison.describe` says so.

How ranx's ``compare`` differs (ranx 0.3, ``ranx.compare`` / ``ranx.statistical_tests``;
checked with ``bench/ranx_check.py``, a one-off script, since ranx compiles with numba):

- its default test is the paired t-test (``stat_test="student"``, :func:`scipy.stats.ttest_rel`):
  on the same per-topic numbers its p-values equal these; it has no Wilcoxon test and no
  confidence interval;
- its randomization test (``"fisher"``) is always Monte Carlo, with 1,000 permutations and
  ``random_seed=42`` by default, and reports ``count / n_permutations`` (no +1: it prints
  p = 0 where the exact p over 10 topics is 0.002); it runs its permutations in parallel
  threads, and the same seed gave different p-values from one run to the next (0.037 and
  0.041 on the toy runs). Here the test is exact up to 20 topics, else
  ``(count + 1) / (rounds + 1)`` with 10,000 seeded rounds, the same on every run;
- it marks a difference significant at ``max_p=0.01`` and corrects for no multiple
  comparisons (every pair of runs at 0.01); here Holm's correction is reported;
- it scores each run on its own topics (no 0 for a topic a run lacks), and orders tied
  scores its own way (not trec_eval's document-id order): on the toy run ``tuned``, whose
  scores tie, one topic's nDCG@10 differs by 0.005, so its comparison of that run does too.

A test behind the ``ranx`` marker (``pytest -m ranx``) repeats the t-test check where ranx is
installed.

May import: the core, this layer, numpy, pandas and scipy (both on first use).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from .._lazy import pd
from .._validation import check_positive_int
from .evaluate import evaluate_run, parse_measures

__all__ = [
    "EXACT_MAX",
    "PairedComparison",
    "Comparison",
    "RandomizationTest",
    "randomization_test",
    "bootstrap_interval",
    "holm",
    "paired_comparison",
    "compare_scores",
    "compare_runs",
    "format_p",
]

#: Up to this many topics the randomization test enumerates all 2^n sign assignments.
EXACT_MAX = 20
_CHUNK = 1 << 16  # sign assignments per block (memory: _CHUNK x n floats)


# --------------------------------------------------------------------------- checks


def _check_differences(values: object, name: str) -> np.ndarray:
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a sequence of numbers; got {values!r:.80}.") from None
    if array.ndim != 1:
        raise ValueError(f"{name} must be one number per topic (a flat list); got shape {array.shape}.")
    if not np.isfinite(array).all():
        raise ValueError(f"{name} must be finite numbers; got {array[~np.isfinite(array)][0]!r}. Score every topic first.")
    return array


def _check_topics(n: int) -> None:
    if n < 2:
        raise ValueError(
            f"a paired test needs at least 2 topics; got {n}. "
            "With one topic there is no spread to judge a difference against: evaluate more topics."
        )


def _check_confidence(confidence: object) -> float:
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not 0 < confidence < 1:
        raise ValueError(f"confidence must be a number between 0 and 1; got {confidence!r}. Use 0.95 for a 95 % interval.")
    return float(confidence)


def _check_seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a whole number of 0 or more; got {seed!r}.")
    return int(seed)


# --------------------------------------------------------------------------- randomization


@dataclass(frozen=True)
class RandomizationTest:
    """The result of :func:`randomization_test`.

    Attributes
    ----------
    observed : float
        The mean of the differences.
    p_value : float
        Two-sided p-value (scipy's convention: twice the smaller one-sided p, at most 1).
    exact : bool
        True when all ``2**n`` sign assignments were enumerated.
    rounds : int
        The sign assignments counted (``2**n`` when exact).
    null : numpy.ndarray
        The mean of every sign assignment counted (the null distribution), when asked for
        with ``keep_null=True``; else an empty array.
    """

    observed: float
    p_value: float
    exact: bool
    rounds: int
    null: np.ndarray = field(repr=False, compare=False, default_factory=lambda: np.empty(0))


def _flip_blocks(n: int, rounds: int, exact: bool, rng: np.random.Generator):
    """Blocks of 0/1 masks (1 = flip the sign of that topic's difference), as float64."""
    if exact:
        bits = np.arange(n, dtype=np.int64)
        for start in range(0, 1 << n, _CHUNK):
            codes = np.arange(start, min(start + _CHUNK, 1 << n), dtype=np.int64)
            yield ((codes[:, None] >> bits) & 1).astype(np.float64)
        return
    width = (n + 7) // 8
    chunk = max(1, min(_CHUNK, (1 << 23) // max(n, 1)))
    for start in range(0, rounds, chunk):
        size = min(chunk, rounds - start)
        raw = rng.integers(0, 256, size=(size, width), dtype=np.uint8)
        yield np.unpackbits(raw, axis=1, count=n).astype(np.float64)


def randomization_test(
    differences: Sequence[float] | np.ndarray,
    *,
    rounds: int = 10_000,
    seed: int = 0,
    exact_max: int = EXACT_MAX,
    keep_null: bool = False,
) -> RandomizationTest:
    r"""Paired randomization (sign-flip) test of the mean of per-topic differences.

    .. math:: p = 2 \min\Big(\frac{\#\{\bar d^* \le \bar d\} + a}{N + a},
              \frac{\#\{\bar d^* \ge \bar d\} + a}{N + a}\Big),
              \qquad \bar d^* = \frac1n \sum_q \pm d_q

    over N sign assignments: all :math:`2^n` (exact, a = 0) when ``n <= exact_max``, else
    ``rounds`` drawn at random with ``seed`` (a = 1). Equals
    ``scipy.stats.permutation_test((a, b), mean_diff, permutation_type="samples")``.

    Parameters
    ----------
    differences : sequence of float
        One difference per topic (run B minus run A).
    rounds : int
        Monte Carlo sign assignments when the test is not exact.
    seed : int
        Seed of the Monte Carlo draws (the same seed, the same p-value).
    exact_max : int
        Enumerate all assignments up to this many topics (at most 24).
    keep_null : bool
        Keep the null distribution in the result (for plots).

    Examples
    --------
    Four topics, all better by 0.1: of the 16 sign assignments only "all +" and "all -"
    are as far out as the observed mean, so p = 2/16.

    >>> randomization_test([0.1, 0.1, 0.1, 0.1]).p_value
    0.125
    """
    d = _check_differences(differences, "differences")
    _check_topics(len(d))
    rounds = check_positive_int(rounds, "rounds", value_hint="Use 10000 rounds.")
    exact_max = int(exact_max)
    if not 0 <= exact_max <= 24:
        raise ValueError(f"exact_max must be from 0 to 24; got {exact_max}. 2^24 assignments is the most enumerated.")
    n = len(d)
    exact = n <= exact_max
    rng = np.random.default_rng(_check_seed(seed))
    total = float(d.sum())
    observed = total / n
    gamma = abs(np.finfo(float).eps * 100 * observed)
    less = greater = 0
    kept = []
    for mask in _flip_blocks(n, rounds, exact, rng):
        null = (total - 2.0 * (mask @ d)) / n
        less += int(np.count_nonzero(null <= observed + gamma))
        greater += int(np.count_nonzero(null >= observed - gamma))
        if keep_null:
            kept.append(null)
    count = (1 << n) if exact else rounds
    adjust = 0 if exact else 1
    p = min(1.0, 2 * min((less + adjust) / (count + adjust), (greater + adjust) / (count + adjust)))
    null_values = np.concatenate(kept) if kept else np.empty(0)
    return RandomizationTest(observed=observed, p_value=p, exact=exact, rounds=count, null=null_values)


# --------------------------------------------------------------------------- interval, Holm


def format_p(p: float, digits: int = 4) -> str:
    """A p-value as printed: ``digits`` decimals, never a bare 0 (``<0.0001``), ``nan`` kept.

    >>> format_p(0.04163), format_p(2e-7), format_p(float("nan"))
    ('0.0416', '<0.0001', 'nan')
    """
    if p != p:
        return "nan"
    if 0 < p < 10**-digits:
        return f"<{10**-digits:.{digits}f}"
    return f"{p:.{digits}f}"


def bootstrap_interval(
    differences: Sequence[float] | np.ndarray,
    *,
    confidence: float = 0.95,
    rounds: int = 10_000,
    seed: int = 0,
) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean difference (:func:`scipy.stats.bootstrap`).

    ``rounds`` resamples of the topics, drawn with replacement by
    ``numpy.random.default_rng(seed)``; the interval holds the middle ``confidence`` share
    of their means. Percentile rather than scipy's default BCa: it is the one a learner can
    check by hand, and it stays defined when every difference is the same.

    >>> bootstrap_interval([0.25, 0.25, 0.25])
    (0.25, 0.25)
    """
    from scipy import stats

    d = _check_differences(differences, "differences")
    _check_topics(len(d))
    confidence = _check_confidence(confidence)
    rounds = check_positive_int(rounds, "rounds", value_hint="Use 10000 rounds.")
    result = stats.bootstrap(
        (d,), np.mean, n_resamples=rounds, vectorized=True, confidence_level=confidence,
        method="percentile", rng=np.random.default_rng(_check_seed(seed)),
    )
    low, high = result.confidence_interval
    return float(low), float(high)


def holm(p_values: Sequence[float] | np.ndarray) -> np.ndarray:
    r"""Holm's step-down adjusted p-values, in the order given.

    .. math:: \tilde p_{(i)} = \min\Big(1, \max_{j \le i} (m - j + 1)\, p_{(j)}\Big)

    where :math:`p_{(1)} \le \dots \le p_{(m)}`. Rejecting every :math:`\tilde p \le
    \alpha` keeps the chance of any false rejection among the m tests at most
    :math:`\alpha`.

    >>> holm([0.01, 0.04, 0.03]).tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(p_values, dtype=float)
    if p.ndim != 1 or ((p < 0) | (p > 1)).any() or np.isnan(p).any():
        raise ValueError(f"p_values must be a flat list of numbers from 0 to 1; got {p_values!r:.80}.")
    m = len(p)
    order = np.argsort(p, kind="stable")
    scaled = np.maximum.accumulate((m - np.arange(m)) * p[order])
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(scaled, 1.0)
    return adjusted


# --------------------------------------------------------------------------- one pair


@dataclass(frozen=True)
class PairedComparison:
    """Run ``other`` against run ``baseline`` on the same topics (differences: other - baseline).

    Attributes
    ----------
    baseline, other : str
        The runs' names.
    measure : str
        The measure compared (e.g. ``ndcg``, ``ndcg_cut_10``).
    topics : tuple of str
        The topics, one per difference.
    differences : numpy.ndarray
        ``other``'s score minus ``baseline``'s, per topic.
    mean_baseline, mean_other, mean_difference : float
        The means over the topics.
    ci_low, ci_high : float
        Bootstrap interval of the mean difference (``confidence``).
    t_statistic, t_p_value : float
        Paired t-test (two-sided).
    wilcoxon_statistic, wilcoxon_p_value : float
        Wilcoxon signed-rank test (scipy's statistic: the smaller rank sum; two-sided).
    randomization_p_value : float
        Paired randomization test (two-sided).
    randomization_exact : bool
        All 2^n sign assignments enumerated.
    randomization_rounds : int
        The sign assignments counted.
    effect_size : float
        Cohen's d_z: mean difference / standard deviation of the differences (n - 1).
    t_p_holm, wilcoxon_p_holm, randomization_p_holm : float
        Holm-adjusted p-values over the pairs compared together (the raw p for one pair).
    wins, ties, losses : int
        Topics where ``other`` scores higher, the same, lower.
    """

    baseline: str
    other: str
    measure: str
    topics: tuple[str, ...] = field(repr=False)
    differences: np.ndarray = field(repr=False, compare=False)
    mean_baseline: float
    mean_other: float
    mean_difference: float
    ci_low: float
    ci_high: float
    confidence: float
    t_statistic: float
    t_p_value: float
    wilcoxon_statistic: float
    wilcoxon_p_value: float
    randomization_p_value: float
    randomization_exact: bool
    randomization_rounds: int
    effect_size: float
    wins: int
    ties: int
    losses: int
    t_p_holm: float = float("nan")
    wilcoxon_p_holm: float = float("nan")
    randomization_p_holm: float = float("nan")

    def as_dict(self) -> dict[str, object]:
        """The figures as plain Python values (JSON-ready), without the per-topic arrays."""
        skip = {"topics", "differences"}
        return {name: getattr(self, name) for name in self.__dataclass_fields__ if name not in skip}


def paired_comparison(
    baseline_scores: Sequence[float] | np.ndarray,
    other_scores: Sequence[float] | np.ndarray,
    *,
    topics: Sequence[str] | None = None,
    names: tuple[str, str] = ("A", "B"),
    measure: str = "ndcg",
    rounds: int = 10_000,
    seed: int = 0,
    confidence: float = 0.95,
    exact_max: int = EXACT_MAX,
) -> PairedComparison:
    r"""Every figure of one paired comparison of two runs' per-topic scores.

    Parameters
    ----------
    baseline_scores, other_scores : sequence of float
        One score per topic each, in the same topic order.
    topics : sequence of str, optional
        The topics' names (default ``"1"``, ``"2"``, ...).
    names : (str, str)
        The runs' names (baseline, other).
    rounds, seed, exact_max
        Of the randomization test and the bootstrap (the same seed for both).
    confidence : float
        Of the bootstrap interval.

    Raises
    ------
    ValueError
        Fewer than 2 topics, lists of different lengths, or the same score on every topic
        (nothing to test).

    Examples
    --------
    Five topics; B is better on four of them (the chapter's worked example).

    >>> a = [0.50, 0.40, 0.70, 0.30, 0.60]
    >>> b = [0.60, 0.55, 0.65, 0.45, 0.70]
    >>> r = paired_comparison(a, b)
    >>> round(r.mean_difference, 4), round(r.t_statistic, 4), r.wins, r.losses
    (0.09, 2.4495, 4, 1)
    """
    from scipy import stats

    a = _check_differences(baseline_scores, "baseline_scores")
    b = _check_differences(other_scores, "other_scores")
    if len(a) != len(b):
        raise ValueError(
            f"both runs must have one score per topic, the same topics; got {len(a)} and {len(b)} scores. "
            "Score both runs on the same qrels."
        )
    n = len(a)
    _check_topics(n)
    names_ = (str(names[0]), str(names[1]))
    d = b - a
    if not d.any():
        raise ValueError(
            f"runs {names_[0]} and {names_[1]} have the same {measure} on every one of the {n} topics: "
            "there is no difference to test. Compare two different runs."
        )
    topic_names = tuple(str(t) for t in topics) if topics is not None else tuple(str(i + 1) for i in range(n))
    if len(topic_names) != n:
        raise ValueError(f"topics must name each of the {n} topics; got {len(topic_names)} names.")
    with warnings.catch_warnings():  # scipy warns on tiny samples and ties; the figures stand as scipy gives them
        warnings.simplefilter("ignore")
        t = stats.ttest_rel(b, a)
        w = stats.wilcoxon(d)
    randomization = randomization_test(d, rounds=rounds, seed=seed, exact_max=exact_max)
    low, high = bootstrap_interval(d, confidence=confidence, rounds=rounds, seed=seed)
    sd = float(np.std(d, ddof=1))
    mean_d = float(d.mean())
    effect = mean_d / sd if sd > 0 else math.copysign(math.inf, mean_d)
    return PairedComparison(
        baseline=names_[0],
        other=names_[1],
        measure=measure,
        topics=topic_names,
        differences=d,
        mean_baseline=float(a.mean()),
        mean_other=float(b.mean()),
        mean_difference=mean_d,
        ci_low=low,
        ci_high=high,
        confidence=float(confidence),
        t_statistic=float(t.statistic),
        t_p_value=float(t.pvalue),
        wilcoxon_statistic=float(w.statistic),
        wilcoxon_p_value=float(w.pvalue),
        randomization_p_value=randomization.p_value,
        randomization_exact=randomization.exact,
        randomization_rounds=randomization.rounds,
        effect_size=effect,
        wins=int((d > 0).sum()),
        ties=int((d == 0).sum()),
        losses=int((d < 0).sum()),
        t_p_holm=float(t.pvalue),
        wilcoxon_p_holm=float(w.pvalue),
        randomization_p_holm=randomization.p_value,
    )


# --------------------------------------------------------------------------- many runs


@dataclass(frozen=True)
class Comparison:
    """The result of :func:`compare_scores` / :func:`compare_runs` for one measure.

    Attributes
    ----------
    measure : str
    scores : pandas.DataFrame
        One row per topic compared, one column per run (in the order given).
    pairs : tuple of PairedComparison
        Each pair compared, Holm-corrected together.
    filled : dict of str to tuple of str
        Per run, the topics it had no lines for and that scored 0 (as trec_eval ``-c``).
    configuration : str
        How the scores were computed (empty for :func:`compare_scores`).
    """

    measure: str
    scores: pd.DataFrame = field(repr=False, compare=False)
    pairs: tuple[PairedComparison, ...]
    filled: dict[str, tuple[str, ...]] = field(default_factory=dict)
    configuration: str = ""

    @property
    def runs(self) -> tuple[str, ...]:
        return tuple(str(c) for c in self.scores.columns)

    def table(self) -> pd.DataFrame:
        """One row per pair: the figures of :class:`PairedComparison` without the arrays."""
        return pd.DataFrame([pair.as_dict() for pair in self.pairs])

    def p_value_matrix(self, test: str = "randomization", *, corrected: bool = False) -> np.ndarray:
        """Runs x runs matrix of one test's p-values (NaN on the diagonal and for pairs not compared).

        ``test`` is ``"t"``, ``"wilcoxon"`` or ``"randomization"``; ``corrected`` takes the
        Holm-adjusted values.

        >>> c = compare_scores({"A": {"q1": 0.1, "q2": 0.4}, "B": {"q1": 0.3, "q2": 0.5}})
        >>> c.p_value_matrix().tolist()
        [[nan, 0.5], [0.5, nan]]
        """
        if test not in ("t", "wilcoxon", "randomization"):
            raise ValueError(f"test must be 't', 'wilcoxon' or 'randomization'; got {test!r}.")
        names = list(self.runs)
        matrix = np.full((len(names), len(names)), np.nan)
        field_name = f"{test}_p_holm" if corrected else f"{test}_p_value"
        for pair in self.pairs:
            i, j = names.index(pair.baseline), names.index(pair.other)
            matrix[i, j] = matrix[j, i] = getattr(pair, field_name)
        return matrix

    def describe(self) -> str:
        """Plain-words summary of what was compared and how missing topics were handled."""
        n = len(self.scores)
        parts = [f"{self.measure} over {n} topics"]
        if self.configuration:
            parts.append(self.configuration.rstrip("."))
        for run, topics in self.filled.items():
            if topics:
                shown = ", ".join(topics[:6]) + (", ..." if len(topics) > 6 else "")
                parts.append(
                    f"run {run} has no lines for {len(topics)} of them ({shown}): "
                    "scored 0 there, as trec_eval -c does"
                )
        if len(self.pairs) > 1:
            parts.append(f"Holm's correction over the {len(self.pairs)} comparisons")
        return "; ".join(parts) + "."


def _pair_list(names: Sequence[str], baseline: str | None, pairs: str) -> list[tuple[int, int]]:
    if pairs == "all":
        return [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))]
    if pairs != "baseline":
        raise ValueError(f"pairs must be 'baseline' or 'all'; got {pairs!r}.")
    base = 0 if baseline is None else list(names).index(baseline)
    return [(base, j) for j in range(len(names)) if j != base]


def compare_scores(
    scores: Mapping[str, Mapping[str, float]] | pd.DataFrame,
    *,
    measure: str = "ndcg",
    baseline: str | None = None,
    pairs: str = "baseline",
    rounds: int = 10_000,
    seed: int = 0,
    confidence: float = 0.95,
    exact_max: int = EXACT_MAX,
    filled: Mapping[str, Sequence[str]] | None = None,
    configuration: str = "",
) -> Comparison:
    """Compare runs given their per-topic scores (``{run: {topic: score}}`` or a DataFrame).

    ``pairs="baseline"`` compares every run with ``baseline`` (default: the first run);
    ``pairs="all"`` compares every pair. Holm's correction runs over the pairs compared.
    Pair i draws its random numbers from ``seed + i``. A topic a run has no score for
    scores 0 (as trec_eval ``-c``) and is listed in :attr:`Comparison.filled`.

    >>> c = compare_scores({"A": {"q1": 0.5, "q2": 0.4, "q3": 0.7},
    ...                     "B": {"q1": 0.6, "q2": 0.5, "q3": 0.6},
    ...                     "C": {"q1": 0.7, "q2": 0.6}})
    >>> [(p.other, round(p.mean_difference, 4)) for p in c.pairs], c.filled["C"]
    ([('B', 0.0333), ('C', -0.1)], ('q3',))
    """
    frame = scores.copy() if isinstance(scores, pd.DataFrame) else pd.DataFrame({str(k): pd.Series(v, dtype=float) for k, v in scores.items()})
    frame.columns = [str(c) for c in frame.columns]
    if frame.shape[1] < 2:
        raise ValueError(f"a comparison needs at least 2 runs; got {frame.shape[1]}. Give a second run.")
    if len(set(frame.columns)) != frame.shape[1]:
        raise ValueError(f"runs must have different names; got {list(frame.columns)}. Rename one of them.")
    if baseline is not None and baseline not in frame.columns:
        raise ValueError(f"baseline must be one of the runs {list(frame.columns)}; got {baseline!r}.")
    missing = {str(c): tuple(str(t) for t in frame.index[frame[c].isna()]) for c in frame.columns}
    for run, topics in (filled or {}).items():
        missing[str(run)] = tuple(sorted(set(missing.get(str(run), ())) | {str(t) for t in topics}))
    frame = frame.fillna(0.0)
    frame.index = [str(t) for t in frame.index]
    frame.index.name = "query_id"
    names = list(frame.columns)
    topics = tuple(frame.index)
    results = []
    for index, (i, j) in enumerate(_pair_list(names, baseline, pairs)):
        results.append(
            paired_comparison(
                frame.iloc[:, i].to_numpy(), frame.iloc[:, j].to_numpy(), topics=topics,
                names=(names[i], names[j]), measure=measure, rounds=rounds, seed=seed + index,
                confidence=confidence, exact_max=exact_max,
            )
        )
    if len(results) > 1:
        adjusted = {
            key: holm([getattr(r, f"{key}_p_value") for r in results]) for key in ("t", "wilcoxon", "randomization")
        }
        results = [
            replace(r, **{f"{key}_p_holm": float(adjusted[key][k]) for key in adjusted}) for k, r in enumerate(results)
        ]
    return Comparison(
        measure=measure, scores=frame, pairs=tuple(results),
        filled={run: topics for run, topics in missing.items() if topics}, configuration=configuration,
    )


def compare_runs(
    qrels: object,
    runs: Mapping[str, object],
    measures: str | Sequence[str] = "ndcg",
    *,
    baseline: str | None = None,
    pairs: str = "baseline",
    rounds: int = 10_000,
    seed: int = 0,
    confidence: float = 0.95,
    exact_max: int = EXACT_MAX,
    complete: bool = False,
    **evaluate_options: object,
) -> list[Comparison]:
    """Score each run with :func:`evaluate_run` and compare them, one :class:`Comparison` per measure.

    ``evaluate_options`` are :func:`evaluate_run`'s (``gain``, ``discount``, ``base``,
    ``unjudged``, ``max_docs``, ``relevance_level``). The topics compared are the qrels
    topics that at least one run has lines for (``complete=True``: every qrels topic); a
    run without lines for one of them scores 0 there (trec_eval ``-c``).

    >>> qrels = {"q1": {"d1": 2, "d2": 1}, "q2": {"d3": 1}, "q3": {"d4": 1}}
    >>> a = {"q1": {"d2": 2.0, "d1": 1.0}, "q2": {"d9": 1.0}, "q3": {"d4": 1.0}}
    >>> b = {"q1": {"d1": 2.0, "d2": 1.0}, "q2": {"d3": 1.0}}
    >>> [c] = compare_runs(qrels, {"a": a, "b": b})
    >>> c.filled, c.scores["b"].round(3).tolist()
    ({'b': ('q3',)}, [1.0, 1.0, 0.0])
    """
    if len(runs) < 2:
        raise ValueError(f"a comparison needs at least 2 runs; got {len(runs)}. Give a second run.")
    if isinstance(measures, str):
        measures = [measures]
    parse_measures(measures)  # a bad measure is reported before any run is scored
    evaluations = {
        str(name): evaluate_run(qrels, run, measures, complete=True, **evaluate_options)  # type: ignore[arg-type]
        for name, run in runs.items()
    }
    first = next(iter(evaluations.values()))
    topics = list(first.topics)
    if complete:
        keep = np.ones(len(topics), dtype=bool)
    else:
        absent = set.intersection(*(set(e.missing_topics) for e in evaluations.values()))
        keep = np.array([t not in absent for t in topics], dtype=bool)
    if not keep.any():
        raise ValueError(
            "the runs and the qrels must share at least one topic; no run has lines for a qrels topic. "
            "Check that the files belong to the same test collection."
        )
    kept = [t for t, k in zip(topics, keep) if k]
    filled = {name: tuple(t for t in e.missing_topics if t in set(kept)) for name, e in evaluations.items()}
    configuration = first.describe().split(";")[0]
    comparisons = []
    for column, measure in enumerate(first.measures):
        frame = pd.DataFrame(
            {name: e.values[keep, column] for name, e in evaluations.items()},
            index=pd.Index(kept, name="query_id"),
        )
        comparisons.append(
            compare_scores(
                frame, measure=measure, baseline=baseline, pairs=pairs, rounds=rounds, seed=seed,
                confidence=confidence, exact_max=exact_max, filled=filled, configuration=configuration,
            )
        )
    return comparisons
