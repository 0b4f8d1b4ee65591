"""A game of each kind the judge hosts, started by mail, for the tests of what the host does alike
for every kind (WAIT, a late mail, a CHECK, HELP): who plays it, the first phase and the lines that
complete it, the next phase and a line that a seat may send in it, read the same way whatever the
kind (a `Submission` row of the seat for the phase)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import select

from judge.bootstrap import kinds
from judge.service.hosting.kinds import Kinds
from judge.store.models import Game, Submission
from tests.games.exchange.by_mail import exchange_game
from tests.games.payola.by_mail import start
from tests.games.pirates.by_mail import FOUR, pirates_game
from tests.kinds.registry import with_test_kinds
from tests.support import auction
from tests.support.harness import Judge, Sent, once
from tests.support.people import ALICE, BOB, CAROL, GM


@dataclass(frozen=True)
class Seat:
    """A seat of the game: its name as the host keeps it, its player's address and sign-on line, and
    the seat as answers write it."""

    name: str
    address: str
    signon: str
    title: str


@dataclass(frozen=True)
class Kind:
    """A game of one kind under way in its first phase (`begin`), as the tests play it."""

    name: str
    game: str
    master: str  # the game master's sign-on line
    seats: tuple[Seat, ...]
    first: str  # the first phase, its deadline ``hours`` after the start
    hours: float
    sent: tuple[str, ...]  # each seat's line that sends its part of the first phase ("": none to send)
    second: str  # the phase after the first
    later: str  # a line the first seat may send in the second phase, kept as its submission
    build: Callable[[Judge], None]

    def judge(self, data_dir: Path, **settings: Any) -> Judge:
        """A judge on ``data_dir`` hosting the kind: the judge's own kinds, and the test kinds
        (`tests.kinds.registry`) for a kind of the tests."""
        own = self.name in {kind.name for kind in kinds()}
        return Judge(data_dir, kinds=None if own else with_test_kinds(), **settings)

    def begin(self, judge: Judge) -> Judge:
        """``judge`` with the game started, its mail read (played once per test process: `once`)."""
        return once(judge, self.build)

    def first_played(self, judge: Judge) -> Judge:
        """``judge`` with the game started (`begin`) and its first phase played at its deadline, every seat
        having sent its part (``sent``)."""
        self.begin(judge)
        for seat, line in enumerate(self.sent):
            if line:
                self.send(judge, seat, line)
        judge.later(self.hours + 1)
        judge.tick()
        return judge

    def send(self, judge: Judge, seat: int, *lines: str, **kwargs: object) -> Sent:
        """``lines`` from seat ``seat``, signed on; the judge's answer (not the results it may cause)."""
        who = self.seats[seat]
        judge.send(who.address, "\n".join((who.signon, *lines)), **kwargs)  # type: ignore[arg-type]
        return [mail for mail in judge.all_mail() if mail.to == who.address and mail.subject.startswith("Re:")][-1]

    def as_master(self, judge: Judge, *lines: str) -> Sent:
        judge.send(GM, "\n".join((self.master, *lines)))
        return judge.last_to(GM)

    def phase(self, judge: Judge) -> str | None:
        with judge.db.transaction() as session:
            return session.scalars(select(Game.phase).where(Game.name == self.game)).one()

    def kept(self, judge: Judge, phase: str, seat: int = 0) -> list[str]:
        """The kinds of submission seat ``seat`` has in ``phase`` (its WAIT apart), oldest first."""
        with judge.db.transaction() as session:
            game = session.scalars(select(Game).where(Game.name == self.game)).one()
            return list(session.scalars(select(Submission.kind).where(
                Submission.game_id == game.id, Submission.phase == phase, Submission.seat == self.seats[seat].name,
                Submission.kind != "wait").order_by(Submission.id)))


def _payola(judge: Judge) -> None:
    start(judge)


def _exchange(judge: Judge) -> None:
    exchange_game(judge, "ex")
    judge.new_mail()


