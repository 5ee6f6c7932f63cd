"""A complete nDCG configuration, and the sentence that states it.

A bare nDCG number is not a specification: the gain, the discount (and its base),
the cutoff, the treatment of unjudged documents and the source of the ideal list
all change it. :class:`NDCGConfig` holds those choices and writes them out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ._validation import check_choice, check_k
from .discounts import Discount, resolve_discount
from .gains import Gain, resolve_gain
from .metrics import UNJUDGED_POLICIES, Labels, Scored, score

__all__ = ["NDCGConfig", "IDEAL_SOURCES"]

#: "judgments": the ideal list from every judged document of the query (trec_eval);
#: "list": from the ranked list's own labels (the exam convention, a pitfall).
IDEAL_SOURCES = ("judgments", "list")


@dataclass(frozen=True)
class NDCGConfig:
    """Gain, discount, cutoff, unjudged policy and ideal source of an nDCG figure.

    Examples
    --------
    >>> config = NDCGConfig(k=5)
    >>> print(config.describe())
    nDCG@5 with linear gain g(l) = l, discount 1/log2(i+1), unjudged documents scored as gain 0, ideal list from all judged documents of the query.
    >>> round(config.score([1, 0, 2, 1, 0], judgments=[2, 1, 1]).ndcg, 4)
    0.7763
    """

    gain: Gain = "linear"
    discount: Discount = "log2"
    k: int | None = None
    base: float | None = None
    unjudged: str = "zero"
    ideal: str = "judgments"

    def __post_init__(self) -> None:
        check_k(self.k)
        check_choice(self.unjudged, "unjudged", UNJUDGED_POLICIES)
        check_choice(self.ideal, "ideal", IDEAL_SOURCES)
        resolve_gain(self.gain)
        resolve_discount(self.discount, self.base)

    @property
    def name(self) -> str:
        """``nDCG@k``, or ``nDCG`` for the whole list."""
        return "nDCG" if self.k is None else f"nDCG@{self.k}"

    def describe(self) -> str:
        """The configuration as one sentence, to print next to every result."""
        gain = resolve_gain(self.gain).describe
        discount = resolve_discount(self.discount, self.base).describe
        cutoff = "" if self.k is not None else " over the whole ranked list"
        unjudged = (
            "unjudged documents scored as gain 0"
            if self.unjudged == "zero"
            else "unjudged documents removed before ranking (condensed list)"
        )
        ideal = (
            "ideal list from all judged documents of the query"
            if self.ideal == "judgments"
            else "ideal list from the ranked list's own labels (the exam shortcut: it ignores missed relevant documents)"
        )
        return f"{self.name}{cutoff} with {gain}, {discount}, {unjudged}, {ideal}."

    def score(self, labels: Labels, judgments: Sequence[float] | None = None) -> Scored:
        """DCG, IDCG and nDCG of ``labels`` under this configuration.

        With ``ideal="list"`` the judgments are ignored, on purpose.
        """
        return score(
            labels,
            self.k,
            judgments=judgments if self.ideal == "judgments" else None,
            gain=self.gain,
            discount=self.discount,
            base=self.base,
            unjudged=self.unjudged,
        )
