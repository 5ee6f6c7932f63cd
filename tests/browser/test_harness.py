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
