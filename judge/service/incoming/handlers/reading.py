"""What one mail's conversation reads of the games it acts on: who its lines act for (`Context`), the
games it names (each row locked until the transaction ends, read once for the transaction's mails:
`judge.service.hosting.host.Reads`), their seats and what is read once of their phase, and who an answer
about a game goes to.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from sqlalchemy import bindparam, select

from judge.language import gettext as _
from judge.service import mailbox
from judge.service.hosting import host
from judge.service.hosting.host import Reads
from judge.service.hosting.kinds import Kinds
from judge.service.hosting.turn import Said
from judge.service.incoming.handlers.answers import Answers
from judge.service.states import GameState
from judge.store.models import Game, Player

T = TypeVar("T")


def news(sentence: Callable[[], str]) -> Said:
    """A sentence for readers who may read other languages than the mail's writer (an announcement to a
    game's players and observers, a phase's preface, a notice to a seat's registered address), given as
    a function that writes it (``lambda: _("...", ...)``): written in English, the messages' language,
    while those mails are made of one text for all their readers; once they take a function called in
    each reader's language (`judge.service.hosting.turn.Said`), this gives the function itself."""
    return sentence


# A game's row, locked and read afresh: built once, as every sign-on runs it.
_GAME = (select(Game).where(Game.name == bindparam("name")).with_for_update()
         .execution_options(populate_existing=True))


@dataclass
class Context:
    """Who the lines act for: nobody, a seat of a game (``power``: its name), or a game's master
    (no seat)."""

    game: Game | None = None
    seat: str | None = None
    player: Player | None = None
    registered: str | None = None  # the seat's address when it signed on: it hears of every change
    # the seat's lines its game's kind acts on as a whole when they end, by the kind's own names:
    # (echo index, text) of each ("sheet" and "orders" in Payola)
    block: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    status_echoes: list[int] = field(default_factory=list)  # STATUS lines, answered when the block ends
    unfilled: int = 0  # the seat's lines left as its form gave them, dropped unread (`judge.service.outgoing.forms`)
    written: int = 0  # the seat's other lines, read

    @property
    def is_master(self) -> bool:
        return self.game is not None and self.seat is None


class Reading(Answers):
    """The games, seats and phases the mail acts on (`judge.service.hosting.turn.Acting`)."""

    kinds: Kinds
    context: Context
    touched: set[str]

    @property
    def reads(self) -> Reads:
        """What the transaction's mails read once (`Reads`): looked up each time, as a rollback
        drops it."""
        return Reads.of(self.session)

    def game_named(self, name: str) -> Game | None:
        """The game called ``name``, its row locked until the mail's transaction ends (and its
        public pages looked at once it has); read once per transaction (`Reads`)."""
        read = self.reads.games
        game = read.get(name.lower())
        if game is None:
            game = self.session.scalar(_GAME, {"name": name.lower()})
            if game is None:
                return None
            read[game.name] = game
        self.touched.add(game.name)
        return game

    def named_game(self, text: str, name: str) -> Game | None:
        """`game`, or None after answering the line that there is no such game."""
        game = self.game_named(name)
        if game is None:
            self.echo(text, "error", _("there is no game '{name}'", name=name), code="NO_SUCH_GAME")
        return game

    def named_seat(self, text: str, game: Game, word: str) -> str | None:
        """The seat ``word`` names in ``game``, or None after answering the line what is wrong."""
        try:
            return self.kinds.of(game).seat(self.session, game, word)
        except ValueError as exc:
            self.echo(text, "error", str(exc), code="NO_SUCH_SEAT")
            return None

    def seats(self, game: Game) -> dict[str, Player]:
        """`host.seats` of ``game``, read once per transaction (`Reads`) once the game has started:
        from then on its seats keep their player rows (a seat changes hands by a change of its
        row, which is the same object for the whole session), so the dict stays true."""
        if game.state == GameState.FORMING:
            return host.seats(self.session, game)
        seats = self.reads.seats
        if game.id not in seats:
            seats[game.id] = host.seats(self.session, game)
        return seats[game.id]

    def read_once(self, game: Game, what: str, read: Callable[[], T]) -> T:
        kept = self.reads.phase
        key = (game.id, game.phase or "", what)
        if key not in kept:
            kept[key] = read()
        found: T = kept[key]
        return found

    def master_of(self, game: Game) -> bool:
        """Whether the mail is signed on as the master of ``game`` (not of another game)."""
        return self.context.is_master and self.context.game is not None and self.context.game.id == game.id

    def reader_of(self, game: Game) -> str:
        """Who an answer about ``game`` goes to, as `host.who_played` and `host.who_plays` need it: the game's master
        (signed on as such, or answered at its address), one of its players (answered at a
        player's address), or anyone else.  The answer goes to the mail's reply address, so a
        forged From gains nothing; nor does another case or ``+tag`` of an address, which reaches the
        same mailbox (ruling H4)."""
        if self.master_of(game) or mailbox.same(self.mail.reply_to, game.gm_address):
            return "master"
        signed_on = self.context.game is not None and self.context.game.id == game.id
        if signed_on or any(mailbox.same(self.mail.reply_to, p.address) for p in host.players(self.session, game)):
            return "player"
        return "anyone"

    @property
    def game(self) -> Game | None:
        return self.context.game

    @property
    def seat(self) -> str | None:
        return self.context.seat

    @property
    def player(self) -> Player | None:
        return self.context.player
