r"""The progress log: every checked answer, from any notebook, kept in :mod:`.store`.

One row per check: learner, exercise id, chapter, the answer as typed, the verdict, the
named misconception (or none) and the time (UTC, ISO 8601). Notebook 07 reads it back per
chapter (:func:`chapter_progress`), and the recurring mistakes (:func:`recurring_mistakes`)
feed notebook 08's "practise these" set.

Who the learner is: a name typed once (:func:`check_name` says what is accepted). The
notebooks keep it in the page's URL (``?learner=ana``): a reload, a bookmark or a link keeps
it, and another browser tab with another name is another learner, which is what a shared
classroom server needs. On a computer of one's own the data file also remembers the last
name typed (:func:`remember_name`), so the chapters opened from the gallery (whose links
carry no name) record under it too; on a shared server (``ndcg-lab --host``, which sets
:data:`SHARED_ENV`) the file never supplies a name, since it cannot tell two students apart.
The name is not a password: anyone who types the same name shares the same progress.
With no name nothing is recorded and the pages say so.

Every function raises :class:`~ndcg_core.infra.store.StoreError` (with a message naming
the file and the fix) when the data file cannot be used; callers show it and carry on.

>>> import tempfile
>>> folder = tempfile.mkdtemp()
>>> record("ana", "lecture-dcg", "3.51", False, "log-natural", folder=folder)
>>> record("ana", "lecture-dcg", "2.43", True, None, folder=folder)
>>> [(row.chapter, row.tried, row.solved) for row in chapter_progress("ana", folder=folder)][:1]
[('01', 1, 1)]
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from datetime import datetime, timezone
from typing import NamedTuple

from . import store
from ..teaching.exercises import CHAPTERS, MISCONCEPTIONS, all_exercises

__all__ = ["MAX_NAME_CHARS", "SHARED_ENV", "shared_server", "remember_name", "last_name", "check_name", "record", "history", "solved_ids", "ChapterRow", "chapter_progress", "exam_progress",
           "Mistake", "recurring_mistakes", "exercise_chapter"]

MAX_NAME_CHARS = 40
#: Characters a learner name may hold: letters (any script), digits, space, . _ -
_NAME = re.compile(r"[^\W_][\w .\-]*", re.UNICODE)
#: The most characters of an answer kept in the log.
MAX_ANSWER_KEPT = 500

store.register_schema("progress", """
CREATE TABLE IF NOT EXISTS progress_checks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    learner TEXT NOT NULL,
    exercise TEXT NOT NULL,
    chapter TEXT NOT NULL,
    answer TEXT NOT NULL,
    correct INTEGER NOT NULL,
    misconception TEXT,
    checked_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS progress_by_learner ON progress_checks (learner, exercise);
CREATE TABLE IF NOT EXISTS progress_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
""")

#: The environment variable ``ndcg-lab`` sets to ``1`` when it serves other computers: then the
#: data file never supplies a name (several students share it).
SHARED_ENV = "NDCG_LAB_SHARED"


def shared_server() -> bool:
    """Whether this process serves several people (``ndcg-lab --host`` other than loopback)."""
    return os.environ.get(SHARED_ENV, "") == "1"


def remember_name(name: str, *, folder: str | os.PathLike[str] | None = None) -> None:
    """Keep ``name`` as the last name typed on this computer (not on a shared server)."""
    if shared_server():
        return
    with store.connect(folder) as db:
        db.execute("INSERT OR REPLACE INTO progress_settings (key, value) VALUES ('last_learner', ?)",
                   (check_name(name),))


def last_name(*, folder: str | os.PathLike[str] | None = None) -> str | None:
    """The last name typed on this computer, or None (always None on a shared server)."""
    if shared_server():
        return None
    with store.connect(folder, write=False) as db:
        row = db.execute("SELECT value FROM progress_settings WHERE key = 'last_learner'").fetchone()
    return row[0] if row else None


def check_name(text: object) -> str:
    """A learner name, trimmed; ``ValueError`` saying what is accepted for anything else.

    >>> check_name("  Ana Lima ")
    'Ana Lima'
    """
    if not isinstance(text, str):
        raise TypeError(f"the name must be text; got {type(text).__name__}.")
    name = " ".join(text.split())
    if not name:
        raise ValueError("Type a name to keep your progress (letters, digits, spaces, . _ -).")
    if len(name) > MAX_NAME_CHARS:
        raise ValueError(f"The name is {len(name)} characters long; use at most {MAX_NAME_CHARS}.")
    if not _NAME.fullmatch(name):
        raise ValueError(f"The name {name[:MAX_NAME_CHARS]!r} may hold letters, digits, spaces and . _ - only, "
                         "starting with a letter or digit.")
    return name


def exercise_chapter(exercise_id: str) -> str:
    """The chapter an exercise id belongs to: the bank's chapter, ``"08"`` for exam problems."""
    for ex in all_exercises():
        if ex.id == exercise_id:
            return ex.chapter
    return "08"


