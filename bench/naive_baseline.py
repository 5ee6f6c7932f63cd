# /// script
# requires-python = ">=3.11"
# dependencies = ["marimo", "ndcg-lab"]
# [tool.marimo.opengraph]
# title = "Naive baseline"
# description = "One text input, one cell: DCG with ndcg_core and one matplotlib figure (benchmark reference)"
# ///
"""The reference for bench/ui_latency.py: the obvious way to write a reactive DCG plot.

One text input; one cell parses it, computes the per-rank table with ndcg_core and draws
one pyplot figure, which marimo renders with its default formatter (PNG at twice the dpi,
tight bounding box). Not part of the gallery: it lives in bench/.
"""

import marimo

__generated_with = "0.25.2"
app = marimo.App()


@app.cell
def _():
    import marimo as mo
    import matplotlib.pyplot as plt

    import ndcg_core as nc

    return mo, nc, plt


@app.cell
def _(mo):
    labels_text = mo.ui.text(value="1, 0, 2, 1, 0", label="Relevance labels")
    labels_text
    return (labels_text,)


@app.cell
def _(labels_text, mo, nc, plt):
    try:
        _labels = nc.parse_labels(labels_text.value)
        _table = nc.breakdown(_labels, 5)
    except (TypeError, ValueError) as _err:
        _out = mo.callout(mo.md(str(_err)), kind="danger")
    else:
        _fig, _ax = plt.subplots(figsize=(8, 4))
        _ax.bar(_table["rank"], _table["discounted_gain"], label="discounted gain")
        _ax.plot(_table["rank"], _table["dcg"], marker="o", color="black", label="cumulative DCG")
        _ax.set_xlabel("rank")
        _ax.set_ylabel("gain")
        _ax.set_title(f"DCG@5 = {nc.dcg(_labels, 5):.4f}")
        _ax.legend()
        _out = _fig
    _out
    return


if __name__ == "__main__":
    app.run()
