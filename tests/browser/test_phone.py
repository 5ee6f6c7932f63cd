"""Every page on a phone: the front page and every notebook at 390x844 and 360x640, in Chromium
as a phone (touch, device scale 3, the mobile viewport).

For each page and size (one ``ndcg-lab`` server for the module):

- the page does not scroll sideways: the document is no wider than the screen, the phone did
  not zoom the page out to fit something wider, and marimo's frame (``#App``) has nothing to
  scroll sideways;
- no visible text or control ends past the right edge unless a box that scrolls on its own
  holds it (a wide table, a long formula): :data:`phone.OVERFLOW_JS`;
- every control a finger presses is at least 24x24 CSS px (WCAG 2.2, 2.5.8) and none overlaps
  another: :data:`phone.TARGETS_JS`;
- every plot fills the width it has and its smallest text is drawn at 8 CSS px or more;
- the first visit downloads at most :data:`FIRST_VISIT_BUDGET` bytes (HTTP bodies as sent;
  the kernel's WebSocket messages until the page settled, budgeted apart): the README gives the figures.
  The pages share one phone browser context, so marimo's frontend is downloaded and compiled
  once for the module: a body a page gets from that context's cache counts the bytes it took
  when it was downloaded (:class:`Downloads`), what a first visit to that page downloads;
- a screenshot of the whole page goes to ``tests/artifacts/phone/<page>_<w>x<h>.png``.

One page at a time while developing: ``pytest tests/browser/test_phone.py -k 01_playground``.

Page loads (each costs Chromium 6-8 CPU-seconds): one per page, the least a first visit of each
allows. A page is opened once, at 390x844, and then laid out again at 360x640 (no reload; the
checks wait until the new layout has settled, :func:`_resize`). One test per page, looping over
the sizes and reporting the problems of every size (each line names it), rather than a test per
size: a first visit happens once per page, so a second size's test would depend on the first's
page, and a test that needs another test to have run first breaks under ``-k`` or pytest-xdist.
The two answer-box tests on 07 go on the page 07's test leaves open (:func:`exercises_phone`;
each first chooses its own exercise, and 07 makes new answer widgets for every exercise, so
neither sees what the other typed); run on their own, or after 07's test failed, they open 07
themselves. The three are one pytest-xdist group (:data:`SHARES_07`), so that under
``--dist loadgroup`` they run in one process, in this order.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from marimo_page import assert_no_traceback, open_notebook, run_and_settle, select_option, wait_for_text, wait_settled
from phone import ON_A_PHONE, OVERFLOW_JS, PLOTS_JS, SLIDERS_JS, TARGETS_JS
from playwright.sync_api import Page, expect

import ndcg_core as nc
from ndcg_core.ui.plots import ranking

REPO = Path(__file__).resolve().parents[2]
SIZES = [(390, 844), (360, 640)]
#: The front page, then every notebook (chapters added later are picked up here).
PAGES = ["front"] + sorted(p.name for p in (REPO / "notebooks").glob("[0-9][0-9]_*.py"))
#: WCAG 2.2 target size (minimum), CSS px.
MIN_TARGET = 24
#: A plot's smallest text as drawn on a phone, CSS px (its 18 pt labels at 100 dpi are 25 px
#: at the picture's natural width; a phone shows them near a third of that, pinch-zoom enlarges).
MIN_PLOT_TEXT_PX = 8.0
#: The shortest slider track a finger can set a value on (CSS px).
MIN_SLIDER_PX = 120
#: What a phone may download on its first visit to a page, in bytes: HTTP (the front page; for a
#: notebook, marimo's frontend, about 7.2 MB measured) and the notebook's outputs over the
#: WebSocket (35-220 kB for 01-11; 12 sends about 950 kB). The README has the figures. A page
#: over either fails, so growth is noticed.
FIRST_VISIT_BUDGET = {"front": 150_000, "notebook": 7_600_000, "outputs": 1_000_000}


@pytest.fixture(scope="module")
def phone_context(chromium: object):  # type: ignore[no-untyped-def]
    """One phone browser context for the module (at the first size of :data:`SIZES`), so that
    marimo's frontend is downloaded and compiled once, not once per page: every body it
    downloads is counted in :data:`SENT` as it arrives (see :class:`Downloads`)."""
    width, height = SIZES[0]
    context = chromium.new_context(viewport={"width": width, "height": height}, **ON_A_PHONE)  # type: ignore[attr-defined]
    context.set_default_timeout(90_000)
    context.on("requestfinished", _count_sent)
    try:
        yield context
    finally:
        context.close()


#: The notebook whose page :func:`test_page_fits_a_phone` leaves open for the answer-box tests.
EXERCISES = "07_exercises.py"
#: 07's layout test and the two answer-box tests that reuse its page: one pytest-xdist group.
SHARES_07 = pytest.mark.xdist_group(name="test_phone.py::07_exercises")


def _new_phone_page(phone_context: object) -> Page:
    """A new page in the module's phone context, at the first size of :data:`SIZES`."""
    width, height = SIZES[0]
    page = phone_context.new_page()  # type: ignore[attr-defined]
    page.set_viewport_size({"width": width, "height": height})
    return page


