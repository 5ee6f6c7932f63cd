"""Chapters 02 gains, 03 discounts, 04 the ideal list, run headless with many widget values.

Each notebook's widget cell is replaced (``app.run(defs=...)``) by stand-in widgets holding
the value under test, so every cell downstream runs as it would after a learner's edit. A
bad value must end in a message (a callout), never in an exception, and the numbers shown
must be ndcg_core's.
"""

from __future__ import annotations

import html
import json
import math
import re
from math import log2
from pathlib import Path
from types import SimpleNamespace

import notebook_runs
import pytest

import ndcg_core as nc

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
CHAPTERS = ("02_gains.py", "03_discounts.py", "04_ideal_list.py")


def load_app(filename: str):
    """The notebook's app, imported once per session (tests/notebook_runs.py)."""
    return notebook_runs.load_app(filename)


@pytest.fixture(scope="module")
def apps():
    return {name: load_app(name) for name in CHAPTERS}


def widget(value, selected_key=None):
    """Stands in for a marimo widget: cells only read ``.value`` (and a dropdown's ``.selected_key``)."""
    return SimpleNamespace(value=value, selected_key=selected_key)


def html_of(outputs) -> str:
    return "\n".join(getattr(o, "text", "") or "" for o in outputs if o is not None)


def _expand(markup: str) -> str:
    """Inline what marimo keeps in attributes: a callout's HTML, a stat's label and value."""

    def callout(match: re.Match) -> str:
        return " " + _expand(json.loads(html.unescape(match.group(1)))) + " "

    def stat(match: re.Match) -> str:
        attrs = {key: json.loads(html.unescape(value)) for key, value in re.findall(r"data-(\w+)='([^']*)'", match.group(0))}
        return f" {attrs.get('label', '')} {attrs.get('value', '')} "

    markup = re.sub(r"<marimo-callout-output data-html='([^']*)'[^>]*>", callout, markup)
    return re.sub(r"<marimo-stat [^>]*>", stat, markup)


def plain(outputs) -> str:
    """Output text as a learner reads it: tags removed, callouts and stats inlined."""
    text = re.sub(r"<[^>]+>", " ", _expand(html_of(outputs)))
    return re.sub(r"\s+", " ", html.unescape(text))


def shown(x: float) -> str:
    """How the chapters' tables print a number: whole numbers bare, others to 4 decimals."""
    return str(int(x)) if float(x).is_integer() else f"{x:.4f}"


def test_each_chapter_runs_headless_with_its_defaults(apps):
    for name in apps:
        outputs, _defs = notebook_runs.default_run(name)
        assert any(o is not None for o in outputs), name
        assert "Traceback" not in html_of(outputs), name


# ---- 02 gains ---------------------------------------------------------------------------------


def run_02(app, labels="2, 3, 0, 1, 2"):
    return app.run(defs={"labels_text": widget(labels)})


def test_02_default_numbers_are_ndcg_cores(apps):
    outputs, _ = notebook_runs.default_run("02_gains.py")
    text = plain(outputs)
    labels = [2, 3, 0, 1, 2]
    promoted = [3, 3, 0, 1, 2]
    # Rank 1 goes from 2 to 3: DCG before and after under both gains, and the factors 3/2, 7/3.
    for gain in ("linear", "exponential"):
        assert f"{nc.dcg(labels, gain=gain):.4f}" in text
        assert f"{nc.dcg(promoted, gain=gain):.4f}" in text
    assert f"{3 / 2:.4f}" in text and f"{7 / 3:.4f}" in text
    # Swap example: nDCG@4 of 3,0,0,2 and 2,0,0,3 with judgments 3,2.
    assert f"{(7 + 3 / log2(5)) / (7 + 3 / log2(3)):.4f}" in text
    assert f"{(3 + 7 / log2(5)) / (7 + 3 / log2(3)):.4f}" in text
    # CG ignores order: 2+3+0+1+2 = 8 for the list and its reverse.
    assert text.count(f"{2 + 3 + 0 + 1 + 2:.4f}") == 2


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        pytest.param("", "the list of labels is empty", id="empty"),
        pytest.param("1, x, 2", "label 2 is 'x', which is not a relevance label", id="word"),
        pytest.param("1 -2", "label 2 is '-2', a negative label", id="negative"),
        pytest.param("2000, 1", "label 1 is '2000', far above any relevance scale", id="huge"),
        pytest.param("1e400", "far above any relevance scale", id="overflow"),
    ],
)
def test_02_bad_labels_show_the_message(apps, typed, message):
    outputs, _ = run_02(apps["02_gains.py"], typed)
    assert message in plain(outputs)
    assert "marimo-callout-output" in html_of(outputs)


