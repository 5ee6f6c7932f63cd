"""Start, watch and stop the processes of classroom mode.

``ndcg-lab --workers N`` (or a network ``--host``) runs, all on loopback except HAProxy's bind:

- N marimo workers (:mod:`.worker`: ``marimo run`` with the AST-race lock), each in its own
  process group on a free loopback port, plus one more for the lecturer's projector (its
  notebook session never waits behind the students'); one that dies is started again on the
  same port (HAProxy stops sending new visitors to it meanwhile);
- the live-question app (:mod:`.app`, uvicorn) on another free loopback port;
- HAProxy (:mod:`.proxy`) on the public address, in the foreground (``-db``), with a generated
  configuration in a temporary folder that is removed at the end.

Secrets (the class password, the lecturer key) reach the children on their standard input,
never on a command line. Stopping (Ctrl+C, SIGTERM, or ndcg-lab itself being killed: every
child has PR_SET_PDEATHSIG) stops every process it started.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ...infra.processes import die_with_parent, free_port
from .proxy import haproxy_config

__all__ = ["Child", "Classroom", "wait_until_answers"]

#: seconds a worker may take to answer /health after it starts (a cold start imports marimo)
START_TIMEOUT = 120.0
GRACE = 10.0


def wait_until_answers(url: str, timeout: float, alive: Callable[[], bool] = lambda: True) -> bool:
    """Poll ``url`` until it answers with any HTTP status, the process dies, or ``timeout`` passes."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not alive():
            return False
        try:
            with urllib.request.urlopen(url, timeout=2):
                return True
        except urllib.error.HTTPError:
            return True
        except (urllib.error.URLError, OSError):
            time.sleep(0.2)
    return False


@dataclass
class Child:
    """One supervised process: how to start it, and the running one."""

    name: str
    argv: list[str]
    stdin_text: str | None = None
    health_url: str | None = None
    restart: bool = True
    quiet: bool = False
    process: subprocess.Popen[bytes] | None = None
    restarts: int = 0
    started_at: float = 0.0

    def start(self, env: dict[str, str] | None = None) -> None:
        self.process = subprocess.Popen(
            self.argv,
            stdin=subprocess.PIPE if self.stdin_text is not None else subprocess.DEVNULL,
            stdout=subprocess.DEVNULL if self.quiet else None,
            process_group=0,
            env=env,
            preexec_fn=die_with_parent if sys.platform.startswith("linux") else None,
        )
        self.started_at = time.monotonic()
        if self.stdin_text is not None and self.process.stdin is not None:
            self.process.stdin.write(self.stdin_text.encode())
            self.process.stdin.close()

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def signal(self, signum: int) -> None:
        if self.process is not None and self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signum)
            except ProcessLookupError:
                pass


