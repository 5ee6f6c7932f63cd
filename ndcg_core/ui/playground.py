"""The playground's glue, kept here so it is tested: typed widget values -> every number shown.

:func:`evaluate` takes the playground's inputs as typed (text for labels and the gain table,
names for the choices) and returns a :class:`PlaygroundResult` with the configuration, the
scores, the per-rank table and the nDCG curve. Errors are ``ValueError``/``TypeError`` whose
message starts with the field it came from, e.g. ``Relevance labels: label 2 is 'x', ...``.

>>> r = evaluate("1, 0, 2, 1, 0", "", k=5)
>>> round(r.scored.dcg, 4), round(r.scored.idcg, 4), round(r.scored.ndcg, 4)
(2.4307, 3.1309, 0.7763)
>>> r.judgments
[1, 0, 2, 1, 0]
"""

from __future__ import annotations

import math
import re

from dataclasses import dataclass

import pandas as pd

from .._validation import check_positive_int
from ..config import NDCGConfig
from ..discounts import TAKES_BASE
from ..gains import parse_gain_table
from ..labels import parse_labels
from ..teaching.presets import Preset
from ..metrics import Scored, breakdown, ndcg_curve
from .palette import COLORS

__all__ = [
    "PlaygroundResult",
    "evaluate",
    "read_missed",
    "read_lists",
    "preset_note",
    "base_for",
    "display_table",
    "stats_html",
    "STATS_CSS",
    "HIDDEN_VALUE",
    "table_html",
    "TABLE_MAX_ROWS",
    "rows_not_shown",
    "PAGE_CSS",
    "STACK_BELOW_PX",
    "PAGE_STYLES",
    "TABLE_CSS",
    "GAIN_CHOICES",
    "LABELS_FIELD",
    "MISSED_FIELD",
    "GAIN_TABLE_FIELD",
    "K_FIELD",
    "K_SLIDER_MAX",
    "choose_k",
    "notes",
]

#: The Gain dropdown's choices: the two named gains and a typed table.
GAIN_CHOICES = ("linear", "exponential", "table")

LABELS_FIELD = "Relevance labels"
MISSED_FIELD = "Judged documents not in the list"
GAIN_TABLE_FIELD = "Gain table"
#: The text box next to the ``k`` slider for a cutoff the slider does not reach.
K_FIELD = "Type k"
#: The ``k`` slider's range is 1 to this; any larger cutoff is typed in :data:`K_FIELD`.
K_SLIDER_MAX = 100


def _in_field(field: str, err: Exception) -> Exception:
    return type(err)(f"{field}: {err}")


def choose_k(typed: str, slider: int) -> tuple[int | None, ValueError | None]:
    """The cutoff: the typed one (:data:`K_FIELD`) when the box holds text, else the slider's.

    A typed k is taken exactly as typed or refused with a message, never rounded or
    clamped: ``"5000"`` is k = 5000 (beyond the slider's range or the list is fine, see
    :func:`notes`), ``"2.5"``, ``"0"`` and ``"abc"`` are messages.

    >>> choose_k("", 5), choose_k(" 5000 ", 5)
    ((5, None), (5000, None))
    >>> print(choose_k("2.5", 5)[1])
    Type k: k must be a whole number of 1 or more; got '2.5', which is not whole. Type 2 or 3, or clear the box to use the slider.
    """
    if not isinstance(typed, str) or not typed.strip():
        return int(slider), None
    text = typed.strip()
    shown = text if len(text) <= 20 else text[:17] + "..."
    fix = "or clear the box to use the slider."
    if re.fullmatch(r"\+?\d{1,9}", text):
        k = int(text)
        if k >= 1:
            return k, None
        return None, ValueError(f"{K_FIELD}: k must be a whole number of 1 or more; got {shown!r}. Type 1 or more, {fix}")
    try:
        number = float(text.replace(",", "."))
    except ValueError:
        number = None
    if number is not None and math.isfinite(number) and number >= 1 and not number.is_integer():
        low = math.floor(number)
        return None, ValueError(f"{K_FIELD}: k must be a whole number of 1 or more; got {shown!r}, which is not "
                                f"whole. Type {low} or {low + 1}, {fix}")
    return None, ValueError(f"{K_FIELD}: k must be a whole number of 1 or more (a cutoff: how many ranks count); "
                            f"got {shown!r}. Type e.g. 5 or 10, {fix}")


