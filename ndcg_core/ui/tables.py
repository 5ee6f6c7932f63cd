"""Tables as Markdown text for the notebooks' ``mo.md``: numbers rounded for reading.

:func:`markdown_table` writes any DataFrame (the comparison tables of
:mod:`ndcg_core.teaching.compare`, a per-rank breakdown, a per-topic table) as a Markdown
table: whole numbers as integers, other numbers to a fixed number of decimals, NaN and
None as a dash, ``yes``/``no`` for booleans. It draws nothing and needs no marimo.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
import pandas as pd

__all__ = ["markdown_table"]


def _cell(value: object, digits: int) -> str:
    """One value as table text: a dash for None/NaN, integers without decimals, ``|`` escaped."""
    if value is None:
        return "—"
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, (Integral, np.integer)):
        return str(int(value))
    if isinstance(value, (Real, np.floating)):
        number = float(value)
        if np.isnan(number):
            return "—"
        if np.isfinite(number) and number.is_integer() and abs(number) < 1e15:
            return str(int(number))
        return f"{number:.{digits}f}"
    return str(value).replace("|", "\\|").replace("\n", " ")


#: The header of an unnamed index column: the word "row", for screen readers only.
_UNNAMED_INDEX = (
    '<span style="position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); '
    'white-space: nowrap">row</span>'
)


def markdown_table(table: pd.DataFrame, digits: int = 4, *, index: bool = True) -> str:
    """A table as Markdown text for ``mo.md``: whole numbers as integers, others to ``digits`` decimals.

    NaN and None show as a dash. The index (with its name as the header) is the first
    column unless ``index=False``. Numeric columns are right-aligned.

    Parameters
    ----------
    table
        Any :class:`pandas.DataFrame`.
    digits
        Decimals for numbers that are not whole (0 or more).
    index
        Whether the index is written as the first column.

    Raises
    ------
    TypeError
        ``table`` is not a DataFrame.
    ValueError
        ``digits`` is not a whole number of 0 or more.

    Examples
    --------
    >>> from math import log2
    >>> lecture = pd.DataFrame({"d(i)": [1 / log2(i + 1) for i in (1, 2, 3)]},
    ...                        index=pd.Index([1, 2, 3], name="rank"))
    >>> print(markdown_table(lecture))
    | rank | d(i) |
    | --- | ---: |
    | 1 | 1 |
    | 2 | 0.6309 |
    | 3 | 0.5000 |
    >>> print(markdown_table(pd.DataFrame({"x": [2 / 3, float("nan")]}), 2, index=False))
    | x |
    | ---: |
    | 0.67 |
    | — |
    """
    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"table must be a pandas DataFrame; got {type(table).__name__}.")
    if isinstance(digits, bool) or not isinstance(digits, Integral) or digits < 0:
        raise ValueError(f"digits must be a whole number of decimals, 0 or more; got digits={digits!r}.")
    headers = [_cell(name, digits) if name is not None else "" for name in table.columns]
    aligns = ["---:" if pd.api.types.is_numeric_dtype(table[c]) else "---" for c in table.columns]
    if index:
        # an unnamed index still gets a header a screen reader can read (an empty <th> fails
        # WCAG's table-header rule); it is drawn invisibly
        headers.insert(0, _UNNAMED_INDEX if table.index.name is None else _cell(table.index.name, digits))
        aligns.insert(0, "---")
    lines = ["| " + " | ".join(headers) + " |", "| " + " | ".join(aligns) + " |"]
    for label, row in zip(table.index, table.itertuples(index=False)):
        cells = [_cell(v, int(digits)) for v in row]
        if index:
            cells.insert(0, _cell(label, int(digits)))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
