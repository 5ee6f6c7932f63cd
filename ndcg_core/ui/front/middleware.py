"""The front door in the server: ASGI middleware inside marimo's app, and marimo's page chrome fixes.

:class:`FrontDoor` answers ``GET /`` without ``file=`` (the front page) and the thumbnails'
URLs, after marimo's login, and passes every other request to marimo untouched.
:func:`chrome_fixes` is a lifespan that adds :data:`CHROME_HEAD` (the package data file
``chrome_head.html``) to the ``<head>`` of every notebook page marimo serves.
:mod:`ndcg_core.ui.classroom.worker` installs both in the marimo server it starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, MutableMapping
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from ...teaching.paths import notebooks_dir
from .catalogue import deck_names, has_slides_layout, read_notebooks
from .page import page_html
from .thumbnails import THUMBNAIL_PATH, Thumbnails

__all__ = ["CLASS_URL_ENV", "DECK_ENV", "class_questions_url", "FrontDoor", "CHROME_HEAD", "chrome_fixes"]

#: Classroom mode: where students find the class questions ("/class/" on the same address,
#: or ":PORT/class/" for the same host on another port, when there is no HAProxy).
CLASS_URL_ENV = "NDCG_LAB_CLASS_URL"
#: Set to "1" by ``ndcg-lab slides`` (the same name as :data:`ndcg_core.ui.lab.DECK_ENV`).
DECK_ENV = "NDCG_LAB_DECK"

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


def class_questions_url(setting: str | None, host_header: str | None) -> str | None:
    """Where students find the class questions: ``setting`` as :data:`CLASS_URL_ENV` holds it
    (``/class/``, or ``:PORT/class/`` meaning this host on that port), resolved for the address
    the visitor used (``host_header``).

    >>> class_questions_url("/class/", "10.0.0.5:2718")
    '/class/'
    >>> class_questions_url(":2719/class/", "10.0.0.5:2718"), class_questions_url(":2719/class/", "[::1]:2718")
    ('http://10.0.0.5:2719/class/', 'http://[::1]:2719/class/')
    >>> class_questions_url(None, "x") is None
    True
    """
    if not setting:
        return None
    if not setting.startswith(":"):
        return setting
    host = (host_header or "127.0.0.1").strip()
    if host.startswith("["):
        host = host[: host.find("]") + 1] if "]" in host else "127.0.0.1"
    else:
        host = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    if not re.fullmatch(r"[A-Za-z0-9.\-]+|\[[0-9A-Fa-f:.]+\]", host):
        host = "127.0.0.1"
    return f"http://{host}{setting}"


class FrontDoor:
    """ASGI middleware: NDCG Lab's front page at ``GET /`` (no ``file=``), thumbnails under
    :data:`THUMBNAIL_PATH`; every other request goes to ``app`` (marimo) untouched.

    It runs inside marimo's authentication: a visitor who has not logged in (a password-protected
    server) is passed to marimo, which sends them to its login page; a URL that still carries
    marimo's ``access_token`` is passed on too (marimo strips it and comes back to ``/``).
    """

    def __init__(self, app: Callable[..., Awaitable[None]], folder: str | os.PathLike[str] | None = None, *,
                 slides: bool | None = None, class_url: str | None = None,
                 thumbnails: Thumbnails | None = None, environ: Mapping[str, str] | None = None) -> None:
        environ = os.environ if environ is None else environ
        self.app = app
        self.folder = notebooks_dir() if folder is None else Path(folder)
        self.notebooks = read_notebooks(self.folder)
        self.decks = deck_names(self.folder)
        if slides is None:  # ndcg-lab slides: its flag, or the decks it serves naming their layouts
            slides = environ.get(DECK_ENV) == "1" or any(has_slides_layout(self.folder / c.file) for c in self.notebooks)
        self.slides = slides
        self.class_setting = environ.get(CLASS_URL_ENV) if class_url is None else class_url
        self.thumbnails = thumbnails if thumbnails is not None else Thumbnails(self.notebooks)
        self._pages: dict[str | None, bytes] = {}

    def page(self, host_header: str | None = None) -> bytes:
        """The front page's bytes for a visitor who reached the server as ``host_header``."""
        class_url = class_questions_url(self.class_setting, host_header)
        if class_url not in self._pages:
            self._pages[class_url] = page_html(self.notebooks, slides=self.slides, decks=self.decks,
                                               class_url=class_url, version=self.thumbnails.version).encode("utf-8")
        return self._pages[class_url]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("type") != "http" or scope.get("method") not in ("GET", "HEAD") or not self.notebooks:
            await self.app(scope, receive, send)
            return
        root = scope.get("root_path", "") or ""
        path = scope.get("path", "")
        if root and path.startswith(root):
            path = path[len(root):] or "/"
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        # marimo's authentication middleware runs first and leaves its verdict in scope["auth"]
        allowed = "auth" not in scope or "read" in getattr(scope["auth"], "scopes", ())
        if path == "/" and "file" not in query and "access_token" not in query and allowed:
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
            body = self.page(headers.get("host"))
            self.thumbnails.prefetch()
            await _respond(send, scope, 200, body, "text/html; charset=utf-8", "no-cache")
            return
        if path.startswith(THUMBNAIL_PATH) and allowed:
            stem = path[len(THUMBNAIL_PATH):].removesuffix(".png")
            if not path.endswith(".png") or stem not in self.thumbnails.notebooks:
                await _respond(send, scope, 404, b"No such thumbnail.", "text/plain; charset=utf-8", "no-store")
                return
            try:
                data = await asyncio.get_running_loop().run_in_executor(None, self.thumbnails.get, stem)
            except Exception as err:  # noqa: BLE001 - a broken picture must not break the server
                message = f"The thumbnail of {stem} could not be drawn: {type(err).__name__}: {err}"
                await _respond(send, scope, 500, message.encode(), "text/plain; charset=utf-8", "no-store")
                return
            assert data is not None
            await _respond(send, scope, 200, data, "image/png", "public, max-age=31536000, immutable")
            return
        await self.app(scope, receive, send)


