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
