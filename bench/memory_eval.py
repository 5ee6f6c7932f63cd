"""Peak memory and wall time of ndcg-eval, trec_eval 10.0 and pytrec_eval on a 200 MB run.

Generates (seeded, numpy) a run of 7,000 topics x 1,000 documents (about 200 MB: the run
written in rank order, 2-decimal scores, so many ties) and its qrels (the top 100 of
each topic, a tenth of the rest and 50 unretrieved documents, labels -1 to 3), builds
trec_eval 10.0 from ``../shared/trec_eval-10.0`` into a temporary folder (needs cc and
make), then runs, alternating, each tool as a subprocess under a small parent that reads
its peak memory (max RSS of the child), wall time and CPU time (user + system, all threads:
on a loaded machine it moves less than the wall time):

* ``ndcg-eval -q [-m ...] QRELS RUN`` (``python -m ndcg_core.trec.cli``);
* ``trec_eval -q`` with the same measures;
* a script doing pytrec_eval's ``parse_qrel`` + ``parse_run`` + ``evaluate`` with them
  (pytrec_eval cannot print trec_eval's format; its values are not compared here).

ndcg-eval's and trec_eval's stdout are compared byte for byte. ``--baseline-root DIR``
adds the ndcg-eval of another checkout as a fourth tool, run in the same rounds, for
before/after tables (e.g. ``git archive COMMIT ndcg_core | tar -x -C /tmp/before``, then
``--baseline-root /tmp/before``). The load average is printed with each table (the
machine may be shared: compare ratios, and repeat). Run:
``.venv/bin/python bench/memory_eval.py [--topics 7000 --depth 1000 --repeat 3]`` (a few
minutes: generating the files takes most of it). It is a measurement, not a test: it exits
1 only when ndcg-eval's output and trec_eval's differ.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

MEASURE_SCRIPT = r"""
import resource, subprocess, sys, time
start = time.perf_counter()
done = subprocess.run(sys.argv[2:], stdout=open(sys.argv[1], "wb"))
wall = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, done.returncode)
"""

PYTREC_SCRIPT = r"""
import sys
import pytrec_eval
with open(sys.argv[1]) as f:
    qrels = pytrec_eval.parse_qrel(f)
with open(sys.argv[2]) as f:
    run = pytrec_eval.parse_run(f)
