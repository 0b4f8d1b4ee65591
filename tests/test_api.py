"""The host's API for kinds (`judge.api`): every name it lists resolves to the host's object of that
name, the typed imports that type checkers read are the table it resolves at run time, and importing
it imports none of the host until a name is asked for."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from importlib import import_module
from pathlib import Path

import judge.api

SOURCE = Path(judge.api.__file__).read_text()


def typed_imports() -> dict[str, tuple[str, str]]:
    """The names the module's ``if TYPE_CHECKING:`` block imports, with where from."""
    block = next(node for node in ast.parse(SOURCE).body
                 if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING")
    return {alias.asname or alias.name: (node.module or "", alias.name)
            for node in block.body if isinstance(node, ast.ImportFrom) for alias in node.names}


def test_the_typed_imports_are_the_names_the_api_resolves() -> None:
    assert typed_imports() == judge.api._SOURCES
    assert sorted(judge.api.__all__) == sorted(judge.api._SOURCES)


def test_every_name_of_the_api_is_the_hosts_object() -> None:
    for name, (module, attribute) in judge.api._SOURCES.items():
        assert getattr(judge.api, name) is getattr(import_module(module), attribute), name


def test_a_name_the_api_does_not_have_is_an_attribute_error() -> None:
    try:
        judge.api.Reads  # noqa: B018  (the host's, not the API's)
    except AttributeError as exc:
        assert "has no attribute 'Reads'" in str(exc)
    else:
        raise AssertionError("judge.api.Reads resolved")


def test_importing_the_api_imports_none_of_the_host() -> None:
    probe = ("import sys, judge.api; from judge.api import Tool; "
             "print(sorted(m for m in sys.modules if m.startswith(('judge.service', 'judge.store', 'judge.web'))))")
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    host = ("judge.store", "judge.web", "judge.service.hosting.host")
    assert all(f"'{module}'" not in loaded for module in host), loaded


KINDS = [*Path(judge.api.__file__).parent.joinpath("games").rglob("*.py"),
         *Path(__file__).parent.joinpath("kinds", "auction").rglob("*.py")]
"""The sources of every kind of the judge and of the example kind."""


def used_by_kinds() -> set[str]:
    """The API's names the kinds use: ``api.name`` and ``from judge.api import name``."""
    used = set()
    for path in KINDS:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module == "judge.api":
                used |= {alias.name for alias in node.names}
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "api":
                used.add(node.attr)
    return used


def test_every_name_of_the_api_is_used_by_a_kind_or_kept_for_new_kinds() -> None:
    assert set(judge.api.__all__) - used_by_kinds() == set(judge.api.FOR_NEW_KINDS)


def test_the_turn_a_kind_is_handed_has_only_what_some_kind_uses() -> None:
    from judge.service.hosting.turn import Turn

    members = {name for cls in Turn.__mro__ if cls.__module__ == Turn.__module__
               for name in (*vars(cls), *vars(cls).get("__annotations__", {})) if not name.startswith("_")}
    used = {match.group(1) for path in KINDS for match in re.finditer(r"\b(?:turn|talk)\.(\w+)", path.read_text())}
    assert len(members) == 27
    assert members - used == set()
