"""The live-question web app: the lecturer's projector page and the students' answer page.

A Starlette app (served by uvicorn, both come with marimo) under ``/class``; in classroom
mode HAProxy sends ``/class/...`` here and everything else to the marimo workers.

Pages and their guards:

- ``/class/`` (students): the current question, a nickname and an answer box. A page of a few
  kilobytes with a little JavaScript, no notebook session: it polls one small JSON answer
  (cached in this process for half a second), so 300 phones cost little. With a class password
  a student logs in first (``/class/login``). A student sees only the question, their own
  answer and, once revealed, the worked solution and their own verdict; never anyone else's.
- ``/class/lecturer`` (the projector): needs the lecturer key (``/class/lecturer/login``), which
  is not the class password. Opens a bank question or one about a playground list, shows the
  join link and its QR code, and every second the number answered, the share right, the
  histogram of answers, the named misconceptions with counts and the latest nicknames (set
  with ``textContent``: no student's HTML or script reaches the projector), then reveals the
  worked solution.

Limits: nickname :data:`~ndcg_core.infra.classroom.MAX_NICKNAME` and answer
:data:`~ndcg_core.infra.classroom.MAX_ANSWER` characters, request bodies of
:data:`MAX_BODY` bytes, and per student :data:`ANSWER_BURST` answers at once, then one every
:data:`ANSWER_INTERVAL` seconds (HTTP 429 with a message beyond). Cookies are HMAC-signed
with a secret derived from the lecturer key and the password, so they survive a restart.

``python -m ndcg_core.ui.classroom.app --port P`` reads ``{"password", "lecturer_key",
"public_port"}`` as JSON on its standard input (never on the command line).
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import html
import json
import secrets
import socket
import sys
import threading
import time
from collections import OrderedDict
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from ...infra import classroom as cls
from ...teaching.exercises import all_exercises, markdown_to_html, solution, statement
from ...infra.store import StoreError
from .proxy import COOKIE as WORKER_COOKIE
from .proxy import LECTURER_WORKER

__all__ = ["create_app", "main", "MAX_BODY", "ANSWER_BURST", "ANSWER_INTERVAL"]

MAX_BODY = 4096
ANSWER_BURST = 3
ANSWER_INTERVAL = 2.0
STUDENT_COOKIE = "ndcglab_student"
CLASS_COOKIE = "ndcglab_class"
LECTURER_COOKIE = "ndcglab_lecturer"
LOGIN_FAILURES_PER_MINUTE = 10


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


def _lan_address() -> str | None:
    """This computer's address on its default route (a UDP socket's choice: no packet is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            address = probe.getsockname()[0]
            return None if address.startswith("127.") else address
    except OSError:
        return None


