"""ndcg_core.compare: the side-by-side tables of the concept chapters, as hand derivations."""

from math import e, log, log2

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ndcg_core as nc
from ndcg_core.teaching import compare

LECTURE = [1, 0, 2, 1, 0]
LECTURE_JUDGMENTS = [2, 1, 1]


def log_b(x, b):
    return log(x) / log(b)


# ---- gain_values ---------------------------------------------------------------------------


def test_gain_values_linear_and_exponential():
    table = compare.gain_values()
    assert table.index.tolist() == [0, 1, 2, 3]
    assert table["linear"].tolist() == [0, 1, 2, 3]
    assert table["exponential"].tolist() == [2**0 - 1, 2**1 - 1, 2**2 - 1, 2**3 - 1]


def test_gain_values_with_a_named_table():
    table = compare.gain_values([0, 1, 2], {"mine": {0: 0, 1: 0.5, 2: 4}})
    assert table["mine"].tolist() == [0, 0.5, 4]


# ---- promote ---------------------------------------------------------------------------------


def test_promote_two_to_three_multiplies_by_three_halves_and_seven_thirds():
    table = compare.promote([2, 3, 0, 1, 2], 1, 3)
    assert table.loc["linear", "factor"] == pytest.approx(3 / 2)
    assert table.loc["exponential", "factor"] == pytest.approx(7 / 3)
    # rank 1: discount 1/log2(2) = 1, so the contribution is the gain itself.
    assert table.loc["exponential", "old_contribution"] == pytest.approx(3 / log2(2))
    assert table.loc["exponential", "new_contribution"] == pytest.approx(7 / log2(2))


def test_promote_changes_dcg_by_the_difference_of_contributions():
    # rank 5 of 2, 3, 0, 1, 2 goes from 2 to 3; discount 1/log2(6).
    table = compare.promote([2, 3, 0, 1, 2], 5, 3)
    before_linear = 2 / log2(2) + 3 / log2(3) + 0 + 1 / log2(5) + 2 / log2(6)
    before_exp = 3 / log2(2) + 7 / log2(3) + 0 + 1 / log2(5) + 3 / log2(6)
    assert table.loc["linear", "dcg_before"] == pytest.approx(before_linear)
    assert table.loc["linear", "dcg_after"] == pytest.approx(before_linear + (3 - 2) / log2(6))
    assert table.loc["exponential", "dcg_after"] == pytest.approx(before_exp + (7 - 3) / log2(6))
    assert table.loc["linear", "discount"] == pytest.approx(1 / log2(6))


def test_promote_outside_the_cutoff_leaves_dcg_unchanged():
    table = compare.promote([2, 3, 0, 1, 2], 5, 3, k=3)
    assert table.loc["linear", "dcg_before"] == pytest.approx(2 / log2(2) + 3 / log2(3))
    assert table.loc["linear", "dcg_after"] == table.loc["linear", "dcg_before"]


def test_promote_from_gain_zero_has_no_factor():
    table = compare.promote([0, 1], 1, 2)
    assert np.isnan(table.loc["linear", "factor"])
    assert table.loc["linear", "new_contribution"] == pytest.approx(2 / log2(2))


def test_promote_an_unjudged_document():
    table = compare.promote([None, 1], 1, 3)
    assert np.isnan(table.loc["exponential", "old_label"])
    assert table.loc["exponential", "old_gain"] == 0
    assert table.loc["exponential", "dcg_after"] == pytest.approx(7 / log2(2) + 1 / log2(3))


def test_promote_with_another_discount():
    table = compare.promote([1, 2], 2, 3, discount="reciprocal", gains=["linear"])
    assert table.loc["linear", "discount"] == pytest.approx(1 / 2)
    assert table.loc["linear", "dcg_after"] == pytest.approx(1 / 1 + 3 / 2)


