r"""Exercises that check a learner's answer and name the mistake behind a wrong one.

The bank lives in ``data/exercises.toml`` (read with :mod:`tomllib`). Every number an
exercise needs (the right answer, the values common mistakes produce, the worked
solution) is computed here through ndcg_core from the stored settings; nothing
numeric is typed into the bank by hand.

>>> check("lecture-ndcg", "0,78").correct
True
>>> check("lecture-dcg", "3.51").misconception
'log-natural'

Kinds of exercise
-----------------
``numeric``     DCG@k, IDCG@k, nDCG@k, one discounted term, or the unjudged fraction;
                answered as a number (``0.78``, ``0,78``, ``78 %`` for nDCG, ``3/4``).
``ideal``       type the ideal order of the judged labels (parsed with ``parse_labels``).
``comparison``  which of two rankings scores higher, or whether the winner changes
                under the other gain; answered with a letter, a word or the option text.
``concept``     multiple choice; answered with a letter or the option text.
``code``        write ``dcg(rels, k)`` / ``ndcg(rels, k)``; :func:`check_code` runs the
                learner's *function object* (in the learner's own kernel) against a
                battery of cases. Typed text is never evaluated.

The cell pattern for ending a chapter with its exercises
--------------------------------------------------------
Chapters 01-06 end with 2-4 exercises of their chapter, using no state: one cell makes
the answer boxes, one defines the card, and one cell per exercise shows its card (so
each exercise can be a slide of its own)::

    @app.cell
    def _(mo, nc):
        chapter_answers = mo.ui.dictionary({
            _ex.id: (
                mo.ui.radio(_ex.choices, label=f"Your answer ({_ex.id})")
                if _ex.choices
                else mo.ui.text(label=f"Your answer ({_ex.id})", placeholder=_ex.placeholder, full_width=True)
            ).form(submit_button_label="Check", bordered=False)
            for _ex in map(nc.exercises.get, ("gains-exp-dcg", "gains-ratio"))
        })
        return (chapter_answers,)


    @app.cell
    def _(chapter_answers, mo, nc):
        def exercise_card(ex_id):
            card = nc.exercises.card(ex_id, chapter_answers.value[ex_id])
            return mo.vstack([
                mo.md(card.statement),
                chapter_answers[ex_id],
                mo.md("") if card.feedback is None else mo.callout(mo.md(card.feedback.message), kind=card.feedback.kind),
                mo.accordion({name: mo.md(text) for name, text in card.folded.items()}),
            ])
        return (exercise_card,)


    @app.cell
    def _(exercise_card):
        exercise_card("gains-exp-dcg")
        return

Each answer box is a ``form``: its value stays ``None`` until the learner presses
**Check**, so the feedback appears only on request; hints and the worked solution sit
in a collapsed accordion. Code exercises are left to notebook 07, where the checked
function is the notebook's own code. Notebook 07 uses the same pieces for one selected
exercise and adds the session's progress (``mo.state``).
"""

from __future__ import annotations

import html
import math
import re
import tomllib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from numbers import Real
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from ..config import IDEAL_SOURCES, NDCGConfig
from ..discounts import resolve_discount
from ..gains import parse_gain_table, resolve_gain
from ..labels import parse_labels
from ..metrics import UNJUDGED_POLICIES, breakdown, dcg, ndcg, ndcg_curve, score, unjudged_fraction
from .paths import DATA_DIR

__all__ = [
    "Exercise",
    "Feedback",
    "Setting",
    "Misconception",
    "MISCONCEPTIONS",
    "CHAPTERS",
    "KINDS",
    "BANK_PATH",
    "load_bank",
    "get",
    "all_exercises",
    "for_chapter",
    "check",
    "hints",
    "hint_items",
    "Card",
    "card",
    "statement",
    "solution",
    "expected_answer",
    "format_answer",
    "tolerance",
    "parse_number",
    "ParsedNumber",
    "mistaken_values",
    "check_code",
    "CodeCase",
    "CodeReport",
    "markdown_to_html",
]

#: Where the bank is read from (the repository's ``data/`` folder).
BANK_PATH = DATA_DIR / "exercises.toml"

CHAPTERS: dict[str, str] = {
    "01": "The lecture example",
    "02": "Gains",
    "03": "Discounts",
    "04": "The ideal list",
    "05": "Unjudged documents",
    "06": "Evaluating runs",
}

KINDS = ("numeric", "ideal", "comparison", "concept", "code")
_ASKS = {
    "numeric": ("dcg", "idcg", "ndcg", "term", "unjudged"),
    "ideal": ("ideal",),
    "comparison": ("higher", "flips"),
    "concept": ("choice",),
    "code": ("dcg-function", "ndcg-function"),
}
_QUANTITY_NAMES = {"dcg": "DCG", "idcg": "IDCG", "ndcg": "nDCG"}
_DEMOS = ("gains", "curve", "base-cancel", "condense", "ideal-sources", "lists", "configs")
MAX_ANSWER_CHARS = 200
_LETTERS = "ABCDEFGH"

# Ideal sources beyond the library's two, used only to reproduce mistakes.
_IDEAL_RUN_ORDER = "run-order"  # the ranked list, unsorted, taken as the ideal
_IDEAL_AS_LISTED = "as-listed"  # the judgments in the order they were written down


# --------------------------------------------------------------------------- settings


def _label_text(labels: Iterable[float | int | None]) -> str:
    return ", ".join("?" if x is None else f"{x:g}" for x in labels)


@dataclass(frozen=True)
class Setting:
    """Everything a computation needs: the list, the judgments and the configuration.

    ``judgments`` are all judged labels of the query; ``missed`` are the labels of
    judged documents the list did not return (the list's own judged labels are added
    to them). Give one or the other, or neither for an ideal built from the list.
    """

    labels: tuple[float | int | None, ...]
    judgments: tuple[float, ...] | None = None
    missed: tuple[float, ...] | None = None
    k: int | None = None
    gain: str = "linear"
    gain_table: tuple[tuple[float, float], ...] | None = None
    discount: str = "log2"
    base: float | None = None
    unjudged: str = "zero"
    ideal: str = "judgments"

    @property
    def all_judgments(self) -> tuple[float, ...] | None:
        """All judged labels of the query, or None when only the list is known."""
        if self.judgments is not None:
            return self.judgments
        if self.missed is not None:
            return tuple(x for x in self.labels if x is not None and x > 0) + self.missed
        return None

    @property
    def gain_arg(self) -> Any:
        return dict(self.gain_table) if self.gain == "table" and self.gain_table else self.gain

    def kwargs(self) -> dict[str, Any]:
        return {"gain": self.gain_arg, "discount": self.discount, "base": self.base}

    @property
    def ideal_judgments(self) -> tuple[float, ...] | None:
        """What the ideal list is built from under ``ideal`` ("judgments" or "list")."""
        return self.all_judgments if self.ideal == "judgments" else None

    def config(self) -> NDCGConfig:
        ideal = self.ideal if self.ideal in IDEAL_SOURCES else "judgments"
        if self.all_judgments is None:
            ideal = "list"
        return NDCGConfig(
            gain=self.gain_arg, discount=self.discount, k=self.k, base=self.base,
            unjudged=self.unjudged, ideal=ideal,
        )

    def gain_phrase(self) -> str:
        return resolve_gain(self.gain_arg).describe

    def discount_phrase(self) -> str:
        return resolve_discount(self.discount, self.base).describe


# --------------------------------------------------------------------------- exercise


class Feedback(NamedTuple):
    """The verdict on one answer.

    ``message`` is Markdown for the learner; ``misconception`` is the id of the named
    mistake (a key of :data:`MISCONCEPTIONS`) or None.
    """

    correct: bool
    message: str
    misconception: str | None

    @property
    def kind(self) -> str:
        """The callout kind a notebook shows this feedback with."""
        return "success" if self.correct else "warn"


@dataclass(frozen=True)
class Exercise:
    """One exercise: the settings it is computed from and the words around them."""

    id: str
    chapter: str
    kind: str
    title: str
    prompt: str
    asks: str
    setting: Setting | None = None
    labels_b: tuple[float | int | None, ...] | None = None
    rank: int | None = None
    precision: int = 2
    hints: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    answer_option: int | None = None
    option_notes: tuple[str, ...] = ()
    option_misconceptions: tuple[str | None, ...] = ()
    explanation: str = ""
    demo: str | None = None
    demo_lists: tuple[tuple[str, tuple[float | int | None, ...]], ...] = ()
    other_gain: str | None = None

    @property
    def choices(self) -> tuple[str, ...]:
        """Option texts for a multiple-choice answer (empty for a typed answer)."""
        if self.kind == "concept":
            return tuple(f"{_LETTERS[i]}) {text}" for i, text in enumerate(self.options))
        if self.kind == "comparison":
            return _COMPARE_OPTIONS[self.asks]
        return ()

    @property
    def placeholder(self) -> str:
        """An example of the expected answer form (not the answer)."""
        if self.kind == "ideal":
            return "e.g. 3, 2, 0"
        if self.kind == "numeric":
            return "e.g. 78 % or 0.78" if self.asks == "ndcg" else "e.g. 1.23"
        return ""

    @property
    def quantity(self) -> str:
        """The asked quantity as a learner reads it, e.g. ``nDCG@5``."""
        if self.asks in _QUANTITY_NAMES:
            assert self.setting is not None
            name = _QUANTITY_NAMES[self.asks]
            return name if self.setting.k is None else f"{name}@{self.setting.k}"
        if self.asks == "term":
            return f"the discounted gain at rank {self.rank}"
        if self.asks == "unjudged":
            assert self.setting is not None
            return "the unjudged fraction" + ("" if self.setting.k is None else f" in the top {self.setting.k}")
        return self.title


