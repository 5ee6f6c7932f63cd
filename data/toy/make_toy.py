"""Generate the toy TREC collection in data/toy/ (seeded: the same files on every run).

Ten topics over a collection of 1,500 documents. Every topic has 24 relevant documents
(labels 1, 2, 3) and the rest are not relevant (label 0). A relevant document is either
*mainstream* (60 %: what conventional systems find) or *niche* (40 %: found mostly by a
system that works differently).

Three systems rank the whole collection by a noisy score and keep the top 100:

* ``classic`` and ``tuned`` reward mainstream relevant documents; ``tuned`` prints its
  scores with one decimal, so it has many tied scores (trec_eval breaks them by document
  id, descending);
* ``novel`` rewards niche relevant documents most.

The judgment pool is the union of the top 10 of ``classic`` and ``tuned`` (the usual TREC
setup: only contributing systems are pooled), "top" in trec_eval's order (score, then
document id, descending), so every pooled system's top 10 is judged. ``qrels.txt`` judges exactly that pool;
``qrels_full.txt`` is the full truth: every document any run retrieved plus every relevant
document. Scored against the pool, ``novel`` looks worse than it is, because most of what
it finds was never judged.

Run from the repository root::

    python data/toy/make_toy.py            # rewrites the files next to this script
    python data/toy/make_toy.py --out DIR  # writes them somewhere else
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

SEED = 20260515
TOPICS = [str(t) for t in range(101, 111)]
N_DOCS = 1500
DEPTH = 100
POOL_DEPTH = 10
POOL_SYSTEMS = ("classic", "tuned")
LABEL_COUNTS = {1: 12, 2: 8, 3: 4}
NICHE_SHARE = 0.4
# weight of a relevant document's label in each system's score: (mainstream, niche)
WEIGHTS = {"classic": (1.1, 0.15), "tuned": (1.4, 0.25), "novel": (1.0, 1.7)}
DECIMALS = {"classic": 4, "tuned": 1, "novel": 4}


def doc_id(n: int) -> str:
    return f"DOC-{n:04d}"


def generate(rng: random.Random):
    """Truth labels, niche flags and the three runs, topic by topic."""
    truth: dict[str, dict[str, int]] = {}
    runs: dict[str, dict[str, list[tuple[str, float]]]] = {name: {} for name in WEIGHTS}
    for topic in TOPICS:
        relevant = rng.sample(range(1, N_DOCS + 1), sum(LABEL_COUNTS.values()))
        labels: dict[str, int] = {}
        niche: set[str] = set()
        position = 0
        for label, count in LABEL_COUNTS.items():
            for n in relevant[position:position + count]:
                labels[doc_id(n)] = label
                if rng.random() < NICHE_SHARE:
                    niche.add(doc_id(n))
            position += count
        truth[topic] = labels
        for name, (mainstream, other) in WEIGHTS.items():
            scored = []
            for n in range(1, N_DOCS + 1):
                doc = doc_id(n)
                weight = other if doc in niche else mainstream
                score = labels.get(doc, 0) * weight + rng.gauss(0.0, 1.0)
                scored.append((doc, round(score, DECIMALS[name])))
            rng.shuffle(scored)  # tied scores end up in no particular order, as in real runs
            scored.sort(key=lambda pair: -pair[1])  # stable: ties keep the shuffled order
            runs[name][topic] = scored[:DEPTH]
    return truth, runs


def trec_eval_top(ranked: list[tuple[str, float]], depth: int) -> list[str]:
    """The first ``depth`` documents in trec_eval's order: score, then document id, descending."""
    return [doc for doc, _ in sorted(ranked, key=lambda pair: (pair[1], pair[0]), reverse=True)[:depth]]


def write(out: Path) -> None:
    rng = random.Random(SEED)
    truth, runs = generate(rng)
    out.mkdir(parents=True, exist_ok=True)
    for name, topics in runs.items():
        lines = []
        for topic, ranked in topics.items():
            for rank, (doc, score) in enumerate(ranked, start=1):
                lines.append(f"{topic} Q0 {doc} {rank} {score:.{DECIMALS[name]}f} {name}\n")
        (out / f"run_{name}.txt").write_text("".join(lines))
    pooled, full = [], []
    for topic in TOPICS:
        pool = {doc for name in POOL_SYSTEMS for doc in trec_eval_top(runs[name][topic], POOL_DEPTH)}
        everything = {doc for name in runs for doc, _ in runs[name][topic]} | set(truth[topic])
        for doc in sorted(pool):
            pooled.append(f"{topic} 0 {doc} {truth[topic].get(doc, 0)}\n")
        for doc in sorted(everything):
            full.append(f"{topic} 0 {doc} {truth[topic].get(doc, 0)}\n")
    (out / "qrels.txt").write_text("".join(pooled))
    (out / "qrels_full.txt").write_text("".join(full))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    write(parser.parse_args().out)


if __name__ == "__main__":
    main()
