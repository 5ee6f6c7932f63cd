r"""The fast reader: well-formed ASCII files split by numpy on their bytes.

A file of printable ASCII ids and numbers, fields separated by spaces or tabs and lines by
``"\n"``, is split block by block with no Python loop over lines and no string made for
any id: each id becomes its key (see :class:`~ndcg_core.trec.tables.Table`), which is
hashed as integers. A large run is parsed as two halves at once (numpy releases the GIL).

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

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .line_reader import NUMBER
from .tables import (
    KeyNames,
    Table,
    factorize_grouped_keys,
    factorize_keys,
    first_duplicate,
    key_names,
)

__all__ = ["ascii_qrels", "ascii_run"]

_BLOCK = 1 << 20  # bytes split at a time
_ROWS = 1 << 17  # rows keyed or parsed at a time
_MAX_ID_WORDS = 8  # ids up to 64 bytes get keys
_DIGIT_LIMIT = 15  # up to 15 digits a mantissa is exact and m / 10**f is correctly rounded
_PARALLEL_BYTES = 1 << 22  # files from this size on are parsed as two halves at once


def ascii_qrels(data: bytes) -> Table | None:
    """The table of a well-formed ASCII qrels file, or None for anything this reader declines.

    Every content line has four fields and a label of at most 15 digits (optionally
    signed); every id at most 64 bytes; no document judged twice for a topic.
    """
    split = _split_fields(data, (0, 2, 3), 4, 4)
    if split is None:
        return None
    buf, fields, _ = split
    mantissa, _, negative, simple = _digit_values(buf, *fields[2], fraction=False)
    if not simple.all():
        return None
    np.negative(mantissa, out=mantissa, where=negative)
    query_keys, doc_keys = _id_keys(buf, *fields[0]), _id_keys(buf, *fields[1])
    del split, buf, fields, data  # the keys hold the ids now
    if query_keys is None or doc_keys is None:
        return None
    return _key_table(query_keys, doc_keys, mantissa, {})


def ascii_run(data: bytes) -> Table | None:
    """The table of a well-formed ASCII run file, or None for anything this reader declines.

    Every content line has at least six fields and a finite decimal score (an exponent is
    parsed by Python's ``float``, as the line reader does); every id at most 64 bytes; no
    document retrieved twice for a topic. ``attrs["run_id"]`` is the last line's sixth field.
    """
    parts = _halves(data)
    if len(parts) == 1:
        parsed = [_ascii_run_part(data, parts[0])]
    else:  # numpy releases the GIL on the big array operations: two cores parse at once
        with ThreadPoolExecutor(max_workers=1) as pool:
            second = pool.submit(_ascii_run_part, data, parts[1])
            parsed = [_ascii_run_part(data, parts[0]), second.result()]
    if any(part is None for part in parsed):
        return None
    query_keys = _stacked([part[0] for part in parsed])  # type: ignore[index]
    doc_keys = _stacked([part[1] for part in parsed])  # type: ignore[index]
    scores = np.concatenate([part[2] for part in parsed])  # type: ignore[index]
    run_id = parsed[-1][3]  # type: ignore[index]
    del parsed, data  # the keys hold the ids now
    return _key_table(query_keys, doc_keys, scores, {"run_id": run_id})


def _halves(data: bytes) -> list[tuple[int, int]]:
    """(start, end) of the whole file, or of two halves of whole lines for a large one."""
    n = len(data)
    cut = data.find(b"\n", n // 2) + 1 if n >= _PARALLEL_BYTES else 0
    if cut <= 0 or cut >= n:
        return [(0, n)]
    return [(0, cut), (cut, n)]


def _stacked(keys: list[np.ndarray]) -> np.ndarray:
    """Key arrays one after the other, padded to the widest (zero words: shorter ids)."""
    if len(keys) == 1:
        return keys[0]
    width = max(k.shape[1] for k in keys)
    out = np.zeros((sum(len(k) for k in keys), width), dtype=np.uint64)
    row = 0
    for k in keys:
        out[row : row + len(k), : k.shape[1]] = k
        row += len(k)
    return out


def _ascii_run_part(data: bytes, span: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray, str] | None:
    """Query keys, document keys, scores and run id (last line's) of the lines in ``span``."""
    split = _split_fields(data, (0, 2, 4), 6, None, span)
    if split is None:
        return None
    buf, fields, (run_start, run_length) = split
    starts, lengths = fields[2]
    mantissa, decimals, negative, simple = _digit_values(buf, starts, lengths, fraction=True)
    scores = mantissa.astype(np.float64)
    del mantissa
    scores /= _POWERS_OF_TEN[np.minimum(decimals, _DIGIT_LIMIT)]
    np.negative(scores, out=scores, where=negative)
    del decimals, negative
    for row in np.flatnonzero(~simple).tolist():  # long mantissas, exponents: Python's float()
        token = data[starts[row] : starts[row] + lengths[row]].decode("ascii")
        if not NUMBER.fullmatch(token):
            return None
        scores[row] = float(token)
    if not np.isfinite(scores).all():
        return None
    run_id = data[run_start : run_start + run_length].decode("ascii")
    query_keys, doc_keys = _id_keys(buf, *fields[0]), _id_keys(buf, *fields[1])
    if query_keys is None or doc_keys is None:
        return None
    return query_keys, doc_keys, scores, run_id


def _split_fields(
    data: bytes,
    wanted: Sequence[int],
    minimum: int,
    maximum: int | None,
    span: tuple[int, int] | None = None,
) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray]], tuple[int, int]] | None:
    """The bytes as an array, (starts, lengths) of the wanted fields of every content line,
    and (start, length) of the last line's field ``minimum - 1``.

    ``span`` (start, end) limits the work to whole lines ``data[start:end]``; positions
    stay those in ``data``. None unless every byte is printable ASCII, a blank or
    "\\n", every non-blank line has between ``minimum`` and ``maximum`` fields, and
    there is at least one.
    """
    whole = np.frombuffer(data, dtype=np.uint8)
    if len(whole) == 0 or len(whole) >= 2**31:
        return None
    first_byte, n = span if span is not None else (0, len(whole))
    buf = whole[first_byte:n]
    if len(buf) == 0:
        return None
    # printable ASCII, blanks and newlines only: no byte above "~", and every byte below
    # "!" a space, a tab or a newline
    if buf.max() > 0x7E:
        return None
    newlines_total = np.count_nonzero(buf == 0x0A)
    blanks = np.count_nonzero(buf == 0x20) + np.count_nonzero(buf == 0x09)
    if np.count_nonzero(buf < 0x21) != newlines_total + blanks:
        return None
    del buf
    buf = whole
    capacity = newlines_total + 1
    out = np.empty((2 * len(wanted), capacity), dtype=np.int32)
    rows = 0
    last = (0, 0)
    begin = first_byte
    while begin < n:
        end = min(begin + _BLOCK, n)
        if end < n:
            cut = data.rfind(b"\n", begin, end)
            if cut < 0:
                cut = data.find(b"\n", end)
            end = n if cut < 0 or cut >= n else cut + 1
        block = buf[begin:end]
        token = np.zeros(len(block) + 2, dtype=np.int8)
        np.greater(block, 0x20, out=token[1:-1].view(bool))
        edges = np.flatnonzero(token[1:] != token[:-1]).astype(np.int32)
        del token
        starts, stops = edges[0::2], edges[1::2]
        del edges
        # Where every line ends right after its last field (no trailing blanks, no blank
        # lines), the tokens followed by "\n" end the lines; otherwise find the newlines.
        ends = np.zeros(len(stops), dtype=bool)
        inside = stops < len(block)
        ends[inside] = block[stops[inside]] == 0x0A
        ends[~inside] = True  # the block's last line has no newline
        line_ends = np.flatnonzero(ends)
        expected = np.count_nonzero(block == 0x0A) + (block[-1] != 0x0A)
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
        if len(count):
            if count.min() < minimum or (maximum is not None and count.max() > maximum):
                return None
            for i, j in enumerate(wanted):
                at = first + j
                out[2 * i, rows : rows + len(at)] = starts[at] + np.int32(begin)
                out[2 * i + 1, rows : rows + len(at)] = stops[at] - starts[at]
            final = first[-1] + minimum - 1
            last = (int(starts[final]) + begin, int(stops[final] - starts[final]))
            rows += len(first)
        begin = end
    if rows == 0:  # blank lines only: the line reader says so
        return None
    fields = [(out[2 * i, :rows], out[2 * i + 1, :rows]) for i in range(len(wanted))]
    return buf, fields, last


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
    keys = np.zeros((len(starts), words), dtype=np.uint64)
    for begin in range(0, len(starts), _ROWS):
        rows = slice(begin, begin + _ROWS)
        keys[rows] = _id_key_rows(buf, window, tail_window, tail_start, starts[rows], lengths[rows], words)
    return keys