def create_app(*, password: str | None, lecturer_key: str, folder: Any = None, public_port: int | None = None,
               bind_host: str = "127.0.0.1") -> Starlette:
    """The app. ``folder``: the store's data folder (None: the default, see :mod:`ndcg_core.infra.store`)."""
    if not lecturer_key:
        raise ValueError("the lecturer key is empty")
    if password is not None and hmac.compare_digest(password, lecturer_key):
        raise ValueError("the lecturer key must differ from the class password")
    secret = hashlib.sha256(f"ndcg-lab/class\0{lecturer_key}\0{password or ''}".encode()).digest()
    answers = _RateLimiter(ANSWER_BURST, ANSWER_INTERVAL)
    login_failures: list[float] = []
    question_cache: dict[str, Any] = {"at": 0.0, "payload": None}
    cache_lock = threading.Lock()

    def sign(what: str) -> str:
        return hmac.new(secret, what.encode(), hashlib.sha256).hexdigest()

    def is_student(request: Request) -> bool:
        return password is None or hmac.compare_digest(request.cookies.get(CLASS_COOKIE, ""), sign("student"))

    def is_lecturer(request: Request) -> bool:
        return hmac.compare_digest(request.cookies.get(LECTURER_COOKIE, ""), sign("lecturer"))

    def student_id(request: Request) -> str | None:
        value = request.cookies.get(STUDENT_COOKIE, "")
        ident, _, mac = value.partition(".")
        return ident if ident and hmac.compare_digest(mac, sign("id:" + ident)[:32]) else None

    def too_many_failures() -> bool:
        now = time.monotonic()
        login_failures[:] = [t for t in login_failures if now - t < 60]
        return len(login_failures) >= LOGIN_FAILURES_PER_MINUTE

    async def body_of(request: Request) -> bytes | None:
        if int(request.headers.get("content-length") or 0) > MAX_BODY:
            return None
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY:
                return None
            chunks.append(chunk)
        return b"".join(chunks)

    async def form_of(request: Request) -> dict[str, str] | None:
        from urllib.parse import parse_qs

        body = await body_of(request)
        if body is None:
            return None
        return {k: v[0] for k, v in parse_qs(body.decode("utf-8", "replace")).items()}

    def error(status: int, message: str) -> JSONResponse:
        return JSONResponse({"ok": False, "message": message}, status_code=status, headers=NO_STORE)

    # ---- students -------------------------------------------------------------------------
    async def student_page(request: Request) -> Response:
        if not is_student(request):
            return HTMLResponse(_login_page("Join the class", "/class/login", "password", "Class password"),
                                headers=NO_STORE)
        response = HTMLResponse(STUDENT_PAGE, headers={**NO_STORE, **SECURITY})
        if student_id(request) is None:
            ident = secrets.token_urlsafe(12)
            response.set_cookie(STUDENT_COOKIE, f"{ident}.{sign('id:' + ident)[:32]}", max_age=30 * 86400,
                                httponly=True, samesite="lax", path="/class")
        return response

    async def student_login(request: Request) -> Response:
        form = await form_of(request)
        if form is None:
            return error(413, "That is too long.")
        if password is None:
            return RedirectResponse("/class/", status_code=303)
        if too_many_failures():
            return HTMLResponse(_login_page("Join the class", "/class/login", "password", "Class password",
                                            "Too many wrong tries: wait a minute."), status_code=429)
        if not hmac.compare_digest(form.get("password", ""), password):
            login_failures.append(time.monotonic())
            return HTMLResponse(_login_page("Join the class", "/class/login", "password", "Class password",
                                            "That is not the class password."), status_code=401)
        response = RedirectResponse("/class/", status_code=303)
        response.set_cookie(CLASS_COOKIE, sign("student"), httponly=True, samesite="lax", path="/class")
        return response

    def question_payload() -> dict[str, Any]:
        with cache_lock:
            now = time.monotonic()
            if question_cache["payload"] is not None and now - question_cache["at"] < 0.5:
                return question_cache["payload"]
        question = cls.current_question(folder=folder)
        if question is None:
            payload: dict[str, Any] = {"id": None}
        else:
            ex = cls.exercise_of(question)
            payload = {
                "id": question.id,
                "title": ex.title,
                "statement": markdown_to_html(statement(ex)),
                "choices": list(ex.choices),
                "placeholder": ex.placeholder,
                "open": question.is_open,
                "revealed": question.revealed,
                "solution": markdown_to_html(solution(ex)) if question.revealed else None,
            }
        with cache_lock:
            question_cache.update(at=time.monotonic(), payload=payload)
        return payload

    async def api_question(request: Request) -> Response:
        if not is_student(request) and not is_lecturer(request):
            return error(401, "Log in with the class password first.")
        try:
            return JSONResponse(question_payload(), headers=NO_STORE)
        except StoreError as err:
            return error(503, str(err))

    async def api_mine(request: Request) -> Response:
        ident = student_id(request)
        if not is_student(request) or ident is None:
            return error(401, "Open the class page first.")
        try:
            question = cls.current_question(folder=folder)
            mine = None if question is None else cls.own_answer(question.id, ident, folder=folder)
        except StoreError as err:
            return error(503, str(err))
        if mine is None:
            return JSONResponse({"answered": False}, headers=NO_STORE)
        nickname, answer, correct = mine
        reply: dict[str, Any] = {"answered": True, "nickname": nickname, "answer": answer}
        if question is not None and question.revealed:
            reply["correct"] = correct
        return JSONResponse(reply, headers=NO_STORE)

    async def api_answer(request: Request) -> Response:
        ident = student_id(request)
        if not is_student(request) or ident is None:
            return error(401, "Open the class page first (it gives your browser its place in the class).")
        body = await body_of(request)
        if body is None:
            return error(413, f"That is too long: a nickname takes {cls.MAX_NICKNAME} characters, an answer {cls.MAX_ANSWER}.")
        if not answers.allow(ident):
            return error(429, f"Not so fast: one answer every {ANSWER_INTERVAL:g} seconds. Your last answer counts.")
        try:
            data = json.loads(body)
            question_id = int(data["question"])
        except (ValueError, KeyError, TypeError):
            return error(400, "The answer did not arrive whole. Reload the page and send it again.")
        try:
            cls.submit(question_id, ident, data.get("nickname"), data.get("answer"), folder=folder)
        except cls.ClassroomError as err:
            return error(400, str(err)[:1].upper() + str(err)[1:])
        except StoreError as err:
            return error(503, str(err))
        return JSONResponse({"ok": True, "message": "Received. You can change it until the lecturer reveals the solution."},
                            headers=NO_STORE)

    # ---- the lecturer ---------------------------------------------------------------------
    async def lecturer_page(request: Request) -> Response:
        if not is_lecturer(request):
            return HTMLResponse(_login_page("Lecturer", "/class/lecturer/login", "key", "Lecturer key"),
                                headers=NO_STORE)
        bank = "".join(
            f'<option value="{html.escape(e.id)}">{html.escape(e.id)}: {html.escape(e.title)}</option>'
            for e in all_exercises() if e.kind != "code"
        )
        url = join_url(request)
        page = LECTURER_PAGE.replace("{{BANK}}", bank).replace("{{JOIN}}", html.escape(url)).replace("{{QR}}", _qr_inline(url))
        return HTMLResponse(page, headers={**NO_STORE, **SECURITY})

    async def lecturer_login(request: Request) -> Response:
        form = await form_of(request)
        if form is None:
            return error(413, "That is too long.")
        if too_many_failures():
            return HTMLResponse(_login_page("Lecturer", "/class/lecturer/login", "key", "Lecturer key",
                                            "Too many wrong tries: wait a minute."), status_code=429)
        if not hmac.compare_digest(form.get("key", ""), lecturer_key):
            login_failures.append(time.monotonic())
            return HTMLResponse(_login_page("Lecturer", "/class/lecturer/login", "key", "Lecturer key",
                                            "That is not the lecturer key (the class password is not it either)."),
                                status_code=401)
        response = RedirectResponse("/class/lecturer", status_code=303)
        response.set_cookie(LECTURER_COOKIE, sign("lecturer"), httponly=True, samesite="strict", path="/class")
        # HAProxy sends this browser's notebooks to the lecturer's own worker (no student's work queues there)
        response.set_cookie(WORKER_COOKIE, LECTURER_WORKER, httponly=True, samesite="lax", path="/")
        return response

    def join_url(request: Request) -> str:
        host = request.headers.get("host", "")
        name = host.rsplit(":", 1)[0].strip("[]") if host else ""
        if not name or name in ("localhost",) or name.startswith("127.") or name == "::1":
            address = _lan_address() if bind_host in ("0.0.0.0", "::", "") else None
            if bind_host not in ("0.0.0.0", "::", "") and not bind_host.startswith("127."):
                address = bind_host
            if address:
                port = public_port or request.url.port
                return f"http://{address}:{port}/class/"
        return f"{request.url.scheme}://{host}/class/"

    async def qr_svg(request: Request) -> Response:
        if not is_lecturer(request):
            return error(401, "The lecturer key is needed.")
        try:
            import io

            import segno
        except ImportError:
            return error(404, "The QR code needs the Python package segno (pip install segno).")
        out = io.BytesIO()
        segno.make(join_url(request), error="m").save(out, kind="svg", scale=6, border=2)
        return Response(out.getvalue(), media_type="image/svg+xml", headers=NO_STORE)

    async def api_open(request: Request) -> Response:
        if not is_lecturer(request):
            return error(401, "The lecturer key is needed.")
        form = await form_of(request)
        if form is None:
            return error(413, "That is too long.")
        try:
            if form.get("source") == "playground":
                k_text = form.get("k", "").strip()
                spec = cls.playground_question(
                    form.get("labels", ""), form.get("asks", "ndcg"), k=int(k_text) if k_text else None,
                    missed=form.get("missed", ""), gain=form.get("gain", "linear"),
                    discount=form.get("discount", "log2"),
                )
                question = cls.open_question(spec, folder=folder)
            else:
                question = cls.open_question(form.get("exercise", ""), folder=folder)
        except (cls.ClassroomError, ValueError) as err:
            return error(400, str(err))
        except StoreError as err:
            return error(503, str(err))
        with cache_lock:
            question_cache["payload"] = None
        return JSONResponse({"ok": True, "id": question.id}, headers=NO_STORE)

    async def api_reveal(request: Request) -> Response:
        if not is_lecturer(request):
            return error(401, "The lecturer key is needed.")
        question = cls.current_question(folder=folder)
        if question is None:
            return error(400, "No question is open.")
        cls.reveal(question.id, folder=folder)
        with cache_lock:
            question_cache["payload"] = None
        return JSONResponse({"ok": True}, headers=NO_STORE)

    async def api_summary(request: Request) -> Response:
        if not is_lecturer(request):
            return error(401, "The lecturer key is needed.")
        try:
            question = cls.current_question(folder=folder)
            if question is None:
                return JSONResponse({"id": None}, headers=NO_STORE)
            s = cls.summary(question.id, folder=folder)
            ex = cls.exercise_of(question)
            reply = {
                "id": question.id,
                "title": ex.title,
                "statement": markdown_to_html(statement(ex)),
                "open": question.is_open,
                "revealed": question.revealed,
                "solution": markdown_to_html(solution(ex)) if question.revealed else None,
                "answered": s.answered,
                "right": s.right,
                "share_right": s.share_right,
                "histogram": s.histogram,
                "right_bucket": s.right_bucket if question.revealed else None,
                "unreadable": s.unreadable,
                "misconceptions": [{"id": m, "name": name, "count": c} for m, name, c in s.misconceptions],
                "recent": cls.recent_nicknames(question.id, folder=folder),
            }
        except StoreError as err:
            return error(503, str(err))
        return JSONResponse(reply, headers=NO_STORE)

    async def health(request: Request) -> Response:
        return PlainTextResponse("ok", headers=NO_STORE)

    async def root(request: Request) -> Response:
        return RedirectResponse("/class/", status_code=307)

    return Starlette(
        routes=[
            Route("/class", root),
            Route("/class/", student_page),
            Route("/class/login", student_login, methods=["POST"]),
            Route("/class/health", health),
            Route("/class/api/question", api_question),
            Route("/class/api/mine", api_mine),
            Route("/class/api/answer", api_answer, methods=["POST"]),
            Route("/class/lecturer", lecturer_page),
            Route("/class/lecturer/login", lecturer_login, methods=["POST"]),
            Route("/class/lecturer/qr.svg", qr_svg),
            Route("/class/api/open", api_open, methods=["POST"]),
            Route("/class/api/reveal", api_reveal, methods=["POST"]),
            Route("/class/api/summary", api_summary),
        ]
    )


