"""``ndcg-lab``: serve the NDCG Lab notebooks in a browser.

::

    ndcg-lab                      # the front page at http://127.0.0.1:2718, opens a browser
    ndcg-lab --port 8000 --headless
    ndcg-lab slides               # the lecture slide decks (arrow keys)
    ndcg-lab edit                 # open the notebooks for editing (loopback only)
    ndcg-lab handout --out DIR    # a PDF per slide deck, with speaker notes (ndcg_core.ui.handout)
    ndcg-lab handout --deck 01,04 # only those decks
    ndcg-lab --host 0.0.0.0 --password SECRET    # a classroom network: a password is required
    ndcg-lab --workers 2 --lecturer-key KEY      # classroom mode on this computer

The command runs ``python -m ndcg_core.ui.classroom.worker run <notebooks>`` (marimo's own
``marimo run`` with CPython's AST compile race kept out, see :mod:`.classroom.worker`; the
start-up names an affected Python) or ``python -m marimo edit`` as a child process; this
module never imports marimo. The page at ``/`` is NDCG Lab's front page (:mod:`.front`, put
into marimo's app by the worker): the start path, a card per notebook, the decks marked under
``ndcg-lab slides`` and, in classroom mode, a link to the class questions; each notebook stays
at marimo's ``/?file=NN_name.py``.

Classroom mode (``--workers N``, and any network ``--host``, where N defaults to the number of
cores) runs N marimo workers, one more for the lecturer, and the live-question app behind
HAProxy on the one address (:mod:`.classroom.supervise`, :mod:`.classroom.proxy`): sticky
sessions, compressed and cached static files, and the class questions at ``/class/`` (the
lecturer's page ``/class/lecturer`` needs ``--lecturer-key`` or ``NDCG_LAB_LECTURER_KEY``,
never the class password; without one a random key is printed). Without HAProxy installed it
says so and serves from one marimo process, with the questions on the next port. ``<notebooks>`` is the checkout's ``notebooks/``
folder, or the copy inside an installed wheel (:func:`ndcg_core.teaching.paths.notebooks_dir`).
``ndcg-lab edit`` edits a checkout only: in an installed wheel it is refused with a message
(the files live in site-packages, where a reinstall would overwrite the changes). The
notebooks name no layout, so ``marimo run`` shows each as one vertical page.
``ndcg-lab slides`` serves the slide decks, ``<notebooks>/decks/`` (one marimo notebook per
deck, :func:`ndcg_core.teaching.paths.decks_dir`, each naming its ``layouts/<name>.slides.json``
and ``layouts/slides.css``; :func:`deck_files` checks them first), with ``marimo run``, under
the same rules as the default command. SIGINT and SIGTERM are forwarded to the child's
process group, so stopping ``ndcg-lab`` never leaves a server behind.

A password (``--password`` or the environment variable ``NDCG_LAB_PASSWORD``) is handed to
marimo on its standard input (``--token --token-password-file -``), so it never appears in
the server's command line.
"""

from __future__ import annotations

import argparse
import ast
import errno
import ipaddress
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..infra import progress, store
from ..infra.processes import die_with_parent, kill_leftovers, wait_unreaped
from ..teaching.paths import decks_dir, is_checkout, notebooks_dir
from .front import CLASS_URL_ENV

__all__ = [
    "main",
    "build_command",
    "parse_args",
    "is_loopback",
    "notebooks_dir",
    "decks_dir",
    "deck_files",
    "Launch",
    "UsageError",
]

DEFAULT_PORT = 2718
DEFAULT_HOST = "127.0.0.1"
PASSWORD_ENV = "NDCG_LAB_PASSWORD"
LECTURER_KEY_ENV = "NDCG_LAB_LECTURER_KEY"
MAX_WORKERS = 64
#: Set to "1" for the server of ``ndcg-lab slides`` (the front page then shows the decks as
#: slides; the same name as :data:`ndcg_core.ui.front.DECK_ENV`; this module never imports marimo).
DECK_ENV = "NDCG_LAB_DECK"
#: Seconds the child gets to shut down after a forwarded signal before it is killed.
SHUTDOWN_GRACE = 10.0


class UsageError(Exception):
    """A command line that must not start a server; the message is shown to the user."""


