# /// script
# requires-python = ">=3.11"
# dependencies = ["marimo", "ndcg-lab"]
# [tool.marimo.opengraph]
# title = "11 · For lecturers: claim coverage"
# description = "Every claim of the course's two sources: where it is explained, demonstrated live and exercised"
# ///

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="full")


@app.cell
def _():
    import marimo as mo
    import ndcg_core as nc
    from ndcg_core.teaching import coverage
    from ndcg_core.ui import tables
    import pandas as pd
    return coverage, mo, nc, pd, tables


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    # 11 · For lecturers: what the course covers

    The lab was built from two sources: an essay on graded gains and the nDCG discount, and
    the lecture's concept card on DCG and nDCG. Each teachable claim of them has an id
    (C01-C58). For every claim the table says where it is **explained** (notebook: the
    heading or phrase of the cell), where it is **demonstrated** live (notebook: the label of
    the widget to move) and what **exercises** it (exercise titles of notebook 07, and the
    generated exam kinds of notebook 08). Where a source is loose or wrong, the chapter
    teaches the precise statement and says in one sentence what the common wording gets
    wrong (C18, C20, C23, C29, C31, C42).
    """)
    return


@app.cell
def _(coverage, mo):
    _problems = coverage.problems()
    mo.callout(
        mo.md("The map checks out: every claim is present, and every named cell, widget and exercise exists."
              if not _problems else "The map has problems:\n\n" + "\n".join(f"- {p}" for p in _problems)),
        kind="success" if not _problems else "warn",
    )
    return


@app.cell
def _(mo):
    search_text = mo.ui.text(value="", label="Show claims containing", placeholder="e.g. ideal, unjudged, C29")
    search_text
    return (search_text,)


@app.cell
def _(coverage, mo, nc, search_text, tables):
    _table = coverage.coverage_table()
    _titles = {_ex.id: _ex.title for _ex in nc.exercises.all_exercises()}
    _table["exercised"] = [
        "; ".join(_titles.get(_part.strip(), _part.strip()) for _part in _cell.split(";"))
        if not _cell.startswith("(none") else _cell
        for _cell in _table["exercised"]
    ]
    _wanted = search_text.value.strip().lower()
    if _wanted:
        _keep = [_i for _i, _row in _table.iterrows()
                 if _wanted in _i.lower() or any(_wanted in str(_v).lower() for _v in _row.values)]
        _table = _table.loc[_keep]
    mo.vstack([
        mo.md(f"**{len(_table)} of {len(coverage.read_claims())} claims**"),
        mo.md(tables.markdown_table(_table)),
    ])
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## The exercise bank

    Every exercise is checked by the library; a wrong answer that a common mistake produces
    is named, and every wrong option of a concept question names the misconception behind
    it. Notebook 07 shows them all and each chapter ends with a few of its own. The exam
    generator behind notebook 08 (`ndcg_core.teaching.exam`) adds multi-part tasks on one
    ranking, concept questions from this bank, the missed-documents trap once per set, and
    three difficulty levels (`exam_settings("easy" | "medium" | "hard")`).
    """)
    return


@app.cell
def _(mo, nc, pd, tables):
    _bank = nc.exercises.all_exercises()
    _kinds = pd.Series([_ex.kind for _ex in _bank]).value_counts().reindex(nc.exercises.KINDS, fill_value=0)
    _chapters = pd.Series([_ex.chapter for _ex in _bank]).value_counts().reindex(list(nc.exercises.CHAPTERS))
    _by_kind = _kinds.to_frame("exercises").rename_axis("kind")
    _by_chapter = pd.DataFrame(
        {"chapter": [nc.exercises.CHAPTERS[_c] for _c in _chapters.index], "exercises": _chapters.values},
        index=pd.Index(_chapters.index, name="notebook"),
    )
    mo.hstack([
        mo.vstack([mo.md(f"**{len(_bank)} exercises, by kind**"), mo.md(tables.markdown_table(_by_kind))]),
        mo.vstack([mo.md("**by chapter**"), mo.md(tables.markdown_table(_by_chapter))]),
    ], justify="start", gap=4)
    return


if __name__ == "__main__":
    app.run()
