"""End to end: ndcg-lab serves its front page and the playground in headless Chromium.

Every number the playground shows is compared with ndcg_core's for the same inputs, computed
here. ``ndcg-lab`` shows the playground as one vertical page (``lab_server``); the deck
tests at the end use ``ndcg-lab slides`` (``lab_slides_server``), where the controls' slide
is brought into view with the arrow keys first, as a lecturer would. The tests that only read
the playground as it opens (its numbers, its layout at 1280x900, 1920x1080 and 1280x720) share
one page loaded once (``lecture_page``, laid out again for each size); a test that changes a
value opens a page of its own. Every slide of the deck (ten, none empty, no code box) is
checked by the legibility walk of tests/browser/test_slides_legibility.py.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from marimo_page import (
    assert_no_traceback,
    install_tracker,
    open_notebook,
    page_text,
    run_and_settle,
    select_option,
    set_number,
    set_text,
    show_slide_with,
)
from playwright.sync_api import Page, expect

import ndcg_core as nc
from ndcg_core.teaching.presets import preset as get_preset

REPO = Path(__file__).resolve().parents[2]
PLAYGROUND = "01_playground.py"
STAT = re.compile(r"^(DCG|IDCG|nDCG)@(\d+)$")


def card_title(path: Path) -> str:
    block = path.read_text(encoding="utf-8").split("# ///\n", 1)[0]
    meta = tomllib.loads("\n".join(line[2:] for line in block.splitlines()[1:]))
    return str(meta["tool"]["marimo"]["opengraph"]["title"])


def shown_numbers(page: Page) -> dict[str, str]:
    """{'DCG@5': '2.4307', ...}: each stat label with the value printed under it."""
    lines = page_text(page).splitlines()
    return {line: lines[i + 1] for i, line in enumerate(lines[:-1]) if STAT.match(line)}


def expected_numbers(labels_text: str, missed_text: str = "", k: int = 5, **options: object) -> dict[str, str]:
    """The same numbers from ndcg_core: judgments = the list's judged labels + the missed ones."""
    labels = nc.parse_labels(labels_text)
    missed = nc.parse_labels(missed_text) if missed_text.strip() else []
    judgments = [x for x in labels if x is not None] + missed
    if options.pop("ideal", "judgments") == "list":
        judgments = None
    s = nc.score(labels, k, judgments=judgments, **options)  # type: ignore[arg-type]
    return {f"DCG@{k}": f"{s.dcg:.4f}", f"IDCG@{k}": f"{s.idcg:.4f}", f"nDCG@{k}": f"{s.ndcg:.4f}"}


def set_k(page: Page, value: int) -> None:
    """Set k as a keyboard does: type it in the "Type k" box beside the slider (the slider
    has no number box of its own: that box clamped 5000 to 100 and kept 2.5 while computing
    @2). The slider's own value is used again when the box is cleared."""
    slider = page.get_by_role("slider", name="k", exact=True)
    expect(slider).to_have_count(1)
    box = page.get_by_label("Type k", exact=True)
    expect(box).to_have_count(1)
    typed = "" if slider.get_attribute("aria-valuenow") == str(value) else str(value)
    changed = box.input_value() != typed

    def act() -> None:
        box.fill(typed)
        box.press("Enter")

    run_and_settle(page, act, expect_run=changed, what=f"setting k to {value}")


#: In the deck: the numbers of the slide being shown (deck 01 shows them on every concept slide).
PRESENT_NDCG = ".reveal .slides > section.present .ndcg-stat-label"


def open_playground(page: Page, base_url: str) -> None:
    """Open the playground; in the deck, bring its labels box and numbers on screen (slide 2, fragment 1)."""
    open_notebook(page, base_url, PLAYGROUND)
    show_slide_with(page, page.get_by_label("Relevance labels", exact=True))
    if page.locator(".reveal .slides > section").count():
        show_slide_with(page, page.locator(PRESENT_NDCG, has_text=re.compile(r"^nDCG@\d+$")))
        expect(page.locator(PRESENT_NDCG, has_text="nDCG@5")).to_be_visible()
    else:
        expect(page.get_by_text("nDCG@5", exact=True)).to_be_visible()


