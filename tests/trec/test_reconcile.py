"""The reconciler: the vectorised space against a readable loop, the presets against the
real tools (pytrec_eval, ir_measures, scikit-learn, the exam's code), each preset found
again from its own numbers, and the target readers' messages."""

from __future__ import annotations

import io
import random
from itertools import product
from math import log2

import numpy as np
import pytest

from ndcg_core.trec import evaluate_run, read_qrels, read_run
from ndcg_core.trec.conventions import (
    DIMENSIONS,
    PRESETS,
    TREC_EVAL,
    Convention,
    describe_value,
)
from ndcg_core.trec.reconcile import POLICIES, read_target, reconcile, score_conventions


def random_collection(seed: int, topics: int = 9):
    """Qrels and a run (rows in file order) with ties, negative labels, unjudged and missed
    documents, a qrels topic the run lacks and a run topic the qrels lack."""
    rng = random.Random(seed)
    qrels: dict[str, dict[str, int]] = {}
    run_rows: list[tuple[str, str, float]] = []
    for t in range(topics):
        qid = f"q{t + 1}"
        docs = [f"d{i:02d}" for i in rng.sample(range(40), 24)]
        judged = docs[:14]
        qrels[qid] = {d: rng.choice([-1, 0, 0, 1, 1, 2, 3]) for d in judged}
        retrieved = rng.sample(docs[:8], 5) + docs[14:14 + rng.randint(2, 7)] + rng.sample(docs[8:14], 2)
        rng.shuffle(retrieved)
        run_rows += [(qid, d, float(rng.choice([1, 2, 2, 3, 3, 3, 4.5]))) for d in retrieved]
    qrels["q_only_qrels"] = {"a": 2, "b": 1}
    run_rows += [("q_only_run", "a", 1.0), ("q_only_run", "b", 2.0)]
    qrels["q_negative"] = {"a": -1, "b": -1}
    run_rows += [("q_negative", "a", 1.0), ("q_negative", "c", 1.0)]
    run = {}
    for qid, doc, score in run_rows:
        run.setdefault(qid, {})[doc] = score
    return qrels, run, run_rows


# --------------------------------------------------------------------------- the loop reference

DISCOUNTS = {
    "log2": lambda i: 1 / log2(i + 1),
    "log2_shifted": lambda i: 1 / log2(i + 2),
    "jarvelin_kekalainen": lambda i: 1.0 if i < 2 else 1 / log2(i),
}
GAINS = {"linear": lambda x: x, "exponential": lambda x: 2.0 ** x - 1}


def reference_ndcg(qrels, run_rows, topic, c: Convention, k):
    """One topic under one convention, written out as a loop."""
    judged = qrels.get(topic, {})
    docs = [(doc, score, pos) for pos, (q, doc, score) in enumerate(run_rows) if q == topic]

    def unjudged(doc):
        label = judged.get(doc)
        return label is None or (label < 0 and c.negatives == "unjudged")

    def value(doc):
        label = judged.get(doc)
        if label is None or (label < 0 and c.negatives != "as_is"):
            return 0
        return label

    if c.unjudged == "condense":
        docs = [d for d in docs if not unjudged(d[0])]
    if c.ties == "docno_desc":
        docs = sorted(docs, key=lambda d: d[0], reverse=True)
    elif c.ties == "docno_asc":
        docs = sorted(docs, key=lambda d: d[0])
    docs = sorted(docs, key=lambda d: -d[1])  # stable: the tie order stays
    cut = {"k": k, "k-1": None if k is None else k - 1, "k+1": None if k is None else k + 1, "whole": None}[c.cutoff]
    g, disc = GAINS[c.gain], DISCOUNTS[c.discount]
    gains = [g(value(d[0])) for d in docs]
    if c.ties == "averaged":
        for score in {d[1] for d in docs}:
            members = [i for i, d in enumerate(docs) if d[1] == score]
            mean = sum(gains[i] for i in members) / len(members)
            for i in members:
                gains[i] = mean
    depth = len(docs) if cut is None else min(cut, len(docs))
    dcg = sum(gains[i] * disc(i + 1) for i in range(depth))
    if c.ideal in ("judgments", "judgments_full"):
        ideal = [(0 if (l < 0 and c.negatives == "zero") else l) for l in judged.values() if l >= 0 or c.negatives != "unjudged"]
    elif c.ideal == "retrieved":
        ideal = [value(d[0]) for d in docs]
    else:
        ideal = [value(d[0]) for d in docs[: (len(docs) if cut is None else cut)]]
    ideal = sorted(ideal, reverse=True)
    ideal = ideal if cut is None or c.ideal == "judgments_full" else ideal[:cut]
    idcg = sum(g(l) * disc(i + 1) for i, l in enumerate(ideal))
    return dcg / idcg if idcg > 0 else 0.0


