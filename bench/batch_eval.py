"""Batch evaluation benchmark: ndcg-eval against pytrec_eval on 1,000 topics x 1,000 documents.

Generates a seeded collection into a temporary directory (runs written in rank order with
many tied scores in no particular order, as real runs are; qrels with labels -1 to 3), then,
in the same session and alternating the two tools:

* wall time in process: ``ndcg_core.trec.cli.main(["-m", "ndcg_cut.10", QRELS, RUN])`` against
  ``pytrec_eval.parse_qrel`` + ``parse_run`` + ``RelevanceEvaluator(...).evaluate`` (each the
  best of ``--repeat`` runs, interpreter start-up and imports excluded);
* wall time and peak memory (max RSS) as subprocesses: ``ndcg-eval -m ndcg_cut.10 -q`` against
  a script doing the pytrec_eval steps (imports and start-up included);
* the per-topic values: ndcg-eval's printed lines against pytrec_eval's values printed the
  same way, and evaluate_run's floats against pytrec_eval's to 1e-12.

Run: ``.venv/bin/python bench/batch_eval.py`` (about a minute). The target (ARCHITECTURE.md) is at most
0.4x pytrec_eval's wall time, no more peak memory, identical values; the script prints the
ratios and says which targets are met. It is a measurement, not a test: it always exits 0
unless the values differ.
"""

from __future__ import annotations

import argparse
import compileall
import gc
import io
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import redirect_stdout
from pathlib import Path

import pytrec_eval

import ndcg_core

from ndcg_core.trec.cli import main as ndcg_eval_main
from ndcg_core.trec.evaluate import evaluate_run
from ndcg_core.trec.files import read_qrels, read_run

PYTREC_SCRIPT = r"""
import json, sys
import pytrec_eval

import ndcg_core
with open(sys.argv[1]) as f:
    qrels = pytrec_eval.parse_qrel(f)
with open(sys.argv[2]) as f:
    run = pytrec_eval.parse_run(f)
result = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10"}).evaluate(run)
json.dump({q: v["ndcg_cut_10"] for q, v in result.items()}, sys.stdout)
"""

MEASURE_SCRIPT = r"""
import resource, subprocess, sys, time
start = time.perf_counter()
done = subprocess.run(sys.argv[2:], stdout=open(sys.argv[1], "wb"))
wall = time.perf_counter() - start
print(wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, done.returncode)
"""


def generate(folder: Path, topics: int, depth: int, seed: int) -> tuple[Path, Path]:
    """A run of ``depth`` documents per topic (2-decimal scores: many ties) and its qrels."""
    rng = random.Random(seed)
    run_lines: list[str] = []
    qrels_lines: list[str] = []
    for t in range(topics):
        qid = str(1001 + t)
        docs = rng.sample(range(2_000_000), depth)
        scores = [round(rng.gammavariate(2.0, 2.0), 2) for _ in docs]
        ranked = sorted(zip(docs, scores), key=lambda pair: -pair[1])  # stable: ties in random order
        for rank, (doc, score) in enumerate(ranked, start=1):
            run_lines.append(f"{qid} Q0 D{doc:07d} {rank} {score:.2f} bench\n")
        judged = {doc for doc, _ in ranked[:100]}
        judged |= {doc for doc, _ in ranked[100:] if rng.random() < 0.1}
        judged |= set(rng.sample(range(2_000_000), 50))
        for doc in sorted(judged):
            qrels_lines.append(f"{qid} 0 D{doc:07d} {rng.choice((0, 0, 0, 0, 1, 1, 2, 3, -1))}\n")
    run_path, qrels_path = folder / "run.txt", folder / "qrels.txt"
    run_path.write_text("".join(run_lines))
    qrels_path.write_text("".join(qrels_lines))
    return qrels_path, run_path