@dataclass(frozen=True)
class Launch:
    """What to run: the child's argv, the text for its stdin (the password) and the URL."""

    argv: list[str]
    stdin_text: str | None
    url: str
    mode: str
    #: classroom mode: how many marimo workers (0: one plain marimo process, the default on loopback)
    workers: int = 0
    lecturer_key: str | None = None
    lecturer_key_generated: bool = False
    #: classroom mode: how many students' answers one client address may add to a question
    answers_per_device: int = 10
    #: classroom mode: the first of the fixed loopback ports of the workers and the question app (None: free ones)
    worker_ports: int | None = None


#: the stylesheet every deck names, in the decks' layouts folder
SLIDES_CSS = "slides.css"


def _app_keywords(path: Path) -> dict[str, object]:
    """The constant keyword arguments of the file's ``app = marimo.App(...)`` call."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except (OSError, UnicodeError, SyntaxError) as err:
        raise UsageError(f"cannot read the slide deck {path}: {err}. Restore it from git.") from None
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and getattr(node.value.func, "attr", "") == "App":
            return {k.arg: k.value.value for k in node.value.keywords if k.arg and isinstance(k.value, ast.Constant)}
    raise UsageError(f"the slide deck {path} has no 'app = marimo.App(...)' line. Restore it from git.")


def _read_layout(path: Path) -> None:
    """Refuse a layout file that is not a marimo slides layout (marimo would ignore it silently)."""
    try:
        layout = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeError, json.JSONDecodeError) as err:
        raise UsageError(f"cannot read the slide layout {path}: {err}. Restore it from git.") from None
    if not isinstance(layout, dict) or layout.get("type") != "slides" or not isinstance(layout.get("data"), dict):
        raise UsageError(
            f"the slide layout {path} is not a marimo slides layout (a JSON object with \"type\": \"slides\" "
            "and a \"data\" object). Restore it from git."
        )


def deck_files(folder: Path | None = None) -> list[str]:
    """The slide decks of ``folder`` (default :func:`ndcg_core.teaching.paths.decks_dir`), by file
    name, after checking each: its ``marimo.App(...)`` names ``layout_file="layouts/<name>.slides.json"``
    (a marimo slides layout that exists) and ``css_file="layouts/slides.css"``, and no layout is
    left without its deck. A problem is a :class:`UsageError` naming the file and the fix."""
    folder = decks_dir() if folder is None else folder
    if not folder.is_dir():
        raise UsageError(f"cannot find the slide decks folder {folder}. Reinstall ndcg-lab, or restore it from git.")
    decks = sorted(path for path in folder.glob("*.py") if path.is_file())
    layouts = {path.name.removesuffix(".slides.json") for path in (folder / "layouts").glob("*.slides.json")}
    orphans = sorted(layouts - {path.stem for path in decks})
    if orphans:
        raise UsageError(
            f"the slide layout {folder / 'layouts' / (orphans[0] + '.slides.json')} belongs to no deck "
            f"({orphans[0]}.py is missing from {folder}). Rename the layout with its deck, or delete it."
        )
    for path in decks:
        keywords = _app_keywords(path)
        want = {"layout_file": f"layouts/{path.stem}.slides.json", "css_file": f"layouts/{SLIDES_CSS}"}
        for key, value in want.items():
            if keywords.get(key) != value:
                raise UsageError(
                    f"the slide deck {path} must name {key}={value!r} in its marimo.App(...) call "
                    f"(it has {keywords.get(key)!r}). Fix that line."
                )
            if not (folder / value).is_file():
                raise UsageError(f"the slide deck {path} names {value}, which is missing from {folder}. Restore it from git.")
        _read_layout(folder / want["layout_file"])
    return [path.name for path in decks]


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (127.0.0.0/8, ::1)."""
    if host.strip().lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number from 1 to 65535; got {text!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"must be a whole number from 1 to 65535; got {port}")
    return port