_COMPARE_OPTIONS = {
    "higher": ("Ranking A", "Ranking B", "Both score the same"),
    "flips": ("Yes, the other ranking wins", "No, the same ranking wins"),
}


# --------------------------------------------------------------------------- misconceptions


@dataclass(frozen=True)
class Misconception:
    """A common mistake: how it is named to the learner and the hint that fixes it."""

    id: str
    name: str
    hint: str


MISCONCEPTIONS: dict[str, Misconception] = {
    m.id: m
    for m in (
        Misconception(
            "gain-exponential-for-linear",
            "exponential gain 2^l - 1 where this exercise uses linear gain g(l) = l",
            "With linear gain a label is worth itself: label 2 gives gain 2, not 3.",
        ),
        Misconception(
            "gain-linear-for-exponential",
            "linear gain g(l) = l where this exercise uses exponential gain 2^l - 1",
            "With exponential gain label l is worth 2^l - 1: labels 0, 1, 2, 3 give 0, 1, 3, 7.",
        ),
        Misconception(
            "log-natural",
            "the natural logarithm ln in the discount",
            "The discount uses log base 2. On a calculator without a log2 key, "
            "log2(x) = ln(x) / ln(2): for example log2(5) = 1.6094 / 0.6931 = 2.3219.",
        ),
        Misconception(
            "log-base10",
            "the base-10 logarithm in the discount",
            "The discount uses log base 2, not the calculator's log key (base 10). "
            "log2(x) = log10(x) / log10(2): for example log2(5) = 0.6990 / 0.3010 = 2.3219.",
        ),
        Misconception(
            "discount-log2-i",
            "the discount 1/log2(i) with rank 1 undiscounted (the Järvelin–Kekäläinen form)",
            "The lecture's discount is 1/log2(i+1), with the rank i counted from 1: rank 1 gets "
            "1/log2(2) = 1, rank 2 gets 1/log2(3) = 0.63, rank 3 gets 1/log2(4) = 0.5.",
        ),
        Misconception(
            "rank-shift",
            "every rank shifted by one (1/log2(i+2): rank 1 discounted like rank 2)",
            "Count ranks from 1 and use 1/log2(i+1): rank 1 keeps its full gain. "
            "The exam code writes log2(i + 2) only because its loop index i starts at 0.",
        ),
        Misconception(
            "unjudged-policy",
            "the other treatment of unjudged documents",
            "Read the unjudged policy: 'gain 0' keeps each ? in its place with gain 0; "
            "'condensed' removes the ? documents first, so the documents after them move up.",
        ),
        Misconception(
            "ideal-from-run",
            "an ideal list built only from the labels in the ranked list",
            "The ideal list holds every judged relevant document of the query, including the "
            "ones the list missed; sort them all by gain.",
        ),
        Misconception(
            "ideal-unsorted",
            "an unsorted ideal list",
            "Sort the judged labels by gain, largest first, before computing the ideal DCG.",
        ),
        Misconception(
            "cutoff-off-by-one",
            "one rank too many or too few",
            "Sum exactly the ranks 1 to k, for the ranked list and for the ideal list.",
        ),
        Misconception(
            "no-normalisation",
            "DCG without normalisation",
            "nDCG is DCG divided by the ideal DCG at the same cutoff; the result lies between 0 and 1.",
        ),
        Misconception(
            "ratio-inverted",
            "the ratio turned upside down (IDCG / DCG)",
            "nDCG = DCG / IDCG: the ranking's own DCG goes on top.",
        ),
        Misconception(
            "discount-other",
            "a different discount",
            "Check which discount the exercise names and use it at every rank.",
        ),
        Misconception(
            "rounded-early",
            "terms rounded before adding them",
            "Keep four or more decimals in every term and round only the final answer.",
        ),
        Misconception(
            "truncated",
            "digits cut off instead of rounded",
            "Round to the asked number of decimals: look at the next digit and round up from 5.",
        ),
        Misconception(
            "too-few-decimals",
            "fewer decimals than asked",
            "Give the answer to the number of decimals the exercise asks for.",
        ),
        Misconception(
            "ideal-ascending",
            "the ideal list sorted from smallest to largest",
            "The ideal ranking puts the most valuable document first: sort by gain, largest first.",
        ),
    )
}


class _Variant(NamedTuple):
    misconception: str
    detail: str
    setting: Setting
    asks: str
    rounding: int | None = None


def _discount_name(discount: str, base: float | None) -> str:
    return resolve_discount(discount, base).describe


def _variants(setting: Setting, asks: str, precision: int) -> list[_Variant]:
    """Each common mistake, as the setting and quantity it really computes."""
    out: list[_Variant] = []
    add = out.append
    if setting.gain == "linear":
        add(_Variant("gain-exponential-for-linear", "", replace(setting, gain="exponential"), asks))
    elif setting.gain == "exponential":
        add(_Variant("gain-linear-for-exponential", "", replace(setting, gain="linear"), asks))

    specific: set[tuple[str, float | None]] = {(setting.discount, setting.base)}
    if setting.discount in ("log2", "log"):
        base = 2.0 if setting.discount == "log2" else setting.base
        if base != math.e:
            add(_Variant("log-natural", "", replace(setting, discount="log", base=math.e), asks))
        if base != 10:
            add(_Variant("log-base10", "", replace(setting, discount="log", base=10.0), asks))
        specific |= {("log", math.e), ("log", 10.0)}
    if setting.discount == "log2":
        add(_Variant("discount-log2-i", "", replace(setting, discount="jarvelin_kekalainen", base=2.0), asks))
        add(_Variant("rank-shift", "", replace(setting, discount="log2_shifted", base=None), asks))
        specific |= {("jarvelin_kekalainen", 2.0), ("log2_shifted", None)}
    for name, base in (("log2", None), ("log2_shifted", None), ("reciprocal", None),
                       ("jarvelin_kekalainen", 2.0), ("none", None)):
        if (name, base) not in specific:
            add(_Variant("discount-other", _discount_name(name, base),
                         replace(setting, discount=name, base=base), asks))

    if any(x is None for x in setting.labels):
        other = "condense" if setting.unjudged == "zero" else "zero"
        detail = ("unjudged documents removed before ranking" if other == "condense"
                  else "unjudged documents kept in place with gain 0")
        add(_Variant("unjudged-policy", detail, replace(setting, unjudged=other), asks))

    if asks in ("idcg", "ndcg"):
        if setting.ideal == "judgments" and setting.all_judgments is not None:
            add(_Variant("ideal-from-run", "", replace(setting, ideal="list"), asks))
        add(_Variant("ideal-unsorted", "the ranked list in its own order",
                     replace(setting, ideal=_IDEAL_RUN_ORDER), asks))
        if setting.ideal == "judgments" and setting.judgments is not None:
            add(_Variant("ideal-unsorted", "the judgments in the order they were listed",
                         replace(setting, ideal=_IDEAL_AS_LISTED), asks))
    if setting.k is not None and asks in ("dcg", "idcg", "ndcg", "unjudged"):
        if setting.k > 1:
            add(_Variant("cutoff-off-by-one", f"k = {setting.k - 1}", replace(setting, k=setting.k - 1), asks))
        add(_Variant("cutoff-off-by-one", f"k = {setting.k + 1}", replace(setting, k=setting.k + 1), asks))
    if asks == "ndcg":
        add(_Variant("no-normalisation", "", setting, "dcg"))
        add(_Variant("ratio-inverted", "", setting, "inverse"))
    if asks in ("dcg", "idcg", "ndcg"):
        add(_Variant("rounded-early", f"each term rounded to {precision} decimals", setting, asks, precision))
    return out


# --------------------------------------------------------------------------- computing


def _sums(setting: Setting, rounding: int | None) -> tuple[float, float]:
    """DCG@k and IDCG@k of a setting (optionally from terms rounded to ``rounding`` decimals)."""
    kw = setting.kwargs()
    if setting.ideal in (_IDEAL_RUN_ORDER, _IDEAL_AS_LISTED):
        top = dcg(list(setting.labels), setting.k, unjudged=setting.unjudged, **kw)
        if setting.ideal == _IDEAL_RUN_ORDER:
            best = top
        else:
            best = dcg(list(setting.judgments or ()), setting.k, **kw)
        return top, best
    if rounding is None:
        s = score(list(setting.labels), setting.k, judgments=setting.ideal_judgments,
                  unjudged=setting.unjudged, **kw)
        return s.dcg, s.idcg
    table = breakdown(list(setting.labels), setting.k, judgments=setting.ideal_judgments,
                      unjudged=setting.unjudged, **kw)
    top = sum(round(float(x), rounding) for x in table["discounted_gain"])
    best = sum(round(float(x), rounding) for x in table["ideal_discounted_gain"])
    return round(top, rounding), round(best, rounding)


