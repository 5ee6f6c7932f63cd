"""A lecture hall on loopback: emulated students against ``ndcg-lab``, every number checked.

Run from the repository root::

    .venv/bin/python bench/classroom_load.py --students 25,50,100,150 [--workers 2] [--arrival 30]
        [--duration 60] [--questions 300] [--browser] [--json bench/results/classroom_load.json]

For each N in ``--students`` it starts a fresh ``ndcg-lab`` on a free loopback port (classroom
mode with ``--workers W``; ``--workers 0`` is the single-process server, the baseline of the
classroom issue's table), and emulates N students at marimo's protocol level (no browser per
student; ``../shared/MARIMO-PROTOCOL.md``): each arrives at a random moment within
``--arrival`` seconds (GET the page, keep the proxy's cookie, open the websocket, wait for the
first complete run), then until ``--duration`` seconds after the last arrival edits
``Relevance labels`` to a random list, waits for the outputs, pauses 3-7 s and edits again.

Checked on every run: the numbers in the DCG/IDCG/NDCG boxes against an independent computation
(plain ``math``, not ndcg_core), so a wrong number is counted, never missed; a page that does
not load, a websocket that closes, a cell with marimo's error output and an edit never answered
within 30 s are counted as errors. Measured: first render (median / p95), edit to numbers and
edit to all settled (p95), the server's CPU (share of one core, all its processes) and RSS.

``--browser``: one real headless Chromium (the lecturer's projector) opens the playground during
the load and times edit-to-settled as ``bench/ui_latency.py`` does.
``--questions Q``: after the notebook phase, Q students join the live question at ``/class/``
within 30 s and answer (a third answer twice, so the latest must count); measured: answers per
second accepted, submit-to-counted latency (the lecturer's summary, polled every 0.25 s), and
lost or double-counted answers (the final summary against what was sent).

Bounded: every run ends after arrival + duration + 60 s at most; at most 400 students and 1000
question answerers; loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

from ndcg_core.infra.processes import free_port

REPO = Path(__file__).resolve().parent.parent
NOTEBOOK = "01_playground.py"
EDIT_TIMEOUT = 30.0
#: permessage-deflate, as browsers negotiate it ("deflate"), or None
COMPRESSION: str | None = "deflate"
MAX_STUDENTS = 400
MAX_ANSWERERS = 1000

# ---------------------------------------------------------------------------------------------
# a small HTTP/1.1 client on asyncio streams (one request per connection, cookies kept)


class HTTPFailure(Exception):
    pass


async def http(port: int, method: str, path: str, *, cookies: dict[str, str], headers: dict[str, str] | None = None,
               body: bytes = b"", timeout: float = 60.0, source: str | None = None) -> tuple[int, dict[str, str], bytes]:
    """One request to 127.0.0.1:port (from the loopback address ``source``: a device of its
    own, as the question app counts devices); ``Set-Cookie`` answers go into ``cookies``."""
    async def go() -> tuple[int, dict[str, str], bytes]:
        reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                       local_addr=(source, 0) if source else None)
        try:
            lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close",
                     f"Content-Length: {len(body)}"]
            if cookies:
                lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in cookies.items()))
            lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
            writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            status_line, *header_lines = head.decode("latin-1").split("\r\n")
            status = int(status_line.split()[1])
            got: dict[str, str] = {}
            for line in header_lines:
                if ":" in line:
                    name, value = line.split(":", 1)
                    name = name.strip().lower()
                    if name == "set-cookie":
                        pair = value.strip().split(";", 1)[0]
                        if "=" in pair:
                            k, v = pair.split("=", 1)
                            cookies[k] = v
                    got[name] = value.strip()
            if got.get("transfer-encoding", "").lower() == "chunked":
                data = b""
                while True:
                    size = int((await reader.readline()).split(b";")[0], 16)
                    if size == 0:
                        break
                    data += await reader.readexactly(size)
                    await reader.readline()
            elif "content-length" in got:
                data = await reader.readexactly(int(got["content-length"]))
            else:
                data = await reader.read()
            return status, got, data
        finally:
            writer.close()

    try:
        return await asyncio.wait_for(go(), timeout)
    except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, ValueError, IndexError) as err:
        raise HTTPFailure(f"{method} {path}: {type(err).__name__} {err}") from None


# ---------------------------------------------------------------------------------------------
# the independent computation (plain math; the load tool must not trust ndcg_core)


def expected_numbers(labels: list[int], k: int) -> tuple[float, float, float]:
    """DCG@k, IDCG@k, nDCG@k with linear gain and 1/log2(i+1), ideal from the list's own labels."""
    dcg = sum(label / math.log2(i + 2) for i, label in enumerate(labels[:k]))
    ideal = sorted(labels, reverse=True)
    idcg = sum(label / math.log2(i + 2) for i, label in enumerate(ideal[:k]))
    return dcg, idcg, (dcg / idcg if idcg > 0 else 0.0)


