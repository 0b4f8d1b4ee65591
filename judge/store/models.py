"""The host's database tables (SQLAlchemy 2), created and upgraded only by the migrations in
``migrations/``.  Each kind of game keeps what it needs beyond them in its own tables
(``judge/games/<kind>/store.py``, on the same `Base`, their names starting with the kind's).

Every mail that arrives is kept raw in ``inbound_mail`` before anything else happens, and
every mail the judge sends is first an ``outbox`` row written in the same transaction as the
change that caused it (what the message is made of: the sender builds the message itself;
its attachments' bytes are kept once in ``blobs``, however many mails carry them).
Each hot-path query has an index, so its cost does not grow with the judge's history.  Times
are naive UTC.
"""

from __future__ import annotations

import functools
import zlib
from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    pass


class Game(Base):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(40), unique=True)
    # Which game it is (`judge.games`): payola, pirates.  The kind reads what follows as its own.
    kind: Mapped[str] = mapped_column(String(16), default="payola", server_default="payola")
    # A Payola game's board; a kind without boards names itself here (``pirates``).
    variant: Mapped[str] = mapped_column(String(40), default="standard")
    options: Mapped[list[str]] = mapped_column(JSON, default=list)
    state: Mapped[str] = mapped_column(String(16), default="forming")  # forming, active, paused, finished
    gm_address: Mapped[str] = mapped_column(String(320), index=True)  # CREATEs per address and day
    gm_password: Mapped[str] = mapped_column(String(200))  # scrypt hash, never the password
    seed: Mapped[int] = mapped_column(Integer)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    phase: Mapped[str | None] = mapped_column(String(10), nullable=True)
    deadline: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    winner: Mapped[str | None] = mapped_column(String(20), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, index=True)  # CREATEs per hour
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)  # a deadline run holds it
    # while a deadline run holds it: the process that claimed it, "host pid N started T"
    # (judge.service.claimants.claimant); a claim of a process of this machine that has ended is taken at once
    claimed_by: Mapped[str | None] = mapped_column(String(200), nullable=True)
    # The next moment the clock has something to do for the game (a reminder, a late notice, the
    # deadline and grace); None when nothing (not active, no deadline).  Kept by judge.service.hosting.schedule.
    next_due: Mapped[datetime | None] = mapped_column(DateTime, nullable=True, index=True)
    # CPU seconds a seat its last deadline run that processed a phase took (maps and pages included),
    # by which the clock orders the games due in the same minute (judge.service.running.app.claim_next).
    run_cost: Mapped[float | None] = mapped_column(Float, nullable=True)


class Player(Base):
    """A seat in a game: who plays (or played) it, and how they sign on.  ``seat`` is the seat's
    name once the game has started, as the game's kind names its seats (a power of a board, a
    player's own name: ``requested`` holds what JOIN asked for until the start).  What a kind
    keeps of a seat beyond this is in its own tables."""

    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    seat: Mapped[str | None] = mapped_column(String(20), nullable=True)
    requested: Mapped[str | None] = mapped_column(String(20), nullable=True)
    address: Mapped[str | None] = mapped_column(String(320), nullable=True)
    password: Mapped[str | None] = mapped_column(String(200), nullable=True)
    dummy: Mapped[bool] = mapped_column(Boolean, default=False)
    resigned: Mapped[bool] = mapped_column(Boolean, default=False)
    joined_at: Mapped[datetime] = mapped_column(DateTime)
    # The seats wanted, best first (JOIN ... PREFER), read at the start; None: no preference.
    preferences: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)
    zone: Mapped[str | None] = mapped_column(String(64), nullable=True)  # SET MYZONE; None: the game's zone


class PhaseRow(Base):
    """One phase of a game: what it starts from and, once processed, what happened, each in the
    kind's own JSON (``position``, ``result``); what else a kind keeps of a phase is in its own
    tables."""

    __tablename__ = "phases"
    __table_args__ = (UniqueConstraint("game_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    name: Mapped[str] = mapped_column(String(10))
    position: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default="open")  # open, processed
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    notices: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)  # reminder / late notices sent
    opened_at: Mapped[datetime] = mapped_column(DateTime)
    processed_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class Submission(Base):
    """What a seat sends for a phase, of one ``kind`` of the game's (a Payola power's offer sheet
    or orders, a Pirates' Proposal plan or ballot...), as text and as the kind read it; the latest
    of a seat and kind is in force.  A mail older than the one that sent it (by when the judge's
    mail server accepted each: ``accepted_at``) adds none (`Conversation.superseded`)."""

    __tablename__ = "submissions"
    __table_args__ = (Index("ix_submissions_lookup", "game_id", "phase", "seat", "kind"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    phase: Mapped[str] = mapped_column(String(10))
    seat: Mapped[str] = mapped_column(String(20))
    kind: Mapped[str] = mapped_column(String(16))  # the game's kind of submission
    text: Mapped[str] = mapped_column(Text)
    parsed: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime)
    accepted_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)  # None: before migration 0012


