"""The composition root: the one place that assembles the judge.

It lists the kinds of game the judge hosts (`kinds`) and the command-line tools the games bring
(`TOOLS`), and hands them to the host: to its command line (`main`, the ``judge`` command), and
through it to the daemon, the applier, the operator's commands, the public pages and the demo;
the database it opens (`open_database`) gives them to every session.  Nothing registers itself
by being imported, and the host (`judge.service`, `judge.web`, ...) imports no game: adding a
kind of game is a folder under ``judge/games/`` and a line in `kinds`.

The kinds are imported when first asked for, not when this module is: a JSON tool (``judge
adjudicate``) starts without the service's libraries.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING

from judge.games.machiavelli import cli as machiavelli_cli
from judge.games.payola import cli as payola_cli
from judge.service import cli

if TYPE_CHECKING:
    from judge.service.config import Settings
    from judge.service.kinds import Kinds
    from judge.store.database import Database

TOOLS: tuple[cli.Tool, ...] = (*payola_cli.TOOLS, machiavelli_cli.TOOL)
"""The games' own subcommands: ``judge adjudicate``, ``orders``, ``payola``, ``map`` and ``machiavelli``."""


@cache
def kinds() -> Kinds:
    """Every kind of game this judge hosts, the default first, with the host's command table."""
    from judge.games.exchange.kind import Exchange
    from judge.games.machiavelli.kind import Machiavelli
    from judge.games.payola.kind import Payola
    from judge.games.pirates.kind import Pirates
    from judge.service.handlers import COMMANDS
    from judge.service.kinds import Kinds

    return Kinds([Payola(), Pirates(), Exchange(), Machiavelli()], default="payola", commands=COMMANDS)


def open_database(settings: Settings) -> Database:
    """The judge's database (made and upgraded if need be), its sessions knowing `kinds`."""
    from judge.service.app import open_database as opened

    return opened(settings, kinds())


def database(url: str) -> Database:
    """A connection to the judge's database at ``url`` (another process's, say), its sessions
    knowing `kinds`; its schema is not touched."""
    from judge.service.kinds import SESSION_KEY
    from judge.store.database import Database

    return Database(url, {SESSION_KEY: kinds()})


def main(argv: Sequence[str] | None = None) -> int:
    """The ``judge`` command."""
    return cli.main(argv, kinds, TOOLS)
