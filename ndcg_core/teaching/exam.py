r"""Generated exam practice: seeded problem sets, marking, review, the code task.

The printable sheet of a set is presentation: :func:`ndcg_core.ui.exam_sheet.exam_html`.

A set is fully determined by its seed and its :class:`ExamSettings`: the same seed and
settings give the same problems on every machine (the asked kinds take turns in an
order shuffled by the seed, and problem ``i`` draws its numbers from its own
``random.Random`` seeded with the text ``"ndcg-lab-exam/<seed>/<i>"``, so adding
problems never changes the earlier ones). Every problem is an
:class:`~ndcg_core.exercises.Exercise`: it is checked, diagnosed and solved exactly like
a bank exercise.

>>> exam = generate_exam(7, ExamSettings(problems=3))
>>> [p.id for p in exam.problems]
['exam-7-1', 'exam-7-2', 'exam-7-3']
>>> result = mark(exam, [format_answer(p) for p in exam.problems])
>>> result.score, result.total
(3, 3)
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from typing import NamedTuple

from ..config import NDCGConfig
from ..discounts import resolve_discount
from ..gains import resolve_gain
from .exam_code import MAX_SEED, MODEL_CODE, CodeTask, check_seed, code_notes, code_task
from .exercises import (
    MISCONCEPTIONS,
    Exercise,
    Feedback,
    Setting,
    all_exercises,
    check,
    format_answer,
)

__all__ = [
    "PRACTICE_KINDS",
    "ExamSettings",
    "ExamSet",
    "ExamResult",
    "EXAM_KINDS",
    "EXAM_GAINS",
    "EXAM_DISCOUNTS",
    "LEVELS",
    "TASK_PARTS",
    "exam_settings",
    "MAX_SEED",
    "generate_exam",
    "parse_seed",
    "mark",
    "CodeTask",
    "code_task",
    "code_notes",
    "MODEL_CODE",
    "practice_set",
]

#: What a problem can ask: DCG@k, IDCG@k, nDCG@k, one discounted term, the ideal order,
#: which of two rankings scores higher, a multi-part task on one ranking (see
#: :data:`TASK_PARTS`), or a concept question from the bank.
EXAM_KINDS = ("dcg", "idcg", "ndcg", "term", "ideal", "compare", "task", "concept")
#: The kinds notebook 08 starts with, like the real exam: a multi-part task on one ranking
#: (DCG@k, the ideal ranking, IDCG@k, nDCG@k, then compare), a concept question and single
#: steps; with five problems each comes once (08 adds a seeded code task of its own).
PRACTICE_KINDS = ("task", "concept", "dcg", "ndcg", "ideal")
#: The parts of a multi-part task, in order: as the real exam asks them on one ranking; the
#: last one ("why") asks for the reason behind the comparison, gradable as a choice of reasons.
TASK_PARTS = ("dcg", "ideal", "idcg", "ndcg", "compare", "why")
EXAM_GAINS = ("linear", "exponential")
#: The discounts a set can draw from (Järvelin–Kekäläinen with base 2).
EXAM_DISCOUNTS = ("log2", "log2_shifted", "reciprocal", "jarvelin_kekalainen", "none")
_BASES = {"jarvelin_kekalainen": 2.0}  # the discounts of a set that take a base, with it
#: The kinds and unjudged policies as the sheet names them.
_KIND_WORDS = {"dcg": "DCG@k", "idcg": "IDCG@k", "ndcg": "nDCG@k", "term": "one discounted term",
               "ideal": "the ideal ranking", "compare": "which ranking is higher",
               "task": "multi-part tasks on one ranking (DCG@k, ideal ranking, IDCG@k, nDCG@k, a comparison and its reason)",
               "concept": "concept questions"}
_POLICY_WORDS = {"zero": "scored as gain 0", "condense": "condensed"}
_LIMITS = {"problems": (1, 30), "length": (2, 12), "max_label": (1, 4), "unjudged": (0, 6),
           "missed": (0, 6), "precision": (1, 4)}


def _check_int(name: str, value: object) -> int:
    low, high = _LIMITS[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(
            f"{name} must be a whole number from {low} to {high}; got {value!r} ({type(value).__name__})."
        )
    if not low <= value <= high:
        raise ValueError(f"{name} must be a whole number from {low} to {high}; got {value}.")
    return value


def _check_choices(name: str, values: object, allowed: Sequence[str]) -> tuple[str, ...]:
    if isinstance(values, str) or not isinstance(values, (list, tuple)):
        raise TypeError(
            f"{name} must be a list of names from {', '.join(repr(a) for a in allowed)}; got {values!r}."
        )
    if not values:
        raise ValueError(f"{name} must name at least one of {', '.join(repr(a) for a in allowed)}; got none. "
                         "Tick at least one option.")
    for value in values:
        if value not in allowed:
            raise ValueError(f"{name} must be chosen from {', '.join(repr(a) for a in allowed)}; got {value!r}.")
    return tuple(dict.fromkeys(values))


@dataclass(frozen=True)
class ExamSettings:
    """The difficulty knobs of a generated set.

    Parameters
    ----------
    problems : int
        How many problems (1-30); a multi-part task counts as one and gives five parts.
    length : int
        Documents in each ranked list (2-12).
    max_label : int
        Labels are drawn from 0..max_label (1-4).
    gains, discounts : tuple of str
        The variants a problem may use (each problem draws one).
    unjudged : int
        Unjudged documents (``?``) in each list (0-6, fewer than ``length``).
    unjudged_policies : tuple of str
        How those are scored: ``"zero"`` and/or ``"condense"``.
    missed : int
        Judged relevant documents each list did not return (0-6).
    kinds : tuple of str
        What problems may ask, from :data:`EXAM_KINDS`.
    precision : int
        Decimals asked for (1-4).
    trap : bool
        The missed-documents trap (on by default): when ``missed`` is 0, the first task or
        IDCG, nDCG or ideal problem of the set still gets one or two judged relevant
        documents the list missed, so every set asks once for an ideal that is not the sorted
        list (the exam's short code would get it wrong).
    """

    problems: int = 6
    length: int = 5
    max_label: int = 3
    gains: tuple[str, ...] = ("linear",)
    discounts: tuple[str, ...] = ("log2",)
    unjudged: int = 0
    unjudged_policies: tuple[str, ...] = ("zero",)
    missed: int = 0
    kinds: tuple[str, ...] = ("dcg", "idcg", "ndcg", "term", "ideal")
    precision: int = 2
    trap: bool = True

    def __post_init__(self) -> None:
        for name in _LIMITS:
            _check_int(name, getattr(self, name))
        if not isinstance(self.trap, bool):
            raise TypeError(f"trap must be True or False; got {self.trap!r} ({type(self.trap).__name__}).")
        if self.unjudged >= self.length:
            raise ValueError(
                f"unjudged must be smaller than length (at least one document must be judged); "
                f"got unjudged={self.unjudged} with length={self.length}. Lower unjudged or make the lists longer."
            )
        object.__setattr__(self, "gains", _check_choices("gains", self.gains, EXAM_GAINS))
        object.__setattr__(self, "discounts", _check_choices("discounts", self.discounts, EXAM_DISCOUNTS))
        object.__setattr__(self, "unjudged_policies",
                           _check_choices("unjudged_policies", self.unjudged_policies, ("zero", "condense")))
        object.__setattr__(self, "kinds", _check_choices("kinds", self.kinds, EXAM_KINDS))

    def describe(self, trapped: tuple[int, int] | None = None) -> str:
        """The settings in one line, printed on the sheet so a set can be reproduced.

        ``trapped`` is ``(problem number, documents missed)`` of the set's missed-documents
        trap, when known (:meth:`ExamSet.describe` passes it), so the line says which problem
        has missed documents instead of "0 missed" alone.
        """
        discounts = ", ".join(resolve_discount(d, _BASES.get(d)).describe
                              for d in self.discounts)
        gains = ", ".join(resolve_gain(g).describe for g in self.gains)
        parts = [
            f"{self.problems} problems",
            f"lists of {self.length} documents",
            f"labels 0 to {self.max_label}",
            f"gains: {gains}",
            f"discounts: {discounts}",
            f"{self.unjudged} unjudged per list"
            + (f" ({' or '.join(_POLICY_WORDS[p] for p in self.unjudged_policies)})" if self.unjudged else ""),
            self._missed_words(trapped),
            f"asks: {', '.join(_KIND_WORDS[kind] for kind in self.kinds)}",
            f"{self.precision} decimals",
        ]
        return "; ".join(parts)

    def _missed_words(self, trapped: tuple[int, int] | None) -> str:
        if self.missed or not self.trap or not _trap_kinds(self):
            return f"{self.missed} missed relevant per list"
        if trapped is None:
            return "no missed relevant documents except in one problem (the missed-documents trap)"
        number, count = trapped
        return (f"no missed relevant documents except in problem {number}: {count} missed relevant "
                f"document{'s' if count != 1 else ''} (the missed-documents trap)")


#: Difficulty levels: the settings each one changes from :class:`ExamSettings`' defaults.
LEVELS: dict[str, dict[str, object]] = {
    "easy": {"length": 4, "max_label": 2, "kinds": ("dcg", "idcg", "ndcg", "ideal", "concept")},
    "medium": {"length": 5, "max_label": 3, "kinds": ("task", "dcg", "ndcg", "term", "concept", "compare")},
    "hard": {"length": 7, "max_label": 4, "gains": EXAM_GAINS, "discounts": EXAM_DISCOUNTS, "unjudged": 2,
             "unjudged_policies": ("zero", "condense"), "missed": 2, "kinds": EXAM_KINDS, "precision": 3},
}


def exam_settings(level: str = "medium", **changes: object) -> ExamSettings:
    """The settings of a difficulty level (``"easy"``, ``"medium"``, ``"hard"``), with ``changes``.

    >>> exam_settings("medium").kinds[:2]
    ('task', 'dcg')
    >>> exam_settings("easy", problems=3).problems
    3
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(repr(x) for x in LEVELS)}; got {level!r}.")
    known = {f.name for f in fields(ExamSettings)}
    unknown = sorted(set(changes) - known)
    if unknown:
        raise ValueError(f"exam_settings got unknown settings {unknown}; known ones are {sorted(known)}.")
    return ExamSettings(**{**LEVELS[level], **changes})  # type: ignore[arg-type]


