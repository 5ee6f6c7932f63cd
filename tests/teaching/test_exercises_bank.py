"""ndcg_core.teaching.exercises: the bank's content (every answer against a direct formula),
looking exercises up, and the validation of a bank file.
"""

from __future__ import annotations

import math
import re
from math import log2

import pytest
from direct_formulas import (
    LECTURE_DCG,
    LECTURE_IDCG,
    direct_dcg,
    direct_discount,
    direct_gain,
    direct_scores,
)

import ndcg_core as nc
from ndcg_core.teaching import exercises as ex
from ndcg_core.teaching.exercises import Feedback, Setting
from ndcg_core.teaching.exercises.values import quantity


def test_lecture_exercises_hold_the_lecture_numbers():
    assert ex.expected_answer("lecture-dcg") == pytest.approx(LECTURE_DCG)
    assert ex.expected_answer("lecture-idcg") == pytest.approx(LECTURE_IDCG)
    assert ex.expected_answer("lecture-ndcg") == pytest.approx(LECTURE_DCG / LECTURE_IDCG)
    assert [ex.format_answer(i) for i in ("lecture-dcg", "lecture-idcg", "lecture-ndcg")] == ["2.43", "3.13", "0.78"]


@pytest.mark.parametrize("exercise_id, answer", [
    ("lecture-dcg", "2.43"), ("lecture-idcg", "3.13"), ("lecture-ndcg", "0.78"),
    ("lecture-ndcg", "0,78"), ("lecture-ndcg", " 0.78 "), ("lecture-ndcg", "78 %"), ("lecture-ndcg", "78%"),
    ("lecture-ndcg", "2.43/3.13"), ("lecture-dcg", " 2.43 "), ("lecture-dcg", "≈ 2.43"),
])
def test_lecture_answers_as_typed_in_class_are_right(exercise_id, answer):
    feedback = ex.check(exercise_id, answer)
    assert feedback == Feedback(True, feedback.message, None)
    assert feedback.message.startswith("Right")


def test_every_chapter_has_exercises_the_bank_has_70_and_every_kind_is_used():
    for chapter in ex.CHAPTERS:
        assert 2 <= len(ex.for_chapter(chapter)) <= 20, chapter
    assert len(ex.all_exercises()) >= 70
    kinds = {e.kind for e in ex.all_exercises()}
    assert kinds == set(ex.KINDS)
    asks = {e.asks for e in ex.all_exercises() if e.kind == "numeric"}
    assert {"dcg", "idcg", "ndcg", "term"} <= asks


def test_concept_exercises_cover_the_four_pitfalls():
    concept_ids = {e.id for e in ex.all_exercises() if e.kind == "concept"}
    assert {"ideal-cutoff", "ideal-trap-concept", "unjudged-condense-rewards", "discounts-base-cancel"} <= concept_ids


BANK = ex.all_exercises()
NUMERIC = [e for e in BANK if e.kind == "numeric"]
#: P@R, bpref and MAP exercises are checked against pytrec_eval in test_measure_exercises.py.
NUMERIC_NDCG = [e for e in NUMERIC if e.asks not in ("rprec", "bpref", "map")]


@pytest.mark.parametrize("exercise", NUMERIC_NDCG, ids=lambda e: e.id)
def test_numeric_bank_answers_match_a_direct_formula(exercise):
    s = exercise.setting
    if exercise.asks == "term":
        run = [0 if x is None else x for x in s.labels]
        expected = direct_gain(run[exercise.rank - 1], s.gain) * direct_discount(exercise.rank, s.discount, s.base)
    elif exercise.asks == "unjudged":
        top = s.labels[: s.k]
        expected = sum(x is None for x in top) / len(top)
    elif exercise.asks == "precision":  # trec_eval's P_k: relevant (label >= 1) in the top k, over k
        expected = sum(1 for x in s.labels[: s.k] if x is not None and x >= 1) / s.k
    elif exercise.asks == "ap":  # precision at each relevant rank within the cutoff, over R
        hits = [i for i, x in enumerate(s.labels[: s.k], start=1) if x is not None and x >= 1]
        expected = sum(n / rank for n, rank in enumerate(hits, start=1)) / sum(1 for x in s.all_judgments if x >= 1)
    else:
        expected = dict(zip(("dcg", "idcg", "ndcg"), direct_scores(s)))[exercise.asks]
    assert ex.expected_answer(exercise) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("exercise", NUMERIC, ids=lambda e: e.id)
