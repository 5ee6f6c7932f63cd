"""Every notebook in notebooks/ runs headless (``app.run()``) and passes ``marimo check --strict``.

New notebooks are picked up automatically. A notebook's default run is shared with the other
test files that need it (tests/notebook_runs.py: once per session, in the test process, with
matplotlib's Agg backend), and ``marimo check`` runs once over the whole folder: each notebook's
test reads its own part of that report. The playground also gets a few headless checks of its
own, with widget values supplied through ``app.run(defs=...)``.
"""

from __future__ import annotations

import functools
import html
import re
import json
import subprocess
import sys
from pathlib import Path

import marimo as mo
import pytest
from notebook_runs import NOTEBOOKS as FOLDER
from notebook_runs import REPO, default_run, load_app

NOTEBOOKS = sorted(FOLDER.glob("*.py"))
DECKS = sorted((FOLDER / "decks").glob("*.py"))
MARIMO = [sys.executable, "-m", "marimo"]
CHECK_TIMEOUT = 600


def _text(out: object) -> str:
    """A cell's output as its HTML text (what the page would show)."""
    if out is None:
        return ""
    try:
        return str(mo.as_html(out).text)
    except Exception:
        return str(out)


def run_notebook(path: Path, setup: str | None = None, wanted: tuple[str, ...] = ()) -> dict:
    """The text of every cell's output and ``repr()`` of the ``wanted`` definitions.

    ``setup`` is Python that defines ``DEFS``, the widget values that replace the notebook's own
    (``app.run(defs=DEFS)``); without it the session's shared default run is used.
    """
    if setup:
        namespace: dict = {"mo": mo}
        exec(setup, namespace)
        outputs, definitions = load_app(path).run(defs=namespace["DEFS"])
    else:
        outputs, definitions = default_run(path)
    return {
        "outputs": [_text(out) for out in outputs],
        "defs": {name: repr(definitions.get(name)) for name in wanted},
    }


@functools.cache
def folder_check() -> tuple[int, dict, str]:
    """``marimo check --strict --format json notebooks``, once per session: exit code, report, stderr."""
    done = subprocess.run(
        [*MARIMO, "check", "--strict", "--format", "json", "notebooks"],
        cwd=REPO, capture_output=True, text=True, timeout=CHECK_TIMEOUT,
    )
    return done.returncode, json.loads(done.stdout), done.stderr


def test_there_are_notebooks() -> None:
    assert any(p.name == "01_playground.py" for p in NOTEBOOKS)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs_headless(path: Path) -> None:
    result = run_notebook(path)
    shown = "\n".join(result["outputs"])
    assert "Traceback" not in shown, f"{path.name} shows a traceback"


@pytest.mark.parametrize("path", NOTEBOOKS + DECKS, ids=[p.name for p in NOTEBOOKS] + [f"decks/{p.name}" for p in DECKS])
def test_notebook_passes_marimo_check(path: Path) -> None:
    _, report, _ = folder_check()
    assert report["summary"]["total_files"] >= len(NOTEBOOKS) + len(DECKS)  # the folder's run covered every notebook and deck
    mine = [issue for issue in report["issues"] if (REPO / issue["filename"]).resolve() == path.resolve()]
    assert mine == [], f"marimo check on {path.name}: {json.dumps(mine, indent=1)}"


def test_marimo_check_on_the_whole_folder() -> None:
    code, report, stderr = folder_check()
    assert report["issues"] == [], json.dumps(report["issues"], indent=1)
    assert code == 0 and not report["summary"]["errored"], stderr[-3000:]


def test_every_notebook_has_a_gallery_card() -> None:
    """The inline script metadata gives the gallery a title and a description."""
    import tomllib

    for path in NOTEBOOKS:
        text = path.read_text(encoding="utf-8")
        assert text.startswith("# /// script\n"), f"{path.name} has no inline script metadata header"
        block = text.split("# ///\n", 1)[0]
        meta = tomllib.loads("\n".join(line[2:] for line in block.splitlines()[1:]))
        card = meta["tool"]["marimo"]["opengraph"]
        assert card["title"].startswith(path.name[:2]), f"{path.name}: card title {card['title']!r}"
        assert card["description"].strip()


# --------------------------------------------------------------------------- the playground, headless

PLAYGROUND = REPO / "notebooks" / "01_playground.py"

