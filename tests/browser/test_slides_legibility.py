"""Every slide of every deck, at 1280x720, read from the back row (issue 14's legibility rules)
and audited by axe-core.

``ndcg-lab slides`` serves the decks; each is stepped through with the right arrow (every
slide and every fragment) and :data:`legibility.LEGIBILITY_JS` checks the slide as shown:
text of at least 20 px (numbers 30), nothing outside the slide, no scrolling, no "Scroll for
more", coloured text at 4.5:1 and plot strokes at 3:1. Once a slide shows all its fragments,
axe-core (tests/browser/axe.py) audits its cells' outputs: no violation. The same walk does
both, and also checks what every slide shows (:func:`content_problems`: some text, a figure or
a widget; no code box; no "no output" page; no failure text; no slide skipped) and what some
decks must end on (:data:`DECK_ENDS`: the chapters' exercises, the playground's ten slides),
checks that were walks of their own in test_chapters_02_04, test_chapter_09 and
test_playground: a deck is opened and walked once for all of them. A screenshot of every slide (with all its
fragments shown) and of every step that fails goes to tests/artifacts/legibility/; with
``NDCG_LAB_PICTURES=1`` the deck is also laid out again at 1920x1080 (no reload) and walked for
pictures (reveal.js draws the same 1280x720 slide scaled by 1.5, so there is nothing new to check). The buttons on the slides (worked
solutions, the ideal stepper, checked answers) are pressed by tests/browser/test_deck_*.py.

Every deck passes; :data:`KNOWN` would mark a deck with known failures as a strict ``xfail``
with the problems named (so it still runs and reports), never a skip.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from axe import audit, axe_source, describe
from legibility import LEGIBILITY_JS, RULES
from marimo_page import DECK_STILL_JS, FAILURE_TEXTS, assert_no_traceback, open_notebook, wait_settled
from playwright.sync_api import Page, expect
from test_chapters_02_04 import _SLIDE_CONTENT_JS, _SLIDE_TEXT_JS

from ndcg_core.ui.plots import ranking

REPO = Path(__file__).resolve().parents[2]
#: Every deck (decks added later are picked up here).
DECKS = sorted(p.name for p in (REPO / "notebooks" / "decks").glob("[0-9][0-9]_*.py"))

STATE_JS = r"""
() => {
  const s = [...document.querySelectorAll('.reveal .slides > section')];
  const i = s.findIndex((x) => x.classList.contains('present'));
  const hidden = i < 0 ? 0 : s[i].querySelectorAll('.fragment:not(.visible)').length;
  return [i, s.length, document.querySelectorAll('.reveal .fragment.visible').length, hidden];
}
"""

#: Decks with known failures, each with its reason (a strict xfail, so a fix shows): none since
#: decks 02-04 were redesigned for a lecture. Add an entry only with the slides and the reason.
KNOWN: dict[str, str] = {}


def walk_deck(page: Page, filename: str, size: tuple[int, int], out: Path, check: bool,
              axe_js: str = "", seen: list[dict] | None = None) -> list[str]:
    """Step through the open deck from its first slide at ``size``; the legibility problems (and,
    with ``axe_js``, axe-core's violations on each fully shown slide) when ``check``. With
    ``seen``, each step's slide as shown is appended to it (:func:`shown_slide`)."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.evaluate(DOUBLE_FRAME_JS)
    page.wait_for_function(DECK_STILL_JS, polling="raf")
    if page.evaluate(STATE_JS)[0] != 0:  # a walk before this one ended on the last slide
        page.evaluate(BLUR_JS)
        page.keyboard.press("Home")
        page.wait_for_function(f"() => ({STATE_JS})()[0] === 0", polling="raf")
        page.wait_for_function(DECK_STILL_JS, polling="raf")
    rules = {**RULES, "plotTextPx": ranking.SMALLEST_TEXT_PT * ranking.PNG_DPI / 72}
    problems: list[str] = []
    for step in range(120):
        index, total, revealed, hidden = page.evaluate(STATE_JS)
        found_before = len(problems)
        page.wait_for_function(DECK_STILL_JS, polling="raf")
        if seen is not None:
            seen.append(shown_slide(page, step))
        if check:
            for problem in page.evaluate(LEGIBILITY_JS, rules)[:12]:
                problems.append(f"slide {index + 1} (step {step}): {problem}")
            if axe_js and hidden == 0:
                found = audit(page, axe_js, content_only=True, within=".reveal .slides > section.present")
                if found:
                    problems.append(f"slide {index + 1} (step {step}): axe-core: {describe(found)}")
        if hidden == 0 or (check and len(problems) > found_before):  # each slide as shown, and each failing step
            page.screenshot(path=str(out / f"{filename[:2]}_{size[0]}x{size[1]}_{step:02d}.png"))
        if index == total - 1 and hidden == 0:
            return problems
        before = [index, total, revealed, hidden]
        page.evaluate(BLUR_JS)
        page.keyboard.press("ArrowRight")
        page.wait_for_function(f"(b) => JSON.stringify(({STATE_JS})()) !== JSON.stringify(b)", arg=before, polling="raf")
    raise AssertionError(f"{filename}: the deck did not end within 120 steps")


#: Takes the focus off a control (arrow keys on a slider would move the slider, not the deck).
BLUR_JS = "() => { let a = document.activeElement; while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement; if (a && a.blur) a.blur(); }"
#: Resolves once the page has drawn two frames (a resize's new layout is then on screen).
DOUBLE_FRAME_JS = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"


#: Any code editor on the present slide, shown or not (a deck shows no code).
_EDITORS_JS = "() => document.querySelectorAll('.reveal .slides > section.present .cm-editor').length"


def shown_slide(page: Page, step: int) -> dict:
    """The present slide as the walk shows it at ``step``: its index, the deck's length, its
    hidden fragments, its visible text, and its figures, widgets and code editors."""
    index, total, _, hidden = page.evaluate(STATE_JS)
    return {"step": step, "index": index, "total": total, "hidden": hidden, "text": page.evaluate(_SLIDE_TEXT_JS),
            **page.evaluate(_SLIDE_CONTENT_JS), "editors": page.evaluate(_EDITORS_JS)}


def content_problems(seen: list[dict]) -> list[str]:
    """Every step of every slide shows something (text, a figure or a widget), no code box (no
    code editor at all), no "no output" page and none of marimo's failure texts."""
    problems = []
    for s in seen:
        where = f"slide {s['index'] + 1} (step {s['step']})"
        if s["code"] or s["editors"]:
            problems.append(f"{where} shows a code box")
        if not (s["text"].strip() or s["figures"] or s["widgets"]):
            problems.append(f"{where} is empty")
        if "no output" in s["text"].lower():
            problems.append(f"{where} is a 'no output' page")
        shown = [needle for needle in FAILURE_TEXTS if needle in s["text"]]
        if shown:
            problems.append(f"{where} shows {shown}")
    total = seen[-1]["total"] if seen else 0
    missed = sorted(set(range(total)) - {s["index"] for s in seen})
    if missed:
        problems.append(f"the walk skipped slides {[i + 1 for i in missed]} of {total}")
    return problems


def _ends_on_an_exercise_after_a_summary(page: Page, seen: list[dict]) -> None:
    """Chapters 02-04: "What to remember" comes before "Check yourself", and the deck ends on an
    exercise card (its answer box and its own Check button) or, in a deck whose exercises are
    question -> hints -> worked solution (ndcg_core.ui.lecture), on its worked solution."""
    first_seen: dict[str, int] = {}
    for s in seen:
        for heading in ("What to remember", "Check yourself"):
            if heading in s["text"]:
                first_seen.setdefault(heading, s["index"])
    assert set(first_seen) == {"What to remember", "Check yourself"}, first_seen
    assert first_seen["What to remember"] < first_seen["Check yourself"], first_seen
    last = page.locator(".reveal .slides > section.present")
    if last.get_by_text(re.compile(r"^Worked solution: \S.*$")).count():
        expect(last.get_by_role("button", name="Next rank of the solution", exact=True)).to_have_count(1)
    else:
        expect(last.get_by_text(re.compile(r"^Your answer: \S.*$"))).to_have_count(1)
        expect(last.get_by_role("button", name="Check", exact=True)).to_have_count(1)


def _ends_on_a_check_button(page: Page, seen: list[dict]) -> None:
    """Chapter 09: the deck ends on an exercise with its Check button."""
    expect(page.locator(".reveal .slides > section.present").get_by_role("button", name="Check", exact=True)).to_have_count(1)


def _ten_slides(page: Page, seen: list[dict]) -> None:
    """The playground's deck: title; the lecture example, gain, discount, cutoff k, IDCG (each
    with its numbers and plot); two exercises, each a question (hints as a fragment) and a
    worked solution: ten slides."""
    assert seen[-1]["total"] == 10, [(s["index"], s["hidden"]) for s in seen]


#: What a deck's walk must also show, beyond every slide legible, audited and with content
#: (these were walks of their own in test_chapters_02_04, test_chapter_09 and test_playground).
DECK_ENDS: dict[str, Callable[[Page, list[dict]], None]] = {
    "01_playground.py": _ten_slides,
    "02_gains.py": _ends_on_an_exercise_after_a_summary,
    "03_discounts.py": _ends_on_an_exercise_after_a_summary,
    "04_ideal_list.py": _ends_on_an_exercise_after_a_summary,
    "09_graded_vs_binary.py": _ends_on_a_check_button,
}


@pytest.fixture(scope="module")
def axe_js() -> str:
    try:
        return axe_source()
    except RuntimeError as err:
        pytest.fail(str(err), pytrace=False)


@pytest.mark.parametrize("filename", DECKS)
def test_every_slide_is_legible_at_1280x720_and_passes_axe(
    filename: str, page: Page, lab_slides_server: str, artifacts_dir: Path, axe_js: str, request: pytest.FixtureRequest
) -> None:
    """One walk of the deck, three checks: every step legible and every fully shown slide clean
    under axe-core; every step with content (:func:`content_problems`); and what the deck must
    end on (:data:`DECK_ENDS`), with no traceback on the page."""
    out = artifacts_dir / "legibility"
    out.mkdir(exist_ok=True)
    page.set_viewport_size({"width": 1280, "height": 720})
    open_notebook(page, lab_slides_server, filename)
    seen: list[dict] = []
    problems = walk_deck(page, filename, (1280, 720), out, check=True, axe_js=axe_js, seen=seen)
    empty = content_problems(seen)
    if filename in DECK_ENDS:
        DECK_ENDS[filename](page, seen)
    wait_settled(page)
    assert_no_traceback(page)
    if os.environ.get("NDCG_LAB_PICTURES"):  # reveal.js scales the 1280x720 slide: pictures only, no new check
        walk_deck(page, filename, (1920, 1080), out, check=False)
    (out / f"{filename[:2]}_problems.json").write_text(json.dumps(problems, indent=1, ensure_ascii=False))
    assert not empty, f"{filename}: slides without content or with code:\n" + "\n".join(empty[:60])
    if problems and filename in KNOWN:
        request.applymarker(pytest.mark.xfail(reason=KNOWN[filename], strict=True))
    assert not problems, f"{filename}: {len(problems)} problems:\n" + "\n".join(problems[:60])
