r"""What a learner reads around an exercise: the statement, the hints, the worked solution, the card.

The statement lists the given data under the bank's prompt; the worked solution is
written from the core's per-rank :func:`ndcg_core.breakdown`, term by term, the way it
is done on paper (``1/log2(i+1)``, ``2^l - 1``). :func:`card` gathers all of it for one
exercise of a chapter, with the feedback on a submitted answer.

>>> print(solution("lecture-dcg").splitlines()[-1])
**Answer:** DCG@5 = 2.4307 ≈ **2.43**
"""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

from .bank import resolve
from .binary import BINARY_ASKS
from .binary import solution_lines as binary_solution_lines
from .checking import check, expected_answer, format_answer
from .code import battery_markdown
from .demos import demo_markdown
from .formatting import format_labels, format_number, log_text, pipe_table
from .measures import MEASURE_ASKS, given_lines, measure_solution
from .model import Exercise, Feedback, Setting
from .values import ideal_labels, quantity, rank_table

__all__ = ["statement", "hints", "hint_items", "solution", "Card", "card"]


# --------------------------------------------------------------------------- notation


def _discount_text(setting: Setting, rank: int) -> str:
    """The discount at one rank as a learner writes it, e.g. ``1/log2(4)``."""
    name, base = setting.discount, setting.base
    if name == "log2":
        return f"1/log2({rank + 1})"
    if name == "log2_shifted":
        return f"1/log2({rank + 2})"
    if name == "reciprocal":
        return f"1/{rank}"
    if name == "log":
        return f"1/{log_text(base or 2.0, rank + 1)}"
    if name == "jarvelin_kekalainen":
        b = base or 2.0
        return "1" if rank < b else f"1/{log_text(b, rank)}"
    return "1"


def _gain_text(setting: Setting, label: float, gain: float) -> str:
    if setting.gain == "exponential":
        return f"2^{label:g} - 1 = {format_number(gain)}"
    if setting.gain == "table":
        return f"g({label:g}) = {format_number(gain)}"
    return format_number(gain)


def _term_text(setting: Setting, gain: float, rank: int) -> str:
    d = _discount_text(setting, rank)
    if d == "1":
        return format_number(gain)
    return f"{format_number(gain)}{d[1:]}" if d.startswith("1/") else f"{format_number(gain)}·{d}"


# --------------------------------------------------------------------------- statement, hints, card


def _given_lines(ex: Exercise) -> list[str]:
    s = ex.setting
    assert s is not None
    if ex.asks in MEASURE_ASKS:
        return given_lines(s, ex.asks)
    lines = []
    if ex.kind == "comparison":
        lines.append(f"Ranking A (rank 1 first): `{format_labels(s.labels)}`")
        lines.append(f"Ranking B (rank 1 first): `{format_labels(ex.labels_b or ())}`")
    else:
        lines.append(f"Ranked list (rank 1 first): `{format_labels(s.labels)}`")
    if s.judgments is not None:
        positive = [x for x in s.judgments if x > 0]
        lines.append(f"Relevant judgments of the query (all of them, in no particular order): `{format_labels(positive)}`")
    elif s.missed is not None:
        lines.append(
            "Judged relevant documents the list missed: "
            + (f"`{format_labels(s.missed)}`" if s.missed else "none")
        )
    if ex.asks in ("dcg", "idcg", "ndcg", "unjudged", "higher", "flips", "ideal", "precision", "ap") and s.k is not None:
        lines.append(f"Cutoff: k = {s.k}")
    if ex.asks in BINARY_ASKS:
        lines.append("Relevant: every label of 1 or more (a binary measure: the grade beyond that does not count)")
    elif ex.asks not in ("unjudged", "ideal"):
        lines.append(f"Configuration: {s.gain_phrase()}, {s.discount_phrase()}")
    elif ex.asks == "ideal" and s.gain != "linear":
        lines.append(f"Gain: {s.gain_phrase()}")
    if any(x is None for x in s.labels) and ex.asks != "unjudged":
        lines.append(
            "Unjudged documents (`?`): "
            + ("scored as gain 0, in place" if s.unjudged == "zero" else "removed before ranking (condensed list)")
        )
    if ex.asks in ("idcg", "ndcg", "higher", "flips") and (s.ideal == "list" or s.all_judgments is None):
        lines.append("Ideal list: built from the ranked list's own labels (the exam shortcut)")
    return lines


