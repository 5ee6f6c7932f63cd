"""Chapter 12 ("Which measure?") in a real browser: the six measures render, follow an edit,
the thinning slider moves the toy collection's numbers, and an exercise checks.

Every expected number is computed here by ndcg_core (the same calls the page makes).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from marimo_page import assert_no_traceback, open_notebook, page_text, run_and_settle, set_text, show_slide_with
from playwright.sync_api import Page, expect
from shared_pages import NotebookPages, on_notebook

import ndcg_core as nc
from ndcg_core.teaching import measures
from ndcg_core.teaching.toy import read_toy_collection
from ndcg_core.ui.widgets import answer_label

pytestmark = pytest.mark.browser

NB12 = "12_which_measure.py"
OTHER_TOPICS = measures.parse_topics("0, 0, 1, 0, 0 | 1\n1, 1, 0 |")  # the page's default second box


def flat(text: str) -> str:
    return " ".join(text.split())


def family(labels, judgments) -> dict[str, float]:
    return measures.measure_values(labels, 5, judgments=judgments, other_topics=OTHER_TOPICS)["value"].to_dict()


@on_notebook(NB12)
def test_12_renders_six_measures_the_table_and_the_figures(notebook_pages: NotebookPages, artifacts_dir: Path) -> None:
    page = notebook_pages.read(NB12)  # only read: shared with the notebook's other tests (shared_pages.py)
    text = flat(page_text(page))
    assert "12 · Which measure?" in text
    values = family([1, 0, 2, 1, 0], [1, 0, 2, 1, 0])
    assert values["nDCG@5"] == pytest.approx(0.7763, abs=5e-5)  # the lecture example
    for name, value in values.items():
        assert f"{value:.4f}" in text, name
    assert "graded complete nDCG@k the top k, grade and position the ideal ranking, i.e. complete judgments" in text
    assert "binary incomplete bpref" in text
    expect(page.locator("img")).not_to_have_count(0)
    page.screenshot(path=str(artifacts_dir / "chapter_12_top.png"))
    page.screenshot(path=str(artifacts_dir / "chapter_12_full.png"), full_page=True)
    assert_no_traceback(page)


def test_12_an_edit_moves_the_numbers(page: Page, lab_server: str) -> None:
    open_notebook(page, lab_server, NB12)
    before = family([1, 0, 2, 1, 0], [1, 0, 2, 1, 0])
    set_text(page, "Judged documents not in the list", "1")
    after = family([1, 0, 2, 1, 0], [1, 0, 2, 1, 0, 1])
    # R grows from 3 to 4: P@R looks at the top 4 = 1, 0, 2, 1, three relevant: 3/4; AP and bpref fall
    assert after["P@R"] == pytest.approx(3 / 4) and after["AP"] < before["AP"] and after["bpref"] < before["bpref"]
    text = flat(page_text(page))
    for name in ("AP", "nDCG@5", "bpref"):
        assert f"{after[name]:.4f}" in text, name
    set_text(page, "Relevance labels", "1, x")
    assert "'x'" in flat(page_text(page))
    assert_no_traceback(page)


def test_12_thinning_the_judgments_follows_the_slider(page: Page, lab_server: str) -> None:
    open_notebook(page, lab_server, NB12)
    toy = read_toy_collection()
    curves = measures.sampling_curves(toy.qrels_full, toy.runs, k=10)
    thumb = page.get_by_role("slider", name="Judgments kept (%)", exact=True)
    expect(thumb).to_have_count(1)
    show_slide_with(page, thumb)
    for percent in (30, 40):
        summary = measures.sampling_summary(curves, percent / 100)
        sentence = (f"With {percent} % of the judgments, bpref keeps {summary.loc['bpref', 'share of full value']:.0%} "
                    f"of its value and MAP {summary.loc['MAP', 'share of full value']:.0%}.")
        assert sentence in flat(page_text(page))
        if percent == 30:
            run_and_settle(page, lambda: (thumb.focus(), page.keyboard.press("ArrowRight")), what="30 % -> 40 %")
    assert_no_traceback(page)


def test_12_an_exercise_checks_and_names_the_mistake(page: Page, lab_server: str, artifacts_dir: Path) -> None:
    open_notebook(page, lab_server, NB12)
    box = page.get_by_label(answer_label("measures-bpref"), exact=True)
    expect(box).to_have_count(1)
    right = nc.exercises.format_answer("measures-bpref")
    run_and_settle(page, lambda: (box.fill(right), box.press("Enter")), what="the right bpref")
    expect(page.locator("marimo-callout-output").filter(has_text="Right: bpref =")).to_have_count(1)
    # ? counted as judged non-relevant: N = 5, (1 + 1/2 + 0) / 4 = 0.375
    run_and_settle(page, lambda: (box.fill("0.38"), box.press("Enter")), what="the unjudged-as-non-relevant bpref")
    warning = page.locator("marimo-callout-output").filter(has_text="Not quite: 0.38 is what bpref comes to")
    expect(warning).to_have_count(1)
    expect(warning).to_contain_text(nc.exercises.MISCONCEPTIONS["bpref-unjudged-as-nonrelevant"].name)
    page.screenshot(path=str(artifacts_dir / "chapter_12_exercise.png"))
    assert_no_traceback(page)