def _machiavelli(judge: Judge) -> None:
    judge.send(GM, "CREATE m1 gm-pw machiavelli")
    for country, name in (("Florence", "ann"), ("Milan", "bob"), ("Venice", "cy")):
        judge.send(f"{name}@example.org", f"JOIN m1 pw-{name} {country}")
    judge.send(GM, "SIGNON MASTER@m1 gm-pw\nSTART")
    judge.new_mail()


def _pirates(judge: Judge) -> None:
    pirates_game(judge, FOUR)
    judge.new_mail()


PAYOLA = Kind("payola", "g1", "SIGNON MASTER@g1 gm-secret",
              (Seat("FRANCE", ALICE, "SIGNON F@g1 alice-pw", "France"),
               Seat("GERMANY", BOB, "SIGNON G@g1 bob-pw", "Germany"),
               Seat("ENGLAND", CAROL, "SIGNON E@g1 carol-pw", "England")),
              "S1901M", 48, ("2 : A PAR - BUR", "2 : A MUN - RUH", "1 : F LON - NTH"), "F1901M", "1 : F BRE - MAO",
              _payola)
EXCHANGE = Kind("exchange", "ex", "SIGNON MASTER@ex gm-pw",
                tuple(Seat(name, f"{name.lower()}@example.org", f"SIGNON {name}@ex pw-{name.lower()}", name)
                      for name in ("ANN", "BOB", "CAT")),
                "W1900X", 48, ("PASS", "PASS", "PASS"), "S1901M", "1 : A PAR - BUR", _exchange)
MACHIAVELLI = Kind("machiavelli", "m1", "SIGNON MASTER@m1 gm-pw",
                   tuple(Seat(country, f"{name}@example.org", f"SIGNON {country}@m1 pw-{name}", country)
                         for country, name in (("Florence", "ann"), ("Milan", "bob"), ("Venice", "cy"))),
                   "SP1454A", 72, ("pay A flo", "pay A mil", "pay G ven"), "SP1454C", "A flo - pst", _machiavelli)
PIRATES = Kind("pirates", "pp", "SIGNON MASTER@pp gm-pw",
               tuple(Seat(name, f"{name.lower()}@example.org", f"SIGNON {name}@pp pw-{name.lower()}", name)
                     for name in FOUR),
               "D1", 24, ("", "", "", ""), "V1", "MOVE", _pirates)


def _auction(judge: Judge) -> None:
    auction.start_auction(judge, players=3)
    judge.new_mail()


AUCTION = Kind("auction", auction.GAME, auction.MASTER,
               tuple(Seat(seat.name, seat.address, seat.signon(), seat.name) for seat in auction.SEATS),
               "L1", auction.HOURS, ("BID 10", "BID 20", "BID 30"), "L2", "BID 5", _auction)
"""The test kind (`tests.support.auction`), for a test of the host alone: its judge hosts the test kinds
(`auction.auction_judge`)."""

GAMES = {kind.name: kind for kind in (PAYOLA, EXCHANGE, MACHIAVELLI, PIRATES, AUCTION)}
"""The game of each kind, by the kind's name: a kind hosted with none fails a test (`missing`)."""


def missing(hosted: Kinds) -> list[str]:
    """The kinds of ``hosted`` that have no game here: each would go untested by the host's tests."""
    return [kind.name for kind in hosted if kind.name not in GAMES]


KINDS = tuple(GAMES[kind.name] for kind in kinds() if kind.name in GAMES)
"""A game of each kind the judge hosts (`judge.bootstrap.HOSTED`), in the registry's order."""
TESTED = tuple(GAMES[kind.name] for kind in with_test_kinds() if kind.name in GAMES)
"""A game of each kind a judge hosting the test kinds hosts (`tests.kinds.registry`): the judge's own
and the example kind, each on its own judge (`Kind.judge`)."""
EARLY = tuple(game for game in TESTED if with_test_kinds().named(game.name).closes_early)
"""The kinds whose phases may close before their deadline (not Pirates' Proposal's, P10)."""
