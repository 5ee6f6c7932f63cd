"""Edit -> all outputs settled, in headless Chromium: the playground vs a naive notebook.

Run from the repository root::

    .venv/bin/python bench/ui_latency.py [--edits 10] [--json bench/results/ui_latency.json]

It serves the playground with ``ndcg-lab`` and ``bench/naive_baseline.py`` (one text input,
one cell computing DCG with ndcg_core and drawing one pyplot figure) with ``marimo run``, opens
both in the same headless Chromium, and alternates label edits between them: the same
``--edits`` distinct lists, typed into ``Relevance labels`` and sent with Enter.

One edit is timed inside the page, from the Enter keydown to the first animation frame at
which the kernel has run the cells the edit caused, no cell is queued or running, no output
is stale or loading, and every image in the outputs has decoded. The script prints the median
of each notebook and their ratio (target: playground / naive <= 0.5).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "browser"))

from marimo_page import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    install_tracker,
    open_notebook,
    show_slide_with,
    wait_settled,
)

from ndcg_core.infra.processes import free_port  # noqa: E402

#: Distinct lists, so no cache along the way can answer an edit from an earlier one.
EDITS = [
    "3, 2, 1, 0, 0",
    "0, 1, 2, 3, 1",
    "2, 2, 0, 1, 0, 3",
    "1, 0, 0, 0, 2",
    "3, 0, 2, 1",
    "0, 0, 1, 1, 2, 2",
    "2, 1, 0, 3, 0",
    "1, 1, 1, 0, 2",
    "3, 3, 0, 0, 1",
    "0, 2, 1, 2, 0, 1",
    "1, 2, 3",
    "2, 0, 2, 0, 2",
]

_ARM_JS = r"""
() => {
  const s = window.__ndcgLab;
  s.benchStart = null;
  s.benchRuns = s.runs;
  if (!s.benchListener) {
    s.benchListener = (event) => { if (event.key === "Enter" && s.benchStart === null) s.benchStart = performance.now(); };
    window.addEventListener("keydown", s.benchListener, true);
  }
}
"""

_DONE_JS = r"""
() => {
  const s = window.__ndcgLab;
  if (s.benchStart === null || s.runs <= s.benchRuns || s.busy.size > 0) return false;
  if (document.querySelectorAll('.marimo-output-stale, .marimo-output-loading').length > 0) return false;
  for (const img of document.querySelectorAll('#App img')) { if (!img.complete) return false; }
  return performance.now() - s.benchStart;
}
"""


def _serve(argv: list[str], port: int, log: Path) -> subprocess.Popen[bytes]:
    with open(log, "wb") as out:
        process = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   start_new_session=True)
    deadline = time.monotonic() + 120
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2):
                return process
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"server {argv} did not start:\n{log.read_text()}") from None
            time.sleep(0.1)


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _reveal_labels(page) -> object:  # type: ignore[no-untyped-def]
    """The labels box; in the slides view, advance (arrow keys) until its slide is shown."""
    box = page.get_by_label("Relevance labels", exact=True)
    show_slide_with(page, box)
    return box


def _time_edit(page, box, text: str) -> float:  # type: ignore[no-untyped-def]
    page.evaluate(_ARM_JS)
    box.fill(text)
    box.press("Enter")
    handle = page.wait_for_function(_DONE_JS, timeout=120_000, polling="raf")
    elapsed = float(handle.json_value())
    wait_settled(page)
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=10, help="timed edits per notebook (default 10)")
    parser.add_argument("--json", type=Path, default=None, help="also write the timings to this JSON file")
    args = parser.parse_args(argv)
    if not 1 <= args.edits <= len(EDITS) - 1:
        parser.error(f"--edits must be from 1 to {len(EDITS) - 1}")
    from playwright.sync_api import sync_playwright

    logs = REPO / "bench" / "results"
    logs.mkdir(parents=True, exist_ok=True)
    lab_port, naive_port = free_port(), free_port()
    lab = _serve([str(Path(sys.executable).with_name("ndcg-lab")), "--port", str(lab_port), "--headless"],
                 lab_port, logs / "lab.log")
    naive = None
    try:
        naive = _serve([sys.executable, "-m", "marimo", "run", str(REPO / "bench" / "naive_baseline.py"),
                        "--port", str(naive_port), "--headless", "--no-sandbox"], naive_port, logs / "naive.log")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                pages = {}
                for name, url, file in (
                    ("playground", f"http://127.0.0.1:{lab_port}", "01_playground.py"),
                    ("naive", f"http://127.0.0.1:{naive_port}", None),
                ):
                    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
                    install_tracker(page)
                    open_notebook(page, url, file)
                    box = _reveal_labels(page)
                    _time_edit(page, box, EDITS[-1])  # warm-up, not counted
                    pages[name] = (page, box)
                timings: dict[str, list[float]] = {name: [] for name in pages}
                for text in EDITS[: args.edits]:
                    for name, (page, box) in pages.items():  # alternate, so load drifts hit both
                        timings[name].append(_time_edit(page, box, text))
            finally:
                browser.close()
    finally:
        _stop(lab)
        if naive is not None:
            _stop(naive)
    medians = {name: statistics.median(values) for name, values in timings.items()}
    ratio = medians["playground"] / medians["naive"]
    for name, values in timings.items():
        print(f"{name:>10}: median {medians[name]:7.1f} ms   (min {min(values):.1f}, max {max(values):.1f}, "
              f"n = {len(values)}): {', '.join(f'{v:.0f}' for v in values)}")
    print(f"     ratio: playground / naive = {ratio:.2f}   (target <= 0.50: {'met' if ratio <= 0.5 else 'NOT met'})")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"timings_ms": timings, "medians_ms": medians, "ratio": ratio}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