@pytest.mark.parametrize("typed", ["?", "0", "0, 0, 0", "? ? 1", "0.5 1.5 2.5", "1000", "3"])
def test_02_odd_but_valid_lists_run(apps, typed):
    outputs, _ = run_02(apps["02_gains.py"], typed)
    labels = nc.parse_labels(typed)
    assert f"{nc.dcg(labels):.4f}" in plain(outputs)


def test_02_promote_a_deeper_rank_and_a_new_label(apps):
    app = apps["02_gains.py"]
    labels = nc.parse_labels("2, 3, 0, 1, 2")
    outputs, _ = app.run(defs={
        "labels": labels,
        "labels_error": None,
        "promote_rank_slider": widget(3),
        "promote_label_dropdown": widget("2"),
    })
    text = plain(outputs)
    # Rank 3 goes from 0 to 2: no factor (from gain 0); DCG grows by g(2)/log2(4).
    assert f"{nc.dcg(labels) + 2 / log2(4):.4f}" in text
    assert f"{nc.dcg(labels, gain='exponential') + 3 / log2(4):.4f}" in text


@pytest.mark.parametrize(
    ("table", "message"),
    [
        pytest.param("", "gain table must have at least one label:gain entry", id="empty"),
        pytest.param("0:0, 1:x", "gain table entry 2 must be two numbers label:gain", id="not-number"),
        pytest.param("0:0, 1:1", "gain table has no gain for label 2", id="missing-label"),
        pytest.param("0:0 0:1", "gain table lists label 0 twice", id="twice"),
    ],
)
def test_02_bad_gain_table_shows_the_message(apps, table, message):
    outputs, _ = apps["02_gains.py"].run(defs={"gain_table_text": widget(table)})
    assert message in plain(outputs)


def test_02_custom_gain_table_numbers(apps):
    outputs, _ = apps["02_gains.py"].run(defs={"gain_table_text": widget("0:0, 1:1, 2:4, 3:9")})
    labels = [2, 3, 0, 1, 2]
    table = {0: 0, 1: 1, 2: 4, 3: 9}
    assert f"{nc.dcg(labels, gain=table):.4f}" in plain(outputs)
    assert f"{4 / 1 + 9 / log2(3) + 0 + 1 / log2(5) + 4 / log2(6):.4f}" in plain(outputs)


# ---- 03 discounts -------------------------------------------------------------------------------


def run_03(app, labels="1, 0, 2, 1, 0", discount="log2", k=5, jk_base=2, log_base=10.0, log_key="10"):
    return app.run(defs={
        "labels_text": widget(labels),
        "discount_dropdown": widget(discount),
        "k_slider": widget(k),
        "jk_base_slider": widget(jk_base),
        "log_base_dropdown": widget(log_base, log_key),
    })


@pytest.mark.parametrize(
    ("discount", "base", "expected_ndcg"),
    [
        pytest.param("log2", None, (1 + 2 / log2(4) + 1 / log2(5)) / (2 + 1 / log2(3) + 1 / log2(4)), id="log2"),
        pytest.param("log2_shifted", None, (1 / log2(3) + 2 / log2(5) + 1 / log2(6)) / (2 / log2(3) + 1 / log2(4) + 1 / log2(5)), id="shifted"),
        pytest.param("reciprocal", None, (1 + 2 / 3 + 1 / 4) / (2 + 1 / 2 + 1 / 3), id="reciprocal"),
        pytest.param("jarvelin_kekalainen", 2, (1 + 2 / log2(3) + 1 / log2(4)) / (2 + 1 / log2(2) + 1 / log2(3)), id="jk2"),
        pytest.param("jarvelin_kekalainen", 3, (1 + 2 / 1 + 1 / (math.log(4) / math.log(3))) / (2 + 1 + 1), id="jk3"),
        pytest.param("none", None, (1 + 2 + 1) / (2 + 1 + 1), id="CG"),
    ],
)
def test_03_chosen_discount_on_the_lecture_example(apps, discount, base, expected_ndcg):
    outputs, _ = run_03(apps["03_discounts.py"], discount=discount, jk_base=base or 2)
    text = plain(outputs)
    assert f"nDCG@5 {expected_ndcg:.4f}" in text
    described = nc.NDCGConfig(discount=discount, base=base, k=5).describe()
    assert described in html_of(outputs)


