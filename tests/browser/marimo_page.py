"""Drive a served marimo notebook in Playwright, waiting on conditions (never fixed sleeps).

marimo widgets live in open shadow roots: Playwright's ``get_by_label``/``get_by_role`` and CSS
locators reach them, ``document.querySelector`` does not. Text inside them is read by
:func:`page_text`, which walks the shadow roots.

"Settled" means: the connection is OPEN, no cell is queued or running (tracked from the
kernel's ``cell-op`` messages by :data:`TRACKER_SCRIPT`, installed before the page loads)
and no output is marked stale or loading. A change made through :func:`set_text`,
:func:`set_number`, :func:`select_option` or :func:`run_and_settle` first waits for the run
it triggers to start, so a check can never pass on the outputs from before the change.

``ndcg-lab`` shows every notebook as one vertical page. Under ``ndcg-lab slides`` (the
``lab_slides_server`` fixture) notebooks with a layout open as slide decks: only the current
slide is usable (the others are ``inert``) and fragments are hidden until revealed. The
helpers above call :func:`show_slide_with`, which presses the right arrow until the control
is on screen (on a vertical page it does nothing). In slides, arrow keys pressed on a slider
move the deck, not the slider: set a slider through its number box (``include_input=True``).

Typical use::

    open_notebook(page, lab_server, "01_playground.py")
    set_text(page, "Relevance labels", "3, 2, 1")
    assert "nDCG@5" in page_text(page)
    assert_no_traceback(page)
"""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Locator, Page, expect

__all__ = [
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "TRACKER_SCRIPT",
    "install_tracker",
    "open_notebook",
    "show_slide_with",
    "is_inert",
    "DECK_STILL_JS",
    "wait_settled",
    "run_and_settle",
    "set_text",
    "select_option",
    "set_number",
    "page_text",
    "assert_no_traceback",
    "FAILURE_TEXTS",
    "SETTLE_TIMEOUT_MS",
    "ACTION_TIMEOUT_MS",
]

#: Debian's Chromium (never `playwright install`) and the flags it runs headless with here;
#: the browser tests (conftest.py) and bench/ui_latency.py launch it with these.
from ndcg_core.ui.handout import CHROMIUM, CHROMIUM_ARGS  # noqa: E402  (one list, the handout's)

#: Generous: a cold kernel on a loaded 2-core machine can take many seconds (a playground's first
#: run took over 90 s while a second suite ran beside this one). Only a failing wait lasts this long.
SETTLE_TIMEOUT_MS = 240_000
#: How long a change may take before the kernel reports the run it caused.
RUN_START_TIMEOUT_MS = 60_000
#: Playwright's deadline for an action (click, fill) and for ``expect(...)`` (its own default is 5 s),
#: set by the ``page`` and ``chromium`` fixtures.
ACTION_TIMEOUT_MS = 120_000

#: Texts that only appear when a cell failed (run mode hides tracebacks behind a toast).
FAILURE_TEXTS = (
    "Traceback",
    "An internal error occurred",
    "This cell raised an exception",
    "An ancestor raised an exception",
)

#: Wraps window.WebSocket to follow the kernel's cell statuses: window.__ndcgLab.busy holds
#: the ids of queued/running cells, .runs counts cells entering queued/running, .completed
#: counts finished runs, .lastOp is the time (performance.now()) of the last cell message.
TRACKER_SCRIPT = r"""
(() => {
  if (window.__ndcgLab) return;
  const state = { busy: new Set(), runs: 0, completed: 0, lastOp: 0 };
  window.__ndcgLab = state;
  const Native = window.WebSocket;
  function track(ws) {
    ws.addEventListener("message", (event) => {
      if (typeof event.data !== "string") return;
      const head = event.data.slice(0, 40);
      if (!head.includes("cell-op") && !head.includes("completed-run")) return;
      let msg;
      try { msg = JSON.parse(event.data); } catch (e) { return; }
      const data = (msg && msg.data) || {};
      const op = msg.op || data.op;
      if (op === "cell-op") state.lastOp = performance.now();
      if (op === "cell-op" && data.status) {
        if (data.status === "queued" || data.status === "running") {
          state.busy.add(data.cell_id);
          state.runs += 1;
        } else {
          state.busy.delete(data.cell_id);
        }
      } else if (op === "completed-run") {
        state.completed += 1;
      }
    });
  }
  window.WebSocket = new Proxy(Native, {
    construct(target, args, newTarget) {
      const ws = Reflect.construct(target, args, newTarget);
      track(ws);
      return ws;
    },
  });
})();
"""

#: How long after the kernel's last cell message the page must stay quiet to count as settled.
#: Not a sleep: the wait ends as soon as the condition holds, and restarts with every message.
QUIET_MS = 300

