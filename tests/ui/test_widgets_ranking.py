"""widgets.read_ranking: the parse step of the chapters that take a list and the labels it missed."""

from __future__ import annotations

from ndcg_core.ui import widgets


def test_a_list_and_missed_labels_give_the_judgments():
    labels, judgments, problem = widgets.read_ranking("1, ?, 2, 0", "3, 0")
    assert labels == [1, None, 2, 0]
    assert judgments == [1.0, 2.0, 0.0, 3.0, 0.0]  # the list's judged labels, then the missed ones
    assert problem is None
    assert widgets.read_ranking("1 0", "  ")[1] == [1.0, 0.0]


def test_a_bad_token_gives_a_callout_naming_it_never_a_traceback():
    for typed, missed, needle in (("1, x", "", "'x'"), ("1", "?", "must be a number; got None"), ("1, -1", "", "'-1'")):
        labels, judgments, problem = widgets.read_ranking(typed, missed)
        assert labels is None and judgments is None
        text = problem.text
        assert needle in text.replace("&#x27;", "'") and "Traceback" not in text
