r"""TREC qrels and run files: the readers, and which of them reads a given file.

A **qrels** line judges one document for one topic; a **run** line scores one retrieved
document::

    301 0 FR940202-2-00150 2                       QID ITER DOCID REL
    301 Q0 FR940202-2-00150 1 2.129133 STANDARD    QID Q0 DOCID RANK SCORE RUN

Fields are separated by spaces or tabs; blank lines and lines whose first non-blank
character is ``#`` are skipped. A qrels line has exactly four fields and an integer
label. A run line has at least six fields (trec_eval ignores any after the sixth, and so
do we); its score must be a finite number. A document may appear once per topic in
each file (trec_eval stops with "duplicate docs" too). Anything else is a
:class:`~ndcg_core.trec.QrelsFormatError` naming the file and the line, so nothing is
silently dropped.

Both readers take a path (``str`` without a newline, or :class:`os.PathLike`), a file
object (text or binary), ``bytes`` (an upload) or inline text (a ``str`` holding at least
one newline). They return :class:`pandas.DataFrame` objects:

=========  ==========================================  ============================
reader     columns                                     ``attrs``
=========  ==========================================  ============================
qrels      ``query_id``, ``doc_id``, ``relevance``      ``source``
run        ``query_id``, ``doc_id``, ``score``          ``source``, ``run_id``
=========  ==========================================  ============================

:func:`read_qrels_table` and :func:`read_run_table` return the checked
:class:`~ndcg_core.trec.tables.Table` instead (no pandas: what ``ndcg-eval`` uses).

Which reader reads a file: files of printable ASCII are split by numpy on their bytes
(:mod:`.fast_reader`); other files go through pandas' C parser (here). Only when that
fails (or a check on its result does) is the file read again line by line
(:mod:`.line_reader`), to name the offending line. How a run becomes a ranking is
:mod:`.ranking`'s.
"""

from __future__ import annotations

import csv
import io
import mmap
import os
import re
import warnings
from typing import IO, Union

import numpy as np

from .._lazy import pd
from .fast_reader import BLANK_FREE, ascii_qrels, ascii_run
from .line_reader import (
    INT64_MAX,
    INTEGER,
    QRELS_FORMAT,
    RUN_FORMAT,
    QrelsFormatError,
    format_error,
    scan_qrels,
    scan_run,
)
from .tables import (
    Table,
    encode_grouped_ids,
    encode_ids,
    first_duplicate,
    make_table,
    table_frame,
)

__all__ = [
    "Source", "first_blank_line", "read_qrels", "read_run", "read_qrels_table", "read_run_table", "strip_comment_lines",
]

Source = Union[str, "os.PathLike[str]", bytes, IO[str], IO[bytes]]


_COMMENT_LINE = re.compile(rb"^[ \t]*#[^\r\n]*(?:\r\n|\r|\n|$)", re.MULTILINE)


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
    return table_frame(read_qrels_table(source, name=name, max_bytes=max_bytes), "relevance")


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
    return table_frame(read_run_table(source, name=name, max_bytes=max_bytes), "score")


def read_qrels_table(
    source: Source, *, name: str | None = None, max_bytes: int | None = None, blank_lines: bool = True
) -> Table:
    """:func:`read_qrels` without the DataFrame: the checked :class:`~ndcg_core.trec.tables.Table`.

    Same arguments and errors. :func:`ndcg_core.trec.evaluate_run` takes the table as it
    is, and ``ndcg-eval`` reads with it (no pandas import for an ASCII file).
    ``blank_lines=False`` refuses a blank (or blanks-only) line, as trec_eval does
    ("Malformed line"): what ``ndcg-eval`` asks for.

    Examples
    --------
    >>> table = read_qrels_table("q1 0 d1 2\\nq1 0 d2 0\\n")
    >>> table.values.tolist(), table.attrs["source"]
    ([2, 0], '<qrels text>')
    """
    table = _read_table(source, name, max_bytes, "qrels", _fast_qrels, scan_qrels)
    if not table.attrs.pop(BLANK_FREE, False) and not blank_lines:  # the fast reader counted no blank line
        data, display = _load(source, name, "qrels", max_bytes)
        line = first_blank_line(data)
        if line is not None:
            raise format_error(
                display, line,
                "blank line; trec_eval refuses a qrels file with an empty line (\"Malformed line\"), "
                "so ndcg-eval does too: remove the line",
                QRELS_FORMAT,
            )
    return table


_BLANK_LINE = re.compile(rb"^[ \t]*\r?$", re.MULTILINE)


