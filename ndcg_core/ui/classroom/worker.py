"""One marimo server process of NDCG Lab, with the CPython AST race (gh-106905) kept out.

``python -m ndcg_core.ui.classroom.worker run NOTEBOOKS --host ... --port ...`` is
``python -m marimo run ...`` with two differences: on a Python that has the race, every call
of :func:`compile` (and so :func:`ast.parse`, which calls it) in this process holds one lock;
and ``/`` is NDCG Lab's front page instead of marimo's gallery (:func:`install_front_door`).

The race: CPython 3.11.0-3.11.7 and 3.12.0-3.12.1 keep the AST converter's recursion depth in
interpreter-wide state. When a thread is switched out in the middle of a conversion (a garbage
collection can run a finaliser there) and another thread parses, the first one fails with
``SystemError: AST constructor recursion depth mismatch``. ``marimo run`` compiles every
visitor's notebook in threads of one process, so a rush of arrivals broke sessions (HTTP 500,
a closed websocket, cells stuck on "An internal error occurred"). Serialising compilation costs
nothing measurable: compiling holds the GIL anyway, so the threads never compiled in parallel.

>>> affected_by_ast_race((3, 11, 7))
True
>>> affected_by_ast_race((3, 11, 8)), affected_by_ast_race((3, 12, 2)), affected_by_ast_race((3, 13, 0))
(False, False, False)
"""

from __future__ import annotations

import builtins
import copy
import dataclasses
import functools
import logging
import os
import runpy
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

__all__ = ["affected_by_ast_race", "race_warning", "install_compile_lock", "install_front_door", "warm_up", "main",
           "install_session_caches", "preload_notebooks", "quiet_opengraph_notice"]

#: The name NDCG Lab's front door is registered under in marimo's middleware registry.
FRONT_DOOR = "ndcg-lab-front-door"

_LOCK = threading.RLock()
#: ``NDCG_LAB_NO_SESSION_CACHE=1``: marimo parses and compiles per session as it does by itself
#: (bench/session_cost.py --no-cache measures the difference)
NO_CACHE_ENV = "NDCG_LAB_NO_SESSION_CACHE"
_INSTALLED = False


def affected_by_ast_race(version: Sequence[int] | None = None) -> bool:
    """True for the CPython versions with gh-106905: 3.11.0-3.11.7 and 3.12.0-3.12.1."""
    major, minor, micro = tuple((sys.version_info if version is None else version)[:3])
    return (major, minor) == (3, 11) and micro < 8 or (major, minor) == (3, 12) and micro < 2


def race_warning(version: Sequence[int] | None = None) -> str | None:
    """The start-up line for an affected Python, else None."""
    if not affected_by_ast_race(version):
        return None
    shown = ".".join(str(part) for part in (sys.version_info if version is None else version)[:3])
    return (
        f"Python {shown} has the AST compile race (CPython gh-106905, fixed in 3.11.8 and 3.12.2): "
        "sessions compiling at once can break. NDCG Lab serialises compilation in its server "
        "processes, so no session breaks on it; upgrading Python removes the lock."
    )


def install_compile_lock(*, force: bool = False) -> bool:
    """Wrap :func:`builtins.compile` in one process-wide lock (on an affected Python, or ``force``).

    Returns True when the lock is in place. Idempotent.
    """
    global _INSTALLED
    if _INSTALLED:
        return True
    if not (force or affected_by_ast_race()):
        return False
    original: Callable[..., Any] = builtins.compile

    @functools.wraps(original)
    def compile(*args: Any, **kwargs: Any) -> Any:  # noqa: A001 - it replaces the builtin
        with _LOCK:
            return original(*args, **kwargs)

    builtins.compile = compile
    _INSTALLED = True
    return True


def warm_up() -> bool:
    """Import what the notebooks use and draw the lecture example once, before the first visitor.

    The plots keep their rendered frames in process-wide caches (:mod:`ndcg_core.ui.plots`), so
    the opening outputs, the same for every student, are drawn once per process here instead of
    in the first student's session. Returns False (and the worker starts anyway) on any failure.
    """
    try:
        from .. import playground, plots

        result = playground.evaluate("1, 0, 2, 1, 0")
        plots.discount_curves_html("log2", k=5)
        plots.gains_per_rank_html(result.table, result.k)
        plots.ndcg_at_cutoffs_html(result.curve, result.k or 5)
        plots.warm_frames()  # and the frames of the lists a class types next (a new frame costs an edit ~40 ms)
        import marimo  # noqa: F401 - its import is the other half of a cold first session
        return True
    except Exception:  # noqa: BLE001 - a warm-up never stops a server
        return False


