"""The fast reader (numpy, ASCII) gives the line reader's tables; on a malformed file it
declines, and the public readers report the line reader's error (hypothesis)."""

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ndcg_core.trec import QrelsFormatError
from ndcg_core.trec.fast_reader import BLANK_FREE, ascii_qrels, ascii_run
from ndcg_core.trec.files import first_blank_line, read_qrels_table, read_run_table, strip_comment_lines
from ndcg_core.trec.line_reader import scan_qrels, scan_run
from ndcg_core.trec.tables import table_frame

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# ids: printable ASCII without blanks; a first field starting with '#' would make a comment
ID_CHARS = st.characters(min_codepoint=0x21, max_codepoint=0x7E)
ids = st.text(ID_CHARS, min_size=1, max_size=12).filter(lambda s: not s.startswith("#"))
long_ids = st.text(ID_CHARS, min_size=40, max_size=70).filter(lambda s: not s.startswith("#"))
doc_ids = st.one_of(ids, ids, ids, long_ids)
blanks = st.sampled_from([" ", "\t", "  ", " \t ", "\t\t"])
line_ends = st.sampled_from(["", "", " ", "\t"])
extras = st.sampled_from(["\n", "   \n", "# a comment\n", "  \t# indented comment\n", "#\n"])
labels = st.integers(-3, 4) | st.integers(-(10**15) + 1, 10**15 - 1)
scores = st.one_of(
    st.sampled_from(["1", "1.0", "2.5", "0.25", "-1", "3.", ".5", "+7", "1e3", "-2.5E-2"]),  # ties
    st.floats(-1e6, 1e6, allow_nan=False).map(repr),
    st.floats(-1e3, 1e3, allow_nan=False).map(lambda x: f"{x:.20f}"),
    st.integers(-(10**18), 10**18).map(str),
)


@st.composite
def files(draw, kind):
    """Lines of a well-formed qrels or run, with blank and comment lines among them."""
    topics = draw(st.lists(ids, min_size=1, max_size=4, unique=True))
    lines = []
    for topic in topics:
        docs = draw(st.lists(doc_ids, min_size=1, max_size=8, unique=True))
        for rank, doc in enumerate(docs, start=1):
            sep = draw(blanks)
            lead = draw(st.sampled_from(["", "", " ", "\t"]))
            if kind == "qrels":
                fields = [topic, "0", doc, str(draw(labels))]
            else:
                fields = [topic, "Q0", doc, str(rank), draw(scores), draw(st.sampled_from(["run", "tag-2"]))]
                fields += draw(st.lists(ids, max_size=2))  # trec_eval ignores fields after the sixth
            lines.append(lead + sep.join(fields) + draw(line_ends) + "\n")
            if draw(st.integers(0, 5)) == 0:
                lines.append(draw(extras))
    if draw(st.booleans()):
        lines.insert(0, draw(extras))
    text = "".join(lines)
    if draw(st.booleans()):
        text = text.rstrip("\n")  # no final newline
    return text.encode("ascii"), lines


def longest_id(data: bytes) -> int:
    return max((len(field) for line in data.splitlines() for field in line.split()), default=0)


def assert_same(fast, slow, value_name):
    pd.testing.assert_frame_equal(table_frame(fast, value_name), table_frame(slow, value_name))
    assert fast.attrs == slow.attrs


@SETTINGS
@given(files("qrels"))
def test_fast_qrels_reader_gives_the_line_readers_table(case):
    data, _ = case
    slow = scan_qrels(data, "f")
    fast = ascii_qrels(strip_comment_lines(data))
    if longest_id(data) > 64:  # keys hold ids up to 64 bytes: longer ones go elsewhere
        assert fast is None
    else:
        assert fast is not None
        # the fast reader's count of content lines says whether a line is blank (what
        # read_qrels_table(blank_lines=False) then need not look for)
        blank_free = fast.attrs.pop(BLANK_FREE)
        assert blank_free == (first_blank_line(strip_comment_lines(data)) is None)
        assert_same(fast, slow, "relevance")
    assert_same(read_qrels_table(data, name="f"), slow._replace(attrs={"source": "f"}), "relevance")
    blank = first_blank_line(data)
    if blank is None:
        assert read_qrels_table(data, name="f", blank_lines=False).values.tolist() == slow.values.tolist()
    else:
        with pytest.raises(QrelsFormatError, match=f"^f, line {blank}: blank line"):
            read_qrels_table(data, name="f", blank_lines=False)


