"""Deck 03's slides (ndcg_core.ui.decks.discounts, the words of ndcg_core.ui.deck) on the lecture example 1, 0, 2, 1, 0.

Every number below is derived by hand (the derivation beside it) and only then compared with
what the slide shows; the slide takes its numbers from ndcg_core, so a match means both agree.
The list holds every judged document of its query (2, 1, 1), so the ideal list is 2, 1, 1, 0, 0.
"""

from __future__ import annotations

import html
import json
import re
from math import e, log, log2
from pathlib import Path

import pytest

from ndcg_core.teaching import exercises
from ndcg_core.ui import deck as words
from ndcg_core.ui.decks import discounts as deck

REPO = Path(__file__).resolve().parents[2]

# standard discount: DCG@5 = 1/1 + 0 + 2/log2(4) + 1/log2(5) + 0; IDCG@5 = 2/1 + 1/log2(3) + 1/log2(4)
DCG2 = 1 + 2 / 2 + 1 / log2(5)  # 2.4307
IDCG2 = 2 + 1 / log2(3) + 1 / 2  # 3.1309


def shown(widget_or_html: object) -> str:
    """The visible text of a slide's HTML: tags dropped, entities decoded, spaces folded."""
    text = getattr(widget_or_html, "text", widget_or_html)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", str(text))).split())


def test_the_lecture_example_under_the_standard_discount() -> None:
    assert (f"{DCG2:.4f}", f"{IDCG2:.4f}", f"{DCG2 / IDCG2:.4f}") == ("2.4307", "3.1309", "0.7763")
    text = shown(deck.discount_result("log2", 5))
    assert "DCG@5 2.4307" in text and "IDCG@5 3.1309" in text and "nDCG@5 0.7763" in text
    assert "Chosen: discount 1/log2(i+1)" in text


@pytest.mark.parametrize(
    ("discount", "k", "dcg", "idcg", "words"),
    [
        # 1/i: DCG@5 = 1 + 2/3 + 1/4; IDCG@5 = 2 + 1/2 + 1/3
        ("reciprocal", 5, 1 + 2 / 3 + 1 / 4, 2 + 1 / 2 + 1 / 3, "reciprocal discount 1/i"),
        # shifted: DCG@5 = 1/log2(3) + 2/log2(5) + 1/log2(6); IDCG@5 = 2/log2(3) + 1/log2(4) + 1/log2(5)
        ("log2_shifted", 5, 1 / log2(3) + 2 / log2(5) + 1 / log2(6), 2 / log2(3) + 1 / 2 + 1 / log2(5), "1/log2(i+2)"),
        # Järvelin–Kekäläinen, b = 2: 1 below rank 2, then 1/log2(i): DCG@5 = 1 + 0 + 2/log2(3) + 1/2;
        # IDCG@5 = 2 + 1/log2(2) + 1/log2(3)
        ("jarvelin_kekalainen", 5, 1 + 2 / log2(3) + 1 / 2, 2 + 1 + 1 / log2(3), "Järvelin–Kekäläinen discount with base 2"),
        # no discount (CG): 1 + 2 + 1 = 4 = IDCG, so nDCG = 1: the order is ignored
        ("none", 5, 4.0, 4.0, "no discount"),
        # k = 3: DCG@3 = 1 + 0 + 2/2 = 2; IDCG@3 = 3.1309 (the ideal's three relevant documents)
        ("log2", 3, 2.0, IDCG2, "1/log2(i+1)"),
    ],
)
def test_each_discount_and_cutoff_moves_the_three_numbers(discount: str, k: int, dcg: float, idcg: float, words: str) -> None:
    text = shown(deck.discount_result(discount, k))
    assert f"DCG@{k} {dcg:.4f}" in text
    assert f"IDCG@{k} {idcg:.4f}" in text
    assert f"nDCG@{k} {dcg / idcg:.4f}" in text
    assert words in text


def test_hidden_numbers_hide_the_values_and_the_plot() -> None:
    page = deck.discount_result("reciprocal", 5, hidden=True).text
    assert f"{(1 + 2 / 3 + 1 / 4):.4f}" not in page and "?.????" in page
    assert "<img" not in page and "The numbers are hidden" in page


def test_a_bad_cutoff_is_a_message_not_a_traceback() -> None:
    page = html.unescape(deck.discount_result("log2", 0).text)
    assert "marimo-callout-output" in page and "danger" in page
    assert "Cannot compute:" in page and "got k=0. Use k=None to score the whole ranking, or a cutoff of at least 1." in page