def _quantity(setting: Setting, asks: str, rank: int | None = None, rounding: int | None = None) -> float:
    """The value of ``asks`` under ``setting``, computed through ndcg_core."""
    if asks == "unjudged":
        return unjudged_fraction(list(setting.labels), setting.k)
    if asks == "term":
        assert rank is not None
        table = breakdown(list(setting.labels), rank, judgments=setting.ideal_judgments,
                          unjudged=setting.unjudged, **setting.kwargs())
        return float(table["discounted_gain"].iloc[rank - 1])
    if asks == "ndcg" and rounding is None and setting.ideal in IDEAL_SOURCES:
        return ndcg(list(setting.labels), setting.k, judgments=setting.ideal_judgments,
                    unjudged=setting.unjudged, **setting.kwargs())
    top, best = _sums(setting, rounding)
    if asks == "dcg":
        return top
    if asks == "idcg":
        return best
    if asks == "ndcg":
        return top / best if best > 0 else 0.0
    if asks == "inverse":
        return best / top if top > 0 else math.nan
    raise ValueError(f"asks must be one of {', '.join(_ASKS['numeric'])}; got {asks!r}.")


def tolerance(precision: int) -> float:
    """Half a unit of the last asked decimal, plus a small epsilon for float noise.

    >>> round(tolerance(2), 9)
    0.005000001
    """
    return 0.5 * 10.0 ** -precision + 1e-9


def _winner(setting: Setting, labels_b: Sequence[float | int | None]) -> str:
    a = _quantity(setting, "ndcg")
    b = _quantity(replace(setting, labels=tuple(labels_b)), "ndcg")
    if math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12):
        return "same"
    return "A" if a > b else "B"


def _ideal_labels(setting: Setting) -> list[float]:
    """The ideal order of the judged labels (by gain, largest first), zeros left out."""
    source = setting.all_judgments if setting.all_judgments is not None else tuple(
        x for x in setting.labels if x is not None)
    table = breakdown(list(source), None, judgments=list(source), **setting.kwargs())
    return [float(x) for x, g in zip(table["ideal_label"], table["ideal_gain"]) if g > 0]


def expected_answer(exercise: str | Exercise) -> Any:
    """The right answer, computed from the stored settings.

    A float for numeric exercises, a list of labels for ideal-order exercises, the
    option text for comparison and concept exercises, None for code exercises.

    >>> round(expected_answer("lecture-ndcg"), 4)
    0.7763
    >>> expected_answer("lecture-ideal")
    [2.0, 1.0, 1.0]
    """
    ex = _resolve(exercise)
    if ex.kind == "numeric":
        assert ex.setting is not None
        return _quantity(ex.setting, ex.asks, ex.rank)
    if ex.kind == "ideal":
        assert ex.setting is not None
        return _ideal_labels(ex.setting)
    if ex.kind == "comparison":
        assert ex.setting is not None and ex.labels_b is not None
        options = _COMPARE_OPTIONS[ex.asks]
        if ex.asks == "higher":
            return options[{"A": 0, "B": 1, "same": 2}[_winner(ex.setting, ex.labels_b)]]
        flipped = _winner(ex.setting, ex.labels_b) != _winner(
            replace(ex.setting, gain=ex.other_gain or "exponential"), ex.labels_b)
        return options[0] if flipped else options[1]
    if ex.kind == "concept":
        assert ex.answer_option is not None
        return ex.choices[ex.answer_option]
    return None


def format_answer(exercise: str | Exercise) -> str:
    """The right answer as a learner would write it (to the asked precision)."""
    ex = _resolve(exercise)
    value = expected_answer(ex)
    if ex.kind == "numeric":
        return f"{value:.{ex.precision}f}"
    if ex.kind == "ideal":
        return _label_text(_tidy(x) for x in value)
    if value is None:
        return "(checked by running your code)"
    return str(value)


def _tidy(x: float | int | None) -> float | int | None:
    return int(x) if isinstance(x, float) and x.is_integer() else x


def mistaken_values(exercise: str | Exercise) -> dict[str, list[float]]:
    """What each common mistake gives for a numeric exercise (misconception id -> values).

    Only mistakes whose value differs from the right one by more than the tolerance are
    listed: the others cannot be told apart from a right answer.

    >>> round(mistaken_values("lecture-dcg")["log-natural"][0], 4)
    3.5067
    """
    ex = _resolve(exercise)
    if ex.kind != "numeric":
        return {}
    assert ex.setting is not None
    right = expected_answer(ex)
    tol = tolerance(ex.precision)
    out: dict[str, list[float]] = {}
    for v in _variants(ex.setting, ex.asks, ex.precision):
        value = _safe_quantity(v, ex.rank)
        if value is not None and abs(value - right) > tol:
            out.setdefault(v.misconception, []).append(value)
    return out


def _safe_quantity(v: _Variant, rank: int | None) -> float | None:
    """A variant's value, or None when the mistake cannot be computed here (e.g. 0/0)."""
    try:
        value = _quantity(v.setting, v.asks, rank, v.rounding)
    except (TypeError, ValueError, ZeroDivisionError):
        return None
    return value if math.isfinite(value) else None


# --------------------------------------------------------------------------- parsing answers

_NUMBER = r"[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)"
_PLAIN = re.compile(rf"(?:≈|~|=)?\s*({_NUMBER})\s*(%)?")
_FRACTION = re.compile(rf"({_NUMBER})\s*/\s*({_NUMBER})")


class ParsedNumber(NamedTuple):
    """A typed number: its value (a percentage already divided by 100), how many
    decimals it was given with (None for a fraction, which is exact), and whether it
    was typed as a percentage."""

    value: float
    decimals: int | None
    percent: bool


def _number(token: str) -> tuple[float, int]:
    token = token.replace(",", ".")
    decimals = len(token.split(".", 1)[1]) if "." in token else 0
    return float(token), decimals


def parse_number(text: str, *, percent_allowed: bool = False) -> ParsedNumber:
    """Read a number as a student types it; never evaluates the text.

    Accepted: ``0.78``, ``0,78`` (decimal comma), `` 2.43 ``, ``≈ 2.43``, ``3/4`` and,
    where ``percent_allowed``, ``78 %`` or ``78%``.

    >>> parse_number(" 0,78 ")
    ParsedNumber(value=0.78, decimals=2, percent=False)
    >>> parse_number("78 %", percent_allowed=True).value
    0.78
    >>> parse_number("3/4").value
    0.75

    Raises
    ------
    TypeError
        If ``text`` is not a string.
    ValueError
        For anything else, with a message saying what form is expected.
    """
    if not isinstance(text, str):
        raise TypeError(f"answer must be text; got {text!r} ({type(text).__name__}).")
    cleaned = text.strip().replace("\u2212", "-").replace("\u00a0", " ")
    forms = "a decimal number such as 0.78 (a decimal comma works too: 0,78) or a fraction such as 3/4"
    if percent_allowed:
        forms = "a decimal number such as 0.78 (or 0,78), a percentage such as 78 %, or a fraction such as 3/4"
    if not cleaned:
        raise ValueError(f"the answer is empty. Type {forms}.")
    shown = cleaned if len(cleaned) <= 40 else cleaned[:37] + "..."
    if len(cleaned) > MAX_ANSWER_CHARS:
        raise ValueError(f"the answer is {len(cleaned)} characters long; type just the number: {forms}.")
    if "," in cleaned and "." in cleaned:
        raise ValueError(
            f"the answer {shown!r} mixes a decimal point and a decimal comma. Use one of them: "
            "0.78 or 0,78 (no thousands separators)."
        )
    fraction = _FRACTION.fullmatch(cleaned)
    if fraction:
        top, _ = _number(fraction.group(1))
        bottom, _ = _number(fraction.group(2))
        if bottom == 0:
            raise ValueError(f"the fraction {shown!r} divides by zero. Type {forms}.")
        return ParsedNumber(top / bottom, None, False)
    plain = _PLAIN.fullmatch(cleaned)
    if not plain:
        raise ValueError(f"the answer {shown!r} is not a number I can read. Type {forms}.")
    value, decimals = _number(plain.group(1))
    if plain.group(2):
        if not percent_allowed:
            raise ValueError(
                f"the answer {shown!r} is a percentage, but only nDCG (a fraction between 0 and 1) "
                "can be given in percent. Type this value as a plain number such as 2.43."
            )
        return ParsedNumber(value / 100.0, decimals + 2, True)
    return ParsedNumber(value, decimals, False)


