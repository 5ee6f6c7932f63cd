"""Every error message of the library: what, where, expected, given, and the fix."""

import math

import numpy as np
import pytest

import ndcg_core as nc

ERROR_CASES = [
    # labels
    pytest.param(lambda: nc.dcg([1, "high", 2]), TypeError, r"^labels\[1\] must be a number; got 'high' \(str\)\. Write unjudged documents as None", id="label-str"),
    pytest.param(lambda: nc.dcg([1, True]), TypeError, r"^labels\[1\] must be a number; got True \(bool\)", id="label-bool"),
    pytest.param(lambda: nc.dcg([1, -1]), ValueError, r"^labels\[1\] must be a non-negative number; got -1\. Map a negative TREC label to None \(unjudged\) before scoring: trec_eval reads it as pooled but unjudged, not as judged non-relevant", id="label-negative"),
    pytest.param(lambda: nc.dcg([1, math.nan]), ValueError, r"^labels\[1\] must be a finite number; got nan\. Use None for an unjudged document", id="label-nan"),
    pytest.param(lambda: nc.dcg([math.inf]), ValueError, r"^labels\[0\] must be a finite number; got inf", id="label-inf"),
    pytest.param(lambda: nc.dcg(np.array([1.0, np.inf])), ValueError, r"^labels\[1\] must be a finite number; got inf", id="label-array-inf"),
    pytest.param(lambda: nc.dcg(np.array([1, -2])), ValueError, r"^labels\[1\] must be a non-negative number; got -2", id="label-array-negative"),
    pytest.param(lambda: nc.dcg(np.ones((2, 2))), ValueError, r"^labels must be one-dimensional .* got an array of shape \(2, 2\)", id="label-2d"),
    pytest.param(lambda: nc.dcg("1, 0, 2"), TypeError, r"^labels must be a sequence of numbers; got a string '1, 0, 2'\. Parse typed text first with parse_labels", id="labels-string"),
    pytest.param(lambda: nc.dcg(5), TypeError, r"^labels must be a sequence of numbers; got 5 \(int\)\. Pass a list", id="labels-int"),
    # judgments
    pytest.param(lambda: nc.idcg([2, None]), TypeError, r"^judgments\[1\] must be a number; got None\. Every entry of judgments is a judged label", id="judgment-none"),
    pytest.param(lambda: nc.idcg([2, -1]), ValueError, r"^judgments\[1\] must be a non-negative number; got -1", id="judgment-negative"),
    pytest.param(lambda: nc.idcg([2, math.nan]), ValueError, r"^judgments\[1\] must be a finite number; got nan\. Give every judged document", id="judgment-nan"),
    # k
    pytest.param(lambda: nc.dcg([1], 0), ValueError, r"^k must be a positive int or None; got k=0\. Use k=None to score the whole ranking", id="k-zero"),
    pytest.param(lambda: nc.dcg([1], -3), ValueError, r"^k must be a positive int or None; got k=-3", id="k-negative"),
    pytest.param(lambda: nc.dcg([1], 2.5), TypeError, r"^k must be a positive int or None; got k=2\.5 \(float\)\. Use a whole number", id="k-fraction"),
    pytest.param(lambda: nc.dcg([1], 5.0), TypeError, r"^k must be a positive int or None; got k=5\.0 \(float\)\. Write k=5 without the decimal point", id="k-float-whole"),
    pytest.param(lambda: nc.dcg([1], "5"), TypeError, r"^k must be a positive int or None; got k='5' \(str\)", id="k-str"),
    pytest.param(lambda: nc.dcg([1], True), TypeError, r"^k must be a positive int or None; got k=True \(bool\)", id="k-bool"),
    # gain
    pytest.param(lambda: nc.dcg([1], gain="exp"), ValueError, r"^gain must be one of 'linear', 'exponential', a \{label: gain\} table or a function; got 'exp'\.", id="gain-unknown"),
    pytest.param(lambda: nc.dcg([1], gain=3), TypeError, r"^gain must be a name \('linear', 'exponential'\), a \{label: gain\} table or a function; got 3 \(int\)", id="gain-type"),
    pytest.param(lambda: nc.dcg([3], gain={0: 0, 1: 1}), ValueError, r"^gain table has no gain for label 3; it lists labels 0, 1\. Add an entry 3: <gain>", id="gain-table-missing"),
    pytest.param(lambda: nc.dcg([1], gain={}), ValueError, r"^gain table must have at least one label: gain entry", id="gain-table-empty"),
    # 1e308 is finite, but three of them sum to infinity: refused with the bound (2^1000 - 1 = 1.07e301)
    pytest.param(lambda: nc.ndcg([2, 2, 1], 3, gain={0: 0, 1: 1e308, 2: 1e308}), ValueError, r"^gain table gain 1e\+308 for label 1 is too large: summed over a ranked list it would overflow to infinity\. Use gains of at most 1\.07e\+301 in size", id="gain-table-overflow"),
    pytest.param(lambda: nc.dcg([1], gain={1: "a"}), TypeError, r"^gain table gain must be a finite number; got 'a' \(str\) in entry 1", id="gain-table-value"),
    pytest.param(lambda: nc.dcg([1], gain=lambda l: l[:1] * 0 + [1, 2]), ValueError, r"must return one gain per label", id="gain-callable-shape"),
    pytest.param(lambda: nc.dcg([1], gain=lambda l: l * np.nan), ValueError, r"returned a NaN or infinite gain", id="gain-callable-nan"),
    # discount
    pytest.param(lambda: nc.dcg([1], discount="ln"), ValueError, r"^discount must be one of 'log2', 'log2_shifted', 'reciprocal', 'log', 'jarvelin_kekalainen', 'none' or a function of the rank; got 'ln'\.", id="discount-unknown"),
    pytest.param(lambda: nc.dcg([1], discount=2), TypeError, r"^discount must be a name \(.*\) or a function of the rank; got 2 \(int\)", id="discount-type"),
    pytest.param(lambda: nc.dcg([1], discount="jarvelin_kekalainen", base=1), ValueError, r"^base must be a number greater than 1; got 1\. A logarithm base of 1 or less", id="base-one"),
    pytest.param(lambda: nc.dcg([1], discount="log", base=0.5), ValueError, r"^base must be a number greater than 1; got 0\.5", id="base-below-one"),
    pytest.param(lambda: nc.dcg([1], discount="log", base="e"), TypeError, r"^base must be a number greater than 1; got 'e' \(str\)", id="base-type"),
    pytest.param(lambda: nc.dcg([1], discount="log2", base=10), ValueError, r"^base applies only to the 'log' and 'jarvelin_kekalainen' discounts; got base=10 with discount='log2'", id="base-not-applicable"),
    pytest.param(lambda: nc.dcg([1], discount=lambda r: r * np.inf), ValueError, r"returned a NaN or infinite factor", id="discount-callable-inf"),
    # policies
    pytest.param(lambda: nc.dcg([1], unjudged="drop"), ValueError, r"^unjudged must be one of 'zero', 'condense'; got 'drop'\.", id="unjudged-policy"),
    pytest.param(lambda: nc.NDCGConfig(ideal="run"), ValueError, r"^ideal must be one of 'judgments', 'list'; got 'run'\.", id="ideal-source"),
    # judgments consistent with the list
    pytest.param(lambda: nc.ndcg([2, 2], judgments=[2]), ValueError, r"judgments must list every judged document of the query, including those in the ranked list; the list has 2 document\(s\) with label 2 but judgments has 1", id="judgments-incomplete"),
]


