"""ndcg-eval: options, output formats, and a one-line message (exit 2) for every bad input."""

import io
import json
import subprocess
import sys
from math import log2
from pathlib import Path

import pytest

from ndcg_core.trec.cli import main, run

QRELS = "t1 0 a 2\nt1 0 b 1\nt1 0 c 0\nt1 0 d 1\nt1 0 e 3\nt1 0 f -1\nt2 0 x 1\nt3 0 y 2\n"
RUN = (
    "t1 Q0 a 1 0.9 mine\nt1 Q0 b 2 0.8 mine\nt1 Q0 z 3 0.8 mine\nt1 Q0 f 4 0.5 mine\nt1 Q0 c 5 0.4 mine\n"
    "t2 Q0 x 1 1.0 mine\nt4 Q0 w 1 1.0 mine\n"
)
# t1 ranks a (2), z (unjudged), b (1), f (pooled, unjudged), c (0); judged labels 3, 2, 1, 1, 0.
T1_IDCG3 = 3 / log2(2) + 2 / log2(3) + 1 / log2(4)
T1_NDCG3 = (2 / log2(2) + 1 / log2(4)) / T1_IDCG3


@pytest.fixture
def files(tmp_path):
    qrels, run_file = tmp_path / "toy.qrels", tmp_path / "toy.run"
    qrels.write_text(QRELS)
    run_file.write_text(RUN)
    return str(qrels), str(run_file)


