"""ndcg_core.exam: seeded sets, difficulty knobs, marking and the printable sheet.

Generated answers are verified independently: the direct formulas of
tests/test_exercises.py recompute every problem with plain ``math``.
"""

from __future__ import annotations

import html
import re
from dataclasses import replace
from math import log2

import pytest
from direct_formulas import direct_dcg, direct_discount, direct_gain, direct_scores

from ndcg_core.infra.sandbox import check_code_text
from ndcg_core.teaching import exam
from ndcg_core.teaching import exercises as ex
from ndcg_core.teaching.exam import ExamSettings, generate_exam, mark
from ndcg_core.ui.exam_sheet import exam_html


def signature(exam_set: exam.ExamSet) -> list[tuple]:
    return [(p.id, p.kind, p.asks, p.setting, p.labels_b, p.rank, p.precision) for p in exam_set.problems]


#: the kinds computed from one ranked list (no task, no concept question)
COMPUTED = ("dcg", "idcg", "ndcg", "term", "ideal", "compare")
HARD = ExamSettings(
    problems=12, length=7, max_label=4, gains=("linear", "exponential"), discounts=exam.EXAM_DISCOUNTS,
    unjudged=2, unjudged_policies=("zero", "condense"), missed=3, kinds=exam.EXAM_KINDS, precision=3,
)


def test_same_seed_same_set_and_different_seeds_differ():
    assert signature(generate_exam(2026, HARD)) == signature(generate_exam(2026, HARD))
    assert signature(generate_exam(2026)) == signature(generate_exam(2026, ExamSettings()))
    assert signature(generate_exam(2026, HARD)) != signature(generate_exam(2027, HARD))


def test_a_known_seed_gives_a_known_first_problem():
    # pinned so that a change to the generator (which would change every learner's seeds) is noticed
    first = generate_exam(1, ExamSettings(problems=1)).problems[0]
    again = generate_exam(1, ExamSettings(problems=3)).problems[0]
    assert first == again
    assert first.id == "exam-1-1" and first.title == "Problem 1: the discounted gain at rank 1"
    assert (first.asks, first.setting.labels, first.rank) == ("term", (2, 0, 2, 3, 2), 1)


def test_adding_problems_keeps_the_earlier_ones():
    short = generate_exam(99, ExamSettings(problems=3, kinds=exam.EXAM_KINDS))
    long = generate_exam(99, ExamSettings(problems=9, kinds=exam.EXAM_KINDS))
    assert signature(long)[: len(short.problems)] == signature(short)


def test_kinds_take_turns():
    every = generate_exam(5, ExamSettings(problems=12, kinds=COMPUTED))
    asked = [p.asks for p in every.problems]
    for kind in ("dcg", "idcg", "ndcg", "term", "ideal", "higher"):
        assert asked.count(kind) == 2


@pytest.mark.parametrize("seed", range(0, 40, 3))
def test_problems_follow_the_settings(seed):
    for problem in generate_exam(seed, HARD).problems:
        if problem.kind == "concept":
            continue  # a bank question, with the bank's own list
        s = problem.setting
        assert len(s.labels) == HARD.length
        assert sum(x is None for x in s.labels) == HARD.unjudged
        assert all(x is None or 0 <= x <= HARD.max_label for x in s.labels)
        assert any(x for x in s.labels if x is not None)  # something relevant was returned
        assert len(s.missed) == HARD.missed and all(1 <= x <= HARD.max_label for x in s.missed)
        assert s.gain in HARD.gains and s.discount in HARD.discounts
        assert s.unjudged in HARD.unjudged_policies
        assert problem.precision == HARD.precision
        if s.k is not None:
            assert 3 <= s.k <= HARD.length
        if problem.labels_b is not None:
            assert sorted(problem.labels_b, key=str) == sorted(s.labels, key=str)
            assert problem.labels_b != s.labels