@pytest.mark.parametrize(
    ("head", "log_share", "rec_share"),
    [
        # ranks 1..10 of 1..100: sum of 1/log2(i+1) over 1..10 / over 1..100; 1/i: H10 / H100
        (10, sum(1 / log2(i + 1) for i in range(1, 11)) / sum(1 / log2(i + 1) for i in range(1, 101)),
         sum(1 / i for i in range(1, 11)) / sum(1 / i for i in range(1, 101))),
        (1, 1 / sum(1 / log2(i + 1) for i in range(1, 101)), 1 / sum(1 / i for i in range(1, 101))),
    ],
)
def test_the_weight_share_of_the_top_ranks(head: int, log_share: float, rec_share: float) -> None:
    assert f"{log_share:.0%}" == ("22%" if head == 10 else "5%")
    text = shown(deck.share_result(head))
    assert f"1/log₂(i+1) {log_share:.0%}".replace("%", " %") in text
    assert f"1/i {rec_share:.0%}".replace("%", " %") in text
    assert f"none {head / 100:.0%}".replace("%", " %") in text  # no discount: h of 100 equal weights
    assert f"in the top {head}" in text  # the plot's legend


def test_the_sinking_document_under_ap_and_dcg() -> None:
    # alone: AP 1/10 -> 1/100 and DCG with 1/i the same, both lose 90 %; log2: 1 - log2(11)/log2(101)
    lost_log = 1 - log2(11) / log2(101)
    assert f"{lost_log:.0%}" == "48%"
    text = shown(deck.sink_result(100))
    assert "AP 90 %" in text and "DCG, 1/i 90 %" in text and "DCG, log₂ 48 %" in text
    assert "0.1000 0.0100 90 %" in text  # AP's row: before, after, lost
    # a second relevant document at rank 1 (R = 2): AP (1/1 + 2/10)/2 = 0.6 -> (1/1 + 2/100)/2 = 0.51
    text = shown(deck.sink_result(100, True))
    assert "AP 15 %" in text and "0.6000 0.5100 15 %" in text
    # DCG with 1/i: 1 + 1/10 = 1.1 -> 1 + 1/100 = 1.01, lost 0.09/1.1 = 8 %
    assert "DCG, 1/i 8 %" in text and "1.1000 1.0100" in text


def test_the_shifted_variant_gives_a_second_answer() -> None:
    text = shown(deck.shifted_slide())
    shifted_dcg = 1 / log2(3) + 2 / log2(5) + 1 / log2(6)  # 1.8791
    shifted_idcg = 2 / log2(3) + 1 / log2(4) + 1 / log2(5)  # 2.1925
    assert f"1/log₂(i+1), standard {DCG2:.4f} {IDCG2:.4f} {DCG2 / IDCG2:.4f}" in text
    assert f"1/log₂(i+2), shifted {shifted_dcg:.4f} {shifted_idcg:.4f} {shifted_dcg / shifted_idcg:.4f}" in text
    assert "standard" in shown(deck.exam_code_note())


@pytest.mark.parametrize("base", [2.0, e, 3.0, 10.0])
def test_the_log_base_scales_dcg_and_leaves_ndcg(base: float) -> None:
    # 1/log_b(x) = log2(b) / log2(x): every term, so DCG and IDCG, is log2(b) times its base-2 value
    text = shown(deck.base_result(base, "log"))
    assert f"DCG@5 {log2(base) * DCG2:.4f} base 2: {DCG2:.4f}" in text
    assert f"IDCG@5 {log2(base) * IDCG2:.4f} base 2: {IDCG2:.4f}" in text
    assert f"nDCG@5 {DCG2 / IDCG2:.4f}" in text and f"nDCG stays at {DCG2 / IDCG2:.4f}" in text
    assert f"DCG is {log2(base):.4f} × base 2's (log₂ b = {log2(base):.4f})" in text


def test_the_base_moves_ndcg_for_jarvelin_kekalainen() -> None:
    # b = 3: 1 for ranks 1 and 2, then 1/log3(i): DCG@5 = 1 + 0 + 2/1 + 1/log3(4); IDCG@5 = 2 + 1 + 1
    dcg3 = 3 + log(3) / log(4)
    at_2 = (1 + 2 / log2(3) + 1 / 2) / (2 + 1 + 1 / log2(3))  # b = 2, as in the parametrised test above
    text = shown(deck.base_result(3.0, "jarvelin_kekalainen"))
    assert f"DCG@5 {dcg3:.4f}" in text and "IDCG@5 4.0000" in text
    assert f"nDCG moves: {at_2:.4f} → {dcg3 / 4:.4f}" in text
    assert "nDCG stays at" in shown(deck.base_result(2.0, "jarvelin_kekalainen"))