def test_numeric_bank_answers_round_unambiguously_and_check_as_right(exercise):
    value = ex.expected_answer(exercise)
    scaled = value * 10**exercise.precision
    # at least a tenth of a unit away from a rounding boundary, so 2-decimal rounding is not a coin toss
    assert abs(scaled - math.floor(scaled) - 0.5) > 0.1, (exercise.id, value)
    assert ex.check(exercise, ex.format_answer(exercise)).correct
    assert ex.check(exercise, f"{value:.6f}").correct


@pytest.mark.parametrize("exercise", BANK, ids=lambda e: e.id)
def test_every_bank_exercise_renders_statement_hints_and_a_solution_with_its_answer(exercise):
    text = ex.statement(exercise.id)
    assert exercise.prompt.strip() in text
    solution = ex.solution(exercise.id)
    if exercise.kind != "code":
        assert ex.hints(exercise.id)
        assert ex.format_answer(exercise) in solution
        assert solution.splitlines()[-1].startswith("**Answer:**")
    for cutoff in re.findall(r"@(\d+)", exercise.title + " " + exercise.prompt) if exercise.kind != "concept" else ():
        assert exercise.setting is not None and int(cutoff) == exercise.setting.k, exercise.id


@pytest.mark.parametrize("exercise", [e for e in BANK if e.kind in ("concept", "comparison")], ids=lambda e: e.id)
def test_choice_exercises_accept_their_answer_by_letter_and_by_text(exercise):
    answer = ex.expected_answer(exercise)
    index = exercise.choices.index(answer)
    assert ex.check(exercise.id, "ABCDEFGH"[index]).correct
    assert ex.check(exercise.id, answer).correct
    assert ex.check(exercise.id, f" {answer.upper()} ").correct
    for other in range(len(exercise.choices)):
        if other != index:
            assert not ex.check(exercise.id, "abcdefgh"[other]).correct


def test_ideal_exercises_answer_the_sorted_judgments():
    assert ex.expected_answer("lecture-ideal") == [2, 1, 1]
    # the list's relevant labels 3, 1, 2 plus the missed 2, 1
    assert ex.expected_answer("ideal-order") == [3, 2, 2, 1, 1]


def test_comparison_answers_follow_the_direct_formula():
    a = direct_dcg([3, 0, 0], 3, "exponential")  # 7
    b = direct_dcg([2, 2, 0], 3, "exponential")  # 3 + 3/log2(3)
    assert a == pytest.approx(7) and b == pytest.approx(3 + 3 / log2(3))
    assert ex.expected_answer("gains-compare") == "Ranking A"
    # linear: 3 against 2 + 2/log2(3) = 3.26, so B wins; exponential: A wins
    assert direct_dcg([2, 2, 0], 3) > direct_dcg([3, 0, 0], 3)
    assert ex.expected_answer("gains-flip") == "Yes, the other ranking wins"


def test_concept_demos_show_what_their_answers_claim():
    base = ex.get("discounts-base-cancel").setting
    ndcgs = {round(nc.ndcg(list(base.labels), 5, judgments=list(base.judgments), discount="log", base=b), 12)
             for b in (2, math.e, 10)}
    assert len(ndcgs) == 1  # nDCG does not depend on the base ...
    dcgs = {round(nc.dcg(list(base.labels), 5, discount="log", base=b), 6) for b in (2, math.e, 10)}
    assert len(dcgs) == 3  # ... DCG does
    cutoff = ex.get("ideal-cutoff").setting
    curve = nc.ndcg_curve(list(cutoff.labels), judgments=list(cutoff.judgments))
    assert curve[2] == pytest.approx(1.0) and curve[9] < curve[2]
    trap = ex.get("ideal-trap-concept").setting
    assert nc.ndcg(list(trap.labels), 3) == 1.0  # ideal from the run: looks perfect
    assert nc.ndcg(list(trap.labels), 3, judgments=list(trap.judgments)) < 1.0
    rewards = ex.get("unjudged-condense-rewards")
    run1 = list(rewards.setting.labels)
    run2 = list(dict(rewards.demo_lists)["run 2"])
    judged = list(rewards.setting.judgments)
    assert nc.ndcg(run1, 5, judgments=judged, unjudged="condense") == nc.ndcg(run2, 5, judgments=judged)
    assert nc.ndcg(run1, 5, judgments=judged) < nc.ndcg(run2, 5, judgments=judged)
    for exercise in BANK:
        if exercise.demo:
            assert "Computed exactly" in ex.solution(exercise.id)














# --------------------------------------------------------------------------- lookup and the bank file


