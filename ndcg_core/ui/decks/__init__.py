"""What only one deck shows, one module per deck (``notebooks/decks/NN_name.py``).

:mod:`.playground` (deck 01), :mod:`.gains` (02), :mod:`.discounts` (03), :mod:`.ideal` (04) and
:mod:`.measures` (12)
hold each deck's title and summary text, its own controls and the results of its concept slides
(the numbers from :mod:`ndcg_core` and :mod:`ndcg_core.teaching`, the figures of
:mod:`ndcg_core.ui.plots`). The words every deck shares (title, concept, text, question, hints,
answer, solution) are :mod:`ndcg_core.ui.deck`'s; nothing here computes a score.
"""
