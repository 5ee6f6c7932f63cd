"""Everything that draws or serves: the top layer of ndcg_core.

What lives here: matplotlib figures (:mod:`.plots`), the playground's glue
(:mod:`.playground`) and the ``ndcg-lab`` command (:mod:`.lab`).

May import: every other layer, matplotlib, and marimo (the only layer that may). The
notebooks import their widgets and figures from here.
"""
