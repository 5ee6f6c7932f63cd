"""The toy TREC collection shipped in ``data/toy/`` (see ``data/README.md``): pooled qrels,
the full truth and three runs, read with :mod:`ndcg_core.trec`'s readers.
"""

from __future__ import annotations

import os
from typing import NamedTuple

import pandas as pd

from ..trec.files import read_qrels, read_run
from .paths import TOY_DIR

__all__ = ["TOY_RUNS", "ToyCollection", "read_toy_collection"]


#: The runs of the toy collection in data/toy/ (see data/README.md).
TOY_RUNS = ("classic", "tuned", "novel")


class ToyCollection(NamedTuple):
    """The toy TREC collection: pooled qrels, the full truth and three runs."""

    qrels: pd.DataFrame
    qrels_full: pd.DataFrame
    runs: dict[str, pd.DataFrame]


def read_toy_collection(directory: str | os.PathLike[str] = TOY_DIR) -> ToyCollection:
    """Read the toy collection's files (``qrels.txt``, ``qrels_full.txt``, ``run_<name>.txt``).

    ``directory`` defaults to the repository's ``data/toy`` (:data:`ndcg_core.paths.TOY_DIR`).

    Examples
    --------
    >>> toy = read_toy_collection()
    >>> len(toy.qrels), len(toy.qrels_full), sorted(toy.runs)
    (180, 2746, ['classic', 'novel', 'tuned'])
    """
    folder = os.fspath(directory)
    return ToyCollection(
        read_qrels(os.path.join(folder, "qrels.txt")),
        read_qrels(os.path.join(folder, "qrels_full.txt")),
        {name: read_run(os.path.join(folder, f"run_{name}.txt")) for name in TOY_RUNS},
    )


