"""The process plumbing every server, test and bench of NDCG Lab shares: one of each piece.

- :func:`free_port`: a TCP port the OS reports free on loopback (servers started for a test,
  a bench, a handout, a classroom's workers);
- :func:`die_with_parent`: a ``preexec_fn`` that asks Linux to send the child SIGTERM when
  the process that started it dies, even by SIGKILL (``PR_SET_PDEATHSIG``);
- :func:`stop_process_tree`: stop a child and everything it started, politely first
  (SIGTERM), then for good (SIGKILL) after a grace period;
- :func:`wait_unreaped` and :func:`kill_leftovers`: wait for a process-group leader to exit
  without reaping it, then SIGKILL whatever is left in its group. While the leader is an
  unreaped zombie its pid, and so its group's id, cannot be given to another process, so the
  group signal cannot reach a stranger. A member that missed the forwarded signal (a Python
  child still starting up swallows SIGINT as a KeyboardInterrupt while it reads its ``.pth``
  files) would otherwise outlive the server as an orphan.

:func:`stop_process_tree` uses psutil (a dependency of marimo, declared here too): it finds
the child's descendants before signalling, so a grandchild that left the process group
(``start_new_session``) is stopped as well, and ``psutil.wait_procs`` waits for all of them at
once with one deadline instead of a hand-written poll loop.

>>> port = free_port()
>>> 1024 <= port <= 65535
True
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time

import psutil

__all__ = ["free_port", "die_with_parent", "stop_process_tree", "wait_unreaped", "kill_leftovers"]


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port the OS reports free on ``host`` (it may be taken again before it is bound:
    bind it soon)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.bind((host.strip("[]"), 0))
        return int(probe.getsockname()[1])


def die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    """Linux: the child gets SIGTERM if its parent dies (even by SIGKILL); elsewhere nothing.

    Pass it as ``subprocess.Popen(..., preexec_fn=die_with_parent)``. It is a no-op when the C
    library cannot be loaded, so a child always starts.
    """
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # 1 = PR_SET_PDEATHSIG
    except Exception:  # noqa: BLE001 - not Linux, or no libc: the child starts without it
        pass


def stop_process_tree(process: subprocess.Popen[bytes], grace: float = 10.0, signum: int = signal.SIGTERM) -> None:
    """Send ``signum`` to ``process`` and all its descendants (its process group too), wait up to
    ``grace`` seconds, then SIGKILL whatever is left, and reap ``process``. A process that is
    gone already is not an error.
    """
    try:
        descendants = psutil.Process(process.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        descendants = []
    try:  # the group too: a child started in it after the list was read gets the signal as well
        os.killpg(process.pid, signum)
    except (ProcessLookupError, PermissionError):
        pass
    for member in [*descendants]:
        try:
            member.send_signal(signum)
        except psutil.NoSuchProcess:
            pass
    if process.poll() is None:
        process.send_signal(signum)
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    # the root is reaped through its Popen (psutil must not reap it: Popen would lose its status)
    _, alive = psutil.wait_procs(descendants, timeout=grace)
    for member in alive:
        try:
            member.kill()
        except psutil.NoSuchProcess:
            pass
    psutil.wait_procs(alive, timeout=grace)


def wait_unreaped(process: subprocess.Popen[bytes], timeout: float | None = None) -> bool:
    """True once ``process`` has exited, leaving it unreaped where the OS allows it
    (``os.waitid`` with ``WNOWAIT``; elsewhere it is reaped); False after ``timeout`` seconds.

    It polls ten times a second, so a signal handler that runs meanwhile (one that forwards a
    signal, say) is not held up and the caller can shorten the wait once it has run.
    """
    if not hasattr(os, "waitid"):  # pragma: no cover - macOS: no WNOWAIT, wait the plain way
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return False
        return True
    deadline = None if timeout is None else time.monotonic() + timeout
    while process.returncode is None:
        try:
            if os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                return True
        except ChildProcessError:  # reaped already (by Popen.poll elsewhere)
            return True
        if deadline is not None and time.monotonic() >= deadline:
            return False
        time.sleep(0.1)
    return True


def kill_leftovers(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL what is left of the process group ``process`` leads, then reap ``process``.

    Call it after :func:`wait_unreaped` said the leader has exited: the leader's zombie keeps
    the group's id reserved until it is reaped here. An empty group is not an error.
    """
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    process.wait()
