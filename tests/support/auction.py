"""The game the host's tests play: the minimal test kind, a sealed-bid auction (`tests.kinds.auction`).

A test of the host (the clock, WAIT, a late mail, ROLLBACK, passwords, publication...) needs *some*
game, not Payola: played on the auction, it breaks when the host breaks, not when a game's rules or
wording change, and it reads as the host's behaviour.  The auction is small: a phase is a lot (``L1``,
``L2``...), each player's one line is ``BID n``, the phase closes once every player has bid.

`start_auction` creates game g1 by mail through the real applier (gm@example.org its master, password
gm-secret), joins its players (`SEATS`: Alice, Bob, Carol at alice@, bob@, carol@example.org, passwords
alice-pw...) and starts it, played once per test process (`harness.once`); `send`, `bid` and `master`
send a seat's or the master's lines, signed on; `state` reads the game's state and phase.  The judge
must host the test kinds: `auction_judge(tmp_path)`, or the fixture ``auction`` (g1 under way between
Alice and Bob, its mail read)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import select

from judge.store.models import Game
from tests.kinds.registry import with_test_kinds
from tests.support.harness import Judge, Sent, once
from tests.support.people import ALICE, BOB, CAROL, GM

GAME = "g1"
MASTER = f"SIGNON MASTER@{GAME} gm-secret"  # the game master's sign-on line in g1
HOURS = 24.0  # a lot's length: the auction's default (``SET LOT hours``)


@dataclass(frozen=True)
class Seat:
    """A player of the auction: the name it joins and plays under (its seat), its address, its password."""

    name: str
    address: str
    password: str

    def signon(self, game: str = GAME) -> str:
        return f"SIGNON {self.name}@{game} {self.password}"


SEATS = (Seat("Alice", ALICE, "alice-pw"), Seat("Bob", BOB, "bob-pw"), Seat("Carol", CAROL, "carol-pw"))


def seat(name: str) -> Seat:
    """The seat of `SEATS` named ``name``."""
    return next(found for found in SEATS if found.name == name)


def auction_judge(data_dir: Path, **settings: Any) -> Judge:
    """A judge on ``data_dir`` hosting the judge's kinds and the test kinds (`tests.kinds.registry`)."""
    return Judge(data_dir, kinds=with_test_kinds(), **settings)


def start_auction(judge: Judge, game: str = GAME, players: int = 2, options: str = "") -> Judge:
    """``judge`` with auction ``game`` created by gm@example.org (gm-secret) with ``options`` at CREATE
    ("LOTS=5": five phases), the first ``players`` of `SEATS` joined, and started (its first phase L1);
    the mail it caused is left unread.  Played once per test process on a pristine judge (`once`)."""
    return once(judge, _start_auction, game, players, options)


def _start_auction(judge: Judge, game: str, players: int, options: str) -> None:
    judge.send(GM, f"CREATE {game} gm-secret auction {options}".strip())
    for player in SEATS[:players]:
        judge.send(player.address, f"JOIN {game} {player.password} {player.name}")
    judge.send(GM, f"SIGNON MASTER@{game} gm-secret\nSTART")


def send(judge: Judge, name: str, *lines: str, game: str = GAME, **mail: Any) -> Sent:
    """``lines`` from the player of seat ``name``, signed on to ``game``; the judge's reply to it (not the
    results it may have caused).  ``mail``: `Judge.send`'s subject, headers..."""
    player = seat(name)
    judge.send(player.address, "\n".join((player.signon(game), *lines)), **mail)
    return _reply_to(judge, player.address)


def bid(judge: Judge, name: str, amount: int, game: str = GAME) -> Sent:
    """Seat ``name``'s ``BID amount`` on the lot on sale; the reply."""
    return send(judge, name, f"BID {amount}", game=game)


def master(judge: Judge, *lines: str, game: str = GAME) -> Sent:
    """``lines`` from the game master of ``game``, signed on; the judge's reply to it."""
    judge.send(GM, "\n".join((f"SIGNON MASTER@{game} gm-secret", *lines)))
    return _reply_to(judge, GM)


def every_bid(judge: Judge) -> None:
    """Alice, Bob and Carol (all three seated: ``players=3``) each bid on lot 1, closing L1."""
    for name, amount in (("Alice", 20), ("Bob", 10), ("Carol", 5)):
        bid(judge, name, amount)


def to(mails: list[Sent], address: str) -> list[Sent]:
    """The mails of ``mails`` to ``address``."""
    return [m for m in mails if m.to == address]


def state(judge: Judge, game: str = GAME) -> tuple[str, str | None]:
    """``game``'s state and phase."""
    with judge.db.transaction() as session:
        found = session.scalars(select(Game).where(Game.name == game)).one()
        return found.state, found.phase


def _reply_to(judge: Judge, address: str) -> Sent:
    return [mail for mail in judge.all_mail() if mail.to == address and mail.subject.startswith("Re:")][-1]


def evening_player(game: int, seat: str) -> str:
    """The address of seat ``seat`` (alice, bob) of the evening's auction ``g<game>`` (`evening_of`)."""
    return f"{seat}{game}@example.org"


def evening_of(judge: Judge, games: int) -> None:
    """A deadline evening's games: auctions g0 ... g<games - 1> created by gm@example.org (gm-secret),
    each with its own two players (`evening_player`), started; for `once`."""
    for number in range(games):
        judge.send(GM, f"CREATE g{number} gm-secret auction")
        for seat in ("alice", "bob"):
            judge.send(evening_player(number, seat), f"JOIN g{number} {seat}-pw {seat.capitalize()}")
        judge.send(GM, f"SIGNON MASTER@g{number} gm-secret\nSTART")
