"""The host's API for kinds (`judge.api`): every name it lists resolves to the host's object of that
name, the typed imports that type checkers read are the table it resolves at run time, and importing
it imports none of the host until a name is asked for."""

from __future__ import annotations

import ast
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
    assert "judge.store" not in loaded and "judge.web" not in loaded and "judge.service.host" not in loaded, loaded