def _close(page: Page, phone_context: object) -> None:
    """Close ``page`` and forget what it stored (only the HTTP and code caches stay shared)."""
    try:
        if not page.is_closed() and page.url.startswith("http"):
            page.evaluate("() => { try { localStorage.clear(); sessionStorage.clear(); } catch (e) {} }")
    except Exception:  # a page the test closed or crashed: nothing to forget
        pass
    page.close()
    phone_context.clear_cookies()  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def kept_pages(phone_context: object):  # type: ignore[no-untyped-def]
    """Pages a passing test left open for later tests of the module, by notebook (only
    :data:`EXERCISES`); closed when the module ends."""
    pages: dict[str, Page] = {}
    try:
        yield pages
    finally:
        for page in pages.values():
            _close(page, phone_context)


def _release(page: Page, phone_context: object, kept: dict[str, Page], failed: bool) -> None:
    """After a test: a page left in ``kept`` stays open for the next test, unless the test
    failed (its page may be left half-way: the next test opens its own); any other is closed."""
    name = next((name for name, kept_page in kept.items() if kept_page is page), None)
    if name is not None and not failed:
        return
    if name is not None:
        del kept[name]
    _close(page, phone_context)


@pytest.fixture
def phone(phone_context: object, kept_pages: dict[str, Page], request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    """A fresh page in the module's phone context, at the first size of :data:`SIZES` (cookies
    and storage are cleared when it closes; only the HTTP and code caches are shared). The test
    may leave it open for a later one by putting it in ``kept_pages``."""
    page = _new_phone_page(phone_context)
    failed_before = request.session.testsfailed
    try:
        yield page
    finally:
        _release(page, phone_context, kept_pages, request.session.testsfailed > failed_before)


@pytest.fixture
def exercises_phone(lab_server: str, phone_context: object, kept_pages: dict[str, Page],
                    request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    """07 on a phone at the first size of :data:`SIZES`: the page 07's layout test (or an
    earlier answer-box test) left open, laid out again at that size, or else 07 opened afresh
    (a test run on its own, or after the test that had the page failed)."""
    page = kept_pages.get(EXERCISES)
    fresh = page is None or page.is_closed()
    if fresh:
        page = kept_pages[EXERCISES] = _new_phone_page(phone_context)
    try:
        if fresh:
            _open(page, lab_server, EXERCISES)
        else:
            wait_settled(page)
        width, height = SIZES[0]
        _resize(page, EXERCISES, width, height)
        assert_no_traceback(page)
    except BaseException:
        _release(page, phone_context, kept_pages, failed=True)
        raise
    failed_before = request.session.testsfailed
    try:
        yield page
    finally:
        _release(page, phone_context, kept_pages, request.session.testsfailed > failed_before)


#: The bytes each URL's body took as sent (compressed if it was), from the time the module's
#: phone context downloaded it: a later page gets it from the context's cache, and its first
#: visit would have downloaded the same bytes.
SENT: dict[str, int] = {}


def _count_sent(request: object) -> None:
    """Note the bytes of a body the context downloaded (one from its cache has no size: -1 or 0)."""
    size = int(request.sizes()["responseBodySize"])  # type: ignore[attr-defined]
    if size > 0:
        SENT[request.url] = size  # type: ignore[attr-defined]


class Downloads:
    """Counts the bytes a page downloads on a first visit: HTTP bodies as sent (compressed if
    they were; a body the module's context already had in its cache counts the bytes it took
    when it was downloaded, :data:`SENT`) and the WebSocket messages the server sends (a
    notebook's outputs come that way)."""

    def __init__(self, page: Page) -> None:
        self.requests: list[object] = []
        self.socket_bytes = 0
        page.on("requestfinished", lambda request: self.requests.append(request))
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _frame(self, payload: str | bytes) -> None:
        self.socket_bytes += len(payload.encode("utf-8") if isinstance(payload, str) else payload)

    def http_bytes(self) -> int:
        sizes = (int(r.sizes()["responseBodySize"]) for r in self.requests)  # type: ignore[attr-defined]
        # a body from the cache has no size of its own (-1 or 0): the bytes it took when downloaded
        return sum(size if size > 0 else SENT.get(r.url, 0) for size, r in zip(sizes, self.requests))  # type: ignore[attr-defined]


def _screenshot(page: Page, path: Path, max_screens: int = 12) -> None:
    """The whole page, as the phone shows it: marimo scrolls its cells inside ``#App``, so that
    frame is scrolled one screen at a time and the screens are stacked into one picture (at most
    ``max_screens``; the front page scrolls the document and is taken in one go)."""
    from PIL import Image

    if not page.locator("#App").count():
        page.screenshot(path=path, full_page=True, scale="css")
        return
    heights = page.evaluate("() => { const a = document.getElementById('App'); return [a.scrollHeight, a.clientHeight]; }")
    shots = []
    for top in range(0, min(heights[0], heights[1] * max_screens), heights[1]):
        page.evaluate("(y) => { document.getElementById('App').scrollTop = y; }", top)
        page.wait_for_function("(y) => Math.abs(document.getElementById('App').scrollTop - y) < 2 || "
                               "document.getElementById('App').scrollTop > 0", arg=top)
        shot = path.with_suffix(f".{len(shots)}.png")
        page.screenshot(path=shot, scale="css")  # one pixel a CSS pixel: a ninth of the device's
        shots.append(shot)
    images = [Image.open(shot) for shot in shots]
    whole = Image.new("RGB", (images[0].width, sum(i.height for i in images)), "white")
    y = 0
    for image, shot in zip(images, shots):
        whole.paste(image, (0, y))
        y += image.height
        shot.unlink()
    whole.save(path)
    page.evaluate("() => { document.getElementById('App').scrollTop = 0; }")  # as the page opened


def _open(page: Page, base_url: str, target: str) -> None:
    if target == "front":
        page.goto(base_url + "/")
        page.wait_for_load_state("load")
    else:
        open_notebook(page, base_url, target)
    page.wait_for_function("() => [...document.images].every((i) => i.complete)")


#: True once the layout has not changed for :data:`STILL_FRAMES` animation frames in a row (the
#: document's and marimo's frame's sizes): polled every frame, from a fresh start
#: (``window.__phoneLayout = null``) after each resize.
STILL_FRAMES = 3
LAYOUT_STILL_JS = r"""
(frames) => {
  const d = document.documentElement, a = document.getElementById("App");
  const shape = [innerWidth, innerHeight, d.scrollWidth, d.scrollHeight,
                 a ? a.scrollWidth : 0, a ? a.scrollHeight : 0, a ? a.clientWidth : 0].join();
  const s = window.__phoneLayout || (window.__phoneLayout = {shape: null, still: 0});
  s.still = shape === s.shape ? s.still + 1 : 0;
  s.shape = shape;
  return s.still >= frames;
}
"""
#: Generous: a resize on a busy 2-core machine lays out a long notebook again (only a failing wait lasts this long).
RESIZE_TIMEOUT_MS = 120_000


def _resize(page: Page, target: str, width: int, height: int) -> None:
    """Make the screen ``width`` x ``height`` and wait until the page has laid itself out again:
    the window has the new size, (a notebook) no cell runs and no output is stale, every picture
    is loaded, and the layout has stopped changing (:data:`LAYOUT_STILL_JS`)."""
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_function("([w, h]) => window.innerWidth === w && window.innerHeight === h",
                           arg=[width, height], timeout=RESIZE_TIMEOUT_MS)
    if target != "front":
        wait_settled(page)
    page.wait_for_function("() => [...document.images].every((i) => i.complete)", timeout=RESIZE_TIMEOUT_MS)
    page.evaluate("() => { window.__phoneLayout = null; }")
    page.wait_for_function(LAYOUT_STILL_JS, arg=STILL_FRAMES, polling="raf", timeout=RESIZE_TIMEOUT_MS)


def _layout_problems(page: Page, width: int) -> list[str]:
    """What does not fit a screen ``width`` CSS px wide, as the page is laid out now."""
    layout = page.evaluate(OVERFLOW_JS, width)
    problems = []
    if layout["innerWidth"] > width or layout["documentWidth"] > width:
        problems.append(f"the page is {max(layout['innerWidth'], layout['documentWidth'])} px wide on a {width} px screen")
    if layout["frameWidth"] > layout["frameClientWidth"] + 1:
        problems.append(f"marimo's frame scrolls sideways: {layout['frameWidth']} px in {layout['frameClientWidth']} px")
    problems += layout["offenders"]
    targets = page.evaluate(TARGETS_JS, MIN_TARGET)
    problems += [f"target too small: {t}" for t in targets["small"]]
    problems += [f"targets overlap: {t}" for t in targets["overlapping"]]
    natural_px = ranking.SMALLEST_TEXT_PT * ranking.PNG_DPI / 72
    for scale in page.evaluate(PLOTS_JS):
        if scale * natural_px + 0.05 < MIN_PLOT_TEXT_PX:
            problems.append(f"a plot is drawn at {scale:.0%}: its smallest text shows at {scale * natural_px:.1f} px")
    for label, track in page.evaluate(SLIDERS_JS):
        if track < MIN_SLIDER_PX:
            problems.append(f"the slider {label or '(no label)'} is {track} px wide (less than {MIN_SLIDER_PX}: too short to set a value)")
    return problems


#: At most this many problems are listed per size (the rest are counted).
MAX_LISTED = 30


@pytest.mark.parametrize("target", [pytest.param(t, marks=SHARES_07) if t == EXERCISES else t for t in PAGES])
def test_page_fits_a_phone(lab_server: str, phone: Page, target: str, artifacts_dir: Path,
                           kept_pages: dict[str, Page]) -> None:
    """The page at every size of :data:`SIZES`: opened once at the first (its first visit's
    downloads counted there), then the screen made smaller, as a rotated or smaller phone would
    (the page is laid out again; nothing is reloaded). The problems of every size are reported
    together, each line naming its size. 07's page is then left open for the answer-box tests."""
    page = phone
    downloads = Downloads(page)
    _open(page, lab_server, target)
    assert_no_traceback(page)
    stem = "front" if target == "front" else target.removesuffix(".py")
    shots = artifacts_dir / "phone"
    shots.mkdir(parents=True, exist_ok=True)
    problems = []
    for number, (width, height) in enumerate(SIZES):
        if number:
            _resize(page, target, width, height)
        found = _layout_problems(page, width)
        problems += [f"at {width}x{height}: {p}" for p in found[:MAX_LISTED]]
        if len(found) > MAX_LISTED:
            problems.append(f"at {width}x{height}: ... and {len(found) - MAX_LISTED} more")
        _screenshot(page, shots / f"{stem}_{width}x{height}.png")
    assert_no_traceback(page)

    http, socket = downloads.http_bytes(), downloads.socket_bytes
    width, height = SIZES[0]
    (shots / f"{stem}.bytes.json").write_text(
        json.dumps({"page": stem, "size": f"{width}x{height}", "http": http, "websocket": socket}) + "\n")
    budget = FIRST_VISIT_BUDGET["front" if target == "front" else "notebook"]
    if http > budget:
        problems.append(f"the first visit (at {width}x{height}) downloads {http:,} bytes over HTTP, "
                        f"over the budget of {budget:,}")
    if socket > FIRST_VISIT_BUDGET["outputs"]:
        problems.append(f"the first visit (at {width}x{height}) receives {socket:,} bytes of outputs (WebSocket), "
                        f"over the budget of {FIRST_VISIT_BUDGET['outputs']:,}")
    if target == EXERCISES:
        kept_pages[target] = page  # for the answer-box tests (closed instead if this test fails)
    assert not problems, f"{stem}:\n" + "\n".join(problems)


def _choose_exercise(page: Page, title: str) -> None:
    """Choose the exercise ``title`` in 07 with nothing typed or checked in its box: 07 makes new
    answer widgets for every exercise chosen, so if ``title`` is already chosen (by an earlier
    test on this page), another is chosen first."""
    select = page.get_by_label("Exercise", exact=True)
    current = select.evaluate("(e) => e.selectedIndex >= 0 ? e.options[e.selectedIndex].text.trim() : null")
    if current == title:
        other = next(o.strip() for o in select.locator("option").all_inner_texts() if o.strip() != title)
        select_option(page, "Exercise", other)
    select_option(page, "Exercise", title)


@SHARES_07
def test_an_answer_box_asks_for_the_number_keypad_and_enter_checks(exercises_phone: Page) -> None:
    """07 on a phone: the answer box of a numeric exercise asks for the decimal keypad (the
    keyboard a phone shows), typing the answer and pressing Enter checks it."""
    page = exercises_phone
    _choose_exercise(page, "nDCG@5 of the lecture example")
    box = page.get_by_label("Your answer", exact=True)
    expect(box).to_have_value("")
    expect(box).to_have_attribute("placeholder", re.compile(r"^e\.g\. 78 % or 0\.78$"))
    box.tap()
    expect(box).to_have_attribute("inputmode", "decimal")
    expect(box).to_have_attribute("enterkeyhint", "done")
    box.fill("0.78")
    run_and_settle(page, lambda: box.press("Enter"), what="pressing Enter in the answer box")
    wait_for_text(page, "Right: nDCG@5 = 0.7763")
    assert_no_traceback(page)


@SHARES_07
def test_a_list_answer_keeps_the_full_keyboard(exercises_phone: Page) -> None:
    """An answer that is a list ("e.g. 3, 2, 0") needs the comma: no number keypad there."""
    page = exercises_phone
    ideal = next(ex for ex in nc.exercises.all_exercises() if ex.kind == "ideal")
    _choose_exercise(page, ideal.title)
    box = page.get_by_label("Your answer", exact=True)
    expect(box).to_have_attribute("placeholder", "e.g. 3, 2, 0")
    box.tap()
    expect(box).to_be_focused()
    expect(box).not_to_have_attribute("inputmode", re.compile(".+"))
