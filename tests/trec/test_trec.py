"""TREC qrels/run readers: accepted forms, trec_eval's tie rule, and every error message."""

import io
import re
from math import log2

import numpy as np
import pandas as pd
import pytest

import ndcg_core as nc
from ndcg_core.trec import (
    QrelsFormatError,
    qrels_frame,
    ranked_labels,
    read_qrels,
    read_run,
    run_frame,
)
from ndcg_core.trec.fast_reader import ascii_qrels, ascii_run
from ndcg_core.trec.line_reader import QRELS_FORMAT, RUN_FORMAT, scan_qrels, scan_run
from ndcg_core.trec.tables import encode_ids, table_frame

QRELS_TEXT = "q1 0 d1 2\nq1 0 d2 0\nq2 0 d1 1\n"
RUN_TEXT = "q1 Q0 d1 1 2.5 mine\nq1 Q0 d2 2 1.5 mine\nq2 Q0 d3 1 0.5 mine\n"


def as_lists(frame: pd.DataFrame) -> dict:
    return frame.to_dict("list")


# --------------------------------------------------------------------------- accepted forms


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda path: str(path), id="str-path"),
        pytest.param(lambda path: path, id="pathlike"),
        pytest.param(lambda path: open(path, encoding="utf-8"), id="text-file"),
        pytest.param(lambda path: open(path, "rb"), id="binary-file"),
        pytest.param(lambda path: path.read_bytes(), id="bytes"),
        pytest.param(lambda path: path.read_text(), id="inline-text"),
    ],
)
def test_every_source_form_reads_the_same(tmp_path, make):
    path = tmp_path / "toy.qrels"
    path.write_text(QRELS_TEXT)
    source = make(path)
    try:
        qrels = read_qrels(source)
    finally:
        if hasattr(source, "close"):
            source.close()
    assert as_lists(qrels) == {
        "query_id": ["q1", "q1", "q2"],
        "doc_id": ["d1", "d2", "d1"],
        "relevance": [2, 0, 1],
    }


def test_comments_blank_lines_tabs_crlf_and_leading_space():
    text = "# judged by hand\r\n\r\n  q1\t0  d1\t2\r\n   \r\n\t# indented comment\r\nq1 0 d2 0\r\n"
    assert as_lists(read_qrels(text)) == {"query_id": ["q1", "q1"], "doc_id": ["d1", "d2"], "relevance": [2, 0]}


def test_ids_are_kept_verbatim():
    # '#' inside a field is not a comment; NA, null, nan and quotes are ids, not missing values.
    text = 'q1 0 http://x.org/a#b 1\nq1 0 NA 0\nq1 0 null 2\nq1 0 nan 1\nq1 0 "quoted 3\n0401 0 d1 1\n401 0 d1 0\n'
    qrels = read_qrels(text)
    assert qrels["doc_id"].tolist() == ["http://x.org/a#b", "NA", "null", "nan", '"quoted', "d1", "d1"]
    assert qrels["query_id"].tolist() == ["q1"] * 5 + ["0401", "401"]


def test_negative_labels_are_kept_as_given():
    assert read_qrels("q1 0 d1 -1\nq1 0 d2 +2\n")["relevance"].tolist() == [-1, 2]


def test_run_keeps_fields_up_to_the_sixth_and_the_last_run_id():
    text = "q1 Q0 d1 1 2.5 first more junk at\nq1 Q0 d2 2 1.5 last end of lines.\n"
    run = read_run(text)
    assert as_lists(run) == {"query_id": ["q1", "q1"], "doc_id": ["d1", "d2"], "score": [2.5, 1.5]}
    assert run.attrs["run_id"] == "last"


def test_scores_in_every_decimal_form():
    text = "q Q0 a 1 1e3 r\nq Q0 b 1 -2.50 r\nq Q0 c 1 .5 r\nq Q0 d 1 +7 r\nq Q0 e 1 3. r\n"
    assert read_run(text)["score"].tolist() == [1000.0, -2.5, 0.5, 7.0, 3.0]