#: Resolves once the page has drawn two frames (a resize's new layout is then on screen).
DOUBLE_FRAME_JS = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"


@pytest.fixture(scope="module")
def lecture_page(browser_context: object, lab_server: str):  # type: ignore[no-untyped-def]
    """The playground as it opens on the lecture example, loaded once for the tests of this
    module that only read it (each sets the screen size it checks; none types, clicks or
    scrolls, so each sees the page as it opened). A test that changes a value opens a
    page of its own (``page``)."""
    shared = browser_context.new_page()  # type: ignore[attr-defined]
    install_tracker(shared)
    try:
        at_size(shared, 1280, 900)
        open_playground(shared, lab_server)
        yield shared
    finally:
        shared.close()


def at_size(page: Page, width: int, height: int) -> None:
    """Give the page a ``width`` x ``height`` screen and wait until it is laid out for it."""
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_function("([w, h]) => window.innerWidth === w && window.innerHeight === h", arg=[width, height])
    page.evaluate(DOUBLE_FRAME_JS)


def test_front_page_lists_every_notebook_with_its_title(lab_server: str, page: Page, artifacts_dir: Path) -> None:
    page.goto(lab_server + "/")
    notebooks = sorted((REPO / "notebooks").glob("*.py"))
    assert notebooks
    for path in notebooks:
        expect(page.get_by_text(card_title(path), exact=True)).to_be_visible()
    page.screenshot(path=artifacts_dir / "front_page.png", full_page=True)
    assert_no_traceback(page)


def test_playground_opens_on_the_lecture_example(lecture_page: Page, artifacts_dir: Path) -> None:
    page = lecture_page
    at_size(page, 1280, 900)
    expect(page.locator(".reveal")).to_have_count(0)  # ndcg-lab: a vertical page, not a deck
    assert shown_numbers(page) == {"DCG@5": "2.4307", "IDCG@5": "3.1309", "nDCG@5": "0.7763"}
    assert expected_numbers("1, 0, 2, 1, 0") == shown_numbers(page)
    text = page_text(page)
    assert "nDCG@5 with linear gain g(l) = l, discount 1/log2(i+1)" in text
    page.screenshot(path=artifacts_dir / "playground.png")
    assert_no_traceback(page)


def test_every_input_changes_the_numbers_as_ndcg_core_says(lab_server: str, page: Page, artifacts_dir: Path) -> None:
    open_playground(page, lab_server)

    set_text(page, "Relevance labels", "3, 2, 0, ?, 1")
    assert shown_numbers(page) == expected_numbers("3, 2, 0, ?, 1")

    set_text(page, "Judged documents not in the list", "3, 2")
    assert shown_numbers(page) == expected_numbers("3, 2, 0, ?, 1", "3, 2")

    select_option(page, "Gain", "exponential")
    assert shown_numbers(page) == expected_numbers("3, 2, 0, ?, 1", "3, 2", gain="exponential")

    select_option(page, "Discount", "1/i")
    assert shown_numbers(page) == expected_numbers("3, 2, 0, ?, 1", "3, 2", gain="exponential", discount="reciprocal")

    set_k(page, 3)
    assert shown_numbers(page) == expected_numbers(
        "3, 2, 0, ?, 1", "3, 2", k=3, gain="exponential", discount="reciprocal"
    )
    set_k(page, 100)
    assert shown_numbers(page) == expected_numbers(
        "3, 2, 0, ?, 1", "3, 2", k=100, gain="exponential", discount="reciprocal"
    )
    set_k(page, 5)
    expected = expected_numbers("3, 2, 0, ?, 1", "3, 2", gain="exponential", discount="reciprocal")
    assert shown_numbers(page) == expected

    run_and_settle(page, lambda: page.get_by_label("condense (drop them)", exact=True).check())
    assert shown_numbers(page) == expected_numbers(
        "3, 2, 0, ?, 1", "3, 2", gain="exponential", discount="reciprocal", unjudged="condense"
    )
    assert "20%" in page_text(page)  # one of the top five was unjudged

    run_and_settle(page, lambda: page.get_by_label("the list itself (pitfall)", exact=True).check())
    assert shown_numbers(page) == expected_numbers(
        "3, 2, 0, ?, 1", "3, 2", gain="exponential", discount="reciprocal", unjudged="condense", ideal="list"
    )
    page.screenshot(path=artifacts_dir / "playground_changed.png")
    assert_no_traceback(page)