STATS = re.compile(r">(I?DCG|[nN]DCG)@(\d+)</div><div[^>]*>([-0-9.]+|n/a|–|—)<")


def read_stats(html: str) -> dict[str, tuple[int, str]] | None:
    found = {name.upper(): (int(k), value) for name, k, value in STATS.findall(html)}  # the page says nDCG
    return found if {"DCG", "IDCG", "NDCG"} <= found.keys() else None


def numbers_wrong(stats: dict[str, tuple[int, str]], labels: list[int]) -> str | None:
    """None when the shown numbers are the independent ones (4 decimals), else what differs."""
    k = stats["DCG"][0]
    want = expected_numbers(labels, k)
    for name, value in zip(("DCG", "IDCG", "NDCG"), want):
        shown = stats[name][1]
        try:
            if abs(float(shown) - value) > 0.00006:
                return f"{name}@{k} shown {shown}, expected {value:.4f} for {labels}"
        except ValueError:
            return f"{name}@{k} shown {shown!r}, expected {value:.4f} for {labels}"
    return None


def is_error_output(op: dict) -> bool:
    output = op.get("output") or {}
    if output.get("channel") == "marimo-error" or output.get("mimetype") == "application/vnd.marimo+error":
        return True
    data = output.get("data")
    return isinstance(data, str) and "An internal error occurred" in data


# ---------------------------------------------------------------------------------------------
# one emulated student


@dataclass
class Results:
    first_render: list[float] = field(default_factory=list)
    edit_numbers: list[float] = field(default_factory=list)
    edit_settled: list[float] = field(default_factory=list)
    edits: int = 0
    wrong: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    lost_edits: int = 0
    broken_sessions: int = 0


async def student(port: int, arrive_at: float, stop_at: float, results: Results, rng: random.Random,
                  password: str | None = None) -> None:
    import websockets

    await asyncio.sleep(max(0.0, arrive_at - time.monotonic()))
    cookies: dict[str, str] = {}
    started = time.monotonic()
    broken = False
    try:
        if password:
            await http(port, "POST", "/auth/login", cookies=cookies, body=urllib.parse.urlencode({"password": password}).encode(),
                       headers={"Content-Type": "application/x-www-form-urlencoded"})
        status, _, page = await http(port, "GET", f"/?file={NOTEBOOK}", cookies=cookies)
        if status != 200:
            raise HTTPFailure(f"page answered HTTP {status}")
        match = re.search(rb'<marimo-server-token data-token="([^"]*)"', page)
        if not match:
            raise HTTPFailure("page without a server token")
        token = match.group(1).decode()
        session = "s_" + secrets.token_hex(6)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())} if cookies else {}
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws?file={NOTEBOOK}&session_id={session}",
                                      additional_headers=headers, max_size=None, open_timeout=60, compression=COMPRESSION,
                                      ping_interval=None) as ws:
            labels_id: str | None = None
            stats = None

            async def until_completed(deadline: float, on_stats=None) -> bool:
                nonlocal labels_id, stats, broken
                while True:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        return False
                    message = json.loads(await asyncio.wait_for(ws.recv(), remaining))
                    op = message.get("data", message)
                    kind = message.get("op")
                    if kind == "cell-op":
                        if is_error_output(op):
                            results.errors.append(f"cell {op.get('cell_id')}: error output")
                            broken = True
                        data = (op.get("output") or {}).get("data")
                        if isinstance(data, str):
                            if labels_id is None and "Relevance labels" in data:
                                for m in re.finditer(r"object-id='([^']+)'(.*?)</marimo-ui-element>", data, re.S):
                                    if "Relevance labels" in m.group(2):
                                        labels_id = m.group(1)
                            found = read_stats(data)
                            if found:
                                stats = found
                                if on_stats:
                                    on_stats(found)
                    elif kind == "completed-run":
                        return True

            if not await until_completed(time.monotonic() + 120):
                raise HTTPFailure("first render did not complete within 120 s")
            results.first_render.append(time.monotonic() - started)
            if labels_id is None or stats is None:
                raise HTTPFailure("the playground showed no labels box or no numbers")
            problem = numbers_wrong(stats, [1, 0, 2, 1, 0])
            if problem:
                results.wrong.append(problem)
            while time.monotonic() < stop_at:
                await asyncio.sleep(rng.uniform(3, 7))
                if time.monotonic() >= stop_at:
                    break
                labels = [rng.randint(0, 3) for _ in range(rng.randint(3, 8))]
                if not any(labels):
                    labels[0] = 1
                sent = time.monotonic()
                numbers_at: list[float] = []

                def on_stats(found: dict[str, tuple[int, str]]) -> None:
                    if not numbers_at and numbers_wrong(found, labels) is None:
                        numbers_at.append(time.monotonic())

                status, _, answer = await http(
                    port, "POST", "/api/kernel/set_ui_element_value", cookies=cookies,
                    headers={"Marimo-Session-Id": session, "Marimo-Server-Token": token, "Content-Type": "application/json"},
                    body=json.dumps({"objectIds": [labels_id], "values": [", ".join(map(str, labels))]}).encode(),
                )
                if status != 200:
                    results.errors.append(f"edit answered HTTP {status}")
                    broken = True
                    break
                results.edits += 1
                if not await until_completed(sent + EDIT_TIMEOUT, on_stats):
                    results.lost_edits += 1
                    break
                results.edit_settled.append(time.monotonic() - sent)
                problem = numbers_wrong(stats, labels) if stats else "no numbers"
                if problem:
                    results.wrong.append(problem)
                elif numbers_at:
                    results.edit_numbers.append(numbers_at[0] - sent)
    except (HTTPFailure, OSError, asyncio.TimeoutError, websockets.exceptions.WebSocketException) as err:
        results.errors.append(f"{type(err).__name__}: {err}")
        broken = True
    if broken:
        results.broken_sessions += 1


