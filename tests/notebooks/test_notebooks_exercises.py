"""The playground and chapters 02-06 end with their own exercises ("Check yourself"), run headless.

Each chapter is run with ``app.run()``: its exercise cards come after "What to remember",
show the answer box of every exercise and no feedback before an answer is submitted.
The chapter's answer boxes (a ``mo.ui.dictionary`` of forms) are then replaced by a
stand-in holding submitted answers, so the cards show what the learner sees after
pressing **Check**: a right answer (derived by hand below) gets a success callout, the
answer a common mistake produces gets the mistake named.
"""

from __future__ import annotations

import html
import importlib.util
import json
import re
from pathlib import Path

import marimo as mo
import pytest
from first_exercises import FIRST_NUMERIC

import ndcg_core as nc
from ndcg_core.teaching.exercises import MISCONCEPTIONS
from ndcg_core.ui import widgets

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
CHAPTERS = (
    "01_playground.py", "02_gains.py", "03_discounts.py", "04_ideal_list.py", "05_unjudged.py", "06_evaluating_runs.py",
    "09_graded_vs_binary.py", "12_which_measure.py",
)
SLIDES = CHAPTERS[:4] + ("09_graded_vs_binary.py", "12_which_measure.py")
#: the section each notebook's exercises follow: the chapters' summary, the playground's suggestions
BEFORE_EXERCISES = {name: "What to remember" for name in CHAPTERS} | {"01_playground.py": "Things to try"}



def load_app(filename: str):
    spec = importlib.util.spec_from_file_location(f"chapter_exercises_{filename[:2]}", NOTEBOOKS / filename)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.app


@pytest.fixture(scope="module")
def runs():
    """Each chapter's app and the outputs and definitions of its default run."""
    out = {}
    for name in CHAPTERS:
        app = load_app(name)
        outputs, defs = app.run()
        out[name] = (app, outputs, defs)
    return out


def _expand(markup: str) -> str:
    """Inline a callout's HTML (marimo keeps it in an attribute) and mark its kind."""

    def callout(match: re.Match) -> str:
        inner = _expand(json.loads(html.unescape(match.group(1))))
        kind = json.loads(html.unescape(match.group(2)))
        return f" [callout {kind}] {inner} [/callout] "

    return re.sub(r"<marimo-callout-output data-html='([^']*)' data-kind='([^']*)'[^>]*>", callout, markup)


def texts(outputs) -> list[str]:
    """Each cell's output as plain text, callouts inlined."""
    out = []
    for o in outputs:
        markup = _expand(getattr(o, "text", "") or "") if o is not None else ""
        text = re.sub(r"<[^>]+>", " ", markup)
        out.append(re.sub(r"\s+", " ", html.unescape(text)).strip())
    return out


def exercise_ids(defs) -> list[str]:
    return list(defs["chapter_answers"].value)


class SubmittedAnswers:
    """Stands in for the chapter's ``mo.ui.dictionary`` of answer boxes after some were checked."""

    def __init__(self, ids, submitted):
        self.value = {ex_id: {"answer": submitted.get(ex_id), "check": 1 if ex_id in submitted else 0} for ex_id in ids}

    def __getitem__(self, ex_id):
        return {"answer": mo.md(f"(answer box of {ex_id})"), "check": mo.md("(Check)")}


def run_with_answers(runs, filename, submitted):
    """The text of the chapter from its "Check yourself" heading on, after these answers."""
    app, _, defs = runs[filename]
    outputs, _ = app.run(defs={"chapter_answers": SubmittedAnswers(exercise_ids(defs), submitted)})
    shown = texts(outputs)
    heading = next(i for i, t in enumerate(shown) if t.startswith("Check yourself"))
    return " ".join(shown[heading:])


@pytest.mark.parametrize("filename", CHAPTERS)
def test_chapter_ends_with_two_to_six_of_its_own_exercises(runs, filename):
    _, outputs, defs = runs[filename]
    ids = exercise_ids(defs)
    assert 2 <= len(ids) <= 6
    assert len(set(ids)) == len(ids)
    for ex_id in ids:
        exercise = nc.exercises.get(ex_id)
        assert exercise.chapter == filename[:2], ex_id
        assert exercise.kind != "code", ex_id  # typed code is never run on a served page
    assert FIRST_NUMERIC[filename][0] == next(i for i in ids if nc.exercises.get(i).kind == "numeric")


