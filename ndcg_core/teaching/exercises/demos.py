r"""The small tables a concept exercise's worked solution shows, computed by the core.

A concept exercise names one of :data:`~.model.DEMOS` (``demo = "curve"`` in the bank);
:func:`demo_markdown` runs the exercise's list through the choices the concept is about
(both gains, three log bases, both unjudged policies, both ideal sources, ...) and
returns one Markdown table.

>>> print(demo_markdown(resolve("discounts-base-cancel")).splitlines()[2])
| discount | DCG@5 | IDCG@5 | nDCG@5 |
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from ...gains import resolve_gain
from ...metrics import UNJUDGED_POLICIES, ndcg_curve, unjudged_fraction
from .bank import resolve
from .formatting import format_labels, format_number, log_text, pipe_table
from .model import DEMOS, Exercise, Setting
from .values import quantity

__all__ = ["demo_markdown"]

_POLICY_WORDS = {"zero": "unjudged scored as gain 0", "condense": "unjudged removed (condensed)"}


def _scores_row(title: str, s: Setting) -> list[str]:
    return [title, format_number(quantity(s, "dcg")), format_number(quantity(s, "idcg")),
            format_number(quantity(s, "ndcg")), format_number(unjudged_fraction(list(s.labels), s.k))]


def demo_markdown(exercise: str | Exercise) -> str:
    """A small table computed by the core that shows the exercise's concept at work.

    Raises
    ------
    ValueError
        If the exercise names no demo, or one not in :data:`~.model.DEMOS`.
    """
    ex = resolve(exercise)
    s = ex.setting
    if s is None or ex.demo not in DEMOS:
        raise ValueError(f"demo must be one of {', '.join(DEMOS)}; got {ex.demo!r}.")
    k = "" if s.k is None else f"@{s.k}"
    if ex.demo == "gains":
        labels = sorted({x for x in s.labels if x is not None})
        values = np.asarray(labels, dtype=float)
        lin = resolve_gain("linear")(values)
        exp = resolve_gain("exponential")(values)
        rows = [[f"{label:g}", format_number(a), format_number(b)] for label, a, b in zip(labels, lin, exp)]
        return "Computed exactly:\n\n" + pipe_table(["label", "linear gain", "exponential gain"], rows)
    if ex.demo == "curve":
        curve = ndcg_curve(list(s.labels), judgments=s.ideal_judgments, unjudged=s.unjudged,
                           max_k=s.k, **s.kwargs())
        rows = [[str(i), format_number(v)] for i, v in enumerate(curve, start=1)]
        return (f"Computed exactly for the list `{format_labels(s.labels)}` and judgments "
                f"`{format_labels(x for x in (s.all_judgments or ()) if x > 0)}`:\n\n"
                + pipe_table(["k", "nDCG@k"], rows))
    if ex.demo == "base-cancel":
        rows = []
        for b in (2.0, math.e, 10.0):
            one = s.with_config(discount="log", base=b)
            rows.append([f"1/{log_text(b, 1).replace('(1)', '(i+1)')}", format_number(quantity(one, "dcg")),
                         format_number(quantity(one, "idcg")), format_number(quantity(one, "ndcg"))])
        return (f"Computed exactly for the list `{format_labels(s.labels)}`:\n\n"
                + pipe_table(["discount", f"DCG{k}", f"IDCG{k}", f"nDCG{k}"], rows))
    lists = (("list as given", s.labels),) + tuple(ex.demo_lists)
    entries: list[tuple[str, Setting]] = []
    if ex.demo == "condense":
        for title, labels in lists:
            for policy in UNJUDGED_POLICIES:
                entries.append((f"`{format_labels(labels)}` ({title}), {_POLICY_WORDS[policy]}",
                                replace(s.with_config(unjudged=policy), labels=labels)))
    elif ex.demo == "ideal-sources":
        for title, labels in lists:
            entries.append((f"`{format_labels(labels)}` ({title}), ideal from all judgments", replace(s, labels=labels)))
            entries.append((f"`{format_labels(labels)}` ({title}), ideal from the list itself",
                            replace(s.with_config(ideal="list"), labels=labels)))
    elif ex.demo == "lists":
        for title, labels in lists:
            entries.append((f"`{format_labels(labels)}` ({title})", replace(s, labels=labels)))
    else:
        for gain in ("linear", "exponential"):
            for discount in ("log2", "reciprocal"):
                one = s.with_config(gain=gain, discount=discount, base=None)
                entries.append((one.config.describe(), one))
    first = "configuration" if ex.demo == "configs" else "ranking"
    return "Computed exactly:\n\n" + pipe_table(
        [first, f"DCG{k}", f"IDCG{k}", f"nDCG{k}", "unjudged fraction"], [_scores_row(t, one) for t, one in entries])
