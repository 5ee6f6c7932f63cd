"""Everything a learner reads from the teaching layer speaks one language.

For every exercise of the bank (and generated exam sets): the statement, title, hints,
options and their notes, the worked solution and the feedback on right, mistaken and
unreadable answers; the misconception catalogue; the printable exam sheet. None of it may
show an internal name (a module, a discount's registry name, an exercise or misconception
id), spell nDCG another way, or call the judged documents a list missed "missing".
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from ndcg_core.teaching import exam
from ndcg_core.ui.exam_sheet import exam_html
from ndcg_core.teaching import exercises as ex

BANK = ex.all_exercises()
# misconception ids that are plain words ("truncated") may appear as words
INTERNAL = [e.id for e in BANK] + [m for m in ex.MISCONCEPTIONS if "-" in m] + [
    "ndcg_core", "log2_shifted", "jarvelin_kekalainen", "unjudged = zero", "unjudged = condense", "run-order",
    "as-listed"]
LEAKS = {
    "an internal name": re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, INTERNAL)) + r")(?![\w-])"),
    "NDCG (write nDCG)": re.compile(r"\bNDCG\b(?! Lab)"),
    "'missing' (write 'missed')": re.compile(
        r"\bmissing\b(?: \w+){0,2} (?:documents?|judgments?|labels?)\b"
        r"|\b(?:documents?|judgments?|labels?)\b(?: \w+){0,3} missing\b"),
}
HARD = exam.ExamSettings(problems=12, length=7, max_label=4, gains=exam.EXAM_GAINS, discounts=exam.EXAM_DISCOUNTS,
                         unjudged=2, unjudged_policies=("zero", "condense"), missed=3, kinds=exam.EXAM_KINDS,
                         precision=3)


def answers(exercise: ex.Exercise) -> list[str]:
    """Right, mistaken, unreadable and arbitrary answers: every kind of feedback."""
    typed = ["", "abc", "1", "0.5", "78", "A", "B", "C", "yes", "no", "2, 1", "1, 0, 2", "x" * 300,
             ex.format_answer(exercise), *exercise.choices]
    for values in ex.mistaken_values(exercise).values():
        typed += [f"{v:.{exercise.precision}f}" for v in values]
    return typed


def texts(exercise: ex.Exercise) -> Iterator[tuple[str, str]]:
    yield "title", exercise.title
    yield "statement", ex.statement(exercise)
    yield "solution", ex.solution(exercise)
    yield "card", ex.card(exercise, None).statement
    for i, hint in enumerate(exercise.hints, start=1):
        yield f"hint {i}", hint
    for choice, note in zip(exercise.choices, exercise.option_notes or [""] * len(exercise.choices)):
        yield f"option {choice!r}", f"{choice} {note}"
    for answer in answers(exercise):
        yield f"feedback on {answer[:20]!r}", ex.check(exercise, answer).message


def leaks(text: str) -> list[str]:
    return [f"{what}: {m.group(0)!r} in ...{text[max(0, m.start() - 40):m.end() + 20]!r}..."
            for what, pattern in LEAKS.items() for m in pattern.finditer(text)]


@pytest.mark.parametrize("exercise", BANK, ids=lambda e: e.id)
def test_bank_exercise_texts_show_no_internal_names(exercise):
    found = [f"{where}: {leak}" for where, text in texts(exercise) for leak in leaks(text)]
    assert not found, "\n".join(found)


def test_misconception_names_and_hints_show_no_internal_names():
    found = [f"{m.id}: {leak}" for m in ex.MISCONCEPTIONS.values() for leak in leaks(f"{m.name}. {m.hint}")]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("seed", [0, 3, 27, 2026])
def test_exam_problems_and_the_printable_sheet_show_no_internal_names(seed):
    exam_set = exam.generate_exam(seed, HARD)
    found = [f"sheet: {leak}" for leak in leaks(exam_html(exam_set, code=exam.code_task(seed)))]
    for problem in exam_set.problems:
        found += [f"{problem.id} {where}: {leak}" for where, text in texts(problem) for leak in leaks(text)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("text, what", [
    ("Judged relevant documents the list was missing: 2", "'missing'"),
    ("the missing relevant documents", "'missing'"),
    ("NDCG@5 = 0.78", "NDCG"),
    ("with the discount log2_shifted", "an internal name"),
    ("see lecture-term", "an internal name"),
    ("Computed with ndcg_core", "an internal name"),
])
def test_the_scanner_catches_each_kind_of_leak(text, what):
    assert any(leak.startswith(what) for leak in leaks(text))


@pytest.mark.parametrize("text", [
    "Judged relevant documents the list missed: 2", "nDCG@5", "NDCG Lab", "the 5 missing topics score 0",
    "Still missing: the discount", "the shifted discount 1/log2(i+2)", "a run-of-the-mill list",
])
def test_the_scanner_lets_plain_words_through(text):
    assert leaks(text) == []
