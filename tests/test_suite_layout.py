"""The test tree itself: every test module has a basename of its own.

pytest imports test modules by basename (rootdir-relative, no packages), so two folders holding
``test_x.py`` break the collection of the whole suite ("import file mismatch") while each folder
alone passes: a helper running only its folder never sees it.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent


def test_every_test_module_has_a_unique_basename() -> None:
    names = Counter(path.name for path in TESTS.rglob("test_*.py"))
    assert not [name for name, count in names.items() if count > 1]


def test_the_one_process_modules_exist(pytestconfig: pytest.Config) -> None:
    """tests/conftest.py groups these modules for pytest-xdist: a renamed one would lose its group."""
    found = [p.ONE_PROCESS_MODULES for p in pytestconfig.pluginmanager.get_plugins() if hasattr(p, "ONE_PROCESS_MODULES")]
    assert len(found) == 1  # tests/conftest.py, loaded as a plugin
    assert sorted(m for m in found[0] if not (TESTS / m).is_file()) == []


def test_a_lost_xdist_group_stops_the_run(monkeypatch: pytest.MonkeyPatch, pytestconfig: pytest.Config) -> None:
    """tests/conftest.py refuses a worker whose grouped tests lost their ``@group`` suffix (pytest
    9.2 with pytest-xdist 3.8 did that without a word: pytest-dev/pytest-xdist#1386)."""
    plugin = next(p for p in pytestconfig.pluginmanager.get_plugins() if hasattr(p, "ONE_PROCESS_MODULES"))

    class Item:
        def __init__(self, nodeid: str, grouped: bool) -> None:
            self.nodeid, self.grouped = nodeid, grouped

        def get_closest_marker(self, name: str) -> object:
            return object() if self.grouped and name == "xdist_group" else None

    class Session:
        config = type("Config", (), {"getoption": staticmethod(lambda name, default=None: "loadgroup")})()

        def __init__(self, items: list[Item]) -> None:
            self.items = items

    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    kept = [Item("tests/a.py::t[x]@g", True), Item("tests/a.py::u@g", True), Item("tests/b.py::t[y]", False)]
    plugin.pytest_collection_finish(Session(kept))  # every group is there: nothing to say
    with pytest.raises(pytest.UsageError, match=r"lost the xdist_group of 1 tests \(e\.g\. tests/a\.py::t\[x\]\)"):
        plugin.pytest_collection_finish(Session([*kept[1:], Item("tests/a.py::t[x]", True)]))