_SETTLED_JS = r"""
() => {
  const app = document.querySelector('[data-connection-state]');
  if (!app || app.getAttribute('data-connection-state') !== 'OPEN') return false;
  const s = window.__ndcgLab;
  if (s && s.busy.size > 0) return false;
  // the page renders a cell's last message a few frames after it arrives: wait for a quiet spell
  if (s && performance.now() - s.lastOp < QUIET_MS) return false;
  return document.querySelectorAll('.marimo-output-stale, .marimo-output-loading').length === 0;
}
""".replace("QUIET_MS", str(QUIET_MS))

_PAGE_TEXT_JS = r"""
() => {
  // node types by number: 1 element, 3 text, 11 shadow root (a page may shadow `Node`)
  const out = [];
  const skip = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE"]);
  function walk(node) {
    if (node.nodeType === 3) {
      const text = node.textContent.replace(/\s+/g, " ").trim();
      if (text && node.parentElement && node.parentElement.checkVisibility()) out.push(text);
      return;
    }
    if (node.nodeType === 1) {
      // no pruning on the element's own visibility: display:contents wrappers have no box
      if (skip.has(node.tagName)) return;
      if (node.shadowRoot) walk(node.shadowRoot);
    } else if (node.nodeType !== 11) {
      return;
    }
    for (const child of node.childNodes) walk(child);
  }
  walk(document.body);
  return out.join("\n");
}
"""


def install_tracker(page: Page) -> None:
    """Install :data:`TRACKER_SCRIPT` for every later navigation of ``page`` (idempotent)."""
    if getattr(page, "_ndcg_lab_tracker", False):
        return
    page.add_init_script(TRACKER_SCRIPT)
    page._ndcg_lab_tracker = True  # type: ignore[attr-defined]


def _runs(page: Page) -> int:
    return int(page.evaluate("() => window.__ndcgLab ? window.__ndcgLab.runs : -1"))


def wait_settled(page: Page, timeout: float = SETTLE_TIMEOUT_MS) -> None:
    """Wait until the connection is OPEN, no cell is queued or running and no output is stale."""
    page.wait_for_function(_SETTLED_JS, timeout=timeout, polling="raf")
    expect(page.locator(".marimo-output-stale, .marimo-output-loading")).to_have_count(0, timeout=timeout)


def open_notebook(page: Page, base_url: str, filename: str | None, timeout: float = SETTLE_TIMEOUT_MS) -> None:
    """Open ``/?file=<filename>`` and wait until its first run has finished and outputs settled.

    ``filename=None`` opens the base URL itself (a server running a single notebook).
    """
    install_tracker(page)
    page.goto(f"{base_url.rstrip('/')}/" + ("" if filename is None else f"?file={filename}"))
    page.wait_for_selector('[data-connection-state="OPEN"]', state="attached", timeout=timeout)
    # The first run: at least one cell has run and the kernel reported the run complete.
    page.wait_for_function(
        "() => window.__ndcgLab && window.__ndcgLab.runs > 0 && window.__ndcgLab.busy.size === 0",
        timeout=timeout,
        polling="raf",
    )
    wait_settled(page, timeout)


def run_and_settle(
    page: Page,
    action: Callable[[], object],
    *,
    expect_run: bool = True,
    what: str = "the change",
    timeout: float = SETTLE_TIMEOUT_MS,
) -> None:
    """Do ``action`` (a click, a key press...), wait for the run it causes, then until settled.

    ``expect_run=False`` for an action that cannot change any value (nothing will run).
    """
    before = _runs(page)
    action()
    if expect_run and before >= 0:
        try:
            page.wait_for_function(
                "(n) => window.__ndcgLab.runs > n || window.__ndcgLab.busy.size > 0",
                arg=before,
                timeout=min(timeout, RUN_START_TIMEOUT_MS),
                polling="raf",
            )
        except Exception as err:  # a clearer message than Playwright's timeout
            raise AssertionError(
                f"no cell ran within {RUN_START_TIMEOUT_MS / 1000:g} s after {what}; "
                "is the widget used by any cell, and did its value change?"
            ) from err
    wait_settled(page, timeout)


_INERT_JS = r"""
(element) => {
  for (let e = element; e; e = e.parentElement || (e.getRootNode() && e.getRootNode().host)) {
    if (e.inert) return true;
  }
  return false;
}
"""


def is_inert(control: Locator) -> bool:
    """True if the element sits on a slide that is not shown (slides mark other slides inert)."""
    return bool(control.evaluate(_INERT_JS))


_DECK_STATE_JS = r"""
() => {
  const sections = [...document.querySelectorAll('.reveal .slides section')];
  const present = sections.findIndex((s) => s.classList.contains('present'));
  return present + ':' + document.querySelectorAll('.reveal .fragment.visible').length;
}
"""

#: True once no slide is moving (no CSS transition or animation inside the deck's slides;
#: the bouncing next-slide arrow does not count), or when there is no deck.
DECK_STILL_JS = r"""
() => {
  const slides = document.querySelector('.reveal .slides');
  return !slides || slides.getAnimations({ subtree: true }).length === 0;
}
"""