NO_STORE = {"Cache-Control": "no-store"}
SECURITY = {
    "Content-Security-Policy": "default-src 'self'; script-src 'unsafe-inline' 'self'; style-src 'unsafe-inline'; "
    "img-src 'self' data:; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

STYLE = """<style>
body{font-family:system-ui,sans-serif;max-width:46rem;margin:1rem auto;padding:0 1rem;line-height:1.45;color:#222}
input,select,button{font-size:1.1rem;padding:.4rem .6rem;margin:.2rem 0}
button{background:#0072B2;color:#fff;border:0;border-radius:.4rem;cursor:pointer}
.msg{padding:.5rem .8rem;border-radius:.4rem;background:#eef5fb;margin:.6rem 0}
.err{background:#fdecea}
code{background:#f3f3f3;padding:0 .2rem}
</style>"""


def _qr_inline(url: str) -> str:
    """The join link as an inline SVG QR code (segno: pure Python), or a note when segno is missing."""
    try:
        import segno
    except ImportError:
        return "<p>(install the Python package segno for a QR code)</p>"
    return segno.make(url, error="m").svg_inline(scale=7, border=2)


def _login_page(title: str, action: str, field: str, label: str, message: str = "") -> str:
    note = f'<p class="msg err">{html.escape(message)}</p>' if message else ""
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" '
        f'content="width=device-width,initial-scale=1"><title>NDCG Lab: {html.escape(title)}</title>{STYLE}</head>'
        f"<body><h1>{html.escape(title)}</h1>{note}<form method=post action=\"{action}\">"
        f'<label>{html.escape(label)} <input type=password name="{field}" autofocus required></label> '
        "<button>Enter</button></form></body></html>"
    )


