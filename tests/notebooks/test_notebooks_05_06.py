"""Chapters 05 (unjudged documents) and 06 (evaluating runs), run headless with many widget values.

Each notebook's widget cells are replaced (``app.run(defs=...)``) by stand-ins holding the
value under test, so every cell downstream runs as after a learner's edit. A bad value must
end in a message (a callout), never an exception, and the numbers must be ndcg_core's.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from types import SimpleNamespace

import notebook_runs
import pytest

import ndcg_core as nc
import ndcg_core.teaching.compare
import ndcg_core.teaching.exam
import ndcg_core.teaching.pooling
import ndcg_core.teaching.toy

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
TOY = nc.teaching.toy.read_toy_collection(ROOT / "data" / "toy")


def load_app(filename: str):
    """The notebook's app, imported once per session (tests/notebook_runs.py)."""
    return notebook_runs.load_app(filename)


@pytest.fixture(scope="module")
def unjudged_app():
    return load_app("05_unjudged.py")


@pytest.fixture(scope="module")
def runs_app():
    return load_app("06_evaluating_runs.py")


def widget(value):
    return SimpleNamespace(value=value)


def upload(name: str | None = None, contents: bytes = b""):
    """Stands in for mo.ui.file: empty value when nothing was uploaded."""
    value = [SimpleNamespace(name=name, contents=contents)] if name else []
    return SimpleNamespace(value=value, name=lambda index=0: name, contents=lambda index=0: contents)


def _expand(markup: str) -> str:
    def callout(match: re.Match) -> str:
        return " " + _expand(json.loads(html.unescape(match.group(1)))) + " "

    def stat(match: re.Match) -> str:
        attrs = {key: json.loads(html.unescape(v)) for key, v in re.findall(r"data-(\w+)='([^']*)'", match.group(0))}
        return f" {attrs.get('label', '')} {attrs.get('value', '')} "

    markup = re.sub(r"<marimo-callout-output data-html='([^']*)'[^>]*>", callout, markup)
    return re.sub(r"<marimo-stat [^>]*>", stat, markup)


def plain(outputs) -> str:
    markup = "\n".join(getattr(o, "text", "") or "" for o in outputs if o is not None)
    text = re.sub(r"<[^>]+>", " ", _expand(markup))
    return re.sub(r"\s+", " ", html.unescape(text))


# --------------------------------------------------------------------------- chapter 05


def run05(app, labels="3, ?, 2, ?, ?, 1, 0, ?, 2, 0", missed="2, 1", k=5, depth=10, pool=("classic", "tuned")):
    defs = {
        "labels_text": widget(labels),
        "missed_text": widget(missed),
        "k_slider": widget(k),
        "depth_slider": widget(depth),
        "pool_select": widget(list(pool)),
    }
    outputs, values = app.run(defs=defs)
    return plain(outputs), values


def test_05_defaults():
    outputs, values = notebook_runs.default_run("05_unjudged.py")
    text = plain(outputs)
    assert "Traceback" not in text
    labels = [3, None, 2, None, None, 1, 0, None, 2, 0]
    judgments = [3, 2, 1, 0, 2, 0, 2, 1]
    zero = nc.score(labels, 5, judgments=judgments)
    condensed = nc.score(labels, 5, judgments=judgments, unjudged="condense")
    assert f"nDCG@5 · unjudged = gain 0 {zero.ndcg:.4f}" in text
    assert f"nDCG@5 · condensed {condensed.ndcg:.4f}" in text
    assert "Unjudged in the top 5 60%" in text
    expected = nc.teaching.pooling.pooling_table(TOY.qrels_full, TOY.runs, ["classic", "tuned"], 10)
    assert values["pooling"].equals(expected)
    assert "Best system · pool tuned" in text and "Best system · truth novel" in text
    assert f"{expected.loc['novel', 'ndcg_pooled']:.4f}" in text


@pytest.mark.parametrize(
    "labels, missed, message",
    [
        pytest.param("3, x, 1", "", "label 2 is 'x', which is not a relevance label", id="token"),
        pytest.param("", "", "the list of labels is empty", id="empty"),
        pytest.param("3, -1", "", "label 2 is '-1', a negative label", id="negative"),
        pytest.param("3, 1", "2, ?", "missed[1] must be a number; got None", id="unjudged-missed"),
    ],
)
def test_05_bad_labels_end_in_a_callout(unjudged_app, labels, missed, message):
    text, _ = run05(unjudged_app, labels=labels, missed=missed)
    assert message in text
    assert "Traceback" not in text


@pytest.mark.parametrize("labels", ["?, ?, ?", "0, 0", "?", "3"])
@pytest.mark.parametrize("k", [1, 10])
def test_05_odd_but_valid_lists(unjudged_app, labels, k):
    text, _ = run05(unjudged_app, labels=labels, missed="", k=k)
    parsed = nc.parse_labels(labels)
    judged = nc.teaching.compare.judged_labels(parsed)
    assert f"nDCG@{k} · unjudged = gain 0 {nc.score(parsed, k, judgments=judged).ndcg:.4f}" in text


