"""ndcg_core.ui.playground (the playground's tested glue) and ndcg_core.teaching.presets.

Expected values are derivations; the lecture example is labels 1, 0, 2, 1, 0 whose relevant
documents (2, 1, 1) are all in the list.
"""

from __future__ import annotations

from math import log, log2

import pytest

import ndcg_core as nc
from ndcg_core.ui import playground
from ndcg_core.teaching.presets import PRESETS, preset, preset_titles

DCG_5 = 1 / log2(2) + 0 / log2(3) + 2 / log2(4) + 1 / log2(5) + 0 / log2(6)
IDCG_5 = 2 / log2(2) + 1 / log2(3) + 1 / log2(4)


def test_lecture_example() -> None:
    r = playground.evaluate("1, 0, 2, 1, 0", "", k=5)
    assert r.scored.dcg == pytest.approx(DCG_5)
    assert r.scored.idcg == pytest.approx(IDCG_5)
    assert r.scored.ndcg == pytest.approx(DCG_5 / IDCG_5)
    assert r.judgments == [1, 0, 2, 1, 0]
    assert r.missed == []
    assert list(r.table["rank"]) == [1, 2, 3, 4, 5]
    assert r.curve[-1] == pytest.approx(DCG_5 / IDCG_5)
    assert r.config.describe().startswith("nDCG@5 with linear gain")


def test_judged_documents_not_in_the_list_join_the_ideal() -> None:
    r = playground.evaluate("1, 0, 2", "2", k=3)
    assert r.judgments == [1, 0, 2, 2]
    assert r.scored.idcg == pytest.approx(2 / log2(2) + 2 / log2(3) + 1 / log2(4))
    assert r.scored.dcg == pytest.approx(1 / log2(2) + 2 / log2(4))


def test_ideal_from_the_list_ignores_missed_documents() -> None:
    p = preset("missed")
    fair = playground.evaluate(p.labels, p.missed, k=5)
    shortcut = playground.evaluate(p.labels, p.missed, k=5, ideal="list")
    assert shortcut.scored.ndcg == 1.0
    assert fair.scored.ndcg == pytest.approx(3 / (3 + 3 / log2(3) + 2 / log2(4) + 2 / log2(5)))
    assert "exam shortcut" in shortcut.config.describe()
    # the table and the curve follow the same ideal as the numbers
    assert shortcut.table["idcg"].iloc[-1] == pytest.approx(3.0)
    assert shortcut.curve[-1] == 1.0


def test_gain_table_is_used_when_gain_is_table() -> None:
    table = playground.evaluate("1, 0, 2, 1, 0", k=5, gain="table", gain_table="0:0, 1:1, 2:3, 3:7")
    exponential = playground.evaluate("1, 0, 2, 1, 0", k=5, gain="exponential")
    assert table.scored.dcg == pytest.approx(exponential.scored.dcg)
    assert table.scored.dcg == pytest.approx(1 / log2(2) + 3 / log2(4) + 1 / log2(5))


def test_gain_table_is_ignored_for_named_gains() -> None:
    r = playground.evaluate("1, 0, 2", k=3, gain="linear", gain_table="nonsense")
    assert r.scored.dcg == pytest.approx(1 + 2 / log2(4))


def test_log_base_changes_dcg_but_cancels_in_ndcg() -> None:
    base2 = playground.evaluate("1, 0, 2, 1, 0", k=5, discount="log2")
    base10 = playground.evaluate("1, 0, 2, 1, 0", k=5, discount="log", base=10)
    assert base10.scored.dcg == pytest.approx(DCG_5 * log(10) / log(2))  # 1/log10(i+1) = log(10)/log(i+1)
    assert base10.scored.ndcg == pytest.approx(base2.scored.ndcg)


def test_base_is_passed_only_to_discounts_that_take_one() -> None:
    assert playground.base_for("jarvelin_kekalainen", 3) == 3
    assert playground.base_for("log", 10) == 10
    assert playground.base_for("reciprocal", 10) is None
    r = playground.evaluate("1, 0, 2", k=3, discount="reciprocal", base=10)
    assert r.scored.dcg == pytest.approx(1 / 1 + 2 / 3)
    jk = playground.evaluate("1, 0, 2, 1", k=4, discount="jarvelin_kekalainen", base=3)
    assert jk.scored.dcg == pytest.approx(1 + 0 + 2 / (log(3) / log(3)) + 1 / (log(4) / log(3)))


