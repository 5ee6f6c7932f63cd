"""Deck 04's slides (ndcg_core.ui.decks.ideal): what each slide says, with hand-derived values.

Linear gain, discount 1/log2(i+1) throughout:
- lecture example 1, 0, 2, 1, 0 with judgments 2, 1, 1: DCG@5 = 1 + 2/log2(4) + 1/log2(5) = 2.4307,
  IDCG@5 = 2 + 1/log2(3) + 1/log2(4) = 3.1309, nDCG@5 = 0.7763;
- the trap: run 3, 0, 0, 0, 0, missed 3, 2, 2, 1: DCG@5 = 3, IDCG@5 = 3 + 3/log2(3) + 2/log2(4) +
  2/log2(5) + 1/log2(6) = 7.1410, nDCG@5 = 0.4201; with the ideal from the run, IDCG@5 = 3 and nDCG@5 = 1;
- delay: topic B (one label-3 document at rank r) has nDCG@10 = (3/log2(r+1)) / 3 = 1/log2(r+1), so
  1/log2(3) = 0.6309 at rank 2; topic A (five, from rank 2) has
  (1/log2(3) + 1/log2(4) + 1/log2(5) + 1/log2(6) + 1/log2(7)) / (1 + 1/log2(3) + 1/log2(4) + 1/log2(5) + 1/log2(6));
- cutoff: relevant at ranks 1-8, 30, 60 with R relevant judged: with R = 10 the ideal is used up by
  rank 10 (ΔI = 0); with R = 15, ΔD = 1/log2(31) + 1/log2(61) and ΔI = sum of 1/log2(i+1), i = 11..15.
"""

from __future__ import annotations

import html
import json
import re
from math import log2
from pathlib import Path

import marimo as mo
import pytest

from ndcg_core.teaching import compare, exercises
from ndcg_core.ui import deck, lecture, widgets
from ndcg_core.ui.decks import ideal

REPO = Path(__file__).resolve().parents[2]
LAYOUT = REPO / "notebooks" / "decks" / "layouts" / "04_ideal_list.slides.json"
NOTEBOOK = REPO / "notebooks" / "decks" / "04_ideal_list.py"

DEEP_RUN = [1 if rank <= 8 or rank in (30, 60) else 0 for rank in range(1, 101)]


def delayed_run(first_rank: int, top_documents: int) -> list[int]:
    """As the page builds it: non-relevant documents above `first_rank`, then the label-3 ones."""
    return [0] * (first_rank - 1) + [3] * top_documents


def test_the_decks_data_is_the_pages() -> None:
    assert ideal.DEEP_RUN == DEEP_RUN
    assert [ideal.delayed_run(r, n) for r in (1, 3) for n in (1, 5)] == [delayed_run(r, n) for r in (1, 3) for n in (1, 5)]
    page = (REPO / "notebooks" / "04_ideal_list.py").read_text(encoding="utf-8")
    assert json.dumps(ideal.DELAY_TOPICS) in page and json.dumps(ideal.AVERAGE_JUDGMENTS) in page


def test_the_ideal_slide_has_the_lecture_numbers_and_builds_the_ideal_rank_by_rank() -> None:
    result = ideal.evaluate_ideal("1, 0, 2, 1, 0", "", 5)
    assert result.scored.dcg == pytest.approx(1 + 2 / log2(4) + 1 / log2(5))
    assert result.scored.idcg == pytest.approx(2 + 1 / log2(3) + 1 / log2(4))
    assert f"{result.scored.ndcg:.4f}" == "0.7763"
    page = ideal.ideal_result("1, 0, 2, 1, 0", "", 5, 2).text
    assert "DCG@5" in page and "2.4307" in page and "3.1309" in page and "0.7763" in page
    assert "IDCG@2 = 2.6309" in page  # two presses: ranks 1 and 2 of the ideal
    assert "Your top 5 differs from the ideal top 5, so nDCG@5 &lt; 1." in page


@pytest.mark.parametrize(
    ("labels", "missed", "says"),
    [
        pytest.param("2, 1, 1", "", "Your top 5 carries exactly the ideal gains, so nDCG@5 = 1.", id="ideal"),
        pytest.param("2, 1, 1", "3", "Your top 5 differs from the ideal top 5, so nDCG@5 < 1.", id="missed-3"),
        pytest.param("0, 0, 0", "", "IDCG@5 = 0, there is nothing to divide by, and nDCG@5 is defined as 0.",
                     id="idcg-0"),
    ],
)
def test_the_ideal_slide_says_whether_the_top_k_is_ideal(labels: str, missed: str, says: str) -> None:
    assert says in ideal.ideal_status(ideal.evaluate_ideal(labels, missed, 5))