def direct_answer(problem: ex.Exercise):
    if problem.kind == "concept" and problem.id.endswith("f"):  # a task's part (f): the one right reason
        (right,) = [c for c in problem.choices if "Both rankings share one ideal list" in c]
        return right
    if problem.kind == "concept":
        return ex.expected_answer(ex.get(_bank_id(problem)))
    s = problem.setting
    if problem.asks == "term":
        run = [0 if x is None else x for x in s.labels]
        return direct_gain(run[problem.rank - 1], s.gain) * direct_discount(problem.rank, s.discount, s.base)
    if problem.asks in ("dcg", "idcg", "ndcg"):
        return dict(zip(("dcg", "idcg", "ndcg"), direct_scores(s)))[problem.asks]
    judged = [x for x in s.labels if x is not None and x > 0] + list(s.missed)
    if problem.asks == "ideal":
        return sorted(judged, reverse=True)
    ideal = sorted(judged, key=lambda x: direct_gain(x, s.gain), reverse=True)
    best = direct_dcg(ideal, s.k, s.gain, s.discount, s.base)
    a = direct_dcg(s.labels, s.k, s.gain, s.discount, s.base, s.unjudged) / best
    b = direct_dcg(problem.labels_b, s.k, s.gain, s.discount, s.base, s.unjudged) / best
    return "Ranking A" if a > b + 1e-12 else "Ranking B" if b > a + 1e-12 else "Both score the same"


def _bank_id(problem: ex.Exercise) -> str:
    """The bank question a generated concept problem copies (same prompt and options)."""
    return next(e.id for e in ex.all_exercises() if e.kind == "concept" and e.prompt == problem.prompt
                and e.options == problem.options)


@pytest.mark.parametrize("settings", [ExamSettings(problems=12, kinds=exam.EXAM_KINDS), HARD], ids=["lecture", "hard"])
@pytest.mark.parametrize("seed", [0, 1, 17, 2026, 999_999_999])
def test_generated_answers_match_a_direct_formula(seed, settings):
    for problem in generate_exam(seed, settings).problems:
        expected = direct_answer(problem)
        got = ex.expected_answer(problem)
        if isinstance(expected, float):
            assert got == pytest.approx(expected, abs=1e-12), problem.id
        else:
            assert got == expected, problem.id
        assert ex.check(problem, ex.format_answer(problem)).correct, problem.id


@pytest.mark.parametrize("seed", range(40))
def test_every_generated_problem_answers_a_wrong_answer_with_feedback(seed):
    # seed 27 once asked for the term at rank 7 of a list whose condensed form (the
    # unjudged-policy mistake) has 5 documents: the diagnosis must not crash
    for problem in generate_exam(seed, HARD).problems:
        feedback = ex.check(problem, "0.123")
        assert not feedback.correct and feedback.message


def test_a_generated_dcg_problem_equals_the_exam_formula():
    exam_set = generate_exam(2026, ExamSettings(problems=6, kinds=("dcg",), length=3, max_label=2))
    p = exam_set.problems[0]
    labels = list(p.setting.labels)
    by_hand = sum(labels[i] / log2(i + 2) for i in range(min(p.setting.k, len(labels))))
    assert ex.expected_answer(p) == pytest.approx(by_hand)


def test_mark_scores_a_whole_set():
    exam_set = generate_exam(7, ExamSettings(problems=4, kinds=("dcg", "ndcg")))
    right = [ex.format_answer(p) for p in exam_set.problems]
    result = mark(exam_set, right)
    assert (result.score, result.total, result.percent) == (4, 4, 100.0)
    answers = ["", None, right[2], "garbage"]
    result = mark(exam_set, answers)
    assert result.score == 1 and result.total == 4 and result.percent == 25.0
    assert result.feedback[0] == ex.Feedback(False, "No answer given.", None)
    assert result.feedback[1].message == "No answer given."
    assert result.feedback[2].correct
    assert "is not a number I can read" in result.feedback[3].message


def test_mark_names_the_natural_log_mistake():
    exam_set = generate_exam(3, ExamSettings(problems=3, kinds=("dcg",)))
    p = exam_set.problems[0]
    value = ex.mistaken_values(p)["log-natural"][0]
    result = mark(exam_set, [f"{value:.2f}", "", ""])
    assert result.feedback[0].misconception == "log-natural"


