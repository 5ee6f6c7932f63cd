"""parse_labels on what learners type, parse_gain_table, and NDCGConfig.describe()."""

import pytest

import ndcg_core as nc

PARSE_CASES = [
    pytest.param("1, 0, 2, 1, 0", [1, 0, 2, 1, 0], id="commas"),
    pytest.param("1 0 2 1 0", [1, 0, 2, 1, 0], id="spaces"),
    pytest.param(" 1,0;2\t1\n0 ", [1, 0, 2, 1, 0], id="mixed-separators"),
    pytest.param("1, ?, 2 ? 3", [1, None, 2, None, 3], id="unjudged"),
    pytest.param("0.5, 1.5, .5, 2.", [0.5, 1.5, 0.5, 2.0], id="decimals"),
    pytest.param("+1, 1e0", [1, 1.0], id="plus-and-exponent"),
    pytest.param("3, 2,", [3, 2], id="one-trailing-comma"),
]


@pytest.mark.parametrize(("text", "expected"), PARSE_CASES)
def test_parse_labels(text, expected):
    parsed = nc.parse_labels(text)
    assert parsed == expected
    assert [type(x) for x in parsed] == [type(x) for x in expected]


def test_parsed_labels_score():
    assert nc.ndcg(nc.parse_labels("1, 0, 2, 1, 0"), 5, judgments=[2, 1, 1]) == pytest.approx(0.7763, abs=5e-5)


def test_parse_gain_table_forms():
    assert nc.parse_gain_table("0:0 1:1 2:3 3:7") == {0: 0, 1: 1, 2: 3, 3: 7}
    assert nc.parse_gain_table("1=0.5; 2=-1") == {1: 0.5, 2: -1}


DESCRIBE_CASES = [
    pytest.param(
        dict(k=5),
        "nDCG@5 with linear gain g(l) = l, discount 1/log2(i+1), unjudged documents scored as gain 0, "
        "ideal list from all judged documents of the query.",
        id="default",
    ),
    pytest.param(
        dict(gain="exponential", discount="jarvelin_kekalainen", base=3, k=10, unjudged="condense"),
        "nDCG@10 with exponential gain g(l) = 2^l - 1, Järvelin–Kekäläinen discount with base 3 (1 for ranks "
        "below 3, 1/log_3(i) from there on), unjudged documents removed before ranking (condensed list), "
        "ideal list from all judged documents of the query.",
        id="jk3-condense",
    ),
    pytest.param(
        dict(gain={0: 0, 1: 0.5, 2: 1.5}, discount="log2_shifted", ideal="list"),
        "nDCG over the whole ranked list with table gain (0->0, 1->0.5, 2->1.5), shifted discount 1/log2(i+2), "
        "unjudged documents scored as gain 0, ideal list from the ranked list's own labels (the exam shortcut: "
        "it ignores missed relevant documents).",
        id="table-shifted-list",
    ),
    pytest.param(
        dict(discount="log", base=10, k=3),
        "nDCG@3 with linear gain g(l) = l, discount 1/log_10(i+1), unjudged documents scored as gain 0, "
        "ideal list from all judged documents of the query.",
        id="log10",
    ),
    pytest.param(
        dict(discount="none", k=3),
        "nDCG@3 with linear gain g(l) = l, no discount (plain cumulative gain), unjudged documents scored as "
        "gain 0, ideal list from all judged documents of the query.",
        id="cg",
    ),
]


@pytest.mark.parametrize(("options", "sentence"), DESCRIBE_CASES)
def test_describe(options, sentence):
    assert nc.NDCGConfig(**options).describe() == sentence


def test_config_score_honours_ideal_source():
    labels, judgments = [3, 0, 0], [3, 3, 2]
    assert nc.NDCGConfig(k=3, ideal="list").score(labels, judgments).ndcg == 1.0
    assert nc.NDCGConfig(k=3).score(labels, judgments).ndcg == nc.ndcg(labels, 3, judgments=judgments)


def test_config_validates_at_construction():
    with pytest.raises(ValueError, match="k must be a positive int"):
        nc.NDCGConfig(k=0)
    with pytest.raises(ValueError, match="discount must be one of"):
        nc.NDCGConfig(discount="ln")
