"""The notebooks' reusable marimo pieces, written once: the only module of ndcg_core that imports marimo.

Import it in a notebook as ``from ndcg_core.ui import widgets``. What it offers:

=============================  ==================================================================
piece                          what a learner sees
=============================  ==================================================================
:func:`error_callout`          a red callout with the message of a ``TypeError``/``ValueError``
:func:`labels_input`           the ``Relevance labels`` text box (``?`` = unjudged)
:func:`missed_input`           the ``Judged documents not in the list`` text box
:func:`file_upload`,           an upload button for one qrels or run file, its size limit in its
:func:`read_upload`            label; the file read with the trec readers, or a message (never a
                               traceback, never a path on the server)
:func:`gain_options`,          dropdown/multiselect options ``{text shown: stable name}``:
:func:`discount_options`       ``"1/log2(i+2), shifted"`` shown, ``"log2_shifted"`` underneath
:func:`gain_dropdown`,         the ``Gain`` and ``Discount`` dropdowns built from those options;
:func:`discount_dropdown`      their ``.value`` is the stable name ndcg_core takes
:func:`check_yourself`         the "Check yourself" heading with how to answer
:func:`answer_box`,            one exercise's answer box (text or options) with its **Check**
:func:`answer_boxes`           button; a ``mo.ui.dictionary`` of them, keyed by exercise id
:func:`exercise_card`          statement, answer box, feedback once checked, hints and the worked
                               solution folded (from :func:`ndcg_core.teaching.exercises.card`)
:func:`feedback_callout`,      the feedback on one answer; the folded hints and worked solution
:func:`folded_help`
=============================  ==================================================================

A chapter ends with its exercises in three kinds of cell (each card can be a slide)::

    @app.cell(hide_code=True)
    def _(widgets):
        widgets.check_yourself("Four exercises on gains.")
        return

    @app.cell
    def _(widgets):
        chapter_answers = widgets.answer_boxes(("gains-exp-dcg", "gains-ratio"))
        return (chapter_answers,)

    @app.cell
    def _(chapter_answers, widgets):
        widgets.exercise_card(chapter_answers, "gains-exp-dcg")
        return

Each answer box is a text box (or options) with its own **Check** button. A text box sends
its value on Enter or when it loses focus, and each value sent is checked (Enter checks);
options are checked on **Check**, and a choice changed since is marked "not checked". An
empty box or no option chosen gets a message. Every check is logged in the progress store
under the learner's name (:func:`learner_name`; none: nothing is logged). The option lists keep the stable names of
:data:`ndcg_core.DISCOUNT_NAMES` underneath, so tests and ndcg_core see ``"log2_shifted"``
while the learner reads ``1/log2(i+2), shifted``.

May import: marimo, every other layer of ndcg_core. Nothing below ``ndcg_core.ui`` imports it.
"""

from __future__ import annotations

import html
import weakref
from collections.abc import Iterable, Sequence
from typing import Any

import marimo as mo

from ..discounts import DISCOUNT_NAMES
from ..infra import progress, sandbox, store
from ..teaching import exercises
from .playground import GAIN_CHOICES, LABELS_FIELD, MISSED_FIELD

__all__ = [
    "error_callout",
    "labels_input",
    "missed_input",
    "read_ranking",
    "UPLOAD_LIMIT",
    "file_upload",
    "read_upload",
    "GAIN_LABELS",
    "GAIN_FORMULAS",
    "DISCOUNT_LABELS",
    "gain_label",
    "discount_label",
    "gain_options",
    "discount_options",
    "gain_dropdown",
    "discount_dropdown",
    "HOW_TO_ANSWER",
    "check_yourself",
    "answer_label",
    "answer_box",
    "answer_boxes",
    "feedback_callout",
    "folded_help",
    "exercise_card",
    "check_button",
    "exam_answer_boxes",
    "verdict",
    "HELP_FOLDED",
    "help_tabs",
    "LEARNER_PARAM",
    "LEARNER_FIELD",
    "learner_name",
    "learner_input",
    "checked_name",
    "record_check",
    "CODE_FIELD",
    "code_box",
    "code_report",
]