def _workers(text: str) -> int:
    try:
        workers = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number from 1 to {MAX_WORKERS}; got {text!r}") from None
    if not 1 <= workers <= MAX_WORKERS:
        raise argparse.ArgumentTypeError(f"must be a whole number from 1 to {MAX_WORKERS}; got {workers}")
    return workers


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ndcg-lab",
        description="Serve the NDCG Lab notebooks (marimo apps, listed on NDCG Lab's front page) in your browser.",
        epilog=(
            "Examples: 'ndcg-lab' serves at http://127.0.0.1:2718; 'ndcg-lab slides' serves the "
            "lecture slide decks (arrow keys); 'ndcg-lab edit' opens the notebooks for editing; "
            "'ndcg-lab --host 0.0.0.0 --password SECRET' serves a classroom network."
        ),
    )
    parser.add_argument(
        "mode",
        nargs="?",
        choices=("run", "slides", "edit", "handout"),
        default="run",
        help=(
            "run: the notebooks as read-only pages (default); slides: the lecture slide decks "
            "(notebooks/decks); edit: open them in marimo's editor; handout: write a PDF per deck "
            "(every slide in its final state, with its speaker notes) into --out"
        ),
    )
    parser.add_argument("--out", default="handouts", help="handout: the folder for the PDFs (default: ./handouts)")
    parser.add_argument("--deck", default=None, metavar="NN[,NN...]",
                        help="handout: only these decks, by chapter number or file name (e.g. 01,04); default: every deck")
    parser.add_argument("--port", type=_port, default=DEFAULT_PORT, help=f"port to serve on (default {DEFAULT_PORT})")
    parser.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=f"address to bind (default {DEFAULT_HOST}); any other than loopback needs --password",
    )
    parser.add_argument("--headless", action="store_true", help="do not open a browser")
    parser.add_argument(
        "--password",
        default=None,
        help=f"password visitors must enter (default: the environment variable {PASSWORD_ENV})",
    )
    parser.add_argument(
        "--data-dir",
        default=None,
        metavar="DIR",
        help=(f"folder of the progress file (default: the environment variable {store.DATA_DIR_ENV}, "
              "else ~/.local/share/ndcg-lab)"),
    )
    parser.add_argument(
        "--workers",
        type=_workers,
        default=None,
        help=(
            "classroom mode: N marimo worker processes behind HAProxy, plus live class questions at /class/ "
            "(default: the number of cores when --host is a network address; without this option and on "
            "loopback, one process as before)"
        ),
    )
    parser.add_argument(
        "--lecturer-key",
        default=None,
        help=(
            f"classroom mode: the key of the lecturer's question page /class/lecturer, never the class password "
            f"(default: the environment variable {LECTURER_KEY_ENV}, else a random key printed at start-up)"
        ),
    )
    parser.add_argument(
        "--answers-per-device",
        type=_answers_per_device,
        default=None,
        metavar="N",
        help=(
            "classroom mode: how many students' answers one device (one network address) may add to a "
            "question (default 10: a prankster with many cookies adds at most 10). Raise it when the whole "
            "class reaches this computer through one NAT address, e.g. 200; the lecturer's page states it"
        ),
    )
    parser.add_argument(
        "--worker-ports",
        type=_port,
        default=None,
        metavar="FIRST",
        help=(
            "classroom mode behind HAProxy: fixed loopback ports FIRST, FIRST+1, ... for the N workers, the "
            "lecturer's worker and the question app (N+2 ports; default: free ports the system picks)"
        ),
    )
    return parser