@pytest.mark.parametrize(
    "depth, pool",
    [(1, ("classic",)), (100, ("classic", "tuned", "novel")), (37, ("novel",)), (10, ("tuned", "novel"))],
)
def test_05_pools(unjudged_app, depth, pool):
    text, values = run05(unjudged_app, depth=depth, pool=pool)
    assert values["pooling"].equals(nc.teaching.pooling.pooling_table(TOY.qrels_full, TOY.runs, list(pool), depth))
    assert f"qrels from a depth-{depth} pool of {', '.join(pool)}" in text


def test_05_empty_pool_is_a_message(unjudged_app):
    text, values = run05(unjudged_app, pool=())
    assert "pool must name at least one run: a pool of no runs judges nothing." in text
    assert values["pooling"] is None


# --------------------------------------------------------------------------- chapter 06

RUN_LINES = "101 Q0 DOC-0001 1 12.5 mine\n101 Q0 DOC-0002 2 13.0 mine\n101 Q0 DOC-0003 3 12.5 mine\n"


def run06(
    app,
    run_lines=RUN_LINES,
    tie_ids="d3, d1, d2",
    tie_labels="2, 0, 1",
    qrels="toy: pooled qrels",
    run="toy: tuned",
    qrels_file=None,
    run_file=None,
    gain="linear",
    discount="log2",
    cutoff="10",
    condense=False,
    complete=False,
    topic=None,
):
    defs = {
        "run_lines": widget(run_lines),
        "tie_ids_text": widget(tie_ids),
        "tie_labels_text": widget(tie_labels),
        "UPLOAD_LIMIT": 20_000_000,
        "qrels_upload": qrels_file or upload(),
        "run_upload": run_file or upload(),
        "qrels_choice": widget(qrels),
        "run_choice": widget(run),
        "gain_dropdown": widget(gain),
        "discount_dropdown": widget(discount),
        "cutoff_dropdown": widget(cutoff),
        "condense_box": widget(condense),
        "complete_box": widget(complete),
    }
    if topic is not None:
        defs["topic_dropdown"] = widget(topic)
    outputs, values = app.run(defs=defs)
    return plain(outputs), values


def test_06_defaults():
    outputs, values = notebook_runs.default_run("06_evaluating_runs.py")
    text = plain(outputs)
    assert "Traceback" not in text
    expected = nc.evaluate_run(TOY.qrels, TOY.runs["tuned"], ["ndcg", "ndcg_cut.10", "unjudged_cut.10"])
    assert values["evaluation"].per_topic.equals(expected.per_topic)
    assert f"Mean nDCG@10 {expected.mean['ndcg_cut_10']:.4f}" in text
    assert "ndcg_cut_10 all " + f"{expected.mean['ndcg_cut_10']:.4f}" in text  # the trec_eval lines
    assert "Topic 101 in trec_eval's order (the rank column played no part): " in text
    assert "DOC-0002 (score 13) DOC-0003 (score 12.5) DOC-0001 (score 12.5)" in text
    assert "trec_eval, pytrec_eval, ir_measures: document id descending d3, d2, d1 2, 1, 0 1" in text
    # the averaging demo drops topics 101 and 102 from the tuned run
    assert "topics in both (default)" in text and "complete averaging (-c)" in text
    first = sorted(expected.per_topic.index)[0]
    assert f"Topic {first} : nDCG@10 = {expected.per_topic.loc[first, 'ndcg_cut_10']:.4f}" in text


@pytest.mark.parametrize(
    "lines, message",
    [
        pytest.param(RUN_LINES.replace("12.5 mine\n101 Q0 DOC-0002", "high mine\n101 Q0 DOC-0002"),
                     "run lines, line 1: score 'high' is not a number (expected 'QID Q0 DOCID RANK SCORE RUN')", id="score"),
        pytest.param("101 Q0 DOC-0001 1 12.5\n", "run lines, line 1: found 5 fields, a run line has at least 6", id="fields"),
        pytest.param("", "run lines: no run lines found", id="empty"),
        pytest.param("/etc/passwd", "run lines, line 1: found 1 field, a run line has at least 6", id="not-a-path"),
    ],
)
def test_06_typed_run_lines(runs_app, lines, message):
    text, _ = run06(runs_app, run_lines=lines)
    assert message in text
    assert "root:" not in text  # a typed path is text, never a file read on the server


@pytest.mark.parametrize(
    "ids, labels, message",
    [
        ("d1, d2", "1, 0, 2", "document ids, scores and labels must have one entry per document; got 2 ids, 2 scores and 3 labels"),
        ("d1, d1", "1, 0", "document ids must not repeat; 'd1' appears twice."),
        ("d1", "high", "label 1 is 'high', which is not a relevance label"),
        ("", "", "the list of labels is empty"),
    ],
)
def test_06_bad_tie_input(runs_app, ids, labels, message):
    text, _ = run06(runs_app, tie_ids=ids, tie_labels=labels)
    assert message in text


