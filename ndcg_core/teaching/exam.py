r"""Generated exam practice: seeded problem sets, marking, review and a printable sheet.

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

import html
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from typing import NamedTuple

from ..config import NDCGConfig
from ..discounts import resolve_discount
from ..gains import resolve_gain
from .exercises import (
    Exercise,
    Feedback,
    Setting,
    all_exercises,
    check,
    format_answer,
    markdown_to_html,
    solution,
    statement,
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
    "exam_html",
]

#: What a problem can ask: DCG@k, IDCG@k, nDCG@k, one discounted term, the ideal order,
#: which of two rankings scores higher, a multi-part task on one ranking (see
#: :data:`TASK_PARTS`), or a concept question from the bank.
EXAM_KINDS = ("dcg", "idcg", "ndcg", "term", "ideal", "compare", "task", "concept")
#: The kinds notebook 08 starts with, like the real exam: a multi-part task on one ranking
#: (DCG@k, the ideal ranking, IDCG@k, nDCG@k, then compare), a concept question and single
#: steps; with five problems each comes once (08 adds a seeded code task of its own).
PRACTICE_KINDS = ("task", "concept", "dcg", "ndcg", "ideal")
#: The parts of a multi-part task, in order: as the real exam asks them on one ranking.
TASK_PARTS = ("dcg", "ideal", "idcg", "ndcg", "compare")
EXAM_GAINS = ("linear", "exponential")
#: The discounts a set can draw from (Järvelin–Kekäläinen with base 2).
EXAM_DISCOUNTS = ("log2", "log2_shifted", "reciprocal", "jarvelin_kekalainen", "none")
_BASES = {"jarvelin_kekalainen": 2.0}  # the discounts of a set that take a base, with it
MAX_SEED = 999_999_999
#: The kinds and unjudged policies as the sheet names them.
_KIND_WORDS = {"dcg": "DCG@k", "idcg": "IDCG@k", "ndcg": "nDCG@k", "term": "one discounted term",
               "ideal": "the ideal ranking", "compare": "which ranking is higher",
               "task": "multi-part tasks on one ranking (DCG@k, ideal ranking, IDCG@k, nDCG@k, a comparison)",
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

    def describe(self) -> str:
        """The settings in one line, printed on the sheet so a set can be reproduced."""
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
            f"{self.missed} missed relevant per list"
            + (" (the missed-documents trap once)" if self.trap and not self.missed and _trap_kinds(self) else ""),
            f"asks: {', '.join(_KIND_WORDS[kind] for kind in self.kinds)}",
            f"{self.precision} decimals",
        ]
        return "; ".join(parts)


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


def _check_seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be a whole number from 0 to {MAX_SEED}; got {seed!r} ({type(seed).__name__}).")
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be a whole number from 0 to {MAX_SEED}; got {seed}.")
    return seed


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


def _problem(seed: int, index: int, s: ExamSettings, trapped: bool = False) -> Exercise:
    kind = _kind(seed, index, s)
    rng = random.Random(f"ndcg-lab-exam/{seed}/{index}")
    gain = rng.choice(s.gains)
    discount = rng.choice(s.discounts)
    labels = _ranking(rng, s)
    missed = _missed(rng, seed, index, s, trapped)
    k = rng.randint(min(3, s.length), s.length)
    policy = rng.choice(s.unjudged_policies) if s.unjudged else "zero"
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
    config = NDCGConfig(gain=gain, discount=discount, k=k, base=_BASES.get(discount), unjudged=policy)
    setting = Setting(labels=tuple(labels), missed=missed, config=config)
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
    rng = random.Random(f"ndcg-lab-exam/{seed}/{index}")
    gain = rng.choice(s.gains)
    discount = rng.choice(s.discounts)
    labels = _ranking(rng, s)
    missed = _missed(rng, seed, index, s, trapped)
    k = rng.randint(min(3, s.length), s.length)
    policy = rng.choice(s.unjudged_policies) if s.unjudged else "zero"
    labels_b = _better_order(labels) or _reordered(rng, labels)
    config = NDCGConfig(gain=gain, discount=discount, k=k, base=_BASES.get(discount), unjudged=policy)
    setting = Setting(labels=tuple(labels), missed=missed, config=config)
    q = {"dcg": f"DCG@{k}", "idcg": f"IDCG@{k}", "ndcg": f"nDCG@{k}"}
    prompts = {
        "dcg": f"Parts (a) to (e) work on the same ranked list. (a) Compute {q['dcg']} of the ranked list.",
        "ideal": "(b) Write the ideal ranking of this query's judged relevant documents as labels, best first "
                 "(trailing zeros may be left out).",
        "idcg": f"(c) Compute {q['idcg']}, the DCG of that ideal ranking at the same cutoff.",
        "ndcg": f"(d) Compute {q['ndcg']} of the ranked list.",
        "compare": f"(e) Ranking B holds the same documents as the ranked list (ranking A) in another order. "
                   f"Which ranking has the higher {q['ndcg']}? Explain with the discount of the ranks that changed.",
    }
    titles = {"dcg": q["dcg"], "ideal": "the ideal ranking", "idcg": q["idcg"], "ndcg": q["ndcg"],
              "compare": f"which {q['ndcg']} is higher"}
    parts = []
    for letter, part in zip("abcde", TASK_PARTS):
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
    return tuple(parts)


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
    seed = _check_seed(seed)
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


_CSS = """
body { font-family: Georgia, 'Times New Roman', serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem;
       color: #111; line-height: 1.45; font-size: 12pt; }
h1 { font-size: 1.6rem; margin-bottom: 0.2rem; }
h2 { font-size: 1.3rem; border-bottom: 2px solid #111; padding-bottom: 0.2rem; margin-top: 2rem; }
h3 { font-size: 1.05rem; margin: 1.4rem 0 0.4rem; }
.meta { color: #333; font-size: 0.9rem; }
code { font-family: 'DejaVu Sans Mono', Consolas, monospace; font-size: 0.95em; }
table { border-collapse: collapse; margin: 0.5rem 0; font-size: 0.92rem; }
th, td { border: 1px solid #555; padding: 0.15rem 0.5rem; text-align: left; }
th { background: #eee; }
.answer-line { margin: 0.6rem 0 1.2rem; }
.answer-line span { display: inline-block; min-width: 14rem; border-bottom: 1px solid #111; }
.key { page-break-before: always; break-before: page; }
.problem { page-break-inside: avoid; break-inside: avoid; }
@media print { body { margin: 0; max-width: none; } }
"""


def exam_html(exam: ExamSet, *, title: str = "nDCG exam practice") -> str:
    """The set as one self-contained HTML page: problems first, then the answer key and
    the worked solutions. Inline CSS only: no scripts, fonts or links to load."""
    esc = html.escape
    head = (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<title>{esc(title)} (seed {exam.seed})</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
    )
    meta = (f"<h1>{esc(title)}</h1>\n<p class=\"meta\">Seed {exam.seed}. Settings: {esc(exam.settings.describe())}. "
            "Enter the same seed and settings in notebook 08 to get this set again.</p>\n")
    problems = ["<section class=\"problems\">\n<h2>Problems</h2>"]
    for p in exam.problems:
        problems.append(f"<div class=\"problem\">\n<h3>{esc(p.title)}</h3>\n{markdown_to_html(statement(p))}\n"
                        "<p class=\"answer-line\">Answer: <span>&nbsp;</span></p>\n</div>")
    problems.append("</section>")
    rows = "".join(f"<tr><td>{esc(p.title)}</td><td>{esc(format_answer(p))}</td></tr>" for p in exam.problems)
    key = [f"<section class=\"key\">\n<h2>Answer key</h2>\n<table><thead><tr><th>problem</th><th>answer</th></tr>"
           f"</thead><tbody>{rows}</tbody></table>\n<h2>Worked solutions</h2>"]
    for p in exam.problems:
        key.append(f"<div class=\"solution\">\n<h3>{esc(p.title)}</h3>\n{markdown_to_html(solution(p))}\n</div>")
    key.append("</section>")
    return head + meta + "\n".join(problems) + "\n" + "\n".join(key) + "\n</body>\n</html>\n"



# --------------------------------------------------------------------------- code tasks and "practise these"


class CodeTask(NamedTuple):
    """A seeded code task: write ``function(rels, k)``; the battery plus seeded ``cases`` check it."""

    seed: int
    exercise: str
    function: str
    title: str
    prompt: str
    cases: tuple[tuple[str, tuple[int, ...], int], ...]


def code_task(seed: int) -> CodeTask:
    """The code task of a seed: ``dcg`` or ``ndcg`` (drawn by the seed) and four seeded cases
    on top of the fixed battery. Check a typed answer with
    ``ndcg_core.infra.sandbox.check_code_text(task.exercise, source, task.cases)`` (a sandboxed process).

    >>> task = code_task(2026)
    >>> task == code_task(2026), task.function in ("dcg", "ndcg"), len(task.cases)
    (True, True, 4)
    """
    seed = _check_seed(seed)
    rng = random.Random(f"ndcg-lab-exam/{seed}/code")
    function = rng.choice(("dcg", "ndcg"))
    cases = []
    for n in range(1, 5):
        length = rng.randint(3, 8)
        rels = tuple(rng.randint(0, 3) for _ in range(length))
        k = rng.randint(1, length + 2)
        cases.append((f"seeded case {n}", rels, k))
    what = ("DCG@k with linear gain and the discount 1/log2(i+1), i the rank counted from 1"
            if function == "dcg" else
            "nDCG@k: DCG@k divided by the DCG@k of rels sorted largest first (the exam's ideal), "
            "0 when that is 0")
    prompt = (f"Write `def {function}(rels, k):` returning {what}. `rels` is a list of labels, best-ranked "
              "first; k may be larger than the list. `from math import log2` is allowed; nothing else is imported.")
    return CodeTask(seed, f"code-{function}", function, f"Code: write {function}(rels, k)", prompt, tuple(cases))


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
    under settings where that mistake gives a wrong value the checker recognises. With no
    mistakes it is an ordinary set. Problem titles name the mistake they practise.

    >>> s = practice_set(5, ["log-natural"], problems=2)
    >>> [p.title.split(":")[0] for p in s.problems]
    ['Practise 1', 'Practise 2']
    """
    from .exercises import MISCONCEPTIONS, mistaken_values

    seed = _check_seed(seed)
    chosen = [m for m in dict.fromkeys(mistakes) if m in _PRACTICE]
    base = ExamSettings(problems=max(1, min(problems, 30)))
    if not chosen:
        return generate_exam(seed, base)
    out: list[Exercise] = []
    tries = {m: 0 for m in chosen}
    n = 0
    while len(out) < base.problems and n < 40 * base.problems:
        m = chosen[n % len(chosen)]
        n += 1
        settings = replace(base, **_PRACTICE[m])  # type: ignore[arg-type]
        for _ in range(25):
            tries[m] += 1
            p = _problem(seed, tries[m], settings)
            fits = p.kind != "numeric" or m in mistaken_values(p)
            if fits:
                index = len(out) + 1
                title = f"Practise {index}: {p.title.split(': ', 1)[1]} ({MISCONCEPTIONS[m].name.split(' (')[0]})"
                out.append(replace(p, id=f"practise-{seed}-{index}", title=title))
                break
    return ExamSet(seed, base, tuple(out))
