"""A game of each kind ready for its last seat's mail: the scenes of the hostile-mail budget's
test (`tests/service/test_hostile_mail_budget.py`) and bench (`bench/hostile_mail_bench.py`).

Each scene starts a game with two observers and has every seat but one send its sheet or letter
for the open phase, so that the last seat's mail may complete the phase and have it processed.
A scene is played on anything that takes a mail (`Mailer`): the test's in-process judge, or the
bench's judge on a data directory of its own."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

GM = "gm@example.org"
OBSERVERS = ("watcher1@example.org", "watcher2@example.org")


class Mailer(Protocol):
    def send(self, sender: str, body: str) -> object:
        """Apply a mail of ``body`` from ``sender``."""
        ...


def address(name: str) -> str:
    return f"{name.lower()}@example.org"


def _observed(judge: Mailer, game: str) -> None:
    for watcher in OBSERVERS:
        judge.send(watcher, f"OBSERVE {game}")


def payola(judge: Mailer) -> None:
    """Payola's standard game pb: France (alice) and Germany (bob); Germany's sheet is in."""
    judge.send(GM, "CREATE pb gm-pw")
    judge.send(address("alice"), "JOIN pb alice-pw FRANCE")
    judge.send(address("bob"), "JOIN pb bob-pw GERMANY")
    _observed(judge, "pb")
    judge.send(GM, "SIGNON MASTER@pb gm-pw\nSTART")
    judge.send(address("bob"), "SIGNON GERMANY@pb bob-pw\n5 : A MUN - RUH\n3 : A BER - KIE")


def exchange(judge: Mailer) -> None:
    """Exchange Payola's xb: investors ANN, BOB and CAT in the first Exchange phase; ANN's and BOB's
    sheets are in."""
    judge.send(GM, "CREATE xb gm-pw exchange INVESTORS=3 FUNDS=60")
    for name in ("ANN", "BOB", "CAT"):
        judge.send(address(name), f"JOIN xb pw-{name.lower()} {name}")
    _observed(judge, "xb")
    judge.send(GM, "SIGNON MASTER@xb gm-pw\nSTART")
    judge.send(address("ANN"), "SIGNON ANN@xb pw-ann\nBID 3 FRANCE AT 1\nPRIORITY 2")
    judge.send(address("BOB"), "SIGNON BOB@xb pw-bob\nBID 2 GERMANY AT 1")


def pirates(judge: Mailer) -> None:
    """Pirates' Proposal pp: Ann, Bob, Cy and Dee in the first Distribution Phase; all but Dee have planned."""
    judge.send(GM, "CREATE pp gm-pw pirates PLAYERS=4 GARNETS=2")
    for name in ("Ann", "Bob", "Cy", "Dee"):
        judge.send(address(name), f"JOIN pp pw-{name.lower()} {name}")
    _observed(judge, "pp")
    judge.send(GM, "SIGNON MASTER@pp gm-pw\nSTART")
    for name in ("Ann", "Bob", "Cy"):
        judge.send(address(name), f"SIGNON {name}@pp pw-{name.lower()}\nPLAN ME 10")


def machiavelli(board: str) -> Callable[[Mailer], None]:
    """The scene of a Machiavelli game on ``board`` ("" the classic one)."""

    def build(judge: Mailer) -> None:
        """Machiavelli mc on ``board``: Florence, Milan and Venice past the spring letters, in the first
        campaign; Milan's and Venice's letters are in."""
        judge.send(GM, f"CREATE mc gm-pw machiavelli {board}".strip())
        for country in ("Florence", "Milan", "Venice"):
            judge.send(address(country), f"JOIN mc pw-{country.lower()} {country}")
        _observed(judge, "mc")
        judge.send(GM, "SIGNON MASTER@mc gm-pw\nSTART")
        for country in ("Florence", "Milan", "Venice"):
            judge.send(address(country), f"SIGNON {country}@mc pw-{country.lower()}\nnone")
        for country in ("Milan", "Venice"):
            judge.send(address(country), f"SIGNON {country}@mc pw-{country.lower()}\nbodyguard 3")
    build.__qualname__ = build.__name__ = f"machiavelli_{board or 'classic'}"
    return build
