"""ndcg-eval against trec_eval 10.0 and pytrec_eval on runs shaped like real submissions.

Shapes (seeded, numpy; ``--topics`` topics each):

=================  =====================================================================
shape              run
=================  =====================================================================
clueweb-sorted     topics in order, ranks 1..depth, 6-decimal scores descending,
                   ClueWeb-style ids of 25 characters (``clueweb09-en0042-17-00031``)
clueweb-unsorted   the same lines in a random order
msmarco-sorted     as clueweb-sorted with MS MARCO's short numeric ids (``7067032``)
random-ties        the earlier bench's shape: rank order, 2-decimal scores (many ties,
                   in no particular order), ``D1234567`` ids
=================  =====================================================================

each at depth 1,000 and 100 (``--depths``). The qrels judge the top 100 of each topic, a
tenth of the rest and 50 documents never retrieved (labels -1 to 3).

For each shape, alternating the tools ``--repeat`` times (best wall and CPU time,
highest peak memory), each as a subprocess under a small parent that reads its max RSS:
``ndcg-eval -q`` (default measures), ``trec_eval -q -m runid -m num_q -m ndcg -m
ndcg_cut`` (built from ``../shared/trec_eval-10.0``; the two stdouts are compared byte for
byte), pytrec_eval (``ndcg``, ``ndcg_cut``) and the floor: a Python process that only
reads both files and splits them into lines (``bytes.split``). It prints every ratio in
one table, with the load average (the machine may be shared: compare ratios within a
run). Three runs by default: on these VMs memory a process touches for the first time
can cost a hundred times more from one run to the next (freed memory goes back to the host),
for every tool alike, and the best of three is steadier than the best of two. Targets: wall <= 0.5x trec_eval's and <= 0.4x pytrec_eval's, peak memory <=
trec_eval's.

Run: ``.venv/bin/python bench/real_shapes.py [--topics 1000 --repeat 3]`` (minutes: it
generates the files first). A measurement, not a test: it exits 1 only when ndcg-eval's
output and trec_eval's differ.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from memory_eval import PYTREC_SCRIPT, build_trec_eval, measured  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
FLAGS = ["-m", "runid", "-m", "num_q", "-m", "ndcg", "-m", "ndcg_cut"]
FLOOR_SCRIPT = r"""
import sys
for path in sys.argv[1:]:
    with open(path, "rb") as handle:
        lines = handle.read().split(b"\n")
    print(len(lines))
