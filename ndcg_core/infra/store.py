"""The one embedded SQLite file that keeps what learners did: progress, class answers.

Learner progress (every checked answer) and live class questions share one SQLite file in a
per-user data folder (ARCHITECTURE.md: one embedded file, WAL). This module owns where that file
is, how it is opened and how each feature's tables are created; the features (the progress
log, the class questions) define their own tables through :func:`register_schema` and use
:func:`connect`.

Where the file lives, first match wins:

1. the folder given to :func:`data_dir` (``ndcg-lab --data-dir DIR`` passes it on through
   the environment variable below, so every worker and notebook kernel sees it);
2. the environment variable ``NDCG_LAB_DATA_DIR``;
3. the per-user data folder platformdirs names for ``ndcg-lab`` (on Linux
   ``$XDG_DATA_HOME/ndcg-lab`` or ``~/.local/share/ndcg-lab``; the macOS and Windows
   equivalents elsewhere).

The file is ``ndcg-lab.sqlite3`` there. It is opened in WAL mode with a busy timeout, so
several processes (workers, the notebook kernels of one server) may read and write at once.
A file that is not a database, or that stays locked, raises :class:`StoreError` with a
message that names the file and the fix; callers show it and carry on without keeping
progress, never crash and never overwrite the file.

>>> import tempfile
>>> folder = tempfile.mkdtemp()
>>> register_schema("demo", "CREATE TABLE IF NOT EXISTS demo (x INTEGER)")
>>> with connect(folder) as db:
...     _ = db.execute("INSERT INTO demo VALUES (1)")
>>> with connect(folder) as db:
...     db.execute("SELECT x FROM demo").fetchall()
[(1,)]
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import platformdirs

__all__ = ["DATA_DIR_ENV", "FILE_NAME", "StoreError", "data_dir", "store_path", "register_schema", "connect"]

#: The environment variable that names the data folder (``ndcg-lab --data-dir`` sets it).
DATA_DIR_ENV = "NDCG_LAB_DATA_DIR"
#: The database file's name inside the data folder.
FILE_NAME = "ndcg-lab.sqlite3"
#: How long a writer waits for another one before the store reports it locked (seconds).
BUSY_TIMEOUT = 10.0

_SCHEMAS: dict[str, str] = {}
_READY: set[Path] = set()
_LOCK = threading.Lock()


class StoreError(RuntimeError):
    """The data file cannot be used: it is not a database, it is locked, or its folder is not writable."""


def data_dir(folder: str | os.PathLike[str] | None = None) -> Path:
    """The data folder: ``folder``, else ``$NDCG_LAB_DATA_DIR``, else the per-user data folder.

    >>> data_dir("/tmp/x")
    PosixPath('/tmp/x')
    """
    if folder is not None and str(folder) != "":
        return Path(folder).expanduser()
    env = os.environ.get(DATA_DIR_ENV, "")
    if env:
        return Path(env).expanduser()
    return platformdirs.user_data_path("ndcg-lab", appauthor=False)


def store_path(folder: str | os.PathLike[str] | None = None) -> Path:
    """The database file: ``data_dir(folder) / "ndcg-lab.sqlite3"``."""
    return data_dir(folder) / FILE_NAME


def register_schema(name: str, sql: str) -> None:
    """Declare a feature's tables: ``sql`` (``CREATE TABLE IF NOT EXISTS ...``) runs once per file.

    Call it at import time of the feature's module. ``sql`` must be idempotent.
    """
    with _LOCK:
        if _SCHEMAS.get(name) != sql:
            _SCHEMAS[name] = sql
            _READY.clear()


def _fail(path: Path, err: Exception) -> StoreError:
    text = str(err).lower()
    if "locked" in text or "busy" in text:
        return StoreError(
            f"The progress file {path} is locked by another program and stayed locked for "
            f"{BUSY_TIMEOUT:g} s. Close the other program, or start with another data folder "
            f"(ndcg-lab --data-dir DIR or {DATA_DIR_ENV}=DIR). Nothing was lost."
        )
    if "not a database" in text or "malformed" in text or "file is encrypted" in text:
        return StoreError(
            f"The progress file {path} is not an NDCG Lab database ({err}). It was left as it is; "
            f"move it away to start a fresh one, or use another data folder (ndcg-lab --data-dir DIR "
            f"or {DATA_DIR_ENV}=DIR)."
        )
    return StoreError(
        f"The progress file {path} cannot be opened ({err}). Check that its folder is writable, or "
        f"use another data folder (ndcg-lab --data-dir DIR or {DATA_DIR_ENV}=DIR)."
    )


@contextmanager
def connect(folder: str | os.PathLike[str] | None = None, *, write: bool = True) -> Iterator[sqlite3.Connection]:
    """A connection to the store in one transaction, committed on success and closed on exit.

    ``write=True`` takes the write lock at the start (``BEGIN IMMEDIATE``: no lost update
    between a read and a write); ``write=False`` reads from a snapshot without blocking writers.

    The folder is created when missing; the registered schemas are applied once per file and
    process. Every sqlite3 problem comes out as :class:`StoreError` with a readable message.
    """
    path = store_path(folder)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False)
    except (OSError, sqlite3.Error) as err:
        raise _fail(path, err) from None
    try:
        db.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT * 1000)}")
        resolved = path.resolve()
        if resolved not in _READY:
            # one thread of this process sets the file up (WAL mode, the schemas) while the
            # others wait: two connections switching the journal mode at once can see it refused
            with _LOCK:
                if resolved not in _READY:
                    if db.execute("PRAGMA journal_mode = WAL").fetchone()[0].lower() != "wal":
                        raise sqlite3.OperationalError("the file does not accept WAL mode")
                    for sql in list(_SCHEMAS.values()):
                        db.executescript(sql)
                    _READY.add(resolved)
        db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        else:
            db.execute("COMMIT")
    except sqlite3.Error as err:
        raise _fail(path, err) from None
    finally:
        db.close()