def test_06_tie_table_values(runs_app):
    text, _ = run06(runs_app, tie_ids="a, b, c, d10, d9", tie_labels="0, 1, ?, 2, 3")
    table = nc.trec.tie_rules(["a", "b", "c", "d10", "d9"], [1.0] * 5, [0, 1, None, 2, 3])
    for rule, row in table.iterrows():
        value = str(int(row["ndcg"])) if float(row["ndcg"]).is_integer() else f"{row['ndcg']:.4f}"
        assert f"{rule} {row['order']} {row['labels']} {value}" in text


@pytest.mark.parametrize("qrels", ["toy: pooled qrels", "toy: full truth"])
@pytest.mark.parametrize("run", ["toy: classic", "toy: novel"])
@pytest.mark.parametrize(
    "gain, discount, cutoff, condense, complete",
    [
        ("linear", "log2", "5", False, False),
        ("exponential", "reciprocal", "1000", True, True),
        ("linear", "jarvelin_kekalainen", "20", False, True),
        ("exponential", "none", "100", True, False),
    ],
)
def test_06_settings_give_ndcg_core_numbers(runs_app, qrels, run, gain, discount, cutoff, condense, complete):
    text, values = run06(
        runs_app, qrels=qrels, run=run, gain=gain, discount=discount, cutoff=cutoff,
        condense=condense, complete=complete, topic="105",
    )
    chosen = TOY.qrels if qrels == "toy: pooled qrels" else TOY.qrels_full
    expected = nc.evaluate_run(
        chosen, TOY.runs[run.split(": ")[1]], ["ndcg", f"ndcg_cut.{cutoff}", f"unjudged_cut.{cutoff}"],
        gain=gain, discount=discount, unjudged="condense" if condense else "zero", complete=complete,
    )
    assert values["evaluation"].per_topic.equals(expected.per_topic)
    assert expected.describe() in text
    assert f"Topic 105 : nDCG@{cutoff} = {expected.per_topic.loc['105', f'ndcg_cut_{cutoff}']:.4f}" in text


def test_06_uploads(runs_app):
    qrels_bytes = (ROOT / "data" / "toy" / "qrels_full.txt").read_bytes()
    run_bytes = (ROOT / "data" / "toy" / "run_novel.txt").read_bytes()
    text, values = run06(
        runs_app, qrels="uploaded qrels", run="uploaded run",
        qrels_file=upload("mine.qrels", qrels_bytes), run_file=upload("mine.run", run_bytes),
    )
    expected = nc.evaluate_run(TOY.qrels_full, TOY.runs["novel"], ["ndcg", "ndcg_cut.10", "unjudged_cut.10"])
    assert values["evaluation"].per_topic.equals(expected.per_topic)
    assert "runid all novel" in text


@pytest.mark.parametrize(
    "qrels_file, run_file, message",
    [
        pytest.param(None, None, "Upload a qrels file, or choose a toy file.", id="nothing-uploaded"),
        pytest.param(upload("bad.qrels", b"101 0 DOC-1 one\n"), None,
                     "bad.qrels, line 1: relevance 'one' is not an integer (expected 'QID ITER DOCID REL')", id="bad-qrels"),
        pytest.param(upload("huge.qrels", b"101 0 DOC-1 1\n" * 1_500_000), None,
                     "huge.qrels: the file has 21,000,000 bytes, more than the 20,000,000 allowed here", id="too-large"),
        pytest.param(upload("ok.qrels", b"101 0 DOC-1 1\n"), None, "Upload a run file, or choose a toy file.", id="no-run"),
        pytest.param(upload("ok.qrels", b"101 0 DOC-1 1\n"), upload("other.run", b"999 Q0 DOC-1 1 1.0 r\n"),
                     "run and qrels must share at least one topic", id="no-shared-topic"),
        pytest.param(upload("ok.qrels", b"101 0 DOC-1 1\n"), upload("dup.run", b"101 Q0 a 1 1 r\n101 Q0 a 2 1 r\n"),
                     "dup.run, line 2: document 'a' is retrieved twice for topic '101' (first on line 1)", id="dup-run"),
        pytest.param(upload("bin.qrels", b"\x00\xff\xfe garbage"), None, "bin.qrels, line 1:", id="binary"),
    ],
)
def test_06_upload_problems_end_in_a_message(runs_app, qrels_file, run_file, message):
    text, _ = run06(runs_app, qrels="uploaded qrels", run="uploaded run", qrels_file=qrels_file, run_file=run_file)
    assert message in text
    assert "Mean nDCG@10" not in text  # no number is shown for files that could not be used


def test_06_averaging_demo_with_every_topic_dropped(runs_app):
    topics = sorted(TOY.qrels["query_id"].cat.categories)
    outputs, values = runs_app.run(defs={"drop_select": widget(topics)})
    text = plain(outputs)
    assert "run and qrels must share at least one topic" in text
    assert "Traceback" not in text