# Replaces the playground's input cell: every name it defines, with these values.
INPUTS = """
import marimo as mo
DEFS = dict(
    labels_text=mo.ui.text(value={labels!r}),
    missed_text=mo.ui.text(value={missed!r}),
    gain_dropdown=mo.ui.dropdown(options=["linear", "exponential", "table"], value={gain!r}),
    gain_table_text=mo.ui.text(value={gain_table!r}),
    discount_dropdown=mo.ui.dropdown(options=["log2", "log2_shifted", "reciprocal", "log", "jarvelin_kekalainen", "none"], value={discount!r}),
    base_number=mo.ui.number(value={base!r}),
    k_slider=mo.ui.slider(1, 100, value={k!r}),
    k_text=mo.ui.text(value={k_typed!r}),
    unjudged_radio=mo.ui.radio(options={{"zero": "zero", "condense": "condense"}}, value="zero"),
    ideal_radio=mo.ui.radio(options={{"judgments": "judgments", "list": "list"}}, value="judgments"),
)
DEFS["deck_controls"] = dict(labels=DEFS["labels_text"], missed=DEFS["missed_text"], gain=DEFS["gain_dropdown"],
                             gain_table=DEFS["gain_table_text"], discount=DEFS["discount_dropdown"],
                             base=DEFS["base_number"], k=DEFS["k_slider"])
"""


def playground_with(**values: object) -> dict:
    settings = {"labels": "1, 0, 2, 1, 0", "missed": "", "gain": "linear", "gain_table": "0:0, 1:1, 2:3, 3:7",
                "discount": "log2", "base": 2, "k": 5, "k_typed": "", **values}
    return run_notebook(PLAYGROUND, INPUTS.format(**settings), wanted=("result", "problem"))


LAYOUTS = sorted((REPO / "notebooks" / "decks" / "layouts").glob("*.slides.json"))


@pytest.mark.parametrize("path", DECKS, ids=[p.name for p in DECKS])
def test_deck_runs_headless(path: Path) -> None:
    """Every deck (notebooks/decks/) runs headless too, each of its slides without an error."""
    outputs = run_notebook(path)["outputs"]
    assert len(outputs) == path.read_text(encoding="utf-8").count("\n@app.cell")
    assert not [i for i, text in enumerate(outputs) if "Traceback" in text or 'kind="danger"' in text]


def test_every_deck_layout_has_a_deck_and_its_chapter() -> None:
    """Each deck decks/<stem>.py names layouts/<stem>.slides.json; its chapter is notebooks/<stem>.py."""
    assert [p.name for p in LAYOUTS] == [
        "01_playground.slides.json", "02_gains.slides.json", "03_discounts.slides.json", "04_ideal_list.slides.json",
        "09_graded_vs_binary.slides.json", "12_which_measure.slides.json", "13_significance.slides.json",
    ]  # fmt: skip
    names = {p.name for p in NOTEBOOKS}
    assert [p.name.replace(".slides.json", ".py") for p in LAYOUTS] == [p.name for p in DECKS]
    assert [p.name for p in DECKS if p.name not in names] == []


@pytest.mark.parametrize("layout", LAYOUTS, ids=[p.name for p in LAYOUTS])
def test_deck_layout_has_one_entry_per_cell(layout: Path) -> None:
    """marimo pairs a layout's entries with the deck's cells by position: the counts must agree."""
    data = json.loads(layout.read_text(encoding="utf-8"))
    assert data["type"] == "slides"
    cells = data["data"]["cells"]
    source = (REPO / "notebooks" / "decks" / layout.name.replace(".slides.json", ".py")).read_text(encoding="utf-8")
    assert len(cells) == source.count("\n@app.cell")
    assert {c.get("type") for c in cells} <= {"slide", "fragment", "skip"}
    assert cells[0]["type"] == "skip"  # the import cell shows nothing
    assert cells[1]["type"] == "slide"  # the title opens the deck
    assert all(set(c) <= {"type", "speakerNotes"} for c in cells)
    assert all(isinstance(c.get("speakerNotes", ""), str) for c in cells)
    assert f'layout_file="layouts/{layout.name}"' in source  # the deck names its layout itself
    chapter = (REPO / "notebooks" / layout.name.replace(".slides.json", ".py")).read_text(encoding="utf-8")
    assert "layout_file" not in chapter  # the chapter opens as a page