def notes(result: "PlaygroundResult") -> list[str]:
    """What the learner should know about these inputs (Markdown): fractional labels used as
    typed, a cutoff beyond the list, negative gains (nDCG may then leave [0, 1])."""
    out = []
    fractional = sorted({x for x in (*result.labels, *result.missed)
                         if x is not None and not float(x).is_integer()})
    if fractional:
        shown = ", ".join(f"{x:g}" for x in fractional[:3])
        out.append(f"**Fractional labels** ({shown}) are used exactly as typed: with linear gain a label 1.5 "
                   "is worth 1.5, with exponential gain 2^1.5 - 1 = 1.83.")
    k = result.k
    if k is not None and k > len(result.labels):
        out.append(f"**k = {k} is beyond the list's {len(result.labels)} documents**: the ranks past its end "
                   f"add nothing to DCG@{k}, while IDCG@{k} counts up to {k} judged documents.")
    gain = result.config.gain
    table = gain if isinstance(gain, dict) else None
    if table is not None and any(float(v) < 0 for v in table.values()):
        out.append("**A negative gain** in the table: a document can now cost points, so DCG can be "
                   "negative and nDCG can leave the range 0 to 1. That is allowed here to show it; "
                   "published nDCG uses gains of 0 or more.")
    return out


def read_missed(text: str) -> list[float | int]:
    """Labels of judged documents the list missed; empty text means none.

    >>> read_missed("")
    []
    >>> read_missed("2, 1")
    [2, 1]
    """
    if not isinstance(text, str):
        raise TypeError(f"{MISSED_FIELD}: must be text; got {type(text).__name__}.")
    if not text.strip():
        return []
    labels = parse_labels(text)
    for position, label in enumerate(labels, start=1):
        if label is None:
            raise ValueError(
                f"judged document {position} is '?', but every document here was judged. Type the "
                "label it got (0 for non-relevant), or leave it out."
            )
    return [label for label in labels if label is not None]


def read_lists(labels_text: str, missed_text: str) -> tuple[list[float | int | None], list[float | int]]:
    """The ranked list and the missed labels as typed in :data:`LABELS_FIELD` and
    :data:`MISSED_FIELD`; a message names the box it is about.

    >>> read_lists("1, 0, 2", "2")
    ([1, 0, 2], [2])
    >>> read_lists("1, 0", "2, ?")
    Traceback (most recent call last):
    ...
    ValueError: Judged documents not in the list: judged document 2 is '?', but every document here was judged. Type the label it got (0 for non-relevant), or leave it out.
    """
    try:
        labels = parse_labels(labels_text)
    except (TypeError, ValueError) as err:
        raise _in_field(LABELS_FIELD, err) from None
    try:
        missed = read_missed(missed_text)
    except (TypeError, ValueError) as err:
        raise _in_field(MISSED_FIELD, err) from None
    return labels, missed


def preset_note(preset: Preset, labels_text: str, missed_text: str) -> tuple[str, str]:
    """``(Markdown, callout kind)`` under the playground's numbers: the preset's note (blue,
    "info") while the two boxes still hold its list, else a grey ("neutral") line saying the
    list is the learner's own now. A lecture example edited is no longer the lecture example.

    >>> from ndcg_core.teaching.presets import preset
    >>> preset_note(preset("lecture"), "1, 0, 2, 1, 0", "")[1], preset_note(preset("lecture"), "1, 0, 2, 1, 3", "")[1]
    ('info', 'neutral')
    """
    try:
        labels, missed = read_lists(labels_text, missed_text)
        same = labels == parse_labels(preset.labels) and sorted(missed) == sorted(read_missed(preset.missed))
    except (TypeError, ValueError):
        same = False
    if same:
        return preset.note, "info"
    return (f"**Your own list**: edited from the preset *{preset.title}*, so its note no longer applies. "
            "Choose a preset (or press **Reset to the lecture example**) to go back."), "neutral"


