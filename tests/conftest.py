"""Suite-wide settings: hypothesis without per-example deadlines.

The suite runs on shared, noisy 2-core machines; a property that is correct must not fail
because one example took longer than hypothesis' default 200 ms while the machine was busy.
"""

import os
import sys

# pytest rewrites every test module's asserts on import and caches the result in __pycache__
# (gitignored), unless bytecode writing is off (PYTHONDONTWRITEBYTECODE, as some machines set):
# then each run, and each pytest-xdist worker, rewrites all of them again (about 5 s of CPU each).
# So the test process writes bytecode (into the gitignored __pycache__ folders) whatever the
# environment says; processes the tests start follow the environment.
sys.dont_write_bytecode = False

# Figures are drawn off screen, in this process too (notebooks run in-process: tests/notebook_runs.py).
os.environ.setdefault("MPLBACKEND", "Agg")

from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile("ndcg-lab", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ndcg-lab")

# Loaded as a plugin, not collected: --doctest-modules would import this file a second
# time under the name "conftest", which tests/browser/conftest.py already holds.
collect_ignore = ["conftest.py"]

# Helpers shared by several test folders (first_exercises.py, browser_support.py) live in
# tests/ itself; tests/browser/marimo_page.py drives marimo pages.
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "browser"))

from browser_support import require_browser  # noqa: E402

#: The markers a test gets from its folder (tests/<folder>/...), registered in pyproject.toml.
#: ``pytest -m "not browser and not load and not packaging"`` is the fast inner loop.
FOLDER_MARKERS = {"browser": "browser", "load": "load", "packaging": "packaging"}


#: Modules whose tests share a costly module-scoped server (HAProxy and workers, a server of
#: their own, a built wheel): under pytest-xdist (``-n 3 --dist loadgroup``, the README's
#: command) each of them runs in one process, so that server starts once. Every other test
#: goes to whichever process is free.
ONE_PROCESS_MODULES = {
    "browser/test_live_questions.py", "browser/test_learning_loop.py", "browser/test_front_door.py",
    "browser/test_exercises_browser.py",  # its tests share pages
    "load/test_classroom_load.py", "packaging/test_wheel.py", "ui/test_classroom.py", "ui/test_front.py",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark tests by folder, every test that drives Chromium (the ``chromium`` fixture) as
    ``browser``, and the tests of :data:`ONE_PROCESS_MODULES` as one pytest-xdist group each."""
    for item in items:
        path = Path(str(item.path)).resolve()
        parts = path.relative_to(HERE).parts if HERE in path.parents else ()
        if len(parts) > 1 and parts[0] in FOLDER_MARKERS:
            item.add_marker(FOLDER_MARKERS[parts[0]])
        if "chromium" in getattr(item, "fixturenames", ()):
            item.add_marker("browser")
        if "/".join(parts) in ONE_PROCESS_MODULES:
            item.add_marker(pytest.mark.xdist_group(name="/".join(parts)))


def pytest_collection_finish(session: pytest.Session) -> None:
    """Under ``--dist loadgroup`` a grouped test's node id carries its group (``...@group``):
    that suffix is how pytest-xdist tells its scheduler which tests go together. With pytest
    9.2 and xdist 3.8 the suffix is lost and the groups silently do nothing (every module of
    :data:`ONE_PROCESS_MODULES` then starts its server in each process:
    pytest-dev/pytest-xdist#1386), so a worker that sees a lost group stops the run."""
    if not os.environ.get("PYTEST_XDIST_WORKER") or session.config.getoption("dist", "no") != "loadgroup":
        return
    lost = [item.nodeid for item in session.items
            if item.get_closest_marker("xdist_group") and item.nodeid.rfind("@") < item.nodeid.rfind("]") + 1]
    if lost:
        raise pytest.UsageError(
            f"--dist loadgroup lost the xdist_group of {len(lost)} tests (e.g. {lost[0]}): this pytest and "
            "pytest-xdist do not work together (pytest-dev/pytest-xdist#1386); install the test extra's pytest "
            "(pip install -e '.[test]')"
        )


@pytest.fixture(scope="session")
def chromium() -> Iterator[object]:
    """The session's one headless Chromium (Playwright's sync API allows one per process)."""
    require_browser()
    from marimo_page import ACTION_TIMEOUT_MS, CHROMIUM_ARGS
    from playwright.sync_api import expect, sync_playwright

    from browser_support import CHROMIUM

    # Playwright's default 5 s for expect(...) fails a right page on a busy machine; a deadline
    # only matters when the condition never holds, so make it generous
    expect.set_options(timeout=ACTION_TIMEOUT_MS)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


# Progress and class answers go to a throwaway data folder, never the tester's own
# (~/.local/share/ndcg-lab); servers the browser tests start inherit it.
import tempfile  # noqa: E402

os.environ.setdefault("NDCG_LAB_DATA_DIR", tempfile.mkdtemp(prefix="ndcg-lab-test-data-"))
