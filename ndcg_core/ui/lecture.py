"""The lecturer's toolbar on the playground page (notebook 01): build the ideal ranking one rank
per press of *Next rank of the ideal*.

- :func:`ideal_rows`: the ranks of the ideal ranking that add gain;
- :func:`ideal_step_count`: how many of them to show after some presses (all of them in a
  handout, :func:`ndcg_core.ui.deck.in_handout`);
- :func:`ideal_steps_html`: the ideal ranking built up to that rank.

Deck 01 (``notebooks/decks/01_playground.py``) uses them too; the words of every deck's slides
are in :mod:`ndcg_core.ui.deck`. The numbers come from :func:`ndcg_core.ui.playground.evaluate`
(the per-rank breakdown): nothing here computes a score.

>>> from ndcg_core.ui.playground import evaluate
>>> r = evaluate("1, 0, 2, 1, 0", "", k=5)
>>> ideal_rows(r)
3
>>> [ideal_step_count(r, presses) for presses in range(6)]
[0, 1, 2, 3, 0, 1]
"""

from __future__ import annotations

import html

from .deck import HIDDEN_NOTE, in_handout
from .playground import PlaygroundResult

__all__ = [
    "HIDDEN_NOTE",
    "ideal_rows",
    "ideal_step_count",
    "ideal_steps_html",
]

def ideal_rows(result: PlaygroundResult) -> int:
    """The ranks of the ideal ranking that add gain (ideal gain > 0) within the cutoff."""
    return int((result.table["ideal_gain"] > 0).sum())


def ideal_step_count(result: PlaygroundResult, presses: int) -> int:
    """How many ranks of the ideal ranking to show after ``presses`` presses of *Next rank*.

    One rank per press; after the last rank that adds gain the next press starts again at 0.
    In a handout (:func:`in_handout`) every rank is shown, whatever the presses.
    """
    if isinstance(presses, bool) or not isinstance(presses, int) or presses < 0:
        raise ValueError(f"presses must be a whole number >= 0; got {presses!r}.")
    if in_handout():
        return ideal_rows(result)
    return presses % (ideal_rows(result) + 1)


def _cell(text: object, *, header: bool = False) -> str:
    tag = "th" if header else "td"
    return f"<{tag}>{html.escape(str(text))}</{tag}>"


def ideal_steps_html(result: PlaygroundResult, shown: int, *, hidden: bool = False) -> str:
    """The ideal ranking built rank by rank: ranks 1..``shown`` with their ideal label, gain,
    discount, discounted gain and running IDCG (from the per-rank breakdown), then a line that
    says what the next press adds.

    >>> from ndcg_core.ui.playground import evaluate
    >>> page = ideal_steps_html(evaluate("1, 0, 2, 1, 0", k=5), 2)
    >>> "IDCG@2 = 2.6309" in page and "rank 3" in page
    True
    """
    total = ideal_rows(result)
    shown = max(0, min(int(shown), total))
    table = result.table
    heads = ["rank i", "ideal label", "gain", "discount", "gain × discount", "IDCG@i"]
    rows = []
    for r in table.iloc[:shown].itertuples(index=False):
        rows.append(
            "<tr>"
            + "".join(
                _cell(v)
                for v in (
                    int(r.rank),
                    f"{r.ideal_label:g}",
                    f"{r.ideal_gain:.4f}",
                    f"{r.discount:.4f}",
                    "····" if hidden else f"{r.ideal_discounted_gain:.4f}",
                    "····" if hidden else f"{r.idcg:.4f}",
                )
            )
            + "</tr>"
        )
    if total == 0:
        status = "No judged document has a positive gain: the ideal ranking adds nothing, IDCG = 0."
    elif shown == 0:
        status = "Press <b>Next rank of the ideal</b> to place the best judged document at rank 1."
    elif shown < total:
        idcg = "····" if hidden else f"{float(table['idcg'].iloc[shown - 1]):.4f}"
        status = f"IDCG@{shown} = {idcg}. The next press places rank {shown + 1}."
    else:
        idcg = "····" if hidden else f"{float(table['idcg'].iloc[total - 1]):.4f}"
        status = (f"IDCG@{result.k if result.k is not None else total} = {idcg}: every judged relevant "
                  "document is placed (the ranks after it add 0). The next press starts again.")
    head = "<tr>" + "".join(_cell(h, header=True) for h in heads) + "</tr>"
    body = f'<table class="ndcg-breakdown ndcg-ideal-steps"><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table>'
    return f'<div class="ndcg-ideal-steps-box">{body if shown else ""}<p class="ndcg-step-status">{status}</p></div>'