class InboundMail(Base):
    """Every mail received, raw, stored before it is acknowledged.  Its ``message_id`` is read
    when it is applied (storing does not parse the mail)."""

    __tablename__ = "inbound_mail"

    id: Mapped[int] = mapped_column(primary_key=True)
    message_id: Mapped[str | None] = mapped_column(String(500), nullable=True, index=True)
    envelope_from: Mapped[str | None] = mapped_column(String(320), nullable=True)
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    received_at: Mapped[datetime] = mapped_column(DateTime)
    processed_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    # new, applying (inside the transaction that applies it), done, duplicate, automatic, quarantined
    status: Mapped[str] = mapped_column(String(20), default="new", index=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    # SHA-256 of its sender and command text, passwords masked (`judge.service.incoming.handlers.mail`):
    # a later mail with the same Message-ID is a duplicate only if it has the same digest
    digest: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # the game (or address) it is about, written once by the judge that read it first; NULL until then
    topic: Mapped[str | None] = mapped_column(String(400), nullable=True)


class IntakeMark(Base):
    """How far mail has been taken in from an intake file (`judge.service.incoming.intake`): every row of
    the file ``epoch`` up to ``taken`` is in ``inbound_mail``."""

    __tablename__ = "intake_marks"

    epoch: Mapped[str] = mapped_column(String(32), primary_key=True)
    taken: Mapped[int] = mapped_column(Integer)


class Outbox(Base):
    """A mail to send, written in the transaction of the change that caused it: what its message
    is made of, built by the sender (`judge.service.outgoing.outbox.message_of`).  A row queued before
    migration 0006 has its message in ``raw`` instead."""

    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_due", "status", "next_attempt_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), nullable=True)
    recipient: Mapped[str] = mapped_column(String(320))
    subject: Mapped[str] = mapped_column(String(300))
    kind: Mapped[str] = mapped_column(String(20))
    sender: Mapped[str | None] = mapped_column(String(400), nullable=True)  # the From
    message_id: Mapped[str | None] = mapped_column(String(300), nullable=True)  # <...>, fixed when queued
    in_reply_to: Mapped[str | None] = mapped_column(String(300), nullable=True)  # the mail answered
    refs: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)  # its References: the thread
    body: Mapped[str | None] = mapped_column(Text, nullable=True)
    raw: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)  # only rows from before 0006
    created_at: Mapped[datetime] = mapped_column(DateTime)
    status: Mapped[str] = mapped_column(String(16), default="pending", index=True)  # pending, sending, sent, failed
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    # deferred until (None: at once); while sending: when it was claimed (judge.service.outgoing.sender)
    next_attempt_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    # while sending: the process that claimed it, "host pid N started T" (judge.service.claimants.claimant)
    claimed_by: Mapped[str | None] = mapped_column(String(200), nullable=True)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    last_error: Mapped[str | None] = mapped_column(Text, nullable=True)
    files: Mapped[list[OutboxFile]] = relationship(order_by="OutboxFile.id", cascade="all, delete-orphan")


class OutboxFile(Base):
    """A file attached to an outbox row's message (a map, a chart), in the order attached: its
    name and type, and its bytes as a :class:`Blob`, which every mail carrying them shares."""

    __tablename__ = "outbox_files"

    id: Mapped[int] = mapped_column(primary_key=True)
    outbox_id: Mapped[int] = mapped_column(ForeignKey("outbox.id"), index=True)
    filename: Mapped[str] = mapped_column(String(200))
    content_type: Mapped[str] = mapped_column(String(100))
    # the blobs no file uses are dropped; the key named as migration 0011 names it, which its way back drops
    sha256: Mapped[str] = mapped_column(ForeignKey("blobs.sha256", name="fk_outbox_files_sha256_blobs"), index=True)
    blob: Mapped[Blob] = relationship()


class Blob(Base):
    """The bytes of an attachment, stored once however many mails carry them (a phase's maps go
    to every player, observer and the game master): keyed by their SHA-256, in hex.  ``data``
    is loaded only when asked for: queueing a mail needs to know only that the bytes are there."""

    __tablename__ = "blobs"

    sha256: Mapped[str] = mapped_column(String(64), primary_key=True)  # of the attachment's bytes
    data: Mapped[bytes] = mapped_column(LargeBinary, deferred=True)  # as stored: see ``encoding``
    encoding: Mapped[str | None] = mapped_column(String(8), nullable=True)  # "zlib", or None: the bytes as they are

    @functools.cached_property
    def content(self) -> bytes:
        """The attachment's bytes, whatever way they are stored (`judge.service.outgoing.outbox.blob`):
        unpacked once an instance, and a session has one instance of a blob, so a batch of the
        sender's mails that carry the same map unpacks it once (a blob's bytes never change)."""
        return zlib.decompress(self.data) if self.encoding == "zlib" else self.data


