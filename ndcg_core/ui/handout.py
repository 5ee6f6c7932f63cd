"""``ndcg-lab handout``: a PDF per slide deck, every slide in its final state with its notes.

::

    ndcg-lab handout                  # writes handouts/NN_name.pdf in the current folder
    ndcg-lab handout --out DIR
    ndcg-lab handout --deck 01,04     # only the decks of chapters 01 and 04

It starts ``ndcg-lab slides`` on a free loopback port (the decks exactly as a lecture shows
them), opens each deck in the project's Chromium (``/usr/bin/chromium`` through Playwright,
the same browser the tests drive; never ``playwright install``) at 1280x720, presses the right
arrow until every fragment of a slide is shown, takes a picture of that final state and reads
the slide's speaker notes (marimo writes them as ``aside.notes``). The picture is the slide
alone: marimo's Back link, reveal.js' arrows and progress bar and marimo's "Scroll for more"
badge are hidden first. The pictures and the notes are laid out one slide per A4 landscape
page and printed with Chromium's ``page.pdf``; each slide's text lies over its picture as an
invisible text layer, so the PDF can be searched and its text copied.
The server is stopped when it is done, also on an error. It runs with ``NDCG_LAB_HANDOUT=1``,
so a slide that reveals the ideal ranking or a worked solution one rank per press is printed
with every rank shown.

Playwright (the Python package) is needed at run time; without it, or without Chromium, the
command says so and exits with status 2.
"""

from __future__ import annotations

import base64
import html
import os
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..infra.processes import free_port, stop_process_tree

__all__ = ["Slide", "handout_html", "write_handouts", "run", "CHROMIUM", "CHROMIUM_ARGS", "VIEWPORT"]

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: The projector size the slides are pictured at.
VIEWPORT = {"width": 1280, "height": 720}
#: Set to "1" for the deck server the handout starts, so step-by-step slides (the ideal ranking,
#: worked solutions revealed one rank per press) are printed with every rank shown. The same
#: name as :data:`ndcg_core.ui.deck.HANDOUT_ENV` (this module never imports marimo).
HANDOUT_ENV = "NDCG_LAB_HANDOUT"
SERVER_START_TIMEOUT = 120.0
#: Generous: a cold kernel on a loaded machine takes many seconds to run a deck.
SETTLE_TIMEOUT_MS = 120_000


@dataclass
class Slide:
    """One slide of a deck: its number, its picture (PNG bytes), its speaker notes and the text
    it shows (for the PDF's search layer)."""

    number: int
    png: bytes
    notes: list[str] = field(default_factory=list)
    text: str = ""


def handout_html(title: str, slides: Sequence[Slide]) -> str:
    """The handout as one HTML page per slide (A4 landscape): the picture, then the notes.

    >>> page = handout_html("01 · Playground", [Slide(1, b"png", ["Say <this>."], "DCG@5 = 2.4307")])
    >>> "Slide 1 of 1" in page and "Say &lt;this&gt;." in page and "DCG@5 = 2.4307</div>" in page
    True
    """
    pages = []
    for slide in slides:
        image = base64.b64encode(slide.png).decode("ascii")
        notes = "".join(f"<p>{html.escape(note)}</p>" for note in slide.notes) or '<p class="none">No notes on this slide.</p>'
        pages.append(
            f'<section class="page"><header>{html.escape(title)} · Slide {slide.number} of {len(slides)}</header>'
            f'<div class="slide"><img src="data:image/png;base64,{image}" alt="Slide {slide.number}">'
            f'<div class="slide-text">{html.escape(slide.text)}</div></div>'
            f'<div class="notes"><h2>Notes</h2>{notes}</div></section>'
        )
    return (
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{html.escape(title)}</title><style>"
        "@page { size: A4 landscape; margin: 10mm; }"
        "body { font-family: sans-serif; margin: 0; color: #222; }"
        ".page { page-break-after: always; break-after: page; }"
        ".page:last-child { page-break-after: auto; break-after: auto; }"
        "header { font-size: 11pt; color: #444; margin-bottom: 3mm; }"
        "img { width: 200mm; border: 1px solid #999; display: block; }"
        # the slide's text over its picture, invisible: found by a search, copied with the mouse
        ".slide { position: relative; width: 200mm; }"
        ".slide-text { position: absolute; inset: 0; overflow: hidden; color: transparent; font-size: 9pt;"
        " line-height: 1.2; padding: 6mm; white-space: pre-wrap; }"
        ".notes h2 { font-size: 12pt; margin: 3mm 0 1mm; }"
        ".notes p { font-size: 11pt; line-height: 1.35; margin: 0 0 2mm; }"
        ".notes .none { color: #555; }"
        "</style></head><body>" + "".join(pages) + "</body></html>"
    )


