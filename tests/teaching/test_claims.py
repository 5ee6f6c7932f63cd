"""ndcg_core.teaching.claims, and every number the chapters' prose states about widgets or data.

The prose of chapters 03-05 and 09 computes its numbers at run time through these
functions; the tests pin what the sentences claim (who is last, what falls, by how much),
with hand derivations where a number is stated.
"""

from __future__ import annotations

from math import log2

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ndcg_core as nc
from ndcg_core.teaching import claims, compare
from ndcg_core.teaching import toy as nctoy

# ----------------------------------------------------------------------- chapter 04: nDCG@100 < nDCG@10

DEEP_RUN = [1 if rank <= 8 or rank in (30, 60) else 0 for rank in range(1, 101)]


@pytest.mark.parametrize("relevant", range(10, 61))
def test_chapter_04_slider_drops_exactly_when_the_condition_holds(relevant):
    drop = claims.cutoff_drop(DEEP_RUN, 10, 100, judgments=[1] * relevant)
    assert drop.relevant == relevant
    assert drop.drops == (drop.run_gain * nc.idcg([1] * relevant, 10) < nc.dcg(DEEP_RUN, 10) * drop.ideal_gain)
    if relevant <= 10:  # the ideal is used up by rank 10: no drop possible
        assert drop.ideal_gain == 0 and not drop.drops


def test_chapter_04_default_slider_value_shows_a_drop():
    drop = claims.cutoff_drop(DEEP_RUN, 10, 100, judgments=[1] * 15)
    assert drop.drops and drop.ndcg_large < drop.ndcg_small


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=40), st.lists(st.integers(0, 3), max_size=20),
       st.integers(1, 10), st.integers(1, 30))
def test_the_precise_condition_for_a_drop(run, missed, small, extra):
    """For non-negative gains: a drop needs more relevant documents than the smaller cutoff."""
    judgments = list(run) + list(missed)
    drop = claims.cutoff_drop(run, small, small + extra, judgments=judgments)
    if drop.relevant <= small:
        assert not drop.drops  # the essay's "fewer than k" case: nDCG cannot fall
    if drop.drops:
        assert drop.relevant > small and drop.ideal_gain > 0


def test_cutoff_drop_errors():
    with pytest.raises(ValueError, match=r"small and large must be cutoffs with 1 <= small < large; got 10 and 10"):
        claims.cutoff_drop([1], 10, 10, judgments=[1])


# ----------------------------------------------------------------------- chapter 05: the pool story


@pytest.fixture(scope="module")
def story():
    toy = nctoy.read_toy_collection()
    return claims.pool_scenarios(toy.qrels_full, toy.runs, "novel")


def test_chapter_05_deepening_the_pool_lifts_novel_but_it_stays_last(story):
    shallow, deep, joined = (story.iloc[i] for i in range(3))
    assert shallow["place"] == deep["place"] == shallow["systems"] == 3  # last of three, at depth 10 and 100
    assert deep["ndcg_pooled"] > shallow["ndcg_pooled"]
    assert round(shallow["ndcg_pooled"], 3) == 0.204 and round(deep["ndcg_pooled"], 3) == 0.326  # the figures
    assert shallow["ndcg_truth"] > max(shallow["ndcg_pooled"], deep["ndcg_pooled"])


def test_chapter_05_novel_recovers_only_when_it_joins_the_pool(story):
    joined = story.loc["depth 10, novel in the pool too"]
    assert joined["place"] == 1 and joined["best"] == "novel" and joined["unjudged"] == 0


def test_chapter_05_condensing_scores_a_run_like_its_shorter_judged_self():
    """'a run of 3, ?, ?, ?, 1 scores exactly like the shorter 3, 1' (condensed)."""
    judged = [3, 1, 0, 0, 0]
    assert nc.ndcg([3, None, None, None, 1], 5, judgments=judged, unjudged="condense") == nc.ndcg([3, 1], 5, judgments=judged)


# ----------------------------------------------------------------------- chapter 03: discounts and AP


def test_chapter_03_discount_values_in_the_prose():
    # "about 0.63 at rank 2, 0.39 at rank 5, 0.29 at rank 10 and still 0.15 at rank 100"
    assert [round(1 / log2(i + 1), 2) for i in (2, 5, 10, 100)] == [0.63, 0.39, 0.29, 0.15]
    values = compare.discount_values((2, 5, 10, 100), ("log2",))["log2"].round(2).tolist()
    assert values == [0.63, 0.39, 0.29, 0.15]


def test_chapter_03_weight_shares_in_the_prose():
    # "more than half sits in ranks 1 to 10 ... against about a fifth for the logarithm"
    assert compare.weight_share("reciprocal", 100, 10) > 0.5
    assert 0.17 < compare.weight_share("log2", 100, 10) < 0.23


def test_chapter_03_the_discount_is_decreasing_and_convex_the_cumulative_concave():
    d = [1 / log2(i + 1) for i in range(1, 200)]
    steps = [a - b for a, b in zip(d, d[1:])]
    assert all(s > 0 for s in steps)  # decreasing
    assert all(a > b for a, b in zip(steps, steps[1:]))  # the steps shrink: convex
    cumulative = [sum(d[:i]) for i in range(1, 200)]
    gains = [b - a for a, b in zip(cumulative, cumulative[1:])]
    assert all(a > b for a, b in zip(gains, gains[1:]))  # ever slower growth: concave


