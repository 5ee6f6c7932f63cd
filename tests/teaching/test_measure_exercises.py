"""Chapter 12's exercises (P@R, bpref, MAP) and the teaching helpers behind its page.

The numeric exercises' answers are checked against pytrec_eval (trec_eval's C code): each
exercise's topics are written as qrels and a run, and trec_eval's 'Rprec', 'bpref' and 'map'
must equal the bank's expected answer. The named mistakes are derived by hand.
"""

from __future__ import annotations

import pytest

from ndcg_core.teaching import exercises as ex
from ndcg_core.teaching import measures
from ndcg_core.teaching.exercises.measures import topics
from ndcg_core.teaching.toy import read_toy_collection

NUMERIC = ("measures-rprec", "measures-bpref", "measures-map")
TREC_NAME = {"rprec": "Rprec", "bpref": "bpref", "map": "map"}


def as_trec(exercise):
    """qrels and run of the exercise's topics: list documents d.., missed judged documents m..;
    an unjudged document (?) is left out of the qrels (trec_eval's 'not in the pool')."""
    qrels, run = {}, {}
    for number, (labels, judgments) in enumerate(topics(exercise.setting)):
        q = f"q{number}"
        docs = [f"d{i:02d}" for i in range(len(labels))]
        qrels[q] = {d: int(x) for d, x in zip(docs, labels) if x is not None}
        missed = list(judgments)
        for x in qrels[q].values():
            missed.remove(float(x))
        qrels[q].update({f"m{i}": int(x) for i, x in enumerate(missed)})
        run[q] = {d: float(len(docs) - i) for i, d in enumerate(docs)}
    return qrels, run


@pytest.mark.parametrize("exercise_id", NUMERIC)
def test_numeric_answers_are_trec_evals(exercise_id):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    exercise = ex.get(exercise_id)
    qrels, run = as_trec(exercise)
    measure = TREC_NAME[exercise.asks]
    got = pytrec_eval.RelevanceEvaluator(qrels, {measure}, relevance_level=int(exercise.setting.threshold)).evaluate(run)
    expected = sum(v[measure] for v in got.values()) / len(got)  # MAP: trec_eval's 'all' line, the mean
    assert ex.expected_answer(exercise) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("exercise_id, expected", [
    # R = 4 (judged 1, 2, 1, 1); top 4 = 1, 0, 2, 0: two relevant
    ("measures-rprec", 2 / 4),
    # R = 4, N = 3; relevant at ranks 1, 4, 7 with 0, 1, 2 judged non-relevant above; ? skipped
    ("measures-bpref", (1 + (1 - 1 / 3) + (1 - 2 / 3)) / 4),
    # APs: lecture (1/1 + 2/3 + 3/4)/3; (1/3)/2; (1/1 + 2/2)/2; mean of three
    ("measures-map", ((1 + 2 / 3 + 3 / 4) / 3 + (1 / 3) / 2 + (1 + 1) / 2) / 3),
])
def test_numeric_answers_by_hand(exercise_id, expected):
    assert ex.expected_answer(exercise_id) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("exercise_id, answer, misconception", [
    # R from the list: 3 relevant in the list, top 3 = 1, 0, 2 -> 2/3
    ("measures-rprec", "0.67", "rprec-r-from-list"),
    # the whole list: 3 relevant of 7
    ("measures-rprec", "0.43", "rprec-whole-list"),
    # ? as judged 0: N = 5; ranks 1, 4, 7 with 0, 2, 4 non-relevant above: (1 + 1/2 + 0) / 4
    ("measures-bpref", "0.38", "bpref-unjudged-as-nonrelevant"),
    # dividing by R = 4: (1 + (1 - 1/4) + (1 - 2/4)) / 4
    ("measures-bpref", "0.56", "bpref-divides-by-r"),
    # pooled: (3 * AP1 + 2 * AP2 + 2 * AP3) / 7
    ("measures-map", "0.68", "map-pooled"),
    # AP over the documents found: (AP1 * 3/3 + (1/3)/1 + 1) / 3
    ("measures-map", "0.71", "ap-over-retrieved"),
])
def test_wrong_answers_name_the_mistake(exercise_id, answer, misconception):
    feedback = ex.check(exercise_id, answer)
    assert not feedback.correct
    assert feedback.misconception == misconception, feedback.message