def test_unjudged_zero_versus_condense() -> None:
    p = preset("unjudged")
    zero = playground.evaluate(p.labels, p.missed, k=5)
    condensed = playground.evaluate(p.labels, p.missed, k=5, unjudged="condense")
    assert zero.scored.dcg == pytest.approx(2 / log2(2) + 1 / log2(4))  # 2, ?, 1, ?, 0
    assert condensed.scored.dcg == pytest.approx(2 / log2(2) + 1 / log2(3) + 1 / log2(5))  # 2, 1, 0, 1
    assert zero.scored.unjudged_fraction == pytest.approx(2 / 5)
    assert condensed.scored.unjudged_fraction == pytest.approx(2 / 5)  # measured on the list as returned
    assert (zero.unjudged_in_top_k, zero.top_k_size) == (2, 5)


def test_idcg_zero_gives_ndcg_zero() -> None:
    r = playground.evaluate("0, 0, ?", k=3)
    assert (r.scored.dcg, r.scored.idcg, r.scored.ndcg) == (0.0, 0.0, 0.0)
    assert "IDCG is 0, so 0" in playground.stats_html(r)


def test_k_beyond_the_list() -> None:
    r = playground.evaluate("1, 0, 2", k=100)
    assert r.top_k_size == 3
    assert len(r.table) == 3 and len(r.curve) == 3


@pytest.mark.parametrize(
    ("labels", "missed", "extra", "error", "message"),
    [
        ("1, x, 2", "", {}, ValueError,
         "Relevance labels: label 2 is 'x', which is not a relevance label."),
        ("-1", "", {}, ValueError, "Relevance labels: label 1 is '-1', a negative label."),
        ("", "", {}, ValueError, "Relevance labels: the list of labels is empty."),
        ("1, 0", "2, ?", {}, ValueError,
         "Judged documents not in the list: judged document 2 is '?', but every document here was judged."),
        ("1, 0", "a", {}, ValueError, "Judged documents not in the list: label 1 is 'a'"),
        ("1, 0", "", {"gain": "table", "gain_table": "0:0, 1"}, ValueError,
         "Gain table: gain table entry 2 must look like label:gain; got '1'."),
        ("1, 0", "", {"gain": "table", "gain_table": ""}, ValueError,
         "Gain table: gain table must have at least one label:gain entry"),
        ("1, 0, 2", "", {"gain": "table", "gain_table": "0:0, 1:1"}, ValueError,
         "gain table has no gain for label 2; it lists labels 0, 1. Add an entry 2: <gain> to the table."),
        ("1, 0", "", {"discount": "log", "base": 1}, ValueError, "base must be a number greater than 1; got 1."),
        ("1, 0", "", {"k": 0}, ValueError, "k must be a positive int or None; got k=0."),
    ],
    ids=["bad-token", "negative", "empty", "unjudged-missed", "bad-missed", "bad-table", "empty-table",
         "table-lacks-label", "bad-base", "bad-k"],
)
def test_errors_name_the_field_and_the_token(labels, missed, extra, error, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error) as info:
        playground.evaluate(labels, missed, **extra)
    assert str(info.value).startswith(message)


def test_read_missed_rejects_non_text() -> None:
    with pytest.raises(TypeError, match=r"Judged documents not in the list: must be text; got int"):
        playground.read_missed(3)  # type: ignore[arg-type]


def test_display_table_is_for_people() -> None:
    t = playground.display_table(nc.breakdown([1, None], 4, judgments=[2, 1, 1]))
    assert list(t["rank i"]) == [1, 2, 3]
    assert list(t["label"]) == ["1", "?", "–"]
    assert list(t["gain × discount"]) == ["1.0000", "0.0000", "–"]
    assert list(t["ideal gain × discount"]) == [f"{2 / log2(2):.4f}", f"{1 / log2(3):.4f}", f"{1 / log2(4):.4f}"]
    assert list(t["nDCG@i"])[0] == f"{1 / 2:.4f}"


def test_stats_html_shows_the_actual_k_and_four_decimals() -> None:
    html = playground.stats_html(playground.evaluate("1, 0, 2, 1, 0", k=5))
    for text in ("DCG@5", "IDCG@5", "nDCG@5", f"{DCG_5:.4f}", f"{IDCG_5:.4f}", f"{DCG_5 / IDCG_5:.4f}",
                 "Unjudged in top 5", "0 of 5 documents"):
        assert text in html
    whole = playground.stats_html(playground.evaluate("1, 0, 2", k=None))
    assert ">DCG<" in whole and "Unjudged in top list" in whole


def test_table_html_has_the_headers() -> None:
    html = playground.table_html(nc.breakdown([1, 0, 2], 3))
    assert 'class="dataframe ndcg-breakdown"' in html
    assert "<th>rank i</th>" in html and "<th>nDCG@i</th>" in html


