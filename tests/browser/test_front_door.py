"""End to end: ``ndcg-lab``'s front page at ``/`` in headless Chromium.

The page says NDCG Lab (tab title, heading), shows the start path 01 -> 08, one card per
notebook with its title once and a thumbnail that loads, opens the playground with a click and
with the keyboard, fits 1280x720 and 1920x1080 without sideways scrolling, and axe-core finds
nothing on it; under ``ndcg-lab slides`` the decks are marked. marimo's own chrome around a
notebook (the menu button's name, the Back link's contrast, the main landmark) is fixed by
the head NDCG Lab gives every notebook page: axe-core finds nothing on the playground's page.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from axe import audit, axe_source, describe
from marimo_page import assert_no_traceback, page_text, wait_for_text
from playwright.sync_api import Page, expect

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((REPO / "notebooks").glob("[0-9][0-9]_*.py"))
DECKS = sorted(p.name for p in (REPO / "notebooks" / "decks").glob("*.py"))
PATH = ["01", "02", "03", "04", "05", "06", "07", "08"]
LOADED_JS = "(n) => document.images.length === n && [...document.images].every((i) => i.complete && i.naturalWidth > 0)"


def card_title(path: Path) -> str:
    block = path.read_text(encoding="utf-8").split("# ///\n", 1)[0]
    meta = tomllib.loads("\n".join(line[2:] for line in block.splitlines()[1:]))
    return str(meta["tool"]["marimo"]["opengraph"]["title"])


@pytest.fixture(scope="module")
def axe_js() -> str:
    try:
        return axe_source()
    except RuntimeError as err:
        pytest.fail(str(err), pytrace=False)


def open_front(page: Page, base: str, cards: int = len(NOTEBOOKS)) -> None:
    page.goto(base + "/")
    page.wait_for_function(LOADED_JS, arg=cards, timeout=60_000)


def test_the_front_page_says_ndcg_lab_with_its_path_and_a_card_per_notebook(lab_server: str, page: Page) -> None:
    open_front(page, lab_server)
    expect(page).to_have_title("NDCG Lab")
    expect(page.get_by_role("heading", level=1)).to_have_text("NDCG Lab")
    start = page.get_by_role("navigation", name="Start here:")
    hrefs = start.get_by_role("list").get_by_role("link").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    assert [re.match(r"/\?file=(\d\d)_", h).group(1) for h in hrefs] == PATH  # type: ignore[union-attr]
    for path in NOTEBOOKS:
        expect(page.get_by_text(card_title(path), exact=True)).to_have_count(1)
        card = page.locator(".card", has=page.get_by_role("link", name=card_title(path), exact=True))
        expect(card).to_have_count(1)
        expect(card.get_by_role("link")).to_have_attribute("href", f"/?file={path.name}")
        image = card.get_by_role("img")
        expect(image).to_have_count(1)
        assert image.evaluate("i => i.naturalWidth") >= 320 and image.get_attribute("alt")
    assert "marimo" not in page.locator("header").inner_text()
    expect(page.locator(".card").get_by_text("Has a slide deck", exact=True)).to_have_count(len(DECKS))


@pytest.mark.parametrize(("width", "height"), [(1280, 720), (1920, 1080)])
def test_the_front_page_is_legible_and_clean_at_projector_sizes(lab_server: str, page: Page, axe_js: str,
                                                                artifacts_dir: Path, width: int, height: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    open_front(page, lab_server)
    page.screenshot(path=artifacts_dir / f"front_door_{width}x{height}.png")
    page.screenshot(path=artifacts_dir / f"front_door_{width}x{height}_full.png", full_page=True)
    sizes = page.evaluate("""() => ({wide: document.documentElement.scrollWidth, view: innerWidth,
        path: document.querySelector('nav.start').getBoundingClientRect().bottom,
        smallest: Math.min(...[...document.querySelectorAll('main p, main a, main h2, main h3, main span')]
                           .map((e) => parseFloat(getComputedStyle(e).fontSize)))})""")
    assert sizes["wide"] <= sizes["view"], sizes  # no sideways scrolling
    assert sizes["path"] < height / 2, sizes  # heading and the start path on the first screen
    assert sizes["smallest"] >= 14, sizes
    violations = audit(page, axe_js, content_only=False)
    assert not violations, describe(violations)


def test_a_click_opens_the_playground_on_the_lecture_example(lab_server: str, page: Page, axe_js: str) -> None:
    open_front(page, lab_server)
    page.get_by_role("link", name="01 · Playground", exact=True).click()
    expect(page).to_have_url(re.compile(r"/\?file=01_playground\.py$"))
    wait_for_text(page, "0.7763")
    text = page_text(page)
    assert "2.4307" in text and "3.1309" in text and "0.7763" in text
    assert_no_traceback(page)
    # marimo's chrome, fixed by NDCG Lab's head: the menu button has a name, Back is readable,
    # the cells are inside a main landmark
    expect(page.get_by_role("button", name="Notebook menu")).to_have_count(1)
    violations = audit(page, axe_js, content_only=False)
    assert not violations, describe(violations)
    page.get_by_role("link", name=re.compile("^Back")).click()
    expect(page).to_have_title("NDCG Lab")


def test_the_keyboard_reaches_and_opens_a_chapter(lab_server: str, page: Page) -> None:
    open_front(page, lab_server)
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.textContent") == "Skip to the chapters"
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.getAttribute('href')") == "/?file=01_playground.py":
            break
    else:
        pytest.fail("Tab never reached the link to 01")
    outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"  # the focus is visible
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/\?file=01_playground\.py$"))
    wait_for_text(page, "0.7763")


def test_slides_mode_marks_the_decks_and_says_how_to_drive_them(lab_slides_server: str, page: Page, axe_js: str,
                                                                 artifacts_dir: Path) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    open_front(page, lab_slides_server, cards=len(DECKS))  # ndcg-lab slides serves the decks only
    page.screenshot(path=artifacts_dir / "front_door_slides_1280x720.png")
    marked = page.locator(".card", has=page.locator(".badge", has_text=re.compile("^Slide deck$")))
    hrefs = marked.locator("h3 a").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    assert sorted(h.removeprefix("/?file=") for h in hrefs) == DECKS
    note = page.locator("p.note").inner_text()
    assert "→" in note and "←" in note and "speaker view" in note
    violations = audit(page, axe_js, content_only=False)
    assert not violations, describe(violations)
