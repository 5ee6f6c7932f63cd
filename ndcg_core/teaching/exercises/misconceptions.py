r"""The common mistakes: how each is named to the learner, and the wrong values it produces.

:data:`MISCONCEPTIONS` is the catalogue (id -> name and hint). :func:`variants` turns a
setting into the mistakes that apply to it, each as a :class:`Variant`: the setting and
the quantity the mistake really computes (exponential instead of linear gain, a natural
log, an off-by-one cutoff, an unsorted ideal list, terms rounded early, ...). A wrong
answer that matches a variant's value is named by the checker.

>>> from ndcg_core import NDCGConfig
>>> from .model import Setting
>>> lecture = Setting(labels=(1, 0, 2, 1, 0), judgments=(2, 1, 1), config=NDCGConfig(k=5))
>>> natural = next(v for v in variants(lecture, "dcg", 2) if v.misconception == "log-natural")
>>> round(natural.value(), 4)
3.5067
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from ...discounts import resolve_discount
from ...metrics import dcg
from .model import Setting
from .paired_data import PAIRED_MISCONCEPTIONS, SIGNIFICANCE_CONCEPTS
from .values import quantity, rank_table

__all__ = ["Misconception", "MISCONCEPTIONS", "CONCEPT_MISCONCEPTIONS", "IDEAL_MISTAKES", "Variant", "variants"]


@dataclass(frozen=True)
class Misconception:
    """A common mistake: how it is named to the learner and the hint that fixes it."""

    id: str
    name: str
    hint: str


#: Every named mistake, in the order ties between them are resolved.
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

#: Mistaken beliefs that concept questions name (no number computes them): id -> name, hint.
#: They follow the computed mistakes above, so a tie between values never picks one of them.
CONCEPT_MISCONCEPTIONS: dict[str, Misconception] = {
    m.id: m
    for m in (
        Misconception("ndcg-monotone-in-k", "the belief that nDCG can only grow with the cutoff",
                      "DCG never falls as k grows, but nDCG is a ratio: IDCG@k grows with k too, and "
                      "it can grow faster than the run's DCG."),
        Misconception("normalised-means-fixed", "the belief that normalisation removes the cutoff",
                      "IDCG@k is computed at the same k, so nDCG@k still depends on k."),
        Misconception("exponential-only", "the belief that the effect needs exponential gain",
                      "Check the claim with linear gain: the ratio and the discount behave the same way."),
        Misconception("fewer-than-k", "the essay's loose condition: fewer relevant documents than k",
                      "With at most k relevant documents the ideal is used up by rank k and nDCG cannot "
                      "fall beyond k; a drop needs more relevant documents than the smaller cutoff."),
        Misconception("labels-are-amounts", "labels read as measured amounts",
                      "Labels only order the grades; the gain function decides what each grade is worth."),
        Misconception("gains-comparable", "the belief that scores with different gains are one measure",
                      "A different gain mapping is a different measure: compare numbers only under one gain."),
        Misconception("gain-after-discount", "the gain applied after the discount",
                      "Each label becomes a gain first; the discount of its rank then multiplies that gain."),
        Misconception("discount-can-subtract", "the belief that a deep rank can lower DCG",
                      "Every discount used here is positive, so a relevant document adds at any rank and a "
                      "non-relevant one adds 0."),
        Misconception("discount-concave", "the belief that the discount curve is concave",
                      "1/log2(i+1) falls and its steps shrink: it is convex. The cumulative discount is "
                      "the concave one."),
        Misconception("discount-linear-loss", "the belief that every rank step costs the same",
                      "The discount falls steeply at the top and flattens in the tail: a step down near the "
                      "top costs the most."),
        Misconception("tools-agree", "the belief that every tool uses the same discount",
                      "Tools differ (1/log2(i+1) or 1/log2(i+2), gain, ties); two can disagree on the same "
                      "input and both be right by their own definition."),
        Misconception("binary-sees-grades", "the belief that P@k and AP see the grades",
                      "P@k and AP first turn every label into relevant or not: a label 3 and a label 1 count "
                      "the same."),
        Misconception("ap-flat-tail", "the belief that AP weighs deep ranks more than DCG does",
                      "AP weighs a relevant document by the precision at its rank, which falls about like 1/i "
                      "for a lone one; the logarithmic discount falls much more slowly."),
        Misconception("cg-sees-order", "the belief that CG depends on the order",
                      "CG adds the gains of the top k without a discount: any order of the same top k gives "
                      "the same CG."),
        Misconception("normalised-comparable", "the belief that normalising makes topics comparable",
                      "nDCG divides by each topic's own ideal; a topic with one top document loses a far "
                      "bigger share per rank of delay than a topic with many."),
        Misconception("perfect-without-relevant", "the belief that nDCG is 1 when nothing is relevant",
                      "With no positive judgment IDCG = 0; nDCG is then defined as 0, not 1."),
        Misconception("ndcg-needs-no-judgments", "the belief that nDCG needs only the ranked list",
                      "The ideal ranking needs the labels of every relevant document of the query, also "
                      "those the run missed."),
        Misconception("unjudged-neutral", "the belief that gain 0 for unjudged documents is neutral",
                      "Gain 0 reads an unjudged document as non-relevant; it is biased against systems that "
                      "found documents outside the pool."),
        Misconception("condense-is-free", "the belief that condensing removes the bias at no cost",
                      "Condensing assumes the unjudged gap tells nothing: it cannot tell two runs apart that "
                      "differ only in unjudged documents, and it rewards returning fewer documents."),
        Misconception("deeper-pool-is-enough", "the belief that a deeper pool alone makes a novel system fair",
                      "A deeper pool of other systems still misses what only the novel system found; judging "
                      "its own returns (joining the pool) is what helps."),
        Misconception("bias-constant", "the belief that the unjudged bias does not depend on the cutoff",
                      "Deeper cutoffs reach more documents no assessor saw: the bias grows with k."),
        Misconception("bare-number", "a result reported without its configuration",
                      "State gain, discount and base, cutoff, unjudged treatment and the ideal's source."),
        Misconception("labels-after-the-fact", "a label scheme chosen after the collection was built",
                      "Define what each label means before judging; a scheme fitted afterwards makes the "
                      "gain arbitrary."),
        Misconception("average-needs-same-scale", "the belief that per-query values cannot be averaged",
                      "Every query's nDCG lies in [0, 1] for non-negative gains, so a mean over queries is "
                      "defined; report how many queries it covers."),
        Misconception("code-guards-itself", "the belief that the exam's short code handles a list with nothing relevant",
                      "dcg(ideal, k) is 0 when every label is 0, and dividing by it raises an error: guard it."),
        Misconception("negative-is-nonrelevant", "a negative qrels label read as judged non-relevant",
                      "trec_eval reads a negative label as pooled but unjudged: gain 0, not in the ideal, "
                      "dropped by -J."),
        Misconception("ratio-above-one", "the belief that nDCG can exceed 1 (or is bounded without conditions)",
                      "With non-negative gains 0 <= DCG@k <= IDCG@k, so nDCG@k lies in [0, 1]; a negative gain "
                      "breaks the bounds."),
        Misconception("base-changes-ndcg", "the belief that the log base changes nDCG",
                      "Changing the base multiplies every discount by one constant, which cancels in DCG/IDCG."),
        Misconception("base-irrelevant", "the belief that the log base changes nothing",
                      "The base scales every discount, so DCG changes; only the ratio nDCG does not."),
        Misconception("gain-doubles", "the belief that exponential gain doubles with each label",
                      "2^l doubles, but the gain is 2^l - 1: 1, 3, 7, 15."),
        Misconception("unjudged-as-relevant", "the belief that unjudged documents are counted as relevant",
                      "Unjudged documents get gain 0 or are removed; they never add gain."),
        Misconception("unjudged-in-ideal", "the belief that unjudged documents are part of the ideal",
                      "The ideal is built from judged documents only."),
        Misconception("ties-file-order", "ties broken by the file's order or its rank column",
                      "trec_eval sorts by score and breaks ties by document name, descending; it ignores the "
                      "file order and the rank column."),
        Misconception("ties-random", "the belief that tied documents are ordered at random",
                      "trec_eval's order is deterministic: score descending, then document name descending."),
        Misconception("average-topics", "the wrong set of topics in the average",
                      "By default trec_eval averages over the topics in both the run and the qrels; -c "
                      "averages over all qrels topics, a missing one scoring 0."),
        Misconception("move-down-helps", "the belief that moving a better document down can raise DCG",
                      "Swapping a more relevant document above a less relevant one moves the larger gain to "
                      "the larger discount: DCG rises."),
    )
}
MISCONCEPTIONS.update(CONCEPT_MISCONCEPTIONS)
# chapter 13 (significance): the paired computation's mistakes and the concept ones
MISCONCEPTIONS.update({i: Misconception(i, n, h) for i, n, h in (*PAIRED_MISCONCEPTIONS, *SIGNIFICANCE_CONCEPTS)})


#: Mistaken ideal lists beyond the library's two sources: the ranked list in its own
#: order ("run-order"), the judgments in the order they were written down ("as-listed").
IDEAL_MISTAKES = ("run-order", "as-listed")


class Variant(NamedTuple):
    """One mistake applied to one setting.

    ``setting`` and ``asks`` are what the mistake computes (``asks`` may be
    ``"inverse"``: IDCG / DCG); ``rounding`` rounds every term to that many decimals
    first; ``ideal`` is one of :data:`IDEAL_MISTAKES` or None; ``detail`` says which
    form of the mistake it is (e.g. ``k = 4``), for the learner.
    """

    misconception: str
    detail: str
    setting: Setting
    asks: str
    rounding: int | None = None
    ideal: str | None = None

    @property
    def name(self) -> str:
        """The mistake as the feedback names it, with its detail."""
        m = MISCONCEPTIONS[self.misconception]
        if not self.detail:
            return m.name
        return f"{m.name}: {self.detail}" if self.misconception == "discount-other" else f"{m.name} ({self.detail})"

    def _sums(self) -> tuple[float, float]:
        s = self.setting
        if self.ideal is not None:
            top = dcg(list(s.labels), s.k, unjudged=s.unjudged, **s.kwargs())
            best = top if self.ideal == "run-order" else dcg(list(s.judgments or ()), s.k, **s.kwargs())
            return top, best
        if self.rounding is None:
            return quantity(s, "dcg"), quantity(s, "idcg")
        table = rank_table(s, s.k)
        top = sum(round(float(x), self.rounding) for x in table["discounted_gain"])
        best = sum(round(float(x), self.rounding) for x in table["ideal_discounted_gain"])
        return round(top, self.rounding), round(best, self.rounding)

    def value(self, rank: int | None = None) -> float | None:
        """The value this mistake gives, or None where it cannot be computed (e.g. 0/0)."""
        try:
            if self.asks in ("unjudged", "term") or (
                    self.asks in ("dcg", "idcg", "ndcg") and self.rounding is None and self.ideal is None):
                value = quantity(self.setting, self.asks, rank)
            else:
                top, best = self._sums()
                value = {"dcg": top, "idcg": best, "ndcg": top / best if best > 0 else 0.0,
                         "inverse": best / top if top > 0 else math.nan}[self.asks]
        except (TypeError, ValueError, ZeroDivisionError):
            return None
        return value if math.isfinite(value) else None

    def winner(self, labels_b: Sequence[float | int | None]) -> str | None:
        """Which list wins under this mistake: ``"A"``, ``"B"``, ``"same"``, or None."""
        a = self._replace(asks="ndcg").value()
        b = self._replace(asks="ndcg", setting=replace(self.setting, labels=tuple(labels_b))).value()
        if a is None or b is None:
            return None
        if math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12):
            return "same"
        return "A" if a > b else "B"


def variants(setting: Setting, asks: str, precision: int) -> list[Variant]:
    """Each common mistake that applies to ``asks`` under ``setting``, as what it computes."""
    out: list[Variant] = []
    add = out.append
    if setting.gain == "linear":
        add(Variant("gain-exponential-for-linear", "", setting.with_config(gain="exponential"), asks))
    elif setting.gain == "exponential":
        add(Variant("gain-linear-for-exponential", "", setting.with_config(gain="linear"), asks))

    specific: set[tuple[str, float | None]] = {(setting.discount, setting.base)}
    if setting.discount in ("log2", "log"):
        base = 2.0 if setting.discount == "log2" else setting.base
        if base != math.e:
            add(Variant("log-natural", "", setting.with_config(discount="log", base=math.e), asks))
        if base != 10:
            add(Variant("log-base10", "", setting.with_config(discount="log", base=10.0), asks))
        specific |= {("log", math.e), ("log", 10.0)}
    if setting.discount == "log2":
        add(Variant("discount-log2-i", "", setting.with_config(discount="jarvelin_kekalainen", base=2.0), asks))
        add(Variant("rank-shift", "", setting.with_config(discount="log2_shifted", base=None), asks))
        specific |= {("jarvelin_kekalainen", 2.0), ("log2_shifted", None)}
    for name, base in (("log2", None), ("log2_shifted", None), ("reciprocal", None),
                       ("jarvelin_kekalainen", 2.0), ("none", None)):
        if (name, base) not in specific:
            add(Variant("discount-other", resolve_discount(name, base).describe,
                        setting.with_config(discount=name, base=base), asks))

    if any(x is None for x in setting.labels):
        other = "condense" if setting.unjudged == "zero" else "zero"
        detail = ("unjudged documents removed before ranking" if other == "condense"
                  else "unjudged documents kept in place with gain 0")
        add(Variant("unjudged-policy", detail, setting.with_config(unjudged=other), asks))

    if asks in ("idcg", "ndcg"):
        if setting.ideal == "judgments" and setting.all_judgments is not None:
            add(Variant("ideal-from-run", "", setting.with_config(ideal="list"), asks))
        add(Variant("ideal-unsorted", "the ranked list in its own order", setting, asks, ideal="run-order"))
        if setting.ideal == "judgments" and setting.judgments is not None:
            add(Variant("ideal-unsorted", "the judgments in the order they were listed", setting, asks,
                        ideal="as-listed"))
    if setting.k is not None and asks in ("dcg", "idcg", "ndcg", "unjudged"):
        if setting.k > 1:
            add(Variant("cutoff-off-by-one", f"k = {setting.k - 1}", setting.with_config(k=setting.k - 1), asks))
        add(Variant("cutoff-off-by-one", f"k = {setting.k + 1}", setting.with_config(k=setting.k + 1), asks))
    if asks == "ndcg":
        add(Variant("no-normalisation", "", setting, "dcg"))
        add(Variant("ratio-inverted", "", setting, "inverse"))
    if asks in ("dcg", "idcg", "ndcg"):
        add(Variant("rounded-early", f"each term rounded to {precision} decimals", setting, asks, precision))
    return out
