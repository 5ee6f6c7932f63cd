"""evaluate_run: hand-derived values, trec_eval's averaging rules, agreement with the
one-list functions on every topic, explain(), and every error message."""

import random
from math import log2

import numpy as np
import pandas as pd
import pytest

import ndcg_core as nc
from ndcg_core.trec.evaluate import DEFAULT_CUTOFFS, evaluate_run, parse_measures
from ndcg_core.trec import ranked_labels, run_frame

# Topic t1 ranks a (2), z (unjudged; ties b on 0.8 and wins: 'z' > 'b'), b (1),
# f (-1 in the qrels: pooled, not judged), c (0). Its judged labels are e 3, a 2, b 1, d 1, c 0.
# t2 is perfect; t3 has no run lines; t4 has no judgments.
QRELS = {
    "t1": {"a": 2, "b": 1, "c": 0, "d": 1, "e": 3, "f": -1},
    "t2": {"x": 1},
    "t3": {"y": 2},
}
RUN = {
    "t1": {"a": 0.9, "b": 0.8, "z": 0.8, "f": 0.5, "c": 0.4},
    "t2": {"x": 1.0},
    "t4": {"w": 1.0},
}
T1_IDCG3 = 3 / log2(2) + 2 / log2(3) + 1 / log2(4)
T1_NDCG3 = (2 / log2(2) + 0 / log2(3) + 1 / log2(4)) / T1_IDCG3


def value(result, query_id, name):
    return float(result.per_topic.loc[query_id, name])


@pytest.mark.parametrize(
    "name, expected",
    [
        pytest.param("ndcg_cut_1", 2 / log2(2) / (3 / log2(2)), id="cut1"),
        pytest.param("ndcg_cut_3", T1_NDCG3, id="cut3"),
        pytest.param(
            "ndcg",
            (2 / log2(2) + 1 / log2(4))
            / (3 / log2(2) + 2 / log2(3) + 1 / log2(4) + 1 / log2(5) + 0 / log2(6)),
            id="whole",
        ),
        pytest.param(
            "ndcg_cut_1000",
            (2 / log2(2) + 1 / log2(4)) / (3 / log2(2) + 2 / log2(3) + 1 / log2(4) + 1 / log2(5)),
            id="k-beyond-the-run",
        ),
        pytest.param("unjudged_cut_2", 1 / 2, id="unjudged2"),
        pytest.param("unjudged_cut_10", 2 / 5, id="unjudged10-over-min-k-n"),
    ],
)
def test_hand_derived_values_for_t1(name, expected):
    result = evaluate_run(QRELS, RUN, ["ndcg", "ndcg_cut.1,3,1000", "unjudged_cut.2,10"])
    assert value(result, "t1", name) == pytest.approx(expected, abs=1e-15)


def test_ndcg_and_ndcg_cut_differ_in_the_ideal():
    # One relevant document found at rank 2, two more judged relevant: the whole-run ideal
    # is full length, ndcg_cut.2's ideal is truncated at 2.
    qrels = {"q": {"a": 0, "b": 1, "c": 1, "d": 1}}
    run = {"q": {"a": 2.0, "b": 1.0}}
    result = evaluate_run(qrels, run, ["ndcg", "ndcg_cut.2"])
    assert value(result, "q", "ndcg_cut_2") == pytest.approx((1 / log2(3)) / (1 + 1 / log2(3)), abs=1e-15)
    assert value(result, "q", "ndcg") == pytest.approx((1 / log2(3)) / (1 + 1 / log2(3) + 1 / log2(4)), abs=1e-15)


def test_lecture_example_as_a_trec_topic():
    qrels = {"lec": {"d1": 1, "d2": 0, "d3": 2, "d4": 1, "d5": 0}}
    run = {"lec": {"d1": 5.0, "d2": 4.0, "d3": 3.0, "d4": 2.0, "d5": 1.0}}
    expected = (1 / log2(2) + 2 / log2(4) + 1 / log2(5)) / (2 / log2(2) + 1 / log2(3) + 1 / log2(4))
    assert value(evaluate_run(qrels, run, "ndcg_cut.5"), "lec", "ndcg_cut_5") == pytest.approx(expected, abs=1e-15)


