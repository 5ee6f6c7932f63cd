"""Known values of dcg, idcg, ndcg and breakdown, each written as its hand derivation."""

from math import log, log2

import numpy as np
import pytest

import ndcg_core as nc

LECTURE = [1, 0, 2, 1, 0]
LECTURE_JUDGMENTS = [2, 1, 1]


def log_b(x, b):
    return log(x) / log(b)


# ---- the lecture example under every gain and discount -----------------------------------

DCG_CASES = [
    pytest.param("linear", "log2", None, 1 / log2(2) + 0 / log2(3) + 2 / log2(4) + 1 / log2(5) + 0 / log2(6), id="linear-log2"),
    pytest.param("exponential", "log2", None, 1 / log2(2) + 3 / log2(4) + 1 / log2(5), id="exp-log2"),
    pytest.param("linear", "log2_shifted", None, 1 / log2(3) + 2 / log2(5) + 1 / log2(6), id="linear-shifted"),
    pytest.param("exponential", "log2_shifted", None, 1 / log2(3) + 3 / log2(5) + 1 / log2(6), id="exp-shifted"),
    pytest.param("linear", "reciprocal", None, 1 / 1 + 2 / 3 + 1 / 4, id="linear-reciprocal"),
    pytest.param("exponential", "reciprocal", None, 1 / 1 + 3 / 3 + 1 / 4, id="exp-reciprocal"),
    # Järvelin–Kekäläinen base 2: ranks 1 (< b) undiscounted, from rank 2 on 1/log2(i).
    pytest.param("linear", "jarvelin_kekalainen", 2, 1 + 0 / log2(2) + 2 / log2(3) + 1 / log2(4) + 0 / log2(5), id="linear-jk2"),
    pytest.param("exponential", "jarvelin_kekalainen", 2, 1 + 3 / log2(3) + 1 / log2(4), id="exp-jk2"),
    # base 3: ranks 1 and 2 (< 3) undiscounted, from rank 3 on 1/log3(i).
    pytest.param("linear", "jarvelin_kekalainen", 3, 1 + 0 + 2 / log_b(3, 3) + 1 / log_b(4, 3) + 0, id="linear-jk3"),
    pytest.param("exponential", "jarvelin_kekalainen", 3, 1 + 0 + 3 / log_b(3, 3) + 1 / log_b(4, 3), id="exp-jk3"),
    pytest.param("linear", "none", None, 1 + 0 + 2 + 1 + 0, id="linear-CG"),
    pytest.param("linear", "log", 10, 1 / log_b(2, 10) + 2 / log_b(4, 10) + 1 / log_b(5, 10), id="linear-log10"),
]


@pytest.mark.parametrize(("gain", "discount", "base", "expected"), DCG_CASES)
def test_dcg_lecture_example(gain, discount, base, expected):
    assert nc.dcg(LECTURE, 5, gain=gain, discount=discount, base=base) == pytest.approx(expected, rel=1e-12)


IDCG_CASES = [
    pytest.param("linear", "log2", None, 2 / log2(2) + 1 / log2(3) + 1 / log2(4), id="linear-log2"),
    pytest.param("exponential", "log2", None, 3 / log2(2) + 1 / log2(3) + 1 / log2(4), id="exp-log2"),
    pytest.param("linear", "log2_shifted", None, 2 / log2(3) + 1 / log2(4) + 1 / log2(5), id="linear-shifted"),
    pytest.param("linear", "reciprocal", None, 2 / 1 + 1 / 2 + 1 / 3, id="linear-reciprocal"),
    pytest.param("linear", "jarvelin_kekalainen", 2, 2 + 1 / log2(2) + 1 / log2(3), id="linear-jk2"),
    pytest.param("linear", "jarvelin_kekalainen", 3, 2 + 1 + 1 / log_b(3, 3), id="linear-jk3"),
    pytest.param("linear", "none", None, 2 + 1 + 1, id="linear-CG"),
]