_STATE_JS = r"""
() => {
  const s = [...document.querySelectorAll('.reveal .slides > section')];
  const i = s.findIndex((x) => x.classList.contains('present'));
  const hidden = i < 0 ? 0 : s[i].querySelectorAll('.fragment:not(.visible)').length;
  return [i, s.length, document.querySelectorAll('.reveal .fragment.visible').length, hidden];
}
"""
_NOTES_JS = r"""
() => {
  const s = document.querySelector('.reveal .slides > section.present');
  // marimo repeats a slide's notes in each fragment of it, not always with the same white
  // space: print each text once, in order, compared with its runs of white space folded
  return s ? [...new Set([...s.querySelectorAll('aside.notes')].map((a) => a.textContent.replace(/\s+/g, ' ').trim()).filter(Boolean))] : [];
}
"""
#: What a handout leaves out of the pictures: marimo's Back link and menu, reveal.js' arrows and
#: progress bar; marimo's "Scroll for more" badge is hidden by :data:`_UNBADGE_JS`.
_PRINT_CSS = """
a[aria-label="Back to gallery"], [data-testid="notebook-actions-dropdown"] { visibility: hidden !important; }
.reveal .controls, .reveal .progress, .reveal .controls * { display: none !important; }
"""
#: A slide whose content is taller than the slide (a worked solution printed with every step)
#: is zoomed out to fit for its picture, then put back: the printed page is read from close by.
_FIT_JS = r"""
(fit) => {
  const s = document.querySelector('.reveal .slides > section.present [data-testid="slide-scroll-container"]');
  const inner = s && s.firstElementChild;
  if (!inner) return 1;
  if (!fit) { inner.style.zoom = ''; return 1; }
  inner.style.zoom = '';
  const scale = s.scrollHeight > s.clientHeight + 2 ? s.clientHeight / s.scrollHeight : 1;
  if (scale < 1) inner.style.zoom = String(scale);
  return scale;
}
"""
_UNBADGE_JS = r"""
() => {
  for (const e of document.querySelectorAll('.reveal .slides > section.present *')) {
    if (e.children.length === 0 && /^\s*scroll for more\s*$/i.test(e.textContent)) {
      const badge = e.closest('[class*="absolute"], [class*="fixed"]') || e;
      badge.style.visibility = 'hidden';
    }
  }
}
"""
#: The text the present slide shows (its notes and hidden fragments left out), one line a block.
_TEXT_JS = r"""
() => {
  const s = document.querySelector('.reveal .slides > section.present');
  if (!s) return '';
  const copy = s.cloneNode(true);
  copy.querySelectorAll('aside.notes, script, style').forEach((e) => e.remove());
  // marimo's "Scroll for more" badge is chrome, not the slide's text (it may appear after the
  // picture's _UNBADGE_JS ran, when marimo re-measures the slide)
  for (const e of [...copy.querySelectorAll('*')]) {
    if (copy.contains(e) && e.children.length === 0 && /^\s*scroll for more\s*$/i.test(e.textContent))
      (e.closest('[class*="absolute"], [class*="fixed"]') || e).remove();
  }
  copy.style.cssText = 'position:absolute;left:-99999px;top:0;width:1100px;display:block';
  document.body.appendChild(copy);
  const text = copy.innerText.replace(/\n{3,}/g, '\n\n').trim();
  copy.remove();
  return text;
}
"""
#: The slide's box on the screen: the picture is clipped to it.
_BOX_JS = r"""
() => {
  const r = document.querySelector('.reveal');
  if (!r) return null;
  const b = r.getBoundingClientRect();
  return {x: Math.max(0, b.x), y: Math.max(0, b.y), width: Math.min(b.width, innerWidth), height: Math.min(b.height, innerHeight)};
}
"""
_STILL_JS = r"""
() => {
  const slides = document.querySelector('.reveal .slides');
  return !slides || slides.getAnimations({ subtree: true }).length === 0;
}
"""
_SETTLED_JS = r"""
() => {
  const app = document.querySelector('[data-connection-state]');
  if (!app || app.getAttribute('data-connection-state') !== 'OPEN') return false;
  return document.querySelectorAll('.marimo-output-stale, .marimo-output-loading').length === 0
    && document.querySelectorAll('.reveal .slides > section').length > 0;
}
"""
_BLUR_JS = r"""
() => {
  let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  if (a && a !== document.body && a.blur) a.blur();
}
"""