def test_source_name_in_attrs():
    assert read_run(RUN_TEXT, name="my.run").attrs["source"] == "my.run"
    assert read_qrels(QRELS_TEXT).attrs["source"] == "<qrels text>"


def test_large_file_goes_through_the_fast_path_with_exact_values(tmp_path, monkeypatch):
    rng = np.random.default_rng(3)
    scores = rng.normal(size=20_000).tolist()
    texts = [repr(s) for s in scores[:10_000]] + [f"{s:.25f}" for s in scores[10_000:]]
    lines = [f"t{i // 100} Q0 doc{i} {i % 100 + 1} {text} run\n" for i, text in enumerate(texts)]
    path = tmp_path / "big.run"
    path.write_text("".join(lines))

    def no_slow_path(*args):
        raise AssertionError("the line-by-line reader ran on a valid file")

    monkeypatch.setattr("ndcg_core.trec.files.scan_run", no_slow_path)
    run = read_run(path)
    assert len(run) == 20_000
    # correctly rounded, as C's strtod in trec_eval and Python's float() in pytrec_eval
    assert run["score"].tolist() == [float(text) for text in texts]
    assert run["doc_id"].iat[12_345] == "doc12345"


# --------------------------------------------------------------------------- qrels errors


@pytest.mark.parametrize(
    "text, line, what",
    [
        pytest.param("q1 0 d1 1\nq1 0 d2\n", 2, "found 3 fields, a qrels line has exactly 4", id="three-fields"),
        pytest.param("q1 0 d1 1\nq1 0 d2 1 extra\n", 2, "found 5 fields, a qrels line has exactly 4", id="five-fields"),
        pytest.param("q1 0 d1 1 extra\nq1 0 d2 1\n", 1, "found 5 fields, a qrels line has exactly 4", id="five-first"),
        pytest.param("q1\n", 1, "found 1 field, a qrels line has exactly 4", id="one-field"),
        pytest.param("q1 0 d1 H\n", 1, "relevance 'H' is not an integer", id="letter"),
        pytest.param("q1 0 d1 1\nq1 0 d2 1.5\n", 2, "relevance '1.5' is not an integer", id="fraction"),
        pytest.param("q1 0 d1 1.0\n", 1, "relevance '1.0' is not an integer", id="decimal-point"),
        pytest.param("q1 0 d1 1e3\n", 1, "relevance '1e3' is not an integer", id="exponent"),
        pytest.param("q1 0 d1 99999999999999999999\n", 1, "relevance '99999999999999999999' is too large", id="huge"),
        pytest.param(
            "# header\nq1 0 d1 1\nq1 0 d2 0\nq1 0 d1 2\n", 4,
            "document 'd1' is judged twice for topic 'q1' (first on line 2); keep one judgment per document",
            id="duplicate",
        ),
    ],
)
def test_qrels_errors_name_file_line_and_format(text, line, what):
    with pytest.raises(QrelsFormatError) as caught:
        read_qrels(text, name="toy.qrels")
    message = str(caught.value)
    assert message.startswith(f"toy.qrels, line {line}: {what}")
    assert message.endswith(f"(expected '{QRELS_FORMAT}')")
    assert caught.value.line == line and caught.value.source == "toy.qrels"


def test_qrels_without_lines():
    with pytest.raises(QrelsFormatError, match=r"^empty.qrels: no qrels lines found \(expected 'QID ITER DOCID REL'\)$"):
        read_qrels(b"# only a comment\n\n", name="empty.qrels")


def test_qrels_not_utf8():
    with pytest.raises(QrelsFormatError, match=r"^latin.qrels, line 2: the line is not UTF-8 text; save the file as UTF-8"):
        read_qrels(b"q1 0 d1 1\nq1 0 caf\xe9 1\n", name="latin.qrels")


