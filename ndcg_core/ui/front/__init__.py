"""NDCG Lab's front door: the page at ``/`` that lists the notebooks, instead of marimo's gallery.

``ndcg-lab`` serves marimo (``marimo run notebooks/``), whose gallery at ``/`` says "marimo"
and prints each title twice. This module builds NDCG Lab's own page: the tab title and heading
"NDCG Lab", a one-line "start here" path through chapters 01 to 08, one card per notebook (its
title once, its description, a thumbnail drawn by the notebook's own plots on the lecture
example 1, 0, 2, 1, 0), and, under ``ndcg-lab slides``, the decks marked with how to drive
them. Each notebook stays at marimo's URL ``/?file=NN_name.py``.

One module per job; every public name is re-exported here (``front.read_notebook`` etc.):

- :mod:`.catalogue`: :func:`read_notebooks` reads each notebook's card (title, description)
  from its inline script metadata (``[tool.marimo.opengraph]``, which marimo's gallery reads
  too); :func:`deck_names` says which notebooks have a slide deck;
- :mod:`.page`: :func:`page_html` writes the page (static HTML, the stylesheet ``page.css``,
  no script);
- :mod:`.thumbnails`: :func:`thumbnail_png` draws a notebook's thumbnail (matplotlib,
  imported on first use); :class:`Thumbnails` keeps them in memory and on disk;
- :mod:`.middleware`: :class:`FrontDoor` is the ASGI middleware the server process puts inside
  marimo's app (:mod:`ndcg_core.ui.classroom.worker` registers it): it answers ``GET /``
  without ``file=`` and ``/ndcg-lab/thumbnails/...``, after marimo's login, and passes every
  other request through; :func:`chrome_fixes` adds ``chrome_head.html`` to marimo's pages.

>>> cards = read_notebooks()
>>> [c.number for c in cards][:3], cards[0].title
(['01', '02', '03'], '01 · Playground')
>>> "<title>NDCG Lab</title>" in page_html(cards)
True
"""

from __future__ import annotations

from .catalogue import START_PATH, Notebook, deck_names, has_slides_layout, read_notebook, read_notebooks
from .middleware import CHROME_HEAD, CLASS_URL_ENV, DECK_ENV, FrontDoor, chrome_fixes, class_questions_url
from .page import PAGE_CSS, page_html
from .thumbnails import LECTURE_EXAMPLE, THUMBNAIL_PATH, THUMBNAIL_WIDTH, Thumbnails, thumbnail_alt, thumbnail_png

__all__ = [
    "Notebook",
    "START_PATH",
    "THUMBNAIL_PATH",
    "THUMBNAIL_WIDTH",
    "LECTURE_EXAMPLE",
    "CLASS_URL_ENV",
    "DECK_ENV",
    "PAGE_CSS",
    "read_notebook",
    "read_notebooks",
    "has_slides_layout",
    "deck_names",
    "page_html",
    "thumbnail_png",
    "thumbnail_alt",
    "Thumbnails",
    "class_questions_url",
    "FrontDoor",
    "CHROME_HEAD",
    "chrome_fixes",
]
