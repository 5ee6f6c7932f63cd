"""NDCG Lab's front door: the page at ``/`` that lists the notebooks, instead of marimo's gallery.

``ndcg-lab`` serves marimo (``marimo run notebooks/``), whose gallery at ``/`` says "marimo"
and prints each title twice. This module builds NDCG Lab's own page: the tab title and heading
"NDCG Lab", a one-line "start here" path through chapters 01 to 08, one card per notebook (its
title once, its description, a thumbnail drawn by the notebook's own plots on the lecture
example 1, 0, 2, 1, 0), and, under ``ndcg-lab slides``, the decks marked with how to drive
them. Each notebook stays at marimo's URL ``/?file=NN_name.py``.

- :func:`read_notebooks` reads each notebook's card (title, description) from its inline
  script metadata (``[tool.marimo.opengraph]``, which marimo's gallery reads too);
- :func:`page_html` writes the page (static HTML and CSS, no script);
- :func:`thumbnail_png` draws a notebook's thumbnail (matplotlib, imported on first use);
  :class:`Thumbnails` keeps them in memory and on disk;
- :class:`FrontDoor` is the ASGI middleware the server process puts inside marimo's app
  (:mod:`.classroom.worker` registers it): it answers ``GET /`` without ``file=`` and
  ``/ndcg-lab/thumbnails/...``, after marimo's login, and passes every other request through.

>>> cards = read_notebooks()
>>> [c.number for c in cards][:3], cards[0].title
(['01', '02', '03'], '01 · Playground')
>>> "<title>NDCG Lab</title>" in page_html(cards)
True
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import hashlib
import html
import io
import os
import re
import threading
import tomllib
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Iterable,
    Mapping,
    MutableMapping,
    Sequence,
)
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from ..teaching.paths import notebooks_dir
from .stale import STALE_HEAD

__all__ = [
    "Notebook",
    "START_PATH",
    "THUMBNAIL_PATH",
    "CLASS_URL_ENV",
    "DECK_ENV",
    "read_notebook",
    "read_notebooks",
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

#: The chapters a newcomer takes in order; the rest are further chapters.
START_PATH = ("01", "02", "03", "04", "05", "06", "07", "08")
#: Where the thumbnails are served: ``/ndcg-lab/thumbnails/NN_name.png?v=<version>``.
THUMBNAIL_PATH = "/ndcg-lab/thumbnails/"
#: Classroom mode: where students find the class questions ("/class/" on the same address,
#: or ":PORT/class/" for the same host on another port, when there is no HAProxy).
CLASS_URL_ENV = "NDCG_LAB_CLASS_URL"
#: Set to "1" by ``ndcg-lab slides`` (the same name as :data:`ndcg_core.ui.lecture.DECK_ENV`).
DECK_ENV = "NDCG_LAB_DECK"
#: The lecture example every thumbnail that draws a ranked list uses.
LECTURE_EXAMPLE = "1, 0, 2, 1, 0"
#: Thumbnails are drawn this many pixels wide (shown at about half that: sharp on a HiDPI screen).
THUMBNAIL_WIDTH = 640

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


def _has_slides_layout(path: Path) -> bool:
    """True when the notebook's ``marimo.App(...)`` names a ``*.slides.json`` layout file
    (the copies ``ndcg-lab slides`` serves)."""
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
    """The notebooks of ``folder`` that have a slide deck: a ``layouts/<name>.slides.json``
    next to them, or (in the copies ``ndcg-lab slides`` serves) a ``layout_file`` naming one."""
    folder = notebooks_dir() if folder is None else Path(folder)
    names = {card.file for card in read_notebooks(folder)}
    laid_out = {path.name.removesuffix(".slides.json") + ".py" for path in (folder / "layouts").glob("*.slides.json")}
    return {name for name in names if name in laid_out or _has_slides_layout(folder / name)}


# ----------------------------------------------------------------------------------------------
# The page

_CSS = """
:root { color-scheme: light; --ink: #1b1b1b; --soft: #333333; --line: #b8c4d0; --link: #0b57a4;
        --paper: #ffffff; --band: #f2f6fa; --deck: #7a2e00; --focus: #b3400a; }
* { box-sizing: border-box; }
html { font-size: 100%; }
body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif;
       color: var(--ink); background: var(--paper); line-height: 1.45; }
