"""``ndcg_core.exercises``: the binding name of the exercise checker (ARCHITECTURE.md, binding names).

The exercises live in the teaching layer, :mod:`ndcg_core.teaching.exercises`; this thin
module re-exports it under its old name, so ``from ndcg_core.exercises import check`` and
``ndcg_core.exercises.check`` keep working. Any other name is looked up there too.

>>> from ndcg_core.exercises import check
>>> check("lecture-ndcg", "0.78").correct
True
"""

from .teaching import exercises as _exercises
from .teaching.exercises import *  # noqa: F403  (the teaching module's __all__)

__all__ = list(_exercises.__all__)


def __getattr__(name: str) -> object:
    return getattr(_exercises, name)
