"""ndcg-eval as a drop-in for trec_eval 10.0: -M, -l, -n, -m gain values, stdin, P, map, Rprec,
bpref and the nDCG family (dcg, ideal_dcg, ndcg, ndcg_rel, Rndcg, ndcg_cut), byte for byte.

Three references:

- trec_eval's own expected outputs (``../shared/trec_eval_test`` and
  ``../shared/trec_eval-10.0/test``, found by walking up from this file): for each command
  of its ``make quicktest``, ndcg-eval with the measures it has must print exactly the
  lines of those measures, in order;
- trec_eval 10.0 itself, built into a temporary folder from ``../shared/trec_eval-10.0``
  when ``cc`` and ``make`` exist (``NDCG_TREC_EVAL`` may name a built binary instead), run
  on generated collections (tied scores, negative labels, unjudged and missed documents,
  topics missing from the run or the qrels) under -c, -J, -M and -l: stdout must be
  identical;
- pytrec_eval (trec_eval 9's C code) on generated collections, to 1e-12.

Where trec_eval 10.0 misbehaves (a qrels topic without run lines and no -c; a topic whose
labels are all negative; gain values less than 1 apart) the tests pin what ndcg-eval does
instead and that the binary still does what the help text says it does.
"""

from __future__ import annotations

import io
import json
import math
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ndcg_core.trec.cli import DIFFERENCES, build_parser, run
from ndcg_core.trec.evaluate import evaluate_run
from ndcg_core.trec.measures import close_gains, parse_measures

SHARED = next((p / "shared" for p in Path(__file__).resolve().parents if (p / "shared" / "trec_eval-10.0").is_dir()), None)
ROOT = Path(__file__).resolve().parents[2]


def ndcg_eval(args, stdin: bytes | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run([str(a) for a in args], stdout=out, stderr=err, stdin=None if stdin is None else io.BytesIO(stdin))
    return status, out.getvalue(), err.getvalue()


def name_of(line: str) -> str:
    return line.split("\t", 1)[0].rstrip()


# --------------------------------------------------------------------------- trec_eval's expected outputs


def shared_dir(name: str) -> Path:
    path = None if SHARED is None else SHARED / name
    if path is None or not path.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"trec_eval's files are missing: ../shared/{name}", pytrace=False)
        pytest.skip(f"trec_eval's files are not in ../shared/{name}")
    return path


OURS = ["-m", "runid", "-m", "num_q", "-m", "map", "-m", "Rprec", "-m", "bpref", "-m", "P", "-m", "ndcg", "-m", "ndcg_rel", "-m", "Rndcg", "-m", "ndcg_cut"]

# (folder, flags of trec_eval's quicktest with -m all_trec replaced by our measures, qrels, run, expected)
EXPECTED = [
    pytest.param("trec_eval_test", OURS, "qrels.test", "results.test", "out.test.a", id="a"),
    pytest.param("trec_eval_test", ["-q", *OURS], "qrels.test", "results.test", "out.test.aq", id="aq"),
    pytest.param("trec_eval_test", ["-q", "-c", *OURS], "qrels.test", "results.trunc", "out.test.aqc", id="aqc"),
    pytest.param("trec_eval_test", ["-q", "-l2", *OURS], "qrels.rel_level", "results.test", "out.test.aql", id="aql"),
    pytest.param(
        "trec_eval_test",
        ["-q", "-m", "P.5,7,3", "-mndcg.1=3,2=9,4=4.5", "-mndcg_cut.10,20,23"],
        "qrels.test", "results.test", "out.test.meas_params", id="meas_params",
    ),
    pytest.param("trec_eval-10.0/test", ["-q", "-c", "-M100", *OURS], "qrels.test", "results.trunc", "out.test.aqcM", id="aqcM"),
    pytest.param("trec_eval-10.0/test", ["-m", "runid", "-m", "num_q", "-m", "map", "-m", "P"], "qrels.test", "results.test", "out.test", id="official"),
    pytest.param(
        "trec_eval-10.0/test", ["-m", "runid", "-m", "num_q", "-m", "map", "-m", "P"],
        "qrels.test.with-comments", "results.test", "out.test", id="qrels-comments",
    ),
    pytest.param(
        "trec_eval-10.0/test", ["-m", "runid", "-m", "num_q", "-m", "map", "-m", "P"],
        "qrels.comment.test", "results.comment.test", "out.comment.test", id="comment",
    ),
]


