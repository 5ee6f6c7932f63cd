"""The chapters state the sources' claims precisely (issue 11's corrections), and their numbers are computed.

Source checks: the loose or wrong wordings are gone, the precise ones are there (prose and
"What to remember"), and where the essay's wording is kept it is named as loose. Headless
runs: the sentences chapters 04 and 05 build at run time say what ndcg_core computes.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import marimo as mo
import notebook_runs
import pytest

from ndcg_core.teaching import claims
from ndcg_core.teaching import toy as nctoy

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def source(name: str) -> str:
    return (NOTEBOOKS / f"{name}.py").read_text(encoding="utf-8")


def remember(name: str) -> str:
    text = source(name)
    return text[text.index("## What to remember"):].split('""")', 1)[0]


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_chapter_04_states_the_exact_condition_for_a_drop_and_names_the_loose_wording():
    text = flat(source("04_ideal_list"))
    assert "When fewer documents are relevant than the cutoff" not in text
    assert "more relevant documents than the smaller cutoff" in text
    assert "names the opposite case: there nDCG cannot fall" in text  # the one sentence on the essay's wording
    assert "with fewer relevant documents than k" not in flat(remember("04_ideal_list"))
    assert "only when the topic has more relevant documents than 10" in flat(remember("04_ideal_list"))


def test_chapter_04_range_and_exactly_one_carry_their_conditions():
    text = flat(source("04_ideal_list"))
    assert "needs **non-negative gains**" in text and "**and IDCG@k > 0**" in text
    rem = flat(remember("04_ideal_list"))
    assert "with non-negative gains it lies in [0, 1]" in rem and "1 exactly when IDCG@k > 0" in rem


def test_the_ideal_from_the_list_is_explained_once_for_the_exam():
    text = source("04_ideal_list")
    assert text.count("**What to write in the exam.**") == 1
    assert "only when the run contains every relevant document" in flat(text)
    assert "chapter 04 says what to write in the exam" in flat(source("01_playground"))
    assert "(pitfall)" not in flat(source("04_ideal_list"))


def test_chapter_03_calls_the_discount_convex_and_makes_the_ap_claims_precise():
    text = flat(source("03_discounts"))
    assert "Smooth and concave" not in text and "smooth and concave" not in text
    assert "decreasing and **convex**" in text
    assert "decreasing and convex (the cumulative discount is the concave one)" in flat(remember("03_discounts"))
    assert "adds almost nothing." not in text  # the essay's loose AP claim, now made precise
    assert "AP weighs the **first** relevant document it finds exactly like $1/i$" in text


def test_chapter_05_no_longer_says_deepening_the_pool_rescues_novel():
    text = flat(source("05_unjudged"))
    assert "deepen the pool and watch *novel* recover" not in text
    assert "Deepening the pool is not enough" in text


def test_chapter_02_promote_table_has_no_factor_when_the_old_gain_is_zero():
    assert 'drop(index="factor (gain after / before)")' in source("02_gains")


def run(name: str, defs: dict | None = None) -> str:
    filename = f"{name}.py"
    outputs, _ = notebook_runs.load_app(filename).run(defs=defs) if defs else notebook_runs.default_run(filename)
    texts = [html.unescape(re.sub(r"<[^>]+>", " ", getattr(o, "text", "") or "")) for o in outputs if o is not None]
    return flat(" ".join(texts))


def test_chapter_05_pool_sentence_shows_the_computed_figures():
    text = run("05_unjudged")
    toy = nctoy.read_toy_collection()
    story = claims.pool_scenarios(toy.qrels_full, toy.runs, "novel")
    shallow, deep, joined = (story.iloc[i] for i in range(3))
    assert f"novel scores {shallow['ndcg_pooled']:.3f} and is the worst of the 3 systems" in text
    assert f"novel rises to {deep['ndcg_pooled']:.3f} but is still the worst" in text
    assert f"contributing it scores {joined['ndcg_pooled']:.3f} and is the best" in text


@pytest.mark.parametrize("relevant, says", [
    (10, "no more than 10: the ideal is used up by rank 10 (ΔI = 0), so nDCG@100 cannot be lower."),
    (15, "ΔD/ΔI = "),
])
def test_chapter_04_slider_sentence_explains_the_drop(relevant, says):
    text = run("04_ideal_list", {"relevant_slider": mo.ui.slider(10, 60, value=relevant)})
    assert f"The topic has {relevant} relevant documents" in text and says in text


def test_chapter_02_promote_from_label_0_says_there_is_no_factor():
    defs = {"promote_rank_slider": mo.ui.slider(1, 5, value=3),  # rank 3 of 2, 3, 0, 1, 2 holds a 0
            "promote_label_dropdown": mo.ui.dropdown(["0", "3"], value="3")}
    text = run("02_gains", defs)
    assert "worth gain 0, so no factor turns it into the new gain" in text
    assert "factor (gain after / before)" not in text
