"""Chapter 10 (why two nDCG numbers differ) served by ndcg-lab in headless Chromium.

A learner uploads a pair of files through the page's file inputs (inside marimo's shadow
DOM), sets the cutoff, pastes what another tool printed and reads which convention
reproduces it; the "Show me what TOOL would print" button feeds a tool's own number back;
a bad file or a typed server path ends in a message, never a traceback. Every wait is on a
condition (a run settling, a text appearing).
"""

from __future__ import annotations

import re

from marimo_page import (
    assert_no_traceback,
    open_notebook,
    page_text,
    run_and_settle,
    select_option,
    set_number,
    wait_for_text,
)

from shared_pages import on_notebook

import ndcg_core as nc
import ndcg_core.teaching.toy
from ndcg_core.trec import conventions as ncconv

NB10 = "10_why_numbers_differ.py"
TOY = nc.teaching.toy.read_toy_collection()
TARGET_LABEL = "What the other tool printed"

# a tie (d1, d2 in q1; d6, d1 in q2), an unjudged document (d8), a negative label (d4),
# a topic the run missed (q3)
QRELS = "q1 0 d1 2\nq1 0 d2 1\nq1 0 d3 0\nq1 0 d4 -1\nq1 0 d9 3\nq2 0 d1 1\nq2 0 d5 2\nq3 0 d7 1\n"
RUN = (
    "q1 Q0 d2 1 3.0 mine\nq1 Q0 d1 2 3.0 mine\nq1 Q0 d8 3 2.0 mine\nq1 Q0 d4 4 1.5 mine\n"
    "q1 Q0 d3 5 1.0 mine\nq2 Q0 d5 1 0.9 mine\nq2 Q0 d6 2 0.8 mine\nq2 Q0 d1 3 0.8 mine\n"
)


def flat(page) -> str:
    return re.sub(r"\s+", " ", page_text(page))


def type_target(page, text: str) -> None:
    """Fill the target box and leave it (a text area sends its value on blur), then wait."""
    box = page.get_by_label(TARGET_LABEL, exact=True)
    assert box.count() == 1

    def act() -> None:
        box.fill(text)
        box.blur()

    run_and_settle(page, act, what=f"typing {text[:30]!r} into the target box")


def press_show_me(page, tool: str) -> None:
    button = page.get_by_role("button", name=f"Show me what {tool} would print for this run")
    run_and_settle(page, button.click, what=f"pressing the button for {tool}")


@on_notebook(NB10)
def test_the_toy_run_and_the_show_me_button_find_the_tool_again(notebook_pages, artifacts_dir):
    page = notebook_pages.take(NB10)  # the page test_accessibility read, as its first run left it
    scores = nc.trec.score_conventions(TOY.qrels_full, TOY.runs["tuned"], 10)
    sklearn = f"{scores.mean(ncconv.PRESETS['scikit-learn'].convention):.4f}"
    text = flat(page)
    assert f"scikit-learn {sklearn}" in text  # the tools' table, before anything is typed
    assert "Type the number your other tool printed above" in text
    assert_no_traceback(page)

    press_show_me(page, "scikit-learn")
    wait_for_text(page, f"It matches: mean {sklearn} is nDCG@10 under trec_eval's convention with")
    assert page.get_by_label(TARGET_LABEL, exact=True).input_value() == sklearn
    text = flat(page)
    assert "ideal from the retrieved documents only and tied documents sharing their mean gain" in text
    assert "scikit-learn, torchmetrics" in text
    assert "trec_eval's value, the best configuration's value and why they differ" in text
    page.screenshot(path=str(artifacts_dir / "reconcile_page_show_me.png"))

    select_option(page, "Tool", "gdeval")
    page.get_by_label("per topic (qid,value lines)").check()
    wait_for_text(page, "Show me what gdeval would print for this run")
    press_show_me(page, "gdeval")
    gdeval = ncconv.PRESETS["gdeval"].convention
    wait_for_text(page, f"It matches: 10 topics and their mean {scores.mean(gdeval):.4f} is nDCG@10")
    typed = page.get_by_label(TARGET_LABEL, exact=True).input_value()
    assert typed.splitlines()[0] == f"101,{scores.per_topic(gdeval).loc['101']:.4f}"
    assert "exponential gain 2^l - 1" in flat(page)
    assert_no_traceback(page)


