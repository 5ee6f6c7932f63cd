"""Where NDCG Lab's shipped files live, so nothing depends on the directory a command runs from.

Two layouts hold the same files:

- a **checkout** (the project installed with ``pip install -e .``, or ``PYTHONPATH`` set to
  it): the repository's top-level ``data/`` and ``notebooks/`` folders, next to the
  ``ndcg_core`` package, so editing a notebook or the exercise bank in the checkout is what
  runs;
- an **installed wheel** (``pip install ndcg_lab-*.whl``): the same folders inside the
  package, ``ndcg_core/_data`` and ``ndcg_core/_notebooks`` (``pyproject.toml`` maps them
  there at build time).

The package's own copy wins when it exists; a checkout has none. Both are real folders on disk
(a wheel is installed unpacked), which ``marimo run <folder>`` needs.

``DATA_DIR`` holds the exercise bank ``exercises.toml`` and the toy TREC collection ``toy/``
(``TOY_DIR``); :func:`notebooks_dir` holds the chapter notebooks (pages) and :func:`decks_dir`
the lecture slide decks, each with its slides layout in ``decks/layouts/``.

>>> (DATA_DIR / "exercises.toml").is_file(), sorted(TOY_DIR.glob("run_*.txt"))[0].name
(True, 'run_classic.txt')
>>> (notebooks_dir() / "01_playground.py").is_file()
True
>>> (decks_dir() / "layouts" / "01_playground.slides.json").is_file()
True
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["DATA_DIR", "TOY_DIR", "notebooks_dir", "decks_dir", "is_checkout"]

#: The ``ndcg_core`` package folder (site-packages/ndcg_core in a wheel install).
_PACKAGE = Path(str(resources.files("ndcg_core")))


def _shipped(name: str) -> Path:
    """``ndcg_core/_<name>`` when the package carries its own copy (a wheel), else ``<checkout>/<name>``."""
    packaged = _PACKAGE / f"_{name}"
    return packaged if packaged.is_dir() else _PACKAGE.parent / name


def is_checkout() -> bool:
    """True when the notebooks and data are a source checkout's folders, False in an installed wheel.

    In an installed wheel they sit inside site-packages: serving them is fine, editing them is
    not (an upgrade or reinstall replaces them).

    >>> is_checkout()  # the doctests run in a checkout
    True
    """
    return not (_PACKAGE / "_notebooks").is_dir()


def notebooks_dir() -> Path:
    """The notebooks folder: ``<checkout>/notebooks``, or ``ndcg_core/_notebooks`` in a wheel.

    Its ``decks/`` subfolder holds the slide decks (:func:`decks_dir`).
    """
    return _shipped("notebooks")


def decks_dir() -> Path:
    """The lecture slide decks: ``<notebooks>/decks``, one marimo notebook per deck named after
    its chapter (``01_playground.py`` is deck 01), whose ``marimo.App(...)`` names its layout
    ``layouts/<name>.slides.json`` and the decks' stylesheet ``layouts/slides.css``."""
    return notebooks_dir() / "decks"


#: The exercise bank and the toy collection: ``<checkout>/data``, or ``ndcg_core/_data`` in a wheel.
DATA_DIR = _shipped("data")
#: The toy TREC collection (pooled qrels, the full truth, three runs).
TOY_DIR = DATA_DIR / "toy"
