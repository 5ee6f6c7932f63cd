r"""The fast reader: well-formed ASCII files split by numpy on their bytes.

A file of printable ASCII ids and numbers, fields separated by spaces or tabs and lines by
``"\n"``, is split block by block (about a megabyte of whole lines at a time) with no
Python loop over lines and no string made for any id: each block's ids become their keys
(see :class:`~ndcg_core.trec.tables.Table`), hashed as integers, and its numbers become
values, written straight into arrays made once with a row for every line; only a block's
field positions exist at any time. A topic id is kept once per run of equal ids (the
topic's first line), not once per line. A large run is parsed as
two halves at once (numpy releases the GIL). Given a path, the reader holds the file's
file mapped, lets each block's pages go once it is parsed, and unmaps it before the keys
are factorised.

Anything else (other bytes, ``"\r"``, a line with the wrong number of fields, a token
that is not a plain number, an id over 64 bytes, a repeated document) makes
:func:`ascii_qrels` / :func:`ascii_run` return None, and :mod:`ndcg_core.trec.files` hands
the file to pandas or to the line reader (:mod:`.line_reader`), which names the bad line.
On every file it accepts, this reader gives the line reader's table (a test checks it).

>>> table = ascii_qrels(b"q1 0 d2 1\nq1 0 d1 -1\n")
>>> list(table.doc_names), table.doc_codes.tolist(), table.values.tolist()
(['d1', 'd2'], [1, 0], [1, -1])
>>> ascii_qrels(b"q1 0 d1 one\n") is None
True
"""

from __future__ import annotations

import mmap
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple, Union

import numpy as np

from .line_reader import NUMBER
from .tables import (
    KeyNames,
    KeyPlan,
    Table,
    first_duplicate,
    has_repeated_pair,
    key_names,
    packed_keys,
    plan_of_ranges,
    repack_keys,
    sorted_factorization,
    unpack_keys,
)

__all__ = ["ascii_qrels", "ascii_run", "BLANK_FREE"]

#: ``attrs`` key of a qrels table from :func:`ascii_qrels`: True when every line of the file
#: is a content line (so no blank line needs looking for)
BLANK_FREE = "blank_free"

_BLOCK = 1 << 20  # bytes split at a time (whole lines: a longer line makes a longer block)
_MAX_ID_WORDS = 8  # ids up to 64 bytes get keys
_DIGIT_LIMIT = 15  # up to 15 digits a mantissa is exact and m / 10**f is correctly rounded
_PARALLEL_BYTES = 1 << 22  # files from this size on are parsed as two halves at once

_COUNT_BYTES = 1 << 22  # bytes of a mapped file whose newlines are counted at a time

#: What the readers take: the bytes of a file, or its path (the reader then maps the file).
Data = Union[bytes, str, "os.PathLike[str]"]
#: The file's bytes as the reader holds them: bytes, or the file mapped read-only.
_Bytes = Union[bytes, mmap.mmap]


class _Part(NamedTuple):
    """What one block of lines leaves besides the rows it wrote (nothing points into the bytes)."""

    row: int  # the block's first row in the output arrays
    rows: int  # the block's content lines
    heads: np.ndarray  # rows (in the block) where the topic id differs from the row before
    head_keys: np.ndarray  # those rows' topic keys
    last: tuple[int, int] | None  # (start, length) in the file of the last line's field ``minimum - 1``


