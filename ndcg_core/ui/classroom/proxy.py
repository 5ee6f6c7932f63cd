"""The HAProxy configuration of classroom mode (HAProxy 2.4 or newer, Debian's ``haproxy``).

One public address, several marimo workers and the live-question app behind it:

- ``/class/...`` goes to the question app (one uvicorn process: its pages are light), with the
  client's address in the header ``X-NDCG-Lab-Client`` (set from the connection, never passed
  on from the client);
- the lecturer's browser (the cookie ``NDCGLAB_WORKER=wl``, set at the lecturer's login)
  goes to a worker of its own that no student is given, so the projector stays quick;
- everything else goes to a marimo worker, chosen round-robin for a visitor's first request
  and then kept by the cookie ``NDCGLAB_WORKER`` (a session's page, websocket and edits must
  reach the process that holds its kernel; marimo's server token and login are per process);
- marimo's hashed static files (``/assets/``) are answered from HAProxy's memory cache and
  compressed (gzip), with ``Cache-Control: public, max-age=31536000, immutable``, so a room of
  cold browsers does not download them from the Python event loop;
- marimo's websocket is not compressed (HAProxy drops the ``Sec-WebSocket-Extensions``
  offer): compressing every output cost the workers about 40% of their CPU per edit, and a
  classroom network carries the ~50 KB an edit sends uncompressed without trouble;
- a worker that stops answering ``/health`` (four checks of up to 30 s in a row) takes no new
  visitors until it answers again; its own visitors stay with it (``option persist``: a busy
  worker is not a dead one, and another worker does not know their session), and only when
  a connection to it is refused (the process died) are they sent to another worker, where the
  page starts a new session.

:func:`haproxy_config` only writes text; :mod:`.supervise` runs it.

>>> text = haproxy_config("127.0.0.1", 2718, [8001, 8002], 8100)
>>> "server w1 127.0.0.1:8001 cookie w1 check" in text, "bind 127.0.0.1:2718" in text
(True, True)
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence

__all__ = ["COOKIE", "LECTURER_WORKER", "find_haproxy", "haproxy_config", "MISSING_MESSAGE"]

COOKIE = "NDCGLAB_WORKER"
#: the cookie value that sends the lecturer to their own worker
LECTURER_WORKER = "wl"

MISSING_MESSAGE = (
    "HAProxy is not installed, so NDCG Lab serves from one process (about 25 students at once "
    "on a 2-core laptop). For a lecture hall install it (Debian/Ubuntu: sudo apt-get install "
    "haproxy; macOS: brew install haproxy) and start ndcg-lab again."
)

#: what HAProxy compresses (marimo's page, scripts, styles, JSON, SVG)
COMPRESSED_TYPES = (
    "text/html text/css text/plain text/javascript application/javascript "
    "application/json image/svg+xml application/wasm font/ttf"
)


def find_haproxy() -> str | None:
    """The ``haproxy`` program on PATH (or in /usr/sbin, where Debian puts it), else None."""
    return shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin:/usr/local/sbin")


def _bind(host: str, port: int) -> str:
    return f"[{host.strip('[]')}]:{port}" if ":" in host.strip("[]") else f"{host}:{port}"


def haproxy_config(host: str, port: int, worker_ports: Sequence[int], app_port: int, *,
                   lecturer_port: int | None = None, maxconn: int = 4000) -> str:
    """The configuration text: listen on ``host:port``, workers and the question app on loopback.

    ``lecturer_port``: the lecturer's own worker (``weight 0``: round-robin never picks it; the
    cookie ``NDCGLAB_WORKER=wl``, set by the question app at the lecturer's login, does).
    """
    servers = "\n".join(
        f"    server w{i} 127.0.0.1:{p} cookie w{i} check inter 5s fall 4 rise 1 maxconn 1000"
        for i, p in enumerate(worker_ports, start=1)
    )
    if lecturer_port is not None:
        servers += f"\n    server wl 127.0.0.1:{lecturer_port} cookie {LECTURER_WORKER} check inter 5s fall 4 rise 1 weight 0"
    plain = "\n".join(f"    server a{i} 127.0.0.1:{p} check inter 2s" for i, p in enumerate(worker_ports, start=1))
    return f"""\
# written by ndcg-lab (ndcg_core.ui.classroom.proxy); removed when it stops
global
    maxconn {maxconn}
    tune.bufsize 65536

defaults
    mode http
    timeout connect 5s
    timeout client 120s
    timeout server 120s
    timeout tunnel 1h
    timeout http-request 30s
    timeout check 30s
    option http-server-close
    option redispatch
    # a visitor stays with the worker that holds their session even while its health check is
    # slow (a busy worker is not a dead one); only a refused connection sends them elsewhere
    option persist
    retries 2

cache assets
    total-max-size 128
    max-object-size 16777216
    max-age 86400
    process-vary on

frontend lab
    bind {_bind(host, port)}
    maxconn {maxconn}
    acl is_class path /class
    acl is_class path_beg /class/
    acl is_asset path_beg /assets/
    use_backend questions if is_class
    use_backend assets if is_asset
    default_backend workers

backend questions
    # the question app counts logins and answers per client address: HAProxy names it from the
    # connection's source, replacing any such header a client sent
    http-request set-header X-NDCG-Lab-Client %[src]
    compression algo gzip
    compression type {COMPRESSED_TYPES}
    server q1 127.0.0.1:{app_port} check inter 2s

# marimo's static files: their names carry a content hash, so they are cached for a year
backend assets
    balance roundrobin
    filter cache assets
    filter compression
    http-request cache-use assets
    http-response del-header Vary
    http-response del-header Set-Cookie
    http-response set-header Cache-Control "public, max-age=31536000, immutable" if {{ status 200 }}
    http-response cache-store assets
    compression algo gzip
    compression type {COMPRESSED_TYPES}
{plain}

backend workers
    balance roundrobin
    cookie {COOKIE} insert indirect httponly
    option httpchk GET /health
    # no permessage-deflate on marimo's websocket: it was ~40% of the server's CPU per edit,
    # for ~50 KB of outputs per edit (12 Mbit/s at 30 edits a second, fine on a classroom LAN)
    http-request del-header Sec-WebSocket-Extensions
    compression algo gzip
    compression type {COMPRESSED_TYPES}
{servers}
"""