def _choice_index(text: str, options: Sequence[str], synonyms: Mapping[str, int] | None = None) -> int:
    """A letter (``b``, ``B)``, ``(b)``), a listed word, or the option's text -> its index."""
    if not isinstance(text, str):
        raise TypeError(f"answer must be text; got {text!r} ({type(text).__name__}).")
    letters = _LETTERS[: len(options)]
    expected = (f"Answer with one letter, {letters[0]} to {letters[-1]}, or copy the text of the option"
                if len(options) > 2 else "Answer with one of the options")
    cleaned = " ".join(text.strip().split())
    if not cleaned:
        raise ValueError(f"the answer is empty. {expected}.")
    if len(cleaned) > 2 * MAX_ANSWER_CHARS:
        raise ValueError(f"the answer is {len(cleaned)} characters long. {expected}.")
    lowered = cleaned.lower().rstrip(".")
    letter = re.fullmatch(r"(?:option\s+)?\(?([a-h])[).:]?", lowered)
    if letter and letter.group(1).upper() in letters:
        return letters.index(letter.group(1).upper())
    for i, option in enumerate(options):
        full = " ".join(option.lower().split()).rstrip(".")
        bare = re.sub(r"^[a-h]\)\s*", "", full)
        if lowered in (full, bare):
            return i
    if synonyms and lowered in synonyms:
        return synonyms[lowered]
    shown = cleaned if len(cleaned) <= 40 else cleaned[:37] + "..."
    listed = "; ".join(f"{letters[i]}) {o}" if not o.startswith(f"{letters[i]})") else o
                       for i, o in enumerate(options))
    raise ValueError(f"the answer {shown!r} is not one of the options ({listed}). {expected}.")


_COMPARE_SYNONYMS = {
    "higher": {"a": 0, "ranking a": 0, "list a": 0, "b": 1, "ranking b": 1, "list b": 1,
               "same": 2, "equal": 2, "the same": 2, "tie": 2, "both": 2, "=": 2, "c": 2},
    "flips": {"yes": 0, "y": 0, "changes": 0, "yes it changes": 0,
              "no": 1, "n": 1, "same": 1, "no it stays": 1},
}


# --------------------------------------------------------------------------- checking


def check(exercise_id: str | Exercise, answer_text: str) -> Feedback:
    """Check a learner's typed answer; name the mistake behind a wrong one where it can.

    Parameters
    ----------
    exercise_id : str or Exercise
        An id from the bank (``"lecture-dcg"``) or an exercise object (exam problems).
    answer_text : str
        What the learner typed, as typed.

    Examples
    --------
    >>> check("lecture-dcg", " 2.43 ").correct
    True
    >>> fb = check("lecture-ndcg", "2.43")
    >>> fb.correct, fb.misconception
    (False, 'no-normalisation')
    >>> check("lecture-ndcg", "seventy").misconception is None
    True
    """
    ex = _resolve(exercise_id)
    if ex.kind == "numeric":
        return _check_numeric(ex, answer_text)
    if ex.kind == "ideal":
        return _check_ideal(ex, answer_text)
    if ex.kind == "comparison":
        return _check_comparison(ex, answer_text)
    if ex.kind == "concept":
        return _check_concept(ex, answer_text)
    return Feedback(
        False,
        f"**{ex.title}** is a code exercise: write `def {ex.asks.split('-')[0]}(rels, k)` in a cell "
        "of notebook 07 opened for editing (`ndcg-lab edit`) and the notebook runs the checker on "
        "your function. Typed text is never run.",
        None,
    )


def _readable(value: float, decimals: int | None) -> str:
    if decimals is None:
        return f"{value:.4f}".rstrip("0").rstrip(".")
    return f"{value:.{max(decimals, 0)}f}"


def _check_numeric(ex: Exercise, answer_text: str) -> Feedback:
    assert ex.setting is not None
    try:
        parsed = parse_number(answer_text, percent_allowed=ex.asks == "ndcg")
    except (TypeError, ValueError) as err:
        return Feedback(False, _sentence(str(err)), None)
    right = float(expected_answer(ex))
    tol = tolerance(ex.precision)
    value = parsed.value
    typed = f"{value * 100:.{max((parsed.decimals or 2) - 2, 0)}f} %" if parsed.percent else _readable(
        value, parsed.decimals)
    what = ex.quantity
    if abs(value - right) <= tol:
        return Feedback(
            True,
            f"Right: {what} = {_fmt(right)}, which is {right:.{ex.precision}f} to {ex.precision} "
            f"decimal{'s' if ex.precision != 1 else ''}.",
            None,
        )
    if ex.asks == "ndcg" and not parsed.percent and 1 < value <= 100 and abs(value / 100 - right) <= tol:
        return Feedback(
            False,
            f"nDCG lies between 0 and 1, and {typed} does not. If you meant a percentage, type "
            f"{typed} %, or write it as a fraction such as {value / 100:.{ex.precision}f}.",
            None,
        )
    matches = _diagnose(ex, value, right, tol)
    if matches:
        first = matches[0]
        m = MISCONCEPTIONS[first.misconception]
        others = []
        for v in matches[1:]:
            if v.misconception != first.misconception and v.misconception not in others:
                others.append(v.misconception)
        also = ""
        if others:
            also = " (The same number also comes from " + " or from ".join(
                MISCONCEPTIONS[o].name for o in others[:2]) + ".)"
        return Feedback(
            False,
            f"Not quite: {typed} is what {what} comes to with {_variant_name(first)}. {m.hint}{also}",
            m.id,
        )
    if parsed.decimals is not None and 1 <= parsed.decimals < ex.precision and abs(value - right) <= tolerance(parsed.decimals):
        m = MISCONCEPTIONS["too-few-decimals"]
        return Feedback(
            False,
            f"Nearly: {typed} is right to {parsed.decimals} decimal{'s' if parsed.decimals != 1 else ''}, "
            f"but the exercise asks for {ex.precision}. {m.hint}",
            m.id,
        )
    factor = 10 ** ex.precision
    truncated = math.trunc(right * factor) / factor
    if abs(value - truncated) <= 1e-9 and abs(truncated - right) > tol:
        m = MISCONCEPTIONS["truncated"]
        return Feedback(False, f"Nearly: {typed} has the right digits but they were cut off, not rounded. {m.hint}", m.id)
    return Feedback(
        False,
        f"Not right: {typed} is not {what} here, and it matches none of the usual mistakes. "
        "Work through the ranks one by one (gain, then discount, then the product); the hints help.",
        None,
    )


def _diagnose(ex: Exercise, value: float, right: float, tol: float) -> list[_Variant]:
    """The common mistakes whose value the answer matches (and the right value does not),
    closest first; ties go to the order of :data:`MISCONCEPTIONS`."""
    assert ex.setting is not None
    priority = list(MISCONCEPTIONS)
    found: list[tuple[float, int, int, _Variant]] = []
    for order, variant in enumerate(_variants(ex.setting, ex.asks, ex.precision)):
        mistaken = _safe_quantity(variant, ex.rank)
        if mistaken is None or abs(mistaken - right) <= tol:
            continue
        distance = abs(value - mistaken)
        if distance <= tol:
            found.append((round(distance, 9), priority.index(variant.misconception), order, variant))
    return [v for *_, v in sorted(found, key=lambda f: f[:3])]


def _variant_name(variant: _Variant) -> str:
    m = MISCONCEPTIONS[variant.misconception]
    if not variant.detail:
        return m.name
    return f"{m.name}: {variant.detail}" if variant.misconception == "discount-other" else f"{m.name} ({variant.detail})"


def _sentence(message: str) -> str:
    return message[:1].upper() + message[1:]