def test_mark_errors():
    exam_set = generate_exam(7, ExamSettings(problems=2))
    with pytest.raises(ValueError, match=r"answers must have one entry per problem \(2\); got 1\. Leave an answer empty"):
        mark(exam_set, ["1"])
    with pytest.raises(TypeError, match=r"answers must be a list with one answer per problem; got '1, 2'"):
        mark(exam_set, "1, 2")


@pytest.mark.parametrize("kwargs, error, message", [
    ({"problems": 0}, ValueError, r"problems must be a whole number from 1 to 30; got 0\."),
    ({"problems": 31}, ValueError, r"problems must be a whole number from 1 to 30; got 31\."),
    ({"problems": True}, TypeError, r"problems must be a whole number from 1 to 30; got True \(bool\)\."),
    ({"length": 2.5}, TypeError, r"length must be a whole number from 2 to 12; got 2\.5 \(float\)\."),
    ({"max_label": 5}, ValueError, r"max_label must be a whole number from 1 to 4; got 5\."),
    ({"missed": -1}, ValueError, r"missed must be a whole number from 0 to 6; got -1\."),
    ({"precision": 0}, ValueError, r"precision must be a whole number from 1 to 4; got 0\."),
    ({"unjudged": 5, "length": 5}, ValueError, r"unjudged must be smaller than length .* got unjudged=5 with length=5"),
    ({"gains": ()}, ValueError, r"gains must name at least one of 'linear', 'exponential'; got none\. Tick at least one"),
    ({"gains": "linear"}, TypeError, r"gains must be a list of names from 'linear', 'exponential'; got 'linear'\."),
    ({"discounts": ("log10",)}, ValueError, r"discounts must be chosen from 'log2', .*; got 'log10'\."),
    ({"unjudged_policies": ("ignore",)}, ValueError, r"unjudged_policies must be chosen from 'zero', 'condense'; got 'ignore'"),
    ({"kinds": ("map",)}, ValueError, r"kinds must be chosen from 'dcg', .*; got 'map'"),
])
def test_settings_errors(kwargs, error, message):
    with pytest.raises(error, match=message):
        ExamSettings(**kwargs)


@pytest.mark.parametrize("seed, error, message", [
    (-1, ValueError, r"seed must be a whole number from 0 to 999999999; got -1\."),
    (10**9, ValueError, r"seed must be a whole number from 0 to 999999999; got 1000000000\."),
    ("12", TypeError, r"seed must be a whole number from 0 to 999999999; got '12' \(str\)\."),
    (True, TypeError, r"seed must be a whole number .*; got True \(bool\)\."),
])
def test_seed_errors(seed, error, message):
    with pytest.raises(error, match=message):
        generate_exam(seed)


def test_settings_must_be_exam_settings():
    with pytest.raises(TypeError, match=r"settings must be an ExamSettings; got \{\} \(dict\)"):
        generate_exam(1, {})  # type: ignore[arg-type]


def test_duplicate_choices_are_kept_once():
    assert ExamSettings(gains=("linear", "linear")).gains == ("linear",)


def test_describe_states_every_knob():
    text = HARD.describe()
    for part in ("12 problems", "lists of 7 documents", "labels 0 to 4", "exponential gain", "reciprocal discount 1/i",
                 "2 unjudged per list (scored as gain 0 or condensed)", "3 missed relevant per list", "asks: DCG@k, IDCG@k, nDCG@k, one discounted term,", "3 decimals"):
        assert part in text


FORBIDDEN = ("http://", "https://", "<script", "<link", "src=", "@import", "url(", "katex", "cdn")