a { color: var(--link); }
a:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; border-radius: 3px; }
.skip { position: absolute; left: -999px; top: 0; background: var(--paper); padding: .5rem 1rem; }
.skip:focus { left: .5rem; }
header, main, footer { max-width: 1760px; margin: 0 auto; padding: 0 2rem; }
header { padding-top: 1.1rem; display: flex; flex-wrap: wrap; align-items: baseline; gap: .4rem 1.5rem; }
h1 { font-size: 2.1rem; margin: 0; letter-spacing: -0.01em; }
.lede { margin: 0; font-size: 1.1rem; color: var(--soft); }
.start { margin: .9rem 0 .2rem; padding: .5rem .8rem; background: var(--band); border-left: 5px solid var(--link);
         border-radius: 4px; display: flex; align-items: center; gap: .8rem; }
.start h2 { font-size: 1.05rem; margin: 0; white-space: nowrap; }
.start ol { list-style: none; margin: 0; padding: 0; display: flex; flex: 1 1 auto; align-items: center;
           justify-content: space-between; }
.start li { display: flex; align-items: center; flex: 0 1 auto; min-width: 0; }
.start li + li::before { content: "→" / ""; padding: 0 .3rem; color: var(--soft); font-size: 1.1rem; }
.start ol a { display: block; padding: .15rem .2rem; line-height: 1.2; font-size: .98rem; }
.start ol a .n { font-weight: 700; }
.start .then { flex: none; margin: 0; white-space: nowrap; font-size: .98rem; }
.note { margin: .6rem 0 0; font-size: 1.05rem; }
.note kbd { font: inherit; font-weight: 600; border: 1px solid var(--line); border-bottom-width: 2px;
            border-radius: 4px; padding: 0 .3rem; background: var(--paper); }
.class { margin: .6rem 0 0; padding: .5rem 1rem; border: 2px solid var(--link); border-radius: 6px; font-size: 1.1rem; }
section h2 { font-size: 1.3rem; margin: 1.1rem 0 .5rem; }
.cards { list-style: none; margin: 0; padding: 0; display: grid; gap: 1rem; grid-template-columns: 1fr; }
@media (min-width: 560px) { .cards { grid-template-columns: repeat(2, 1fr); } }
@media (min-width: 860px) { .cards { grid-template-columns: repeat(3, 1fr); } }
@media (min-width: 1100px) { .cards { grid-template-columns: repeat(4, 1fr); } }
.card { position: relative; display: flex; flex-direction: column; border: 1px solid var(--line);
        border-radius: 8px; background: var(--paper); overflow: hidden; }
.card:hover { border-color: var(--link); box-shadow: 0 2px 8px rgba(0, 0, 0, .12); }
.card:focus-within { outline: 3px solid var(--focus); outline-offset: 2px; }
.card img { display: block; width: 100%; aspect-ratio: 2 / 1; object-fit: contain; background: var(--paper);
            border-bottom: 1px solid var(--line); }
.card .text { padding: .55rem .8rem .7rem; }
.card h3 { font-size: 1.1rem; margin: 0 0 .2rem; line-height: 1.25; }
.card h3 a { text-decoration: none; }
.card h3 a::after { content: ""; position: absolute; inset: 0; }
.card h3 a:focus-visible { outline: none; }
.card p { margin: 0; color: var(--soft); font-size: .98rem; }
.badge { display: inline-block; margin-top: .45rem; padding: .1rem .5rem; border-radius: 4px; font-size: .92rem;
         font-weight: 600; color: var(--deck); border: 2px solid var(--deck); }