def _check_ideal(ex: Exercise, answer_text: str) -> Feedback:
    assert ex.setting is not None
    if not isinstance(answer_text, str) or not answer_text.strip():
        return Feedback(False, "Type the ideal order as labels separated by commas, e.g. 3, 2, 0.", None)
    if len(answer_text) > MAX_ANSWER_CHARS:
        return Feedback(False, f"The answer is {len(answer_text)} characters long; type just the labels, e.g. 3, 2, 0.", None)
    try:
        typed = parse_labels(answer_text)
    except (TypeError, ValueError) as err:
        return Feedback(False, _sentence(str(err)), None)
    if any(x is None for x in typed):
        return Feedback(False, "The ideal list holds judged documents only: leave out the ? (unjudged) entries.", None)
    answer = [float(x) for x in typed]  # type: ignore[arg-type]
    while answer and answer[-1] == 0:
        answer.pop()
    right = _ideal_labels(ex.setting)
    gain = resolve_gain(ex.setting.gain_arg)

    def gains(xs: Sequence[float]) -> list[float]:
        return [float(g) for g in gain(_array(xs))] if xs else []

    shown = _label_text(_tidy(x) for x in answer) or "only zeros"
    relevant = [x for x in answer if x > 0]
    inner_zero = len(relevant) != len(answer)
    same_labels = Counter(relevant) == Counter(right)
    if same_labels and not inner_zero and gains(relevant) == gains(right):
        return Feedback(True, f"Right: the ideal order is {_label_text(_tidy(x) for x in right)}, then the zeros.", None)
    if same_labels and inner_zero and gains(relevant) == gains(right):
        return Feedback(False, f"Not quite: {shown} has a 0 before a relevant label. In the ideal ranking every "
                               "relevant document comes before the non-relevant ones.", None)
    run_relevant = [float(x) for x in ex.setting.labels if x is not None and x > 0]
    as_given = [float(x) for x in (ex.setting.judgments or ()) if x > 0]
    if relevant == run_relevant and relevant != right:
        m = MISCONCEPTIONS["ideal-unsorted"]
        return Feedback(False, f"Not quite: {shown} is the ranked list in its own order, not the ideal one. {m.hint}", m.id)
    if relevant == sorted(run_relevant, reverse=True) and not same_labels:
        m = MISCONCEPTIONS["ideal-from-run"]
        return Feedback(False, f"Not quite: {shown} uses only the labels in the ranked list. {m.hint}", m.id)
    if same_labels and relevant == as_given:
        m = MISCONCEPTIONS["ideal-unsorted"]
        return Feedback(False, f"Not quite: {shown} is the judgments in the order they were given. {m.hint}", m.id)
    if same_labels and len(relevant) > 1 and gains(relevant) == sorted(gains(right)):
        m = MISCONCEPTIONS["ideal-ascending"]
        return Feedback(False, f"Not quite: {shown} runs from the smallest label to the largest. {m.hint}", m.id)
    if same_labels:
        m = MISCONCEPTIONS["ideal-unsorted"]
        return Feedback(False, f"Not quite: {shown} has the right labels, but not sorted by gain. {m.hint}", m.id)
    have, want = Counter(relevant), Counter(right)
    for label in sorted(set(have) | set(want), reverse=True):
        if have[label] != want[label]:
            return Feedback(
                False,
                f"Not right: your list has {have[label]} document(s) with label {label:g}, but the query has "
                f"{want[label]} judged document(s) with that label (count the ranked list and the missed ones). "
                "The ideal list holds every judged relevant document exactly once.",
                None,
            )
    return Feedback(False, f"Not right: {shown} is not the ideal order.", None)


def _array(xs: Sequence[float]) -> np.ndarray:
    return np.asarray(xs, dtype=float)


def _check_comparison(ex: Exercise, answer_text: str) -> Feedback:
    assert ex.setting is not None and ex.labels_b is not None
    options = _COMPARE_OPTIONS[ex.asks]
    try:
        index = _choice_index(answer_text, options, _COMPARE_SYNONYMS[ex.asks])
    except (TypeError, ValueError) as err:
        return Feedback(False, _sentence(str(err)), None)
    right = expected_answer(ex)
    chosen = options[index]
    a = _quantity(ex.setting, "ndcg")
    b = _quantity(replace(ex.setting, labels=ex.labels_b), "ndcg")
    name = "nDCG" if ex.setting.k is None else f"nDCG@{ex.setting.k}"
    numbers = f"{name} of A = {_fmt(a)}, of B = {_fmt(b)}"
    if chosen == right:
        if ex.asks == "flips":
            other = replace(ex.setting, gain=ex.other_gain or "exponential")
            a2 = _quantity(other, "ndcg")
            b2 = _quantity(replace(other, labels=ex.labels_b), "ndcg")
            numbers += f"; with {other.gain} gain A = {_fmt(a2)}, B = {_fmt(b2)}"
        return Feedback(True, f"Right: {numbers}.", None)
    if ex.asks == "higher":
        picked = {0: "A", 1: "B", 2: "same"}[index]
        for variant in _variants(ex.setting, "ndcg", ex.precision):
            if variant.asks != "ndcg" or variant.rounding is not None:
                continue
            try:
                if _winner(variant.setting, ex.labels_b) == picked:
                    m = MISCONCEPTIONS[variant.misconception]
                    return Feedback(False, f"Not quite: that would be the answer with {_variant_name(variant)}. "
                                           f"{m.hint}", m.id)
            except (TypeError, ValueError):
                continue
    return Feedback(False, "Not right. Compute nDCG of both rankings under the stated configuration and compare; the hints help.", None)


def _check_concept(ex: Exercise, answer_text: str) -> Feedback:
    try:
        index = _choice_index(answer_text, ex.choices)
    except (TypeError, ValueError) as err:
        return Feedback(False, _sentence(str(err)), None)
    note = ex.option_notes[index] if index < len(ex.option_notes) else ""
    if index == ex.answer_option:
        return Feedback(True, f"Right. {note}".strip(), None)
    misconception = ex.option_misconceptions[index] if index < len(ex.option_misconceptions) else None
    return Feedback(False, f"Not quite. {note}".strip(), misconception)


# --------------------------------------------------------------------------- statement & solution


def _fmt(x: float) -> str:
    """A number for a worked solution: up to four decimals, no trailing zeros."""
    if x != x:
        return "undefined"
    text = f"{x:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _base_text(base: float) -> str:
    return "e" if base == math.e else f"{base:g}"


def _log_text(base: float, x: float) -> str:
    if base == 2:
        return f"log2({x:g})"
    if base == 10:
        return f"log10({x:g})"
    if base == math.e:
        return f"ln({x:g})"
    return f"log_{_base_text(base)}({x:g})"


def _discount_text(setting: Setting, rank: int) -> str:
    """The discount at one rank as a learner writes it, e.g. ``1/log2(4)``."""
    name, base = setting.discount, setting.base
    if name == "log2":
        return f"1/log2({rank + 1})"
    if name == "log2_shifted":
        return f"1/log2({rank + 2})"
    if name == "reciprocal":
        return f"1/{rank}"
    if name == "log":
        return f"1/{_log_text(base or 2.0, rank + 1)}"
    if name == "jarvelin_kekalainen":
        b = base or 2.0
        return "1" if rank < b else f"1/{_log_text(b, rank)}"
    return "1"


def _gain_text(setting: Setting, label: float, gain: float) -> str:
    if setting.gain == "exponential":
        return f"2^{label:g} - 1 = {_fmt(gain)}"
    if setting.gain == "table":
        return f"g({label:g}) = {_fmt(gain)}"
    return _fmt(gain)


def _term_text(setting: Setting, gain: float, rank: int) -> str:
    d = _discount_text(setting, rank)
    if d == "1":
        return _fmt(gain)
    return f"{_fmt(gain)}{d[1:]}" if d.startswith("1/") else f"{_fmt(gain)}·{d}"


def _given_lines(ex: Exercise) -> list[str]:
    s = ex.setting
    assert s is not None
    lines = []
    if ex.kind == "comparison":
        lines.append(f"Ranking A (rank 1 first): `{_label_text(s.labels)}`")
        lines.append(f"Ranking B (rank 1 first): `{_label_text(ex.labels_b or ())}`")
    else:
        lines.append(f"Ranked list (rank 1 first): `{_label_text(s.labels)}`")
    if s.judgments is not None:
        positive = [x for x in s.judgments if x > 0]
        lines.append(f"Relevant judgments of the query (all of them, in no particular order): `{_label_text(positive)}`")
    elif s.missed is not None:
        lines.append(
            "Judged relevant documents the list missed: "
            + (f"`{_label_text(s.missed)}`" if s.missed else "none")
        )
    if ex.asks in ("dcg", "idcg", "ndcg", "unjudged", "higher", "flips", "ideal") and s.k is not None:
        lines.append(f"Cutoff: k = {s.k}")
    if ex.asks not in ("unjudged", "ideal"):
        lines.append(f"Configuration: {s.gain_phrase()}, {s.discount_phrase()}")
    elif ex.asks == "ideal" and s.gain != "linear":
        lines.append(f"Gain: {s.gain_phrase()}")
    if any(x is None for x in s.labels) and ex.asks != "unjudged":
        lines.append(
            "Unjudged documents (`?`): "
            + ("scored as gain 0, in place" if s.unjudged == "zero" else "removed before ranking (condensed list)")
        )
    if ex.asks in ("idcg", "ndcg", "higher", "flips") and (s.ideal == "list" or s.all_judgments is None):
        lines.append("Ideal list: built from the ranked list's own labels (the exam shortcut)")
    return lines


def statement(exercise: str | Exercise, *, with_options: bool = True) -> str:
    """The exercise as Markdown: the question, then the given data (generated).

    ``with_options=False`` leaves out a concept exercise's lettered options (for a
    notebook that shows them as radio buttons).
    """
    ex = _resolve(exercise)
    parts = [ex.prompt.strip()]
    if ex.setting is not None and ex.kind != "concept":
        parts.append("\n".join(f"- {line}" for line in _given_lines(ex)))
    if ex.kind == "numeric":
        unit = " (a percentage such as 78 % is fine too)" if ex.asks == "ndcg" else ""
        parts.append(f"Give {ex.quantity} to {ex.precision} decimal{'s' if ex.precision != 1 else ''}{unit}.")
    if ex.kind == "concept" and with_options:
        parts.append("\n".join(f"- {c}" for c in ex.choices))
    return "\n\n".join(parts)