def test_printable_sheet_is_self_contained_with_problems_before_the_key():
    exam_set = generate_exam(2026, HARD)
    page = exam_html(exam_set)
    lowered = page.lower()
    for needle in FORBIDDEN:
        assert needle not in lowered, needle
    assert page.startswith("<!DOCTYPE html>") and "<style>" in page and page.rstrip().endswith("</html>")
    assert "Seed 2026" in page and html.escape(exam_set.describe()) in page
    problems_at = page.index("<h2>Problems</h2>")
    key_at = page.index("<h2>Answer key</h2>")
    solutions_at = page.index("<h2>Worked solutions</h2>")
    assert problems_at < key_at < solutions_at
    for p in exam_set.problems:
        assert page.index(f"<h3>{p.title}</h3>") < key_at
        assert f"<td>{ex.format_answer(p)}</td>" in page[key_at:solutions_at]
    assert page.count("class=\"answer-line\"") == len(exam_set.problems)  # a line each, lines for a reason too
    assert not re.search(r"\*\*|`", page)  # all markdown turned into HTML


def test_printable_sheet_escapes_its_title():
    page = exam_html(generate_exam(1, ExamSettings(problems=1)), title="<b>Quiz</b>")
    assert "<b>Quiz</b>" not in page and "&lt;b&gt;Quiz&lt;/b&gt;" in page


@pytest.mark.parametrize("text, seed", [("2026", 2026), (" 7 ", 7), ("0", 0), ("999999999", 999_999_999)])
def test_parse_seed_reads_digits(text, seed):
    assert exam.parse_seed(text) == seed


@pytest.mark.parametrize("text, error, message", [
    ("abc", ValueError, r"seed must be a whole number from 0 to 999999999; got 'abc'\. Type digits only, e\.g\. 2026\."),
    ("-5", ValueError, r"got '-5'\."),
    ("1.5", ValueError, r"got '1\.5'\."),
    ("", ValueError, r"got ''\."),
    ("1234567890", ValueError, r"got '1234567890'\."),
    ("9" * 40, ValueError, r"got '99999999999999999\.\.\.'\."),
    (12, TypeError, r"seed text must be a string; got 12 \(int\)\."),
])
def test_parse_seed_errors(text, error, message):
    with pytest.raises(error, match=message):
        exam.parse_seed(text)


