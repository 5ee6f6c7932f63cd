r"""The ways tools compute "nDCG@k" of a run, as one configuration space with named presets.

Two tools that both print "nDCG@10" for the same run can differ in eight independent
choices. A :class:`Convention` fixes one value of each; :data:`DIMENSIONS` lists the
values :func:`ndcg_core.trec.reconcile.reconcile` searches:

============  ==========================================================================
dimension     values (the first is trec_eval's)
============  ==========================================================================
gain          ``linear`` g(l) = l; ``exponential`` g(l) = 2^l - 1
discount      ``log2`` 1/log2(i+1); ``log2_shifted`` 1/log2(i+2);
              ``jarvelin_kekalainen`` 1 for rank 1, 1/log2(i) from rank 2 on
ideal         ``judgments`` every judged document of the topic, the ideal list cut at k;
              ``judgments_full`` the same list not cut at k (trec_eval ``-M k -m ndcg``);
              ``retrieved`` the run's own documents (scikit-learn, TorchMetrics, the exam's
              code); ``retrieved_top_k`` only the run's top k documents
ties          ``docno_desc`` equal scores by document id descending (trec_eval);
              ``docno_asc`` ascending (trectools); ``file_order`` as written in the run;
              ``averaged`` tied documents share their mean gain (scikit-learn, TorchMetrics)
unjudged      ``zero`` an unjudged document has gain 0; ``condense`` it is removed before
              ranking (trec_eval ``-J``, ir_measures ``judged_only=True``)
negatives     negative qrels labels: ``unjudged`` pooled but not judged (trec_eval);
              ``zero`` judged non-relevant; ``as_is`` the label is used as it is
topics        which topics the mean is over: ``both`` run and qrels (trec_eval);
              ``qrels`` every qrels topic, a missed one scoring 0 (trec_eval ``-c``,
              ir_measures); ``run`` every run topic, one without judgments scoring 0
cutoff        ``k`` as asked; ``k-1`` or ``k+1`` (an off-by-one); ``whole`` the whole run
              (trec_eval's ``ndcg`` instead of ``ndcg_cut``)
============  ==========================================================================

Where a topic's ideal DCG is 0 (nothing relevant), every convention scores it 0, as every
tool here does. While unjudged documents keep gain 0, negatives ``zero`` and ``unjudged``
give the same numbers (gain 0 either way, and a 0 adds nothing to the ideal): the presets
and the search write that pair as ``unjudged``. A tool that clips negative labels to 0
(scikit-learn rejects them, ranx's ``clean_qrels`` drops them) is written that way. The presets (:data:`PRESETS`) say how each tool was applied and where its
convention is written down; the ones marked ``verified`` are checked against the tool
itself in ``tests/trec/test_reconcile.py``.

Examples
--------
>>> PRESETS["scikit-learn"].convention.differences(TREC_EVAL)
('ideal', 'ties', 'topics')
>>> print(PRESETS["ir_measures"].convention.describe())
linear gain, discount 1/log2(i+1), ideal from all judged documents, tied scores by document id descending, unjudged documents gain 0, negative labels as unjudged, mean over all qrels topics (a missed topic scores 0), cutoff k
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

__all__ = ["DIMENSIONS", "PRESETS", "TREC_EVAL", "Convention", "Preset", "describe_value"]

#: Every dimension and its values, trec_eval's value first.
DIMENSIONS: dict[str, tuple[str, ...]] = {
    "gain": ("linear", "exponential"),
    "discount": ("log2", "log2_shifted", "jarvelin_kekalainen"),
    "ideal": ("judgments", "judgments_full", "retrieved", "retrieved_top_k"),
    "ties": ("docno_desc", "docno_asc", "file_order", "averaged"),
    "unjudged": ("zero", "condense"),
    "negatives": ("unjudged", "zero", "as_is"),
    "topics": ("both", "qrels", "run"),
    "cutoff": ("k", "k-1", "k+1", "whole"),
}

_WORDS: dict[str, dict[str, str]] = {
    "gain": {"linear": "linear gain", "exponential": "exponential gain 2^l - 1"},
    "discount": {
        "log2": "discount 1/log2(i+1)",
        "log2_shifted": "discount 1/log2(i+2)",
        "jarvelin_kekalainen": "discount 1/log2(i) from rank 2 (rank 1 undiscounted)",
    },
    "ideal": {
        "judgments": "ideal from all judged documents",
        "judgments_full": "ideal from all judged documents without the cut at k",
        "retrieved": "ideal from the retrieved documents only",
        "retrieved_top_k": "ideal from the retrieved top k only",
    },
    "ties": {
        "docno_desc": "tied scores by document id descending",
        "docno_asc": "tied scores by document id ascending",
        "file_order": "tied scores in file order",
        "averaged": "tied documents sharing their mean gain",
    },
    "unjudged": {"zero": "unjudged documents gain 0", "condense": "unjudged documents removed before ranking"},
    "negatives": {
        "unjudged": "negative labels as unjudged",
        "zero": "negative labels as 0 (judged non-relevant)",
        "as_is": "negative labels used as they are",
    },
    "topics": {
        "both": "mean over topics in both run and qrels",
        "qrels": "mean over all qrels topics (a missed topic scores 0)",
        "run": "mean over all run topics (one without judgments scores 0)",
        "listed": "the topics listed in the target",
    },
    "cutoff": {"k": "cutoff k", "k-1": "cutoff k-1", "k+1": "cutoff k+1", "whole": "no cutoff (the whole run)"},
}


_K = "k"


def describe_value(dimension: str, value: str, k: int | None | str = _K) -> str:
    """The plain words for one value of one dimension; ``k`` puts the cutoff's number in.

    Examples
    --------
    >>> describe_value("ideal", "retrieved")
    'ideal from the retrieved documents only'
    >>> describe_value("cutoff", "k+1", k=10), describe_value("cutoff", "k", k=None)
    ('cutoff 11 (k+1)', 'no cutoff (the whole run)')
    """
    if dimension == "cutoff" and k != _K and value in DIMENSIONS["cutoff"]:
        if k is None or value == "whole":
            return _WORDS["cutoff"]["whole"]
        shift = {"k": 0, "k-1": -1, "k+1": 1}[value]
        return f"cutoff {int(k) + shift}" + ("" if value == "k" else f" ({value})")  # type: ignore[call-overload]
    try:
        return _WORDS[dimension][value]
    except KeyError:
        raise ValueError(
            f"{dimension}={value!r} is not a known convention; choose {dimension} from "
            f"{', '.join(DIMENSIONS.get(dimension, ()))}."
        ) from None


@dataclass(frozen=True)
class Convention:
    """One value of each dimension of :data:`DIMENSIONS` (the defaults are trec_eval's).

    ``topics`` may also be ``"listed"``: per-topic targets fix the topics themselves.

    Examples
    --------
    >>> Convention(gain="exponential").differences(TREC_EVAL)
    ('gain',)
    """

    gain: str = "linear"
    discount: str = "log2"
    ideal: str = "judgments"
    ties: str = "docno_desc"
    unjudged: str = "zero"
    negatives: str = "unjudged"
    topics: str = "both"
    cutoff: str = "k"

    def __post_init__(self) -> None:
        for name, values in DIMENSIONS.items():
            value = getattr(self, name)
            allowed = values + ("listed",) if name == "topics" else values
            if value not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}; got {value!r}.")

    def differences(self, other: Convention, *, topics: bool = True) -> tuple[str, ...]:
        """The dimensions whose value differs from ``other`` (``topics=False`` skips the topic set)."""
        return tuple(
            f.name
            for f in fields(self)
            if getattr(self, f.name) != getattr(other, f.name) and (topics or f.name != "topics")
        )

    def describe(self, k: int | None | str = _K) -> str:
        """Every choice in plain words, comma separated (``k``: the cutoff's number)."""
        return ", ".join(describe_value(f.name, getattr(self, f.name), k) for f in fields(self))

    def with_topics(self, topics: str) -> Convention:
        """The same convention over another topic set."""
        return replace(self, topics=topics)


#: trec_eval's ``ndcg_cut.k`` (and pytrec_eval's): the reference every explanation starts from.
TREC_EVAL = Convention()


@dataclass(frozen=True)
class Preset:
    """A tool's convention: how the tool is applied, where its rule is written, whether tested."""

    name: str
    convention: Convention
    applied: str
    source: str
    verified: bool


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset(
            "trec_eval",
            TREC_EVAL,
            "trec_eval -m ndcg_cut.k QRELS RUN (9.x and 10.0)",
            "m_ndcg_cut.c l. 72-75 (DCG: gain = label, only labels > 0, gain / log2(i + 2) with 0-based i), "
            "l. 91-115 (ideal from the qrels' relevance levels); form_res_rels.c l. 266-274 "
            "(comp_sim_docno: score descending, then strcmp(docno2, docno1))",
            True,
        ),
        Preset("trec_eval -c", Convention(topics="qrels"), "trec_eval -c -m ndcg_cut.k", "meas_avg.c l. 38, 54 (average_complete_flag: divide by the number of qrels topics); trec_eval.c l. 383 (missing topics evaluated as empty)", True),
        Preset("trec_eval -J", Convention(unjudged="condense"), "trec_eval -J -m ndcg_cut.k", "form_res_rels.c l. 202-215 (judged_docs_only_flag: unjudged documents removed, ranks closed up)", True),
        Preset(
            "trec_eval -M k ndcg",
            Convention(ideal="judgments_full"),
            "trec_eval -M k -m ndcg: the run cut at k documents, the ideal over every judged document",
            "form_res_rels.c l. 115-117 (num_results cut at max_num_docs_per_topic after the sort); m_ndcg.c "
            "(the ideal over all relevance levels, no cutoff; usnistgov/trec_eval#11)",
            True,
        ),
        Preset(
            "pytrec_eval",
            TREC_EVAL,
            "pytrec_eval.RelevanceEvaluator(qrels, {'ndcg_cut.k'}).evaluate(run), mean over the returned topics",
            "the trec_eval 9.0.8 C code compiled into the extension",
            True,
        ),
        Preset(
            "ir_measures",
            Convention(topics="qrels"),
            "ir_measures.calc_aggregate([nDCG@k], qrels, run) (pytrec_eval provider)",
            "ir_measures 0.4.3 providers/pytrec_eval_provider.py (nDCG via pytrec_eval, dcg='log2'); "
            "providers/base.py l. 22-27 (every qrels topic the run missed gets measure.DEFAULT = 0)",
            True,
        ),
        Preset(
            "ir_measures judged_only",
            Convention(unjudged="condense", topics="qrels"),
            "ir_measures.calc_aggregate([nDCG(judged_only=True)@k], qrels, run)",
            "providers/pytrec_eval_provider.py l. 204 (judged_docs_only_flag=1, trec_eval -J)",
            True,
        ),
        Preset(
            "gdeval",
            Convention(gain="exponential", topics="qrels"),
            "ir_measures.calc_aggregate([nDCG(dcg='exp-log2')@k], qrels, run), which runs gdeval.pl "
            "(the TREC Web track's nDCG; numeric topic ids and labels up to 4 only; 5 decimals printed)",
            "ir_measures 0.4.3 bin/gdeval.pl l. 151 ((2**gain - 1) / log(i + 2): the log base cancels in nDCG), "
            "l. 43-45 (only labels > 0 enter the ideal), l. 124-141 (runOrder: score descending, then docno "
            "descending), l. 175-181 (topics without a relevant document skipped, then scored 0 by ir_measures' "
            "providers/base.py l. 22-27)",
            True,
        ),
        Preset(
            "scikit-learn",
            Convention(ideal="retrieved", ties="averaged", topics="run"),
            "ndcg_score([labels], [scores], k=k) per run topic, labels of the retrieved documents "
            "(unjudged 0, negative clipped to 0: it rejects negative labels), mean over the run's topics",
            "sklearn/metrics/_ranking.py (1.9.1) l. 1698 (discount 1/log2(i+2), 0-based i), l. 1752 "
            "(_tie_averaged_dcg: np.unique(-y_score) groups ties), l. 1942 (ideal: _dcg_sample_scores(y_true, y_true)), "
            "l. 2058 (negative y_true rejected)",
            True,
        ),
        Preset(
            "torchmetrics",
            Convention(ideal="retrieved", ties="averaged", topics="run"),
            "RetrievalNormalizedDCG(top_k=k) with indexes = topic, preds = scores, target = labels (0 if unjudged)",
            "src/torchmetrics/functional/retrieval/ndcg.py (commit 01c2fa69) l. 34-42 (_tie_average_dcg, a "
            "translation of scikit-learn's, summed in float32), l. 58 (discount 1/log2(arange + 2)), l. 115 "
            "(ideal: _dcg_sample_scores(target, target)); l. 105-112 mask scores <= 0 to -inf (ranked last); "
            "not installed here (torch is too large), not verified",
            False,
        ),
        Preset(
            "ranx",
            Convention(ties="file_order", topics="qrels"),
            "ranx.evaluate(Qrels(qrels), Run(run), 'ndcg@k', make_comparable=True)",
            "ranx/metrics/ndcg.py (commit 3d6770b4) l. 12 (clean_qrels drops labels < rel_lvl = 1, so a negative "
            "label counts 0), l. 35 (label / np.log2(np.arange(1, k + 1) + 1)), l. 84-85 (_idcg = _dcg(qrels, qrels): "
            "the ideal from the qrels), l. 94-95 (an ideal DCG of 0 replaced by 1: nDCG 0 either way); ties follow "
            "its unstable argsort (no fixed rule; file order assumed); not installed here (numba), not verified",
            False,
        ),
        Preset(
            "ranx ndcg_burges",
            Convention(gain="exponential", ties="file_order", topics="qrels"),
            "ranx.evaluate(Qrels(qrels), Run(run), 'ndcg_burges@k', make_comparable=True)",
            "ranx/metrics/ndcg.py (commit 3d6770b4) l. 39 ((2**rel - 1) / np.log2(np.arange(1, k + 1) + 1)); "
            "otherwise as ranx; not verified",
            False,
        ),
        Preset(
            "trectools",
            Convention(ties="docno_asc", topics="run"),
            "TrecEval(run, qrels).get_ndcg(depth=k, trec_eval=True)",
            "trectools 0.0.50 trec_eval.py get_ndcg: sorts by score descending then docid ascending; "
            "divides by the number of run topics (joaopalotti/trectools#24); not installed here, not verified",
            False,
        ),
        Preset(
            "exam",
            Convention(ideal="retrieved", ties="file_order", negatives="as_is"),
            "the exam's ndcg(rels, k): rels = the run's labels in file order (unjudged 0, raw qrels label), "
            "ideal = sorted(rels, reverse=True), rels[i] / log2(i + 2) with 0-based i",
            "../shared/seeds/001_3a9f09267e2852aa.txt l. 34-39 (exam WS 17/18, tasks 1.3-1.4)",
            True,
        ),
    )
}