STUDENT_PAGE = (
    """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>NDCG Lab: class question</title>"""
    + STYLE
    + """</head><body>
<h1 id="title">Waiting for the lecturer's question…</h1>
<div id="statement"></div>
<form id="form" hidden>
<p><label>Your nickname <input id="nickname" maxlength="40" required autocomplete="nickname"></label></p>
<p><label>Your answer <input id="answer" maxlength="200" required autocomplete="off"></label>
<span id="choices"></span></p>
<p><button id="send">Send my answer</button></p>
</form>
<p id="status" class="msg" hidden></p>
<div id="solution"></div>
<script>
const $ = id => document.getElementById(id);
let current = null, revealed = false;
$("nickname").value = localStorage.getItem("ndcglab-nickname") || "";
function say(text, bad) { const s = $("status"); s.hidden = false; s.textContent = text; s.className = bad ? "msg err" : "msg"; }
async function poll() {
  try {
    const q = await (await fetch("/class/api/question", {cache: "no-store"})).json();
    if (q.id !== current) {
      current = q.id; revealed = false; $("solution").innerHTML = ""; $("status").hidden = true; $("answer").value = "";
      if (q.id === null) { $("title").textContent = "Waiting for the lecturer's question…"; $("form").hidden = true; }
      else {
        $("title").textContent = q.title; $("statement").innerHTML = q.statement;
        $("answer").placeholder = q.placeholder || ""; $("choices").textContent = q.choices.length ? "(type the letter or the option)" : "";
      }
    }
    if (q.id !== null) {
      $("form").hidden = !q.open;
      if (q.revealed && !revealed) {
        revealed = true; $("solution").innerHTML = "<h2>Worked solution</h2>" + q.solution;
        const mine = await (await fetch("/class/api/mine", {cache: "no-store"})).json();
        if (mine.answered) say("You answered " + mine.answer + ": " + (mine.correct ? "right." : "not right; see the solution."), !mine.correct);
      }
    }
  } catch (e) {}
  setTimeout(poll, 2500);
}
$("form").addEventListener("submit", async ev => {
  ev.preventDefault();
  localStorage.setItem("ndcglab-nickname", $("nickname").value);
  try {
    const r = await fetch("/class/api/answer", {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({question: current, nickname: $("nickname").value, answer: $("answer").value})});
    const reply = await r.json(); say(reply.message, !reply.ok);
  } catch (e) { say("The answer did not reach the server: send it again.", true); }
});
poll();
</script></body></html>"""
)

