"""The playground's presets: the classic cases a lecturer opens with one click.

Each :class:`Preset` is a complete set of playground inputs (typed the way a learner types
them) plus a short note saying what to look at. ``tests/test_presets.py`` checks that every
preset really shows what its note claims.

>>> [p.key for p in PRESETS]
['lecture', 'unjudged', 'missed', 'deep-cutoff']
>>> preset("lecture").labels
'1, 0, 2, 1, 0'
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Preset", "PRESETS", "preset", "preset_titles"]


@dataclass(frozen=True)
class Preset:
    """One set of playground inputs and what it demonstrates."""

    key: str
    title: str
    labels: str
    missing: str
    note: str
    gain: str = "linear"
    gain_table: str = "0:0, 1:1, 2:3, 3:7"
    discount: str = "log2"
    base: float = 2.0
    k: int = 5
    unjudged: str = "zero"
    ideal: str = "judgments"


PRESETS: tuple[Preset, ...] = (
    Preset(
        key="lecture",
        title="Lecture example",
        labels="1, 0, 2, 1, 0",
        missing="",
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
        missing="2",
        note=(
            "Two of the top five results were never judged (`?`). With *gain 0* they count as "
            "non-relevant; switch *Unjudged documents* to *condense* to drop them and watch "
            "NDCG@5 rise. The unjudged fraction tells how much the number rests on guesses."
        ),
    ),
    Preset(
        key="missed",
        title="Missed highly relevant documents",
        labels="3, 0, 0, 0, 0",
        missing="3, 2, 2",
        note=(
            "The list found one excellent document and missed three more that the assessors "
            "judged relevant. Switch *Ideal list from* to *the list itself* to see the exam "
            "shortcut report a perfect 1.0 for this poor ranking."
        ),
    ),
    Preset(
        key="deep-cutoff",
        title="NDCG@100 below NDCG@10",
        labels="2, 2, 1, 1, 1, 1, 0, 1, 0, 1",
        missing="1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2",
        k=10,
        note=(
            "A good top ten, but thirteen relevant documents were never retrieved. Drag *k* "
            "from 10 to 100: the ideal list keeps collecting gain while this list has "
            "nothing more to add, so NDCG falls. NDCG is not monotone in the cutoff."
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