@pytest.mark.parametrize(("call", "error", "message"), ERROR_CASES)
def test_error_message(call, error, message):
    with pytest.raises(error, match=message):
        call()


PARSE_ERRORS = [
    pytest.param("", r"^the list of labels is empty\. Type at least one relevance label", id="empty"),
    pytest.param(" , ,  ", r"^the list of labels is empty", id="only-separators"),
    pytest.param("1, x, 2", r"^label 2 is 'x', which is not a relevance label\. Type numbers of 0 or more such as 0, 1, 2, 3 \(decimals such as 1\.5 work too\), or \? for an unjudged document", id="letter"),
    pytest.param("1,,2", r"^label 2 is empty: there is nothing between two commas after label 1", id="empty-entry"),
    pytest.param("3 ; ; 2", r"^label 2 is empty", id="empty-entry-semicolons"),
    pytest.param(", 1", r"^the list starts with a comma", id="leading-comma"),
    pytest.param("1, -1", r"^label 2 is '-1', a negative label\. Relevance labels are 0 or more: use 0 for a judged non-relevant document, or \? for an unjudged one \(trec_eval reads a negative qrels label as pooled but unjudged, not as judged non-relevant\)\.$", id="negative"),
    pytest.param("1 2 \u22122", r"^label 3 is '-2', a negative label", id="unicode-minus"),
    pytest.param("1, 2.5.1", r"^label 2 is '2\.5\.1', which is not a relevance label", id="two-dots"),
    pytest.param("nan", r"^label 1 is 'nan', which is not a relevance label", id="nan"),
    pytest.param("inf 1", r"^label 1 is 'inf', which is not a relevance label", id="inf"),
    pytest.param("1 ?? 2", r"^label 2 is '\?\?', which is not a relevance label", id="double-question"),
]