def base_for(discount: str, base: float | None) -> float | None:
    """The base to pass on: ``base`` for the "log" and "jarvelin_kekalainen" discounts, else None.

    >>> base_for("log", 10), base_for("log2", 10)
    (10, None)
    """
    return base if discount in TAKES_BASE else None


@dataclass(frozen=True)
class PlaygroundResult:
    """Everything the playground shows for one set of inputs."""

    labels: list[float | int | None]
    missed: list[float | int]
    judgments: list[float | int]
    config: NDCGConfig
    scored: Scored
    table: pd.DataFrame
    curve: list[float]

    @property
    def k(self) -> int | None:
        """The cutoff."""
        return self.config.k

    @property
    def top_k_size(self) -> int:
        """Number of documents in the top k of the list as returned (before condensing)."""
        return len(self.labels) if self.k is None else min(self.k, len(self.labels))

    @property
    def unjudged_in_top_k(self) -> int:
        """Number of unjudged documents (``?``) in the top k of the list as returned."""
        return sum(label is None for label in self.labels[: self.top_k_size])


def evaluate(
    labels_text: str,
    missed_text: str = "",
    *,
    gain: str = "linear",
    gain_table: str = "",
    discount: str = "log2",
    base: float | None = None,
    k: int | None = 5,
    unjudged: str = "zero",
    ideal: str = "judgments",
) -> PlaygroundResult:
    """Score the typed list under the chosen configuration.

    The judgments are the list's own judged labels plus the labels of the judged documents
    it missed. ``gain="table"`` reads ``gain_table`` (``"0:0, 1:1, 2:3, 3:7"``); ``base`` is
    used only by the discounts in :data:`TAKES_BASE`. The nDCG curve runs to the end of the
    longer of the list and the ideal list.
    """
    labels, missed = read_lists(labels_text, missed_text)
    if gain == "table":
        try:
            chosen_gain: object = parse_gain_table(gain_table)
        except (TypeError, ValueError) as err:
            raise _in_field(GAIN_TABLE_FIELD, err) from None
    else:
        chosen_gain = gain
    judgments = [label for label in labels if label is not None] + missed
    config = NDCGConfig(
        gain=chosen_gain,  # type: ignore[arg-type]
        discount=discount,
        k=k,
        base=base_for(discount, base),
        unjudged=unjudged,
        ideal=ideal,
    )
    scored = config.score(labels, judgments)
    options = dict(
        judgments=judgments if ideal == "judgments" else None,
        gain=config.gain,
        discount=config.discount,
        base=config.base,
        unjudged=unjudged,
    )
    table = breakdown(labels, k, **options)  # type: ignore[arg-type]
    curve = ndcg_curve(labels, **options)  # type: ignore[arg-type]
    return PlaygroundResult(labels, missed, judgments, config, scored, table, curve)


#: Styles for :func:`table_html`: large, right-aligned, striped, readable on a projector.
#: The long headers wrap onto two lines, so the table fits the playground's left column.
TABLE_CSS = f"""
<style>
table.ndcg-breakdown {{ border-collapse: collapse; font-size: 1.05rem; font-variant-numeric: tabular-nums; }}
table.ndcg-breakdown th {{ font-weight: 700; padding: 0.25rem 0.5rem; border-bottom: 2px solid {COLORS["text"]};
  text-align: right; vertical-align: bottom; max-width: 6.5rem; white-space: normal; line-height: 1.2; }}
table.ndcg-breakdown td {{ padding: 0.2rem 0.5rem; text-align: right; white-space: nowrap; }}
table.ndcg-breakdown tbody tr:nth-child(even) {{ background: {COLORS["stripe"]}; }}
</style>
"""

#: Below this window width (CSS px) the playground's two columns stack (controls, numbers and
#: table, then the plots): a phone or a narrow window. From it up (a laptop, the 1280x720 and
#: 1920x1080 projectors) the columns stay side by side exactly as :data:`PAGE_CSS` lays them out.
STACK_BELOW_PX = 1100