class ExamSet(NamedTuple):
    """A generated set: its seed, its settings and its problems (exercise objects)."""

    seed: int
    settings: ExamSettings
    problems: tuple[Exercise, ...]

    def describe(self) -> str:
        """The settings in one line, with the problem that holds the missed-documents trap."""
        number = _trap_index(self.seed, self.settings)
        trapped = None
        if number is not None:
            ids = {f"exam-{self.seed}-{number}", *(f"exam-{self.seed}-{number}{c}" for c in "abcdef")}
            missed = [p.setting.missed for p in self.problems if p.id in ids and p.setting is not None]
            trapped = (number, len(missed[0])) if missed else None
        return self.settings.describe(trapped)


class ExamResult(NamedTuple):
    """A marked set: how many answers were right, of how many, and each verdict."""

    score: int
    total: int
    feedback: tuple[Feedback, ...]

    @property
    def percent(self) -> float:
        return 100.0 * self.score / self.total if self.total else 0.0


def parse_seed(text: str) -> int:
    """Read a seed typed into a text box: digits only, 0 to :data:`MAX_SEED`.

    >>> parse_seed(" 2026 ")
    2026
    """
    if not isinstance(text, str):
        raise TypeError(f"seed text must be a string; got {text!r} ({type(text).__name__}).")
    cleaned = text.strip()
    if not re.fullmatch(r"\d{1,9}", cleaned):
        shown = cleaned if len(cleaned) <= 20 else cleaned[:17] + "..."
        raise ValueError(
            f"seed must be a whole number from 0 to {MAX_SEED}; got {shown!r}. Type digits only, e.g. 2026."
        )
    return int(cleaned)


