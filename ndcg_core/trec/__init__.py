"""TREC files and whole runs: the second layer of ndcg_core.

What lives here: reading qrels and run files (:mod:`.files`), scoring every topic of a
run the trec_eval way (:mod:`.evaluate`), how other tools order tied scores
(:mod:`.ties`) and the ``ndcg-eval`` command (:mod:`.cli`).

May import: the core (``ndcg_core``'s top-level modules), numpy, and pandas only on first
use (``ndcg_core._lazy``). Never the teaching or ui layers, marimo or matplotlib.

>>> from ndcg_core import trec
>>> trec.read_qrels("q1 0 d1 2\\nq1 0 d2 0\\n")["relevance"].tolist()
[2, 0]
"""

from .evaluate import RunEvaluation, evaluate_run, parse_measures
from .files import QrelsFormatError, RankedTopic, qrels_frame, ranked_labels, read_qrels, read_run, run_frame
from .ties import TIE_RULES, tie_rules

__all__ = [
    "QrelsFormatError",
    "RankedTopic",
    "RunEvaluation",
    "TIE_RULES",
    "evaluate_run",
    "parse_measures",
    "qrels_frame",
    "ranked_labels",
    "read_qrels",
    "read_run",
    "run_frame",
    "tie_rules",
]
