"""The Exchange core is pure: it imports only the standard library's pure modules, the engine, the
Payola core, the message catalogues (the reader's language, read like a locale) and itself —
nothing of the host, the mail, the store, the pages, the command
language or another game; and it draws randomness only from a seed it is given."""

from __future__ import annotations

import ast
from pathlib import Path

import judge.games.exchange.core as core

ALLOWED = ("judge.engine", "judge.payola", "judge.games.exchange.core", "judge.language")
STANDARD_LIBRARY = {"__future__", "collections", "dataclasses", "enum", "fractions", "random", "re", "types", "typing"}


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_the_core_imports_nothing_but_the_engine_the_payola_core_and_pure_standard_modules() -> None:
    folder = Path(core.__file__).parent
    modules = sorted(folder.glob("*.py"))
    assert len(modules) > 5
    for path in modules:
        for name in _imports(path):
            top = name.split(".")[0]
            assert name.startswith(ALLOWED) or (top in STANDARD_LIBRARY and top != "judge"), (path.name, name)


def test_randomness_comes_only_from_a_seed() -> None:
    folder = Path(core.__file__).parent
    for path in folder.glob("*.py"):
        text = path.read_text("utf-8")
        for line in text.splitlines():
            if "random." in line and "import" not in line:
                assert "random.Random(" in line and "seed" in line, (path.name, line)