_PROMPTS = {
    "dcg": "Compute {q} of the ranked list.",
    "idcg": "Compute {q}, the DCG of the ideal ranking of this query at the same cutoff.",
    "ndcg": "Compute {q} of the ranked list.",
    "term": "How much does the document at rank {rank} add to the DCG of the ranked list?",
    "ideal": "Write the ideal ranking of this query's judged relevant documents as labels, best first "
             "(trailing zeros may be left out).",
    "compare": "Ranking B holds the same documents as ranking A in another order. Which ranking has the higher {q}?",
}
_HINTS = {
    "dcg": ("Write one row per rank: label, gain, discount, product; then add the products up to rank k.",),
    "idcg": ("The ideal list holds the list's relevant documents and the missed ones, sorted by gain, largest first.",
             "Use the same gain, discount and cutoff as for the ranked list."),
    "ndcg": ("nDCG@k = DCG@k / IDCG@k; compute both with the same gain, discount and cutoff.",
             "The ideal list includes the relevant documents the list missed."),
    "term": ("A term is the gain of the label at that rank times the discount of that rank.",),
    "ideal": ("Collect every judged relevant label: those in the list and those it missed. Sort them, largest first.",),
    "compare": ("Both rankings have the same ideal list, so comparing their DCG@k is enough.",),
}