@pytest.mark.parametrize(("gain", "discount", "base", "expected"), IDCG_CASES)
def test_idcg_lecture_example(gain, discount, base, expected):
    assert nc.idcg(LECTURE_JUDGMENTS, 5, gain=gain, discount=discount, base=base) == pytest.approx(expected, rel=1e-12)


def test_lecture_example_rounds_to_the_lecture_numbers():
    # DCG@5 = 1 + 1 + 0.43 = 2.43, IDCG@5 = 2 + 0.63 + 0.5 = 3.13, nDCG@5 = 2.43 / 3.13 = 0.78.
    scored = nc.score(LECTURE, 5, judgments=LECTURE_JUDGMENTS)
    assert f"{scored.dcg:.4f} {scored.idcg:.4f} {scored.ndcg:.4f}" == "2.4307 3.1309 0.7763"
    expected = (1 + 2 / log2(4) + 1 / log2(5)) / (2 + 1 / log2(3) + 1 / log2(4))
    assert nc.ndcg(LECTURE, 5, judgments=LECTURE_JUDGMENTS) == pytest.approx(expected, rel=1e-12)


def test_exponential_ndcg_of_lecture_example():
    expected = (1 + 3 / log2(4) + 1 / log2(5)) / (3 + 1 / log2(3) + 1 / log2(4))
    assert nc.ndcg(LECTURE, 5, judgments=LECTURE_JUDGMENTS, gain="exponential") == pytest.approx(expected, rel=1e-12)


def test_table_gain_with_fractions():
    table = {0: 0, 1: 0.25, 2: 0.75}
    dcg = 0.25 / log2(2) + 0.75 / log2(4) + 0.25 / log2(5)
    idcg = 0.75 / log2(2) + 0.25 / log2(3) + 0.25 / log2(4)
    assert nc.dcg(LECTURE, 5, gain=table) == pytest.approx(dcg, rel=1e-12)
    assert nc.ndcg(LECTURE, 5, judgments=LECTURE_JUDGMENTS, gain=table) == pytest.approx(dcg / idcg, rel=1e-12)


def test_table_gain_not_monotone_sorts_ideal_by_gain():
    # label 1 is worth more than label 2 here: the ideal puts the label-1 documents first.
    table = {0: 0, 1: 5, 2: 1}
    assert nc.idcg([2, 1, 1], gain=table) == pytest.approx(5 / log2(2) + 5 / log2(3) + 1 / log2(4))


def test_negative_table_gain_is_allowed():
    assert nc.dcg([0, 1], gain={0: -1, 1: 2}) == pytest.approx(-1 / log2(2) + 2 / log2(3))


def test_negative_gain_documents_stay_out_of_the_ideal():
    # Label 0 costs -1. The best ranking puts the two label-0 documents below the cutoff, so
    # IDCG@3 = 1/log2(2) = 1, not 1 - 1/log2(3) - 1/log2(4) = -0.1309 (which made nDCG 0 for
    # the optimal run before): the ideal is the best obtainable, as in trec_eval's ndcg.
    penalty = {0: -1, 1: 1}
    assert nc.idcg([1, 0, 0], 3, gain=penalty) == 1.0
    assert nc.ndcg([1, None, None], 3, judgments=[1, 0, 0], gain=penalty) == 1.0
    # A run that shows the penalised documents: DCG = 1 - 1/log2(3) - 1/log2(4) over IDCG = 1.
    assert nc.ndcg([1, 0, 0], 3, judgments=[1, 0, 0], gain=penalty) == pytest.approx(1 - 1 / log2(3) - 1 / log2(4))
    # The per-rank table agrees: its ideal column holds only the label-1 document.
    table = nc.breakdown([1, 0, 0], 3, judgments=[1, 0, 0], gain=penalty)
    assert list(table["ideal_gain"]) == [1.0, 0.0, 0.0]
    assert float(table["ndcg"].iloc[0]) == 1.0
    # Non-negative gains are untouched: a zero-gain judgment still adds nothing.
    assert nc.idcg([2, 0, 1], 3) == pytest.approx(2 + 1 / log2(3))