@pytest.mark.parametrize("k", [3, 1, None], ids=["k3", "k1", "whole"])
def test_every_convention_equals_the_loop_reference(k):
    qrels, run, rows = random_collection(1, topics=4)
    scores = score_conventions(qrels, run, k)
    for index in product(*(range(s) for s in scores.values.shape[:-1])):
        c = scores.convention(index)
        got = scores.values[index]
        want = [reference_ndcg(qrels, rows, t, c, k) for t in scores.topics]
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12, err_msg=c.describe())


def test_the_space_counts_its_configurations():
    qrels, run, _ = random_collection(2, topics=2)
    scores = score_conventions(qrels, run, 5)
    assert scores.values.shape[:-1] == (2, 3, 4, 4, len(POLICIES), 4)
    assert scores.cutoffs == ("k", "k-1", "k+1", "whole")
    assert score_conventions(qrels, run, 1).cutoffs == ("k", "k+1", "whole")
    assert score_conventions(qrels, run, None).cutoffs == ("k",)


def test_trec_eval_convention_equals_evaluate_run():
    qrels, run, _ = random_collection(3)
    scores = score_conventions(qrels, run, 5)
    ours = evaluate_run(qrels, run, ["ndcg_cut.5"]).per_topic["ndcg_cut_5"]
    np.testing.assert_allclose(scores.per_topic(TREC_EVAL).loc[ours.index], ours, rtol=0, atol=1e-12)
    complete = evaluate_run(qrels, run, ["ndcg_cut.5"], complete=True)
    assert scores.mean(TREC_EVAL.with_topics("qrels")) == pytest.approx(float(complete.mean.iloc[0]), abs=1e-12)


# --------------------------------------------------------------------------- the real tools

K = 5


def pytrec_values(qrels, run, measure, **flags):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    result = pytrec_eval.RelevanceEvaluator(qrels, {measure}, **flags).evaluate(run)
    name = measure.replace(".", "_")
    return {q: v[name] for q, v in result.items()}


def ir_measures_values(qrels, run, judged_only=False):
    ir_measures = pytest.importorskip("ir_measures")
    measure = ir_measures.nDCG(judged_only=True) @ K if judged_only else ir_measures.nDCG @ K
    per_topic = {m.query_id: m.value for m in ir_measures.iter_calc([measure], qrels, run)}
    return per_topic, ir_measures.calc_aggregate([measure], qrels, run)[measure]


def sklearn_values(qrels, run_rows):
    metrics = pytest.importorskip("sklearn.metrics")
    out = {}
    for topic in dict.fromkeys(q for q, _, _ in run_rows):
        docs = [(doc, score) for q, doc, score in run_rows if q == topic]
        labels = [max(qrels.get(topic, {}).get(doc, 0), 0) for doc, _ in docs]
        out[topic] = float(metrics.ndcg_score([labels], [[s for _, s in docs]], k=K))
    return out


# the exam's short implementation, as printed (../shared/seeds/001_3a9f09267e2852aa.txt)
def exam_dcg(rels, k):
    return sum(rels[i] / log2(i + 2) for i in range(min(k, len(rels))))


def exam_ndcg(rels, k):
    ideal = sorted(rels, reverse=True)
    return exam_dcg(rels, k) / exam_dcg(ideal, k)


def exam_values(qrels, run_rows):
    out = {}
    for topic in qrels:
        docs = sorted([(doc, score) for q, doc, score in run_rows if q == topic], key=lambda d: -d[1])
        if not docs:
            continue
        rels = [qrels[topic].get(doc, 0) for doc, _ in docs]
        ideal = exam_dcg(sorted(rels, reverse=True), K)
        out[topic] = exam_ndcg(rels, K) if ideal > 0 else 0.0  # the exam code divides by zero here
    return out


