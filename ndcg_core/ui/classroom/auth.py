"""Who is asking: the question app's secret, its signed cookies, login limits and client addresses.

Every student holds the class password, so nothing a student can compute may open the
lecturer's page:

- :func:`server_secret` is 32 random bytes kept in the data folder (file :data:`SECRET_FILE`,
  mode 0600), made once and read again at every start, so cookies survive a restart but are
  never derived from the password or the lecturer key;
- :class:`Cookies` signs the student's and the lecturer's cookies with it (itsdangerous, the
  library marimo's own dependencies bring, instead of hand-rolled HMAC); a cookie expires
  (:data:`STUDENT_MAX_AGE`, :data:`LECTURER_MAX_AGE`) and is bound to the password or key it
  was given for (a new class password ends the old class's cookies);
- the lecturer's cookie carries a CSRF token the projector page sends back in a header, and
  every POST whose ``Origin`` is another site's is refused (:func:`same_origin`);
- :class:`FailureCounter` counts failed logins per client address and per role: a student's
  (or a prankster's) wrong tries block that address for students only, never the lecturer;
- :func:`client_address` is the TCP peer, except on the connection from HAProxy, whose
  header :data:`CLIENT_HEADER` (set by HAProxy from the connection's source, replacing any
  a client sent) names the student's address.
"""

from __future__ import annotations

import hashlib
import ipaddress
import os
import secrets
import threading
import time
from collections import OrderedDict, deque
from pathlib import Path
from typing import Any

from itsdangerous import BadSignature, URLSafeTimedSerializer
from starlette.requests import Request

from ...infra import store

__all__ = [
    "SECRET_FILE", "CLIENT_HEADER", "CSRF_HEADER", "STUDENT_MAX_AGE", "LECTURER_MAX_AGE",
    "server_secret", "Cookies", "FailureCounter", "client_address", "same_origin",
]

SECRET_FILE = "class-secret"
#: the header HAProxy sets to the client's address on its way to the question app
CLIENT_HEADER = "X-NDCG-Lab-Client"
CSRF_HEADER = "X-NDCG-Lab-CSRF"
STUDENT_MAX_AGE = 12 * 3600
LECTURER_MAX_AGE = 12 * 3600


def server_secret(folder: Any = None) -> bytes:
    """The app's random secret from the data folder, made (0600) on the first start."""
    path = store.data_dir(folder) / SECRET_FILE
    try:
        text = path.read_text(encoding="ascii").strip()
        if len(text) >= 64:
            return bytes.fromhex(text)
    except (OSError, ValueError):
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    fresh = secrets.token_hex(32)
    temporary = path.with_name(f".{SECRET_FILE}.{os.getpid()}")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(fresh + "\n")
    try:  # the first of two processes starting at once wins; both then read the same secret
        os.link(temporary, path)
    except FileExistsError:
        pass
    finally:
        temporary.unlink(missing_ok=True)
    return bytes.fromhex(Path(path).read_text(encoding="ascii").strip())


def _digest(text: str | None) -> str:
    return hashlib.sha256((text or "").encode()).hexdigest()[:16]


class Cookies:
    """Signed, expiring cookie values for students and the lecturer."""

    def __init__(self, secret: bytes, password: str | None, lecturer_key: str) -> None:
        self._student = URLSafeTimedSerializer(secret, salt=f"ndcg-lab/student/{_digest(password)}")
        self._lecturer = URLSafeTimedSerializer(secret, salt=f"ndcg-lab/lecturer/{_digest(lecturer_key)}")

    def student(self, ident: str) -> str:
        return self._student.dumps({"id": ident})

    def student_of(self, value: str | None) -> str | None:
        data = self._load(self._student, value, STUDENT_MAX_AGE)
        ident = data.get("id") if data else None
        return ident if isinstance(ident, str) and ident else None

    def lecturer(self) -> str:
        return self._lecturer.dumps({"csrf": secrets.token_urlsafe(18)})

    def csrf_of(self, value: str | None) -> str | None:
        """The CSRF token of a valid lecturer cookie, else None (not the lecturer)."""
        data = self._load(self._lecturer, value, LECTURER_MAX_AGE)
        token = data.get("csrf") if data else None
        return token if isinstance(token, str) and token else None

    @staticmethod
    def _load(serializer: URLSafeTimedSerializer, value: str | None, max_age: int) -> dict[str, Any] | None:
        if not value or len(value) > 512:
            return None
        try:
            data = serializer.loads(value, max_age=max_age)
        except BadSignature:  # also SignatureExpired
            return None
        return data if isinstance(data, dict) else None


class FailureCounter:
    """Failed tries per key in a sliding window (at most ``size`` keys remembered)."""

    def __init__(self, limit: int, window: float = 60.0, size: int = 20000) -> None:
        self.limit, self.window, self.size = limit, window, size
        self._tries: OrderedDict[tuple[str, str], deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def _recent(self, key: tuple[str, str], now: float) -> deque[float]:
        tries = self._tries.get(key)
        if tries is None:
            return deque()
        while tries and now - tries[0] >= self.window:
            tries.popleft()
        return tries

    def blocked(self, role: str, address: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        with self._lock:
            return len(self._recent((role, address), now)) >= self.limit

    def fail(self, role: str, address: str, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        key = (role, address)
        with self._lock:
            tries = self._recent(key, now)
            tries.append(now)
            self._tries[key] = tries
            self._tries.move_to_end(key)
            while len(self._tries) > self.size:
                self._tries.popitem(last=False)


def client_address(request: Request, trusted_proxy: str | None) -> str:
    """The client's address: the TCP peer, or HAProxy's :data:`CLIENT_HEADER` on HAProxy's own
    connection (peer ``trusted_proxy``). A header on any other connection is ignored."""
    peer = request.client.host if request.client else "unknown"
    if trusted_proxy is not None and peer == trusted_proxy:
        forwarded = request.headers.get(CLIENT_HEADER, "").strip()
        try:
            return str(ipaddress.ip_address(forwarded))
        except ValueError:
            return peer
    return peer


def same_origin(request: Request) -> bool:
    """False when the request says it comes from another site: an ``Origin`` that is not this
    host, ``null`` included (what a page with ``Referrer-Policy: no-referrer`` sends, an
    attacker's too; the app's own pages use ``same-origin``, so their POSTs name this site)."""
    origin = request.headers.get("origin")
    if origin is None:
        return True
    host = request.headers.get("host", "")
    return origin in (f"http://{host}", f"https://{host}")