def _run_notebook_08():
    """Notebook 08 imported as a module, and its default headless run (shared per session)."""
    import importlib.util

    from notebook_runs import default_run  # one run per session, shared with tests/notebooks

    path = ex.BANK_PATH.parent.parent / "notebooks" / "08_exam_practice.py"
    spec = importlib.util.spec_from_file_location("notebook_08", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, default_run(path)[1]


def test_notebook_08_runs_headless_with_the_library_defaults():
    _, defs = _run_notebook_08()
    shown = defs["exam_set"]
    assert shown.seed == 2026
    assert shown.settings == ExamSettings(problems=5, kinds=exam.PRACTICE_KINDS)
    assert signature(shown) == signature(generate_exam(2026, ExamSettings(problems=5, kinds=exam.PRACTICE_KINDS)))


# --------------------------------------------------------------------------- tasks, concepts, the trap, levels


def test_a_task_asks_six_parts_on_one_ranking_in_the_exam_order():
    exam_set = generate_exam(11, ExamSettings(problems=1, kinds=("task",), length=5))
    parts = exam_set.problems
    assert [p.id for p in parts] == [f"exam-11-1{c}" for c in "abcdef"]
    assert [p.asks for p in parts] == ["dcg", "ideal", "idcg", "ndcg", "higher", "choice"]
    assert [p.title.split(": ")[0] for p in parts] == [f"Problem 1({c})" for c in "abcdef"]
    assert len({p.setting.labels for p in parts}) == 1  # one ranking for every part
    assert parts[0].prompt.startswith("Parts (a) to (f) work on the same ranked list.")
    k = parts[0].setting.k
    assert parts[1].setting.k is None and parts[2].setting.k == parts[3].setting.k == k
    for p in parts:
        assert ex.check(p, ex.format_answer(p)).correct, p.id
    # (d) = (a) / (c), computed independently
    a, c, d = (ex.expected_answer(p) for p in (parts[0], parts[2], parts[3]))
    assert d == pytest.approx(a / c, abs=1e-12)


def test_one_seeded_draw_keeps_every_seed_s_set():
    """_problem and _task share one draw; these sets are pinned from before they did (main 70024b9)."""
    task = generate_exam(11, ExamSettings(problems=1, kinds=("task",), length=5)).problems
    assert (task[0].setting.labels, task[0].setting.k, task[4].labels_b) == ((2, 3, 1, 3, 2), 3, (3, 2, 1, 3, 2))
    lecture = generate_exam(2026, ExamSettings(problems=5, kinds=exam.PRACTICE_KINDS)).problems
    assert [p.setting.labels for p in lecture if p.id.endswith(("-1", "-2", "-4a", "-5"))] == [
        (3, 3, 3, 1, 3), (2, 2, 1, 1, 0), (1, 1, 3, 1, 2), (2, 3, 1, 2, 3)]
    first = generate_exam(1, ExamSettings(problems=1)).problems[0]
    assert (first.asks, first.setting.labels, first.rank) == ("term", (2, 0, 2, 3, 2), 1)


@pytest.mark.parametrize("seed", range(0, 60, 7))
def test_part_f_asks_the_reason_each_wrong_one_a_named_misconception(seed):
    parts = generate_exam(seed, ExamSettings(problems=1, kinds=("task",), length=6)).problems
    compare, why = parts[4], parts[5]
    assert why.kind == "concept" and len(why.options) == 4
    # the reasons do not give (e) away: the same four whoever wins (only the order is seeded)
    other = generate_exam(seed + 1, ExamSettings(problems=1, kinds=("task",), length=6)).problems[5]
    if why.setting.discount == other.setting.discount:
        assert sorted(why.options) == sorted(other.options)
    right = ex.check(why, "ABCD"[why.answer_option])
    assert right.correct and "the discount decides" in right.message
    named = set()
    for i in range(4):
        if i == why.answer_option:
            continue
        fb = ex.check(why, "ABCD"[i])
        assert not fb.correct and fb.misconception in ex.MISCONCEPTIONS, fb
        assert ex.MISCONCEPTIONS[fb.misconception].name in fb.message
        named.add(fb.misconception)
    assert named == {"move-down-helps", "discount-linear-loss", "ideal-unsorted"}
    assert why.labels_b == compare.labels_b and why.setting == compare.setting


def test_the_set_summary_names_the_problem_with_the_trap():
    exam_set = generate_exam(2026, ExamSettings(problems=5, kinds=exam.PRACTICE_KINDS))
    trapped = [p for p in exam_set.problems if p.setting is not None and p.setting.missed]
    number = trapped[0].id.split("-")[-1].rstrip("abcdef")
    count = len(trapped[0].setting.missed)
    text = exam_set.describe()
    assert "0 missed relevant per list" not in text
    assert (f"no missed relevant documents except in problem {number}: {count} missed relevant "
            f"document{'s' if count != 1 else ''} (the missed-documents trap)") in text
    assert "3 missed relevant per list" in generate_exam(1, HARD).describe()  # missed > 0: no trap, as set


def test_the_missed_documents_trap_is_on_by_default_once_per_set():
    for seed in range(30):
        exam_set = generate_exam(seed, ExamSettings(problems=6))
        trapped = [p for p in exam_set.problems if p.setting is not None and p.setting.missed]
        assert trapped, seed
        assert len({p.id.rstrip("abcdef") for p in trapped}) == 1  # one problem (or one task) per set
    assert "except in one problem (the missed-documents trap)" in ExamSettings().describe()
    off = ExamSettings(problems=6, trap=False)
    assert not any(p.setting.missed for p in generate_exam(3, off).problems)
    assert "trap" not in off.describe()


def test_the_trap_asks_for_an_ideal_that_the_sorted_list_gets_wrong():
    exam_set = generate_exam(4, ExamSettings(problems=6, kinds=("ndcg",)))
    p = next(p for p in exam_set.problems if p.setting.missed)
    assert "ideal-from-run" in ex.mistaken_values(p)  # the exam's short code would score it too high


def test_a_concept_question_comes_from_the_bank_under_the_sets_numbering():
    exam_set = generate_exam(8, ExamSettings(problems=2, kinds=("concept",)))
    for i, p in enumerate(exam_set.problems, start=1):
        assert p.id == f"exam-8-{i}" and p.chapter == "exam" and p.kind == "concept"
        bank = ex.get(_bank_id(p))
        assert p.title == f"Problem {i}: {bank.title}"
        assert ex.check(p, "ABCD"[bank.answer_option]).correct


@pytest.mark.parametrize("level", list(exam.LEVELS))
def test_levels_give_valid_sets(level):
    settings = exam.exam_settings(level, problems=8)
    exam_set = generate_exam(2026, settings)
    assert all(ex.check(p, ex.format_answer(p)).correct for p in exam_set.problems)


def test_a_medium_set_holds_a_multi_part_task_and_a_concept_question():
    kinds = {p.kind for p in generate_exam(2026, exam.exam_settings("medium")).problems}
    asks = [p.id for p in generate_exam(2026, exam.exam_settings("medium")).problems]
    assert "concept" in kinds and any(i.endswith("e") for i in asks)


def test_levels_get_harder():
    easy, medium, hard = (exam.exam_settings(x) for x in ("easy", "medium", "hard"))
    assert easy.max_label < medium.max_label < hard.max_label
    assert easy.length < medium.length < hard.length
    with pytest.raises(ValueError, match=r"level must be one of 'easy', 'medium', 'hard'; got 'expert'"):
        exam.exam_settings("expert")
    with pytest.raises(ValueError, match=r"exam_settings got unknown settings \['speed'\]"):
        exam.exam_settings("easy", speed=2)


def test_the_printable_sheet_says_write_not_type():
    page = exam_html(generate_exam(5, ExamSettings(problems=12, kinds=exam.EXAM_KINDS)))
    problems = page.split('<section class="key">')[0]
    assert "Write the ideal ranking" in problems
    assert not re.search(r"\bType\b", problems)


def test_a_practice_set_is_like_the_real_exam() -> None:
    """08's default kinds: five problems give a multi-part task, a concept question and one each
    of DCG@k, nDCG@k and the ideal ranking (every kind once before any repeats); the task's
    parts are DCG@k, the ideal ranking, IDCG@k and nDCG@k of one ranking, then a comparison."""
    for seed in (0, 1, 2026, 4242):
        exam_set = generate_exam(seed, ExamSettings(problems=5, kinds=exam.PRACTICE_KINDS))
        titles = [p.title for p in exam_set.problems]
        assert any(p.kind == "concept" for p in exam_set.problems), titles
        task = [t.split(": ", 1)[1] for t in titles if "(" in t.split(":")[0]]
        k = next(p for p in exam_set.problems if "(a)" in p.title).setting.k
        assert task[:4] == [f"DCG@{k}", "the ideal ranking", f"IDCG@{k}", f"nDCG@{k}"], titles
        assert task[4].startswith("which"), titles


def test_notebook_08_starts_with_the_practice_kinds_and_offers_the_levels() -> None:
    import ast

    from ndcg_core.teaching.paths import notebooks_dir

    source = (notebooks_dir() / "08_exam_practice.py").read_text(encoding="utf-8")
    tree = ast.parse(source)

    def assigned(name):
        return ast.literal_eval(next(n.value for n in ast.walk(tree) if isinstance(n, ast.Assign)
                                     and any(getattr(t, "id", None) == name for t in n.targets)))

    options, value = assigned("_question_options"), assigned("_lecture_questions")
    assert tuple(options[label] for label in value) == exam.PRACTICE_KINDS
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and any(
        k.arg == "label" and isinstance(k.value, ast.Constant) and k.value.value == "Difficulty" for k in n.keywords))
    levels = ast.literal_eval(next(k.value for k in call.keywords if k.arg == "options"))
    assert set(levels.values()) == {"lecture", *exam.LEVELS}


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_notebook_08_difficulty_sets_the_knobs(level):
    """Choosing a level in 08 gives exactly the level's settings (the knobs follow it)."""
    module, defs = _run_notebook_08()
    level_dropdown = defs["level_dropdown"]
    assert level_dropdown.value == "lecture"
    # the knobs' cell (named difficulty_knobs), run on its own with the level chosen
    picked = type("Picked", (), {"value": level})()
    _, made = module.difficulty_knobs.run(exam=exam, level_dropdown=picked, mo=defs["mo"], widgets=defs["widgets"])
    want = exam.exam_settings(level)
    got = ExamSettings(
        problems=made["problems_slider"].value, length=made["length_slider"].value,
        max_label=made["max_label_slider"].value, gains=tuple(made["gains_multiselect"].value),
        discounts=tuple(made["discounts_multiselect"].value), unjudged=made["unjudged_slider"].value,
        unjudged_policies=tuple(made["policies_multiselect"].value), missed=made["missed_slider"].value,
        kinds=tuple(made["kinds_multiselect"].value), precision=made["precision_slider"].value)
    assert got == replace(want, kinds=got.kinds) and set(got.kinds) == set(want.kinds)  # kinds in the menu's order


