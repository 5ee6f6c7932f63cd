"""Live class questions: the lecturer asks the room, every student's latest answer counts.

The classroom's server state (infra layer). The questions and answers live in the one SQLite store (:mod:`ndcg_core.infra.store`,
tables ``class_questions`` and ``class_answers``), so a server restart in the middle of a
question loses nothing. Every answer is checked with
:func:`ndcg_core.teaching.exercises.check`, so a wrong one carries the misconception the
checker named; the lecturer's summary counts them.

- :func:`open_question` opens a bank exercise (``"lecture-ndcg"``) or a question built from a
  playground list (:func:`playground_question`); the newest open question is the current one.
- :func:`submit` stores a student's answer: one row per (question, student), replaced by a
  later answer (``INSERT ... ON CONFLICT DO UPDATE``), so nobody is counted twice.
- :func:`summary` is what the projector shows: how many answered, the share right, the
  histogram of (normalised) answers and the named misconceptions with their counts.

Student text is kept as typed (cut to :data:`MAX_NICKNAME` / :data:`MAX_ANSWER` characters,
control characters removed); escaping it is the page's job.

>>> import tempfile
>>> folder = tempfile.mkdtemp()
>>> q = open_question("lecture-ndcg", folder=folder)
>>> submit(q.id, "student-1", "Ada", "0.78", folder=folder).correct
True
>>> _ = submit(q.id, "student-2", "Bob", "2.43", folder=folder)
>>> _ = submit(q.id, "student-2", "Bob", "0.7763", folder=folder)   # his latest answer counts
>>> s = summary(q.id, folder=folder)
>>> s.answered, s.right
(2, 2)
"""

from __future__ import annotations

import hashlib
import json
import math
import time
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..config import NDCGConfig
from ..labels import parse_labels
from . import store
from ..teaching.exercises import MISCONCEPTIONS, Exercise, Feedback, Setting, check, format_answer, get, parse_number
from ..teaching.exercises.answers import parse_choice
from ..teaching.exercises.formatting import format_labels

__all__ = [
    "MAX_NICKNAME",
    "MAX_ANSWER",
    "QUANTITIES",
    "Question",
    "Summary",
    "ClassroomError",
    "playground_question",
    "open_question",
    "current_question",
    "get_question",
    "exercise_of",
    "reveal",
    "close_question",
    "submit",
    "own_answer",
    "summary",
    "clean_text",
    "recent_nicknames",
    "DEVICE_LIMIT",
    "DeviceLimitError",
    "device_key",
    "answers_of",
    "remove_answer",
    "remove_nickname",
]

MAX_NICKNAME = 40
#: how many students' answers one device (one client address) may add to a question by default
DEVICE_LIMIT = 10
MAX_ANSWER = 200
#: what a playground question can ask
QUANTITIES = {"dcg": "DCG", "idcg": "IDCG", "ndcg": "nDCG"}

SCHEMA = """
CREATE TABLE IF NOT EXISTS class_questions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    exercise_id TEXT NOT NULL,
    spec TEXT,
    opened_at REAL NOT NULL,
    closed_at REAL,
    revealed INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS class_answers (
    question_id INTEGER NOT NULL REFERENCES class_questions(id),
    student TEXT NOT NULL,
    nickname TEXT NOT NULL,
    answer TEXT NOT NULL,
    bucket TEXT NOT NULL,
    correct INTEGER NOT NULL,
    misconception TEXT,
    submitted_at REAL NOT NULL,
    revisions INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (question_id, student)
);
-- the device (a pseudonym of the client address) each answer came from: one device adds at
-- most a few students' answers however many cookies it makes
CREATE TABLE IF NOT EXISTS class_answer_devices (
    question_id INTEGER NOT NULL,
    student TEXT NOT NULL,
    device TEXT NOT NULL,
    PRIMARY KEY (question_id, student)
);
CREATE INDEX IF NOT EXISTS class_answer_devices_by_device ON class_answer_devices (question_id, device);
-- answers the lecturer removed (that student cannot answer this question again) and nicknames
-- the lecturer removed (answers keep counting, the name is never shown)
CREATE TABLE IF NOT EXISTS class_removed (
    question_id INTEGER NOT NULL,
    student TEXT NOT NULL,
    PRIMARY KEY (question_id, student)
);
CREATE TABLE IF NOT EXISTS class_removed_names (
    question_id INTEGER NOT NULL,
    nickname TEXT NOT NULL,
    PRIMARY KEY (question_id, nickname)
);
"""
store.register_schema("classroom", SCHEMA)


class ClassroomError(ValueError):
    """A question or an answer that cannot be taken; the message says why and what to do."""


class DeviceLimitError(ClassroomError):
    """One device already gave as many students' answers to this question as it may."""