def call(*args):
    out, err = io.StringIO(), io.StringIO()
    status = run(list(args), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def lines(text):
    return text.splitlines()


def test_default_prints_trec_evals_ndcg_lines(files):
    status, out, err = call(*files)
    assert status == 0 and err == ""
    names = [line.split("\t")[0].rstrip() for line in lines(out)]
    assert names == ["runid", "num_q", "ndcg"] + [f"ndcg_cut_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)]
    assert lines(out)[:2] == ["runid                 \tall\tmine", "num_q                 \tall\t2"]


def test_per_topic_lines_come_first(files):
    status, out, _ = call("-q", "-m", "ndcg_cut.3", "-m", "num_q", "-m", "runid", *files)
    assert status == 0
    assert lines(out) == [
        f"ndcg_cut_3            \tt1\t{T1_NDCG3:.4f}",
        "ndcg_cut_3            \tt2\t1.0000",
        "runid                 \tall\tmine",
        "num_q                 \tall\t2",
        f"ndcg_cut_3            \tall\t{(T1_NDCG3 + 1) / 2:.4f}",
    ]


def test_complete_averaging_counts_every_qrels_topic(files):
    _, out, _ = call("-q", "-c", "-m", "ndcg_cut.3", "-m", "num_q", *files)
    assert "ndcg_cut_3            \tt3\t0.0000" in lines(out)
    assert "num_q                 \tall\t3" in lines(out)
    assert lines(out)[-1] == f"ndcg_cut_3            \tall\t{(T1_NDCG3 + 1 + 0) / 3:.4f}"


def test_judged_only_condenses(files):
    _, out, _ = call("-J", "-m", "ndcg_cut.3", *files)
    t1 = (2 / log2(2) + 1 / log2(3) + 0 / log2(4)) / T1_IDCG3
    assert lines(out)[-1] == f"ndcg_cut_3            \tall\t{(t1 + 1) / 2:.4f}"


def test_repeated_measures_merge_in_trec_eval_order(files):
    _, out, _ = call("-m", "unjudged_cut.2", "-m", "ndcg_cut.3,1", "-m", "ndcg", *files)
    names = [line.split("\t")[0].rstrip() for line in lines(out)]
    assert names == ["ndcg", "ndcg_cut_1", "ndcg_cut_3", "unjudged_cut_2"]  # with -m, no runid or num_q (as trec_eval)
    assert lines(out)[-1] == f"unjudged_cut_2        \tall\t{(1 / 2 + 0) / 2:.4f}"


@pytest.mark.parametrize(
    "options, t1",
    [
        pytest.param(
            ["--gain", "exponential"],
            ((2**2 - 1) / log2(2) + (2**1 - 1) / log2(4)) / ((2**3 - 1) / log2(2) + (2**2 - 1) / log2(3) + 1 / log2(4)),
            id="exponential",
        ),
        pytest.param(
            ["--gain-table", "0:0, 1:0.5, 2:1.5, 3:2.5"],
            (1.5 / log2(2) + 0.5 / log2(4)) / (2.5 / log2(2) + 1.5 / log2(3) + 0.5 / log2(4)),
            id="fractional-table",
        ),
        pytest.param(["--discount", "reciprocal"], (2 / 1 + 1 / 3) / (3 / 1 + 2 / 2 + 1 / 3), id="reciprocal"),
        # the log base cancels out of nDCG: base 10 gives the log2 value
        pytest.param(["--discount", "log", "--base", "10"], T1_NDCG3, id="log10-cancels"),
    ],
)
def test_other_gains_and_discounts_state_the_configuration(files, options, t1):
    status, out, err = call("-q", "-m", "ndcg_cut.3", *options, *files)
    assert status == 0
    assert lines(out)[0] == f"ndcg_cut_3            \tt1\t{t1:.4f}"
    assert err.startswith("ndcg-eval: nDCG@3 with ") and err.count("\n") == 1


def test_digits(files):
    _, out, _ = call("-m", "ndcg_cut.3", "--digits", "6", *files)
    assert lines(out)[-1] == f"ndcg_cut_3            \tall\t{(T1_NDCG3 + 1) / 2:.6f}"


def test_json_format(files):
    _, out, err = call("-q", "-c", "-m", "ndcg_cut.3", "--format", "json", *files)
    document = json.loads(out)
    assert err == ""
    assert document["num_q"] == 3 and document["complete"] is True and document["runid"] == "mine"
    assert document["all"]["ndcg_cut_3"] == pytest.approx((T1_NDCG3 + 1) / 3, abs=1e-15)
    assert document["per_topic"]["t1"]["ndcg_cut_3"] == pytest.approx(T1_NDCG3, abs=1e-15)
    assert document["missing_topics"] == ["t3"] and document["ignored_topics"] == ["t4"]
    assert document["configuration"].startswith("nDCG@3 with linear gain")


def test_csv_format(files):
    _, out, _ = call("-q", "-m", "ndcg_cut.3", "-m", "unjudged_cut.2", "--format", "csv", "--digits", "4", *files)
    assert lines(out) == [
        "query_id,ndcg_cut_3,unjudged_cut_2",
        f"t1,{round(T1_NDCG3, 4)},0.5",
        "t2,1.0,0.0",
        f"all,{round((T1_NDCG3 + 1) / 2, 4)},0.25",
    ]


def test_explain_prints_the_per_rank_table(files):
    status, out, _ = call("-m", "ndcg_cut.3", "--explain", "t1", *files)
    assert status == 0
    text = lines(out)
    assert text[0].startswith("Topic t1, ranks 1 to 3. nDCG@3 with linear gain")
    header = text[2].split()
    assert header[:4] == ["rank", "doc_id", "label", "status"]
    assert [row.split()[1] for row in text[3:6]] == ["a", "z", "b"]
    assert text[-1] == f"ndcg_cut_3            \tt1\t{T1_NDCG3:.4f}"


def test_explain_default_depth_and_formats(files):
    _, out, _ = call("--explain", "t1", "--format", "csv", *files)
    rows = lines(out)
    assert rows[0].startswith("rank,doc_id,label,status,")
    # default depth 10, but the run (a, z, b, f, c) and the ideal list (3, 2, 1, 1, 0) hold 5 ranks
    assert [row.split(",")[1] for row in rows[1:]] == ["a", "z", "b", "f", "c"]
    _, out, _ = call("-m", "ndcg", "--explain", "t1", "--format", "json", *files)
    document = json.loads(out)
    assert document["depth"] is None and [r["doc_id"] for r in document["ranks"]] == ["a", "z", "b", "f", "c"]
    assert document["values"]["ndcg"] == round(document["ranks"][-1]["ndcg"], 4)


def test_explain_a_topic_without_run_lines(files):
    status, out, _ = call("-m", "ndcg_cut.3", "--explain", "t3", *files)
    assert status == 0
    assert lines(out)[-1] == "Topic t3 has no run lines: it is left out of the mean (use -c to count it as 0)."


@pytest.mark.parametrize(
    "args, message",
    [
        pytest.param(["-m", "gm_map"], "ndcg-eval: measure must be one of map, Rprec, bpref, P, P.5,10, dcg, ideal_dcg, ndcg, ndcg.1=3,2=9, ndcg_rel, Rndcg, ndcg_cut, ndcg_cut.5,10 or unjudged_cut.10; got 'gm_map'.", id="measure"),
        pytest.param(["--gain-table", "1:x"], "ndcg-eval: gain table entry 1 must be two numbers label:gain; got '1:x'.", id="gain-table"),
        pytest.param(["--gain-table", "1:1, 2:3"], "ndcg-eval: gain table has no gain for label 0; it lists labels 1, 2.", id="table-gap"),
        pytest.param(["--base", "3"], "ndcg-eval: base applies only to the 'log' and 'jarvelin_kekalainen' discounts", id="base"),
        pytest.param(["--digits", "99"], "ndcg-eval: --digits must be a whole number from 0 to 15; got 99.", id="digits"),
        pytest.param(["--explain", "t1", "--depth", "0"], "ndcg-eval: --depth must be a positive whole number; got --depth=0. Show at least rank 1, e.g. --depth 10.", id="depth"),
        pytest.param(["--explain", "t9"], "ndcg-eval: topic must be one of the evaluated topics; got 't9'.", id="explain-topic"),
    ],
)
def test_bad_options_give_one_line_and_exit_2(files, args, message):
    status, out, err = call(*args, *files)
    assert status == 2 and out == ""
    assert err.startswith(message) and err.count("\n") == 1


@pytest.mark.parametrize(
    "which, text, message",
    [
        pytest.param("qrels", "t1 0 a 1\nt1 0 b one\n", "line 2: relevance 'one' is not an integer (expected 'QID ITER DOCID REL')", id="label"),
        pytest.param("qrels", "t1 0 a 1\nt1 a 1\n", "line 2: found 3 fields, a qrels line has exactly 4", id="qrels-fields"),
        pytest.param("run", "t1 Q0 a 1 0.5\n", "line 1: found 5 fields, a run line has at least 6", id="run-fields"),
        pytest.param("run", "t1 Q0 a 1 0.5 r\nt1 Q0 b 2 x r\n", "line 2: score 'x' is not a number", id="score"),
        pytest.param("run", "t1 Q0 a 1 0.5 r\nt1 Q0 a 2 0.4 r\n",
                     "line 2: document 'a' is retrieved twice for topic 't1' (first on line 1)", id="duplicate"),
    ],
)
def test_malformed_files_give_file_and_line(tmp_path, files, which, text, message):
    bad = tmp_path / f"bad.{which}"
    bad.write_text(text)
    args = [str(bad), files[1]] if which == "qrels" else [files[0], str(bad)]
    status, out, err = call(*args)
    assert status == 2 and out == ""
    assert err.startswith(f"ndcg-eval: {bad}, {message}") and err.count("\n") == 1


def test_missing_file_and_no_shared_topic(tmp_path, files):
    status, _, err = call(files[0], str(tmp_path / "nope.run"))
    assert status == 2 and err == f"ndcg-eval: cannot read the run file {tmp_path / 'nope.run'}: No such file or directory\n"
    other = tmp_path / "other.run"
    other.write_text("q9 Q0 a 1 1 r\n")
    status, _, err = call(files[0], str(other))
    assert status == 2 and err.startswith("ndcg-eval: run and qrels must share at least one topic")


def test_usage_errors_exit_2(files, capsys):
    with pytest.raises(SystemExit) as caught:
        main(["--gain", "exponential", "--gain-table", "0:0", *files])
    assert caught.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_console_script_never_shows_a_traceback(tmp_path, files):
    script = Path(sys.executable).with_name("ndcg-eval")
    if not script.exists():
        pytest.fail(f"the console script is not installed next to {sys.executable}; run pip install -e .")
    bad = tmp_path / "bad.run"
    bad.write_bytes(b"t1 Q0 a 1 0.5 r\nt1 Q0 \xff 2 0.4 r\n")
    done = subprocess.run([str(script), files[0], str(bad)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"ndcg-eval: {bad}, line 2: the line is not UTF-8 text; save the file as UTF-8 (expected 'QID Q0 DOCID RANK SCORE RUN')\n"
    good = subprocess.run([str(script), "-m", "ndcg_cut.3", *files], capture_output=True, text=True, timeout=60)
    assert good.returncode == 0 and good.stdout.splitlines()[-1] == f"ndcg_cut_3            \tall\t{(T1_NDCG3 + 1) / 2:.4f}"


@pytest.mark.parametrize(
    "table",
    [
        pytest.param("0:0, 1:0.9, 2:0.5", id="falling-fractions"),  # trec_eval's ndcg.1=0.9,2=0.5 reports 0.0
        pytest.param("0:0, 1:2, 2:1.5", id="fraction-below-int"),  # trec_eval's ndcg.1=2,2=1.5 can exceed 1
    ],
)
def test_fractional_gain_tables_are_exact(tmp_path, table):
    qrels, run_file = tmp_path / "q", tmp_path / "r"
    qrels.write_text("q 0 a 1\nq 0 b 2\nq 0 c 0\n")
    run_file.write_text("q Q0 c 1 3.0 r\nq Q0 a 2 2.0 r\nq Q0 b 3 1.0 r\n")
    gains = {int(k): float(v) for k, v in (pair.split(":") for pair in table.split(","))}
    dcg = gains[0] / log2(2) + gains[1] / log2(3) + gains[2] / log2(4)
    ideal = sorted(gains.values(), reverse=True)
    idcg = ideal[0] / log2(2) + ideal[1] / log2(3) + ideal[2] / log2(4)
    status, out, _ = call("-q", "-m", "ndcg", "--gain-table", table, "--digits", "12", str(qrels), str(run_file))
    assert status == 0
    value = float(lines(out)[0].split("\t")[2])
    assert value == pytest.approx(dcg / idcg, abs=1e-12)
    assert 0 < value < 1


# --------------------------------------------------------------------------- start-up


def test_ndcg_eval_scores_without_importing_pandas():
    """The command's hot path is numpy only: pandas (a quarter of a second to import) and
    the notebook-facing modules load only for --explain, csv output or DataFrames."""
    toy = Path(__file__).resolve().parents[2] / "data" / "toy"
    script = f"""
import io, sys, contextlib
from ndcg_core.trec.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    status = main(["-q", "-m", "ndcg_cut.10", "-m", "ndcg", {str(toy / 'qrels.txt')!r}, {str(toy / 'run_classic.txt')!r}])
loaded = sorted(m for m in ("pandas", "ndcg_core.teaching.compare", "ndcg_core.teaching.exam", "ndcg_core.teaching.exercises") if m in sys.modules)
print(status, loaded, "ndcg_cut_10" in out.getvalue())
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.split("\n")[0] == "0 [] True"


def test_the_package_loads_its_heavier_parts_on_first_use():
    script = """
import sys
import ndcg_core as nc
before = "ndcg_core.teaching.exercises" in sys.modules, "pandas" in sys.modules
ok = nc.exercises.check("lecture-ndcg", "0.78").correct and callable(nc.read_qrels) and "evaluate_run" in dir(nc)
print(before, ok, "ndcg_core.teaching.exercises" in sys.modules)
try:
    nc.no_such_thing
except AttributeError as error:
    print(error)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == [
        "(False, False) True True",
        "module 'ndcg_core' has no attribute 'no_such_thing'",
    ]


def test_when_both_files_are_bad_the_qrels_is_reported(tmp_path):
    # the two files are read at once (two threads); the message is the one a sequential reader gives
    qrels, run_file = tmp_path / "bad.qrels", tmp_path / "bad.run"
    qrels.write_text("t1 0 a H\n")
    run_file.write_text("t1 Q0 a 1\n")
    status, out, err = call(str(qrels), str(run_file))
    assert status == 2 and out == ""
    assert err == f"ndcg-eval: {qrels}, line 1: relevance 'H' is not an integer (expected 'QID ITER DOCID REL')\n"
    status, out, err = call(str(tmp_path / "none.qrels"), str(run_file))
    assert err == f"ndcg-eval: cannot read the qrels file {tmp_path / 'none.qrels'}: No such file or directory\n"