def test_default_averaging_over_topics_in_both():
    result = evaluate_run(QRELS, RUN, "ndcg_cut.3")
    assert list(result.per_topic.index) == ["t1", "t2"]
    assert result.num_q == 2
    assert result.mean["ndcg_cut_3"] == pytest.approx((T1_NDCG3 + 1.0) / 2, abs=1e-15)
    assert result.missing_topics == ("t3",)
    assert result.ignored_topics == ("t4",)


def test_complete_averaging_scores_missing_topics_zero():
    result = evaluate_run(QRELS, RUN, ["ndcg_cut.3", "unjudged_cut.2"], complete=True)
    assert list(result.per_topic.index) == ["t1", "t2", "t3"]
    assert result.num_q == 3
    assert value(result, "t3", "ndcg_cut_3") == 0.0 and value(result, "t3", "unjudged_cut_2") == 0.0
    assert result.mean["ndcg_cut_3"] == pytest.approx((T1_NDCG3 + 1.0 + 0.0) / 3, abs=1e-15)


def test_condensing_removes_unjudged_and_negative_documents_before_ranking():
    result = evaluate_run(QRELS, RUN, ["ndcg_cut.3", "unjudged_cut.2"], unjudged="condense")
    # condensed t1: a (2), b (1), c (0)
    assert value(result, "t1", "ndcg_cut_3") == pytest.approx(
        (2 / log2(2) + 1 / log2(3) + 0 / log2(4)) / T1_IDCG3, abs=1e-15
    )
    # the unjudged fraction describes the run as returned, before condensing
    assert value(result, "t1", "unjudged_cut_2") == 1 / 2


@pytest.mark.parametrize(
    "options, expected",
    [
        pytest.param(
            {"gain": "exponential"},
            ((2**2 - 1) / log2(2) + (2**1 - 1) / log2(4)) / ((2**3 - 1) / log2(2) + (2**2 - 1) / log2(3) + 1 / log2(4)),
            id="exponential",
        ),
        pytest.param(
            {"gain": {0: 0, 1: 0.5, 2: 1.5, 3: 2.5}},
            (1.5 / log2(2) + 0.5 / log2(4)) / (2.5 / log2(2) + 1.5 / log2(3) + 0.5 / log2(4)),
            id="fractional-table-exact",
        ),
        pytest.param({"discount": "reciprocal"}, (2 / 1 + 1 / 3) / (3 / 1 + 2 / 2 + 1 / 3), id="reciprocal"),
        pytest.param(
            {"discount": "log2_shifted"},
            (2 / log2(3) + 1 / log2(5)) / (3 / log2(3) + 2 / log2(4) + 1 / log2(5)),
            id="shifted",
        ),
        pytest.param(
            {"discount": "jarvelin_kekalainen", "base": 3},
            # ranks 1, 2 below the base: no discount; rank 3: 1/log_3(3)
            (2 + 0 + 1 / (log2(3) / log2(3))) / (3 + 2 + 1 / (log2(3) / log2(3))),
            id="jk-base3",
        ),
        pytest.param({"discount": "none"}, (2 + 0 + 1) / (3 + 2 + 1), id="cg"),
    ],
)
def test_gains_and_discounts(options, expected):
    assert value(evaluate_run(QRELS, RUN, "ndcg_cut.3", **options), "t1", "ndcg_cut_3") == pytest.approx(
        expected, abs=1e-15
    )


def test_topics_without_relevant_documents_score_zero():
    qrels = {"zeros": {"a": 0, "b": 0}, "negatives": {"a": -1}, "ok": {"a": 1}}
    run = {"zeros": {"a": 1.0}, "negatives": {"a": 1.0}, "ok": {"b": 1.0, "a": 0.5}}
    result = evaluate_run(qrels, run, ["ndcg", "ndcg_cut.5"])
    assert result.per_topic.loc["zeros"].tolist() == [0.0, 0.0]
    assert result.per_topic.loc["negatives"].tolist() == [0.0, 0.0]
    assert value(result, "ok", "ndcg") == pytest.approx((1 / log2(3)) / 1, abs=1e-15)


