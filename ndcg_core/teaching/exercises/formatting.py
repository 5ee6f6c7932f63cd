r"""How the exercises write numbers, labels and tables for a learner.

Everything an exercise shows (statements, feedback, worked solutions, the code checker's
report) writes its numbers with :func:`format_number`, its label lists with
:func:`format_labels` and its tables with :func:`pipe_table`. The HTML of that Markdown is
presentation: :func:`ndcg_core.ui.markup.markdown_html` (Python-Markdown) writes it.

>>> format_number(2.430676558073393), format_labels([1, 0, None, 2.0])
('2.4307', '1, 0, ?, 2')
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

__all__ = ["format_number", "format_labels", "log_text", "pipe_table"]


def format_number(x: float) -> str:
    """A number for a worked solution: up to four decimals, no trailing zeros.

    >>> format_number(0.5), format_number(3.0), format_number(float("nan"))
    ('0.5', '3', 'undefined')
    """
    if x != x:
        return "undefined"
    text = f"{x:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def format_labels(labels: Iterable[float | int | None]) -> str:
    """Labels as a learner types them: comma separated, ``?`` for unjudged, ``2`` not ``2.0``.

    >>> format_labels([2.0, None, 0.5])
    '2, ?, 0.5'
    """
    return ", ".join("?" if x is None else f"{x:g}" for x in labels)


def log_text(base: float, x: float) -> str:
    """``log_b(x)`` as written on paper: ``log2``, ``log10``, ``ln`` or ``log_b``.

    >>> log_text(2, 5), log_text(math.e, 3), log_text(3, 9)
    ('log2(5)', 'ln(3)', 'log_3(9)')
    """
    if base == 2:
        return f"log2({x:g})"
    if base == 10:
        return f"log10({x:g})"
    if base == math.e:
        return f"ln({x:g})"
    return f"log_{base:g}({x:g})"


def pipe_table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """A Markdown pipe table of already formatted cells, left aligned.

    >>> print(pipe_table(["k", "nDCG@k"], [["1", "1"], ["2", "0.6"]]))
    | k | nDCG@k |
    |:---|:---|
    | 1 | 1 |
    | 2 | 0.6 |
    """
    lines = ["| " + " | ".join(header) + " |", "|" + ":---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


