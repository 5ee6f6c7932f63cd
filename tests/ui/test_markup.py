"""ndcg_core.ui.markup: the one Markdown -> HTML of the pages NDCG Lab writes itself (the exam
sheet and the classroom's question pages), Python-Markdown with raw HTML escaped."""

from ndcg_core.teaching.exercises import get, statement
from ndcg_core.ui.markup import markdown_html


def test_markdown_html_escapes_typed_html_and_renders_the_exercises_markdown():
    out = markdown_html("Hello <script>alert(1)</script> **bold** `code`\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | <2> |")
    assert "<script>" not in out and "&lt;script&gt;" in out
    assert "<strong>bold</strong>" in out and "<code>code</code>" in out
    assert "<li>one</li>" in out and "<li>two</li>" in out
    assert "<th>a</th>" in out and "<td>&lt;2&gt;</td>" in out


def test_an_exercise_statement_becomes_a_paragraph_a_list_and_the_question():
    out = markdown_html(statement(get("lecture-dcg")))
    assert out.startswith("<p>A search engine returned five documents")
    assert "<li>Ranked list (rank 1 first): <code>1, 0, 2, 1, 0</code></li>" in out
    assert out.endswith("<p>Give DCG@5 to 2 decimals.</p>")