def test_error_line_counts_comments_and_blank_lines_in_a_big_file():
    lines = [f"t{i % 7} 0 doc{i} {i % 3}\n" for i in range(5000)]
    lines.insert(0, "# comment\n")
    lines.insert(1, "\n")
    lines[4321] = "t1 0 docX two\n"
    with pytest.raises(QrelsFormatError, match=r"^big.qrels, line 4322: relevance 'two' is not an integer"):
        read_qrels("".join(lines), name="big.qrels")


# --------------------------------------------------------------------------- run errors


@pytest.mark.parametrize(
    "text, line, what",
    [
        pytest.param("q1 Q0 d1 1 2.5\n", 1, "found 5 fields, a run line has at least 6", id="five-fields"),
        pytest.param("q1 Q0 d1 1 2.5 r\nq1 Q0 d2 2\n", 2, "found 4 fields, a run line has at least 6", id="four"),
        pytest.param("q1 Q0 d1 1 high r\n", 1, "score 'high' is not a number", id="word"),
        pytest.param("q1 Q0 d1 1 2,5 r\n", 1, "score '2,5' is not a number", id="decimal-comma"),
        pytest.param("q1 Q0 d1 1 2.5 r\nq1 Q0 d2 2 nan r\n", 2, "score 'nan' is not a finite number", id="nan"),
        pytest.param("q1 Q0 d1 1 -inf r\n", 1, "score '-inf' is not a finite number", id="inf"),
        pytest.param("q1 Q0 d1 1 1e999 r\n", 1, "score '1e999' is too large to be a number", id="overflow"),
        pytest.param(
            "q1 Q0 d1 1 3 r\nq2 Q0 d1 1 3 r\nq1 Q0 d1 2 2 r\n", 3,
            "document 'd1' is retrieved twice for topic 'q1' (first on line 1); keep one line per document and topic",
            id="duplicate",
        ),
    ],
)
def test_run_errors_name_file_line_and_format(text, line, what):
    with pytest.raises(QrelsFormatError) as caught:
        read_run(text, name="my.run")
    message = str(caught.value)
    assert message.startswith(f"my.run, line {line}: {what}")
    assert message.endswith(f"(expected '{RUN_FORMAT}')")


def test_run_without_lines():
    with pytest.raises(QrelsFormatError, match=r"^<run text>: no run lines found \(expected 'QID Q0 DOCID RANK SCORE RUN'\)$"):
        read_run("\n# nothing\n")


def test_run_error_deep_in_a_big_file_is_found():
    lines = [f"t{i // 1000} Q0 doc{i} {i} {1 / (i + 1)!r} sys\n" for i in range(6000)]
    lines[5432] = "t5 Q0 docY 5433 0.1\n"
    with pytest.raises(QrelsFormatError, match=r"^big.run, line 5433: found 5 fields"):
        read_run("".join(lines), name="big.run")


def test_source_errors():
    with pytest.raises(TypeError, match=r"run must be a path, a file object, bytes or text; got 42 \(int\)"):
        read_run(42)
    with pytest.raises(ValueError, match=r"qrels must be a path, a file object, bytes or text; got an empty string"):
        read_qrels("")
    with pytest.raises(FileNotFoundError):
        read_qrels("no/such/file.qrels")
    with pytest.raises(TypeError, match=r"run file object must return text or bytes from read\(\); got int"):
        read_run(type("Odd", (), {"read": lambda self: 3})())


# --------------------------------------------------------------------------- in-memory forms


def test_dict_forms_become_tables():
    assert as_lists(qrels_frame({"q1": {"d1": 2, "d2": np.int64(0)}, 7: {"x": 1.0}})) == {
        "query_id": ["q1", "q1", "7"],
        "doc_id": ["d1", "d2", "x"],
        "relevance": [2, 0, 1],
    }
    assert as_lists(run_frame({"q1": {"d1": 2.5, "d2": 1}})) == {
        "query_id": ["q1", "q1"],
        "doc_id": ["d1", "d2"],
        "score": [2.5, 1.0],
    }


