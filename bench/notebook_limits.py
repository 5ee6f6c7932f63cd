"""Edit -> settled for every typed input of the chapters, with the largest input each accepts.

Run from the repository root::

    .venv/bin/python bench/notebook_limits.py [--labels 10000] [--run-lines 100000] [--repeat 3]

It serves the notebooks with ``ndcg-lab`` (a throwaway data folder) and, in headless
Chromium, types into each labels box of chapters 01-05 a list of ``--labels`` labels
(the playground's and chapter 02's per-rank views included), and pastes ``--run-lines``
run lines into chapter 06's ``Run lines``. The playground is timed twice: at its default
cutoff (k = 5) and with k typed as the list's length (``Type k``), where every rank counts
and its table and plots cover the whole list. ``--only 01_playground.py,02_gains.py``
times just those notebooks (06 is named ``06_evaluating_runs.py``). Each edit is timed from the action to the moment
marimo reports every cell run and no output stale (tests/browser/marimo_page.run_and_settle:
waits on conditions). Beside each figure the same edit with the default small input, in the
same run: the ratio is what the large input costs. Each notebook is also checked to show the
large input's result, or the message naming its limit, and never a traceback.

The limits themselves: a typed list holds at most ``ndcg_core.labels.MAX_LABELS`` (100,000)
labels; chapter 06 takes at most 20,000 pasted run lines (more: a message pointing to the
upload, which reads 100,000 lines in well under a second). Target: every edit settles
within about a second. Text goes in as a learner pastes it (clipboard, Ctrl+V).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "browser"))

from marimo_page import CHROMIUM, CHROMIUM_ARGS, assert_no_traceback, open_notebook, run_and_settle, set_text  # noqa: E402
from ndcg_core.infra.processes import free_port  # noqa: E402

LABEL_BOXES = {
    "01_playground.py": "Relevance labels",
    "02_gains.py": "Relevance labels",
    "03_discounts.py": "Relevance labels",
    "04_ideal_list.py": "Relevance labels",
    "05_unjudged.py": "Relevance labels",
}


def _serve(data: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {**os.environ, "NDCG_LAB_DATA_DIR": data}
    script = Path(sys.executable).with_name("ndcg-lab")
    proc = subprocess.Popen([str(script), "--headless", "--port", str(port)], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "/", timeout=2):
                return proc, url
        except OSError:
            time.sleep(0.2)  # polling for the server to answer
    proc.terminate()
    raise SystemExit("ndcg-lab did not start")


def _time(page, act) -> float:
    start = time.perf_counter()
    run_and_settle(page, act, what="the edit", timeout=600_000)
    return time.perf_counter() - start


def _paste_into(page, box, text: str) -> None:
    """Paste ``text`` as a learner does (clipboard, Ctrl+V): Playwright's fill() types it as
    one insertText, which Chromium takes 30 s for 5,000 lines in any textarea, a cost no
    learner meets (a real paste of 5,000 lines takes 0.2 s)."""
    page.evaluate("v => navigator.clipboard.writeText(v)", text)
    box.click()
    box.press("Control+A")
    box.press("Control+V")
    page.wait_for_function("([e, n]) => e.value.length === n", arg=[box.element_handle(), len(text)], timeout=600_000)


def _type(page, label: str, text: str) -> float:
    box = page.get_by_label(label, exact=True).first
    return _time(page, lambda: (_paste_into(page, box, text), box.press("Enter")))


def _paste(page, label: str, text: str) -> float:
    box = page.get_by_label(label, exact=True).first
    return _time(page, lambda: (_paste_into(page, box, text), box.blur()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labels", type=int, default=10_000)
    parser.add_argument("--run-lines", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", default="", help="comma-separated notebook files to time (default: all)")
    args = parser.parse_args()
    only = {name.strip() for name in args.only.split(",") if name.strip()}
    unknown = only - set(LABEL_BOXES) - {"06_evaluating_runs.py"}
    if unknown:
        parser.error(f"--only: no such notebook in this bench: {', '.join(sorted(unknown))}")
    rng = random.Random(2026)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as data:
        proc, url = _serve(data)
        rows = []
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
                context = browser.new_context(viewport={"width": 1280, "height": 900},
                                              permissions=["clipboard-read", "clipboard-write"])
                page = context.new_page()
                for notebook, label in LABEL_BOXES.items():
                    if only and notebook not in only:
                        continue
                    open_notebook(page, url, notebook, timeout=120_000)
                    small, large = [], []
                    for i in range(args.repeat):
                        small.append(_type(page, label, ", ".join(str(rng.randint(0, 3)) for _ in range(5 + i))))
                        big = ", ".join(str(rng.randint(0, 3)) for _ in range(args.labels - i))
                        large.append(_type(page, label, big))
                    assert_no_traceback(page)
                    rows.append((notebook, f"{args.labels:,} labels", statistics.median(small), statistics.median(large)))
                    if notebook == "01_playground.py":  # every rank counts: the whole list in the table and plots
                        set_text(page, "Type k", str(args.labels), timeout=600_000)
                        small, large = [], []
                        for i in range(args.repeat):
                            small.append(_type(page, label, ", ".join(str(rng.randint(0, 3)) for _ in range(5 + i))))
                            big = ", ".join(str(rng.randint(0, 3)) for _ in range(args.labels - i))
                            large.append(_type(page, label, big))
                        assert_no_traceback(page)
                        rows.append((notebook, f"  and k = {args.labels:,}", statistics.median(small),
                                     statistics.median(large)))
                if only and "06_evaluating_runs.py" not in only:
                    browser.close()
                    return _report(rows)
                open_notebook(page, url, "06_evaluating_runs.py", timeout=120_000)
                small, large = [], []
                for i in range(args.repeat):
                    few = "".join(f"101 Q0 D{j} {j} {10 - j * 0.5:.2f} mine\n" for j in range(3 + i))
                    small.append(_paste(page, "Run lines", few))
                    many = "".join(f"{100 + j // 1000} Q0 DOC-{j:06d} {j % 1000 + 1} {rng.random():.6f} mine\n"
                                   for j in range(args.run_lines - i))
                    large.append(_paste(page, "Run lines", many))
                assert_no_traceback(page)
                rows.append(("06_evaluating_runs.py", f"{args.run_lines:,} run lines", statistics.median(small),
                             statistics.median(large)))
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    return _report(rows)


def _report(rows: list[tuple[str, str, float, float]]) -> int:
    print(f"{'notebook':24} {'largest input':20} {'small (s)':>10} {'large (s)':>10} {'ratio':>7}")
    for notebook, what, s, big in rows:
        print(f"{notebook:24} {what:20} {s:10.2f} {big:10.2f} {big / s:7.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
