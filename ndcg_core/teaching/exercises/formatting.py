r"""How the exercises write numbers, labels and tables for a learner, and the HTML of that Markdown.

Everything an exercise shows (statements, feedback, worked solutions, the code checker's
report) writes its numbers with :func:`format_number`, its label lists with
:func:`format_labels` and its tables with :func:`pipe_table`. :func:`markdown_to_html`
turns that small Markdown subset into HTML for the printable exam sheet
(:mod:`ndcg_core.teaching.exam`).

>>> format_number(2.430676558073393), format_labels([1, 0, None, 2.0])
('2.4307', '1, 0, ?, 2')
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Iterable, Sequence

__all__ = ["format_number", "format_labels", "log_text", "pipe_table", "markdown_to_html"]


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


def _inline_html(text: str) -> str:
    out = html.escape(text, quote=False)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", out)
    return out


def markdown_to_html(markdown: str) -> str:
    """HTML for the small Markdown subset the exercises write.

    Paragraphs, ``#`` headings, ``-`` lists, pipe tables, ```code``` and ``**bold**``;
    everything else is escaped as text, so nothing a learner typed can become markup.

    >>> markdown_to_html("**DCG@5** = `2.43`\\n\\n- one\\n- <two>")
    '<p><strong>DCG@5</strong> = <code>2.43</code></p>\\n<ul><li>one</li><li>&lt;two&gt;</li></ul>'
    """
    blocks = [b for b in re.split(r"\n\s*\n", markdown.strip()) if b.strip()]
    out = []
    for block in blocks:
        lines = block.strip().splitlines()
        if all(line.startswith("|") for line in lines) and len(lines) >= 2:
            cells = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines]
            head, body = cells[0], cells[2:]
            out.append("<table><thead><tr>" + "".join(f"<th>{_inline_html(c)}</th>" for c in head)
                       + "</tr></thead><tbody>"
                       + "".join("<tr>" + "".join(f"<td>{_inline_html(c)}</td>" for c in row) + "</tr>" for row in body)
                       + "</tbody></table>")
        elif all(line.startswith("- ") for line in lines):
            out.append("<ul>" + "".join(f"<li>{_inline_html(line[2:])}</li>" for line in lines) + "</ul>")
        elif lines[0].startswith("#"):
            level = min(len(lines[0]) - len(lines[0].lstrip("#")) + 1, 6)
            out.append(f"<h{level}>{_inline_html(lines[0].lstrip('#').strip())}</h{level}>")
            if lines[1:]:
                out.append(f"<p>{_inline_html(' '.join(lines[1:]))}</p>")
        else:
            out.append("<p>" + "<br>".join(_inline_html(line) for line in lines) + "</p>")
    return "\n".join(out)
