"""Where NDCG Lab's data lives: one place, so nothing depends on the directory a notebook runs from.

``DATA_DIR`` is the repository's ``data/`` folder (the project is installed editable from a
checkout): the exercise bank ``exercises.toml`` and the toy TREC collection ``toy/``.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["DATA_DIR", "TOY_DIR"]

#: The repository's ``data/`` folder, next to the ``ndcg_core`` package.
DATA_DIR = Path(__file__).resolve().parents[2] / "data"
#: The toy TREC collection (pooled qrels, the full truth, three runs).
TOY_DIR = DATA_DIR / "toy"