def test_log_base_and_gain_table_fields(lab_server: str, page: Page) -> None:
    open_playground(page, lab_server)
    expect(page.locator("marimo-number")).to_have_count(0)  # Base: only for log and Järvelin–Kekäläinen
    select_option(page, "Discount", "1/log_b(i+1)")
    set_number(page, "Base", 10)
    shown = shown_numbers(page)
    assert shown == expected_numbers("1, 0, 2, 1, 0", discount="log", base=10)
    assert shown["nDCG@5"] == "0.7763"  # the base cancels in nDCG ...
    assert shown["DCG@5"] != "2.4307"  # ... but not in DCG
    select_option(page, "Discount", "Järvelin–Kekäläinen (base b)")
    set_number(page, "Base", 3)
    assert shown_numbers(page) == expected_numbers("1, 0, 2, 1, 0", discount="jarvelin_kekalainen", base=3)

    expect(page.get_by_label("Gain table", exact=True)).to_have_count(0)
    select_option(page, "Gain", "table")
    set_text(page, "Gain table", "0:0, 1:1.5, 2:4")
    assert shown_numbers(page) == expected_numbers(
        "1, 0, 2, 1, 0", gain={0: 0, 1: 1.5, 2: 4}, discount="jarvelin_kekalainen", base=3
    )
    assert_no_traceback(page)


@pytest.mark.parametrize(
    ("label", "value", "message"),
    [
        ("Relevance labels", "1, x, 2", "label 2 is 'x', which is not a relevance label"),
        ("Relevance labels", "-1", "label 1 is '-1', a negative label"),
        ("Relevance labels", "", "the list of labels is empty"),
        ("Judged documents not in the list", "2 ?", "judged document 2 is '?'"),
    ],
    ids=["bad-token", "negative", "empty", "unjudged-missed"],
)
def test_bad_input_shows_a_callout_and_the_rest_keeps_working(
    lab_server: str, page: Page, artifacts_dir: Path, label: str, value: str, message: str
) -> None:
    open_playground(page, lab_server)
    set_text(page, label, value)
    text = page_text(page)
    assert message in text and "Cannot compute" in text
    assert shown_numbers(page) == {}
    assert_no_traceback(page)
    page.screenshot(path=artifacts_dir / f"playground_error_{label.split()[0].lower()}.png")
    select_option(page, "Discount", "1/i")  # other widgets still work ...
    assert message in page_text(page)
    assert_no_traceback(page)
    set_text(page, label, "1, 0, 2" if label == "Relevance labels" else "2")  # ... and fixing it recovers
    expected = (
        expected_numbers("1, 0, 2", discount="reciprocal")
        if label == "Relevance labels"
        else expected_numbers("1, 0, 2, 1, 0", "2", discount="reciprocal")
    )
    assert shown_numbers(page) == expected
    assert "Cannot compute" not in page_text(page)


def test_malformed_gain_table_names_the_entry(lab_server: str, page: Page) -> None:
    open_playground(page, lab_server)
    select_option(page, "Gain", "table")
    set_text(page, "Gain table", "0:0, 1:one")
    assert "Gain table: gain table entry 2 must be two numbers label:gain; got '1:one'" in page_text(page)
    assert_no_traceback(page)


