"""What an exercise is: its setting, its words, and the verdict on an answer.

Plain data, no computing: :class:`Setting` (the ranked list, the judgments and the
configuration every number is computed from), :class:`Exercise` (a bank entry or a
generated exam problem), :class:`Feedback` (the verdict on one answer) and the vocabulary
the other modules share (chapters, kinds, what each kind can ask).

>>> Exercise(id="x", chapter="01", kind="concept", title="t", prompt="p", asks="choice",
...          options=("yes", "no")).choices
('A) yes', 'B) no')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from ...config import NDCGConfig
from ...discounts import resolve_discount
from ...gains import resolve_gain

__all__ = [
    "CHAPTERS",
    "KINDS",
    "ASKS",
    "QUANTITY_NAMES",
    "MEASURE_QUANTITY_NAMES",
    "COMPARE_OPTIONS",
    "DEMOS",
    "LETTERS",
    "MAX_ANSWER_CHARS",
    "Setting",
    "Exercise",
    "Feedback",
]

#: The chapters an exercise belongs to (notebooks 01-06, 09 and 12), number -> title.
CHAPTERS: dict[str, str] = {
    "01": "The lecture example",
    "02": "Gains",
    "03": "Discounts",
    "04": "The ideal list",
    "05": "Unjudged documents",
    "06": "Evaluating runs",
    "09": "Graded vs binary measures",
    "12": "Which measure?",
}

#: The kinds of exercise (see the package docstring).
KINDS = ("numeric", "ideal", "comparison", "concept", "code")
#: What each kind can ask: the first entry is the default where there is only one.
ASKS: dict[str, tuple[str, ...]] = {
    "numeric": ("dcg", "idcg", "ndcg", "term", "unjudged", "precision", "ap", "rprec", "bpref", "map"),
    "ideal": ("ideal",),
    "comparison": ("higher", "flips"),
    "concept": ("choice",),
    "code": ("dcg-function", "ndcg-function"),
}
#: How a learner reads the asked quantity.
QUANTITY_NAMES = {"dcg": "DCG", "idcg": "IDCG", "ndcg": "nDCG", "precision": "P", "ap": "AP"}
#: The binary measures of chapter 12 a numeric exercise can ask (no cutoff).
MEASURE_QUANTITY_NAMES = {"rprec": "P@R (R-precision)", "bpref": "bpref", "map": "MAP"}
#: The answer options of a comparison exercise, by what it asks.
COMPARE_OPTIONS: dict[str, tuple[str, ...]] = {
    "higher": ("Ranking A", "Ranking B", "Both score the same"),
    "flips": ("Yes, the other ranking wins", "No, the same ranking wins"),
}
#: The computed tables a concept exercise's worked solution can show.
DEMOS = ("gains", "curve", "base-cancel", "condense", "ideal-sources", "lists", "configs")
#: The letters of multiple-choice options, in order.
LETTERS = "ABCDEFGH"
#: Typed answers longer than this are refused with a message (nobody types more).
MAX_ANSWER_CHARS = 200


@dataclass(frozen=True)
class Setting:
    """Everything a computation needs: the list, the judgments and the configuration.

    ``judgments`` are all judged labels of the query; ``missed`` are the labels of
    judged documents the list missed (the list's own judged labels are added to them).
    Give one or the other, or neither: then the ideal list can only come from the list,
    and ``config.ideal`` is set to ``"list"``. ``config`` holds the gain, discount (and
    base), cutoff k, unjudged policy and ideal source; the properties below read it.
    ``threshold`` (the relevance threshold) and ``other_topics`` (further topics as
    ``(labels, judgments)`` pairs, for MAP) serve chapter 12's binary measures.

    >>> s = Setting(labels=(1, 0, 2, 1, 0), missed=(), config=NDCGConfig(k=5, gain="exponential"))
    >>> s.k, s.gain, s.all_judgments
    (5, 'exponential', (1, 2, 1))
    """

    labels: tuple[float | int | None, ...]
    judgments: tuple[float, ...] | None = None
    missed: tuple[float, ...] | None = None
    config: NDCGConfig = NDCGConfig()
    threshold: float = 1.0
    other_topics: tuple[tuple[tuple[float | int | None, ...], tuple[float, ...]], ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.config, NDCGConfig):
            raise TypeError(
                f"config must be an NDCGConfig; got {self.config!r} ({type(self.config).__name__}). "
                "Build it as NDCGConfig(gain=..., discount=..., k=...)."
            )
        if self.all_judgments is None and self.config.ideal != "list":
            object.__setattr__(self, "config", replace(self.config, ideal="list"))

    def with_config(self, **changes: Any) -> Setting:
        """The same list and judgments under a changed configuration, e.g. ``gain="linear"``."""
        return replace(self, config=replace(self.config, **changes))

    @property
    def k(self) -> int | None:
        """The cutoff (None: the whole list)."""
        return self.config.k

    @property
    def gain(self) -> str:
        """The gain's name: ``"linear"``, ``"exponential"``, ``"table"`` or ``"custom"``."""
        gain = self.config.gain
        if isinstance(gain, str):
            return gain
        return "table" if isinstance(gain, Mapping) else "custom"

    @property
    def gain_table(self) -> tuple[tuple[float, float], ...] | None:
        """The ``(label, gain)`` pairs of a table gain, sorted by label; None for other gains."""
        gain = self.config.gain
        return tuple(sorted((float(a), float(b)) for a, b in gain.items())) if isinstance(gain, Mapping) else None

    @property
    def discount(self) -> Any:
        """The discount (a name such as ``"log2"``, or a discount object)."""
        return self.config.discount

    @property
    def base(self) -> float | None:
        """The log base of the ``"log"`` and Järvelin–Kekäläinen discounts (None for the others)."""
        return self.config.base

    @property
    def unjudged(self) -> str:
        """How unjudged documents are scored: ``"zero"`` or ``"condense"``."""
        return self.config.unjudged

    @property
    def ideal(self) -> str:
        """Where the ideal list comes from: ``"judgments"`` or ``"list"``."""
        return self.config.ideal

    @property
    def all_judgments(self) -> tuple[float, ...] | None:
        """All judged labels of the query, or None when only the list is known."""
        if self.judgments is not None:
            return self.judgments
        if self.missed is not None:
            return tuple(x for x in self.labels if x is not None and x > 0) + self.missed
        return None

    @property
    def ideal_judgments(self) -> tuple[float, ...] | None:
        """What the ideal list is built from: all judgments, or None for the list itself."""
        return self.all_judgments if self.ideal == "judgments" else None

    def kwargs(self) -> dict[str, Any]:
        """``gain``, ``discount`` and ``base``, ready for :func:`ndcg_core.dcg` and friends."""
        return {"gain": self.config.gain, "discount": self.config.discount, "base": self.config.base}

    def gain_phrase(self) -> str:
        """The gain in words, e.g. ``linear gain g(l) = l``."""
        return resolve_gain(self.config.gain).describe

    def discount_phrase(self) -> str:
        """The discount in words, e.g. ``discount 1/log2(i+1)``."""
        return resolve_discount(self.config.discount, self.config.base).describe


class Feedback(NamedTuple):
    """The verdict on one answer.

    ``message`` is Markdown for the learner; ``misconception`` is the id of the named
    mistake (a key of :data:`~ndcg_core.teaching.exercises.MISCONCEPTIONS`) or None.
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
            return tuple(f"{LETTERS[i]}) {text}" for i, text in enumerate(self.options))
        if self.kind == "comparison":
            return COMPARE_OPTIONS[self.asks]
        return ()

    @property
    def placeholder(self) -> str:
        """An example of the expected answer form (not the answer)."""
        if self.kind == "ideal":
            return "e.g. 3, 2, 0"
        if self.kind == "numeric":
            return "e.g. 78 % or 0.78" if self.asks in ("ndcg", "precision", "ap", *MEASURE_QUANTITY_NAMES) else "e.g. 1.23"
        return ""

    @property
    def quantity(self) -> str:
        """The asked quantity as a learner reads it, e.g. ``nDCG@5``."""
        if self.asks in MEASURE_QUANTITY_NAMES:
            return MEASURE_QUANTITY_NAMES[self.asks]
        if self.asks in QUANTITY_NAMES:
            assert self.setting is not None
            name = QUANTITY_NAMES[self.asks]
            return name if self.setting.k is None else f"{name}@{self.setting.k}"
        if self.asks == "term":
            return f"the discounted gain at rank {self.rank}"
        if self.asks == "unjudged":
            assert self.setting is not None
            return "the unjudged fraction" + ("" if self.setting.k is None else f" in the top {self.setting.k}")
        return self.title

    @property
    def function(self) -> str:
        """The function a code exercise asks for (``"dcg"`` or ``"ndcg"``), else ``""``."""
        return self.asks.split("-")[0] if self.kind == "code" else ""
