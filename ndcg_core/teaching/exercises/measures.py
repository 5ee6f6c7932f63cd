r"""Exercises on the binary measures of chapter 12: P@R, bpref and MAP.

:data:`MEASURE_ASKS` are what such a numeric exercise asks; :func:`measure_quantity`
computes the right value through :mod:`ndcg_core.binary`, and the values the named mistakes
give (:data:`MISTAKES`: R taken from the list, unjudged counted as non-relevant, MAP pooled
over topics, ...); :func:`measure_solution` writes the worked solution. The setting's
``judgments`` are all judged labels of the (first) topic, non-relevant ones included
(bpref needs them); ``other_topics`` are the further topics of a MAP exercise.

>>> from .model import Setting
>>> s = Setting(labels=(1, 0, 2, 1, 0), judgments=(1, 0, 2, 1, 0))
>>> round(measure_quantity(s, "rprec"), 4), round(measure_quantity(s, "bpref"), 4)
(0.6667, 0.6667)
"""

from __future__ import annotations

from collections.abc import Sequence

from ...binary import average_precision, binarise, bpref, num_relevant, precision, r_precision
from .formatting import format_labels, format_number
from .model import Setting

__all__ = ["MEASURE_ASKS", "MEASURE_NAMES", "MISTAKES", "judged", "topics", "measure_quantity",
           "measure_mistakes", "measure_solution", "given_lines"]

#: What a numeric exercise on the binary measures asks.
MEASURE_ASKS = ("rprec", "bpref", "map")
#: How a learner reads each.
MEASURE_NAMES = {"rprec": "P@R (R-precision)", "bpref": "bpref", "map": "MAP"}


def judged(setting: Setting) -> list[float]:
    """All judged labels of the setting's topic: ``judgments``, else the list's own judged
    labels plus ``missed``."""
    if setting.judgments is not None:
        return [float(x) for x in setting.judgments]
    own = [float(x) for x in setting.labels if x is not None]
    return own + [float(x) for x in (setting.missed or ())]


def topics(setting: Setting) -> list[tuple[list[float | None], list[float]]]:
    """The (labels, judgments) pairs of every topic: the setting's, then ``other_topics``."""
    first = (list(setting.labels), judged(setting))
    return [first, *((list(a), [float(x) for x in b]) for a, b in setting.other_topics)]


def _bpref_divided_by_r(labels: Sequence[float | None], judgments: Sequence[float], t: float) -> float:
    """The mistaken bpref that divides by R instead of min(R, N) (Buckley and Voorhees's
    first form, which trec_eval does not use)."""
    total = num_relevant(judgments, t)
    if total == 0:
        return 0.0
    above, summed = 0, 0.0
    for x in labels:
        if x is None:
            continue
        if x < t:
            above += 1
        else:
            summed += 1.0 - min(above, total) / total
    return summed / total


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


def _pooled_map(pairs: Sequence[tuple[list[float | None], list[float]]], t: float) -> float:
    """The mistaken MAP that pools every topic's relevant documents: the sum of all AP terms
    divided by the total R (each relevant document weighs the same, not each topic)."""
    totals = [num_relevant(j, t) for _, j in pairs]
    summed = sum(average_precision(l, judgments=j, threshold=t) * r for (l, j), r in zip(pairs, totals))
    return summed / sum(totals) if sum(totals) else 0.0


def _bpref_unjudged_as_zero(setting: Setting) -> float:
    """The mistaken bpref that counts every unjudged document as judged non-relevant."""
    labels = [0.0 if x is None else float(x) for x in setting.labels]
    judgments = judged(setting) + [0.0] * sum(x is None for x in setting.labels)
    return bpref(labels, judgments=judgments, threshold=setting.threshold)


#: Named mistakes: asks -> ((misconception id, detail, quantity name), ...).
MISTAKES: dict[str, tuple[tuple[str, str, str], ...]] = {
    "rprec": (
        ("rprec-r-from-list", "", "rprec:r-from-list"),
        ("rprec-whole-list", "", "rprec:whole-list"),
    ),
    "bpref": (
        ("bpref-unjudged-as-nonrelevant", "", "bpref:unjudged-as-nonrelevant"),
        ("bpref-divides-by-r", "", "bpref:divides-by-r"),
    ),
    "map": (
        ("map-pooled", "", "map:pooled"),
        ("ap-over-retrieved", "", "map:divides-by-found"),
    ),
}


