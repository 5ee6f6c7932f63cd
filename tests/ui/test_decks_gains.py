"""Deck 02's slides (ndcg_core.ui.decks.gains, the words of ndcg_core.ui.deck), with values derived by hand.

Discounts 1/log2(i+1): d(1) = 1, d(2) = 1/log2(3) = 0.6309, d(3) = 1/log2(4) = 0.5,
d(4) = 1/log2(5) = 0.4307. Gains: linear g(l) = l (0, 1, 2, 3), exponential 2^l - 1 (0, 1, 3, 7).
"""

from __future__ import annotations

from math import log2

import pytest

from ndcg_core.teaching.exercises import card
from ndcg_core.ui import deck as words
from ndcg_core.ui.decks import gains as deck

SWAP = deck.SWAP_RUNS
FLIP = deck.FLIP_RUNS


def test_the_two_run_slides_runs() -> None:
    # the swap exchanges the 3 (rank 1) and the 2 (rank 4); the flip: three 2s against one 3
    assert SWAP == {"A: 3 on top": [3, 0, 0, 2], "B: 2 on top": [2, 0, 0, 3]} and deck.SWAP_JUDGMENTS == [3, 2]
    assert FLIP == {"A: three 2s": [2, 2, 2, 0], "B: one 3": [3, 0, 0, 0]} and deck.FLIP_JUDGMENTS == [3, 2, 2, 2]


def test_title_slide_says_what_the_segment_covers() -> None:
    assert deck.TITLE_MD.lstrip().startswith("# Gains: what a relevance label is worth")
    for topic in ("gain function", "Linear", "exponential", "flip which run wins", "Three exercises"):
        assert topic in deck.TITLE_MD


def test_gain_table_values_under_the_three_gains() -> None:
    # 0:0, 1:0.5, 2:2, 3:5 beside linear (0, 1, 2, 3) and exponential (0, 1, 3, 7)
    table = deck.gain_table_values({0: 0, 1: 0.5, 2: 2, 3: 5})
    assert list(table.index) == [0, 1, 2, 3]
    assert table["linear"].tolist() == [0, 1, 2, 3]
    assert table["exponential"].tolist() == [0, 1, 3, 7]
    assert table["your table"].tolist() == [0, 0.5, 2, 5]
    shown = deck.gains_numbers_html({0: 0, 1: 0.5}).replace(' style="text-align: right;"', "")
    assert "<th>label ℓ</th>" in shown and "<td>your table</td>" in shown and "<td>0.50</td>" in shown


def test_gain_slide_with_a_typo_shows_the_message() -> None:
    shown = deck.gains_result("0:0, 1").text
    assert "Gain table:" in shown and "entry 2 must look like label:gain" in shown
    assert "ndcg-deck-problem" in shown


def test_promotion_numbers() -> None:
    # 2, 1 with rank 1 going from 2 to 3:
    #   linear      gain 2 -> 3, factor 3/2 = 1.5;  DCG 2 + 1/log2(3) = 2.6309 -> 3 + 0.6309 = 3.6309
    #   exponential gain 3 -> 7, factor 7/3 = 2.33; DCG 3 + 1/log2(3) = 3.6309 -> 7 + 0.6309 = 7.6309
    assert f"{2 + 1 / log2(3):.4f}" == "2.6309"
    shown = deck.promote_numbers_html([2, 1], 1, 3)
    for text in ("rank 1: 2 → 3", "2 → 3", "3 → 7", "×1.5", "×2.33", "2.6309", "3.6309", "7.6309", "DCG after"):
        assert text in shown, text


def test_promotion_from_gain_0_has_no_factor() -> None:
    # 0, 1 with rank 1 going from 0 to 2: no factor (0 times anything is 0);
    # DCG 1/log2(3) = 0.6309 -> linear 2 + 0.6309 = 2.6309, exponential 3 + 0.6309 = 3.6309
    shown = deck.promote_numbers_html([0, 1], 1, 2)
    assert shown.count("<td>from 0</td>") == 2 and "×" not in shown
    assert "0.6309" in shown and "2.6309" in shown and "3.6309" in shown


def test_promotion_of_an_unjudged_document() -> None:
    # ?, 2 with rank 1 judged 3: the unjudged document counted gain 0 before, so no factor;
    # DCG 2/log2(3) = 1.2619 -> linear 3 + 1.2619 = 4.2619, exponential 3/log2(3) = 1.8928 -> 7 + 1.8928 = 8.8928
    shown = deck.promote_numbers_html([None, 2], 1, 3)
    assert "rank 1: ? → 3" in shown and shown.count("<td>from 0</td>") == 2
    for text in ("0 → 3", "0 → 7", "1.2619", "4.2619", "1.8928", "8.8928"):
        assert text in shown, text


def test_promotion_of_a_rank_outside_the_list_shows_the_message() -> None:
    shown = deck.promote_result([2, 1], 3, 3).text
    assert "Cannot compute" in shown and "rank" in shown