def record(learner: str, exercise_id: str, answer: str, correct: bool, misconception: str | None, *,
           chapter: str | None = None, folder: str | os.PathLike[str] | None = None) -> None:
    """Log one check. A repeat of the learner's last check of that exercise (same answer) is not
    logged twice (a cell that re-runs must not count a mistake twice)."""
    name = check_name(learner)
    text = str(answer)[:MAX_ANSWER_KEPT]
    when = datetime.now(timezone.utc).isoformat(timespec="seconds")
    with store.connect(folder) as db:
        last = db.execute(
            "SELECT answer, correct FROM progress_checks WHERE learner = ? AND exercise = ? ORDER BY id DESC LIMIT 1",
            (name, exercise_id)).fetchone()
        if last is not None and last[0] == text and bool(last[1]) == bool(correct):
            return
        db.execute(
            "INSERT INTO progress_checks (learner, exercise, chapter, answer, correct, misconception, checked_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (name, exercise_id, chapter or exercise_chapter(exercise_id), text, int(bool(correct)), misconception,
             when))


class Check(NamedTuple):
    """One logged check."""

    exercise: str
    chapter: str
    answer: str
    correct: bool
    misconception: str | None
    checked_at: str


def history(learner: str, *, folder: str | os.PathLike[str] | None = None) -> list[Check]:
    """Every check of ``learner``, oldest first."""
    name = check_name(learner)
    with store.connect(folder, write=False) as db:
        rows = db.execute(
            "SELECT exercise, chapter, answer, correct, misconception, checked_at FROM progress_checks "
            "WHERE learner = ? ORDER BY id", (name,)).fetchall()
    return [Check(e, c, a, bool(ok), m, t) for e, c, a, ok, m, t in rows]


def solved_ids(learner: str, *, folder: str | os.PathLike[str] | None = None) -> dict[str, bool]:
    """``{exercise id: solved at least once}`` for every exercise the learner tried."""
    out: dict[str, bool] = {}
    for check in history(learner, folder=folder):
        out[check.exercise] = out.get(check.exercise, False) or check.correct
    return out


class ChapterRow(NamedTuple):
    """One chapter's line of the progress table."""

    chapter: str
    title: str
    exercises: int
    tried: int
    solved: int


def chapter_progress(learner: str, *, folder: str | os.PathLike[str] | None = None,
                     tried: dict[str, bool] | None = None) -> list[ChapterRow]:
    """Per bank chapter: how many exercises, how many tried, how many solved (from any notebook)."""
    done = solved_ids(learner, folder=folder) if tried is None else tried
    rows = []
    for number, title in CHAPTERS.items():
        ids = [ex.id for ex in all_exercises() if ex.chapter == number]
        rows.append(ChapterRow(number, title, len(ids), sum(i in done for i in ids), sum(bool(done.get(i)) for i in ids)))
    return rows


def exam_progress(learner: str, *, folder: str | os.PathLike[str] | None = None,
                  tried: dict[str, bool] | None = None) -> ChapterRow:
    """Notebook 08's line: generated exam and practice problems tried and solved. Its sets
    are generated, so it has no fixed number of exercises (``exercises`` is 0)."""
    done = solved_ids(learner, folder=folder) if tried is None else tried
    ids = [i for i in done if i.startswith(("exam-", "practise-"))]
    return ChapterRow("08", "Exam practice", 0, len(ids), sum(bool(done[i]) for i in ids))


class Mistake(NamedTuple):
    """A misconception the learner's wrong answers were matched to, with how often."""

    misconception: str
    name: str
    count: int


def recurring_mistakes(learner: str, *, at_least: int = 1, folder: str | os.PathLike[str] | None = None,
                       checks: Iterable[Check] | None = None) -> list[Mistake]:
    """The named mistakes of ``learner``, most frequent first (``"natural log: 3 times"``)."""
    counts: dict[str, int] = {}
    for check in history(learner, folder=folder) if checks is None else checks:
        if not check.correct and check.misconception in MISCONCEPTIONS:
            counts[check.misconception] = counts.get(check.misconception, 0) + 1
    order = list(MISCONCEPTIONS)
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], order.index(kv[0])))
    return [Mistake(m, MISCONCEPTIONS[m].name, n) for m, n in ranked if n >= at_least]