def _kind(seed: int, index: int, s: ExamSettings) -> str:
    kinds = list(s.kinds)
    random.Random(f"ndcg-lab-exam/{seed}").shuffle(kinds)
    return kinds[(index - 1) % len(kinds)]  # every kind in turn, in a seeded order


#: The kinds the missed-documents trap can go into (they ask for the ideal).
_TRAP_KINDS = ("task", "idcg", "ndcg", "ideal")


def _trap_kinds(s: ExamSettings) -> bool:
    return any(kind in _TRAP_KINDS for kind in s.kinds)


def _trap_index(seed: int, s: ExamSettings) -> int | None:
    """The problem that gets the missed-documents trap, or None (trap off, or missed > 0)."""
    if not s.trap or s.missed:
        return None
    # the first such problem, so that adding problems never changes the earlier ones
    return next((i for i in range(1, s.problems + 1) if _kind(seed, i, s) in _TRAP_KINDS), None)


def _ranking(rng: random.Random, s: ExamSettings) -> list[int | None]:
    labels: list[int | None] = [rng.randint(0, s.max_label) for _ in range(s.length)]
    for position in rng.sample(range(s.length), s.unjudged):
        labels[position] = None
    judged = [i for i, x in enumerate(labels) if x is not None]
    if not any(labels[i] for i in judged):  # at least one relevant document in the list
        labels[rng.choice(judged)] = rng.randint(1, s.max_label)
    return labels


def _missed(rng: random.Random, seed: int, index: int, s: ExamSettings, trapped: bool) -> tuple[float, ...]:
    missed = tuple(float(rng.randint(1, s.max_label)) for _ in range(s.missed))
    if trapped:  # drawn from its own stream, so the rest of the problem stays as without the trap
        trap = random.Random(f"ndcg-lab-exam/{seed}/{index}/trap")
        missed = tuple(float(trap.randint(1, s.max_label)) for _ in range(trap.randint(1, 2)))
    return missed


def _reordered(rng: random.Random, labels: list[int | None]) -> tuple[int | None, ...]:
    order = list(labels)
    for _ in range(20):
        rng.shuffle(order)
        if order != labels:
            break
    if order == labels:  # every label equal: swap in a different one
        order[-1] = 0 if order[-1] else 1
    return tuple(order)


