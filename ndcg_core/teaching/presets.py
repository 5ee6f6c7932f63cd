"""The playground's presets: the classic cases a lecturer opens with one click.

Each :class:`Preset` is a complete set of playground inputs (typed the way a learner types
them) with its scoring configuration (an :class:`~ndcg_core.NDCGConfig`), plus a short note
saying what to look at. ``tests/ui/test_playground_glue.py`` checks that every preset
really shows what its note claims.

>>> [p.key for p in PRESETS]
['lecture', 'unjudged', 'missed', 'deep-cutoff']
>>> preset("lecture").labels
'1, 0, 2, 1, 0'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..config import NDCGConfig

__all__ = ["Preset", "PRESETS", "DEFAULT_GAIN_TABLE", "DEFAULT_BASE", "preset", "preset_titles"]

#: What the playground's *Gain table* box holds when a preset uses a named gain
#: (the exponential gains of labels 0-3, a table to start editing from).
DEFAULT_GAIN_TABLE = "0:0, 1:1, 2:3, 3:7"
#: What the playground's *Base* box holds when a preset's discount takes no base.
DEFAULT_BASE = 2.0


@dataclass(frozen=True)
class Preset:
    """One set of playground inputs and what it demonstrates.

    ``labels`` and ``missed`` are typed the way a learner types them (``missed``: the
    labels of judged documents the list missed); ``config`` is the scoring configuration
    the playground opens with. The properties below are what its widgets are set to.
    """

    key: str
    title: str
    labels: str
    missed: str
    note: str
    config: NDCGConfig = NDCGConfig(k=5)

    @property
    def gain(self) -> str:
        """The *Gain* dropdown: ``"linear"``, ``"exponential"`` or ``"table"``."""
        return "table" if isinstance(self.config.gain, Mapping) else str(self.config.gain)

    @property
    def gain_table(self) -> str:
        """The *Gain table* box: the preset's table as ``label:gain`` pairs, or :data:`DEFAULT_GAIN_TABLE`."""
        gain = self.config.gain
        if not isinstance(gain, Mapping):
            return DEFAULT_GAIN_TABLE
        return ", ".join(f"{label:g}:{value:g}" for label, value in sorted(gain.items()))

    @property
    def discount(self) -> str:
        """The *Discount* dropdown (a name of :data:`ndcg_core.DISCOUNT_NAMES`)."""
        return str(self.config.discount)

    @property
    def base(self) -> float:
        """The *Base* box: the discount's base, or :data:`DEFAULT_BASE` for one that takes none."""
        return DEFAULT_BASE if self.config.base is None else self.config.base

    @property
    def k(self) -> int:
        """The *k* slider (a preset always sets a cutoff)."""
        assert self.config.k is not None
        return self.config.k

    @property
    def unjudged(self) -> str:
        """The unjudged policy: ``"zero"`` or ``"condense"``."""
        return self.config.unjudged

    @property
    def ideal(self) -> str:
        """The ideal source: ``"judgments"`` or ``"list"``."""
        return self.config.ideal


PRESETS: tuple[Preset, ...] = (
    Preset(
        key="lecture",
        title="Lecture example",
        labels="1, 0, 2, 1, 0",
        missed="",
        note=(
            "The worked example from the lecture: five results with labels 1, 0, 2, 1, 0. "
            "The three relevant documents of the query (2, 1, 1) all appear in the list, so "
            "nothing is typed under *Judged documents not in the list*."
        ),
    ),
    Preset(
        key="unjudged",
        title="Unjudged documents in the list",
        labels="2, ?, 1, ?, 0, 1",
        missed="2",
        note=(
            "Two of the top five results were never judged (`?`). With *gain 0* they count as "
            "non-relevant; switch *Unjudged documents* to *condense* to drop them and watch "
            "nDCG@5 rise. The unjudged fraction tells how much the number rests on guesses."
        ),
    ),
    Preset(
        key="missed",
        title="Missed highly relevant documents",
        labels="3, 0, 0, 0, 0",
        missed="3, 2, 2",
        note=(
            "The list found one excellent document and missed three more that the assessors "
            "judged relevant. Switch *Ideal list from* to *the list itself* to see the exam's "
            "short code report a perfect 1.0 for this poor ranking: sorting the run's own labels "
            "gives the right ideal only when the run contains every relevant document."
        ),
    ),
    Preset(
        key="deep-cutoff",
        title="nDCG@100 below nDCG@10",
        labels="2, 2, 1, 1, 1, 1, 0, 1, 0, 1",
        missed="1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2",
        config=NDCGConfig(k=10),
        note=(
            "A good top ten, but thirteen relevant documents were never retrieved, so the topic "
            "has more relevant documents than 10. Drag *k* from 10 to 100: the ideal list keeps "
            "collecting gain below rank 10 while this list has nothing more to add, so NDCG "
            "falls. With at most 10 relevant documents it could not fall. NDCG is not monotone "
            "in the cutoff."
        ),
    ),
)

_BY_KEY = {p.key: p for p in PRESETS}


def preset(key: str) -> Preset:
    """The preset with this key; a ValueError lists the valid keys."""
    try:
        return _BY_KEY[key]
    except (KeyError, TypeError):
        valid = ", ".join(repr(k) for k in _BY_KEY)
        raise ValueError(f"preset must be one of {valid}; got {key!r}.") from None


def preset_titles() -> dict[str, str]:
    """``{title: key}`` in display order, for a dropdown."""
    return {p.title: p.key for p in PRESETS}