def test_plain_dataframes_are_accepted():
    frame = pd.DataFrame({"query_id": [1, 1], "doc_id": ["a", "b"], "score": [0.5, 0.25]})
    assert as_lists(run_frame(frame))["query_id"] == ["1", "1"]


@pytest.mark.parametrize(
    "call, error, message",
    [
        pytest.param(lambda: qrels_frame({"q": {"d": 1.5}}), TypeError,
                     r"qrels relevance for topic 'q', document 'd' must be an integer; got 1.5 \(float\)", id="fraction"),
        pytest.param(lambda: qrels_frame({"q": {"d": True}}), TypeError,
                     r"qrels relevance for topic 'q', document 'd' must be an integer; got True \(bool\)", id="bool"),
        pytest.param(lambda: run_frame({"q": {"d": "high"}}), TypeError,
                     r"run score for topic 'q', document 'd' must be a number; got 'high' \(str\)", id="text-score"),
        pytest.param(lambda: run_frame({"q": {"d": float("nan")}}), ValueError,
                     r"run score for topic 'q', document 'd' must be a finite number; got nan", id="nan-score"),
        pytest.param(lambda: run_frame({"q": [1, 2]}), TypeError,
                     r"run\['q'\] must be a \{doc_id: score\} dict; got \[1, 2\] \(list\)", id="not-a-dict"),
        pytest.param(lambda: run_frame([1, 2]), TypeError,
                     r"run must be a table from read_run\(\) or a \{query_id: \{doc_id: score\}\} dict; got list", id="list"),
        pytest.param(lambda: qrels_frame(pd.DataFrame({"query_id": ["q"], "doc_id": ["d"]})), ValueError,
                     r"qrels must have columns query_id, doc_id, relevance; the table lacks relevance", id="column"),
        pytest.param(lambda: run_frame(pd.DataFrame({"query_id": ["q", None], "doc_id": ["d", "e"], "score": [1, 2]})),
                     ValueError, r"run query_id must be given on every row; row 1 has none", id="missing-id"),
        pytest.param(lambda: run_frame(pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["d", "d"], "score": [1, 2]})),
                     ValueError, r"run lists topic 'q', document 'd' twice; keep one entry per document and topic",
                     id="duplicate"),
    ],
)
def test_in_memory_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


# --------------------------------------------------------------------------- ranking of one topic


def test_ties_break_by_document_id_descending_in_byte_order():
    # strcmp: "d9" > "d10" (the character '9' > '1'); "é" (bytes C3 A9) > "z" (7A); "Z" < "a".
    run = {"q": {"d10": 1.0, "d9": 1.0, "z": 1.0, "é": 1.0, "Z": 1.0, "a": 1.0, "top": 2.0}}
    topic = ranked_labels({"q": {"d9": 1}}, run, "q")
    assert topic.doc_ids == ["top", "é", "z", "d9", "d10", "a", "Z"]
    assert topic.labels == [None, None, None, 1, None, None, None]


def test_the_rank_column_is_ignored():
    run = read_run("q Q0 low 1 0.1 r\nq Q0 high 2 0.9 r\n")
    assert ranked_labels({"q": {"high": 1}}, run, "q").doc_ids == ["high", "low"]


def test_negative_labels_are_unjudged_and_stay_out_of_the_ideal():
    qrels = {"q": {"a": -1, "b": 2, "c": 0, "d": 1}}
    run = {"q": {"a": 3.0, "b": 2.0, "x": 1.0}}
    topic = ranked_labels(qrels, run, "q")
    assert topic.labels == [None, 2, None]
    assert topic.qrels_labels == [-1, 2, None]
    assert topic.judgments == [2, 1, 0]
    assert topic.scores == [3.0, 2.0, 1.0]


