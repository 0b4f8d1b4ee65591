"""Which handler answers each command, and who may use it: one table, built once at start-up.

Each family of the host's commands (`judge.service.incoming.handlers`) and each kind of game
(`judge.service.hosting.kinds.Commands.commands`) offers its commands as a table of `Entry` rows: the
command's type (what the grammar reads a line as), its handler, who may use it (`ANYONE`,
`SIGNED_ON`, `PLAYER`, `MASTER`) and how it is bounded.  The composition root (`judge.bootstrap`)
hands the host's table and the kinds to `Dispatcher`, which the conversation asks: nothing
registers itself by being imported.  The dispatcher checks who may use a command before its
handler is called, so a handler never sees a caller it was not written for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

ANYONE, SIGNED_ON, PLAYER, MASTER = "anyone", "signed on", "player", "master"

Handler = Callable[[Any, str, Any], None]
"""A handler: the conversation (the host's own) or the turn (a kind's), the line as written, and
the command it was read as."""


@dataclass(frozen=True)
class Entry:
    """One entry of a command table: the command's type, its handler, who may use it, and how it is
    bounded."""

    type: type
    handler: Handler
    who: str
    once: bool = False
    """It renders or draws a long answer (HISTORY, SUMMARY, MAP, HELP): one is read per mail."""
    closed_after_the_end: bool = False
    """A game that has ended refuses it."""
    lookup: bool = False
    """A question about the judge's games that anyone may ask (LIST, WHOGAME, GET INFO): at most
    ``max_lookups_per_mail`` of them are answered in one mail."""
    announces: bool = False
    """It may announce to the signed-on game's players and observers, so it is refused when that
    would take the mail over ``max_mails_per_mail``."""


class Dispatcher:
    """Every command the judge reads, the host's and each kind's, by type."""

    def __init__(self, tables: Iterable[Iterable[Entry]]) -> None:
        """``tables``: the host's first, then each kind's."""
        self._commands: dict[type, Entry] = {}
        self._games: set[type] = set()
        for number, table in enumerate(tables):
            for command in table:
                if command.type in self._commands:
                    raise ValueError(f"two handlers for {command.type.__name__}")
                self._commands[command.type] = command
                if number:
                    self._games.add(command.type)

    def __getitem__(self, kind: type) -> Entry:
        return self._commands[kind]

    def is_games(self, kind: type) -> bool:
        """Whether the command is a kind's (its orders, sheets, letters and own commands), not the
        host's: what a mail meant for another phase, or one a kind reads no orders from, does not do."""
        return kind in self._games

    @property
    def commands(self) -> Mapping[type, Entry]:
        return self._commands
