"""ndcg_core.ui.tables: DataFrames as Markdown text for the notebooks' ``mo.md``."""

from __future__ import annotations

from math import log2

import pandas as pd
import pytest

from ndcg_core.teaching import compare
from ndcg_core.ui.tables import markdown_table


def test_markdown_table_formats_numbers_for_reading():
    table = pd.DataFrame({"x": [2.0, 2 / 3, float("nan")], "name": ["a|b", "c", None]}, index=pd.Index([1, 2, 3], name="rank"))
    assert markdown_table(table, 3).splitlines() == [
        "| rank | x | name |",
        "| --- | ---: | --- |",
        "| 1 | 2 | a\\|b |",
        "| 2 | 0.667 | c |",
        "| 3 | — | — |",
    ]


def test_markdown_table_writes_a_comparison_table():
    """The gain table of chapter 02: linear l, exponential 2^l - 1, whole numbers without decimals."""
    assert markdown_table(compare.gain_values((0, 2, 3))).splitlines() == [
        "| label | linear | exponential |",
        "| --- | ---: | ---: |",
        f"| 0 | 0 | {2**0 - 1} |",
        f"| 2 | 2 | {2**2 - 1} |",
        f"| 3 | 3 | {2**3 - 1} |",
    ]


def test_markdown_table_without_the_index_and_booleans_in_words():
    table = pd.DataFrame({"d(2)": [1 / log2(2 + 1)], "in the pool": [True]})
    assert markdown_table(table, 2, index=False).splitlines() == [
        "| d(2) | in the pool |",
        "| ---: | ---: |",
        f"| {1 / log2(3):.2f} | yes |",
    ]


def test_markdown_table_errors():
    with pytest.raises(TypeError, match=r"table must be a pandas DataFrame; got list"):
        markdown_table([1, 2])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"digits must be a whole number of decimals, 0 or more; got digits=-1"):
        markdown_table(pd.DataFrame({"x": [1]}), -1)