def test_a_topic_the_run_misses_gives_an_empty_list():
    topic = ranked_labels({"q": {"a": 1}}, {"other": {"a": 1.0}}, "q")
    assert topic.doc_ids == [] and topic.judgments == [1]


def test_ranked_labels_feed_the_core_functions():
    # The lecture example as a TREC topic: labels 1, 0, 2, 1, 0; judgments 2, 1, 1 (+ two zeros).
    qrels = {"lec": {"a": 1, "b": 0, "c": 2, "d": 1, "e": 0}}
    run = {"lec": {"a": 5.0, "b": 4.0, "c": 3.0, "d": 2.0, "e": 1.0}}
    topic = ranked_labels(qrels, run, "lec")
    expected = (1 / log2(2) + 2 / log2(4) + 1 / log2(5)) / (2 / log2(2) + 1 / log2(3) + 1 / log2(4))
    assert nc.ndcg(topic.labels, 5, judgments=topic.judgments) == pytest.approx(expected, abs=1e-15)


def test_reader_output_is_accepted_everywhere():
    qrels, run = read_qrels(io.StringIO(QRELS_TEXT)), read_run(io.BytesIO(RUN_TEXT.encode()))
    assert ranked_labels(qrels, run, "q1").labels == [2, 0]
    assert as_lists(qrels_frame(qrels)) == as_lists(qrels)


# --------------------------------------------------------------------------- tie rules of other tools

from ndcg_core.trec.ties import TIE_RULES, tie_rules  # noqa: E402


def test_tie_rules_reproduce_the_tools_compared_numbers():
    # file order d3 (2), d1 (0), d2 (1), all scored 1.0; ideal 2, 1, 0
    table = tie_rules(["d3", "d1", "d2"], [1.0, 1.0, 1.0], [2, 0, 1], 3)
    ideal = 2 / log2(2) + 1 / log2(3) + 0 / log2(4)
    expected = {
        TIE_RULES[0]: (2 / log2(2) + 1 / log2(3) + 0 / log2(4)) / ideal,
        TIE_RULES[1]: (0 / log2(2) + 1 / log2(3) + 2 / log2(4)) / ideal,
        TIE_RULES[2]: (2 / log2(2) + 0 / log2(3) + 1 / log2(4)) / ideal,
        TIE_RULES[3]: (1 / log2(2) + 0 / log2(3) + 2 / log2(4)) / ideal,
        TIE_RULES[4]: ((2 + 0 + 1) / 3 * (1 / log2(2) + 1 / log2(3) + 1 / log2(4))) / ideal,
        TIE_RULES[5]: 1.0,
        TIE_RULES[6]: (0 / log2(2) + 1 / log2(3) + 2 / log2(4)) / ideal,
    }
    for rule, value in expected.items():
        assert table.loc[rule, "ndcg"] == pytest.approx(value, abs=1e-15), rule
    assert table.loc[TIE_RULES[0], "order"] == "d3, d2, d1"
    assert table.loc[TIE_RULES[4], "order"] == "[d3, d1, d2]"
    assert table.loc[TIE_RULES[4], "labels"] == "[2, 0, 1]"


def test_tie_rules_only_reorder_inside_tied_groups():
    table = tie_rules(["a", "b", "c", "d"], [3.0, 1.0, 1.0, 0.5], [None, 1, 2, 0], 2, judgments=[2, 1, 0, 3])
    assert table.loc[TIE_RULES[0], "order"] == "a, c, b, d"
    assert table.loc[TIE_RULES[0], "labels"] == "?, 2, 1, 0"
    assert table.loc[TIE_RULES[4], "order"] == "a, [b, c], d"
    assert table.loc[TIE_RULES[4], "ndcg"] == pytest.approx(((1 + 2) / 2 / log2(3)) / (3 + 2 / log2(3)), abs=1e-15)