def test_file_order_does_not_matter():
    rng = np.random.default_rng(5)
    rows = []
    for q in range(30):
        for d in range(40):
            rows.append((f"q{q}", f"d{rng.integers(0, 60)}-{d}", float(rng.integers(0, 5))))
    run = pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])
    qrels = pd.DataFrame(
        [(q, doc, int(rng.integers(-1, 4))) for q, doc, _ in rows[::3]], columns=["query_id", "doc_id", "relevance"]
    )
    ordered = run.sort_values(["query_id", "score", "doc_id"], ascending=[True, False, False])
    shuffled = run.sample(frac=1.0, random_state=1)
    first = evaluate_run(qrels, ordered, ["ndcg", "ndcg_cut", "unjudged_cut"]).per_topic
    second = evaluate_run(qrels, shuffled, ["ndcg", "ndcg_cut", "unjudged_cut"]).per_topic
    pd.testing.assert_frame_equal(first, second, check_exact=True)


GAINS = ["linear", "exponential", {0: 0.0, 1: 0.25, 2: 1.5, 3: 2.75}]
DISCOUNTS = [("log2", None), ("log2_shifted", None), ("reciprocal", None), ("log", 10), ("jarvelin_kekalainen", 3), ("none", None)]


@pytest.mark.parametrize("seed", range(30))
def test_every_topic_equals_the_one_list_functions(seed):
    """The vectorised evaluator against ranked_labels + ndcg_core.score, topic by topic."""
    rng = random.Random(seed)
    qrels, run = {}, {}
    for q in range(rng.randint(1, 12)):
        docs = [f"d{rng.randint(0, 40)}" for _ in range(rng.randint(1, 30))]
        if rng.random() < 0.9:
            run[f"q{q}"] = {doc: float(rng.randint(0, 6)) for doc in docs}
        judged = {f"d{rng.randint(0, 40)}": rng.choice([-1, 0, 0, 1, 2, 3]) for _ in range(rng.randint(1, 25))}
        qrels[f"q{q}"] = judged
    run.setdefault("q0", {"d0": 1.0})
    gain = rng.choice(GAINS)
    discount, base = rng.choice(DISCOUNTS)
    unjudged = rng.choice(["zero", "condense"])
    cutoffs = [1, 2, 3, 5, 10, 50]
    result = evaluate_run(
        qrels, run, ["ndcg", "ndcg_cut." + ",".join(map(str, cutoffs)), "unjudged_cut.1,5,100"],
        gain=gain, discount=discount, base=base, unjudged=unjudged, complete=True,
    )
    for query_id in qrels:
        topic = ranked_labels(qrels, run, query_id)
        options = dict(judgments=topic.judgments, gain=gain, discount=discount, base=base, unjudged=unjudged)
        assert value(result, query_id, "ndcg") == pytest.approx(nc.score(topic.labels, **options).ndcg, abs=1e-12)
        for k in cutoffs:
            expected = nc.score(topic.labels, k, **options)
            assert value(result, query_id, f"ndcg_cut_{k}") == pytest.approx(expected.ndcg, abs=1e-12), (query_id, k)
        for k in (1, 5, 100):
            assert value(result, query_id, f"unjudged_cut_{k}") == pytest.approx(
                nc.unjudged_fraction(topic.labels, k), abs=1e-15
            )


def test_the_mean_is_trec_evals_sum_in_topic_order_over_the_count():
    result = evaluate_run(QRELS, RUN, "ndcg_cut")
    column = result.per_topic["ndcg_cut_10"].to_numpy()
    total = 0.0
    for x in column:
        total += x
    assert result.mean["ndcg_cut_10"] == total / len(column)


def test_topic_order_is_strcmp_order():
    qrels = {"9": {"a": 1}, "10": {"a": 1}, "B": {"a": 1}, "a": {"a": 1}}
    run = {key: {"a": 1.0} for key in qrels}
    assert list(evaluate_run(qrels, run, "ndcg").per_topic.index) == ["10", "9", "B", "a"]


# --------------------------------------------------------------------------- measures


