"""Chapters 02-04 in a real browser: as pages (``ndcg-lab``) and as slide decks (``ndcg-lab slides``).

Each test changes the chapter's main widget and checks the result against ndcg_core's value
computed here. On the page that is all; in the deck (the ``slides`` variants) it first walks
the deck with the arrow keys like a lecturer, changes the widget on its slide and reveals
the result, so widgets are proven live on the slides. Every slide of each deck (no traceback,
no code box, no empty page, and it ends on the exercises) is checked by the legibility walk of
tests/browser/test_slides_legibility.py, which opens each deck once for all its slide checks.
"""

from __future__ import annotations

from math import log2

import pytest
from marimo_page import (
    assert_no_traceback,
    open_notebook,
    page_text,
    run_and_settle,
    select_option,
    set_text,
)
from playwright.sync_api import Page, expect

import ndcg_core as nc

pytestmark = pytest.mark.browser

LECTURE = [1, 0, 2, 1, 0]
LECTURE_JUDGMENTS = [2, 1, 1]
STEP_TIMEOUT_MS = 30_000

#: [index of the present top-level slide, number of revealed fragments in it, number of slides]
_DECK_STATE_JS = r"""
() => {
  const slides = [...document.querySelectorAll('.reveal .slides > section')];
  const i = slides.findIndex((s) => s.classList.contains('present'));
  return [i, i >= 0 ? slides[i].querySelectorAll('.fragment.visible').length : -1, slides.length,
          i >= 0 ? slides[i].querySelectorAll('.fragment').length : 0];
}
"""

#: Visible text of the present slide, shadow roots included; hidden fragments left out.
_SLIDE_TEXT_JS = r"""
() => {
  const slide = document.querySelector('.reveal .slides > section.present');
  if (!slide) return "";
  const out = [];
  const skip = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE"]);
  const opts = { visibilityProperty: true, opacityProperty: true };
  function walk(node) {
    if (node.nodeType === 3) {
      const text = node.textContent.replace(/\s+/g, " ").trim();
      if (text && node.parentElement && node.parentElement.checkVisibility(opts)) out.push(text);
      return;
    }
    if (node.nodeType === 1) {
      if (skip.has(node.tagName)) return;
      if (node.shadowRoot) walk(node.shadowRoot);
    } else if (node.nodeType !== 11) {
      return;
    }
    for (const child of node.childNodes) walk(child);
  }
  walk(slide);
  return out.join("\n");
}
"""

#: What the present slide shows besides text: figures, widgets, and any visible code editor.
_SLIDE_CONTENT_JS = r"""
() => {
  const slide = document.querySelector('.reveal .slides > section.present');
  const found = { figures: 0, widgets: 0, code: 0 };
  const opts = { visibilityProperty: true, opacityProperty: true };
  function walk(node) {
    if (node.nodeType === 1) {
      const visible = node.checkVisibility(opts);
      if (visible && (node.tagName === 'svg' || node.tagName === 'IMG')) found.figures += 1;
      if (visible && (node.tagName === 'INPUT' || node.tagName === 'SELECT' || node.getAttribute('role') === 'slider')) found.widgets += 1;
      if (visible && node.classList && node.classList.contains('cm-editor')) found.code += 1;
      if (node.shadowRoot) walk(node.shadowRoot);
    }
    for (const child of node.childNodes || []) walk(child);
  }
  if (slide) walk(slide);
  return found;
}
"""

#: Blur whatever has focus, down through shadow roots (so arrow keys go to the deck again).
_BLUR_JS = r"""
() => {
  let active = document.activeElement;
  while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
  if (active && active.blur) active.blur();
}
"""


#: Run a test on the page (``ndcg-lab``) and in the deck (``ndcg-lab slides``).
BOTH_VIEWS = pytest.mark.parametrize("view", ["page", "slides"])


def served(request: pytest.FixtureRequest, view: str) -> str:
    """The base URL of the server for ``view``: ``lab_server`` or ``lab_slides_server``."""
    return str(request.getfixturevalue("lab_slides_server" if view == "slides" else "lab_server"))


def is_deck(page: Page) -> bool:
    return page.locator(".reveal .slides > section").count() > 0


def deck_state(page: Page) -> list[int]:
    return page.evaluate(_DECK_STATE_JS)


#: True once the present slide and its revealed fragments have finished fading in.
_SETTLED_SLIDE_JS = r"""
() => {
  const slide = document.querySelector('.reveal .slides > section.present');
  if (!slide) return false;
  const parts = [slide, ...slide.querySelectorAll('.fragment.visible')];
  return parts.every((e) => getComputedStyle(e).opacity === '1');
}
"""


