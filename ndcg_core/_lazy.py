"""pandas, imported on first use.

``ndcg-eval`` reads, ranks and scores with numpy alone; importing pandas would cost it
a quarter of a second on every call. Modules on that path write ``from ._lazy import pd``
and use ``pd`` as usual: the first attribute looked up imports pandas.

>>> from ndcg_core._lazy import pd
>>> pd.DataFrame({"x": [1]}).shape
(1, 1)
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["pd"]


class _LazyModule:
    """Stands for a module until one of its attributes is first looked up."""

    def __init__(self, name: str):
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attribute: str) -> object:
        if attribute.startswith("__"):  # copy, pickle and doctest probe dunders: no import for them
            raise AttributeError(attribute)
        if self._module is None:
            self._module = importlib.import_module(self._name)
        return getattr(self._module, attribute)

    def __repr__(self) -> str:
        return f"<module {self._name!r}, imported on first use>"


pd = _LazyModule("pandas")