LECTURER_PAGE = (
    """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>NDCG Lab: class question (lecturer)</title>"""
    + STYLE
    + """<style>body{max-width:80rem}.row{display:flex;gap:2rem;flex-wrap:wrap}.big{font-size:2.6rem;font-weight:700}
.bar{background:#0072B2;height:1.4rem;display:inline-block;vertical-align:middle}
.bar.right{background:repeating-linear-gradient(45deg,#006B4F 0 .5rem,#00875F .5rem 1rem)}
tr.right td{font-weight:700}.mark{color:#006B4F;font-weight:700}
table{border-collapse:collapse}td,th{padding:.15rem .5rem;font-size:1.2rem}#recent{color:#555}
details{margin:.5rem 0}</style></head><body>
<div class="row"><div style="flex:1 1 30rem">
<h1 id="title">No question yet</h1><div id="statement"></div>
<div class="row"><div><div class="big" id="answered">0</div>answered</div>
<div><div class="big" id="share">–</div>right</div></div>
<h2>Answers</h2><table id="histogram"></table><p id="unreadable"></p>
<h2>Mistakes the checker named</h2><ul id="mistakes"></ul>
<p id="recent"></p>
<p><button id="reveal">Reveal the worked solution</button></p>
<div id="solution"></div>
</div><div style="flex:0 0 auto;text-align:center">
<p>Join at<br><strong id="join">{{JOIN}}</strong></p>
<div id="qr" role="img" aria-label="QR code of the join link">{{QR}}</div>
</div></div>
<details open><summary>Ask a question</summary>
<form id="bank"><input type=hidden name=source value=bank>
<label>From the bank <select name="exercise">{{BANK}}</select></label> <button>Ask</button></form>
<form id="playground"><input type=hidden name=source value=playground>
<label>About the playground list <input name="labels" value="1, 0, 2, 1, 0" size="18"></label>
<label>judged, not in the list <input name="missed" value="" size="8"></label>
<label>k <input name="k" value="5" size="3"></label>
<select name="asks"><option value="ndcg">nDCG</option><option value="dcg">DCG</option><option value="idcg">IDCG</option></select>
<select name="gain"><option>linear</option><option>exponential</option></select>
<select name="discount"><option value="log2">1/log2(i+1)</option><option value="log2_shifted">1/log2(i+2)</option><option value="reciprocal">1/i</option></select>
<button>Ask</button></form>
<p id="status" class="msg" hidden></p></details>
<script>
const $ = id => document.getElementById(id);
function say(text, bad) { const s = $("status"); s.hidden = false; s.textContent = text; s.className = bad ? "msg err" : "msg"; }
let shownStatement = null, shownSolution = false;
function row(label, count, total, right) {
  const tr = document.createElement("tr"); if (right) tr.className = "right";
  const a = document.createElement("td"); a.textContent = label;
  const b = document.createElement("td"); const bar = document.createElement("span");
  bar.className = right ? "bar right" : "bar"; bar.style.width = (total ? 24 * count / total : 0) + "rem"; b.appendChild(bar);
  const c = document.createElement("td"); c.textContent = count;
  tr.append(a, b, c);
  if (right) { const d = document.createElement("td"); d.className = "mark"; d.textContent = "\u2713 the right answer"; tr.append(d); }
  return tr;
}
async function refresh() {
  try {
    const s = await (await fetch("/class/api/summary", {cache: "no-store"})).json();
    if (s.id !== null && s.id !== undefined) {
      $("title").textContent = s.title;
      if (shownStatement !== s.id) { $("statement").innerHTML = s.statement; shownStatement = s.id; shownSolution = false; $("solution").innerHTML = ""; }
      $("answered").textContent = s.answered;
      $("share").textContent = s.share_right === null ? "–" : Math.round(100 * s.share_right) + " %";
      const h = $("histogram"); h.replaceChildren(...s.histogram.map(([label, count]) => row(label, count, s.answered, label === s.right_bucket)));
      if (s.right_bucket !== null && !s.histogram.some(([label]) => label === s.right_bucket))
        h.append(row(s.right_bucket, 0, s.answered, true));
      $("unreadable").textContent = s.unreadable ? s.unreadable + " answers were not readable" : "";
      $("mistakes").replaceChildren(...s.misconceptions.map(m => { const li = document.createElement("li");
        li.textContent = m.count + " used " + m.name; li.dataset.misconception = m.id; return li; }));
      $("recent").textContent = s.recent.length ? "Latest: " + s.recent.join(", ") : "";
      $("reveal").disabled = s.revealed;
      if (s.revealed && !shownSolution) { $("solution").innerHTML = "<h2>Worked solution</h2>" + s.solution; shownSolution = true; }
    }
  } catch (e) {}
  setTimeout(refresh, 1000);
}
for (const id of ["bank", "playground"]) $(id).addEventListener("submit", async ev => {
  ev.preventDefault();
  const r = await fetch("/class/api/open", {method: "POST", body: new URLSearchParams(new FormData($(id)))});
  const reply = await r.json(); say(reply.ok ? "Question " + reply.id + " is open." : reply.message, !reply.ok);
});
$("reveal").addEventListener("click", async () => { await fetch("/class/api/reveal", {method: "POST"}); });
refresh();
</script></body></html>"""
)


def main(argv: list[str] | None = None) -> int:  # pragma: no cover - exercised through ndcg-lab
    parser = argparse.ArgumentParser(prog="python -m ndcg_core.ui.classroom.app")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--bind-host", default="127.0.0.1", help="the address ndcg-lab serves on (for the join link)")
    args = parser.parse_args(argv)
    secrets_in = json.loads(sys.stdin.read() or "{}")
    import uvicorn

    app = create_app(password=secrets_in.get("password"), lecturer_key=secrets_in["lecturer_key"],
                     public_port=secrets_in.get("public_port"), bind_host=args.bind_host)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", access_log=False)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