@pytest.mark.parametrize(
    ("rank", "error", "message"),
    [
        pytest.param(0, ValueError, r"rank must be between 1 and 3 \(the list has 3 documents\); got rank=0", id="zero"),
        pytest.param(4, ValueError, r"rank must be between 1 and 3 .*got rank=4\. Pick a rank inside the list", id="beyond"),
        pytest.param(1.0, TypeError, r"rank must be a whole number from 1 to 3; got 1\.0 \(float\)", id="float"),
        pytest.param(True, TypeError, r"rank must be a whole number from 1 to 3; got True \(bool\)", id="bool"),
    ],
)
def test_promote_rank_errors(rank, error, message):
    with pytest.raises(error, match=message):
        compare.promote([1, 2, 3], rank, 2)


def test_promote_rank_error_for_one_document_is_singular():
    with pytest.raises(ValueError, match=r"\(the list has 1 document\)"):
        compare.promote([1], 2, 2)


@pytest.mark.parametrize(
    ("label", "error", "message"),
    [
        pytest.param(-1, ValueError, r"new_label must be a non-negative finite number; got -1\. Relevance labels are 0 or more", id="negative"),
        pytest.param(float("inf"), ValueError, r"new_label must be a non-negative finite number; got inf", id="inf"),
        pytest.param("3", TypeError, r"new_label must be a number; got '3' \(str\)", id="text"),
        pytest.param(None, TypeError, r"new_label must be a number; got None \(NoneType\)", id="none"),
    ],
)
def test_promote_new_label_errors(label, error, message):
    with pytest.raises(error, match=message):
        compare.promote([1, 2, 3], 1, label)


def test_promote_passes_label_errors_through():
    with pytest.raises(ValueError, match=r"labels\[1\] must be a non-negative number"):
        compare.promote([1, -2], 1, 2)


@pytest.mark.parametrize(
    ("gains", "error", "message"),
    [
        pytest.param([], ValueError, r"gains must name at least one gain; got none", id="empty"),
        pytest.param("linear", TypeError, r"gains must be a list of names or a \{name: gain\} mapping; got 'linear' \(str\)", id="bare-string"),
        pytest.param([{0: 1}], TypeError, r"gains must be names or a \{name: gain\} mapping; got \{0: 1\} \(dict\) in the list", id="object-in-list"),
    ],
)
def test_gains_argument_errors(gains, error, message):
    with pytest.raises(error, match=message):
        compare.gain_values(gains=gains)


# ---- discounts --------------------------------------------------------------------------------


def test_discount_values_standard_ranks():
    table = compare.discount_values()
    assert table.index.tolist() == [1, 2, 5, 10, 100]
    assert table["log2"].tolist() == pytest.approx([1 / log2(2), 1 / log2(3), 1 / log2(6), 1 / log2(11), 1 / log2(101)])
    assert table["log2_shifted"].tolist() == pytest.approx([1 / log2(3), 1 / log2(4), 1 / log2(7), 1 / log2(12), 1 / log2(102)])
    assert table["reciprocal"].tolist() == pytest.approx([1 / 1, 1 / 2, 1 / 5, 1 / 10, 1 / 100])
    assert table["none"].tolist() == [1, 1, 1, 1, 1]


def test_discount_values_round_to_the_essays_numbers():
    # "rank 1 at full gain, rank 2 about 0.63, rank 5 about 0.39, rank 10 about 0.29, rank 100 about 0.15"
    assert compare.discount_values()["log2"].round(2).tolist() == [1.0, 0.63, 0.39, 0.29, 0.15]


def test_discount_values_with_based_discount_objects():
    table = compare.discount_values(
        [1, 2, 3, 9], {"JK b=3": nc.resolve_discount("jarvelin_kekalainen", base=3), "log e": nc.resolve_discount("log", e)}
    )
    assert table["JK b=3"].tolist() == pytest.approx([1, 1, 1 / log_b(3, 3), 1 / log_b(9, 3)])
    assert table["log e"].tolist() == pytest.approx([1 / log(2), 1 / log(3), 1 / log(4), 1 / log(10)])


@pytest.mark.parametrize(
    ("ranks", "error", "message"),
    [
        pytest.param([], TypeError, r"ranks must be a non-empty list of positive whole numbers; got \[\]", id="empty"),
        pytest.param("1 2", TypeError, r"ranks must be a non-empty list of positive whole numbers; got '1 2'", id="text"),
        pytest.param([1, 0], ValueError, r"ranks\[1\] must be a positive whole number; got ranks\[1\]=0\.", id="zero"),
        pytest.param([2.5], TypeError, r"ranks\[0\] must be a positive whole number; got ranks\[0\]=2\.5 \(float\)", id="fraction"),
    ],
)
def test_discount_values_rank_errors(ranks, error, message):
    with pytest.raises(error, match=message):
        compare.discount_values(ranks)