def advance(page: Page) -> None:
    """Press the right arrow and wait until the deck moved (next slide or next fragment) and settled."""
    page.evaluate(_BLUR_JS)
    before = deck_state(page)
    page.keyboard.press("ArrowRight")
    try:
        page.wait_for_function(
            "([js, before]) => { const now = eval(js)(); return now[0] !== before[0] || now[1] !== before[1]; }",
            arg=[_DECK_STATE_JS, before],
            timeout=STEP_TIMEOUT_MS,
        )
    except Exception as err:
        active = page.evaluate("() => document.activeElement && document.activeElement.outerHTML.slice(0, 200)")
        raise AssertionError(
            f"the right arrow did not move the deck from {before} (focus on {active}); slide text:\n{slide_text(page)}"
        ) from err
    page.wait_for_function(_SETTLED_SLIDE_JS, timeout=STEP_TIMEOUT_MS)


def slide_text(page: Page) -> str:
    """The present slide's visible text; on a page (no deck), the whole page's."""
    return str(page.evaluate(_SLIDE_TEXT_JS)) if is_deck(page) else page_text(page)


def goto_slide_with(page: Page, label: str, max_steps: int = 60) -> None:
    """Arrow through the deck until the widget labelled ``label`` is on the present slide and visible.

    On a page the widget only has to be on it."""
    if not is_deck(page):
        control = page.get_by_label(label, exact=True).or_(page.get_by_role("slider", name=label, exact=True))
        expect(control.first).to_be_visible()  # a slider answers to both: its box and its thumb
        return
    for _ in range(max_steps):
        present = page.locator(".reveal .slides > section.present")
        for control in (present.get_by_label(label, exact=True), present.get_by_role("slider", name=label, exact=True)):
            if control.count() == 1 and control.is_visible():
                return
        advance(page)
    raise AssertionError(f"no slide with a visible control labelled {label!r} within {max_steps} steps")


def reveal_until(page: Page, needle: str, max_steps: int = 6) -> str:
    """Advance fragment by fragment until ``needle`` is visible on the present slide; return its text.

    On a page, ``needle`` must be on it; returns the page's text."""
    if not is_deck(page):
        text = slide_text(page)
        assert needle in text, f"{needle!r} is not on the page; page text:\n{text[:3000]}"
        return text
    for _ in range(max_steps):
        text = slide_text(page)
        if needle in text:
            return text
        advance(page)
    raise AssertionError(f"{needle!r} did not appear within {max_steps} steps; slide text:\n{slide_text(page)}")


def open_deck(page: Page, base_url: str, filename: str, view: str = "slides") -> None:
    """Open the chapter: under ``ndcg-lab slides`` a deck on its first slide, else one page."""
    open_notebook(page, base_url, filename)
    if view == "slides":
        expect(page.locator(".reveal .slides > section.present")).to_have_count(1)
        assert deck_state(page)[0] == 0, "the deck does not open on its first slide"
    else:
        expect(page.locator(".reveal")).to_have_count(0)
    assert_no_traceback(page)


# ---- 02 gains --------------------------------------------------------------------------------


@BOTH_VIEWS
def test_02_gains_edit_the_list(page: Page, request: pytest.FixtureRequest, view: str) -> None:
    open_deck(page, served(request, view), "02_gains.py", view)
    goto_slide_with(page, "Relevance labels")
    set_text(page, "Relevance labels", "1, 2, 3")
    # Rank 1 goes from 1 to 3 (the default "New label"): linear x3, exponential x7.
    text = reveal_until(page, "DCG after")
    for gain in ("linear", "exponential"):
        assert f"{nc.dcg([1, 2, 3], gain=gain):.4f}" in text
        assert f"{nc.dcg([3, 2, 3], gain=gain):.4f}" in text
    assert f"{nc.dcg([3, 2, 3]):.4f}" == f"{3 + 2 / log2(3) + 3 / log2(4):.4f}"
    assert f"{nc.dcg([2, 3, 0, 1, 2]):.4f}" not in text  # the default list's DCG is gone
    # The dropdown on the same slide works too: relabel rank 1 to 0.
    select_option(page, "New label", "0")
    text = slide_text(page)
    assert f"{nc.dcg([0, 2, 3]):.4f}" in text and f"{nc.dcg([0, 2, 3], gain='exponential'):.4f}" in text
    assert_no_traceback(page)