def test_swap_scores_and_gap() -> None:
    # judged 3 and 2, k = 4. IDCG linear 3 + 2/log2(3) = 4.2619, exponential 7 + 3/log2(3) = 8.8928.
    # A (3 at rank 1, 2 at rank 4): linear 3 + 2/log2(5) = 3.8614 -> 0.9060; exponential 7 + 3/log2(5) = 8.2920 -> 0.9324
    # B (2 at rank 1, 3 at rank 4): linear 2 + 3/log2(5) = 3.2920 -> 0.7724; exponential 3 + 7/log2(5) = 6.0147 -> 0.6764
    idcg_lin, idcg_exp = 3 + 2 / log2(3), 7 + 3 / log2(3)
    a = ((3 + 2 / log2(5)) / idcg_lin, (7 + 3 / log2(5)) / idcg_exp)
    b = ((2 + 3 / log2(5)) / idcg_lin, (3 + 7 / log2(5)) / idcg_exp)
    assert [f"{x:.4f}" for x in (*a, *b)] == ["0.9060", "0.9324", "0.7724", "0.6764"]
    scores = deck.runs_scores(SWAP, [3, 2], 4)
    assert scores.loc["A: 3 on top"].tolist() == pytest.approx(list(a))
    assert scores.loc["B: 2 on top"].tolist() == pytest.approx(list(b))
    shown = deck.runs_numbers_html(SWAP, [3, 2], 4, gap=True)
    assert "gap A − B" in shown and "0.1336" in shown and "0.2561" in shown  # the gap doubles with exponential gain
    assert "<th>nDCG@4</th>" in shown


def test_flip_changes_the_winner() -> None:
    # judged 3, 2, 2, 2, k = 4. IDCG linear 3 + 2/log2(3) + 2/log2(4) + 2/log2(5) = 6.1233;
    # exponential 7 + 3 (1/log2(3) + 1/log2(4) + 1/log2(5)) = 11.6848.
    # A (2, 2, 2, 0): linear 2 + 1.2619 + 1 = 4.2619 -> 0.6960; exponential 3 + 1.8928 + 1.5 = 6.3928 -> 0.5471
    # B (3, 0, 0, 0): linear 3 -> 0.4899; exponential 7 -> 0.5991
    scores = deck.runs_scores(FLIP, [3, 2, 2, 2], 4)
    assert [f"{x:.4f}" for x in scores["linear gain"]] == ["0.6960", "0.4899"]
    assert [f"{x:.4f}" for x in scores["exponential gain"]] == ["0.5471", "0.5991"]
    shown = deck.runs_numbers_html(FLIP, [3, 2, 2, 2], 4)
    assert "higher nDCG" in shown
    assert shown.index("<td>A</td>") < shown.index("<td>B</td>")  # linear column first: A, then exponential: B


def test_both_runs_share_the_y_axis() -> None:
    a = deck.runs_figure(SWAP, 4, "A: 3 on top")
    b = deck.runs_figure(SWAP, 4, "B: 2 on top")
    # run A's top bar is the exponential gain 7 of its label-3 document at rank 1 (d(1) = 1); run B's
    # tallest is 3 (7/log2(5) = 3.0147 at rank 4): both figures keep the axis that fits the 7
    assert a.axes[0].get_ylim() == b.axes[0].get_ylim() and a.axes[0].get_ylim()[1] > 7
    assert b.axes[0].get_title() == "Run B: 2 on top: what each rank adds"
    shown = deck.runs_result(SWAP, [3, 2], 4, "B: 2 on top").text
    assert "<svg" in shown and "ndcg-deck-numbers" in shown
    with pytest.raises(ValueError, match=r"shown_run must be one of"):
        deck.runs_result(SWAP, [3, 2], 4, "C")


def test_solution_in_sections_one_rank_per_press() -> None:
    md = card("gains-compare", None).folded["Worked solution"]
    text, rows = words.solution_sections_step(md, 1)
    assert rows == 6 and "Ranking B" not in text and "| 1 | 3 | 2^3 - 1 = 7 |" in text
    text, _ = words.solution_sections_step(md, 3)  # A complete with its sums: DCG@3 = 7, nDCG 7 / 10.3928
    assert "= 7 + 0 + 0 = 7" in text and "nDCG = 7 / 10.3928 = 0.6735" in text and "Ranking B" not in text
    text, _ = words.solution_sections_step(md, 4)  # A folds to one line, B's first rank
    assert "**Ranking A, exponential gain g(l) = 2^l - 1:** IDCG = 10.3928" in text
    assert "| 2 | 2^2 - 1 = 3 |" in text and "| 1 | 3 | 2^3 - 1 = 7 |" not in text and "Answer" not in text
    text, _ = words.solution_sections_step(md, 6)  # B: 3 + 3/log2(3) = 4.8928, nDCG 0.4708; the answer
    assert text.endswith("**Answer:** Ranking A") and "nDCG = 4.8928 / 10.3928 = 0.4708" in text


def test_solution_with_one_table_is_solution_step() -> None:
    md = card("gains-exp-dcg", None).folded["Worked solution"]
    for shown in range(7):
        assert words.solution_sections_step(md, shown) == words.solution_step(md, shown)


def test_concept_answer_and_text_slides() -> None:
    shown = words.answer("gains-weighting").text
    assert "Worked solution." in shown and "chosen weighting" in shown
    slide = words.text("What to remember", "- one\n- two", ask="**Ask:** why?").text
    assert "<h2>What to remember</h2>" in slide and "ndcg-deck-ask" in slide