#: how many compiled cells and parsed notebooks a worker keeps (far more than NDCG Lab's notebooks hold)
CACHE_SIZE = 4096


class _OpenGraphNotice(logging.Filter):
    """Drops marimo's "tool.marimo.opengraph in script metadata is ignored" warning.

    NDCG Lab's notebooks carry ``[tool.marimo.opengraph]`` in their script header because
    marimo's own page metadata reader (``marimo._metadata.opengraph``) and NDCG Lab's front
    page read the title and description from there. marimo's *configuration* reader
    (``marimo._config.reader.allowlist_script_config``) reads the same header for settings,
    strips the keys it does not take as settings and warns about each, on every read of the
    notebook, that is at every page and every session: 150 lines a class saying nothing
    wrong. Only that one message, for that one key, is dropped.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.args == ("opengraph",) and "ignored for security reasons" in str(record.msg))


def quiet_opengraph_notice() -> None:
    """Install :class:`_OpenGraphNotice` on the logger of marimo's configuration reader."""
    try:
        from marimo._config import reader
    except ImportError:
        return
    if not any(isinstance(f, _OpenGraphNotice) for f in reader.LOGGER.filters):
        reader.LOGGER.addFilter(_OpenGraphNotice())


def _fresh_cell(template: Any) -> Any:
    """A compiled cell that shares the template's immutable work (the AST, the code objects)
    and has fresh runtime state: every field marimo fills with a default factory (status,
    staleness, output, configuration, import workspace) is made anew, and the name sets copied."""
    fresh = copy.copy(template)
    for f in dataclasses.fields(template):
        value = getattr(template, f.name)
        if f.name == "import_workspace":
            object.__setattr__(fresh, f.name, dataclasses.replace(value, imported_defs=set(value.imported_defs)))
        elif f.name == "config":
            object.__setattr__(fresh, f.name, copy.copy(value))
        elif f.default_factory is not dataclasses.MISSING:
            object.__setattr__(fresh, f.name, f.default_factory())
        elif isinstance(value, (set, dict, list)):
            object.__setattr__(fresh, f.name, copy.copy(value))
    return fresh


def install_session_caches() -> bool:
    """Do once per worker what marimo does again for every visitor of a notebook.

    A new student's page and session each read the notebook file: parse it (tokenise, dedent,
    extract every cell) and compile every cell, and the session's kernel compiles every cell
    once more; measured (bench/session_cost.py with py-spy) that was about 70% of a new
    playground session's CPU, and the same for every student. This keeps, per worker:

    - the parsed notebook per file content (``PythonNotebookSerializer.deserialize``), handed
      out as a deep copy (plain strings and small records);
    - every compiled cell per (code, cell id, file, the file's mtime)
      (``marimo._ast.compiler.compile_cell``, as called by the loader and by the kernel),
      handed out by :func:`_fresh_cell`: the AST and code objects shared (nothing mutates
      them), the runtime state fresh per session;
    - the HTML of every ``mo.md`` text (:func:`_cache_markdown`).

    Only calls without a source position, carried imports or pytest rewriting are cached.
    Returns False (marimo unchanged) when marimo's internals are not where 0.25 has them.
    """
    try:
        from marimo._ast import compiler
        from marimo._runtime import runtime
        from marimo._session.notebook import serializer
    except ImportError:
        return False
    if getattr(compiler.compile_cell, "_ndcg_lab_cached", False):
        return True
    original_compile = compiler.compile_cell
    compiled: dict[tuple[Any, ...], Any] = {}
    lock = threading.Lock()

    @functools.wraps(original_compile)
    def compile_cell(code: str, cell_id: Any, source_position: Any = None, carried_imports: Any = None,
                     test_rewrite: bool = False, filename: str | None = None) -> Any:
        if source_position is not None or carried_imports or test_rewrite:
            return original_compile(code, cell_id, source_position, carried_imports, test_rewrite, filename)
        try:
            stamp = os.stat(filename).st_mtime_ns if filename else None
        except OSError:
            stamp = None
        key = (code, cell_id, filename, stamp)
        with lock:
            template = compiled.get(key)
        if template is None:
            template = original_compile(code, cell_id, filename=filename)
            with lock:
                if len(compiled) < CACHE_SIZE:
                    compiled[key] = template
            return _fresh_cell(template)
        if filename is None:  # the cell's code in linecache, for tracebacks (as the first compile did)
            compiler.cache(compiler.get_filename(cell_id), code)
        return _fresh_cell(template)

    compile_cell._ndcg_lab_cached = True  # type: ignore[attr-defined]
    compiler.compile_cell = compile_cell
    runtime.compile_cell = compile_cell

    original_deserialize = serializer.PythonNotebookSerializer.deserialize
    parsed: dict[tuple[str, str | None], Any] = {}

    @functools.wraps(original_deserialize)
    def deserialize(self: Any, content: str, filepath: str | None = None) -> Any:
        key = (content, filepath)
        with lock:
            notebook = parsed.get(key)
        if notebook is None:
            notebook = original_deserialize(self, content, filepath)
            with lock:
                if len(parsed) < CACHE_SIZE // 64:
                    parsed[key] = notebook
        return copy.deepcopy(notebook)

    serializer.PythonNotebookSerializer.deserialize = deserialize  # type: ignore[method-assign]
    _cache_markdown()
    return True