def test_callable_gain_and_discount():
    assert nc.dcg([1, 2], gain=lambda l: l * 10, discount=lambda r: 1 / r**2) == pytest.approx(10 + 20 / 4)


def test_cutoffs():
    # k = 3: 1/log2(2) + 0/log2(3) + 2/log2(4); k beyond the list = whole list; k=None = whole list.
    assert nc.dcg(LECTURE, 3) == pytest.approx(1 + 2 / log2(4))
    assert nc.dcg(LECTURE, 50) == nc.dcg(LECTURE) == nc.dcg(LECTURE, 5)
    # The ideal may be longer than the list: IDCG@k counts judged documents the list missed.
    assert nc.idcg([3, 3, 3, 3], 2) == pytest.approx(3 + 3 / log2(3))


def test_idcg_zero_gives_zero_not_a_division():
    assert nc.ndcg([0, 0, 0], 3) == 0.0
    assert nc.ndcg([0, None], judgments=[0, 0]) == 0.0
    assert nc.ndcg([], 5) == 0.0
    assert nc.dcg([], 5) == 0.0 and nc.idcg([], 5) == 0.0


def test_ideal_from_run_is_the_pitfall():
    # One highly graded document returned, two more judged but missed.
    assert nc.ndcg([3, 0, 0], 3) == 1.0
    assert nc.ndcg([3, 0, 0], 3, judgments=[3, 3, 2]) == pytest.approx(3 / (3 + 3 / log2(3) + 2 / log2(4)))


def test_judgments_must_cover_the_list():
    with pytest.raises(ValueError, match=r"judgments must list every judged document of the query.*label 2 but judgments has 0"):
        nc.ndcg([2, 1], judgments=[1])


def test_unjudged_zero_and_condense():
    labels = [None, 2, None, 1]
    # zero: None counts as gain 0 at its rank.
    assert nc.dcg(labels) == pytest.approx(2 / log2(3) + 1 / log2(5))
    # condense: [2, 1] ranked 1 and 2.
    assert nc.dcg(labels, unjudged="condense") == pytest.approx(2 + 1 / log2(3))
    assert nc.ndcg(labels, 2, judgments=[2, 1], unjudged="condense") == 1.0


def test_unjudged_fraction():
    assert nc.unjudged_fraction([None, 2, None, 1], 2) == 0.5
    assert nc.unjudged_fraction([None, 2, None, 1]) == 0.5
    assert nc.unjudged_fraction([None], 10) == 1.0  # denominator min(k, n) = 1
    assert nc.unjudged_fraction([], 10) == 0.0


def test_score_reports_unjudged_fraction_of_list_as_returned():
    assert nc.score([None, 1, 1], 2, unjudged="condense").unjudged_fraction == 0.5


def test_numpy_input():
    assert nc.dcg(np.array([1, 0, 2, 1, 0])) == pytest.approx(nc.dcg(LECTURE))
    assert nc.dcg(np.array([1.0, np.nan, 2.0])) == pytest.approx(1 + 2 / log2(4))
    assert isinstance(nc.dcg(np.array([1, 2])), float)


def test_returns_python_floats():
    for value in (nc.dcg(LECTURE), nc.idcg(LECTURE), nc.ndcg(LECTURE), nc.unjudged_fraction(LECTURE)):
        assert type(value) is float


# ---- breakdown and ndcg_curve ------------------------------------------------------------


def test_breakdown_lecture_table():
    table = nc.breakdown(LECTURE, 5, judgments=LECTURE_JUDGMENTS)
    assert list(table.columns) == [
        "rank", "label", "status", "gain", "discount", "discounted_gain", "dcg",
        "ideal_label", "ideal_gain", "ideal_discounted_gain", "idcg", "ndcg",
    ]
    assert table["rank"].tolist() == [1, 2, 3, 4, 5]
    assert table["discount"].tolist() == pytest.approx([1 / log2(i + 1) for i in range(1, 6)])
    assert table["dcg"].tolist() == pytest.approx([1, 1, 1 + 2 / log2(4), 1 + 2 / log2(4) + 1 / log2(5), 1 + 2 / log2(4) + 1 / log2(5)])
    assert table["ideal_label"].tolist() == [2, 1, 1, 0, 0]
    assert table["idcg"].iloc[-1] == pytest.approx(nc.idcg(LECTURE_JUDGMENTS, 5))
    assert table["ndcg"].iloc[-1] == pytest.approx(nc.ndcg(LECTURE, 5, judgments=LECTURE_JUDGMENTS))