.slides .badge { color: #ffffff; background: var(--deck); }
footer { margin-top: 1.5rem; padding-bottom: 1.5rem; color: var(--soft); font-size: .95rem; }
@media (min-width: 1700px) { html { font-size: 112.5%; } }
"""


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _card(card: Notebook, *, deck: bool, slides: bool, version: str) -> str:
    badge = ""
    if deck:
        badge = '<span class="badge">Slide deck</span>' if slides else '<span class="badge">Has a slide deck</span>'
    describedby = f"d{card.number}"
    return (
        f'<li class="card">'
        f'<img src="{_e(THUMBNAIL_PATH + card.file.removesuffix(".py"))}.png?v={_e(version)}" '
        f'alt="{_e(thumbnail_alt(card))}" width="{THUMBNAIL_WIDTH // 2}" height="{THUMBNAIL_WIDTH // 4}" loading="eager">'
        f'<div class="text"><h3><a href="{_e(card.url)}" aria-describedby="{describedby}">{_e(card.title)}</a></h3>'
        f'<p id="{describedby}">{_e(card.description)}</p>{badge}</div></li>'
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
    path_items = "".join(f'<li><a href="{_e(c.url)}"><span class="n">{_e(c.number)}</span> {_e(c.short_title)}</a></li>'
                         for c in path)
    then = ""
    if further:
        then = ('<p class="then">then ' + ", ".join(f'<a href="{_e(c.url)}">{_e(c.number)}</a>' for c in further)
                + "</p>")
    shown_decks = [c for c in notebooks if c.file in decks]
    notes = []
    if slides and shown_decks:
        notes.append(
            '<p class="note">Notebooks marked <strong>Slide deck</strong> open as lecture slides: '
            '<kbd>→</kbd> or <kbd>Space</kbd> shows the next step, <kbd>←</kbd> goes back, '
            '<kbd>S</kbd> opens the speaker view with the notes. The others open as pages.</p>'
        )
    elif shown_decks:
        notes.append(
            '<p class="note">Lecturers: <code>ndcg-lab slides</code> serves '
            + ", ".join(_e(c.number) for c in shown_decks)
            + " as slide decks (the cards marked <strong>Has a slide deck</strong>).</p>"
        )
    if class_url:
        notes.append(
            f'<p class="class">In class? Answer the lecturer\'s live questions at '
            f'<a href="{_e(class_url)}">the class questions</a>.</p>'
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
        f"<title>NDCG Lab</title><style>{_CSS}</style></head><body{body_class}>"
        '<a class="skip" href="#main">Skip to the chapters</a>'
        f'<header><h1>NDCG Lab</h1><p class="lede">{_e(lede)}</p></header>'
        f'<main id="main">{start}{"".join(notes)}{"".join(sections)}</main>'
        '<footer>Every chapter is a <a href="https://marimo.io">marimo</a> notebook: change an input '
        "and everything that depends on it recomputes.</footer>"
        "</body></html>\n"
    )


# ----------------------------------------------------------------------------------------------
# Thumbnails: each notebook's own figures (ndcg_core.ui.plots) on the lecture example; for the
# notebooks without a figure, a small honest picture of what the page shows, drawn with the
# numbers ndcg_core computes.

_ALT = {
    "01": "Gains and discounted gains per rank of the lecture example 1, 0, 2, 1, 0, with cumulative DCG and IDCG",
    "02": "Discounted gain per rank of 1, 0, 2, 1, 0 under linear and exponential gain",
    "03": "The discount curves by rank, 1/log2(i+1) highlighted",
    "04": "nDCG at every cutoff of the lecture example 1, 0, 2, 1, 0",
    "05": "Per-topic nDCG@10 of two toy systems, judged by a depth-10 pool and by the full truth",
    "06": "Every topic's nDCG@10 of the toy run 'tuned', and their mean",
    "07": "An answer box: DCG@5 of 1, 0, 2, 1, 0 answered 2.43 and checked right",
    "08": "A generated exam sheet: a seed, problems and a score",
    "09": "P@5 and AP next to nDCG@5 for 1, 0, 2, 1, 0 and the list with ranks 1 and 3 swapped",
    "10": "The lecture example's nDCG@5 under linear gain (trec_eval) and exponential gain: two numbers for one run",
    "11": "The course's claims, counted: how many are explained, demonstrated and exercised",
}


def thumbnail_alt(card: Notebook) -> str:
    """The thumbnail's text alternative: what the picture shows."""
    return _ALT.get(card.number, f"The title of chapter {card.title}")


def _picture(rows: Sequence[tuple[str, str, str]], title: str) -> Any:
    """A picture of the notebook's page: a heading and rows of (label, value, colour) in large type."""
    from . import plots

    with plots.projector_style():
        fig = plots.new_figure(10, 5)
        fig.text(0.05, 0.86, title, fontsize=30, fontweight="bold", color=plots.COLORS["text"], va="center")
        for i, (label, value, color) in enumerate(rows):
            y = 0.66 - i * 0.19
            fig.text(0.05, y, label, fontsize=26, color=plots.COLORS["text"], va="center")
            fig.text(0.95, y, value, fontsize=30, fontweight="bold", color=plots.COLORS[color], va="center", ha="right")
            fig.add_artist(_rule(fig, y - 0.095))
    return fig


def _rule(fig: Any, y: float) -> Any:
    from matplotlib.lines import Line2D

    from . import plots

    return Line2D([0.05, 0.95], [y, y], transform=fig.transFigure, color=plots.COLORS["grey"], linewidth=1)


def _figure(number: str, card: Notebook) -> Any:
    """The matplotlib figure of a notebook's thumbnail."""
    from ..labels import parse_labels
    from ..metrics import dcg, ndcg
    from ..trec.evaluate import evaluate_run
    from . import playground, plots

    if number in ("01", "04"):
        result = playground.evaluate(LECTURE_EXAMPLE)
        if number == "01":
            return plots.gains_per_rank(result.table, result.k)
        return plots.ndcg_at_cutoffs(result.curve, 5)
    if number == "02":
        return plots.contribution_bars(parse_labels(LECTURE_EXAMPLE), 5)
    if number == "03":
        return plots.discount_curves("log2", k=5, max_rank=10)
    if number in ("05", "06"):
        from ..teaching import pooling, toy

        collection = toy.read_toy_collection()
        if number == "06":
            evaluation = evaluate_run(collection.qrels, collection.runs["tuned"], "ndcg_cut.10")
            return plots.topic_strips({"toy: tuned": evaluation.per_topic["ndcg_cut_10"].tolist()},
                                      ylabel="nDCG@10 of one topic", title="Every topic's score, and their mean")
        pooled = pooling.pool_qrels(collection.qrels_full, {n: collection.runs[n] for n in ("classic", "tuned")}, 10)
        strips = {}
        for name in ("novel", "tuned"):
            for qrels, which in ((pooled, "pool"), (collection.qrels_full, "truth")):
                values = evaluate_run(qrels, collection.runs[name], "ndcg_cut.10", complete=True).per_topic["ndcg_cut_10"]
                strips[f"{name} · {which}"] = values.tolist()
        return plots.topic_strips(strips, ylabel="nDCG@10 of one topic", title="Pool depth 10: per-topic nDCG@10")
    labels = parse_labels(LECTURE_EXAMPLE)
    judged = [label for label in labels if label is not None]
    if number == "07":
        from ..teaching import exercises

        verdict = exercises.check("lecture-dcg", "2.43")
        return _picture([("DCG@5 of 1, 0, 2, 1, 0", "2.43", "text"),
                         ("Check", "Right" if verdict.correct else "Not yet", "green" if verdict.correct else "red"),
                         ("Worked solution", f"{dcg(labels, 5):.4f}", "blue")], "Exercises")
    if number == "08":
        from ..teaching import exam

        sheet = exam.generate_exam(2718)
        return _picture([("Seed", f"{sheet.seed}", "text"),
                         ("Problems", f"{len(sheet.problems)}", "text"),
                         ("Score", f"? / {len(sheet.problems)}", "blue")], "Exam practice")
    if number == "09":
        from ..teaching import claims

        swapped = claims.swapped(labels, 1, 3)
        table = claims.binary_table({"a": labels, "b": swapped}, 5, judgments=judged)
        a, b = table.iloc[0], table.iloc[1]
        return _picture([("P@5, both lists", f"{a['precision']:.2f} = {b['precision']:.2f}", "text"),
                         ("AP, both lists", f"{a['average_precision']:.2f} = {b['average_precision']:.2f}", "text"),
                         ("nDCG@5", f"{a['ndcg_linear']:.2f} vs {b['ndcg_linear']:.2f}", "orange")],
                        "Swap ranks 1 and 3")
    if number == "10":
        return _picture([("trec_eval: linear gain", f"{ndcg(labels, 5, judgments=judged):.4f}", "blue"),
                         ("exponential gain", f"{ndcg(labels, 5, judgments=judged, gain='exponential'):.4f}", "orange"),
                         ("same run, same k", "why?", "text")], "nDCG@5 of one run")
    if number == "11":
        from ..teaching import coverage

        table = coverage.coverage_table()
        counts = {column: int(table[column].astype(str).str.strip().astype(bool).sum())
                  for column in ("explained", "demonstrated", "exercised")}
        return _picture([(f"explained (of {len(table)} claims)", str(counts["explained"]), "blue"),
                         ("demonstrated live", str(counts["demonstrated"]), "green"),
                         ("exercised", str(counts["exercised"]), "orange")], "Claim coverage")
    return _picture([], card.title)


def thumbnail_png(card: Notebook) -> bytes:
    """The notebook's thumbnail as a PNG, :data:`THUMBNAIL_WIDTH` pixels wide (palette colours)."""
    from PIL import Image

    fig = _figure(card.number, card)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=THUMBNAIL_WIDTH / fig.get_figwidth(), facecolor="white")
    image = Image.open(io.BytesIO(buffer.getvalue())).convert("RGB").quantize(colors=96, method=Image.Quantize.MEDIANCUT)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _version() -> str:
    """A digest of what the thumbnails are drawn from: ndcg_core's source, its data files (name,
    size, time) and matplotlib's version. A change to any gives new URLs and a new disk folder."""
    from importlib.metadata import PackageNotFoundError, version

    from ..teaching.paths import DATA_DIR

    digest = hashlib.sha256()
    try:
        digest.update(version("matplotlib").encode())
    except PackageNotFoundError:
        pass
    package = Path(__file__).resolve().parents[1]
    for path in sorted(package.rglob("*.py")):
        try:
            digest.update(path.read_bytes())
        except OSError:
            pass
    for path in sorted(Path(DATA_DIR).rglob("*")):
        try:
            info = path.stat()
        except OSError:
            continue
        digest.update(f"{path.relative_to(DATA_DIR)}:{info.st_size}:{info.st_mtime_ns}".encode())
    return digest.hexdigest()[:12]