# --------------------------------------------------------------------------- errors and inputs


def error_callout(err: BaseException | str, *, lead: str = "") -> Any:
    """The message of an error as a red ("danger") callout, word for word; never a traceback.

    ``lead`` (Markdown) comes before the message, e.g. ``"**Cannot compute:**"``.

    >>> error_callout(ValueError("label 2 is 'x'"), lead="**Cannot compute:**").text.count("Cannot compute")
    1
    """
    text = str(err)
    return mo.callout(mo.md(f"{lead} {text}" if lead else text), kind="danger")


def labels_input(value: str = "1, 0, 2, 1, 0", *, label: str = LABELS_FIELD) -> Any:
    """The text box for a ranked list of relevance labels (comma or space separated, ``?`` = unjudged).

    >>> labels_input().value
    '1, 0, 2, 1, 0'
    """
    return mo.ui.text(value=value, label=label, full_width=True)


def missed_input(value: str = "") -> Any:
    """The text box for the labels of judged documents the list missed (they join the ideal list).

    >>> missed_input("2, 1").value
    '2, 1'
    """
    return mo.ui.text(value=value, label=MISSED_FIELD, full_width=True)


def read_ranking(labels_text: str, missed_text: str = "") -> tuple[list | None, list | None, Any]:
    """The typed list and missed labels -> ``(labels, judgments, None)``, or
    ``(None, None, callout)`` naming the bad token: the parse step of the chapters that take
    :func:`labels_input` and :func:`missed_input`.

    >>> read_ranking("1, ?, 2", "3")[:2]
    ([1, None, 2], [1.0, 2.0, 3.0])
    >>> read_ranking("1, x")[0] is None
    True
    """
    from ..labels import parse_labels
    from ..teaching.compare import judged_labels

    try:
        labels = parse_labels(labels_text)
        missed = parse_labels(missed_text) if missed_text.strip() else []
        return labels, judged_labels(labels, missed), None  # type: ignore[arg-type]
    except (TypeError, ValueError) as err:
        return None, None, error_callout(err)


# --------------------------------------------------------------------------- file uploads

#: The largest upload the notebooks accept (bytes); bigger files go to the ``ndcg-eval`` command.
UPLOAD_LIMIT = 20_000_000


def _megabytes(size: int) -> str:
    return f"{size / 1_000_000:g} MB"


def file_upload(label: str, *, max_bytes: int = UPLOAD_LIMIT) -> Any:
    """An upload button for one text file (qrels or run) of at most ``max_bytes``; the label says the limit.

    The browser refuses a larger file with a "File upload failed" notice before anything is
    sent; :func:`read_upload` checks the size again on the server.

    >>> file_upload("Upload qrels", max_bytes=5_000_000).value
    ()
    >>> file_upload("Upload run", max_bytes=0)
    Traceback (most recent call last):
    ...
    ValueError: max_bytes must be a positive number of bytes; got 0.
    """
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes <= 0:
        raise ValueError(f"max_bytes must be a positive number of bytes; got {max_bytes!r}.")
    return mo.ui.file(label=f"{label} (at most {_megabytes(max_bytes)})", max_size=max_bytes, kind="button")


