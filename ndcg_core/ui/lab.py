"""``ndcg-lab``: serve the NDCG Lab notebooks in a browser.

::

    ndcg-lab                      # the front page at http://127.0.0.1:2718, opens a browser
    ndcg-lab --port 8000 --headless
    ndcg-lab slides               # the same notebooks as lecture slide decks (arrow keys)
    ndcg-lab edit                 # open the notebooks for editing (loopback only)
    ndcg-lab handout --out DIR    # a PDF per slide deck, with speaker notes (ndcg_core.ui.handout)
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
``ndcg-lab slides`` copies the notebooks into a temporary folder (removed when it stops),
points each copy that has ``notebooks/layouts/<name>.slides.json`` at that file
(``layout_file=`` in its ``marimo.App(...)`` call) and serves the copies with ``marimo run``,
under the same rules as the default command. SIGINT and SIGTERM are forwarded to the child's
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
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..infra import progress, store
from ..infra.processes import die_with_parent
from ..teaching.paths import is_checkout, notebooks_dir
from .front import CLASS_URL_ENV

__all__ = [
    "main",
    "build_command",
    "parse_args",
    "is_loopback",
    "notebooks_dir",
    "layouts_dir",
    "inject_layout",
    "prepare_slides",
    "Launch",
    "UsageError",
]

DEFAULT_PORT = 2718
DEFAULT_HOST = "127.0.0.1"
PASSWORD_ENV = "NDCG_LAB_PASSWORD"
LECTURER_KEY_ENV = "NDCG_LAB_LECTURER_KEY"
MAX_WORKERS = 64
#: Set to "1" for the server of ``ndcg-lab slides``: notebook 01 draws its deck-only slides
#: (the same name as :data:`ndcg_core.ui.lecture.DECK_ENV`; this module never imports marimo).
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


#: the stylesheet every deck gets, in the layouts folder
SLIDES_CSS = "slides.css"


def layouts_dir(folder: Path | None = None) -> Path:
    """The slide layouts of the decks: ``<notebooks>/layouts/<name>.slides.json``."""
    return (notebooks_dir() if folder is None else folder) / "layouts"


def inject_layout(source: str, layout: Path, *, filename: str = "the notebook", css: Path | None = None) -> str:
    """``source`` with ``layout_file="<layout>"`` (and ``css_file="<css>"`` when given) added to
    its ``app = marimo.App(...)`` call.

    The call is found with :mod:`ast` (so its other arguments, line breaks and comments stay as
    they are) and the keywords are inserted before its closing parenthesis. :class:`UsageError`
    when the file does not parse, has no such call, or already names a layout (or a CSS file,
    when one is given).
    """
    try:
        tree = ast.parse(source, filename=filename)
    except SyntaxError as err:
        raise UsageError(
            f"cannot make a slide deck of {filename}: it is not valid Python (line {err.lineno}: {err.msg}). "
            "Fix the notebook (marimo check shows the problem)."
        ) from None
    calls = [
        node.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and [ast.unparse(target) for target in node.targets] == ["app"]
        and isinstance(node.value, ast.Call)
        and ast.unparse(node.value.func) == "marimo.App"
    ]
    if len(calls) != 1:
        raise UsageError(
            f"cannot make a slide deck of {filename}: expected one 'app = marimo.App(...)' line, found "
            f"{len(calls)}. Keep the line marimo writes at the top of every notebook."
        )
    call = calls[0]
    if any(keyword.arg == "layout_file" for keyword in call.keywords):
        raise UsageError(
            f"cannot make a slide deck of {filename}: its marimo.App(...) already sets layout_file. "
            "Remove it: the notebook must open as a page, and 'ndcg-lab slides' adds the layout itself."
        )
    if css is not None and any(keyword.arg == "css_file" for keyword in call.keywords):
        raise UsageError(
            f"cannot make a slide deck of {filename}: its marimo.App(...) already sets css_file. "
            "Move its rules into notebooks/layouts/slides.css, which 'ndcg-lab slides' adds to every deck."
        )
    close = _offset(source, call.end_lineno, call.end_col_offset) - 1  # the closing parenthesis
    if source[close] != ")":
        raise UsageError(
            f"cannot make a slide deck of {filename}: its marimo.App(...) call does not end in ')' where "
            "Python says it does. Write the call on its own, as marimo does."
        )
    keyword = f"layout_file={json.dumps(str(layout), ensure_ascii=False)}"
    if css is not None:
        keyword += f", css_file={json.dumps(str(css), ensure_ascii=False)}"
    arguments = [*call.args, *call.keywords]
    if arguments:
        last = arguments[-1]
        between = source[_offset(source, last.end_lineno, last.end_col_offset) : close]
        has_comma = "," in re.sub(r"#[^\n]*", "", between)
        keyword = (" " if has_comma else ", ") + keyword
    rewritten = source[:close] + keyword + source[close:]
    try:
        ast.parse(rewritten, filename=filename)
    except SyntaxError as err:  # pragma: no cover - a guard: the insertion above keeps valid Python
        raise UsageError(
            f"cannot make a slide deck of {filename}: adding layout_file broke line {err.lineno}. "
            "Write the marimo.App(...) call as marimo does."
        ) from None
    return rewritten


def _offset(source: str, lineno: int | None, col_offset: int | None) -> int:
    """The character offset of an :mod:`ast` position (1-based line, column in UTF-8 bytes)."""
    assert lineno is not None and col_offset is not None
    lines = source.splitlines(keepends=True)
    column = len(lines[lineno - 1].encode("utf-8")[:col_offset].decode("utf-8"))
    return sum(len(line) for line in lines[: lineno - 1]) + column


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


def prepare_slides(source: Path, target: Path) -> list[str]:
    """Copy every notebook of ``source`` into ``target``; the ones with a slides layout get it.

    A notebook ``NN_name.py`` with ``source/layouts/NN_name.slides.json`` is written with
    ``layout_file="<absolute path of that file>"`` (:func:`inject_layout`) and, when
    ``source/layouts/slides.css`` exists, ``css_file=`` that stylesheet (projector-sized widgets);
    any other notebook is copied byte for byte. Returns the names of the notebooks that became decks.
    """
    notebooks = sorted(path for path in source.glob("*.py") if path.is_file())
    layouts = {path.name.removesuffix(".slides.json"): path for path in sorted(layouts_dir(source).glob("*.slides.json"))}
    orphans = sorted(set(layouts) - {path.stem for path in notebooks})
    if orphans:
        raise UsageError(
            f"the slide layout {layouts[orphans[0]]} belongs to no notebook ({orphans[0]}.py is missing from "
            f"{source}). Rename the layout with its notebook, or delete it."
        )
    css = layouts_dir(source) / SLIDES_CSS
    css = css.resolve() if css.is_file() else None
    decks = []
    for path in notebooks:
        layout = layouts.get(path.stem)
        if layout is None:
            (target / path.name).write_bytes(path.read_bytes())
            continue
        _read_layout(layout)
        text = path.read_text(encoding="utf-8")
        deck = inject_layout(text, layout.resolve(), filename=path.name, css=css)
        (target / path.name).write_text(deck, encoding="utf-8")
        decks.append(path.name)
    return decks


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
            "Examples: 'ndcg-lab' serves at http://127.0.0.1:2718; 'ndcg-lab slides' serves the same "
            "notebooks as lecture slide decks (arrow keys); 'ndcg-lab edit' opens the notebooks for editing; "
            "'ndcg-lab --host 0.0.0.0 --password SECRET' serves a classroom network."
        ),
    )
    parser.add_argument(
        "mode",
        nargs="?",
        choices=("run", "slides", "edit", "handout"),
        default="run",
        help=(
            "run: the notebooks as read-only pages (default); slides: the same notebooks as slide decks "
            "where a layout exists; edit: open them in marimo's editor; handout: write a PDF per deck "
            "(every slide in its final state, with its speaker notes) into --out"
        ),
    )
    parser.add_argument("--out", default="handouts", help="handout: the folder for the PDFs (default: ./handouts)")
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
    return parser


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
    return Launch(argv, password, f"http://{shown_host}:{args.port}", args.mode, workers or 0, lecturer_key, generated)


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
        while True:
            try:
                code = child.wait(timeout=None if not received else SHUTDOWN_GRACE)
                break
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(child.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if child.poll() is None:
            try:
                os.killpg(child.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            child.wait()
    if received:
        return 0 if code in (0, -received[0]) else (128 - code if code < 0 else code)
    return 128 - code if code < 0 else code


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
                "--bind-host", host]

    assert launch.lecturer_key is not None
    classroom = Classroom(
        host=host, port=port, worker_argv=worker_argv, app_argv=app_argv, haproxy=haproxy,
        password=launch.stdin_text, secrets_text=secrets_json(launch.stdin_text, launch.lecturer_key, port),
    )
    workers = launch.workers if haproxy is not None else 1
    questions = f"{launch.url}/class/" if haproxy is not None else launch.url.rsplit(":", 1)[0] + f":{port + 1}/class/"

    def ready() -> None:
        key = f" (lecturer key: {launch.lecturer_key})" if launch.lecturer_key_generated else ""
        engine = (
            f"{workers} marimo worker{'s' if workers != 1 else ''} (and one for the lecturer) behind HAProxy"
            if haproxy is not None else "one marimo process"
        )
        print(
            f"NDCG Lab is serving a class at {launch.url} with {engine}  (press Ctrl+C to stop)\n"
            f"  students: {launch.url}/?file=01_playground.py and the class questions at {questions}\n"
            f"  lecturer: {questions}lecturer{key}",
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

        return write_handouts(Path(args.out), folder=notebooks_dir())
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
    with tempfile.TemporaryDirectory(prefix="ndcg-lab-slides-") as folder:
        try:
            decks = prepare_slides(notebooks_dir(), Path(folder))
            launch = build_command(args, folder=Path(folder))
        except UsageError as err:
            print(f"ndcg-lab: {err}", file=sys.stderr)
            return 2
        announce()
        previous = os.environ.get(DECK_ENV)
        os.environ[DECK_ENV] = "1"  # every server process inherits it: the decks draw their deck-only slides
        try:
            if launch.workers:
                print(f"NDCG Lab: slide decks {', '.join(decks)} (arrow keys move through a deck)", flush=True)
                return _serve_classroom(launch, Path(folder), args.host.strip(), args.port, args.headless)
            print(
                f"NDCG Lab is serving the notebooks as slide decks at {launch.url}  (decks: {', '.join(decks)}; "
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