@pytest.mark.parametrize(("text", "message"), PARSE_ERRORS)
def test_parse_labels_errors(text, message):
    with pytest.raises(ValueError, match=message):
        nc.parse_labels(text)


def test_parse_labels_rejects_non_text():
    with pytest.raises(TypeError, match=r"^labels text must be a string; got \[1\] \(list\)"):
        nc.parse_labels([1])


def test_parse_labels_too_long():
    with pytest.raises(ValueError, match=r"^the list has 100,001 labels; at most 100,000"):
        nc.parse_labels("1 " * 100_001)


GAIN_TABLE_ERRORS = [
    pytest.param("", r"^gain table must have at least one label:gain entry; got an empty text", id="empty"),
    pytest.param("0:0, 1", r"^gain table entry 2 must look like label:gain; got '1'", id="no-colon"),
    pytest.param("0:0, 1:a", r"^gain table entry 2 must be two numbers label:gain; got '1:a'", id="not-number"),
    pytest.param("-1:0", r"^gain table entry 1 has a negative label -1; labels are 0 or more", id="negative-label"),
    pytest.param("1:1, 1:2", r"^gain table lists label 1 twice \(entry 2\)", id="duplicate"),
    pytest.param("1:inf", r"^gain table entry 1 must hold finite numbers; got '1:inf'", id="infinite"),
    pytest.param("1:2:3", r"^gain table entry 1 must look like label:gain; got '1:2:3'", id="three-parts"),
]


@pytest.mark.parametrize(("text", "message"), GAIN_TABLE_ERRORS)
def test_parse_gain_table_errors(text, message):
    with pytest.raises(ValueError, match=message):
        nc.parse_gain_table(text)


def test_parse_gain_table_rejects_non_text():
    with pytest.raises(TypeError, match=r"^gain table must be text; got 3 \(int\)"):
        nc.parse_gain_table(3)


def test_discount_object_with_conflicting_base():
    jk3 = nc.resolve_discount("jarvelin_kekalainen", base=3)
    with pytest.raises(ValueError, match=r"^base=2 conflicts with the discount object's own base 3\.0"):
        nc.dcg([1], discount=jk3, base=2)


def test_no_error_is_a_zero_division_or_nan():
    # Degenerate but valid inputs give documented values, never NaN.
    for value in (nc.ndcg([]), nc.ndcg([0]), nc.ndcg([None]), nc.ndcg([None], unjudged="condense"),
                  nc.ndcg([0, 0], judgments=[0]), nc.unjudged_fraction([])):
        assert value == 0.0