_BLUR_JS = r"""
() => {
  let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  if (a && a !== document.body && a.blur) a.blur();
}
"""


def _shown(control: Locator) -> bool:
    return control.count() > 0 and not is_inert(control.first) and control.first.is_visible()


def show_slide_with(page: Page, control: Locator, max_slides: int = 30, timeout: float = 10_000) -> None:
    """In the slides view, press the right arrow until ``control`` is on the current slide and
    shown (a fragment is revealed by an arrow press too).

    Does nothing when the control is already usable (the vertical view, or the right slide).
    Each press waits for the deck to move (a new slide or fragment), never for a fixed time.
    """
    for _ in range(max_slides):
        if _shown(control):
            return
        before = page.evaluate(_DECK_STATE_JS)
        if before.startswith("-1:"):
            raise AssertionError(f"{control} is not shown and the page has no slide deck to advance")
        page.evaluate(_BLUR_JS)  # an arrow key in a focused text box would move the caret instead
        page.keyboard.press("ArrowRight")
        try:
            page.wait_for_function(
                f"(before) => ({_DECK_STATE_JS.strip()})() !== before", arg=before, timeout=timeout, polling="raf"
            )
        except Exception as err:
            raise AssertionError(f"the slide deck did not advance from {before} (last slide?)") from err
        page.wait_for_function(DECK_STILL_JS, timeout=timeout, polling="raf")
    if not _shown(control):
        raise AssertionError(f"no slide within {max_slides} right-arrow presses shows {control}")


def _control(page: Page, label: str) -> Locator:
    control = page.get_by_label(label, exact=True)
    count = control.count()
    if count != 1:
        raise AssertionError(f"expected exactly one control labelled {label!r}; found {count}")
    show_slide_with(page, control)
    return control


def set_text(page: Page, label: str, value: str, timeout: float = SETTLE_TIMEOUT_MS) -> None:
    """Type ``value`` into the ``mo.ui.text`` labelled ``label``, press Enter, wait until settled."""
    box = _control(page, label)
    changed = box.input_value() != value

    def act() -> None:
        box.fill(value)
        box.press("Enter")

    run_and_settle(page, act, expect_run=changed, what=f"setting {label!r} to {value!r}", timeout=timeout)


def set_number(page: Page, label: str, value: float | str, timeout: float = SETTLE_TIMEOUT_MS) -> None:
    """Type ``value`` into the ``mo.ui.number`` labelled ``label``, press Enter, wait until settled.

    marimo 0.25 gives a number box no usable accessible name, so it is found by its visible label.
    """
    number = page.locator("marimo-number").filter(has=page.get_by_text(label, exact=True))
    count = number.count()
    if count != 1:
        raise AssertionError(f"expected exactly one number box labelled {label!r}; found {count}")
    box = number.locator("input")
    show_slide_with(page, box)
    changed = box.input_value() != str(value)

    def act() -> None:
        box.fill(str(value))
        box.press("Enter")

    run_and_settle(page, act, expect_run=changed, what=f"setting {label!r} to {value!r}", timeout=timeout)


def select_option(page: Page, label: str, value: str, timeout: float = SETTLE_TIMEOUT_MS) -> None:
    """Choose the option shown as ``value`` in the dropdown labelled ``label``; wait until settled."""
    select = _control(page, label)
    current = select.evaluate("(e) => e.selectedIndex >= 0 ? e.options[e.selectedIndex].text : null")
    changed = current is None or current.strip() != value

    def act() -> None:
        select.select_option(label=value)

    run_and_settle(page, act, expect_run=changed, what=f"choosing {value!r} in {label!r}", timeout=timeout)


def page_text(page: Page) -> str:
    """All visible text of the page, including text inside shadow roots, one run per line."""
    return str(page.evaluate(_PAGE_TEXT_JS))


def wait_for_text(page: Page, needle: str, timeout: float = SETTLE_TIMEOUT_MS) -> None:
    """Wait until the page's visible text (white space folded to single spaces) contains ``needle``,
    then until outputs settle.

    For outputs that change in a second run the first one triggers (a ``mo.state`` update):
    the page is settled between the two runs, so waiting for the run is not enough.
    """
    try:
        page.wait_for_function(
            f"(needle) => ({_PAGE_TEXT_JS.strip()})().replace(/\\s+/g, ' ').includes(needle)",
            arg=needle,
            timeout=timeout,
            polling=200,
        )
    except Exception as err:
        raise AssertionError(f"the page never showed {needle!r}; page text:\n{page_text(page)[:3000]}") from err
    wait_settled(page, timeout)


def assert_no_traceback(page: Page) -> None:
    """Fail if the page shows a traceback or marimo's cell-failure messages."""
    text = page_text(page)
    shown = [needle for needle in FAILURE_TEXTS if needle in text]
    assert not shown, f"the page shows {shown}; page text:\n{text[:3000]}"
