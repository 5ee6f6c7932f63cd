"""infra.progress: the check log on infra.store; exam.practice_set and exam.code_task."""

from __future__ import annotations

import pytest

from ndcg_core.infra import progress, store
from ndcg_core.teaching import exam
from ndcg_core.teaching import exercises as ex
from ndcg_core.teaching.exercises import check, for_chapter, mistaken_values


def test_every_check_is_kept_and_read_back_per_chapter(tmp_path):
    progress.record("ana", "lecture-dcg", "3.51", False, "log-natural", folder=tmp_path)
    progress.record("ana", "lecture-dcg", "2.43", True, None, folder=tmp_path)
    progress.record("ana", "lecture-ndcg", "0.5", False, None, folder=tmp_path)
    progress.record("bob", "lecture-idcg", "3.13", True, None, folder=tmp_path)
    rows = {r.chapter: r for r in progress.chapter_progress("ana", folder=tmp_path)}
    assert rows["01"].exercises == len(for_chapter("01"))
    assert (rows["01"].tried, rows["01"].solved) == (2, 1)
    assert sum(r.tried for r in rows.values()) == 2
    checks = progress.history("ana", folder=tmp_path)
    assert [c.answer for c in checks] == ["3.51", "2.43", "0.5"]
    assert checks[0].misconception == "log-natural" and checks[0].checked_at.endswith("+00:00")


def test_progress_survives_a_new_process(tmp_path):
    import subprocess
    import sys
    progress.record("ana", "lecture-dcg", "2.43", True, None, folder=tmp_path)
    code = ("from ndcg_core.infra import progress; import sys; "
            "print(progress.solved_ids('ana', folder=sys.argv[1]))")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "{'lecture-dcg': True}"


def test_a_re_run_of_the_same_check_is_not_counted_twice(tmp_path):
    for _ in range(3):
        progress.record("ana", "lecture-dcg", "3.51", False, "log-natural", folder=tmp_path)
    assert len(progress.history("ana", folder=tmp_path)) == 1


def test_recurring_mistakes_most_frequent_first(tmp_path):
    for i, answer in enumerate(("3.51", "3.5", "3.507")):
        progress.record("ana", f"ex-{i}", answer, False, "log-natural", folder=tmp_path)
    progress.record("ana", "ex-9", "1", False, "no-normalisation", folder=tmp_path)
    mistakes = progress.recurring_mistakes("ana", folder=tmp_path)
    assert [(m.misconception, m.count) for m in mistakes] == [("log-natural", 3), ("no-normalisation", 1)]
    assert mistakes[0].name.startswith("the natural logarithm")


@pytest.mark.parametrize("name, ok", [("Ana", True), ("  Ana   Lima ", True), ("Zoë-2", True), ("", False),
                                      ("<script>", False), ("a" * 41, False), ("_x", False)])
def test_names(name, ok):
    if ok:
        assert progress.check_name(name)
    else:
        with pytest.raises(ValueError):
            progress.check_name(name)


def test_a_bad_file_is_a_store_error_and_stays_as_it_was(tmp_path):
    path = store.store_path(tmp_path)
    path.write_bytes(b"this is not a database" * 10)
    with pytest.raises(store.StoreError, match="not an NDCG Lab database"):
        progress.record("ana", "lecture-dcg", "2.43", True, None, folder=tmp_path)
    assert path.read_bytes() == b"this is not a database" * 10


def test_practice_set_aims_at_the_mistakes():
    s = exam.practice_set(11, ["log-natural", "cutoff-off-by-one"], problems=4)
    assert len(s.problems) == 4
    assert s == exam.practice_set(11, ["log-natural", "cutoff-off-by-one"], problems=4)
    for p, m in zip(s.problems, ["log-natural", "cutoff-off-by-one"] * 2):
        assert m in mistaken_values(p)
        wrong = f"{mistaken_values(p)[m][0]:.{p.precision}f}"
        assert check(p, wrong).misconception is not None


def test_practice_set_draws_a_new_list_for_every_problem_and_keeps_the_mistakes_out_of_the_titles():
    mistakes = ["log-natural", "ideal-from-run", "ratio-inverted", "cutoff-off-by-one"]
    for seed in (0, 3, 11, 2026):
        s = exam.practice_set(seed, mistakes, problems=6)
        lists = [p.setting.labels for p in s.problems]
        assert len(lists) == 6 and len(set(lists)) == 6, lists  # no list twice (it once gave (3, 3, 3, 1, 3) to all)
        for p in s.problems:  # the title says what is asked, not the trap it sets
            assert not any(ex.MISCONCEPTIONS[m].name.split(" (")[0] in p.title for m in mistakes), p.title
            assert p.title.startswith("Practise ") and not p.title.endswith(")"), p.title


def test_practice_set_without_mistakes_is_an_ordinary_set():
    assert len(exam.practice_set(1, []).problems) == 6


def test_code_task_is_seeded_and_checked_in_the_sandbox():
    from ndcg_core.infra.sandbox import check_code_text
    task = exam.code_task(7)
    assert task == exam.code_task(7)
    right = ("from math import log2\ndef dcg(rels, k):\n    return sum(rels[i] / log2(i + 2) for i in range(min(k, len(rels))))\n"
             "def ndcg(rels, k):\n    b = dcg(sorted(rels, reverse=True), k)\n    return dcg(rels, k) / b if b else 0.0\n")
    for exercise in task.exercises:
        report = check_code_text(exercise, right, task.cases)
        assert report.passed and len(report.cases) > 4


def _run_07(monkeypatch, tmp_path, learner: str) -> str:
    """Notebook 07 run headless for ``learner`` with the store in ``tmp_path``: its text."""
    import importlib.util
    import re

    from ndcg_core.teaching.paths import notebooks_dir

    monkeypatch.setenv(store.DATA_DIR_ENV, str(tmp_path))
    spec = importlib.util.spec_from_file_location("notebook_07_progress", notebooks_dir() / "07_exercises.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    import marimo as mo

    outputs, _ = module.app.run(defs={"learner_box": mo.ui.text(value=learner)})
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", " ".join(str(getattr(o, "text", o)) for o in outputs)))


def test_07_names_every_recurring_mistake_and_has_an_08_row(monkeypatch, tmp_path):
    """Seven named mistakes, one of them made once: 07 lists six and names the seventh
    (it was dropped without a word); the progress table has a line for 08's exam problems."""
    mistakes = ["log-natural", "log-natural", "log-base10", "rank-shift", "ideal-from-run", "no-normalisation",
                "ratio-inverted", "truncated"]
    for n, m in enumerate(mistakes):
        progress.record("ana", "lecture-dcg", f"9.{n}", False, m, folder=tmp_path)
    progress.record("ana", "exam-2026-1", "0.5", True, None, folder=tmp_path)
    progress.record("ana", "practise-3-2", "0.1", False, None, folder=tmp_path)
    text = _run_07(monkeypatch, tmp_path, "ana")
    found = progress.recurring_mistakes("ana", folder=tmp_path)
    assert len(found) == 7
    for m in found:
        assert m.name.split(" (")[0] in text, m.name
    assert "Also: " in text
    row = progress.exam_progress("ana", folder=tmp_path)
    assert (row.tried, row.solved) == (2, 1)
    assert "08 · Exam practice generated 2 1" in text  # the table row, tags stripped
