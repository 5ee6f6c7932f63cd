"""The slides of the chapter decks (``ndcg-lab slides``), one module per chapter.

Each module composes the deck-only slides of its notebook (drawn only when
:func:`ndcg_core.ui.lecture.in_deck` is true) from the chapter's widgets, its numbers from
:mod:`ndcg_core` and :mod:`ndcg_core.teaching`, and the figures of :mod:`ndcg_core.ui.plots`.
What every deck shares (the title slide, the exercise slides, a solution revealed one rank per
press) stays in :mod:`ndcg_core.ui.lecture`; nothing here computes a score.
"""
