"""One-off cross-check of ndcg_core.trec.significance against ranx (not part of the test run).

ranx compiles its kernels with numba on first use (tens of seconds), so this is a script, not
a test. Run it in an environment with ranx installed, e.g.::

    python -m venv /tmp/ranx-env && /tmp/ranx-env/bin/pip install ranx
    PYTHONPATH=. /tmp/ranx-env/bin/python bench/ranx_check.py

It prints, for the toy collection's nDCG@10 (classic vs novel and tuned) and for seeded
random per-topic scores: ranx's per-topic nDCG@10 against ours (run_tuned has tied scores,
which ranx orders differently from trec_eval: about 0.005 on one topic), then, on ranx's own
per-topic numbers, ranx's paired t-test p (scipy's ttest_rel: equal to ours) and its Fisher
randomization p (Monte Carlo, 1,000 permutations, seed 42, count / n without the +1: close
to our exact p, not equal, and it can print 0). It exits 1 if the t-test p-values differ by
more than 1e-9.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import numpy as np

from ndcg_core import trec
from ndcg_core.trec.significance import compare_runs, paired_comparison

ROOT = Path(__file__).resolve().parents[1]
TOY = ROOT / "data" / "toy"


def main() -> int:
    # ranx (numba) is not a declared dependency nor in the test extra on purpose: this one-off
    # script loads it by name, in an environment where it was installed by hand
    ranx = importlib.import_module("ranx")
    tests = importlib.import_module("ranx.statistical_tests")
    Qrels, Run, evaluate = ranx.Qrels, ranx.Run, ranx.evaluate
    fisher_randomization_test, paired_student_t_test = tests.fisher_randomization_test, tests.paired_student_t_test

    worst = 0.0
    qrels = trec.read_qrels(TOY / "qrels.txt")
    names = ("classic", "novel", "tuned")
    [ours] = compare_runs(qrels, {n: trec.read_run(TOY / f"run_{n}.txt") for n in names}, "ndcg_cut.10")
    rq = Qrels.from_file(str(TOY / "qrels.txt"), kind="trec")
    scores = {}
    for n in names:
        run = Run.from_file(str(TOY / f"run_{n}.txt"), kind="trec")
        per_topic = evaluate(rq, run, "ndcg@10", return_mean=False)
        scores[n] = np.asarray(per_topic, dtype=float)
        diff = float(np.abs(scores[n] - ours.scores[n].to_numpy()).max())
        print(f"{n:8s} per-topic nDCG@10, ranx vs ndcg_core: max |difference| = {diff:.2e}"
              + ("  (tied scores: ranx orders ties its own way, trec_eval by document id)" if diff > 1e-9 else ""))
    for pair in ours.pairs:
        a, b = scores[pair.baseline], scores[pair.other]
        pair = paired_comparison(a, b, names=(pair.baseline, pair.other))  # the tests on ranx's own numbers
        p_t, _ = paired_student_t_test(a, b)
        p_f, _ = fisher_randomization_test(a, b, n_permutations=1000, max_p=0.01, random_seed=42)
        worst = max(worst, abs(p_t - pair.t_p_value))
        print(f"{pair.baseline} vs {pair.other}: t-test p ranx {p_t:.6f} ours {pair.t_p_value:.6f}; "
              f"randomization p ranx {p_f:.4f} (1,000 MC, seed 42) ours {pair.randomization_p_value:.4f} "
              f"({'exact' if pair.randomization_exact else 'MC'})")
    rng = np.random.default_rng(3)
    for n_topics in (8, 50, 300):
        a = rng.random(n_topics)
        b = np.clip(a + rng.normal(0.03, 0.15, n_topics), 0, 1)
        mine = paired_comparison(a, b)
        p_t, _ = paired_student_t_test(a, b)
        p_f, _ = fisher_randomization_test(a, b, n_permutations=10_000, max_p=0.01, random_seed=42)
        worst = max(worst, abs(p_t - mine.t_p_value))
        print(f"random, {n_topics:3d} topics: t-test p ranx {p_t:.6f} ours {mine.t_p_value:.6f}; "
              f"randomization p ranx {p_f:.4f} ours {mine.randomization_p_value:.4f}")
    print(f"largest disagreement on deterministic figures: {worst:.2e}")
    return 0 if worst <= 1e-9 else 1


if __name__ == "__main__":
    sys.exit(main())