@SETTINGS
@given(files("run"))
def test_fast_run_reader_gives_the_line_readers_table(case):
    data, _ = case
    slow = scan_run(data, "f")
    fast = ascii_run(strip_comment_lines(data))
    if longest_id(data) > 64:
        assert fast is None
    else:
        assert fast is not None
        assert_same(fast, slow, "score")
    expected = slow._replace(attrs={**slow.attrs, "source": "f"})
    assert_same(read_run_table(data, name="f"), expected, "score")


QRELS_FAULTS = {
    "three fields": lambda fields: fields[:3],
    "five fields": lambda fields: [*fields, "x"],
    "fractional label": lambda fields: [*fields[:3], "1.5"],
    "word label": lambda fields: [*fields[:3], "two"],
    "huge label": lambda fields: [*fields[:3], "99999999999999999999"],
}
RUN_FAULTS = {
    "five fields": lambda fields: fields[:5],
    "word score": lambda fields: [*fields[:4], "high", *fields[5:]],
    "nan score": lambda fields: [*fields[:4], "nan", *fields[5:]],
    "overflowing score": lambda fields: [*fields[:4], "1e999", *fields[5:]],
    "decimal comma": lambda fields: [*fields[:4], "2,5", *fields[5:]],
}


def corrupt(lines, fault, which, duplicate):
    """The file with one content line broken (or repeated), and that line's number."""
    content = [i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("#")]
    at = content[which % len(content)]
    broken = list(lines)
    if duplicate:
        broken.insert(at + 1, lines[at] if lines[at].endswith("\n") else lines[at] + "\n")
        return broken, at + 2
    broken[at] = " ".join(fault(lines[at].split())) + "\n"
    return broken, at + 1


@pytest.mark.parametrize("kind", ["qrels", "run"])
@SETTINGS
@given(data=st.data())
def test_on_a_malformed_file_both_paths_name_the_same_line(kind, data):
    _, lines = data.draw(files(kind))
    faults = QRELS_FAULTS if kind == "qrels" else RUN_FAULTS
    fault = data.draw(st.sampled_from(sorted(faults)))
    duplicate = data.draw(st.integers(0, 5)) == 0
    broken, line = corrupt(lines, faults[fault], data.draw(st.integers(0, 100)), duplicate)
    text = "".join(broken).encode("ascii")
    fast, scan, read = (ascii_qrels, scan_qrels, read_qrels_table) if kind == "qrels" else (ascii_run, scan_run, read_run_table)
    assert fast(strip_comment_lines(text)) is None  # the fast reader declines, never guesses
    with pytest.raises(QrelsFormatError) as slow:
        scan(text, "f")
    with pytest.raises(QrelsFormatError) as public:
        read(text, name="f")
    assert slow.value.line == line
    assert str(public.value) == str(slow.value) and public.value.line == line


# ------------------------------------------------- keys packed block by block (tiny blocks)
#
# The fast reader packs a file's document keys as it parses, by a plan guessed from its first
# block (a position holding digits there may hold any digit). Real files have a megabyte per
# block; here blocks of a few lines and two threads from 256 bytes on make every file many
# blocks, so later blocks meet ids the guess cannot hold: the rows written so far are turned
# back into whole words and the table must still be the line reader's.