def distinct_notes(notes: Sequence[str]) -> list[str]:
    """Each note of a slide once: marimo repeats a slide's notes in its fragments, and may write
    a fragment's notes as the slide's own with the fragment's run on (no space between them).

    >>> distinct_notes(["Say A.Then B.", "Say A.", "Say A."])
    ['Say A.', 'Then B.']
    """
    kept: list[str] = []
    for note in sorted(dict.fromkeys(" ".join(n.split()) for n in notes if n.strip()), key=len):
        for earlier in sorted(kept, key=len, reverse=True):
            if note.startswith(earlier):
                note = note[len(earlier):].strip()
        if note and note not in kept:
            kept.append(note)
    return kept


def _picture(page: object, number: int) -> Slide:
    """The present slide as it is shown, without the page's chrome, with its notes and text."""
    if page.evaluate(_FIT_JS, True) < 1:  # type: ignore[attr-defined]
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")  # type: ignore[attr-defined]
    page.evaluate(_UNBADGE_JS)  # type: ignore[attr-defined]
    box = page.evaluate(_BOX_JS)  # type: ignore[attr-defined]
    png = page.screenshot(clip=box) if box and box["width"] > 0 and box["height"] > 0 else page.screenshot()  # type: ignore[attr-defined]
    page.evaluate(_FIT_JS, False)  # type: ignore[attr-defined]
    return Slide(number, png, distinct_notes(page.evaluate(_NOTES_JS)), page.evaluate(_TEXT_JS))  # type: ignore[attr-defined]


def _deck_slides(page: object, url: str, count: int) -> list[Slide]:
    """Open one deck of ``count`` slides and picture every slide once all its fragments are shown.

    A slide appears once its cells have output, so the deck is ready when all ``count`` are there.
    """
    page.goto(url)  # type: ignore[attr-defined]
    page.wait_for_function(  # type: ignore[attr-defined]
        f"() => ({_SETTLED_JS.strip()})() && document.querySelectorAll('.reveal .slides > section').length >= {count}",
        timeout=SETTLE_TIMEOUT_MS,
        polling=200,
    )
    page.add_style_tag(content=_PRINT_CSS)  # type: ignore[attr-defined]
    slides: list[Slide] = []
    for _ in range(200):
        index, total, revealed, hidden = page.evaluate(_STATE_JS)  # type: ignore[attr-defined]
        page.wait_for_function(_STILL_JS, polling="raf")  # type: ignore[attr-defined]
        if hidden == 0 and (not slides or slides[-1].number != index + 1):
            page.wait_for_function(_SETTLED_JS, timeout=SETTLE_TIMEOUT_MS, polling=200)  # type: ignore[attr-defined]
            slides.append(_picture(page, index + 1))
        if index == total - 1 and hidden == 0:
            return slides
        before = [index, total, revealed, hidden]
        for attempt in range(3):  # a key press that lands while the page re-renders can be lost: press again
            page.evaluate(_BLUR_JS)  # type: ignore[attr-defined]
            page.keyboard.press("ArrowRight")  # type: ignore[attr-defined]
            try:
                page.wait_for_function(  # type: ignore[attr-defined]
                    f"(b) => JSON.stringify(({_STATE_JS.strip()})()) !== JSON.stringify(b)", arg=before,
                    polling="raf", timeout=15_000,
                )
                break
            except Exception:
                if attempt == 2:
                    raise RuntimeError(f"{url}: the deck did not move on from slide {index + 1}") from None
    raise RuntimeError(f"{url}: the deck did not end within 200 arrow presses")


def write_handouts(base_url: str, decks: Sequence[tuple[str, str, int]], out: Path) -> list[Path]:
    """For each ``(file name, title, slide count)`` of ``decks`` served at ``base_url``, write
    ``out/<stem>.pdf``."""
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    written = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            for filename, title, count in decks:
                context = browser.new_context(viewport=VIEWPORT)
                try:
                    slides = _deck_slides(context.new_page(), f"{base_url}/?file={filename}", count)
                    printer = context.new_page()
                    printer.set_content(handout_html(title, slides), wait_until="load")
                    target = out / f"{Path(filename).stem}.pdf"
                    printer.pdf(path=str(target), format="A4", landscape=True, print_background=True)
                    written.append(target)
                finally:
                    context.close()
        finally:
            browser.close()
    return written


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
        return False


