"""Chapter 13 (is run B really better?), run headless with many widget values.

The widget cells are replaced (``app.run(defs=...)``) by stand-ins holding the value under
test; every figure the page shows must be ndcg_core.trec.significance's, and bad input must
end in a callout, never an exception.
"""

from __future__ import annotations

import html
import importlib.util
import json
import re
from pathlib import Path
from types import SimpleNamespace

import marimo as mo
import pytest

from ndcg_core import trec
from ndcg_core.teaching import significance_demo as demo
from ndcg_core.teaching.exercises import MISCONCEPTIONS, format_answer, get
from ndcg_core.trec.significance import compare_runs, format_p, paired_comparison

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "13_significance.py"
TOY = ROOT / "data" / "toy"


@pytest.fixture(scope="module")
def app():
    spec = importlib.util.spec_from_file_location("chapter_13", NOTEBOOK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.app


def widget(value, **extra):
    return SimpleNamespace(value=value, **extra)


def upload(name: str | None = None, contents: bytes = b""):
    value = [SimpleNamespace(name=name, contents=contents)] if name else []
    return SimpleNamespace(value=value, name=lambda index=0: name, contents=lambda index=0: contents)


def _expand(markup: str) -> str:
    def callout(match: re.Match) -> str:
        kind = json.loads(html.unescape(match.group(2)))
        return f" [callout {kind}] " + _expand(json.loads(html.unescape(match.group(1)))) + " "

    return re.sub(r"<marimo-callout-output data-html='([^']*)' data-kind='([^']*)'[^>]*>", callout, markup)


def plain(outputs) -> str:
    parts = []
    for o in outputs:
        text = getattr(o, "text", "") if o is not None else ""
        parts.append(text if isinstance(text, str) else "")
    text = re.sub(r"<[^>]+>", " ", _expand("\n".join(parts)))
    return re.sub(r"\s+", " ", html.unescape(text))


def run13(app, *, measure=("nDCG@10", "ndcg_cut.10"), a="classic", b="tuned", uploads=(None, None, None), draw=0,
          topics=10, answers=None):
    defs = {
        "measure_dropdown": widget(measure[1], selected_key=measure[0]),
        "baseline_dropdown": widget(a),
        "other_dropdown": widget(b),
        "qrels_upload": uploads[0] or upload(),
        "run_a_upload": uploads[1] or upload(),
        "run_b_upload": uploads[2] or upload(),
        "draw_button": widget(draw),
        "topics_slider": widget(topics),
    }
    if answers is not None:
        defs["chapter_answers"] = answers
    outputs, found = app.run(defs=defs)
    return plain(outputs), found, outputs


def toy_pair(a, b, measure):
    qrels = trec.read_qrels(TOY / "qrels.txt")
    runs = {a: trec.read_run(TOY / f"run_{a}.txt"), b: trec.read_run(TOY / f"run_{b}.txt")}
    return compare_runs(qrels, runs, measure)[0].pairs[0]


def test_default_page_shows_the_librarys_figures(app):
    text, found, outputs = run13(app)
    expected = toy_pair("classic", "tuned", "ndcg_cut.10")
    pair = found["pair"]
    assert pair.mean_difference == expected.mean_difference
    assert f"Mean difference B − A {expected.mean_difference:+.4f}" in text
    assert f"[{expected.ci_low:+.4f}, {expected.ci_high:+.4f}]" in text
    assert f"p, randomization test {expected.randomization_p_value:.4f}" in text
    assert f"p, paired t-test {expected.t_p_value:.4f}" in text
    assert f"{expected.wins} / {expected.ties} / {expected.losses}" in text
    assert "Traceback" not in text and "[callout danger]" not in text
    figures = [o for o in outputs if type(o).__name__ == "Figure"]
    assert len(figures) == 2  # the sorted differences and the randomization distribution


@pytest.mark.parametrize("measure", [("nDCG (whole run)", "ndcg"), ("nDCG@5", "ndcg_cut.5")])
@pytest.mark.parametrize(("a", "b"), [("classic", "novel"), ("tuned", "classic")])
def test_every_run_and_measure(app, measure, a, b):
    text, found, _ = run13(app, measure=measure, a=a, b=b)
    expected = toy_pair(a, b, measure[1])
    assert found["pair"].t_p_value == pytest.approx(expected.t_p_value, rel=1e-12)
    assert f"Mean of {b} (B) {expected.mean_other:.4f}" in text


def test_the_same_run_twice_is_a_message(app):
    text, found, _ = run13(app, a="novel", b="novel")
    assert found["pair"] is None
    assert "[callout danger]" in text and "runs novel and novel are the same run: there is no difference to test" in text
    assert "Pick two different runs to see their per-topic differences" in text
    assert "Traceback" not in text


def test_uploaded_files_are_compared(app):
    files = {name: (TOY / name).read_bytes() for name in ("qrels.txt", "run_classic.txt", "run_novel.txt")}
    uploads = (upload("qrels.txt", files["qrels.txt"]), upload("run_classic.txt", files["run_classic.txt"]),
               upload("run_novel.txt", files["run_novel.txt"]))
    text, found, _ = run13(app, uploads=uploads)
    expected = toy_pair("classic", "novel", "ndcg_cut.10")
    assert found["pair"].baseline == "run_classic.txt" and found["pair"].other == "run_novel.txt"
    assert found["pair"].mean_difference == pytest.approx(expected.mean_difference, abs=1e-12)


def test_a_missing_or_bad_upload_is_a_message(app):
    qrels = upload("qrels.txt", (TOY / "qrels.txt").read_bytes())
    text, found, _ = run13(app, uploads=(qrels, None, None))
    assert found["pair"] is None and "Upload a run A file" in text
    bad = upload("mine.run", b"101 Q0 d1 1 high mine\n")
    text, found, _ = run13(app, uploads=(qrels, bad, upload("b.run", (TOY / "run_novel.txt").read_bytes())))
    assert found["pair"] is None and "mine.run, line 1" in text and "Traceback" not in text


@pytest.mark.parametrize("topics", [3, 20, 200])
def test_topics_slider_moves_the_interval(app, topics):
    text, _, _ = run13(app, topics=topics)
    scores = demo.simulated_pair(**demo.SLIDER_PAIR)
    expected = paired_comparison(scores["A"][:topics], scores["B"][:topics], rounds=4000)
    assert f"With {topics} topics : mean difference {expected.mean_difference:+.4f}" in text
    assert f"[{expected.ci_low:+.4f}, {expected.ci_high:+.4f}]" in text


def test_tiny_and_large_pairs_say_what_they_claim(app):
    text, _, _ = run13(app)
    assert "Significant but tiny" in text and "Large but not significant" in text
    for config, significant in ((demo.TINY_BUT_SIGNIFICANT, True), (demo.LARGE_NOT_SIGNIFICANT, False)):
        scores = demo.simulated_pair(**config)
        r = paired_comparison(scores["A"], scores["B"])
        assert (r.randomization_p_value < 0.05) is significant and (r.t_p_value < 0.05) is significant
        assert f"randomization p: {format_p(r.randomization_p_value)}" in text
    tiny = paired_comparison(*demo.simulated_pair(2000, 0.004, 0.02, seed=13).to_numpy().T)
    assert abs(tiny.mean_difference) < 0.01  # tiny: under a hundredth of nDCG


@pytest.mark.parametrize("draw", [0, 5])
def test_many_comparisons_trap_counts_raw_and_holm(app, draw):
    text, _, _ = run13(app, draw=draw)
    match = re.search(r"Draw (\d+): (\d+) of 190 pairs have p < 0.05 .* Holm's correction for the 190 comparisons: (\d+)", text)
    assert match and int(match.group(1)) == draw + 1
    assert int(match.group(3)) <= int(match.group(2))


class Answers:
    """Stands in for the chapter's answer boxes after some were checked."""

    def __init__(self, submitted):
        ids = ("signif-mean-difference", "signif-t-by-hand", "signif-p-value-meaning", "signif-tiny-but-significant",
               "signif-large-not-significant", "signif-many-comparisons")
        self.value = {i: {"answer": submitted.get(i), "check": 1 if i in submitted else 0} for i in ids}

    def __getitem__(self, ex_id):
        return {"answer": mo.md(f"(answer box of {ex_id})"), "check": mo.md("(Check)")}


def test_exercises_check_answers_and_name_mistakes(app):
    text, found, _ = run13(app)
    assert list(found["chapter_answers"].value) == list(Answers({}).value)
    right = {ex_id: format_answer(ex_id) for ex_id in Answers({}).value}
    text, _, _ = run13(app, answers=Answers(right))
    assert text.count("[callout success] Right") == 6
    text, _, _ = run13(app, answers=Answers({"signif-t-by-hand": "1.09"}))
    assert "[callout warn] Not quite: 1.09 is what the paired t statistic comes to with" in text
    assert MISCONCEPTIONS["unpaired-test"].name in text
    assert get("signif-t-by-hand").chapter == "13"
