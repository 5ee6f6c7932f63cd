"""Chapter 13 (is run B really better?) in a real browser: the page renders its figures and
numbers, the topics slider moves the interval, and an exercise checks a typed answer.

Every expected number is computed here by ndcg_core.trec.significance.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from marimo_page import assert_no_traceback, page_text, run_and_settle, select_option
from playwright.sync_api import Page, expect
from shared_pages import NotebookPages, on_notebook

from ndcg_core import trec
from ndcg_core.teaching import significance_demo as demo
from ndcg_core.teaching.exercises import MISCONCEPTIONS
from ndcg_core.trec.significance import compare_runs, paired_comparison
from ndcg_core.ui.widgets import answer_label

pytestmark = pytest.mark.browser

NB13 = "13_significance.py"
TOY = Path(__file__).resolve().parents[2] / "data" / "toy"


def flat(text: str) -> str:
    return " ".join(text.split())


def callout(page: Page, kind: str, text: str):
    return page.locator(f"marimo-callout-output[data-kind='\"{kind}\"']").filter(has_text=text)


@on_notebook(NB13)
def test_13_renders_compares_and_checks_an_exercise(notebook_pages: NotebookPages, artifacts_dir: Path) -> None:
    page = notebook_pages.take(NB13)  # the page test_accessibility read, as its first run left it
    qrels = trec.read_qrels(TOY / "qrels.txt")
    runs = {n: trec.read_run(TOY / f"run_{n}.txt") for n in ("classic", "tuned", "novel")}
    pair = compare_runs(qrels, {"classic": runs["classic"], "tuned": runs["tuned"]}, "ndcg_cut.10")[0].pairs[0]
    text = flat(page_text(page))
    assert f"{pair.mean_difference:+.4f}" in text and f"[{pair.ci_low:+.4f}, {pair.ci_high:+.4f}]" in text
    assert f"{pair.randomization_p_value:.4f}" in text
    expect(page.locator("img[src^='data:image/png']")).to_have_count(4, timeout=60_000)  # bars, null distribution, interval, p-value grid
    page.screenshot(path=str(artifacts_dir / "chapter13_top.png"), full_page=False)

    select_option(page, "Run B", "novel")
    other = compare_runs(qrels, {"classic": runs["classic"], "novel": runs["novel"]}, "ndcg_cut.10")[0].pairs[0]
    assert f"{other.mean_difference:+.4f}" in flat(page_text(page))

    slider = page.get_by_role("slider", name="Topics used", exact=True)
    expect(slider).to_have_count(1)
    run_and_settle(page, lambda: (slider.focus(), page.keyboard.press("End")), what="all 200 topics")
    scores = demo.simulated_pair(**demo.SLIDER_PAIR)
    full = paired_comparison(scores["A"], scores["B"], rounds=4000)
    text = flat(page_text(page)).replace(" :", ":")  # the bold count is its own element
    assert f"With 200 topics: mean difference {full.mean_difference:+.4f}" in text, text[text.find("With "):][:200]

    box = page.get_by_label(answer_label("signif-t-by-hand"), exact=True)
    expect(box).to_have_count(1)
    box.scroll_into_view_if_needed()
    run_and_settle(page, lambda: (box.fill("1.09"), box.press("Enter")), what="an unpaired t")
    warning = callout(page, "warn", "Not quite: 1.09 is what")
    expect(warning).to_have_count(1)
    expect(warning).to_contain_text(MISCONCEPTIONS["unpaired-test"].name)
    run_and_settle(page, lambda: (box.fill("2.45"), box.press("Enter")), what="the right t")
    expect(callout(page, "success", "Right: the paired t statistic =")).to_have_count(1)
    page.screenshot(path=str(artifacts_dir / "chapter13_exercise.png"), full_page=False)
    assert_no_traceback(page)