def hints(exercise: str | Exercise) -> list[str]:
    """The exercise's hints, mildest first."""
    return list(_resolve(exercise).hints)


def hint_items(exercise: str | Exercise) -> dict[str, str]:
    """Hints keyed ``"Hint 1"``, ``"Hint 2"``, ... (ready for an accordion)."""
    return {f"Hint {i}": text for i, text in enumerate(hints(exercise), start=1)}


class Card(NamedTuple):
    """What a chapter shows for one exercise, as Markdown (see the cell pattern above).

    ``statement`` is a heading with the title, then the question (a multiple-choice
    exercise's options are left out: the answer box shows them); ``feedback`` is None
    until an answer was submitted; ``folded`` holds the hints and the worked solution.
    """

    statement: str
    feedback: Feedback | None
    folded: dict[str, str]


def card(exercise: str | Exercise, answer: str | None) -> Card:
    """The parts of one exercise's card; ``answer`` is the submitted text or None.

    >>> card("lecture-ndcg", None).feedback is None
    True
    >>> card("lecture-ndcg", "0,78").feedback.correct
    True
    >>> list(card("lecture-ndcg", None).folded)[-1]
    'Worked solution'
    """
    ex = _resolve(exercise)
    heading = f"### {ex.title}\n\n" + statement(ex, with_options=not ex.choices)
    feedback = None if answer is None else check(ex, answer)
    return Card(heading, feedback, {**hint_items(ex), "Worked solution": solution(ex)})


def _table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + ":---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _run_rows(s: Setting, upto: int | None) -> tuple[str, list[str], float]:
    """The per-rank table of the ranked list, the term texts, and DCG@k."""
    table = breakdown(list(s.labels), upto, judgments=s.ideal_judgments, unjudged=s.unjudged, **s.kwargs())
    inside = table[table["status"] != "past end"]
    rows, terms = [], []
    for r in inside.itertuples(index=False):
        rank = int(r.rank)
        label = "?" if r.status == "unjudged" else f"{r.label:g}"
        gain = "0 (unjudged)" if r.status == "unjudged" else _gain_text(s, float(r.label), float(r.gain))
        rows.append([str(rank), label, gain, f"{_discount_text(s, rank)} = {_fmt(float(r.discount))}",
                     _fmt(float(r.discounted_gain)), _fmt(float(r.dcg))])
        terms.append(_term_text(s, float(r.gain), rank))
    total = float(inside["dcg"].iloc[-1]) if len(inside) else 0.0
    md = _table(["rank i", "label", "gain", "discount", "gain × discount", "DCG@i"], rows)
    return md, terms, total


def _ideal_rows(s: Setting, upto: int | None) -> tuple[str, list[str], float, list[float]]:
    table = breakdown(list(s.labels), upto, judgments=s.ideal_judgments, unjudged=s.unjudged, **s.kwargs())
    inside = table[table["ideal_gain"] > 0]
    rows, terms = [], []
    for r in inside.itertuples(index=False):
        rank = int(r.rank)
        rows.append([str(rank), f"{r.ideal_label:g}", _gain_text(s, float(r.ideal_label), float(r.ideal_gain)),
                     f"{_discount_text(s, rank)} = {_fmt(float(r.discount))}",
                     _fmt(float(r.ideal_discounted_gain)), _fmt(float(r.idcg))])
        terms.append(_term_text(s, float(r.ideal_gain), rank))
    total = float(inside["idcg"].iloc[-1]) if len(inside) else 0.0
    md = _table(["rank i", "ideal label", "gain", "discount", "gain × discount", "IDCG@i"], rows)
    return md, terms, total, [float(x) for x in inside["ideal_label"]]


def _sum_line(name: str, terms: list[str], values: list[float], total: float) -> str:
    if not terms:
        return f"{name} = 0 (no document contributes)."
    exact = " + ".join(terms)
    numbers = " + ".join(_fmt(v) for v in values)
    if exact == numbers or len(terms) == 1:
        return f"{name} = {exact} = {_fmt(total)}" if exact != _fmt(total) else f"{name} = {exact}"
    return f"{name} = {exact} = {numbers} = {_fmt(total)}"


def _condense_note(s: Setting) -> list[str]:
    if s.unjudged == "condense" and any(x is None for x in s.labels):
        kept = [x for x in s.labels if x is not None]
        return [f"Condensed list: the unjudged documents are removed first, so the list becomes "
                f"`{_label_text(kept)}` and the documents after each ? move up."]
    return []


def _dcg_part(ex: Exercise, s: Setting) -> tuple[list[str], float]:
    k = s.k
    md, terms, total = _run_rows(s, k)
    table = breakdown(list(s.labels), k, judgments=s.ideal_judgments, unjudged=s.unjudged, **s.kwargs())
    inside = table[table["status"] != "past end"]
    values = [float(x) for x in inside["discounted_gain"]]
    name = "DCG" if k is None else f"DCG@{k}"
    note = []
    if k is not None and len(inside) < k:
        note = [f"The list has only {len(inside)} documents, so {name} sums ranks 1 to {len(inside)}."]
    return _condense_note(s) + [md] + note + [_sum_line(name, terms, values, total)], total


def _idcg_part(ex: Exercise, s: Setting) -> tuple[list[str], float]:
    k = s.k
    md, terms, total, ideal = _ideal_rows(s, k)
    table = breakdown(list(s.labels), k, judgments=s.ideal_judgments, unjudged=s.unjudged, **s.kwargs())
    values = [float(x) for x in table["ideal_discounted_gain"] if x > 0]
    name = "IDCG" if k is None else f"IDCG@{k}"
    source = (
        "all judged relevant documents of the query (the ranked list's and the missed ones)"
        if s.ideal_judgments is not None else "the ranked list's own labels (the exam shortcut)"
    )
    everything = _ideal_labels(s) if s.ideal_judgments is not None else sorted(
        (float(x) for x in s.labels if x is not None and x > 0), reverse=True)
    out = [f"The ideal list sorts {source} by gain, largest first: `{_label_text(_tidy(x) for x in everything)}`"
           + (", then zeros." if everything else " (nothing is relevant).")]
    if k is not None and len(everything) > k:
        out.append(f"Only the first {k} count at cutoff k = {k}.")
    if not terms:
        return out + [f"{name} = 0: no judged document has a positive gain."], 0.0
    return out + [md, _sum_line(name, terms, values, total)], total


