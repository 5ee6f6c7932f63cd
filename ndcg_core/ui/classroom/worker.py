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
import functools
import os
import runpy
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["affected_by_ast_race", "race_warning", "install_compile_lock", "install_front_door", "warm_up", "main"]

#: The name NDCG Lab's front door is registered under in marimo's middleware registry.
FRONT_DOOR = "ndcg-lab-front-door"

_LOCK = threading.RLock()
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
        warm_up()
        if len(args) > 1 and os.path.isdir(args[1]):  # a folder (one notebook file keeps marimo's page)
            install_front_door(args[1])
    sys.argv = ["marimo", *args]
    runpy.run_module("marimo", run_name="__main__", alter_sys=True)


if __name__ == "__main__":  # pragma: no cover
    main()
