"""The printable exam sheet: a generated set (:mod:`ndcg_core.teaching.exam`) as one
self-contained HTML page, laid out like the paper exam.

Problems first, each with room to write: a line for a number or a ranking; for a question
with options, the options and ruled lines for the reason in words; for the code task, a
ruled box. Then, on a new page, the answer key and the worked solutions (the code task's
model answer among them). Markdown becomes HTML through :func:`ndcg_core.ui.markup.markdown_html`
(the ``markdown`` package); every other text goes through :func:`html.escape`.

>>> from ndcg_core.teaching.exam import ExamSettings, code_task, generate_exam
>>> page = exam_html(generate_exam(7, ExamSettings(problems=2)), code=code_task(7))
>>> page.index("Problems</h2>") < page.index("def dcg(rels, k)") < page.index("Answer key</h2>")
True
"""

from __future__ import annotations

from html import escape

from ..teaching.exam import MODEL_CODE, CodeTask, ExamSet
from ..teaching.exercises import Exercise, format_answer, solution, statement
from .markup import markdown_html

__all__ = ["SHEET_CSS", "WRITING_LINES", "CODE_LINES", "exam_html"]

SHEET_CSS = """
body { font-family: Georgia, 'Times New Roman', serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem;
       color: #111; line-height: 1.45; font-size: 12pt; }
h1 { font-size: 1.6rem; margin-bottom: 0.2rem; }
h2 { font-size: 1.3rem; border-bottom: 2px solid #111; padding-bottom: 0.2rem; margin-top: 2rem; }
h3 { font-size: 1.05rem; margin: 1.4rem 0 0.4rem; }
.meta { color: #333; font-size: 0.9rem; }
code, pre { font-family: 'DejaVu Sans Mono', Consolas, monospace; font-size: 0.95em; }
pre { background: #f4f4f4; padding: 0.5rem; border: 1px solid #999; }
table { border-collapse: collapse; margin: 0.5rem 0; font-size: 0.92rem; }
th, td { border: 1px solid #555; padding: 0.15rem 0.5rem; text-align: left; }
th { background: #eee; }
.answer-line { margin: 0.6rem 0 1.2rem; }
.answer-line span { display: inline-block; min-width: 14rem; border-bottom: 1px solid #111; }
.writing { margin: 0.4rem 0 1.2rem; }
.writing div { height: 1.9rem; border-bottom: 1px solid #555; }
.code-box { border: 1px solid #111; margin: 0.5rem 0 1.2rem; padding: 0 0.5rem; }
.code-box div { height: 1.6rem; border-bottom: 1px dotted #999; }
.key { page-break-before: always; break-before: page; }
.problem { page-break-inside: avoid; break-inside: avoid; }
@media print { body { margin: 0; max-width: none; } }
"""
#: Ruled lines under a question answered in words, and in the code task's box.
WRITING_LINES = 4
CODE_LINES = 14


def _ruled(css_class: str, lines: int, label: str) -> str:
    return (f'<div class="{css_class}" role="img" aria-label="{escape(label)}">'
            + "<div></div>" * lines + "</div>")


def _room(p: Exercise) -> str:
    """Room to answer problem ``p``: a line, or options plus lines for the reason in words."""
    if p.kind == "concept":
        return ('<p class="answer-line">Your choice: <span>&nbsp;</span></p>\n<p>Your reason, in one or two '
                "sentences:</p>\n" + _ruled("writing", WRITING_LINES, "lines to write the reason on"))
    return '<p class="answer-line">Answer: <span>&nbsp;</span></p>'


def _code_problem(code: CodeTask) -> str:
    return (f'<div class="problem code-task">\n<h3>{escape(code.title)}</h3>\n{markdown_html(code.prompt)}\n'
            + _ruled("code-box", CODE_LINES, "a box to write the code in") + "\n</div>")


def _code_solution(code: CodeTask) -> str:
    cases = "".join(f"<li><code>{escape(f'{f}({list(rels)}, {k})')}</code></li>"
                    for _, rels, k in code.cases for f in code.functions)
    return (f'<div class="solution">\n<h3>{escape(code.title)}</h3>\n<p>A model answer:</p>\n'
            f"<pre><code>{escape(MODEL_CODE)}</code></pre>\n"
            f"<p>Notebook 08 checks an answer on the fixed battery and on these seeded calls:</p>\n<ul>{cases}</ul>\n"
            "</div>")


def exam_html(exam: ExamSet, *, code: CodeTask | None = None, title: str = "nDCG exam practice") -> str:
    """The set (and its code task, when given) as one self-contained HTML page: problems
    first, then the answer key and the worked solutions. Inline CSS only: no scripts, fonts
    or links to load."""
    head = (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<title>{escape(title)} (seed {exam.seed})</title>\n<style>{SHEET_CSS}</style>\n</head>\n<body>\n"
    )
    meta = (f"<h1>{escape(title)}</h1>\n<p class=\"meta\">Seed {exam.seed}. Settings: {escape(exam.describe())}. "
            "Enter the same seed and settings in notebook 08 to get this set again.</p>\n")
    problems = ["<section class=\"problems\">\n<h2>Problems</h2>"]
    for p in exam.problems:
        problems.append(f"<div class=\"problem\">\n<h3>{escape(p.title)}</h3>\n{markdown_html(statement(p))}\n"
                        f"{_room(p)}\n</div>")
    if code is not None:
        problems.append(_code_problem(code))
    problems.append("</section>")
    rows = "".join(f"<tr><td>{escape(p.title)}</td><td>{escape(format_answer(p))}</td></tr>" for p in exam.problems)
    key = [f"<section class=\"key\">\n<h2>Answer key</h2>\n<table><thead><tr><th>problem</th><th>answer</th></tr>"
           f"</thead><tbody>{rows}</tbody></table>\n<h2>Worked solutions</h2>"]
    for p in exam.problems:
        key.append(f"<div class=\"solution\">\n<h3>{escape(p.title)}</h3>\n{markdown_html(solution(p))}\n</div>")
    if code is not None:
        key.append(_code_solution(code))
    key.append("</section>")
    return head + meta + "\n".join(problems) + "\n" + "\n".join(key) + "\n</body>\n</html>\n"
