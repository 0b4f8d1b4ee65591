"""What the documentation generates from the code, so that each thing is written once.

Theory of operation: three references are said twice if written by hand, and drift.  The
configuration reference is read from `judge.service.config.Settings` (each field's docstring,
its default as a TOML value, its ``JUDGE_*`` variable); the command-line reference from the
``judge`` command's own argument parsers (each subcommand's ``--help``, as argparse prints it);
the commands' reference is the HELP mail itself (`judge.service.incoming.help_topics.help_mail`), rendered
from its templates as a player gets it.  The documentation's Sphinx extension
(``docs/_ext/judge_reference.py``) puts them into pages, and the tests fail when a setting has no
docstring or a subcommand or option no help.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import inspect
import io
import json
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import fields
from typing import TYPE_CHECKING, Any, NamedTuple

from judge.service import config
from judge.service.config import Settings
from judge.service.operators import cli

if TYPE_CHECKING:
    from judge.service.hosting.kinds import Kinds


class SettingDoc(NamedTuple):
    """One setting as the configuration reference gives it."""

    name: str  # the field's name (``max_size``)
    key: str  # as written in the TOML file (``max-size``)
    environment: str  # its environment variable (``JUDGE_MAX_SIZE``)
    default: str  # the default, written as a TOML value
    text: str  # what it sets or limits (the field's docstring; empty when it has none)


class SubcommandDoc(NamedTuple):
    """One ``judge`` subcommand as the command-line reference gives it."""

    name: str
    summary: str  # its one line in ``judge --help``
    usage: str  # ``judge <name> --help``, as argparse prints it


def setting_docstrings() -> dict[str, str]:
    """Each `Settings` field's docstring (the string that follows it in the class), by name."""
    tree = ast.parse(inspect.getsource(config))
    body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Settings").body
    docs: dict[str, str] = {}
    for field_node, after in zip(body, [*body[1:], None], strict=True):
        if (isinstance(field_node, ast.AnnAssign) and isinstance(field_node.target, ast.Name)
                and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)):
            docs[field_node.target.id] = " ".join(after.value.value.split())
    return docs


def toml_value(value: Any) -> str:
    """A default as it would be written in the TOML file (``none`` when the setting is unset)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, tuple):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{key} = {toml_value(item)}" for key, item in value.items()) + " }"
    return '"' + str(value) + '"'


def settings_reference() -> tuple[SettingDoc, ...]:
    """Every setting in the order `Settings` declares them."""
    docs = setting_docstrings()
    defaults = Settings()
    return tuple(
        SettingDoc(f.name, f.name.replace("_", "-"), f"JUDGE_{f.name.upper()}",
                   toml_value(getattr(defaults, f.name)), docs.get(f.name, ""))
        for f in fields(Settings))


@contextlib.contextmanager
def _columns(width: int) -> Iterator[None]:
    """argparse wraps its help to the terminal's width: a fixed one, so the reference is the same everywhere."""
    before = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(width)
    try:
        yield
    finally:
        if before is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = before


def _printed_help(main: Callable[[Sequence[str]], int], arguments: list[str]) -> str:
    out = io.StringIO()
    with _columns(100), contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        main(arguments)
    return out.getvalue().rstrip()


def command_line_reference(kinds: Callable[[], Kinds], tools: Sequence[cli.Tool]) -> tuple[SubcommandDoc, ...]:
    """Every ``judge`` subcommand, with what ``judge <name> --help`` prints (the games' tools and
    the pages' commands read their own arguments: their own parsers print it)."""
    judge = cli.parser(kinds, tools)
    choices = next(a for a in judge._actions if isinstance(a, argparse._SubParsersAction))
    summaries = {action.dest: action.help or "" for action in choices._choices_actions}
    return tuple(
        SubcommandDoc(name, summaries.get(name, ""),
                      _printed_help(lambda argv: cli.main(argv, kinds, tools), [name, "--help"]))
        for name in choices.choices)


def overview(kinds: Callable[[], Kinds], tools: Sequence[cli.Tool]) -> str:
    """``judge --help``."""
    return _printed_help(lambda argv: cli.main(argv, kinds, tools), ["--help"])


class RecordField(NamedTuple):
    """One field of the game record's format, as its reference gives it."""

    path: str  # where it stands: ``phases[].submissions[].seat``
    type: str  # its JSON types, or the values it may take
    text: str  # what it holds (the schema's description)


def record_fields(schema: dict[str, Any], scope: str) -> list[RecordField]:
    """Every field of the game record's ``scope`` (``whole``, ``public``), in the schema's order,
    from its JSON Schema (``docs/reference/game-record.schema.json``): the reference of the format
    is the schema, written once."""
    found: list[RecordField] = []

    def walk(node: dict[str, Any], path: str) -> None:
        for name, field in node.get("properties", {}).items():
            where = f"{path}{name}"
            found.append(RecordField(where, _json_type(field), str(field.get("description", ""))))
            if "properties" in field:
                walk(field, where + ".")
            elif isinstance(field.get("items"), dict) and "properties" in field["items"]:
                walk(field["items"], where + "[].")

    walk(schema["$defs"][scope], "")
    return found


def _json_type(field: dict[str, Any]) -> str:
    """A field's type as the reference writes it: ``string or null``, ``one of a, b``, ``list of string``."""
    if "const" in field:
        return f"`{field['const']}`"
    if "enum" in field:
        return "one of " + ", ".join(f"`{value}`" if isinstance(value, str) else f"`{json.dumps(value)}`"
                                     for value in field["enum"])
    kinds = field.get("type", "any")
    names = [kinds] if isinstance(kinds, str) else list(kinds)
    if "array" in names and isinstance(field.get("items"), dict):
        item = field["items"]
        inner = "object" if "properties" in item else _json_type(item)
        names = [f"list of {inner}" if name == "array" else name for name in names]
    if field.get("format") == "date-time":
        names = ["time" if name == "string" else name for name in names]
    return " or ".join(names)
