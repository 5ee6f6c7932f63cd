r"""ndcg_core: exact CG, DCG, IDCG and nDCG for learning graded-relevance evaluation.

Conventions (the numbers every notebook and test follows):

- ranks are 1-based; ``k=None`` is the whole list; ``k`` is otherwise a positive int;
- gains: ``"linear"`` l, ``"exponential"`` 2^l - 1, a ``{label: gain}`` table, a callable;
- discounts: ``"log2"`` 1/log2(i+1), ``"log2_shifted"`` 1/log2(i+2), ``"reciprocal"`` 1/i,
  ``"log"`` 1/log_b(i+1), ``"jarvelin_kekalainen"`` (base b), ``"none"``, a callable;
- unjudged documents (``None``): gain 0 (``unjudged="zero"``) or removed
  (``unjudged="condense"``);
- the ideal list comes from ``judgments`` (all judged labels of the query) when given;
- IDCG = 0 gives nDCG = 0.0;
- binary measures (``precision``, ``r_precision``, ``average_precision``,
  ``mean_average_precision``, ``bpref``) count a label at or above a relevance threshold
  (default 1) as relevant, with trec_eval's conventions; bpref alone skips unjudged documents.

The package is layered; imports point down only (a test enforces it):

- ``ndcg_core`` (this folder's modules): the exact single-list metric; every DCG sum is
  taken in one place, :mod:`ndcg_core.kernel`;
- ``ndcg_core.trec``: TREC files, whole-run evaluation, ``ndcg-eval``;
- ``ndcg_core.teaching``: exercises, exam sets, comparisons, presets, pools, the toy collection;
- ``ndcg_core.infra``: the SQLite store, learner progress, the classroom's state, the sandbox;
- ``ndcg_core.ui``: figures, the playground's glue, marimo widgets, ``ndcg-lab``.

``import ndcg_core`` and ``from ndcg_core import *`` load the core alone (numpy; no pandas,
matplotlib or marimo): ``__all__`` names the core. The names of the layers above
(``read_qrels``, ``evaluate_run``, ``trec``, ``teaching``, ``exercises``, ...) are looked up on
first use, as attributes (``ndcg_core.evaluate_run``) or imported by name. The layers, the
import order and the conventions are described in ARCHITECTURE.md.

>>> import ndcg_core as nc
>>> round(nc.ndcg([1, 0, 2, 1, 0], 5, judgments=[2, 1, 1]), 4)
0.7763
"""

from .binary import average_precision, binarise, bpref, mean_average_precision, precision, r_precision
from .config import IDEAL_SOURCES, NDCGConfig
from .discounts import DISCOUNT_NAMES, DISCOUNTS, TAKES_BASE, resolve_discount
from .gains import GAINS, parse_gain_table, resolve_gain
from .labels import parse_labels
from .metrics import (
    UNJUDGED_POLICIES,
    Scored,
    breakdown,
    dcg,
    idcg,
    ndcg,
    ndcg_curve,
    score,
    unjudged_fraction,
)

__version__ = "0.1.0"

# The layers above the core, loaded on first use (PEP 562) so that ``import ndcg_core``
# stays the small exact core: name -> module that defines it ("" for the module itself).
_LAZY = {
    "QrelsFormatError": "trec",
    "ranked_labels": "trec",
    "read_qrels": "trec",
    "read_run": "trec",
    "RunEvaluation": "trec",
    "evaluate_run": "trec",
    "trec": "",
    "teaching": "",
    "exercises": "",
}


def __getattr__(name: str) -> object:
    if name not in _LAZY:
        raise AttributeError(f"module 'ndcg_core' has no attribute {name!r}")
    import importlib

    module = importlib.import_module(f".{_LAZY[name] or name}", __name__)
    value = module if not _LAZY[name] else getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))

__all__ = [
    "dcg",
    "idcg",
    "ndcg",
    "score",
    "Scored",
    "breakdown",
    "ndcg_curve",
    "unjudged_fraction",
    "precision",
    "average_precision",
    "r_precision",
    "mean_average_precision",
    "bpref",
    "binarise",
    "parse_labels",
    "parse_gain_table",
    "NDCGConfig",
    "GAINS",
    "DISCOUNTS",
    "DISCOUNT_NAMES",
    "TAKES_BASE",
    "UNJUDGED_POLICIES",
    "IDEAL_SOURCES",
    "resolve_gain",
    "resolve_discount",
    "__version__",
]
