"""Fixtures for the end-to-end tests: a real ``ndcg-lab`` server and headless Debian chromium.

- ``lab_server`` (session scope): starts ``ndcg-lab --port <free> --headless`` once for every
  module that asks for it, waits until it answers, yields its base URL
  (``http://127.0.0.1:PORT``), and stops it (and marimo under it) when the session ends. Every
  notebook is one vertical page there. Each page opened is a kernel session of its own, and
  progress goes to the session's one ``NDCG_LAB_DATA_DIR`` (tests/conftest.py) whichever server
  writes it, so sharing the server shares nothing a test could see. A module that needs a
  server of its own (other options, a restart, its own data folder) starts one with
  :func:`_lab` in a module-scoped fixture, as tests/browser/test_learning_loop.py does.
- ``lab_slides_server`` (session scope): the same for ``ndcg-lab slides``: the decks of
  ``notebooks/decks/`` (each names its layout) open as slide decks (arrow keys).
- ``page``: a fresh Playwright page in headless chromium, with the run tracker of
  :mod:`marimo_page` installed. Pages share one browser context (``browser_context``: its
  caches; cookies and storage are cleared after each test).
- ``notebook_pages``: notebook pages of ``lab_server`` as their first run left them, shared by
  the tests of one notebook (a page load is most of a browser test's CPU): ``read(filename)``
  for a test that only looks (checked: no cell may run while it holds the page),
  ``take(filename)`` for one that changes it (the page is closed after that test). Tests that
  use it are grouped by notebook (:func:`on_notebook`), so they run in one process, one
  after the other, and the page opens once for the group.
- ``artifacts_dir``: ``tests/artifacts/`` (gitignored) for screenshots.

Without ``/usr/bin/chromium`` (or Playwright) the tests skip with the reason, unless the
environment variable ``CI`` is set: then a missing browser is a failure, so CI cannot pass by
skipping. Never run ``playwright install``: the tests use Debian's chromium.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # so test modules can `from marimo_page import ...`

from browser_support import require_browser  # noqa: E402
from marimo_page import ACTION_TIMEOUT_MS, install_tracker  # noqa: E402
from shared_pages import PAGE_VIEWPORT, NotebookPages, PageStore  # noqa: E402
from ndcg_core.infra.processes import free_port  # noqa: E402, F401 (test_harness reaches it here)

ARTIFACTS = HERE.parent / "artifacts"
SERVER_START_TIMEOUT = 120.0
SERVER_STOP_TIMEOUT = 20.0


def _ndcg_lab_command() -> list[str]:
    script = Path(sys.executable).with_name("ndcg-lab")
    if script.exists():
        return [str(script)]
    found = shutil.which("ndcg-lab")
    if found:
        return [found]
    return [sys.executable, "-m", "ndcg_core.ui.lab"]


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
        return False


def _stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM to ndcg-lab (it forwards to marimo); SIGKILL to the group if it hangs."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=SERVER_STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _lab(tmp_path_factory: pytest.TempPathFactory, *mode: str) -> Iterator[str]:
    """Start ``ndcg-lab [mode] --port <free> --headless``, yield its base URL, stop it."""
    require_browser()
    port = free_port()
    log_path = tmp_path_factory.mktemp("ndcg_lab") / "server.log"
    env = {key: value for key, value in os.environ.items() if key != "NDCG_LAB_PASSWORD"}
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [*_ndcg_lab_command(), *mode, "--port", str(port), "--headless"],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            env=env,
        )
    base_url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        while not _answers(base_url + "/"):
            if process.poll() is not None:
                pytest.fail(f"ndcg-lab {' '.join(mode)} exited with {process.returncode}:\n{log_path.read_text()}", pytrace=False)
            if time.monotonic() > deadline:
                pytest.fail(
                    f"ndcg-lab did not answer on {base_url} within {SERVER_START_TIMEOUT:g} s:\n{log_path.read_text()}",
                    pytrace=False,
                )
            time.sleep(0.1)  # polling the condition above, not a fixed wait
        yield base_url
    finally:
        _stop(process)


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of the session's ``ndcg-lab`` server (notebooks as pages), shared by every module."""
    yield from _lab(tmp_path_factory)


@pytest.fixture(scope="session")
def lab_slides_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of the session's ``ndcg-lab slides`` server (decks as slides), shared by every module."""
    yield from _lab(tmp_path_factory, "slides")




@pytest.fixture(scope="session")
def browser_context(chromium: object) -> Iterator[object]:
    """One browser context for every ``page`` of the session, so that marimo's frontend (about
    7 MB of scripts) is downloaded, compressed by the server and compiled by Chromium once, not
    once per test: a notebook page opens in about 3.3 s of CPU instead of 4.9 (server and
    Chromium together, measured on 01). Cookies and storage are cleared after each test;
    only the HTTP and code caches are shared. A test that needs a context of its own (a phone,
    a login) makes one from ``chromium``."""
    context = chromium.new_context(viewport=PAGE_VIEWPORT)  # type: ignore[attr-defined]
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    try:
        yield context
    finally:
        context.close()


_FORGET_JS = "() => { try { localStorage.clear(); sessionStorage.clear(); } catch (e) {} }"


@pytest.fixture
def page(browser_context: object) -> Iterator[object]:
    """A fresh page (1280x900) in the session's browser context, with the marimo run tracker installed."""
    new_page = browser_context.new_page()  # type: ignore[attr-defined]
    new_page.set_viewport_size(PAGE_VIEWPORT)
    install_tracker(new_page)
    try:
        yield new_page
    finally:
        try:
            if new_page.url.startswith("http"):
                new_page.evaluate(_FORGET_JS)
        except Exception:  # a page the test closed or crashed: nothing to forget
            pass
        new_page.close()
        browser_context.clear_cookies()  # type: ignore[attr-defined]


@pytest.fixture(scope="session")
def _page_store(browser_context: object, lab_server: str) -> Iterator[PageStore]:
    store = PageStore(browser_context, lab_server)
    try:
        yield store
    finally:
        store.close()


@pytest.fixture
def notebook_pages(_page_store: PageStore) -> Iterator[NotebookPages]:
    """Shared notebook pages of ``lab_server`` (see the module's docstring); group the test with
    :func:`on_notebook` so it shares them."""
    pages = NotebookPages(_page_store)
    yield pages
    changed = pages._finish()
    if changed:
        pytest.fail("a test that read a shared page changed it (use notebook_pages.take): " + "; ".join(changed),
                    pytrace=False)


@pytest.fixture
def artifacts_dir() -> Path:
    """``tests/artifacts/`` (gitignored), created on demand, for screenshots."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
