"""The layers of ndcg_core, enforced: imports point down only, marimo and matplotlib stay in ui.

    core (ndcg_core/*.py) <- trec (ndcg_core/trec) <- teaching (ndcg_core/teaching)
        <- infra (ndcg_core/infra) <- ui (ndcg_core/ui)

Every import statement of every module is read with :mod:`ast` (module level and inside
functions, absolute and relative), so a lazy ``from ..ui import x`` inside a function counts
too. Two modules are not layers of their own: ``ndcg_core/__init__.py`` (the facade: it
imports the core and names the upper layers' public entry points for lookup on first use)
and ``ndcg_core/exercises.py`` (the binding name of the teaching layer's checker).

Beyond the direction of imports (ARCHITECTURE.md, "Layers"):

- no module reaches another module's private name, imported (``from m import _x``) or by
  attribute (``m._x``, ``ndcg_core.m._x``);
- the notebooks are the layer above ``ui``: they may import any public module of ndcg_core,
  marimo, the standard library and declared dependencies; never matplotlib (their figures
  come from :mod:`ndcg_core.ui.plots`) and no private name;
- every third-party package the package or a notebook imports is declared in
  ``pyproject.toml``: in ``dependencies``, or, imported only inside a function, in an extra
  that is not ``test`` (an optional feature, e.g. ``handout``);
- ``from ndcg_core import *`` loads the core alone.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "ndcg_core"
NOTEBOOKS = sorted((ROOT / "notebooks").rglob("[0-9][0-9]_*.py"))
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


def _source(package: str, node: ast.ImportFrom) -> str:
    """The absolute module a ``from ... import`` statement in ``package`` reads from."""
    if not node.level:
        return node.module or ""
    base = package.split(".")
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(module: str, path: Path) -> list[tuple[int, str, list[str]]]:
    """(line, imported module, imported names) for every import statement."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            target = _source(package, node)
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


# ---------------------------------------------------------------------------- private names by attribute