def test_rank_move_hand_values():
    alone = claims.rank_move(10, 100, others=())
    assert alone.loc["AP", "before"] == pytest.approx(1 / 10)  # precision 1/10 at rank 10, R = 1
    assert alone.loc["AP", "after"] == pytest.approx(1 / 100)
    assert alone.loc["DCG, 1/log2(i+1)", "lost"] == pytest.approx(1 - log2(11) / log2(101))
    assert alone.loc["DCG, 1/i", "lost"] == pytest.approx(1 - 10 / 100)
    assert alone.loc["AP", "lost"] > alone.loc["DCG, 1/log2(i+1)", "lost"]  # AP cares more about the move
    with_top = claims.rank_move(10, 100, others=(1,))
    # R = 2: before (1/1 + 2/10)/2, after (1/1 + 2/100)/2
    assert with_top.loc["AP", "before"] == pytest.approx((1 + 2 / 10) / 2)
    assert with_top.loc["AP", "after"] == pytest.approx((1 + 2 / 100) / 2)


def test_rank_move_errors():
    with pytest.raises(ValueError, match=r"from_rank and to_rank must be different free ranks"):
        claims.rank_move(10, 10)


def test_chapter_03_shifted_discount_flatter_at_the_top():
    assert 1 - 1 / log2(3) == pytest.approx(0.3691, abs=1e-4)
    assert 1 / log2(3) - 1 / log2(4) == pytest.approx(0.1309, abs=1e-4)


# ----------------------------------------------------------------------- chapter 09


def test_swapped_and_its_errors():
    assert claims.swapped([1, 0, 0, 3, 0], 1, 4) == [3, 0, 0, 1, 0]
    with pytest.raises(ValueError, match=r"second must be a rank from 1 to 5 \(the length of the list\); got 6"):
        claims.swapped([1, 0, 0, 3, 0], 1, 6)


def test_binary_table_the_swap_of_chapter_09():
    a, b = [1, 0, 0, 3, 0], [3, 0, 0, 1, 0]
    table = claims.binary_table({"a": a, "b": b}, 5, judgments=[3, 1], gains=("linear", "exponential"))
    assert table["precision"].tolist() == [2 / 5, 2 / 5]
    assert table["average_precision"].tolist() == [(1 + 2 / 4) / 2] * 2
    assert table.loc["a", "ndcg_linear"] == pytest.approx((1 + 3 / log2(5)) / (3 + 1 / log2(3)))
    assert table.loc["b", "ndcg_linear"] == pytest.approx((3 + 1 / log2(5)) / (3 + 1 / log2(3)))
    gap_lin = table.loc["b", "ndcg_linear"] - table.loc["a", "ndcg_linear"]
    gap_exp = table.loc["b", "ndcg_exponential"] - table.loc["a", "ndcg_exponential"]
    assert gap_exp > gap_lin > 0
    at2 = claims.binary_table({"a": a}, 5, judgments=[3, 1], threshold=2)
    assert at2.loc["a", "binarised"] == "0, 0, 0, 1, 0" and at2.loc["a", "precision"] == 1 / 5


# ----------------------------------------------------------------------- numbers stated in bank texts


def test_numbers_the_new_bank_texts_state():
    # discounts-convex / discounts-shifted-cutoffs: "0.37 from rank 1 to 2, 0.13 from 2 to 3"
    assert round(1 - 1 / log2(3), 2) == 0.37 and round(1 / log2(3) - 1 / log2(4), 2) == 0.13
    # discounts-steep-top: 1/log2(51) and 1/log2(52) "differ by less than 0.001"
    assert 1 / log2(51) - 1 / log2(52) < 0.001
    # discounts-tail-ap: AP loses 90 %, the log discount "about half"
    table = claims.rank_move(10, 100, others=())
    assert table.loc["AP", "lost"] == pytest.approx(0.9) and 0.45 < table.loc["DCG, 1/log2(i+1)", "lost"] < 0.55
    # discounts-shifted-cutoffs: "0.8571 instead of 0.7763 at k = 5"
    lecture = dict(judgments=[2, 1, 1])
    assert f"{nc.ndcg([1, 0, 2, 1, 0], 5, discount='log2_shifted', **lecture):.4f}" == "0.8571"
    assert f"{nc.ndcg([1, 0, 2, 1, 0], 5, **lecture):.4f}" == "0.7763"
    # ideal-fraction: "3 of 5 documents are relevant, 60 %"; ideal-normalised: "DCG@5 is 2.43"
    assert nc.precision([1, 0, 2, 1, 0], 5) == 0.6 and f"{nc.dcg([1, 0, 2, 1, 0], 5):.2f}" == "2.43"
    # lecture-rank-one: the shifted discount divides rank 1 by log2(3), "about 1.58"
    assert round(log2(3), 2) == 1.58
