"""The front page's HTML: heading, the "start here" path, one card per notebook (static, no script).

Its stylesheet is the package data file ``page.css`` beside this module (:data:`PAGE_CSS`).
Every text that comes from a notebook's metadata is escaped (:func:`html.escape`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from importlib import resources

from .catalogue import START_PATH, Notebook
from .thumbnails import THUMBNAIL_PATH, THUMBNAIL_WIDTH, thumbnail_alt

__all__ = ["PAGE_CSS", "page_html"]

#: The front page's stylesheet (``page.css``, shipped with the package).
PAGE_CSS = resources.files(__package__).joinpath("page.css").read_text(encoding="utf-8")


def _card(card: Notebook, *, deck: bool, slides: bool, version: str) -> str:
    badge = ""
    if deck:
        badge = '<span class="badge">Slide deck</span>' if slides else '<span class="badge">Has a slide deck</span>'
    describedby = f"d{card.number}"
    return (
        f'<li class="card">'
        f'<img src="{escape(THUMBNAIL_PATH + card.file.removesuffix(".py"))}.png?v={escape(version)}" '
        f'alt="{escape(thumbnail_alt(card))}" width="{THUMBNAIL_WIDTH // 2}" height="{THUMBNAIL_WIDTH // 4}" loading="eager">'
        f'<div class="text"><h3><a href="{escape(card.url)}" aria-describedby="{describedby}">{escape(card.title)}</a></h3>'
        f'<p id="{describedby}">{escape(card.description)}</p>{badge}</div></li>'
    )


def page_html(
    notebooks: Sequence[Notebook],
    *,
    slides: bool = False,
    decks: Iterable[str] = (),
    class_url: str | None = None,
    version: str = "0",
) -> str:
    """The front page: heading, start path, a card per notebook (the path's chapters first).

    ``slides``: the server shows decks (``ndcg-lab slides``); ``decks``: the file names of the
    notebooks that have one (marked on their cards, and named in a note on driving them);
    ``class_url``: classroom mode's class questions, linked for students; ``version``: goes into
    the thumbnails' URLs, so a browser's cached copy is replaced when they change.
    Every text from a notebook's metadata is escaped.
    """
    decks = set(decks)
    by_number = {card.number: card for card in notebooks}
    path = [by_number[n] for n in START_PATH if n in by_number]
    further = [card for card in notebooks if card.number not in START_PATH]
    path_items = "".join(f'<li><a href="{escape(c.url)}"><span class="n">{escape(c.number)}</span> {escape(c.short_title)}</a></li>'
                         for c in path)
    then = ""
    if further:
        then = ('<p class="then">then ' + ", ".join(f'<a href="{escape(c.url)}">{escape(c.number)}</a>' for c in further)
                + "</p>")
    shown_decks = [c for c in notebooks if c.file in decks]
    notes = []
    if slides and shown_decks:
        notes.append(
            '<p class="note">Notebooks marked <strong>Slide deck</strong> open as lecture slides: '
            '<kbd>→</kbd> or <kbd>Space</kbd> shows the next step, <kbd>←</kbd> goes back, '
            '<kbd>S</kbd> opens the speaker view with the notes.'
            + (" The others open as pages." if len(shown_decks) < len(notebooks) else "") + "</p>"
        )
    elif shown_decks:
        notes.append(
            '<p class="note">Lecturers: <code>ndcg-lab slides</code> serves '
            + ", ".join(escape(c.number) for c in shown_decks)
            + " as slide decks (the cards marked <strong>Has a slide deck</strong>).</p>"
        )
    if class_url:
        notes.append(
            f'<p class="class">In class? Answer the lecturer\'s live questions at '
            f'<a href="{escape(class_url)}">the class questions</a>.</p>'
        )
    lede = ("Lecture slides on graded relevance: DCG, IDCG and nDCG, live." if slides
            else "Graded relevance, one idea at a time: DCG, IDCG and nDCG you can change and watch recompute.")

    def cards(group: Sequence[Notebook]) -> str:
        return "".join(_card(c, deck=c.file in decks, slides=slides, version=version) for c in group)

    sections = [f'<section aria-labelledby="course"><h2 id="course">The course, chapters 01 to 08</h2>'
                f'<ul class="cards">{cards(path)}</ul></section>'] if path else []
    if further:
        sections.append(f'<section aria-labelledby="further"><h2 id="further">Further chapters</h2>'
                        f'<ul class="cards">{cards(further)}</ul></section>')
    body_class = ' class="slides"' if slides else ""
    start = ""
    if path:
        start = (f'<nav class="start" aria-labelledby="start"><h2 id="start">Start here:</h2>'
                 f'<ol>{path_items}</ol>{then}</nav>')
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>NDCG Lab</title><style>{PAGE_CSS}</style></head><body{body_class}>"
        '<a class="skip" href="#main">Skip to the chapters</a>'
        f'<header><h1>NDCG Lab</h1><p class="lede">{escape(lede)}</p></header>'
        f'<main id="main">{start}{"".join(notes)}{"".join(sections)}</main>'
        '<footer>Every chapter is a <a href="https://marimo.io">marimo</a> notebook: change an input '
        "and everything that depends on it recomputes.</footer>"
        "</body></html>\n"
    )
