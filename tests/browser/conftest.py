"""Fixtures for the end-to-end tests: a real ``ndcg-lab`` server and headless Debian chromium.

- ``lab_server`` (module scope): starts ``ndcg-lab --port <free> --headless``, waits until it
  answers, yields its base URL (``http://127.0.0.1:PORT``), and stops it (and marimo under it)
  when the module is done. Every notebook is one vertical page there.
- ``lab_slides_server`` (module scope): the same for ``ndcg-lab slides``: the decks of
  ``notebooks/decks/`` (each names its layout) open as slide decks (arrow keys).
- ``page``: a fresh Playwright page (its own browser context) in headless chromium, with the
  run tracker of :mod:`marimo_page` installed.
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
from marimo_page import install_tracker  # noqa: E402
from ndcg_core.infra.processes import free_port  # noqa: E402, F401 (test_harness reaches it here)

ARTIFACTS = HERE.parent / "artifacts"
SERVER_START_TIMEOUT = 120.0
SERVER_STOP_TIMEOUT = 20.0


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test under tests/browser is a browser test."""
    for item in items:
        if HERE in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.browser)


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


@pytest.fixture(scope="module")
def lab_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of an ``ndcg-lab`` server started for this test module (notebooks as pages)."""
    yield from _lab(tmp_path_factory)


@pytest.fixture(scope="module")
def lab_slides_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of an ``ndcg-lab slides`` server started for this test module (decks as slides)."""
    yield from _lab(tmp_path_factory, "slides")


@pytest.fixture
def page(chromium: object) -> Iterator[object]:
    """A fresh page in its own context (1280x900), with the marimo run tracker installed."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    context.set_default_timeout(60_000)
    new_page = context.new_page()
    install_tracker(new_page)
    try:
        yield new_page
    finally:
        context.close()


@pytest.fixture
def artifacts_dir() -> Path:
    """``tests/artifacts/`` (gitignored), created on demand, for screenshots."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
