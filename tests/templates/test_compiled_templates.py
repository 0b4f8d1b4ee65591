"""Templates compiled once and read back by the next process (`judge.service.templates.keep_compiled`): never code
compiled for an environment set up otherwise, and rendering all the same where nothing can be kept."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from jinja2 import DictLoader, Environment

from judge.service.templates import environment, keep_compiled
from judge.web.pages import environment as pages_environment

SOURCE = {"greeting.j2": "{% if who %}\nHello {{ who }}\n{% endif %}\n"}


@pytest.fixture
def temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary folder of the test's own, where Jinja2's folder of compiled templates is made."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path


def kept(**settings: Any) -> Environment:
    env = Environment(loader=DictLoader(SOURCE), **settings)
    keep_compiled(env)
    return env


def never_compiles(*args: object, **kwargs: object) -> None:
    raise AssertionError("compiled again")


def test_a_template_compiled_once_is_read_back_by_the_next_environment(
        temporary: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert kept().get_template("greeting.j2").render(who="Venice") == "\nHello Venice\n"
    again = kept()
    monkeypatch.setattr(again, "compile", never_compiles)
    assert again.get_template("greeting.j2").render(who="Venice") == "\nHello Venice\n"
    assert len(list(temporary.rglob("*.cache"))) == 1


def test_an_environment_set_up_otherwise_never_reads_code_compiled_for_another(temporary: Path) -> None:
    assert kept().get_template("greeting.j2").render(who="Venice") == "\nHello Venice\n"
    assert kept(trim_blocks=True).get_template("greeting.j2").render(who="Venice") == "Hello Venice\n"
    assert kept().get_template("greeting.j2").render(who="Venice") == "\nHello Venice\n"


def test_where_no_folder_can_be_made_the_templates_render_uncached(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    monkeypatch.setattr(tempfile, "tempdir", str(not_a_folder))
    env = kept()
    assert env.bytecode_cache is None
    assert env.get_template("greeting.j2").render(who="Milan") == "\nHello Milan\n"


def test_a_folder_gone_after_it_was_made_leaves_the_templates_rendering(temporary: Path) -> None:
    env = kept()
    assert env.bytecode_cache is not None
    shutil.rmtree(temporary)
    assert env.get_template("greeting.j2").render(who="Genoa") == "\nHello Genoa\n"


def test_the_mails_and_the_pages_keep_their_templates_apart() -> None:
    """Set up otherwise (the pages escape HTML, the mails do not), each environment names its files apart."""
    mails, pages = environment().bytecode_cache, pages_environment().bytecode_cache
    assert mails is not None and pages is not None
    assert mails.pattern != pages.pattern  # type: ignore[attr-defined]