class _Draw(NamedTuple):
    """The numbers one problem (or one multi-part task) is built on, drawn in one fixed order
    from one seeded generator: :func:`_problem` and :func:`_task` both start here, so the two
    cannot drift apart (a drift would change the sets every seed gives)."""

    rng: random.Random
    gain: str
    discount: str
    labels: list[int | None]
    missed: tuple[float, ...]
    k: int
    policy: str

    def setting(self, *, k: int | None | str = "drawn", policy: str | None = None) -> Setting:
        """The drawn setting, with the cutoff or unjudged policy a kind of problem changes."""
        config = NDCGConfig(gain=self.gain, discount=self.discount, k=self.k if k == "drawn" else k,
                            base=_BASES.get(self.discount), unjudged=policy or self.policy)
        return Setting(labels=tuple(self.labels), missed=self.missed, config=config)


def _draw(seed: int, index: int, s: ExamSettings, trapped: bool, *, stream: str | None = None) -> _Draw:
    """The one seeded draw of problem ``index``: gain, discount, list, missed, cutoff, policy.

    ``stream`` names another generator (practice sets draw each problem from its own); by
    default it is ``"ndcg-lab-exam/<seed>/<index>"``, as it has always been.
    """
    rng = random.Random(stream or f"ndcg-lab-exam/{seed}/{index}")
    gain = rng.choice(s.gains)
    discount = rng.choice(s.discounts)
    labels = _ranking(rng, s)
    missed = _missed(rng, seed, index, s, trapped)
    k = rng.randint(min(3, s.length), s.length)
    policy = rng.choice(s.unjudged_policies) if s.unjudged else "zero"
    return _Draw(rng, gain, discount, labels, missed, k, policy)


def _problem(seed: int, index: int, s: ExamSettings, trapped: bool = False, *, stream: str | None = None) -> Exercise:
    kind = _kind(seed, index, s)
    d = _draw(seed, index, s, trapped, stream=stream)
    rng, labels, k, policy = d.rng, d.labels, d.k, d.policy
    rank = None
    labels_b = None
    asks = {"compare": "higher"}.get(kind, kind)
    if kind == "term":
        policy = "zero"  # ranks refer to the list as shown
        relevant = [i + 1 for i, x in enumerate(labels) if x]
        rank = rng.choice(relevant)
        k = None
    if kind == "ideal":
        k = None
    if kind == "compare":
        labels_b = _reordered(rng, labels)
    setting = d.setting(k=k, policy=policy)
    numeric = kind in ("dcg", "idcg", "ndcg", "term")
    ex = Exercise(
        id=f"exam-{seed}-{index}",
        chapter="exam",
        kind="numeric" if numeric else ("ideal" if kind == "ideal" else "comparison"),
        title=f"Problem {index}",
        prompt="",
        asks=asks,
        setting=setting,
        labels_b=labels_b,
        rank=rank,
        precision=s.precision,
        hints=_HINTS[kind],
    )
    quantity = ex.quantity if numeric else ("nDCG" if k is None else f"nDCG@{k}")
    prompt = _PROMPTS[kind].format(q=quantity, rank=rank)
    title = f"Problem {index}: " + {"ideal": "the ideal ranking", "compare": f"which {quantity} is higher"}.get(
        kind, quantity)
    return replace(ex, prompt=prompt, title=title)


def _better_order(labels: list[int | None]) -> tuple[int | None, ...] | None:
    """The list with its first relevant document swapped for the best one below it, if that is better."""
    values = [-1 if x is None else x for x in labels]
    for i, x in enumerate(values):
        if x > 0:
            below = max(range(i + 1, len(values)), key=lambda j: values[j], default=None)
            if below is not None and values[below] > x:
                swapped = list(labels)
                swapped[i], swapped[below] = swapped[below], swapped[i]
                return tuple(swapped)
            return None
    return None


