"""The reconciler's explanation in words: what matches, how it differs from trec_eval,
and, topic by topic, why (the facts of :attr:`~.search.ConventionScores.facts`)."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING

from ..conventions import DIMENSIONS, TREC_EVAL, describe_value
from .search import canonical

if TYPE_CHECKING:
    from .result import Reconciliation

__all__ = ["explain", "fact_words"]


def fact_words(name: str, value: str, f: dict, k: int | None) -> str:
    top = "its whole list" if k is None else f"its top {k}"
    if name == "ideal":
        if value == "judgments_full":
            return (
                f"the ideal is not cut at {k}: all {f['relevant']} relevant documents count in the ideal DCG, "
                f"only the run's top {k} in its DCG"
            )
        if value == "retrieved":
            return (
                f"the run retrieved {f['retrieved_relevant']} of its {f['relevant']} relevant documents, "
                "and the ideal built from the retrieved list leaves the missed ones out"
            )
        return (
            f"only {f['relevant_in_top']} of its {f['relevant']} relevant documents are in the run's {top[4:]}, "
            "and the ideal is built from those"
        )
    if name == "gain":
        label = f["top_label"]
        return f"its labels go up to {label}: exponential gain weighs a label-{label} document {2 ** label - 1} instead of {label}"
    if name == "discount":
        return "every rank is discounted differently (" + describe_value("discount", value) + ")"
    if name == "ties":
        tied = int(f['tied_in_top'])
        return f"{tied} {'document' if tied == 1 else 'documents'} in {top} {'shares' if tied == 1 else 'share'} a score with another, so the tie rule ({describe_value('ties', value)}) decides their order"
    if name == "unjudged":
        return f"{f['unjudged_in_top']} documents in {top} are unjudged; removing them moves judged documents up"
    if name == "negatives":
        return (
            f"{f['negative_judged']} of its qrels lines have negative labels ({f['negative_retrieved']} retrieved), "
            + describe_value("negatives", value)
        )
    if name == "cutoff":
        if value == "k+1":
            label = f["label_after_k"]
            return f"rank {k + 1} is counted too (label {'-' if math.isnan(label) else int(label)})"  # type: ignore[operator]
        if value == "k-1":
            label = f["label_at_k"]
            return f"rank {k} is left out (label {'-' if math.isnan(label) else int(label)})"
        return f"all {f['retrieved']} retrieved documents count, not just the top {k}"
    return describe_value(name, value)


def explain(found: Reconciliation) -> str:
    target, scores = found.target, found.scores
    total = len(found.candidates)
    matches = found.matches
    what = "The target" + (f" ({target.describe()})" if target.per_topic else f" {target.mean:.{target.mean_digits}f}")
    lines = [target.left_out_sentence()] if target.left_out else []
    best = found.best
    if len(matches):
        lines.append(f"{what} is reproduced by {len(matches):,} of {total:,} configurations.")
        presets = matches["presets"].iloc[0]
        diffs = best.differences(TREC_EVAL, topics=target.mean is not None)
        head = f"Closest match to trec_eval{' (' + presets + ')' if presets else ''}: {best.describe(scores.k)}."
        lines.append(head)
        if diffs:
            lines.append("It differs from trec_eval in: " + "; ".join(
                f"{describe_value(d, getattr(best, d), scores.k)} instead of {describe_value(d, getattr(TREC_EVAL, d), scores.k)}"
                for d in diffs
            ) + ".")
        else:
            lines.append("That is trec_eval's own convention.")
        matching = {found._convention(row) for _, row in matches.iterrows()}
        others = [p for p in dict.fromkeys(", ".join(matches["presets"]).split(", ")) if p and p not in presets.split(", ")]
        if others:
            lines.append("Other presets that match: " + ", ".join(others) + ".")
        free = []
        for name, values in DIMENSIONS.items():
            if name == "topics" and target.mean is None:
                continue
            alike = [v for v in values if v != getattr(best, name) and canonical(replace(best, **{name: v})) in matching]
            if alike:
                free.append(f"{name} {' or '.join(alike)}")
        if free:
            lines.append("Single changes that give the same numbers on this data: " + "; ".join(free) + ".")
    else:
        digits = target.mean_digits if not target.per_topic else max(target.digits.values())
        lines.append(
            f"Nothing among {total:,} configurations reproduces the{what[3:]} to its printed {digits} decimals. "
            f"The closest is {found.candidates['distance'].iloc[0]:.2g} away: {best.describe(scores.k)}."
        )
        if target.mean is not None and target.mean > 1:
            lines.append("nDCG is at most 1 here; if the number is a percentage, divide it by 100.")
        lines.append(
            "Check that both numbers are for the same qrels, run, measure and cutoff; the other tool may also "
            "use a rule outside this space (a gain table, another discount, a relevance threshold)."
        )
    # topic by topic: where the best convention moves trec_eval's value the most
    table = found.topic_table(best)
    moved = table[table["change"].abs() > 0].head(5)
    if len(moved):
        lines.append("")
        lines.append("Topic by topic (largest changes from trec_eval first):")
        for row in moved.itertuples():
            lines.append(
                f"- topic {row.query_id}: trec_eval {row.trec_eval:.4f}, this convention {row.convention:.4f}"
                + (f" (target {row.target:.{target.digits.get(row.query_id, 4)}f})" if not math.isnan(row.target) else "")
                + f": {row.reason}."
            )
        rest = int((table["change"].abs() > 0).sum()) - len(moved)
        if rest > 0:
            lines.append(f"- and {rest} more topic{'s' if rest != 1 else ''} change.")
    if target.mean is not None and best.topics not in ("both", "listed"):
        mask, usual = scores.topic_mask(best.topics), scores.topic_mask("both")
        extra = int(mask.sum() - (mask & usual).sum())
        which = "qrels topics" if best.topics == "qrels" else "run topics"
        lacking = "results" if best.topics == "qrels" else "judgments"
        lines.append("")
        lines.append(
            f"The mean is over all {int(mask.sum())} {which} instead of the {int(usual.sum())} in both run and qrels: "
            f"{extra} topic{'s' if extra != 1 else ''} without {lacking} count{'' if extra != 1 else 's'} as 0."
        )
    return "\n".join(lines)
