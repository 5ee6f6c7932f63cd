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
>>> from ndcg_core.trec.conventions import PRESETS
>>> found.best.differences(PRESETS["trec_eval"].convention, topics=False)
('ideal',)
>>> print("\n".join(found.explanation.splitlines()[:3]))
The target (2 topics) is reproduced by 48 of 1,920 configurations.
Closest match to trec_eval: linear gain, discount 1/log2(i+1), ideal from the retrieved documents only, tied scores by document id descending, unjudged documents gain 0, negative labels as unjudged, the topics listed in the target, cutoff 3.
It differs from trec_eval in: ideal from the retrieved documents only instead of ideal from all judged documents.
"""

from __future__ import annotations

from .result import Reconciliation, reconcile
from .search import POLICIES, ConventionScores, score_conventions
from .target import Target, read_target

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


def __getattr__(name: str) -> object:
    """The ``--match`` command's names, which moved to :mod:`ndcg_core.trec.match_cli`
    (imported on first use: that module imports this package)."""
    if name in ("EXIT_NO_MATCH", "add_match_arguments", "run_match"):
        from .. import match_cli

        return getattr(match_cli, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