"""
SHAPES = ("clueweb-sorted", "clueweb-unsorted", "msmarco-sorted", "random-ties")


def _ids(style: str, numbers: np.ndarray) -> list[str]:
    if style == "clueweb":
        return [f"clueweb09-en{n // 10**7:04d}-{n // 10**5 % 100:02d}-{n % 10**5:05d}" for n in numbers.tolist()]
    if style == "msmarco":
        return [str(n) for n in numbers.tolist()]
    return [f"D{n:07d}" for n in numbers.tolist()]


def generate(folder: Path, shape: str, topics: int, depth: int, seed: int) -> tuple[Path, Path]:
    """The qrels and run files of one shape (see the module docstring)."""
    rng = np.random.default_rng(seed)
    style = shape.split("-")[0]
    space = {"clueweb": 10**9, "msmarco": 8_841_823, "random": 2_000_000}[style]
    run_lines: list[str] = []
    qrels_lines: list[str] = []
    for t in range(topics):
        qid = str(1 + t)
        numbers = rng.choice(space, size=depth + 50, replace=False)
        docs = _ids(style, numbers)
        if style == "random":
            scores = np.sort(np.round(rng.gamma(2.0, 2.0, size=depth), 2))[::-1]
            text = [f"{s:.2f}" for s in scores.tolist()]
        else:
            scores = np.sort(rng.normal(10.0, 2.0, size=depth))[::-1]
            text = [f"{s:.6f}" for s in scores.tolist()]
        run_lines += [f"{qid} Q0 {doc} {rank} {score} bench\n" for rank, (doc, score) in enumerate(zip(docs, text), 1)]
        judged = docs[:100] + [d for d in docs[100:depth] if rng.random() < 0.1] + docs[depth:]
        labels = rng.choice([0, 0, 0, 0, 1, 1, 2, 3, -1], size=len(judged)).tolist()
        qrels_lines += [f"{qid} 0 {doc} {label}\n" for doc, label in zip(judged, labels)]
    if shape.endswith("unsorted"):
        rng.shuffle(run_lines)  # type: ignore[arg-type]
    qrels_path, run_path = folder / f"{shape}-{depth}.qrels", folder / f"{shape}-{depth}.run"
    qrels_path.write_text("".join(qrels_lines))
    run_path.write_text("".join(run_lines))
    return qrels_path, run_path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=1000)
    parser.add_argument("--depths", type=int, nargs="*", default=[1000, 100])
    parser.add_argument("--shapes", nargs="*", choices=SHAPES, default=list(SHAPES))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="ndcg-shapes-"))
    identical = True
    try:
        trec_eval = build_trec_eval(folder)
        print(f"{args.topics} topics per shape; {os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f} at the start")
        header = (f"{'shape':22}{'MB':>6}{'floor s':>9}{'ndcg-eval s':>12}{'MiB':>6}{'trec_eval s':>12}{'MiB':>6}"
                  f"{'pytrec s':>10}{'MiB':>6}{'/trec wall':>11}{'/trec cpu':>10}{'/trec mem':>10}{'/pytrec':>8}"
                  f"{'/floor':>7}{'same':>6}{'load':>6}")
        print(header)
        for depth in args.depths:
            for shape in args.shapes:
                qrels, run = generate(folder, shape, args.topics, depth, args.seed)
                tools = {
                    "ndcg-eval": [sys.executable, "-m", "ndcg_core.trec.cli", "-q", str(qrels), str(run)],
                    "trec_eval": [str(trec_eval), "-q", *FLAGS, str(qrels), str(run)],
                    "pytrec_eval": [sys.executable, "-c", PYTREC_SCRIPT, str(qrels), str(run), "ndcg", "ndcg_cut"],
                    "floor": [sys.executable, "-c", FLOOR_SCRIPT, str(qrels), str(run)],
                }
                best = {tool: (float("inf"), float("inf"), 0.0) for tool in tools}
                for _ in range(args.repeat):
                    for tool, command in tools.items():
                        wall, cpu, rss = measured(command, folder / f"{tool}.out", ROOT)
                        best[tool] = (min(best[tool][0], wall), min(best[tool][1], cpu), max(best[tool][2], rss))
                same = (folder / "ndcg-eval.out").read_bytes() == (folder / "trec_eval.out").read_bytes()
                identical &= same
                ours, te, py, floor = best["ndcg-eval"], best["trec_eval"], best["pytrec_eval"], best["floor"]
                size = (run.stat().st_size + qrels.stat().st_size) / 1e6
                print(f"{shape + ' d' + str(depth):22}{size:6.0f}{floor[0]:9.2f}{ours[0]:12.2f}{ours[2]:6.0f}{te[0]:12.2f}"
                      f"{te[2]:6.0f}{py[0]:10.2f}{py[2]:6.0f}{ours[0] / te[0]:11.2f}{ours[1] / te[1]:10.2f}"
                      f"{ours[2] / te[2]:10.2f}{ours[0] / py[0]:8.2f}{ours[0] / floor[0]:7.2f}{str(same):>6}"
                      f"{os.getloadavg()[0]:6.1f}", flush=True)
                run.unlink()
                qrels.unlink()
        print("ratios: ndcg-eval's over the other tool's (wall, CPU user+system of all threads, peak RSS); "
              "/floor: over reading and splitting the two files into lines. Targets: /trec wall <= 0.5, "
              "/trec mem <= 1, /pytrec <= 0.4.")
        return 0 if identical else 1
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
