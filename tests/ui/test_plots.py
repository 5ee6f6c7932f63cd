"""The playground's figures (ndcg_core.ui.plots.ranking): what they draw, their HTML twins, no leaks.

Expected values are written as their derivations on the lecture example
(labels 1, 0, 2, 1, 0; judgments 2, 1, 1).
"""

from __future__ import annotations

import gc
import io
import threading
import weakref
from math import log, log2

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.text import Text  # noqa: E402
from PIL import Image  # noqa: E402

import ndcg_core as nc  # noqa: E402
from ndcg_core.ui.plots import ranking  # noqa: E402

LECTURE = [1, 0, 2, 1, 0]
JUDGMENTS = [2, 1, 1]
DCG_5 = 1 / log2(2) + 0 / log2(3) + 2 / log2(4) + 1 / log2(5) + 0 / log2(6)
IDCG_5 = 2 / log2(2) + 1 / log2(3) + 1 / log2(4)


def texts(fig: Figure) -> list[str]:
    """Every piece of text in the figure: titles, labels, tick labels, legend, annotations."""
    return [t.get_text() for t in fig.findobj(Text) if t.get_text()]


def legend_labels(fig: Figure) -> list[str]:
    return [t.get_text() for ax in fig.axes if ax.get_legend() for t in ax.get_legend().get_texts()]


def lines_labelled(fig: Figure, label: str) -> list[Line2D]:
    return [line for line in fig.axes[0].get_lines() if line.get_label() == label]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data)).size


# --------------------------------------------------------------------------- discount curves


def test_discount_curves_draw_all_five_and_highlight_the_chosen() -> None:
    fig = ranking.discount_curves("log2", k=5)
    ax = fig.axes[0]
    labels = legend_labels(fig)
    for expected in ("1/log₂(i+1) (chosen)", "1/log₂(i+2), shifted", "1/i, reciprocal",
                     "Järvelin–Kekäläinen, b = 2", "none (plain CG)", "ranks 1..k that count"):
        assert expected in labels
    chosen = lines_labelled(fig, "1/log₂(i+1) (chosen)")[0]
    others = [ln for ln in ax.get_lines() if ln.get_label() in labels and ln is not chosen
              and ln.get_label() != "ranks 1..k that count"]
    assert len(others) == 4
    assert chosen.get_linewidth() > max(ln.get_linewidth() for ln in others)
    # full opacity (a faded line falls under 3:1 contrast) and a dash pattern each: told apart without colour
    assert all(ln.get_alpha() is None for ln in others)
    assert len({str(ln.get_dashes() if hasattr(ln, "get_dashes") else ln._unscaled_dash_pattern) for ln in [chosen, *others]}) == 5
    ranks = np.arange(1, 11)
    np.testing.assert_allclose(chosen.get_ydata(), [1 / log2(i + 1) for i in ranks])
    reciprocal = lines_labelled(fig, "1/i, reciprocal")[0]
    np.testing.assert_allclose(reciprocal.get_ydata(), [1 / i for i in ranks])
    assert ax.get_xlabel() == "rank i" and ax.get_ylabel() == "discount d(i)"
    assert ax.get_title() == "Discount by rank: 1/log₂(i+1)"


def test_discount_curves_mark_ranks_1_to_k_and_the_cutoff() -> None:
    fig = ranking.discount_curves("reciprocal", k=3)
    dots = lines_labelled(fig, "ranks 1..k that count")[0]
    np.testing.assert_allclose(dots.get_xdata(), [1, 2, 3])
    np.testing.assert_allclose(dots.get_ydata(), [1 / 1, 1 / 2, 1 / 3])
    dashed = [ln for ln in fig.axes[0].get_lines() if ln.get_linestyle() == "--" and len(set(ln.get_xdata())) == 1]
    assert len(dashed) == 1 and list(dashed[0].get_xdata()) == [3, 3]
    assert "k = 3: ranks 1–3 count" in texts(fig)


def test_discount_curves_extend_to_a_large_k() -> None:
    fig = ranking.discount_curves("log2", k=40)
    assert fig.axes[0].get_xlim() == (0.5, 40.5)
    assert len(lines_labelled(fig, "ranks 1..k that count")[0].get_xdata()) == 40


