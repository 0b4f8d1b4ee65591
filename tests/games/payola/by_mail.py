"""Payola by mail: the three-power game g1 most by-mail tests start from, and moving g1 to a position."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from judge.service import host as lifecycle
from judge.store.models import Game
from tests.support.harness import Judge, Sent
from tests.support.people import ALICE, BOB, CAROL, GM

FRANCE, GERMANY, ENGLAND = "SIGNON F@g1 alice-pw\n", "SIGNON G@g1 bob-pw\n", "SIGNON E@g1 carol-pw\n"
MASTER = "SIGNON MASTER@g1 gm-secret\n"


def start(judge: Judge, options: str = "") -> Judge:
    """Game g1 created by GM (gm-secret) with ``options``, joined by Alice (France), Bob (Germany) and
    Carol (England), started; the mail so far read."""
    judge.send(GM, f"CREATE g1 gm-secret {options}".strip())
    judge.send(ALICE, "JOIN g1 alice-pw FRANCE")
    judge.send(BOB, "JOIN g1 bob-pw GERMANY")
    judge.send(CAROL, "JOIN g1 carol-pw ENGLAND")
    judge.send(GM, MASTER + "START")
    judge.new_mail()
    return judge


def to(mails: list[Sent], address: str) -> list[Sent]:
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
