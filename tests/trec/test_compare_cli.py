"""ndcg-eval --compare: the table in trec, csv and json formats, the flags, and a message for bad input."""

from __future__ import annotations

import csv
import io
import json
import math
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from ndcg_core import trec
from ndcg_core.trec.cli import run
from ndcg_core.trec.significance import compare_runs

ROOT = Path(__file__).resolve().parents[2]
TOY = ROOT / "data" / "toy"
QRELS_TOY, CLASSIC, NOVEL, TUNED = (str(TOY / f) for f in ("qrels.txt", "run_classic.txt", "run_novel.txt", "run_tuned.txt"))

# four topics, one relevant document each (label 1). Run a ranks it first everywhere (nDCG 1);
# run b ranks it 2nd for t1 (1/log2 3), 1st for t2, 3rd for t3 (1/log2 4 = 0.5), 1st for t4.
QRELS = "t1 0 d1 1\nt2 0 d2 1\nt3 0 d3 1\nt4 0 d4 1\n"
RUN_A = "".join(f"t{i} Q0 d{i} 1 2.0 a\nt{i} Q0 x{i} 2 1.0 a\n" for i in range(1, 5))
RUN_B = (
    "t1 Q0 x1 1 2.0 b\nt1 Q0 d1 2 1.0 b\n"
    "t2 Q0 d2 1 2.0 b\n"
    "t3 Q0 x3 1 3.0 b\nt3 Q0 y3 2 2.0 b\nt3 Q0 d3 3 1.0 b\n"
    "t4 Q0 d4 1 1.0 b\n"
)
DIFFS = [1 / math.log2(3) - 1, 0.0, 1 / math.log2(4) - 1, 0.0]


@pytest.fixture
def mini(tmp_path):
    paths = []
    for name, text in (("qrels", QRELS), ("a.run", RUN_A), ("b.run", RUN_B)):
        (tmp_path / name).write_text(text)
        paths.append(str(tmp_path / name))
    return paths


def call(*args):
    out, err = io.StringIO(), io.StringIO()
    status = run([str(a) for a in args], stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_hand_derived_table(mini):
    qrels, a, b = mini
    status, out, err = call(qrels, a, "--compare", b)
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0] == "ndcg over 4 topics (diff = run - a)"
    assert lines[1].split() == ["run", "mean", "diff", "95%", "CI", "p(t)", "p(Wilcoxon)", "p(rand)", "d_z", "W/T/L"]
    assert lines[2].split() == ["a", "1.0000"]
    mean_b = 1 + statistics.fmean(DIFFS)
    # randomization: only the two nonzero differences matter; |their signed sum| reaches the
    # observed one when both keep or both flip their sign: 2 of 4 patterns -> p = 0.5
    t = statistics.fmean(DIFFS) / (statistics.stdev(DIFFS) / 2)
    row = lines[3].split()
    assert row[0] == "b" and row[1] == f"{mean_b:.4f}" and row[2] == f"{statistics.fmean(DIFFS):+.4f}"
    assert row[7] == "0.5000" and row[9] == "0/2/2"
    assert row[8] == f"{statistics.fmean(DIFFS) / statistics.stdev(DIFFS):.2f}"
    assert row[5] == f"{2 * __import__('scipy').stats.t.sf(abs(t), 3):.4f}"
    assert "exact over all 16 sign assignments" in lines[4]
    assert err == "ndcg-eval: comparing a, b on 4 topics; " + err.split("; ", 1)[1]


def test_toy_collection_three_runs_all_formats():
    status, out, err = call(QRELS_TOY, CLASSIC, "--compare", NOVEL, TUNED, "-m", "ndcg_cut.10")
    assert status == 0, err
    assert "Holm p(rand)" in out.splitlines()[1]
    expected = compare_runs(
        trec.read_qrels(QRELS_TOY), {n: trec.read_run(TOY / f"run_{n}.txt") for n in ("classic", "novel", "tuned")},
        "ndcg_cut.10",
    )[0]
    status, out, _ = call(QRELS_TOY, CLASSIC, "--compare", NOVEL, TUNED, "-m", "ndcg_cut.10", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["run"] for r in rows] == ["classic", "novel", "tuned"]
    for row, pair in zip(rows[1:], expected.pairs):
        assert float(row["diff"]) == pytest.approx(pair.mean_difference, abs=1e-12)
        assert float(row["p_rand_holm"]) == pytest.approx(pair.randomization_p_holm, abs=1e-12)
        assert float(row["p_t"]) == pytest.approx(pair.t_p_value, rel=1e-12)
    status, out, _ = call(QRELS_TOY, CLASSIC, "--compare", NOVEL, TUNED, "-m", "ndcg_cut.10", "--format", "json", "-q")
    doc = json.loads(out)
    assert doc["runs"] == ["classic", "novel", "tuned"] and doc["topics"] == 10
    entry = doc["measures"]["ndcg_cut_10"]
    assert [c["other"] for c in entry["comparisons"]] == ["novel", "tuned"]
    assert entry["comparisons"][1]["effect_size"] == pytest.approx(expected.pairs[1].effect_size)
    assert set(entry["per_topic"]) == {str(q) for q in range(101, 111)}
    classic = trec.evaluate_run(trec.read_qrels(QRELS_TOY), trec.read_run(CLASSIC), ["ndcg_cut.10"])
    assert entry["means"]["classic"] == pytest.approx(float(classic.means[0]))


