"""The readers and evaluate_run work a slice of rows at a time to keep memory down (issue
13); these tests shrink the slices to a few rows and check that the slices give exactly
the tables and numbers of one pass (hypothesis and seeded random runs)."""

import random

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ndcg_core.trec import evaluate as evaluate_module
from ndcg_core.trec import fast_reader, ranking
from ndcg_core.trec.evaluate import evaluate_run
from ndcg_core.trec.fast_reader import ascii_qrels, ascii_run
from ndcg_core.trec.files import read_qrels, read_qrels_table, read_run, read_run_table
from ndcg_core.trec.line_reader import scan_qrels, scan_run
from ndcg_core.trec.ranking import ranking_order
from ndcg_core.trec.tables import factorize_keys, table_frame

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
MEASURES = ["ndcg", "ndcg_cut.1,3,10", "unjudged_cut.2,5", "map", "P.5", "dcg", "Rndcg"]


@pytest.fixture
def one_pass(monkeypatch):
    """Slices larger than any test file: everything in one pass."""

    def set_slices(rows):
        monkeypatch.setattr(evaluate_module, "_CHUNK_ROWS", rows)
        monkeypatch.setattr(ranking, "_TIE_ROWS", rows)

    return set_slices


def _collection(seed: int, layout: str) -> tuple[bytes, bytes]:
    """A qrels and a run of 6 topics with many tied scores; ``layout`` orders the run's
    lines: "ranked" (each topic in rank order), "grouped" (each topic together, scores in
    any order) or "shuffled" (topics interleaved)."""
    rng = random.Random(seed)
    docs = [f"d{i}" for i in range(40)] + [f"doc-{i:012d}" for i in range(20)]
    qrels, run = [], []
    for topic in ["t3", "t1", "t10", "t2", "x", "t0"]:
        retrieved = rng.sample(docs, rng.randint(1, 35))
        for doc in rng.sample(docs, 25):
            qrels.append(f"{topic} 0 {doc} {rng.choice((-1, 0, 0, 1, 2, 3))}\n")
        scores = [rng.choice((0.5, 1.0, 1.0, 2.0, 3.25)) for _ in retrieved]
        if layout == "ranked":
            scores.sort(reverse=True)
        run += [f"{topic} Q0 {doc} {i} {s} tag\n" for i, (doc, s) in enumerate(zip(retrieved, scores), 1)]
    run.append("no-judgments Q0 d1 1 1.0 tag\n")
    if layout == "shuffled":
        rng.shuffle(run)
    return "".join(qrels).encode(), "".join(run).encode()


@pytest.mark.parametrize("layout", ["ranked", "grouped", "shuffled"])
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(
    "options",
    [{}, {"unjudged": "condense"}, {"complete": True, "max_docs": 7}, {"gain": "exponential"}],
    ids=["default", "condensed", "complete-max-docs", "exponential"],
)
def test_evaluate_run_in_slices_of_a_few_rows_gives_the_one_pass_numbers(one_pass, layout, seed, options):
    qrels_bytes, run_bytes = _collection(seed, layout)
    for qrels, run in [
        (read_qrels_table(qrels_bytes), read_run_table(run_bytes)),  # keys from the fast reader
        (read_qrels(qrels_bytes), read_run(run_bytes)),  # frames: ids as strings
    ]:
        one_pass(1 << 30)
        whole = evaluate_run(qrels, run, MEASURES, **options)
        for rows in (1, 3, 17):  # slices of whole topics: a topic longer than a slice is one slice
            one_pass(rows)
            sliced = evaluate_run(qrels, run, MEASURES, **options)
            pd.testing.assert_frame_equal(sliced.per_topic, whole.per_topic, check_exact=True)
            assert sliced.to_trec(per_topic=True) == whole.to_trec(per_topic=True)