def read_upload(upload: Any, reader: Any, *, what: str, max_bytes: int = UPLOAD_LIMIT) -> tuple[Any, Any]:
    """Read the file in ``upload`` (a :func:`file_upload`) with ``reader``: ``(table, None)`` or ``(None, callout)``.

    ``reader`` is :func:`ndcg_core.trec.read_qrels` or :func:`~ndcg_core.trec.read_run`; it
    gets the uploaded *bytes* (never a path: nothing on the server's disk is opened), the
    file's name for its ``file, line N:`` messages and ``max_bytes``. Nothing uploaded yet
    gives a blue callout asking for the ``what`` file; a bad file gives
    :func:`error_callout` with the reader's message, word for word.

    >>> from types import SimpleNamespace
    >>> from ndcg_core.trec import read_run
    >>> empty = SimpleNamespace(value=(), name=lambda: None, contents=lambda: None)
    >>> read_upload(empty, read_run, what="run")[1].text.count("Upload a run file")
    1
    >>> bad = SimpleNamespace(value=(1,), name=lambda: "my.run", contents=lambda: b"101 Q0 d1 1 high r\\n")
    >>> "my.run, line 1: score" in read_upload(bad, read_run, what="run")[1].text
    True
    """
    if not upload.value:
        return None, mo.callout(mo.md(f"Upload a {what} file (at most {_megabytes(max_bytes)})."), kind="info")
    try:
        return reader(upload.contents(), name=upload.name() or f"the {what} file", max_bytes=max_bytes), None
    except (TypeError, ValueError) as err:
        return None, error_callout(err)


# --------------------------------------------------------------------------- gains and discounts, in words

#: What the Gain options show: words (the playground's dropdown binds these texts).
GAIN_LABELS = {"linear": "linear", "exponential": "exponential", "table": "table"}
#: The same with the formula, for lists where there is room for it (exam settings).
GAIN_FORMULAS = {"linear": "linear, g(l) = l", "exponential": "exponential, g(l) = 2^l - 1", "table": "table"}
#: What the Discount options show for each stable name of :data:`ndcg_core.DISCOUNT_NAMES`.
DISCOUNT_LABELS = {
    "log2": "1/log2(i+1)",
    "log2_shifted": "1/log2(i+2), shifted",
    "reciprocal": "1/i",
    "log": "1/log_b(i+1)",
    "jarvelin_kekalainen": "Järvelin–Kekäläinen (base b)",
    "none": "none (plain CG)",
}


def _known(name: object, known: Sequence[str], what: str) -> str:
    if not isinstance(name, str) or name not in known:
        valid = ", ".join(repr(n) for n in known)
        raise ValueError(f"{what} must be one of {valid}; got {name!r}.")
    return name


def gain_label(name: str, *, formula: bool = False) -> str:
    """The text shown for a gain name.

    >>> gain_label("exponential"), gain_label("exponential", formula=True)
    ('exponential', 'exponential, g(l) = 2^l - 1')
    """
    _known(name, GAIN_CHOICES, "gain")
    return (GAIN_FORMULAS if formula else GAIN_LABELS)[name]


def discount_label(name: str, *, base: float | None = None) -> str:
    """The text shown for a discount name; a fixed ``base`` replaces the ``b`` where there is one.

    >>> discount_label("log2_shifted")
    '1/log2(i+2), shifted'
    >>> discount_label("jarvelin_kekalainen", base=2), discount_label("log", base=10)
    ('Järvelin–Kekäläinen (base 2)', '1/log_10(i+1)')
    """
    text = DISCOUNT_LABELS[_known(name, DISCOUNT_NAMES, "discount")]
    if base is None:
        return text
    b = f"{base:g}"
    return text.replace("(base b)", f"(base {b})").replace("log_b", f"log_{b}")


def gain_options(names: Iterable[str] = GAIN_CHOICES, *, formula: bool = False) -> dict[str, str]:
    """``{text shown: gain name}`` for a dropdown or multiselect, in the order given.

    >>> gain_options(("linear", "exponential"))
    {'linear': 'linear', 'exponential': 'exponential'}
    """
    return {gain_label(name, formula=formula): name for name in names}


def discount_options(names: Iterable[str] = DISCOUNT_NAMES, *, base: float | None = None) -> dict[str, str]:
    """``{text shown: discount name}`` for a dropdown or multiselect, in the order given.

    >>> list(discount_options(("log2", "reciprocal", "none")))
    ['1/log2(i+1)', '1/i', 'none (plain CG)']
    """
    return {discount_label(name, base=base): name for name in names}