def test_flags_reach_the_evaluation():
    args = ["-J", "-c", "--gain", "exponential", "--discount", "reciprocal", "-m", "ndcg_cut.5", "--format", "json"]
    status, out, _ = call(QRELS_TOY, CLASSIC, "--compare", NOVEL, *args)
    assert status == 0
    expected = trec.evaluate_run(
        trec.read_qrels(QRELS_TOY), trec.read_run(NOVEL), ["ndcg_cut.5"], gain="exponential",
        discount="reciprocal", unjudged="condense", complete=True,
    )
    assert json.loads(out)["measures"]["ndcg_cut_5"]["means"]["novel"] == pytest.approx(float(expected.means[0]))
    assert "reciprocal discount" in json.loads(out)["configuration"]


def test_per_topic_block(mini):
    qrels, a, b = mini
    status, out, _ = call(qrels, a, "--compare", b, "-q")
    assert status == 0
    block = out.split("\n\n")[1].splitlines()
    assert block[0].split() == ["query_id", "a", "b", "b-a"]
    assert block[3].split() == ["t3", "1.0000", "0.5000", "-0.5000"]


def test_missing_topic_is_scored_zero_and_said(mini, tmp_path):
    qrels, a, b = mini
    partial = tmp_path / "partial.run"
    partial.write_text("".join(line + "\n" for line in RUN_B.splitlines() if not line.startswith("t4")))
    status, out, err = call(qrels, a, "--compare", partial)
    assert status == 0
    assert "run b has no lines for 1 of them (t4): scored 0 there, as with -c" in err
    assert out.splitlines()[3].split()[1] == f"{(1 / math.log2(3) + 1 + 0.5 + 0) / 4:.4f}"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        pytest.param(["--compare", "COPY"], "have the same ndcg on every one of the 4 topics: there is no difference to test", id="identical"),
        pytest.param(["--compare", "missing.run"], "cannot read the run file missing.run: No such file or directory", id="missing-file"),
        pytest.param(["--compare", "B", "--explain", "t1"], "--compare cannot be combined with --explain or --match", id="explain"),
        pytest.param(["--compare", "B", "--rounds", "0"], "rounds must be a positive whole number", id="rounds"),
        pytest.param(["--compare", "B", "--confidence", "95"], "confidence must be a number between 0 and 1", id="confidence"),
        pytest.param(["--compare", "B", "B"], "each run may be given once", id="twice"),
        pytest.param(["--compare", "B", "-m", "bogus"], "measure must be one of", id="measure"),
    ],
)
def test_bad_input_gets_one_line(mini, extra, message):
    qrels, a, b = mini
    copy = Path(a).with_name("copy.run")
    copy.write_text(RUN_A.replace(" a\n", " a2\n"))  # the same scores under another run id
    extra = [{"COPY": str(copy), "B": b}.get(x, x) for x in extra]
    status, out, err = call(qrels, a, *extra)
    assert status == 2 and out == ""
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_one_topic_and_disjoint_topics(tmp_path):
    (tmp_path / "q").write_text("t1 0 d1 1\nt2 0 d2 1\n")
    (tmp_path / "a").write_text("t1 Q0 d1 1 1.0 a\n")
    (tmp_path / "b").write_text("t1 Q0 x 1 1.0 b\n")
    status, _, err = call(tmp_path / "q", tmp_path / "a", "--compare", tmp_path / "b")
    assert status == 2 and "a paired test needs at least 2 topics; got 1" in err
    (tmp_path / "c").write_text("t9 Q0 d1 1 1.0 c\n")
    status, _, err = call(tmp_path / "q", tmp_path / "c", "--compare", tmp_path / "c", "--format", "csv")
    assert status == 2 and "each run may be given once" in err


def test_console_script_end_to_end():
    done = subprocess.run(
        [sys.executable, "-m", "ndcg_core.trec.cli", QRELS_TOY, CLASSIC, "--compare", NOVEL, "--rounds", "500"],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[2].split()[0] == "classic"


def test_the_baseline_can_come_from_standard_input(mini):
    qrels, _, b = mini
    out, err = io.StringIO(), io.StringIO()
    status = run([qrels, "-", "--compare", b], stdout=out, stderr=err, stdin=io.BytesIO(RUN_A.encode()))
    assert status == 0, err.getvalue()
    assert out.getvalue().splitlines()[2].split() == ["a", "1.0000"]  # the run id of the lines read
    status = run([qrels, "-", "--compare", "-"], stdout=io.StringIO(), stderr=err, stdin=io.BytesIO(b""))
    assert status == 2 and "only one run can be read from standard input" in err.getvalue()
