"""Cross-checks against independent implementations: pytrec_eval (trec_eval's C code) and scikit-learn.

pytrec_eval builds the ideal from every judged document of the query, like
``ndcg(..., judgments=...)``; scikit-learn's ``ndcg_score`` builds it from the same row
only, like ``ndcg(...)`` without judgments, and averages the gains of tied scores, so the
comparison uses distinct scores.
"""

import random

import numpy as np
import pytest

import ndcg_core as nc

pytrec_eval = pytest.importorskip("pytrec_eval")
sklearn_metrics = pytest.importorskip("sklearn.metrics")


def random_query(rng: random.Random):
    """A ranked list with distinct scores plus judged relevant documents the list missed."""
    n = rng.randint(1, 30)
    labels = [rng.choice([0, 0, 0, 1, 1, 2, 3]) for _ in range(n)]
    missed = [rng.choice([1, 1, 2, 3]) for _ in range(rng.randint(0, 6))]
    return labels, missed


@pytest.mark.parametrize("seed", range(40))
def test_pytrec_eval_ndcg_cut_agrees(seed):
    rng = random.Random(seed)
    cutoffs = [1, 3, 5, 10, 20, 50]
    qrels, run, cases = {}, {}, {}
    for q in range(10):
        labels, missed = random_query(rng)
        qid = f"q{q}"
        # Scores strictly decreasing with rank, so ordering is unambiguous in every tool.
        run[qid] = {f"d{i:03d}": float(len(labels) - i) for i in range(len(labels))}
        qrels[qid] = {f"d{i:03d}": lab for i, lab in enumerate(labels)}
        qrels[qid].update({f"m{j:03d}": lab for j, lab in enumerate(missed)})
        cases[qid] = (labels, labels + missed)
    measures = {"ndcg", "ndcg_cut." + ",".join(map(str, cutoffs))}
    result = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)
    for qid, (labels, judgments) in cases.items():
        assert nc.ndcg(labels, judgments=judgments) == pytest.approx(result[qid]["ndcg"], abs=1e-12)
        for k in cutoffs:
            assert nc.ndcg(labels, k, judgments=judgments) == pytest.approx(result[qid][f"ndcg_cut_{k}"], abs=1e-12), (qid, k)


def test_pytrec_eval_on_lecture_example():
    qrels = {"q": {"a": 1, "b": 0, "c": 2, "d": 1, "e": 0}}
    run = {"q": {"a": 5.0, "b": 4.0, "c": 3.0, "d": 2.0, "e": 1.0}}
    result = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.5"}).evaluate(run)
    assert result["q"]["ndcg_cut_5"] == pytest.approx(nc.ndcg([1, 0, 2, 1, 0], 5, judgments=[2, 1, 1]), abs=1e-12)


@pytest.mark.parametrize("seed", range(40))
def test_sklearn_ndcg_score_agrees_with_ideal_from_the_list(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 40))
    labels = rng.integers(0, 4, size=n)
    labels[0] = max(labels[0], 1)  # at least one relevant document
    scores = np.arange(n, 0, -1, dtype=float)  # distinct: no tie averaging
    for k in (1, 3, 5, 10, None):
        expected = sklearn_metrics.ndcg_score([labels], [scores], k=k)
        assert nc.ndcg(labels.tolist(), k) == pytest.approx(expected, abs=1e-12)
    assert nc.dcg(labels.tolist(), 5) == pytest.approx(sklearn_metrics.dcg_score([labels], [scores], k=5), abs=1e-12)


def test_sklearn_dcg_log_base_matches_log_discount():
    labels = [1, 0, 2, 1, 0]
    scores = [5, 4, 3, 2, 1]
    assert nc.dcg(labels, discount="log", base=10) == pytest.approx(
        sklearn_metrics.dcg_score([labels], [scores], log_base=10), abs=1e-12
    )
