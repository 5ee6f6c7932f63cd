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
from .binary import BINARY_ASKS, binary_mistakes, mistaken_value
from .measures import MEASURE_ASKS, measure_mistakes
from .model import Setting
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
            "ideal-from-judgments",
            "the ideal from all judged documents where the exercise asks for the exam code's ideal",
            "The exam's short code sees only the list: its ideal is sorted(rels, reverse=True), the "
            "list's own labels. That is why it can overstate nDCG.",
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
            "rprec-r-from-list",
            "R counted from the ranked list only (the relevant documents it missed left out)",
            "R is the number of relevant judged documents of the query, found or not: count the "
            "relevant judged labels, then look at the top R of the list.",
        ),
        Misconception(
            "rprec-whole-list",
            "the precision of the whole list instead of the top R",
            "P@R cuts the list at rank R, the number of relevant documents: count the relevant "
            "documents among the first R ranks and divide by R.",
        ),
        Misconception(
            "bpref-unjudged-as-nonrelevant",
            "unjudged documents counted as judged non-relevant",
            "bpref reads judged documents only: skip every unjudged (?) document, and count only "
            "the judged non-relevant documents above each relevant one.",
        ),
        Misconception(
            "bpref-divides-by-r",
            "the non-relevant count divided by R instead of min(R, N)",
            "In trec_eval's bpref each relevant document adds 1 - min(n, R) / min(R, N), with N the "
            "judged non-relevant documents of the query.",
        ),
        Misconception(
            "map-pooled",
            "all topics' relevant documents pooled (a topic with many relevant documents weighs more)",
            "MAP is the plain mean of the topics' AP values: compute AP per topic, then average; "
            "every topic weighs the same.",
        ),
        Misconception(
            "ideal-ascending",
            "the ideal list sorted from smallest to largest",
            "The ideal ranking puts the most valuable document first: sort by gain, largest first.",
        ),
        Misconception(
            "ap-over-retrieved",
            "AP divided by the relevant documents the list found instead of all relevant documents (R)",
            "AP divides by R, every relevant judged document of the query: a relevant document the list "
            "never returned adds 0 to the sum and still counts in R.",
        ),
        Misconception(
            "ap-over-returned",
            "AP divided by the number of documents in the list",
            "AP averages over the relevant documents of the query: divide the sum of precisions by R, "
            "not by how many documents were returned.",
        ),
        Misconception(
            "precision-over-returned",
            "P@k divided by the length of a list shorter than k",
            "P@k divides by k, also when the list holds fewer than k documents (as trec_eval does): "
            "the empty ranks count as not relevant.",
        ),
        Misconception(
            "precision-as-recall",
            "relevant documents in the top k divided by R: that is recall, not precision",
            "Precision divides by the k ranks looked at; recall divides by R, the relevant documents "
            "of the query.",
        ),
        Misconception(
            "grades-as-counts",
            "the labels added up where a binary measure counts documents",
            "P@k and AP count relevant documents: a label 2 counts as one relevant document, "
            "exactly like a label 1.",
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
                      "What decides is the smaller cutoff: with at most 10 relevant documents the ideal is "
                      "used up by rank 10 and nDCG@100 cannot fall below nDCG@10; a drop needs more relevant "
                      "documents than 10, which can still be fewer than 100."),
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
        Misconception("ap-flat-tail", "the belief that AP keeps at least as much weight deep in the list as DCG",
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
        # Beliefs named by the review of every concept option (issue 20).
        Misconception("unjudged-only-lowers", "the belief that incomplete judgments can only lower nDCG",
                      "True for DCG. nDCG divides by an ideal built from the same judgments: relevant documents "
                      "nobody judged are absent from it too, so a pooled system's nDCG can come out too high."),
        Misconception("fixed-reader-reciprocal", "the belief that 1/i models a reader who reads a fixed number of results",
                      "A reader who always reads n results is a step discount (1 up to rank n, then 0): CG@n. "
                      "1/i fits a reader who reaches rank i with probability 1/i."),
        Misconception("reciprocal-slow", "the belief that 1/i decays slowly and keeps the tail",
                      "1/i keeps a tenth at rank 10 and a hundredth at rank 100; 1/log2(i+1) keeps 0.29 and "
                      "0.15 there."),
        Misconception("rank-one-by-convention", "the belief that every discount leaves rank 1 alone",
                      "The shifted discount 1/log2(i+2) gives rank 1 only 0.63. Under 1/log2(i+1) rank 1 keeps "
                      "its gain because log2(2) = 1, not by convention."),
        Misconception("ideal-from-run-always-wrong", "the belief that an ideal sorted from the run is always wrong",
                      "It is right exactly when the run contains every relevant document of the query; it "
                      "overstates nDCG only when the run missed some."),
        Misconception("code-divides-always", "the belief that the exam's short code divides by zero on any list",
                      "dcg(ideal, k) is 0 only when every label of the list is 0; a list with a relevant "
                      "document divides by a positive number."),
        Misconception("ndcg-negative", "the belief that nDCG can come out negative with non-negative labels",
                      "With labels and gains of 0 or more every term is 0 or more, so DCG and IDCG are too; "
                      "the only failure is 0/0."),
        Misconception("gain-ignored", "the belief that a higher label changes nothing before the discount",
                      "A document's term is its gain times the discount of its rank: a higher label raises the "
                      "gain at any rank."),
        Misconception("decisions-other", "other decisions in place of gain, discount and ideal",
                      "nDCG stacks three choices: what a label is worth (gain), how fast rank erodes it "
                      "(discount), and what the top of the scale is (the ideal list)."),
        Misconception("gain-one-list", "the belief that the gain applies to one of the two lists only",
                      "The same gain maps every label, in the ranked list and in the ideal list alike; "
                      "otherwise DCG and IDCG would measure different things."),
        Misconception("exponential-standard", "the belief that exponential gain is the one standard",
                      "trec_eval, pytrec_eval, ir_measures and scikit-learn use linear gain; gdeval and many "
                      "learning-to-rank libraries use 2^l - 1. Choose by what the labels mean, and say which."),
        Misconception("dcg-ignores-order", "the belief that DCG and nDCG ignore where a document is ranked",
                      "DCG multiplies each gain by the discount of its rank: moving a relevant document down "
                      "lowers it. Only CG ignores the order within the top k."),
        Misconception("labels-same-scale", "the belief that a label means the same on every scale",
                      "Labels are codes of their own scale: a 2 is the top grade of a 0-2 scale and one below "
                      "the top of a 0-3 scale."),
        Misconception("ap-reciprocal-all", "the belief that AP weighs every relevant document by 1/i",
                      "AP adds the precision at each relevant document's rank, (relevant so far)/i; only the "
                      "first relevant document gets exactly 1/i, so nDCG with 1/i is not AP."),
        Misconception("ap-count-only", "the belief that AP only counts relevant documents, wherever they are",
                      "AP adds the precision at each relevant document's rank: the lower it is found, the less "
                      "it adds."),
        Misconception("discount-sets-gain", "the belief that the discount decides how grades count",
                      "The discount weighs ranks only; the gain still prices each grade, whatever the discount."),
        Misconception("ideal-without-run", "the belief that the ideal leaves out the run's own documents",
                      "The ideal sorts every judged document, the run's own relevant ones included; the short "
                      "code's ideal is the run itself, sorted."),
        Misconception("dcg-normalised", "the belief that CG or DCG already lies in [0, 1]",
                      "CG and DCG grow with the gains and the cutoff (the lecture's DCG@5 is 2.43); only the "
                      "division by IDCG@k brings the value into [0, 1]."),
        Misconception("bound-wrong-condition", "a wrong condition for nDCG to lie in [0, 1]",
                      "What matters is that every gain is non-negative: then 0 <= DCG@k <= IDCG@k, with any "
                      "gain function and at any cutoff."),
        Misconception("ndcg-counts-documents", "the belief that nDCG is a share of documents",
                      "nDCG is a share of gain: DCG@k over the best DCG@k the judgments allow. It does not "
                      "count relevant documents shown or found."),
        Misconception("ndcg-is-probability", "the belief that nDCG is a probability of user satisfaction",
                      "nDCG is a ratio of two sums of discounted gains; no user model makes it a probability "
                      "unless one is stated and checked."),
        Misconception("ndcg-binary", "the belief that nDCG only asks whether documents are relevant",
                      "nDCG weighs each document by its grade: an all-relevant top k is not ideal when a "
                      "higher-graded document was not retrieved or is ranked lower."),
        Misconception("unjudged-rejected", "the belief that a run with unjudged documents cannot be scored",
                      "Tools score it: trec_eval gives unjudged documents gain 0 by default and removes them "
                      "with -J."),
        Misconception("negative-label-rejected", "the belief that trec_eval rejects a negative qrels label",
                      "trec_eval reads it: a negative label marks a pooled but unjudged document (gain 0, "
                      "not in the ideal, dropped by -J)."),
        Misconception("negative-label-penalty", "the belief that a negative qrels label is a negative gain",
                      "trec_eval never uses the label -1 as a gain: the document counts as unjudged, gain 0. "
                      "A gain table that gives a label a negative gain is a different, explicit choice."),
        Misconception("exponential-top-weight", "the belief that exponential gain does not raise the top label's weight",
                      "2^l - 1 gives label 3 the gain 7 against 3 under linear gain: the top label weighs more, "
                      "so a gap that depends on where it sits grows."),
        Misconception("deep-steps-cost-more", "the belief that a step down costs more deep in the list",
                      "1/log2(i+1) falls steeply at the top and flattens in the tail: rank 1 to 2 costs 0.37 of "
                      "the gain, rank 50 to 51 less than 0.001."),
        Misconception("shifted-fixes-cutoff", "the belief that the shifted discount makes nDCG independent of the cutoff",
                      "IDCG@k changes with k under any discount; the shifted curve only flattens the top. Compare "
                      "nDCG at one stated cutoff."),
        Misconception("rescoring-fixes-pool", "the belief that rescoring can stand in for judgments nobody made",
                      "No rescoring creates judgments: the guarantee needs assessors to judge every document any "
                      "system returned above the cutoff."),
        Misconception("pools-complete", "the belief that collections judge every document a run returns",
                      "A pool holds the top d documents of the contributing runs only; other runs, and cutoffs "
                      "deeper than d, meet unjudged documents."),
        Misconception("threshold-ignored", "the belief that every positive label counts as relevant whatever the threshold",
                      "With threshold 2 a label counts as relevant only from 2 up: a label 1 is then not relevant."),
        Misconception("threshold-drops", "the belief that a label below the threshold is removed from the ranking",
                      "A binary measure keeps every document in place; below the threshold it counts as not "
                      "relevant, like a label 0."),
        Misconception("rprec-fixed-k", "the belief that P@R uses one fixed cutoff for every query",
                      "R is the number of relevant documents of this query: each query gets its own cutoff."),
        Misconception("map-topic-weights", "the belief that topics weigh differently in MAP",
                      "MAP is the plain mean of AP over topics: every topic weighs 1/|Q|, whatever its R."),
        Misconception("ndcg-for-incomplete", "the belief that nDCG was made for incomplete judgments",
                      "nDCG needs graded labels and the ideal ranking, built from every relevant judged document; "
                      "a document nobody judged gets gain 0 or is removed, with a bias either way."),
        Misconception("all-need-complete", "the belief that every measure needs every retrieved document judged",
                      "bpref skips documents nobody judged, and condensed nDCG removes them; P@k, P@R, AP and "
                      "nDCG with gain 0 count them as not relevant."),
        Misconception("measure-fits-any-judgments", "the belief that every measure suits every kind of judgments",
                      "Measures differ in what they need: nDCG needs graded labels and the ideal ranking "
                      "(complete judgments); bpref was made for incomplete binary judgments."),
    )
}
MISCONCEPTIONS.update(CONCEPT_MISCONCEPTIONS)


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
            if self.asks in BINARY_ASKS:
                binary = mistaken_value(self.setting, self.misconception, self.asks)
                if binary is None:
                    return None
                value = binary
            elif self.asks in ("unjudged", "term") or ":" in self.asks or self.asks in MEASURE_ASKS or (
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
    if asks in MEASURE_ASKS:
        return [Variant(mid, detail, setting, name) for mid, detail, name in measure_mistakes(asks)]
    if asks in BINARY_ASKS:
        return [Variant(mid, "", setting, asks) for mid in binary_mistakes(asks)]
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
        elif setting.ideal == "list" and setting.all_judgments is not None:
            add(Variant("ideal-from-judgments", "", setting.with_config(ideal="judgments"), asks))
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