# ---------------------------------------------------------------------------------------------
# the live question


@dataclass
class QuestionResults:
    sent: int = 0
    accepted: int = 0
    refused: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    final: dict = field(default_factory=dict)
    expected_answered: int = 0
    expected_right: int = 0
    seconds: float = 0.0
    bad_pages: int = 0


async def lecturer_login(port: int, key: str) -> dict[str, str]:
    cookies: dict[str, str] = {}
    status, _, _ = await http(port, "POST", "/class/lecturer/login", cookies=cookies,
                              body=urllib.parse.urlencode({"key": key}).encode(),
                              headers={"Content-Type": "application/x-www-form-urlencoded"})
    if status != 303 or "ndcglab_lecturer" not in cookies:
        raise HTTPFailure(f"lecturer login answered HTTP {status}")
    # lecturer actions send the page's CSRF token back in a header
    _, _, page = await http(port, "GET", "/class/lecturer", cookies=cookies)
    found = re.search(rb'name="csrf-token" content="([^"]+)"', page)
    if found is None:
        raise HTTPFailure("the lecturer page carries no CSRF token")
    CSRF[port] = found.group(1).decode()
    return cookies


#: the lecturer's CSRF token per server port
CSRF: dict[int, str] = {}


def device(i: int) -> str:
    """Student i's own loopback address (127.0.1.1, 127.0.1.2, ...): a hall of separate devices."""
    return f"127.0.{1 + i // 250}.{1 + i % 250}"