def test_lookup_errors():
    with pytest.raises(ValueError, match=r"exercise_id must be the id of an exercise in the bank; got 'nope'"):
        ex.get("nope")
    with pytest.raises(ValueError, match=r"exercise_id must be the id .*; got 3"):
        ex.check(3, "1")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"chapter must be one of '01', .*; got '2'\. Chapters are numbered with two digits"):
        ex.for_chapter("2")


def test_load_bank_reads_the_default_and_a_path():
    assert list(ex.load_bank()) == [e.id for e in BANK]
    assert list(ex.load_bank(ex.BANK_PATH)) == [e.id for e in BANK]


GOOD = """
[[exercise]]
id = "t-1"
chapter = "01"
kind = "numeric"
asks = "dcg"
title = "t"
prompt = "p"
hints = ["h"]
[exercise.inputs]
labels = "1, 0"
"""


@pytest.mark.parametrize("change, message", [
    (("asks = \"dcg\"", "asks = \"mrr\""), r"exercise 1 \('t-1'\): asks must be one of dcg, idcg, ndcg, term, unjudged, precision, ap, rprec, bpref, map for a numeric exercise; got 'mrr'"),
    (("kind = \"numeric\"", "kind = \"essay\""), r"kind must be one of numeric, ideal, comparison, concept, code; got 'essay'"),
    (("chapter = \"01\"", "chapter = \"7\""), r"chapter must be one of 01, 02, 03, 04, 05, 06, 09, 12; got '7'"),
    (("id = \"t-1\"", "id = \"T 1\""), r"id must be lowercase words joined by hyphens"),
    (("id = \"t-1\"", "id = \"\""), r"id must be a non-empty text; got ''"),
    (("title = \"t\"", "title = 3"), r"title must be a non-empty text; got 3"),
    (("hints = [\"h\"]", "hints = []"), r"hints must hold at least one hint"),
    (("hints = [\"h\"]", "hints = \"h\""), r"hints must be a list of texts; got 'h'"),
    (("hints = [\"h\"]", "hints = [\"h\"]\nprecision = 0"), r"precision must be a positive whole number; got 0"),
    (("hints = [\"h\"]", "hints = [\"h\"]\ncolour = 1"), r"unknown keys \['colour'\]"),
    (("labels = \"1, 0\"", "labels = \"1, x\""), r"inputs\.labels: label 2 is 'x'"),
    (("labels = \"1, 0\"", "labels = [1, 0]"), r"inputs\.labels must be typed labels in quotes"),
    (("labels = \"1, 0\"", "labels = \"1, 0\"\nk = 0"), r"inputs\.k must be a positive whole number; got 0"),
    (("labels = \"1, 0\"", "labels = \"1, 0\"\nspeed = 1"), r"inputs has unknown keys \['speed'\]"),
    (("labels = \"1, 0\"", "labels = \"1, 0\"\njudgments = \"1\"\nmissed = \"1\""), r"gives both judgments and missed"),
    (("labels = \"1, 0\"", "labels = \"1, 0\"\njudgments = \"1, ?\""), r"inputs\.judgments must not hold \?"),
    (("labels = \"1, 0\"", "labels = \"1, 0\"\ngain = \"cubic\""), r"inputs do not make a valid configuration: gain must be one of"),
    (("labels = \"1, 0\"", "labels = \"1, 0\"\ngain = \"table\"\ngain_table = \"1\""), r"inputs\.gain_table: gain table entry 1 must look like label:gain"),
    (("labels = \"1, 0\"", "labels = \"3, 0\"\njudgments = \"1\""), r"inputs do not make a valid configuration: judgments must list every judged document"),
    (("labels = \"1, 0\"", "k = 2"), r"inputs\.labels is missing"),
    (("[exercise.inputs]\nlabels = \"1, 0\"", ""), r"a numeric exercise needs an \[inputs\] table"),
    (("asks = \"dcg\"", "asks = \"term\""), r"a term exercise needs a rank between 1 and 2; got None"),
])
def test_bank_errors_name_the_entry_and_the_problem(tmp_path, change, message):
    old, new = change
    assert old in GOOD
    path = tmp_path / "bank.toml"
    path.write_text(GOOD.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ValueError, match=r"bank\.toml, exercise 1.*" + message if "exercise 1" not in message else message):
        ex.load_bank(path)


def test_a_term_exercise_counts_the_ranks_of_the_condensed_list(tmp_path):
    path = tmp_path / "bank.toml"
    path.write_text(GOOD.replace('asks = "dcg"', 'asks = "term"\nrank = 2').replace(
        'labels = "1, 0"', 'labels = "1, ?"\nunjudged = "condense"'), encoding="utf-8")
    with pytest.raises(ValueError, match=r"a term exercise needs a rank between 1 and 1; got 2"):
        ex.load_bank(path)