async def _respond(send: Send, scope: Scope, status: int, body: bytes, media_type: str, cache: str) -> None:
    await send({
        "type": "http.response.start",
        "status": status,
        "headers": [
            (b"content-type", media_type.encode()),
            (b"content-length", str(len(body)).encode()),
            (b"cache-control", cache.encode()),
            (b"x-content-type-options", b"nosniff"),
        ],
    })
    await send({"type": "http.response.body", "body": b"" if scope.get("method") == "HEAD" else body})


#: What every notebook page gets in its ``<head>`` (marimo's server-wide ``html_head``), to fix
#: three accessibility faults of marimo 0.25's own chrome that axe-core reports:
#: the grey "Back" link (``text-muted-foreground`` at 80% opacity: under 4.5:1) gets full
#: opacity and a darker grey; the page menu button (top right, an icon without a name) gets
#: ``aria-label="Notebook menu"``; marimo's root element becomes the page's ``main`` landmark,
#: so the cells are inside one. The script only sets attributes marimo leaves unset, when its
#: elements appear; it changes nothing else.
CHROME_HEAD = resources.files(__package__).joinpath("chrome_head.html").read_text(encoding="utf-8").rstrip("\n")

@contextlib.asynccontextmanager
async def chrome_fixes(app: Any) -> AsyncIterator[None]:
    """A lifespan for marimo's Starlette app: adds :data:`CHROME_HEAD` to its ``html_head``
    (the HTML marimo puts into the ``<head>`` of every notebook page it serves)."""
    head = getattr(app.state, "html_head", None) or ""
    if CHROME_HEAD not in head:
        app.state.html_head = head + CHROME_HEAD
    yield