def _task(seed: int, index: int, s: ExamSettings, trapped: bool) -> tuple[Exercise, ...]:
    """A multi-part task on one ranking: DCG@k, the ideal ranking, IDCG@k, nDCG@k, then a comparison."""
    d = _draw(seed, index, s, trapped)
    labels, k = d.labels, d.k
    labels_b = _better_order(labels) or _reordered(d.rng, labels)
    setting = d.setting()
    q = {"dcg": f"DCG@{k}", "idcg": f"IDCG@{k}", "ndcg": f"nDCG@{k}"}
    prompts = {
        "dcg": f"Parts (a) to (f) work on the same ranked list. (a) Compute {q['dcg']} of the ranked list.",
        "ideal": "(b) Write the ideal ranking of this query's judged relevant documents as labels, best first "
                 "(trailing zeros may be left out).",
        "idcg": f"(c) Compute {q['idcg']}, the DCG of that ideal ranking at the same cutoff.",
        "ndcg": f"(d) Compute {q['ndcg']} of the ranked list.",
        "compare": f"(e) Ranking B holds the same documents as the ranked list (ranking A) in another order. "
                   f"Which ranking has the higher {q['ndcg']}?",
    }
    titles = {"dcg": q["dcg"], "ideal": "the ideal ranking", "idcg": q["idcg"], "ndcg": q["ndcg"],
              "compare": f"which {q['ndcg']} is higher"}
    parts = []
    for letter, part in zip("abcde", TASK_PARTS[:5]):
        part_setting = setting.with_config(k=None) if part == "ideal" else setting
        parts.append(Exercise(
            id=f"exam-{seed}-{index}{letter}",
            chapter="exam",
            kind={"ideal": "ideal", "compare": "comparison"}.get(part, "numeric"),
            title=f"Problem {index}({letter}): {titles[part]}",
            prompt=prompts[part],
            asks={"compare": "higher"}.get(part, part),
            setting=part_setting,
            labels_b=labels_b if part == "compare" else None,
            precision=s.precision,
            hints=_HINTS[part],
        ))
    parts.append(_why(seed, index, setting, labels_b, s.precision))
    return tuple(parts)


#: Part (f) of a task: why one ranking beats the other, as reasons to pick from. Each wrong
#: reason is a named misconception, so a wrong pick is diagnosed like a wrong number.
_WHY_WRONG = (
    ("move-down-helps",
     "A document further down the list is divided by a larger logarithm, so moving a good document "
     "down raises its weight in the score."),
    ("discount-linear-loss",
     "Every rank step lowers a document's weight by the same amount, so only how many ranks the "
     "documents moved matters, not where in the list they moved."),
    ("ideal-unsorted",
     "Each ranking is divided by the DCG of its own order, so the comparison only asks which ranking "
     "is closer to sorted."),
)