#: The playground's page layout under ``marimo run`` (``marimo.App(width="columns")``): one
#: projector screen. marimo gives every column the same fixed width; this makes the second
#: column (the plots) just wide enough for its three plots to fit the window's height, but
#: never narrower than 560 px (on a small screen the first plot stays readable and the others
#: are a scroll away), gives the rest of the width to the first column (controls, numbers,
#: table; at most 62rem), and trims the page's side margins and the space between cells.
#: The plots are 2:1, 2:1 and 2.17:1, so a plot width p stacks to a height of about 1.46 p;
#: a plot is its column's width less the 32 px of its output's side padding, and the 96 px
#: are the page's top margin, the plots' 6 px margins and a little air.
#: The rules match only the row marimo 0.25 draws the columns in under ``marimo run`` (a
#: ``flex-row gap-8 w-full`` div three levels under ``#App``, whose children hold the cells;
#: the editor has no such row), so the slides view and the editor keep their own layout; if a
#: marimo release renames that markup, the page falls back to marimo's equal columns
#: (tests/browser/test_playground.py notices). They name the row by its path from ``#App``,
#: not with ``:has()``: with ``#App:has(...)`` every edit restyled the whole page (about 670
#: elements in a Chromium trace, against about 190 without); the one ``:has()`` left, on the
#: page's padding, looks only down a fixed path of children.
PAGE_CSS = """
<style>
#App > [class~="xl:px-24"]:has(> div > div > .flex-row.gap-8.w-full > div > .marimo-cell) { padding-left: 1.5rem; padding-right: 1.5rem; }
#App > [class~="xl:px-24"] > div > div > .flex-row.gap-8.w-full { gap: 2rem; }
#App > [class~="xl:px-24"] > div > div > .flex-row.gap-8.w-full > div:nth-child(1) {
  flex: 1 1 0; width: auto; min-width: 0; max-width: 62rem; }
#App > [class~="xl:px-24"] > div > div > .flex-row.gap-8.w-full > div:nth-child(2) {
  flex: 0 0 auto; width: clamp(560px, calc((100vh - 96px) / 1.46 + 32px), 1032px); gap: 0; }
#App > [class~="xl:px-24"] > div > div > .flex-row.gap-8.w-full > div > .marimo-cell > .output-area > .output {
  margin-top: 6px; margin-bottom: 6px; }
@media (max-width: STACK_BELOW_PXpx) {
  #App > [class~="xl:px-24"]:has(> div > div > .flex-row.gap-8.w-full > div > .marimo-cell) { padding-left: 0; padding-right: 0; }
  #App > [class~="xl:px-24"] > div:has(> div > .flex-row.gap-8.w-full) { width: auto; }
  #App > [class~="xl:px-24"] > div > div > .flex-row.gap-8.w-full { flex-direction: column; gap: 0; }
  #App > [class~="xl:px-24"] > div > div > .flex-row.gap-8.w-full > div:nth-child(n) {
    flex: none; width: 100%; max-width: 100%; min-width: 0; }
}
</style>
""".replace("STACK_BELOW_PX", str(STACK_BELOW_PX - 1))


#: White space between two tags of pandas' indented HTML: each run of it is a text node the
#: page builds on every edit, for nothing.
_BETWEEN_TAGS = re.compile(r">\s+<")

#: :func:`table_html` lists at most this many ranks from the top (the ``k`` slider's range),
#: then the last rank: 10,000 rows took the browser seconds to lay out on every edit and
#: no one reads them on a page. The numbers above the table count every rank.
TABLE_MAX_ROWS = K_SLIDER_MAX


