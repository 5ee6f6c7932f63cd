"""Chapters 05 and 06 served by ndcg-lab in headless Chromium: change the main widget, the
numbers recompute to ndcg_core's values, bad input ends in a message, never a traceback."""

from __future__ import annotations

import re

from marimo_page import assert_no_traceback, open_notebook, page_text, run_and_settle, select_option, set_text

import ndcg_core as nc
import ndcg_core.teaching.compare
import ndcg_core.teaching.exam
import ndcg_core.teaching.pooling
import ndcg_core.teaching.toy

TOY = nc.teaching.toy.read_toy_collection()  # data/toy, the notebooks' own default


def flat(page) -> str:
    return re.sub(r"\s+", " ", page_text(page))


def test_05_labels_recompute_and_bad_input_is_a_message(lab_server, page):
    open_notebook(page, lab_server, "05_unjudged.py")
    judged = [3, 2, 1, 0, 2, 0, 2, 1]
    before = nc.score([3, None, 2, None, None, 1, 0, None, 2, 0], 5, judgments=judged)
    assert f"nDCG@5 · unjudged = gain 0 {before.ndcg:.4f}" in flat(page)
    assert "Best system · truth novel" in flat(page)

    set_text(page, "Relevance labels", "?, 3, ?, 2, 1")
    labels = [None, 3, None, 2, 1]
    judgments = nc.teaching.compare.judged_labels(labels, [2, 1])
    zero = nc.score(labels, 5, judgments=judgments)
    condensed = nc.score(labels, 5, judgments=judgments, unjudged="condense")
    text = flat(page)
    assert f"nDCG@5 · unjudged = gain 0 {zero.ndcg:.4f}" in text
    assert f"nDCG@5 · condensed {condensed.ndcg:.4f}" in text
    assert "Unjudged in the top 5 40%" in text
    assert_no_traceback(page)

    set_text(page, "Relevance labels", "3, x, 1")
    assert "label 2 is 'x', which is not a relevance label" in flat(page)
    assert_no_traceback(page)


def test_06_run_choice_recomputes_and_a_bad_upload_names_file_and_line(lab_server, page, tmp_path):
    open_notebook(page, lab_server, "06_evaluating_runs.py")
    tuned = nc.evaluate_run(TOY.qrels, TOY.runs["tuned"], "ndcg_cut.10").mean["ndcg_cut_10"]
    assert f"Mean nDCG@10 {tuned:.4f}" in flat(page)

    select_option(page, "Run", "toy: novel")
    novel = nc.evaluate_run(TOY.qrels, TOY.runs["novel"], ["ndcg_cut.10", "unjudged_cut.10"]).mean
    text = flat(page)
    assert f"Mean nDCG@10 {novel['ndcg_cut_10']:.4f}" in text
    assert f"Unjudged in the top 10 {novel['unjudged_cut_10']:.0%}" in text
    assert f"ndcg_cut_10 all {novel['ndcg_cut_10']:.4f}" in text
    assert_no_traceback(page)

    bad = tmp_path / "broken.run"
    bad.write_text("101 Q0 DOC-0001 1 2.5 mine\n101 Q0 DOC-0002 2 two mine\n")
    uploads = page.locator("input[type=file]")
    assert uploads.count() == 2  # qrels, then run
    run_and_settle(page, lambda: uploads.nth(1).set_input_files(str(bad)), what="uploading broken.run")
    select_option(page, "Run", "uploaded run")
    assert "broken.run, line 2: score 'two' is not a number (expected 'QID Q0 DOCID RANK SCORE RUN')" in flat(page)
    assert "Mean nDCG@10" not in flat(page)
    assert_no_traceback(page)