@pytest.mark.parametrize("filename", CHAPTERS)
def test_exercises_come_after_what_to_remember_with_an_answer_box_each(runs, filename):
    _, outputs, defs = runs[filename]
    shown = texts(outputs)
    markup = [html.unescape(getattr(o, "text", "") or "") for o in outputs]  # widget labels live in attributes
    remember = next(i for i, t in enumerate(shown) if t.startswith(BEFORE_EXERCISES[filename]))
    heading = next(i for i, t in enumerate(shown) if t.startswith("Check yourself"))
    assert remember < heading
    cards = []
    for ex_id in exercise_ids(defs):
        exercise = nc.exercises.get(ex_id)
        card = next(i for i in range(heading + 1, len(shown)) if shown[i].startswith(exercise.title))
        assert widgets.answer_label(ex_id) in markup[card]
        assert ex_id not in shown[card]  # the learner reads words, not the exercise id
        assert "marimo-button" in markup[card] and "Check" in markup[card]
        assert "Hint 1" in markup[card] and "Worked solution" in markup[card]
        cards.append(card)
    assert cards == sorted(cards) and cards[-1] == max(i for i, t in enumerate(shown) if t)  # the chapter ends here
    text = " ".join(shown)
    assert "[callout" not in " ".join(shown[heading:])  # no feedback before Check is pressed
    assert "Traceback" not in text


@pytest.mark.parametrize("filename", CHAPTERS)
def test_a_right_answer_is_confirmed_and_a_common_mistake_named(runs, filename):
    ex_id, right, wrong, misconception = FIRST_NUMERIC[filename]
    precision = nc.exercises.get(ex_id).precision
    text = run_with_answers(runs, filename, {ex_id: f"{right:.{precision}f}"})
    assert f"[callout success] Right: {nc.exercises.get(ex_id).quantity} = " in text
    assert f"which is {right:.{precision}f} to {precision} decimals." in text
    assert text.count("[callout") == 1  # only the submitted exercise has feedback

    text = run_with_answers(runs, filename, {ex_id: f"{wrong:.{precision}f}"})
    assert f"[callout warn] Not quite: {wrong:.{precision}f} is what" in text
    assert MISCONCEPTIONS[misconception].name in text


@pytest.mark.parametrize("filename", CHAPTERS)
def test_every_card_accepts_its_right_answer_and_explains_garbage(runs, filename):
    ids = exercise_ids(runs[filename][2])
    text = run_with_answers(runs, filename, {ex_id: nc.exercises.format_answer(ex_id) for ex_id in ids})
    assert text.count("[callout success] Right") == len(ids)
    assert "[callout warn]" not in text

    typed = {ex_id: "a lot" for ex_id in ids}
    text = run_with_answers(runs, filename, typed)
    assert text.count("[callout warn]") == len(ids)
    assert "'a lot' is not" in text  # the expected form is named: a number, labels or an option
    assert "Traceback" not in text


@pytest.mark.parametrize("filename", SLIDES)
def test_each_exercise_is_a_slide_of_its_own(filename):
    source = (NOTEBOOKS / "decks" / filename).read_text()
    cells = re.split(r"^@app\.cell", source, flags=re.M)[1:]
    layout = json.loads((NOTEBOOKS / "decks" / "layouts" / f"{filename[:-3]}.slides.json").read_text())["data"]["cells"]
    assert len(layout) == len(cells)
    if "deck.question(" in source:
        # decks 01-04 show their exercises through ndcg_core.ui.deck, one line each from its id: the
        # question opens a slide, its hints are the next fragment, then its worked solution (a slide
        # of its own, one rank per press; a concept question's or a vote's answer the next fragment)
        starts = [i for i, c in enumerate(cells) if "deck.question(chapter_answers, " in c]
        assert len(starts) >= 2
        for i in starts:
            ex_id = re.search(r'deck\.question\(chapter_answers, "([a-z0-9-]+)"', cells[i]).group(1)
            assert layout[i]["type"] == "slide"
            assert f'deck.hints("{ex_id}")' in cells[i + 1] and layout[i + 1]["type"] == "fragment"
            if f'deck.answer("{ex_id}"' in cells[i + 2]:
                assert layout[i + 2]["type"] == "fragment"
            else:
                assert "solution(" in cells[i + 2] and layout[i + 2]["type"] == "slide"
        return
    heading = next(i for i, c in enumerate(cells) if "widgets.check_yourself(" in c)
    kinds = [c["type"] for c in layout[heading:]]
    calls = [
        bool(re.search(r'^    widgets\.exercise_card\(chapter_answers, "[a-z0-9-]+"\)$', c, flags=re.M))
        for c in cells[heading:]
    ]
    assert kinds[0] == "slide"  # the heading
    assert kinds[1] == "skip"  # the answer boxes show nothing of their own
    assert calls[2:] == [True] * (len(cells) - heading - 2)
    assert kinds[2:] == ["slide"] * (len(cells) - heading - 2)
