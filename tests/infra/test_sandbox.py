"""Learner code in the sandbox (infra.sandbox.run_cases and check_code_text): right code passes,
each attack ends in a clear message, nothing on disk changes, and the caller's process is untouched.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import psutil
import pytest

from ndcg_core.infra import sandbox
from ndcg_core.infra.sandbox import check_code_text

RIGHT_DCG = """from math import log2

def dcg(rels, k):
    return sum(rels[i] / log2(i + 2) for i in range(min(k, len(rels))))
"""
RIGHT_NDCG = RIGHT_DCG + """
def ndcg(rels, k):
    best = dcg(sorted(rels, reverse=True), k)
    return dcg(rels, k) / best if best > 0 else 0.0
"""

ATTACKS = {
    "infinite loop": ("def dcg(rels, k):\n    while True:\n        pass\n", "timeout", "loop that never ends"),
    "import os": ("import os\ndef dcg(rels, k):\n    return 0.0\n", "error", "import os is not allowed"),
    "open()": ("def dcg(rels, k):\n    open('pwned.txt', 'w').write('x')\n    return 0.0\n", "ok",
               "Files, input and running other code are not available"),
    "memory bomb": ("def dcg(rels, k):\n    x = [0] * (10 ** 9)\n    return 0.0\n", "memory", "ran out of memory"),
    "fork": ("import os\nos.fork()\n", "error", "import os is not allowed"),
    "escape through dunders": ("def dcg(rels, k):\n    return ().__class__.__bases__[0].__subclasses__()\n",
                               "refused", "starts with \"_\""),
    "huge output": ("def dcg(rels, k):\n    for i in range(10 ** 9):\n        print('x' * 10000)\n    return 0.0\n",
                    None, ""),
    "syntax error": ("def dcg(rels, k)\n    return 0\n", "refused", "SyntaxError"),
    "wrong name": ("def dgc(rels, k):\n    return 0.0\n", "missing", "no function named dcg. It defines dgc"),
    "wrong signature": ("def dcg(rels):\n    return 0.0\n", "signature", "exactly the two arguments"),
    "enormous number": ("def dcg(rels, k):\n    return 10 ** 10 ** 10\n", "timeout", "was stopped"),
}


def test_right_code_passes_every_case():
    assert check_code_text("code-dcg", RIGHT_DCG).passed
    assert check_code_text("code-ndcg", RIGHT_NDCG).passed


def test_the_zero_based_slip_is_named():
    slip = "from math import log2\ndef dcg(rels, k):\n    return sum(rels[i] / log2(i + 1) if i else rels[0] for i in range(min(k, len(rels))))\n"
    report = check_code_text("code-dcg", slip)
    assert not report.passed and report.failures
    text = report.markdown()
    assert "expected" in text and "got" in text


def test_the_exam_ndcg_names_the_ideal_from_the_run_or_the_zero_case():
    exam = RIGHT_DCG + "\ndef ndcg(rels, k):\n    return dcg(rels, k) / dcg(sorted(rels, reverse=True), k)\n"
    report = check_code_text("code-ndcg", exam)
    assert not report.passed
    assert any("ZeroDivisionError" in c.problem for c in report.failures)


@pytest.mark.parametrize("name", list(ATTACKS))
def test_each_attack_ends_in_a_clear_message(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    source, status, words = ATTACKS[name]
    before = sorted(os.listdir(tmp_path))
    start = time.monotonic()
    outcome = sandbox.run_cases(source, "dcg", [((1, 0, 2, 1, 0), 5)])
    assert time.monotonic() - start < sandbox.WALL_SECONDS + 120  # stopped by the limit (generous: a busy machine)
    if status is not None:
        assert outcome.status == status, outcome
    else:
        assert outcome.status in ("timeout", "memory", "crashed"), outcome
    report = check_code_text("code-dcg", source)
    assert not report.passed
    text = report.markdown()
    assert "Traceback" not in text
    if words:
        assert words in text, text
    assert sorted(os.listdir(tmp_path)) == before
    assert not Path("pwned.txt").exists()


def test_the_child_has_its_limits():
    probe = ("import math\ndef dcg(rels, k):\n    return 1.0\n")
    assert sandbox.run_cases(probe, "dcg", [((1,), 1)]).status == "ok"
    # the limits are read by the child from the request: check the constants are sane
    assert sandbox.CPU_SECONDS <= 5 and sandbox.MEMORY_BYTES <= 512 * 2**20 and sandbox.WALL_SECONDS <= 10


def _looping_children() -> list[psutil.Process]:
    """This process's sandbox children (``python -I -B .../sandbox_child.py``)."""
    child = str(Path(sandbox.__file__).with_name("sandbox_child.py"))
    found = []
    for proc in psutil.Process().children(recursive=True):
        try:
            if child in proc.cmdline():
                found.append(proc)
        except psutil.Error:
            pass
    return found


def test_others_are_answered_while_one_learner_loops(monkeypatch):
    """A learner's endless loop runs in a process of its own: another learner's code is checked
    while the loop still runs. A condition, not a stopwatch: the loop's limits are lifted for this
    test, so it is still running however busy the machine is, and the test stops it itself."""
    monkeypatch.setattr(sandbox, "WALL_SECONDS", 600.0)
    monkeypatch.setattr(sandbox, "CPU_SECONDS", 600)
    slow = threading.Thread(target=sandbox.run_cases,
                            args=("def dcg(rels, k):\n    while True:\n        pass\n", "dcg", [((1,), 1)]))
    slow.start()
    try:
        deadline = time.monotonic() + 120
        while not _looping_children():  # polling the condition: the loop's process is running
            assert time.monotonic() < deadline and slow.is_alive(), "the looping code never started"
            time.sleep(0.05)
        assert check_code_text("code-dcg", RIGHT_DCG).passed
        assert slow.is_alive() and _looping_children()  # answered while the other learner's loop still ran
    finally:
        for proc in _looping_children():
            proc.kill()
        slow.join()


def test_empty_and_overlong_code():
    assert "Type your function first" in check_code_text("code-dcg", "  ").message
    assert "the limit is" in check_code_text("code-dcg", "#" * 6000).message