def test_bad_input_on_the_ideal_slide_shows_the_message_naming_the_token() -> None:
    page = ideal.ideal_result("1, x, 2", "", 5, 0).text
    assert "Cannot compute" in page and "x" in page and "Traceback" not in page


def test_the_trap_scores_one_relevant_document_one_point_zero_with_the_ideal_from_the_run() -> None:
    fair = ideal.evaluate_trap("judgments").scored
    trap = ideal.evaluate_trap("list").scored
    assert fair.dcg == trap.dcg == 3
    assert fair.idcg == pytest.approx(3 + 3 / log2(3) + 2 / log2(4) + 2 / log2(5) + 1 / log2(6))
    assert f"{fair.ndcg:.4f}" == "0.4201"
    assert trap.idcg == 3 and trap.ndcg == 1
    page = ideal.trap_result("list").text
    assert "1.0000" in page and "The ideal ranking: 3 (only what the run found)." in page
    assert "The ideal ranking: 3, 3, 2, 2, 1." in ideal.trap_result("judgments").text
    assert set(ideal.IDEAL_SOURCES.values()) == {"judgments", "list"}
    with pytest.raises(ValueError, match=r"source must be one of 'judgments', 'list'; got 'run'"):
        ideal.evaluate_trap("run")


def test_the_delay_slide_shows_each_topics_ndcg_at_the_chosen_rank() -> None:
    topics = {"A: five of label 3": 5, "B: one of label 3": 1}
    curves = ideal.delay_scores(2, topics, delayed_run)
    assert curves["B: one of label 3"][1] == pytest.approx(1 / log2(3))
    top5 = 1 + 1 / log2(3) + 1 / log2(4) + 1 / log2(5) + 1 / log2(6)
    assert curves["A: five of label 3"][1] == pytest.approx((top5 - 1 + 1 / log2(7)) / top5)
    assert curves["B: one of label 3"][0] == curves["A: five of label 3"][0] == 1  # no delay: ideal
    page = ideal.delay_result(2, topics, delayed_run).text
    assert "nDCG@10 of A" in page and "nDCG@10 of B" in page and f"{1 / log2(3):.4f}" in page
    assert "<svg" in page and "First highly relevant document at rank 2." in page
    with pytest.raises(ValueError, match=r"first_rank must be a whole number from 1 to 6; got 7"):
        ideal.delay_scores(7, topics, delayed_run)


def test_the_cutoff_slide_explains_when_ndcg_at_100_drops() -> None:
    used_up = ideal.cutoff_sentence(DEEP_RUN, [1] * 10)
    assert used_up.startswith("With 10 relevant documents, nDCG@100 is higher than nDCG@10.")
    assert "(ΔI = 0): nDCG@100 cannot be lower." in used_up
    run_gain = 1 / log2(31) + 1 / log2(61)
    ideal_gain = sum(1 / log2(i + 1) for i in range(11, 16))
    drop = ideal.cutoff_sentence(DEEP_RUN, [1] * 15)
    assert drop.startswith("With 15 relevant documents, nDCG@100 is lower than nDCG@10.")
    assert f"ΔD/ΔI = {run_gain / ideal_gain:.4f}, below nDCG@10" in drop
    page = ideal.cutoff_result(DEEP_RUN, [1] * 15).text
    assert "nDCG@10" in page and "nDCG@100" in page and "ndcg-plot" in page


def test_the_averages_slide_shows_the_means_and_the_wins() -> None:
    tables = {
        "steady": compare.per_topic({"t1": [1, 0], "t2": [1, 0]}, {"t1": [1], "t2": [1]}),
        "all or nothing": compare.per_topic({"t1": [1, 0], "t2": [0, 0]}, {"t1": [1], "t2": [1]}),
    }
    page = html.unescape(ideal.average_result(tables).text)
    # steady: 1 and 1 (mean 1); all or nothing: 1 and 0 (mean 0.5), better on no topic
    assert "mean of steady" in page and "1.0000" in page and "0.5000" in page
    assert "'all or nothing' is better on 0 of the 2 topics." in page
    assert "What a mean over 2 topics hides" in page
    with pytest.raises(ValueError, match=r"two systems or more"):
        ideal.average_result({"steady": tables["steady"]})


def test_stat_boxes_use_the_palette_and_refuse_an_unknown_colour() -> None:
    page = ideal.stat_boxes_html([("nDCG@10", 0.87006, "blue")])
    assert "ndcg-stat-value" in page and "0.8701" in page  # 4 decimals
    with pytest.raises(ValueError, match=r"color must be a name of ndcg_core.ui.palette.COLORS; got 'teal'"):
        ideal.stat_boxes_html([("x", 1.0, "teal")])


