"""Payola by mail: the three-power game g1 most by-mail tests start from, and moving g1 to a position."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from judge.service.hosting import host as lifecycle
from judge.store.models import Game
from tests.support.harness import Judge, Sent, once, start_game
from tests.support.people import ALICE, BOB, CAROL

FRANCE, GERMANY, ENGLAND = "SIGNON F@g1 alice-pw\n", "SIGNON G@g1 bob-pw\n", "SIGNON E@g1 carol-pw\n"
MASTER = "SIGNON MASTER@g1 gm-secret\n"


def start(judge: Judge, options: str = "") -> Judge:
    """Game g1 created by GM (gm-secret) with ``options``, joined by Alice (France), Bob (Germany) and
    Carol (England), started; the mail so far read."""
    return once(judge, _start, options)


def _start(judge: Judge, options: str) -> None:
    start_game(judge, "g1", options, ((ALICE, "FRANCE"), (BOB, "GERMANY"), (CAROL, "ENGLAND")))
    judge.new_mail()


def to(mails: list[Sent], address: str) -> list[Sent]:
    """The mails of ``mails`` to ``address``."""
    return [m for m in mails if m.to == address]


def teleport(judge: Judge, position: dict[str, Any]) -> None:
    """Put game g1's current phase at ``position`` (a `judge adjudicate` input)."""
    with judge.db.transaction() as session:
        game = session.scalar(select(Game).where(Game.name == "g1"))
        assert game is not None
        row = lifecycle.current_phase(session, game)
        assert row is not None
        row.name = position["phase"]
        row.position = {"variant": "standard", **position}
        game.phase = position["phase"]


def play_spring(judge: Judge) -> None:
    """Alice, Bob and Carol each send g1 a sheet for spring 1901 (one offer each)."""
    judge.send(ALICE, FRANCE + "2 : A PAR - BUR")
    judge.send(BOB, GERMANY + "2 : A MUN - RUH")
    judge.send(CAROL, ENGLAND + "1 : F LON - NTH")