def gain_dropdown(value: str = "linear", *, names: Iterable[str] = GAIN_CHOICES, label: str = "Gain") -> Any:
    """The Gain dropdown; its ``.value`` is the chosen gain's name.

    >>> gain_dropdown("exponential").value
    'exponential'
    """
    options = gain_options(names)
    if value not in options.values():
        raise ValueError(f"value must be one of the gains offered ({', '.join(map(repr, options.values()))}); "
                         f"got {value!r}.")
    return mo.ui.dropdown(options=options, value=gain_label(value), label=label)


def discount_dropdown(
    value: str = "log2", *, names: Iterable[str] = DISCOUNT_NAMES, base: float | None = None, label: str = "Discount"
) -> Any:
    """The Discount dropdown showing formulas; its ``.value`` is the chosen discount's name.

    >>> d = discount_dropdown("log2_shifted")
    >>> d.value, d.selected_key
    ('log2_shifted', '1/log2(i+2), shifted')
    """
    options = discount_options(names, base=base)
    if value not in options.values():
        raise ValueError(f"value must be one of the discounts offered ({', '.join(map(repr, options.values()))}); "
                         f"got {value!r}.")
    return mo.ui.dropdown(options=options, value=discount_label(value, base=base), label=label)


# --------------------------------------------------------------------------- "Check yourself"

#: How to answer, said under every "Check yourself" heading.
HOW_TO_ANSWER = (
    "Type your answer and press **Enter** (or **Check**), or pick an option and press **Check**. A wrong answer that a common slip "
    "produces is named, with a hint on how to fix it. Hints and the worked solution are folded under "
    "each exercise; open them when you want them. Notebook 07 collects the exercises of every chapter."
)


def check_yourself(intro: str, *, more: str = "") -> Any:
    """The "Check yourself" heading: ``intro`` (what the exercises are about), how to answer, then ``more``.

    >>> html = check_yourself("Four exercises on gains.").text
    >>> ">Check yourself</h2>" in html and "Four exercises on gains. Type your answer" in html
    True
    """
    parts = ["## Check yourself", f"{intro.strip()} {HOW_TO_ANSWER}"]
    if more.strip():
        parts.append(more.strip())
    return mo.md("\n\n".join(parts))


def answer_label(exercise: str | exercises.Exercise) -> str:
    """The label of an exercise's answer box: unique on a page, in words (no exercise id).

    >>> answer_label("lecture-dcg")
    'Your answer: DCG@5 of the lecture example'
    """
    ex = exercise if isinstance(exercise, exercises.Exercise) else exercises.get(exercise)
    return f"Your answer: {ex.title}"


def answer_box(exercise: str | exercises.Exercise, *, label: str | None = None) -> Any:
    """One exercise's answer box with its own **Check** button: a ``mo.ui.dictionary``
    ``{"answer": text box or options, "check": button}``.

    A text box sends its value on Enter or when it loses focus, and every value it sends is
    checked: **Enter checks**, and so does pressing **Check** (which takes the focus). Options
    are checked when **Check** is pressed; changing the choice after that marks the verdict
    "not checked". ``label`` defaults to :func:`answer_label`. A code exercise has no answer
    box (its answer is code: :func:`code_box`): asking for one is a ``ValueError``.
    """
    ex = exercise if isinstance(exercise, exercises.Exercise) else exercises.get(exercise)
    if ex.kind == "code":
        raise ValueError(f"exercise {ex.id!r} is answered with code, not text; use widgets.code_box.")
    text = answer_label(ex) if label is None else label
    widget = (
        mo.ui.radio(list(ex.choices), label=text)
        if ex.choices
        else mo.ui.text(label=text, placeholder=ex.placeholder, full_width=True)
    )
    return mo.ui.dictionary({"answer": widget, "check": check_button()})


def check_button(label: str = "Check") -> Any:
    """A button whose value counts its presses (0 before the first)."""
    return mo.ui.button(label=label, value=0, on_click=lambda n: (n or 0) + 1)


