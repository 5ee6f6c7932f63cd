"""Notebook pages shared by the browser tests of one notebook (the ``notebook_pages`` fixture).

A page load is most of a browser test's cost (marimo's frontend is parsed and run again for
each page: 4-6 CPU-s of Chromium, bench/suite_pages.py), so the tests that only look at a
notebook as its first run left it (axe-core, a rendering check) share one page, and the first
test of the notebook that changes it takes that page over. Every such test is grouped by
notebook with :func:`on_notebook`: under ``--dist loadgroup`` the group runs in one process in
collection order. In any other order, or alone, a test simply opens the page itself.
"""

from __future__ import annotations

import pytest
from marimo_page import open_notebook

#: The viewport of every page of the session's browser context (conftest's ``page`` fixture too).
PAGE_VIEWPORT = {"width": 1280, "height": 900}


def on_notebook(filename: str) -> pytest.MarkDecorator:
    """The pytest-xdist group of the tests that share ``filename``'s page through ``notebook_pages``:
    under ``--dist loadgroup`` they go to one process and run in collection order, so the
    readers (test_accessibility) come before the one test that takes the page."""
    return pytest.mark.xdist_group(name=f"notebook {filename}")


_RUNS_JS = "() => window.__ndcgLab ? window.__ndcgLab.runs : -1"


class PageStore:
    """The kept pages of one test process: {filename: (page, runs after its first run)}. At most
    :attr:`KEEP` stay open (the oldest is closed): a group's tests run one after the other, so
    a kept page is only needed until its group ends, and every open page holds a kernel."""

    KEEP = 2

    def __init__(self, context: object, base_url: str) -> None:
        self.context, self.base_url = context, base_url
        self.kept: dict[str, tuple[object, int]] = {}

    def open(self, filename: str) -> tuple[object, int]:
        if filename in self.kept:
            return self.kept.pop(filename)
        page = self.context.new_page()  # type: ignore[attr-defined]
        page.set_viewport_size(PAGE_VIEWPORT)
        open_notebook(page, self.base_url, filename)
        return page, int(page.evaluate(_RUNS_JS))

    def keep(self, filename: str, page: object, runs: int) -> None:
        self.kept[filename] = (page, runs)
        while len(self.kept) > self.KEEP:
            oldest = next(iter(self.kept))
            self.kept.pop(oldest)[0].close()  # type: ignore[attr-defined]

    def close(self) -> None:
        for page, _ in self.kept.values():
            page.close()  # type: ignore[attr-defined]
        self.kept.clear()


class NotebookPages:
    """What a test gets from ``notebook_pages``: pages at their notebook's first run, shared."""

    def __init__(self, store: PageStore) -> None:
        self._store = store
        self._read: list[tuple[str, object, int]] = []
        self._taken: list[object] = []

    def read(self, filename: str) -> object:
        """The notebook's page as its first run left it, for a test that changes nothing on it
        (no cell may run because of the test: checked after it, and the test fails if one did)."""
        page, runs = self._store.open(filename)
        self._read.append((filename, page, runs))
        return page

    def take(self, filename: str) -> object:
        """The notebook's page as its first run left it (kept, or opened now), for a test that
        changes it: nobody else gets it, and it is closed after the test."""
        page, _ = self._store.open(filename)
        self._taken.append(page)
        return page

    def _finish(self) -> list[str]:
        """Keep the pages that were only read and still are as they were; close the rest."""
        changed = []
        for page in self._taken:
            page.close()  # type: ignore[attr-defined]
        for filename, page, runs in self._read:
            try:
                now = int(page.evaluate(_RUNS_JS))  # type: ignore[attr-defined]
            except Exception:  # the test closed or crashed the page
                now = None
            if now == runs:
                self._store.keep(filename, page, runs)
            else:
                changed.append(f"{filename}: {'the page was closed' if now is None else f'{now - runs} cell runs'}")
                try:
                    page.close()  # type: ignore[attr-defined]
                except Exception:
                    pass
        return changed