# --------------------------------------------------------------------------- the code task and the sheet


def test_the_code_task_asks_dcg_then_ndcg_and_the_model_answer_passes_both():
    task = exam.code_task(7)
    assert task == exam.code_task(7) and task.functions == ("dcg", "ndcg")
    assert task.exercises == ("code-dcg", "code-ndcg")
    assert task.prompt.index("def dcg(rels, k)") < task.prompt.index("def ndcg(rels, k)")
    assert "calls your `dcg`" in task.prompt
    assert "def dcg(rels, k):" in task.starter and "def ndcg(rels, k):" in task.starter
    for exercise in task.exercises:
        report = check_code_text(exercise, exam.MODEL_CODE, task.cases)
        assert report.passed and len(report.cases) == len(ex.code.BATTERY[exercise[5:]]) + 4, report.markdown()
    assert exam.code_notes(task, exam.MODEL_CODE) == []


def test_the_code_task_says_when_ndcg_is_not_built_on_dcg():
    task = exam.code_task(7)
    alone = ("from math import log2\ndef dcg(rels, k):\n    return 0\n\n"
             "def ndcg(rels, k):\n    ideal = sorted(rels, reverse=True)\n    return 1.0\n")
    (note,) = exam.code_notes(task, alone)
    assert note.startswith("`ndcg` does not call `dcg`")
    assert exam.code_notes(task, "def ndcg(rels, k):\n    return my.dcg(rels, k)\n")  # a method is not your dcg