def _why(seed: int, index: int, setting: Setting, labels_b: tuple[int | None, ...], precision: int) -> Exercise:
    """Part (f): the reason behind (e), one right reason among three misconceptions, in a seeded order.

    The options are the same whichever ranking wins, so they do not give (e) away; the order
    comes from its own generator, so the rest of the task stays as without this part.
    """
    if setting.discount == "none":
        right = ("Both rankings share one ideal list, and with no discount (plain CG) every rank up to the "
                 "cutoff counts the same: only which documents are in the top k matters, not their order.")
    else:
        right = ("Both rankings share one ideal list, so the larger DCG@k gives the larger nDCG@k; and a "
                 "larger gain adds more at a higher rank, whose discount is never smaller.")
    options = [(None, right), *_WHY_WRONG]
    random.Random(f"ndcg-lab-exam/{seed}/{index}/why").shuffle(options)
    answer = next(i for i, (m, _) in enumerate(options) if m is None)
    notes = tuple("This is the reason: the ideal list cancels out, and the discount decides." if m is None else
                  f"That is {MISCONCEPTIONS[m].name}. {MISCONCEPTIONS[m].hint}" for m, _ in options)
    k = setting.k
    explanation = (f"Ranking A and ranking B hold the same documents, so their ideal lists, and IDCG@{k}, are "
                   f"the same: comparing nDCG@{k} is comparing DCG@{k}. Each rank adds gain × discount, and "
                   "the discount shrinks with the rank (it stays 1 only without a discount), so the ranking "
                   "that puts its larger gains higher collects more. Part (e)'s worked solution shows both sums.")
    return Exercise(
        id=f"exam-{seed}-{index}f",
        chapter="exam",
        kind="concept",
        title=f"Problem {index}(f): why, with the discount",
        prompt=("(f) Why does that ranking score higher (or why do both score the same)? Pick the reason that "
                "explains your answer to (e) with the discount. On paper, write it in one or two sentences "
                "naming the ranks that changed and their discounts."),
        asks="choice",
        setting=setting,
        labels_b=labels_b,
        precision=precision,
        hints=("Both rankings hold the same documents: what does that make of their ideal lists?",
               "Which way does the discount go as the rank grows: up or down?"),
        options=tuple(text for _, text in options),
        answer_option=answer,
        option_notes=notes,
        option_misconceptions=tuple(m for m, _ in options),
        explanation=explanation,
    )


def _concept(seed: int, index: int) -> Exercise:
    """A concept question of the bank, drawn by the seed, under the set's numbering."""
    rng = random.Random(f"ndcg-lab-exam/{seed}/{index}")
    pool = sorted((ex for ex in all_exercises() if ex.kind == "concept"), key=lambda ex: ex.id)
    chosen = rng.choice(pool)
    return replace(chosen, id=f"exam-{seed}-{index}", chapter="exam", title=f"Problem {index}: {chosen.title}")


def _problems(seed: int, index: int, s: ExamSettings, trapped: bool) -> tuple[Exercise, ...]:
    kind = _kind(seed, index, s)
    if kind == "task":
        return _task(seed, index, s, trapped)
    if kind == "concept":
        return (_concept(seed, index),)
    return (_problem(seed, index, s, trapped),)


def generate_exam(seed: int, settings: ExamSettings | None = None) -> ExamSet:
    """A reproducible set of exam-style problems.

    Parameters
    ----------
    seed : int
        0 to :data:`MAX_SEED`; the same seed and settings give the same set.
    settings : ExamSettings, optional
        Difficulty knobs; the defaults are the lecture's setting (lists of 5, labels 0-3,
        linear gain, 1/log2(i+1), everything judged, nothing missed).

    Examples
    --------
    >>> a = generate_exam(2026)
    >>> b = generate_exam(2026)
    >>> [p.setting.labels for p in a.problems] == [p.setting.labels for p in b.problems]
    True
    """
    seed = check_seed(seed)
    settings = ExamSettings() if settings is None else settings
    if not isinstance(settings, ExamSettings):
        raise TypeError(f"settings must be an ExamSettings; got {settings!r} ({type(settings).__name__}).")
    trap = _trap_index(seed, settings)
    problems = tuple(p for i in range(1, settings.problems + 1) for p in _problems(seed, i, settings, i == trap))
    return ExamSet(seed, settings, problems)


def mark(exam: ExamSet, answers: Sequence[str | None]) -> ExamResult:
    """Mark a whole set at once; a blank answer counts as wrong ("no answer given")."""
    if isinstance(answers, str) or not isinstance(answers, Sequence):
        raise TypeError(f"answers must be a list with one answer per problem; got {answers!r}.")
    if len(answers) != len(exam.problems):
        raise ValueError(
            f"answers must have one entry per problem ({len(exam.problems)}); got {len(answers)}. "
            "Leave an answer empty to skip a problem."
        )
    verdicts = []
    for problem, answer in zip(exam.problems, answers):
        if answer is None or (isinstance(answer, str) and not answer.strip()):
            verdicts.append(Feedback(False, "No answer given.", None))
        else:
            verdicts.append(check(problem, answer))
    return ExamResult(sum(v.correct for v in verdicts), len(verdicts), tuple(verdicts))