def table_html(table: pd.DataFrame, *, css: bool = True, max_rows: int | None = TABLE_MAX_ROWS) -> str:
    """:func:`display_table` as a styled HTML table (class ``ndcg-breakdown``).

    A table longer than ``max_rows`` shows its first ``max_rows`` ranks, a row ``…`` and its
    last rank (whose DCG@i, IDCG@i and nDCG@i are the totals), and a line under it naming
    the ranks left out (:func:`rows_not_shown`); ``max_rows=None`` shows every rank.
    ``css=False`` leaves out :data:`TABLE_CSS`, for a page that has it once already
    (:data:`PAGE_STYLES`).

    >>> "<th>DCG@i</th>" in table_html(breakdown([1, 0, 2], 3, judgments=[2, 1]))
    True
    >>> html = table_html(breakdown([1] * 250, 250), max_rows=100)
    >>> html.count("<tr>"), "Ranks 101 to 249 are not shown" in html
    (102, True)
    """
    if max_rows is not None:
        max_rows = check_positive_int(max_rows, "max_rows")
    n = len(table)
    if max_rows is None or n <= max_rows + 1:
        body = display_table(table).to_html(index=False, border=0, classes="ndcg-breakdown", justify="right")
        return (TABLE_CSS if css else "") + _BETWEEN_TAGS.sub("><", body)
    shown = display_table(pd.concat([table.iloc[:max_rows], table.iloc[-1:]]))
    gap = pd.DataFrame([["…"] * len(shown.columns)], columns=shown.columns)
    shown = pd.concat([shown.iloc[:max_rows], gap, shown.iloc[max_rows:]], ignore_index=True)
    body = _BETWEEN_TAGS.sub("><", shown.to_html(index=False, border=0, classes="ndcg-breakdown", justify="right"))
    note = f'<p class="ndcg-rows-note">{rows_not_shown(n, max_rows)}</p>'
    return (TABLE_CSS if css else "") + body + note


def rows_not_shown(rows: int, max_rows: int = TABLE_MAX_ROWS) -> str:
    """The line under a shortened table: which ranks it leaves out, and that the totals count them.

    >>> rows_not_shown(10_000, 100)
    'Ranks 101 to 9,999 are not shown: the table lists ranks 1 to 100 and the last, rank 10,000; DCG@k, IDCG@k and nDCG@k above count every rank.'
    """
    return (f"Ranks {max_rows + 1:,} to {rows - 1:,} are not shown: the table lists ranks 1 to {max_rows:,} and "
            f"the last, rank {rows:,}; DCG@k, IDCG@k and nDCG@k above count every rank.")


def _number(x: float) -> str:
    return f"{x:.4f}"