def _deck_titles(folder: Path) -> list[tuple[str, str, int]]:
    """The decks of ``folder`` (``notebooks/decks``, each with ``layouts/<name>.slides.json``):
    file name, title (the front page's), number of slides."""
    import json

    from .front import read_notebook

    decks = []
    for layout in sorted((folder / "layouts").glob("*.slides.json")):
        notebook = folder / layout.name.replace(".slides.json", ".py")
        if not notebook.is_file():
            continue
        cells = json.loads(layout.read_text(encoding="utf-8"))["data"]["cells"]
        decks.append((notebook.name, read_notebook(notebook).title, sum(cell.get("type") == "slide" for cell in cells)))
    return decks


def select_decks(decks: Sequence[tuple[str, str, int]], wanted: str | None) -> list[tuple[str, str, int]]:
    """The decks ``wanted`` names (chapter numbers or file names, separated by commas), in order;
    all of them for None or ""; ValueError naming what is offered for a name that matches none.

    >>> decks = [("01_playground.py", "01", 9), ("04_ideal_list.py", "04", 12)]
    >>> [d[0] for d in select_decks(decks, "04")]
    ['04_ideal_list.py']
    >>> select_decks(decks, "07")
    Traceback (most recent call last):
    ...
    ValueError: no slide deck is called '07'; the decks are 01, 04 (a chapter number or a file name such as 01_playground.py)
    """
    if not wanted or not wanted.strip():
        return list(decks)
    chosen = []
    for name in (part.strip() for part in wanted.split(",") if part.strip()):
        match = [d for d in decks if d[0] == name or d[0].removesuffix(".py") == name or d[0][:2] == name.zfill(2)]
        if not match:
            offered = ", ".join(d[0][:2] for d in decks)
            raise ValueError(f"no slide deck is called {name!r}; the decks are {offered} "
                             f"(a chapter number or a file name such as {decks[0][0]})")
        chosen += [d for d in match if d not in chosen]
    return chosen


def run(out: Path, *, folder: Path, only: str | None = None) -> int:
    """Serve the decks (``only`` those :func:`select_decks` picks), write a handout per deck into
    ``out``, stop the server; the exit status."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        print("ndcg-lab handout: needs the optional Python package playwright, which NDCG Lab's [handout] extra "
              "installs: pip install 'ndcg-lab[handout]' (in a checkout: .venv/bin/pip install -e '.[handout]'). "
              "It drives Debian's Chromium (apt-get install chromium); it never downloads a browser.",
              file=sys.stderr)
        return 2
    if not CHROMIUM.exists():
        print(f"ndcg-lab handout: needs Chromium at {CHROMIUM} (apt-get install chromium).", file=sys.stderr)
        return 2
    decks = _deck_titles(folder)
    if not decks:
        print(f"ndcg-lab handout: no slide decks in {folder / 'layouts'}.", file=sys.stderr)
        return 2
    try:
        decks = select_decks(decks, only)
    except ValueError as err:
        print(f"ndcg-lab handout --deck: {err}.", file=sys.stderr)
        return 2
    port = free_port()
    log = tempfile.TemporaryFile()
    server = subprocess.Popen(
        [sys.executable, "-m", "ndcg_core.ui.lab", "slides", "--port", str(port), "--headless"],
        stdout=log,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
        env={**os.environ, HANDOUT_ENV: "1"},
    )
    base_url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        while not _answers(base_url + "/"):
            if server.poll() is not None:
                log.seek(0)
                error = log.read().decode(errors="replace")[-2000:]
                print(f"ndcg-lab handout: the slides server stopped: {error.strip()}", file=sys.stderr)
                return 2
            if time.monotonic() > deadline:
                print(f"ndcg-lab handout: the slides server did not answer within {SERVER_START_TIMEOUT:g} s.", file=sys.stderr)
                return 2
            time.sleep(0.2)  # polling the condition above
        written = write_handouts(base_url, decks, out)
    finally:
        stop_process_tree(server, grace=20)
        log.close()
    for path in written:
        print(f"wrote {path}")
    return 0