def answer_boxes(exercise_ids: Iterable[str], *, label: str | None = None) -> Any:
    """The answer boxes of a chapter's exercises: a ``mo.ui.dictionary`` keyed by exercise id.
    ``label`` replaces every box's :func:`answer_label` (notebook 07 shows one exercise: "Your answer").

    >>> list(answer_boxes(("lecture-dcg", "lecture-ndcg")).value)
    ['lecture-dcg', 'lecture-ndcg']
    """
    ids = [exercise_ids] if isinstance(exercise_ids, str) else list(exercise_ids)
    if len(set(ids)) != len(ids):
        raise ValueError(f"exercise_ids must not repeat an exercise; got {ids}.")
    return mo.ui.dictionary({ex_id: answer_box(ex_id, label=label) for ex_id in ids})


def exam_answer_boxes(problems: Sequence[exercises.Exercise]) -> Any:
    """One answer box per exam problem (``a1``, ``a2``, ...: ``Answer 1``, ...), no buttons:
    notebook 08 marks them all with one **Mark my answers** button (:func:`check_button`)."""
    return mo.ui.dictionary({
        f"a{i}": (mo.ui.radio(list(p.choices), label=f"Answer {i}") if p.choices
                  else mo.ui.text(label=f"Answer {i}", placeholder=p.placeholder))
        for i, p in enumerate(problems, start=1)
    })


def feedback_callout(feedback: exercises.Feedback) -> Any:
    """The feedback on one answer as a callout: green when right, amber when not."""
    return mo.callout(mo.md(feedback.message), kind=feedback.kind)


def folded_help(exercise: str | exercises.Exercise) -> Any:
    """The exercise's hints and its worked solution, folded in an accordion until opened."""
    return mo.accordion({name: mo.md(text) for name, text in exercises.card(exercise, None).folded.items()})


#: The first tab of :func:`help_tabs`: everything folded.
HELP_FOLDED = "Hints and solution folded"


def help_tabs(exercise: str | exercises.Exercise) -> Any:
    """The hints and worked solution as tabs, the first one (:data:`HELP_FOLDED`) empty.

    A UI element, so a new exercise gets a new one and starts folded (an accordion shown in
    the same place would keep the previous exercise's open section by position).
    """
    folded = exercises.card(exercise, None).folded
    return mo.ui.tabs({HELP_FOLDED: mo.md(""), **{name: mo.md(text) for name, text in folded.items()}})


# --------------------------------------------------------------------------- checking, with no stale verdict

#: What each answer box was last checked with: (box id, exercise id) -> (the box, presses, answer).
#: The box is held by a weak reference and compared on every lookup: a new box that happens to
#: get the id of a dead one (CPython reuses ids) starts unchecked instead of inheriting its state.
_CHECKED: dict[tuple[int, str], tuple[weakref.ref[Any], int, Any]] = {}
_CHECKED_LIMIT = 20_000


def _last_check(box: Any, exercise_id: str) -> tuple[int, Any]:
    """(presses, answer) of the last check of this very box for ``exercise_id``, else (0, None)."""
    entry = _CHECKED.get((id(box), exercise_id))
    if entry is None or entry[0]() is not box:
        return 0, None
    return entry[1], entry[2]


def _remember(box: Any, exercise_id: str, presses: int, answer: Any) -> None:
    if len(_CHECKED) > _CHECKED_LIMIT:
        _CHECKED.clear()
    _CHECKED[(id(box), exercise_id)] = (weakref.ref(box), presses, answer)


def _checked(box: Any, exercise_id: str, presses: int, answer: Any, options: bool) -> tuple[str, Any]:
    """The state of one box: ``("none" | "empty" | "changed" | "checked", the checked answer)``."""
    last_presses, last_answer = _last_check(box, exercise_id)
    pressed = presses > last_presses
    if options:
        if pressed:
            _remember(box, exercise_id, presses, answer)
            return ("empty", None) if answer is None else ("checked", answer)
        if last_answer is None:
            return "none", None
        return ("checked", last_answer) if answer == last_answer else ("changed", last_answer)
    _remember(box, exercise_id, presses, answer)
    if not isinstance(answer, str) or not answer.strip():
        return ("empty", None) if pressed else ("none", None)
    return "checked", answer