def _id_key_rows(buf, window, tail_window, tail_start, starts, lengths, words):  # type: ignore[no-untyped-def]
    n = len(buf)
    keys = np.zeros((len(starts), words), dtype=np.uint64)
    for w in range(words):
        at = starts.astype(np.int64) + 8 * w
        rest = np.clip(lengths - 8 * w, 0, 8).astype(np.uint64)
        inside = at + 8 <= n
        raw = np.zeros(len(at), dtype=np.uint64)
        raw[inside] = window[at[inside]]
        if not inside.all():
            outside = ~inside & (rest > 0)
            raw[outside] = tail_window[at[outside] - tail_start]
        shift = (np.uint64(8) - rest) * np.uint64(8)
        shift[rest == 0] = 0
        raw >>= shift
        raw <<= shift
        raw[rest == 0] = 0
        keys[:, w] = raw
    return keys


def _key_table(query_keys: np.ndarray, doc_keys: np.ndarray, values: np.ndarray, attrs: dict) -> Table | None:
    query_codes, query_uniques = factorize_grouped_keys(query_keys)
    del query_keys
    doc_codes, doc_uniques = factorize_keys(doc_keys)
    del doc_keys
    table = Table(
        query_codes, key_names(query_uniques), doc_codes, KeyNames(doc_uniques), values, attrs, doc_uniques
    )
    if first_duplicate(table) is not None:
        return None
    return table