def _cache_root() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "ndcg-lab" / "thumbnails"


class Thumbnails:
    """The thumbnails of one folder of notebooks: drawn once per process, kept on disk too.

    ``cache`` is the disk folder (default ``~/.cache/ndcg-lab/thumbnails/<version>``; ``None``
    keeps them in memory only). A disk that cannot be written is not an error: the thumbnails
    are then drawn once per process. Drawing holds one lock (matplotlib's settings are global).
    """

    def __init__(self, notebooks: Sequence[Notebook], *, cache: Path | None | str = "default") -> None:
        self.version = _version()
        self.notebooks = {card.file.removesuffix(".py"): card for card in notebooks}
        self.cache = (_cache_root() / self.version) if cache == "default" else (Path(cache) if cache else None)
        self._done: dict[str, bytes] = {}
        self._lock = threading.Lock()
        self._prefetching = False

    def get(self, stem: str) -> bytes | None:
        """The PNG of notebook ``stem`` (``'01_playground'``), or None for no such notebook."""
        card = self.notebooks.get(stem)
        if card is None:
            return None
        with self._lock:
            if stem in self._done:
                return self._done[stem]
            data = self._read(stem)
            if data is None:
                data = thumbnail_png(card)
                self._write(stem, data)
            self._done[stem] = data
            return data

    def prefetch(self) -> None:
        """Draw every thumbnail in a background thread (once), so they are ready when asked for."""
        with self._lock:
            if self._prefetching:
                return
            self._prefetching = True

        def run() -> None:
            for stem in self.notebooks:
                try:
                    self.get(stem)
                except Exception:  # noqa: BLE001 - the request for it shows the error
                    pass

        # not a daemon: a server stopping in the middle waits for the picture being drawn (well
        # under a second) instead of killing the thread inside matplotlib's C++ code
        threading.Thread(target=run, name="ndcg-lab-thumbnails", daemon=False).start()

    def _read(self, stem: str) -> bytes | None:
        if self.cache is None:
            return None
        try:
            data = (self.cache / f"{stem}.png").read_bytes()
        except OSError:
            return None
        return data if data.startswith(b"\x89PNG") else None

    def _write(self, stem: str, data: bytes) -> None:
        if self.cache is None:
            return
        try:
            self.cache.mkdir(parents=True, exist_ok=True)
            partial = self.cache / f".{stem}.{os.getpid()}.{threading.get_ident()}.tmp"
            partial.write_bytes(data)
            os.replace(partial, self.cache / f"{stem}.png")
        except OSError:
            pass