@pytest.mark.parametrize(
    ("discount", "expected"),
    [
        pytest.param("reciprocal", sum(1 / i for i in range(1, 11)) / sum(1 / i for i in range(1, 101)), id="reciprocal"),
        pytest.param("log2", sum(1 / log2(i + 1) for i in range(1, 11)) / sum(1 / log2(i + 1) for i in range(1, 101)), id="log2"),
        pytest.param("none", 10 / 100, id="none"),
    ],
)
def test_weight_share_top_ten_of_a_hundred(discount, expected):
    assert compare.weight_share(discount, 100, 10) == pytest.approx(expected, rel=1e-12)


def test_reciprocal_puts_most_weight_in_the_top_ten_and_log2_does_not():
    assert compare.weight_share("reciprocal") > 0.5 > compare.weight_share("log2")


def test_weight_share_log_base_cancels():
    assert compare.weight_share("log", base=10) == pytest.approx(compare.weight_share("log2"), rel=1e-12)


@pytest.mark.parametrize(
    ("n", "head", "message"),
    [
        pytest.param(10, 20, r"head must be at most n; got head=20 and n=10", id="head-beyond"),
        pytest.param(0, 1, r"n must be a positive whole number; got n=0", id="n-zero"),
        pytest.param(10, -1, r"head must be a positive whole number; got head=-1", id="head-negative"),
    ],
)
def test_weight_share_errors(n, head, message):
    with pytest.raises(ValueError, match=message):
        compare.weight_share("log2", n, head)


def test_weight_share_all_zero_discount():
    with pytest.raises(ValueError, match=r"the discount gives weight 0 to every rank from 1 to 5"):
        compare.weight_share(lambda ranks: np.zeros(len(ranks)), 5, 2)


# ---- configurations ----------------------------------------------------------------------------


def test_score_configs_log_base_cancels_in_ndcg_not_in_dcg():
    configs = {
        "2": nc.NDCGConfig(k=5, discount="log", base=2),
        "e": nc.NDCGConfig(k=5, discount="log", base=e),
        "10": nc.NDCGConfig(k=5, discount="log", base=10),
    }
    table = compare.score_configs(LECTURE, configs, judgments=LECTURE_JUDGMENTS)
    dcg2 = 1 / log2(2) + 2 / log2(4) + 1 / log2(5)
    idcg2 = 2 / log2(2) + 1 / log2(3) + 1 / log2(4)
    # 1/log_b(x) = log2(b) / log2(x): every term, and so DCG and IDCG, scale by log2(b).
    assert table.loc["e", "dcg"] == pytest.approx(log2(e) * dcg2)
    assert table.loc["10", "dcg"] == pytest.approx(log2(10) * dcg2)
    assert table.loc["10", "idcg"] == pytest.approx(log2(10) * idcg2)
    assert table["ndcg"].tolist() == pytest.approx([dcg2 / idcg2] * 3, rel=1e-12)
    assert table.loc["10", "configuration"] == nc.NDCGConfig(k=5, discount="log", base=10).describe()


def test_score_configs_jarvelin_kekalainen_base_does_not_cancel():
    configs = {"2": nc.NDCGConfig(k=5, discount="jarvelin_kekalainen", base=2),
               "3": nc.NDCGConfig(k=5, discount="jarvelin_kekalainen", base=3)}
    table = compare.score_configs(LECTURE, configs, judgments=LECTURE_JUDGMENTS)
    ndcg2 = (1 + 2 / log2(3) + 1 / log2(4)) / (2 + 1 / log2(2) + 1 / log2(3))
    ndcg3 = (1 + 2 / log_b(3, 3) + 1 / log_b(4, 3)) / (2 + 1 + 1 / log_b(3, 3))
    assert table["ndcg"].tolist() == pytest.approx([ndcg2, ndcg3])
    assert ndcg2 != pytest.approx(ndcg3)