class SignonFailure(Base):
    """A refused sign-on (or JOIN key), kept for the back-off: per seat (game and power, MASTER,
    or KEY for a private game's join key) and per source (`judge.mail.received.Source`)."""

    __tablename__ = "signon_failures"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), nullable=True)
    who: Mapped[str | None] = mapped_column(String(20), nullable=True)  # a power, MASTER, KEY, or None (no such seat)
    sender: Mapped[str] = mapped_column(String(320))  # the From, for the seat's owner to read
    # IP address and envelope sender; the database's default as migration 0009's, for the rows it kept
    source: Mapped[str] = mapped_column(String(400), index=True, default="", server_default="")
    network: Mapped[str | None] = mapped_column(String(50), nullable=True)  # the IPv4 address or IPv6 /64
    at: Mapped[datetime] = mapped_column(DateTime)

    __table_args__ = (Index("ix_signon_failures_seat", "game_id", "who"),)


class Signon(Base):
    """A source that signed on to a seat, once per seat and source: the game master hears of a
    takeover from a source that plays another power of the game."""

    __tablename__ = "signons"
    __table_args__ = (UniqueConstraint("game_id", "who", "source"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    who: Mapped[str] = mapped_column(String(20))
    source: Mapped[str] = mapped_column(String(400))
    network: Mapped[str | None] = mapped_column(String(50), nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime)


class Confirmation(Base):
    """A request that would make an address receive a game's mail (CREATE, JOIN, OBSERVE,
    TAKEOVER, SET ADDRESS), waiting for that address to send ``CONFIRM token``."""

    __tablename__ = "confirmations"

    id: Mapped[int] = mapped_column(primary_key=True)
    token: Mapped[str] = mapped_column(String(40), unique=True)
    address: Mapped[str] = mapped_column(String(320), index=True)
    kind: Mapped[str] = mapped_column(String(16))  # create, join, observe, takeover, address
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), nullable=True)  # none for CREATE
    details: Mapped[dict[str, Any]] = mapped_column(JSON)  # what the request needs (password hashes, never passwords)
    created_at: Mapped[datetime] = mapped_column(DateTime)


class ConfirmedAddress(Base):
    """An address that has confirmed it wants the judge's mail (`Confirmation`)."""

    __tablename__ = "confirmed_addresses"

    address: Mapped[str] = mapped_column(String(320), primary_key=True)
    confirmed_at: Mapped[datetime] = mapped_column(DateTime)


