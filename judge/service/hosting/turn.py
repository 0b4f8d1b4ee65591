"""What a kind of game may do while one mail is applied: the `Turn` the host hands it.

A kind's handlers and its `judge.service.hosting.kinds.Commands` methods get a turn, never the host's
conversation (`judge.service.incoming.handlers.conversation.Conversation`, which implements this): the
transaction and the moment, who the lines act for, the reply's lines (answered by index: a kind
marks its own lines, never touches another's), the seat's block of lines of the mail, the
mail's budget (attachments, mails it causes, announcements) and what the mails of the
transaction have read once: what the kinds use, and no more (the host's own handlers have the
whole conversation).  Everything else of the host a kind reaches through its
services (`judge.service.hosting.host`, `outbox`, `render`, ...), with the turn's session.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Protocol, TypeVar

from sqlalchemy.orm import Session

from judge.language import SOURCE, reading
from judge.mail.outbound import Attachment
from judge.service.config import Settings
from judge.store.models import Game, Player

T = TypeVar("T")
Line = tuple[int, str]
"""A line of a seat's block: its index among the reply's answers, and its text as written."""
Said = str | Callable[[], str]
"""A sentence for readers who may read different languages: a text (the same for all of them), or a
function that writes it, called once per reader's language inside that language (`judge.language.reading`),
as ``lambda: _("{seat} has resigned.", seat=title)``."""


def said(sentence: Said) -> str:
    """``sentence`` in the language being written in: a text as it is, a function called now."""
    return sentence if isinstance(sentence, str) else sentence()


def said_in_english(sentence: Said) -> str:
    """``sentence`` as the messages are written (English): what tells two sentences apart whatever
    language each reader reads them in (`Causing.announce` drops a line said again)."""
    if isinstance(sentence, str):
        return sentence
    with reading(SOURCE):
        return sentence()


class Acting(Protocol):
    """Who the mail's lines act for, and what it reads once for all of them."""

    session: Session
    settings: Settings
    now: datetime
    accepted: datetime
    """When the judge's mail server accepted the mail: its place among one seat's mail."""

    # -- who the lines act for --------------------------------------------------------------------

    @property
    def game(self) -> Game | None:
        """The game the lines are signed on to, if any."""
        ...

    @property
    def seat(self) -> str | None:
        """The seat signed on to (None: nobody, or the game master)."""
        ...

    @property
    def player(self) -> Player | None:
        """The seat's player row."""
        ...

    def seats(self, game: Game) -> dict[str, Player]:
        """``game``'s seats and their players, read once per transaction once it has started."""
        ...

    def master_of(self, game: Game) -> bool:
        """Whether the mail is signed on as the master of ``game``."""
        ...

    def reader_of(self, game: Game) -> str:
        """Who an answer about ``game`` goes to: "master", "player" or "anyone"."""
        ...

    def read_once(self, game: Game, what: str, read: Callable[[], T]) -> T:
        """What ``read`` reads of ``game``'s current phase, read once for all the mails of the
        transaction (and again once the phase changes or anything is rolled back).  ``what`` names it
        among the transaction's reads of the phase: the host's own are "submissions" and "current phase row"."""
        ...


class Answering(Protocol):
    """The reply: an answer to each line, what is attached."""

    def echo(self, text: str, outcome: str, message: str = "", extra: list[str] | None = None,
             code: str | None = None) -> int:
        """Answer a line (``outcome``: ok, error, ignored, info; ``code``: why, as a name that stays when the
        message is reworded, e.g. NO_DRAW); returns its index."""
        ...

    def mark(self, index: int, outcome: str | None = None, message: str | None = None,
             code: str | None = None) -> None:
        """Change the answer at ``index`` (one of this kind's own lines): its outcome, its message, its code."""
        ...

    def note(self, index: int, lines: Sequence[str], *, replace: bool = False) -> None:
        """Add ``lines`` under the answer at ``index`` (or put them instead of those it has)."""
        ...

    def outcome(self, index: int) -> str:
        """The outcome of the answer at ``index``."""
        ...

    def message(self, index: int) -> str:
        """The message of the answer at ``index``."""
        ...

    def answer_long(self, text: str, filename: str, body: str, what: str, more: str = "",
                    game: Game | None = None) -> None:
        """Answer ``text`` with ``body``: in the reply, or attached if it is long; about ``game``,
        with its moments in the zone its reader reads that game in."""
        ...

    def attach(self, files: Sequence[Attachment]) -> bool:
        """Attach ``files`` to the reply, unless they would take it over its limit."""
        ...

    def too_big(self, size: int) -> str:
        """Why an answer of ``size`` bytes was not attached."""
        ...


class Holding(Protocol):
    """The seat's block of lines, acted on as a whole when its lines end (`Commands.close_block`)."""

    def hold(self, name: str, text: str) -> int:
        """Answer ``text`` as taken, and keep it in the seat's block ``name`` (a sheet, orders, a
        plan), which the kind acts on as a whole when the seat's lines end (`close_block`)."""
        ...

    def block(self, name: str) -> list[Line]:
        """The lines of the seat's block ``name`` so far, in order (empty: none)."""
        ...

    def drop_blocks(self) -> None:
        """Forget the seat's blocks so far (CLEAR)."""
        ...

    def superseded(self, since: datetime | None, what: str) -> str | None:
        """Why this mail may not set ``what``: a later mail, accepted at ``since``, set it already."""
        ...

    def set_aside(self, block: Sequence[Line], why: str, code: str = "SUPERSEDED") -> None:
        """Answer the lines of a block not applied as a whole, the last one saying ``why`` (``code``: why, as a
        name; by default a later mail set it already, `superseded`)."""
        ...


class Causing(Protocol):
    """What the mail causes beyond its reply: mails and announcements, and the game master's
    confirmation of what cannot be undone."""

    def send(self, *, to: str, subject: str, body: str, kind: str, game_id: int | None = None) -> bool:
        """Queue a mail, unless the mail has caused as many as it may (False then)."""
        ...

    def announce(self, what: Said, also: str | None = None, game: Game | None = None, master: bool = True,
                 public: bool = False, observers: Said | None = None) -> None:
        """Tell every player of the game (``public``: and its observers; ``observers``: what they
        are told instead) ``what`` happened.  Each reader's mail is written in that reader's
        language: a sentence made by a function (`Said`) is written in it; a text stays as given."""
        ...

    def confirmed(self, text: str, word: str, code: str | None, what: str) -> bool:
        """Whether the game master's line confirms a command that cannot be undone."""
        ...


class Turn(Acting, Answering, Holding, Causing, Protocol):
    """One mail being applied, as a kind of game sees it: each concern its own protocol above."""
