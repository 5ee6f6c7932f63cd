"""Issue 18's house rules for ndcg_core, kept: modules of one job (none over ~700 lines), no
function over 120 lines, and one definition of the helpers that were once written many times
(``free_port`` nine times, ``die_with_parent`` twice)."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "ndcg_core"
MAX_MODULE_LINES = 700
MAX_FUNCTION_LINES = 120
#: Helpers defined once, in ndcg_core.infra.processes, and imported everywhere else.
ONCE = ("free_port", "die_with_parent", "stop_process_tree")


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_no_module_is_over_700_lines() -> None:
    long = {str(p.relative_to(PACKAGE)): n for p in _modules() if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES}
    assert long == {}


def test_no_function_is_over_120_lines() -> None:
    long = []
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES:
                long.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)")
    assert long == []


def test_the_process_helpers_are_defined_once_in_infra() -> None:
    where: Counter[str] = Counter()
    for path in [*_modules(), *sorted((PACKAGE.parent / "tests").rglob("*.py")), *sorted((PACKAGE.parent / "bench").glob("*.py"))]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name in ONCE:
                where[f"{node.name} in {path.relative_to(PACKAGE.parent)}"] += 1
    assert sorted(where) == [f"{name} in ndcg_core/infra/processes.py" for name in sorted(ONCE)]