def test_the_candidates_table_and_the_title() -> None:
    text = shown(deck.candidates_slide())
    # 1/log2(i+1) at ranks 1, 2, 5, 10, 100: 1, 1/log2(3), 1/log2(6), 1/log2(11), 1/log2(101)
    assert "1/log₂(i+1), standard 1 0.63 0.39 0.29 0.15" in text
    assert "1/i, reciprocal 1 0.50 0.20 0.10 0.01" in text
    assert "none (plain CG) 1 1 1 1 1" in text
    assert deck.TITLE_MD.lstrip().startswith("# Discounts") and "Two exercises" in deck.TITLE_MD


def test_number_boxes_refuse_a_colour_outside_the_palette() -> None:
    with pytest.raises(ValueError, match="color must be a name of ndcg_core.ui.palette.COLORS; got 'pink'"):
        deck.number_boxes_html([("x", "1", "", "pink")])


def test_the_deck_exercises_and_their_solutions_reveal_one_rank_per_press() -> None:
    for ex_id in deck.EXERCISES:
        solution = exercises.card(ex_id, None).folded["Worked solution"]
        assert [words.solution_step(solution, n)[1] for n in range(6)] == [5] * 6  # five ranks

    class Pressed:  # a step button pressed five times
        value = 5

    page = shown(words.solution("discounts-shifted-dcg", Pressed()))
    # 1/log2(2+1) + 2/log2(5) + 1/log2(6) = 0.6309 + 0.8614 + 0.3869 = 1.8791
    assert "DCG@5 = 1.8791 ≈ 1.88" in page and "table rows shown" not in page
    assert "0 of 5 table rows shown" in shown(words.solution("discounts-shifted-dcg", words.step_button()))


def test_every_slide_of_the_layout_has_speaker_notes() -> None:
    cells = json.loads((REPO / "notebooks" / "decks" / "layouts" / "03_discounts.slides.json").read_text())["data"]["cells"]
    slides = [c for c in cells if c["type"] == "slide"]
    assert len(slides) >= 10
    assert all(len(c.get("speakerNotes", "")) > 80 for c in slides)
    source = (REPO / "notebooks" / "decks" / "03_discounts.py").read_text()
    deck_cells = re.split(r"^@app\.cell", source, flags=re.MULTILINE)[1:]
    assert len(deck_cells) == len(cells)
    for cell, entry in zip(deck_cells, cells):
        if "deck." in cell.split("return")[0] and "step_button" not in cell:  # a cell that draws a slide
            assert entry["type"] != "skip", f"a slide's cell is skipped in the layout:\n{cell[:200]}"


def test_weight_share_curves_can_dash_each_curve_and_shorten_the_axis_label() -> None:
    from ndcg_core.ui import plots

    plain = plots.weight_share_curves(deck.SHARE_DISCOUNTS, 100, 10)
    assert {line.get_linestyle() for line in plain.axes[0].get_lines()[:4]} == {"-"}  # the page's figure
    assert plain.axes[0].get_ylabel() == "share of the weight of ranks 1–100"
    dashed = plots.weight_share_curves(deck.SHARE_DISCOUNTS, 100, 10, dashes=True, ylabel="share of the weight")
    # told apart without colour: one solid curve and three dash patterns (the grey rank-10 marker is dotted)
    plain_dashes = set(re.findall(r"stroke-dasharray: ([^;\"]+)", plots.to_svg(plain)))
    dashes = set(re.findall(r"stroke-dasharray: ([^;\"]+)", plots.to_svg(dashed)))
    assert len(dashes - plain_dashes) == 3
    assert dashed.axes[0].get_ylabel() == "share of the weight"


def test_the_question_slide_keeps_the_question() -> None:
    from ndcg_core.ui import widgets

    answers = widgets.answer_boxes(deck.EXERCISES)
    page = words.question(answers, "discounts-shifted-dcg", hints="under the answer").text
    assert 'class="ndcg-exercise-question"' in page
    assert "DCG@5 with the shifted discount" in shown(page)
