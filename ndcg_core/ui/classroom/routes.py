"""The question app's routes: the students' pages and API, the lecturer's projector, its API and moderation.

:class:`QuestionApp` holds one server's settings and state (the cookie signer, the limits, a
half-second cache of the current question); :meth:`QuestionApp.routes` lists its handlers.
Guards: a student is someone with a valid signed student cookie (made at login, never at a
cookie-less visit); the lecturer has a valid lecturer cookie, and every lecturer action also
sends that cookie's CSRF token in a header; a POST from another site's page is refused.
"""

from __future__ import annotations

import html
import json
import secrets
import socket
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from ...infra import classroom as cls
from ...teaching.exercises import all_exercises, solution, statement
from ..markup import markdown_html
from ...infra.store import StoreError
from . import auth
from .pages import NO_STORE, SECURITY, Markup, login_page, qr_inline, render
from .proxy import COOKIE as WORKER_COOKIE
from .proxy import LECTURER_WORKER

__all__ = ["Settings", "QuestionApp", "MAX_BODY", "ANSWER_BURST", "ANSWER_INTERVAL", "LOGIN_FAILURES_PER_MINUTE",
           "STUDENT_COOKIE", "LECTURER_COOKIE"]

MAX_BODY = 4096
ANSWER_BURST = 3
ANSWER_INTERVAL = 2.0
STUDENT_COOKIE = "ndcglab_student"
LECTURER_COOKIE = "ndcglab_lecturer"
#: wrong tries per client address and minute, counted apart for students and the lecturer
LOGIN_FAILURES_PER_MINUTE = 10


@dataclass(frozen=True)
class Settings:
    """One question app's settings (see :func:`ndcg_core.ui.classroom.app.create_app`)."""

    password: str | None
    lecturer_key: str
    folder: Any = None
    public_port: int | None = None
    bind_host: str = "127.0.0.1"
    #: how many students' answers one client address may add to a question
    device_limit: int = cls.DEVICE_LIMIT
    #: the address HAProxy connects from (its client header is believed on that connection only)
    trusted_proxy: str | None = None


class _RateLimiter:
    """A token bucket per key (at most ``size`` keys remembered)."""

    def __init__(self, burst: int, interval: float, size: int = 20000) -> None:
        self.burst, self.interval, self.size = burst, interval, size
        self.buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self.lock = threading.Lock()

    def allow(self, key: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        with self.lock:
            tokens, last = self.buckets.pop(key, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - last) / self.interval)
            allowed = tokens >= 1.0
            self.buckets[key] = (tokens - 1.0 if allowed else tokens, now)
            while len(self.buckets) > self.size:
                self.buckets.popitem(last=False)
            return allowed