def _digit_values(buf: np.ndarray, starts: np.ndarray, lengths: np.ndarray, fraction: bool):
    """Vectorised parse of ``[+-]digits[.digits]`` tokens (``.digits`` only if ``fraction``).

    Returns (mantissa, decimals, negative, simple) where ``simple`` marks the tokens of
    that form with at most _DIGIT_LIMIT digits; the others are left to the caller.
    """
    parts = [
        _digit_rows(buf, starts[begin : begin + _ROWS], lengths[begin : begin + _ROWS], fraction)
        for begin in range(0, len(starts), _ROWS)
    ]
    return tuple(np.concatenate(column) for column in zip(*parts))


def _digit_rows(buf: np.ndarray, starts: np.ndarray, lengths: np.ndarray, fraction: bool):  # type: ignore[no-untyped-def]
    n = len(buf)
    rows = len(starts)
    mantissa = np.zeros(rows, dtype=np.int64)
    digits = np.zeros(rows, dtype=np.int8)
    decimals = np.zeros(rows, dtype=np.int8)
    dots = np.zeros(rows, dtype=np.int8)
    simple = lengths <= 2 * _DIGIT_LIMIT  # counters stay small
    negative = np.zeros(rows, dtype=bool)
    at = starts.astype(np.int64)
    for k in range(min(int(lengths.max(initial=0)), 2 * _DIGIT_LIMIT)):
        inside = lengths > k
        byte = buf[np.minimum(at + k, n - 1)]
        digit = (byte >= 0x30) & (byte <= 0x39) & inside
        if k == 0:
            sign = (byte == 0x2B) | (byte == 0x2D)
            negative = byte == 0x2D
        else:
            sign = np.zeros(rows, dtype=bool)
        dot = (byte == 0x2E) & inside if fraction else np.zeros(rows, dtype=bool)
        simple &= digit | dot | sign | ~inside
        mantissa[digit] = mantissa[digit] * 10 + (byte[digit] - 0x30)
        decimals += digit & (dots > 0)
        digits += digit
        dots += dot
    simple &= (dots <= 1) & (digits >= 1) & (digits <= _DIGIT_LIMIT)
    return mantissa, decimals, negative, simple


_POWERS_OF_TEN = np.array([float(10**i) for i in range(_DIGIT_LIMIT + 1)])