@pytest.mark.parametrize(("log_base", "key"), [(2.0, "2"), (math.e, "e ≈ 2.718"), (3.0, "3"), (10.0, "10")])
def test_03_log_base_scales_dcg_and_leaves_ndcg(apps, log_base, key):
    outputs, _ = run_03(apps["03_discounts.py"], log_base=log_base, log_key=key)
    text = plain(outputs)
    dcg2 = 1 + 2 / log2(4) + 1 / log2(5)
    assert f"{log2(log_base) * dcg2:.4f}" in text
    assert f"nDCG stays at {dcg2 / (2 + 1 / log2(3) + 1 / log2(4)):.4f}" in text


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        pytest.param("", "the list of labels is empty", id="empty"),
        pytest.param("1; x", "label 2 is 'x'", id="word"),
        pytest.param("5000", "far above any relevance scale", id="huge"),
    ],
)
def test_03_bad_labels_show_the_message(apps, typed, message):
    outputs, _ = run_03(apps["03_discounts.py"], labels=typed)
    assert message in plain(outputs)


@pytest.mark.parametrize("k", [1, 10])
def test_03_cutoff_beyond_or_at_the_top(apps, k):
    outputs, _ = run_03(apps["03_discounts.py"], k=k)
    assert f"nDCG@{k} {nc.ndcg([1, 0, 2, 1, 0], k, judgments=[1, 2, 1]):.4f}" in plain(outputs)


# ---- 04 the ideal list --------------------------------------------------------------------------


def run_04(app, labels="1, 0, 2, 1, 0", missed="", k=5, **more):
    defs = {"labels_text": widget(labels), "missed_text": widget(missed), "k_slider": widget(k)}
    defs.update(more)
    return app.run(defs=defs)


def test_04_lecture_example(apps):
    outputs, _ = run_04(apps["04_ideal_list.py"])
    text = plain(outputs)
    assert "DCG@5 2.4307" in text and "IDCG@5 3.1309" in text and "nDCG@5 0.7763" in text
    assert "differs from the ideal top 5" in text


def test_04_missed_documents_enter_the_ideal(apps):
    outputs, _ = run_04(apps["04_ideal_list.py"], labels="3", missed="3, 2, 2, 1", k=5)
    text = plain(outputs)
    ideal = 3 + 3 / log2(3) + 2 / log2(4) + 2 / log2(5) + 1 / log2(6)
    assert f"nDCG@5 {3 / ideal:.4f}" in text
    # The exam shortcut: the ideal from the list itself is the list, so nDCG = 1.
    assert f"your list {3 / ideal:.4f} 1 one document of label 3 {3 / ideal:.4f} 1" in text


def test_04_ideal_top_k_gives_one(apps):
    outputs, _ = run_04(apps["04_ideal_list.py"], labels="2, 1, 1, 0, 0", k=5)
    text = plain(outputs)
    assert "nDCG@5 1.0000" in text
    assert "carries exactly the ideal gains" in text


def test_04_idcg_zero_is_explained(apps):
    outputs, _ = run_04(apps["04_ideal_list.py"], labels="0, 0, ?", k=3)
    text = plain(outputs)
    assert "nDCG@3 0.0000" in text
    assert "IDCG@k = 0" in text


@pytest.mark.parametrize(
    ("labels", "missed", "message"),
    [
        pytest.param("", "", "Relevance labels: the list of labels is empty", id="empty-list"),
        pytest.param("1, 2", "1, ?", "Judged documents not in the list: judged document 2 is '?', but every "
                     "document here was judged", id="unjudged-missed"),
        pytest.param("1, 2", "x", "Judged documents not in the list: label 1 is 'x'", id="word-missed"),
        pytest.param("1, 2", "-1", "Judged documents not in the list: label 1 is '-1', a negative label", id="negative-missed"),
    ],
)
def test_04_bad_input_shows_the_message(apps, labels, missed, message):
    """The message names the box it is about and shows once (it showed twice, unnamed)."""
    outputs, _ = run_04(apps["04_ideal_list.py"], labels=labels, missed=missed)
    text = plain(outputs)
    assert message in text
    assert text.count(message) == 1


