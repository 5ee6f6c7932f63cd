"""The first numeric exercise that ends the playground and each chapter, with its answers.

Shared by the headless tests (tests/test_notebooks_exercises.py) and the browser tests
(tests/browser/test_chapter_exercises.py): the right value is derived by hand, and the
wrong one is what the named common mistake gives.
"""

from __future__ import annotations

from math import log2

#: notebook -> (exercise id, right value, value of a named mistake, the mistake's id)
FIRST_NUMERIC = {
    "01_playground.py": (
        "lecture-term",
        1 / log2(4 + 1),  # rank 4 of 1, 0, 2, 1, 0 holds label 1: 1 * 1/log2(5)
        1 / log2(4 + 2),  # the rank shifted by one: 1/log2(6)
        "rank-shift",
    ),
    "02_gains.py": (
        "gains-exp-dcg",
        1 / log2(2) + 3 / log2(4) + 1 / log2(5),  # gains 2^l - 1 of 1, 0, 2, 1, 0: 1, 0, 3, 1, 0
        1 / log2(2) + 2 / log2(4) + 1 / log2(5),  # linear gain instead
        "gain-linear-for-exponential",
    ),
    "03_discounts.py": (
        "discounts-shifted-dcg",
        1 / log2(3) + 2 / log2(5) + 1 / log2(6),  # 1/log2(i+2) at ranks 1, 3, 4
        1 / log2(2) + 2 / log2(4) + 1 / log2(5),  # the standard 1/log2(i+1) instead
        "discount-other",
    ),
    "04_ideal_list.py": (
        "ideal-trap-ndcg",
        3 / (3 / log2(2) + 3 / log2(3) + 2 / log2(4)),  # 3, 0, 0 against judgments 3, 3, 2
        3 / 3,  # the ideal built from the run itself: 3, 0, 0
        "ideal-from-run",
    ),
    "05_unjudged.py": (
        "unjudged-zero-ndcg",
        (2 + 1 / log2(4)) / (2 + 1 / log2(3) + 1 / log2(4)),  # 2, ?, 1, ?, 0 with ? as gain 0
        (2 + 1 / log2(3)) / (2 + 1 / log2(3) + 1 / log2(4)),  # condensed: 2, 1, 0
        "unjudged-policy",
    ),
    "06_evaluating_runs.py": (
        "runs-ndcg-cut",
        (2 / log2(3) + 2 / log2(4) + 1 / log2(5)) / (2 + 2 / log2(3) + 1 / log2(4) + 1 / log2(5)),
        (2 / log2(3) + 2 / log2(4) + 1 / log2(5)) / (2 + 2 / log2(3) + 1 / log2(4)),  # ideal 2, 2, 1, 0 from the run
        "ideal-from-run",
    ),
    "09_graded_vs_binary.py": (
        "binary-best-fourth",
        (1 / log2(2) + 3 / log2(5)) / (3 / log2(2) + 1 / log2(3)),  # 1, 0, 0, 3, 0 against the ideal 3, 1
        (1 / log2(2) + 7 / log2(5)) / (7 / log2(2) + 1 / log2(3)),  # exponential gains 2^l - 1: 1 and 7
        "gain-exponential-for-linear",
    ),
    "12_which_measure.py": (
        "measures-rprec",
        2 / 4,  # R = 4 (judged 1, 2, 1 and the missed 1); top 4 = 1, 0, 2, 0: two relevant
        2 / 3,  # R counted from the list only: 3, top 3 = 1, 0, 2
        "rprec-r-from-list",
    ),
}
