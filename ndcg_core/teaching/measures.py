r"""The measure family side by side, and what each measure does when judgments go missing.

Chapter 12 ("Which measure?") reads its numbers from here; every value comes from the core
(:mod:`ndcg_core.binary`, :mod:`ndcg_core.metrics`), nothing is computed twice:

- :data:`JUDGMENT_KINDS` and :func:`judgment_kinds`: the table of the lecture's concept card,
  completed: binary or graded labels x complete or incomplete judgments -> which measure,
  what it looks at, what it needs (C58);
- :func:`measure_values`: P@k, P@R, AP, MAP, nDCG@k and bpref of one ranking (C57);
- :func:`hide_judgments` and :func:`holes_table`: make some documents unjudged and compare
  every measure before and after;
- :func:`sampling_curves`: the toy collection's judgments thinned at random (the experiment
  of Buckley and Voorhees, SIGIR 2004), each measure's mean as a share of its value with
  every judgment.

>>> values = measure_values([1, 0, 2, 1, 0], 5, judgments=[1, 0, 2, 1, 0])
>>> values["value"].round(4).tolist()
[0.6, 0.6667, 0.8056, 0.8056, 0.7763, 0.6667]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd

from .._validation import check_judgments, check_k, check_labels
from ..labels import parse_labels
from ..binary import average_precision, bpref, mean_average_precision, precision, r_precision
from ..metrics import ndcg
from ..trec.ranking import ranked_labels
from ..trec.tables import as_table
from .compare import judged_labels

__all__ = [
    "JudgmentKind",
    "JUDGMENT_KINDS",
    "judgment_kinds",
    "MEASURES",
    "measure_values",
    "hide_judgments",
    "holes_table",
    "unjudged_on_top_table",
    "HOLE_MEASURES",
    "sampling_curves",
    "SAMPLED_MEASURES",
    "sampling_summary",
    "parse_topics",
]


class JudgmentKind(NamedTuple):
    """One row of the table by kind of judgments."""

    labels: str  #: "binary" or "graded"
    judgments: str  #: "complete" or "incomplete"
    measure: str
    looks_at: str
    needs: str


#: The concept card's table by kind of judgments. Its one printed row is graded, complete ->
#: nDCG@k; the other rows are the project's, from the definitions in ndcg_core.binary.
JUDGMENT_KINDS: tuple[JudgmentKind, ...] = (
    JudgmentKind("binary", "complete", "P@k", "the top k, relevant or not; order inside the top k is ignored",
                 "judgments of the top k documents"),
    JudgmentKind("binary", "complete", "P@R (R-precision)", "the top R, relevant or not",
                 "R, the number of relevant documents: every relevant document must be known"),
    JudgmentKind("binary", "complete", "AP, and MAP over topics",
                 "the rank of every relevant document (precision at each)",
                 "R and a judgment for every retrieved document: an unjudged one counts as not relevant"),
    JudgmentKind("graded", "complete", "nDCG@k", "the top k, grade and position",
                 "the ideal ranking, i.e. complete judgments"),
    JudgmentKind("binary", "incomplete", "bpref",
                 "judged documents only: how many judged non-relevant documents rank above each relevant one",
                 "some relevant and some judged non-relevant documents; unjudged documents are skipped"),
    JudgmentKind("graded", "incomplete", "nDCG@k on the condensed list",
                 "the top k of the judged documents, grade and position",
                 "unjudged documents removed first; report the unjudged fraction (condensing has a bias too)"),
)


def judgment_kinds() -> pd.DataFrame:
    """:data:`JUDGMENT_KINDS` as a table, one row per measure.

    >>> judgment_kinds().loc[3, ["labels", "judgments", "measure"]].tolist()
    ['graded', 'complete', 'nDCG@k']
    """
    return pd.DataFrame(JUDGMENT_KINDS, columns=list(JudgmentKind._fields))


#: The six measures of the lecture's family, in the order the card names them.
MEASURES = ("P@k", "P@R", "AP", "MAP", "nDCG@k", "bpref")


def measure_values(
    labels: Sequence[float | None],
    k: int,
    *,
    judgments: Sequence[float],
    threshold: float = 1,
    other_topics: Sequence[tuple[Sequence[float | None], Sequence[float]]] = (),
    gain: str = "linear",
) -> pd.DataFrame:
    """The six measures of one ranking, side by side (MAP over it and ``other_topics``).

    Parameters
    ----------
    labels : sequence of float or None
        The ranking's labels (``None`` = unjudged).
    k : int
        The cutoff of P@k and nDCG@k.
    judgments : sequence of float
        All judged labels of the query (the list's own and the missed ones).
    threshold : float
        The relevance threshold of the binary measures.
    other_topics : sequence of (labels, judgments)
        Further topics of the same system; MAP is the mean AP over this one and these.
    gain : str
        nDCG's gain.

    Returns
    -------
    pandas.DataFrame
        Index: :data:`MEASURES` with the actual k (``P@5``, ``nDCG@5``); columns ``value``
        and ``reads`` (the labels as that measure reads them, in words).

    Examples
    --------
    >>> float(measure_values([1, 0, 2, 1, 0], 5, judgments=[1, 0, 2, 1, 0]).loc["P@R", "value"])
    0.6666666666666666
    """
    k = check_k(k)
    if k is None:
        raise ValueError("k must be a positive int; got k=None. Give the cutoff of P@k and nDCG@k, e.g. k=5.")
    topics = [(list(labels), list(judgments)), *((list(a), list(b)) for a, b in other_topics)]
    rows = {
        f"P@{k}": (precision(labels, k, threshold=threshold), "relevant or not, top k"),
        "P@R": (r_precision(labels, judgments=judgments, threshold=threshold), "relevant or not, top R"),
        "AP": (average_precision(labels, judgments=judgments, threshold=threshold),
               "relevant or not, every rank; unjudged = not relevant"),
        "MAP": (mean_average_precision(topics, threshold=threshold), f"AP averaged over {len(topics)} topics"),
        f"nDCG@{k}": (ndcg(labels, k, judgments=judgments, gain=gain), "grades and positions, top k"),  # type: ignore[arg-type]
        "bpref": (bpref(labels, judgments=judgments, threshold=threshold), "judged documents only"),
    }
    frame = pd.DataFrame.from_dict(rows, orient="index", columns=["value", "reads"])
    frame.index.name = "measure"
    return frame


def hide_judgments(
    labels: Sequence[float | None], judgments: Sequence[float], ranks: Sequence[int]
) -> tuple[list[float | None], list[float]]:
    """Make the documents at ``ranks`` (1-based) unjudged: ``None`` in the list, and their
    labels taken out of the judgments (one occurrence each), as if nobody had judged them.

    >>> hide_judgments([1, 0, 2, 1, 0], [1, 0, 2, 1, 0], [2, 3])
    ([1, None, None, 1, 0], [1.0, 1.0, 0.0])
    """
    run = list(labels)
    check_labels(run)
    left = [float(x) for x in check_judgments(judgments)]
    for rank in sorted(set(ranks)):
        if isinstance(rank, bool) or not isinstance(rank, (int, np.integer)) or not 1 <= rank <= len(run):
            raise ValueError(f"ranks must be ranks from 1 to {len(run)} (the length of the list); got {rank!r}.")
        label = run[rank - 1]
        if label is None:
            continue
        run[rank - 1] = None
        if float(label) in left:
            left.remove(float(label))
    return run, left


#: The measures :func:`holes_table` compares: name -> how it treats an unjudged document.
HOLE_MEASURES = {
    "P@R": "counts it as not relevant",
    "AP": "counts it as not relevant",
    "nDCG@k, unjudged = 0": "gives it gain 0 in place",
    "nDCG@k, condensed": "removes it, the rest move up",
    "bpref": "skips it",
}


def holes_table(
    labels: Sequence[float | None],
    k: int,
    *,
    judgments: Sequence[float],
    ranks: Sequence[int],
    threshold: float = 1,
) -> pd.DataFrame:
    """Each measure with every judgment and with the documents at ``ranks`` made unjudged.

    Columns: ``all judged``, ``with holes``, ``change`` (with holes minus all judged) and
    ``unjudged`` (what the measure does with an unjudged document). The rows named
    ``nDCG@k`` carry the actual k.

    Unjudge the non-relevant document at rank 2: AP still counts it as not relevant and does
    not move; bpref no longer sees it, so the relevant documents at ranks 3 and 4 have no
    judged non-relevant document above them: bpref goes from (1 + 1/2 + 1/2) / 3 to 1.

    >>> t = holes_table([1, 0, 2, 1, 0], 5, judgments=[1, 0, 2, 1, 0], ranks=[2])
    >>> round(float(t.loc["AP", "change"]), 4), round(float(t.loc["bpref", "with holes"]), 4)
    (0.0, 1.0)
    """
    holed, left = hide_judgments(labels, judgments, ranks)
    return _before_after((list(labels), list(judgments)), ("with holes", holed, left), k, threshold)


def unjudged_on_top_table(
    labels: Sequence[float | None],
    k: int,
    *,
    judgments: Sequence[float],
    count: int,
    threshold: float = 1,
) -> pd.DataFrame:
    """Each measure for the list as it is and for a system that returns ``count`` documents
    nobody judged first, then the same list (a new system outside the pool): the judgments
    stay the same. Columns as :func:`holes_table`, ``with holes`` being ``unjudged on top``.

    bpref skips the unjudged documents and condensed nDCG removes them: both stay the same.
    AP, P@R and nDCG with unjudged = 0 count them as not relevant and fall.

    >>> t = unjudged_on_top_table([1, 0, 2, 1, 0], 5, judgments=[1, 0, 2, 1, 0], count=2)
    >>> float(t.loc["bpref", "change"]), float(t.loc["nDCG@5, condensed", "change"]), bool(t.loc["AP", "change"] < 0)
    (0.0, 0.0, True)
    """
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ValueError(f"count must be a whole number of unjudged documents, 0 or more; got {count!r}.")
    check_labels(labels)
    on_top = [None] * count + list(labels)
    return _before_after((list(labels), list(judgments)), ("unjudged on top", on_top, list(judgments)), k, threshold)


def _before_after(
    before: tuple[list[float | None], list[float]],
    after: tuple[str, list[float | None], list[float]],
    k: int,
    threshold: float,
) -> pd.DataFrame:
    name_after, run_after, judged_after = after
    rows = {}
    for name, (run, judged) in (("all judged", before), (name_after, (run_after, judged_after))):
        rows[name] = {
            "P@R": r_precision(run, judgments=judged, threshold=threshold),
            "AP": average_precision(run, judgments=judged, threshold=threshold),
            "nDCG@k, unjudged = 0": ndcg(run, k, judgments=judged),
            "nDCG@k, condensed": ndcg(run, k, judgments=judged, unjudged="condense"),
            "bpref": bpref(run, judgments=judged, threshold=threshold),
        }
    frame = pd.DataFrame(rows)
    frame["change"] = frame[name_after] - frame["all judged"]
    frame["unjudged"] = [HOLE_MEASURES[name] for name in frame.index]
    frame.index = [name.replace("@k", f"@{k}") for name in frame.index]
    frame.index.name = "measure"
    return frame


def _topic_lists(truth: pd.DataFrame, runs: Mapping[str, object]) -> dict[str, dict[str, list[str]]]:
    """Each run's ranked document ids per topic, in trec_eval's order."""
    out: dict[str, dict[str, list[str]]] = {}
    for name, run in runs.items():
        table = as_table(run, "run")
        out[name] = {str(q): ranked_labels(truth, run, q).doc_ids for q in table.query_names}
    return out


def sampling_curves(
    truth: object,
    runs: Mapping[str, object],
    fractions: Sequence[float] = (1.0, 0.8, 0.6, 0.4, 0.3, 0.2, 0.1),
    *,
    k: int = 10,
    seed: int = 12,
    threshold: float = 1,
) -> pd.DataFrame:
    """Thin the judgments at random and follow each measure's mean over topics.

    Every judgment draws one uniform number (seeded); at fraction f the judgments whose
    number is below f are kept, so a smaller sample is part of every larger one (Buckley
    and Voorhees's design). Every other document is unjudged. For each run, fraction and
    measure (MAP, mean P@R, mean bpref, mean nDCG@k with unjudged = 0 and condensed), the
    mean over the topics the run answers.

    Returns
    -------
    pandas.DataFrame
        Columns ``fraction``, ``run``, ``measure``, ``value`` and ``share`` (the value
        divided by the value at fraction 1, i.e. with every judgment; 1 = unchanged).

    Examples
    --------
    >>> truth = {"q": {"a": 1, "b": 0, "c": 1, "d": 0}}
    >>> runs = {"r": {"q": {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}}}
    >>> c = sampling_curves(truth, runs, (1.0, 0.5), k=4, seed=1)
    >>> c[(c.measure == "bpref") & (c.fraction == 1.0)]["value"].tolist()
    [0.75]
    """
    table = as_table(truth, "qrels")
    frame = pd.DataFrame({
        "query_id": table.query_names[table.query_codes],
        "doc_id": table.doc_names[table.doc_codes],
        "relevance": table.values,
    })
    draw = np.random.default_rng(seed).random(len(frame))
    lists = _topic_lists(truth, runs)  # type: ignore[arg-type]
    rows = []
    for fraction in fractions:
        if not 0 < float(fraction) <= 1:
            raise ValueError(f"fractions must lie in (0, 1]; got {fraction!r}. 1 keeps every judgment.")
        kept = frame[draw < float(fraction)]
        by_topic = {str(q): dict(zip(g["doc_id"], g["relevance"])) for q, g in kept.groupby("query_id")}
        for name, topics in lists.items():
            per: dict[str, list[float]] = {m: [] for m in SAMPLED_MEASURES if m != "MAP"}
            pairs = []
            for query, docs in topics.items():
                judged = by_topic.get(query, {})
                labels = [judged.get(doc) for doc in docs]
                values = list(judged.values())
                pairs.append((labels, values))
                per["P@R"].append(r_precision(labels, judgments=values, threshold=threshold))
                per["bpref"].append(bpref(labels, judgments=values, threshold=threshold))
                per["nDCG@k, unjudged = 0"].append(ndcg(labels, k, judgments=values))
                per["nDCG@k, condensed"].append(ndcg(labels, k, judgments=values, unjudged="condense"))
            means = {m: float(np.mean(v)) for m, v in per.items()}
            means["MAP"] = mean_average_precision(pairs, threshold=threshold)
            for measure in SAMPLED_MEASURES:
                rows.append({"fraction": float(fraction), "run": name, "measure": measure.replace("@k", f"@{k}"),
                             "value": means[measure]})
    out = pd.DataFrame(rows)
    full = out[out["fraction"] == out["fraction"].max()].set_index(["run", "measure"])["value"]
    base = out.set_index(["run", "measure"]).index.map(full)
    out["share"] = np.where(np.asarray(base) > 0, out["value"] / np.asarray(base), np.nan)
    return out


#: The measures :func:`sampling_curves` follows.
SAMPLED_MEASURES = ("MAP", "P@R", "nDCG@k, unjudged = 0", "nDCG@k, condensed", "bpref")


def sampling_summary(curves: pd.DataFrame, fraction: float) -> pd.DataFrame:
    """Each measure at one ``fraction`` of :func:`sampling_curves`: every run's mean, the
    mean share of the full value, and whether the runs keep the order they have with every
    judgment.

    >>> truth = {"q": {"a": 1, "b": 0, "c": 1, "d": 0}}
    >>> runs = {"r": {"q": {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}}}
    >>> sampling_summary(sampling_curves(truth, runs, (1.0,), k=4), 1.0).loc["bpref", "same order"]
    'yes'
    """
    full = curves[curves["fraction"] == curves["fraction"].max()]
    now = curves[np.isclose(curves["fraction"], float(fraction))]
    if now.empty:
        raise ValueError(f"fraction must be one of {sorted(set(curves['fraction']))}; got {fraction!r}.")
    values = now.pivot(index="measure", columns="run", values="value")
    runs = list(dict.fromkeys(curves["run"]))
    measures = list(dict.fromkeys(curves["measure"]))
    table = values.loc[measures, runs].copy()
    table["share of full value"] = now.groupby("measure")["share"].mean().loc[measures]

    def order(frame: pd.DataFrame, measure: str) -> list[str]:
        row = frame[frame["measure"] == measure].set_index("run")["value"]
        return list(row.sort_values(ascending=False, kind="stable").index)

    table["same order"] = ["yes" if order(now, m) == order(full, m) else "no" for m in measures]
    table.index.name = "measure"
    table.columns.name = None
    return table


def parse_topics(text: str) -> list[tuple[list[float | None], list[float]]]:
    """Further topics typed one per line as ``ranked labels | labels of judged documents the
    list missed`` -> ``(labels, judgments)`` pairs (empty lines are skipped).

    >>> parse_topics("0, 0, 1 | 1\\n1, 1, 0 |")
    [([0, 0, 1], [0.0, 0.0, 1.0, 1.0]), ([1, 1, 0], [1.0, 1.0, 0.0])]
    """
    if not isinstance(text, str):
        raise TypeError(f"topics must be text, one topic per line; got {type(text).__name__}.")
    pairs = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        ranked, _, missed = line.partition("|")
        try:
            labels = parse_labels(ranked)
            extra = parse_labels(missed) if missed.strip() else []
        except ValueError as err:
            raise ValueError(f"topic line {number}: {err}") from None
        if any(x is None for x in extra):
            raise ValueError(f"topic line {number}: the labels after | are judged documents; they cannot be ?.")
        pairs.append((labels, judged_labels(labels, extra)))  # type: ignore[arg-type]
    return pairs