def test_parse_measures_orders_and_merges():
    names = [m.name for m in parse_measures(["unjudged_cut.10", "ndcg_cut.10,5", "ndcg_cut.5", "ndcg"])]
    assert names == ["ndcg", "ndcg_cut_5", "ndcg_cut_10", "unjudged_cut_10"]
    assert [m.k for m in parse_measures("ndcg_cut")] == list(DEFAULT_CUTOFFS)
    assert [m.name for m in parse_measures("unjudged_cut")] == ["unjudged_cut_5", "unjudged_cut_10", "unjudged_cut_20"]


@pytest.mark.parametrize(
    "spec, error, message",
    [
        pytest.param("gm_map", ValueError, r"measure must be one of map, Rprec, bpref, P, P.5,10, .* or unjudged_cut.10; got 'gm_map'\.$", id="unknown"),
        pytest.param("ndcg_cut_10", ValueError, r"got 'ndcg_cut_10'\. Write the cutoff after a dot: ndcg_cut\.10\.", id="underscore"),
        pytest.param("ndcg.5", ValueError, r"measure ndcg takes no cutoff; got 'ndcg.5'\. Use ndcg_cut\.5", id="ndcg-cutoff"),
        pytest.param("ndcg_cut.0", ValueError, r"measure ndcg_cut cutoffs must be positive whole numbers separated by commas; got '0'", id="zero"),
        pytest.param("ndcg_cut.5,x", ValueError, r"got 'x' in 'ndcg_cut.5,x'\. Write e\.g\. ndcg_cut\.5,10\.", id="letter"),
        pytest.param([], ValueError, r"at least one measure is needed", id="none"),
        pytest.param([5], TypeError, r"measure must be text such as map, .*; got 5 \(int\)", id="not-text"),
    ],
)
def test_measure_errors(spec, error, message):
    with pytest.raises(error, match=message):
        parse_measures(spec)


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    "call, error, message",
    [
        pytest.param(lambda: evaluate_run(QRELS, RUN, unjudged="drop"), ValueError,
                     r"unjudged must be one of 'zero', 'condense'; got 'drop'", id="policy"),
        pytest.param(lambda: evaluate_run(QRELS, RUN, complete="yes"), TypeError,
                     r"complete must be True or False; got 'yes' \(str\)", id="complete"),
        pytest.param(lambda: evaluate_run({}, RUN), ValueError,
                     r"qrels must judge at least one document; got empty qrels", id="empty-qrels"),
        pytest.param(lambda: evaluate_run({"q": {"a": 1}}, {"other": {"a": 1.0}}), ValueError,
                     r"run and qrels must share at least one topic; the run's topics are other and the qrels' are q\. "
                     r"Check that both files belong to the same test collection\.", id="no-shared-topic"),
        pytest.param(lambda: evaluate_run(QRELS, RUN, gain={0: 0, 1: 1, 2: 3}), ValueError,
                     r"gain table has no gain for label 3; it lists labels 0, 1, 2", id="table-missing-label"),
        pytest.param(lambda: evaluate_run(QRELS, RUN, discount="log2", base=3), ValueError,
                     r"base applies only to the 'log' and 'jarvelin_kekalainen' discounts", id="base"),
        pytest.param(
            lambda: evaluate_run(QRELS, pd.DataFrame({"query_id": ["t1", "t1"], "doc_id": ["a", "a"], "score": [1.0, 2.0]})),
            ValueError, r"run lists topic 't1', document 'a' twice; keep one entry per document and topic", id="dup",
        ),
    ],
)
def test_evaluate_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_empty_run_with_complete_averaging_scores_every_topic_zero():
    empty = pd.DataFrame({"query_id": [], "doc_id": [], "score": []})
    result = evaluate_run(QRELS, empty, "ndcg_cut.3", complete=True)
    assert result.num_q == 3 and result.mean["ndcg_cut_3"] == 0.0


# --------------------------------------------------------------------------- reporting


