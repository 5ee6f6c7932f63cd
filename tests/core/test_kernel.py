"""The DCG kernel (ndcg_core.kernel) and the shared checks: one sum, one positive-int check,
one label limit, one list of discounts that take a base."""

from math import log2

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ndcg_core as nc
from ndcg_core._validation import check_k, check_positive_int
from ndcg_core.kernel import dcg_at, dcg_per_list, list_segments, running_dcg
from ndcg_core.labels import MAX_LABEL

LECTURE = np.array([1.0, 0.0, 2.0, 1.0, 0.0])
LOG2 = np.array([1 / log2(i + 1) for i in range(1, 11)])


@pytest.mark.parametrize(
    "k, expected",
    [
        pytest.param(None, 1 / log2(2) + 0 / log2(3) + 2 / log2(4) + 1 / log2(5) + 0 / log2(6), id="whole"),
        pytest.param(3, 1 / log2(2) + 0 / log2(3) + 2 / log2(4), id="k3"),
        pytest.param(99, 1 / log2(2) + 0 / log2(3) + 2 / log2(4) + 1 / log2(5) + 0 / log2(6), id="k-beyond"),
    ],
)
def test_dcg_at_the_lecture_example(k, expected):
    assert dcg_at(LECTURE, LOG2, k) == pytest.approx(expected, abs=1e-15)


def test_empty_list_has_dcg_zero():
    assert dcg_at(np.zeros(0), np.zeros(0)) == 0.0
    terms, cumulative = running_dcg(np.zeros(0), np.zeros(0))
    assert len(terms) == len(cumulative) == 0


gains_lists = st.lists(st.lists(st.floats(0, 10), max_size=12), max_size=6)


@given(gains_lists, st.one_of(st.none(), st.integers(1, 15)))
def test_the_three_views_of_the_sum_agree(lists, k):
    factors = np.array([1 / log2(i + 1) for i in range(1, 13)])
    one_by_one = [dcg_at(np.array(g), factors, k) for g in lists]
    ids = np.repeat(np.arange(len(lists)), [len(g) for g in lists])
    flat = np.array([x for g in lists for x in g])
    together = dcg_per_list(flat, factors, list_segments(ids), len(lists), [k])[0]
    assert together == pytest.approx(one_by_one, abs=1e-12)
    for g, value in zip(lists, one_by_one):
        cut = len(g) if k is None else min(k, len(g))
        terms, cumulative = running_dcg(np.array(g[:cut]), factors)
        assert (cumulative[-1] if cut else 0.0) == pytest.approx(value, abs=1e-12)
        assert terms.tolist() == pytest.approx([x * f for x, f in zip(g[:cut], factors)])


def test_lists_without_rows_score_zero():
    lists = list_segments(np.array([1, 1, 3]))
    out = dcg_per_list(np.array([2.0, 1.0, 4.0]), LOG2, lists, 5, [None, 1])
    assert out.tolist() == [[0, 2 + 1 / log2(3), 0, 4, 0], [0, 2, 0, 4, 0]]
    assert lists.lengths(5).tolist() == [0, 2, 0, 1, 0]


# --------------------------------------------------------------------------- the shared checks


@pytest.mark.parametrize(
    "value, error, message",
    [
        pytest.param(0, ValueError, r"^depth must be a positive whole number; got depth=0\.$", id="zero"),
        pytest.param(-2, ValueError, r"^depth must be a positive whole number; got depth=-2\.$", id="negative"),
        pytest.param(2.5, TypeError, r"^depth must be a positive whole number; got depth=2\.5 \(float\)\.$", id="fraction"),
        pytest.param(3.0, TypeError, r"^depth must be a positive whole number; got depth=3\.0 \(float\)\. Write depth=3 without the decimal point\.$", id="float-whole"),
        pytest.param("3", TypeError, r"^depth must be a positive whole number; got depth='3' \(str\)\.$", id="str"),
        pytest.param(True, TypeError, r"^depth must be a positive whole number; got depth=True \(bool\)\.$", id="bool"),
    ],
)
def test_check_positive_int_messages(value, error, message):
    with pytest.raises(error, match=message):
        check_positive_int(value, "depth")


def test_check_positive_int_accepts_ints_and_hints():
    assert check_positive_int(np.int64(7), "n") == 7 and type(check_positive_int(np.int64(7), "n")) is int
    with pytest.raises(ValueError, match=r"^n must be at least one rank; got n=0\. Try n=10\.$"):
        check_positive_int(0, "n", expected="at least one rank", value_hint="Try n=10.")
    assert check_k(None) is None and check_k(3) == 3


def test_one_label_limit_for_typed_labels_and_the_exponential_gain():
    assert nc.parse_labels(str(MAX_LABEL)) == [MAX_LABEL]
    with pytest.raises(ValueError, match=rf"at most {MAX_LABEL}"):
        nc.parse_labels(str(MAX_LABEL + 1))
    assert np.isfinite(nc.dcg([MAX_LABEL], gain="exponential"))
    with pytest.raises(ValueError, match=rf"exponential gain 2\^l - 1 needs labels of at most {MAX_LABEL}"):
        nc.dcg([MAX_LABEL + 1], gain="exponential")


def test_takes_base_names_the_discounts_that_accept_a_base():
    assert nc.TAKES_BASE == ("log", "jarvelin_kekalainen")
    for name in nc.DISCOUNT_NAMES:
        if name in nc.TAKES_BASE:
            assert nc.resolve_discount(name, base=3).base == 3
        else:
            with pytest.raises(ValueError, match=r"base applies only to the 'log' and 'jarvelin_kekalainen'"):
                nc.resolve_discount(name, base=3)