def solution(exercise: str | Exercise) -> str:
    """The worked solution as Markdown, generated from ndcg_core's breakdown.

    >>> print(solution("lecture-dcg").splitlines()[-1])
    **Answer:** DCG@5 = 2.4307 ≈ **2.43**
    """
    ex = _resolve(exercise)
    s = ex.setting
    if ex.kind == "numeric":
        assert s is not None
        right = expected_answer(ex)
        config = f"Configuration: {s.gain_phrase()}, {s.discount_phrase()}"
        if ex.asks == "term":
            assert ex.rank is not None
            table = breakdown(list(s.labels), ex.rank, judgments=s.ideal_judgments, unjudged=s.unjudged, **s.kwargs())
            row = table.iloc[ex.rank - 1]
            label = "?" if row["status"] == "unjudged" else f"{row['label']:g}"
            gain = "0 (unjudged)" if row["status"] == "unjudged" else _gain_text(s, float(row["label"]), float(row["gain"]))
            parts = _condense_note(s) + [
                config + ".",
                f"Rank {ex.rank} holds label {label}: gain {gain}; discount {_discount_text(s, ex.rank)} = "
                f"{_fmt(float(row['discount']))}.",
                f"Term = {_term_text(s, float(row['gain']), ex.rank)} = {_fmt(right)}",
            ]
        elif ex.asks == "unjudged":
            n = len(s.labels) if s.k is None else min(s.k, len(s.labels))
            count = sum(1 for x in s.labels[:n] if x is None)
            parts = [f"The top {n} hold {count} unjudged document(s) (`?`): {count}/{n} = {_fmt(right)}. "
                     "The denominator is the number of documents actually in the top k."]
        elif ex.asks == "dcg":
            body, _ = _dcg_part(ex, s)
            parts = [config + "."] + body
        elif ex.asks == "idcg":
            body, _ = _idcg_part(ex, s)
            parts = [config + "."] + body
        else:
            d_body, top = _dcg_part(ex, s)
            i_body, best = _idcg_part(ex, s)
            name = "nDCG" if s.k is None else f"nDCG@{s.k}"
            if best > 0:
                ratio = f"{name} = {_QUANTITY_NAMES['dcg']}{'' if s.k is None else '@' + str(s.k)} / " \
                        f"IDCG{'' if s.k is None else '@' + str(s.k)} = {_fmt(top)} / {_fmt(best)} = {_fmt(right)}"
            else:
                ratio = f"{name} = 0: the ideal DCG is 0 (no relevant judged document), so nDCG is defined as 0."
            parts = [config + ".", "**Step 1: the ranked list.**"] + d_body + [
                "**Step 2: the ideal list.**"] + i_body + ["**Step 3: normalise.**", ratio]
        parts.append(f"**Answer:** {ex.quantity} = {_fmt(right)} ≈ **{right:.{ex.precision}f}**")
        return "\n\n".join(parts)
    if ex.kind == "ideal":
        assert s is not None
        right = expected_answer(ex)
        gain_note = "" if s.gain == "linear" else f" ({s.gain_phrase()})"
        found = [x for x in s.labels if x is not None and x > 0]
        parts = [
            "The ranked list's relevant labels: " + (f"`{_label_text(found)}`." if found else "none."),
        ]
        if s.missed is not None:
            parts.append("Add the judged relevant documents it missed: "
                         + (f"`{_label_text(s.missed)}`." if s.missed else "none."))
        parts.append(f"Sort all of them by gain{gain_note}, largest first: "
                     f"**{_label_text(_tidy(x) for x in right)}**, then zeros for any further rank.")
        parts.append(f"**Answer:** {format_answer(ex)}")
        return "\n\n".join(parts)
    if ex.kind == "comparison":
        assert s is not None and ex.labels_b is not None
        parts = []
        gains = [s.gain] if ex.asks == "higher" else [s.gain, ex.other_gain or "exponential"]
        for g in gains:
            sg = replace(s, gain=g)
            for name, labels in (("A", s.labels), ("B", ex.labels_b)):
                one = replace(sg, labels=labels)
                example = Exercise(id="", chapter="", kind="numeric", title="", prompt="", asks="ndcg",
                                   setting=one, precision=ex.precision)
                d_body, top = _dcg_part(example, one)
                _, best = _idcg_part(example, one)
                value = _quantity(one, "ndcg")
                parts.append(f"**Ranking {name}, {sg.gain_phrase()}:**")
                parts += d_body
                parts.append(f"IDCG = {_fmt(best)} (the same for both rankings: same judgments); "
                              f"nDCG = {_fmt(top)} / {_fmt(best)} = {_fmt(value)}")
        parts.append(f"**Answer:** {format_answer(ex)}")
        return "\n\n".join(parts)
    if ex.kind == "concept":
        parts = [ex.explanation.strip()] if ex.explanation else []
        if ex.demo:
            parts.append(_demo_markdown(ex))
        parts.append(f"**Answer:** {format_answer(ex)}")
        return "\n\n".join(parts)
    return "\n\n".join([ex.explanation.strip(), _code_battery_markdown(ex.asks.split("-")[0])])


def _demo_markdown(ex: Exercise) -> str:
    """A small table computed by ndcg_core that shows the concept at work."""
    s = ex.setting
    assert s is not None and ex.demo is not None
    if ex.demo == "gains":
        labels = sorted({x for x in s.labels if x is not None})
        lin = resolve_gain("linear")(_array(labels))
        exp = resolve_gain("exponential")(_array(labels))
        rows = [[f"{l:g}", _fmt(a), _fmt(b)] for l, a, b in zip(labels, lin, exp)]
        return "Computed with ndcg_core:\n\n" + _table(["label", "linear gain", "exponential gain"], rows)
    if ex.demo == "curve":
        curve = ndcg_curve(list(s.labels), judgments=s.ideal_judgments, unjudged=s.unjudged,
                           max_k=s.k, **s.kwargs())
        rows = [[str(i), _fmt(v)] for i, v in enumerate(curve, start=1)]
        return (f"Computed with ndcg_core for the list `{_label_text(s.labels)}` and judgments "
                f"`{_label_text(x for x in (s.all_judgments or ()) if x > 0)}`:\n\n"
                + _table(["k", "nDCG@k"], rows))
    if ex.demo == "base-cancel":
        rows = []
        for b in (2.0, math.e, 10.0):
            one = replace(s, discount="log", base=b)
            top, best = _sums(one, None)
            rows.append([f"1/{_log_text(b, 1).replace('(1)', '(i+1)')}", _fmt(top), _fmt(best), _fmt(_quantity(one, "ndcg"))])
        k = "" if s.k is None else f"@{s.k}"
        return (f"Computed with ndcg_core for the list `{_label_text(s.labels)}`:\n\n"
                + _table(["discount", f"DCG{k}", f"IDCG{k}", f"nDCG{k}"], rows))
    if ex.demo in ("condense", "ideal-sources", "lists", "configs"):
        rows = []
        entries: list[tuple[str, Setting]] = []
        if ex.demo == "condense":
            for title, labels in ((("list as given", s.labels),) + tuple(ex.demo_lists)):
                for policy in UNJUDGED_POLICIES:
                    entries.append((f"`{_label_text(labels)}` ({title}), unjudged = {policy}",
                                    replace(s, labels=labels, unjudged=policy)))
        elif ex.demo == "ideal-sources":
            for title, labels in (("list as given", s.labels),) + tuple(ex.demo_lists):
                entries.append((f"`{_label_text(labels)}` ({title}), ideal from all judgments", replace(s, labels=labels)))
                entries.append((f"`{_label_text(labels)}` ({title}), ideal from the list itself",
                                replace(s, labels=labels, ideal="list")))
        elif ex.demo == "lists":
            for title, labels in (("list as given", s.labels),) + tuple(ex.demo_lists):
                entries.append((f"`{_label_text(labels)}` ({title})", replace(s, labels=labels)))
        else:
            for gain in ("linear", "exponential"):
                for discount in ("log2", "reciprocal"):
                    one = replace(s, gain=gain, discount=discount, base=None)
                    entries.append((one.config().describe(), one))
        for title, one in entries:
            top, best = _sums(one, None)
            fraction = unjudged_fraction(list(one.labels), one.k)
            rows.append([title, _fmt(top), _fmt(best), _fmt(_quantity(one, "ndcg")), _fmt(fraction)])
        k = "" if s.k is None else f"@{s.k}"
        first = "configuration" if ex.demo == "configs" else "ranking"
        return "Computed with ndcg_core:\n\n" + _table(
            [first, f"DCG{k}", f"IDCG{k}", f"nDCG{k}", "unjudged fraction"], rows)
    raise ValueError(f"demo must be one of {', '.join(_DEMOS)}; got {ex.demo!r}.")


# --------------------------------------------------------------------------- code exercises


class CodeCase(NamedTuple):
    """One call of the learner's function and its outcome."""

    call: str
    what: str
    expected: float
    got: str
    passed: bool
    problem: str


class CodeReport(NamedTuple):
    """The outcome of running a learner's function against the battery."""

    function: str
    cases: tuple[CodeCase, ...]

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.cases)

    @property
    def failures(self) -> list[CodeCase]:
        return [c for c in self.cases if not c.passed]

    def markdown(self) -> str:
        """A summary line, then a table of the failing cases (input, expected, got, why)."""
        ok = sum(c.passed for c in self.cases)
        head = f"**{self.function}**: {ok} of {len(self.cases)} cases pass."
        if self.passed:
            return head + " Every case matches ndcg_core."
        rows = [[f"`{c.call}`", c.what, _fmt(c.expected), c.got, c.problem] for c in self.failures]
        return head + "\n\n" + _table(["call", "case", "expected", "got", "what went wrong"], rows)


_BATTERY: dict[str, tuple[tuple[str, tuple[int, ...], int], ...]] = {
    "dcg": (
        ("the lecture example", (1, 0, 2, 1, 0), 5),
        ("the lecture example, cut at 3", (1, 0, 2, 1, 0), 3),
        ("k beyond the end of the list", (1, 0, 2, 1, 0), 10),
        ("k = 1", (3, 2, 1), 1),
        ("all zeros", (0, 0, 0), 3),
        ("an empty list", (), 5),
        ("the best document last", (0, 0, 3), 3),
        ("a longer graded list", (3, 2, 3, 0, 1, 2), 6),
    ),
    "ndcg": (
        ("the lecture example", (1, 0, 2, 1, 0), 5),
        ("the lecture example, cut at 2", (1, 0, 2, 1, 0), 2),
        ("an ideal list already", (3, 2, 1), 3),
        ("worst order first", (0, 1, 2, 3), 4),
        ("k = 1", (1, 3), 1),
        ("k beyond the end of the list", (2, 0, 1), 10),
        ("all zeros (IDCG = 0)", (0, 0, 0), 3),
        ("an empty list", (), 5),
    ),
}


def _code_battery_markdown(function: str) -> str:
    rows = []
    for what, rels, k in _BATTERY[function]:
        expected = dcg(list(rels), k) if function == "dcg" else ndcg(list(rels), k)
        rows.append([f"`{function}({list(rels)}, {k})`", what, _fmt(expected)])
    return "The checker's cases, with the values ndcg_core gives:\n\n" + _table(["call", "case", "expected"], rows)


