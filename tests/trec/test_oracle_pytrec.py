"""evaluate_run against pytrec_eval (trec_eval 9's C code) on generated collections.

The data is built to hit trec_eval's corners: many tied scores (so the docno tie-break
decides the order, with ids of different lengths and cases), negative qrels labels,
topics whose judgments are all 0, topics missing from the run or from the qrels, runs
shorter than the cutoffs, and judged-only evaluation (-J). Per-topic values must agree
to 1e-12.

Topics whose every label is negative are left out here: trec_eval reads stale level
counts for them (undefined behaviour in its C code); tests/test_evaluate.py pins our
answer (0) for that case.
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_core.trec.evaluate import evaluate_run
from ndcg_core.trec.files import read_qrels, read_run

pytrec_eval = pytest.importorskip("pytrec_eval")

CUTOFFS = (1, 2, 3, 5, 10, 20, 100, 1000)
MEASURES = {"ndcg", "ndcg_cut." + ",".join(map(str, CUTOFFS))}
DOC_IDS = ["d1", "d10", "d2", "D2", "d9", "d99", "a", "Z", "doc-7", "doc-70", "x_1", "x_10"] + [f"p{i}" for i in range(60)]


def collection(rng: random.Random):
    qrels, run = {}, {}
    for q in range(rng.randint(1, 15)):
        qid = rng.choice(["", "q", "Q-"]) + str(q)
        judged = rng.sample(DOC_IDS, rng.randint(1, 30))
        kind = rng.random()
        labels = [0, 0, 0] if kind < 0.15 else [-1, 0, 0, 1, 1, 2, 3, 4]
        qrels[qid] = {doc: rng.choice(labels) for doc in judged}
        if max(qrels[qid].values()) < 0:
            qrels[qid][judged[0]] = 0
        if rng.random() < 0.85:  # some qrels topics have no run lines
            retrieved = rng.sample(DOC_IDS, rng.randint(1, 60))
            ties = rng.random() < 0.6
            run[qid] = {doc: float(rng.randint(0, 4)) if ties else round(rng.uniform(-5, 5), 3) for doc in retrieved}
    run["only-in-run"] = {"d1": 1.0, "d2": 2.0}
    first = next(iter(qrels))
    run.setdefault(first, {"d1": 0.5})
    return qrels, run


def assert_agrees(qrels, run, judged_only=False):
    oracle = pytrec_eval.RelevanceEvaluator(qrels, MEASURES, judged_docs_only_flag=judged_only).evaluate(run)
    result = evaluate_run(
        qrels, run, ["ndcg", "ndcg_cut." + ",".join(map(str, CUTOFFS))],
        unjudged="condense" if judged_only else "zero",
    )
    assert set(result.per_topic.index) == set(oracle)
    for qid, expected in oracle.items():
        for name, value in expected.items():
            ours = float(result.per_topic.loc[qid, name])
            assert ours == pytest.approx(value, abs=1e-12), (qid, name, ours, value)


@pytest.mark.parametrize("judged_only", [False, True], ids=["all-docs", "judged-only"])
@pytest.mark.parametrize("seed", range(40))
def test_agrees_with_pytrec_eval(seed, judged_only):
    qrels, run = collection(random.Random(seed))
    assert_agrees(qrels, run, judged_only)


@pytest.mark.parametrize("seed", range(5))
def test_agrees_through_the_file_readers(tmp_path, seed):
    qrels, run = collection(random.Random(1000 + seed))
    qrels_path, run_path = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels_path.write_text("".join(f"{q} 0 {d} {l}\n" for q, docs in qrels.items() for d, l in docs.items()))
    run_path.write_text(
        "".join(f"{q}\tQ0\t{d}\t{r}\t{s!r}\tsys\n" for q, docs in run.items() for r, (d, s) in enumerate(docs.items(), 1))
    )
    with open(qrels_path) as f:
        oracle_qrels = pytrec_eval.parse_qrel(f)
    with open(run_path) as f:
        oracle_run = pytrec_eval.parse_run(f)
    oracle = pytrec_eval.RelevanceEvaluator(oracle_qrels, MEASURES).evaluate(oracle_run)
    result = evaluate_run(read_qrels(qrels_path), read_run(run_path), ["ndcg", "ndcg_cut." + ",".join(map(str, CUTOFFS))])
    for qid, expected in oracle.items():
        for name, value in expected.items():
            assert float(result.per_topic.loc[qid, name]) == pytest.approx(value, abs=1e-12), (qid, name)


topic = st.dictionaries(
    st.sampled_from(DOC_IDS[:20]), st.integers(min_value=-1, max_value=3), min_size=1, max_size=12
).filter(lambda judged: max(judged.values()) >= 0)
ranking = st.dictionaries(
    st.sampled_from(DOC_IDS[:20]), st.sampled_from([0.0, 0.5, 1.0, 1.5, -1.0]), min_size=1, max_size=15
)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(["1", "2", "10", "q"]), st.tuples(topic, ranking), min_size=1, max_size=4),
       st.booleans())
def test_agrees_on_hypothesis_examples(topics, judged_only):
    qrels = {qid: judged for qid, (judged, _) in topics.items()}
    run = {qid: ranked for qid, (_, ranked) in topics.items()}
    assert_agrees(qrels, run, judged_only)