def time_in_process(function, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def measured(command: list[str], output: Path) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of one command, run under its own small parent."""
    done = subprocess.run(
        [sys.executable, "-c", MEASURE_SCRIPT, str(output), *command], capture_output=True, text=True, check=True
    )
    wall, rss_kb, status = done.stdout.split()
    if status != "0":
        raise SystemExit(f"{command[0]} failed with status {status}")
    return float(wall), int(rss_kb) / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=1000)
    parser.add_argument("--depth", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3, help="timed repetitions; the best is kept")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    script = shutil.which("ndcg-eval", path=str(Path(sys.executable).parent))
    if script is None:
        raise SystemExit("ndcg-eval is not installed next to this Python; run pip install -e . first")

    # Byte-compile ndcg_core as a regular installation does (pip compiles what it installs;
    # an editable install under PYTHONDONTWRITEBYTECODE=1 would recompile it on every start,
    # which no user pays twice). pytrec_eval is a regular installation already.
    compileall.compile_dir(str(Path(ndcg_core.__file__).parent), quiet=1)

    folder = Path(tempfile.mkdtemp(prefix="ndcg-bench-"))
    try:
        qrels_path, run_path = generate(folder, args.topics, args.depth, args.seed)
        lines = sum(1 for _ in open(run_path)), sum(1 for _ in open(qrels_path))
        print(f"collection: {args.topics} topics x {args.depth} documents; run {lines[0]:,} lines, "
              f"qrels {lines[1]:,} lines ({run_path.stat().st_size / 1e6:.1f} MB + {qrels_path.stat().st_size / 1e6:.1f} MB)")

        def ours() -> None:
            with redirect_stdout(io.StringIO()):
                ndcg_eval_main(["-m", "ndcg_cut.10", str(qrels_path), str(run_path)])

        def theirs() -> None:
            with open(qrels_path) as f:
                qrels = pytrec_eval.parse_qrel(f)
            with open(run_path) as f:
                run = pytrec_eval.parse_run(f)
            pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10"}).evaluate(run)

        ours()  # warm the file cache and imports for both
        theirs()
        in_ours, in_theirs = float("inf"), float("inf")
        for _ in range(args.repeat):  # alternate, so load changes hit both alike
            in_ours = min(in_ours, time_in_process(ours, 1))
            in_theirs = min(in_theirs, time_in_process(theirs, 1))

        sub_ours = sub_theirs = (float("inf"), 0.0)
        for _ in range(args.repeat):
            wall, rss = measured([script, "-q", "-m", "ndcg_cut.10", str(qrels_path), str(run_path)], folder / "ours.out")
            sub_ours = (min(sub_ours[0], wall), max(sub_ours[1], rss))
            wall, rss = measured([sys.executable, "-c", PYTREC_SCRIPT, str(qrels_path), str(run_path)], folder / "theirs.json")
            sub_theirs = (min(sub_theirs[0], wall), max(sub_theirs[1], rss))

        # values: the printed lines, and the floats
        reference = json.loads((folder / "theirs.json").read_text())
        printed = {}
        for line in (folder / "ours.out").read_text().splitlines():
            name, qid, value = line.split("\t")
            if name.strip() == "ndcg_cut_10" and qid != "all":
                printed[qid] = value
        expected = {qid: f"{value:6.4f}" for qid, value in reference.items()}
        lines_identical = printed == expected
        result = evaluate_run(read_qrels(qrels_path), read_run(run_path), "ndcg_cut.10")
        ours_values = result.per_topic["ndcg_cut_10"]
        max_diff = max(abs(float(ours_values[qid]) - value) for qid, value in reference.items())
        same_topics = set(ours_values.index) == set(reference)

        print()
        print(f"{'':34}{'ndcg-eval':>12}{'pytrec_eval':>14}{'ratio':>9}")
        print(f"{'wall, in process (best of %d)' % args.repeat:34}{in_ours:11.3f}s{in_theirs:13.3f}s{in_ours / in_theirs:9.2f}")
        print(f"{'wall, subprocess (best of %d)' % args.repeat:34}{sub_ours[0]:11.3f}s{sub_theirs[0]:13.3f}s{sub_ours[0] / sub_theirs[0]:9.2f}")
        print(f"{'peak memory, subprocess (max RSS)':34}{sub_ours[1]:10.0f}MB{sub_theirs[1]:12.0f}MB{sub_ours[1] / sub_theirs[1]:9.2f}")
        print()
        print(f"per-topic values: {len(reference)} topics; printed lines identical: {lines_identical}; "
              f"max |difference| = {max_diff:.2e}; same topics: {same_topics}")
        print(f"targets: wall <= 0.4x in process: {'met' if in_ours <= 0.4 * in_theirs else 'NOT met'}; "
              f"as subprocess: {'met' if sub_ours[0] <= 0.4 * sub_theirs[0] else 'NOT met'}; "
              f"memory <= pytrec_eval: {'met' if sub_ours[1] <= sub_theirs[1] else 'NOT met'}; "
              f"values identical: {'met' if lines_identical and max_diff <= 1e-12 and same_topics else 'NOT met'}")
        print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the end")
        return 0 if lines_identical and max_diff <= 1e-12 and same_topics else 1
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