def _answers_per_device(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number from 1 to 10000; got {text!r}") from None
    if not 1 <= value <= 10000:
        raise argparse.ArgumentTypeError(f"must be a whole number from 1 to 10000; got {value}")
    return value


def serving_environment(args: argparse.Namespace, environ: dict[str, str] | None = None) -> dict[str, str]:
    """The environment variables the notebook kernels need: the data folder (``--data-dir``,
    passed on as :data:`ndcg_core.infra.store.DATA_DIR_ENV`) and whether the server is
    shared (a host other than loopback: then no name comes from the data file).

    >>> a = parse_args(["--data-dir", "/tmp/x"])
    >>> serving_environment(a, {})[store.DATA_DIR_ENV], serving_environment(a, {})[progress.SHARED_ENV]
    ('/tmp/x', '0')
    """
    out: dict[str, str] = {}
    data_dir = getattr(args, "data_dir", None)
    if data_dir is not None:
        if not str(data_dir).strip():
            raise UsageError("--data-dir is empty. Leave it out to keep progress in ~/.local/share/ndcg-lab.")
        out[store.DATA_DIR_ENV] = str(Path(data_dir).expanduser().resolve())
    out[progress.SHARED_ENV] = "0" if is_loopback(args.host.strip() or DEFAULT_HOST) else "1"
    return out


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """Parse the command line (argparse exits with status 2 on a malformed one)."""
    return _parser().parse_args(argv)


def build_command(
    args: argparse.Namespace,
    *,
    environ: os._Environ[str] | dict[str, str] | None = None,
    folder: Path | None = None,
    python: str | None = None,
    checkout: bool | None = None,
) -> Launch:
    """The marimo command for these arguments, or :class:`UsageError` when it must not start.

    ``checkout`` says whether the notebooks are a source checkout's (default:
    :func:`~ndcg_core.teaching.paths.is_checkout`); ``edit`` is refused when they are not.
    """
    environ = os.environ if environ is None else environ
    folder = notebooks_dir() if folder is None else folder
    checkout = is_checkout() if checkout is None else checkout
    python = sys.executable if python is None else python
    password = args.password if args.password is not None else environ.get(PASSWORD_ENV) or None
    if password is not None and not password.strip():
        raise UsageError("the password is empty. Give a non-empty one with --password or NDCG_LAB_PASSWORD.")
    host = args.host.strip()
    if not host:
        raise UsageError("--host is empty. Leave it out to serve on 127.0.0.1.")
    loopback = is_loopback(host)
    if args.mode == "edit" and not loopback:
        raise UsageError(
            f"refusing to open the editor on --host {host}: editing runs arbitrary code, so it is served "
            "on this computer only. Leave --host out (127.0.0.1), or share the read-only apps with "
            "'ndcg-lab --host HOST --password PASSWORD'."
        )
    if not loopback and password is None:
        raise UsageError(
            f"refusing to serve on --host {host} without a password: anyone who can reach this computer "
            f"could open the notebooks. Give one with --password PASSWORD or the environment variable "
            f"{PASSWORD_ENV}, or leave --host out to serve on 127.0.0.1 only."
        )
    if args.mode == "edit" and not checkout:
        raise UsageError(
            f"'ndcg-lab edit' edits the notebooks of a source checkout, and this ndcg-lab is an installed "
            f"package: its notebooks are in {folder}, where a reinstall or an upgrade would overwrite your "
            "changes. To edit them, clone the repository and run 'pip install -e .' in it; to change a "
            "private copy, copy that folder and run 'python -m marimo edit <your copy>'; to use them, "
            "run 'ndcg-lab' or 'ndcg-lab slides'."
        )
    if not folder.is_dir():
        raise UsageError(
            f"cannot find the notebooks folder {folder}. Reinstall ndcg-lab (pip install --force-reinstall "
            "ndcg_lab-*.whl), or install a checkout of the repository with 'pip install -e .' in it."
        )
    workers = getattr(args, "workers", None)
    if args.mode == "edit" and workers is not None:
        raise UsageError("--workers is for serving a class; 'ndcg-lab edit' is for one person on this computer. Leave it out.")
    if workers is None and not loopback and args.mode != "edit":
        workers = os.cpu_count() or 1
    lecturer_key = getattr(args, "lecturer_key", None)
    if lecturer_key is None:
        lecturer_key = environ.get(LECTURER_KEY_ENV) or None
    generated = False
    if workers is not None:
        if lecturer_key is None:
            lecturer_key, generated = secrets.token_urlsafe(9), True
        elif not lecturer_key.strip():
            raise UsageError(f"the lecturer key is empty. Give a non-empty one with --lecturer-key or {LECTURER_KEY_ENV}.")
        if password is not None and lecturer_key == password:
            raise UsageError(
                "the lecturer key is the class password: then every student could open the lecturer's page. "
                "Give a different --lecturer-key (or leave it out for a random one)."
            )
    elif lecturer_key is not None:
        raise UsageError("--lecturer-key belongs to classroom mode: add --workers N (or serve on a network --host).")
    for option in ("answers_per_device", "worker_ports"):
        if workers is None and getattr(args, option, None) is not None:
            flag = "--" + option.replace("_", "-")
            raise UsageError(f"{flag} belongs to classroom mode: add --workers N (or serve on a network --host).")
    first = getattr(args, "worker_ports", None)
    if first is not None and workers is not None and first + workers + 1 > 65535:
        raise UsageError(f"--worker-ports {first} leaves no room for {workers + 2} ports below 65536: choose a lower one.")
    command = "edit" if args.mode == "edit" else "run"
    # run and slides go through the worker wrapper: marimo's CLI with the AST-race lock (gh-106905)
    runner = ["-m", "marimo"] if command == "edit" else ["-m", "ndcg_core.ui.classroom.worker"]
    argv = [python, *runner, command, str(folder), "--host", host, "--port", str(args.port), "--no-sandbox"]
    if args.headless:
        argv.append("--headless")
    if password is not None:
        argv += ["--token", "--token-password-file", "-"]
    elif args.mode == "edit":
        argv.append("--no-token")
    if args.mode == "edit":
        argv.append("--skip-update-check")
    shown_host = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return Launch(argv, password, f"http://{shown_host}:{args.port}", args.mode, workers or 0, lecturer_key, generated,
                  getattr(args, "answers_per_device", None) or 10, getattr(args, "worker_ports", None))


def _check_port_free(host: str, port: int) -> None:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host.strip("[]"), port))
        except OSError as err:
            if err.errno == errno.EADDRINUSE:
                raise UsageError(
                    f"port {port} on {host} is already in use (is NDCG Lab already running?). "
                    f"Open the running one, or choose another port with --port N."
                ) from None
            raise UsageError(f"cannot serve on {host}:{port}: {err.strerror}. Check --host and --port.") from None


