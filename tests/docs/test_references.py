"""What the documentation generates from the code is all there: every setting has its description,
every subcommand and option its help, HELP names every command the readers know, and the
documentation's address is given exactly when the operator set one.  (These need no Sphinx:
`judge.service.operators.reference` reads it all; tests/docs/test_site.py builds the pages from it.)"""

from __future__ import annotations

import argparse
import ast
import inspect
import re
from pathlib import Path

import pytest

from judge import bootstrap
from judge.commands import parse
from judge.service.config import Settings, load_settings
from judge.service.incoming.help_topics import games_help, help_mail
from judge.service.operators import cli
from judge.service.operators.reference import command_line_reference, settings_reference, toml_value
from tests.kinds.registry import with_test_kinds
from tests.support.harness import Judge

ALICE = "alice@example.com"
DOCS = "https://judge.example.org/docs/"


def test_every_setting_has_a_description_for_the_configuration_reference() -> None:
    settings = settings_reference()
    assert [s.name for s in settings] == list(Settings.__dataclass_fields__)
    undocumented = [s.key for s in settings if len(s.text.split()) < 3]
    assert undocumented == [], f"settings without a docstring in judge/service/config.py: {undocumented}"


def test_the_configuration_reference_writes_each_default_as_the_toml_file_would_read_it(tmp_path: Path) -> None:
    """Each default, written into a TOML file as the reference writes it, loads back as that default."""
    lines = [f"{s.key} = {s.default}" for s in settings_reference() if s.default != "none"]
    (tmp_path / "judge.toml").write_text("\n".join(lines), "utf-8")
    assert load_settings(tmp_path / "judge.toml", environ={}) == Settings()
    assert toml_value(None) == "none" and toml_value(("::1",)) == '["::1"]'
    assert {s.key: s.environment for s in settings_reference()}["max-size"] == "JUDGE_MAX_SIZE"


def _undocumented(parser: argparse.ArgumentParser, prefix: str) -> list[str]:
    """Options and arguments of ``parser`` (and of its subcommands) with no help."""
    missing = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            summaries = {choice.dest: choice.help for choice in action._choices_actions}
            for name, sub in action.choices.items():
                if not summaries.get(name):
                    missing.append(f"{prefix} {name}")
                missing += _undocumented(sub, f"{prefix} {name}")
        elif not action.help and not isinstance(action, argparse._HelpAction):
            missing.append(f"{prefix} {'/'.join(action.option_strings) or action.dest}")
    return missing


def test_every_subcommand_and_option_has_help_for_the_command_line_reference() -> None:
    from judge.web.cli import _parser as pages_parser

    parser = cli.parser(bootstrap.kinds, bootstrap.TOOLS)
    assert _undocumented(parser, "judge") == [] and _undocumented(pages_parser(), "judge") == []
    subcommands = command_line_reference(bootstrap.kinds, bootstrap.TOOLS)
    names = [sub.name for sub in subcommands]
    assert {"serve", "status", "backup", "help", "web", "publish", "adjudicate", "machiavelli"} <= set(names)
    for sub in subcommands:  # the games' tools and the pages' commands print their own parsers' help
        assert sub.usage.startswith(f"usage: judge {sub.name}"), sub.name
        assert sub.summary, sub.name


def _keywords(docstring: str) -> set[str]:
    """The command words a docstring of `judge.commands.parse` writes: ``SET ABSENCE 2027-...`` gives
    ``SET ABSENCE``."""
    words = set()
    for literal in re.findall(r"``([^`]+)``", docstring):
        head = re.match(r"((?:[A-Z]{2,}\b ?)+)", literal)
        if head:  # a seat is written POWER or FRANCE in the docstrings, SEAT in HELP
            words.add(" ".join(word for word in head.group(1).split() if word not in ("POWER", "FRANCE")))
    return words


def test_help_names_every_command_the_hosts_reader_knows() -> None:
    text = " ".join(help_mail(Settings(), bootstrap.kinds()).split())  # its lines wrapped at 72, joined again
    commands = [node for node in ast.parse(inspect.getsource(parse)).body if isinstance(node, ast.ClassDef)]
    keywords = set().union(*(_keywords(ast.get_docstring(node) or "") for node in commands))
    keywords |= set(parse.SIMPLE) | {f"SET {word}" for word in parse._DURATIONS}
    assert {"HELP", "SIGNON", "SET ABSENCE", "ROLLBACK", "TAKEOVER", "GET INFO"} <= keywords  # the reading works
    missing = sorted(word for word in keywords if not re.search(_as_help_writes(word), text))
    assert missing == [], f"commands the host reads that HELP does not name: {missing}"


def _phases(durations: dict[str, str]) -> list[str]:
    """The phases a kind's ``SET <phase> hours`` names, each once (``RETREATS`` is ``RETREAT``'s other spelling)."""
    return [f"SET {word}" for word, phase in durations.items() if word.lower() == phase]


def _as_help_writes(word: str) -> str:
    """A command word as HELP may write it: ``SET MOVEMENT`` also as ``SET MOVEMENT|RETREAT`` or
    ``SET SPRING|CAMPAIGN``, a bare phase name (a kind's DURATIONS) after such a SET."""
    alternatives = r"(?:[A-Z]+\|)*"
    if word.startswith("SET "):
        return rf"\bSET {alternatives}{word[4:]}\b"
    return rf"\b{word}\b"


@pytest.mark.parametrize("kind", [kind.name for kind in with_test_kinds()])
def test_each_games_part_of_help_names_the_commands_its_reader_knows(kind: str) -> None:
    """Each kind the judge hosts (and the tests' example kind), as the registry lists them: its HELP names
    the words its grammar reads (`judge.service.hosting.kinds.Commands.words`) and ``SET`` each of its phases'
    lengths."""
    game_kind = with_test_kinds().named(kind)
    words = [*game_kind.words, *(f"SET {setting.upper()}" for setting in game_kind.durations)]
    part = next(k.text for k in games_help(with_test_kinds(), Settings()) if k.name == kind)
    missing = [word for word in words if not re.search(_as_help_writes(word), part)]
    assert missing == [], f"{kind}'s HELP does not name {missing}"


def test_help_mail_names_the_documentation_only_when_its_address_is_set(tmp_path: Path) -> None:
    quiet = Judge(tmp_path / "quiet")
    quiet.send(ALICE, "HELP")
    assert "documentation" not in quiet.last_to(ALICE).body and "http" not in quiet.last_to(ALICE).body
    told = Judge(tmp_path / "told", docs_url=DOCS)
    told.send(ALICE, "HELP")
    first_lines = [line.strip() for line in told.last_to(ALICE).body.splitlines()[:3]]
    assert f"(the documentation, every command explained: {DOCS})" in first_lines


def test_judge_help_prints_the_help_mail_and_the_documentations_address_when_set(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("JUDGE_DOCS_URL", raising=False)
    assert bootstrap.main(["help", "--data-dir", str(tmp_path), "--domain", "example.org"]) == 0
    unset = capsys.readouterr().out
    assert unset.startswith("Commands (one per line, any case), mailed to judge@example.org:")
    assert "http" not in unset and "No address of the documentation is set (docs-url)" in unset
    (tmp_path / "judge.toml").write_text(f'docs-url = "{DOCS}"\n', "utf-8")
    assert bootstrap.main(["help", "--config", str(tmp_path / "judge.toml")]) == 0
    told = capsys.readouterr().out
    assert told.splitlines()[1:3] == ["(the documentation, every command explained:", f"{DOCS})"]  # wrapped at 72
    assert told.rstrip().endswith(f"The documentation: {DOCS}")