# ----------------------------------------------------------------------------------------------
# The middleware

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


def class_questions_url(setting: str | None, host_header: str | None) -> str | None:
    """Where students find the class questions: ``setting`` as :data:`CLASS_URL_ENV` holds it
    (``/class/``, or ``:PORT/class/`` meaning this host on that port), resolved for the address
    the visitor used (``host_header``).

    >>> class_questions_url("/class/", "10.0.0.5:2718")
    '/class/'
    >>> class_questions_url(":2719/class/", "10.0.0.5:2718"), class_questions_url(":2719/class/", "[::1]:2718")
    ('http://10.0.0.5:2719/class/', 'http://[::1]:2719/class/')
    >>> class_questions_url(None, "x") is None
    True
    """
    if not setting:
        return None
    if not setting.startswith(":"):
        return setting
    host = (host_header or "127.0.0.1").strip()
    if host.startswith("["):
        host = host[: host.find("]") + 1] if "]" in host else "127.0.0.1"
    else:
        host = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    if not re.fullmatch(r"[A-Za-z0-9.\-]+|\[[0-9A-Fa-f:.]+\]", host):
        host = "127.0.0.1"
    return f"http://{host}{setting}"


class FrontDoor:
    """ASGI middleware: NDCG Lab's front page at ``GET /`` (no ``file=``), thumbnails under
    :data:`THUMBNAIL_PATH`; every other request goes to ``app`` (marimo) untouched.

    It runs inside marimo's authentication: a visitor who has not logged in (a password-protected
    server) is passed to marimo, which sends them to its login page; a URL that still carries
    marimo's ``access_token`` is passed on too (marimo strips it and comes back to ``/``).
    """

    def __init__(self, app: Callable[..., Awaitable[None]], folder: str | os.PathLike[str] | None = None, *,
                 slides: bool | None = None, class_url: str | None = None,
                 thumbnails: Thumbnails | None = None, environ: Mapping[str, str] | None = None) -> None:
        environ = os.environ if environ is None else environ
        self.app = app
        self.folder = notebooks_dir() if folder is None else Path(folder)
        self.notebooks = read_notebooks(self.folder)
        self.decks = deck_names(self.folder)
        if slides is None:  # ndcg-lab slides: its flag, or the copies it serves naming their layouts
            slides = environ.get(DECK_ENV) == "1" or any(_has_slides_layout(self.folder / c.file) for c in self.notebooks)
        self.slides = slides
        self.class_setting = environ.get(CLASS_URL_ENV) if class_url is None else class_url
        self.thumbnails = thumbnails if thumbnails is not None else Thumbnails(self.notebooks)
        self._pages: dict[str | None, bytes] = {}

    def page(self, host_header: str | None = None) -> bytes:
        """The front page's bytes for a visitor who reached the server as ``host_header``."""
        class_url = class_questions_url(self.class_setting, host_header)
        if class_url not in self._pages:
            self._pages[class_url] = page_html(self.notebooks, slides=self.slides, decks=self.decks,
                                               class_url=class_url, version=self.thumbnails.version).encode("utf-8")
        return self._pages[class_url]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("type") != "http" or scope.get("method") not in ("GET", "HEAD") or not self.notebooks:
            await self.app(scope, receive, send)
            return
        root = scope.get("root_path", "") or ""
        path = scope.get("path", "")
        if root and path.startswith(root):
            path = path[len(root):] or "/"
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        # marimo's authentication middleware runs first and leaves its verdict in scope["auth"]
        allowed = "auth" not in scope or "read" in getattr(scope["auth"], "scopes", ())
        if path == "/" and "file" not in query and "access_token" not in query and allowed:
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
            body = self.page(headers.get("host"))
            self.thumbnails.prefetch()
            await _respond(send, scope, 200, body, "text/html; charset=utf-8", "no-cache")
            return
        if path.startswith(THUMBNAIL_PATH) and allowed:
            stem = path[len(THUMBNAIL_PATH):].removesuffix(".png")
            if not path.endswith(".png") or stem not in self.thumbnails.notebooks:
                await _respond(send, scope, 404, b"No such thumbnail.", "text/plain; charset=utf-8", "no-store")
                return
            try:
                data = await asyncio.get_running_loop().run_in_executor(None, self.thumbnails.get, stem)
            except Exception as err:  # noqa: BLE001 - a broken picture must not break the server
                message = f"The thumbnail of {stem} could not be drawn: {type(err).__name__}: {err}"
                await _respond(send, scope, 500, message.encode(), "text/plain; charset=utf-8", "no-store")
                return
            assert data is not None
            await _respond(send, scope, 200, data, "image/png", "public, max-age=31536000, immutable")
            return
        await self.app(scope, receive, send)


