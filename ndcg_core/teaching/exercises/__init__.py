r"""Exercises that check a learner's answer and name the mistake behind a wrong one.

The bank lives in ``data/exercises.toml``. Every number an exercise needs (the right
answer, the values common mistakes produce, the worked solution) is computed through the
core from the stored settings; nothing numeric is typed into the bank by hand.

>>> check("lecture-ndcg", "0,78").correct
True
>>> check("lecture-dcg", "3.51").misconception
'log-natural'

Kinds of exercise
-----------------
``numeric``     DCG@k, IDCG@k, nDCG@k, one discounted term, the unjudged fraction, the
                binary P@k and AP (chapter 09), or P@R, bpref and MAP over several topics
                (chapter 12); answered as a number (``0.78``, ``0,78``, ``78 %`` for a value
                in [0, 1], ``3/4``).
``ideal``       type the ideal order of the judged labels (parsed with ``parse_labels``).
``comparison``  which of two rankings scores higher, or whether the winner changes
                under the other gain; answered with a letter, a word or the option text.
``concept``     multiple choice; answered with a letter or the option text.
``code``        write ``dcg(rels, k)`` / ``ndcg(rels, k)``; :func:`check_code` runs the
                learner's *function object* (in the learner's own kernel) against a
                battery of cases. Typed text is never evaluated.

The modules, in the order they build on each other
--------------------------------------------------
:mod:`.model`           Setting, Exercise, Feedback and the shared vocabulary (plain data)
:mod:`.formatting`      numbers, labels and tables as a learner reads them; Markdown -> HTML
:mod:`.answers`         reading typed numbers and choices
:mod:`.binary`          P@k and AP exercises: their values, mistakes and worked steps
:mod:`.measures`        P@R, bpref and MAP exercises: their values, named mistakes, solutions
:mod:`.values`          the right values of a setting, computed by the core
:mod:`.misconceptions`  the catalogue of common mistakes and the wrong values they give
:mod:`.bank`            reading and checking the TOML bank; looking exercises up
:mod:`.checking`        the verdict on an answer, and the mistake behind a wrong one
:mod:`.code`            a learner's own ``dcg``/``ndcg`` against a battery of cases
:mod:`.demos`           the computed tables of concept exercises
:mod:`.solutions`       statements, hints, worked solutions and a chapter's exercise card

Showing an exercise in a notebook
---------------------------------
A notebook only displays: :func:`card` returns the statement, the feedback on a submitted
answer (None before one) and the folded hints and worked solution, all as Markdown.
The marimo pieces that lay a card out with its answer box ("Check yourself" at the end
of each chapter) live in :mod:`ndcg_core.ui.widgets`; this layer never imports marimo.
"""

from .answers import ParsedNumber, parse_number
from .bank import BANK_PATH, all_exercises, for_chapter, get, load_bank
from .checking import check, expected_answer, format_answer, mistaken_values
from .code import CodeCase, CodeReport, check_code, code_battery, judge_results
from .misconceptions import MISCONCEPTIONS, Misconception
from .model import CHAPTERS, KINDS, Exercise, Feedback, Setting
from .solutions import Card, card, hint_items, hints, solution, statement
from .values import tolerance

__all__ = [
    "Exercise",
    "Feedback",
    "Setting",
    "Misconception",
    "MISCONCEPTIONS",
    "CHAPTERS",
    "KINDS",
    "BANK_PATH",
    "load_bank",
    "get",
    "all_exercises",
    "for_chapter",
    "check",
    "hints",
    "hint_items",
    "Card",
    "card",
    "statement",
    "solution",
    "expected_answer",
    "format_answer",
    "tolerance",
    "parse_number",
    "ParsedNumber",
    "mistaken_values",
    "check_code",
    "code_battery",
    "judge_results",
    "CodeCase",
    "CodeReport",
]