class Observer(Base):
    """An address that receives a game's public results (OBSERVE)."""

    __tablename__ = "observers"
    __table_args__ = (UniqueConstraint("game_id", "address"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    address: Mapped[str] = mapped_column(String(320))
    created_at: Mapped[datetime] = mapped_column(DateTime)


class GreyPress(Base):
    """Who sent a grey press, and to whom: its readers never learn it while the game runs, and the
    end publishes it (`judge.service.hosting.course.publish`, ruling M63)."""

    __tablename__ = "grey_press"
    __table_args__ = (Index("ix_grey_press_game", "game_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    phase: Mapped[str | None] = mapped_column(String(40), nullable=True)
    sent_at: Mapped[datetime] = mapped_column(DateTime)
    author: Mapped[str] = mapped_column(String(60))  # the seat that sent it
    readers: Mapped[list[str]] = mapped_column(JSON)  # the seats it went to, "MASTER" for the game master


class Absence(Base):
    """A seat's absence: no deadline of the game falls inside it once approved."""

    __tablename__ = "absences"
    __table_args__ = (Index("ix_absences_game", "game_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    seat: Mapped[str] = mapped_column(String(20))
    start: Mapped[date] = mapped_column(Date)
    end: Mapped[date] = mapped_column(Date)
    status: Mapped[str] = mapped_column(String(16), default="pending")  # pending, approved, denied
    created_at: Mapped[datetime] = mapped_column(DateTime)


class AheadBlock(Base):
    """A seat's lines kept for a later phase of its game (``PHASE <later phase>``), read as
    if they arrived when that phase opens (`judge.service.incoming.handlers.ahead`): one per game, seat and
    phase, a later mail's block replacing it; ``message_id``: the mail that sent it."""

    __tablename__ = "ahead_blocks"
    __table_args__ = (UniqueConstraint("game_id", "seat", "phase", name="uq_ahead_blocks_seat_phase"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    seat: Mapped[str] = mapped_column(String(20))
    phase: Mapped[str] = mapped_column(String(10))
    text: Mapped[str] = mapped_column(Text)
    message_id: Mapped[str | None] = mapped_column(String(500), nullable=True)
    accepted_at: Mapped[datetime] = mapped_column(DateTime)  # when the judge's mail server accepted its mail


class RatingRow(Base):
    """A person's rating (``person``: a mailbox, H4) in one kind of game (``kind``; ``""``: every
    kind), as openskill keeps it (`judge.service.rating`): ``mu``, ``sigma`` and the games rated."""

    __tablename__ = "ratings"

    person: Mapped[str] = mapped_column(String(320), primary_key=True)
    kind: Mapped[str] = mapped_column(String(20), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)


class RatedGame(Base):
    """A finished game the ratings count (`judge.service.hosting.ratings`), and when it ended: the
    games are rated in that order."""

    __tablename__ = "rated_games"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    ended_at: Mapped[datetime] = mapped_column(DateTime)


class Secret(Base):
    """A secret of the judge, made by the migration that added it and shared by every process
    on the database: ``verp`` keys the tags of the judge's bounce addresses (`judge.mail.dsn`)."""

    __tablename__ = "secrets"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))


class ReplyLimit(Base):
    """How much the judge has answered one address lately, so that no robot draws it into a
    mail loop (`judge.service.incoming.handlers.mail`): answers wanted since ``hour_start``, and when
    it last answered a mail with no command."""

    __tablename__ = "reply_limits"

    address: Mapped[str] = mapped_column(String(320), primary_key=True)
    hour_start: Mapped[datetime] = mapped_column(DateTime)
    replies: Mapped[int] = mapped_column(Integer)
    idle_answered_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class Heartbeat(Base):
    """When something that runs by itself last ran (``tick``: the deadline clock), and where
    (host and process), for ``judge status``."""

    __tablename__ = "heartbeats"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime)
    by: Mapped[str] = mapped_column(String(200))


class PlayerRecord(Base):
    """One line of an address's record on this judge (`judge.service.hosting.records`): a phase it was due
    to act in, and whether it acted on time (``on_time``), late (``late``, in the grace or an
    automatic extension) or not at all (``missed``); a seat it left silent until the judge declared
    it ``abandoned``; a game it played to the end (``finished``).  The phases' lines of a phase a
    ROLLBACK goes back before are dropped (``phase_row``: the phase row's id, kept without a key,
    as that row may be dropped)."""

    __tablename__ = "player_records"
    __table_args__ = (Index("ix_player_records_address", "address", "at"), Index("ix_player_records_game", "game_id"))

    id: Mapped[int] = mapped_column(primary_key=True)
    address: Mapped[str] = mapped_column(String(320))
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    seat: Mapped[str] = mapped_column(String(20))
    phase: Mapped[str | None] = mapped_column(String(10), nullable=True)
    phase_row: Mapped[int | None] = mapped_column(Integer, nullable=True)
    what: Mapped[str] = mapped_column(String(16))  # on_time, late, missed, abandoned, finished
    at: Mapped[datetime] = mapped_column(DateTime)


class DeadlineRun(Base):
    """A run of a game's deadline that changed it (processed its phase, extended its deadline,
    sent notices, paused it): when, and the last mail applied before it (``after_mail``: the
    highest ``inbound_mail`` id settled then), so that a game's record replays its mail and its
    clock in the order they happened (`judge.service.operators.replay`)."""

    __tablename__ = "deadline_runs"
    __table_args__ = (Index("ix_deadline_runs_game", "game_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    at: Mapped[datetime] = mapped_column(DateTime)
    after_mail: Mapped[int] = mapped_column(Integer)
    what: Mapped[str] = mapped_column(String(200))  # the log's line of the run


class AddressPreference(Base):
    """What one mailbox (`judge.service.mailbox`: ``Bob@`` and ``bob+x@`` are one) chose for the mail it
    gets from the judge, in every game, whoever it is there (player, observer, game master): ``maps``,
    the pictures a game's mail carries (SET MAPS; none: the judge's ``maps-default``); ``form``, whether
    a mail that opens a phase for its seat ends with the form to fill (SET FORM; none: it does);
    ``language``, the language the judge writes to it in (SET LANGUAGE; none: the game's, else the
    judge's ``language-default``)."""

    __tablename__ = "address_preferences"

    mailbox: Mapped[str] = mapped_column(String(320), primary_key=True)
    maps: Mapped[str | None] = mapped_column(String(8), nullable=True)  # png, svg, all, none
    form: Mapped[bool | None] = mapped_column(Boolean, nullable=True)  # SET FORM OFF: False
    language: Mapped[str | None] = mapped_column(String(16), nullable=True)  # SET LANGUAGE it
    updated_at: Mapped[datetime] = mapped_column(DateTime)
