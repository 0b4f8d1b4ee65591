"""The composition root: the one place that assembles the judge.

It lists the kinds of game the judge hosts (`kinds`) and the command-line tools the games bring
(`TOOLS`), and hands them to the host: to its command line (`main`, the ``judge`` command), and
through it to the daemon, the applier, the operator's commands, the public pages and the demo;
the database it opens (`open_database`) gives them to every session.  Nothing registers itself
by being imported, and the host (`judge.service`, `judge.web`, ...) imports no game: adding a
kind of game is a folder under ``judge/games/`` and a line in `HOSTED`.

The kinds are imported when first asked for, not when this module is: a JSON tool (``judge
adjudicate``) starts without the service's libraries.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING

from judge.games.machiavelli import cli as machiavelli_cli
from judge.games.payola import cli as payola_cli
from judge.service.operators import cli

if TYPE_CHECKING:
    from judge.service.config import Settings
    from judge.service.hosting.kinds import GameKind, Kinds
    from judge.store.database import Database

TOOLS: tuple[cli.Tool, ...] = (*payola_cli.TOOLS, machiavelli_cli.TOOL)
"""The games' own subcommands: ``judge adjudicate``, ``orders``, ``payola``, ``map`` and ``machiavelli``."""


HOSTED = (
    "judge.games.payola.kind:Payola",  # the default: a CREATE that names no kind makes a Payola game
    "judge.games.pirates.kind:Pirates",
    "judge.games.exchange.kind:Exchange",
    "judge.games.machiavelli.kind:Machiavelli",
)
"""Every kind of game this judge hosts, a line each (``module:class``), the default first; each is
imported when the judge first needs its kinds."""


def hosted() -> list[GameKind]:
    """A kind of each of `HOSTED`, in its order."""
    found = []
    for path in HOSTED:
        module, _, name = path.partition(":")
        found.append(getattr(import_module(module), name)())
    return found


@cache
def kinds() -> Kinds:
    """The registry of the kinds this judge hosts (`hosted`), with the host's command table."""
    return registry(hosted())


def registry(hosted: Sequence[GameKind]) -> Kinds:
    """The registry of ``hosted``, the first the default, with the host's command table; TypeError
    naming what is wrong with a kind the host cannot host (`judge.service.hosting.contract.check`)."""
    from judge.service.hosting.contract import check
    from judge.service.hosting.kinds import Kinds
    from judge.service.incoming.handlers import COMMANDS

    for kind in hosted:
        check(kind)
    return Kinds(hosted, default=hosted[0].name, commands=COMMANDS)


def open_database(settings: Settings) -> Database:
    """The judge's database (made and upgraded if need be), its sessions knowing `kinds`."""
    from judge.service.running.app import open_database as opened

    return opened(settings, kinds())


def database(url: str) -> Database:
    """A connection to the judge's database at ``url`` (another process's, say), its sessions
    knowing `kinds`; its schema is not touched."""
    from judge.service.hosting.kinds import SESSION_KEY
    from judge.store.database import Database

    return Database(url, {SESSION_KEY: kinds()})


def main(argv: Sequence[str] | None = None) -> int:
    """The ``judge`` command."""
    return cli.main(argv, kinds, TOOLS)
