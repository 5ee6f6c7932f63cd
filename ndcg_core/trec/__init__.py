"""TREC files and whole runs: the second layer of ndcg_core.

What lives here:

- :mod:`.files`: ``read_qrels`` and ``read_run``, and which reader reads a file;
- :mod:`.line_reader`: the simple line-by-line reader, the reference that names file and
  line in its errors (:class:`QrelsFormatError`);
- :mod:`.fast_reader`: the numpy reader of well-formed ASCII files (tested against the
  simple one);
- :mod:`.tables`: the table both readers return (ids as codes), and the dict and
  DataFrame forms (``qrels_frame``, ``run_frame``);
- :mod:`.ranking`: trec_eval's order of a run (``ranked_labels``, one topic; all at once);
- :mod:`.evaluate`: every topic of a run scored the trec_eval way (``evaluate_run``);
- :mod:`.ties`: how other tools order tied scores (``tie_rules``);
- :mod:`.conventions` and :mod:`.reconcile`: the ways tools compute nDCG, and which of them
  reproduces a number another tool printed (``reconcile``); the package holds the scored
  search space (``reconcile.search``), the target readers (``reconcile.target``), the
  result (``reconcile.result``) and its explanation in words (``reconcile.explain``);
- :mod:`.cli`: the ``ndcg-eval`` command (its ``--match`` options in :mod:`.match_cli`).

May import: the core (``ndcg_core``'s top-level modules), numpy, and pandas only on first
use (``ndcg_core._lazy``). Never the teaching or ui layers, marimo or matplotlib.

>>> from ndcg_core import trec
>>> trec.read_qrels("q1 0 d1 2\\nq1 0 d2 0\\n")["relevance"].tolist()
[2, 0]
"""

from .evaluate import RunEvaluation, evaluate_run, parse_measures
from .files import read_qrels, read_run
from .line_reader import QrelsFormatError
from .ranking import RankedTopic, ranked_labels
from .tables import qrels_frame, run_frame
from .reconcile import read_target, reconcile, score_conventions
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
    "read_target",
    "reconcile",
    "score_conventions",
    "read_qrels",
    "read_run",
    "run_frame",
    "tie_rules",
]
