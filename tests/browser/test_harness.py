"""The browser-test harness itself: skip or fail without chromium, free ports."""

from __future__ import annotations

import importlib.util
import socket
from pathlib import Path

import browser_support  # tests/browser_support.py: the one skip-or-fail rule
import pytest

HERE = Path(__file__).resolve().parent


def load_conftest():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("browser_conftest_under_test", HERE / "conftest.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def test_missing_chromium_skips_with_the_reason_when_ci_is_not_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(browser_support, "CHROMIUM", Path("/nonexistent/chromium"))
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"/nonexistent/chromium is missing .*Skipped because CI is not set"):
        browser_support.require_browser()


def test_missing_chromium_fails_when_ci_is_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(browser_support, "CHROMIUM", Path("/nonexistent/chromium"))
    monkeypatch.setenv("CI", "1")
    with pytest.raises(pytest.fail.Exception, match=r"CI is set, so this is a failure, not a skip"):
        browser_support.require_browser()


def test_free_port_can_be_bound() -> None:
    port = load_conftest().free_port()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", port))


class FakePage:
    """Stands in for a Playwright page in the shared-page store: its run counter and closing."""

    opened = 0

    def __init__(self) -> None:
        FakePage.opened += 1
        self.runs, self.closed = 5, False

    def evaluate(self, script: str) -> int:
        if self.closed:
            raise RuntimeError("closed")
        return self.runs

    def close(self) -> None:
        self.closed = True


def _store(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    import shared_pages

    monkeypatch.setattr(shared_pages, "open_notebook", lambda page, base, filename: None)
    monkeypatch.setattr(FakePage, "opened", 0)
    context = type("Context", (), {"new_page": staticmethod(FakePage)})()
    FakePage.set_viewport_size = lambda self, size: None  # type: ignore[attr-defined]
    return shared_pages, shared_pages.PageStore(context, "http://lab")


def test_a_read_page_is_kept_for_the_next_test_and_taken_once(monkeypatch: pytest.MonkeyPatch) -> None:
    shared_pages, store = _store(monkeypatch)
    first = shared_pages.NotebookPages(store)
    page = first.read("02_gains.py")
    assert first._finish() == [] and not page.closed  # nothing ran: kept
    second = shared_pages.NotebookPages(store)
    assert second.read("02_gains.py") is page and second._finish() == []
    taker = shared_pages.NotebookPages(store)
    assert taker.take("02_gains.py") is page
    page.runs += 3  # the taker changes it
    assert taker._finish() == [] and page.closed  # and it is closed after the taker
    assert shared_pages.NotebookPages(store).take("02_gains.py") is not page  # the next one opens anew
    assert FakePage.opened == 2


def test_a_reader_that_changed_the_page_is_named_and_the_page_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    shared_pages, store = _store(monkeypatch)
    reader = shared_pages.NotebookPages(store)
    page = reader.read("05_unjudged.py")
    page.runs += 2
    assert reader._finish() == ["05_unjudged.py: 2 cell runs"]
    assert page.closed and store.kept == {}


def test_the_store_keeps_at_most_two_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    shared_pages, store = _store(monkeypatch)
    pages = []
    for name in ("01.py", "02.py", "03.py"):
        reader = shared_pages.NotebookPages(store)
        pages.append(reader.read(name))
        reader._finish()
    assert list(store.kept) == ["02.py", "03.py"] and pages[0].closed
