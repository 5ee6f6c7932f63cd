"""Where the test suite's time goes: page loads and test-seconds per test module.

The README's test command is CPU-bound on a 2-core machine (about two busy cores for its
whole run), and most of its CPU is headless Chromium opening marimo pages: each opening of a
notebook costs 4-6 CPU-seconds of Chromium (its frontend's scripts are parsed and run again
for every page, whatever the flags; measured on 02_gains) plus the kernel's run of the
notebook. The lever for a faster suite is fewer page openings, so this counts them.

Runs pytest (default: ``tests/browser -n 3 --dist loadgroup -q``; pass other arguments to
choose) with a small plugin loaded in every xdist worker, which records each
``Page.goto`` with the test that made it, and each test's duration (setup + call +
teardown). Prints, per test module: tests, page loads, test-seconds and test-seconds per
load; then the run's wall time, the whole machine's busy CPU-seconds (``psutil.cpu_times``, so
Chromium and the servers count) and the load average at the start::

    .venv/bin/python bench/suite_pages.py
    .venv/bin/python bench/suite_pages.py tests -n 3 --dist loadgroup -q   # the whole suite

Figures are for comparing runs on one machine, one after the other: these VMs' speed varies
between runs (see bench/real_shapes.py), so compare the counts, which do not vary, and the
ratios of a before/after pair run in one session.
"""

from __future__ import annotations

import collections
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_ARGS = ["tests/browser", "-n", "3", "--dist", "loadgroup", "-q"]
LOG_ENV = "NDCG_BENCH_PAGE_LOG"
PLUGIN = "suite_pages_plugin"

#: The plugin, written to a temporary folder put on PYTHONPATH so every xdist worker loads it
#: with ``-p``. It only appends lines to the log named by NDCG_BENCH_PAGE_LOG.
PLUGIN_SOURCE = f'''
import os

import pytest

LOG = os.environ["{LOG_ENV}"]


def _write(kind, nodeid, value):
    with open(LOG, "a", encoding="utf-8") as log:
        log.write(f"{{kind}}\\t{{nodeid}}\\t{{value}}\\n")


def pytest_configure(config):
    try:
        from playwright.sync_api import Page
    except ImportError:
        return
    goto = Page.goto

    def counted_goto(self, url, *args, **kwargs):
        test = os.environ.get("PYTEST_CURRENT_TEST", "?").rsplit(" ", 1)[0]
        _write("goto", test, url)
        return goto(self, url, *args, **kwargs)

    Page.goto = counted_goto


def pytest_runtest_logreport(report):
    _write("time", report.nodeid, report.duration)
'''


def _busy_seconds() -> float:
    """The whole machine's busy CPU-seconds since boot (every process: Chromium, servers, pytest)."""
    t = psutil.cpu_times()
    return t.user + t.nice + t.system + t.irq + t.softirq + t.steal


def _module(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def summarise(log: Path) -> tuple[dict[str, int], dict[str, int], dict[str, float]]:
    """(page loads, tests, test-seconds) per module, from the plugin's log."""
    loads: dict[str, int] = collections.Counter()
    seconds: dict[str, float] = collections.defaultdict(float)
    tests: dict[str, set[str]] = collections.defaultdict(set)
    for line in log.read_text(encoding="utf-8").splitlines():
        kind, nodeid, value = line.split("\t", 2)
        if kind == "goto":
            loads[_module(nodeid)] += 1
        else:
            seconds[_module(nodeid)] += float(value)
            tests[_module(nodeid)].add(nodeid)
    return dict(loads), {m: len(t) for m, t in tests.items()}, dict(seconds)


def main(argv: list[str]) -> int:
    args = argv or DEFAULT_ARGS
    with tempfile.TemporaryDirectory(prefix="suite-pages-") as folder:
        Path(folder, f"{PLUGIN}.py").write_text(PLUGIN_SOURCE, encoding="utf-8")
        log = Path(folder, "log.tsv")
        log.touch()
        env = dict(os.environ, **{LOG_ENV: str(log)})
        env["PYTHONPATH"] = os.pathsep.join(p for p in (folder, env.get("PYTHONPATH", "")) if p)
        load = os.getloadavg()
        busy, start = _busy_seconds(), time.monotonic()
        code = subprocess.call([sys.executable, "-m", "pytest", "-p", PLUGIN, *args], cwd=ROOT, env=env)
        wall, cpu = time.monotonic() - start, _busy_seconds() - busy
        loads, tests, seconds = summarise(log)
    print()
    print(f"{'module':<52} {'tests':>5} {'loads':>5} {'test-s':>7} {'s/load':>6}")
    for module in sorted(seconds, key=seconds.get, reverse=True):
        n = loads.get(module, 0)
        per = f"{seconds[module] / n:6.1f}" if n else "     -"
        print(f"{module:<52} {tests[module]:>5} {n:>5} {seconds[module]:>7.1f} {per}")
    total_loads = sum(loads.values())
    print(f"{'all':<52} {sum(tests.values()):>5} {total_loads:>5} {sum(seconds.values()):>7.1f}")
    print(f"\npytest exit {code}; wall {wall:.0f} s; machine busy CPU {cpu:.0f} s "
          f"({cpu / max(total_loads, 1):.1f} CPU-s per page load); "
          f"load average at start {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