def test_breakdown_agrees_with_dcg_at_every_rank():
    labels = [3, None, 0, 2, 1, 1]
    table = nc.breakdown(labels, judgments=[3, 2, 2, 1, 1, 1], gain="exponential")
    for row in table.itertuples():
        assert row.dcg == pytest.approx(nc.dcg(labels, row.rank, gain="exponential"))
        assert row.ndcg == pytest.approx(nc.ndcg(labels, row.rank, judgments=[3, 2, 2, 1, 1, 1], gain="exponential"))
    assert table["status"].tolist()[:2] == ["judged", "unjudged"]


def test_breakdown_extends_past_a_short_list_to_the_ideal():
    table = nc.breakdown([1], judgments=[2, 1, 1])
    assert len(table) == 3
    assert table["status"].tolist() == ["judged", "past end", "past end"]
    assert np.isnan(table["label"].iloc[1])
    assert table["ndcg"].iloc[-1] == pytest.approx(nc.ndcg([1], judgments=[2, 1, 1]))


def test_ndcg_curve_matches_ndcg_at_each_k():
    curve = nc.ndcg_curve(LECTURE, judgments=LECTURE_JUDGMENTS)
    assert curve == pytest.approx([nc.ndcg(LECTURE, k, judgments=LECTURE_JUDGMENTS) for k in range(1, 6)])
    # first point: 1/log2(2) over 2/log2(2)
    assert curve[0] == 0.5


def test_ndcg_across_cutoffs_can_rise():
    # Graded ideal [3, 1] (exponential gains 7, 1); the run finds the 1 at rank 2 and the 3 at rank 20.
    labels = [0, 1] + [0] * 17 + [3] + [0] * 80
    at_10 = nc.ndcg(labels, 10, judgments=[3, 1], gain="exponential")
    at_100 = nc.ndcg(labels, 100, judgments=[3, 1], gain="exponential")
    assert at_10 == pytest.approx((1 / log2(3)) / (7 + 1 / log2(3)))
    assert at_100 == pytest.approx((1 / log2(3) + 7 / log2(21)) / (7 + 1 / log2(3)))
    assert at_100 > at_10


def test_ndcg_at_100_below_ndcg_at_10():
    # Twelve documents judged relevant (label 1); the run finds ten of them at ranks 1..10 and
    # nothing after. nDCG@10 = 1 (the top 10 equal the ideal's), but at 100 the ideal adds
    # 1/log2(12) + 1/log2(13) for the two documents the run never found.
    labels = [1] * 10 + [0] * 90
    judgments = [1] * 12
    dcg_10 = sum(1 / log2(i + 1) for i in range(1, 11))
    at_10 = nc.ndcg(labels, 10, judgments=judgments)
    at_100 = nc.ndcg(labels, 100, judgments=judgments)
    assert at_10 == 1.0
    assert at_100 == pytest.approx(dcg_10 / (dcg_10 + 1 / log2(12) + 1 / log2(13)))
    assert at_100 < at_10


def test_idcg_is_the_same_float_past_the_last_relevant_document():
    # Found by hypothesis in test_claims: judged 3, 3, 2, 2 and twelve zeros. IDCG@16 summed the
    # zeros too and came out 8.9e-16 above IDCG@4, so nDCG@16 < nDCG@4 by one ulp ("a drop").
    judgments = [0, 0, 2, 3] + [0] * 10 + [2, 3]
    assert nc.idcg(judgments, 16) == nc.idcg(judgments, 4)
    assert nc.ndcg([0, 0, 2, 3], 16, judgments=judgments) == nc.ndcg([0, 0, 2, 3], 4, judgments=judgments)
