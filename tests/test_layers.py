"""The layers of ndcg_core, enforced: imports point down only, marimo and matplotlib stay in ui.

    core (ndcg_core/*.py) <- trec (ndcg_core/trec) <- teaching (ndcg_core/teaching)
        <- infra (ndcg_core/infra) <- ui (ndcg_core/ui)

Every import statement of every module is read with :mod:`ast` (module level and inside
functions, absolute and relative), so a lazy ``from ..ui import x`` inside a function counts
too. Two modules are not layers of their own: ``ndcg_core/__init__.py`` (the facade: it
imports the core and names the upper layers' public entry points for lookup on first use)
and ``ndcg_core/exercises.py`` (the binding name of the teaching layer's checker).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "ndcg_core"
LAYERS = ("core", "trec", "teaching", "infra", "ui")
#: What each layer may import, besides itself.
ALLOWED = {
    "core": {"core"},
    "trec": {"core", "trec"},
    "teaching": {"core", "trec", "teaching"},
    "infra": {"core", "trec", "teaching", "infra"},
    "ui": {"core", "trec", "teaching", "infra", "ui"},
}
#: Third-party packages only the ui layer may import.
UI_ONLY = {"marimo", "matplotlib"}
FACADES = {"ndcg_core", "ndcg_core.exercises"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def layer_of(module: str) -> str:
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in ("trec", "teaching", "infra", "ui"):
        return parts[1]
    return "core"


def _imports(module: str, path: Path) -> list[tuple[int, str, list[str]]]:
    """(line, imported module, imported names) for every import statement."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names = [alias.name for alias in node.names]
            if node.module is None:  # from . import a, b: each name is a module
                found += [(node.lineno, f"{target}.{name}", []) for name in names]
            else:
                found.append((node.lineno, target, names))
    return found


def _edges() -> list[tuple[str, int, str, list[str]]]:
    return [(module, line, target, names) for module, path in MODULES.items() for line, target, names in _imports(module, path)]


def test_every_layer_exists_with_a_docstring_that_says_what_it_may_import() -> None:
    for layer in ("trec", "teaching", "infra", "ui"):
        init = PACKAGE / layer / "__init__.py"
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc and "May import" in doc, f"{init} must open with a docstring saying what lives there and what it may import"
    assert "imports point down" in (ast.get_docstring(ast.parse((PACKAGE / "__init__.py").read_text())) or "")


def test_imports_point_down_only() -> None:
    wrong = []
    for module, line, target, _ in _edges():
        if module in FACADES or not target.startswith("ndcg_core"):
            continue
        if target in FACADES and target != "ndcg_core":
            wrong.append(f"{module}:{line} imports {target}, the binding alias; import ndcg_core.teaching.exercises")
            continue
        if target == "ndcg_core":  # `from ndcg_core import x` inside the package: the facade
            wrong.append(f"{module}:{line} imports the facade ndcg_core; import the defining module")
            continue
        src, dst = layer_of(module), layer_of(target)
        if dst not in ALLOWED[src]:
            wrong.append(f"{module}:{line} ({src}) imports {target} ({dst})")
    assert not wrong, "imports that point up:\n" + "\n".join(wrong)


def test_marimo_and_matplotlib_only_in_ui() -> None:
    wrong = [
        f"{module}:{line} imports {target}"
        for module, line, target, _ in _edges()
        if target.split(".")[0] in UI_ONLY and layer_of(module) != "ui"
    ]
    assert not wrong, "\n".join(wrong)


def test_no_private_name_is_imported_from_another_module() -> None:
    wrong = [
        f"{module}:{line} imports {name} from {target}"
        for module, line, target, names in _edges()
        if target.startswith("ndcg_core") and target != module and module not in FACADES
        for name in names
        if name.startswith("_") and not name.startswith("__")
    ]
    assert not wrong, "private names used across modules (make them public and documented):\n" + "\n".join(wrong)


def test_the_facade_names_only_what_exists() -> None:
    import importlib

    import ndcg_core

    for name, where in ndcg_core._LAZY.items():
        module = importlib.import_module(f"ndcg_core.{where or name}")
        assert where == "" or hasattr(module, name), f"ndcg_core.{name} points at {where}, which lacks it"


@pytest.mark.parametrize(
    ("statement", "absent"),
    [
        ("import ndcg_core; ndcg_core.ndcg([1, 0, 2], 3)", ("pandas", "matplotlib", "marimo", "ndcg_core.trec", "ndcg_core.teaching", "ndcg_core.ui")),
        ("import ndcg_core.trec", ("matplotlib", "marimo", "ndcg_core.teaching", "ndcg_core.ui")),
        ("import ndcg_core.teaching.exercises, ndcg_core.teaching.exam, ndcg_core.teaching.compare", ("matplotlib", "marimo", "ndcg_core.ui")),
        ("from ndcg_core.exercises import check; check('lecture-ndcg', '0.78')", ("matplotlib", "marimo", "ndcg_core.ui")),
    ],
    ids=["core", "trec", "teaching", "binding-exercises"],
)
def test_importing_a_layer_loads_nothing_above_it(statement: str, absent: tuple[str, ...]) -> None:
    code = f"{statement}\nimport sys\nprint(sorted(m for m in {absent!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", f"{statement!r} loaded {out.strip()}"
