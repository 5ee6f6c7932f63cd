"""Reconciler speed: the whole convention space on 1,000 topics x 1,000 documents.

Builds a seeded collection in memory (1,000 topics, 1,000 run documents each, scores
with many ties, qrels labels -1 to 3 on 300 documents per topic, some relevant ones
never retrieved), reads it through ``read_qrels``/``read_run`` as a user would, then in
the same session times (best of ``--repeat``):

* the baseline: one ``evaluate_run(qrels, run, ["ndcg_cut.10"])``;
* ``score_conventions(qrels, run, 10)``: every per-topic value of every configuration;
* ``reconcile(qrels, run, per_topic_target, k=10)``: the search and the ranking of all
  candidates, for a per-topic target made by scikit-learn's convention; then its
  explanation (a reason for every topic that changes).

Run: ``.venv/bin/python bench/reconcile_speed.py`` (under a minute). It prints the times and
the ratio to the baseline; it is a measurement, not a test, and always exits 0.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from ndcg_core.trec import evaluate_run, read_qrels, read_run
from ndcg_core.trec.conventions import PRESETS
from ndcg_core.trec.reconcile import reconcile, score_conventions


def collection(topics: int, docs: int, judged: int, seed: int) -> tuple[str, str]:
    rng = np.random.default_rng(seed)
    qrels_lines, run_lines = [], []
    for t in range(topics):
        qid = str(401 + t)
        pool = rng.choice(docs * 2, size=judged, replace=False)  # half of the judged are never retrieved
        labels = rng.choice([-1, 0, 0, 0, 1, 1, 2, 3], size=judged)
        qrels_lines += [f"{qid} 0 D{d:06d} {label}" for d, label in zip(pool, labels)]
        scores = np.round(rng.normal(10, 2, size=docs), 1)  # one decimal: many ties
        order = np.argsort(-scores, kind="stable")
        run_lines += [f"{qid} Q0 D{d:06d} {rank} {scores[d]:.1f} bench" for rank, d in enumerate(order, 1)]
    return "\n".join(qrels_lines) + "\n", "\n".join(run_lines) + "\n"


def best_of(repeat: int, func):  # type: ignore[no-untyped-def]
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = func()
        times.append(time.perf_counter() - start)
    return min(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=1000)
    parser.add_argument("--docs", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    qrels_text, run_text = collection(args.topics, args.docs, 300, seed=7)
    qrels, run = read_qrels(qrels_text), read_run(run_text)

    base, _ = best_of(args.repeat, lambda: evaluate_run(qrels, run, ["ndcg_cut.10"]))
    space, scores = best_of(args.repeat, lambda: score_conventions(qrels, run, 10))
    target = scores.per_topic(PRESETS["scikit-learn"].convention).round(4).astype(str).to_dict()
    search, found = best_of(args.repeat, lambda: reconcile(qrels, run, target, k=10))
    words, _ = best_of(1, lambda: found.explanation)

    n_conf = int(np.prod(scores.values.shape[:-1]))
    print(f"collection: {args.topics} topics x {args.docs} documents ({len(run):,} run lines, {len(qrels):,} qrels lines)")
    print(f"evaluate_run ndcg_cut.10 (baseline)     {base:7.3f} s")
    print(f"score_conventions, {n_conf:,} configurations {space:7.3f} s  ({space / base:5.1f}x the baseline)")
    print(f"reconcile, per-topic target            {search:7.3f} s  ({search / base:5.1f}x the baseline)")
    print(f"its explanation (every topic's reason) {words:7.3f} s")
    print(f"matched: {found.matched}; first match: {found.matches['presets'].iloc[0] or found.best.describe()}")


if __name__ == "__main__":
    main()