def test_an_uploaded_pair_of_files_is_reconciled(lab_server, page, tmp_path, artifacts_dir):
    qrels_path, run_path = tmp_path / "my.qrels", tmp_path / "my.run"
    qrels_path.write_text(QRELS)
    run_path.write_text(RUN)
    open_notebook(page, lab_server, NB10)
    uploads = page.locator("input[type=file]")  # Playwright's CSS reaches into marimo's shadow roots
    assert uploads.count() == 2  # qrels, then run
    run_and_settle(page, lambda: uploads.nth(0).set_input_files(str(qrels_path)), what="uploading my.qrels")
    run_and_settle(page, lambda: uploads.nth(1).set_input_files(str(run_path)), what="uploading my.run")
    select_option(page, "Qrels", "uploaded qrels")
    select_option(page, "Run", "uploaded run")
    wait_for_text(page, "Read uploaded qrels (8 judgments, 3 topics) and uploaded run (8 lines, 2 topics)")
    set_number(page, "Cutoff k", 3)

    truth = nc.trec.score_conventions(nc.read_qrels(QRELS.encode()), nc.read_run(RUN.encode()), 3)
    complete = ncconv.PRESETS["trec_eval -c"].convention
    lines = [f"ndcg_cut_3 {q} {v:.4f}" for q, v in truth.per_topic(complete).items()]
    type_target(page, "\n".join([*lines, f"ndcg_cut_3 all {truth.mean(complete):.4f}"]))
    wait_for_text(page, "It matches: 3 topics and their mean")
    text = flat(page)
    assert "trec_eval -c" in text
    assert f"trec_eval -c {truth.mean(complete):.4f}" in text  # the tools' table for the uploaded pair
    assert "trec_eval's value, the best configuration's value and why they differ" in text
    assert_no_traceback(page)
    page.screenshot(path=str(artifacts_dir / "reconcile_page_upload.png"))

    # what scikit-learn would print for the same pair: found again, its differences named
    press_show_me(page, "scikit-learn")
    sklearn = ncconv.PRESETS["scikit-learn"].convention
    wait_for_text(page, f"It matches: mean {truth.mean(sklearn):.4f} is nDCG@3")
    assert_no_traceback(page)


def test_a_bad_file_and_a_typed_path_are_messages(lab_server, page, tmp_path):
    open_notebook(page, lab_server, NB10)
    type_target(page, "/etc/passwd")
    wait_for_text(page, "Cannot read what you typed: target must be a number such as 0.4312")
    assert "root:" not in page_text(page)

    bad = tmp_path / "broken.run"
    bad.write_text("101 Q0 DOC-0001 1 2.5 mine\n101 Q0 DOC-0002 2 two mine\n")
    uploads = page.locator("input[type=file]")
    run_and_settle(page, lambda: uploads.nth(1).set_input_files(str(bad)), what="uploading broken.run")
    select_option(page, "Run", "uploaded run")
    wait_for_text(page, "broken.run, line 2: score 'two' is not a number (expected 'QID Q0 DOCID RANK SCORE RUN')")
    assert "What each tool would print" not in flat(page)
    assert_no_traceback(page)


def test_a_file_over_the_size_limit_is_refused_in_the_browser(lab_server, page, tmp_path):
    """The browser refuses it before sending anything (marimo's "File upload failed" notice
    names the limit); the page keeps the toy collection's results."""
    from ndcg_core.ui import widgets

    big = tmp_path / "huge.qrels"
    line = "101 0 DOC-0001 1\n"
    big.write_text(line * (widgets.UPLOAD_LIMIT // len(line) + 1))
    open_notebook(page, lab_server, NB10)
    assert "Upload qrels (at most 20 MB)" in flat(page)
    page.locator("input[type=file]").nth(0).set_input_files(str(big))
    notice = page.locator("li", has_text="huge.qrels")
    notice.wait_for()
    assert f"File is larger than {widgets.UPLOAD_LIMIT} bytes" in notice.inner_text()
    assert "What each tool would print for this run" in flat(page)
    assert_no_traceback(page)
