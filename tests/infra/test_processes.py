"""infra.processes: one free_port, one die_with_parent, and stop_process_tree leaves nothing behind."""

from __future__ import annotations

import socket
import subprocess
import sys

import psutil

from ndcg_core.infra.processes import die_with_parent, free_port, stop_process_tree

# a parent that starts a grandchild in a session of its own (out of the parent's process group),
# prints the grandchild's pid, then waits for ever
PARENT = (
    "import subprocess, sys, time\n"
    "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'], start_new_session=True)\n"
    "print(child.pid, flush=True)\n"
    "time.sleep(600)\n"
)


def test_free_port_can_be_bound() -> None:
    port = free_port()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", port))


def test_stop_process_tree_stops_a_grandchild_that_left_the_group() -> None:
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, process_group=0,
                              preexec_fn=die_with_parent)
    assert parent.stdout is not None
    grandchild = int(parent.stdout.readline())
    assert psutil.pid_exists(grandchild)
    stop_process_tree(parent, grace=20)
    assert parent.returncode is not None
    gone, alive = psutil.wait_procs([psutil.Process(grandchild)] if psutil.pid_exists(grandchild) else [], timeout=20)
    assert not alive


def test_stopping_a_process_that_ended_already_is_not_an_error() -> None:
    done = subprocess.Popen([sys.executable, "-c", "pass"])
    done.wait()
    stop_process_tree(done, grace=1)
    assert done.returncode == 0
