"""Infrastructure: what keeps state and processes, the fourth layer of ndcg_core.

What lives here (moving in from ``teaching``): the embedded SQLite store, the learner
progress kept in it, the classroom's server state (questions, answers, devices), and the
sandbox that runs learner code in a separate, limited process.

Import order of the layers: core <- trec <- teaching <- infra <- ui <- notebooks.

May import: the core, :mod:`ndcg_core.trec` and :mod:`ndcg_core.teaching`, the standard
library, and the third-party packages declared in ``pyproject.toml``. Never
:mod:`ndcg_core.ui`, marimo or matplotlib: nothing here draws or serves a page.
"""
