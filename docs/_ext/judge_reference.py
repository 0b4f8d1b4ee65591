"""The directives that put what the code says into the pages (`judge.service.operators.reference` reads it).

``judge-settings``: every setting, its TOML key, environment variable, default and docstring.
``judge-cli``: every ``judge`` subcommand, with what its ``--help`` prints.
``judge-help [part]``: the HELP mail as a player gets it (``host``: the part every game shares;
a kind's name: that game's part; nothing: the whole mail).
``judge-record scope``: every field of a game's record (``whole`` or ``public``), from its JSON Schema.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

from judge.bootstrap import TOOLS, kinds
from judge.service.config import Settings
from judge.service.incoming.help_topics import games_help, help_mail
from judge.service.operators.reference import command_line_reference, overview, record_fields, settings_reference

EXAMPLE = Settings(domain="example.org")  # the HELP a player of judge@example.org would get


def _parse(directive: SphinxDirective, lines: list[str]) -> list[nodes.Node]:
    """``lines`` read as the page around the directive is written (MyST Markdown: the pages are)."""
    container = nodes.section()
    container.document = directive.state.document
    nested_parse_with_titles(directive.state, StringList(lines, directive.get_source_info()[0]), container)
    return list(container.children)


class SettingsDirective(SphinxDirective):
    """The configuration reference, generated from `Settings`."""

    def run(self) -> list[nodes.Node]:
        lines: list[str] = []
        for setting in settings_reference():
            lines += [f"## {setting.key}", "", setting.text, "",
                      (f"In the TOML file: `{setting.key} = {setting.default}` (the default)  "
                       if setting.default != "none" else f"In the TOML file: `{setting.key}` (not set by default)  "),
                      f"In the environment: `{setting.environment}`", ""]
        return _parse(self, lines)


class CommandLineDirective(SphinxDirective):
    """The command-line reference, generated from the argument parsers."""

    def run(self) -> list[nodes.Node]:
        lines = ["```text", *overview(kinds, TOOLS).splitlines(), "```", ""]
        for sub in command_line_reference(kinds, TOOLS):
            summary = sub.summary[:1].upper() + sub.summary[1:] + "."
            lines += [f"## judge {sub.name}", "", summary, "",
                      "```text", *sub.usage.splitlines(), "```", ""]
        return _parse(self, lines)


class HelpDirective(SphinxDirective):
    """The HELP mail, or one part of it, rendered from its templates."""

    optional_arguments = 1

    def run(self) -> list[nodes.Node]:
        part = self.arguments[0] if self.arguments else None
        games = games_help(kinds(), EXAMPLE)
        whole = help_mail(EXAMPLE, kinds())
        if part is None:
            text = whole
        elif part == "host":
            text = whole.split("\n\n" + games[0].text, 1)[0]
        else:
            text = next(kind.text for kind in games if kind.name == part)
        block = nodes.literal_block(text, text)
        block["language"] = "text"
        return [block]


class RecordDirective(SphinxDirective):
    """The fields of a game's record, whole or public, from ``game-record.schema.json`` beside the page."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        schema = json.loads((Path(self.env.srcdir) / "reference" / "game-record.schema.json").read_text("utf-8"))
        lines = ["| field | type | what it holds |", "|---|---|---|"]
        for field in record_fields(schema, self.arguments[0]):
            text = field.text.replace("|", "\\|")
            lines.append(f"| `{field.path}` | {field.type} | {text} |")
        return _parse(self, lines)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("judge-settings", SettingsDirective)
    app.add_directive("judge-cli", CommandLineDirective)
    app.add_directive("judge-help", HelpDirective)
    app.add_directive("judge-record", RecordDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