def tool_values(name, qrels, run, rows):
    """(per-topic values, mean) as the tool itself computes them."""
    if name in ("trec_eval", "pytrec_eval"):
        values = pytrec_values(qrels, run, f"ndcg_cut.{K}")
        return values, sum(values.values()) / len(values)
    if name == "trec_eval -M k ndcg":  # trec_eval -M k: the run cut at k after trec_eval's sort
        cut = {}
        for q, docs in run.items():
            ranked = sorted(docs.items(), key=lambda item: (item[1], item[0]), reverse=True)
            cut[q] = dict(ranked[:K])
        values = pytrec_values(qrels, cut, "ndcg")
        return values, sum(values.values()) / len(values)
    if name == "trec_eval -J":
        values = pytrec_values(qrels, run, f"ndcg_cut.{K}", judged_docs_only_flag=True)
        return values, sum(values.values()) / len(values)
    if name == "ir_measures":
        return ir_measures_values(qrels, run)
    if name == "ir_measures judged_only":
        return ir_measures_values(qrels, run, judged_only=True)
    if name in ("scikit-learn", "torchmetrics"):
        values = sklearn_values(qrels, rows)
        return values, sum(values.values()) / len(values)
    if name == "exam":
        values = exam_values(qrels, rows)
        return values, sum(values.values()) / len(values)
    return None


VERIFIED = ["trec_eval", "trec_eval -J", "trec_eval -M k ndcg", "pytrec_eval", "ir_measures", "ir_measures judged_only", "scikit-learn", "exam"]


def numeric_collection(seed):
    """gdeval.pl wants numeric topic ids and labels up to 4."""
    qrels, _, rows = random_collection(seed)
    ids = {q: str(300 + i) for i, q in enumerate(dict.fromkeys(list(qrels) + [q for q, _, _ in rows]))}
    qrels = {ids[q]: docs for q, docs in qrels.items()}
    rows = [(ids[q], d, s) for q, d, s in rows]
    run = {}
    for qid, doc, score in rows:
        run.setdefault(qid, {})[doc] = score
    return qrels, run, rows


def gdeval_values(qrels, run):
    ir_measures = pytest.importorskip("ir_measures")
    import shutil

    if shutil.which("perl") is None:
        pytest.skip("gdeval.pl needs perl")
    measure = ir_measures.nDCG(dcg="exp-log2") @ K
    per_topic = {m.query_id: m.value for m in ir_measures.iter_calc([measure], qrels, run)}
    return per_topic, ir_measures.calc_aggregate([measure], qrels, run)[measure]


def test_gdeval_preset_equals_gdeval_to_its_five_decimals():
    qrels, run, _ = numeric_collection(13)
    values, mean = gdeval_values(qrels, run)
    convention = PRESETS["gdeval"].convention
    scores = score_conventions(qrels, run, K)
    ours = scores.per_topic(convention)
    assert sorted(values) == sorted(ours.index)
    for topic, value in values.items():
        assert ours.loc[topic] == pytest.approx(value, abs=5e-6), topic
    assert scores.mean(convention) == pytest.approx(mean, abs=5e-6)
    target = {q: f"{v:.5f}" for q, v in values.items()} | {"all": f"{mean:.5f}"}
    found = reconcile(qrels, run, target, k=K)
    assert "gdeval" in found.matches["presets"].iloc[0].split(", ")
    assert "exponential gain 2^l - 1 instead of linear gain" in _differs_line(found.explanation)


@pytest.mark.parametrize("seed", [11, 12])
@pytest.mark.parametrize("name", VERIFIED)
def test_preset_equals_the_tool(name, seed):
    qrels, run, rows = random_collection(seed)
    values, mean = tool_values(name, qrels, run, rows)
    convention = PRESETS[name].convention
    scores = score_conventions(qrels, run, K)
    ours = scores.per_topic(convention)
    assert sorted(values) == sorted(ours.index)
    for topic, value in values.items():
        assert ours.loc[topic] == pytest.approx(value, abs=1e-12), topic
    assert scores.mean(convention) == pytest.approx(mean, abs=1e-12)


def test_verified_presets_are_the_ones_marked():
    assert sorted(VERIFIED + ["trec_eval -c", "gdeval"]) == sorted(p.name for p in PRESETS.values() if p.verified)


