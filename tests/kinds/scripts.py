"""How the kinds' conformance suite plays a game of each kind (`Script`), looked up by the kind's name:
the kinds come from the registry (`tests.kinds.registry.with_test_kinds`), the scripts say only how a
game of each is created, joined and signed on to, and what its first player sends.  A hosted kind
without a script fails `test_every_hosted_kind_has_a_conformance_script` (`unscripted`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import select

from judge.service.hosting.kinds import Kinds
from judge.store.models import Game
from tests.kinds.registry import with_test_kinds
from tests.support.harness import Judge, Sent, once

GM = "gm@example.org"
GAME = "c1"


def address(name: str) -> str:
    return f"{name.lower()}@example.org"


@dataclass(frozen=True)
class Script:
    """How a game of one kind is played here: its CREATE words after the password, its players (their
    names, what each JOIN names after the password, the seat each signs on as), and what a player sends
    in the first phase (its name and its start mail in), every player's making the phase complete."""

    kind: str
    create: str
    players: tuple[tuple[str, str, str], ...]  # name (address, password), JOIN's word, SIGNON's seat
    order: Callable[[str, Sent], Sequence[str]]
    rolls_back: bool = True
    closes_early: bool = True  # the phase closes once every player has sent (unless one WAITs)
    resigned_leave: bool = False  # a seat whose player resigned has left the game: nobody takes it over (E32)
    kinds: Callable[[], Kinds] = with_test_kinds  # the registry of the judge that hosts it

    def signon(self, name: str) -> str:
        seat = next(seat for who, _, seat in self.players if who == name)
        return f"SIGNON {seat}@{GAME} pw-{name.lower()}"


def _pirates_plan(_: str, start: Sent) -> list[str]:
    """The whole package to oneself (P2), as the start mail tells it."""
    found = re.search(r"^Package: (\d+) gold", start.body, re.M)
    assert found is not None, start.body
    return [f"PLAN ME {found.group(1)}"]


SCRIPTS = {script.kind: script for script in (
    Script("payola", "payola", (("Alice", "FRANCE", "FRANCE"), ("Bob", "GERMANY", "GERMANY")),
           lambda _, __: ["5 : A PAR - BUR"]),
    Script("pirates", "pirates PLAYERS=4", tuple((n, n, n) for n in ("Ann", "Bob", "Cy", "Dee")), _pirates_plan,
           rolls_back=False, closes_early=False),
    Script("exchange", "exchange INVESTORS=3", tuple((n, n, n) for n in ("ANN", "BOB", "CAT")),
           lambda _, __: ["PASS"], resigned_leave=True),
    Script("machiavelli", "machiavelli", (("Flo", "Florence", "Florence"), ("Mil", "Milan", "Milan")),
           lambda name, _: ["transfer 3 to Milan"] if name == "Flo" else ["transfer 2 to Florence"]),
    Script("auction", "auction LOTS=2", (("Ann", "Ann", "Ann"), ("Bob", "Bob", "Bob")), lambda _, __: ["BID 30"]),
)}
"""The script of each kind, by its name: what a kind hosted (`KINDS`) has no script for fails a test."""

KINDS = tuple(kind.name for kind in with_test_kinds())
"""Every kind the suite plays: the registry's, the judge's own and the test kinds, in its order."""


def unscripted(kinds: Kinds) -> list[str]:
    """The kinds of ``kinds`` that have no script here: each would go untested by the suite."""
    return [kind.name for kind in kinds if kind.name not in SCRIPTS]


def started(tmp_path: Path, script: Script, **settings: Any) -> Judge:
    """A judge of the script's registry (``settings``: `Judge`'s) with a game of ``script``'s kind created, joined
    and started, its start mail unread: played once per test process and kind, then copied (`once`)."""
    return start(Judge(tmp_path, kinds=script.kinds(), **settings), script)


def start(judge: Judge, script: Script) -> Judge:
    """``judge``, of the script's registry, with `started`'s game: for a build of `once` that goes on from there."""
    return once(judge, _start, script)


def _start(judge: Judge, script: Script) -> None:
    judge.confirmed(GM, *(address(name) for name, _, _ in script.players))
    judge.send(GM, f"CREATE {GAME} gm-pw {script.create}")
    for name, word, _ in script.players:
        judge.send(address(name), f"JOIN {GAME} pw-{name.lower()} {word}")
    judge.new_mail()
    judge.send(GM, f"SIGNON MASTER@{GAME} gm-pw\nSTART")


def state(judge: Judge) -> tuple[str, str | None]:
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == GAME)).one()
        return game.state, game.phase


def master(judge: Judge, *lines: str) -> list[Sent]:
    """The game master's mail of ``lines``; the mails it caused."""
    judge.new_mail()
    judge.send(GM, "\n".join((f"SIGNON MASTER@{GAME} gm-pw", *lines)))
    return judge.new_mail()


def send(judge: Judge, script: Script, name: str, *lines: str) -> Sent:
    """``lines`` from player ``name``, signed on; the judge's reply to it."""
    judge.send(address(name), "\n".join((script.signon(name), *lines)))
    return judge.last_to(address(name))


def to_players(script: Script, mails: Sequence[Sent], subject: str) -> dict[str, Sent]:
    """The mail of ``subject`` to each player, by name."""
    return {name: m for name, _, _ in script.players for m in mails if m.to == address(name) and m.subject == subject}