@SETTINGS
@given(
    topics=st.lists(st.integers(0, 4), min_size=2, max_size=60),
    data=st.data(),
    rows=st.integers(1, 9),
)
def test_ranking_order_in_slices_is_the_one_pass_order(one_pass, topics, data, rows):
    n = len(topics)
    scores = np.array(data.draw(st.lists(st.sampled_from([0.0, 1.0, 2.0]), min_size=n, max_size=n)))
    topic = np.array(sorted(topics) if data.draw(st.booleans()) else topics)
    doc_codes = np.array(data.draw(st.permutations(range(n))))  # distinct documents
    names = np.array([f"d{code:03d}" for code in range(n)], dtype=object)
    keys = np.arange(n, dtype=np.uint64).reshape(-1, 1)  # codes in the names' byte order
    one_pass(1 << 30)
    expected = ranking_order(topic, scores, doc_codes, names)
    one_pass(rows)
    assert ranking_order(topic, scores, doc_codes, names).tolist() == expected.tolist()
    assert ranking_order(topic, scores, doc_codes, names, keys).tolist() == expected.tolist()
    # and it is trec_eval's order: topic, score descending, id descending
    reference = sorted(range(n), key=lambda i: (topic[i], -scores[i], [-ord(c) for c in names[doc_codes[i]]]))
    if list(topic) == sorted(topic) or len(set(topic)) == 1:
        assert expected.tolist() == reference


@SETTINGS
@given(st.lists(st.lists(st.integers(0, 3), min_size=1, max_size=3), min_size=1, max_size=40), st.integers(1, 3))
def test_factorize_keys_numbers_keys_in_their_order(rows, width):
    keys = np.array([(row + [0] * width)[:width] for row in rows], dtype=np.uint64)
    codes, uniques = factorize_keys(keys)
    expected = sorted(set(map(tuple, keys.tolist())))
    assert uniques.tolist() == [list(key) for key in expected]
    assert codes.tolist() == [expected.index(tuple(key)) for key in keys.tolist()]
    assert codes.dtype == np.int32


def _lines(rng: random.Random, n: int, long_from: int, kind: str) -> list[str]:
    lines = []
    for i in range(n):
        doc = f"d{i}" if i < long_from else f"a-much-longer-document-id-{i:030d}"  # 1 word, then 8
        topic = f"q{i // 13}"
        lines.append(f"{topic} 0 {doc} {rng.randint(-1, 3)}\n" if kind == "qrels" else f"{topic} Q0 {doc} {i} {rng.random():.3f} r{i}\n")
        if rng.random() < 0.1:
            lines.append(rng.choice(["\n", "  \n", "\t\n"]))  # blank lines leave rows unused
    return lines


@pytest.mark.parametrize("kind", ["qrels", "run"])
@pytest.mark.parametrize("block", [32, 100, 1 << 20])
@pytest.mark.parametrize("long_from", [0, 50, 10**9], ids=["long-ids", "longer-ids-later", "short-ids"])
@pytest.mark.parametrize("halves", [False, True])
def test_reader_writes_every_block_into_its_rows(monkeypatch, kind, block, long_from, halves):
    """Blocks write into arrays made for every line: blank lines leave gaps that are closed,
    ids longer than the first block's widen the keys once; the table is the line reader's."""
    monkeypatch.setattr(fast_reader, "_BLOCK", block)
    monkeypatch.setattr(fast_reader, "_PARALLEL_BYTES", 1 if halves else 1 << 40)
    rng = random.Random(block + long_from)
    data = "".join(_lines(rng, 300, long_from, kind)).encode()
    fast, scan, value = (ascii_qrels, scan_qrels, "relevance") if kind == "qrels" else (ascii_run, scan_run, "score")
    table, expected = fast(data), scan(data, "f")
    assert table is not None
    pd.testing.assert_frame_equal(table_frame(table, value), table_frame(expected, value))
    assert table.attrs.get("run_id") == expected.attrs.get("run_id")


def test_reader_given_a_path_reads_the_file_itself(tmp_path):
    path = tmp_path / "run.txt"
    path.write_bytes(b"q1 Q0 d2 1 2.5 mine\nq1 Q0 d1 2 1.5 mine\n")
    table = ascii_run(str(path))
    assert table is not None and table.values.tolist() == [2.5, 1.5] and table.attrs["run_id"] == "mine"
    assert ascii_run(path) is not None  # an os.PathLike too
