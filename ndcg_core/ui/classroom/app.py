"""The live-question web app: the lecturer's projector page and the students' answer page.

A Starlette app (served by uvicorn, both come with marimo) under ``/class``; in classroom
mode HAProxy sends ``/class/...`` here and everything else to the marimo workers.

- ``/class/`` (students): log in with the class password (``/class/login``; without a
  password a Join button), which makes the student's identity, a signed cookie. Then the
  current question, a nickname and an answer box: a page of a few kilobytes that polls one
  small JSON answer (cached here for half a second), so 300 phones cost little. A student
  sees only the question, their own answer and, once revealed, the worked solution and
  their own verdict; never anyone else's.
- ``/class/lecturer`` (the projector, 1280x720 on one screen): needs the lecturer key
  (``/class/lecturer/login``), never the class password. Opens a bank question or one about
  a playground list; shows the question, the join link and its QR code, and every second the
  number answered, the share right, how many devices answered, the histogram, the named
  misconceptions and (when the lecturer shows them) the latest nicknames, set with
  ``textContent``; reveals the worked solution. ``/class/lecturer/answers`` lists the
  answers one by one to remove an answer or a nickname.

The pieces: :mod:`.routes` (handlers), :mod:`.auth` (secret, cookies, login limits, client
address), :mod:`.pages` (templates in ``templates/``, package data).

Limits: nickname :data:`~ndcg_core.infra.classroom.MAX_NICKNAME` and answer
:data:`~ndcg_core.infra.classroom.MAX_ANSWER` characters, bodies of :data:`MAX_BODY` bytes,
per student :data:`ANSWER_BURST` answers at once then one every :data:`ANSWER_INTERVAL`
seconds; per client address at most ``device_limit`` students' answers per question and
:data:`LOGIN_FAILURES_PER_MINUTE` wrong tries a minute (students and lecturer counted apart).

``python -m ndcg_core.ui.classroom.app --port P`` reads ``{"password", "lecturer_key",
"public_port", "device_limit"}`` as JSON on its standard input (never on the command line).
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from typing import Any

from starlette.applications import Starlette

from ...infra.classroom import DEVICE_LIMIT
from .routes import (
    ANSWER_BURST,
    ANSWER_INTERVAL,
    LOGIN_FAILURES_PER_MINUTE,
    MAX_BODY,
    QuestionApp,
    Settings,
)

__all__ = ["create_app", "main", "MAX_BODY", "ANSWER_BURST", "ANSWER_INTERVAL", "LOGIN_FAILURES_PER_MINUTE"]


def create_app(*, password: str | None, lecturer_key: str, folder: Any = None, public_port: int | None = None,
               bind_host: str = "127.0.0.1", device_limit: int = DEVICE_LIMIT,
               trusted_proxy: str | None = None) -> Starlette:
    """The app. ``folder``: the data folder (the store and the app's secret; None: the default,
    see :mod:`ndcg_core.infra.store`). ``trusted_proxy``: the address HAProxy connects from,
    whose client-address header is believed (None: every client is its own TCP peer)."""
    if not lecturer_key:
        raise ValueError("the lecturer key is empty")
    if password is not None and secrets.compare_digest(password.encode(), lecturer_key.encode()):
        raise ValueError("the lecturer key must differ from the class password")
    if device_limit < 1:
        raise ValueError(f"the answers per device must be 1 or more; got {device_limit}")
    app = QuestionApp(Settings(password, lecturer_key, folder, public_port, bind_host, device_limit, trusted_proxy))
    return Starlette(routes=app.routes())


def main(argv: list[str] | None = None) -> int:  # pragma: no cover - exercised through ndcg-lab
    parser = argparse.ArgumentParser(prog="python -m ndcg_core.ui.classroom.app")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--bind-host", default="127.0.0.1", help="the address ndcg-lab serves on (for the join link)")
    parser.add_argument("--behind-proxy", action="store_true",
                        help="HAProxy connects from 127.0.0.1 and names the client in its header")
    args = parser.parse_args(argv)
    secrets_in = json.loads(sys.stdin.read() or "{}")
    import uvicorn

    app = create_app(password=secrets_in.get("password"), lecturer_key=secrets_in["lecturer_key"],
                     public_port=secrets_in.get("public_port"), bind_host=args.bind_host,
                     device_limit=int(secrets_in.get("device_limit") or DEVICE_LIMIT),
                     trusted_proxy="127.0.0.1" if args.behind_proxy else None)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", access_log=False)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