def test_presets_load_their_case(lab_server: str, page: Page) -> None:
    open_playground(page, lab_server)
    select_option(page, "Preset", "nDCG@100 below nDCG@10")
    preset = get_preset("deep-cutoff")
    at_10 = expected_numbers(preset.labels, preset.missed, k=10)
    assert shown_numbers(page) == at_10
    set_k(page, 100)
    at_100 = expected_numbers(preset.labels, preset.missed, k=100)
    assert shown_numbers(page) == at_100
    assert float(at_100["nDCG@100"]) < float(at_10["nDCG@10"])
    assert_no_traceback(page)


def box_of(locator) -> dict[str, float]:  # type: ignore[no-untyped-def]
    """The bounding box of the one element ``locator`` finds (viewport coordinates)."""
    expect(locator).to_have_count(1)
    box = locator.bounding_box()
    assert box is not None, f"{locator} has no box"
    return box


def plot_boxes(page: Page) -> list[dict[str, float]]:
    """The three plots' frames, once their pictures have loaded (before that they have no height)."""
    plots = page.locator("figure.ndcg-plot img")
    expect(plots).to_have_count(3)
    page.wait_for_function(
        "() => [...document.querySelectorAll('figure.ndcg-plot img')].every((i) => i.complete && i.naturalWidth > 0)"
    )
    return [box_of(plots.nth(i)) for i in range(3)]


def in_view(box: dict[str, float], width: int, height: int) -> bool:
    return box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= width and box["y"] + box["height"] <= height


def test_page_has_the_controls_numbers_and_table_left_and_the_plots_right(lecture_page: Page) -> None:
    """Column one, top to bottom: controls, numbers, table; column two: the three plots."""
    page = lecture_page
    at_size(page, 1280, 900)
    assert page.locator("marimo-text").first.evaluate("(e) => getComputedStyle(e).zoom") == "1"  # no deck CSS
    labels = box_of(page.get_by_label("Relevance labels", exact=True))
    k = box_of(page.get_by_role("slider", name="k", exact=True))
    numbers = box_of(page.get_by_text("nDCG@5", exact=True))
    table = box_of(page.get_by_text("Rank by rank", exact=True))
    assert labels["y"] < k["y"] < numbers["y"] < table["y"], (labels, k, numbers, table)
    discounts, gains, cutoffs = plot_boxes(page)
    for plot in (discounts, gains, cutoffs):
        assert plot["x"] >= labels["x"] + labels["width"], ("a plot overlaps the controls' column", plot, labels)
        assert plot["height"] > 0.4 * plot["width"], plot  # the picture, not a collapsed box
    assert discounts["y"] < gains["y"] < cutoffs["y"]
    alts = [page.locator("figure.ndcg-plot img").nth(i).get_attribute("alt") or "" for i in range(3)]
    assert alts[0].startswith("Discount by rank") and alts[1].startswith("Gain and discounted gain")
    assert alts[2].startswith("nDCG at every cutoff")
    assert_no_traceback(page)


def test_one_projector_screen_at_1920x1080_shows_the_numbers_table_and_all_three_plots(
    lecture_page: Page, artifacts_dir: Path
) -> None:
    """The lecturer's screen: nothing of the lecture example needs a scroll (the page as it
    opened, laid out again at 1920x1080)."""
    page = lecture_page
    at_size(page, 1920, 1080)
    stats = page.locator(".ndcg-stats")
    shown = [
        page.get_by_label("Relevance labels", exact=True),
        page.get_by_role("slider", name="k", exact=True),
        *(stats.get_by_text(text, exact=True) for text in ("DCG@5", "2.4307", "IDCG@5", "3.1309", "nDCG@5", "0.7763")),
        page.get_by_text("nDCG@5 with linear gain g(l) = l, discount 1/log2(i+1)"),
        page.locator("table.ndcg-breakdown"),
        # the line under the table (it was cut off by the bottom of the screen)
        page.locator(".paragraph").filter(has_text="Each row adds the gain of rank"),
    ]
    for locator in shown:
        box = box_of(locator)
        assert in_view(box, 1920, 1080), (str(locator), box)
    for plot in plot_boxes(page):
        assert in_view(plot, 1920, 1080), plot
        assert plot["width"] >= 600, plot  # large enough to read from the back of the room
    page.screenshot(path=artifacts_dir / "playground_1920x1080.png")
    assert_no_traceback(page)


