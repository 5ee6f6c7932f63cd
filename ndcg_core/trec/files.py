r"""TREC qrels and run files: readers with line-numbered errors, and one topic's ranking.

A **qrels** line judges one document for one topic; a **run** line scores one retrieved
document::

    301 0 FR940202-2-00150 2                       QID ITER DOCID REL
    301 Q0 FR940202-2-00150 1 2.129133 STANDARD    QID Q0 DOCID RANK SCORE RUN

Fields are separated by spaces or tabs; blank lines and lines whose first non-blank
character is ``#`` are skipped. A qrels line has exactly four fields and an integer
label. A run line has at least six fields (trec_eval ignores any after the sixth, and so
do we); its score must be a finite number. A document may appear once per topic in
each file (trec_eval stops with "duplicate docs" too). Anything else is a
:class:`QrelsFormatError` naming the file and the line, so nothing is silently dropped.

Both readers take a path (``str`` without a newline, or :class:`os.PathLike`), a file
object (text or binary), ``bytes`` (an upload) or inline text (a ``str`` holding at least
one newline). They return :class:`pandas.DataFrame` objects:

=========  ==========================================  ============================
reader     columns                                     ``attrs``
=========  ==========================================  ============================
qrels      ``query_id``, ``doc_id``, ``relevance``      ``source``
run        ``query_id``, ``doc_id``, ``score``          ``source``, ``run_id``
=========  ==========================================  ============================

Files of printable ASCII are split by numpy on their bytes (a large run as two halves at
once), with no string made for any id; other files go through pandas' C parser. Only when
that fails (or a check on its result does) is the file read again line by line, to name
the offending line.

How a run becomes a ranking (trec_eval's rule, used by :func:`ranked_labels` and by
:func:`ndcg_core.evaluate.evaluate_run`): documents are ordered by score, highest first;
equal scores are ordered by document id *descending* in byte order (C ``strcmp``); the
rank column of the file is ignored.
"""

from __future__ import annotations

import csv
import io
import math
import mmap
import os
import re
import warnings
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from numbers import Integral, Real
from typing import IO, NamedTuple, Union

import numpy as np
from .._lazy import pd


__all__ = [
    "QrelsFormatError",
    "QRELS_FORMAT",
    "RUN_FORMAT",
    "read_qrels",
    "read_run",
    "qrels_frame",
    "run_frame",
    "ranked_labels",
    "RankedTopic",
]

QRELS_FORMAT = "QID ITER DOCID REL"
RUN_FORMAT = "QID Q0 DOCID RANK SCORE RUN"

Source = Union[str, "os.PathLike[str]", bytes, IO[str], IO[bytes]]

_INTEGER = re.compile(r"[+-]?\d+")
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_SPLIT = re.compile(r"[ \t]+")
_COMMENT_LINE = re.compile(rb"^[ \t]*#[^\r\n]*(?:\r\n|\r|\n|$)", re.MULTILINE)
_INT64_MAX = np.iinfo(np.int64).max


class QrelsFormatError(ValueError):
    """A qrels or run file that cannot be read.

    The message has the form ``<file>, line N: <what is wrong> (expected '<format>')``.
    ``source`` and ``line`` hold the file name and the 1-based line number (``line`` is
    None for a problem with the whole file).
    """

    __module__ = "ndcg_core.trec"  # its public home, as tracebacks and pickles name it

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None):
        super().__init__(message)
        self.source = source
        self.line = line


def _error(display: str, line: int | None, what: str, expected: str) -> QrelsFormatError:
    where = display if line is None else f"{display}, line {line}"
    return QrelsFormatError(f"{where}: {what} (expected '{expected}')", source=display, line=line)


# --------------------------------------------------------------------------- loading


def _load(source: object, name: str | None, kind: str, max_bytes: int | None = None) -> tuple[bytes, str]:
    """The raw bytes of a source and the name used in messages."""
    data, display = _raw(source, name, kind, max_bytes)
    if max_bytes is not None and len(data) > max_bytes:
        raise _too_large(display, len(data), max_bytes, kind)
    return data, display


def _too_large(display: str, size: int, max_bytes: int, kind: str) -> QrelsFormatError:
    expected = QRELS_FORMAT if kind == "qrels" else RUN_FORMAT
    return _error(
        display, None,
        f"the file has {size:,} bytes, more than the {max_bytes:,} allowed here; "
        "evaluate large files with the ndcg-eval command",
        expected,
    )


