"""ndcg-lab handout without its optional extra: a clear message naming the extra, never a traceback."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from ndcg_core.ui import handout, lab


def test_handout_without_playwright_says_which_extra_to_install(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    # a None entry in sys.modules makes `import playwright.sync_api` raise ImportError, as when it is not installed
    monkeypatch.setitem(sys.modules, "playwright", None)
    monkeypatch.setitem(sys.modules, "playwright.sync_api", None)
    assert handout.run(tmp_path / "out", folder=tmp_path) == 2
    message = capsys.readouterr().err
    assert "pip install 'ndcg-lab[handout]'" in message and "-e '.[handout]'" in message
    assert "Traceback" not in message and not (tmp_path / "out").exists()


def test_the_command_line_passes_the_message_on(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "playwright", None)
    monkeypatch.setitem(sys.modules, "playwright.sync_api", None)
    assert lab.main(["handout", "--out", str(tmp_path / "out")]) == 2
    assert "[handout]" in capsys.readouterr().err