def check_code(exercise_id: str | Exercise, func: Callable[..., Any]) -> CodeReport:
    """Run a learner's ``dcg(rels, k)`` or ``ndcg(rels, k)`` against a battery of cases.

    The function is called (in the caller's own Python process: a notebook opened for
    editing) with a fresh list each time; every exception it raises is caught and
    reported with the case. Expected values come from :func:`ndcg_core.dcg` and
    :func:`ndcg_core.ndcg` (linear gain, discount 1/log2(i+1), and for ``ndcg`` the
    ideal list sorted from ``rels`` itself, as in the exam's signature). A function that
    never returns blocks the caller like any other cell would; interrupt it there.

    Examples
    --------
    >>> from math import log2
    >>> def my_dcg(rels, k):
    ...     return sum(rels[i] / log2(i + 2) for i in range(min(k, len(rels))))
    >>> check_code("code-dcg", my_dcg).passed
    True
    """
    ex = _resolve(exercise_id)
    if ex.kind != "code":
        raise ValueError(
            f"exercise_id must name a code exercise ('code-dcg' or 'code-ndcg'); got {ex.id!r} ({ex.kind}). "
            "Check typed answers with check(exercise_id, answer_text)."
        )
    function = ex.asks.split("-")[0]
    if not callable(func):
        raise TypeError(
            f"func must be a function {function}(rels, k); got {func!r} ({type(func).__name__}). "
            f"Define it with def {function}(rels, k): ... and pass the function itself, without calling it."
        )
    cases = []
    for what, rels, k in _BATTERY[function]:
        call = f"{function}({list(rels)}, {k})"
        expected = dcg(list(rels), k) if function == "dcg" else ndcg(list(rels), k)
        given = list(rels)
        try:
            got = func(given, k)
        except Exception as err:  # the learner's code may raise anything
            cases.append(CodeCase(call, what, expected, "an error", False,
                                  f"raised {type(err).__name__}: {err}. {_error_hint(function, rels, err)}".strip()))
            continue
        if given != list(rels):
            cases.append(CodeCase(call, what, expected, _show(got), False,
                                  f"changed the list it was given to {given} (sorted it in place?). "
                                  "Work on a copy: sorted(rels, reverse=True) returns a new list."))
            continue
        if isinstance(got, bool) or not isinstance(got, Real) or not math.isfinite(float(got)):
            cases.append(CodeCase(call, what, expected, _show(got), False,
                                  f"returned {_show(got)} ({type(got).__name__}); return a finite number."))
            continue
        value = float(got)
        if math.isclose(value, expected, rel_tol=1e-9, abs_tol=1e-9):
            cases.append(CodeCase(call, what, expected, _fmt(value), True, ""))
            continue
        cases.append(CodeCase(call, what, expected, _fmt(value), False, _code_diagnosis(function, rels, k, value)))
    return CodeReport(f"{function}(rels, k)", tuple(cases))


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _error_hint(function: str, rels: Sequence[int], err: Exception) -> str:
    if isinstance(err, ZeroDivisionError):
        if function == "ndcg":
            return "When the ideal DCG is 0 (no relevant document), nDCG is defined as 0: check before dividing."
        return "Rank 1 needs log2(1 + 1) = 1 in the denominator: use log2(i + 2) for a 0-based index i."
    if isinstance(err, IndexError):
        return "k may be larger than the list: stop at min(k, len(rels))."
    return ""


def _code_diagnosis(function: str, rels: Sequence[int], k: int, value: float) -> str:
    setting = Setting(labels=tuple(rels), k=k, ideal="list")
    for variant in _variants(setting, function, 4):
        if variant.rounding is not None:
            continue
        mistaken = _safe_quantity(variant, None)
        right = _quantity(setting, function)
        if mistaken is not None and not math.isclose(mistaken, right, abs_tol=1e-9) and math.isclose(
                mistaken, value, rel_tol=1e-9, abs_tol=1e-9):
            return f"matches {_variant_name(variant)}. {MISCONCEPTIONS[variant.misconception].hint}"
    return "does not match ndcg_core; compare your terms with the worked solution of the lecture example."


# --------------------------------------------------------------------------- the bank


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
               "unjudged", "ideal"}


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


def _setting_from(entry: _Entry, raw: Mapping[str, Any]) -> Setting:
    unknown = set(raw) - _INPUT_KEYS
    if unknown:
        raise entry.error(f"inputs has unknown keys {sorted(unknown)}; known keys are {sorted(_INPUT_KEYS)}.")
    if "labels" not in raw:
        raise entry.error("inputs.labels is missing.")
    if "judgments" in raw and "missed" in raw:
        raise entry.error("inputs gives both judgments and missed; give one of them.")
    gain = raw.get("gain", "linear")
    table = None
    if gain == "table":
        try:
            table = tuple(sorted(parse_gain_table(str(raw.get("gain_table", ""))).items()))
        except ValueError as err:
            raise entry.error(f"inputs.gain_table: {err}") from None
    k = raw.get("k")
    if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 1):
        raise entry.error(f"inputs.k must be a positive whole number; got {k!r}.")
    base = raw.get("base")
    if isinstance(base, str) and base == "e":
        base = math.e
    setting = Setting(
        labels=_labels_from(entry, raw["labels"], "labels"),
        judgments=_labels_from(entry, raw["judgments"], "judgments", allow_unjudged=False) if "judgments" in raw else None,
        missed=_labels_from(entry, raw["missed"], "missed", allow_unjudged=False) if "missed" in raw else None,
        k=k,
        gain=gain,
        gain_table=table,
        discount=raw.get("discount", "log2"),
        base=float(base) if base is not None else None,
        unjudged=raw.get("unjudged", "zero"),
        ideal=raw.get("ideal", "judgments"),
    )
    try:
        setting.config()
        score(list(setting.labels), setting.k, judgments=setting.ideal_judgments,
              unjudged=setting.unjudged, **setting.kwargs())
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
    asks = entry.text("asks", _ASKS[kind][0] if len(_ASKS[kind]) == 1 else None)
    if asks not in _ASKS[kind]:
        raise entry.error(f"asks must be one of {', '.join(_ASKS[kind])} for a {kind} exercise; got {asks!r}.")
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
        if not 2 <= len(options) <= len(_LETTERS):
            raise entry.error(f"a concept exercise needs 2 to {len(_LETTERS)} options; got {len(options)}.")
        letter = entry.text("answer")
        if len(letter) != 1 or letter.upper() not in _LETTERS[: len(options)]:
            raise entry.error(f"answer must be one letter A to {_LETTERS[len(options) - 1]}; got {letter!r}.")
        answer_option = _LETTERS.index(letter.upper())
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
    if demo is not None and demo not in _DEMOS:
        raise entry.error(f"demo must be one of {', '.join(_DEMOS)}; got {demo!r}.")
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
        if rank is None or rank > len(setting.labels):
            raise entry.error(f"a term exercise needs a rank between 1 and {len(setting.labels)}; got {rank!r}.")
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


def _resolve(exercise: str | Exercise) -> Exercise:
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
    """The bank exercises of one chapter (``"01"`` to ``"06"``), in bank order.

    >>> [ex.id for ex in for_chapter("01")][:3]
    ['lecture-dcg', 'lecture-idcg', 'lecture-ndcg']
    """
    if chapter not in CHAPTERS:
        raise ValueError(
            f"chapter must be one of {', '.join(repr(c) for c in CHAPTERS)}; got {chapter!r}. "
            "Chapters are numbered with two digits."
        )
    return [ex for ex in all_exercises() if ex.chapter == chapter]


# --------------------------------------------------------------------------- markdown -> html


def _inline_html(text: str) -> str:
    out = html.escape(text, quote=False)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", out)
    return out


def markdown_to_html(markdown: str) -> str:
    """HTML for the small Markdown subset this module writes (paragraphs, ``-`` lists,
    pipe tables, ``code`` and **bold**). Everything else is escaped as text."""
    blocks = [b for b in re.split(r"\n\s*\n", markdown.strip()) if b.strip()]
    out = []
    for block in blocks:
        lines = block.strip().splitlines()
        if all(line.startswith("|") for line in lines) and len(lines) >= 2:
            cells = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines]
            head, body = cells[0], cells[2:]
            out.append("<table><thead><tr>" + "".join(f"<th>{_inline_html(c)}</th>" for c in head)
                       + "</tr></thead><tbody>"
                       + "".join("<tr>" + "".join(f"<td>{_inline_html(c)}</td>" for c in row) + "</tr>" for row in body)
                       + "</tbody></table>")
        elif all(line.startswith("- ") for line in lines):
            out.append("<ul>" + "".join(f"<li>{_inline_html(line[2:])}</li>" for line in lines) + "</ul>")
        elif lines[0].startswith("#"):
            level = min(len(lines[0]) - len(lines[0].lstrip("#")) + 1, 6)
            out.append(f"<h{level}>{_inline_html(lines[0].lstrip('#').strip())}</h{level}>")
            if lines[1:]:
                out.append(f"<p>{_inline_html(' '.join(lines[1:]))}</p>")
        else:
            out.append("<p>" + "<br>".join(_inline_html(line) for line in lines) + "</p>")
    return "\n".join(out)

