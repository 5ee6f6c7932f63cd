"""ndcg-eval's lines are byte-identical to trec_eval's own test outputs.

trec_eval ships its test collection (qrels.test, qrels.rel_level, results.test,
results.trunc) with the expected outputs of ``trec_eval -a`` (every measure). The files
live outside this repository, in ``../shared/trec_eval_test``. Each line ndcg-eval prints
must appear, byte for byte and in the same order, in the expected output, and every
``ndcg``/``ndcg_cut_*`` line there must be printed. Without the files the tests are
skipped, except under CI (``CI`` set), where their absence is a failure.
"""

import io
import os
from pathlib import Path

import pytest

from ndcg_core.trec.cli import run

# ../shared next to the checkout (in a worktree such as /work/wt/NAME, further up)
DATA = next(
    (p / "shared" / "trec_eval_test" for p in Path(__file__).resolve().parents if (p / "shared" / "trec_eval_test").is_dir()),
    Path(__file__).resolve().parents[2].parent / "shared" / "trec_eval_test",
)

if not DATA.is_dir():
    if os.environ.get("CI"):
        pytest.fail(f"trec_eval's test files are missing: {DATA}", pytrace=False)
    pytest.skip(f"trec_eval's test files are not at {DATA}", allow_module_level=True)

CASES = [
    pytest.param([], "qrels.test", "results.test", "out.test.a", id="a"),
    pytest.param(["-q"], "qrels.test", "results.test", "out.test.aq", id="aq"),
    pytest.param(["-q", "-c"], "qrels.test", "results.trunc", "out.test.aqc", id="aqc"),
    pytest.param(["-q"], "qrels.rel_level", "results.test", "out.test.aql", id="aql"),
]


def ndcg_eval(*args: str) -> list[str]:
    out, err = io.StringIO(), io.StringIO()
    status = run(list(args), stdout=out, stderr=err)
    assert status == 0, err.getvalue()
    assert err.getvalue() == ""
    return out.getvalue().split("\n")[:-1]


def is_ndcg_line(line: str) -> bool:
    name = line.split("\t", 1)[0].rstrip()
    return name == "ndcg" or name.startswith("ndcg_cut_")


@pytest.mark.parametrize("flags, qrels, results, expected", CASES)
def test_lines_are_byte_identical_and_in_order(flags, qrels, results, expected):
    ours = ndcg_eval(*flags, str(DATA / qrels), str(DATA / results))
    reference = (DATA / expected).read_bytes().decode("ascii").split("\n")
    position = 0
    for line in ours:
        assert line in reference[position:], f"not in {expected} (in order): {line!r}"
        position = reference.index(line, position) + 1
    # every ndcg line trec_eval printed is printed by ndcg-eval too, in the same order
    assert [line for line in ours if is_ndcg_line(line)] == [line for line in reference if is_ndcg_line(line)]


def test_summary_lines_match_exactly():
    ours = ndcg_eval(str(DATA / "qrels.test"), str(DATA / "results.test"))
    reference = (DATA / "out.test.a").read_text().splitlines()
    assert ours[:2] == ["runid                 \tall\tSTANDARD", "num_q                 \tall\t3"]
    assert ours[:2] == reference[:2]
    assert "ndcg_cut_10           \tall\t0.3016" in ours


def test_explicit_measures_match_too():
    ours = ndcg_eval("-q", "-m", "ndcg_cut.5,10", "-m", "ndcg", str(DATA / "qrels.test"), str(DATA / "results.test"))
    reference = (DATA / "out.test.aq").read_text().splitlines()
    assert [line for line in ours if is_ndcg_line(line)] == [
        line for line in reference if line.split("\t", 1)[0].rstrip() in ("ndcg", "ndcg_cut_5", "ndcg_cut_10")
    ]
