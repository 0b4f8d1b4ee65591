"""The seam between the host and the games holds (``.importlinter``, run by ``lint-imports``), and
breaks when a forbidden import is added: the host importing a game, a game importing another, a
core or a library importing the host, a layer of the host importing one above it."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(shutil.which("lint-imports", path=str(Path(sys.executable).parent)) is None,
                                reason="import-linter is not installed (pip install -e '.[test]')")


def lint_imports(where: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` on the package ``judge`` found in ``where``, with the contracts there."""
    return subprocess.run([str(Path(sys.executable).parent / "lint-imports"), "--no-cache"], cwd=where,
                          env={"PYTHONPATH": str(where), "PATH": "/usr/bin:/bin"}, capture_output=True, text=True,
                          check=False)


def test_the_judge_keeps_every_contract_of_its_seam() -> None:
    run = lint_imports(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


@pytest.mark.parametrize(("module", "line", "contract"), [
    ("judge/service/hosting/host.py", "import judge.games.payola.kind", "The host imports no game"),
    ("judge/web/pages.py", "import judge.bootstrap", "The host imports no game"),
    ("judge/games/pirates/kind.py", "import judge.games.payola.lifecycle", "independent of each other"),
    ("judge/games/exchange/core/state.py", "import judge.service.hosting.host", "rules cores import nothing"),
    ("judge/engine/map.py", "import judge.games.pirates.core.match", "libraries import nothing"),
    ("judge/games/machiavelli/views.py", "import judge.service.hosting.host", "through its API alone"),
    ("judge/service/hosting/host.py", "import judge.api", "The host imports no game"),
    ("judge/service/outgoing/outbox.py", "import judge.service.hosting.host", "The host's layers by concern"),
    ("judge/service/hosting/course.py", "import judge.service.incoming.late", "The host's layers by concern"),
    ("judge/service/zones.py", "import judge.service.outgoing.outbox", "The ground of the host"),
])
def test_a_forbidden_import_breaks_the_seam(tmp_path: Path, module: str, line: str, contract: str) -> None:
    shutil.copytree(ROOT / "judge", tmp_path / "judge", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / ".importlinter", tmp_path / ".importlinter")
    with (tmp_path / module).open("a", encoding="utf-8") as source:
        source.write(f"\n{line}  # noqa\n")
    run = lint_imports(tmp_path)
    assert run.returncode != 0
    broken = run.stdout[run.stdout.index("Contracts"):]
    assert f"{contract}" in " ".join(broken.split()) and "BROKEN" in broken


def import_circles(imports: dict[str, set[str]]) -> list[list[str]]:
    """The circles of ``imports`` (module -> the modules it imports): each strongly connected set of
    more than one module, by Tarjan's algorithm."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for imported in imports.get(module, set()):
            if imported not in order:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], order[imported])
        if low[module] == order[module]:
            circle = stack[stack.index(module):]
            del stack[stack.index(module):]
            if len(circle) > 1:
                circles.append(sorted(circle))

    for module in sorted(imports):
        if module not in order:
            visit(module)
    return circles


def test_import_circles_are_found() -> None:
    assert import_circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert import_circles({"a": {"b"}, "b": set()}) == []


def test_no_module_of_the_judge_imports_itself_back() -> None:
    """No import circle anywhere in the judge, counting the imports made inside functions and those
    for type checking only: the host, the kinds and the libraries each stand on what is below them."""
    grimp = pytest.importorskip("grimp")
    graph = grimp.build_graph("judge", cache_dir=None)
    imports = {module: set(graph.find_modules_directly_imported_by(module)) for module in graph.modules}
    assert import_circles(imports) == []
