"""What one new playground session costs a marimo worker, in CPU seconds.

    .venv/bin/python bench/session_cost.py [--sessions 20] [--notebook 01_playground.py] [--only cached|uncached]

Starts one NDCG Lab worker (``python -m ndcg_core.ui.classroom.worker run notebooks/``, the
process classroom mode runs behind HAProxy) on a free loopback port, waits until ``/health``
answers, then opens ``--sessions`` sessions one after another at marimo's protocol level
(the page, its server token, a websocket with a new session id, until ``completed-run``:
see /work/shared/MARIMO-PROTOCOL.md) and reads the worker's CPU time (user + system, the
process and its children, from psutil) before and after each. Sessions are opened one at a
time, so the CPU time between two readings is that session's own work; this is much less
sensitive to other load on the machine than wall-clock latency (the figure a rush of arrivals
divides the cores by: 2 cores / 0.45 s a session = 4.4 arrivals a second).

Printed: the worker's start-up CPU (imports and warm-up), the first session's CPU (what the
first student pays), the median and mean of the rest, and the wall time per session.
Both workers are measured in the same run: marimo as it is (``NDCG_LAB_NO_SESSION_CACHE=1``:
every page and session parses and compiles the notebook again) and with NDCG Lab's per-worker
caches (:func:`ndcg_core.ui.classroom.worker.install_session_caches`), and their ratio printed.
To see what a session does, record the worker with py-spy while this runs
(``py-spy record -p PID -f raw``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import secrets
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

import psutil

from ndcg_core.infra.processes import free_port

sys.path.insert(0, str(Path(__file__).resolve().parent))
from classroom_load import COMPRESSION, HTTPFailure, http  # noqa: E402

REPO = Path(__file__).resolve().parents[1]


def cpu_seconds(process: psutil.Process) -> float:
    """User + system CPU of the worker and its children (live and waited-for)."""
    times = process.cpu_times()
    total = times.user + times.system + times.children_user + times.children_system
    for child in process.children(recursive=True):
        try:
            c = child.cpu_times()
            total += c.user + c.system
        except psutil.NoSuchProcess:
            pass
    return total


async def open_session(port: int, notebook: str) -> float:
    """One session from the page to ``completed-run``; returns the wall seconds it took."""
    import websockets

    started = time.monotonic()
    cookies: dict[str, str] = {}
    status, _, page = await http(port, "GET", f"/?file={notebook}", cookies=cookies)
    if status != 200 or not re.search(rb"<marimo-server-token", page):
        raise HTTPFailure(f"the page answered HTTP {status}")
    session = "s_" + secrets.token_hex(6)
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws?file={notebook}&session_id={session}", max_size=None,
                                  open_timeout=60, compression=COMPRESSION, ping_interval=None) as ws:
        deadline = time.monotonic() + 120
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic())))
            if message.get("op") == "completed-run":
                return time.monotonic() - started


def wait_health(port: int, process: subprocess.Popen[bytes], timeout: float = 180) -> None:
    import urllib.request

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the worker stopped (exit code {process.returncode})")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("the worker did not answer /health")


def run(sessions: int, notebook: str, cache: bool = True) -> dict[str, float]:
    port = free_port()
    command = [sys.executable, "-m", "ndcg_core.ui.classroom.worker", "run", str(REPO / "notebooks"), "--host",
               "127.0.0.1", "--port", str(port), "--headless", "--no-token", "--no-sandbox", "--session-ttl", "5"]
    env = dict(os.environ)
    if not cache:
        env["NDCG_LAB_NO_SESSION_CACHE"] = "1"
    started = time.monotonic()
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, process_group=0, env=env)
    try:
        wait_health(port, process)
        ready_wall = time.monotonic() - started
        worker = psutil.Process(process.pid)
        startup = cpu_seconds(worker)
        costs, walls = [], []
        for _ in range(sessions):
            before = cpu_seconds(worker)
            walls.append(asyncio.run(open_session(port, notebook)))
            time.sleep(0.3)  # the session's last messages and its idle bookkeeping
            costs.append(cpu_seconds(worker) - before)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    rest = costs[1:] or costs
    return {"ready_wall": ready_wall, "startup_cpu": startup, "first_cpu": costs[0], "median_cpu": statistics.median(rest),
            "mean_cpu": statistics.fmean(rest), "median_wall": statistics.median(walls[1:] or walls)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/session_cost.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--notebook", default="01_playground.py")
    parser.add_argument("--only", choices=("cached", "uncached"), default=None,
                        help="measure one worker only (default: both, the baseline first)")
    args = parser.parse_args(argv)
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores; "
          f"{args.sessions} sessions of {args.notebook} one after another")
    figures = {}
    for name in ("uncached", "cached"):
        if args.only not in (None, name):
            continue
        out = figures[name] = run(args.sessions, args.notebook, cache=name == "cached")
        what = ("marimo's own per-session parse and compile (NDCG_LAB_NO_SESSION_CACHE=1)" if name == "uncached"
                else "NDCG Lab's per-worker caches (worker.install_session_caches)")
        print(f"{name}: {what}")
        print(f"  worker ready after {out['ready_wall']:.1f} s wall, {out['startup_cpu']:.2f} CPU s (imports and warm-up)")
        print(f"  first session  {out['first_cpu']:.3f} CPU s")
        print(f"  later sessions {out['median_cpu']:.3f} CPU s median, {out['mean_cpu']:.3f} mean, "
              f"{out['median_wall']:.2f} s wall median: 2 cores take {2 / out['median_cpu']:.1f} arrivals a second")
    if len(figures) == 2:
        ratio = figures["cached"]["median_cpu"] / figures["uncached"]["median_cpu"]
        print(f"cached / uncached CPU per session: {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