def display_table(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`ndcg_core.breakdown`'s table as text for people: 1-based ranks, 4 decimals.

    An unjudged document's label shows as ``?``; ranks past the end of the list show ``–``.

    >>> t = display_table(breakdown([1, None], 4, judgments=[2, 1, 1]))
    >>> print(t[["rank i", "label", "gain × discount", "DCG@i", "ideal label", "nDCG@i"]].to_string(index=False))
     rank i label gain × discount  DCG@i ideal label nDCG@i
          1     1          1.0000 1.0000           2 0.5000
          2     ?          0.0000 1.0000           1 0.3801
          3     –               – 1.0000           1 0.3194
    """
    status = table["status"].to_numpy()
    past = status == "past end"

    def label_text(value: float, state: str) -> str:
        if state == "unjudged":
            return "?"
        if state == "past end":
            return "–"
        return f"{value:g}"

    def masked(values: pd.Series) -> list[str]:
        return ["–" if gone else _number(v) for v, gone in zip(values, past)]

    return pd.DataFrame(
        {
            "rank i": table["rank"].astype(int).to_numpy(),
            "label": [label_text(v, s) for v, s in zip(table["label"], status)],
            "gain": masked(table["gain"]),
            "discount": [_number(v) for v in table["discount"]],
            "gain × discount": masked(table["discounted_gain"]),
            "DCG@i": [_number(v) for v in table["dcg"]],
            "ideal label": [f"{v:g}" for v in table["ideal_label"]],
            "ideal gain × discount": [_number(v) for v in table["ideal_discounted_gain"]],
            "IDCG@i": [_number(v) for v in table["idcg"]],
            "nDCG@i": [_number(v) for v in table["ndcg"]],
        }
    )


#: The numbers' sizes: class names, so that notebooks/layouts/slides.css can enlarge them on a slide.
STATS_CSS = """
<style>
.ndcg-stats { display: flex; gap: 0.8rem; flex-wrap: wrap; }
.ndcg-stat { flex: 1 1 0; min-width: 9rem; border: 2px solid; border-radius: 0.6rem; padding: 0.5rem 0.9rem; }
.ndcg-stat-label { font-size: 1.15rem; font-weight: 600; }
.ndcg-stat-value { font-size: 2.6rem; font-weight: 700; line-height: 1.15; font-variant-numeric: tabular-nums; }
.ndcg-stat-caption { font-size: 0.95rem; }
.ndcg-stats.compact .ndcg-stat { min-width: 7rem; padding: 0.3rem 0.7rem; }
.ndcg-stats.compact .ndcg-stat-value { font-size: 2.2rem; }
</style>
"""

_STAT_BOX = (
    '<div class="ndcg-stat" style="border-color: {color}; background: {paper}">'
    '<div class="ndcg-stat-label" style="color: {text}">{label}</div>'
    '<div class="ndcg-stat-value" style="color: {color}">{value}</div>'
    '{caption_html}</div>'
)

#: What a hidden number shows (the lecturer's *Hide the numbers* switch).
HIDDEN_VALUE = "?.????"


def stats_html(result: PlaygroundResult, *, hidden: bool = False, compact: bool = False, css: bool = True) -> str:
    """The big numbers as HTML: DCG@k, IDCG@k, nDCG@k (4 decimals) and the unjudged share.

    Sized for a projector; the labels carry the actual k (``nDCG@5``). ``hidden=True`` shows
    :data:`HIDDEN_VALUE` instead of each number (while a class works them out); ``compact=True``
    (a slide) leaves out the captions and the unjudged share. ``css=False`` leaves out
    :data:`STATS_CSS`, for a page that has it once already (:data:`PAGE_STYLES`).

    >>> html = stats_html(evaluate("1, 0, 2, 1, 0", k=5))
    >>> "nDCG@5" in html and "0.7763" in html and "2.4307" in html
    True
    >>> "0.7763" in stats_html(evaluate("1, 0, 2, 1, 0", k=5), hidden=True)
    False
    """
    s, k = result.scored, result.k
    cut = "" if k is None else f"@{k}"
    boxes = [
        ("DCG" + cut, f"{s.dcg:.4f}", "this ranking", COLORS["blue"]),
        ("IDCG" + cut, f"{s.idcg:.4f}", "the ideal ranking", COLORS["orange"]),
        ("nDCG" + cut, f"{s.ndcg:.4f}", "DCG / IDCG" if s.idcg > 0 else "IDCG is 0, so 0", COLORS["green"]),
    ]
    if not compact:
        boxes.append((
            "Unjudged in top " + ("list" if k is None else str(k)),
            f"{s.unjudged_fraction:.0%}",
            f"{result.unjudged_in_top_k} of {result.top_k_size} documents",
            COLORS["grey"],
        ))
    inner = "".join(
        _STAT_BOX.format(
            label=label, value=HIDDEN_VALUE if hidden else value, color=color, text=COLORS["text"],
            paper=COLORS["white"],
            caption_html="" if compact else
            f'<div class="ndcg-stat-caption" style="color: {COLORS["caption"]}">{caption}</div>',
        )
        for label, value, caption, color in boxes
    )
    return f'{STATS_CSS if css else ""}<div class="ndcg-stats{" compact" if compact else ""}">{inner}</div>'


#: Every style the playground's page needs, for a cell that does not rerun on an edit: the
#: layout (:data:`PAGE_CSS`), the numbers (:data:`STATS_CSS`) and the table (:data:`TABLE_CSS`).
#: The cells that redraw on every edit then call :func:`stats_html` and :func:`table_html` with
#: ``css=False``: a ``<style>`` element in an output is a style sheet of the whole page, and
#: adding one makes the browser recompute the style of every element (a few ms per sheet).
PAGE_STYLES = PAGE_CSS + STATS_CSS + TABLE_CSS
