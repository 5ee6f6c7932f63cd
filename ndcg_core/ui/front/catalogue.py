"""The catalogue: which notebooks the front page lists, their cards, and which have a deck.

Each notebook's card (title, description) comes from its inline script metadata
(``[tool.marimo.opengraph]``, which marimo's gallery reads too); a notebook without one gets a
title made of its file name. :func:`deck_names` (the notebooks that have a slide deck) is the
one place the front page decides what a deck is.
"""

from __future__ import annotations

import ast
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...teaching.paths import notebooks_dir

__all__ = ["Notebook", "START_PATH", "read_notebook", "read_notebooks", "has_slides_layout", "deck_names"]

#: The chapters a newcomer takes in order; the rest are further chapters.
START_PATH = ("01", "02", "03", "04", "05", "06", "07", "08")

_NOTEBOOK_NAME = re.compile(r"^(\d\d)_[a-z0-9_]+\.py$")
# PEP 723 inline script metadata, the reference regular expression
_SCRIPT_BLOCK = re.compile(r"(?m)^# /// (?P<type>[a-zA-Z0-9-]+)$\s(?P<content>(^#(| .*)$\s)+)^# ///$")


@dataclass(frozen=True)
class Notebook:
    """One card of the front page: ``file`` (``NN_name.py``), its number, title and description."""

    file: str
    number: str
    title: str
    description: str

    @property
    def short_title(self) -> str:
        """The title without its number: ``'01 · Playground'`` -> ``'Playground'``."""
        return re.sub(rf"^{self.number}\s*[·.:-]?\s*", "", self.title) or self.title

    @property
    def url(self) -> str:
        """marimo's URL of the notebook (binding: ``/?file=NN_name.py``)."""
        return f"/?file={self.file}"


def _metadata(source: str) -> dict[str, Any]:
    for match in _SCRIPT_BLOCK.finditer(source):
        if match.group("type") == "script":
            content = "".join(line[2:] if line.startswith("# ") else line[1:]
                              for line in match.group("content").splitlines(keepends=True))
            try:
                return tomllib.loads(content)
            except tomllib.TOMLDecodeError:
                return {}
    return {}


def read_notebook(path: Path) -> Notebook:
    """The card of one notebook file: ``[tool.marimo.opengraph]`` title and description, else
    a title made of its file name (``05_unjudged.py`` -> ``'05 · Unjudged'``)."""
    match = _NOTEBOOK_NAME.match(path.name)
    if match is None:
        raise ValueError(f"notebook file names look like 'NN_name.py'; got {path.name!r}.")
    number = match.group(1)
    try:
        source = path.read_text(encoding="utf-8")
    except (OSError, UnicodeError):
        source = ""
    opengraph = _metadata(source).get("tool", {}).get("marimo", {}).get("opengraph", {})
    if not isinstance(opengraph, dict):
        opengraph = {}
    words = path.stem[3:].replace("_", " ")
    title = opengraph.get("title") if isinstance(opengraph.get("title"), str) else None
    description = opengraph.get("description") if isinstance(opengraph.get("description"), str) else ""
    return Notebook(path.name, number, (title or f"{number} · {words[:1].upper()}{words[1:]}").strip(), description.strip())


def read_notebooks(folder: Path | None = None) -> list[Notebook]:
    """Every ``NN_name.py`` notebook of ``folder`` (default: the shipped notebooks), in order."""
    folder = notebooks_dir() if folder is None else Path(folder)
    return [read_notebook(path) for path in sorted(folder.glob("[0-9][0-9]_*.py"))
            if path.is_file() and _NOTEBOOK_NAME.match(path.name)]


def has_slides_layout(path: Path) -> bool:
    """True when the notebook's ``marimo.App(...)`` names a ``*.slides.json`` layout file
    (the decks ``ndcg-lab slides`` serves)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeError, SyntaxError, ValueError):
        return False
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and ast.unparse(node.value.func) == "marimo.App":
            for keyword in node.value.keywords:
                if keyword.arg == "layout_file" and isinstance(keyword.value, ast.Constant):
                    return str(keyword.value.value).endswith(".slides.json")
    return False


def deck_names(folder: Path | None = None) -> set[str]:
    """The notebooks of ``folder`` that have a slide deck: a deck of the same name in its
    ``decks/`` subfolder, or (the decks ``ndcg-lab slides`` serves) a ``layout_file`` naming one."""
    folder = notebooks_dir() if folder is None else Path(folder)
    names = {card.file for card in read_notebooks(folder)}
    laid_out = {path.name for path in (folder / "decks").glob("*.py")}
    return {name for name in names if name in laid_out or has_slides_layout(folder / name)}