# --------------------------------------------------------------------------- round trips


def _differs_line(explanation: str) -> str:
    return next(line for line in explanation.splitlines() if line.startswith(("It differs", "That is trec_eval")))


@pytest.mark.parametrize("name", list(PRESETS))
def test_each_preset_is_found_from_its_own_numbers(name):
    qrels, run, rows = random_collection(21)
    convention = PRESETS[name].convention
    computed = tool_values(name, qrels, run, rows)
    if computed is None:  # not installed here: the preset's own numbers
        scores = score_conventions(qrels, run, K)
        per_topic = scores.per_topic(convention).to_dict()
        mean = scores.mean(convention)
    else:
        per_topic, mean = computed
    target = {q: f"{v:.4f}" for q, v in per_topic.items()} | {"all": f"{mean:.4f}"}
    found = reconcile(qrels, run, target, k=K)
    assert found.matched
    assert name in found.matches["presets"].str.split(", ").sum()
    assert name in found.matches["presets"].iloc[0].split(", ")  # all its differences matter on this data
    line = _differs_line(found.explanation)
    for dimension in convention.differences(TREC_EVAL):
        assert describe_value(dimension, getattr(convention, dimension), K) in line, (dimension, line)
    if not convention.differences(TREC_EVAL):
        assert line == "That is trec_eval's own convention."


def test_a_mean_alone_is_matched_and_the_topic_set_explained():
    qrels, run, _ = random_collection(22)
    mean = score_conventions(qrels, run, K).mean(PRESETS["ir_measures"].convention)
    found = reconcile(qrels, run, round(mean, 4), k=K)
    assert "ir_measures" in found.matches["presets"].str.split(", ").sum()
    assert "The mean is over all 11 qrels topics instead of the 10 in both run and qrels: 1 topic without results counts as 0." in found.explanation


def test_per_topic_explanation_names_the_topic_and_the_reason():
    qrels = {"12": {"a": 3, "b": 2, "c": 2, "d": 1}, "13": {"a": 1}}
    run = {"12": {"a": 1.0, "x": 0.5}, "13": {"a": 1.0}}
    found = reconcile(qrels, run, {"12": "1.0000", "13": "1.0000"}, k=10)
    assert found.best.ideal == "retrieved"
    assert "topic 12: trec_eval 0.5270, this convention 1.0000 (target 1.0000)" in found.explanation
    assert "the run retrieved 1 of its 4 relevant documents" in found.explanation
    table = found.topic_table()
    assert table.columns.tolist() == ["query_id", "target", "trec_eval", "convention", "change", "reason"]
    assert table["query_id"].iloc[0] == "12"


def test_nothing_matches_shows_the_closest():
    qrels, run, _ = random_collection(23)
    found = reconcile(qrels, run, {"q1": "0.1234", "q2": "0.9876"}, k=K)
    assert not found.matched and found.matches.empty
    assert found.explanation.startswith("Nothing among")
    assert found.table(3)["distance"].is_monotonic_increasing or found.table(3)["mismatched"].is_monotonic_increasing
    assert "Nearest configurations" in found.report()


def test_a_percentage_gets_a_hint():
    qrels, run, _ = random_collection(24, topics=3)
    found = reconcile(qrels, run, "43.21", k=K)
    assert "divide it by 100" in found.explanation


# --------------------------------------------------------------------------- targets


