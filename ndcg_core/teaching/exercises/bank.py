r"""The exercise bank: reading ``data/exercises.toml``, checking every entry, and looking exercises up.

An entry holds the words (title, prompt, hints, options) and the inputs (typed labels and
the configuration); every number is computed from the inputs. A malformed entry is a
``ValueError`` that names the file, the entry and the key.

>>> get("lecture-dcg").title
'DCG@5 of the lecture example'
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from ...config import NDCGConfig
from ...gains import parse_gain_table
from ...labels import parse_labels
from ..paths import DATA_DIR
from .misconceptions import MISCONCEPTIONS
from .model import ASKS, CHAPTERS, DEMOS, KINDS, LETTERS, Exercise, Setting

__all__ = ["BANK_PATH", "load_bank", "get", "resolve", "all_exercises", "for_chapter"]

#: Where the bank is read from (the repository's ``data/`` folder).
BANK_PATH = DATA_DIR / "exercises.toml"


class _Entry:
    """Reads one bank entry, naming the entry in every error."""

    def __init__(self, raw: Mapping[str, Any], where: str) -> None:
        self.raw = raw
        self.where = where

    def error(self, message: str) -> ValueError:
        return ValueError(f"{self.where}: {message}")

    def text(self, key: str, default: str | None = None) -> str:
        value = self.raw.get(key, default)
        if not isinstance(value, str) or (default is None and not value.strip()):
            raise self.error(f"{key} must be a non-empty text; got {value!r}.")
        return value

    def integer(self, key: str, default: int | None = None) -> int | None:
        value = self.raw.get(key, default)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise self.error(f"{key} must be a positive whole number; got {value!r}.")
        return value

    def strings(self, key: str) -> tuple[str, ...]:
        value = self.raw.get(key, [])
        if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
            raise self.error(f"{key} must be a list of texts; got {value!r}.")
        return tuple(value)


_KEYS = {
    "id", "chapter", "kind", "title", "prompt", "asks", "precision", "rank", "hints", "options",
    "answer", "option_notes", "option_misconceptions", "explanation", "demo", "inputs", "demo_lists",
    "other_gain",
}
_INPUT_KEYS = {"labels", "labels_b", "judgments", "missed", "k", "gain", "gain_table", "discount", "base",
               "unjudged", "ideal", "threshold", "other_topics"}


def _labels_from(entry: _Entry, text: object, key: str, *, allow_unjudged: bool = True) -> tuple[Any, ...]:
    if not isinstance(text, str):
        raise entry.error(f"inputs.{key} must be typed labels in quotes such as \"1, 0, 2\"; got {text!r}.")
    if not text.strip():
        return ()
    try:
        labels = parse_labels(text)
    except ValueError as err:
        raise entry.error(f"inputs.{key}: {err}") from None
    if not allow_unjudged and any(x is None for x in labels):
        raise entry.error(f"inputs.{key} must not hold ? (judgments are judged labels).")
    return tuple(labels)


def _threshold_from(entry: _Entry, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise entry.error(f"inputs.threshold must be a positive whole number (the lowest relevant label); got {value!r}.")
    return float(value)


def _topics_from(entry: _Entry, raw: object) -> tuple[tuple[tuple[Any, ...], tuple[float, ...]], ...]:
    """``other_topics = ["0, 1, 0 | 1, 1, 0", ...]``: each topic's ranked labels, then ``|``
    and all its judged labels."""
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        raise entry.error(f"inputs.other_topics must be a list of texts \"labels | judgments\"; got {raw!r}.")
    out = []
    for number, text in enumerate(raw):
        if text.count("|") != 1:
            raise entry.error(f"inputs.other_topics[{number}] must be \"ranked labels | all judged labels\"; got {text!r}.")
        ranked, judged = text.split("|")
        out.append((_labels_from(entry, ranked, f"other_topics[{number}]"),
                    tuple(float(x) for x in _labels_from(entry, judged, f"other_topics[{number}]", allow_unjudged=False))))
    return tuple(out)


def _setting_from(entry: _Entry, raw: Mapping[str, Any]) -> Setting:
    unknown = set(raw) - _INPUT_KEYS
    if unknown:
        raise entry.error(f"inputs has unknown keys {sorted(unknown)}; known keys are {sorted(_INPUT_KEYS)}.")
    if "labels" not in raw:
        raise entry.error("inputs.labels is missing.")
    if "judgments" in raw and "missed" in raw:
        raise entry.error("inputs gives both judgments and missed; give one of them.")
    gain = raw.get("gain", "linear")
    if gain == "table":
        try:
            gain = parse_gain_table(str(raw.get("gain_table", "")))
        except ValueError as err:
            raise entry.error(f"inputs.gain_table: {err}") from None
    k = raw.get("k")
    if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 1):
        raise entry.error(f"inputs.k must be a positive whole number; got {k!r}.")
    base = raw.get("base")
    if isinstance(base, str) and base == "e":
        base = math.e
    try:
        config = NDCGConfig(gain=gain, discount=raw.get("discount", "log2"), k=k,
                            base=float(base) if base is not None else None,
                            unjudged=raw.get("unjudged", "zero"), ideal=raw.get("ideal", "judgments"))
    except (TypeError, ValueError) as err:
        raise entry.error(f"inputs do not make a valid configuration: {err}") from None
    setting = Setting(
        threshold=_threshold_from(entry, raw.get("threshold", 1)),
        other_topics=_topics_from(entry, raw.get("other_topics", [])),
        labels=_labels_from(entry, raw["labels"], "labels"),
        judgments=_labels_from(entry, raw["judgments"], "judgments", allow_unjudged=False) if "judgments" in raw else None,
        missed=_labels_from(entry, raw["missed"], "missed", allow_unjudged=False) if "missed" in raw else None,
        config=config,
    )
    try:
        setting.config.score(list(setting.labels), setting.all_judgments)
    except (TypeError, ValueError) as err:
        raise entry.error(f"inputs do not make a valid configuration: {err}") from None
    return setting


def _exercise_from(raw: Mapping[str, Any], where: str) -> Exercise:
    entry = _Entry(raw, where)
    unknown = set(raw) - _KEYS
    if unknown:
        raise entry.error(f"unknown keys {sorted(unknown)}; known keys are {sorted(_KEYS)}.")
    ex_id = entry.text("id")
    entry.where = f"{where} ({ex_id!r})"
    if not re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", ex_id):
        raise entry.error("id must be lowercase words joined by hyphens, e.g. 'lecture-dcg'.")
    chapter = entry.text("chapter")
    if chapter not in CHAPTERS:
        raise entry.error(f"chapter must be one of {', '.join(CHAPTERS)}; got {chapter!r}.")
    kind = entry.text("kind")
    if kind not in KINDS:
        raise entry.error(f"kind must be one of {', '.join(KINDS)}; got {kind!r}.")
    asks = entry.text("asks", ASKS[kind][0] if len(ASKS[kind]) == 1 else None)
    if asks not in ASKS[kind]:
        raise entry.error(f"asks must be one of {', '.join(ASKS[kind])} for a {kind} exercise; got {asks!r}.")
    inputs = raw.get("inputs")
    setting = None
    labels_b = None
    if inputs is not None:
        if not isinstance(inputs, Mapping):
            raise entry.error("inputs must be a table of settings.")
        setting = _setting_from(entry, {k: v for k, v in inputs.items() if k != "labels_b"})
        if "labels_b" in inputs:
            labels_b = _labels_from(entry, inputs["labels_b"], "labels_b")
    if kind in ("numeric", "ideal", "comparison") and setting is None:
        raise entry.error(f"a {kind} exercise needs an [inputs] table.")
    if kind == "comparison" and not labels_b:
        raise entry.error("a comparison exercise needs inputs.labels_b (ranking B).")
    options = entry.strings("options")
    answer_option = None
    if kind == "concept":
        if not 2 <= len(options) <= len(LETTERS):
            raise entry.error(f"a concept exercise needs 2 to {len(LETTERS)} options; got {len(options)}.")
        letter = entry.text("answer")
        if len(letter) != 1 or letter.upper() not in LETTERS[: len(options)]:
            raise entry.error(f"answer must be one letter A to {LETTERS[len(options) - 1]}; got {letter!r}.")
        answer_option = LETTERS.index(letter.upper())
    notes = entry.strings("option_notes")
    if notes and len(notes) != len(options):
        raise entry.error(f"option_notes must have one note per option ({len(options)}); got {len(notes)}.")
    mis_raw = raw.get("option_misconceptions", [])
    if not isinstance(mis_raw, list):
        raise entry.error("option_misconceptions must be a list of misconception ids or empty texts.")
    mis = tuple(m or None for m in mis_raw)
    for m in mis:
        if m is not None and m not in MISCONCEPTIONS:
            raise entry.error(f"option_misconceptions names {m!r}, which is not a known misconception "
                              f"({', '.join(MISCONCEPTIONS)}).")
    demo = raw.get("demo")
    if demo is not None and demo not in DEMOS:
        raise entry.error(f"demo must be one of {', '.join(DEMOS)}; got {demo!r}.")
    if demo is not None and setting is None:
        raise entry.error("a demo needs an [inputs] table to compute from.")
    demo_lists_raw = raw.get("demo_lists", {})
    if not isinstance(demo_lists_raw, Mapping):
        raise entry.error("demo_lists must be a table of name = \"labels\".")
    demo_lists = tuple((name, _labels_from(entry, text, f"demo_lists.{name}")) for name, text in demo_lists_raw.items())
    precision = entry.integer("precision", 2)
    rank = entry.integer("rank")
    if kind == "numeric" and asks == "term":
        assert setting is not None
        ranks = len(setting.labels) if setting.unjudged == "zero" else sum(x is not None for x in setting.labels)
        if rank is None or rank > ranks:
            raise entry.error(f"a term exercise needs a rank between 1 and {ranks}; got {rank!r}.")
    other_gain = raw.get("other_gain")
    hints_ = entry.strings("hints")
    if kind != "code" and not hints_:
        raise entry.error("hints must hold at least one hint.")
    return Exercise(
        id=ex_id, chapter=chapter, kind=kind, title=entry.text("title"), prompt=entry.text("prompt"),
        asks=asks, setting=setting, labels_b=labels_b, rank=rank, precision=precision or 2,
        hints=hints_, options=options, answer_option=answer_option, option_notes=notes,
        option_misconceptions=mis, explanation=str(raw.get("explanation", "")), demo=demo,
        demo_lists=demo_lists, other_gain=other_gain,
    )


def load_bank(path: str | Path | None = None) -> dict[str, Exercise]:
    """Read and check the exercise bank; ids map to exercises in file order.

    Raises ValueError naming the file and the entry for a malformed entry.
    """
    if path is None:
        return dict(_default_bank())
    return _read_bank(Path(path))


@lru_cache(maxsize=1)
def _default_bank() -> tuple[tuple[str, Exercise], ...]:
    return tuple(_read_bank(BANK_PATH).items())


def _read_bank(path: Path) -> dict[str, Exercise]:
    try:
        with path.open("rb") as handle:
            raw = tomllib.load(handle)
    except FileNotFoundError:
        raise ValueError(f"exercise bank {path} does not exist.") from None
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"exercise bank {path} is not valid TOML: {err}") from None
    entries = raw.get("exercise")
    if not isinstance(entries, list) or not entries:
        raise ValueError(f"exercise bank {path} must hold [[exercise]] entries; found none.")
    bank: dict[str, Exercise] = {}
    for number, entry in enumerate(entries, start=1):
        ex = _exercise_from(entry, f"{path.name}, exercise {number}")
        if ex.id in bank:
            raise ValueError(f"{path.name}, exercise {number}: id {ex.id!r} is used twice.")
        bank[ex.id] = ex
    return bank


def resolve(exercise: str | Exercise) -> Exercise:
    """An exercise object as given, or the bank exercise with that id (see :func:`get`)."""
    if isinstance(exercise, Exercise):
        return exercise
    return get(exercise)


def get(exercise_id: str) -> Exercise:
    """The bank exercise with this id.

    >>> get("lecture-dcg").title
    'DCG@5 of the lecture example'
    """
    bank = dict(_default_bank())
    if not isinstance(exercise_id, str) or exercise_id not in bank:
        raise ValueError(
            f"exercise_id must be the id of an exercise in the bank; got {exercise_id!r}. "
            "Ids look like 'lecture-dcg'; list a chapter's exercises with for_chapter('01')."
        )
    return bank[exercise_id]


def all_exercises() -> list[Exercise]:
    """Every bank exercise, in bank order."""
    return [ex for _, ex in _default_bank()]


def for_chapter(chapter: str) -> list[Exercise]:
    """The bank exercises of one chapter (``"01"`` to ``"06"``, ``"09"``), in bank order.

    >>> [ex.id for ex in for_chapter("01")][:3]
    ['lecture-dcg', 'lecture-idcg', 'lecture-ndcg']
    """
    if chapter not in CHAPTERS:
        raise ValueError(
            f"chapter must be one of {', '.join(repr(c) for c in CHAPTERS)}; got {chapter!r}. "
            "Chapters are numbered with two digits."
        )
    return [ex for ex in all_exercises() if ex.chapter == chapter]