def test_score_configs_unjudged_fraction():
    table = compare.score_configs([1, None, 2, None], {"k4": nc.NDCGConfig(k=4)})
    assert table.loc["k4", "unjudged_fraction"] == 2 / 4


def test_compare_runs_gain_choice_reorders_two_systems():
    runs = {"A": [2, 2, 2, 0], "B": [3, 0, 0, 0]}
    configs = {"linear": nc.NDCGConfig(k=4), "exponential": nc.NDCGConfig(k=4, gain="exponential")}
    table = compare.compare_runs(runs, configs, judgments=[3, 2, 2, 2])
    idcg_lin = 3 / log2(2) + 2 / log2(3) + 2 / log2(4) + 2 / log2(5)
    idcg_exp = 7 / log2(2) + 3 / log2(3) + 3 / log2(4) + 3 / log2(5)
    assert table.loc["A", "linear"] == pytest.approx((2 / log2(2) + 2 / log2(3) + 2 / log2(4)) / idcg_lin)
    assert table.loc["B", "linear"] == pytest.approx(3 / idcg_lin)
    assert table.loc["A", "exponential"] == pytest.approx((3 / log2(2) + 3 / log2(3) + 3 / log2(4)) / idcg_exp)
    assert table.loc["B", "exponential"] == pytest.approx(7 / idcg_exp)
    assert table.loc["A", "linear"] > table.loc["B", "linear"]
    assert table.loc["A", "exponential"] < table.loc["B", "exponential"]


def test_compare_runs_ideal_from_the_list_gives_one():
    configs = {"judgments": nc.NDCGConfig(k=3), "list": nc.NDCGConfig(k=3, ideal="list")}
    table = compare.compare_runs({"one": [3, 0, 0]}, configs, judgments=[3, 3, 2])
    assert table.loc["one", "list"] == 1.0
    assert table.loc["one", "judgments"] == pytest.approx(3 / (3 + 3 / log2(3) + 2 / log2(4)))


@pytest.mark.parametrize(
    ("configs", "error", "message"),
    [
        pytest.param({}, TypeError, r"configs must be a non-empty \{name: NDCGConfig\} mapping; got \{\}", id="empty"),
        pytest.param([nc.NDCGConfig()], TypeError, r"configs must be a non-empty \{name: NDCGConfig\} mapping; got \[", id="list"),
        pytest.param({"a": "linear"}, TypeError, r"configs\['a'\] must be an NDCGConfig; got 'linear' \(str\)", id="not-config"),
    ],
)
def test_config_argument_errors(configs, error, message):
    with pytest.raises(error, match=message):
        compare.score_configs([1], configs)


def test_compare_runs_needs_runs():
    with pytest.raises(TypeError, match=r"runs must be a non-empty \{name: labels\} mapping; got \[1, 2\] \(list\)"):
        compare.compare_runs([1, 2], {"a": nc.NDCGConfig()})


# ---- per_topic --------------------------------------------------------------------------------


def test_per_topic_many_top_documents_versus_one():
    # The same mistake (one non-relevant document on top) costs a topic with five
    # top-graded documents less than a topic with one.
    runs = {"many": [0, 3, 3, 3, 3, 3], "one": [0, 3]}
    judgments = {"many": [3] * 5, "one": [3]}
    table = compare.per_topic(runs, judgments, nc.NDCGConfig(k=10))
    many = sum(3 / log2(i + 1) for i in range(2, 7)) / sum(3 / log2(i + 1) for i in range(1, 6))
    assert table.loc["many", "ndcg"] == pytest.approx(many)
    assert table.loc["one", "ndcg"] == pytest.approx((3 / log2(3)) / (3 / log2(2)))
    assert table["relevant"].tolist() == [5, 1]
    assert table.loc["many", "ndcg"] > table.loc["one", "ndcg"]


def test_per_topic_default_config_scores_the_whole_list():
    table = compare.per_topic({"q": LECTURE}, {"q": LECTURE_JUDGMENTS})
    assert table.loc["q", "ndcg"] == pytest.approx(nc.ndcg(LECTURE, judgments=LECTURE_JUDGMENTS))