shaped_ids = st.one_of(
    st.integers(0, 10**13 - 1).map(lambda n: f"clueweb09-en{n // 10**9:04d}-{n // 10**7 % 100:02d}-{n % 10**5:05d}"),
    st.integers(0, 10**13 - 1).map(lambda n: f"clueweb09-enwp{n // 10**9 % 100:02d}-{n // 10**7 % 100:02d}-{n % 10**5:05d}"),
    st.integers(0, 99_999).map(lambda n: f"clueweb12-{n:05d}"),  # shorter
    ids,
)


@st.composite
def shaped_files(draw, kind):
    topics = draw(st.lists(st.integers(1, 300), min_size=1, max_size=5, unique=True))
    lines = []
    for topic in topics:
        docs = draw(st.lists(shaped_ids, min_size=1, max_size=12, unique=True))
        for rank, doc in enumerate(docs, start=1):
            if kind == "qrels":
                lines.append(f"{topic} 0 {doc} {draw(labels)}\n")
            else:
                lines.append(f"{topic} Q0 {doc} {rank} {draw(scores)} run\n")
    return "".join(lines).encode("ascii")


def tiny_blocks():
    from unittest import mock

    from ndcg_core.trec import fast_reader

    return mock.patch.multiple(fast_reader, _BLOCK=96, _PARALLEL_BYTES=256)


@SETTINGS
@given(shaped_files("qrels"), shaped_files("run"))
def test_keys_packed_block_by_block_give_the_line_readers_tables(qrels, run):
    with tiny_blocks():
        fast_qrels, fast_run = ascii_qrels(qrels), ascii_run(run)
    assert fast_qrels is not None and fast_run is not None
    fast_qrels.attrs.pop(BLANK_FREE)
    assert_same(fast_qrels, scan_qrels(qrels, "f"), "relevance")
    assert_same(fast_run, scan_run(run, "f"), "score")


def test_a_later_block_the_first_blocks_plan_cannot_hold_unpacks_the_rows_written():
    """First blocks: ClueWeb ids whose segment is all digits, so the guessed plan holds digits
    there; a later block brings 'enwp' (letters where digits were), a shorter id and a longer
    one. The packed rows are unpacked once (the spy counts it) and the table is exact."""
    from unittest import mock

    from ndcg_core.trec import fast_reader

    docs = [f"clueweb09-en{s:04d}-{m:02d}-{n:05d}" for s, m, n in zip(range(0, 40), range(10, 50), range(500, 540))]
    docs += ["clueweb09-enwp01-17-00031", "clueweb12-00001", "clueweb09-en0000-00-00000-and-a-longer-tail-x"]
    data = "".join(f"7 Q0 {doc} {rank} {100 - rank}.5 run\n" for rank, doc in enumerate(docs, 1)).encode()
    unpack = mock.patch.object(fast_reader._Rows, "_unpack", autospec=True, side_effect=fast_reader._Rows._unpack)
    with tiny_blocks(), unpack as spy:
        fast = ascii_run(data)
    assert spy.call_count == 1
    assert fast is not None
    assert_same(fast, scan_run(data, "f"), "score")


def test_ids_the_first_blocks_plan_holds_stay_packed_to_the_end():
    """Digits seen varying at a position in the first block stand for any digit: later
    blocks with other digits there are written packed, never as whole words."""
    from unittest import mock

    from ndcg_core.trec import fast_reader

    docs = [f"clueweb09-en00{s % 3}{s % 7}-1{s % 2}-0003{s % 4}" for s in range(60)]
    # 9s where the first block's varying positions only ever had 0 to 6
    docs = list(dict.fromkeys(docs)) + ["clueweb09-en0099-19-00039"]
    data = "".join(f"7 Q0 {doc} {rank} 1 run\n" for rank, doc in enumerate(docs, 1)).encode()
    unpack = mock.patch.object(fast_reader._Rows, "_unpack", autospec=True, side_effect=fast_reader._Rows._unpack)
    with tiny_blocks(), unpack as spy:
        fast = ascii_run(data)
    assert spy.call_count == 0
    assert fast is not None and fast.doc_keys.shape[1] == 1  # four words packed into one
    assert_same(fast, scan_run(data, "f"), "score")