def test_the_sheet_prints_the_code_task_and_room_for_the_reasons():
    exam_set = generate_exam(11, ExamSettings(problems=2, kinds=("task", "concept")))
    task = exam.code_task(11)
    page = exam_html(exam_set, code=task)
    problems = page[:page.index("<h2>Answer key</h2>")]
    assert html.escape(task.title) in problems and "def ndcg(rels, k)" in problems
    assert problems.count('class="code-box"') == 1
    assert problems.count('<div class="writing"') == sum(p.kind == "concept" for p in exam_set.problems) == 2
    for option in exam_set.problems[5].choices:  # part (f)'s reasons, each printed
        assert html.escape(option, quote=False) in problems
    key = page[page.index("<h2>Answer key</h2>"):]
    assert html.escape(exam.MODEL_CODE, quote=False).splitlines()[3] in key
    assert exam_html(exam_set).count('class="code-box"') == 0  # no code task given: none printed


def test_the_sheet_turns_markdown_into_html_with_the_markdown_package_and_escapes_text():
    from ndcg_core.ui.markup import markdown_html

    out = markdown_html("Hello <script>alert(1)</script> **bold** `a<b`\n\n<img src=x>\n\n| a | b |\n|---|---|\n| 1 | <2> |")
    assert "<script>" not in out and "&lt;script&gt;" in out and "&lt;img src=x&gt;" in out
    assert "<strong>bold</strong>" in out and "<code>a&lt;b</code>" in out
    assert "<th>a</th>" in out and "<td>&lt;2&gt;</td>" in out
    with pytest.raises(TypeError, match=r"text must be Markdown text \(a str\); got 3 \(int\)"):
        markdown_html(3)
