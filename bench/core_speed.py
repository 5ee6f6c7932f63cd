"""Core speed: ndcg and breakdown on one 1,000-label list, against scikit-learn's ndcg_score.

Targets (ARCHITECTURE.md, performance targets): ``ndcg`` in at most half the time of ``sklearn.metrics.ndcg_score`` on
the same list, measured side by side in this process; ``breakdown`` in a few milliseconds.
Prints medians of repeated timings and the ratios; asserts nothing about time.

    .venv/bin/python bench/core_speed.py
"""

from __future__ import annotations

import statistics
import time

import numpy as np

import ndcg_core as nc


def median_seconds(func, repeat: int = 7, number: int = 200) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            func()
        times.append((time.perf_counter() - start) / number)
    return statistics.median(times)


def main() -> None:
    from sklearn.metrics import ndcg_score

    rng = np.random.default_rng(0)
    labels = rng.integers(0, 4, size=1000).tolist()
    scores = np.arange(1000, 0, -1, dtype=float)
    y_true, y_score = np.array([labels]), scores[None, :]
    assert abs(nc.ndcg(labels) - ndcg_score(y_true, y_score)) < 1e-12

    t_sklearn = median_seconds(lambda: ndcg_score(y_true, y_score))
    t_ndcg = median_seconds(lambda: nc.ndcg(labels))
    t_ndcg_k = median_seconds(lambda: nc.ndcg(labels, 10, judgments=labels))
    t_breakdown = median_seconds(lambda: nc.breakdown(labels, judgments=labels), number=50)
    print(f"sklearn ndcg_score (baseline)     {t_sklearn * 1e6:9.1f} us")
    print(f"ndcg_core.ndcg                    {t_ndcg * 1e6:9.1f} us   ratio {t_ndcg / t_sklearn:.2f}x (target <= 0.5x)")
    print(f"ndcg_core.ndcg k=10, judgments    {t_ndcg_k * 1e6:9.1f} us   ratio {t_ndcg_k / t_sklearn:.2f}x")
    print(f"ndcg_core.breakdown               {t_breakdown * 1e6:9.1f} us   ratio {t_breakdown / t_sklearn:.2f}x (target: a few ms)")


if __name__ == "__main__":
    main()