def _cache_markdown() -> None:
    """``mo.md`` converts its text to HTML with one shared Markdown object under a lock, every
    time: the playground's exercise card and help texts are the same for every student, and
    were ~10% of a new session. The conversion is a pure function of the text (the Markdown
    object is reset before each), so it is kept per text (an LRU of 2048)."""
    try:
        from marimo._output import md
    except ImportError:
        return
    if not hasattr(md._render_markdown, "cache_info"):
        md._render_markdown = functools.lru_cache(maxsize=2048)(md._render_markdown)


def preload_notebooks(folder: str) -> int:
    """Parse and compile every notebook of ``folder`` once (filling the caches of
    :func:`install_session_caches` before the first student); returns how many loaded."""
    try:
        from marimo._ast.load import load_app
    except ImportError:
        return 0
    loaded = 0
    for path in sorted(Path(folder).glob("[0-9]*.py")):
        try:
            if load_app(str(path)) is not None:
                loaded += 1
        except Exception:  # noqa: BLE001 - a notebook that does not load is marimo's to report
            pass
    return loaded


def install_front_door(folder: str) -> bool:
    """Put NDCG Lab's front page (:class:`ndcg_core.ui.front.FrontDoor`) into the marimo server
    this process is about to start: ``GET /`` without ``file=`` shows it, and everything else
    (``/?file=NN_name.py``, the websocket, marimo's files and login) goes to marimo untouched.

    marimo 0.25 builds its Starlette app with the middleware of its registry
    ``marimo.server.asgi.middleware`` placed after its own (so after its login check); this
    registers the front door there, for this process only, and a lifespan (registry
    ``marimo.server.asgi.lifespan``) that gives every notebook page the chrome fixes of
    :data:`ndcg_core.ui.front.CHROME_HEAD`. Returns False (and marimo's gallery stays) when
    marimo has no such registries.

    Why marimo's private ``marimo._server.registry`` (this is the one function that reaches it):
    marimo 0.25's public hooks are the entry-point groups named above, and an entry point
    declared in ``pyproject.toml`` would put the front door into every marimo server of the
    environment (a user's own ``marimo edit`` too) and only after a reinstall; the other public
    way, ``marimo.create_asgi_app``, would replace ``marimo run`` (its login, token and gallery
    handling) with a server of our own. ``register`` on the registry those groups feed is the
    same mechanism for this process alone; ``tests/ui/test_front.py`` pins it, so a marimo
    upgrade that moves it fails there first.
    """
    try:
        from marimo._server.registry import LIFESPAN_REGISTRY, MIDDLEWARE_REGISTRY
        from starlette.middleware import Middleware

        from ..front import FrontDoor, chrome_fixes
    except ImportError:
        return False
    MIDDLEWARE_REGISTRY.register(FRONT_DOOR, Middleware(FrontDoor, folder=folder))
    LIFESPAN_REGISTRY.register(FRONT_DOOR, chrome_fixes)
    return True


def main(argv: Sequence[str] | None = None) -> None:  # pragma: no cover - runs marimo's CLI
    """Run marimo's command line (``argv`` as for ``python -m marimo``) with the lock installed;
    ``run FOLDER ...`` also gets NDCG Lab's front page (:func:`install_front_door`)."""
    install_compile_lock()
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["run"]:
        quiet_opengraph_notice()
        if os.environ.get(NO_CACHE_ENV) != "1":
            install_session_caches()
        warm_up()
        if len(args) > 1 and os.path.isdir(args[1]):  # a folder (one notebook file keeps marimo's page)
            preload_notebooks(args[1])
            install_front_door(args[1])
    sys.argv = ["marimo", *args]
    runpy.run_module("marimo", run_name="__main__", alter_sys=True)


if __name__ == "__main__":  # pragma: no cover
    main()