def test_the_questions_carry_their_place_and_the_vote_its_layout() -> None:
    boxes = widgets.answer_boxes(ideal.EXERCISES)
    first = deck.question(boxes, "ideal-order", hints="under the answer", kicker=ideal.kicker("ideal-order")).text
    assert "Check yourself · question 1 of 3" in first and 'class="ndcg-exercise-question"' in first
    assert first.index("Check yourself") < first.index("Build the ideal ranking")
    vote = deck.question(boxes, "ideal-one-exactly", hints="beside", kicker=ideal.kicker("ideal-one-exactly")).text
    assert "question 3 of 3" in vote and 'class="ndcg-exercise-question ndcg-hints-beside"' in vote
    with pytest.raises(ValueError, match=r"exercise_id must be one of the deck's questions"):
        ideal.kicker("ideal-cutoff")
    with pytest.raises(ValueError, match=r"hints must be one of 'under the answer', 'under the statement', 'beside'"):
        deck.question(boxes, "ideal-order", hints="above")


def test_the_ideal_order_solution_places_one_rank_per_press_and_ends_with_the_answer() -> None:
    text, result = ideal.order_solution_parts()
    assert text.startswith("Relevant in the list: 3, 1, 2. Missed by the list: 2, 1.")
    assert lecture.ideal_rows(result) == 5
    assert list(result.table["ideal_label"][:5]) == [3, 2, 2, 1, 1]
    # IDCG of 3, 2, 2, 1, 1 = 3 + 2/log2(3) + 2/log2(4) + 1/log2(5) + 1/log2(6)
    assert float(result.table["idcg"].iloc[4]) == pytest.approx(3 + 2 / log2(3) + 1 + 1 / log2(5) + 1 / log2(6))
    button = mo.ui.button(label="Next rank of the ideal ranking")
    two = ideal.order_solution(2, button).text
    assert "2 of 5 ranks placed" in two and "Answer:" not in two and "ndcg-step-status" not in two
    assert len(re.findall(r"<tr><td>", two)) == 2
    done = ideal.order_solution(7, button).text
    assert "Answer:" in done and "3, 2, 2, 1, 1 (then zeros)" in done
    assert exercises.check("ideal-order", "3, 2, 2, 1, 1").correct


def test_the_vote_solution_keeps_the_explanation_and_the_answer() -> None:
    md = deck.answer("ideal-one-exactly", tables=False).text
    assert "<table" not in md and "Computed exactly" not in md and "Worked solution." in md
    assert "When IDCG@k &gt; 0 and the top k of the ranking carry the same gains as the top k of the ideal" in md
    assert "<table" in deck.answer("ideal-one-exactly").text


def test_the_trap_solution_slide_steps_one_rank_per_press() -> None:
    button = deck.step_button()
    assert "0 of 6 table rows shown" in deck.solution("ideal-trap-ndcg", button).text

    class Pressed:
        value = 6

    done = deck.solution("ideal-trap-ndcg", Pressed()).text
    assert f"{3 / (3 + 3 / log2(3) + 2 / log2(4)):.4f}" in done and "ndcg-exercise-solution" in done


def test_every_deck_slide_has_speaker_notes_and_the_layout_matches_the_cells() -> None:
    cells = json.loads(LAYOUT.read_text(encoding="utf-8"))["data"]["cells"]
    assert len(cells) == NOTEBOOK.read_text(encoding="utf-8").count("\n@app.cell")
    slides = [cell for cell in cells if cell["type"] == "slide"]
    assert len(slides) == 12
    assert all(len(cell.get("speakerNotes", "")) > 80 for cell in slides)
    # the title (cell 1) opens the deck; the cells that make controls and data are skipped, and
    # every cell after them is a slide or a fragment
    first_slide = 1 + next(i for i, cell in enumerate(cells[2:], 1) if cell["type"] != "skip")
    assert cells[1]["type"] == "slide" and "Segment on normalisation" in cells[1]["speakerNotes"]
    assert {cell["type"] for i, cell in enumerate(cells[:first_slide]) if i != 1} == {"skip"}
    assert "skip" not in {c["type"] for c in cells[first_slide:]}


def test_the_title_and_summary_slides() -> None:
    assert "# The ideal list: what a perfect nDCG means" in ideal.TITLE_MD
    assert "The 1.0 trap" in ideal.TITLE_MD and "nDCG@100 falls below nDCG@10" in ideal.TITLE_MD
    assert "## What to remember" in ideal.REMEMBER_MD
    assert "What to remember" in deck.text("", ideal.REMEMBER_MD).text
    assert "The ideal list" in deck.title(ideal.TITLE_MD).text


def test_the_deck_module_computes_no_score_itself() -> None:
    """Its numbers come from ndcg_core.metrics, teaching and playground.evaluate: no maths of its own."""
    source = Path(ideal.__file__).read_text(encoding="utf-8")
    assert not re.search(r"^\s*(import (math|numpy)|from (math|numpy) import)", source, flags=re.M)
    assert "kernel" not in source and "discounts import" not in source