@pytest.mark.parametrize("seed", range(25))
def test_tie_rules_agree_with_scikit_learn(seed):
    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 14))
    labels = rng.integers(0, 4, n).tolist()
    labels[0] = max(labels[0], 1)  # at least one relevant document
    scores = rng.integers(0, 3, n).astype(float).tolist()
    k = int(rng.integers(1, n + 2))
    table = tie_rules([f"d{i}" for i in range(n)], scores, labels, k)
    averaged = sklearn_metrics.ndcg_score([labels], [scores], k=k)
    ignoring = sklearn_metrics.ndcg_score([labels], [scores], k=k, ignore_ties=True)
    assert table.loc[TIE_RULES[4], "ndcg"] == pytest.approx(averaged, abs=1e-12)
    assert table.loc[TIE_RULES[3], "ndcg"] == pytest.approx(ignoring, abs=1e-12)


@pytest.mark.parametrize(
    "args, error, message",
    [
        pytest.param((["a", "a"], [1.0, 1.0], [1, 0]), ValueError,
                     r"document ids must not repeat; 'a' appears twice\. Each document is ranked once\.", id="repeat"),
        pytest.param((["a", "b"], [1.0], [1, 0]), ValueError,
                     r"document ids, scores and labels must have one entry per document; got 2 ids, 1 scores and 2 labels",
                     id="lengths"),
        pytest.param((["a"], [float("nan")], [1]), ValueError, r"scores\[0\] must be a finite number; got nan", id="nan"),
        pytest.param((["a"], ["high"], [1]), ValueError, r"scores\[0\] must be a finite number; got 'high'", id="text"),
        pytest.param(("ab", [1.0, 2.0], [1, 0]), TypeError, r"document ids must be a list of ids; got str", id="str"),
        pytest.param(([], [], []), ValueError, r"document ids must name at least one document", id="empty"),
        pytest.param((["a"], [1.0], [-1]), ValueError, r"labels\[0\] must be a non-negative number", id="label"),
    ],
)
def test_tie_rules_errors(args, error, message):
    with pytest.raises(error, match=message):
        tie_rules(*args)


def test_upload_size_limit(tmp_path):
    with pytest.raises(QrelsFormatError, match=r"^big.run: the file has 40 bytes, more than the 39 allowed here; "
                       r"evaluate large files with the ndcg-eval command \(expected 'QID Q0 DOCID RANK SCORE RUN'\)$"):
        read_run(b"q1 Q0 d1 1 2.5 mine\nq1 Q0 d2 2 1.5 mine\n", name="big.run", max_bytes=39)
    path = tmp_path / "q.txt"
    path.write_text(QRELS_TEXT)
    with pytest.raises(QrelsFormatError, match=r"the file has 30 bytes, more than the 10 allowed here"):
        read_qrels(path, max_bytes=10)
    assert len(read_qrels(path, max_bytes=30)) == 3


def test_toy_collection_reader():
    from pathlib import Path

    from ndcg_core.teaching.toy import TOY_RUNS, read_toy_collection

    toy = read_toy_collection(Path(__file__).resolve().parents[2] / "data" / "toy")
    assert list(toy.runs) == list(TOY_RUNS) == ["classic", "tuned", "novel"]
    assert {run.attrs["run_id"] for run in toy.runs.values()} == set(TOY_RUNS)
    assert len(toy.qrels) == 180 and len(toy.qrels_full) == 2746


