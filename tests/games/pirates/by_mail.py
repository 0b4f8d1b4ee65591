"""Pirates' Proposal by mail: the players' addresses and a match ``pp`` created, joined and started."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select

from judge.store.models import Game
from tests.support.harness import Judge
from tests.support.people import GM

FOUR = ("Ann", "Bob", "Cy", "Dee")


def address(name: str) -> str:
    """The address of the player called ``name``."""
    return f"{name.lower()}@example.org"


def pirates_game(judge: Judge, names: Sequence[str], garnets: int = 0, seed: int | None = None) -> Judge:
    """Game ``pp``, created by GM for ``names``, each joined under their name, started; its seed
    (the rooms', packages' and drawn ballots': P1, P3, P8) ``seed`` if given, else the judge's draw."""
    judge.send(GM, f"CREATE pp gm-pw pirates PLAYERS={len(names)} GARNETS={garnets}")
    if seed is not None:
        with judge.db.transaction() as session:
            session.scalars(select(Game).where(Game.name == "pp")).one().seed = seed
    for name in names:
        judge.send(address(name), f"JOIN pp pw-{name.lower()} {name}")
    judge.send(GM, "SIGNON MASTER@pp gm-pw\nSTART")
    return judge