def test_describe_states_configuration_and_averaging():
    sentence = evaluate_run(QRELS, RUN, ["ndcg", "ndcg_cut.3", "unjudged_cut.3"]).describe()
    assert sentence.startswith("nDCG (whole run), nDCG@3 and unjudged fraction in the top 3 with linear gain g(l) = l, ")
    assert "discount 1/log2(i+1)" in sentence
    assert sentence.endswith(
        "mean over the 2 topics in both the qrels and the run; 1 qrels topic without run lines left out; "
        "1 run topic without judgments ignored."
    )
    complete = evaluate_run(QRELS, RUN, "ndcg_cut.3", complete=True, unjudged="condense").describe()
    assert "unjudged documents removed before ranking (condensed list)" in complete
    assert "mean over all 3 qrels topics, a topic without run lines scoring 0 (complete averaging)" in complete


def test_to_trec_pads_names_and_prints_four_decimals():
    run = run_frame(RUN)
    run.attrs["run_id"] = "mine"
    text = evaluate_run(QRELS, run, "ndcg_cut.3").to_trec(per_topic=True)
    assert text.splitlines() == [
        f"ndcg_cut_3            \tt1\t{T1_NDCG3:.4f}",
        "ndcg_cut_3            \tt2\t1.0000",
        "runid                 \tall\tmine",
        "num_q                 \tall\t2",
        f"ndcg_cut_3            \tall\t{(T1_NDCG3 + 1) / 2:.4f}",
    ]
    assert evaluate_run(QRELS, RUN, "ndcg_cut.3").to_trec(digits=2).splitlines()[-1] == f"ndcg_cut_3            \tall\t  {(T1_NDCG3 + 1) / 2:.2f}"
    with pytest.raises(ValueError, match=r"digits must be a whole number from 0 to 15; got 16"):
        evaluate_run(QRELS, RUN, "ndcg_cut.3").to_trec(digits=16)


def test_explain_is_the_breakdown_of_one_topic():
    result = evaluate_run(QRELS, RUN, ["ndcg", "ndcg_cut.3"])
    table = result.explain("t1", 3)
    assert table["doc_id"].tolist() == ["a", "z", "b"]
    assert table["status"].tolist() == ["judged", "unjudged", "judged"]
    assert float(table["ndcg"].iloc[-1]) == pytest.approx(value(result, "t1", "ndcg_cut_3"), abs=1e-15)
    whole = result.explain("t1")
    assert whole["doc_id"].tolist() == ["a", "z", "b", "f", "c"]
    assert float(whole["ndcg"].iloc[-1]) == pytest.approx(value(result, "t1", "ndcg"), abs=1e-15)


def test_explain_condensed_and_past_the_end():
    result = evaluate_run(QRELS, RUN, "ndcg_cut.6", unjudged="condense")
    table = result.explain("t1", 6)
    assert table["doc_id"].tolist() == ["a", "b", "c", "", ""]  # the ideal list has 5 entries
    assert table["status"].tolist() == ["judged"] * 3 + ["past end"] * 2
    assert float(table["ndcg"].iloc[-1]) == pytest.approx(value(result, "t1", "ndcg_cut_6"), abs=1e-15)


def test_explain_a_missing_topic_and_errors():
    result = evaluate_run(QRELS, RUN, "ndcg_cut.3")
    assert result.explain("t3", 3)["status"].tolist() == ["past end"]
    with pytest.raises(ValueError, match=r"topic must be one of the evaluated topics; got 't4'\. Evaluated topics: t1, t2\."):
        result.explain("t4")
    with pytest.raises(ValueError, match=r"k must be a positive int or None; got k=0"):
        result.explain("t1", 0)


# --------------------------------------------------------------------------- pools, summaries, the toy collection

import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

from ndcg_core.teaching.pooling import pool_qrels, summarize  # noqa: E402
from ndcg_core.trec.files import read_qrels, read_run  # noqa: E402

TOY = Path(__file__).resolve().parents[2] / "data" / "toy"
TOY_FILES = ["qrels.txt", "qrels_full.txt", "run_classic.txt", "run_tuned.txt", "run_novel.txt"]


