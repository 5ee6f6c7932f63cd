"""Infrastructure: what keeps state and processes, the fourth layer of ndcg_core.

What lives here: the embedded SQLite store (:mod:`.store`), the learner progress kept in it
(:mod:`.progress`), the classroom's server state (:mod:`.classroom`: questions, answers), the
sandbox that runs learner code in a separate, limited process (:mod:`.sandbox` and its child,
:mod:`.sandbox_child`), and the process plumbing servers, tests and benches share
(:mod:`.processes`: ``free_port``, ``die_with_parent``, ``stop_process_tree``).
ARCHITECTURE.md says why this layer sits above ``teaching``.

Import order of the layers: core <- trec <- teaching <- infra <- ui <- notebooks.

May import: the core, :mod:`ndcg_core.trec` and :mod:`ndcg_core.teaching`, the standard
library, and the third-party packages declared in ``pyproject.toml``. Never
:mod:`ndcg_core.ui`, marimo or matplotlib: nothing here draws or serves a page.
"""