CONCEPT = """
[[exercise]]
id = "c-1"
chapter = "02"
kind = "concept"
title = "t"
prompt = "p"
hints = ["h"]
options = ["yes", "no"]
answer = "A"
"""


@pytest.mark.parametrize("change, message", [
    (("answer = \"A\"", "answer = \"C\""), r"answer must be one letter A to B; got 'C'"),
    (("options = [\"yes\", \"no\"]", "options = [\"yes\"]"), r"a concept exercise needs 2 to 8 options; got 1"),
    (("answer = \"A\"", "answer = \"A\"\noption_notes = [\"x\"]"), r"option_notes must have one note per option \(2\); got 1"),
    (("answer = \"A\"", "answer = \"A\"\noption_misconceptions = [\"guessing\", \"\"]"), r"option_misconceptions names 'guessing'"),
    (("answer = \"A\"", "answer = \"A\"\noption_misconceptions = \"x\""), r"option_misconceptions must be a list"),
    (("answer = \"A\"", "answer = \"A\"\ndemo = \"curve\""), r"a demo needs an \[inputs\] table"),
    (("answer = \"A\"", "answer = \"A\"\ndemo = \"movie\""), r"demo must be one of gains, curve"),
    (("answer = \"A\"", "answer = \"A\"\ndemo_lists = 3"), r"demo_lists must be a table"),
])
def test_concept_bank_errors(tmp_path, change, message):
    old, new = change
    path = tmp_path / "bank.toml"
    path.write_text(CONCEPT.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ValueError, match=r"exercise 1 \('c-1'\): " + message):
        ex.load_bank(path)


def test_bank_file_errors(tmp_path):
    with pytest.raises(ValueError, match=r"exercise bank .*missing\.toml does not exist"):
        ex.load_bank(tmp_path / "missing.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("[[exercise]\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"exercise bank .*broken\.toml is not valid TOML"):
        ex.load_bank(broken)
    empty = tmp_path / "empty.toml"
    empty.write_text("title = 'x'\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"must hold \[\[exercise\]\] entries; found none"):
        ex.load_bank(empty)
    twice = tmp_path / "twice.toml"
    twice.write_text(GOOD + GOOD, encoding="utf-8")
    with pytest.raises(ValueError, match=r"twice\.toml, exercise 2: id 't-1' is used twice"):
        ex.load_bank(twice)
    comparison = tmp_path / "comparison.toml"
    comparison.write_text(GOOD.replace('kind = "numeric"', 'kind = "comparison"').replace('asks = "dcg"', 'asks = "higher"'),
                          encoding="utf-8")
    with pytest.raises(ValueError, match=r"a comparison exercise needs inputs\.labels_b"):
        ex.load_bank(comparison)
    inputs = tmp_path / "inputs.toml"
    inputs.write_text(GOOD.replace('[exercise.inputs]\nlabels = "1, 0"', 'inputs = 3'), encoding="utf-8")
    with pytest.raises(ValueError, match=r"inputs must be a table of settings"):
        ex.load_bank(inputs)


def test_unknown_quantity_is_an_error():
    with pytest.raises(ValueError, match=r"asks must be one of dcg, idcg, ndcg, term, unjudged, precision, ap, rprec, bpref, map; got 'mrr'"):
        quantity(Setting(labels=(1, 0)), "mrr")



def test_every_wrong_option_of_a_concept_question_names_a_misconception():
    for e in ex.all_exercises():
        if e.kind != "concept":
            continue
        assert len(e.option_misconceptions) == len(e.options), e.id
        for i, m in enumerate(e.option_misconceptions):
            if i == e.answer_option:
                assert m is None, f"{e.id}: the right option names a misconception"
            else:
                assert m in ex.MISCONCEPTIONS, f"{e.id}: option {ex.LETTERS[i]} names no misconception"


def test_ideal_cutoff_option_a_is_the_monotone_belief_not_an_off_by_one():
    e = ex.get("ideal-cutoff")
    assert e.option_misconceptions[0] == "ndcg-monotone-in-k"
    feedback = ex.check("ideal-cutoff", "A")
    assert not feedback.correct and feedback.misconception == "ndcg-monotone-in-k"


def test_lecture_ndcg_hint_names_the_exercises_it_needs_by_title():
    hints = " ".join(ex.get("lecture-ndcg").hints)
    assert "exercises before this one" not in hints
    for needed in ("lecture-dcg", "lecture-idcg"):
        assert ex.get(needed).title in hints