async def live_question(port: int, key: str, answerers: int, window: float, rng: random.Random) -> QuestionResults:
    """``answerers`` students answer lecture-ndcg within ``window`` s; the lecturer polls the summary."""
    out = QuestionResults()
    lecturer = await lecturer_login(port, key)
    status, _, body = await http(port, "POST", "/class/api/open", cookies=lecturer,
                                 body=b"source=bank&exercise=lecture-ndcg",
                                 headers={"Content-Type": "application/x-www-form-urlencoded", "X-NDCG-Lab-CSRF": CSRF[port]})
    question = json.loads(body)["id"]
    answers = ["0.78", "78 %", "0,78", "2.43", "0.62", "0.70", "seventy", "0.7763", "1"]
    latest: dict[int, str] = {}
    accepted_at: list[float] = []
    polls: list[tuple[float, int]] = []
    done = asyncio.Event()

    async def poll() -> None:
        while not done.is_set():
            _, _, data = await http(port, "GET", "/class/api/summary", cookies=lecturer)
            polls.append((time.monotonic(), json.loads(data)["answered"]))
            await asyncio.sleep(0.25)

    async def one(i: int, at: float) -> None:
        await asyncio.sleep(max(0.0, at - time.monotonic()))
        cookies: dict[str, str] = {}
        source = device(i)
        await http(port, "POST", "/class/login", cookies=cookies, source=source)  # joining makes the student
        status, _, page = await http(port, "GET", "/class/", cookies=cookies, source=source)
        if status != 200 or b"Send my answer" not in page:
            out.bad_pages += 1
            return
        await http(port, "GET", "/class/api/question", cookies=cookies, source=source)
        for attempt in range(2 if i % 3 == 0 else 1):
            if attempt:
                await asyncio.sleep(2.1)  # the rate limit: one answer every 2 s after a burst
            text = rng.choice(answers)
            out.sent += 1
            status, _, reply = await http(port, "POST", "/class/api/answer", cookies=cookies, source=source,
                                          body=json.dumps({"question": question, "nickname": f"student {i}", "answer": text}).encode(),
                                          headers={"Content-Type": "application/json"})
            if status == 200:
                out.accepted += 1
                if i not in latest:
                    accepted_at.append(time.monotonic())
                latest[i] = text
            else:
                out.refused.append(f"HTTP {status}: {reply[:80]!r}")

    poller = asyncio.create_task(poll())
    start = time.monotonic()
    await asyncio.gather(*(one(i, start + rng.uniform(0, window)) for i in range(answerers)))
    out.seconds = time.monotonic() - start
    await asyncio.sleep(2.5)
    done.set()
    await poller
    _, _, data = await http(port, "GET", "/class/api/summary", cookies=lecturer)
    out.final = json.loads(data)
    right = {"0.78", "78 %", "0,78", "0.7763"}
    out.expected_answered = len(latest)
    out.expected_right = sum(1 for text in latest.values() if text in right)
    accepted_at.sort()
    for n, at in enumerate(accepted_at, start=1):
        seen = next((t for t, answered in polls if t >= at and answered >= n), None)
        if seen is not None:
            out.latencies.append(seen - at)
    return out


# ---------------------------------------------------------------------------------------------
# the server and its processes


