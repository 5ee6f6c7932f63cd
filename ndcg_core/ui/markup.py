"""Markdown to HTML for pages NDCG Lab writes itself (the printable exam sheet), with the
``markdown`` package (Python-Markdown, which marimo already installs) instead of a
hand-written converter.

Raw HTML in the text is *not* passed through: the two Python-Markdown processors that
keep it (the ``html_block`` preprocessor and the ``html`` inline pattern) are removed, so
``<script>`` or ``<img>`` typed anywhere becomes visible text, escaped with the rest.

>>> markdown_html("**DCG@5** = `2.43`\\n\\n- one\\n- <two>")
'<p><strong>DCG@5</strong> = <code>2.43</code></p>\\n<ul>\\n<li>one</li>\\n<li>&lt;two&gt;</li>\\n</ul>'
"""

from __future__ import annotations

import markdown

__all__ = ["markdown_html"]


def _converter() -> markdown.Markdown:
    md = markdown.Markdown(extensions=["tables"], output_format="html")
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")
    return md


def markdown_html(text: str) -> str:
    """HTML for Markdown ``text`` (paragraphs, headings, lists, pipe tables, code, bold,
    italics); raw HTML in it is escaped as text, never rendered."""
    if not isinstance(text, str):
        raise TypeError(f"text must be Markdown text (a str); got {text!r} ({type(text).__name__}).")
    return _converter().convert(text)