def statement(exercise: str | Exercise, *, with_options: bool = True) -> str:
    """The exercise as Markdown: the question, then the given data (generated).

    ``with_options=False`` leaves out a concept exercise's lettered options (for a
    notebook that shows them as radio buttons).

    >>> print(statement("lecture-dcg").splitlines()[-1])
    Give DCG@5 to 2 decimals.
    """
    ex = resolve(exercise)
    parts = [ex.prompt.strip()]
    if ex.setting is not None and ex.kind != "concept":
        parts.append("\n".join(f"- {line}" for line in _given_lines(ex)))
    if ex.kind == "numeric":
        unit = " (a percentage such as 78 % is fine too)" if ex.asks == "ndcg" else ""
        parts.append(f"Give {ex.quantity} to {ex.precision} decimal{'s' if ex.precision != 1 else ''}{unit}.")
    if ex.kind == "concept" and with_options:
        parts.append("\n".join(f"- {c}" for c in ex.choices))
    return "\n\n".join(parts)


def hints(exercise: str | Exercise) -> list[str]:
    """The exercise's hints, mildest first."""
    return list(resolve(exercise).hints)


def hint_items(exercise: str | Exercise) -> dict[str, str]:
    """Hints keyed ``"Hint 1"``, ``"Hint 2"``, ... (ready for an accordion).

    >>> list(hint_items("lecture-dcg"))
    ['Hint 1', 'Hint 2', 'Hint 3']
    """
    return {f"Hint {i}": text for i, text in enumerate(hints(exercise), start=1)}


class Card(NamedTuple):
    """What a chapter shows for one exercise, as Markdown.

    ``statement`` is a heading with the title, then the question (a multiple-choice
    exercise's options are left out: the answer box shows them); ``feedback`` is None
    until an answer was submitted; ``folded`` holds the hints and the worked solution.
    """

    statement: str
    feedback: Feedback | None
    folded: dict[str, str]


def card(exercise: str | Exercise, answer: str | None) -> Card:
    """The parts of one exercise's card; ``answer`` is the submitted text or None.

    >>> card("lecture-ndcg", None).feedback is None
    True
    >>> card("lecture-ndcg", "0,78").feedback.correct
    True
    >>> list(card("lecture-ndcg", None).folded)[-1]
    'Worked solution'
    """
    ex = resolve(exercise)
    heading = f"### {ex.title}\n\n" + statement(ex, with_options=not ex.choices)
    feedback = None if answer is None else check(ex, answer)
    return Card(heading, feedback, {**hint_items(ex), "Worked solution": solution(ex)})


# --------------------------------------------------------------------------- worked solutions


def _sum_line(name: str, terms: list[str], values: list[float], total: float) -> str:
    if not terms:
        return f"{name} = 0 (no document contributes)."
    exact = " + ".join(terms)
    numbers = " + ".join(format_number(v) for v in values)
    if exact == numbers or len(terms) == 1:
        return f"{name} = {exact} = {format_number(total)}" if exact != format_number(total) else f"{name} = {exact}"
    return f"{name} = {exact} = {numbers} = {format_number(total)}"


def _condense_note(s: Setting) -> list[str]:
    if s.unjudged == "condense" and any(x is None for x in s.labels):
        kept = [x for x in s.labels if x is not None]
        return [f"Condensed list: the unjudged documents are removed first, so the list becomes "
                f"`{format_labels(kept)}` and the documents after each ? move up."]
    return []