def test_pool_judges_the_union_of_each_runs_top_in_trec_eval_order():
    truth = {"q": {"a": 2, "b": 0, "c": 1, "d": 3, "e": 1}, "r": {"a": 1}}
    runs = {
        # b and c tie: trec_eval ranks c first ('c' > 'b'), whatever the file says
        "one": {"q": {"a": 3.0, "b": 1.0, "c": 1.0, "e": 0.5}},
        "two": {"q": {"d": 1.0, "a": 0.5}, "r": {"a": 1.0}},
    }
    assert pool_qrels(truth, runs, 2).to_dict("list") == {
        "query_id": ["q", "q", "q", "r"],
        "doc_id": ["a", "c", "d", "a"],
        "relevance": [2, 1, 3, 1],
    }


def test_summarize_one_row_per_run():
    table = summarize(QRELS, {"mine": RUN, "empty": {"t2": {"nothing": 1.0}}}, ["ndcg_cut.3"], complete=True)
    assert table.index.tolist() == ["mine", "empty"]
    assert table.loc["mine", "ndcg_cut_3"] == pytest.approx((T1_NDCG3 + 1 + 0) / 3, abs=1e-15)
    assert table["topics"].tolist() == [3, 3]


@pytest.mark.parametrize(
    "call, error, message",
    [
        pytest.param(lambda: pool_qrels(QRELS, {"r": RUN}, 0), ValueError,
                     r"depth must be a positive whole number of ranks; got depth=0\. A pool usually takes the top 10", id="depth"),
        pytest.param(lambda: pool_qrels(QRELS, [RUN], 5), TypeError,
                     r"runs must be a \{name: run\} dict, e\.g\. \{'classic': run_a, 'novel': run_b\}; got list", id="list"),
        pytest.param(lambda: summarize(QRELS, {}), ValueError, r"runs must name at least one run", id="none"),
    ],
)
def test_pool_and_summary_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_toy_collection_is_what_its_seeded_script_writes(tmp_path):
    done = subprocess.run(
        [sys.executable, str(TOY / "make_toy.py"), "--out", str(tmp_path)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    for name in TOY_FILES:
        assert (tmp_path / name).read_bytes() == (TOY / name).read_bytes(), name


@pytest.fixture(scope="module")
def toy():
    runs = {name: read_run(TOY / f"run_{name}.txt") for name in ("classic", "tuned", "novel")}
    return read_qrels(TOY / "qrels.txt"), read_qrels(TOY / "qrels_full.txt"), runs


def test_toy_pool_is_the_top_10_of_classic_and_tuned(toy):
    pooled, full, runs = toy
    rebuilt = pool_qrels(full, {name: runs[name] for name in ("classic", "tuned")}, 10)
    assert rebuilt.to_dict("list") == pooled.to_dict("list")


def test_toy_shallow_pool_underrates_the_novel_system(toy):
    pooled, full, runs = toy
    shallow = summarize(pooled, runs, ["ndcg_cut.10", "unjudged_cut.10"])
    truth = summarize(full, runs, ["ndcg_cut.10", "unjudged_cut.10"])
    assert shallow["topics"].tolist() == [10, 10, 10]
    assert shallow.loc["classic", "unjudged_cut_10"] == 0.0 and shallow.loc["tuned", "unjudged_cut_10"] == 0.0
    assert shallow.loc["novel", "unjudged_cut_10"] > 0.5
    assert (truth["unjudged_cut_10"] == 0.0).all()
    # the novel system is best against the truth and worst against the pool
    assert truth["ndcg_cut_10"].idxmax() == "novel"
    assert shallow["ndcg_cut_10"].idxmin() == "novel"
    assert truth.loc["novel", "ndcg_cut_10"] - shallow.loc["novel", "ndcg_cut_10"] > 0.3


def test_pooling_table_on_the_toy_collection(toy):
    from ndcg_core.teaching.pooling import pooling_table

    pooled, full, runs = toy
    table = pooling_table(full, runs, ["classic", "tuned"], 10, k=10)
    assert table.index.tolist() == ["classic", "tuned", "novel"]
    assert table["in_pool"].tolist() == [True, True, False]
    assert table["judged"].tolist() == [len(pooled)] * 3
    same = summarize(pooled, runs, ["ndcg_cut.10", "unjudged_cut.10"])
    assert table["ndcg_pooled"].tolist() == same["ndcg_cut_10"].tolist()
    assert table["unjudged"].tolist() == same["unjudged_cut_10"].tolist()
    assert table["ndcg_truth"].tolist() == summarize(full, runs, "ndcg_cut.10")["ndcg_cut_10"].tolist()
    assert table["ndcg_condensed"].tolist() == summarize(pooled, runs, "ndcg_cut.10", unjudged="condense")["ndcg_cut_10"].tolist()
    # a pool as deep as the runs judges everything they retrieved, but not the relevant
    # documents no run found: the pooled ideal is shorter, so pooled nDCG >= true nDCG
    deep = pooling_table(full, runs, ["classic", "tuned", "novel"], 100, k=10)
    assert (deep["unjudged"] == 0).all()
    assert (deep["ndcg_pooled"] >= deep["ndcg_truth"]).all()
    assert (deep["ndcg_pooled"] - deep["ndcg_truth"]).max() < 0.01


@pytest.mark.parametrize(
    "pool, message, error",
    [
        pytest.param([], r"pool must name at least one run: a pool of no runs judges nothing", ValueError, id="empty"),
        pytest.param(["mine", "other"], r"pool must name runs from mine; got 'other'", ValueError, id="unknown"),
        pytest.param("mine", r"pool must be a list of run names such as \['classic', 'tuned'\]; got 'mine'", TypeError, id="str"),
    ],
)
def test_pooling_table_errors(pool, message, error):
    from ndcg_core.teaching.pooling import pooling_table

    with pytest.raises(error, match=message):
        pooling_table(QRELS, {"mine": RUN}, pool, 5)


def test_averaging_table():
    from ndcg_core.teaching.pooling import averaging_table

    table = averaging_table(QRELS, RUN, "ndcg_cut.3")
    assert table.index.tolist() == ["topics in both (default)", "complete averaging (-c)"]
    assert table["ndcg_cut_3"].tolist() == pytest.approx([(T1_NDCG3 + 1) / 2, (T1_NDCG3 + 1 + 0) / 3], abs=1e-15)
    assert table["topics"].tolist() == [2, 3]
    with pytest.raises(ValueError, match=r"measure must name one measure such as ndcg_cut.10; got 'ndcg_cut.3,5'"):
        averaging_table(QRELS, RUN, "ndcg_cut.3,5")
    with pytest.raises(TypeError, match=r"averaging_table computes both averages; leave out complete="):
        averaging_table(QRELS, RUN, complete=True)


@pytest.mark.parametrize(
    "names",
    [
        pytest.param(["d10", "d9", "d1", "D9", "d"], id="short-ascii"),
        pytest.param(["é", "z", "ü", "a", "Z"], id="non-ascii"),
        pytest.param(["x" * 70 + "b", "x" * 70 + "a", "x" * 80, "y"], id="long"),
    ],
)
def test_tied_documents_in_strcmp_order_whatever_the_ids(names):
    # every document ties on 1.0; trec_eval ranks them by id, descending, in byte order
    run = {"q": {name: 1.0 for name in names}}
    qrels = {"q": {name: i for i, name in enumerate(names)}}
    expected = sorted(names, key=lambda name: name.encode("utf-8"), reverse=True)
    assert ranked_labels(qrels, run, "q").doc_ids == expected
    result = evaluate_run(qrels, run, "ndcg")
    labels = [qrels["q"][name] for name in expected]
    assert value(result, "q", "ndcg") == pytest.approx(nc.ndcg(labels, judgments=list(range(len(names)))), abs=1e-15)


# --------------------------------------------------------------------------- the fast reader's tables


def _clueweb(n: int) -> str:
    return f"clueweb09-en{n // 10**7:04d}-{n // 10**5 % 100:02d}-{n % 10**5:05d}"


@pytest.mark.parametrize("seed", range(8))
def test_packed_keys_of_qrels_and_run_packed_unalike_join_as_the_ids(seed):
    """The fast reader keeps each table's document keys packed by a plan of its own (the
    bytes that vary among that file's ids). The qrels' ids below vary where the run's do
    not (other prefixes, longer and shorter ids, digits beyond the run's range), so the
    join writes them in the run's packing and must find exactly the shared ids."""
    from ndcg_core.trec.files import read_qrels, read_qrels_table, read_run, read_run_table
    from ndcg_core.trec.tables import doc_key_plan

    rng = random.Random(seed)
    run_docs = [_clueweb(rng.randrange(10**7, 3 * 10**7)) for _ in range(120)]
    others = [_clueweb(rng.randrange(10**9)) for _ in range(30)] + ["clueweb12-0000tw-00-00001", "x", "clueweb09-en0001-02-0000"]
    qrels_lines, run_lines = [], []
    for topic in ("1", "2", "10"):
        judged = rng.sample(run_docs, 50) + rng.sample(others, 12)
        qrels_lines += [f"{topic} 0 {doc} {rng.choice((-1, 0, 1, 2, 3))}\n" for doc in dict.fromkeys(judged)]
        run_lines += [f"{topic} Q0 {doc} {rank} {rng.choice((1.5, 2, 3))} r\n"  # ties, broken by id
                      for rank, doc in enumerate(rng.sample(run_docs, 80), start=1)]
    qrels_bytes, run_bytes = "".join(qrels_lines).encode(), "".join(run_lines).encode()
    q_table, r_table = read_qrels_table(qrels_bytes), read_run_table(run_bytes)
    assert doc_key_plan(r_table) is not None and not doc_key_plan(r_table).same_as(doc_key_plan(q_table))
    measures = ["ndcg_cut.5,20", "ndcg", "map", "P.10"]
    keyed = evaluate_run(q_table, r_table, measures)
    by_name = evaluate_run(read_qrels(qrels_bytes), read_run(run_bytes), measures)
    pd.testing.assert_frame_equal(keyed.per_topic, by_name.per_topic)
    assert np.asarray(r_table.doc_names).tolist() == sorted(set(run_docs) & {line.split()[2] for line in run_lines})




@pytest.mark.parametrize(
    "id_length",
    [pytest.param((1, 8), id="one-word-ids"), pytest.param((1, 30), id="ids-up-to-four-words"),
     pytest.param((9, 16), id="two-word-ids")],
)
@pytest.mark.parametrize("measures", [["ndcg_cut.3,10", "ndcg", "unjudged_cut.5"]])
def test_tables_from_the_fast_reader_score_as_the_frames_do(id_length, measures):
    """The reader's tables join and break ties on integer keys; frames go by the strings."""
    from ndcg_core.trec.files import read_qrels, read_qrels_table, read_run, read_run_table

    rng = random.Random(sum(id_length))
    docs = sorted({"".join(rng.choices("aZ09-_.", k=rng.randint(*id_length))) for _ in range(300)})
    qrels_lines, run_lines = [], []
    for topic in ("1", "10", "2", "b"):
        for doc in rng.sample(docs, 60):
            qrels_lines.append(f"{topic} 0 {doc} {rng.choice((-1, 0, 0, 1, 2, 3))}\n")
        for rank, doc in enumerate(rng.sample(docs, 80), start=1):
            run_lines.append(f"{topic} Q0 {doc} {rank} {rng.choice((1, 2, 2.5, 3))} r\n")  # many ties
    qrels_bytes, run_bytes = "".join(qrels_lines).encode(), "".join(run_lines).encode()
    q_table, r_table = read_qrels_table(qrels_bytes), read_run_table(run_bytes)
    assert q_table.doc_keys is not None and r_table.doc_keys is not None  # the keyed path runs
    keyed = evaluate_run(q_table, r_table, measures)
    assert r_table.doc_names._names is None  # scored without making the ids into strings
    by_name = evaluate_run(read_qrels(qrels_bytes), read_run(run_bytes), measures)
    pd.testing.assert_frame_equal(keyed.per_topic, by_name.per_topic)
    # and the ranking itself is trec_eval's: score descending, ties by id descending (strcmp)
    topic = keyed.ranked("b")
    pairs = [(float(line.split()[4]), line.split()[2]) for line in run_lines if line.startswith("b ")]
    assert topic.doc_ids == [doc for _, doc in sorted(pairs, key=lambda p: (-p[0], [-c for c in p[1].encode()] + [1]))]
