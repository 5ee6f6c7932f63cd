"""The test tree itself: every test module has a basename of its own.

pytest imports test modules by basename (rootdir-relative, no packages), so two folders holding
``test_x.py`` break the collection of the whole suite ("import file mismatch") while each folder
alone passes: a helper running only its folder never sees it.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_every_test_module_has_a_unique_basename() -> None:
    names = Counter(path.name for path in TESTS.rglob("test_*.py"))
    assert not [name for name, count in names.items() if count > 1]
