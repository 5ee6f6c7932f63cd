"""ndcg-lab's command line: what it runs, what it refuses, and that it stops its server.

No server is started here (the browser tests start a real one); signal forwarding is checked
with a stand-in child process.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from ndcg_core import cli_lab
from ndcg_core.cli_lab import UsageError, build_command, is_loopback, main, parse_args

REPO = Path(__file__).resolve().parent.parent


def launch_for(argv: list[str], environ: dict[str, str] | None = None, folder: Path | None = None) -> cli_lab.Launch:
    return build_command(parse_args(argv), environ=environ or {}, folder=folder or REPO / "notebooks", python="PY")


def test_notebooks_dir_is_the_checkout_folder() -> None:
    assert cli_lab.notebooks_dir() == REPO / "notebooks"


def test_default_serves_the_gallery_on_loopback_port_2718() -> None:
    launch = launch_for([])
    assert launch.argv == [
        "PY", "-m", "marimo", "run", str(REPO / "notebooks"),
        "--host", "127.0.0.1", "--port", "2718", "--no-sandbox",
    ]  # fmt: skip
    assert launch.url == "http://127.0.0.1:2718"
    assert launch.stdin_text is None


def test_port_and_headless_are_passed_on() -> None:
    launch = launch_for(["--port", "8123", "--headless"])
    assert launch.argv[launch.argv.index("--port") + 1] == "8123"
    assert "--headless" in launch.argv
    assert launch.url == "http://127.0.0.1:8123"


@pytest.mark.parametrize("port", ["0", "65536", "abc", "-1"])
def test_bad_port_is_a_usage_error(port: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        parse_args(["--port", port])
    assert exit_info.value.code == 2
    assert "must be a whole number from 1 to 65535" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.4.5.6", True),
        ("localhost", True),
        ("LOCALHOST", True),
        ("::1", True),
        ("[::1]", True),
        ("0.0.0.0", False),
        ("192.168.1.20", False),
        ("::", False),
        ("example.org", False),
    ],
)
def test_is_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.20", "::"])
def test_network_host_without_password_is_refused(host: str) -> None:
    with pytest.raises(UsageError, match=rf"refusing to serve on --host {host} without a password.*--password"):
        launch_for(["--host", host])


def test_network_host_refusal_exits_2_with_the_message(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(cli_lab.PASSWORD_ENV, raising=False)
    assert main(["--host", "0.0.0.0", "--headless"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ndcg-lab: refusing to serve on --host 0.0.0.0 without a password")
    assert "NDCG_LAB_PASSWORD" in err


def test_password_goes_to_marimo_on_stdin_not_on_the_command_line() -> None:
    launch = launch_for(["--host", "0.0.0.0", "--password", "s3cret"])
    assert launch.argv[-3:] == ["--token", "--token-password-file", "-"]
    assert launch.stdin_text == "s3cret"
    assert not any("s3cret" in part for part in launch.argv)
    assert launch.url == "http://0.0.0.0:2718"


def test_password_from_the_environment() -> None:
    launch = launch_for(["--host", "0.0.0.0"], environ={cli_lab.PASSWORD_ENV: "from-env"})
    assert launch.stdin_text == "from-env"
    assert "--token" in launch.argv


def test_command_line_password_wins_over_the_environment() -> None:
    launch = launch_for(["--host", "0.0.0.0", "--password", "typed"], environ={cli_lab.PASSWORD_ENV: "env"})
    assert launch.stdin_text == "typed"


def test_password_on_loopback_still_protects_the_server() -> None:
    launch = launch_for(["--password", "pw"])
    assert "--token" in launch.argv and launch.stdin_text == "pw"


def test_blank_password_is_refused() -> None:
    with pytest.raises(UsageError, match=r"the password is empty"):
        launch_for(["--host", "0.0.0.0", "--password", "  "])


def test_empty_host_is_refused() -> None:
    with pytest.raises(UsageError, match=r"--host is empty"):
        launch_for(["--host", " "])


def test_edit_opens_marimo_edit_on_loopback_without_token() -> None:
    launch = launch_for(["edit", "--headless"])
    assert launch.argv[:5] == ["PY", "-m", "marimo", "edit", str(REPO / "notebooks")]
    assert "--no-token" in launch.argv
    assert launch.mode == "edit"


@pytest.mark.parametrize("extra", [[], ["--password", "pw"]], ids=["no-password", "password"])
def test_edit_on_a_network_host_is_refused_even_with_a_password(extra: list[str]) -> None:
    with pytest.raises(UsageError, match=r"refusing to open the editor on --host 0.0.0.0"):
        launch_for(["edit", "--host", "0.0.0.0", *extra])


def test_missing_notebooks_folder_is_explained(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"cannot find the notebooks folder .*pip install -e \."):
        launch_for([], folder=tmp_path / "nowhere")


def test_port_in_use_exits_2_with_the_message(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["--port", str(port), "--headless"]) == 2
    assert f"port {port} on 127.0.0.1 is already in use" in capsys.readouterr().err


# A stand-in for marimo: prints its pid and its grandchild's pid, echoes stdin to a file,
# and exits 0 on SIGTERM/SIGINT.
FAKE_SERVER = textwrap.dedent(
    """
    import signal, subprocess, sys, time
    out = sys.argv[1]
    data = sys.stdin.read() if not sys.stdin.isatty() else ""
    open(out + ".stdin", "w").write(data)
    grandchild = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    open(out, "w").write(f"{grandchild.pid}\\n")
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
    signal.signal(signal.SIGINT, lambda *a: sys.exit(0))
    time.sleep(120)
    """
)

LAUNCHER = textwrap.dedent(
    """
    import sys
    from ndcg_core import cli_lab
    launch = cli_lab.Launch([sys.executable, "-c", sys.argv[1], sys.argv[2]], sys.argv[3] or None, "http://x", "run")
    sys.exit(cli_lab._serve(launch))
    """
)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is dead for our purpose
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except FileNotFoundError:
        return False


def _wait_for(condition, timeout: float = 30.0) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)  # polling the condition, not a fixed wait
    return False


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and process groups")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_signal_is_forwarded_and_no_process_is_left(tmp_path: Path, signum: int) -> None:
    marker = tmp_path / "pids"
    launcher = subprocess.Popen(
        [sys.executable, "-c", LAUNCHER, FAKE_SERVER, str(marker), "pw-on-stdin"],
        start_new_session=True,
    )
    try:
        assert _wait_for(lambda: marker.exists() and marker.read_text().endswith("\n")), "stand-in never started"
        grandchild = int(marker.read_text())
        assert _alive(grandchild)
        assert (tmp_path / "pids.stdin").read_text() == "pw-on-stdin"
        launcher.send_signal(signum)
        assert launcher.wait(timeout=30) == 0
        assert _wait_for(lambda: not _alive(grandchild)), "the server's own child survived ndcg-lab"
    finally:
        if launcher.poll() is None:
            os.killpg(launcher.pid, signal.SIGKILL)
            launcher.wait()