def _dcg_part(s: Setting) -> tuple[list[str], float]:
    """The ranked list's per-rank table and its DCG sum, term by term."""
    k = s.k
    table = rank_table(s, k)
    inside = table[table["status"] != "past end"]
    rows, terms = [], []
    for r in inside.itertuples(index=False):
        rank = int(r.rank)
        label = "?" if r.status == "unjudged" else f"{r.label:g}"
        gain = "0 (unjudged)" if r.status == "unjudged" else _gain_text(s, float(r.label), float(r.gain))
        rows.append([str(rank), label, gain, f"{_discount_text(s, rank)} = {format_number(float(r.discount))}",
                     format_number(float(r.discounted_gain)), format_number(float(r.dcg))])
        terms.append(_term_text(s, float(r.gain), rank))
    total = float(inside["dcg"].iloc[-1]) if len(inside) else 0.0
    md = pipe_table(["rank i", "label", "gain", "discount", "gain × discount", "DCG@i"], rows)
    values = [float(x) for x in inside["discounted_gain"]]
    name = "DCG" if k is None else f"DCG@{k}"
    note = []
    if k is not None and len(inside) < k:
        note = [f"The list has only {len(inside)} documents, so {name} sums ranks 1 to {len(inside)}."]
    return _condense_note(s) + [md] + note + [_sum_line(name, terms, values, total)], total


def _idcg_part(s: Setting) -> tuple[list[str], float]:
    """The ideal list, its per-rank table and its IDCG sum, term by term."""
    k = s.k
    table = rank_table(s, k)
    inside = table[table["ideal_gain"] > 0]
    rows, terms = [], []
    for r in inside.itertuples(index=False):
        rank = int(r.rank)
        rows.append([str(rank), f"{r.ideal_label:g}", _gain_text(s, float(r.ideal_label), float(r.ideal_gain)),
                     f"{_discount_text(s, rank)} = {format_number(float(r.discount))}",
                     format_number(float(r.ideal_discounted_gain)), format_number(float(r.idcg))])
        terms.append(_term_text(s, float(r.ideal_gain), rank))
    total = float(inside["idcg"].iloc[-1]) if len(inside) else 0.0
    md = pipe_table(["rank i", "ideal label", "gain", "discount", "gain × discount", "IDCG@i"], rows)
    values = [float(x) for x in inside["ideal_discounted_gain"]]
    name = "IDCG" if k is None else f"IDCG@{k}"
    source = (
        "all judged relevant documents of the query (the ranked list's and the missed ones)"
        if s.ideal_judgments is not None else "the ranked list's own labels (the exam shortcut)"
    )
    everything = ideal_labels(s) if s.ideal_judgments is not None else sorted(
        (float(x) for x in s.labels if x is not None and x > 0), reverse=True)
    out = [f"The ideal list sorts {source} by gain, largest first: `{format_labels(everything)}`"
           + (", then zeros." if everything else " (nothing is relevant).")]
    if k is not None and len(everything) > k:
        out.append(f"Only the first {k} count at cutoff k = {k}.")
    if not terms:
        return out + [f"{name} = 0: no judged document has a positive gain."], 0.0
    return out + [md, _sum_line(name, terms, values, total)], total