def test_small_projector_1280x720_shows_the_controls_numbers_and_a_plot(
    lecture_page: Page, artifacts_dir: Path
) -> None:
    """A small projector: the controls, the numbers and the first plot without a scroll (the
    page as it opened, laid out again at 1280x720)."""
    page = lecture_page
    at_size(page, 1280, 720)
    for locator in (
        page.get_by_label("Preset", exact=True),
        page.get_by_label("Relevance labels", exact=True),
        page.get_by_label("Judged documents not in the list", exact=True),
        page.get_by_label("Gain", exact=True),
        page.get_by_label("Discount", exact=True),
        page.get_by_role("slider", name="k", exact=True),
        page.get_by_label("condense (drop them)", exact=True),
        page.get_by_label("the list itself (pitfall)", exact=True),
        *(page.locator(".ndcg-stats").get_by_text(text, exact=True) for text in ("2.4307", "3.1309", "0.7763")),
    ):
        box = box_of(locator)
        assert in_view(box, 1280, 720), (str(locator), box)
    first = plot_boxes(page)[0]
    assert in_view(first, 1280, 720), first
    assert first["width"] >= 500, first
    page.screenshot(path=artifacts_dir / "playground_1280x720.png")
    assert_no_traceback(page)


def test_slides_widgets_stay_live_on_the_controls_slide(lab_slides_server: str, page: Page, artifacts_dir: Path) -> None:
    open_playground(page, lab_slides_server)
    expect(page.locator(".reveal .slides > section.present")).to_have_count(1)  # a deck under ndcg-lab slides
    assert shown_numbers(page) == expected_numbers("1, 0, 2, 1, 0")
    # notebooks/layouts/slides.css: widgets at 1.5x for the back of the room (marimo's page size otherwise)
    assert page.locator("marimo-text").first.evaluate("(e) => getComputedStyle(e).zoom") == "1.5"
    set_text(page, "Relevance labels", "3, 2, 0, ?, 1")
    assert shown_numbers(page) == expected_numbers("3, 2, 0, ?, 1")
    select_option(page, "Gain", "exponential")  # the next slide: Gain, its numbers and its plot
    show_slide_with(page, page.locator(PRESENT_NDCG, has_text=re.compile(r"^nDCG@\d+$")))
    assert shown_numbers(page) == expected_numbers("3, 2, 0, ?, 1", gain="exponential")
    assert page.locator(".reveal .slides > section.present figure.ndcg-plot").count() == 1
    page.screenshot(path=artifacts_dir / "playground_slides_changed.png")
    assert_no_traceback(page)


def test_slides_discount_slide_redraws_its_plot_and_numbers(lab_slides_server: str, page: Page) -> None:
    """The deck's slide cells see the controls through deck_controls (so the page reruns none of
    them): the discount slide's plot still follows its dropdown, through the numbers' state."""
    open_playground(page, lab_slides_server)
    select_option(page, "Discount", "1/i")
    present = page.locator(".reveal .slides > section.present")
    show_slide_with(page, present.locator("figure.ndcg-plot img"))
    expect(present.locator("figure.ndcg-plot img")).to_have_attribute(
        "alt", re.compile(r"^Discount by rank, 1/i, reciprocal highlighted"))
    assert shown_numbers(page) == expected_numbers("1, 0, 2, 1, 0", discount="reciprocal")
    assert_no_traceback(page)