def test_read_target_formats(tmp_path):
    assert read_target(0.5).mean_digits == 1
    assert read_target("0,4312").mean == pytest.approx(0.4312)
    trec = tmp_path / "trec.txt"
    trec.write_text("runid all r\nndcg_cut_10 301 0.5000\nmap 301 0.1\nndcg_cut_10 all 0.5000\n")
    t = read_target(trec)
    assert (t.k, dict(t.per_topic), t.mean, t.measure) == (10, {"301": 0.5}, 0.5, "ndcg_cut_10")
    t = read_target(str(trec))
    assert t.source == str(trec)
    t = read_target("301\tnDCG@5\t0.25\n302\tnDCG@5\t0.125\n")
    assert (t.k, t.digits) == (5, {"301": 2, "302": 3})
    t = read_target(b"query_id,ndcg\n301,0.5\n302,0.25\n")
    assert (t.k, dict(t.per_topic)) == (None, {"301": 0.5, "302": 0.25})
    t = read_target("301,0.5\n302,0.25\n")
    assert t.k is not None and dict(t.per_topic) == {"301": 0.5, "302": 0.25}
    t = read_target("query_id,ndcg,ndcg_cut_5\n301,0.5,0.25\nall,0.5,0.25\n", k=5)
    assert (t.k, dict(t.per_topic), t.mean) == (5, {"301": 0.25}, 0.25)


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("abc", r"neither a number nor an existing file"),
        (float("nan"), r"finite number"),
        ("ndcg 301 x\n", r"line 1: 'x' is not a number"),
        ("ndcg 301 0.5\nndcg 301 0.5\n", r"listed twice"),
        ("ndcg 301 0.5\nndcg_cut_5 301 0.5\n", r"several nDCG measures \(ndcg, ndcg_cut_5\)"),
        ("a b c d\n", r"line 1: expected 'measure qid value'"),
        ("# nothing\n\n", r"is empty"),
        ({}, r"holds no values"),
        ({"301": "high"}, r"'high' is not a number"),
    ],
)
def test_bad_targets_say_what_is_wrong(target, message):
    with pytest.raises(ValueError, match=message):
        read_target(target)


def test_typed_text_never_opens_a_path(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("ndcg 301 0.5\n")
    assert read_target(str(secret)).per_topic == {"301": 0.5}
    with pytest.raises(ValueError, match=r"must be a number such as 0.4312 or per-topic lines") as error:
        read_target(str(secret), paths=False)
    assert "0.5" not in str(error.value)
    assert read_target("ndcg_cut_5 301 0.5", paths=False).k == 5
    assert read_target("0.25", paths=False).mean == 0.25
    with pytest.raises(TypeError, match=r"not a path"):
        read_target(secret, paths=False)


def test_reconcile_needs_k_and_known_topics():
    qrels, run, _ = random_collection(25, topics=2)
    with pytest.raises(ValueError, match=r"say which measure the target is"):
        reconcile(qrels, run, 0.5)
    with pytest.raises(ValueError, match=r"neither the qrels nor the run hold"):
        reconcile(qrels, run, {"nope": 0.5}, k=5)
    with pytest.raises(ValueError, match=r"holds ndcg_cut_10, which is not nDCG@5"):
        reconcile(qrels, run, "ndcg_cut_10 q1 0.5\n", k=5)


def test_trec_eval_q_output_round_trips_through_a_file(tmp_path):
    qrels, run, _ = random_collection(26)
    text = evaluate_run(qrels, run, ["ndcg_cut.10"], complete=True).to_trec(per_topic=True)
    path = tmp_path / "other.txt"
    path.write_text(text)
    found = reconcile(qrels, run, path)
    assert found.matched and "trec_eval -c" in found.matches["presets"].iloc[0]


def test_read_files_keep_the_file_order():
    qrels, run, rows = random_collection(27, topics=3)
    qrels_text = "".join(f"{q} 0 {d} {l}\n" for q, docs in qrels.items() for d, l in docs.items())
    run_text = "".join(f"{q} Q0 {d} 0 {s} r\n" for q, d, s in rows)
    from_files = score_conventions(read_qrels(io.StringIO(qrels_text)), read_run(io.StringIO(run_text)), 3)
    from_dicts = score_conventions(qrels, run, 3)
    assert from_files.topics == from_dicts.topics
    np.testing.assert_allclose(from_files.values, from_dicts.values, rtol=0, atol=0)


def test_dimensions_words_cover_every_value():
    for dimension, values in DIMENSIONS.items():
        for value in values:
            assert describe_value(dimension, value)
    with pytest.raises(ValueError, match=r"gain must be one of linear, exponential"):
        Convention(gain="log")


# --------------------------------------------------------------------------- ndcg-eval --match


def _files(tmp_path, seed=31):
    qrels, run, rows = random_collection(seed)
    q = tmp_path / "qrels.txt"
    r = tmp_path / "run.txt"
    q.write_text("".join(f"{t} 0 {d} {l}\n" for t, docs in qrels.items() for d, l in docs.items()))
    r.write_text("".join(f"{t} Q0 {d} 0 {s} r\n" for t, d, s in rows))
    return qrels, run, str(q), str(r)


def _cli(argv):
    from ndcg_core.trec.cli import run as cli_run

    out, err = io.StringIO(), io.StringIO()
    status = cli_run(argv, stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_cli_match_a_number(tmp_path):
    qrels, run, q, r = _files(tmp_path)
    mean = score_conventions(qrels, run, 10).mean(PRESETS["scikit-learn"].convention)
    status, out, err = _cli(["--match", f"{mean:.4f}", "-m", "ndcg_cut.10", q, r])
    assert (status, err) == (0, "")
    assert "is reproduced by" in out and "scikit-learn" in out and "Matching and nearest configurations:" in out


def test_cli_match_a_trec_eval_file(tmp_path):
    _, _, q, r = _files(tmp_path)
    target = tmp_path / "other.txt"
    status, out, _ = _cli(["-q", "-J", "-m", "ndcg_cut.5", q, r])
    target.write_text(out)
    status, out, err = _cli(["--match", str(target), q, r, "--candidates", "2"])
    assert status == 0, err
    assert "trec_eval -J" in out and "removed before ranking instead of unjudged documents gain 0" in out
    status, out, _ = _cli(["--match", str(target), q, r, "--format", "json"])
    import json

    document = json.loads(out)
    assert document["matched"] and len(document["candidates"]) == 10


def test_cli_match_nothing_exits_1(tmp_path):
    _, _, q, r = _files(tmp_path)
    status, out, err = _cli(["--match", "0.0001", "-m", "ndcg_cut.10", q, r])
    assert (status, err) == (1, "")
    assert out.startswith("Nothing among") and "Nearest configurations:" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--match", "0.5"], "say which measure the target is"),
        (["--match", "0.5", "-m", "ndcg_cut.5,10"], "--match reconciles one measure"),
        (["--match", "0.5", "-m", "ndcg", "-c", "-J"], "leave out -c, -J"),
        (["--match", "missing.txt", "-m", "ndcg"], "neither a number nor an existing file"),
        (["--match", "0.5", "-m", "ndcg", "--candidates", "0"], "--candidates must be a positive"),
    ],
)
def test_cli_match_bad_input_says_why(tmp_path, argv, message):
    _, _, q, r = _files(tmp_path)
    status, out, err = _cli(argv + [q, r])
    assert status == 2 and out == ""
    assert err.startswith("ndcg-eval: ") and message in err