def test_files_read_by_path_with_and_without_comment_lines(tmp_path):
    plain = tmp_path / "plain.qrels"
    plain.write_text("q1 0 http://x.org/a#b 1\nq1 0 d2 0\n")  # '#' inside an id: no comment line
    assert read_qrels(plain)["doc_id"].tolist() == ["http://x.org/a#b", "d2"]
    commented = tmp_path / "commented.run"
    commented.write_text("# made by hand\nq1 Q0 d1 1 2.5 r\n  # indented\r\nq1 Q0 d2 2 1.5 r\n")
    assert read_run(commented)["doc_id"].tolist() == ["d1", "d2"]
    broken = tmp_path / "broken.run"
    broken.write_text("# header\n\nq1 Q0 d1 1 2.5 r\nq1 Q0 d2 2 x r\n")
    with pytest.raises(QrelsFormatError, match=rf"^{re.escape(str(broken))}, line 4: score 'x' is not a number"):
        read_run(broken)
    empty = tmp_path / "empty.qrels"
    empty.write_bytes(b"")
    with pytest.raises(QrelsFormatError, match=r"empty.qrels: no qrels lines found"):
        read_qrels(empty)
    latin = tmp_path / "latin.qrels"
    latin.write_bytes(b"q1 0 d1 1\nq1 0 caf\xe9 1\n")
    with pytest.raises(QrelsFormatError, match=r"latin.qrels, line 2: the line is not UTF-8 text"):
        read_qrels(latin)


def test_categorical_fast_path_equals_the_public_construction():
    from ndcg_core.trec.tables import _categorical

    rng = np.random.default_rng(0)
    for size in (5, 200, 40_000):
        values = np.array([f"doc{i}" for i in rng.integers(0, size, 3 * size)], dtype=object)
        codes, names = encode_ids(values)
        fast = _categorical(codes, names)
        public = pd.Categorical.from_codes(codes, categories=pd.Index(names, dtype=object))
        pd.testing.assert_extension_array_equal(fast, public)
        assert fast.tolist() == values.tolist()


# --------------------------------------------------------------------------- the vectorised reader


def _tricky_files(seed: int) -> tuple[bytes, bytes]:
    """A qrels and a run with mixed blanks, blank lines, ids of 1-20 bytes and odd numbers."""
    rng = np.random.default_rng(seed)
    alphabet = list("abcXYZ019-_.:/#")
    blanks = [" ", "\t", "  ", " \t "]
    score_forms = [
        "{:.2f}", "{!r}", "{:.25f}", "{:e}", "{:+.3f}", "{:.0f}.", "{:g}", "{:.17g}", "{:.15f}",
    ]
    docs = sorted({"".join(rng.choice(alphabet, rng.integers(1, 21))) for _ in range(60)})
    docs = [doc for doc in docs if not doc.startswith("#")] + ["12345678", "1234567", "123456789abcdefg"]
    qrels, run = [], []
    for topic in ("t1", "T02", "topic-number-three", "t1x"):
        chosen = rng.choice(docs, size=25, replace=False)
        for doc in chosen[:15]:
            sep = rng.choice(blanks)
            label = int(rng.integers(-1, 4))
            end = rng.choice(["", " ", "\t"])
            qrels.append(f"{topic}{sep}0{sep}{doc}{sep}{'+' if label == 2 else ''}{label}{end}\n")
        for rank, doc in enumerate(chosen, start=1):
            value = float(rng.normal() * 10 ** int(rng.integers(-3, 4)))
            if rank % 7 == 0:
                value = round(value, 1)
            text = rng.choice(score_forms).format(value)
            if text.startswith("0.") and len(text) > 2:
                text = text[1:] if rank % 2 else text  # ".5" is a number too
            extra = " extra fields" if rank % 5 == 0 else ""
            run.append(f"{rng.choice(['', ' '])}{topic} Q0 {doc} {rank} {text} tag{seed}{extra}\n")
            if rank % 9 == 0:
                run.append(rng.choice(["\n", "   \n", "\t\n"]))
    return "".join(qrels).encode(), "".join(run).rstrip("\n").encode()  # no final newline


def _tidy(text: bytes) -> bytes:
    """The same lines without blank lines or blanks at line ends: the splitter's fast line ends."""
    lines = [line.rstrip(b" \t") for line in text.split(b"\n")]
    return b"\n".join(line for line in lines if line.strip())


