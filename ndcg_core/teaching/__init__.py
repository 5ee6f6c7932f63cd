"""Teaching content: the third layer of ndcg_core.

What lives here: the exercise bank and its checker (:mod:`.exercises`), generated exam
sets (:mod:`.exam`), the chapters' comparisons (:mod:`.compare`), the playground's
presets (:mod:`.presets`), judging pools and topic averages (:mod:`.pooling`), the toy
TREC collection (:mod:`.toy`), where the shipped data lives (:mod:`.paths`), the numbers
behind claims the chapters state in words (:mod:`.claims`) and the claim coverage map
(:mod:`.coverage`).

May import: the core and :mod:`ndcg_core.trec`, numpy, pandas. Never :mod:`ndcg_core.ui`,
marimo or matplotlib. Every number here is computed by the core; nothing re-implements a
formula.
"""
