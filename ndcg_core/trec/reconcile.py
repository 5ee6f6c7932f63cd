r"""Why do two nDCG numbers differ? Find the convention that reproduces a number.

Another tool printed 0.4187 for your run; ``ndcg-eval`` prints 0.3921. :func:`reconcile`
scores the run under every combination of the conventions in
:mod:`ndcg_core.trec.conventions` (gain, discount, ideal list, tie order, unjudged
documents and negative labels, topic set, cutoff: 5,760 configurations for one k), keeps
those that reproduce the target to its printed digits (every topic, when per-topic values
are given), ranks the rest by distance and explains, topic by topic, what turns
trec_eval's number into the target.

The search is vectorised: each tie order and each treatment of unjudged and negative
labels is one pass of numpy over all topics; gains, discounts, ideal lists and cutoffs
are read off dense per-topic prefix sums (``bench/reconcile_speed.py`` times it).

For a notebook: :meth:`Reconciliation.table` (the candidates, best first),
:meth:`Reconciliation.topic_table` (per topic: target, trec_eval, the match, the reason)
and :attr:`Reconciliation.explanation` (plain text).

Examples
--------
>>> qrels = {"q1": {"d1": 2, "d2": 1, "d3": 1, "d9": 0}, "q2": {"d1": 1, "d4": 2}}
>>> run = {"q1": {"d2": 3.0, "d7": 2.0, "d1": 1.0}, "q2": {"d4": 1.0, "d5": 0.5}}
>>> found = reconcile(qrels, run, {"q1": "0.7602", "q2": "1.0000"}, k=3)
>>> found.best.differences(PRESETS["trec_eval"].convention, topics=False)
('ideal',)
>>> print("\n".join(found.explanation.splitlines()[:3]))
The target (2 topics) is reproduced by 48 of 1,920 configurations.
Closest match to trec_eval: linear gain, discount 1/log2(i+1), ideal from the retrieved documents only, tied scores by document id descending, unjudged documents gain 0, negative labels as unjudged, the topics listed in the target, cutoff 3.
It differs from trec_eval in: ideal from the retrieved documents only instead of ideal from all judged documents.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from functools import cached_property
from itertools import product
from typing import TextIO

import numpy as np

from .._lazy import pd
from .._validation import check_k
from ..discounts import resolve_discount
from ..kernel import dcg_of_lists, running_dcg
from .conventions import DIMENSIONS, PRESETS, TREC_EVAL, Convention, describe_value
from .files import read_qrels, read_run
from .tables import qrels_frame, run_frame

__all__ = [
    "EXIT_NO_MATCH",
    "POLICIES",
    "ConventionScores",
    "Reconciliation",
    "Target",
    "add_match_arguments",
    "read_target",
    "reconcile",
    "run_match",
    "score_conventions",
]

#: (unjudged, negatives) pairs searched: with unjudged documents at gain 0, a negative
#: label scores 0 whether it is "unjudged" or "zero", so that pair is searched once.
POLICIES = (("zero", "unjudged"), ("zero", "as_is"), ("condense", "unjudged"), ("condense", "zero"), ("condense", "as_is"))


class _Unknown:
    """The cutoff of a target that does not name its measure."""

    def __repr__(self) -> str:
        return "unknown"


_MISSING = _Unknown()


def _canonical(convention: Convention) -> Convention:
    if convention.unjudged == "zero" and convention.negatives == "zero":
        return replace(convention, negatives="unjudged")
    return convention


# --------------------------------------------------------------------------- scoring


def _column_codes(column: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    if isinstance(column.dtype, pd.CategoricalDtype):
        return column.cat.codes.to_numpy(np.int64), np.asarray(column.cat.categories.astype(str), dtype=object)
    codes, uniques = pd.factorize(column, sort=False)
    return codes.astype(np.int64), np.asarray([str(u) for u in uniques], dtype=object)


def _byte_rank(names: np.ndarray) -> np.ndarray:
    """Each name's position in strcmp's byte order (Python's code-point order is the same)."""
    try:
        order = np.argsort(names.astype("S"), kind="stable")
    except UnicodeEncodeError:
        order = np.array(sorted(range(len(names)), key=names.__getitem__), dtype=np.intp)
    rank = np.empty(len(names), dtype=np.int64)
    rank[order] = np.arange(len(names))
    return rank


def _segments(topic: np.ndarray) -> np.ndarray:
    """0-based rank of each row within its topic, for rows grouped by topic."""
    n = len(topic)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    change = np.empty(n, dtype=bool)
    change[0] = True
    np.not_equal(topic[1:], topic[:-1], out=change[1:])
    starts = np.flatnonzero(change)
    return np.arange(n, dtype=np.int64) - np.repeat(starts, np.diff(np.append(starts, n)))


def _gain(name: str, values: np.ndarray) -> np.ndarray:
    return values if name == "linear" else np.exp2(values) - 1.0


class _Ranked:
    """Rows of one ordering: topic, 0-based rank, label value (0 when unjudged)."""

    def __init__(self, topic: np.ndarray, values: np.ndarray, n_topics: int, depth: int, group: np.ndarray | None = None):
        self.topic = topic
        self.values = values
        self.rank0 = _segments(topic)
        self.n_topics = n_topics
        self.depth = depth
        self.group = group  # tie groups (the averaging rule), else None
        self.top = np.flatnonzero(self.rank0 < depth)

    def gains(self, gain: str) -> np.ndarray:
        g = _gain(gain, self.values)
        if self.group is None:
            return g
        sizes = np.bincount(self.group)
        return (np.bincount(self.group, g) / sizes)[self.group]

    def sums(self, gains: np.ndarray, factors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Cumulative DCG at ranks 1..depth (n_topics x depth) and DCG of the whole list."""
        dense = np.zeros((self.n_topics, self.depth))
        top = self.top
        dense[self.topic[top], self.rank0[top]] = gains[top]
        _, prefix = running_dcg(dense, factors)
        whole = dcg_of_lists(gains, factors[self.rank0], self.topic, self.n_topics)
        return prefix, whole

    def top_labels(self) -> np.ndarray:
        """Labels of ranks 1..depth (n_topics x depth), -inf where a topic has fewer documents."""
        dense = np.full((self.n_topics, self.depth), -np.inf)
        dense[self.topic[self.top], self.rank0[self.top]] = self.values[self.top]
        return dense


def _ratio(dcg: np.ndarray, idcg: np.ndarray) -> np.ndarray:
    return np.divide(dcg, idcg, out=np.zeros(len(dcg)), where=idcg > 0)


@dataclass(frozen=True)
class ConventionScores:
    """Per-topic nDCG of one run under every convention (from :func:`score_conventions`).

    Attributes
    ----------
    topics : tuple of str
        Every topic of the qrels or the run, in byte order (trec_eval's).
    k : int or None
        The cutoff asked for (``None``: the whole run).
    cutoffs : tuple of str
        The cutoff values searched: ``k``, ``k-1`` (when k > 1), ``k+1``, ``whole``; only
        ``k`` (the whole run) when k is None.
    values : numpy.ndarray
        nDCG, shape (gain, discount, ideal, ties, policy, cutoff, topic), in the order of
        :data:`~ndcg_core.trec.conventions.DIMENSIONS` and :data:`POLICIES`.
    in_qrels, in_run : numpy.ndarray of bool
        Which topics the qrels judge and the run retrieves for.
    facts : pandas.DataFrame
        One row per topic (index ``query_id``), what the explanations cite, counted under
        trec_eval's ranking: ``relevant`` (qrels labels > 0), ``retrieved``,
        ``retrieved_relevant``, ``relevant_in_top`` (in the top k), ``top_label`` (the
        largest qrels label), ``tied_in_top`` (top-k documents sharing their score with
        another document), ``unjudged_in_top``, ``negative_judged`` (qrels lines with a
        negative label), ``negative_retrieved``, ``label_at_k`` and ``label_after_k`` (the
        labels at ranks k and k + 1; NaN for no document or an unjudged one).
    """

    topics: tuple[str, ...]
    k: int | None
    cutoffs: tuple[str, ...]
    values: np.ndarray = field(repr=False)
    in_qrels: np.ndarray = field(repr=False)
    in_run: np.ndarray = field(repr=False)
    facts: pd.DataFrame = field(repr=False, compare=False)

    def index(self, convention: Convention) -> tuple[int, ...]:
        """The position of ``convention`` (topics aside) in :attr:`values`."""
        c = _canonical(convention)
        if c.cutoff not in self.cutoffs:
            raise ValueError(f"cutoff {c.cutoff!r} is not searched for k={self.k}; choose from {', '.join(self.cutoffs)}.")
        return (
            DIMENSIONS["gain"].index(c.gain),
            DIMENSIONS["discount"].index(c.discount),
            DIMENSIONS["ideal"].index(c.ideal),
            DIMENSIONS["ties"].index(c.ties),
            POLICIES.index((c.unjudged, c.negatives)),
            self.cutoffs.index(c.cutoff),
        )

    def convention(self, index: tuple[int, ...], topics: str = "both") -> Convention:
        """The convention at ``index`` of :attr:`values` (the inverse of :meth:`index`)."""
        g, d, i, t, p, c = index
        unjudged, negatives = POLICIES[p]
        return Convention(
            gain=DIMENSIONS["gain"][g],
            discount=DIMENSIONS["discount"][d],
            ideal=DIMENSIONS["ideal"][i],
            ties=DIMENSIONS["ties"][t],
            unjudged=unjudged,
            negatives=negatives,
            topics=topics,
            cutoff=self.cutoffs[c],
        )

    def topic_mask(self, topics: str) -> np.ndarray:
        """Which topics a topic set (``both``, ``qrels``, ``run``) averages over."""
        if topics == "both":
            return self.in_qrels & self.in_run
        if topics == "qrels":
            return self.in_qrels
        if topics == "run":
            return self.in_run
        raise ValueError(f"topics must be both, qrels or run for a mean; got {topics!r}.")

    def per_topic(self, convention: Convention) -> pd.Series:
        """nDCG of each topic of ``convention``'s topic set (every topic for ``listed``)."""
        row = self.values[self.index(convention)]
        mask = np.ones(len(self.topics), dtype=bool) if convention.topics == "listed" else self.topic_mask(convention.topics)
        return pd.Series(row[mask], index=pd.Index(np.asarray(self.topics, dtype=object)[mask], name="query_id"), name="ndcg")

    def mean(self, convention: Convention) -> float:
        """The mean nDCG over ``convention``'s topic set (0.0 for an empty set)."""
        values = self.per_topic(convention)
        return float(values.sum() / len(values)) if len(values) else 0.0

    def means(self) -> np.ndarray:
        """Means of every convention: :attr:`values`' shape with the topic axis replaced by
        the topic sets ``both``, ``qrels``, ``run``."""
        out = []
        for topics in DIMENSIONS["topics"]:
            mask = self.topic_mask(topics)
            count = int(mask.sum())
            out.append(self.values[..., mask].sum(axis=-1) / max(count, 1))
        return np.stack(out, axis=-1)

    def position(self, query_id: str) -> int:
        """The index of a topic in :attr:`topics` (and on the last axis of :attr:`values`)."""
        return int(self.facts.index.get_loc(query_id))


def score_conventions(qrels: object, run: object, k: int | None) -> ConventionScores:
    r"""nDCG@k of every topic under every convention of the search space.

    .. math:: \mathrm{nDCG}@k_c(q) = \frac{\sum_{i=1}^{k_c} g_c(\ell_{q,\pi_c(i)})\, d_c(i)}
              {\sum_{i=1}^{k_c} g_c(\ell^{*}_{q,c,i})\, d_c(i)}

    for each convention c: its ranking :math:`\pi_c` (tie order, unjudged documents
    kept or removed), gain :math:`g_c`, discount :math:`d_c`, cutoff :math:`k_c` and
    ideal labels :math:`\ell^*_{q,c}` (all judgments, the retrieved list or its top k,
    sorted). An ideal DCG of 0 or less gives 0.

    Parameters
    ----------
    qrels, run : table or dict
        From :func:`~ndcg_core.trec.read_qrels` / :func:`~ndcg_core.trec.read_run`, or
        ``{query_id: {doc_id: value}}`` dicts. The run's row order is its file order.
    k : int or None
        The cutoff of the number to reconcile; ``None`` for the whole run.

    Examples
    --------
    >>> scores = score_conventions({"q1": {"a": 2, "b": 1}}, {"q1": {"b": 1.0, "c": 0.5}}, 2)
    >>> round(float(scores.per_topic(Convention()).loc["q1"]), 4)  # 1 / (2 + 1/log2(3))
    0.3801
    >>> round(float(scores.per_topic(Convention(ideal="retrieved")).loc["q1"]), 4)
    1.0
    """
    k = check_k(k)
    qf, rf = qrels_frame(qrels), run_frame(run)
    qt_codes, qt_names = _column_codes(qf["query_id"])
    rt_codes, rt_names = _column_codes(rf["query_id"])
    used_q = qt_names[np.unique(qt_codes)] if len(qt_codes) else qt_names[:0]
    used_r = rt_names[np.unique(rt_codes)] if len(rt_codes) else rt_names[:0]
    topics = tuple(sorted(set(used_q.tolist()) | set(used_r.tolist())))
    position = {name: i for i, name in enumerate(topics)}
    n_topics = len(topics)
    q_topic = np.array([position.get(n, -1) for n in qt_names], dtype=np.int64)[qt_codes]
    r_topic = np.array([position.get(n, -1) for n in rt_names], dtype=np.int64)[rt_codes]
    in_qrels = np.bincount(q_topic, minlength=n_topics) > 0
    in_run = np.bincount(r_topic, minlength=n_topics) > 0
    q_label = qf["relevance"].to_numpy(np.float64)
    scores = rf["score"].to_numpy(np.float64)

    # each run row's qrels label (NaN: not in the qrels)
    qd_codes, qd_names = _column_codes(qf["doc_id"])
    rd_codes, rd_names = _column_codes(rf["doc_id"])
    n_docs = max(len(qd_names), 1)
    run_doc_in_qrels = pd.Index(qd_names).get_indexer(rd_names)[rd_codes]
    run_keys = np.where(run_doc_in_qrels >= 0, r_topic * n_docs + run_doc_in_qrels, -1)
    hit = pd.Index(q_topic * n_docs + qd_codes).get_indexer(run_keys)
    raw = np.where(hit >= 0, q_label[np.maximum(hit, 0)], np.nan)

    # the orderings: topic, score descending, then the tie rule
    file_order = np.lexsort((-scores, r_topic))
    doc_rank = _byte_rank(rd_names)[rd_codes]
    orders = {
        "docno_desc": np.lexsort((-doc_rank, -scores, r_topic)),
        "docno_asc": np.lexsort((doc_rank, -scores, r_topic)),
        "file_order": file_order,
        "averaged": file_order,
    }
    judged = ~np.isnan(raw)
    negative = judged & (raw < 0)
    clipped = np.where(judged, np.maximum(raw, 0.0), 0.0)
    as_is = np.where(judged, raw, 0.0)
    keeps = {"all": None, "nonnegative": judged & ~negative, "judged": judged}
    policy_rows = {  # (unjudged, negatives) -> (which rows are ranked, their label values)
        ("zero", "unjudged"): ("all", "clipped"),
        ("zero", "as_is"): ("all", "as_is"),
        ("condense", "unjudged"): ("nonnegative", "clipped"),
        ("condense", "zero"): ("judged", "clipped"),
        ("condense", "as_is"): ("judged", "as_is"),
    }
    label_values = {"clipped": clipped, "as_is": as_is}

    # "k" is the cutoff asked for; with k=None that is the whole run, and the only cutoff
    cutoffs = ("k",) if k is None else (("k",) + (("k-1",) if k > 1 else ()) + ("k+1", "whole"))
    depth = 0 if k is None else k + 1
    cut_at = {"k": k, "k-1": None if k is None else k - 1, "k+1": None if k is None else k + 1, "whole": None}
    longest = max(
        np.bincount(r_topic, minlength=n_topics).max(initial=0),
        np.bincount(q_topic, minlength=n_topics).max(initial=0),
        depth,
        1,
    )
    factors = {name: resolve_discount(name).prefix(int(longest)) for name in DIMENSIONS["discount"]}
    gains, discounts, ideals, ties = (DIMENSIONS[d] for d in ("gain", "discount", "ideal", "ties"))
    values = np.zeros((len(gains), len(discounts), len(ideals), len(ties), len(POLICIES), len(cutoffs), n_topics))

    def ranked(order: np.ndarray, keep_name: str, value_name: str, group: bool = False) -> _Ranked:
        keep = keeps[keep_name]
        if keep is not None:
            order = order[keep[order]]
        topic = r_topic[order]
        groups = None
        if group and len(order):
            s = scores[order]
            change = np.concatenate(([True], (topic[1:] != topic[:-1]) | (s[1:] != s[:-1])))
            groups = np.cumsum(change) - 1
        return _Ranked(topic, label_values[value_name][order], n_topics, depth, groups)

    # ideal lists from all judgments: per treatment of negative labels
    q_order = np.lexsort((-q_label, q_topic))
    judgment_ideal = {}
    for negatives in ("unjudged", "zero", "as_is"):
        rows = q_order if negatives != "unjudged" else q_order[q_label[q_order] >= 0]
        labels = q_label[rows] if negatives != "zero" else np.maximum(q_label[rows], 0.0)
        judgment_ideal[negatives] = _Ranked(q_topic[rows], labels, n_topics, depth)
    # ideal lists from the retrieved documents: one sort serves every policy
    retrieved_order = np.lexsort((-as_is, r_topic))

    idcg_cache: dict[tuple[int, str, str], dict[str, np.ndarray]] = {}

    def idcg_at(ideal: _Ranked, gain: str, discount: str) -> dict[str, np.ndarray]:
        key = (id(ideal), gain, discount)
        if key in idcg_cache:
            return idcg_cache[key]
        prefix, whole = ideal.sums(_gain(gain, ideal.values), factors[discount])
        out = {name: whole if cut_at[name] is None else prefix[:, cut_at[name] - 1] for name in cutoffs}
        out["whole"] = whole
        idcg_cache[key] = out
        return out

    cache_retrieved: dict[tuple[str, str], _Ranked] = {}
    for ti, tie in enumerate(ties):
        for pi, policy in enumerate(POLICIES):
            keep_name, value_name = policy_rows[policy]
            lists = ranked(orders[tie], keep_name, value_name, group=tie == "averaged")
            key = (keep_name, value_name)
            if key not in cache_retrieved:
                cache_retrieved[key] = ranked(retrieved_order, keep_name, value_name)
            retrieved = cache_retrieved[key]
            top_labels = lists.top_labels() if depth else None
            for gi, gain in enumerate(gains):
                run_gains = lists.gains(gain)
                for di, discount in enumerate(discounts):
                    prefix, whole = lists.sums(run_gains, factors[discount])
                    dcg = {name: whole if cut_at[name] is None else prefix[:, cut_at[name] - 1] for name in cutoffs}
                    judgments = idcg_at(judgment_ideal[policy[1]], gain, discount)
                    by_ideal = {
                        "judgments": judgments,
                        "judgments_full": {name: judgments["whole"] for name in cutoffs},
                        "retrieved": idcg_at(retrieved, gain, discount),
                    }
                    top_k: dict[str, np.ndarray] = {}
                    for name in cutoffs:
                        cut = cut_at[name]
                        if cut is None:
                            top_k[name] = by_ideal["retrieved"][name]
                        else:
                            best = -np.sort(-top_labels[:, :cut], axis=1)  # type: ignore[index]
                            top_gains = np.where(np.isfinite(best), _gain(gain, np.where(np.isfinite(best), best, 0.0)), 0.0)
                            top_k[name] = running_dcg(top_gains, factors[discount])[1][:, -1]
                    by_ideal["retrieved_top_k"] = top_k
                    for ii, ideal in enumerate(ideals):
                        for ci, name in enumerate(cutoffs):
                            values[gi, di, ii, ti, pi, ci] = _ratio(dcg[name], by_ideal[ideal][name])

    facts = _topic_facts(topics, k, orders["docno_desc"], r_topic, raw, scores, q_order, q_topic, q_label)
    return ConventionScores(topics, k, cutoffs, values, in_qrels, in_run, facts)


def _topic_facts(topics, k, order, r_topic, raw, scores, q_order, q_topic, q_label) -> pd.DataFrame:  # type: ignore[no-untyped-def]
    """The per-topic counts of :attr:`ConventionScores.facts`, all topics at once."""
    n = len(topics)
    t, label, score = r_topic[order], raw[order], scores[order]
    rank0 = _segments(t)
    in_top = rank0 < (k if k is not None else len(t) + 1)
    tied = np.zeros(len(t), dtype=bool)
    same = (t[1:] == t[:-1]) & (score[1:] == score[:-1])
    tied[1:] |= same
    tied[:-1] |= same
    judged = ~np.isnan(label)
    positive = judged & (label > 0)
    negative = judged & (label < 0)

    def count(topic: np.ndarray, flags: np.ndarray) -> np.ndarray:
        return np.bincount(topic, flags.astype(np.int64), minlength=n).astype(np.int64)

    def label_at(rank: int | None) -> np.ndarray:
        out = np.full(n, np.nan)
        if rank is not None:
            at = rank0 == rank - 1
            out[t[at]] = label[at]
        return out

    top_label = np.zeros(n)
    ordered_topics = q_topic[q_order]
    if len(ordered_topics):
        first = np.concatenate(([True], ordered_topics[1:] != ordered_topics[:-1]))
        top_label[ordered_topics[first]] = q_label[q_order][first]
    return pd.DataFrame(
        {
            "relevant": count(q_topic, q_label > 0),
            "retrieved": count(t, np.ones(len(t), dtype=bool)),
            "retrieved_relevant": count(t, positive),
            "relevant_in_top": count(t, positive & in_top),
            "top_label": top_label.astype(np.int64),
            "tied_in_top": count(t, tied & in_top),
            "unjudged_in_top": count(t, (~judged | negative) & in_top),
            "negative_judged": count(q_topic, q_label < 0),
            "negative_retrieved": count(t, negative),
            "label_at_k": label_at(k),
            "label_after_k": label_at(None if k is None else k + 1),
        },
        index=pd.Index(np.asarray(topics, dtype=object), name="query_id"),
    )


# --------------------------------------------------------------------------- targets

_MEASURE = re.compile(r"^ndcg(?:_cut_(\d+)|_cut\.(\d+)|(?:\(.*\))?@(\d+)|(?:\(.*\))?)$", re.IGNORECASE)
_TARGET_FORMATS = "'measure qid value' (trec_eval -q), 'qid measure value' (ir_measures) or 'qid,value' (CSV)"


def _measure_k(name: str) -> tuple[bool, int | None]:
    """Whether ``name`` is an nDCG measure name, and its cutoff (None: the whole run)."""
    match = _MEASURE.match(name.strip())
    if not match:
        return False, None
    number = next((g for g in match.groups() if g), None)
    return True, None if number is None else int(number)


#: How tools print a value they could not compute (trectools, pandas: NaN; an empty CSV cell).
_NOT_SCORED = ("nan", "-nan", "+nan", "")


def _value(text: str, where: str) -> tuple[float, int] | None:
    """A printed number and its decimals, or None for a topic the tool could not score
    (``NaN``, ``-nan`` or an empty cell, as trectools and pandas print it)."""
    if text.strip().lower() in _NOT_SCORED:
        return None
    return _number(text, where)


def _number(text: str, where: str) -> tuple[float, int]:
    """A printed number and its count of decimals ("0,7943" is accepted)."""
    cleaned = text.strip().replace(",", ".") if text.count(",") == 1 and "." not in text else text.strip()
    try:
        decimal = Decimal(cleaned)
    except InvalidOperation:
        raise ValueError(f"{where}: {text.strip()!r} is not a number; write it as printed, e.g. 0.4312.") from None
    if not decimal.is_finite():
        raise ValueError(f"{where}: {text.strip()!r} is not a finite number.")
    exponent = decimal.as_tuple().exponent
    return float(decimal), max(0, -int(exponent))  # type: ignore[arg-type]


@dataclass(frozen=True)
class Target:
    """The number(s) another tool printed: a mean, per-topic values, or both.

    ``digits`` counts the printed decimals: a value matches when it rounds to the
    printed one (within half a unit of its last digit). ``measure`` and ``k`` come from a
    file's measure name (``ndcg_cut_10`` gives k = 10; ``ndcg`` the whole run) when it
    has one.
    """

    mean: float | None = None
    mean_digits: int = 4
    per_topic: Mapping[str, float] = field(default_factory=dict)
    digits: Mapping[str, int] = field(default_factory=dict)
    measure: str | None = None
    k: object = _MISSING
    source: str = "the target"
    #: Topics listed without a value (NaN: the other tool could not score them), left out.
    left_out: tuple[str, ...] = ()

    def describe(self) -> str:
        """The target in a few words: 'mean 0.4312' or '25 topics (and their mean 0.4312)'."""
        if not self.per_topic:
            return f"mean {self.mean:.{self.mean_digits}f}"
        text = f"{len(self.per_topic)} topic{'s' if len(self.per_topic) != 1 else ''}"
        return text + (f" and their mean {self.mean:.{self.mean_digits}f}" if self.mean is not None else "")

    def left_out_sentence(self) -> str:
        """'Left out 2 topics ... (NaN): 301, 305.' or '' when every listed topic has a value."""
        if not self.left_out:
            return ""
        n = len(self.left_out)
        shown = ", ".join(self.left_out[:10]) + (", ..." if n > 10 else "")
        return (
            f"Left out {n} topic{'s' if n != 1 else ''} that {self.source} gives no value for (NaN: the other tool "
            f"could not score {'them' if n != 1 else 'it'}, e.g. no relevant document): {shown}."
        )


def _csv_rows(text: str, source: str) -> list[tuple[int, list[str]]]:
    rows = []
    for number, fields_ in enumerate(csv.reader(io.StringIO(text)), 1):
        cells = [cell.strip() for cell in fields_]
        if not any(cells) or cells[0].startswith("#"):
            continue
        rows.append((number, cells))
    return rows


def _parse_csv(text: str, source: str, k: object) -> Target:
    rows = _csv_rows(text, source)
    number, first = rows[0]
    try:
        _value(first[-1], "")
        header = None
    except ValueError:
        header, rows = first, rows[1:]
    column = 1
    measure = None
    if header is not None:
        ndcg_columns = [i for i, name in enumerate(header) if i and _measure_k(name)[0]]
        if len(ndcg_columns) > 1:
            wanted = [i for i in ndcg_columns if k is not _MISSING and _measure_k(header[i])[1] == k]
            if len(wanted) != 1:
                raise ValueError(
                    f"{source} holds several nDCG columns ({', '.join(header[i] for i in ndcg_columns)}); say which "
                    "one to match (k=10 for ndcg_cut_10, k=None for ndcg; on the command line -m ndcg_cut.10 or -m ndcg)."
                )
            ndcg_columns = wanted
        if ndcg_columns:
            column, measure = ndcg_columns[0], header[ndcg_columns[0]]
        elif len(header) != 2:
            raise ValueError(f"{source}: no nDCG column among {', '.join(header)}; expected qid,value or a column such as ndcg_cut_10.")
    values: dict[str, tuple[float, int] | None] = {}
    for number, cells in rows:
        where = f"{source}, line {number}"
        if len(cells) <= column:
            raise ValueError(f"{where}: expected {_TARGET_FORMATS}; got {','.join(cells)!r}.")
        if cells[0] in values:
            raise ValueError(f"{where}: topic {cells[0]} is listed twice; keep one line per topic.")
        values[cells[0]] = _value(cells[column], where)
    return _target_from(values, measure, source)


def _target_from(values: dict[str, tuple[float, int] | None], measure: str | None, source: str) -> Target:
    if not values:
        raise ValueError(f"{source} holds no nDCG values; expected lines such as {_TARGET_FORMATS}.")
    mean = values.pop("all", None)
    scored = {q: v for q, v in values.items() if v is not None}
    left_out = tuple(q for q, v in values.items() if v is None)
    if mean is None and not scored:
        raise ValueError(
            f"{source} gives no topic a value (all {len(left_out)} are NaN or empty); nothing to match. "
            "Give the values of the topics the other tool could score."
        )
    return Target(
        mean=None if mean is None else mean[0],
        mean_digits=4 if mean is None else mean[1],
        per_topic={q: v for q, (v, _) in scored.items()},
        digits={q: d for q, (_, d) in scored.items()},
        measure=measure,
        k=_measure_k(measure)[1] if measure else _MISSING,
        source=source,
        left_out=left_out,
    )


def _parse_lines(text: str, source: str, k: object) -> Target:
    data = [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]
    if not data:
        raise ValueError(f"{source} is empty; expected lines such as {_TARGET_FORMATS}.")
    words = data[0].split()
    if "," in data[0] and not (len(words) in (2, 3) and "," not in " ".join(words[:-1])):
        return _parse_csv(text, source, k)
    measures: dict[str, dict[str, tuple[float, int] | None]] = {}
    plain: dict[str, tuple[float, int] | None] = {}
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        where = f"{source}, line {number}"
        parts = stripped.split()
        if len(parts) == 3:
            if _measure_k(parts[0])[0]:
                measure, qid = parts[0], parts[1]
            elif _measure_k(parts[1])[0]:
                qid, measure = parts[0], parts[1]
            else:
                continue  # runid, num_q or another measure of the same file (map, P_10, ...)
            found = measures.setdefault(measure, {})
            if qid in found:
                raise ValueError(f"{where}: topic {qid} of {measure} is listed twice; keep one line per topic.")
            found[qid] = _value(parts[2], where)
        elif len(parts) == 2:
            if _measure_k(parts[0])[0]:  # ir_measures' aggregate line: nDCG@10 0.4312
                measures.setdefault(parts[0], {})["all"] = _value(parts[1], where)
                continue
            if parts[0] in plain:
                raise ValueError(f"{where}: topic {parts[0]} is listed twice; keep one line per topic.")
            plain[parts[0]] = _value(parts[1], where)
        else:
            raise ValueError(f"{where}: expected {_TARGET_FORMATS}; got {stripped!r}.")
    if measures and plain:
        raise ValueError(f"{source} mixes lines with and without a measure name; keep one format per file.")
    measure = None
    if measures:
        names = sorted(measures)
        if len(names) > 1:
            wanted = [n for n in names if k is not _MISSING and _measure_k(n)[1] == k]
            if len(wanted) != 1:
                raise ValueError(
                    f"{source} holds several nDCG measures ({', '.join(names)}); say which one to match "
                    "(k=10 for ndcg_cut_10, k=None for ndcg; on the command line -m ndcg_cut.10 or -m ndcg)."
                )
            names = wanted
        measure = names[0]
        plain = measures[measure]
    return _target_from(plain, measure, source)


def read_target(target: object, *, k: object = _MISSING, paths: bool = True) -> Target:
    """Read what another tool printed: a number, per-topic values, or a file of either.

    Parameters
    ----------
    target : float, str, os.PathLike, bytes or mapping
        A number (``0.4312`` or the text ``"0.4312"``; its printed digits set the
        tolerance); ``{query_id: value}`` (``"all"`` for the mean); a path to, or the
        text of, a file in trec_eval ``-q`` format (``ndcg_cut_10  301  0.4312``),
        ir_measures format (``301  nDCG@10  0.4312``) or ``qid,value`` CSV.
    k : int or None, optional
        Which measure to take from a file holding several (``k=10``: ndcg_cut_10).
    paths : bool
        Whether a one-line ``str`` may name a file. A served notebook passes
        ``paths=False``: typed text is then a number or the file's text, and no server
        path is ever opened.

    Raises
    ------
    ValueError, TypeError
        For anything that is not one of those, naming the file and line.

    Examples
    --------
    >>> read_target("0.4312").describe()
    'mean 0.4312'
    >>> t = read_target("ndcg_cut_10\\t301\\t0.5000\\nndcg_cut_10\\tall\\t0.5000\\n")
    >>> t.k, dict(t.per_topic), t.mean
    (10, {'301': 0.5}, 0.5)
    """
    if isinstance(target, bool):
        raise TypeError("target must be a number, per-topic values or a file; got a bool.")
    if isinstance(target, (int, float, np.integer, np.floating)):
        value = float(target)
        if not math.isfinite(value):
            raise ValueError(f"target must be a finite number; got {target!r}.")
        return Target(mean=value, mean_digits=_number(repr(value), "target")[1], source="the target")
    if isinstance(target, Mapping):
        values: dict[str, tuple[float, int] | None] = {}
        for qid, value in target.items():
            text = value if isinstance(value, str) else repr(float(value)) if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool) else None
            if text is None:
                raise TypeError(f"target[{qid!r}] must be a number; got {value!r} ({type(value).__name__}).")
            values[str(qid)] = _value(text, f"target[{qid!r}]")
        if not values:
            raise ValueError("target holds no values; give {query_id: value} for at least one topic.")
        return _target_from(values, None, "the target")
    if isinstance(target, bytes):
        return _parse_lines(target.decode("utf-8", errors="replace"), "the target", k)
    if isinstance(target, os.PathLike) and not paths:
        raise TypeError("target must be a number or text here, not a path (paths=False).")
    if isinstance(target, (os.PathLike, str)):
        text = os.fspath(target)
        if isinstance(target, str) and "\n" in text:
            return _parse_lines(text, "the target", k)
        try:
            value, digits = _number(text, "target")
            return Target(mean=value, mean_digits=digits)
        except ValueError:
            if not paths:
                if len(text.split()) in (2, 3) or "," in text:
                    return _parse_lines(text, "the target", k)
                raise ValueError(
                    f"target must be a number such as 0.4312 or per-topic lines such as 'ndcg_cut_10 301 0.4312'; "
                    f"got {text[:40]!r}."
                ) from None
        if not os.path.exists(text):
            raise ValueError(
                f"target must be a number such as 0.4312 or a file of per-topic values; got {text!r}, "
                "which is neither a number nor an existing file."
            )
        if os.path.isdir(text):
            raise ValueError(f"target {text!r} is a folder; give a file of per-topic values or a number.")
        with open(text, encoding="utf-8", errors="replace") as handle:
            return _parse_lines(handle.read(), text, k)
    raise TypeError(f"target must be a number, a file or {{query_id: value}}; got {type(target).__name__}.")


# --------------------------------------------------------------------------- reconciling


@dataclass(frozen=True)
class Reconciliation:
    """What :func:`reconcile` found.

    Attributes
    ----------
    target : Target
    scores : ConventionScores
        Every convention's per-topic values.
    candidates : pandas.DataFrame
        Every configuration searched, best first: one column per dimension, then
        ``value`` (the mean, or NaN for per-topic targets), ``distance`` (the largest
        per-topic or the mean's absolute difference), ``mismatched`` (topics off by more
        than their printed digits), ``match``, ``differences`` (the dimensions that differ
        from trec_eval) and ``presets``.
    """

    target: Target
    scores: ConventionScores
    candidates: pd.DataFrame = field(repr=False)

    @property
    def matched(self) -> bool:
        """Whether at least one configuration reproduces the target."""
        return bool(self.candidates["match"].iloc[0]) if len(self.candidates) else False

    @property
    def matches(self) -> pd.DataFrame:
        """The configurations that reproduce the target (possibly none)."""
        return self.candidates[self.candidates["match"]]

    def _convention(self, row: pd.Series) -> Convention:
        return Convention(**{name: row[name] for name in DIMENSIONS})

    @property
    def best(self) -> Convention:
        """The first candidate: the match that differs from trec_eval in the fewest
        dimensions (a preset first among equals), else the nearest miss."""
        return self._convention(self.candidates.iloc[0])

    def table(self, n: int | None = 10) -> pd.DataFrame:
        """The first ``n`` candidates (all for ``None``) for display, in plain columns."""
        shown = self.candidates if n is None else self.candidates.head(n)
        return shown.reset_index(drop=True)

    @property
    def _per_topic(self) -> bool:
        return bool(self.target.per_topic)

    def topic_table(self, convention: Convention | None = None) -> pd.DataFrame:
        """Per topic: the target, trec_eval's value, ``convention``'s (default :attr:`best`),
        the difference from trec_eval and the reason in words (largest difference first)."""
        convention = self.best if convention is None else _canonical(convention)
        reference = TREC_EVAL.with_topics(convention.topics)
        scores = self.scores
        ours = scores.values[scores.index(convention)]
        theirs = scores.values[scores.index(reference)]
        if self._per_topic:
            names = list(self.target.per_topic)
        else:
            names = [scores.topics[i] for i in np.flatnonzero(scores.topic_mask(convention.topics))]
        rows = []
        for name in names:
            t = scores.position(name)
            rows.append(
                {
                    "query_id": name,
                    "target": self.target.per_topic.get(name, np.nan),
                    "trec_eval": float(theirs[t]),
                    "convention": float(ours[t]),
                    "change": float(ours[t] - theirs[t]),
                    "reason": self._reason(name, convention) if ours[t] != theirs[t] else "",
                }
            )
        frame = pd.DataFrame(rows, columns=["query_id", "target", "trec_eval", "convention", "change", "reason"])
        order = np.argsort(-np.abs(frame["change"].to_numpy()), kind="stable")
        return frame.iloc[order].reset_index(drop=True)

    def _single_effects(self, query_id: str, convention: Convention) -> dict[str, float]:
        scores = self.scores
        t = scores.position(query_id)
        base = TREC_EVAL.with_topics(convention.topics)
        start = float(scores.values[scores.index(base)][t])
        effects = {}
        for name in convention.differences(base, topics=False):
            before = start
            changed = replace(base, **{name: getattr(convention, name)})
            if name == "negatives" and convention.unjudged == "condense":  # its effect among condensed lists
                before = float(scores.values[scores.index(replace(base, unjudged="condense"))][t])
                changed = replace(changed, unjudged="condense")
            effects[name] = float(scores.values[scores.index(changed)][t]) - before
        return effects

    def _reason(self, query_id: str, convention: Convention) -> str:
        position = self.scores.position(query_id)
        facts = {name: column.iat[position] for name, column in self.scores.facts.items()}
        k = self.scores.k
        effects = self._single_effects(query_id, convention)
        parts = []
        for name, effect in effects.items():
            if abs(effect) < 1e-15:
                continue
            parts.append(f"{_fact_words(name, getattr(convention, name), facts, k)} ({effect:+.4f} on its own)")
        if not parts:
            return "no single change moves this topic; the changes act only together"
        return "; ".join(parts)

    @cached_property
    def explanation(self) -> str:
        """The answer in plain words: what matches, how it differs from trec_eval, and why
        the largest per-topic differences arise."""
        return _explain(self)

    def markdown(self) -> str:
        """:attr:`explanation` as Markdown (one paragraph per sentence line, the topics as a
        list): what a notebook shows with ``mo.md``."""
        out = []
        for line in self.explanation.splitlines():
            if line.startswith("- ") and out and out[-1].startswith("- "):
                out.append(line)
            elif line:
                out.extend(["", line])
        return "\n".join(out).strip() + "\n"

    def report(self, n: int = 10, digits: int = 4) -> str:
        """The explanation followed by the first ``n`` candidates (what ``ndcg-eval --match`` prints)."""
        table = self.table(n).copy()
        columns = list(DIMENSIONS) + (["value"] if not self._per_topic else []) + ["distance", "mismatched", "match", "presets"]
        table = table[columns]
        with pd.option_context("display.width", 250, "display.max_columns", 30, "display.max_colwidth", 40):
            text = table.to_string(index=False, float_format=lambda x: f"{x:.{digits + 2}f}")
        return self.explanation + "\n\n" + ("Matching and nearest configurations:\n" if self.matched else "Nearest configurations:\n") + text + "\n"


def _fact_words(name: str, value: str, f: dict, k: int | None) -> str:
    top = "its whole list" if k is None else f"its top {k}"
    if name == "ideal":
        if value == "judgments_full":
            return (
                f"the ideal is not cut at {k}: all {f['relevant']} relevant documents count in the ideal DCG, "
                f"only the run's top {k} in its DCG"
            )
        if value == "retrieved":
            return (
                f"the run retrieved {f['retrieved_relevant']} of its {f['relevant']} relevant documents, "
                "and the ideal built from the retrieved list leaves the missed ones out"
            )
        return (
            f"only {f['relevant_in_top']} of its {f['relevant']} relevant documents are in the run's {top[4:]}, "
            "and the ideal is built from those"
        )
    if name == "gain":
        label = f["top_label"]
        return f"its labels go up to {label}: exponential gain weighs a label-{label} document {2 ** label - 1} instead of {label}"
    if name == "discount":
        return "every rank is discounted differently (" + describe_value("discount", value) + ")"
    if name == "ties":
        tied = int(f['tied_in_top'])
        return f"{tied} {'document' if tied == 1 else 'documents'} in {top} {'shares' if tied == 1 else 'share'} a score with another, so the tie rule ({describe_value('ties', value)}) decides their order"
    if name == "unjudged":
        return f"{f['unjudged_in_top']} documents in {top} are unjudged; removing them moves judged documents up"
    if name == "negatives":
        return (
            f"{f['negative_judged']} of its qrels lines have negative labels ({f['negative_retrieved']} retrieved), "
            + describe_value("negatives", value)
        )
    if name == "cutoff":
        if value == "k+1":
            label = f["label_after_k"]
            return f"rank {k + 1} is counted too (label {'-' if math.isnan(label) else int(label)})"  # type: ignore[operator]
        if value == "k-1":
            label = f["label_at_k"]
            return f"rank {k} is left out (label {'-' if math.isnan(label) else int(label)})"
        return f"all {f['retrieved']} retrieved documents count, not just the top {k}"
    return describe_value(name, value)


def _explain(found: Reconciliation) -> str:
    target, scores = found.target, found.scores
    total = len(found.candidates)
    matches = found.matches
    what = "The target" + (f" ({target.describe()})" if target.per_topic else f" {target.mean:.{target.mean_digits}f}")
    lines = [target.left_out_sentence()] if target.left_out else []
    best = found.best
    if len(matches):
        lines.append(f"{what} is reproduced by {len(matches):,} of {total:,} configurations.")
        presets = matches["presets"].iloc[0]
        diffs = best.differences(TREC_EVAL, topics=target.mean is not None)
        head = f"Closest match to trec_eval{' (' + presets + ')' if presets else ''}: {best.describe(scores.k)}."
        lines.append(head)
        if diffs:
            lines.append("It differs from trec_eval in: " + "; ".join(
                f"{describe_value(d, getattr(best, d), scores.k)} instead of {describe_value(d, getattr(TREC_EVAL, d), scores.k)}"
                for d in diffs
            ) + ".")
        else:
            lines.append("That is trec_eval's own convention.")
        matching = {found._convention(row) for _, row in matches.iterrows()}
        others = [p for p in dict.fromkeys(", ".join(matches["presets"]).split(", ")) if p and p not in presets.split(", ")]
        if others:
            lines.append("Other presets that match: " + ", ".join(others) + ".")
        free = []
        for name, values in DIMENSIONS.items():
            if name == "topics" and target.mean is None:
                continue
            alike = [v for v in values if v != getattr(best, name) and _canonical(replace(best, **{name: v})) in matching]
            if alike:
                free.append(f"{name} {' or '.join(alike)}")
        if free:
            lines.append("Single changes that give the same numbers on this data: " + "; ".join(free) + ".")
    else:
        digits = target.mean_digits if not target.per_topic else max(target.digits.values())
        lines.append(
            f"Nothing among {total:,} configurations reproduces the{what[3:]} to its printed {digits} decimals. "
            f"The closest is {found.candidates['distance'].iloc[0]:.2g} away: {best.describe(scores.k)}."
        )
        if target.mean is not None and target.mean > 1:
            lines.append("nDCG is at most 1 here; if the number is a percentage, divide it by 100.")
        lines.append(
            "Check that both numbers are for the same qrels, run, measure and cutoff; the other tool may also "
            "use a rule outside this space (a gain table, another discount, a relevance threshold)."
        )
    # topic by topic: where the best convention moves trec_eval's value the most
    table = found.topic_table(best)
    moved = table[table["change"].abs() > 0].head(5)
    if len(moved):
        lines.append("")
        lines.append("Topic by topic (largest changes from trec_eval first):")
        for row in moved.itertuples():
            lines.append(
                f"- topic {row.query_id}: trec_eval {row.trec_eval:.4f}, this convention {row.convention:.4f}"
                + (f" (target {row.target:.{target.digits.get(row.query_id, 4)}f})" if not math.isnan(row.target) else "")
                + f": {row.reason}."
            )
        rest = int((table["change"].abs() > 0).sum()) - len(moved)
        if rest > 0:
            lines.append(f"- and {rest} more topic{'s' if rest != 1 else ''} change.")
    if target.mean is not None and best.topics not in ("both", "listed"):
        mask, usual = scores.topic_mask(best.topics), scores.topic_mask("both")
        extra = int(mask.sum() - (mask & usual).sum())
        which = "qrels topics" if best.topics == "qrels" else "run topics"
        lacking = "results" if best.topics == "qrels" else "judgments"
        lines.append("")
        lines.append(
            f"The mean is over all {int(mask.sum())} {which} instead of the {int(usual.sum())} in both run and qrels: "
            f"{extra} topic{'s' if extra != 1 else ''} without {lacking} count{'' if extra != 1 else 's'} as 0."
        )
    return "\n".join(lines)


def _preset_names() -> dict[Convention, list[str]]:
    names: dict[Convention, list[str]] = {}
    for preset in PRESETS.values():
        names.setdefault(_canonical(preset.convention), []).append(preset.name)
    return names


def reconcile(qrels: object, run: object, target: object, k: object = _MISSING) -> Reconciliation:
    r"""Find the nDCG conventions under which ``run`` scores ``target``, and explain them.

    Every configuration of :data:`~ndcg_core.trec.conventions.DIMENSIONS` is scored
    (:func:`score_conventions`). One matches when every given value is reproduced to
    its printed digits: :math:`|v_c - t| \le \tfrac12 10^{-d}` for the mean and for each
    listed topic. Matches come first (named presets, then by how few dimensions differ
    from trec_eval), then near misses by distance (topics off, then the largest
    absolute difference).

    Parameters
    ----------
    qrels, run : table or dict
        As for :func:`~ndcg_core.trec.evaluate_run`; the run's row order is its file order.
    target : number, str, path, bytes, mapping or Target
        See :func:`read_target` (a notebook reads typed text with
        ``read_target(text, paths=False)`` and passes the :class:`Target`).
    k : int or None
        The target's cutoff (``None``: nDCG of the whole run). May be left out when the
        target file names its measure (``ndcg_cut_10``, ``nDCG@10``, ``ndcg``).

    Returns
    -------
    Reconciliation
        ``.explanation`` (text), ``.table()`` and ``.topic_table()`` (DataFrames), ``.best``.

    Raises
    ------
    ValueError
        For an unreadable target, an unknown cutoff, or target topics that neither the
        qrels nor the run hold.

    Examples
    --------
    >>> qrels = {"q1": {"d1": 2, "d2": 1, "d3": 1, "d9": 0}, "q2": {"d1": 1}}
    >>> run = {"q1": {"d2": 3.0, "d7": 2.0, "d1": 1.0}, "q2": {"d5": 1.0}}
    >>> reconcile(qrels, run, 0.3194, k=3).matches["presets"].iloc[0]
    'trec_eval, pytrec_eval'
    """
    parsed = target if isinstance(target, Target) else read_target(target, k=k)
    if k is _MISSING:
        if parsed.k is _MISSING:
            raise ValueError(
                "say which measure the target is: k=10 for nDCG@10, k=None for nDCG of the whole run "
                "(on the command line -m ndcg_cut.10 or -m ndcg)."
            )
        k = parsed.k
    elif parsed.k is not _MISSING and parsed.k != k:
        raise ValueError(
            f"{parsed.source} holds {parsed.measure}, which is not nDCG@{k if k is not None else ' of the whole run'}; "
            "leave k out to use the file's measure."
        )
    scores = score_conventions(qrels, run, k)  # type: ignore[arg-type]
    unknown = [q for q in parsed.per_topic if q not in scores.topics]
    if unknown:
        raise ValueError(
            f"{parsed.source} lists topic{'s' if len(unknown) > 1 else ''} {', '.join(unknown[:5])}"
            f"{', ...' if len(unknown) > 5 else ''} that neither the qrels nor the run hold; check that the files belong together."
        )
    shape = scores.values.shape[:-1]
    n = int(np.prod(shape))
    grid = list(product(*(range(s) for s in shape)))
    if parsed.per_topic:
        idx = np.array([scores.position(q) for q in parsed.per_topic], dtype=np.intp)
        wanted = np.array(list(parsed.per_topic.values()))
        tolerance = np.array([0.5 * 10.0 ** -parsed.digits[q] for q in parsed.per_topic]) + 1e-12
        diff = np.abs(scores.values.reshape(n, -1)[:, idx] - wanted)
        mismatched = (diff > tolerance).sum(axis=1)
        distance = diff.max(axis=1)
    topic_sets = DIMENSIONS["topics"] if parsed.mean is not None else ("listed",)
    means = scores.means().reshape(n, len(DIMENSIONS["topics"])) if parsed.mean is not None else None
    mean_tolerance = 0.5 * 10.0 ** -parsed.mean_digits + 1e-12
    presets = _preset_names()
    rows = []
    for s, topics in enumerate(topic_sets):
        for flat, index in enumerate(grid):
            convention = scores.convention(index, topics)
            row = {name: getattr(convention, name) for name in DIMENSIONS}
            if means is not None:
                value = float(means[flat, s])
                gap = abs(value - parsed.mean)  # type: ignore[operator]
                row["value"] = value
            else:
                row["value"] = np.nan
                gap = 0.0
            if parsed.per_topic:
                row["distance"] = max(float(distance[flat]), gap)
                row["mismatched"] = int(mismatched[flat])
                ok = mismatched[flat] == 0
            else:
                row["distance"] = gap
                row["mismatched"] = 0
                ok = True
            row["match"] = bool(ok and gap <= mean_tolerance)
            key = convention if topics != "listed" else None
            names = presets.get(key, []) if key is not None else [
                name for c, names_ in presets.items() for name in names_ if c.differences(convention, topics=False) == ()
            ]
            row["presets"] = ", ".join(names)
            row["differences"] = ", ".join(convention.differences(TREC_EVAL, topics=topics != "listed"))
            row["_n_diff"] = len(convention.differences(TREC_EVAL, topics=topics != "listed"))
            rows.append(row)
    frame = pd.DataFrame(rows)
    frame["_not_preset"] = frame["presets"] == ""
    frame = frame.sort_values(
        ["match", "mismatched", "_n_diff", "_not_preset", "distance"],
        ascending=[False, True, True, True, True],
        kind="stable",
    )
    unmatched = ~frame["match"]
    if unmatched.any():  # near misses by distance, not by preset
        misses = frame[unmatched].sort_values(["mismatched", "distance", "_n_diff"], kind="stable")
        frame = pd.concat([frame[~unmatched], misses])
    frame = frame.drop(columns=["_not_preset", "_n_diff"]).reset_index(drop=True)
    return Reconciliation(parsed, scores, frame)


# --------------------------------------------------------------------------- ndcg-eval --match

#: ``ndcg-eval --match`` exit status when nothing in the space reproduces the target.
EXIT_NO_MATCH = 1


def add_match_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--match TARGET`` and ``--candidates N`` to ``ndcg-eval``'s parser."""
    parser.add_argument(
        "--match", metavar="TARGET",
        help="find the nDCG conventions (gain, discount, ideal list, ties, unjudged and negative labels, "
        "topics, cutoff) under which RUN scores TARGET: a number another tool printed, or a file of "
        "per-topic values (trec_eval -q output, ir_measures output, qid,value CSV); -m ndcg_cut.K or "
        "-m ndcg says which measure it is when the file does not. Exit status 1 when nothing matches",
    )
    parser.add_argument(
        "--candidates", type=int, default=10, metavar="N",
        help="configurations listed by --match (default 10)",
    )


def run_match(args: argparse.Namespace, *, stdout: TextIO, stderr: TextIO) -> int:
    """``ndcg-eval --match``: read both files, reconcile, print the explanation and the table.

    Returns the exit status: 0 when a configuration matches, :data:`EXIT_NO_MATCH` when
    none does, 2 (with one line on stderr) for a bad target, file or flag.
    """
    try:
        set_flags = [
            flag
            for flag, on in (
                ("-c", args.complete), ("-J", args.judged_only), ("--gain", args.gain), ("--gain-table", args.gain_table),
                ("--discount", args.discount not in (None, "log2")), ("--base", args.base is not None),
                ("--explain", args.explain is not None), ("-q", args.per_topic),
            )
            if on
        ]
        if set_flags:
            raise ValueError(
                f"--match searches every convention itself; leave out {', '.join(set_flags)}."
            )
        if args.candidates < 1:
            raise ValueError(f"--candidates must be a positive whole number; got {args.candidates}.")
        k: object = _MISSING
        if args.measures:
            from .evaluate import parse_measures

            measures = [m for m in parse_measures(args.measures) if m.family != "unjudged_cut"]
            if len(measures) != 1:
                raise ValueError(
                    "--match reconciles one measure; give one, e.g. -m ndcg_cut.10 (nDCG@10) or -m ndcg (the whole run)."
                )
            k = None if measures[0].family == "ndcg" else measures[0].k
        target = read_target(args.match, k=k)
        qrels = _read(read_qrels, args.qrels, "qrels")
        run = _read(read_run, args.run, "run")
        found = reconcile(qrels, run, target, k=k)
        report = found.report(args.candidates) if args.format == "trec" else found.explanation
    except ValueError as error:
        stderr.write(f"ndcg-eval: {error}\n")
        return 2
    except TypeError as error:  # pragma: no cover - argparse gives text only
        stderr.write(f"ndcg-eval: {error}\n")
        return 2
    if args.format == "json":
        document = {
            "matched": found.matched,
            "left_out": list(found.target.left_out),
            "explanation": found.explanation,
            "candidates": json.loads(found.table(args.candidates).to_json(orient="records")),
        }
        stdout.write(json.dumps(document, indent=2) + "\n")
    elif args.format == "csv":
        stdout.write(found.table(args.candidates).to_csv(index=False, lineterminator="\n"))
    else:
        stdout.write(report)
    return 0 if found.matched else EXIT_NO_MATCH


def _read(reader, path: str, kind: str):  # type: ignore[no-untyped-def]
    try:
        return reader(path)
    except OSError as error:
        raise ValueError(f"cannot read the {kind} file {path}: {error.strerror or error}") from None