@pytest.mark.parametrize("folder, flags, qrels, results, expected", EXPECTED)
def test_lines_equal_trec_evals_expected_output(folder, flags, qrels, results, expected):
    data = shared_dir(folder)
    status, out, err = ndcg_eval([*flags, data / qrels, data / results])
    assert status == 0, err
    ours = out.splitlines()
    names = {name_of(line) for line in ours}
    reference = [line for line in (data / expected).read_text().splitlines() if name_of(line) in names]
    assert ours == reference
    assert len(ours) >= 4


def test_meas_params_holds_the_gain_valued_ndcg():
    data = shared_dir("trec_eval_test")
    _, out, _ = ndcg_eval(["-m", "ndcg.1=3,2=9,4=4.5", data / "qrels.test", data / "results.test"])
    assert out == "ndcg_1=3,2=9,4=4.5    \tall\t0.4021\n"


def test_run_from_standard_input_prints_the_same():
    data = shared_dir("trec_eval_test")
    by_file = ndcg_eval(["-q", "-m", "map", "-m", "ndcg", data / "qrels.test", data / "results.test"])
    by_stdin = ndcg_eval(["-q", "-m", "map", "-m", "ndcg", data / "qrels.test", "-"], stdin=(data / "results.test").read_bytes())
    assert by_stdin == by_file and by_file[0] == 0
    process = subprocess.run(
        [sys.executable, "-m", "ndcg_core.trec.cli", "-m", "P.10", str(data / "qrels.test"), "-"],
        input=(data / "results.test").read_bytes(), capture_output=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert process.returncode == 0 and process.stdout == b"P_10                  \tall\t0.3000\n"


def test_stdin_errors_name_standard_input():
    status, out, err = ndcg_eval(["-m", "map", io_path("q 0 d1 1\n"), "-"], stdin=b"q Q0 d1 1 x run\n")
    assert status == 2 and out == ""
    assert err.startswith("ndcg-eval: standard input, line 1:")


def io_path(text: str) -> str:
    return text  # inline text (a str with a newline) is read as the file's contents


# --------------------------------------------------------------------------- options and messages


def test_help_says_where_ndcg_eval_differs():
    text = build_parser().format_help()
    for phrase in ("-M N", "-l L", "-n, --nosummary", "Rprec", "bpref", "standard input", "status 4",
                   "Can't\n    calculate measure", "9.0.x and 10.0", "segmentation fault", "whole", "-nan"):
        assert phrase in text, phrase
    assert DIFFERENCES in text


@pytest.mark.parametrize(
    "args, message",
    [
        pytest.param(["-M", "-1"], "max_docs must be a whole number 0 or more", id="M"),
        pytest.param(["-l", "-1"], "relevance_level must be a whole number 0 or more", id="l"),
        pytest.param(["-m", "ndcg_cut.1=3.5,2=9.0"], "ndcg_cut takes cutoffs only (trec_eval has no gain values for it)", id="cut-gains"),
        pytest.param(["-m", "ndcg_cut.23.4"], "cutoffs must be positive whole numbers separated by commas; got '23.4'", id="cut-fraction"),
        pytest.param(["-m", "ndcg.x=3"], "labels must be whole numbers 0 or more; got 'x'", id="label"),
        pytest.param(["-m", "ndcg.-1=3"], "labels must be whole numbers 0 or more; got '-1'", id="negative-label"),
        pytest.param(["-m", "ndcg.1=abc"], "gains must be finite numbers; got 'abc'", id="gain"),
        pytest.param(["-m", "ndcg.1=2,1=3"], "gives label 1 a gain twice", id="twice"),
        pytest.param(["-m", "Rndcg.1"], "parameters must be label=gain pairs", id="pair"),
        pytest.param(["-m", "map.5"], "measure map takes no parameters", id="map"),
        pytest.param(["-m", "P_10"], "Write the cutoff after a dot: P.10.", id="P-underscore"),
        pytest.param(["-m", "rndcg"], "Measure names are case-sensitive: write Rndcg.", id="case"),
    ],
)
def test_bad_flags_give_one_clear_line(args, message):
    status, out, err = ndcg_eval([*args, "q 0 d1 1\n", "q Q0 d1 1 1.0 run\n"])
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err


def test_gain_values_equal_a_gain_table_and_warn_when_trec_eval_may_differ():
    qrels, run_text = "q 0 a 2\nq 0 b 1\nq 0 c 0\nq 0 d 3\n", "q Q0 b 1 3 r\nq Q0 a 2 2 r\nq Q0 c 3 1 r\n"
    status, out, err = ndcg_eval(["-m", "ndcg.1=2,2=1.5", qrels, run_text])
    assert status == 0
    assert "gains 1.5 and 2 are less than 1 apart; trec_eval 10.0 compares gains as whole numbers" in err
    _, table_out, _ = ndcg_eval(["--gain-table", "0:0,1:2,2:1.5,3:3", "-m", "ndcg", qrels, run_text])
    assert out.split("\t")[-1] == table_out.split("\t")[-1]
    assert ndcg_eval(["-m", "ndcg.1=3,2=9", qrels, run_text])[2] == ""
    assert close_gains([(1, 0.9), (2, 0.5)], 3) == (0.0, 0.5)


def test_repeated_measures_add_and_keep_trec_evals_order():
    assert [m.name for m in parse_measures(["ndcg_cut.5", "ndcg.1=2", "P.10", "P.5", "ndcg", "Rndcg", "ideal_dcg", "dcg", "map", "ndcg_rel"])] == [
        "map", "P_5", "P_10", "dcg", "ideal_dcg", "ndcg", "ndcg_1=2", "ndcg_rel", "Rndcg", "ndcg_cut_5",
    ]


def test_all_negative_topic_scores_0_and_missing_topic_is_left_out():
    qrels = "a 0 d1 -1\na 0 d2 -2\nb 0 d1 1\nb 0 d3 0\nc 0 d1 2\n"
    run_text = "a Q0 d1 1 1.0 x\na Q0 d2 2 0.5 x\nb Q0 d1 1 1.0 x\nb Q0 d3 2 2.0 x\n"
    status, out, _ = ndcg_eval(["-q", "-m", "num_q", "-m", "map", "-m", "ndcg", "-m", "Rndcg", qrels, run_text])
    assert status == 0
    lines = out.splitlines()
    assert "map                   \ta\t0.0000" in lines and "Rndcg                 \ta\t0.0000" in lines
    assert not any("\tc\t" in line for line in lines)  # c has no run lines: left out without -c
    assert "num_q                 \tall\t2" in lines


def test_max_docs_cuts_after_sorting_and_before_condensing():
    qrels = {"q": {"a": 1, "b": 1, "c": 0}}
    run_ = {"q": {"z": 3.0, "a": 2.0, "c": 2.0, "b": 1.0}}  # ranked z (unjudged), c, a (tie: docno descending), b
    cut = evaluate_run(qrels, run_, ["P.2", "map"], max_docs=2)
    assert cut.per_topic.loc["q"].to_dict() == {"map": 0.0, "P_2": 0.0}
    condensed = evaluate_run(qrels, run_, ["P.2", "map"], max_docs=3, unjudged="condense")
    assert condensed.per_topic.loc["q"].to_dict() == {"map": 0.25, "P_2": 0.5}  # c, a remain: a at rank 2, one of two found


# --------------------------------------------------------------------------- generated collections

DOC_IDS = ["d1", "d10", "d2", "D2", "d9", "d99", "a", "Z", "doc-7", "doc-70"] + [f"p{i}" for i in range(40)]


def collection(seed: int, *, missing: bool):
    """Qrels and run text with ties, negative labels, unjudged and missed documents.

    ``missing``: some qrels topics get no run lines (trec_eval 10.0 needs -c for that).
    Every qrels topic has a label 0 or more (see the quirk tests for the other case).
    """
    rng = random.Random(seed)
    qrels, run_lines = [], []
    for q in range(rng.randint(1, 9)):
        qid = rng.choice(["", "q", "Q-"]) + str(q)
        judged = rng.sample(DOC_IDS, rng.randint(1, 25))
        labels = [rng.choice([-2, -1, 0, 0, 1, 1, 2, 3, 4]) for _ in judged]
        if max(labels) < 0:
            labels[0] = rng.choice([0, 1])
        qrels += [f"{qid} 0 {doc} {label}\n" for doc, label in zip(judged, labels)]
        if missing and rng.random() < 0.3:
            continue
        retrieved = rng.sample(DOC_IDS, rng.randint(1, 40))
        ties = rng.random() < 0.7
        for rank, doc in enumerate(retrieved, 1):
            score = rng.randint(0, 4) if ties else round(rng.uniform(-5, 5), 3)
            run_lines.append(f"{qid}\tQ0\t{doc}\t{rank}\t{score}\tsys{seed}\n")
    run_lines.append(f"only-in-run Q0 d1 1 1.0 sys{seed}\n")
    rng.shuffle(run_lines)  # trec_eval sorts; the file's order must not matter
    if not any(line.split()[0] != "only-in-run" for line in run_lines):
        run_lines.append(f"{qrels[0].split()[0]} Q0 d1 1 0.5 sys{seed}\n")
    return "".join(qrels), "".join(run_lines)


MEASURE_SETS = {
    "all": ["-m", "runid", "-m", "num_q", "-m", "map", "-m", "Rprec", "-m", "bpref", "-m", "P.1,2,3,5,10,40", "-m", "dcg", "-m", "ideal_dcg",
            "-m", "ndcg", "-m", "ndcg_rel", "-m", "Rndcg", "-m", "ndcg_cut.1,3,5,10"],
    "gains": ["-m", "ndcg.0=1,2=5,3=-2", "-m", "ndcg_rel.1=3,4=10", "-m", "Rndcg.2=3,3=3", "-m", "P"],
    "dcg-gains": ["-m", "dcg.2=7,4=0", "-m", "Rndcg.0=2,3=1"],
    "ideal-gains": ["-m", "ideal_dcg.1=10.5", "-m", "ndcg_cut"],
    "binary": ["-m", "bpref", "-m", "Rprec", "-m", "map", "-m", "num_q"],
}
FLAGS = [
    [], ["-c"], ["-J"], ["-M", "5"], ["-c", "-J", "-M3"], ["-l", "2"], ["-l0", "-c"], ["-M", "0", "-c"],
    ["-n"], ["-n", "-c", "-J"], ["-l", "3", "-M", "7"], ["--nosummary", "-l2", "-c"],
]


@pytest.fixture(scope="module")
def trec_eval(tmp_path_factory) -> Path:
    given = os.environ.get("NDCG_TREC_EVAL")
    if given:
        return Path(given)
    source = None if SHARED is None else SHARED / "trec_eval-10.0"
    if source is None or not source.is_dir():
        pytest.skip("trec_eval 10.0's source is not in ../shared/trec_eval-10.0")
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None or shutil.which("make") is None:
        pytest.skip("building trec_eval 10.0 needs cc and make, which are not installed")
    build = tmp_path_factory.mktemp("trec_eval") / "src"
    shutil.copytree(source, build, ignore=shutil.ignore_patterns("test"))
    for path in [build, *build.rglob("*")]:
        path.chmod(path.stat().st_mode | 0o200)
    made = subprocess.run(["make", "-s", f"CC={compiler}", "trec_eval"], cwd=build, capture_output=True, text=True, check=False)
    if made.returncode != 0:
        pytest.fail(f"trec_eval 10.0 did not build: {made.stderr[-2000:]}")
    return build / "trec_eval"


def binary(trec_eval: Path, tmp_path: Path, args, qrels: str, run_text: str) -> subprocess.CompletedProcess:
    q, r = tmp_path / "qrels", tmp_path / "run"
    q.write_text(qrels)
    r.write_text(run_text)
    return subprocess.run([str(trec_eval), *args, str(q), str(r)], capture_output=True, text=True, check=False)


@pytest.mark.parametrize("seed", range(20))
def test_stdout_equals_trec_eval_10_on_generated_collections(trec_eval, tmp_path, seed):
    compared = 0
    for f, flags in enumerate(FLAGS):
        qrels, run_text = collection(seed * 100 + f, missing="-c" in flags or "-l0" in flags)
        for name, measures in MEASURE_SETS.items():
            args = ["-q", *flags, *measures]
            expected = binary(trec_eval, tmp_path, args, qrels, run_text)
            assert expected.returncode == 0, (args, expected.stderr)
            status, out, err = ndcg_eval([*args, qrels, run_text])
            assert status == 0, err
            if "nan" in expected.stdout:
                assert_only_nan_lines_differ(expected.stdout, out)
            else:
                assert out == expected.stdout, (name, flags)
            compared += 1
    assert compared == len(FLAGS) * len(MEASURE_SETS)


SHIPPED = [
    ("trec_eval_test", "qrels.test", "results.test"),
    ("trec_eval_test", "qrels.test", "results.trunc"),
    ("trec_eval_test", "qrels.rel_level", "results.test"),
    ("trec_eval-10.0/test", "qrels-302.test", "results-302.test"),
    ("trec_eval-10.0/test", "qrels.comment.test", "results.comment.test"),
]


@pytest.mark.parametrize("folder, qrels, results", SHIPPED, ids=[f"{q}-{r}" for _, q, r in SHIPPED])
def test_stdout_equals_trec_eval_10_on_its_own_files(trec_eval, folder, qrels, results):
    data = shared_dir(folder)
    compared = 0
    for flags in (["-c"], ["-c", "-M100"], ["-c", "-l2"], ["-c", "-J", "-M", "10"], []):
        for measures in MEASURE_SETS.values():
            args = [*flags, "-q", *measures, str(data / qrels), str(data / results)]
            expected = subprocess.run([str(trec_eval), *args], capture_output=True, text=True, check=False)
            if not flags and expected.returncode == 4 and "not found in qrels" in expected.stderr:
                continue  # a qrels topic without run lines: 10.0 needs -c (see the quirk test)
            assert expected.returncode == 0, (args, expected.stderr)
            status, out, err = ndcg_eval(args)
            assert status == 0, err
            assert out == expected.stdout, args
            compared += 1
    assert compared >= 16


def assert_only_nan_lines_differ(theirs: str, ours: str) -> None:
    """trec_eval's Rndcg divides 0 by 0 for a topic with no positive ideal gain (with -l 0, a
    topic judged all 0) and prints -nan there and as the mean; ndcg-eval prints 0."""
    pairs = list(zip(theirs.splitlines(), ours.splitlines(), strict=True))
    differ = [(a, b) for a, b in pairs if a != b]
    assert differ
    for a, b in differ:
        assert name_of(a) == name_of(b) and name_of(a).startswith("Rndcg"), (a, b)
        assert a.endswith("  -nan"), a
        assert b.split("\t")[1] == "all" or b.endswith("\t0.0000"), b


def test_trec_eval_10_quirks_that_ndcg_eval_does_not_copy(trec_eval, tmp_path):
    qrels = "a 0 d1 1\nb 0 d2 1\n"
    run_text = "a Q0 d1 1 1.0 x\n"
    missing = binary(trec_eval, tmp_path, ["-m", "ndcg"], qrels, run_text)
    assert missing.returncode == 4 and "result qid 'b' not found in qrels" in missing.stderr
    ours = ndcg_eval(["-m", "num_q", "-m", "ndcg", qrels, run_text])
    assert ours[0] == 0 and ours[1] == binary(trec_eval, tmp_path, ["-m", "num_q", "-m", "ndcg"], "a 0 d1 1\n", run_text).stdout

    negative = binary(trec_eval, tmp_path, ["-m", "map"], "a 0 d1 -1\n", run_text)
    assert negative.returncode == 4 and "Can't calculate measure 'map'" in negative.stderr
    assert ndcg_eval(["-m", "map", "a 0 d1 -1\n", run_text])[1] == "map                   \tall\t0.0000\n"
    # what the help says of an all-negative topic after another topic: -1 scores 0, -2 crashes it
    two = "a Q0 d1 1 1.0 x\nb Q0 d1 1 1.0 x\n"
    later = binary(trec_eval, tmp_path, ["-q", "-m", "map", "-m", "bpref"], "a 0 d1 1\nb 0 d1 -1\n", two)
    assert later.returncode == 0 and later.stdout == ndcg_eval(["-q", "-m", "map", "-m", "bpref", "a 0 d1 1\nb 0 d1 -1\n", two])[1]
    crash = binary(trec_eval, tmp_path, ["-m", "map"], "a 0 d1 1\nb 0 d1 -2\n", two)
    assert crash.returncode < 0 or crash.returncode >= 128, crash  # killed by a signal (SIGSEGV)

    fractional = binary(trec_eval, tmp_path, ["-m", "ndcg.1=0.9,2=0.5"], "a 0 d1 1\na 0 d2 2\n", "a Q0 d1 1 2 x\na Q0 d2 2 1 x\n")
    assert fractional.stdout.endswith("\t0.0000\n")  # its ideal list starts at gain 0: no ideal, nDCG 0
    ours = ndcg_eval(["-m", "ndcg.1=0.9,2=0.5", "a 0 d1 1\na 0 d2 2\n", "a Q0 d1 1 2 x\na Q0 d2 2 1 x\n"])
    assert ours[1].endswith("\t1.0000\n")  # the run is the ideal order: 0.9 first, then 0.5

    nan = binary(trec_eval, tmp_path, ["-m", "Rndcg.1=0"], qrels, "a Q0 d1 1 1.0 x\nb Q0 d2 1 1.0 x\n")
    assert nan.stdout.endswith("-nan\n")
    assert ndcg_eval(["-m", "Rndcg.1=0", qrels, "a Q0 d1 1 1.0 x\nb Q0 d2 1 1.0 x\n"])[1].endswith("\t0.0000\n")


@pytest.mark.parametrize(
    "qrels, line",
    [
        pytest.param("a 0 d1 1\n\na 0 d2 0\n", 2, id="inside"),
        pytest.param("a 0 d1 1\na 0 d2 0\n\n", 3, id="at-the-end"),
        pytest.param("a 0 d1 1\na 0 d2 0\n \t\n", 3, id="blanks-only"),
        pytest.param("\na 0 d1 1\n", 1, id="first"),
    ],
)
def test_a_blank_qrels_line_is_refused_as_trec_eval_refuses_it(trec_eval, tmp_path, qrels, line):
    run_text = "a Q0 d1 1 1.0 x\n\na Q0 d2 2 0.5 x\n"  # a blank run line is accepted by both
    theirs = binary(trec_eval, tmp_path, ["-m", "map"], qrels, run_text)
    assert theirs.returncode != 0 and f"Malformed line {line}" in theirs.stderr
    status, out, err = ndcg_eval(["-m", "map", qrels, run_text])
    assert status == 2 and out == ""
    assert f"<qrels text>, line {line}: blank line" in err and "remove the line" in err
    fine = "a 0 d1 1\na 0 d2 0\n"
    assert ndcg_eval(["-m", "map", fine, run_text])[1] == binary(trec_eval, tmp_path, ["-m", "map"], fine, run_text).stdout


def test_nosummary_prints_the_per_topic_lines_only():
    qrels, run_text = "a 0 d1 1\nb 0 d2 1\n", "a Q0 d1 1 1.0 x\nb Q0 d1 1 1.0 x\n"
    assert ndcg_eval(["-n", "-m", "map", qrels, run_text])[1] == ""
    _, out, _ = ndcg_eval(["-q", "--nosummary", "-m", "runid", "-m", "num_q", "-m", "map", qrels, run_text])
    assert out == "map                   \ta\t1.0000\nmap                   \tb\t0.0000\n"
    _, csv_out, _ = ndcg_eval(["-q", "-n", "--format", "csv", "-m", "map", qrels, run_text])
    assert csv_out.splitlines() == ["query_id,map", "a,1.0", "b,0.0"]


def test_rprec_and_bpref_by_hand():
    # ranked: d9 (label 0), d1 (2), u (unjudged), d3 (0), d2 (1); qrels: R = 3 relevant
    # (d1, d2, d4), N = 2 judged non-relevant (d9, d3)
    qrels = {"q": {"d1": 2, "d2": 1, "d4": 1, "d9": 0, "d3": 0}}
    run_ = {"q": {"d9": 5.0, "d1": 4.0, "u": 3.0, "d3": 2.0, "d2": 1.0}}
    values = evaluate_run(qrels, run_, ["Rprec", "bpref", "map"]).per_topic.loc["q"].to_dict()
    assert values["Rprec"] == pytest.approx(1 / 3)  # top R = 3: d9, d1, u; one relevant
    # d1: 1 non-relevant above, 1 - min(1, 3) / min(2, 3); d2: 2 above, 1 - 2/2; d4 missed: 0
    assert values["bpref"] == pytest.approx((1 - 1 / 2 + 0) / 3)
    assert values["map"] == pytest.approx((1 / 2 + 2 / 5) / 3)
    # -l 2: R = 1 (d1), N = 4 (d9, d3, d2, d4); d1 has d9 above: 1 - min(1, 1) / min(4, 1) = 0
    level2 = evaluate_run(qrels, run_, ["Rprec", "bpref"], relevance_level=2).per_topic.loc["q"].to_dict()
    assert level2 == {"Rprec": 0.0, "bpref": 0.0}


# --------------------------------------------------------------------------- pytrec_eval (trec_eval 9)

PYTREC_MEASURES = {"P_1", "P_5", "P_10", "map", "Rprec", "bpref", "ndcg", "ndcg_cut_3", "ndcg_cut_10", "ndcg_rel", "Rndcg"}


@pytest.mark.parametrize("judged_only", [False, True], ids=["all-docs", "judged-only"])
@pytest.mark.parametrize("relevance_level", [1, 2])
@pytest.mark.parametrize("seed", range(10))
def test_values_equal_pytrec_eval(seed, relevance_level, judged_only):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels_text, run_text = collection(5000 + seed, missing=True)
    qrels: dict[str, dict[str, int]] = {}
    for line in qrels_text.splitlines():
        qid, _, doc, label = line.split()
        qrels.setdefault(qid, {})[doc] = int(label)
    run_: dict[str, dict[str, float]] = {}
    for line in run_text.splitlines():
        qid, _, doc, _, score, _ = line.split()
        run_.setdefault(qid, {})[doc] = float(score)
    oracle = pytrec_eval.RelevanceEvaluator(
        qrels, PYTREC_MEASURES, relevance_level=relevance_level, judged_docs_only_flag=judged_only
    ).evaluate(run_)
    result = evaluate_run(
        qrels, run_, ["P.1,5,10", "map", "Rprec", "bpref", "ndcg", "ndcg_cut.3,10", "ndcg_rel", "Rndcg"],
        unjudged="condense" if judged_only else "zero", relevance_level=relevance_level,
    )
    assert set(result.per_topic.index) == set(oracle)
    for qid, expected in oracle.items():
        for name, value in expected.items():
            ours = float(result.per_topic.loc[qid, name])
            assert ours == pytest.approx(value, abs=1e-12), (qid, name, ours, value)


def test_explain_shows_the_ranks_that_counted_and_json_names_the_options():
    qrels, run_text = "q 0 a 2\nq 0 b 1\n", "q Q0 c 1 5 r\nq Q0 a 2 4 r\nq Q0 b 3 3 r\nq Q0 d 4 2 r\n"
    status, out, _ = ndcg_eval(["-M", "2", "--explain", "q", "-m", "ndcg", qrels, run_text])
    assert status == 0 and "ranks 1 to 2" in out
    assert out.splitlines()[-1] == f"ndcg                  \tq\t{2 / math.log2(3) / (2 + 1 / math.log2(3)):.4f}"
    status, out, _ = ndcg_eval(["-M", "2", "-l", "2", "--format", "json", "-m", "P.2", qrels, run_text])
    document = json.loads(out)
    assert status == 0 and document["max_docs"] == 2 and document["relevance_level"] == 2
    assert document["all"] == {"P_2": 0.5}
