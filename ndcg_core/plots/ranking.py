"""The playground's figures: discount curves, gains per rank, nDCG at every cutoff.

Each function returns a :class:`matplotlib.figure.Figure` built without pyplot (freed when
dropped) in the projector style. :func:`to_svg` renders one to an SVG string: vector output
stays sharp on a projector and is cheaper than marimo's default PNG at twice the resolution
(see ``bench/ui_latency.py``).
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from numbers import Real

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from ..discounts import Discount, resolve_discount
from ._style import COLORS, new_figure, projector_style

__all__ = ["discount_curves", "gains_per_rank", "ndcg_at_cutoffs", "to_svg", "DISCOUNT_CURVE_NAMES"]

#: The five named discounts drawn side by side (``"log"`` is drawn only when chosen).
DISCOUNT_CURVE_NAMES = ("log2", "log2_shifted", "reciprocal", "jarvelin_kekalainen", "none")

_CURVE_COLORS = {
    "log2": COLORS["blue"],
    "log2_shifted": COLORS["orange"],
    "reciprocal": COLORS["green"],
    "jarvelin_kekalainen": COLORS["purple"],
    "none": COLORS["grey"],
    "log": COLORS["red"],
    "custom": COLORS["red"],
}

_BREAKDOWN_COLUMNS = ("rank", "status", "gain", "discounted_gain", "dcg", "idcg")


def _b(base: float | None) -> str:
    return f"{2 if base is None else base:g}"


def _curve_label(name: str, base: float | None) -> str:
    return {
        "log2": "1/log₂(i+1)",
        "log2_shifted": "1/log₂(i+2)  shifted",
        "reciprocal": "1/i  reciprocal",
        "jarvelin_kekalainen": f"Järvelin–Kekäläinen, b = {_b(base)}",
        "none": "none (plain CG)",
        "log": f"1/log_{_b(base)}(i+1)",
    }.get(name, "your discount")


def _positive_int(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be a positive whole number; got {value!r}.")
    return int(value)


def discount_curves(
    discount: Discount = "log2",
    *,
    base: float | None = None,
    k: int = 5,
    max_rank: int | None = None,
) -> Figure:
    """The discount factor d(i) of the five named discounts by rank, the chosen one highlighted.

    Parameters
    ----------
    discount, base
        The chosen discount, as in :func:`ndcg_core.dcg`. ``"log"`` or a callable is drawn as
        an extra, highlighted curve; the Järvelin–Kekäläinen curve uses ``base`` when it is the
        chosen one, else base 2.
    k
        The cutoff: ranks 1..k of the chosen curve are marked with dots and a dashed line.
    max_rank
        Last rank drawn (default: ``max(10, k)``).
    """
    k = _positive_int(k, "k")
    chosen = resolve_discount(discount, base)
    last = max(10, k) if max_rank is None else _positive_int(max_rank, "max_rank")
    ranks = np.arange(1, last + 1)
    names = list(DISCOUNT_CURVE_NAMES)
    if chosen.name not in names:
        names.append(chosen.name)
    with projector_style():
        fig = new_figure(10, 5.0)
        ax = fig.add_subplot()
        for name in names:
            is_chosen = name == chosen.name
            if is_chosen:
                curve = chosen
            else:
                curve = resolve_discount(name)
            factors = curve.prefix(last)
            label = _curve_label(name, chosen.base if is_chosen else None)
            if is_chosen:
                ax.plot(ranks, factors, color=_CURVE_COLORS.get(name, COLORS["red"]), linewidth=5.5,
                        label=f"{label}  (chosen)", zorder=5, solid_capstyle="round")
                top = min(k, last)
                ax.plot(ranks[:top], factors[:top], linestyle="none", marker="o", markersize=11,
                        color=_CURVE_COLORS.get(name, COLORS["red"]), markeredgecolor="black",
                        markeredgewidth=1.5, zorder=6, label=f"ranks 1–{top} counted (k = {k})")
            else:
                ax.plot(ranks, factors, color=_CURVE_COLORS[name], linewidth=2.2, alpha=0.55, label=label, zorder=3)
        if k <= last:
            ax.axvline(k, color=COLORS["black"], linestyle="--", linewidth=2, zorder=4)
        ax.set_xlim(0.5, last + 0.5)
        top_factor = float(chosen.prefix(last).max())
        ax.set_ylim(0, max(1.08, top_factor * 1.08))
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("rank i")
        ax.set_ylabel("discount d(i)")
        ax.set_title(f"Discount by rank: {_curve_label(chosen.name, chosen.base)} is chosen")
        ax.legend(loc="upper right", bbox_to_anchor=(1.0, 0.9), fontsize=13, framealpha=0.92)
    return fig


def _check_breakdown(table: object) -> pd.DataFrame:
    if not isinstance(table, pd.DataFrame):
        raise TypeError(
            f"table must be the DataFrame from ndcg_core.breakdown(...); got {type(table).__name__}."
        )
    missing = [c for c in _BREAKDOWN_COLUMNS if c not in table.columns]
    if missing:
        raise ValueError(
            f"table must be the DataFrame from ndcg_core.breakdown(...); it lacks the column(s) "
            f"{', '.join(missing)}."
        )
    return table


def gains_per_rank(table: pd.DataFrame) -> Figure:
    """Gain and discounted gain per rank (bars), with cumulative DCG and IDCG (lines).

    ``table`` is :func:`ndcg_core.breakdown`'s per-rank table. Unjudged ranks are marked
    ``?``; the gap between the two lines at the last rank is what nDCG < 1 measures.
    """
    table = _check_breakdown(table)
    ranks = table["rank"].to_numpy(dtype=float)
    gains = table["gain"].to_numpy(dtype=float)
    discounted = table["discounted_gain"].to_numpy(dtype=float)
    dcg = table["dcg"].to_numpy(dtype=float)
    idcg = table["idcg"].to_numpy(dtype=float)
    status = table["status"].to_numpy()
    n = len(ranks)
    with projector_style():
        fig = new_figure(10, 5.0)
        ax = fig.add_subplot()
        width = 0.4
        ax.bar(ranks - width / 2, gains, width, color=COLORS["sky"], edgecolor=COLORS["blue"], linewidth=1.2,
               label="gain g(ℓᵢ)")
        ax.bar(ranks + width / 2, discounted, width, color=COLORS["blue"], label="discounted gain g(ℓᵢ)·d(i)")
        marker = "o" if n <= 30 else None
        ax.plot(ranks, idcg, color=COLORS["orange"], linestyle="--", marker=marker, label="cumulative IDCG")
        ax.plot(ranks, dcg, color=COLORS["black"], marker=marker, label="cumulative DCG")
        top = max(1.0, float(np.max(idcg)) if n else 0.0, float(np.max(dcg)) if n else 0.0,
                  float(np.max(gains)) if n else 0.0, float(np.max(discounted)) if n else 0.0)
        for rank in ranks[status == "unjudged"]:
            ax.text(rank, top * 0.03, "?", ha="center", va="bottom", fontsize=20, fontweight="bold",
                    color=COLORS["red"])
        if n:
            ax.annotate(f"DCG@{n} = {dcg[-1]:.4f}", (ranks[-1], dcg[-1]), xytext=(-8, -26),
                        textcoords="offset points", ha="right", fontsize=15, fontweight="bold")
            ax.annotate(f"IDCG@{n} = {idcg[-1]:.4f}", (ranks[-1], idcg[-1]), xytext=(-8, 10),
                        textcoords="offset points", ha="right", fontsize=15, fontweight="bold",
                        color=COLORS["orange"])
        ax.set_xlim(0.4, max(n, 1) + 0.6)
        ax.set_ylim(0, top * 1.25)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("rank i")
        ax.set_ylabel("gain")
        ax.set_title("What each rank adds, and the running totals")
        ax.legend(loc="upper left", fontsize=13, framealpha=0.92)
        ax.grid(axis="x", visible=False)
    return fig


def ndcg_at_cutoffs(curve: Sequence[float], k: int) -> Figure:
    """nDCG at every cutoff 1, 2, ... with the cutoff k marked.

    ``curve`` is :func:`ndcg_core.ndcg_curve`'s list, which by default runs to the end of the
    longer of the ranked list and the ideal list. Past that end neither DCG nor IDCG changes,
    so a k beyond the curve is drawn on a flat dotted extension at the curve's last value.
    """
    if isinstance(curve, (str, bytes)) or not isinstance(curve, Sequence) or not all(
        isinstance(v, Real) and not isinstance(v, bool) and np.isfinite(float(v)) for v in curve
    ):
        raise TypeError("curve must be a list of finite numbers, as ndcg_core.ndcg_curve(...) returns.")
    if not curve:
        raise ValueError("curve is empty: there is no cutoff to draw. Give at least one label.")
    k = _positive_int(k, "k")
    y = np.asarray(curve, dtype=float)
    x = np.arange(1, len(y) + 1)
    at_k = float(y[min(k, len(y)) - 1])
    last = max(k, len(y))
    with projector_style():
        fig = new_figure(10, 4.6)
        ax = fig.add_subplot()
        ax.plot(x, y, color=COLORS["green"], marker="o" if len(y) <= 30 else None, label="NDCG at each cutoff")
        if k > len(y):
            ax.plot([len(y), k], [y[-1], y[-1]], color=COLORS["green"], linestyle=":",
                    label=f"past rank {len(y)}: nothing left to add")
        ax.axvline(k, color=COLORS["black"], linestyle="--", linewidth=2)
        ax.plot([k], [at_k], marker="o", markersize=16, color=COLORS["red"], markeredgecolor="black",
                markeredgewidth=1.5, linestyle="none", zorder=5, label=f"NDCG@{k} = {at_k:.4f}")
        ax.set_xlim(0.5, last + 0.5)
        ax.set_ylim(0, 1.08)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("cutoff")
        ax.set_ylabel("NDCG at that cutoff")
        ax.set_title("NDCG at every cutoff (it can go down)")
        ax.legend(loc="lower right", fontsize=14, framealpha=0.92)
    return fig


_SVG_SIZE = re.compile(r'<svg([^>]*?) width="[^"]*" height="[^"]*"')


def to_svg(fig: Figure, *, max_width: str = "1000px") -> str:
    """The figure as an inline SVG element that scales to its container (up to ``max_width``).

    Text stays text (``svg.fonttype = none``), so the output is small and sharp at any
    projector resolution; no XML prologue, so it can be embedded in HTML directly.
    """
    if not isinstance(fig, Figure):
        raise TypeError(f"fig must be a matplotlib Figure; got {type(fig).__name__}.")
    buffer = io.StringIO()
    with mpl.rc_context({"svg.fonttype": "none", "svg.hashsalt": "ndcg-lab"}):
        fig.savefig(buffer, format="svg")
    svg = buffer.getvalue()
    svg = svg[svg.index("<svg"):]
    title = next((ax.get_title() for ax in fig.axes if ax.get_title()), "figure")
    title = title.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
    return _SVG_SIZE.sub(
        lambda m: f'<svg{m.group(1)} width="100%" style="max-width: {max_width}; height: auto" '
        f'role="img" aria-label="{title}"',
        svg,
        count=1,
    )
