"""ndcg-lab's command line: what it runs, what it refuses, and that it stops its server.

No server is started here (the browser tests start a real one); signal forwarding is checked
with a stand-in child process.
"""

from __future__ import annotations

import ast
import json
import re
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from ndcg_core.ui import lab as cli_lab
from ndcg_core.ui.lab import UsageError, build_command, is_loopback, main, parse_args

REPO = Path(__file__).resolve().parents[2]


def launch_for(argv: list[str], environ: dict[str, str] | None = None, folder: Path | None = None) -> cli_lab.Launch:
    return build_command(parse_args(argv), environ=environ or {}, folder=folder or REPO / "notebooks", python="PY")


def test_notebooks_dir_is_the_checkout_folder() -> None:
    """Run from a checkout, the checkout's own notebooks are served (so an edit there is what runs)."""
    assert cli_lab.notebooks_dir() == REPO / "notebooks"
    assert cli_lab.decks_dir() == REPO / "notebooks" / "decks"
    assert cli_lab.is_checkout()


def test_default_serves_the_notebooks_on_loopback_port_2718() -> None:
    launch = launch_for([])
    assert launch.argv == [
        "PY", "-m", "ndcg_core.ui.classroom.worker", "run", str(REPO / "notebooks"),
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


def test_edit_of_an_installed_wheels_notebooks_is_refused_and_points_to_a_checkout() -> None:
    """In a wheel the notebooks live in site-packages: serve them, but never edit them there."""
    installed = REPO / "site-packages" / "ndcg_core" / "_notebooks"
    with pytest.raises(
        UsageError,
        match=r"'ndcg-lab edit' edits the notebooks of a source checkout, and this ndcg-lab is an installed "
        r"package: its notebooks are in .*_notebooks, where a reinstall .*clone the repository and run "
        r"'pip install -e \.' in it",
    ):
        build_command(parse_args(["edit"]), environ={}, folder=installed, python="PY", checkout=False)
    for mode in ([], ["slides"]):  # serving them stays allowed
        launch = build_command(parse_args(mode), environ={}, folder=REPO / "notebooks", python="PY", checkout=False)
        assert launch.argv[3] == "run"


def test_edit_in_an_installed_wheel_exits_2_with_the_message(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cli_lab, "is_checkout", lambda: False)
    monkeypatch.setattr(cli_lab, "_serve", lambda launch: pytest.fail("must not start the editor"))
    assert main(["edit", "--headless"]) == 2
    assert capsys.readouterr().err.startswith("ndcg-lab: 'ndcg-lab edit' edits the notebooks of a source checkout")


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


# ---- ndcg-lab slides --------------------------------------------------------------------------

NOTEBOOKS = REPO / "notebooks"
DECKS = NOTEBOOKS / "decks"
LAYOUTS = sorted((DECKS / "layouts").glob("*.slides.json"))


def app_keywords(source: str) -> dict[str, object]:
    """The keyword arguments of the ``app = marimo.App(...)`` call, as Python values."""
    (call,) = [
        node.value
        for node in ast.parse(source).body
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and ast.unparse(node.value.func) == "marimo.App"
    ]
    return {keyword.arg: ast.literal_eval(keyword.value) for keyword in call.keywords}


def test_slides_serves_with_marimo_run_under_the_same_rules() -> None:
    launch = launch_for(["slides", "--port", "8124", "--headless"], folder=DECKS)
    assert launch.argv == [
        "PY", "-m", "ndcg_core.ui.classroom.worker", "run", str(DECKS),
        "--host", "127.0.0.1", "--port", "8124", "--no-sandbox", "--headless",
    ]  # fmt: skip
    assert launch.mode == "slides"
    with pytest.raises(UsageError, match=r"refusing to serve on --host 0.0.0.0 without a password"):
        launch_for(["slides", "--host", "0.0.0.0"])
    shared = launch_for(["slides", "--host", "0.0.0.0", "--password", "pw"])
    assert shared.argv[-3:] == ["--token", "--token-password-file", "-"] and shared.stdin_text == "pw"


def test_the_notebooks_themselves_name_no_layout() -> None:
    """So ``ndcg-lab`` (marimo run) opens every chapter notebook as one vertical page."""
    for path in sorted(NOTEBOOKS.glob("*.py")):
        assert "layout_file" not in app_keywords(path.read_text(encoding="utf-8")), path.name


def test_every_deck_names_its_layout_and_marimo_reads_it() -> None:
    from marimo._session.notebook.file_manager import AppFileManager

    assert [path.name for path in LAYOUTS] == [
        "01_playground.slides.json", "02_gains.slides.json", "03_discounts.slides.json", "04_ideal_list.slides.json",
        "09_graded_vs_binary.slides.json", "12_which_measure.slides.json", "13_significance.slides.json",
    ]  # fmt: skip
    assert cli_lab.deck_files() == [path.name.replace(".slides.json", ".py") for path in LAYOUTS]
    for layout in LAYOUTS:
        deck = DECKS / layout.name.replace(".slides.json", ".py")
        keywords = app_keywords(deck.read_text(encoding="utf-8"))
        assert keywords["layout_file"] == f"layouts/{layout.name}" and keywords["css_file"] == "layouts/slides.css"
        manager = AppFileManager(str(deck))
        read = manager.read_layout_config()  # marimo resolves the path from the deck's folder
        assert read is not None and read.type == "slides"
        assert read.data == json.loads(layout.read_text(encoding="utf-8"))["data"]
        assert "Deck" in (manager.read_css_file() or "") or ".reveal" in (manager.read_css_file() or "")
        # one layout entry per cell, by position
        assert len(read.data["cells"]) == deck.read_text(encoding="utf-8").count("\n@app.cell"), deck.name


def test_the_decks_stylesheet_enlarges_widgets_and_the_table_on_slides_only() -> None:
    css = re.sub(r"/\*.*?\*/", "", (DECKS / "layouts" / "slides.css").read_text(encoding="utf-8"), flags=re.S)
    rules = [rule for rule in css.split("}") if "{" in rule]
    assert rules[0].split("{")[1].split() == ["zoom:", "1.5;"]
    # every later rule (the projector's legibility rules, the decks' layouts) is for slides only too
    assert all(" ".join(rule.split("{")[0].split()).startswith(".reveal ") for rule in rules), [
        rule.split("{")[0].strip() for rule in rules if not rule.split("{")[0].strip().startswith(".reveal ")]
    selectors, depth, current = [], 0, ""
    for char in rules[0].split("{")[0]:  # split at the commas outside :is(...)
        depth += (char == "(") - (char == ")")
        if char == "," and depth == 0:
            selectors.append(" ".join(current.split()))
            current = ""
        else:
            current += char
    selectors.append(" ".join(current.split()))
    assert [selector.split(" :is(")[0] for selector in selectors] == [
        ".reveal .mo-slide-content", ".reveal .mo-slide-content table.ndcg-breakdown",
    ]  # on a slide only: pages keep marimo's sizes
    assert "marimo-text," in selectors[0] and "marimo-slider," in selectors[0]


def test_the_decks_stylesheet_draws_in_the_palettes_colours() -> None:
    from ndcg_core.ui.palette import COLORS

    css = (DECKS / "layouts" / "slides.css").read_text(encoding="utf-8")
    used = {colour.lower() for colour in re.findall(r"#[0-9A-Fa-f]{6}\b", css)}
    assert used and used <= {colour.lower() for colour in COLORS.values()}, used


def _folder(tmp_path: Path, layouts: dict[str, str], decks: dict[str, str]) -> Path:
    source = tmp_path / "decks"
    (source / "layouts").mkdir(parents=True)
    (source / "layouts" / "slides.css").write_text(".reveal {}\n", encoding="utf-8")
    for name, text in decks.items():
        (source / name).write_text(text, encoding="utf-8")
    for name, text in layouts.items():
        (source / "layouts" / name).write_text(text, encoding="utf-8")
    return source


SLIDES_JSON = '{"type": "slides", "data": {"cells": [{"type": "slide"}]}}'
DECK_01 = 'import marimo\napp = marimo.App(layout_file="layouts/01_a.slides.json", css_file="layouts/slides.css")\n'


def test_a_good_deck_folder_lists_its_decks(tmp_path: Path) -> None:
    assert cli_lab.deck_files(_folder(tmp_path, {"01_a.slides.json": SLIDES_JSON}, {"01_a.py": DECK_01})) == ["01_a.py"]


def test_a_layout_without_its_deck_is_refused(tmp_path: Path) -> None:
    source = _folder(tmp_path, {"09_gone.slides.json": SLIDES_JSON, "01_a.slides.json": SLIDES_JSON}, {"01_a.py": DECK_01})
    with pytest.raises(UsageError, match=r"09_gone\.slides\.json belongs to no deck \(09_gone\.py is missing .*Rename the layout"):
        cli_lab.deck_files(source)


@pytest.mark.parametrize(
    ("text", "message"),
    [("{not json", r"cannot read the slide layout .*01_a\.slides\.json: .*Restore it from git"),
     ('{"type": "grid", "data": {}}', r"01_a\.slides\.json is not a marimo slides layout")],
    ids=["not-json", "not-slides"],
)
def test_a_broken_layout_is_refused(tmp_path: Path, text: str, message: str) -> None:
    source = _folder(tmp_path, {"01_a.slides.json": text}, {"01_a.py": DECK_01})
    with pytest.raises(UsageError, match=message):
        cli_lab.deck_files(source)


@pytest.mark.parametrize(
    ("source", "message"),
    [("import marimo\n", r"01_a\.py has no 'app = marimo\.App\(\.\.\.\)' line"),
     ("app = marimo.App(\n", r"cannot read the slide deck .*01_a\.py: .*Restore it from git"),
     ('app = marimo.App(css_file="layouts/slides.css")\n', r"01_a\.py must name layout_file='layouts/01_a\.slides\.json'"),
     ('app = marimo.App(layout_file="layouts/01_a.slides.json")\n', r"must name css_file='layouts/slides\.css' .*\(it has None\)")],
    ids=["no-app", "syntax-error", "no-layout", "no-css"],
)
def test_a_deck_that_does_not_name_its_layout_is_refused(tmp_path: Path, source: str, message: str) -> None:
    folder = _folder(tmp_path, {"01_a.slides.json": SLIDES_JSON}, {"01_a.py": source})
    with pytest.raises(UsageError, match=message):
        cli_lab.deck_files(folder)


def test_slides_serves_the_decks_folder(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    seen: dict[str, object] = {}

    def fake_serve(launch: cli_lab.Launch) -> int:
        seen["argv"] = launch.argv
        seen["deck"] = os.environ.get(cli_lab.DECK_ENV)
        return 0

    monkeypatch.setattr(cli_lab, "_serve", fake_serve)
    monkeypatch.setattr(cli_lab, "_check_port_free", lambda host, port: None)
    monkeypatch.delenv(cli_lab.DECK_ENV, raising=False)
    assert main(["slides", "--headless"]) == 0
    assert seen["argv"][3:5] == ["run", str(DECKS)] and seen["deck"] == "1"  # type: ignore[index]
    assert cli_lab.DECK_ENV not in os.environ  # this process keeps its own environment
    out = capsys.readouterr().out
    assert "serving the slide decks at http://127.0.0.1:2718" in out
    assert "01_playground.py, 02_gains.py, 03_discounts.py, 04_ideal_list.py, 09_graded_vs_binary.py, 12_which_measure.py" in out


def test_slides_with_a_broken_deck_exits_2_and_serves_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _folder(tmp_path, {"01_a.slides.json": SLIDES_JSON}, {"01_a.py": "import marimo\n"})
    monkeypatch.setattr(cli_lab, "decks_dir", lambda: source)
    monkeypatch.setattr(cli_lab, "_check_port_free", lambda host, port: None)
    monkeypatch.setattr(cli_lab, "_serve", lambda launch: pytest.fail("must not serve"))
    assert main(["slides", "--headless"]) == 2
    assert capsys.readouterr().err.startswith("ndcg-lab: the slide deck ")


# A stand-in for marimo: echoes stdin to a file, starts a grandchild, and exits 0 on
# SIGTERM/SIGINT. It writes the grandchild's pid only once its handlers are in place, so a signal
# sent after the pid is read can never meet Python's default SIGINT (KeyboardInterrupt, exit 1),
# however slowly a busy machine runs it. It then waits for a signal (no fixed sleep).
FAKE_SERVER = textwrap.dedent(
    """
    import signal, subprocess, sys
    out = sys.argv[1]
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
    signal.signal(signal.SIGINT, lambda *a: sys.exit(0))
    data = sys.stdin.read() if not sys.stdin.isatty() else ""
    open(out + ".stdin", "w").write(data)
    grandchild = subprocess.Popen([sys.executable, "-c", sys.argv[2], out])
    open(out, "w").write(f"{grandchild.pid}\\n")
    while True:
        signal.pause()
    """
)

LAUNCHER = textwrap.dedent(
    """
    import sys
    from ndcg_core.ui import lab as cli_lab
    launch = cli_lab.Launch([sys.executable, "-c", sys.argv[1], sys.argv[2], sys.argv[4]], sys.argv[3] or None, "http://x", "run")
    sys.exit(cli_lab._serve(launch))
    """
)


def _catches(pid: int, signum: int) -> bool:
    """True once process ``pid`` has a handler of its own for ``signum`` (SigCgt in /proc/PID/status)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    caught = int(next(line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:")), 16)
    return bool(caught >> (signum - 1) & 1)


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


#: Generous: starting Python processes on a busy 2-core machine can take many seconds.
PROCESS_TIMEOUT = 120.0


def _wait_for(condition, timeout: float = PROCESS_TIMEOUT) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)  # polling the condition, not a fixed wait
    return False


#: The stand-in server's own child: one that stops on the forwarded signal, and one that
#: misses it. The second is what a Python child still starting up does by accident: SIGINT
#: arriving while ``site`` reads the ``.pth`` files is a KeyboardInterrupt that ``site``
#: reports as "Remainder of file ignored" and then goes on (seen in CI, stop 25).
#: Each says it is ready (``pids.ready``) once its signals are set, so the test signals it then.
GRANDCHILDREN = {
    "obeys": "import sys, time\nopen(sys.argv[1] + '.ready', 'w').close()\ntime.sleep(300)",
    "misses-the-signal": (
        "import signal, sys, time\n"
        "signal.signal(signal.SIGINT, signal.SIG_IGN); signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "open(sys.argv[1] + '.ready', 'w').close()\n"
        "time.sleep(300)"
    ),
}


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and process groups")
@pytest.mark.parametrize("grandchild_code", list(GRANDCHILDREN.values()), ids=list(GRANDCHILDREN))
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_signal_is_forwarded_and_no_process_is_left(tmp_path: Path, signum: int, grandchild_code: str) -> None:
    marker = tmp_path / "pids"
    launcher = subprocess.Popen(
        [sys.executable, "-c", LAUNCHER, FAKE_SERVER, str(marker), "pw-on-stdin", grandchild_code],
        start_new_session=True,
    )
    grandchild = 0
    try:
        assert _wait_for(lambda: marker.exists() and marker.read_text().endswith("\n")), "stand-in never started"
        grandchild = int(marker.read_text())
        assert _alive(grandchild)
        assert (tmp_path / "pids.stdin").read_text() == "pw-on-stdin"
        assert _wait_for((tmp_path / "pids.ready").exists), "the server's own child never got ready"
        # ndcg-lab forwards the signals from its handlers, set right after it starts the server
        assert _wait_for(lambda: _catches(launcher.pid, signal.SIGTERM) and _catches(launcher.pid, signal.SIGINT))
        launcher.send_signal(signum)
        assert launcher.wait(timeout=PROCESS_TIMEOUT) == 0
        assert _wait_for(lambda: not _alive(grandchild)), "the server's own child survived ndcg-lab"
    finally:
        if launcher.poll() is None:
            os.killpg(launcher.pid, signal.SIGKILL)
            launcher.wait()
        if grandchild and _alive(grandchild):  # after a failure: leave nothing behind
            os.kill(grandchild, signal.SIGKILL)
