"""The lecturer's toolbar (ndcg_core.ui.lecture) and the decks' solution stepper (ndcg_core.ui.deck),
on the lecture example.

Lecture example 1, 0, 2, 1, 0 with judgments 2, 1, 1 (linear gain, 1/log2(i+1), k = 5): the ideal
ranking places 2, 1, 1 at ranks 1-3, so IDCG@1 = 2/log2(2) = 2, IDCG@2 = 2 + 1/log2(3) = 2.6309,
IDCG@3 = 2.6309 + 1/log2(4) = 3.1309, and ranks 4 and 5 add nothing.
"""

from __future__ import annotations

from math import log2

import pytest

from ndcg_core.teaching.exercises import card
from ndcg_core.ui import deck, front, lab, lecture, playground

LECTURE = playground.evaluate("1, 0, 2, 1, 0", "", k=5)


def test_the_deck_switch_has_one_name() -> None:
    assert lab.DECK_ENV == front.DECK_ENV == "NDCG_LAB_DECK"


def test_the_handout_switch_has_one_name_and_prints_every_rank(monkeypatch: pytest.MonkeyPatch) -> None:
    from ndcg_core.ui import handout

    assert handout.HANDOUT_ENV == deck.HANDOUT_ENV == "NDCG_LAB_HANDOUT"
    monkeypatch.setenv("NDCG_LAB_HANDOUT", "1")
    # 1, 0, 2, 1, 0 with k = 5: the ideal 2, 1, 1 has three ranks with gain, all shown at 0 presses
    assert [lecture.ideal_step_count(LECTURE, n) for n in range(3)] == [3, 3, 3]
    # the whole worked solution, including its last line (nDCG@5 = 2.4307 / 3.1309 = 0.7763)
    text = deck.solution("lecture-ndcg", None).text
    assert "0.7763" in text and "table rows shown" not in text


def test_the_ideal_ranking_one_rank_per_press_then_again() -> None:
    assert lecture.ideal_rows(LECTURE) == 3
    assert [lecture.ideal_step_count(LECTURE, n) for n in range(9)] == [0, 1, 2, 3, 0, 1, 2, 3, 0]
    with pytest.raises(ValueError, match=r"presses must be a whole number >= 0; got -1"):
        lecture.ideal_step_count(LECTURE, -1)


@pytest.mark.parametrize(
    ("shown", "idcg"),
    [pytest.param(1, 2 / log2(2), id="rank1"), pytest.param(2, 2 + 1 / log2(3), id="rank2"),
     pytest.param(3, 2 + 1 / log2(3) + 1 / log2(4), id="rank3")],
)
def test_each_press_adds_the_next_ideal_rank(shown: int, idcg: float) -> None:
    page = lecture.ideal_steps_html(LECTURE, shown)
    assert page.count("<tr>") == shown + 1  # the header and one row per placed rank
    assert f"{idcg:.4f}" in page
    hidden = lecture.ideal_steps_html(LECTURE, shown, hidden=True)
    assert f"IDCG@{shown if shown < 3 else 5} = ····" in hidden and f"<td>{idcg:.4f}</td></tr>" not in hidden


def test_hidden_numbers_show_no_value() -> None:
    html = playground.stats_html(LECTURE, hidden=True, compact=True)
    assert "nDCG@5" in html and playground.HIDDEN_VALUE in html
    assert not any(v in html for v in ("2.4307", "3.1309", "0.7763"))


def test_the_worked_ndcg_grows_one_rank_per_press_and_ends_with_the_answer() -> None:
    solution = card("lecture-ndcg", None).folded["Worked solution"]
    steps = [deck.solution_step(solution, n) for n in range(9)]
    assert {rows for _, rows in steps} == {8}  # 5 ranks of the list, 3 of the ideal
    assert "| 4 | 1 | 1 | 1/log2(5) = 0.4307" in steps[4][0] and "| 5 |" not in steps[4][0]
    assert "DCG@5 = " in steps[5][0] and "IDCG@5 = " not in steps[5][0]
    assert steps[8][0].endswith("**Answer:** nDCG@5 = 0.7763 ≈ **0.78**")
    assert "Step 1" not in steps[8][0]  # a slide keeps the current step (and the one before) only


def test_the_handout_names_its_decks_as_the_front_page_does() -> None:
    from ndcg_core.teaching.paths import decks_dir, notebooks_dir
    from ndcg_core.ui import handout

    folder = decks_dir()
    decks = handout._deck_titles(folder)
    assert [name for name, _, _ in decks] == sorted(front.deck_names(folder)) == sorted(front.deck_names(notebooks_dir()))
    for name, title, slides in decks:
        assert title == front.read_notebook(folder / name).title and slides > 1


def test_the_solution_counts_table_rows_not_ranks() -> None:
    """lecture-ndcg's worked solution has two tables, the list's 5 ranks and the ideal's 3: after
    5 presses the note says 5 of 8 rows (it said "ranks" though 8 is no number of ranks)."""

    class Pressed:
        value = 5

    text = deck.solution("lecture-ndcg", Pressed()).text
    assert "5 of 8 table rows shown: the button shows the next row." in text and "ranks shown" not in text