class _Rows:
    """The arrays the blocks write their rows into: allocated once, a row for every line.

    Document keys are written packed where the first block's ids say they pack
    (:func:`_speculative_plan`: a ClueWeb id's four words in one), so the whole words of all
    rows never exist; a block whose ids that plan cannot hold turns the rows written so far
    back into whole words (:meth:`_unpack`) and every later block is written whole. Whole
    keys are as wide as the first block's ids need; a block with longer ids keeps its keys
    in ``wide`` (first row, keys) until :meth:`finish` widens the array. Blocks of two
    threads write under one lock.
    """

    def __init__(self, lines: int, first_keys: np.ndarray, value_type: type):
        self.width = max(first_keys.shape[1], 1)
        self.key_plan = _speculative_plan(first_keys) if len(first_keys) else None
        self.doc_keys = np.zeros((lines, self.width if self.key_plan is None else len(self.key_plan.plan)),
                                 dtype=np.uint64)
        self.values = np.empty(lines, dtype=value_type)
        self.wide: list[tuple[int, np.ndarray]] = []
        self._lock = threading.Lock()

    def packed(self, doc_keys: np.ndarray) -> np.ndarray | None:
        """A block's keys packed by the plan, or None (no plan, or ids the plan cannot hold).
        Called outside the lock: the plan never changes."""
        if self.key_plan is None:
            return None
        fits, packed = repack_keys(doc_keys, self.key_plan)
        return packed if fits.all() else None

    def put(self, row: int, doc_keys: np.ndarray, values: np.ndarray, packed: np.ndarray | None = None) -> None:
        """Write a block's rows from ``row`` on: its packed keys while the rows are packed,
        else its whole keys."""
        rows = slice(row, row + len(values))
        with self._lock:
            self.values[rows] = values
            if self.key_plan is not None:
                if packed is not None:
                    self.doc_keys[rows] = packed
                    return
                self._unpack()
            if doc_keys.shape[1] > self.doc_keys.shape[1]:
                self.wide.append((row, doc_keys))
            else:
                self.doc_keys[rows, : doc_keys.shape[1]] = doc_keys
                # zero words after shorter ids (after an unpacking a row not written yet holds
                # the plan's constant bytes, not zeros)
                self.doc_keys[rows, doc_keys.shape[1] :] = 0

    def _unpack(self) -> None:
        """The packed rows as whole words (rows not written yet are written whole later)."""
        assert self.key_plan is not None
        whole = np.zeros((len(self.doc_keys), self.width), dtype=np.uint64)
        for begin in range(0, len(whole), 1 << 16):
            whole[begin : begin + (1 << 16)] = unpack_keys(self.doc_keys[begin : begin + (1 << 16)], self.key_plan)
        self.doc_keys, self.key_plan = whole, None

    def move(self, source: int, target: int, rows: int) -> None:
        """Move rows ``source .. source + rows`` to start at ``target`` (a span's rows after
        blank lines before it)."""
        self.values[target : target + rows] = self.values[source : source + rows]
        self.doc_keys[target : target + rows] = self.doc_keys[source : source + rows]
        self.wide = [(row - source + target if row >= source else row, keys) for row, keys in self.wide]

    def finish(self, rows: int) -> tuple[np.ndarray, KeyPlan | None, np.ndarray]:
        """The document keys of the first ``rows`` rows, the plan they are packed by (None:
        whole words) and their values."""
        doc_keys, values, key_plan = self.doc_keys, self.values, self.key_plan
        self.doc_keys = self.values = _NOTHING
        if self.wide:  # ids longer than the first block's: widen once, with zero words
            width = max(keys.shape[1] for _, keys in self.wide)
            wider = np.zeros((rows, width), dtype=np.uint64)
            wider[:, : doc_keys.shape[1]] = doc_keys[:rows]
            del doc_keys
            for row, keys in self.wide:
                wider[row : row + len(keys), : keys.shape[1]] = keys
            self.wide = []
            return wider, None, values[:rows]
        return doc_keys[:rows], key_plan, values[:rows]


_DIGITS = (0x30, 0x39)
_LOWER = (0x61, 0x7A)
_UPPER = (0x41, 0x5A)


def _speculative_plan(keys: np.ndarray) -> KeyPlan | None:
    """A packing plan for a whole file's ids guessed from its first block's: a byte position
    that holds only digits there may hold any digit (and lower-case letters any lower-case
    letter, upper-case any upper-case), other positions as seen. None when packing saves no
    word. Later blocks are checked against it (:func:`~ndcg_core.trec.tables.repack_keys`)."""
    words = keys.shape[1]
    if words < 2:
        return None
    as_bytes = np.ascontiguousarray(keys).view(np.uint8).reshape(len(keys), words, 8)
    low, high = as_bytes.min(axis=0), as_bytes.max(axis=0)
    for first, last in (_DIGITS, _LOWER, _UPPER):
        inside = (low >= first) & (high <= last) & (high > low)
        low[inside], high[inside] = first, last
    plan = plan_of_ranges(low, high)
    return None if plan is None else KeyPlan(words, plan, low)


_NOTHING = np.zeros(0)