def _quoted(answer: str) -> str:
    text = " ".join(str(answer).split())
    text = text if len(text) <= 60 else text[:57] + "..."
    return html.escape(text).replace("`", "&#96;")


def verdict(answers: Any, exercise_id: str, *, exercise: exercises.Exercise | None = None,
            learner: str | None = None) -> Any:
    """The feedback under one answer box of ``answers`` (:func:`answer_boxes`): nothing before
    a check, a message for an empty answer or unchosen option, "not checked" for an option
    changed since its check, else the checked answer and its feedback. A check is logged in
    the progress store when ``learner`` is given; a store problem is shown, never raised.
    """
    ex = exercise or exercises.get(exercise_id)
    value = answers.value[exercise_id]
    presses = int(value.get("check") or 0)
    state, answer = _checked(answers, exercise_id, presses, value.get("answer"), bool(ex.choices))
    if state == "none":
        how = "pick an option and press **Check**" if ex.choices else "type your answer and press **Enter** or **Check**"
        return mo.md(f"*Not checked yet: {how}.*")
    if state == "empty":
        what = ("No option is chosen: pick one of the options, then press **Check**." if ex.choices else
                "The answer box is empty: type your answer, then press **Enter** or **Check**.")
        return mo.callout(mo.md(what), kind="info")
    if state == "changed":
        return mo.callout(mo.md(f"**Not checked**: you changed your choice since checking "
                                f"*{_quoted(answer)}*. Press **Check** to check the new one."), kind="neutral")
    try:
        feedback = exercises.check(ex, answer)
    except (TypeError, ValueError) as err:
        return error_callout(err)
    # as HTML (escaped once), not a Markdown code span: a code span would show the escapes (&gt;)
    parts = [mo.Html(f"<p><em>Checked answer:</em> <code>{_quoted(answer)}</code></p>"), feedback_callout(feedback)]
    if learner:
        problem = record_check(learner, ex.id, answer, feedback)
        if problem:
            parts.append(mo.callout(mo.md(problem), kind="warn"))
    return mo.vstack(parts)


def exercise_card(answers: Any, exercise_id: str, *, learner: str | None | bool = True) -> Any:
    """One exercise: statement, its answer box and **Check** from ``answers``, the verdict
    (see :func:`verdict`), hints and worked solution folded.

    ``answers`` is what :func:`answer_boxes` returned. ``learner=True`` (the default) uses
    :func:`learner_name`, so checks in every chapter are logged; pass a name, or None to log nothing.
    """
    ex = exercises.get(exercise_id)
    name = learner_name() if learner is True else (learner or None)
    box = answers[exercise_id]
    return mo.vstack([
        mo.md(exercises.card(ex, None).statement),
        mo.hstack([box["answer"], box["check"]], justify="start", align="end", widths=[8, 1]),
        verdict(answers, exercise_id, exercise=ex, learner=name),
        folded_help(ex),
    ])


# --------------------------------------------------------------------------- the learner and the progress log

#: The URL query parameter that holds the learner's name (``/?file=07_exercises.py&learner=ana``).
LEARNER_PARAM = "learner"
LEARNER_FIELD = "Your name"


def learner_name() -> str | None:
    """The learner's name: the page URL's ``?learner=``, else (on one's own computer) the
    last name typed here, else None. Never raises: a bad name or store is no name."""
    try:
        typed = mo.query_params().get(LEARNER_PARAM)
    except Exception:  # outside a running notebook
        typed = None
    if isinstance(typed, list):
        typed = typed[-1] if typed else None
    if typed:
        try:
            return progress.check_name(typed)
        except (TypeError, ValueError):
            return None
    try:
        return progress.last_name()
    except store.StoreError:
        return None