def test_cli_match_unreadable_run(tmp_path):
    _, _, q, _ = _files(tmp_path)
    status, _, err = _cli(["--match", "0.5", "-m", "ndcg", q, str(tmp_path / "none.txt")])
    assert status == 2 and "cannot read the run file" in err


@pytest.mark.parametrize("style", ["csv", "text"])
def test_cli_match_takes_nan_for_topics_the_other_tool_could_not_score(tmp_path, style):
    """trectools prints NaN (pandas: an empty CSV cell) for a topic without relevant documents."""
    qrels, run, q, r = _files(tmp_path)
    scores = score_conventions(qrels, run, 10)
    values = scores.per_topic(TREC_EVAL.with_topics("both"))
    left = ["q_negative", "q_only_qrels"]  # no positive label / no run lines: nothing to score
    lines = []
    for qid, value in values.items():
        text = "" if qid in left and style == "csv" else "NaN" if qid in left else f"{value:.4f}"
        lines.append(f"{qid},{text}" if style == "csv" else f"{qid} NDCG@10 {text}")
    for qid in left:
        if qid not in values.index:
            lines.append(f"{qid}," if style == "csv" else f"{qid} NDCG@10 nan")
    target = tmp_path / "trectools.txt"
    target.write_text(("query,NDCG@10\n" if style == "csv" else "") + "\n".join(lines) + "\n")
    status, out, err = _cli(["--match", str(target), q, r])
    assert (status, err) == (0, ""), err
    assert "Left out 2 topics" in out and "q_negative, q_only_qrels" in out
    found = read_target(str(target))
    assert found.left_out == tuple(left) and not set(left) & set(found.per_topic)
    assert len(found.per_topic) == len(values) - sum(qid in values.index for qid in left)


def test_a_target_of_nan_only_says_so():
    with pytest.raises(ValueError, match=r"gives no topic a value \(all 2 are NaN or empty\)"):
        read_target("q1 ndcg_cut_10 nan\nq2 ndcg_cut_10 -nan\n")