def ascii_qrels(data: Data) -> Table | None:
    """The table of a well-formed ASCII qrels file, or None for anything this reader declines.

    ``data`` is the file's bytes or its path. Every content line has four fields and a
    label of at most 15 digits (optionally signed); every id at most 64 bytes; no document
    judged twice for a topic.
    """
    data = _bytes_of(data)
    parsed = _parse(data, [(0, len(data))], _qrels_block, np.int64)
    if parsed is None:
        return None
    # every line a content line: no blank (or blanks-only) line anywhere
    lines = _newlines(data, 0, len(data)) + (data[-1:] != b"\n")
    del data  # the rows hold keys and values now, no bytes
    return _key_table(*parsed, {BLANK_FREE: parsed[2] == lines})


def ascii_run(data: Data) -> Table | None:
    """The table of a well-formed ASCII run file, or None for anything this reader declines.

    ``data`` is the file's bytes or its path. Every content line has at least six fields
    and a finite decimal score (an exponent is parsed by Python's ``float``, as the line
    reader does); every id at most 64 bytes; no document retrieved twice for a topic.
    ``attrs["run_id"]`` is the last line's sixth field.
    """
    data = _bytes_of(data)
    parsed = _parse(data, _halves(data), _run_block, np.float64)
    if parsed is None:
        return None
    parts, _, _ = parsed
    last = parts[-1].last
    assert last is not None
    run_id = data[last[0] : last[0] + last[1]].decode("ascii")
    del data  # the rows hold keys and values now, no bytes
    return _key_table(*parsed, {"run_id": run_id})


def _bytes_of(data: Data) -> _Bytes:
    """The bytes, or the file at the path mapped read-only: its pages are let go block by
    block as they are parsed (:func:`_release`), so the file never counts whole towards the
    process's memory."""
    if isinstance(data, bytes):
        return data
    with open(data, "rb") as handle:
        if os.fstat(handle.fileno()).st_size == 0:
            return b""
        return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)


_PAGE = mmap.PAGESIZE
_DONTNEED = getattr(mmap, "MADV_DONTNEED", None)


def _release(data: _Bytes, begin: int, end: int) -> None:
    """Let the pages of a mapped file's ``data[begin:end]`` go (read again if touched again:
    the mapping is read-only, so nothing is lost)."""
    if isinstance(data, mmap.mmap) and _DONTNEED is not None and end > begin:
        first = begin - begin % _PAGE
        data.madvise(_DONTNEED, first, end - first)


def _newlines(data: _Bytes, begin: int, end: int) -> int:
    """The number of newlines in ``data[begin:end]`` (a mapped file a few megabytes at a
    time, each let go once counted)."""
    if isinstance(data, bytes):
        return data.count(b"\n", begin, end)
    total = 0
    for at in range(begin, end, _COUNT_BYTES):
        stop = min(at + _COUNT_BYTES, end)
        total += int(np.count_nonzero(np.frombuffer(data, dtype=np.uint8, count=stop - at, offset=at) == 0x0A))
        _release(data, at, stop)
    return total