def start_server(port: int, workers: int, key: str, log: Path, data_dir: Path) -> subprocess.Popen[bytes]:
    script = Path(sys.executable).with_name("ndcg-lab")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "ndcg_core.ui.lab"]
    command += ["--port", str(port), "--headless"]
    if workers:
        command += ["--workers", str(workers), "--lecturer-key", key]
    env = {**os.environ, "NDCG_LAB_DATA_DIR": str(data_dir)}
    with open(log, "wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   start_new_session=True, env=env)
    deadline = time.monotonic() + 180
    health = "/class/health" if workers else "/health"
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
                conn.sendall(f"GET {health} HTTP/1.0\r\nHost: x\r\n\r\n".encode())
                if conn.recv(16).startswith(b"HTTP/1.1 200") and (not workers or "serving a class" in log.read_text()):
                    return process
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            stop_server(process)
            raise SystemExit(f"ndcg-lab did not start:\n{log.read_text()}")
        time.sleep(0.2)


def stop_server(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def process_tree(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
                children.setdefault(int(fields[1]), []).append(int(entry))
            except (OSError, IndexError):
                pass
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


def run_queue_wait(pids: list[int]) -> float:
    """Seconds the threads of ``pids`` spent runnable but waiting for a CPU (/proc/*/task/*/schedstat).

    Large against the CPU used: the server was starved by other programs on the machine, not
    limited by its own work.
    """
    waited = 0.0
    for pid in pids:
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                waited += int(Path(f"/proc/{pid}/task/{task}/schedstat").read_text().split()[1]) / 1e9
            except (OSError, IndexError, ValueError):
                pass
    return waited


def cpu_and_rss(pids: list[int]) -> tuple[float, float]:
    """Seconds of CPU (user + system) and MiB of RSS over ``pids``."""
    tick = os.sysconf("SC_CLK_TCK")
    cpu = rss = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            cpu += (int(fields[11]) + int(fields[12])) / tick
            rss += int(fields[21]) * os.sysconf("SC_PAGE_SIZE") / 2**20
        except (OSError, IndexError):
            pass
    return cpu, rss


# ---------------------------------------------------------------------------------------------
# the lecturer's Chromium


def lecturer_browser(port: int, key: str | None, stop: threading.Event, timings: list[float], problems: list[str]) -> None:
    sys.path.insert(0, str(REPO / "tests" / "browser"))
    sys.path.insert(0, str(REPO / "bench"))
    try:
        from playwright.sync_api import sync_playwright

        from marimo_page import CHROMIUM, CHROMIUM_ARGS, install_tracker, open_notebook
        from ui_latency import EDITS, _time_edit
    except ImportError as err:
        problems.append(f"no browser: {err}")
        return
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
            page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
            install_tracker(page)
            if key:  # the lecturer logs in first: HAProxy then sends their notebook to their own worker
                page.goto(f"http://127.0.0.1:{port}/class/lecturer")
                page.get_by_label("Lecturer key").fill(key)
                page.get_by_role("button", name="Enter").click()
                page.get_by_text("Ask a question").wait_for()
            open_notebook(page, f"http://127.0.0.1:{port}", NOTEBOOK, timeout=180_000)
            box = page.get_by_label("Relevance labels", exact=True)
            i = 0
            while not stop.is_set():
                timings.append(_time_edit(page, box, EDITS[i % len(EDITS)]) / 1000.0)
                i += 1
                stop.wait(3.0)
            browser.close()
    except Exception as err:  # noqa: BLE001 - reported in the table, never hides the run
        problems.append(f"browser: {type(err).__name__}: {err}")


# ---------------------------------------------------------------------------------------------


def p95(values: list[float]) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]


def run_once(n: int, workers: int, arrival: float, duration: float, answerers: int, browser: bool,
             seed: int, log_dir: Path) -> dict:
    import tempfile

    rng = random.Random(seed)
    port = free_port()
    key = "bench-" + secrets.token_hex(4)
    log = log_dir / f"classroom_load_{n}_{workers}.log"
    with tempfile.TemporaryDirectory(prefix="ndcg-lab-load-") as data_dir:
        server = start_server(port, workers, key, log, Path(data_dir))
        try:
            stop_browser = threading.Event()
            browser_times: list[float] = []
            browser_problems: list[str] = []
            thread = None
            if browser:
                thread = threading.Thread(target=lecturer_browser, args=(port, key if workers else None, stop_browser, browser_times, browser_problems))
                thread.start()
                time.sleep(5)
            pids = process_tree(server.pid)
            cpu0, _ = cpu_and_rss(pids)
            wait0 = run_queue_wait(pids)
            import resource

            own0 = resource.getrusage(resource.RUSAGE_SELF)
            t0 = time.monotonic()
            results = Results()
            stop_at = t0 + arrival + duration

            async def hall() -> None:
                await asyncio.wait_for(
                    asyncio.gather(*(student(port, t0 + rng.uniform(0, arrival), stop_at, results,
                                             random.Random(rng.random())) for _ in range(n))),
                    arrival + duration + 60,
                )

            try:
                asyncio.run(hall())
            except asyncio.TimeoutError:
                results.errors.append("the run did not end in time")
            wall = time.monotonic() - t0
            import resource

            own = resource.getrusage(resource.RUSAGE_SELF)
            pids = process_tree(server.pid)
            cpu1, rss = cpu_and_rss(pids)
            waited = run_queue_wait(pids) - wait0
            stop_browser.set()
            if thread is not None:
                thread.join(timeout=120)
            row = {
                "students": n, "workers": workers, "arrival_s": arrival,
                "first_render_median": statistics.median(results.first_render) if results.first_render else None,
                "first_render_p95": p95(results.first_render),
                "edit_numbers_p95": p95(results.edit_numbers),
                "edit_settled_p95": p95(results.edit_settled),
                "edits": results.edits, "lost_edits": results.lost_edits, "wrong_numbers": len(results.wrong),
                "broken_sessions": results.broken_sessions, "errors": results.errors[:5],
                "wrong_examples": results.wrong[:3],
                "server_cpu_share_of_core": (cpu1 - cpu0) / wall, "server_rss_mib": rss,
                "server_run_queue_wait_share": waited / wall,
                "load_tool_cpu_share_of_core": (own.ru_utime + own.ru_stime - own0.ru_utime - own0.ru_stime) / wall,
                "lecturer_edit_settled_p95": p95(browser_times) if browser_times else None,
                "lecturer_edits": len(browser_times), "lecturer_problems": browser_problems,
                "loadavg": os.getloadavg(),
            }
            if answerers and workers:
                q = asyncio.run(live_question(port, key, answerers, 30.0, rng))
                row["question"] = {
                    "answerers": answerers, "sent": q.sent, "accepted": q.accepted, "refused": q.refused[:3],
                    "accepted_per_s": q.accepted / q.seconds if q.seconds else None,
                    "submit_to_counted_p95": p95(q.latencies), "submit_to_counted_max": max(q.latencies, default=None),
                    "counted": q.final.get("answered"), "expected": q.expected_answered,
                    "right_counted": q.final.get("right"), "right_expected": q.expected_right,
                    "lost_answers": q.expected_answered - (q.final.get("answered") or 0),
                    "misconceptions": {m["id"]: m["count"] for m in q.final.get("misconceptions", [])},
                    "bad_pages": q.bad_pages,
                }
            return row
        finally:
            stop_server(server)


def show(row: dict) -> str:
    def s(x: object) -> str:
        return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.2f}" if isinstance(x, float) else str(x)

    errors = row["broken_sessions"] + row["lost_edits"] + row["wrong_numbers"]
    shown_errors = "none" if not errors else (
        f"{row['broken_sessions']} broken, {row['lost_edits']} lost, {row['wrong_numbers']} wrong")
    text = (f"| {row['students']} | {row['workers'] or '1 (no proxy)'} | {s(row['first_render_median'])} s / {s(row['first_render_p95'])} s "
            f"| {s(row['edit_numbers_p95'])} s | {s(row['edit_settled_p95'])} s | {row['edits']} "
            f"| {shown_errors} "
            f"| {100 * row['server_cpu_share_of_core']:.0f}% | {row['server_rss_mib']:.0f} MiB "
            f"| {s(row['lecturer_edit_settled_p95'])} s | {' '.join(f'{x:.2f}' for x in row['loadavg'])} |")
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", default="25,50,100,150", help="comma-separated class sizes (default 25,50,100,150)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="marimo workers (0: the single-process server)")
    parser.add_argument("--arrival", type=float, default=30.0, help="students arrive within this many seconds (default 30)")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of editing after the arrivals (default 60)")
    parser.add_argument("--questions", type=int, default=0, help="students answering the live question afterwards (e.g. 300)")
    parser.add_argument("--browser", action="store_true", help="the lecturer's projector: one real Chromium timing edits")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--json", type=Path, default=None, help="also write the rows to this JSON file")
    args = parser.parse_args(argv)
    sizes = [int(x) for x in args.students.split(",") if x.strip()]
    if any(not 1 <= n <= MAX_STUDENTS for n in sizes) or not 0 <= args.questions <= MAX_ANSWERERS:
        parser.error(f"--students from 1 to {MAX_STUDENTS}, --questions from 0 to {MAX_ANSWERERS}")
    log_dir = REPO / "bench" / "results"
    log_dir.mkdir(parents=True, exist_ok=True)
    print("| students | workers | first render, median / p95 | edit to numbers, p95 | edit to all settled, p95 | edits "
          "| errors | server CPU (of one core) | server RSS | lecturer's Chromium, edit to settled p95 | load average |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    rows = []
    for n in sizes:
        row = run_once(n, args.workers, args.arrival, args.duration, args.questions, args.browser, args.seed, log_dir)
        rows.append(row)
        print(show(row), flush=True)
        print(f"    the load tool's own Python process: {100 * row['load_tool_cpu_share_of_core']:.0f}% of a core; "
              f"the server's threads waited for a CPU {row['server_run_queue_wait_share']:.2f} s per second "
              "(runnable, not running: other programs' load)", flush=True)
        if row["errors"] or row["wrong_examples"] or row["lecturer_problems"]:
            print(f"    errors: {row['errors']} wrong: {row['wrong_examples']} browser: {row['lecturer_problems']}", flush=True)
        if "question" in row:
            q = row["question"]
            print(f"    live question: {q['answerers']} students, {q['sent']} answers sent, {q['accepted']} accepted "
                  f"({q['accepted_per_s']:.1f}/s), submit to counted p95 {q['submit_to_counted_p95']:.2f} s "
                  f"(max {q['submit_to_counted_max']:.2f} s), counted {q['counted']} of {q['expected']} students "
                  f"(right {q['right_counted']} of {q['right_expected']}), lost {q['lost_answers']}, "
                  f"misconceptions {q['misconceptions']}, refused {len(q['refused'])}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