# --------------------------------------------------------------------------- "practise these" (the code task: exam_code.py)


#: The settings under which each named mistake shows up in a problem ("practise these").
_PRACTICE: dict[str, dict[str, object]] = {
    "gain-exponential-for-linear": {"gains": ("linear",), "kinds": ("dcg", "ndcg")},
    "gain-linear-for-exponential": {"gains": ("exponential",), "kinds": ("dcg", "ndcg")},
    "log-natural": {"kinds": ("dcg", "term", "ndcg")},
    "log-base10": {"kinds": ("dcg", "term", "ndcg")},
    "discount-log2-i": {"kinds": ("dcg", "term")},
    "rank-shift": {"kinds": ("dcg", "term")},
    "discount-other": {"discounts": EXAM_DISCOUNTS, "kinds": ("dcg", "ndcg")},
    "unjudged-policy": {"unjudged": 2, "unjudged_policies": ("zero", "condense"), "kinds": ("dcg", "ndcg")},
    "ideal-from-run": {"missed": 2, "kinds": ("idcg", "ndcg", "ideal")},
    "ideal-unsorted": {"kinds": ("idcg", "ideal")},
    "ideal-ascending": {"kinds": ("ideal",)},
    "cutoff-off-by-one": {"length": 7, "kinds": ("dcg", "ndcg")},
    "no-normalisation": {"kinds": ("ndcg",)},
    "ratio-inverted": {"kinds": ("ndcg",)},
    "rounded-early": {"kinds": ("dcg", "ndcg"), "precision": 3},
    "truncated": {"kinds": ("dcg", "ndcg")},
    "too-few-decimals": {"kinds": ("dcg", "ndcg"), "precision": 3},
}


def practice_set(seed: int, mistakes: Sequence[str], *, problems: int = 6) -> ExamSet:
    """"Practise these": a seeded set aimed at a learner's recurring mistakes.

    The mistakes (misconception ids, most frequent first, e.g. from
    :func:`ndcg_core.infra.progress.recurring_mistakes`) take turns; each problem is drawn
    under settings where that mistake gives a wrong value the checker recognises, from a
    generator of its own (so no two problems share a list). Titles say what is asked, never
    the mistake practised (that would give the trap away); a wrong answer names it when marked.
    With no mistakes it is an ordinary set.

    >>> s = practice_set(5, ["log-natural"], problems=2)
    >>> [p.title.split(":")[0] for p in s.problems]
    ['Practise 1', 'Practise 2']
    """
    from .exercises import mistaken_values

    seed = check_seed(seed)
    chosen = [m for m in dict.fromkeys(mistakes) if m in _PRACTICE]
    base = ExamSettings(problems=max(1, min(problems, 30)))
    if not chosen:
        return generate_exam(seed, base)
    out: list[Exercise] = []
    lists: set[tuple[object, ...]] = set()
    attempt = 0
    while len(out) < base.problems and attempt < 60 * base.problems:
        m = chosen[len(out) % len(chosen)]
        attempt += 1
        settings = replace(base, **_PRACTICE[m])  # type: ignore[arg-type]
        p = _problem(seed, attempt, settings, stream=f"ndcg-lab-exam/{seed}/practise/{attempt}")
        assert p.setting is not None
        if p.kind == "numeric" and m not in mistaken_values(p):
            continue  # this mistake would not show in this problem
        if p.setting.labels in lists:
            continue  # one list once per set
        lists.add(p.setting.labels)
        index = len(out) + 1
        out.append(replace(p, id=f"practise-{seed}-{index}", title=f"Practise {index}: {p.title.split(': ', 1)[1]}"))
    return ExamSet(seed, base, tuple(out))