def _halves(data: _Bytes) -> list[tuple[int, int]]:
    """(start, end) of the whole file, or of two halves of whole lines for a large one."""
    n = len(data)
    cut = data.find(b"\n", n // 2) + 1 if n >= _PARALLEL_BYTES else 0
    if cut <= 0 or cut >= n:
        return [(0, n)]
    return [(0, cut), (cut, n)]


_Block = Callable[[np.ndarray, int, "_Rows | None", int], "tuple[_Part, np.ndarray, np.ndarray] | None"]


def _parse(
    data: _Bytes, spans: list[tuple[int, int]], block_part: _Block, value_type: type
) -> tuple[list[_Part], _Rows, int] | None:
    """The parts of the blocks of whole lines in the spans (a thread for each span after
    the first), in file order, the rows they wrote and how many; None if a block is
    declined or there is no content line.

    The first block is parsed first: its ids decide how wide the keys are.
    """
    if not data:
        return None
    buf = np.frombuffer(data, dtype=np.uint8)
    first_end = _block_end(data, 0, spans[0][1])
    parsed = block_part(buf[:first_end], 0, None, 0)
    if parsed is None:
        return None
    part, doc_keys, values = parsed
    _release(data, 0, first_end)
    out = _Rows(_newlines(data, 0, len(data)) + 1, doc_keys, value_type)
    out.put(0, doc_keys, values, out.packed(doc_keys))
    del parsed, doc_keys, values
    starts = [(first_end, spans[0][1], part.rows)]
    starts += [(begin, stop, _newlines(data, 0, begin)) for begin, stop in spans[1:]]
    if len(starts) == 1:
        found = [_parse_span(data, buf, *starts[0], block_part, out)]
    else:  # numpy releases the GIL on the array operations: two cores parse at once
        with ThreadPoolExecutor(max_workers=len(starts) - 1) as pool:
            later = [pool.submit(_parse_span, data, buf, *start, block_part, out) for start in starts[1:]]
            found = [_parse_span(data, buf, *starts[0], block_part, out)] + [job.result() for job in later]
    if any(span_parts is None for span_parts in found):
        return None
    parts = [part]
    row = part.rows
    for span_parts in found:  # close the gaps that blank lines left between spans
        assert span_parts is not None
        span_parts = [p for p in span_parts if p.rows]
        if not span_parts:
            continue
        shift = span_parts[0].row - row
        span_rows = sum(p.rows for p in span_parts)
        if shift:
            out.move(span_parts[0].row, row, span_rows)
            span_parts = [p._replace(row=p.row - shift) for p in span_parts]
        parts += span_parts
        row += span_rows
    parts = [p for p in parts if p.rows]
    if not parts:  # blank lines only: the line reader says so
        return None
    return parts, out, row


def _block_end(data: _Bytes, begin: int, stop: int) -> int:
    """The end of the block of whole lines that starts at ``begin`` (at most ``stop``)."""
    end = min(begin + _BLOCK, stop)
    if end < stop:
        cut = data.rfind(b"\n", begin, end)
        if cut < 0:  # a line longer than a block
            cut = data.find(b"\n", end, stop)
        end = stop if cut < 0 else cut + 1
    return end


def _parse_span(
    data: _Bytes, buf: np.ndarray, begin: int, stop: int, row: int, block_part: _Block, out: _Rows
) -> list[_Part] | None:
    parts: list[_Part] = []
    while begin < stop:
        end = _block_end(data, begin, stop)
        parsed = block_part(buf[begin:end], begin, out, row)
        if parsed is None:
            return None
        _release(data, begin, end)
        parts.append(parsed[0])
        row += parsed[0].rows
        begin = end
    return parts


def _qrels_block(block: np.ndarray, offset: int, out: _Rows | None, row: int):  # type: ignore[no-untyped-def]
    split = _split_fields(block, (0, 2, 3), 4, 4)
    if split is None:
        return None
    fields, _ = split
    if not len(fields[0][0]):
        return _empty_part(row)
    mantissa, _, negative, simple = _digit_rows(block, *fields[2], fraction=False)
    if not simple.all():
        return None
    np.negative(mantissa, out=mantissa, where=negative)
    return _keyed_part(block, fields, mantissa, None, out, row)


def _run_block(block: np.ndarray, offset: int, out: _Rows | None, row: int):  # type: ignore[no-untyped-def]
    split = _split_fields(block, (0, 2, 4), 6, None)
    if split is None:
        return None
    fields, last = split
    if not len(fields[0][0]):
        return _empty_part(row)
    starts, lengths = fields[2]
    mantissa, decimals, negative, simple = _digit_rows(block, starts, lengths, fraction=True)
    scores = mantissa.astype(np.float64)
    del mantissa
    scores /= _POWERS_OF_TEN[np.minimum(decimals, _DIGIT_LIMIT)]
    np.negative(scores, out=scores, where=negative)
    del decimals, negative
    for at in np.flatnonzero(~simple).tolist():  # long mantissas, exponents: Python's float()
        token = block[starts[at] : starts[at] + lengths[at]].tobytes().decode("ascii")
        if not NUMBER.fullmatch(token):
            return None
        scores[at] = float(token)
    if not np.isfinite(scores).all():
        return None
    assert last is not None
    return _keyed_part(block, fields, scores, (last[0] + offset, last[1]), out, row)


def _empty_part(row: int) -> tuple[_Part, np.ndarray, np.ndarray]:
    empty = np.zeros((0, 1), dtype=np.uint64)
    return _Part(row, 0, np.zeros(0, dtype=np.intp), empty, None), empty, np.zeros(0)


def _keyed_part(block: np.ndarray, fields, values: np.ndarray, last, out: _Rows | None, row: int):  # type: ignore[no-untyped-def]
    """The block's part; its document keys and values are written to ``out`` (or, for the
    first block, before there is an ``out``, returned with the part)."""
    query_keys = _id_keys(block, *fields[0])
    doc_keys = _id_keys(block, *fields[1])
    if query_keys is None or doc_keys is None:
        return None
    change = np.empty(len(query_keys), dtype=bool)
    change[0] = True
    np.any(query_keys[1:] != query_keys[:-1], axis=1, out=change[1:])
    heads = np.flatnonzero(change)
    part = _Part(row, len(values), heads, query_keys[heads], last)
    if out is not None:
        out.put(row, doc_keys, values, out.packed(doc_keys))
    return part, doc_keys, values


def _split_fields(
    block: np.ndarray, wanted: Sequence[int], minimum: int, maximum: int | None
) -> tuple[list[tuple[np.ndarray, np.ndarray]], tuple[int, int] | None] | None:
    """(starts, lengths) of the wanted fields of every content line of a block of whole
    lines, and (start, length) of the last line's field ``minimum - 1`` (None for a block
    of blank lines); positions are the block's (int32).

    None unless every byte is printable ASCII, a blank or "\\n", and every non-blank line
    has between ``minimum`` and ``maximum`` fields.
    """
    if len(block) >= 2**31:
        return None
    # printable ASCII, blanks and newlines only: no byte above "~", and every byte below
    # "!" a space, a tab or a newline
    if block.max() > 0x7E:
        return None
    newlines = np.count_nonzero(block == 0x0A)
    blanks = np.count_nonzero(block == 0x20) + np.count_nonzero(block == 0x09)
    if np.count_nonzero(block < 0x21) != newlines + blanks:
        return None
    token = np.zeros(len(block) + 2, dtype=np.int8)
    np.greater(block, 0x20, out=token[1:-1].view(bool))
    edges = np.flatnonzero(token[1:] != token[:-1]).astype(np.int32)
    del token
    starts, stops = edges[0::2], edges[1::2]
    del edges
    if not len(starts):
        return [(starts, starts) for _ in wanted], None
    # Where every line ends right after its last field (no trailing blanks, no blank
    # lines), the tokens followed by "\n" end the lines; otherwise find the newlines.
    ends = np.zeros(len(stops), dtype=bool)
    inside = stops < len(block)
    ends[inside] = block[stops[inside]] == 0x0A
    ends[~inside] = True  # the block's last line has no newline
    line_ends = np.flatnonzero(ends)
    expected = newlines + (block[-1] != 0x0A)
    if len(line_ends) == expected:
        count = np.diff(line_ends, prepend=-1)
        first = line_ends - (count - 1)
    else:
        newline_at = np.flatnonzero(block == 0x0A)
        if block[-1] != 0x0A:
            newline_at = np.append(newline_at, len(block))
        before = np.searchsorted(starts, newline_at)
        first = np.concatenate(([0], before[:-1]))
        count = before - first
        first = first[count > 0]
        count = count[count > 0]
    if count.min() < minimum or (maximum is not None and count.max() > maximum):
        return None
    fields = []
    for j in wanted:
        at = first + j
        fields.append((starts[at], stops[at] - starts[at]))
    final = first[-1] + minimum - 1
    return fields, (int(starts[final]), int(stops[final] - starts[final]))


def _id_keys(buf: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray | None:
    """Each id's bytes as big-endian 64-bit words, zero-padded: shape (rows, words)."""
    longest = int(lengths.max(initial=1))
    words = -(-longest // 8)
    if words > _MAX_ID_WORDS:
        return None
    n = len(buf)
    window = np.ndarray(shape=(max(n - 7, 0),), dtype=">u8", buffer=buf, strides=(1,))
    tail_start = max(n - 8, 0)
    tail = np.zeros(16, dtype=np.uint8)
    tail[: n - tail_start] = buf[tail_start:]
    tail_window = np.ndarray(shape=(9,), dtype=">u8", buffer=tail, strides=(1,))
    keys = np.empty((len(starts), words), dtype=np.uint64)
    begins = starts.astype(np.int64)
    at = np.empty(len(starts), dtype=np.int64)
    for w in range(words):
        np.add(begins, 8 * w, out=at)
        rest = np.clip(lengths - 8 * w, 0, 8)
        # every id's word read whole where 8 bytes from its start lie in the block; the few
        # near the block's end are read from the zero-padded tail
        raw = window[np.minimum(at, n - 8)] if len(window) else np.zeros(len(at), dtype=np.uint64)
        outside = (at > n - 8) & (rest > 0)
        if outside.any():
            raw[outside] = tail_window[at[outside] - tail_start]
        raw &= _BYTE_MASKS[rest]  # the id's own bytes only (none past its end)
        keys[:, w] = raw
    return keys


#: ``_BYTE_MASKS[r]`` keeps the first ``r`` bytes of a big-endian word (0 <= r <= 8)
_BYTE_MASKS = np.array([(0xFFFFFFFFFFFFFFFF << (64 - 8 * r)) & 0xFFFFFFFFFFFFFFFF if r else 0 for r in range(9)],
                       dtype=np.uint64)


def _stacked(arrays: list[np.ndarray]) -> np.ndarray:
    """Key arrays one after the other, padded with zero words to the widest (zero words
    are shorter ids)."""
    out = np.zeros((sum(len(a) for a in arrays), max(a.shape[1] for a in arrays)), dtype=np.uint64)
    row = 0
    for a in arrays:
        out[row : row + len(a), : a.shape[1]] = a
        row += len(a)
    return out


def _key_table(parts: list[_Part], out: _Rows, rows: int, attrs: dict) -> Table | None:
    """The table of the blocks' rows: topics from their first rows, documents factorised."""
    doc_keys, doc_plan, values = out.finish(rows)
    if doc_plan is None:
        # kept packed when they pack (a ClueWeb id's 4 words in one): the whole words go
        # here, before the topics are factorised
        doc_keys, doc_plan = packed_keys(doc_keys)
    heads = np.concatenate([part.heads + part.row for part in parts])
    head_keys = _stacked([part.head_keys for part in parts])
    parts.clear()
    # a run in no order has a head on nearly every row: the stacked keys are sorted in place
    head_codes, query_uniques, _ = sorted_factorization(head_keys, overwrite=True)
    del head_keys
    # each topic's rows together: as many runs of equal topics as topics (a block's first
    # row is a head even when its topic goes on from the block before)
    grouped = 1 + int(np.count_nonzero(head_codes[1:] != head_codes[:-1])) == len(query_uniques)
    query_codes = np.repeat(head_codes, np.diff(np.append(heads, rows)))
    del heads, head_codes
    doc_codes, doc_uniques, doc_sort = sorted_factorization(doc_keys, overwrite=True)
    del doc_keys
    repeated = has_repeated_pair(query_codes, grouped, doc_sort)
    del doc_sort
    table = Table(
        query_codes,
        key_names(query_uniques),
        doc_codes,
        KeyNames(doc_uniques, doc_plan),
        values,
        attrs,
        doc_uniques,
    )
    if repeated or (repeated is None and first_duplicate(table) is not None):
        return None
    return table


def _digit_rows(buf: np.ndarray, starts: np.ndarray, lengths: np.ndarray, fraction: bool):  # type: ignore[no-untyped-def]
    """Vectorised parse of ``[+-]digits[.digits]`` tokens (``.digits`` only if ``fraction``).

    Returns (mantissa, decimals, negative, simple) where ``simple`` marks the tokens of
    that form with at most _DIGIT_LIMIT digits; the others are left to the caller.
    """
    n = len(buf)
    rows = len(starts)
    mantissa = np.zeros(rows, dtype=np.int64)
    digits = np.zeros(rows, dtype=np.int8)
    decimals = np.zeros(rows, dtype=np.int8)
    dots = np.zeros(rows, dtype=np.int8)
    simple = lengths <= 2 * _DIGIT_LIMIT  # counters stay small
    negative = np.zeros(rows, dtype=bool)
    at = starts.astype(np.int64)
    where = np.empty(rows, dtype=np.int64)
    for k in range(min(int(lengths.max(initial=0)), 2 * _DIGIT_LIMIT)):
        inside = lengths > k
        byte = buf[np.minimum(at + k, n - 1, out=where)]
        value = byte - np.uint8(0x30)  # a digit's value; any other byte wraps above 9
        digit = (value <= 9) & inside
        allowed = digit | ~inside
        if k == 0:
            negative = byte == 0x2D
            allowed |= negative | (byte == 0x2B)
        if fraction:
            dot = (byte == 0x2E) & inside
            allowed |= dot
            decimals += digit & (dots > 0)
            dots += dot
        simple &= allowed
        # the mantissa takes the digit: ufuncs with where= (no gather and scatter of the rows)
        np.multiply(mantissa, 10, out=mantissa, where=digit)
        np.add(mantissa, value, out=mantissa, where=digit)
        digits += digit
    simple &= (dots <= 1) & (digits >= 1) & (digits <= _DIGIT_LIMIT)
    return mantissa, decimals, negative, simple


_POWERS_OF_TEN = np.array([float(10**i) for i in range(_DIGIT_LIMIT + 1)])