def _raw(source: object, name: str | None, kind: str, max_bytes: int | None) -> tuple[bytes, str]:
    if isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source):
        path = os.fspath(source)  # type: ignore[arg-type]
        if not path:
            raise ValueError(
                f"{kind} must be a path, a file object, bytes or text; got an empty string. "
                f"Give the path of the {kind} file, or its text (with one line per entry)."
            )
        display = name or str(path)
        if max_bytes is not None and os.path.getsize(path) > max_bytes:
            raise _too_large(display, os.path.getsize(path), max_bytes, kind)
        with open(path, "rb") as handle:
            return handle.read(), display
    if isinstance(source, str):
        return source.encode("utf-8"), name or f"<{kind} text>"
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), name or f"<{kind} bytes>"
    if hasattr(source, "read"):
        content = source.read()  # type: ignore[union-attr]
        display = name or str(getattr(source, "name", f"<{kind} file>"))
        if isinstance(content, str):
            return content.encode("utf-8"), display
        if isinstance(content, (bytes, bytearray)):
            return bytes(content), display
        raise TypeError(
            f"{kind} file object must return text or bytes from read(); got {type(content).__name__}."
        )
    raise TypeError(
        f"{kind} must be a path, a file object, bytes or text; got {source!r} ({type(source).__name__}). "
        f"Pass the path of the {kind} file, e.g. read_{kind}('data/toy/qrels.txt')."
    )


def _strip_comments(data: bytes) -> bytes:
    if b"#" in data and _COMMENT_LINE.search(data):
        return _COMMENT_LINE.sub(b"", data)
    return data