def measure_quantity(setting: Setting, asks: str) -> float:
    """The value of ``asks`` (one of :data:`MEASURE_ASKS`, or a mistake's ``"asks:mistake"``
    name from :data:`MISTAKES`) under ``setting``.

    >>> from .model import Setting
    >>> two = Setting(labels=(1, 0, 2, 1, 0), judgments=(2, 1, 1), other_topics=(((0, 1), (1,)),))
    >>> round(measure_quantity(two, "map"), 4), round(measure_quantity(two, "map:pooled"), 4)
    (0.6528, 0.7292)
    """
    t = setting.threshold
    labels, judgments = list(setting.labels), judged(setting)
    pairs = topics(setting)
    compute = {
        "rprec": lambda: r_precision(labels, judgments=judgments, threshold=t),
        "rprec:r-from-list": lambda: r_precision(labels, threshold=t),
        "rprec:whole-list": lambda: precision(labels, threshold=t),
        "bpref": lambda: bpref(labels, judgments=judgments, threshold=t),
        "bpref:unjudged-as-nonrelevant": lambda: _bpref_unjudged_as_zero(setting),
        "bpref:divides-by-r": lambda: _bpref_divided_by_r(labels, judgments, t),
        "map": lambda: _mean([average_precision(a, judgments=b, threshold=t) for a, b in pairs]),
        "map:pooled": lambda: _pooled_map(pairs, t),
        "map:divides-by-found": lambda: _mean([average_precision(a, threshold=t) for a, _ in pairs]),
    }
    if asks not in compute:
        raise ValueError(f"asks must be one of {', '.join(MEASURE_ASKS)}; got {asks!r}.")
    return float(compute[asks]())


def measure_mistakes(asks: str) -> tuple[tuple[str, str, str], ...]:
    """The named mistakes that apply to ``asks``: (misconception id, detail, quantity name)."""
    return MISTAKES.get(asks, ())


def given_lines(setting: Setting, asks: str) -> list[str]:
    """The data a binary-measure exercise states: lists, judgments, threshold, unjudged."""
    lines = []
    for number, (labels, judgments) in enumerate(topics(setting), start=1):
        if asks == "map":
            lines.append(f"Topic {number}: ranked list `{format_labels(labels)}`; "
                         f"all its judged labels (any order) `{format_labels(judgments)}`")
        else:
            lines.append(f"Ranked list (rank 1 first): `{format_labels(labels)}`")
            lines.append(f"All judged labels of the query (any order): `{format_labels(judgments)}`")
    lines.append(f"Relevant: a label ≥ {format_number(setting.threshold)}")
    if any(x is None for x in setting.labels):
        lines.append("`?` = a document nobody judged")
    return lines


def measure_solution(setting: Setting, asks: str) -> list[str]:
    """The worked solution's lines for a binary-measure exercise (without the answer line)."""
    t = setting.threshold
    if asks == "map":
        parts = []
        aps = []
        for number, (labels, judgments) in enumerate(topics(setting), start=1):
            ap = average_precision(labels, judgments=judgments, threshold=t)
            aps.append(ap)
            parts.append(f"Topic {number}: " + _ap_line(labels, judgments, t, ap))
        parts.append(f"MAP = ({' + '.join(format_number(a) for a in aps)}) / {len(aps)} = "
                     f"{format_number(_mean(aps))}: every topic weighs the same, whatever its R.")
        return parts
    labels, judgments = list(setting.labels), judged(setting)
    r = num_relevant(judgments, t)
    if asks == "rprec":
        flags = binarise(labels, t)
        top = flags[:r]
        return [
            f"R = {r}: the judged labels ≥ {format_number(t)} (found or not).",
            f"The top {r} as relevant (1) or not (0): `{', '.join(map(str, top)) or 'none'}`"
            + (f" (the list holds only {len(flags)} documents; the divisor stays R)" if len(flags) < r else "") + ".",
            f"P@R = {sum(top)} / {r} = {format_number(measure_quantity(setting, 'rprec'))}" if r else
            "R = 0: P@R is defined as 0.",
        ]
    n = sum(1 for x in judgments if x < t)
    steps = []
    above = 0
    for rank, x in enumerate(labels, start=1):
        if x is None:
            steps.append(f"rank {rank}: unjudged, skipped")
        elif x < t:
            above += 1
            steps.append(f"rank {rank}: judged non-relevant ({above} so far)")
        else:
            term = 1.0 if above == 0 else 1 - min(above, r) / min(n, r)
            steps.append(f"rank {rank}: relevant, {above} judged non-relevant above: "
                         + ("adds 1" if above == 0 else f"adds 1 - min({above}, {r})/min({n}, {r}) = {format_number(term)}"))
    return [
        f"R = {r} relevant and N = {n} judged non-relevant documents; unjudged documents are skipped.",
        "\n".join(f"- {s}" for s in steps),
        f"bpref = sum / R = {format_number(measure_quantity(setting, 'bpref'))}",
    ]


def _ap_line(labels: Sequence[float | None], judgments: Sequence[float], t: float, ap: float) -> str:
    flags = binarise(labels, t)
    r = num_relevant(judgments, t)
    found, terms = 0, []
    for rank, rel in enumerate(flags, start=1):
        if rel:
            found += 1
            terms.append(f"{found}/{rank}")
    body = " + ".join(terms) if terms else "0"
    return f"R = {r}; AP = ({body}) / {r} = {format_number(ap)}" if r else "R = 0: AP = 0"
