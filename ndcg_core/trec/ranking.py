r"""How a run becomes a ranking: trec_eval's order, for one topic and for all at once.

Documents are ordered by score, highest first; equal scores by document id *descending*
in byte order (C ``strcmp``); the rank column of the file is ignored. :func:`ranked_labels`
is the readable reference (Python's sort, one topic); :func:`ranking_order` orders every
row of a run at once (numpy) for :func:`ndcg_core.trec.evaluate_run` and the pools of
:mod:`ndcg_core.teaching.pooling`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._lazy import pd
from .tables import Table, as_table

__all__ = ["RankedTopic", "ranked_labels", "ranked_topic", "ranking_order"]


class RankedTopic(NamedTuple):
    """One topic of a run, in trec_eval's order, with its qrels labels.

    ``labels[i]`` is the qrels label of ``doc_ids[i]`` (rank i + 1), or None when the
    document is unjudged: absent from the qrels, or listed there with a negative label
    (trec_eval: "in the pool but not judged"). ``judgments`` holds the labels of every
    judged document of the topic (label 0 or more), largest first: the ideal list's
    source. ``qrels_labels`` keeps the raw qrels value (negative ones included; None when
    absent).
    """

    query_id: str
    doc_ids: list[str]
    scores: list[float]
    labels: list[int | None]
    judgments: list[int]
    qrels_labels: list[int | None]


def ranked_labels(qrels: object, run: object, query_id: object) -> RankedTopic:
    """The ranked list of one topic of a run, with each document's qrels label.

    Order: score descending; equal scores by document id descending in byte order
    (C ``strcmp``, as trec_eval); the run's rank column plays no part. This is the
    readable reference for :func:`ranking_order`, which :func:`ndcg_core.trec.evaluate_run` uses.

    Parameters
    ----------
    qrels, run : table or dict
        As returned by :func:`ndcg_core.trec.read_qrels` / :func:`~ndcg_core.trec.read_run`,
        or dicts of dicts.
    query_id : str
        The topic. A topic the run does not retrieve for gives an empty list.

    Examples
    --------
    Three documents tie on score 1.0; trec_eval ranks d3, d2, d1:

    >>> qrels = {"q1": {"d1": 2, "d2": 0, "d3": 1, "d9": 3}}
    >>> run = {"q1": {"d1": 1.0, "d2": 1.0, "d3": 1.0, "d4": 2.0}}
    >>> topic = ranked_labels(qrels, run, "q1")
    >>> topic.doc_ids, topic.labels, topic.judgments
    (['d4', 'd3', 'd2', 'd1'], [None, 1, 0, 2], [3, 2, 1, 0])
    """
    return ranked_topic(as_table(qrels, "qrels"), as_table(run, "run"), str(query_id))


def _rows_of(table: Table, query: str) -> np.ndarray:
    codes = np.flatnonzero(table.query_names == query)
    if len(codes) == 0:
        return np.zeros(0, dtype=np.intp)
    return np.flatnonzero(np.isin(table.query_codes, codes))


def ranked_topic(qrels: Table, run: Table, query: str) -> RankedTopic:
    """:func:`ranked_labels` on checked tables (``RunEvaluation.ranked`` and ``explain`` use it)."""
    judged = _rows_of(qrels, query)
    label_of = dict(
        zip(qrels.doc_names[qrels.doc_codes[judged]].tolist(), qrels.values[judged].tolist())
    )
    rows = _rows_of(run, query)
    pairs = zip(run.values[rows].tolist(), run.doc_names[run.doc_codes[rows]].tolist())
    # Python orders str by code point: the UTF-8 byte order that strcmp uses.
    ranked = sorted(pairs, reverse=True)
    doc_ids = [doc for _, doc in ranked]
    raw = [label_of.get(doc) for doc in doc_ids]
    labels = [None if label is None or label < 0 else int(label) for label in raw]
    judgments = sorted((int(label) for label in label_of.values() if label >= 0), reverse=True)
    return RankedTopic(query, doc_ids, [float(score) for score, _ in ranked], labels, judgments, raw)


def _byte_order(names: np.ndarray) -> np.ndarray:
    """Indices that sort ``names`` (str) in strcmp's byte order.

    Short ASCII ids (the usual docnos) are sorted as fixed-width bytes by numpy (memcmp);
    anything else by Python, whose code-point order is the UTF-8 byte order. (Tables from
    the fast reader need none of this: their codes are in byte order already.)
    """
    if len(names) and max(map(len, names)) <= 64:
        try:
            return np.argsort(names.astype("S"), kind="stable")
        except UnicodeEncodeError:
            pass
    return np.array(sorted(range(len(names)), key=names.__getitem__), dtype=np.intp)


def ranking_order(
    topic: np.ndarray,
    scores: np.ndarray,
    doc_codes: np.ndarray,
    doc_names: np.ndarray,
    doc_keys: np.ndarray | None = None,
) -> np.ndarray:
    """The order of a run's rows in trec_eval's ranking, every topic at once.

    Rows come out grouped by topic (ascending code), by score descending within a topic,
    and by document id descending in byte order among equal scores.

    Parameters
    ----------
    topic : numpy.ndarray
        Each row's topic code (non-negative integers).
    scores : numpy.ndarray
        Each row's score.
    doc_codes, doc_names : numpy.ndarray
        Each row's document code, and the names the codes index (a
        :class:`~ndcg_core.trec.tables.Table`'s ``doc_codes`` and ``doc_names``).
    doc_keys : numpy.ndarray, optional
        The table's ``doc_keys``: when given, codes are in byte order already and tied
        documents are ordered by code, without looking at a name.

    Returns
    -------
    numpy.ndarray
        Row indices, rank 1 of the first topic first.

    Notes
    -----
    A run file is usually written topic by topic in rank order already; then only the
    tied documents need sorting. Otherwise one lexsort orders everything.

    Examples
    --------
    >>> names = np.array(["d1", "d2", "d3"], dtype=object)
    >>> ranking_order(np.array([0, 0, 0]), np.array([1.0, 2.0, 1.0]), np.array([0, 1, 2]), names).tolist()
    [1, 2, 0]
    """
    n = len(topic)
    if n < 2:
        return np.arange(n)
    index = np.int32 if n < np.iinfo(np.int32).max else np.int64  # row numbers: half the memory
    same_topic = topic[1:] == topic[:-1]
    grouped = np.count_nonzero(~same_topic) + 1 == np.count_nonzero(np.bincount(topic))
    if grouped and not (same_topic & (scores[1:] > scores[:-1])).any():
        order = np.arange(n, dtype=index)
        tie = same_topic & (scores[1:] == scores[:-1])
        del same_topic
    else:
        del same_topic
        order = _topic_score_order(topic, scores).astype(index, copy=False)
        t = topic[order]
        tie = t[1:] == t[:-1]
        del t
        s = scores[order]
        tie &= s[1:] == s[:-1]
        del s
    if not tie.any():
        return order
    in_tie = np.zeros(n, dtype=bool)
    in_tie[1:] |= tie
    in_tie[:-1] |= tie
    # The tied rows, a slice of rows at a time; a slice ends where two rows do not tie, so
    # no tie group is split (and each slice's groups are ordered as in one sort of all).
    begin = 0
    while begin < n:
        end = min(begin + _TIE_ROWS, n)
        if end < n and tie[end - 1]:
            end += int(np.argmin(tie[end - 1 :]))  # the next pair of rows that does not tie
            if tie[end - 1]:
                end = n
        positions = np.flatnonzero(in_tie[begin:end])
        if len(positions):
            positions += begin
            _order_ties(order, positions, tie, doc_codes, doc_names, doc_keys)
        begin = end
    return order


_TIE_ROWS = 1 << 18  # rows whose ties are ordered at a time


def _topic_score_order(topic: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """Rows by topic ascending, score descending (equal scores in any order: the caller
    orders ties by document). One argsort of the scores, then one sort of
    ``topic << bits | score rank`` (no argsort): about 1.5x a lexsort's speed on a
    million rows; a lexsort when the topic codes leave no room."""
    n = len(topic)
    bits = max(int(n - 1).bit_length(), 1)
    if int(topic.max()) >= 1 << (64 - bits):
        return np.lexsort((-scores, topic))
    by_score = np.argsort(-scores)
    key = np.empty(n, dtype=np.uint64)
    key[by_score] = np.arange(n, dtype=np.uint64)
    key |= topic.astype(np.uint64) << np.uint64(bits)
    key.sort()
    key &= np.uint64((1 << bits) - 1)
    return by_score[key]


def _order_ties(
    order: np.ndarray,
    positions: np.ndarray,
    tie: np.ndarray,
    doc_codes: np.ndarray,
    doc_names: np.ndarray,
    doc_keys: np.ndarray | None,
) -> None:
    """Order the rows at ``positions`` (whole tie groups) by document id, descending."""
    # a tie group starts where a tied row does not tie with the row before it
    starts = np.ones(len(positions), dtype=bool)
    starts[1:] = ~tie[positions[1:] - 1]
    group = np.cumsum(starts, dtype=np.int64)
    del starts
    rows = order[positions]
    if doc_keys is not None:  # the fast reader's codes follow the ids' byte order
        n_names = len(doc_keys)
        descending = (n_names - 1) - doc_codes[rows].astype(np.int64)
    else:
        inverse, distinct = pd.factorize(doc_codes[rows])
        by_text = _byte_order(doc_names[distinct])
        n_names = len(by_text)
        rank = np.empty(n_names, dtype=np.int64)
        rank[by_text] = np.arange(n_names - 1, -1, -1)
        descending = rank[inverse]
    # groups are already in order: a stable sort of (group, descending text rank) is near-linear
    group *= n_names
    group += descending
    del descending
    inner = np.argsort(group, kind="stable")
    order[positions] = rows[inner]