def device_key(address: str) -> str:
    """The pseudonym an answer's device is stored under (a hash of the client address: the
    store keeps no address, and the lecturer's page shows only counts and short tags)."""
    return hashlib.sha256(f"ndcg-lab/device\0{address}".encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Question:
    """One asked question: its row and the exercise it checks against."""

    id: int
    exercise_id: str
    spec: dict[str, Any] | None
    opened_at: float
    closed_at: float | None
    revealed: bool

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


@dataclass(frozen=True)
class Summary:
    """What the projector shows for a question."""

    question_id: int
    answered: int
    right: int
    histogram: list[tuple[str, int]]
    misconceptions: list[tuple[str, str, int]]  # (id, the mistake in words, count)
    unreadable: int
    #: The histogram bar the right answer goes to (the projector marks it once revealed).
    right_bucket: str | None = None
    #: How many devices (client addresses) the answers came from.
    devices: int = 0

    @property
    def share_right(self) -> float | None:
        return None if self.answered == 0 else self.right / self.answered


def clean_text(text: object, limit: int, what: str) -> str:
    """``text`` without control characters, stripped; :class:`ClassroomError` when empty or too long."""
    if not isinstance(text, str):
        raise ClassroomError(f"the {what} must be text.")
    cleaned = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C" or ch == " ").strip()
    if not cleaned:
        raise ClassroomError(f"the {what} is empty: type one.")
    if len(cleaned) > limit:
        raise ClassroomError(f"the {what} is {len(cleaned)} characters long; at most {limit} are taken.")
    return cleaned


def playground_question(labels: str, asks: str = "ndcg", *, k: int | None = 5, missed: str = "",
                        gain: str = "linear", discount: str = "log2") -> dict[str, Any]:
    """The spec of a question about a playground list (kept as JSON with the question).

    >>> playground_question("1, 0, 2, 1, 0")["labels"]
    [1, 0, 2, 1, 0]
    """
    if asks not in QUANTITIES:
        raise ClassroomError(f"a playground question asks for one of {', '.join(QUANTITIES)}; got {asks!r}.")
    try:
        parsed = parse_labels(labels)
        extra = parse_labels(missed) if missed.strip() else []
        spec = {"labels": parsed, "missed": extra, "asks": asks, "k": k, "gain": gain, "discount": discount}
        _playground_exercise(spec)
    except (TypeError, ValueError) as err:
        raise ClassroomError(f"cannot ask about that list: {err}") from None
    return spec


def _playground_exercise(spec: dict[str, Any]) -> Exercise:
    config = NDCGConfig(gain=spec["gain"], discount=spec["discount"], k=spec["k"])
    setting = Setting(labels=tuple(spec["labels"]), missed=tuple(spec["missed"]), config=config)
    quantity = QUANTITIES[spec["asks"]] + ("" if spec["k"] is None else f"@{spec['k']}")
    return Exercise(
        id="class-playground",
        chapter="01",
        kind="numeric",
        title=f"{quantity} of the list on the screen",
        prompt=f"The ranked list on the screen has the labels {format_labels(spec['labels'])}. What is its {quantity}?",
        asks=spec["asks"],
        setting=setting,
        precision=2,
    )


def exercise_of(question: Question) -> Exercise:
    """The exercise a question checks answers against."""
    if question.spec is not None:
        return _playground_exercise(question.spec)
    return get(question.exercise_id)


def _row(row: Sequence[Any]) -> Question:
    return Question(int(row[0]), row[1], json.loads(row[2]) if row[2] else None, row[3], row[4], bool(row[5]))


_COLUMNS = "id, exercise_id, spec, opened_at, closed_at, revealed"


def open_question(exercise: str | dict[str, Any], *, folder: Any = None) -> Question:
    """Open a question (closing the one that was open): a bank id or a :func:`playground_question` spec."""
    if isinstance(exercise, dict):
        spec: dict[str, Any] | None = exercise
        exercise_id = "class-playground"
        _playground_exercise(exercise)
    else:
        spec = None
        exercise_id = exercise
        try:
            ex = get(exercise)
        except (KeyError, ValueError) as err:
            raise ClassroomError(str(err)) from None
        if ex.kind == "code":
            raise ClassroomError(f"{exercise} is a code exercise; a class question needs a typed answer.")
    now = time.time()
    with store.connect(folder) as db:
        db.execute("UPDATE class_questions SET closed_at = ? WHERE closed_at IS NULL", (now,))
        cursor = db.execute(
            "INSERT INTO class_questions (exercise_id, spec, opened_at) VALUES (?, ?, ?)",
            (exercise_id, None if spec is None else json.dumps(spec), now),
        )
        question_id = int(cursor.lastrowid or 0)
    return Question(question_id, exercise_id, spec, now, None, False)


def get_question(question_id: int, *, folder: Any = None) -> Question | None:
    with store.connect(folder, write=False) as db:
        row = db.execute(f"SELECT {_COLUMNS} FROM class_questions WHERE id = ?", (question_id,)).fetchone()
    return None if row is None else _row(row)


def current_question(*, folder: Any = None) -> Question | None:
    """The newest question, open or not (a closed one still shows its solution); None before any."""
    with store.connect(folder, write=False) as db:
        row = db.execute(f"SELECT {_COLUMNS} FROM class_questions ORDER BY id DESC LIMIT 1").fetchone()
    return None if row is None else _row(row)


def reveal(question_id: int, *, folder: Any = None) -> None:
    """Show the worked solution (to the projector and to the students) and stop taking answers."""
    with store.connect(folder) as db:
        db.execute(
            "UPDATE class_questions SET revealed = 1, closed_at = COALESCE(closed_at, ?) WHERE id = ?",
            (time.time(), question_id),
        )


def close_question(question_id: int, *, folder: Any = None) -> None:
    with store.connect(folder) as db:
        db.execute("UPDATE class_questions SET closed_at = COALESCE(closed_at, ?) WHERE id = ?", (time.time(), question_id))


def _bucket(ex: Exercise, answer: str) -> str:
    """The histogram bar an answer goes to: the number to the exercise's precision, the option, the order."""
    try:
        if ex.kind == "numeric":
            value = parse_number(answer, percent_allowed=ex.asks == "ndcg").value
            if not math.isfinite(value):
                return ""
            return f"{value:.{ex.precision}f}"
        if ex.kind in ("concept", "comparison"):
            index = parse_choice(answer, ex.choices)
            return ex.choices[index] if ex.kind == "comparison" else ex.choices[index][:1]
        if ex.kind == "ideal":
            return format_labels(parse_labels(answer))
    except (TypeError, ValueError, IndexError):
        return ""
    return ""


def submit(question_id: int, student: str, nickname: object, answer: object, *, device: str | None = None,
           device_limit: int = DEVICE_LIMIT, folder: Any = None) -> Feedback:
    """Check and store one student's answer (replacing that student's earlier one).

    ``device``: the client address it came from. A device adds at most ``device_limit``
    students' answers to a question (:class:`DeviceLimitError` beyond); a student already
    counted may always change their own answer.
    """
    nickname = clean_text(nickname, MAX_NICKNAME, "nickname")
    answer = clean_text(answer, MAX_ANSWER, "answer")
    question = get_question(question_id, folder=folder)
    if question is None:
        raise ClassroomError("there is no such question. Reload the page.")
    if not question.is_open:
        raise ClassroomError("this question is closed: your answer was not taken.")
    ex = exercise_of(question)
    feedback = check(ex, answer)
    with store.connect(folder) as db:
        still_open = db.execute("SELECT closed_at IS NULL FROM class_questions WHERE id = ?", (question_id,)).fetchone()
        if not still_open or not still_open[0]:
            raise ClassroomError("this question is closed: your answer was not taken.")
        _admit(db, question_id, student, device, device_limit)
        if db.execute("SELECT 1 FROM class_removed_names WHERE question_id = ? AND nickname = ?",
                      (question_id, nickname)).fetchone():
            nickname = ""
        db.execute(
            """INSERT INTO class_answers
               (question_id, student, nickname, answer, bucket, correct, misconception, submitted_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?)
               ON CONFLICT (question_id, student) DO UPDATE SET
                 nickname = excluded.nickname, answer = excluded.answer, bucket = excluded.bucket,
                 correct = excluded.correct, misconception = excluded.misconception,
                 submitted_at = excluded.submitted_at, revisions = class_answers.revisions + 1""",
            (question_id, student, nickname, answer, _bucket(ex, answer), int(feedback.correct),
             feedback.misconception, time.time()),
        )
    return feedback


def _admit(db: Any, question_id: int, student: str, device: str | None, device_limit: int) -> None:
    """Refuse a removed student, and a new student from a device that reached its limit."""
    if db.execute("SELECT 1 FROM class_removed WHERE question_id = ? AND student = ?", (question_id, student)).fetchone():
        raise ClassroomError("the lecturer removed your answer to this question: wait for the next one.")
    if device is None:
        return
    key = device_key(device)
    known = db.execute("SELECT 1 FROM class_answers WHERE question_id = ? AND student = ?", (question_id, student)).fetchone()
    if not known:
        (count,) = db.execute("SELECT COUNT(*) FROM class_answer_devices WHERE question_id = ? AND device = ?",
                              (question_id, key)).fetchone()
        if count >= device_limit:
            raise DeviceLimitError(
                f"this device already gave {count} answers to this question, as many as one device may. "
                "Answer from your own phone or laptop; if your whole class shares one network address, "
                "the lecturer can raise the limit (ndcg-lab --answers-per-device N)."
            )
    db.execute("INSERT OR IGNORE INTO class_answer_devices (question_id, student, device) VALUES (?, ?, ?)",
               (question_id, student, key))


def answers_of(question_id: int, *, folder: Any = None) -> list[dict[str, Any]]:
    """Every answer to a question, newest first, for the lecturer's moderation page: the
    student's id, nickname ("" once removed), answer, verdict and the device's short tag."""
    with store.connect(folder, write=False) as db:
        rows = db.execute(
            "SELECT a.student, a.nickname, a.answer, a.correct, COALESCE(d.device, '') FROM class_answers a "
            "LEFT JOIN class_answer_devices d ON d.question_id = a.question_id AND d.student = a.student "
            "WHERE a.question_id = ? ORDER BY a.submitted_at DESC",
            (question_id,),
        ).fetchall()
    return [{"student": r[0], "nickname": r[1], "answer": r[2], "correct": bool(r[3]), "device": r[4][:6]} for r in rows]


def remove_answer(question_id: int, student: str, *, folder: Any = None) -> bool:
    """Take a student's answer out of the counts; that student cannot answer this question again."""
    with store.connect(folder) as db:
        gone = db.execute("DELETE FROM class_answers WHERE question_id = ? AND student = ?", (question_id, student)).rowcount
        db.execute("INSERT OR IGNORE INTO class_removed (question_id, student) VALUES (?, ?)", (question_id, student))
    return bool(gone)


def remove_nickname(question_id: int, nickname: str, *, folder: Any = None) -> int:
    """Blank a nickname on the question's answers (they still count) and on any later answer that uses it."""
    with store.connect(folder) as db:
        db.execute("INSERT OR IGNORE INTO class_removed_names (question_id, nickname) VALUES (?, ?)", (question_id, nickname))
        return int(db.execute("UPDATE class_answers SET nickname = '' WHERE question_id = ? AND nickname = ?",
                              (question_id, nickname)).rowcount)


def own_answer(question_id: int, student: str, *, folder: Any = None) -> tuple[str, str, bool] | None:
    """This student's stored (nickname, answer, correct), or None: a student sees only their own."""
    with store.connect(folder, write=False) as db:
        row = db.execute(
            "SELECT nickname, answer, correct FROM class_answers WHERE question_id = ? AND student = ?",
            (question_id, student),
        ).fetchone()
    return None if row is None else (row[0], row[1], bool(row[2]))


def summary(question_id: int, *, folder: Any = None) -> Summary:
    """Counts over the latest answer of every student (one row each)."""
    with store.connect(folder, write=False) as db:
        answered, right = db.execute(
            "SELECT COUNT(*), COALESCE(SUM(correct), 0) FROM class_answers WHERE question_id = ?", (question_id,)
        ).fetchone()
        buckets = db.execute(
            "SELECT bucket, COUNT(*) FROM class_answers WHERE question_id = ? GROUP BY bucket", (question_id,)
        ).fetchall()
        (devices,) = db.execute(
            "SELECT COUNT(DISTINCT d.device) FROM class_answers a JOIN class_answer_devices d "
            "ON d.question_id = a.question_id AND d.student = a.student WHERE a.question_id = ?",
            (question_id,),
        ).fetchone()
        named = db.execute(
            "SELECT misconception, COUNT(*) FROM class_answers WHERE question_id = ? AND misconception IS NOT NULL "
            "GROUP BY misconception ORDER BY COUNT(*) DESC, misconception",
            (question_id,),
        ).fetchall()
    unreadable = sum(count for bucket, count in buckets if bucket == "")
    histogram = sorted(((b, c) for b, c in buckets if b != ""), key=lambda bc: _sort_key(bc[0]))
    misconceptions = [(m, MISCONCEPTIONS[m].name if m in MISCONCEPTIONS else m, c) for m, c in named]
    question = get_question(question_id, folder=folder)
    right_bucket = None
    if question is not None:
        ex = exercise_of(question)
        right_bucket = _bucket(ex, format_answer(ex)) or None
    return Summary(question_id, int(answered), int(right), histogram, misconceptions, unreadable, right_bucket,
                   int(devices))


def _sort_key(bucket: str) -> tuple[int, float, str]:
    try:
        return (0, float(bucket), bucket)
    except ValueError:
        return (1, 0.0, bucket)


def recent_nicknames(question_id: int, n: int = 8, *, folder: Any = None) -> list[str]:
    """The nicknames of the ``n`` latest answers (newest first), as typed: escape them to show them."""
    with store.connect(folder, write=False) as db:
        rows = db.execute(
            "SELECT nickname FROM class_answers WHERE question_id = ? AND nickname != '' "
            "ORDER BY submitted_at DESC LIMIT ?",
            (question_id, n),
        ).fetchall()
    return [row[0] for row in rows]