@pytest.mark.parametrize("exercise_id", NUMERIC)
def test_right_answers_check_and_solutions_show_the_steps(exercise_id):
    assert ex.check(exercise_id, ex.format_answer(exercise_id)).correct
    assert ex.check(exercise_id, "50 %").correct is (exercise_id != "measures-map")  # P@R = bpref = 0.5
    solution = ex.solution(exercise_id)
    assert "R = " in solution
    assert "nDCG" not in ex.statement(exercise_id)


def test_chapter_12_is_a_chapter_with_its_exercises():
    ids = [e.id for e in ex.for_chapter("12")]
    assert ex.CHAPTERS["12"] == "Which measure?"
    assert set(NUMERIC) <= set(ids) and len(ids) == 8
    for new in ("rprec-r-from-list", "bpref-unjudged-as-nonrelevant", "map-pooled", "rprec-fixed-k",
                "map-topic-weights", "ndcg-for-incomplete", "all-need-complete", "measure-fits-any-judgments"):
        assert new in ex.MISCONCEPTIONS


@pytest.mark.parametrize("inputs, message", [
    ('threshold = 0', r"inputs\.threshold must be a positive whole number"),
    ('other_topics = "1, 0"', r"inputs\.other_topics must be a list of texts"),
    ('other_topics = ["1, 0"]', r"inputs\.other_topics\[0\] must be \"ranked labels \| all judged labels\""),
    ('other_topics = ["1 | ?"]', r"inputs\.other_topics\[0\] must not hold \?"),
])
def test_bank_errors_for_the_new_inputs(tmp_path, inputs, message):
    bank = tmp_path / "bank.toml"
    bank.write_text(f'''[[exercise]]
id = "t-1"
chapter = "12"
kind = "numeric"
asks = "map"
title = "t"
prompt = "p"
hints = ["h"]
[exercise.inputs]
labels = "1, 0"
judgments = "1, 0"
{inputs}
''', encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        ex.load_bank(bank)


# --------------------------------------------------------------------------- teaching.measures


def test_judgment_kinds_hold_the_cards_row_and_bpref():
    kinds = measures.judgment_kinds()
    card = kinds[(kinds.labels == "graded") & (kinds.judgments == "complete")].iloc[0]
    assert card.measure == "nDCG@k" and card.looks_at == "the top k, grade and position"
    assert card.needs == "the ideal ranking, i.e. complete judgments"
    assert kinds[(kinds.labels == "binary") & (kinds.judgments == "incomplete")].iloc[0].measure == "bpref"
    assert set(zip(kinds.labels, kinds.judgments)) == {(a, b) for a in ("binary", "graded")
                                                       for b in ("complete", "incomplete")}


def test_measure_values_are_the_six_of_the_card():
    values = measures.measure_values([1, 0, 2, 1, 0], 5, judgments=[1, 0, 2, 1, 0], other_topics=[([0, 1], [0, 1])])
    assert list(values.index) == ["P@5", "P@R", "AP", "MAP", "nDCG@5", "bpref"]
    # MAP: mean of the lecture AP (1/1 + 2/3 + 3/4)/3 and (1/2)/1
    assert values.loc["MAP", "value"] == pytest.approx(((1 + 2 / 3 + 3 / 4) / 3 + 1 / 2) / 2)
    with pytest.raises(ValueError, match=r"k must be a positive int; got k=None"):
        measures.measure_values([1], None, judgments=[1])


def test_hide_judgments_and_the_holes_table():
    holed, left = measures.hide_judgments([1, 0, 2, 1, 0], [1, 0, 2, 1, 0], [3])
    assert holed == [1, 0, None, 1, 0] and sorted(left) == [0, 0, 1, 1]
    table = measures.holes_table([1, 0, 2, 1, 0], 5, judgments=[1, 0, 2, 1, 0], ranks=[3])
    # AP with the 2 unjudged: relevant at 1 and 4, R = 2: (1/1 + 2/4) / 2
    assert table.loc["AP", "with holes"] == pytest.approx((1 + 2 / 4) / 2)
    # bpref: R = 2, N = 2; rank 1 adds 1, rank 4 has one non-relevant above: 1 - 1/2
    assert table.loc["bpref", "with holes"] == pytest.approx((1 + 1 / 2) / 2)
    assert list(table.index) == ["P@R", "AP", "nDCG@5, unjudged = 0", "nDCG@5, condensed", "bpref"]
    with pytest.raises(ValueError, match=r"ranks must be ranks from 1 to 5"):
        measures.hide_judgments([1, 0, 2, 1, 0], [1, 0, 2, 1, 0], [6])


def test_unjudged_on_top_leaves_bpref_and_condensed_and_sinks_the_others():
    table = measures.unjudged_on_top_table([1, 0, 2, 1, 0], 5, judgments=[1, 0, 2, 1, 0], count=2)
    after = table["unjudged on top"]
    # relevant now at ranks 3, 5, 6 (R = 3): AP = (1/3 + 2/5 + 3/6) / 3; P@R: top 3 = ?, ?, 1 -> 1/3
    assert after["AP"] == pytest.approx((1 / 3 + 2 / 5 + 3 / 6) / 3)
    assert after["P@R"] == pytest.approx(1 / 3)
    # nDCG@5 with gain 0: labels ?, ?, 1, 0, 2 -> 1/log2(4) + 2/log2(6), over the ideal 2, 1, 1
    from math import log2
    assert after["nDCG@5, unjudged = 0"] == pytest.approx((1 / log2(4) + 2 / log2(6)) / (2 + 1 / log2(3) + 1 / log2(4)))
    assert table.loc["bpref", "change"] == 0 and table.loc["nDCG@5, condensed", "change"] == 0
    with pytest.raises(ValueError, match=r"count must be a whole number of unjudged documents"):
        measures.unjudged_on_top_table([1], 5, judgments=[1], count=-1)


def test_parse_topics_reads_lines_and_names_the_bad_one():
    assert measures.parse_topics("1, 0 | 2\n\n0 |") == [([1, 0], [1.0, 0.0, 2.0]), ([0], [0.0])]
    with pytest.raises(ValueError, match=r"^topic line 2: "):
        measures.parse_topics("1 |\nx |")
    with pytest.raises(ValueError, match=r"^topic line 1: the labels after \| are judged"):
        measures.parse_topics("1 | ?")


def test_sampling_curves_on_the_toy_collection_bpref_holds_up():
    toy = read_toy_collection()
    curves = measures.sampling_curves(toy.qrels_full, toy.runs, (1.0, 0.3), k=10)
    # every judgment kept: condensed and unjudged = 0 agree (the truth judges every retrieved document)
    full = curves[curves.fraction == 1.0].set_index(["run", "measure"])["value"]
    for run in toy.runs:
        assert full[(run, "nDCG@10, condensed")] == pytest.approx(full[(run, "nDCG@10, unjudged = 0")])
    summary = measures.sampling_summary(curves, 0.3)
    # with 30 % of the judgments, bpref stays closer to its full value than MAP and nDCG with gain 0
    gap = (summary["share of full value"] - 1).abs()
    assert gap["bpref"] < gap["MAP"] and gap["bpref"] < gap["nDCG@10, unjudged = 0"]
    assert set(summary["same order"]) <= {"yes", "no"}
    with pytest.raises(ValueError, match=r"fractions must lie in \(0, 1\]"):
        measures.sampling_curves(toy.qrels_full, toy.runs, (0.0,))