result = pytrec_eval.RelevanceEvaluator(qrels, set(sys.argv[3:])).evaluate(run)
print(len(result))
"""

MEASURE_SETS = {
    "ndcg_cut.10": ["-m", "ndcg_cut.10"],
    "default (runid num_q ndcg ndcg_cut)": ["-m", "runid", "-m", "num_q", "-m", "ndcg", "-m", "ndcg_cut"],
    "map P ndcg": ["-m", "map", "-m", "P", "-m", "ndcg"],
}


def generate(folder: Path, topics: int, depth: int, seed: int) -> tuple[Path, Path]:
    """The run (rank order, tied 2-decimal scores) and its qrels, written in blocks of topics."""
    rng = np.random.default_rng(seed)
    prime = 2_000_003
    run_path, qrels_path = folder / "run.txt", folder / "qrels.txt"
    with open(run_path, "w") as run_file, open(qrels_path, "w") as qrels_file:
        for first in range(0, topics, 500):
            block = min(500, topics - first)
            a = rng.integers(1, prime, size=(block, 1))
            b = rng.integers(0, prime, size=(block, 1))
            docs = (a * np.arange(depth + 50) + b) % prime  # distinct within a topic
            scores = np.sort(np.round(rng.gamma(2.0, 2.0, size=(block, depth)), 2), axis=1)[:, ::-1]
            lines = []
            qlines = []
            for t in range(block):
                qid = 1001 + first + t
                row = docs[t]
                lines.extend(
                    f"{qid} Q0 D{doc:07d} {rank} {score:.2f} bench\n"
                    for rank, (doc, score) in enumerate(zip(row[:depth].tolist(), scores[t].tolist()), 1)
                )
                judged = np.concatenate([row[:100], row[100:depth][rng.random(depth - 100) < 0.1], row[depth:]])
                labels = rng.choice([0, 0, 0, 0, 1, 1, 2, 3, -1], size=len(judged))
                qlines.extend(f"{qid} 0 D{doc:07d} {label}\n" for doc, label in zip(np.sort(judged).tolist(), labels.tolist()))
            run_file.write("".join(lines))
            qrels_file.write("".join(qlines))
    return qrels_path, run_path


def build_trec_eval(folder: Path) -> Path:
    source = next(p / "shared" / "trec_eval-10.0" for p in ROOT.parents if (p / "shared" / "trec_eval-10.0").is_dir())
    build = folder / "trec_eval-src"
    shutil.copytree(source, build, ignore=shutil.ignore_patterns("test"))
    for path in [build, *build.rglob("*")]:
        path.chmod(path.stat().st_mode | 0o200)
    compiler = shutil.which("cc") or "gcc"
    subprocess.run(["make", "-s", f"CC={compiler}", "trec_eval"], cwd=build, check=True, capture_output=True)
    return build / "trec_eval"


def measured(command: list[str], output: Path, root: Path = ROOT) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user + system, all threads) and peak RSS (MiB) of one
    command, run under its own small parent (Python imports come from ``root``)."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run(  # in root: ``python -m`` looks in the working folder first
        [sys.executable, "-c", MEASURE_SCRIPT, str(output), *command],
        capture_output=True, text=True, check=True, env=env, cwd=root,
    )
    wall, cpu, rss_kb, status = done.stdout.split()
    if status != "0":
        raise SystemExit(f"{command[:3]} failed with status {status}")
    return float(wall), float(cpu), int(rss_kb) / 1024


def pytrec_names(flags: list[str]) -> list[str]:
    names = [flags[i + 1] for i in range(0, len(flags), 2)]
    return [name for name in names if name not in ("runid", "num_q")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=7000)
    parser.add_argument("--depth", type=int, default=1000)
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs of each tool; best wall and CPU time, highest peak memory"
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--sets", nargs="*", choices=list(MEASURE_SETS), default=list(MEASURE_SETS))
    parser.add_argument("--keep", metavar="DIR", help="write (or reuse) the collection in DIR instead of a temporary folder")
    parser.add_argument(
        "--baseline-root", metavar="DIR", type=Path,
        help="also run the ndcg-eval of this checkout (its ndcg_core), e.g. main before a change",
    )
    args = parser.parse_args()

    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="ndcg-memory-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        qrels_path, run_path = folder / "qrels.txt", folder / "run.txt"
        if not (qrels_path.exists() and run_path.exists()):
            qrels_path, run_path = generate(folder, args.topics, args.depth, args.seed)
        trec_eval = build_trec_eval(Path(tempfile.mkdtemp(prefix="trec-eval-")))
        print(f"collection: run {run_path.stat().st_size / 1e6:.0f} MB, qrels {qrels_path.stat().st_size / 1e6:.0f} MB (10^6 bytes); "
              f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
        identical = True
        for name in args.sets:
            flags = MEASURE_SETS[name]
            ndcg_eval = [sys.executable, "-m", "ndcg_core.trec.cli", "-q", *flags, str(qrels_path), str(run_path)]
            tools = {
                "ndcg-eval": (ndcg_eval, ROOT),
                "trec_eval": ([str(trec_eval), "-q", *flags, str(qrels_path), str(run_path)], ROOT),
                "pytrec_eval": ([sys.executable, "-c", PYTREC_SCRIPT, str(qrels_path), str(run_path), *pytrec_names(flags)], ROOT),
            }
            if args.baseline_root:
                tools["baseline"] = (ndcg_eval, args.baseline_root.resolve())
            best = {tool: (float("inf"), float("inf"), 0.0) for tool in tools}
            load_before = os.getloadavg()[0]
            for _ in range(args.repeat):
                for tool, (command, root) in tools.items():
                    wall, cpu, rss = measured(command, folder / f"{tool}.out", root)
                    best[tool] = (min(best[tool][0], wall), min(best[tool][1], cpu), max(best[tool][2], rss))
            same = (folder / "ndcg-eval.out").read_bytes() == (folder / "trec_eval.out").read_bytes()
            identical &= same
            te_wall, te_cpu, te_rss = best["trec_eval"]
            print(f"\n-m {name} -q   (stdout of ndcg-eval and trec_eval identical: {same}; "
                  f"load average {load_before:.2f} before, {os.getloadavg()[0]:.2f} after)")
            print(f"  {'':12}{'wall s':>9}{'cpu s':>8}{'peak MiB':>10}{'wall/trec_eval':>16}{'cpu/trec_eval':>15}"
                  f"{'memory/trec_eval':>18}")
            for tool, (wall, cpu, rss) in best.items():
                print(f"  {tool:12}{wall:9.2f}{cpu:8.2f}{rss:10.0f}{wall / te_wall:16.2f}{cpu / te_cpu:15.2f}{rss / te_rss:18.2f}")
            if args.baseline_root:
                print(f"  (baseline: ndcg-eval of {args.baseline_root})")
        return 0 if identical else 1
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