def test_a_long_table_lists_ranks_1_to_100_and_the_last_and_names_the_rest() -> None:
    """10,000 rows took the browser seconds per edit; the totals above count every rank."""
    import re

    table = nc.breakdown([1, 0, 2] * 3334, 10_000)  # 10,002 labels, k = 10,000
    html = playground.table_html(table)
    ranks = [int(r) for r in re.findall(r"<tr>\s*<td>(\d+)</td>", html)]
    assert ranks == [*range(1, playground.TABLE_MAX_ROWS + 1), 10_000]
    assert "<td>…</td>" in html
    assert ("Ranks 101 to 9,999 are not shown: the table lists ranks 1 to 100 and the last, rank 10,000; "
            "DCG@k, IDCG@k and nDCG@k above count every rank.") in html
    # the last row carries the totals, to the same 4 decimals as the numbers above
    assert f"<td>{table['dcg'].iloc[-1]:.4f}</td>" in html and f"<td>{table['ndcg'].iloc[-1]:.4f}</td>" in html
    assert playground.table_html(table, max_rows=None).count("<tr>") == 10_000


def test_a_table_one_row_past_the_limit_is_shown_whole() -> None:
    """101 rows: leaving out nothing beats a '…' row standing for nothing."""
    html = playground.table_html(nc.breakdown([1] * 101, 101))
    assert html.count("<tr>") == 101 and "not shown" not in html


def test_css_false_leaves_the_style_sheet_to_the_page() -> None:
    r = playground.evaluate("1, 0, 2, 1, 0", k=5)
    assert "<style" not in playground.stats_html(r, css=False) + playground.table_html(r.table, css=False)
    assert playground.stats_html(r, css=False) in playground.stats_html(r).replace(playground.STATS_CSS, "")
    for sheet in (playground.PAGE_CSS, playground.STATS_CSS, playground.TABLE_CSS):
        assert sheet in playground.PAGE_STYLES


# --------------------------------------------------------------------------- presets


def test_presets_are_listed_in_order() -> None:
    assert list(preset_titles()) == [p.title for p in PRESETS]
    assert preset_titles()["Lecture example"] == "lecture"


@pytest.mark.parametrize("p", PRESETS, ids=[p.key for p in PRESETS])
def test_every_preset_evaluates(p) -> None:  # type: ignore[no-untyped-def]
    r = playground.evaluate(p.labels, p.missed, gain=p.gain, gain_table=p.gain_table, discount=p.discount,
                            base=p.base, k=p.k, unjudged=p.unjudged, ideal=p.ideal)
    assert 0 <= r.scored.ndcg <= 1
    assert p.gain in playground.GAIN_CHOICES and p.discount in nc.DISCOUNT_NAMES
    assert 1 <= p.k <= 100  # within the playground's slider


def test_lecture_preset_opens_on_the_lecture_numbers() -> None:
    p = preset("lecture")
    r = playground.evaluate(p.labels, p.missed, k=p.k)
    assert (round(r.scored.dcg, 4), round(r.scored.idcg, 4), round(r.scored.ndcg, 4)) == (2.4307, 3.1309, 0.7763)


def test_unjudged_preset_has_unjudged_documents_and_condensing_raises_ndcg() -> None:
    p = preset("unjudged")
    zero = playground.evaluate(p.labels, p.missed, k=p.k)
    condensed = playground.evaluate(p.labels, p.missed, k=p.k, unjudged="condense")
    assert zero.scored.unjudged_fraction > 0
    assert condensed.scored.ndcg > zero.scored.ndcg


def test_deep_cutoff_preset_has_ndcg_at_100_below_ndcg_at_10() -> None:
    p = preset("deep-cutoff")
    at_10 = playground.evaluate(p.labels, p.missed, k=10).scored.ndcg
    at_100 = playground.evaluate(p.labels, p.missed, k=100).scored.ndcg
    assert p.k == 10
    assert at_100 < at_10


def test_unknown_preset() -> None:
    with pytest.raises(ValueError, match=r"preset must be one of 'lecture', 'unjudged', 'missed', 'deep-cutoff'; got 'x'"):
        preset("x")


def test_table_and_numbers_use_the_one_palette() -> None:
    from ndcg_core.ui.palette import COLORS

    html = playground.stats_html(playground.evaluate("1, 0, 2, 1, 0", k=5))
    for name in ("blue", "orange", "green", "grey", "text", "caption", "white"):
        assert COLORS[name] in html
    assert COLORS["stripe"] in playground.table_html(nc.breakdown([1, 0, 2], 3))