def _module_aliases(module: str, path: Path, tree: ast.AST) -> dict[str, str]:
    """Local name -> the ndcg_core module it is bound to, for every import in ``tree``."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "ndcg_core":
                    if alias.asname:
                        aliases[alias.asname] = alias.name
                    else:
                        aliases["ndcg_core"] = "ndcg_core"
        elif isinstance(node, ast.ImportFrom):
            source = _source(package, node)
            if not source.startswith("ndcg_core"):
                continue
            for alias in node.names:
                if f"{source}.{alias.name}" in MODULES:
                    aliases[alias.asname or alias.name] = f"{source}.{alias.name}"
    return aliases


def _private_attributes(module: str, path: Path, source: str | None = None) -> list[str]:
    """``m._x`` where ``m`` names another ndcg_core module (``from . import m``, ``import ndcg_core.m``)."""
    text = path.read_text(encoding="utf-8") if source is None else source
    tree = ast.parse(text, filename=str(path))
    aliases = _module_aliases(module, path, tree)
    wrong = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        chain, root = [node.attr], node.value
        while isinstance(root, ast.Attribute):
            chain.insert(0, root.attr)
            root = root.value
        if not isinstance(root, ast.Name) or root.id not in aliases:
            continue
        target = aliases[root.id]
        for part in chain:
            if f"{target}.{part}" in MODULES:
                target = f"{target}.{part}"
                continue
            if part.startswith("_") and not part.startswith("__") and target != module:
                wrong.append(f"{path.relative_to(ROOT)}:{node.lineno} reaches {target}.{part}")
            break
    return wrong


def test_no_private_name_is_reached_by_attribute_across_modules() -> None:
    wrong = [w for module, path in MODULES.items() if module not in FACADES for w in _private_attributes(module, path)]
    wrong += [w for path in NOTEBOOKS for w in _private_attributes("notebooks", path)]
    assert not wrong, "private names reached across modules (make them public and documented):\n" + "\n".join(wrong)


def test_the_attribute_check_sees_a_private_name() -> None:
    source = ("from ...teaching import compare\nimport ndcg_core.trec.files as f\nimport ndcg_core\n"
              "x = compare._hidden, f._private, compare.public, ndcg_core.trec.files._deep, ndcg_core._LAZY\n")
    found = _private_attributes("ndcg_core.ui.plots.probe", PACKAGE / "ui" / "plots" / "probe.py", source)
    assert [w.rsplit(" ", 1)[1] for w in found] == [
        "ndcg_core.teaching.compare._hidden", "ndcg_core.trec.files._private", "ndcg_core.trec.files._deep",
        "ndcg_core._LAZY"]


# ---------------------------------------------------------------------------- notebooks


def _notebook_imports(path: Path) -> list[tuple[int, str, list[str]]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node.lineno, "." * node.level + (node.module or ""), [a.name for a in node.names]))
    return found


def test_notebooks_import_public_ndcg_core_modules_marimo_and_declared_packages_only() -> None:
    assert NOTEBOOKS, "no notebooks found"
    wrong = []
    for path in NOTEBOOKS:
        for line, target, names in _notebook_imports(path):
            where = f"{path.relative_to(ROOT)}:{line}"
            top = target.split(".")[0]
            if target.startswith("."):
                wrong.append(f"{where}: relative import {target} (import ndcg_core's modules by name)")
            elif top == "matplotlib":
                wrong.append(f"{where}: imports matplotlib; draw through ndcg_core.ui.plots")
            elif top == "ndcg_core":
                parts = target.split(".")[1:] + [n for n in names if f"{target}.{n}" in MODULES]
                private = [p for p in parts + names if p.startswith("_") and not p.startswith("__")]
                if private:
                    wrong.append(f"{where}: imports private {private} from {target}")
                elif target != "ndcg_core" and target not in MODULES:
                    wrong.append(f"{where}: imports {target}, which is not a module of ndcg_core")
            elif top not in sys.stdlib_module_names and top != "marimo" and not _declared(top, "dependencies"):
                wrong.append(f"{where}: imports {top}, which pyproject.toml does not declare")
    assert not wrong, "\n".join(wrong)


# ---------------------------------------------------------------------------- declared dependencies

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
#: import name -> the distributions that install it (read once: it scans every installed package)
DISTRIBUTIONS = packages_distributions()


def _distribution(requirement: str) -> str:
    return re.sub(r"[-_.]+", "-", re.split(r"[\s\[<>=!~;]", requirement, maxsplit=1)[0]).lower()


def _declared(top: str, where: str) -> bool:
    """Whether the import name ``top`` comes from a distribution declared in ``where``
    (``"dependencies"``, or an extra's name)."""
    requirements = PYPROJECT["dependencies"] if where == "dependencies" else PYPROJECT["optional-dependencies"][where]
    declared = {_distribution(r) for r in requirements}
    provided = {_distribution(d) for d in DISTRIBUTIONS.get(top, [])}
    assert provided, f"{top} is imported but installed by no distribution: install it and declare it"
    return bool(provided & declared)


def _third_party_imports() -> list[tuple[str, int, str, bool]]:
    """(module, line, top-level import name, at module level) for every third-party import."""
    found = []
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        top_level = {id(n) for n in tree.body} | {id(n) for stmt in tree.body if isinstance(stmt, ast.Try | ast.If)
                                                   for n in ast.walk(stmt)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                tops = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                tops = [(node.module or "").split(".")[0]]
            else:
                continue
            for top in tops:
                if top and top != "ndcg_core" and top not in sys.stdlib_module_names:
                    found.append((module, node.lineno, top, id(node) in top_level))
    return found


def test_every_third_party_import_is_declared() -> None:
    extras = [name for name in PYPROJECT.get("optional-dependencies", {}) if name != "test"]
    wrong = []
    for module, line, top, module_level in _third_party_imports():
        if _declared(top, "dependencies"):
            continue
        extra = next((name for name in extras if _declared(top, name)), None)
        if extra is None:
            wrong.append(f"{module}:{line} imports {top}: declare its distribution in pyproject.toml's dependencies")
        elif module_level:
            wrong.append(f"{module}:{line} imports {top} (the optional extra [{extra}]) at module level: "
                         "import it where the feature needs it and say how to install it when it is missing")
    assert not wrong, "\n".join(wrong)


def test_what_the_tests_and_benches_import_is_installed_by_the_test_command() -> None:
    """The README's test command installs ``.[test]``: the tests and benches import nothing more
    (besides their own helper modules, the package and the standard library)."""
    local = {path.stem for folder in ("tests", "bench") for path in (ROOT / folder).rglob("*.py")}
    wrong = []
    for path in sorted([*(ROOT / "tests").rglob("*.py"), *(ROOT / "bench").rglob("*.py")]):
        for line, target, _ in _notebook_imports(path):
            top = target.split(".")[0]
            if (not top or top in local or top == "ndcg_core" or top in sys.stdlib_module_names
                    or _declared(top, "dependencies") or _declared(top, "test")):
                continue
            wrong.append(f"{path.relative_to(ROOT)}:{line} imports {top}: add it to the test extra")
    assert not wrong, "\n".join(wrong)


def test_the_dependency_check_knows_what_an_import_comes_from() -> None:
    assert _declared("PIL", "dependencies") and _declared("RestrictedPython", "dependencies")
    assert not _declared("pytest", "dependencies") and _declared("pytest", "test")


# ---------------------------------------------------------------------------- the star import


def test_a_star_import_loads_the_core_alone() -> None:
    absent = ("pandas", "matplotlib", "marimo", "ndcg_core.trec", "ndcg_core.teaching", "ndcg_core.infra", "ndcg_core.ui")
    code = ("from ndcg_core import *\nimport sys\nprint(round(ndcg([1, 0, 2, 1, 0], 5, judgments=[2, 1, 1]), 4))\n"
            f"print(sorted(m for m in {absent!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[:2] == ["0.7763", "[]"], f"from ndcg_core import * loaded {out[1]}"