@pytest.mark.parametrize("tidy", [False, True], ids=["blank-lines-and-trailing-blanks", "tidy-lines"])
@pytest.mark.parametrize("seed", range(6))
def test_vectorised_reader_agrees_with_the_line_reader(seed, tidy):
    qrels, run = _tricky_files(seed)
    if tidy:
        qrels, run = _tidy(qrels) + b"\n", _tidy(run)
    fast_q, fast_r = ascii_qrels(qrels), ascii_run(run)
    assert fast_q is not None and fast_r is not None  # these files take the fast path
    pd.testing.assert_frame_equal(table_frame(fast_q, "relevance"), table_frame(scan_qrels(qrels, "q"), "relevance"))
    pd.testing.assert_frame_equal(table_frame(fast_r, "score"), table_frame(scan_run(run, "r"), "score"))
    assert fast_r.attrs["run_id"] == f"tag{seed}"
    # keys sort as strcmp sorts the ids
    names = np.asarray(fast_r.doc_names)  # made from the keys on first use
    by_key = np.lexsort(fast_r.doc_keys.T[::-1])
    assert names[by_key].tolist() == sorted(names.tolist(), key=lambda s: s.encode())


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(b"q1 0 d1 1\r\nq1 0 d2 0\r\n", id="crlf"),
        pytest.param(b"q1 0 caf\xc3\xa9 1\n", id="utf8-id"),
        pytest.param(b"q1 0 d1 1\nq1 0 d2\n", id="short-line"),
        pytest.param(b"q1 0 d1 1 x\n", id="long-line"),
        pytest.param(b"q1 0 d1 1.0\n", id="decimal-label"),
        pytest.param(b"q1 0 d1 1234567890123456\n", id="sixteen-digit-label"),
        pytest.param(b"q1 0 d1 1\nq1 0 d1 2\n", id="duplicate"),
        pytest.param(b"q1 0 " + b"d" * 65 + b" 1\n", id="id-over-64-bytes"),
        pytest.param(b"\n \n", id="blank-only"),
        pytest.param(b"q1 0 d\x0b1 1\n", id="vertical-tab"),
    ],
)
def test_vectorised_qrels_reader_declines_what_it_does_not_handle(text):
    assert ascii_qrels(text) is None


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(b"q1 Q0 d1 1 nan r\n", id="nan"),
        pytest.param(b"q1 Q0 d1 1 1e999 r\n", id="overflow"),
        pytest.param(b"q1 Q0 d1 1 . r\n", id="dot"),
        pytest.param(b"q1 Q0 d1 1 1.2.3 r\n", id="two-dots"),
        pytest.param(b"q1 Q0 d1 1 2.5\n", id="five-fields"),
        pytest.param(b"q1 Q0 d1 1 0x1p3 r\n", id="hex"),
    ],
)
def test_vectorised_run_reader_declines_what_it_does_not_handle(text):
    assert ascii_run(text) is None


@pytest.mark.parametrize("halves", [False, True], ids=["one-part", "two-halves-in-threads"])
@pytest.mark.parametrize("tidy", [False, True], ids=["blank-lines-and-trailing-blanks", "tidy-lines"])
def test_vectorised_reader_reads_files_larger_than_one_block(monkeypatch, tidy, halves):
    from ndcg_core.trec import fast_reader

    monkeypatch.setattr(fast_reader, "_BLOCK", 64)  # many blocks, a line longer than a block
    monkeypatch.setattr(fast_reader, "_PARALLEL_BYTES", 1 if halves else 1 << 40)
    qrels, run = _tricky_files(11)
    if tidy:
        qrels, run = _tidy(qrels), _tidy(run) + b"\n"
    fast_r = ascii_run(run)
    assert fast_r is not None
    pd.testing.assert_frame_equal(table_frame(fast_r, "score"), table_frame(scan_run(run, "r"), "score"))
    fast_q = ascii_qrels(qrels)
    pd.testing.assert_frame_equal(
        table_frame(fast_q, "relevance"), table_frame(scan_qrels(qrels, "q"), "relevance")
    )