def _set_learner(text: str) -> None:
    try:
        name = progress.check_name(text)
    except (TypeError, ValueError):
        return
    try:
        mo.query_params()[LEARNER_PARAM] = name
    except Exception:  # outside a running notebook
        pass
    try:
        progress.remember_name(name)
    except store.StoreError:
        pass


def learner_input(value: str | None = None) -> Any:
    """The ``Your name`` box: a name typed once keeps the progress (it goes into the URL)."""
    start = learner_name() if value is None else value
    return mo.ui.text(value=start or "", label=LEARNER_FIELD, placeholder="e.g. ana", full_width=False,
                      on_change=_set_learner)


def checked_name(text: str) -> tuple[str | None, str]:
    """``(name or None, a Markdown line saying whether progress is kept, and where)``."""
    if not text or not text.strip():
        return None, ("**Progress is not being kept**: type your name above (once) to keep it. "
                      "The page works the same without one.")
    try:
        name = progress.check_name(text)
    except (TypeError, ValueError) as err:
        return None, f"**Progress is not being kept**: {err}"
    try:
        where = store.store_path()
    except Exception:  # noqa: BLE001 - the path is only shown
        where = "the data file"
    return name, (f"Progress of **{html.escape(name)}** is kept in `{where}`; the page's address holds "
                  f"your name (`?{LEARNER_PARAM}=...`), so a reload or a bookmark keeps it.")


def record_check(learner: str, exercise_id: str, answer: Any, feedback: exercises.Feedback) -> str:
    """Log one check; ``""`` when kept, else the message of the store's problem (Markdown)."""
    try:
        progress.record(learner, exercise_id, str(answer), feedback.correct, feedback.misconception)
    except store.StoreError as err:
        return f"**Progress not saved**: {err}"
    except (TypeError, ValueError) as err:
        return f"**Progress not saved**: {err}"
    return ""


# --------------------------------------------------------------------------- code exercises

CODE_FIELD = "Your code"


def code_box(function: str, *, value: str = "") -> Any:
    """The code box of a code exercise (``{"code": text area, "run": button}``), checked in the sandbox."""
    start = value or f"from math import log2\n\ndef {function}(rels, k):\n    ...\n"
    return mo.ui.dictionary({  # noqa: the code box and its button
        # every edit is sent at once (no debounce), so "Run my code" always runs what the box shows
        "code": mo.ui.text_area(value=start, label=f"{CODE_FIELD}: {function}(rels, k)", full_width=True, rows=10,
                                debounce=False),
        "run": check_button("Run my code"),
    })


def code_report(box: Any, exercise_id: str, *, extra_cases: Sequence[tuple[str, Sequence[int], int]] = (),
                learner: str | None = None) -> Any:
    """The battery report of the code in ``box`` (:func:`code_box`): run in the sandbox when
    **Run my code** is pressed; "not run" for code changed since."""
    value = box.value
    presses = int(value.get("run") or 0)
    last_presses, last_code = _last_check(box, exercise_id)
    code = value.get("code") or ""
    if presses > last_presses:
        _remember(box, exercise_id, presses, code)
        last_code = code
    elif last_code is None:
        return mo.md("*Not run yet: write your function and press **Run my code**. It runs in a separate, "
                     "restricted process with time and memory limits, never in the server.*")
    if code != last_code:
        return mo.callout(mo.md("**Not run**: your code changed since it was last run. Press **Run my code**."),
                          kind="neutral")
    report = sandbox.check_code_text(exercise_id, code, extra_cases)
    parts = [mo.callout(mo.md(report.markdown()), kind="success" if report.passed else "warn")]
    if learner:
        fb = exercises.Feedback(report.passed, report.markdown(), None)
        problem = record_check(learner, exercise_id, code, fb)
        if problem:
            parts.append(mo.callout(mo.md(problem), kind="warn"))
    return mo.vstack(parts)
