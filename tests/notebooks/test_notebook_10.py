"""Chapter 10 (why two nDCG numbers differ), run headless with widget values supplied.

The widget cells are replaced (``app.run(defs=...)``) by stand-ins holding the value under
test, so every cell downstream runs as after a learner's edit or upload. The numbers shown
are the library's (``score_conventions``, ``reconcile``); a bad file, a bad cutoff or a bad
target ends in a message, never an exception; nothing typed is ever opened as a path.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from types import SimpleNamespace

import notebook_runs
import pytest

import ndcg_core as nc
import ndcg_core.teaching.toy
from ndcg_core.trec import conventions as ncconv
from ndcg_core.ui import widgets

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "10_why_numbers_differ.py"
TOY = nc.teaching.toy.read_toy_collection(ROOT / "data" / "toy")

# a small pair of files with a tie, an unjudged document, a negative label and a missed topic
QRELS = b"""\
q1 0 d1 2
q1 0 d2 1
q1 0 d3 0
q1 0 d4 -1
q1 0 d9 3
q2 0 d1 1
q2 0 d5 2
q3 0 d7 1
"""
RUN = b"""\
q1 Q0 d2 1 3.0 mine
q1 Q0 d1 2 3.0 mine
q1 Q0 d8 3 2.0 mine
q1 Q0 d4 4 1.5 mine
q1 Q0 d3 5 1.0 mine
q2 Q0 d5 1 0.9 mine
q2 Q0 d6 2 0.8 mine
q2 Q0 d1 3 0.8 mine
"""


@pytest.fixture(scope="module")
def app():
    return notebook_runs.load_app(NOTEBOOK)


def widget(value):
    return SimpleNamespace(value=value)


def upload(name: str | None = None, contents: bytes = b""):
    """Stands in for mo.ui.file: an empty value when nothing was uploaded."""
    value = [SimpleNamespace(name=name, contents=contents)] if name else []
    return SimpleNamespace(value=value, name=lambda index=0: name, contents=lambda index=0: contents)


def _expand(markup: str) -> str:
    def callout(match: re.Match) -> str:
        return " " + _expand(json.loads(html.unescape(match.group(1)))) + " "

    return re.sub(r"<marimo-callout-output data-html='([^']*)'[^>]*>", callout, markup)


def plain(outputs) -> str:
    markup = "\n".join(getattr(o, "text", "") or "" for o in outputs if o is not None)
    text = re.sub(r"<[^>]+>", " ", _expand(markup))
    return re.sub(r"\s+", " ", html.unescape(text))


def inputs(*, target=None, qrels="toy: full truth", run="toy: tuned", k=10, whole=False, qrels_file=None, run_file=None):
    """Stand-ins for the page's widgets; ``target=None`` keeps the page's own (empty) target box."""
    defs = {
        "MAX_CUTOFF": 1000,
        "qrels_choice": widget(qrels),
        "run_choice": widget(run),
        "qrels_upload": upload(*(qrels_file or ())),
        "run_upload": upload(*(run_file or ())),
        "cutoff_number": widget(k),
        "whole_checkbox": widget(whole),
    }
    if target is not None:
        defs["target_text"] = widget(target)
    return defs


def run10(app, **values):
    """Run the page with these inputs (see :func:`inputs`): its text and its definitions."""
    outputs, definitions = app.run(defs=inputs(**values))
    text = plain(outputs)
    assert "Traceback" not in text
    return text, definitions


def test_title_and_the_seven_reasons_are_there():
    outputs, _ = notebook_runs.default_run(NOTEBOOK)
    text = plain(outputs)
    assert "10 · Why do two nDCG numbers differ?" in text
    for heading in ("1. The gain", "2. The discount", "3. The ideal list", "4. Ties", "5. Unjudged documents and negative labels",
                    "6. Which topics enter the mean", "7. The cutoff, off by one"):
        assert heading in text


def test_defaults_show_every_tools_number_for_the_toy_run_and_ask_for_a_target():
    outputs, values = notebook_runs.default_run(NOTEBOOK)
    text = plain(outputs)
    assert "Traceback" not in text
    scores = nc.trec.score_conventions(TOY.qrels_full, TOY.runs["tuned"], 10)
    for name, preset in ncconv.PRESETS.items():
        assert f" {name} {scores.mean(preset.convention):.4f} " in text
    assert "Type the number your other tool printed above" in text
    assert "found" not in values or values["found"] is None


@pytest.mark.parametrize("name", [n for n, p in ncconv.PRESETS.items() if p.verified])
def test_each_verified_tools_mean_fed_back_is_found_again(app, name):
    convention = ncconv.PRESETS[name].convention
    scores = nc.trec.score_conventions(TOY.qrels_full, TOY.runs["tuned"], 10)
    printed = f"{scores.mean(convention):.4f}"
    text, values = run10(app, target=printed)
    found = values["found"]
    assert found.matched
    assert any(name in row.split(", ") for row in found.matches["presets"])
    assert f"It matches: mean {printed} is nDCG@10 under trec_eval's" in text
    assert found.best.describe(10) in text


def test_per_topic_values_pin_down_scikit_learn(app):
    convention = ncconv.PRESETS["scikit-learn"].convention
    scores = nc.trec.score_conventions(TOY.qrels_full, TOY.runs["tuned"], 10)
    printed = "\n".join(f"{q},{v:.4f}" for q, v in scores.per_topic(convention).items())
    text, values = run10(app, target=printed + f"\nall,{scores.mean(convention):.4f}")
    found = values["found"]
    assert found.matched
    assert set(found.best.differences(ncconv.TREC_EVAL, topics=False)) == {"ideal", "ties"}
    assert "ideal from the retrieved documents only instead of ideal from all judged documents" in text
    # the per-topic table shows each topic's reason, from the library
    table = found.topic_table()
    assert table["reason"].iat[0] in text
    assert "Topic by topic" in text and "The candidates" in text


def test_an_uploaded_pair_with_trec_eval_q_output_matches_trec_eval_minus_c(app):
    truth = nc.trec.score_conventions(nc.read_qrels(QRELS), nc.read_run(RUN), 3)
    convention = ncconv.PRESETS["trec_eval -c"].convention
    lines = [f"ndcg_cut_3\t{q}\t{v:.4f}" for q, v in truth.per_topic(convention).items()]
    target = "\n".join([*lines, f"ndcg_cut_3\tall\t{truth.mean(convention):.4f}"]) + "\n"
    text, values = run10(app, target=target, qrels="uploaded qrels", run="uploaded run", k=3,
                         qrels_file=("my.qrels", QRELS), run_file=("my.run", RUN))
    assert "Read uploaded qrels (8 judgments, 3 topics) and uploaded run (8 lines, 2 topics)" in text
    found = values["found"]
    assert found.matched
    assert found.target.per_topic.keys() == {"q1", "q2", "q3"}
    assert "trec_eval -c" in ", ".join(found.matches["presets"])


def test_whole_run_cutoff(app):
    scores = nc.trec.score_conventions(TOY.qrels_full, TOY.runs["tuned"], None)
    printed = f"{scores.mean(ncconv.TREC_EVAL):.4f}"
    text, values = run10(app, target=printed, whole=True)
    assert values["found"].matched and values["found"].scores.k is None
    assert "That is trec_eval's own convention." in text
    assert "nDCG (whole run)" in text


def test_a_percentage_matches_nothing_and_says_divide_by_100(app):
    text, values = run10(app, target="83.15")
    assert not values["found"].matched
    assert "Nothing matches mean 83.15" in text
    assert "divide it by 100" in text


@pytest.mark.parametrize(
    "target, message",
    [
        pytest.param("high", "target must be a number such as 0.4312", id="word"),
        pytest.param("/etc/passwd", "target must be a number such as 0.4312", id="server-path"),
        pytest.param("data/toy/qrels.txt", "target must be a number such as 0.4312", id="relative-path"),
        pytest.param("ndcg_cut_5 101 0.5\nndcg_cut_5 102 0.4\n", "the pasted values are ndcg_cut_5, but the cutoff above asks for nDCG@10",
                     id="other-measure"),
        pytest.param("101,0.5\n999,0.4\n", "lists topic 999 that neither the qrels nor the run hold", id="unknown-topic"),
        pytest.param("101,0.5\n101,0.4\n", "line 2: topic 101 is listed twice", id="twice"),
        pytest.param("101 zero\n102 0.4\n", "line 1: 'zero' is not a number", id="not-a-number"),
        pytest.param("101,zero\n", "holds no nDCG values", id="header-only"),
    ],
)
def test_a_bad_target_is_a_message(app, target, message):
    text, values = run10(app, target=target)
    assert "Cannot read what you typed:" in text
    assert message in text
    assert values.get("found") is None
    assert "root:" not in text  # /etc/passwd was never opened


@pytest.mark.parametrize(
    "files, message",
    [
        pytest.param({"run_file": ("broken.run", b"101 Q0 D1 1 2.5 r\n101 Q0 D2 2 two r\n"), "qrels": "toy: full truth"},
                     "broken.run, line 2: score 'two' is not a number", id="bad-run-line"),
        pytest.param({"qrels_file": ("broken.qrels", b"101 0 D1 1\n101 0 D2\n")},
                     "broken.qrels, line 2:", id="bad-qrels-line"),
        pytest.param({"qrels_file": ("huge.qrels", b"101 0 D1 1\n" * (widgets.UPLOAD_LIMIT // 11 + 1))},
                     f"more than the {widgets.UPLOAD_LIMIT:,} allowed here", id="too-large"),
        pytest.param({"qrels_file": ("picture.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")}, "picture.png", id="binary"),
        pytest.param({}, "Upload a qrels file (at most 20 MB)", id="nothing-uploaded"),
    ],
)
def test_a_bad_upload_is_a_message(app, files, message):
    qrels = files.pop("qrels", "uploaded qrels")
    run = "uploaded run" if "run_file" in files else "toy: tuned"
    text, values = run10(app, target="0.5", qrels=qrels, run=run, **files)
    assert message in text
    assert values.get("found") is None and values.get("scores") is None


@pytest.mark.parametrize("k, said", [
    (None, "got nothing. Type a whole number of ranks, e.g. 10."),
    (0, "got 0. A cutoff counts ranks, so it starts at 1: type 1 or more."),
    (-3, "got -3. A cutoff counts ranks, so it starts at 1: type 1 or more."),
    (2.5, "got 2.5. Type a whole number of ranks, e.g. 10."),
    (1001, "got 1001. For a cutoff deeper than 1,000, tick No cutoff (nDCG of the whole run)."),
    (100000, "got 100000. For a cutoff deeper than 1,000, tick No cutoff"),
])
def test_a_bad_cutoff_is_a_message(app, k, said):
    text, values = run10(app, target="0.5", k=k)
    assert "Cutoff k must be a whole number of ranks from 1 to 1000; " + said in text
    assert values.get("found") is None


def test_the_cutoff_box_does_not_clamp_what_is_typed(app):
    """The number box has no bounds, so the browser passes 0, -3 or 100000 on as typed (it
    clamped 0 to 1 and 100000 to 1,000 without a word, and dropped -3); the page says why."""
    import ast

    tree = ast.parse(NOTEBOOK.read_text(encoding="utf-8"))
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and any(
        k.arg == "label" and isinstance(k.value, ast.Constant) and k.value.value == "Cutoff k" for k in n.keywords))
    assert not {k.arg for k in call.keywords} & {"start", "stop"} and not call.args


@pytest.mark.parametrize("target, said", [
    ("-0.5", "nDCG lies between 0 and 1, so -0.5 (the mean) cannot be an nDCG value."),
])
def test_a_target_outside_0_1_is_a_message(app, target, said):
    text, values = run10(app, target=target, k=10)
    assert said in text
    assert values.get("found") is None


def test_the_page_reimplements_no_formula():
    source = NOTEBOOK.read_text(encoding="utf-8")
    for needle in ("log2(", "np.", "math.", "2 **", "/ idcg", "sum("):
        assert needle not in source.replace(r"\log_2", ""), needle


def test_an_upload_left_unused_is_pointed_out(app):
    text, _ = run10(app, qrels_file=("my.qrels", QRELS))
    assert "You uploaded my.qrels: choose uploaded qrels in Qrels to use it." in text


def test_many_topics_get_a_paged_topic_table(app):
    qrels = "".join(f"t{t:02d} 0 d{d} {(t + d) % 3}\n" for t in range(40) for d in range(6)).encode()
    run = "".join(f"t{t:02d} Q0 d{d} {d + 1} {1.0 - d / 10:.1f} r\n" for t in range(40) for d in (5, 0, 7, 2)).encode()
    scores = nc.trec.score_conventions(nc.read_qrels(qrels), nc.read_run(run), 3)
    printed = f"{scores.mean(ncconv.PRESETS['exam'].convention):.4f}"
    outputs, values = app.run(defs=inputs(target=printed, qrels="uploaded qrels", run="uploaded run", k=3,
                                          qrels_file=("many.qrels", qrels), run_file=("many.run", run)))
    assert values["found"].matched
    assert "exam" in ", ".join(values["found"].matches["presets"])
    markup = "\n".join(getattr(o, "text", "") or "" for o in outputs if o is not None)
    after = markup.split("largest change first", 1)[1]
    assert after.index("<marimo-table") < after.index("What to remember")  # 40 topics: a paged table
