r"""Judging pools and averages over topics, for the chapters on unjudged documents and runs.

:func:`pool_qrels` (the qrels a judging pool of given depth would produce), :func:`summarize`
(several runs' means), :func:`pooling_table` (pooled, condensed and true nDCG per run) and
:func:`averaging_table` (default vs complete mean). They call the whole-run evaluator of
:mod:`ndcg_core.trec`; nothing here computes a DCG itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from .._validation import check_k, check_positive_int
from ..kernel import list_segments
from ..trec.evaluate import evaluate_run
from ..trec.ranking import ranking_order
from ..trec.tables import as_table, qrels_frame

__all__ = ["pool_qrels", "summarize", "pooling_table", "averaging_table"]


def _named_runs(runs: object) -> dict[str, object]:
    if isinstance(runs, Mapping):
        if not runs:
            raise ValueError("runs must name at least one run, e.g. {'mine': run}; got none.")
        return {str(name): run for name, run in runs.items()}
    raise TypeError(
        f"runs must be a {{name: run}} dict, e.g. {{'classic': run_a, 'novel': run_b}}; got {type(runs).__name__}."
    )


def pool_qrels(truth: object, runs: object, depth: int) -> pd.DataFrame:
    """The qrels a judging pool would produce: ``truth`` restricted to the pooled documents.

    The pool of a topic is the union of the top ``depth`` documents of each run, "top" in
    trec_eval's order (score, then document id, descending). Only pooled documents are
    judged; every other document becomes unjudged. This is how TREC builds qrels from the
    contributing runs.

    Parameters
    ----------
    truth : table or dict
        Judgments of (at least) every document the runs retrieve.
    runs : dict
        ``{name: run}`` of the contributing runs.
    depth : int
        Pool depth: how many documents of each run are judged per topic.

    Returns
    -------
    pandas.DataFrame
        The rows of ``truth`` for the pooled documents, in ``truth``'s order.

    Examples
    --------
    >>> truth = {"q": {"a": 2, "b": 0, "c": 1, "d": 3}}
    >>> runs = {"one": {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}, "two": {"q": {"d": 1.0, "a": 0.5}}}
    >>> pool_qrels(truth, runs, 1)["doc_id"].tolist()
    ['a', 'd']
    """
    depth = check_positive_int(depth, "depth", expected="a positive whole number of ranks", value_hint="A pool usually takes the top 10 to 100.")
    t = as_table(truth, "qrels")
    n_docs = max(len(t.doc_names), 1)
    topic_index = pd.Index(t.query_names)
    doc_index = pd.Index(t.doc_names)
    pooled: list[np.ndarray] = []
    for run in _named_runs(runs).values():
        r = as_table(run, "run")
        order = ranking_order(r.query_codes, r.values, r.doc_codes, r.doc_names)
        _, _, rank0 = list_segments(r.query_codes[order])
        top = order[rank0 < depth]
        topic = topic_index.get_indexer(r.query_names)[r.query_codes[top]]
        doc = doc_index.get_indexer(r.doc_names)[r.doc_codes[top]]
        known = (topic >= 0) & (doc >= 0)
        pooled.append(topic[known].astype(np.int64) * n_docs + doc[known])
    keys = t.query_codes.astype(np.int64) * n_docs + t.doc_codes
    keep = np.isin(keys, np.concatenate(pooled))
    frame = pd.DataFrame(
        {
            "query_id": t.query_names[t.query_codes[keep]],
            "doc_id": t.doc_names[t.doc_codes[keep]],
            "relevance": t.values[keep],
        }
    )
    return qrels_frame(frame)


def summarize(
    qrels: object,
    runs: object,
    measures: str | Sequence[str] = ("ndcg_cut.10",),
    **options: object,
) -> pd.DataFrame:
    """The mean of each measure for several runs against one qrels: one row per run.

    ``options`` are those of :func:`evaluate_run` (gain, discount, base, unjudged,
    complete). The column ``topics`` is the number of topics averaged over.

    Examples
    --------
    >>> qrels = {"q1": {"a": 1, "b": 1}, "q2": {"c": 2}}
    >>> runs = {"good": {"q1": {"a": 2.0, "b": 1.0}, "q2": {"c": 1.0}}, "bad": {"q1": {"x": 1.0}}}
    >>> summarize(qrels, runs, "ndcg_cut.2", complete=True)
          ndcg_cut_2  topics
    good         1.0       2
    bad          0.0       2
    """
    rows = {}
    for name, run in _named_runs(runs).items():
        result = evaluate_run(qrels, run, measures, **options)  # type: ignore[arg-type]
        rows[name] = {**result.mean.to_dict(), "topics": result.num_q}
    table = pd.DataFrame.from_dict(rows, orient="index")
    table["topics"] = table["topics"].astype(int)
    return table


def pooling_table(
    truth: object,
    runs: object,
    pool: Sequence[str],
    depth: int,
    k: int = 10,
) -> pd.DataFrame:
    """How a judging pool changes each run's nDCG@k: pooled, condensed and true values.

    The pool is the top ``depth`` of the runs named in ``pool`` (see :func:`pool_qrels`);
    every run is then scored against the pooled qrels, against the pooled qrels with
    unjudged documents condensed away, and against ``truth``.

    Returns
    -------
    pandas.DataFrame
        One row per run; columns ``in_pool``, ``ndcg_pooled``, ``unjudged``
        (share of unjudged documents in the top k, pooled qrels), ``ndcg_condensed``,
        ``ndcg_truth``, and ``judged`` (the number of pooled judgments, the same on every row).

    Examples
    --------
    >>> truth = {"q": {"a": 1, "b": 0, "n": 3}}
    >>> runs = {"old": {"q": {"a": 2.0, "b": 1.0}}, "new": {"q": {"n": 2.0, "a": 1.0}}}
    >>> pooling_table(truth, runs, ["old"], 2, k=2)[["ndcg_pooled", "ndcg_truth"]].round(4)
         ndcg_pooled  ndcg_truth
    old       1.0000      0.2754
    new       0.6309      1.0000
    """
    named = _named_runs(runs)
    k = check_k(k)
    if isinstance(pool, str) or not isinstance(pool, Sequence):
        raise TypeError(f"pool must be a list of run names such as ['classic', 'tuned']; got {pool!r}.")
    unknown = [name for name in pool if name not in named]
    if unknown:
        raise ValueError(
            f"pool must name runs from {', '.join(named)}; got {', '.join(map(repr, unknown))}."
        )
    if not pool:
        raise ValueError("pool must name at least one run: a pool of no runs judges nothing.")
    pooled = pool_qrels(truth, {name: named[name] for name in pool}, depth)
    cut = f"ndcg_cut.{k}"
    measures = [cut, f"unjudged_cut.{k}"]
    plain = summarize(pooled, named, measures)
    condensed = summarize(pooled, named, cut, unjudged="condense")
    true = summarize(truth, named, cut)
    name = f"ndcg_cut_{k}"
    return pd.DataFrame(
        {
            "in_pool": [run in pool for run in named],
            "ndcg_pooled": plain[name].to_numpy(),
            "unjudged": plain[f"unjudged_cut_{k}"].to_numpy(),
            "ndcg_condensed": condensed[name].to_numpy(),
            "ndcg_truth": true[name].to_numpy(),
            "judged": len(pooled),
        },
        index=list(named),
    )


def averaging_table(qrels: object, run: object, measure: str = "ndcg_cut.10", **options: object) -> pd.DataFrame:
    """One measure's mean under trec_eval's two averaging rules, with the topic counts.

    Rows: ``"topics in both (default)"`` and ``"complete averaging (-c)"``; columns: the
    measure's output name (e.g. ``ndcg_cut_10``) and ``topics``. ``options`` are those
    of :func:`evaluate_run` except ``complete``.

    Examples
    --------
    >>> qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    >>> averaging_table(qrels, {"q1": {"a": 1.0}}, "ndcg_cut.5")
                              ndcg_cut_5  topics
    topics in both (default)         1.0       1
    complete averaging (-c)          0.5       2
    """
    if "complete" in options:
        raise TypeError("averaging_table computes both averages; leave out complete=.")
    rows = {}
    for label, complete in (("topics in both (default)", False), ("complete averaging (-c)", True)):
        result = evaluate_run(qrels, run, measure, complete=complete, **options)  # type: ignore[arg-type]
        if len(result.measures) != 1:
            raise ValueError(f"measure must name one measure such as ndcg_cut.10; got {measure!r}.")
        rows[label] = {result.measures[0]: float(result.mean.iloc[0]), "topics": result.num_q}
    return pd.DataFrame.from_dict(rows, orient="index")