def first_blank_line(data: bytes) -> int | None:
    r"""The 1-based number of the first blank (or blanks-only) line, None when there is none.

    The end of the file after its last newline is not a line.

    >>> first_blank_line(b"q 0 a 1\n\nq 0 b 0\n"), first_blank_line(b"q 0 a 1\n"), first_blank_line(b"q 0 a 1\n \n")
    (2, None, 2)
    """
    if data and b"\n\n" not in data and not data.startswith((b"\n", b" ", b"\t", b"\r")) and not any(
        pair in data for pair in (b"\n ", b"\n\t", b"\n\r")
    ):
        return None  # no empty line and no line starting with a blank (memchr-fast checks)
    for match in _BLANK_LINE.finditer(data):
        if match.start() < len(data):
            return data.count(b"\n", 0, match.start()) + 1
    return None


def read_run_table(source: Source, *, name: str | None = None, max_bytes: int | None = None) -> Table:
    """:func:`read_run` without the DataFrame: the checked :class:`~ndcg_core.trec.tables.Table`.

    Same arguments and errors; ``attrs["run_id"]`` as in :func:`read_run`.
    """
    return _read_table(source, name, max_bytes, "run", _fast_run, scan_run)


def _read_table(source, name, max_bytes, kind, fast, scan) -> Table:  # type: ignore[no-untyped-def]
    """The fast reader's table or, when it declines the file, the line reader's (which
    raises at the first bad line); ``attrs["source"]`` is the name used in messages."""
    data, display, load = _parser_input(source, name, kind, max_bytes)
    table = fast(data) if data else None
    if table is None:
        del data
        table = scan(load(), display)
    table.attrs["source"] = display
    return table


def _fast_qrels(data: bytes | str) -> Table | None:
    """numpy's ASCII reader, else pandas' C parser; None when both decline the file.

    ``data`` is the bytes to read or a file's path: given the path, the ASCII reader reads
    the file itself and lets its bytes go before it factorises the ids.
    """
    table = ascii_qrels(data)
    if table is not None:
        return table
    frame = _read_c(data, ["query_id", "iter", "doc_id", "relevance"], None, object)
    if frame is None or len(frame) == 0:
        return None
    codes, uniques = pd.factorize(frame["relevance"].to_numpy())
    values = np.empty(len(uniques), dtype=np.int64)
    for i, token in enumerate(uniques):
        if not INTEGER.fullmatch(token) or abs(int(token)) > INT64_MAX:
            return None
        values[i] = int(token)
    docs = frame["doc_id"].to_numpy()
    table = make_table(frame["query_id"].to_numpy(), docs, values[codes])
    if (table.doc_names == "").any() or first_duplicate(table) is not None:
        return None
    return table


def _fast_run(data: bytes | str) -> Table | None:
    """numpy's ASCII reader, else pandas' C parser; None when both decline the file (``data``
    as in :func:`_fast_qrels`)."""
    table = ascii_run(data)
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
    query_codes, query_names = encode_grouped_ids(frame.pop("query_id").to_numpy())
    doc_codes, doc_names = encode_ids(frame.pop("doc_id").to_numpy())
    del frame
    table = Table(query_codes, query_names, doc_codes, doc_names, scores, {"run_id": run_id})
    if first_duplicate(table) is not None:
        return None
    return table


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


def _load(source: object, name: str | None, kind: str, max_bytes: int | None = None) -> tuple[bytes, str]:
    """The raw bytes of a source and the name used in messages."""
    data, display = _raw(source, name, kind, max_bytes)
    if max_bytes is not None and len(data) > max_bytes:
        raise _too_large(display, len(data), max_bytes, kind)
    return data, display


def _too_large(display: str, size: int, max_bytes: int, kind: str) -> QrelsFormatError:
    expected = QRELS_FORMAT if kind == "qrels" else RUN_FORMAT
    return format_error(
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


def strip_comment_lines(data: bytes) -> bytes:
    r"""The bytes without their comment lines (first non-blank character ``#``): what the
    fast readers (numpy's and pandas') read. The line reader skips comment lines itself,
    so its line numbers stay the file's.

    >>> strip_comment_lines(b"# made by hand\nq1 0 a#b 1\n  # indented\nq1 0 c 0\n")
    b'q1 0 a#b 1\nq1 0 c 0\n'
    """
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
            return strip_comment_lines(load()), display, load
        return str(path), display, load
    data, display = _load(source, name, kind, max_bytes)
    return strip_comment_lines(data), display, lambda: data
