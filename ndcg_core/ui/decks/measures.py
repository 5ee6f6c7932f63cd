"""Deck 12 ("Which measure?"): its title, its concept slides' results and its short table.

The numbers come from :mod:`ndcg_core.teaching.measures` (the core computes them), the figures
from :mod:`ndcg_core.ui.plots.measures`, drawn short enough to sit under a slide's controls.

>>> "bpref" in kinds_markdown()
True
"""

from __future__ import annotations

import html
from typing import Any

import pandas as pd

from ...teaching import measures
from .. import deck, plots

__all__ = ["TITLE_MD", "EXERCISES", "OTHER_TOPICS", "PLOT_HEIGHT_IN", "SAMPLING_HEIGHT_IN", "plot_html",
           "kinds_markdown", "family_result", "on_top_result", "sampling_result"]

TITLE_MD = (
    "# 12 · Which measure?\n\n"
    "- One ranking, six measures: P@k, P@R, AP, MAP, nDCG@k, bpref\n"
    "- Which measure for which judgments: binary or graded, complete or not\n"
    "- Documents nobody judged: which measures hold up\n"
    "- Three exercises: P@R, bpref, MAP"
)
#: The deck's exercises, in the order of its question slides.
EXERCISES = ("measures-rprec", "measures-bpref", "measures-map")
#: The two further topics of MAP (the chapter's default: ranked labels | missed judged labels).
OTHER_TOPICS = "0, 0, 1, 0, 0 | 1\n1, 1, 0 |"
#: Figure height (inches at 10 wide): the figure sits under the controls of a 1280x720 slide.
PLOT_HEIGHT_IN = 4.0
#: The height of the two plots with a legend under the axes (unjudged on top, thinning): the
#: paired bars' 18 pt values need it to stay apart.
SAMPLING_HEIGHT_IN = 4.6


def plot_html(fig: Any) -> str:
    """A figure (drawn with ``slide=True`` and its slide height) as the deck's inline SVG."""
    return f'<figure class="ndcg-plot">{plots.to_svg(fig)}</figure>'


def _numbers_html(rows: list[tuple[str, str]]) -> str:
    return "".join(f"<p><b>{html.escape(name)}</b> {html.escape(value)}</p>" for name, value in rows)


def kinds_markdown() -> str:
    """The table by kind of judgments, short enough for a slide: judgments -> measure."""
    kinds = measures.judgment_kinds()
    rows = ["| labels, judgments | measure | needs |", "| :--- | :--- | :--- |"]
    short = {"P@k": "the top k judged", "P@R (R-precision)": "R: every relevant document known",
             "AP, and MAP over topics": "R, every retrieved document judged",
             "nDCG@k": "the ideal ranking: complete judgments",
             "bpref": "some relevant and judged non-relevant ones",
             "nDCG@k on the condensed list": "unjudged removed; report the unjudged fraction"}
    for row in kinds.itertuples():
        rows.append(f"| {row.labels}, {row.judgments} | **{row.measure}** | {short.get(row.measure, row.needs)} |")
    return "\n".join(rows)


def family_result(labels: list, judgments: list) -> Any:
    """The six measures of the list (MAP with :data:`OTHER_TOPICS`) beside the control, bars under."""
    values = measures.measure_values(labels, 5, judgments=judgments, other_topics=measures.parse_topics(OTHER_TOPICS))
    rows = [(str(name), f"{value:.4f}") for name, value in values["value"].items()]
    return deck.panel(_numbers_html(rows), plot_html(plots.measure_bars(values, height=PLOT_HEIGHT_IN, slide=True)))


def on_top_result(labels: list, judgments: list, count: int) -> Any:
    """P@R, AP, nDCG@5 (gain 0, condensed) and bpref with ``count`` unjudged documents on top."""
    table = measures.unjudged_on_top_table(labels, 5, judgments=judgments, count=count)
    held = [str(name) for name, change in table["change"].items() if abs(change) < 1e-12]
    figure = plots.holes_bars(table, title="Unjudged documents on top", after_label=f"with {count} unjudged on top",
                              height=SAMPLING_HEIGHT_IN, slide=True)
    return deck.panel(_numbers_html([("Unchanged:", ", ".join(held) or "none")]), plot_html(figure))


def sampling_result(sampling: pd.DataFrame, percent: int) -> Any:
    """Each measure's mean share of its full value with ``percent`` % of the judgments kept."""
    summary = measures.sampling_summary(sampling, percent / 100)["share of full value"]
    shown = [name for name in summary.index if name == "bpref" or name == "MAP" or name.endswith("condensed")]
    rows = [(str(name), f"{summary[name]:.0%}") for name in shown]  # three lines: the plot has every measure
    figure = plots.sampling_plot(sampling, percent / 100, height=SAMPLING_HEIGHT_IN, slide=True)
    return deck.panel(_numbers_html(rows), plot_html(figure))