def test_playground_opens_on_the_lecture_example() -> None:
    result = run_notebook(PLAYGROUND, wanted=("result",))
    shown = html.unescape("\n".join(result["outputs"]))
    for text in ("DCG@5", "IDCG@5", "nDCG@5", "2.4307", "3.1309", "0.7763"):
        assert text in shown
    assert "nDCG@5 with linear gain g(l) = l, discount 1/log2(i+1)" in shown


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"labels": "1, x, 2"}, "Relevance labels: label 2 is 'x', which is not a relevance label."),
        ({"labels": "-1"}, "Relevance labels: label 1 is '-1', a negative label."),
        ({"labels": ""}, "Relevance labels: the list of labels is empty."),
        ({"gain": "table", "gain_table": "0:0, 1"}, "Gain table: gain table entry 2 must look like label:gain; got '1'."),
    ],
    ids=["bad-token", "negative", "empty", "bad-gain-table"],
)
def test_playground_bad_input_shows_the_message_not_a_traceback(values: dict, message: str) -> None:
    result = playground_with(**values)
    shown = html.unescape("\n".join(result["outputs"]))
    assert message in shown
    assert "Cannot compute" in shown
    assert "Traceback" not in shown
    assert result["defs"]["result"] == "None"


def test_playground_says_why_ndcg_is_zero_when_idcg_is_zero() -> None:
    shown = html.unescape("\n".join(playground_with(labels="0, 0, ?")["outputs"]))
    assert "IDCG@5 = 0" in shown and "nothing to divide by" in shown


def test_notebooks_take_the_shared_pieces_from_ndcg_core_ui_widgets() -> None:
    """The error callout and "Check yourself" are written once, in ndcg_core/ui/widgets.py."""
    pasted = ('kind="danger"', "mo.ui.dictionary(", "exercises.card(", "def exercise_card", "## Check yourself",
              "markdown_table(", "Your answer (")
    for path in NOTEBOOKS:
        source = path.read_text(encoding="utf-8")
        found = [needle for needle in pasted if needle in source.replace("tables.markdown_table(", "")]
        assert found == [], f"{path.name} pastes {found}: use ndcg_core.ui.widgets / ndcg_core.ui.tables"


@pytest.mark.parametrize(("typed", "shown"), [
    ("5000", "k = 5000 is beyond the list's 5 documents"),
    ("2.5", "Type k: k must be a whole number of 1 or more; got '2.5', which is not whole. Type 2 or 3"),
    ("0", "Type k: k must be a whole number of 1 or more; got '0'"),
    ("abc", "Type k: k must be a whole number of 1 or more (a cutoff"),
])
def test_a_typed_k_is_taken_as_typed_or_refused(typed: str, shown: str) -> None:
    result = playground_with(k_typed=typed)
    text = html.unescape("\n".join(result["outputs"]))
    assert shown in text
    if typed == "5000":
        assert "nDCG@5000" in text
    else:
        assert result["defs"]["result"] == "None"


def test_fractional_labels_and_negative_gains_are_said() -> None:
    text = html.unescape("\n".join(playground_with(labels="1, 1.5, 0", gain="table",
                                                     gain_table="0:-1, 1:1, 1.5:2")["outputs"]))
    assert "Fractional labels" in text and "A negative gain" in text


def test_two_commas_in_a_row_are_refused() -> None:
    result = playground_with(labels="1,,2")
    text = html.unescape("\n".join(result["outputs"]))
    assert "label 2 is empty: there is nothing between two commas after label 1" in text


def test_the_preset_note_shows_only_while_the_list_is_the_preset_s() -> None:
    """01 said "Lecture example" in blue after the list was edited; now the note (blue, info)
    shows only while the boxes hold the lecture example, else a grey line says it is edited."""
    shown = html.unescape("\n".join(playground_with()["outputs"]))
    edited = html.unescape("\n".join(playground_with(labels="1, 0, 2, 1, 3")["outputs"]))
    lecture_note = "The worked example from the lecture: five results with labels 1, 0, 2, 1, 0."
    assert lecture_note in shown and "Your own list" not in shown
    assert lecture_note not in edited
    # callouts carry their text and kind JSON-encoded in attributes
    note = re.search(r"data-html='([^']*Your own list[^']*)' data-kind='([^']*)'", edited)
    assert note is not None and note.group(2) == '"neutral"'  # grey, not the preset's blue "info"
    assert "edited from the preset \\u003cem\\u003eLecture example\\u003c/em\\u003e" in note.group(1)
    assert re.search(r"data-html='[^']*The worked example from the lecture[^']*' data-kind='\"info\"'", shown)
