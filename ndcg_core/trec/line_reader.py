r"""The line-by-line reader: the readable reference, and the one that names file and line.

It reads a qrels or run file one line at a time, exactly as the format says (see
:mod:`ndcg_core.trec.files`), and raises a :class:`QrelsFormatError` at the first line it
cannot accept: ``<file>, line N: <what is wrong> (expected '<format>')``. The fast reader
(:mod:`.fast_reader`) must give the same tables on every file it accepts (a test checks
this on random files); when it or pandas declines a file, this reader reads it and says why.

>>> scan_qrels(b"q1 0 d1 2\n# a comment\nq1 0 d2 x\n", "toy.qrels")
Traceback (most recent call last):
...
ndcg_core.trec.QrelsFormatError: toy.qrels, line 3: relevance 'x' is not an integer (expected 'QID ITER DOCID REL')
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator

import numpy as np

from .tables import Table, make_table

__all__ = [
    "QrelsFormatError",
    "QRELS_FORMAT",
    "RUN_FORMAT",
    "INTEGER",
    "NUMBER",
    "INT64_MAX",
    "format_error",
    "scan_qrels",
    "scan_run",
]

#: The fields of a qrels line and of a run line, as the error messages name them.
QRELS_FORMAT = "QID ITER DOCID REL"
RUN_FORMAT = "QID Q0 DOCID RANK SCORE RUN"

#: A relevance label: a whole number, optionally signed (no decimal point, no exponent).
INTEGER = re.compile(r"[+-]?\d+")
#: A score: a decimal number with an optional exponent (no nan, inf or hexadecimal).
NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
#: The largest relevance label a file may hold (labels are int64).
INT64_MAX = np.iinfo(np.int64).max

_SPLIT = re.compile(r"[ \t]+")


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


def format_error(display: str, line: int | None, what: str, expected: str) -> QrelsFormatError:
    """The error ``<display>, line <line>: <what> (expected '<expected>')`` (no line: the whole file)."""
    where = display if line is None else f"{display}, line {line}"
    return QrelsFormatError(f"{where}: {what} (expected '{expected}')", source=display, line=line)


def _lines(data: bytes, display: str, expected: str) -> Iterator[tuple[int, list[str]]]:
    """Yield (line number, fields) of every content line, decoding each as UTF-8."""
    for number, raw in enumerate(data.splitlines(), start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise format_error(
                display, number, "the line is not UTF-8 text; save the file as UTF-8", expected
            ) from None
        stripped = line.strip(" \t")
        if not stripped or stripped.startswith("#"):
            continue
        yield number, _SPLIT.split(stripped)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _parse_relevance(token: str, display: str, number: int) -> int:
    if not INTEGER.fullmatch(token):
        raise format_error(display, number, f"relevance {token!r} is not an integer", QRELS_FORMAT)
    value = int(token)
    if abs(value) > INT64_MAX:
        raise format_error(display, number, f"relevance {token!r} is too large for a label", QRELS_FORMAT)
    return value


def scan_qrels(data: bytes, display: str) -> Table:
    """Read the bytes of a qrels file line by line; raise at the first bad line.

    ``display`` is the file name the messages give. Lines need exactly four fields and an
    integer label; a document may be judged once per topic; at least one line is needed.
    """
    queries: list[str] = []
    docs: list[str] = []
    labels: list[int] = []
    seen: dict[tuple[str, str], int] = {}
    for number, fields in _lines(data, display, QRELS_FORMAT):
        if len(fields) != 4:
            raise format_error(
                display, number,
                f"found {_plural(len(fields), 'field')}, a qrels line has exactly 4", QRELS_FORMAT,
            )
        query_id, _, doc_id, token = fields
        label = _parse_relevance(token, display, number)
        first = seen.setdefault((query_id, doc_id), number)
        if first != number:
            raise format_error(
                display, number,
                f"document {doc_id!r} is judged twice for topic {query_id!r} (first on line {first}); "
                "keep one judgment per document",
                QRELS_FORMAT,
            )
        queries.append(query_id)
        docs.append(doc_id)
        labels.append(label)
    if not queries:
        raise format_error(display, None, "no qrels lines found", QRELS_FORMAT)
    return make_table(
        np.array(queries, dtype=object), np.array(docs, dtype=object), np.array(labels, dtype=np.int64)
    )


def _parse_score(token: str, display: str, number: int) -> float:
    if not NUMBER.fullmatch(token):
        if token.lower().lstrip("+-") in ("nan", "inf", "infinity"):
            raise format_error(display, number, f"score {token!r} is not a finite number", RUN_FORMAT)
        raise format_error(display, number, f"score {token!r} is not a number", RUN_FORMAT)
    value = float(token)
    if not math.isfinite(value):
        raise format_error(display, number, f"score {token!r} is too large to be a number", RUN_FORMAT)
    return value


def scan_run(data: bytes, display: str) -> Table:
    """Read the bytes of a run file line by line; raise at the first bad line.

    Lines need at least six fields (any after the sixth are ignored) and a finite score;
    a document may be retrieved once per topic. ``attrs["run_id"]`` is the last line's
    sixth field.
    """
    queries: list[str] = []
    docs: list[str] = []
    scores: list[float] = []
    run_id = ""
    seen: dict[tuple[str, str], int] = {}
    for number, fields in _lines(data, display, RUN_FORMAT):
        if len(fields) < 6:
            raise format_error(
                display, number,
                f"found {_plural(len(fields), 'field')}, a run line has at least 6", RUN_FORMAT,
            )
        query_id, _, doc_id, _, token, run_id = fields[:6]
        score = _parse_score(token, display, number)
        first = seen.setdefault((query_id, doc_id), number)
        if first != number:
            raise format_error(
                display, number,
                f"document {doc_id!r} is retrieved twice for topic {query_id!r} (first on line {first}); "
                "keep one line per document and topic",
                RUN_FORMAT,
            )
        queries.append(query_id)
        docs.append(doc_id)
        scores.append(score)
    if not queries:
        raise format_error(display, None, "no run lines found", RUN_FORMAT)
    return make_table(
        np.array(queries, dtype=object),
        np.array(docs, dtype=object),
        np.array(scores, dtype=float),
        {"run_id": run_id},
    )
