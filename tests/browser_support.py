"""The one rule for tests that need a browser, shared by tests/browser and tests/packaging.

Without Debian's Chromium (``/usr/bin/chromium``) or the Python package Playwright a browser
test is skipped with the reason, unless the environment variable ``CI`` is set: then it
fails, so CI cannot pass by skipping. Never run ``playwright install``.
"""

from __future__ import annotations

import os
import pytest

from ndcg_core.ui.handout import CHROMIUM  # Debian's Chromium, the one path the project uses


def require_browser(what: str = "browser tests") -> None:
    """Skip (no CI) or fail (CI set) when Chromium or Playwright is missing."""
    problems = []
    if not CHROMIUM.exists():
        problems.append(f"{CHROMIUM} is missing (install Debian's chromium: apt-get install chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        problems.append("the Python package playwright is not installed (pip install playwright)")
    if not problems:
        return
    reason = f"{what} need chromium and Playwright: " + "; ".join(problems)
    if os.environ.get("CI"):
        pytest.fail(reason + ". CI is set, so this is a failure, not a skip.", pytrace=False)
    pytest.skip(reason + ". Skipped because CI is not set.")