def _serve(launch: Launch) -> int:
    child = subprocess.Popen(
        launch.argv,
        stdin=subprocess.PIPE if launch.stdin_text is not None else subprocess.DEVNULL,
        process_group=0,
        preexec_fn=die_with_parent if sys.platform.startswith("linux") else None,
    )
    received: list[int] = []

    def forward(signum: int, _frame: object) -> None:
        received.append(signum)
        try:
            os.killpg(child.pid, signum)
        except ProcessLookupError:
            pass

    previous = {sig: signal.signal(sig, forward) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        if launch.stdin_text is not None and child.stdin is not None:
            child.stdin.write(launch.stdin_text.encode())
            child.stdin.close()
        # the server is waited for unreaped, so its group can be swept once it has gone (below);
        # after a forwarded signal it has SHUTDOWN_GRACE seconds to stop before SIGKILL
        signalled_at: float | None = None
        while not wait_unreaped(child, 0.5):
            if received and signalled_at is None:
                signalled_at = time.monotonic()
            if signalled_at is not None and time.monotonic() - signalled_at >= SHUTDOWN_GRACE:
                try:
                    os.killpg(child.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if not wait_unreaped(child, 0):  # an error on the way: stop the server for good
            try:
                os.killpg(child.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        # whatever the server left in its group (a child that missed the forwarded signal) goes too
        kill_leftovers(child)
    code = child.returncode
    if received:
        return 0 if code in (0, -received[0]) else (128 - code if code < 0 else code)
    return 128 - code if code < 0 else code


def public_url(host: str, port: int) -> str:
    """The address students type: this computer's network address for a wildcard bind
    (``0.0.0.0`` is where the server listens, not an address anyone can open).

    >>> public_url("127.0.0.1", 2718)
    'http://127.0.0.1:2718'
    """
    if host in ("0.0.0.0", "::", ""):
        from .classroom.routes import lan_address

        host = lan_address() or "127.0.0.1"
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"http://{shown}:{port}"


def _serve_classroom(launch: Launch, folder: Path, host: str, port: int, headless: bool) -> int:
    """Classroom mode: N marimo workers and the question app behind HAProxy (one process without it)."""
    from .classroom.proxy import MISSING_MESSAGE, find_haproxy
    from .classroom.supervise import Classroom, secrets_json

    haproxy = find_haproxy()
    python = launch.argv[0]
    if haproxy is None:
        print(f"ndcg-lab: {MISSING_MESSAGE}", file=sys.stderr, flush=True)
        try:
            _check_port_free(host, port + 1)
        except UsageError as err:
            print(f"ndcg-lab: the class questions need the next port too: {err}", file=sys.stderr)
            return 2
    backend_host = "127.0.0.1" if haproxy is not None else host
    tail = ["--no-sandbox", "--headless"] + (["--token", "--token-password-file", "-"] if launch.stdin_text else [])

    def worker_argv(worker_port: int) -> list[str]:
        return [python, "-m", "ndcg_core.ui.classroom.worker", "run", str(folder), "--host", backend_host,
                "--port", str(worker_port), *tail]

    def app_argv(app_port: int) -> list[str]:
        return [python, "-m", "ndcg_core.ui.classroom.app", "--host", backend_host, "--port", str(app_port),
                "--bind-host", host, *(["--behind-proxy"] if haproxy is not None else [])]

    assert launch.lecturer_key is not None
    classroom = Classroom(
        host=host, port=port, worker_argv=worker_argv, app_argv=app_argv, haproxy=haproxy,
        password=launch.stdin_text,
        secrets_text=secrets_json(launch.stdin_text, launch.lecturer_key, port, launch.answers_per_device),
        first_port=launch.worker_ports,
    )
    workers = launch.workers if haproxy is not None else 1
    base = public_url(host, port)
    questions = f"{base}/class/" if haproxy is not None else base.rsplit(":", 1)[0] + f":{port + 1}/class/"

    def ready() -> None:
        key = f" (lecturer key: {launch.lecturer_key})" if launch.lecturer_key_generated else ""
        engine = (
            f"{workers} marimo worker{'s' if workers != 1 else ''} (and one for the lecturer) behind HAProxy"
            if haproxy is not None else "one marimo process"
        )
        limit = launch.answers_per_device
        print(
            f"NDCG Lab is serving a class at {base} with {engine}, every worker warmed up and ready  (press Ctrl+C to stop)\n"
            f"  students: {base}/?file=01_playground.py and the class questions at {questions}\n"
            f"  lecturer: {questions}lecturer{key}\n"
            f"  at most {limit} answers per device and question"
            + ("" if limit > 10 else " (a hall behind one NAT address: --answers-per-device N)"),
            flush=True,
        )
        if not headless:
            import webbrowser

            webbrowser.open(f"{questions}lecturer")

    # the workers' front page links the class questions for students (ndcg_core.ui.front)
    previous = os.environ.get(CLASS_URL_ENV)
    os.environ[CLASS_URL_ENV] = "/class/" if haproxy is not None else f":{port + 1}/class/"
    try:
        return classroom.run(workers, ready)
    finally:  # this process (a test calling main) keeps its own environment
        if previous is None:
            os.environ.pop(CLASS_URL_ENV, None)
        else:
            os.environ[CLASS_URL_ENV] = previous


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``ndcg-lab`` console script; returns the exit status."""
    from .classroom.worker import race_warning

    args = parse_args(argv)
    if args.mode == "handout":
        from .handout import run as write_handouts  # Playwright is imported only for this command

        return write_handouts(Path(args.out), folder=decks_dir(), only=args.deck)
    try:
        launch = build_command(args)
        os.environ.update(serving_environment(args))  # the marimo process and its kernels inherit it
        _check_port_free(args.host.strip(), args.port)
    except UsageError as err:
        print(f"ndcg-lab: {err}", file=sys.stderr)
        return 2
    warning = race_warning() if args.mode != "edit" else None

    def announce() -> None:
        if warning:
            print(f"ndcg-lab: {warning}", file=sys.stderr, flush=True)

    if launch.workers and args.mode != "slides":
        announce()
        return _serve_classroom(launch, notebooks_dir(), args.host.strip(), args.port, args.headless)
    if args.mode != "slides":
        what = "editing the notebooks" if launch.mode == "edit" else "serving the notebooks"
        announce()
        print(f"NDCG Lab is {what} at {launch.url}  (press Ctrl+C to stop)", flush=True)
        return _serve(launch)
    try:
        decks = deck_files()
        launch = build_command(args, folder=decks_dir())
    except UsageError as err:
        print(f"ndcg-lab: {err}", file=sys.stderr)
        return 2
    announce()
    previous = os.environ.get(DECK_ENV)
    os.environ[DECK_ENV] = "1"  # every server process inherits it: the front page shows the decks as slides
    try:
        if launch.workers:
            print(f"NDCG Lab: slide decks {', '.join(decks)} (arrow keys move through a deck)", flush=True)
            return _serve_classroom(launch, decks_dir(), args.host.strip(), args.port, args.headless)
        print(
            f"NDCG Lab is serving the slide decks at {launch.url}  (decks: {', '.join(decks)}; "
            "arrow keys move through a deck; press Ctrl+C to stop)",
            flush=True,
        )
        return _serve(launch)
    finally:  # this process (a test calling main) keeps its own environment
        if previous is None:
            os.environ.pop(DECK_ENV, None)
        else:
            os.environ[DECK_ENV] = previous


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