def _numeric_solution(ex: Exercise, s: Setting) -> list[str]:
    right = expected_answer(ex)
    if ex.asks in MEASURE_ASKS:
        return measure_solution(s, ex.asks) + [
            f"**Answer:** {ex.quantity} = {format_number(right)} ≈ **{right:.{ex.precision}f}**"]
    config = f"Configuration: {s.gain_phrase()}, {s.discount_phrase()}."
    at = "" if s.k is None else f"@{s.k}"
    if ex.asks == "term":
        assert ex.rank is not None
        row = rank_table(s, ex.rank).iloc[ex.rank - 1]
        label = "?" if row["status"] == "unjudged" else f"{row['label']:g}"
        gain = "0 (unjudged)" if row["status"] == "unjudged" else _gain_text(s, float(row["label"]), float(row["gain"]))
        parts = _condense_note(s) + [
            config,
            f"Rank {ex.rank} holds label {label}: gain {gain}; discount {_discount_text(s, ex.rank)} = "
            f"{format_number(float(row['discount']))}.",
            f"Term = {_term_text(s, float(row['gain']), ex.rank)} = {format_number(right)}",
        ]
    elif ex.asks in BINARY_ASKS:
        parts = binary_solution_lines(ex.asks, s, right)
    elif ex.asks == "unjudged":
        n = len(s.labels) if s.k is None else min(s.k, len(s.labels))
        count = sum(1 for x in s.labels[:n] if x is None)
        parts = [f"The top {n} hold {count} unjudged document(s) (`?`): {count}/{n} = {format_number(right)}. "
                 "The denominator is the number of documents actually in the top k."]
    elif ex.asks == "dcg":
        parts = [config] + _dcg_part(s)[0]
    elif ex.asks == "idcg":
        parts = [config] + _idcg_part(s)[0]
    else:
        d_body, top = _dcg_part(s)
        i_body, best = _idcg_part(s)
        if best > 0:
            ratio = (f"nDCG{at} = DCG{at} / IDCG{at} = {format_number(top)} / {format_number(best)} "
                     f"= {format_number(right)}")
        else:
            ratio = f"nDCG{at} = 0: the ideal DCG is 0 (no relevant judged document), so nDCG is defined as 0."
        parts = [config, "**Step 1: the ranked list.**"] + d_body + [
            "**Step 2: the ideal list.**"] + i_body + ["**Step 3: normalise.**", ratio]
    return parts + [f"**Answer:** {ex.quantity} = {format_number(right)} ≈ **{right:.{ex.precision}f}**"]


def _ideal_solution(ex: Exercise, s: Setting) -> list[str]:
    gain_note = "" if s.gain == "linear" else f" ({s.gain_phrase()})"
    found = [x for x in s.labels if x is not None and x > 0]
    parts = ["The ranked list's relevant labels: " + (f"`{format_labels(found)}`." if found else "none.")]
    if s.missed is not None:
        parts.append("Add the judged relevant documents it missed: "
                     + (f"`{format_labels(s.missed)}`." if s.missed else "none."))
    parts.append(f"Sort all of them by gain{gain_note}, largest first: "
                 f"**{format_labels(expected_answer(ex))}**, then zeros for any further rank.")
    return parts + [f"**Answer:** {format_answer(ex)}"]


def _comparison_solution(ex: Exercise, s: Setting) -> list[str]:
    assert ex.labels_b is not None
    parts = []
    gains = [s.gain] if ex.asks == "higher" else [s.gain, ex.other_gain or "exponential"]
    for g in gains:
        sg = s.with_config(gain=g)
        for name, labels in (("A", s.labels), ("B", ex.labels_b)):
            one = replace(sg, labels=labels)
            d_body, top = _dcg_part(one)
            best = quantity(one, "idcg")
            parts.append(f"**Ranking {name}, {sg.gain_phrase()}:**")
            parts += d_body
            parts.append(f"IDCG = {format_number(best)} (the same for both rankings: same judgments); "
                         f"nDCG = {format_number(top)} / {format_number(best)} = {format_number(quantity(one, 'ndcg'))}")
    return parts + [f"**Answer:** {format_answer(ex)}"]


def solution(exercise: str | Exercise) -> str:
    """The worked solution as Markdown, generated from the core's breakdown.

    >>> print(solution("lecture-ndcg").splitlines()[-1])
    **Answer:** nDCG@5 = 0.7763 ≈ **0.78**
    """
    ex = resolve(exercise)
    s = ex.setting
    if ex.kind in ("numeric", "ideal", "comparison"):
        assert s is not None
        write = {"numeric": _numeric_solution, "ideal": _ideal_solution, "comparison": _comparison_solution}[ex.kind]
        return "\n\n".join(write(ex, s))
    if ex.kind == "concept":
        parts = [ex.explanation.strip()] if ex.explanation else []
        if ex.demo:
            parts.append(demo_markdown(ex))
        parts.append(f"**Answer:** {format_answer(ex)}")
        return "\n\n".join(parts)
    return "\n\n".join([ex.explanation.strip(), battery_markdown(ex.function)])