@dataclass
class Classroom:
    """The processes of one classroom server; :meth:`run` blocks until stopped."""

    host: str
    port: int
    worker_argv: Callable[[int], list[str]]
    app_argv: Callable[[int], list[str]]
    haproxy: str | None
    password: str | None
    secrets_text: str
    log: Callable[[str], None] = lambda text: print(text, flush=True)
    children: list[Child] = field(default_factory=list)
    folder: Path | None = None
    worker_ports: list[int] = field(default_factory=list)
    app_port: int = 0
    #: fixed loopback ports first, first+1, ... for the workers, the lecturer's worker, the app (None: free ones)
    first_port: int | None = None
    _stopping: list[int] = field(default_factory=list)

    def _make(self, workers: int) -> None:
        if self.haproxy is None:  # the fallback: one marimo process on the public port, questions next to it
            self.worker_ports, self.app_port = [self.port], self.port + 1
        else:
            # the students' workers, then the lecturer's own (HAProxy gives it no student)
            if self.first_port is not None:  # firewalled machines: ports the administrator opened
                self.worker_ports = list(range(self.first_port, self.first_port + workers + 1))
                self.app_port = self.first_port + workers + 1
            else:
                self.worker_ports = [free_port() for _ in range(workers + 1)]
                self.app_port = free_port()
        probe = self.probe_host if self.haproxy is None else "127.0.0.1"
        for i, port in enumerate(self.worker_ports, start=1):
            name = "lecturer's worker" if self.haproxy is not None and i == len(self.worker_ports) else f"worker {i}"
            self.children.append(
                Child(name, self.worker_argv(port), self.password, f"http://{probe}:{port}/health", quiet=True)
            )
        self.children.append(
            Child("question app", self.app_argv(self.app_port), self.secrets_text, f"http://{probe}:{self.app_port}/class/health")
        )
        if self.haproxy is None:
            return
        assert self.folder is not None
        config = self.folder / "haproxy.cfg"
        config.write_text(haproxy_config(self.host, self.port, self.worker_ports[:-1], self.app_port,
                                          lecturer_port=self.worker_ports[-1]), encoding="utf-8")
        self.children.append(Child("HAProxy", [self.haproxy, "-db", "-f", str(config)], restart=False))

    def run(self, workers: int, on_ready: Callable[[], None] = lambda: None) -> int:
        """Start everything, call ``on_ready`` once the public address answers, supervise until stopped."""
        with tempfile.TemporaryDirectory(prefix="ndcg-lab-classroom-") as folder:
            self.folder = Path(folder)
            self._make(workers)
            previous = {sig: signal.signal(sig, self._on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
            try:
                return self._supervise(on_ready)
            finally:
                self.stop()
                for sig, handler in previous.items():
                    signal.signal(sig, handler)

    def _on_signal(self, signum: int, _frame: object) -> None:
        self._stopping.append(signum)

    @property
    def probe_host(self) -> str:
        """Where this computer reaches the public address (loopback for a wildcard bind)."""
        probe = "127.0.0.1" if self.host in ("0.0.0.0", "::", "") else self.host.strip("[]")
        return f"[{probe}]" if ":" in probe else probe

    def _supervise(self, on_ready: Callable[[], None]) -> int:
        backends = [c for c in self.children if c.health_url]
        for child in backends:
            child.start()
        for child in backends:
            assert child.health_url is not None
            if not wait_until_answers(child.health_url, START_TIMEOUT, lambda: child.alive() and not self._stopping):
                if self._stopping:
                    return 0
                self.log(f"ndcg-lab: the {child.name} did not start (see the messages above). Stopping.")
                return 1
        proxy = self.children[-1] if self.haproxy is not None else None
        if proxy is not None:
            proxy.start()
            shown = f"[{self.host}]" if ":" in self.host else self.host
            url = f"http://{self.probe_host}:{self.port}/class/health"
            if not wait_until_answers(url, 30, lambda: proxy.alive() and not self._stopping):
                if self._stopping:
                    return 0
                self.log(f"ndcg-lab: HAProxy did not start on {shown}:{self.port} (see its message above). Stopping.")
                return 1
        on_ready()
        while not self._stopping:
            time.sleep(0.5)
            if proxy is not None and not proxy.alive():
                self.log(f"ndcg-lab: HAProxy stopped (exit code {proxy.process.returncode if proxy.process else '?'}). Stopping.")
                return 1
            for child in backends:
                if not child.alive() and not self._stopping:
                    code = child.process.returncode if child.process else None
                    child.restarts += 1
                    self.log(f"ndcg-lab: the {child.name} stopped (exit code {code}); starting it again.")
                    if time.monotonic() - child.started_at < 5:
                        time.sleep(2)  # a crash at start-up: do not spin
                    child.start()
        return 0

    def stop(self) -> None:
        """SIGTERM every child's process group, SIGKILL what is left after the grace period."""
        for child in reversed(self.children):
            child.signal(signal.SIGTERM)
        deadline = time.monotonic() + GRACE
        for child in self.children:
            if child.process is None:
                continue
            try:
                child.process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.signal(signal.SIGKILL)
                child.process.wait()


def secrets_json(password: str | None, lecturer_key: str, public_port: int, device_limit: int = 10) -> str:
    """What the question app reads on its standard input."""
    return json.dumps({"password": password, "lecturer_key": lecturer_key, "public_port": public_port,
                       "device_limit": device_limit})