def test_02_gains_bad_input_shows_the_message(page: Page, lab_server: str) -> None:
    open_deck(page, lab_server, "02_gains.py", "page")
    goto_slide_with(page, "Relevance labels")
    set_text(page, "Relevance labels", "1, high, 2")
    text = reveal_until(page, "which is not a relevance label")
    assert "label 2 is 'high'" in text
    assert_no_traceback(page)


# ---- 03 discounts -----------------------------------------------------------------------------


@BOTH_VIEWS
def test_03_discounts_switch_the_discount(page: Page, request: pytest.FixtureRequest, view: str) -> None:
    open_deck(page, served(request, view), "03_discounts.py", view)
    goto_slide_with(page, "Discount")
    text = reveal_until(page, "nDCG@5")
    assert f"{nc.ndcg(LECTURE, 5, judgments=LECTURE_JUDGMENTS):.4f}" in text  # 0.7763 to start
    select_option(page, "Discount", "1/i")
    text = slide_text(page)
    expected = (1 + 2 / 3 + 1 / 4) / (2 + 1 / 2 + 1 / 3)
    assert f"{expected:.4f}" == f"{nc.ndcg(LECTURE, 5, judgments=LECTURE_JUDGMENTS, discount='reciprocal'):.4f}"
    assert f"{expected:.4f}" in text
    assert "reciprocal discount 1/i" in text
    assert_no_traceback(page)


def test_03_log_base_changes_dcg_not_ndcg(page: Page, lab_server: str) -> None:
    open_deck(page, lab_server, "03_discounts.py", "page")
    goto_slide_with(page, "Log base")
    dcg2 = 1 + 2 / log2(4) + 1 / log2(5)
    idcg2 = 2 + 1 / log2(3) + 1 / log2(4)
    text = reveal_until(page, "nDCG stays at")
    assert f"{log2(10) * dcg2:.4f}" in text  # base 10 to start
    select_option(page, "Log base", "e ≈ 2.718")
    text = slide_text(page)
    assert f"{nc.dcg(LECTURE, 5, discount='log', base=2.718281828459045):.4f}" in text
    assert f"nDCG stays at {dcg2 / idcg2:.4f}" in text
    assert_no_traceback(page)


# ---- 04 the ideal list ------------------------------------------------------------------------


def test_04_ideal_list_missed_documents_enter_the_ideal(page: Page, lab_server: str) -> None:
    open_deck(page, lab_server, "04_ideal_list.py", "page")
    goto_slide_with(page, "Relevance labels")
    set_text(page, "Relevance labels", "3")
    set_text(page, "Judged documents not in the list", "3, 2, 2, 1")
    text = reveal_until(page, "nDCG@5")
    expected = nc.ndcg([3], 5, judgments=[3, 3, 2, 2, 1])
    assert f"{expected:.4f}" == f"{3 / (3 + 3 / log2(3) + 2 / log2(4) + 2 / log2(5) + 1 / log2(6)):.4f}"
    assert f"nDCG@5\n{expected:.4f}" in text
    assert f"{nc.idcg([3, 3, 2, 2, 1], 5):.4f}" in text
    assert_no_traceback(page)


@BOTH_VIEWS
def test_04_slider(page: Page, request: pytest.FixtureRequest, view: str) -> None:
    open_deck(page, served(request, view), "04_ideal_list.py", view)
    goto_slide_with(page, "Relevant documents judged for the topic")
    run = [1 if r <= 8 or r in (30, 60) else 0 for r in range(1, 101)]
    text = reveal_until(page, "nDCG@100")
    assert f"{nc.ndcg(run, 100, judgments=[1] * 15):.4f}" in text
    thumb = page.locator(".reveal .slides > section.present" if view == "slides" else "body").get_by_role(
        "slider", name="Relevant documents judged for the topic", exact=True
    )
    expect(thumb).to_have_count(1)
    run_and_settle(page, lambda: (thumb.focus(), page.keyboard.press("ArrowUp")), what="one step up on the slider")
    # In a deck the same key press may also reach reveal.js, which then hides the slide's last
    # fragment again; a lecturer presses the right arrow to show it, and so does the test.
    text = reveal_until(page, "nDCG@100")
    assert f"{nc.ndcg(run, 100, judgments=[1] * 16):.4f}" in text
    assert "With 16 relevant documents, nDCG@100 is lower than nDCG@10." in " ".join(text.split())
    assert_no_traceback(page)