async def _respond(send: Send, scope: Scope, status: int, body: bytes, media_type: str, cache: str) -> None:
    await send({
        "type": "http.response.start",
        "status": status,
        "headers": [
            (b"content-type", media_type.encode()),
            (b"content-length", str(len(body)).encode()),
            (b"cache-control", cache.encode()),
            (b"x-content-type-options", b"nosniff"),
        ],
    })
    await send({"type": "http.response.body", "body": b"" if scope.get("method") == "HEAD" else body})


# ----------------------------------------------------------------------------------------------
# marimo's own page chrome around every notebook

#: What every notebook page gets in its ``<head>`` (marimo's server-wide ``html_head``), to fix
#: three accessibility faults of marimo 0.25's own chrome that axe-core reports:
#: the grey "Back" link (``text-muted-foreground`` at 80% opacity: under 4.5:1) gets full
#: opacity and a darker grey; the page menu button (top right, an icon without a name) gets
#: ``aria-label="Notebook menu"``; marimo's root element becomes the page's ``main`` landmark,
#: so the cells are inside one. The script only sets attributes marimo leaves unset, when its
#: elements appear; it changes nothing else.
CHROME_HEAD = """<style id="ndcg-lab-chrome">
a[aria-label="Back to gallery"] { opacity: 1 !important; color: #3d4756 !important; }
</style>
<script id="ndcg-lab-chrome-names">
(() => {
  const name = () => {
    const root = document.getElementById("root");
    if (root && !root.hasAttribute("role")) root.setAttribute("role", "main");
    for (const button of document.querySelectorAll('[data-testid="notebook-actions-dropdown"] > button:not([aria-label])')) {
      button.setAttribute("aria-label", "Notebook menu");
    }
  };
  new MutationObserver(name).observe(document.documentElement, {childList: true, subtree: true});
  document.addEventListener("DOMContentLoaded", name);
})();
</script>""" + STALE_HEAD  # and a verdict fades while its answer box is edited (ui/stale.py)


@contextlib.asynccontextmanager
async def chrome_fixes(app: Any) -> AsyncIterator[None]:
    """A lifespan for marimo's Starlette app: adds :data:`CHROME_HEAD` to its ``html_head``
    (the HTML marimo puts into the ``<head>`` of every notebook page it serves)."""
    head = getattr(app.state, "html_head", None) or ""
    if CHROME_HEAD not in head:
        app.state.html_head = head + CHROME_HEAD
    yield