def test_discount_curves_jarvelin_kekalainen_uses_the_chosen_base() -> None:
    fig = ranking.discount_curves("jarvelin_kekalainen", base=3, k=5)
    chosen = lines_labelled(fig, "Järvelin–Kekäläinen, b = 3 (chosen)")[0]
    expected = [1, 1] + [log(3) / log(i) for i in range(3, 11)]  # no discount below rank b = 3
    np.testing.assert_allclose(chosen.get_ydata(), expected)
    assert "Järvelin–Kekäläinen, b = 2" not in legend_labels(fig)


def test_discount_curves_log_with_another_base_is_an_extra_curve() -> None:
    fig = ranking.discount_curves("log", base=10, k=2)
    chosen = lines_labelled(fig, "1/log_10(i+1) (chosen)")[0]
    np.testing.assert_allclose(chosen.get_ydata()[:2], [1 / (log(2) / log(10)), 1 / (log(3) / log(10))])
    assert "1/log₂(i+1)" in legend_labels(fig)  # the five named curves are still there
    top = 1 / (log(2) / log(10))  # 3.32: the y axis grows to show it
    assert fig.axes[0].get_ylim()[1] >= top


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"discount": "log2", "k": 0}, ValueError, r"k must be a positive whole number; got k=0"),
        ({"discount": "log2", "k": 2.5}, TypeError, r"k must be a positive whole number; got k=2.5 \(float\)"),
        ({"discount": "log2", "k": 5, "max_rank": 0}, ValueError, r"max_rank must be a positive whole number"),
        ({"discount": "cosine", "k": 5}, ValueError, r"discount must be one of"),
        ({"discount": "log", "base": 1, "k": 5}, ValueError, r"base must be a number greater than 1"),
    ],
)
def test_discount_curves_errors(kwargs: dict, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        ranking.discount_curves(**kwargs)
    with pytest.raises(error, match=match):
        ranking.discount_curves_html(**kwargs)


# --------------------------------------------------------------------------- gains per rank


def test_gains_per_rank_bars_and_running_totals_on_the_lecture_example() -> None:
    fig = ranking.gains_per_rank(nc.breakdown(LECTURE, 5, judgments=JUDGMENTS))
    ax = fig.axes[0]
    heights = [b.get_height() for b in ax.containers[0]], [b.get_height() for b in ax.containers[1]]
    np.testing.assert_allclose(heights[0], [1, 0, 2, 1, 0])  # linear gain = the label
    np.testing.assert_allclose(heights[1], [1 / log2(2), 0, 2 / log2(4), 1 / log2(5), 0])
    dcg = lines_labelled(fig, "cumulative DCG")[0].get_ydata()
    idcg = lines_labelled(fig, "cumulative IDCG")[0].get_ydata()
    np.testing.assert_allclose(dcg, [1, 1, 1 + 2 / log2(4), 2 + 1 / log2(5), DCG_5])
    np.testing.assert_allclose(idcg, [2, 2 + 1 / log2(3), IDCG_5, IDCG_5, IDCG_5])
    shown = texts(fig)
    assert f"DCG@5 = {DCG_5:.4f}" in shown and f"IDCG@5 = {IDCG_5:.4f}" in shown
    assert "DCG@5 = 2.4307" in shown and "IDCG@5 = 3.1309" in shown
    assert set(legend_labels(fig)) == {"gain g(ℓᵢ)", "discounted gain g(ℓᵢ)·d(i)", "cumulative IDCG", "cumulative DCG"}
    assert ax.get_xlabel() == "rank i" and ax.get_ylabel() == "gain"
    assert ax.get_ylim()[1] >= IDCG_5  # the totals fit


def test_gains_per_rank_with_k_shows_every_rank_up_to_k() -> None:
    table = nc.breakdown([2, 1], 5, judgments=[2, 1])  # two documents, k = 5
    fig = ranking.gains_per_rank(table, 5)
    ax = fig.axes[0]
    assert ax.get_xlim() == (0.4, 5.6)
    np.testing.assert_allclose([b.get_height() for b in ax.containers[0]], [2, 1, 0, 0, 0])
    assert list(lines_labelled(fig, "cumulative DCG")[0].get_xdata()) == [1, 2]
    dcg = 2 / log2(2) + 1 / log2(3)
    assert f"DCG@5 = {dcg:.4f}" in texts(fig) and f"IDCG@5 = {dcg:.4f}" in texts(fig)


def test_gains_per_rank_k_smaller_than_the_table_is_an_error() -> None:
    with pytest.raises(ValueError, match=r"k must be at least the table's 5 ranks; got k=3"):
        ranking.gains_per_rank(nc.breakdown(LECTURE, 5), 3)


def test_gains_per_rank_marks_unjudged_ranks() -> None:
    fig = ranking.gains_per_rank(nc.breakdown([2, None, 1, None], 4, judgments=[2, 1]))
    marks = [t for t in fig.axes[0].texts if t.get_text() == "?"]
    assert sorted(t.get_position()[0] for t in marks) == [2, 4]


def test_gains_per_rank_exponential_gain() -> None:
    fig = ranking.gains_per_rank(nc.breakdown(LECTURE, 5, judgments=JUDGMENTS, gain="exponential"))
    np.testing.assert_allclose([b.get_height() for b in fig.axes[0].containers[0]],
                               [2**1 - 1, 0, 2**2 - 1, 2**1 - 1, 0])


@pytest.mark.parametrize(
    ("table", "error", "match"),
    [
        ([1, 0, 2], TypeError, r"table must be the DataFrame from ndcg_core.breakdown\(\.\.\.\); got list"),
        (nc.breakdown([1, 0], 2).drop(columns=["idcg", "status"]), ValueError, r"lacks the column\(s\) status, idcg"),
        (nc.breakdown([1, 0], 2).iloc[0:0], ValueError, r"table has no ranks to draw"),
    ],
    ids=["not-a-table", "missing-columns", "empty"],
)
def test_gains_per_rank_errors(table: object, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        ranking.gains_per_rank(table)  # type: ignore[arg-type]
    with pytest.raises(error, match=match):
        ranking.gains_per_rank_html(table)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- nDCG at every cutoff


def test_ndcg_at_cutoffs_curve_and_marked_k() -> None:
    curve = nc.ndcg_curve(LECTURE, judgments=JUDGMENTS)
    fig = ranking.ndcg_at_cutoffs(curve, 5)
    line = lines_labelled(fig, "nDCG@cutoff")[0]
    np.testing.assert_allclose(line.get_ydata(), [
        1 / 2,
        1 / (2 + 1 / log2(3)),
        (1 + 2 / log2(4)) / IDCG_5,
        (2 + 1 / log2(5)) / IDCG_5,
        DCG_5 / IDCG_5,
    ])
    assert "nDCG@5 = 0.7763" in texts(fig)
    dot = [ln for ln in fig.axes[0].get_lines() if ln.get_marker() == "o" and ln.get_markersize() > 15][0]
    assert list(dot.get_xdata()) == [5]
    np.testing.assert_allclose(dot.get_ydata(), [DCG_5 / IDCG_5])
    assert fig.axes[0].get_ylim() == (0, 1.08)
    assert fig.axes[0].get_xlabel() == "cutoff" and fig.axes[0].get_ylabel() == "nDCG"


def test_ndcg_at_cutoffs_k_past_the_curve_is_flat() -> None:
    curve = nc.ndcg_curve(LECTURE, judgments=JUDGMENTS)
    fig = ranking.ndcg_at_cutoffs(curve, 8)
    tail = lines_labelled(fig, "past the end")[0]
    assert list(tail.get_xdata()) == [5, 8]
    np.testing.assert_allclose(tail.get_ydata(), [DCG_5 / IDCG_5] * 2)
    assert "nDCG@8 = 0.7763" in texts(fig)


def test_ndcg_at_cutoffs_shows_the_drop_at_a_deep_cutoff() -> None:
    preset = nc_presets_deep()
    curve = nc.ndcg_curve(preset["labels"], judgments=preset["judgments"])
    fig = ranking.ndcg_at_cutoffs(curve, 100)
    y = lines_labelled(fig, "nDCG@cutoff")[0].get_ydata()
    assert y[9] > y[-1]  # nDCG@10 > nDCG at the end of the curve
    assert fig.axes[0].get_xlim() == (0.5, 100.5)


def nc_presets_deep() -> dict:
    from ndcg_core.teaching.presets import preset

    p = preset("deep-cutoff")
    labels = nc.parse_labels(p.labels)
    return {"labels": labels, "judgments": labels + nc.parse_labels(p.missed)}


@pytest.mark.parametrize(
    ("curve", "k", "error", "match"),
    [
        ([], 3, ValueError, r"curve is empty"),
        ("0.5, 0.7", 1, TypeError, r"curve must be a list of finite numbers"),
        ([0.5, float("nan")], 1, TypeError, r"curve must be a list of finite numbers"),
        ([0.5, True], 1, TypeError, r"curve must be a list of finite numbers"),
        ([0.5], 0, ValueError, r"k must be a positive whole number; got k=0"),
    ],
)
def test_ndcg_at_cutoffs_errors(curve: object, k: int, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        ranking.ndcg_at_cutoffs(curve, k)  # type: ignore[arg-type]
    with pytest.raises(error, match=match):
        ranking.ndcg_at_cutoffs_html(curve, k)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- projector legibility


@pytest.mark.parametrize(
    "make",
    [
        lambda: ranking.discount_curves("log2", k=5),
        lambda: ranking.gains_per_rank(nc.breakdown(LECTURE, 5, judgments=JUDGMENTS)),
        lambda: ranking.ndcg_at_cutoffs(nc.ndcg_curve(LECTURE, judgments=JUDGMENTS), 5),
    ],
    ids=["discounts", "gains", "cutoffs"],
)
def test_figures_are_legible_on_a_projector(make) -> None:  # type: ignore[no-untyped-def]
    fig = make()
    sizes = [t.get_fontsize() for t in fig.findobj(Text) if t.get_text()]
    assert min(sizes) >= 14
    data_lines = [ln for ln in fig.axes[0].get_lines() if not ln.get_label().startswith("_")]
    assert min(ln.get_linewidth() for ln in data_lines) >= 2
    assert fig.get_figwidth() * fig.dpi >= 1000


# --------------------------------------------------------------------------- cached HTML redraws


def _fresh(render):  # type: ignore[no-untyped-def]
    ranking.LAYERED.clear()
    return render()


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (lambda: ranking.gains_per_rank_html(nc.breakdown(LECTURE, 5, judgments=JUDGMENTS), 5),
         lambda: ranking.gains_per_rank_html(nc.breakdown([0, 2, 1, None, 1], 5, judgments=[2, 1, 1]), 5)),
        (lambda: ranking.ndcg_at_cutoffs_html(nc.ndcg_curve(LECTURE, judgments=JUDGMENTS), 5),
         lambda: ranking.ndcg_at_cutoffs_html(nc.ndcg_curve([2, 1, 0, 1], judgments=[2, 1, 1]), 3)),
        (lambda: ranking.discount_curves_html("log2", k=5),
         lambda: ranking.discount_curves_html("log2", k=9)),
    ],
    ids=["gains", "cutoffs", "discounts"],
)
def test_a_cached_redraw_leaves_nothing_of_the_previous_picture(first, second) -> None:  # type: ignore[no-untyped-def]
    clean = _fresh(first)
    other = second()  # same cached frame, different data
    assert other != clean
    assert first() == clean


def test_cache_is_bounded() -> None:
    ranking.LAYERED.clear()
    for n in range(1, 2 * ranking.CACHE_SIZE + 3):
        ranking.gains_per_rank_html(nc.breakdown([1] * n, n))
    assert len(ranking.LAYERED[ranking.GainsPlot]) == ranking.CACHE_SIZE


def test_html_rendering_is_thread_safe() -> None:
    tables = [nc.breakdown(labels, 5, judgments=[2, 2, 1, 1]) for labels in
              ([2, 1, 0, 0, 1], [0, 0, 1, 2, 2], [1, 2, 0, 1, 0], [2, 2, 1, 1, 0])]
    expected = [_fresh(lambda t=t: ranking.gains_per_rank_html(t, 5)) for t in tables]
    results: dict[tuple[int, int], str] = {}

    def work(worker: int) -> None:
        for i in range(12):
            j = (worker + i) % len(tables)
            results[(worker, i)] = ranking.gains_per_rank_html(tables[j], 5)

    threads = [threading.Thread(target=work, args=(w,)) for w in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for (worker, i), data in results.items():
        assert data == expected[(worker + i) % len(tables)]


# --------------------------------------------------------------------------- two-layer HTML


def _layers(html: str) -> tuple[str, str]:
    """(background PNG data URL, overlay SVG) of one *_html figure."""
    import re

    src = re.search(r'<img src="(data:image/png;base64,[^"]+)"', html)
    svg = html[html.index("<svg"): html.index("</svg>") + 6]
    assert src is not None
    return src.group(1), svg


@pytest.mark.parametrize(
    ("render", "viewbox", "alt"),
    [
        (lambda: ranking.gains_per_rank_html(nc.breakdown(LECTURE, 5, judgments=JUDGMENTS), 5),
         "0 0 720 360", "DCG@5 = 2.4307, IDCG@5 = 3.1309"),
        (lambda: ranking.ndcg_at_cutoffs_html(nc.ndcg_curve(LECTURE, judgments=JUDGMENTS), 5),
         "0 0 720 331.2", "nDCG@5 = 0.7763"),
        (lambda: ranking.discount_curves_html("log2", k=5), "0 0 720 360", "ranks 1 to 5 marked"),
    ],
    ids=["gains", "cutoffs", "discounts"],
)
def test_html_is_a_png_frame_with_an_svg_overlay_of_the_same_size(render, viewbox: str, alt: str) -> None:  # type: ignore[no-untyped-def]
    html = render()
    png_url, svg = _layers(html)
    import base64

    frame = base64.b64decode(png_url.split(",", 1)[1])
    width, height = png_size(frame)
    assert width == 10 * ranking.PNG_DPI  # a 10-inch figure: 1000 pixels wide
    assert f'viewBox="{viewbox}"' in svg
    vb = [float(x) for x in viewbox.split()]
    assert width / height == pytest.approx(vb[2] / vb[3])  # both layers cover the same box
    assert "position: absolute" in svg and "width: 100%" in svg and 'aria-hidden="true"' in svg
    assert alt in html  # the numbers are in the image's alt text, for screen readers


def test_html_overlay_changes_with_the_data_and_the_frame_is_reused() -> None:
    ranking.LAYERED.clear()
    first = ranking.gains_per_rank_html(nc.breakdown(LECTURE, 5, judgments=JUDGMENTS), 5)
    second = ranking.gains_per_rank_html(nc.breakdown([0, 1, 2, 1, 0], 5, judgments=JUDGMENTS), 5)
    assert _layers(first)[0] == _layers(second)[0]  # same axes: the same background picture
    assert _layers(first)[1] != _layers(second)[1]
    assert len(ranking.LAYERED[ranking.GainsPlot]) == 1
    again = ranking.gains_per_rank_html(nc.breakdown(LECTURE, 5, judgments=JUDGMENTS), 5)
    assert again == first


def test_gains_axis_rescales_only_when_the_data_outgrow_it_or_shrink_below_a_third() -> None:
    ranking.LAYERED.clear()

    def tops() -> list[float]:
        return sorted(key[1] for key in ranking.LAYERED[ranking.GainsPlot])

    big = nc.breakdown([3, 3, 3], 3)  # highest: IDCG = 3 + 3/log2(3) + 3/2 = 6.39; x 1.3 = 8.3 -> top 10
    mid = nc.breakdown([2, 2, 2], 3)  # 2 + 2/log2(3) + 1 = 4.26; x 1.3 = 5.5 -> needs 6, and 10 <= 3 x 6
    small = nc.breakdown([1, 0, 1], 3)  # 1 + 1/log2(3) = 1.63; x 1.3 = 2.1 -> needs 2.5, and 10 > 3 x 2.5
    ranking.gains_per_rank_html(big, 3)
    assert tops() == [10.0]
    ranking.gains_per_rank_html(mid, 3)
    assert tops() == [10.0]  # kept: the axis does not jump
    ranking.gains_per_rank_html(small, 3)
    assert tops() == [2.5, 10.0]  # the data would fill less than a third: rescaled
    ranking.gains_per_rank_html(big, 3)
    assert tops() == [2.5, 10.0]


def test_html_errors_match_the_figures() -> None:
    with pytest.raises(ValueError, match=r"curve is empty"):
        ranking.ndcg_at_cutoffs_html([], 1)
    with pytest.raises(TypeError, match=r"table must be the DataFrame"):
        ranking.gains_per_rank_html([1, 2])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"k must be a positive whole number"):
        ranking.discount_curves_html("log2", k=0)


# --------------------------------------------------------------------------- no leaks, SVG


def test_no_pyplot_figures_and_figures_are_freed() -> None:
    plt.close("all")
    fig = ranking.gains_per_rank(nc.breakdown(LECTURE, 5, judgments=JUDGMENTS))
    ranking.discount_curves("none", k=3)
    ranking.ndcg_at_cutoffs([0.5, 1.0], 2)
    ranking.gains_per_rank_html(nc.breakdown(LECTURE, 5))
    assert plt.get_fignums() == []
    ref = weakref.ref(fig)
    del fig
    gc.collect()
    assert ref() is None


def test_to_svg_scales_to_its_container_and_names_the_figure() -> None:
    svg = ranking.to_svg(ranking.ndcg_at_cutoffs([0.5, 0.25], 2))
    assert svg.startswith("<svg")
    assert 'width="100%"' in svg and "max-width: 1000px" in svg
    assert 'aria-label="nDCG at every cutoff: it can go down"' in svg
    assert "nDCG@2 = 0.2500" in svg  # text kept as text


def test_to_svg_rejects_other_objects() -> None:
    with pytest.raises(TypeError, match=r"fig must be a matplotlib Figure; got str"):
        ranking.to_svg("figure")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- long lists (bench/notebook_limits.py)


def test_no_overlay_or_svg_carries_a_page_wide_style_sheet() -> None:
    """An inline <style> is a style sheet of the whole page: matplotlib's own
    ``*{stroke-linejoin: round; stroke-linecap: butt}`` goes on the <svg> element instead."""
    table = nc.breakdown(LECTURE, 5, judgments=JUDGMENTS)
    for html in (ranking.gains_per_rank_html(table, 5), ranking.discount_curves_html("log2", k=5),
                 ranking.ndcg_at_cutoffs_html(nc.ndcg_curve(LECTURE, judgments=JUDGMENTS), 5),
                 ranking.to_svg(ranking.gains_per_rank(table, 5))):
        assert "<style" not in html
        assert "stroke-linejoin: round; stroke-linecap: butt" in html[html.index("<svg"): html.index(">", html.index("<svg"))]


def test_overlay_coordinates_are_short_and_its_numbers_exact() -> None:
    html = ranking.gains_per_rank_html(nc.breakdown(LECTURE, 5, judgments=JUDGMENTS), 5)
    svg = _layers(html)[1]
    import re

    paths = re.findall(r' d="([^"]*)"', svg)
    assert paths and not any(re.search(r"\d\.\d{3}", d) for d in paths)
    assert "DCG@5 = 2.4307" in svg and "IDCG@5 = 3.1309" in svg  # text untouched


def test_gains_past_max_bars_draw_outlines_that_cover_the_bars() -> None:
    """10,000 ranks: no bars (20,000 SVG elements); each series is one StepPatch whose steps
    run from the lowest to the highest bar of the ranks they stand for."""
    from matplotlib.patches import StepPatch

    labels = [(i * 7) % 4 if i % 5 else None for i in range(10_000)]  # every fifth unjudged
    table = nc.breakdown(labels, 10_000)
    fig = ranking.gains_per_rank(table, 10_000)
    ax = fig.axes[0]
    assert ax.containers == []  # no bar containers
    steps = {p.get_label(): p for p in ax.patches if isinstance(p, StepPatch)}
    assert set(steps) == {"gain g(ℓᵢ)", "discounted gain g(ℓᵢ)·d(i)"}
    per_step = -(-10_000 // ranking.STEP_BINS)
    gain = steps["gain g(ℓᵢ)"].get_data()
    assert len(gain.values) == ranking.STEP_BINS
    np.testing.assert_allclose(gain.values[0], table["gain"].iloc[:per_step].max())
    np.testing.assert_allclose(gain.values.max(), table["gain"].max())
    discounted = steps["discounted gain g(ℓᵢ)·d(i)"].get_data()
    np.testing.assert_allclose(discounted.values[-1], table["discounted_gain"].iloc[-per_step:].max())
    dcg = table["dcg"].iloc[-1]
    assert f"DCG@10000 = {dcg:.4f}" in texts(fig)  # the totals as before
    assert ax.get_xlabel() == "rank i (red ticks: unjudged ranks)"
    svg = _layers(ranking.gains_per_rank_html(table, 10_000))[1]
    assert svg.count("<path") < 20 and len(svg) < 120_000, (svg.count("<path"), len(svg))


def test_gains_with_negative_gains_past_max_bars_reach_below_zero() -> None:
    from matplotlib.patches import StepPatch

    table = nc.breakdown([1, 0] * 100, 200, gain={0: -1, 1: 1})
    fig = ranking.gains_per_rank(table, 200)
    gain = next(p for p in fig.axes[0].patches if isinstance(p, StepPatch) and p.get_label() == "gain g(ℓᵢ)")
    data = gain.get_data()
    assert data.values.max() == 1 and data.baseline.min() == -1


def test_gains_up_to_max_bars_keep_their_bars() -> None:
    fig = ranking.gains_per_rank(nc.breakdown([1] * ranking.MAX_BARS, ranking.MAX_BARS), ranking.MAX_BARS)
    assert len(fig.axes[0].containers[0]) == ranking.MAX_BARS


def test_discount_curves_mark_at_most_about_max_dots_ranks() -> None:
    fig = ranking.discount_curves("log2", k=10_000)
    dots = lines_labelled(fig, "ranks 1..k that count")[0]
    x = dots.get_xdata()
    assert x[0] == 1 and len(x) <= ranking.MAX_DOTS
    np.testing.assert_allclose(dots.get_ydata(), 1 / np.log2(np.asarray(x) + 1))
    assert "k = 10,000:\nranks 1–10,000 count" in texts(fig)


def test_a_huge_typed_k_draws_at_most_max_discount_rank() -> None:
    """k = 10**9 (the Type k box takes 9 digits) asked for 10**9 discount factors per curve."""
    fig = ranking.discount_curves("log2", k=10**9)
    assert fig.axes[0].get_xlim() == (0.5, ranking.MAX_DISCOUNT_RANK + 0.5)
    assert "k = 1,000,000,000:\nranks 1–1,000,000,000 count" in texts(fig)
    dashed = [ln for ln in fig.axes[0].get_lines() if ln.get_linestyle() == "--" and len(set(ln.get_xdata())) == 1]
    assert not dashed[0].get_visible()  # k is past the last rank drawn


def test_long_lists_of_similar_length_share_one_frame() -> None:
    ranking.LAYERED.clear()
    for n in (9_998, 9_999, 10_000):
        ranking.ndcg_at_cutoffs_html([0.5] * n, 5)
        ranking.gains_per_rank_html(nc.breakdown([1] * n, n), n)
    assert list(ranking.LAYERED[ranking.CurvePlot]) == [10_000]
    assert [key[0] for key in ranking.LAYERED[ranking.GainsPlot]] == [10_000]


def test_stacked_html_puts_figures_one_under_the_other() -> None:
    html = ranking.stacked_html("<figure>a</figure>", "<figure>b</figure>")
    assert html.startswith('<div class="ndcg-plots" style="display: flex; flex-direction: column; gap: 12px">')
    assert html.index("a</figure>") < html.index("b</figure>")
    with pytest.raises(TypeError, match="HTML strings"):
        ranking.stacked_html(1)  # type: ignore[arg-type]


def test_overlay_has_no_white_space_nodes_and_no_per_artist_wrappers() -> None:
    html = ranking.gains_per_rank_html(nc.breakdown([1, None, 2], 3, judgments=[2, 1]), 3)
    svg = _layers(html)[1]
    import re

    assert not re.search(r">\s+<", svg)
    assert '<g id="' not in svg
    assert svg.count("<g") == svg.count("</g>")  # what is left (clip-path groups) is balanced
    assert "DCG@3" in svg and ">?<" in svg  # the totals and the unjudged mark are still drawn


def test_warm_frames_draws_the_frames_of_short_lists_at_k_5() -> None:
    ranking.LAYERED.clear()
    assert ranking.warm_frames() == 9
    gains = list(ranking.LAYERED[ranking.GainsPlot])
    assert gains == [(5, 2.5), (5, 8.0), (5, 20.0), (6, 2.5), (6, 8.0), (6, 20.0)]
    assert list(ranking.LAYERED[ranking.CurvePlot]) == [6, 8, 10]
    # a list of six labels at k = 5 now finds its frames: nothing new is drawn
    ranking.gains_per_rank_html(nc.breakdown([3, 2, 0, 1, 0, 3], 5, judgments=[3, 2, 1, 3]), 5)
    ranking.ndcg_at_cutoffs_html(nc.ndcg_curve([3, 2, 0, 1, 0, 3]), 5)
    assert len(ranking.LAYERED[ranking.GainsPlot]) == 6 and len(ranking.LAYERED[ranking.CurvePlot]) == 3