@pytest.mark.parametrize("relevant", [10, 15, 60])
def test_04_non_monotone_example(apps, relevant):
    outputs, defs = run_04(apps["04_ideal_list.py"], relevant_slider=widget(relevant))
    run = defs["DEEP_RUN"]
    assert len(run) == 100 and sum(run) == 10 and run[29] == run[59] == 1
    at10 = sum(1 / log2(i + 1) for i in range(1, 9)) / sum(1 / log2(i + 1) for i in range(1, 11))
    at100 = (sum(1 / log2(i + 1) for i in range(1, 9)) + 1 / log2(31) + 1 / log2(61)) / sum(
        1 / log2(i + 1) for i in range(1, relevant + 1)
    )
    text = plain(outputs)
    assert f"nDCG@10 {at10:.4f}" in text and f"nDCG@100 {at100:.4f}" in text
    assert at100 != at10
    relation = "lower" if at100 < at10 else "higher"
    assert f"With {relevant} relevant documents, nDCG@100 is {relation} than nDCG@10." in text


def test_04_fifteen_relevant_documents_make_ndcg_100_lower():
    run = [1 if r <= 8 or r in (30, 60) else 0 for r in range(1, 101)]
    assert nc.ndcg(run, 100, judgments=[1] * 15) < nc.ndcg(run, 10, judgments=[1] * 15)


@pytest.mark.parametrize("first", [1, 2, 6])
def test_04_delay_example(apps, first):
    outputs, _ = run_04(apps["04_ideal_list.py"], delay_slider=widget(first))
    text = plain(outputs)
    one = 3 / log2(first + 1) / 3
    five = sum(3 / log2(i + 1) for i in range(first, first + 5)) / sum(3 / log2(i + 1) for i in range(1, 6))
    assert f"A: five of label 3 5 {shown(five)} B: one of label 3 1 {shown(one)}" in text


def test_04_average_example(apps):
    outputs, defs = run_04(apps["04_ideal_list.py"])
    tables = defs["average_tables"]
    assert tables["all or nothing"]["ndcg"].tolist() == [1.0, 1.0, 0.0, 1.0]
    assert tables["steady"]["ndcg"].mean() > tables["all or nothing"]["ndcg"].mean()
    assert "better on 3 of the 4 topics" in plain(outputs)


# ---- slides layouts -----------------------------------------------------------------------------


@pytest.mark.parametrize("filename", CHAPTERS)
def test_slides_layout_matches_the_deck(filename):
    # The chapter names no layout (ndcg-lab shows it as a page); its deck, decks/<stem>.py, names
    # layouts/<stem>.slides.json beside it.
    assert load_app(filename)._config.layout_file is None
    assert load_app(f"decks/{filename}")._config.layout_file == f"layouts/{filename[:-3]}.slides.json"
    layout = json.loads((NOTEBOOKS / "decks" / "layouts" / f"{filename[:-3]}.slides.json").read_text())
    assert layout["type"] == "slides"
    cells = layout["data"]["cells"]
    source = (NOTEBOOKS / "decks" / filename).read_text()
    assert len(cells) == len(re.findall(r"^@app\.cell", source, flags=re.M))
    assert {c.get("type") for c in cells} <= {"slide", "fragment", "skip"}
    assert cells[0]["type"] == "skip"  # the import cell has no output
    assert cells[1]["type"] == "slide"  # the title opens the deck
    assert all(set(c) <= {"type", "speakerNotes"} for c in cells)


# ---- guards in ndcg_core that keep these chapters from showing inf or a traceback ---------------


def test_typed_label_above_the_scale_is_refused():
    with pytest.raises(ValueError, match=r"label 2 is '1001', far above any relevance scale \(at most 1000\)\. Type small grades"):
        nc.parse_labels("1 1001")
    with pytest.raises(ValueError, match=r"label 1 is '10000000000000000\.\.\.', far above"):
        nc.parse_labels("1" + "0" * 400)
    assert nc.parse_labels("1000") == [1000]


def test_exponential_gain_refuses_labels_that_overflow():
    with pytest.raises(ValueError, match=r"exponential gain 2\^l - 1 needs labels of at most 1000; got label 2000.*Use linear gain"):
        nc.dcg([2000, 1], gain="exponential")
    assert math.isfinite(nc.dcg([1000] * 5, gain="exponential"))
