"""Notebooks loaded and run headless once per test session, shared by every test file.

Running a notebook (``app.run()``) costs seconds: its cells import pandas and matplotlib, read
the toy collection and draw figures. Several test files need the same default run (the headless
smoke test, the exercise cards, notebook 07's and 08's opening state, chapter 10's defaults), so
:func:`default_run` runs each notebook once per session and hands every caller the same
``(outputs, definitions)``; callers only read them. Runs with other widget values
(``app.run(defs=...)``) are not cached: each is a different run.

Runs happen in the test process, with matplotlib's Agg backend (tests/conftest.py sets
``MPLBACKEND``). A notebook's cells run in marimo's own namespaces, so a name one notebook
defines cannot leak into another; what the process shares is ``sys.modules``, as the library's
own tests share it. :func:`load_app` imports each notebook file once per session.
"""

from __future__ import annotations

import functools
import importlib.util
import os
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"

#: ``ndcg-lab slides`` sets this for the deck-only cells; a page run must not see it.
_DECK_ENV = "NDCG_LAB_DECK"


def notebook_path(filename: str | Path) -> Path:
    """``notebooks/<filename>`` (a path is taken as it is)."""
    path = Path(filename)
    return path if path.is_absolute() else NOTEBOOKS / path


@functools.cache
def _load(path: Path) -> Any:
    name = "notebook_" + "_".join(path.relative_to(REPO).with_suffix("").parts).replace("-", "_")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None, f"cannot import {path}"
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.app


def load_app(filename: str | Path) -> Any:
    """The ``marimo.App`` of ``notebooks/<filename>``, imported once per session."""
    return _load(notebook_path(filename).resolve())


@functools.cache
def _default_run(path: Path, deck: str | None) -> tuple[tuple[Any, ...], Any]:
    saved = os.environ.pop(_DECK_ENV, None)
    if deck is not None:
        os.environ[_DECK_ENV] = deck
    try:
        outputs, definitions = _load(path).run()
    finally:
        os.environ.pop(_DECK_ENV, None)
        if saved is not None:
            os.environ[_DECK_ENV] = saved
    return tuple(outputs), definitions


def default_run(filename: str | Path) -> tuple[tuple[Any, ...], Any]:
    """``app.run()`` of ``notebooks/<filename>`` with its own widget values, once per session.

    The run sees ``NDCG_LAB_DECK`` as the caller's environment has it (unset: the page; ``1``:
    the deck), and each of the two is run at most once. Read the result; do not change it.
    """
    return _default_run(notebook_path(filename).resolve(), os.environ.get(_DECK_ENV))
