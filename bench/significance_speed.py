"""Randomization-test speed: 10,000 sign-flip rounds on 1,000 topics.

Seeded per-topic scores for two runs (1,000 topics). In the same session it times (best
of ``--repeat``):

* the baseline: ``scipy.stats.permutation_test`` on the same pairs, paired
  (``permutation_type="samples"``), with a vectorised mean-difference statistic and the
  same number of rounds;
* ``ndcg_core.trec.significance.randomization_test`` (blocks of random sign masks, one
  matrix product per block);
* the whole ``paired_comparison`` (t-test, Wilcoxon, randomization and bootstrap).

Run: ``.venv/bin/python bench/significance_speed.py`` (a few seconds). It prints the times,
the ratio to scipy and both p-values (Monte Carlo: close, not equal); it is a measurement,
not a test, and always exits 0. The target: the randomization test within about a second.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from scipy import stats

from ndcg_core.trec.significance import paired_comparison, randomization_test


def best_of(repeat: int, call):  # type: ignore[no-untyped-def]
    best, value = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        value = call()
        best = min(best, time.perf_counter() - start)
    return best, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(42)
    a = rng.random(args.topics)
    b = np.clip(a + rng.normal(0.01, 0.1, args.topics), 0, 1)

    def scipy_call():  # type: ignore[no-untyped-def]
        return stats.permutation_test(
            (b, a), lambda x, y, axis: np.mean(x - y, axis=axis), permutation_type="samples",
            vectorized=True, n_resamples=args.rounds, rng=np.random.default_rng(0),
        ).pvalue

    base, p_scipy = best_of(args.repeat, scipy_call)
    ours, result = best_of(args.repeat, lambda: randomization_test(b - a, rounds=args.rounds, seed=0))
    whole, _ = best_of(args.repeat, lambda: paired_comparison(a, b, rounds=args.rounds, seed=0))
    print(f"{args.topics} topics, {args.rounds} rounds (best of {args.repeat})")
    print(f"scipy.stats.permutation_test      {base:8.3f} s   p = {p_scipy:.4f}")
    print(f"randomization_test                {ours:8.3f} s   p = {result.p_value:.4f}   ratio {base / ours:6.1f}x faster")
    print(f"paired_comparison (all figures)   {whole:8.3f} s")


if __name__ == "__main__":
    main()