def _parser_input(source: object, name: str | None, kind: str, max_bytes: int | None):  # type: ignore[no-untyped-def]
    """What the fast parser reads, the name for messages, and a loader of the raw bytes.

    A file without comment lines is handed to pandas by path (no copy of it in memory);
    anything else as bytes, comment lines removed. The loader gives the slow reader the
    original bytes, so its line numbers are the file's.
    """
    if isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source and source):
        path = os.fspath(source)  # type: ignore[arg-type]
        display = name or str(path)
        size = os.path.getsize(path)
        if max_bytes is not None and size > max_bytes:
            raise _too_large(display, size, max_bytes, kind)

        def load() -> bytes:
            with open(path, "rb") as handle:
                return handle.read()

        if size == 0:
            return b"", display, load
        with open(path, "rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as view:
            has_comments = view.find(b"#") >= 0 and _COMMENT_LINE.search(view) is not None  # type: ignore[call-overload]
        if has_comments:
            return _strip_comments(load()), display, load
        return str(path), display, load
    data, display = _load(source, name, kind, max_bytes)
    return _strip_comments(data), display, lambda: data


def _read_c(data: bytes | str, names: list[str], usecols: list[str] | None, dtype: object) -> pd.DataFrame | None:
    """pandas' C parser on whitespace-separated text (bytes, or a file path); None when it rejects it."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            frame = pd.read_csv(
                io.BytesIO(data) if isinstance(data, bytes) else data,
                sep=r"\s+",
                header=None,
                names=names,
                usecols=usecols,
                dtype=dtype,
                quoting=csv.QUOTE_NONE,
                na_filter=False,
                encoding="utf-8",
                engine="c",
            )
    except (ValueError, UnicodeDecodeError, pd.errors.ParserError, pd.errors.EmptyDataError, OverflowError):
        return None
    if not isinstance(frame.index, pd.RangeIndex):  # a first line with too many fields
        return None
    return frame


def _lines(data: bytes, display: str, expected: str):
    """Yield (line number, fields) of every content line, decoding each as UTF-8."""
    for number, raw in enumerate(data.splitlines(), start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise _error(
                display, number, "the line is not UTF-8 text; save the file as UTF-8", expected
            ) from None
        stripped = line.strip(" \t")
        if not stripped or stripped.startswith("#"):
            continue
        yield number, _SPLIT.split(stripped)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# --------------------------------------------------------------------------- tables


class _Table(NamedTuple):
    """A checked qrels or run: ids as codes into unique names, one value per row."""

    query_codes: np.ndarray
    query_names: np.ndarray
    doc_codes: np.ndarray
    doc_names: np.ndarray
    values: np.ndarray
    attrs: dict
    #: doc_names' keys (see _id_keys), when the fast reader made them: rows in byte order,
    #: so doc codes compare as the ids do; doc_names is then a _KeyNames (strings made on
    #: first use)
    doc_keys: np.ndarray | None = None


def _codes(codes: np.ndarray) -> np.ndarray:
    """Codes in the smallest of int32/int64 that holds them (halves the memory of a big run)."""
    small = len(codes) == 0 or int(codes.max(initial=0)) < np.iinfo(np.int32).max
    return codes.astype(np.int32 if small else np.int64, copy=False)


def _encode(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Codes and unique names, both in the ids' order (code-point order is UTF-8 byte
    order), as the fast reader's keys give them."""
    codes, names = pd.factorize(values, sort=True)
    return _codes(codes), np.asarray(names, dtype=object)


def _encode_grouped(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """_encode for a column written in runs of equal values (topic ids): hash one per run."""
    if len(values) < 2:
        return _encode(values)
    change = np.empty(len(values), dtype=bool)
    change[0] = True
    np.not_equal(values[1:], values[:-1], out=change[1:])
    heads = np.flatnonzero(change)
    head_codes, names = _encode(values[heads])
    return _codes(np.repeat(head_codes, np.diff(np.append(heads, len(values))))), names


def _make_table(queries: np.ndarray, docs: np.ndarray, values: np.ndarray, attrs: dict | None = None) -> _Table:
    query_codes, query_names = _encode_grouped(queries)
    doc_codes, doc_names = _encode(docs)
    return _Table(query_codes, query_names, doc_codes, doc_names, values, dict(attrs or {}))


def _first_duplicate(table: _Table) -> int | None:
    """Row of the first (topic, document) pair seen before, or None.

    One sort of the pairs' integer keys answers "any duplicate?"; only when there is one
    does a stable argsort find which row repeats first.
    """
    if len(table.values) < 2:
        return None
    keys = table.query_codes.astype(np.int64) * max(len(table.doc_names), 1) + table.doc_codes
    ordered = np.sort(keys)
    if not (ordered[1:] == ordered[:-1]).any():
        return None
    order = np.argsort(keys, kind="stable")  # equal keys keep their rows' order
    ordered = keys[order]
    repeats = order[1:][ordered[1:] == ordered[:-1]]
    return int(repeats.min())


def _categorical(codes: np.ndarray, names: np.ndarray) -> pd.Categorical:
    """A categorical of unique ``names`` (from pd.factorize) without re-checking them.

    The public ``from_codes`` hashes every category again to check uniqueness, which on a
    run of a million documents costs as much as the factorisation itself. The names come
    from ``pd.factorize`` and are unique by construction, so pandas' own fast path is used
    when it exists; any change in it falls back to ``from_codes``.
    """
    categories = pd.Index(names, dtype=object)
    n = len(categories)
    small = np.int8 if n < 2**7 else np.int16 if n < 2**15 else np.int32 if n < 2**31 else np.int64
    try:
        dtype = pd.CategoricalDtype._from_fastpath(categories, ordered=False)  # type: ignore[attr-defined]
        result = pd.Categorical._simple_new(codes.astype(small, copy=False), dtype)  # type: ignore[attr-defined]
        if isinstance(result, pd.Categorical) and len(result) == len(codes):
            return result
    except (AttributeError, TypeError, ValueError):
        pass
    return pd.Categorical.from_codes(codes, categories=categories)


def _to_frame(table: _Table, value_name: str) -> pd.DataFrame:
    frame = pd.DataFrame(
        {
            "query_id": _categorical(table.query_codes, table.query_names),
            "doc_id": _categorical(table.doc_codes, _names(table.doc_names)),
            value_name: table.values,
        },
        copy=False,
    )
    frame.attrs.update(table.attrs)
    return frame


# --------------------------------------------------------------------------- the vectorised reader
#
# A well-formed file (printable ASCII ids and numbers, fields separated by spaces or tabs,
# lines by "\n") is split by numpy on its bytes, block by block. Each id becomes a
# *key*: its bytes packed big-endian into 64-bit words, zero-padded (ids hold no NUL
# byte, so the packing is one-to-one), and integer order of the keys is strcmp's byte
# order. Keys are hashed as integers, and evaluate_run joins and breaks ties on them
# without touching a string. Anything else (other bytes, a short line, a token that is
# not a plain number) returns None, and the file goes to the general readers below.

_BLOCK = 1 << 20  # bytes split at a time
_ROWS = 1 << 17  # rows keyed or parsed at a time
_MAX_ID_WORDS = 8  # ids up to 64 bytes get keys
_DIGIT_LIMIT = 15  # up to 15 digits a mantissa is exact and m / 10**f is correctly rounded


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


def _factorize_keys(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Codes and the unique keys, both in the ids' byte order (code 0 is the smallest id).

    Because the codes follow strcmp's order, joins are merges of sorted arrays and ties
    are broken by comparing codes: no string is compared anywhere.
    """
    if len(keys) == 0:
        return np.zeros(0, dtype=np.int32), keys[:0]
    codes: np.ndarray | None = None
    for w in range(keys.shape[1]):
        uniques, sub = np.unique(keys[:, w], return_inverse=True)
        if codes is None:
            codes = sub.astype(np.int64, copy=False)
        else:  # (codes so far, this word) in lexicographic order, renumbered densely
            _, codes = np.unique(codes * len(uniques) + sub, return_inverse=True)
    assert codes is not None
    first = np.empty(int(codes.max()) + 1, dtype=np.intp)
    first[codes] = np.arange(len(codes))  # some row of each code
    return _codes(codes), keys[first]


def _factorize_grouped_keys(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """_factorize_keys for ids written in runs of equal values (topic ids)."""
    if len(keys) < 2:
        return _factorize_keys(keys)
    change = np.empty(len(keys), dtype=bool)
    change[0] = True
    np.any(keys[1:] != keys[:-1], axis=1, out=change[1:])
    heads = np.flatnonzero(change)
    head_codes, uniques = _factorize_keys(keys[heads])
    return _codes(np.repeat(head_codes, np.diff(np.append(heads, len(keys))))), uniques


def _key_names(keys: np.ndarray) -> np.ndarray:
    """The ids (str, object array) of keys, made a slice at a time."""
    names = np.empty(len(keys), dtype=object)
    width = 8 * keys.shape[1]
    for begin in range(0, len(keys), 1 << 16):
        packed = np.ascontiguousarray(keys[begin : begin + (1 << 16)].astype(">u8"))
        names[begin : begin + len(packed)] = packed.view(f"S{width}").ravel().astype(f"U{width}")
    return names


class _KeyNames:
    """Document ids kept as their keys, made into str objects only when first needed.

    A million ids cost a tenth of a second and about 50 MB as Python strings; ndcg-eval
    joins, ranks and prints without them (only ``--explain`` and the DataFrames need them).
    Indexing and ``numpy.asarray`` give the object array of names.
    """

    __slots__ = ("keys", "_names")

    def __init__(self, keys: np.ndarray):
        self.keys = keys
        self._names: np.ndarray | None = None

    def names(self) -> np.ndarray:
        if self._names is None:
            self._names = _key_names(self.keys)
        return self._names

    def __len__(self) -> int:
        return len(self.keys)

    def __getitem__(self, item):  # type: ignore[no-untyped-def]
        return self.names()[item]

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.names())

    def __array__(self, dtype=None, copy=None):  # type: ignore[no-untyped-def]
        names = self.names()
        return names if dtype is None else names.astype(dtype)


def _names(names: np.ndarray | _KeyNames) -> np.ndarray:
    return names.names() if isinstance(names, _KeyNames) else names


def _key_table(query_keys: np.ndarray, doc_keys: np.ndarray, values: np.ndarray, attrs: dict) -> _Table | None:
    query_codes, query_uniques = _factorize_grouped_keys(query_keys)
    del query_keys
    doc_codes, doc_uniques = _factorize_keys(doc_keys)
    del doc_keys
    table = _Table(
        query_codes, _key_names(query_uniques), doc_codes, _KeyNames(doc_uniques), values, attrs, doc_uniques
    )
    if _first_duplicate(table) is not None:
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


def _ascii_qrels(data: bytes) -> _Table | None:
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


def _ascii_run(data: bytes) -> _Table | None:
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


#: files from this size on are parsed as two halves at once
_PARALLEL_BYTES = 1 << 22


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
        if not _NUMBER.fullmatch(token):
            return None
        scores[row] = float(token)
    if not np.isfinite(scores).all():
        return None
    run_id = data[run_start : run_start + run_length].decode("ascii")
    query_keys, doc_keys = _id_keys(buf, *fields[0]), _id_keys(buf, *fields[1])
    if query_keys is None or doc_keys is None:
        return None
    return query_keys, doc_keys, scores, run_id


# --------------------------------------------------------------------------- qrels


def _parse_relevance(token: str, display: str, number: int) -> int:
    if not _INTEGER.fullmatch(token):
        raise _error(display, number, f"relevance {token!r} is not an integer", QRELS_FORMAT)
    value = int(token)
    if abs(value) > _INT64_MAX:
        raise _error(display, number, f"relevance {token!r} is too large for a label", QRELS_FORMAT)
    return value


def _scan_qrels(data: bytes, display: str) -> _Table:
    """The slow, line-by-line reader: raises at the first bad line."""
    queries: list[str] = []
    docs: list[str] = []
    labels: list[int] = []
    seen: dict[tuple[str, str], int] = {}
    for number, fields in _lines(data, display, QRELS_FORMAT):
        if len(fields) != 4:
            raise _error(
                display, number,
                f"found {_plural(len(fields), 'field')}, a qrels line has exactly 4", QRELS_FORMAT,
            )
        query_id, _, doc_id, token = fields
        label = _parse_relevance(token, display, number)
        first = seen.setdefault((query_id, doc_id), number)
        if first != number:
            raise _error(
                display, number,
                f"document {doc_id!r} is judged twice for topic {query_id!r} (first on line {first}); "
                "keep one judgment per document",
                QRELS_FORMAT,
            )
        queries.append(query_id)
        docs.append(doc_id)
        labels.append(label)
    if not queries:
        raise _error(display, None, "no qrels lines found", QRELS_FORMAT)
    return _make_table(
        np.array(queries, dtype=object), np.array(docs, dtype=object), np.array(labels, dtype=np.int64)
    )


def _file_bytes(data: bytes | str) -> bytes:
    if isinstance(data, bytes):
        return data
    with open(data, "rb") as handle:
        return handle.read()


def _fast_qrels(data: bytes | str) -> _Table | None:
    table = _ascii_qrels(_file_bytes(data))
    if table is not None:
        return table
    frame = _read_c(data, ["query_id", "iter", "doc_id", "relevance"], None, object)
    if frame is None or len(frame) == 0:
        return None
    codes, uniques = pd.factorize(frame["relevance"].to_numpy())
    values = np.empty(len(uniques), dtype=np.int64)
    for i, token in enumerate(uniques):
        if not _INTEGER.fullmatch(token) or abs(int(token)) > _INT64_MAX:
            return None
        values[i] = int(token)
    docs = frame["doc_id"].to_numpy()
    table = _make_table(frame["query_id"].to_numpy(), docs, values[codes])
    if (table.doc_names == "").any() or _first_duplicate(table) is not None:
        return None
    return table


def read_qrels(source: Source, *, name: str | None = None, max_bytes: int | None = None) -> pd.DataFrame:
    """Read a TREC qrels file: one ``QID ITER DOCID REL`` line per judged document.

    Parameters
    ----------
    source : path, file object, bytes or str
        A path (a ``str`` without a newline, or :class:`os.PathLike`), an open file, the
        bytes of an upload, or the text itself (a ``str`` with at least one newline).
    name : str, optional
        The file name used in error messages (default: the path, the file object's name,
        or ``<qrels text>``).
    max_bytes : int, optional
        Refuse a larger file (an upload limit), with a message naming the size.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id`` and ``doc_id`` (categorical: each id stored once) and
        ``relevance`` (int), one row per line in file order; ``attrs["source"]`` is the
        name. A negative label is kept as it is: trec_eval reads it as "in the pool but
        not judged" (no gain, not in the ideal list, removed by condensing).

    Raises
    ------
    QrelsFormatError
        ``<file>, line N: ...`` for a line without exactly four fields, a label that is
        not an integer, or a document judged twice for one topic; ``<file>: ...`` for a
        file without any qrels line.

    Examples
    --------
    >>> qrels = read_qrels("q1 0 d1 2\\nq1 0 d2 0\\n# a comment\\nq2 0 d1 1\\n")
    >>> qrels.to_dict("list")
    {'query_id': ['q1', 'q1', 'q2'], 'doc_id': ['d1', 'd2', 'd1'], 'relevance': [2, 0, 1]}
    >>> read_qrels("q1 0 d1 H\\n", name="toy.qrels")
    Traceback (most recent call last):
    ...
    ndcg_core.trec.QrelsFormatError: toy.qrels, line 1: relevance 'H' is not an integer (expected 'QID ITER DOCID REL')
    """
    return _to_frame(_qrels_table(source, name=name, max_bytes=max_bytes), "relevance")


def _qrels_table(source: Source, *, name: str | None = None, max_bytes: int | None = None) -> _Table:
    """read_qrels without the DataFrame: the checked table (evaluate_run takes it as it is)."""
    return _read_table(source, name, max_bytes, "qrels", _fast_qrels, _scan_qrels)


def _read_table(source, name, max_bytes, kind, fast, scan) -> _Table:  # type: ignore[no-untyped-def]
    """The fast reader's table or, when it declines the file, the line reader's (which
    raises at the first bad line); ``attrs["source"]`` is the name used in messages."""
    data, display, load = _parser_input(source, name, kind, max_bytes)
    table = fast(data) if data else None
    if table is None:
        del data
        table = scan(load(), display)
    table.attrs["source"] = display
    return table


# --------------------------------------------------------------------------- runs


def _parse_score(token: str, display: str, number: int) -> float:
    if not _NUMBER.fullmatch(token):
        if token.lower().lstrip("+-") in ("nan", "inf", "infinity"):
            raise _error(display, number, f"score {token!r} is not a finite number", RUN_FORMAT)
        raise _error(display, number, f"score {token!r} is not a number", RUN_FORMAT)
    value = float(token)
    if not math.isfinite(value):
        raise _error(display, number, f"score {token!r} is too large to be a number", RUN_FORMAT)
    return value


def _scan_run(data: bytes, display: str) -> _Table:
    """The slow, line-by-line reader: raises at the first bad line."""
    queries: list[str] = []
    docs: list[str] = []
    scores: list[float] = []
    run_id = ""
    seen: dict[tuple[str, str], int] = {}
    for number, fields in _lines(data, display, RUN_FORMAT):
        if len(fields) < 6:
            raise _error(
                display, number,
                f"found {_plural(len(fields), 'field')}, a run line has at least 6", RUN_FORMAT,
            )
        query_id, _, doc_id, _, token, run_id = fields[:6]
        score = _parse_score(token, display, number)
        first = seen.setdefault((query_id, doc_id), number)
        if first != number:
            raise _error(
                display, number,
                f"document {doc_id!r} is retrieved twice for topic {query_id!r} (first on line {first}); "
                "keep one line per document and topic",
                RUN_FORMAT,
            )
        queries.append(query_id)
        docs.append(doc_id)
        scores.append(score)
    if not queries:
        raise _error(display, None, "no run lines found", RUN_FORMAT)
    return _make_table(
        np.array(queries, dtype=object),
        np.array(docs, dtype=object),
        np.array(scores, dtype=float),
        {"run_id": run_id},
    )


def _fast_run(data: bytes | str) -> _Table | None:
    table = _ascii_run(_file_bytes(data))
    if table is not None:
        return table
    names = ["query_id", "q0", "doc_id", "rank", "score", "run_id"]
    frame = _read_c(
        data,
        names,
        ["query_id", "doc_id", "score", "run_id"],
        {"query_id": object, "doc_id": object, "score": np.float64, "run_id": object},
    )
    if frame is None or len(frame) == 0:
        return None
    scores = frame["score"].to_numpy(dtype=float)
    if not np.isfinite(scores).all():
        return None
    run_ids = frame.pop("run_id").to_numpy()
    if (run_ids == "").any():  # a line with fewer than six fields
        return None
    run_id = str(run_ids[-1])
    del run_ids
    # encode column by column, letting each column of strings go as soon as it is coded
    query_codes, query_names = _encode_grouped(frame.pop("query_id").to_numpy())
    doc_codes, doc_names = _encode(frame.pop("doc_id").to_numpy())
    del frame
    table = _Table(query_codes, query_names, doc_codes, doc_names, scores, {"run_id": run_id})
    if _first_duplicate(table) is not None:
        return None
    return table


def read_run(source: Source, *, name: str | None = None, max_bytes: int | None = None) -> pd.DataFrame:
    """Read a TREC run file: one ``QID Q0 DOCID RANK SCORE RUN`` line per retrieved document.

    Parameters
    ----------
    source : path, file object, bytes or str
        As in :func:`read_qrels`.
    name : str, optional
        The file name used in error messages.
    max_bytes : int, optional
        Refuse a larger file (an upload limit).

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id`` and ``doc_id`` (categorical) and ``score`` (float), in file
        order. ``attrs["run_id"]`` is the sixth field of the last line (what trec_eval
        prints as ``runid``); ``attrs["source"]`` is the name. The ITER and RANK fields
        are not kept: the ranking comes from the scores (see the module docstring).

    Raises
    ------
    QrelsFormatError
        ``<file>, line N: ...`` for a line with fewer than six fields, a score that is
        not a finite number, or a document retrieved twice for one topic.

    Examples
    --------
    >>> run = read_run("q1 Q0 d1 1 2.5 mine\\nq1 Q0 d2 2 1.5 mine extra fields are ignored\\n")
    >>> run.to_dict("list"), run.attrs["run_id"]
    ({'query_id': ['q1', 'q1'], 'doc_id': ['d1', 'd2'], 'score': [2.5, 1.5]}, 'mine')
    >>> read_run("q1 Q0 d1 1 high mine\\n", name="my.run")
    Traceback (most recent call last):
    ...
    ndcg_core.trec.QrelsFormatError: my.run, line 1: score 'high' is not a number (expected 'QID Q0 DOCID RANK SCORE RUN')
    """
    return _to_frame(_run_table(source, name=name, max_bytes=max_bytes), "score")


def _run_table(source: Source, *, name: str | None = None, max_bytes: int | None = None) -> _Table:
    """read_run without the DataFrame: the checked table (evaluate_run takes it as it is)."""
    return _read_table(source, name, max_bytes, "run", _fast_run, _scan_run)


# --------------------------------------------------------------------------- in-memory forms


def _id_column(frame: pd.DataFrame, column: str, kind: str) -> tuple[np.ndarray, np.ndarray]:
    series = frame[column]
    missing = series.isna().to_numpy()
    if missing.any():
        row = int(np.flatnonzero(missing)[0])
        raise ValueError(
            f"{kind} {column} must be given on every row; row {row} has none. "
            "Drop incomplete rows before evaluating."
        )
    if isinstance(series.dtype, pd.CategoricalDtype):
        names = np.asarray(series.cat.categories, dtype=object)
        if pd.api.types.infer_dtype(names, skipna=False) != "string":
            names = np.array([str(name) for name in names], dtype=object)
        return _codes(series.cat.codes.to_numpy()), names
    values = series.to_numpy(dtype=object)
    if pd.api.types.infer_dtype(values, skipna=False) != "string":
        values = series.astype(str).to_numpy(dtype=object)
    return _encode(values)


def _table_from(obj: object, kind: str, value_name: str) -> tuple[_Table, np.ndarray]:
    """The table of a frame or dict, and the raw values (unchecked)."""
    columns = ["query_id", "doc_id", value_name]
    example = (
        "{'q1': {'d1': 2, 'd2': 0}}" if kind == "qrels" else "{'q1': {'d1': 2.5, 'd2': 1.0}}"
    )
    if isinstance(obj, pd.DataFrame):
        missing = [c for c in columns if c not in obj.columns]
        if missing:
            raise ValueError(
                f"{kind} must have columns {', '.join(columns)}; the table lacks {', '.join(missing)}. "
                f"Read files with read_{kind}(), which names the columns."
            )
        query_codes, query_names = _id_column(obj, "query_id", kind)
        doc_codes, doc_names = _id_column(obj, "doc_id", kind)
        raw = obj[value_name].to_numpy()
        return _Table(query_codes, query_names, doc_codes, doc_names, raw, dict(obj.attrs)), raw
    if isinstance(obj, Mapping):
        queries: list[str] = []
        docs: list[str] = []
        values: list[object] = []
        for query_id, judged in obj.items():
            if not isinstance(judged, Mapping):
                raise TypeError(
                    f"{kind}[{query_id!r}] must be a {{doc_id: {value_name}}} dict; "
                    f"got {judged!r} ({type(judged).__name__}). Write {kind} as {example}."
                )
            for doc_id, value in judged.items():
                queries.append(str(query_id))
                docs.append(str(doc_id))
                values.append(value)
        raw = np.array(values, dtype=object)
        table = _make_table(np.array(queries, dtype=object), np.array(docs, dtype=object), raw)
        return table, raw
    raise TypeError(
        f"{kind} must be a table from read_{kind}() or a {{query_id: {{doc_id: {value_name}}}}} dict; "
        f"got {type(obj).__name__}. Write {kind} as {example}."
    )


def _where(table: _Table, row: int) -> str:
    return f"topic {table.query_names[table.query_codes[row]]!r}, document {table.doc_names[table.doc_codes[row]]!r}"


def _check_values(table: _Table, raw: np.ndarray, kind: str) -> np.ndarray:
    if kind == "qrels":
        if raw.dtype.kind in "iu":
            return raw.astype(np.int64)
        for i, value in enumerate(raw):
            if isinstance(value, (bool, np.bool_)) or not (
                isinstance(value, Integral) or (isinstance(value, Real) and float(value).is_integer())
            ):
                raise TypeError(
                    f"qrels relevance for {_where(table, i)} must be an integer; "
                    f"got {value!r} ({type(value).__name__}). TREC labels are whole numbers such as 0, 1, 2, 3."
                )
        return raw.astype(np.int64)
    if raw.dtype.kind not in "iuf":
        for i, value in enumerate(raw):
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, Real):
                raise TypeError(
                    f"run score for {_where(table, i)} must be a number; got {value!r} ({type(value).__name__})."
                )
    scores = raw.astype(float)
    bad = ~np.isfinite(scores)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"run score for {_where(table, i)} must be a finite number; got {raw[i]!r}.")
    return scores


def _table(obj: object, kind: str) -> _Table:
    """Check a qrels or run (frame or dict) and return it as codes and values.

    A table from the readers (``_qrels_table``, ``_run_table``) is checked already.
    """
    if isinstance(obj, _Table):
        return obj
    value_name = "relevance" if kind == "qrels" else "score"
    table, raw = _table_from(obj, kind, value_name)
    table = table._replace(values=_check_values(table, raw, kind))
    duplicate = _first_duplicate(table)
    if duplicate is not None:
        raise ValueError(
            f"{kind} lists {_where(table, duplicate)} twice; keep one entry per document and topic."
        )
    return table


def qrels_frame(qrels: object) -> pd.DataFrame:
    """Qrels as the table :func:`read_qrels` returns, from that table or a dict of dicts.

    Accepts ``{query_id: {doc_id: relevance}}`` (the form pytrec_eval, ir_measures and
    ranx use) and checks that every label is an integer and no document is listed twice.

    Examples
    --------
    >>> qrels_frame({"q1": {"d1": 2, "d2": 0}}).to_dict("list")
    {'query_id': ['q1', 'q1'], 'doc_id': ['d1', 'd2'], 'relevance': [2, 0]}
    """
    return _to_frame(_table(qrels, "qrels"), "relevance")


def run_frame(run: object) -> pd.DataFrame:
    """A run as the table :func:`read_run` returns, from that table or a dict of dicts.

    Accepts ``{query_id: {doc_id: score}}`` and checks that every score is a finite number.

    Examples
    --------
    >>> run_frame({"q1": {"d1": 2.5, "d2": 1}}).to_dict("list")
    {'query_id': ['q1', 'q1'], 'doc_id': ['d1', 'd2'], 'score': [2.5, 1.0]}
    """
    return _to_frame(_table(run, "run"), "score")


# --------------------------------------------------------------------------- one topic


class RankedTopic(NamedTuple):
    """One topic of a run, in trec_eval's order, with its qrels labels.

    ``labels[i]`` is the qrels label of ``doc_ids[i]`` (rank i + 1), or None when the
    document is unjudged: absent from the qrels, or listed there with a negative label
    (trec_eval: "in the pool but not judged"). ``judgments`` holds the labels of every
    judged document of the topic (label 0 or more), largest first: the ideal list's
    source. ``qrels_labels`` keeps the raw qrels value (negative ones included; None when
    absent).
    """

    query_id: str
    doc_ids: list[str]
    scores: list[float]
    labels: list[int | None]
    judgments: list[int]
    qrels_labels: list[int | None]


def ranked_labels(qrels: object, run: object, query_id: object) -> RankedTopic:
    """The ranked list of one topic of a run, with each document's qrels label.

    Order: score descending; equal scores by document id descending in byte order
    (C ``strcmp``, as trec_eval); the run's rank column plays no part. This is the
    readable reference for the vectorised :func:`ndcg_core.evaluate.evaluate_run`.

    Parameters
    ----------
    qrels, run : table or dict
        As returned by :func:`read_qrels` / :func:`read_run`, or dicts of dicts.
    query_id : str
        The topic. A topic the run does not retrieve for gives an empty list.

    Examples
    --------
    Three documents tie on score 1.0; trec_eval ranks d3, d2, d1:

    >>> qrels = {"q1": {"d1": 2, "d2": 0, "d3": 1, "d9": 3}}
    >>> run = {"q1": {"d1": 1.0, "d2": 1.0, "d3": 1.0, "d4": 2.0}}
    >>> topic = ranked_labels(qrels, run, "q1")
    >>> topic.doc_ids, topic.labels, topic.judgments
    (['d4', 'd3', 'd2', 'd1'], [None, 1, 0, 2], [3, 2, 1, 0])
    """
    return _ranked_topic(_table(qrels, "qrels"), _table(run, "run"), str(query_id))


def _rows_of(table: _Table, query: str) -> np.ndarray:
    codes = np.flatnonzero(table.query_names == query)
    if len(codes) == 0:
        return np.zeros(0, dtype=np.intp)
    return np.flatnonzero(np.isin(table.query_codes, codes))


def _ranked_topic(qrels: _Table, run: _Table, query: str) -> RankedTopic:
    """ranked_labels on checked tables (the evaluator's explain uses it)."""
    judged = _rows_of(qrels, query)
    label_of = dict(
        zip(qrels.doc_names[qrels.doc_codes[judged]].tolist(), qrels.values[judged].tolist())
    )
    rows = _rows_of(run, query)
    pairs = zip(run.values[rows].tolist(), run.doc_names[run.doc_codes[rows]].tolist())
    # Python orders str by code point: the UTF-8 byte order that strcmp uses.
    ranked = sorted(pairs, reverse=True)
    doc_ids = [doc for _, doc in ranked]
    raw = [label_of.get(doc) for doc in doc_ids]
    labels = [None if label is None or label < 0 else int(label) for label in raw]
    judgments = sorted((int(label) for label in label_of.values() if label >= 0), reverse=True)
    return RankedTopic(query, doc_ids, [float(score) for score, _ in ranked], labels, judgments, raw)