def test_per_topic_errors():
    with pytest.raises(ValueError, match=r"judgments has no entry for topic 'b'; it lists 'a'\. Give every topic"):
        compare.per_topic({"a": [1], "b": [1]}, {"a": [1]})
    with pytest.raises(TypeError, match=r"runs must be a non-empty \{topic: labels\} mapping; got \{\}"):
        compare.per_topic({}, {})
    with pytest.raises(TypeError, match=r"judgments must be a \{topic: judged labels\} mapping; got \[1\] \(list\)"):
        compare.per_topic({"a": [1]}, [1])
    with pytest.raises(ValueError, match=r"judgments\['a'\]\[0\] must be a non-negative number; got -1"):
        compare.per_topic({"a": [1]}, {"a": [-1]})
    with pytest.raises(TypeError, match=r"configs\['config'\] must be an NDCGConfig; got 5 \(int\)"):
        compare.per_topic({"a": [1]}, {"a": [1]}, 5)


# ---- judged_labels and is_ideal ----------------------------------------------------------------


def test_judged_labels_joins_the_list_and_the_missed_documents():
    assert compare.judged_labels([1, 0, None, 2], [3, 1]) == [1, 0, 2, 3, 1]
    assert compare.judged_labels(LECTURE) == LECTURE


def test_judged_labels_rejects_unjudged_missed_documents():
    with pytest.raises(TypeError, match=r"missed\[0\] must be a number; got None\. Every entry of missed is a judged label"):
        compare.judged_labels([1], [None])


@pytest.mark.parametrize(
    ("labels", "k", "judgments", "expected"),
    [
        pytest.param([2, 1, 1, 0, 0], 5, [2, 1, 1], True, id="ideal"),
        pytest.param([2, 1, 1], 5, [2, 1, 1], True, id="short-but-ideal"),
        pytest.param([1, 0, 2, 1, 0], 5, [2, 1, 1], False, id="lecture"),
        pytest.param([2, 1, 0], 2, [2, 1, 1], True, id="top-2-ideal"),
        pytest.param([2, 1, 0], 3, [2, 1, 1], False, id="top-3-not"),
        pytest.param([3], 1, None, True, id="ideal-from-list"),
        pytest.param([0, 0], 2, [0, 0], True, id="nothing-relevant"),
    ],
)
def test_is_ideal(labels, k, judgments, expected):
    assert compare.is_ideal(labels, k, judgments=judgments) is expected


@given(st.lists(st.integers(0, 3), min_size=1, max_size=8), st.lists(st.integers(0, 3), max_size=4), st.integers(1, 10))
def test_is_ideal_exactly_when_ndcg_is_one(labels, missed, k):
    judged = compare.judged_labels(labels, missed)
    value = nc.ndcg(labels, k, judgments=judged)
    if nc.idcg(judged, k) > 0:
        assert compare.is_ideal(labels, k, judgments=judged) == (value == 1.0)
        assert value <= 1.0


def test_compare_runs_with_judgments_per_run():
    configs = {"judgments": nc.NDCGConfig(k=5), "list": nc.NDCGConfig(k=5, ideal="list")}
    table = compare.compare_runs(
        {"lecture": LECTURE, "one": [3]}, configs, judgments={"lecture": LECTURE_JUDGMENTS, "one": [3, 3, 2, 2, 1]}
    )
    assert table.loc["lecture", "judgments"] == pytest.approx(
        (1 / log2(2) + 2 / log2(4) + 1 / log2(5)) / (2 / log2(2) + 1 / log2(3) + 1 / log2(4))
    )
    assert table.loc["one", "list"] == 1.0
    assert table.loc["one", "judgments"] == pytest.approx(
        3 / (3 / log2(2) + 3 / log2(3) + 2 / log2(4) + 2 / log2(5) + 1 / log2(6))
    )


def test_compare_runs_judgments_mapping_must_cover_every_run():
    with pytest.raises(ValueError, match=r"judgments has no entry for run 'b'; it lists 'a'\. Give every run"):
        compare.compare_runs({"a": [1], "b": [1]}, {"c": nc.NDCGConfig()}, judgments={"a": [1]})