def lan_address() -> str | None:
    """This computer's address on its default route (a UDP socket's choice: no packet is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            address = probe.getsockname()[0]
            return None if address.startswith("127.") else address
    except OSError:
        return None


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"ok": False, "message": message}, status_code=status, headers=NO_STORE)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


class QuestionApp:
    """The state and handlers of one question app."""

    def __init__(self, settings: Settings) -> None:
        self.s = settings
        self.cookies = auth.Cookies(auth.server_secret(settings.folder), settings.password, settings.lecturer_key)
        self.answers = _RateLimiter(ANSWER_BURST, ANSWER_INTERVAL)
        # a hall behind one NAT address may mistype more often: the students' allowance grows with the device limit
        self.failures = {"student": auth.FailureCounter(max(LOGIN_FAILURES_PER_MINUTE, settings.device_limit)),
                         "lecturer": auth.FailureCounter(LOGIN_FAILURES_PER_MINUTE)}
        self._cache: dict[str, Any] = {"at": 0.0, "payload": None}
        self._cache_lock = threading.Lock()

    # ---- guards ---------------------------------------------------------------------------
    def address(self, request: Request) -> str:
        return auth.client_address(request, self.s.trusted_proxy)

    def student_id(self, request: Request) -> str | None:
        return self.cookies.student_of(request.cookies.get(STUDENT_COOKIE))

    def lecturer_csrf(self, request: Request) -> str | None:
        return self.cookies.csrf_of(request.cookies.get(LECTURER_COOKIE))

    def is_lecturer(self, request: Request) -> bool:
        return self.lecturer_csrf(request) is not None

    def lecturer_action(self, request: Request) -> JSONResponse | None:
        """None when ``request`` is a lecturer's action from the lecturer's own page, else the refusal."""
        token = self.lecturer_csrf(request)
        if token is None:
            return error(401, "The lecturer key is needed.")
        sent = request.headers.get(auth.CSRF_HEADER, "")
        if not auth.same_origin(request) or not secrets.compare_digest(sent, token):
            return error(403, "This action must come from the lecturer's page: reload it and try again.")
        return None

    async def body_of(self, request: Request) -> bytes | None:
        if int(request.headers.get("content-length") or 0) > MAX_BODY:
            return None
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY:
                return None
            chunks.append(chunk)
        return b"".join(chunks)

    async def form_of(self, request: Request) -> dict[str, str] | None:
        body = await self.body_of(request)
        if body is None:
            return None
        return {k: v[0] for k, v in parse_qs(body.decode("utf-8", "replace")).items()}

    # ---- logins ---------------------------------------------------------------------------
    def _student_login_page(self, message: str = "") -> str:
        if self.s.password is None:
            return login_page("Join the class", "/class/login", None, "Press Join to take part.", message, "Join")
        return login_page("Join the class", "/class/login", "password", "Class password", message)

    def _lecturer_login_page(self, message: str = "") -> str:
        return login_page("Lecturer", "/class/lecturer/login", "key", "Lecturer key", message)

    async def student_login(self, request: Request) -> Response:
        form = await self.form_of(request)
        if form is None:
            return error(413, "That is too long.")
        if not auth.same_origin(request):
            return error(403, "Open the class page of this server to join.")
        address = self.address(request)
        if self.s.password is not None:
            if self.failures["student"].blocked("student", address):
                return HTMLResponse(self._student_login_page("Too many wrong tries from this device: wait a minute."),
                                    status_code=429, headers=NO_STORE)
            if not secrets.compare_digest(form.get("password", "").encode(), self.s.password.encode()):
                self.failures["student"].fail("student", address)
                return HTMLResponse(self._student_login_page("That is not the class password."), status_code=401,
                                    headers=NO_STORE)
        response = RedirectResponse("/class/", status_code=303)
        ident = self.student_id(request) or secrets.token_urlsafe(12)  # a student who logs in again stays who they were
        response.set_cookie(STUDENT_COOKIE, self.cookies.student(ident), max_age=auth.STUDENT_MAX_AGE,
                            httponly=True, samesite="lax", path="/class")
        return response

    async def lecturer_login(self, request: Request) -> Response:
        form = await self.form_of(request)
        if form is None:
            return error(413, "That is too long.")
        if not auth.same_origin(request):
            return error(403, "Open the lecturer page of this server to log in.")
        address = self.address(request)
        if self.failures["lecturer"].blocked("lecturer", address):
            return HTMLResponse(self._lecturer_login_page("Too many wrong tries from this device: wait a minute."),
                                status_code=429, headers=NO_STORE)
        if not secrets.compare_digest(form.get("key", "").encode(), self.s.lecturer_key.encode()):
            self.failures["lecturer"].fail("lecturer", address)
            return HTMLResponse(self._lecturer_login_page("That is not the lecturer key (the class password is not it either)."),
                                status_code=401, headers=NO_STORE)
        response = RedirectResponse("/class/lecturer", status_code=303)
        response.set_cookie(LECTURER_COOKIE, self.cookies.lecturer(), max_age=auth.LECTURER_MAX_AGE,
                            httponly=True, samesite="strict", path="/class")
        # HAProxy sends this browser's notebooks to the lecturer's own worker (no student's work queues there)
        response.set_cookie(WORKER_COOKIE, LECTURER_WORKER, httponly=True, samesite="lax", path="/")
        return response

    # ---- students -------------------------------------------------------------------------
    async def student_page(self, request: Request) -> Response:
        if self.student_id(request) is None:
            return HTMLResponse(self._student_login_page(), headers={**NO_STORE, **SECURITY})
        return HTMLResponse(render("student.html"), headers={**NO_STORE, **SECURITY})

    def question_payload(self) -> dict[str, Any]:
        with self._cache_lock:
            if self._cache["payload"] is not None and time.monotonic() - self._cache["at"] < 0.5:
                return self._cache["payload"]
        question = cls.current_question(folder=self.s.folder)
        if question is None:
            payload: dict[str, Any] = {"id": None}
        else:
            ex = cls.exercise_of(question)
            payload = {
                "id": question.id, "title": ex.title, "statement": markdown_html(statement(ex)),
                "choices": list(ex.choices), "placeholder": ex.placeholder, "open": question.is_open,
                "revealed": question.revealed,
                "solution": markdown_html(solution(ex)) if question.revealed else None,
            }
        with self._cache_lock:
            self._cache.update(at=time.monotonic(), payload=payload)
        return payload

    def forget_question(self) -> None:
        with self._cache_lock:
            self._cache["payload"] = None

    async def api_question(self, request: Request) -> Response:
        if self.student_id(request) is None and not self.is_lecturer(request):
            return error(401, "Join the class first (reload the page).")
        try:
            return JSONResponse(self.question_payload(), headers=NO_STORE)
        except StoreError as err:
            return error(503, str(err))

    async def api_mine(self, request: Request) -> Response:
        ident = self.student_id(request)
        if ident is None:
            return error(401, "Join the class first (reload the page).")
        try:
            question = cls.current_question(folder=self.s.folder)
            mine = None if question is None else cls.own_answer(question.id, ident, folder=self.s.folder)
        except StoreError as err:
            return error(503, str(err))
        if mine is None:
            return JSONResponse({"answered": False}, headers=NO_STORE)
        nickname, answer, correct = mine
        reply: dict[str, Any] = {"answered": True, "nickname": nickname, "answer": answer}
        if question is not None and question.revealed:
            reply["correct"] = correct
        return JSONResponse(reply, headers=NO_STORE)

    async def api_answer(self, request: Request) -> Response:
        ident = self.student_id(request)
        if ident is None:
            return error(401, "Join the class first (reload the page and log in).")
        if not auth.same_origin(request):
            return error(403, "Answer from the class page of this server.")
        body = await self.body_of(request)
        if body is None:
            return error(413, f"That is too long: a nickname takes {cls.MAX_NICKNAME} characters, an answer {cls.MAX_ANSWER}.")
        if not self.answers.allow(ident):
            return error(429, f"Not so fast: one answer every {ANSWER_INTERVAL:g} seconds. Your last answer counts.")
        try:
            data = json.loads(body)
            question_id = int(data["question"])
        except (ValueError, KeyError, TypeError):
            return error(400, "The answer did not arrive whole. Reload the page and send it again.")
        try:
            cls.submit(question_id, ident, data.get("nickname"), data.get("answer"), device=self.address(request),
                       device_limit=self.s.device_limit, folder=self.s.folder)
        except cls.DeviceLimitError as err:
            return error(429, _capital(str(err)))
        except cls.ClassroomError as err:
            return error(400, _capital(str(err)))
        except StoreError as err:
            return error(503, str(err))
        return JSONResponse({"ok": True, "message": "Received. You can change it until the lecturer reveals the solution."},
                            headers=NO_STORE)

    # ---- the lecturer ---------------------------------------------------------------------
    def join_url(self, request: Request) -> str:
        host = request.headers.get("host", "")
        name = host.rsplit(":", 1)[0].strip("[]") if host else ""
        bind = self.s.bind_host
        if not name or name == "localhost" or name.startswith("127.") or name == "::1":
            address = lan_address() if bind in ("0.0.0.0", "::", "") else None
            if bind not in ("0.0.0.0", "::", "") and not bind.startswith("127."):
                address = bind
            if address:
                return f"http://{address}:{self.s.public_port or request.url.port}/class/"
        return f"{request.url.scheme}://{host}/class/"

    def limit_note(self) -> str:
        limit = self.s.device_limit
        if limit > cls.DEVICE_LIMIT:
            return f"Up to {limit} answers per device (raised for a hall behind one network address)."
        return f"Up to {limit} answers per device."

    async def lecturer_page(self, request: Request) -> Response:
        token = self.lecturer_csrf(request)
        if token is None:
            return HTMLResponse(self._lecturer_login_page(), headers={**NO_STORE, **SECURITY})
        bank = Markup("".join(
            f'<option value="{html.escape(e.id)}">{html.escape(e.id)}: {html.escape(e.title)}</option>'
            for e in all_exercises() if e.kind != "code"
        ))
        url = self.join_url(request)
        join = Markup(html.escape(url).replace("/class/", "<wbr>/class/"))  # a line break before the path, not in the address
        page = render("lecturer.html", BANK=bank, JOIN=join, QR=qr_inline(url), CSRF=token, LIMIT=self.limit_note())
        return HTMLResponse(page, headers={**NO_STORE, **SECURITY})

    async def answers_page(self, request: Request) -> Response:
        token = self.lecturer_csrf(request)
        if token is None:
            return HTMLResponse(self._lecturer_login_page(), headers={**NO_STORE, **SECURITY})
        return HTMLResponse(render("answers.html", CSRF=token), headers={**NO_STORE, **SECURITY})

    async def qr_svg(self, request: Request) -> Response:
        if not self.is_lecturer(request):
            return error(401, "The lecturer key is needed.")
        try:
            import io

            import segno
        except ImportError:
            return error(404, "The QR code needs the Python package segno (pip install segno).")
        out = io.BytesIO()
        segno.make(self.join_url(request), error="m").save(out, kind="svg", scale=6, border=2)
        return Response(out.getvalue(), media_type="image/svg+xml", headers=NO_STORE)

    async def api_open(self, request: Request) -> Response:
        refused = self.lecturer_action(request)
        if refused is not None:
            return refused
        form = await self.form_of(request)
        if form is None:
            return error(413, "That is too long.")
        try:
            if form.get("source") == "playground":
                k_text = form.get("k", "").strip()
                spec = cls.playground_question(
                    form.get("labels", ""), form.get("asks", "ndcg"), k=int(k_text) if k_text else None,
                    missed=form.get("missed", ""), gain=form.get("gain", "linear"), discount=form.get("discount", "log2"),
                )
                question = cls.open_question(spec, folder=self.s.folder)
            else:
                question = cls.open_question(form.get("exercise", ""), folder=self.s.folder)
        except (cls.ClassroomError, ValueError) as err:
            return error(400, str(err))
        except StoreError as err:
            return error(503, str(err))
        self.forget_question()
        return JSONResponse({"ok": True, "id": question.id}, headers=NO_STORE)

    async def api_reveal(self, request: Request) -> Response:
        refused = self.lecturer_action(request)
        if refused is not None:
            return refused
        question = cls.current_question(folder=self.s.folder)
        if question is None:
            return error(400, "No question is open.")
        cls.reveal(question.id, folder=self.s.folder)
        self.forget_question()
        return JSONResponse({"ok": True}, headers=NO_STORE)

    async def api_summary(self, request: Request) -> Response:
        if not self.is_lecturer(request):
            return error(401, "The lecturer key is needed.")
        try:
            question = cls.current_question(folder=self.s.folder)
            if question is None:
                return JSONResponse({"id": None}, headers=NO_STORE)
            s = cls.summary(question.id, folder=self.s.folder)
            ex = cls.exercise_of(question)
            reply = {
                "id": question.id, "title": ex.title, "statement": markdown_html(statement(ex)),
                "open": question.is_open, "revealed": question.revealed,
                "solution": markdown_html(solution(ex)) if question.revealed else None,
                "answered": s.answered, "right": s.right, "share_right": s.share_right, "devices": s.devices,
                "device_limit": self.s.device_limit, "histogram": s.histogram,
                "right_bucket": s.right_bucket if question.revealed else None, "unreadable": s.unreadable,
                "misconceptions": [{"id": m, "name": name, "count": c} for m, name, c in s.misconceptions],
                "recent": cls.recent_nicknames(question.id, folder=self.s.folder),
            }
        except StoreError as err:
            return error(503, str(err))
        return JSONResponse(reply, headers=NO_STORE)

    async def api_answers(self, request: Request) -> Response:
        if not self.is_lecturer(request):
            return error(401, "The lecturer key is needed.")
        question = cls.current_question(folder=self.s.folder)
        if question is None:
            return JSONResponse({"id": None}, headers=NO_STORE)
        rows = cls.answers_of(question.id, folder=self.s.folder)
        devices = cls.summary(question.id, folder=self.s.folder).devices
        return JSONResponse({"id": question.id, "answers": rows, "devices": devices, "limit": self.s.device_limit},
                            headers=NO_STORE)

    async def api_remove(self, request: Request) -> Response:
        refused = self.lecturer_action(request)
        if refused is not None:
            return refused
        form = await self.form_of(request)
        question = cls.current_question(folder=self.s.folder)
        if form is None or question is None or not form.get("student"):
            return error(400, "Say which answer to remove (reload the page).")
        gone = cls.remove_answer(question.id, form["student"], folder=self.s.folder)
        return JSONResponse({"ok": True, "message": "Removed." if gone else "That answer was already gone."},
                            headers=NO_STORE)

    async def api_remove_nickname(self, request: Request) -> Response:
        refused = self.lecturer_action(request)
        if refused is not None:
            return refused
        form = await self.form_of(request)
        question = cls.current_question(folder=self.s.folder)
        if form is None or question is None or not form.get("nickname"):
            return error(400, "Say which nickname to remove (reload the page).")
        count = cls.remove_nickname(question.id, form["nickname"], folder=self.s.folder)
        return JSONResponse({"ok": True, "message": f"Nickname removed from {count} answers."}, headers=NO_STORE)

    async def health(self, request: Request) -> Response:
        return PlainTextResponse("ok", headers=NO_STORE)

    async def root(self, request: Request) -> Response:
        return RedirectResponse("/class/", status_code=307)

    def routes(self) -> list[Route]:
        post = ["POST"]
        return [
            Route("/class", self.root),
            Route("/class/", self.student_page),
            Route("/class/login", self.student_login, methods=post),
            Route("/class/health", self.health),
            Route("/class/api/question", self.api_question),
            Route("/class/api/mine", self.api_mine),
            Route("/class/api/answer", self.api_answer, methods=post),
            Route("/class/lecturer", self.lecturer_page),
            Route("/class/lecturer/login", self.lecturer_login, methods=post),
            Route("/class/lecturer/answers", self.answers_page),
            Route("/class/lecturer/qr.svg", self.qr_svg),
            Route("/class/api/open", self.api_open, methods=post),
            Route("/class/api/reveal", self.api_reveal, methods=post),
            Route("/class/api/summary", self.api_summary),
            Route("/class/api/answers", self.api_answers),
            Route("/class/api/remove", self.api_remove, methods=post),
            Route("/class/api/remove-nickname", self.api_remove_nickname, methods=post),
        ]
