"""Storing a mail, and applying it exactly once: done, duplicate, automatic, or quarantined.

Theory of operation.  ``store`` keeps raw mails with one short insert in a transaction of their
own: that is what SMTP's 250 waits for, so it parses nothing (the Message-ID is read when the
mail is applied) and takes no longer than the write itself.  ``process_mail`` claims the stored
mail (``new`` → ``applying``, inside the transaction that applies it: a second processor waits
for that transaction and then finds the mail taken; a crash rolls the claim back) and applies it.
A mail that was applied before is not applied again (a sender that got no 250 in time sends it
again): one with the Message-ID, the sender and the command text (``digest``) of a mail applied
before.  The Message-ID alone would not do: anyone who saw a player's mail (a fellow player it
was copied to, a list) could send their own mail under its id first and have the player's
dropped, or reuse it later.  Mail applied before migration 0008 has no digest, so a copy of it
is applied again.  Automatic mail is recorded and never answered.

Order.  Mail is applied in the order the judge stores it, which is not always the order it was
sent: the judge's MTA, holding mail while the judge was down, delivers it afterwards in the
order of its queue files.  So a mail has a time, when it was accepted (`mail_time`: the
``Received:`` line of the judge's MTA with ``mta_hostname``, else when the judge stored it), and
what a seat sets that a later mail replaces (its offer sheet, orders, CLEAR, WAIT or NOWAIT,
acceptance list, vote) keeps the time of the mail that set it: a mail older than that does not
replace it, and its writer is told (`Conversation.superseded`).  Per seat, not per address: a
sheet is the power's, whoever writes it.  Mails of the same second (an MTA's line counts
seconds) keep their order of arrival.  The Date header is not used: it is the sender's clock,
and one mail dated a day ahead would make every later mail of the seat look older.  What a
later mail does not replace but adds to is done as it comes: a TRANSFER, press, RESIGN.  Two
TRANSFERs delivered out of order move the same money, unless the balance covers only one:
then the one that comes second is refused, saying so, and its writer may send it again.

Several processes.  Judges on one PostgreSQL database apply its mail together: each mail has a
*topic*, the game it is about (`topic`), written into its row once by the one judge that reads
it first (``inbound_mail.topic``), and a run of mail holds the topics whose mail it applies
(`Topics`: advisory locks), so that one game's mail is applied in arrival order by one process
at a time while other processes apply other games' mail.  A judge reads the raw mail only of
what it classifies and of the topics it holds: the work is shared, not repeated (`Runs`).

Mail loops.  A robot that ignores RFC 3834 answers every judge mail, and the judge would answer
each answer: one forged mail would start a loop that never ends.  Mail that says it is
automatic is never answered (`judge.mail.inbound`); for the rest, each mailbox answered (every
case and ``+tag`` of an address, ruling H4: `judge.service.mailbox`) has its counts
(``reply_limits``, `_may_answer`): a mail with no command at all (what a robot
writes) is answered once a day per address, and at most ``max_replies_per_hour`` answers go
to one address in an hour (logged once when the limit is reached).  Beyond either, the mail is
applied all the same, only not answered.

Whatever goes wrong while applying one mail ends with that mail *quarantined*: its transaction
is rolled back, it is marked ``quarantined`` with its error, the sender gets a short apology
(never a traceback), and the game master of the game it signs on to (or the judge's admin) is
told; then the next mail is applied.  Only the database itself failing (it cannot be reached,
or a concurrent transaction got in the way: ``RETRIED``) is tried again a few times first; if
it still cannot be used (an ``OperationalError``: down, busy, its disk full) the mail stays
``new`` for the next pass, as it does when even quarantining fails: nothing is wrong with the
mail.  A mail another process settled first is reported as such ("already done, by another
process"), so two judges never both log it done.  The public pages of the games a mail
touched are brought up to date after its transaction commits, so a page never shows a change
undone.

Passwords.  Once a mail is settled its stored copy keeps no password (`judge.mail.redact`),
and nothing the judge sends carries one from it: the mail's subject is masked before anything
reads it (the reply's Subject, a quarantine notice), and so is every line the answer echoes
(`Conversation.echo`).  Press alone goes out as written: it is the writer's own words to other
players, and a masked word there would tell them what the password is.  The raw copy that held
the password was written to disk before, so after a run that redacted one the SQLite WAL is
written back into the database and truncated (`Database.checkpoint`), without waiting if the
database is busy; with ``secure_delete`` (`judge.store.database`) the overwritten row leaves
nothing behind.  The one exception is a quarantined mail: it stays whole until the operator
applies it again (``judge quarantine retry``, once the cause is fixed: its sign-ons need their
passwords) or drops it (``judge quarantine drop``), and at most ``quarantine_days``: then the
deadline clock masks it (`mask_old_quarantine`).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from functools import partial
from typing import Any, NamedTuple, cast

from sqlalchemy import Row, String, Table, bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError, InternalError, OperationalError
from sqlalchemy.orm import QueryableAttribute, Session

from judge.commands import parse as cmd
from judge.language import SOURCE, reading
from judge.language import gettext as _
from judge.mail.inbound import InboundMail, parse_mail
from judge.mail.received import Source, client_address, vouched_for
from judge.mail.received import accepted_at as mta_accepted_at
from judge.mail.redact import masker, redact
from judge.service.config import Settings
from judge.service.hosting import schedule  # noqa: F401  (its flush hook keeps each game's next_due)
from judge.service.incoming.handlers import ahead
from judge.service.incoming.handlers.conversation import Conversation, reply_subject
from judge.service.incoming.handlers.signon import record_failure
from judge.service.mailbox import mailbox
from judge.service.outgoing import preferences
from judge.service.outgoing.outbox import queue
from judge.service.outgoing.sender import record_bounce
from judge.service.templates import render
from judge.store.database import Database
from judge.store.models import Confirmation, Game, ReplyLimit
from judge.store.models import InboundMail as InboundRow
from judge.web.pages import refresh

log = logging.getLogger("judge")

# A busy or unreachable database, a concurrent insert, or a session the server ended: PostgreSQL's
# idle_in_transaction_session_timeout (a judge cut off, then back) reaches psycopg as an InternalError
# (IdleInTransactionSessionTimeout, SQLSTATE 25P03), and the mail then is as good as before.
RETRIED = (OperationalError, IntegrityError, InternalError)
ATTEMPTS = 3
RUN = 32  # mails applied in one transaction at most (`apply_run`)
HOUR, DAY = timedelta(hours=1), timedelta(days=1)
NOT_COMMANDS = (cmd.GameLine, cmd.BadCommand, cmd.Unread, cmd.FormOpens,  # what a mail with no command holds
                cmd.FormEnds)
GAME_COMMANDS = (cmd.SignOn, cmd.Create, cmd.Join, cmd.Observe, cmd.Takeover)  # what names a mail's `topic`
WINDOW = 4 * RUN  # on PostgreSQL, the stored mails a run looks through for the mail of its topics
TOPICS_PER_RUN = 4  # on PostgreSQL, the topics one run takes at most (`Topics`)
TOPIC_LOCKS = 0x4D61696C  # the advisory locks' first key for topics ("Mail"); schema changes use one bigint key
MAIL_CHANNEL = "judge_mail"  # on PostgreSQL, what `store` notifies: every judge listening wakes (`Doorbell`)
CONFIRMING = "confirm "  # a mail's topic while it is the token of a CONFIRM (`topic`)
MAX_READ = 10 * WINDOW  # mails read and kept for a later run at most (`Runs.read`)
CLASSIFY = RUN  # on PostgreSQL, the mails one judge reads for their topics at once (`Runs.classify`)


def _length(column: QueryableAttribute[str | None]) -> int:
    """The length of a string column of the stored mail, as its table (and migration) says."""
    length = cast(String, column.type).length
    assert length is not None
    return length


TOPIC_SIZE = _length(InboundRow.topic)  # a longer topic (an address) is cut, which only joins two topics
MAX_ENVELOPE = _length(InboundRow.envelope_from)


def receive(db: Database, raw: bytes, now: datetime, envelope_from: str | None = None) -> int:
    """Store a raw mail (its own transaction) and return its id."""
    return store(db, [(raw, envelope_from)], now)[0]


_STORE = insert(InboundRow).returning(InboundRow.id, sort_by_parameter_order=True)
"""The mails stored, their ids in the order given (`store`)."""


def store(db: Database, mails: Sequence[tuple[bytes, str | None]], now: datetime) -> list[int]:
    """Store raw mails (each with its envelope sender) in one transaction, with one insert and
    no parsing; their ids, in order.  Several at once is how the daemon commits the mail of many
    SMTP sessions together."""
    rows = [{"raw": raw, "envelope_from": bounded_sender(envelope_from), "received_at": now, "status": "new"}
            for raw, envelope_from in mails]
    with db.urgent() as connection:
        inserted = list(connection.scalars(_STORE, rows))
        if connection.dialect.name == "postgresql":  # heard by every judge on the database at the commit
            connection.execute(_RING)
        return inserted


def mail_time(settings: Settings, raw: bytes, received_at: datetime) -> datetime:
    """When a stored mail was accepted: by the judge's MTA (the topmost ``Received:`` line, by
    ``settings.mta_hostname``) if that is earlier than ``received_at``, when the judge stored it;
    else ``received_at``.  Never the mail's Date: that is the sender's clock (see the module's
    header).  What orders a seat's mail (`Conversation.superseded`), however long it was held."""
    if settings.mta_hostname is None:
        return received_at
    by_mta = mta_accepted_at(raw, settings.mta_hostname)
    return received_at if by_mta is None else min(received_at, by_mta)


def accepted_at(settings: Settings, raw: bytes, received_at: datetime) -> datetime:
    """`mail_time`, though never more than ``max_lateness`` hours before ``received_at`` (a clock
    that was wrong): what says which deadline a mail came in time for (`judge.service.running.app`)."""
    return max(mail_time(settings, raw, received_at), received_at - timedelta(hours=settings.max_lateness))


def bounded_sender(envelope_from: str | None) -> str | None:
    """An envelope sender as stored: printable characters only, cut to the column's length."""
    if envelope_from is None:
        return None
    return "".join(c for c in envelope_from if c.isprintable())[:MAX_ENVELOPE]


def process_mail(db: Database, settings: Settings, mail_id: int, now: datetime) -> str:
    """Apply a stored mail; returns its final status (done, duplicate, automatic, quarantined),
    or its current one if another processor has it.  Raises only if the database cannot be used."""
    error: Exception | None = None
    for attempt in range(ATTEMPTS):
        try:
            status, touched, redacted = _apply(db, settings, mail_id, now)
        except RETRIED as exc:
            log.warning("mail %s: database error, attempt %d: %s", mail_id, attempt + 1, exc)
            error = exc
            time.sleep(0.05 * 4**attempt)
            continue
        except Exception as exc:
            log.exception("mail %s failed", mail_id)
            error = exc
            break
        if redacted:
            db.checkpoint()
        if touched and settings.web:
            refresh(db, settings, touched)  # the public pages, once the mail's changes are committed
        return status
    assert error is not None
    if isinstance(error, OperationalError):  # the database cannot be used (a full disk too): the mail waits
        raise error
    status = _quarantine(db, settings, mail_id, now, error)
    db.checkpoint()
    return status


def apply_run(db: Database, settings: Settings, mail_ids: Sequence[int], now: datetime) -> list[tuple[int, str]]:
    """`Runs.run` by a new `Runs`: for a caller that applies one pass of mail."""
    return Runs(db, settings).run(mail_ids, now)


class Runs:
    """Applies stored mail run by run in one process (a daemon's applier keeps one for its life),
    each mail read (parsed) once by it, however many runs it waits through.

    A run applies stored mails in arrival order, several in one transaction: one commit (one
    fsync) for the run instead of one per mail.  Each mail is applied in a savepoint of its own,
    so a mail that fails is undone alone and quarantined in the same transaction while the
    others stand.

    On SQLite (one judge) a run reads the first RUN mails of ``mail_ids`` before its transaction
    and applies them all: one transaction writes at a time.

    On PostgreSQL several judges share the mail, and each mail is read by as few of them as
    possible: reading (parsing) a mail costs about as much as applying it, and when every judge
    read every mail to learn its game, the CPU a mail cost grew with the number of judges.  So
    the work is in two steps, each owned by one judge at a time:

    * *classify* (`classify`): a judge takes the oldest stored mails whose topic nobody has
      written yet (``topic IS NULL``, ``FOR UPDATE SKIP LOCKED``: two judges take different
      mails), reads them, and writes each one's topic (`topic`, a CONFIRM's resolved by
      `confirmed_topics`) in one short transaction.  It keeps what it read for its own runs.
    * *apply*: a run lists the classified mails still ``new`` (ids and topics, no raw mail)
      that come before the first mail not yet classified, takes the topics of the oldest ones
      it can (`Topics`: at most TOPICS_PER_RUN, each an advisory lock for the transaction;
      a topic another judge holds is left to it, with every later mail of it), then reads the
      raw mail of those topics only (what it did not read when classifying) and applies it.

    Order: a run never goes past the first unclassified mail (its topic may be one the run
    holds: applying a later mail of that topic first would break arrival order), and it lists
    the mails and that limit in one statement (one snapshot).  The stored topic is the mail's
    for good: every judge, and `process_mail`, use it rather than reading the mail again.
    A run that applied mail and left some (its limit, or topics others hold) rings the other
    judges' doorbell as it commits (NOTIFY, `judge.service.running.daemon.Doorbell`): the topics it
    held are free again, and a judge that found every topic held waits for that, or for new
    mail, instead of polling.  A judge killed mid-run loses its advisory locks with its
    session; its classified mail is taken by the others' next runs (a classification it had
    not committed is rolled back and done again).
    """

    def __init__(self, db: Database, settings: Settings) -> None:
        self.db = db
        self.settings = settings
        self.read: dict[int, Read] = {}  # the stored mails read and not yet seen settled
        self.about: dict[int, str] = {}  # the game each mail the last run settled was about, for the log

    def run(self, mail_ids: Sequence[int], now: datetime) -> list[tuple[int, str]]:
        """Apply a run of ``mail_ids`` (at most RUN mails) and return the (id, status) of the
        mails it settled, in arrival order, which another process may have settled first; the
        others are for a later run.  If the database itself fails, the run is rolled back and
        the mails it had taken go through `process_mail` one by one (which retries)."""
        if not mail_ids:
            return []
        if self.db.engine.dialect.name != "postgresql":
            window = list(mail_ids[:RUN])
            settled = self._peek(window, now)
            return self._apply_run(settled, lambda _: [self.read[i] for i in window if i in self.read], now)
        settled = self.classify(now)
        unreadable: list[int] = []
        settled = self._apply_run(settled, partial(self._held_mail, set(mail_ids), max(mail_ids), settled,
                                                   unreadable), now)
        return sorted(settled + [(mail_id, process_mail(self.db, self.settings, mail_id, now))
                                 for mail_id in unreadable])

    def _apply_run(self, settled: list[tuple[int, str]], mail: Callable[[Session], list[Read]],
                   now: datetime) -> list[tuple[int, str]]:
        """Apply, in one transaction, the mail that ``mail`` gives in it (in arrival order)."""
        touched: set[str] = set()
        redacted = False
        taken: list[int] = []
        try:
            with self.db.transaction() as session:
                for each in mail(session):
                    taken.append(each.stored.id)
                    status, changed, masked = _apply_in(session, self.settings, each, now)
                    settled.append((each.stored.id, status))
                    touched |= changed
                    redacted |= masked
        except RETRIED as exc:
            if not taken:
                raise
            log.warning("mails %s to %s: database error, applying them one by one: %s", taken[0], taken[-1], exc)
            settled = [(mail_id, status) for mail_id, status in settled if mail_id not in taken]
            settled += [(mail_id, process_mail(self.db, self.settings, mail_id, now)) for mail_id in taken]
        finally:
            self.about = {mail_id: read.topic.removeprefix("game ") for mail_id, _about in settled
                          if (read := self.read.pop(mail_id, None)) is not None and read.topic.startswith("game ")}
        if redacted:
            self.db.checkpoint()
        if touched and self.settings.web:
            refresh(self.db, self.settings, touched)
        return sorted(settled)

    def _held_mail(self, wanted: set[int], last: int, settled: list[tuple[int, str]], unreadable: list[int],
                   session: Session) -> list[Read]:
        """PostgreSQL: in the run's transaction, the mail of ``wanted`` (up to ``last``) that the
        run takes: that of the oldest topics it can hold (`Topics`), read now if this process
        did not read it when classifying.  A mail settled meanwhile goes into ``settled``; one
        that cannot be read into ``unreadable``, for `process_mail` once the run's locks are gone."""
        listed = [(mail_id, about) for mail_id, about in session.execute(_CLASSIFIED, {"last": last})
                  if mail_id in wanted]
        topics = Topics(session)
        mine: list[tuple[int, str]] = []
        for mail_id, about in listed:
            if len(mine) == RUN:
                break  # no topic taken that this run would not apply
            if topics.take(about):
                mine.append((mail_id, about))
        unread = [mail_id for mail_id, _about in mine if mail_id not in self.read]
        if unread:
            gone, fresh, bad = _read_rows(session.execute(_PEEK, {"mail_ids": unread}))
            settled += gone
            unreadable += bad
            self.read.update((read.stored.id, read) for read in fresh)
        reads = []
        for mail_id, about in mine:
            if mail_id in self.read:
                self.read[mail_id] = self.read[mail_id]._replace(topic=about)
                reads.append(self.read[mail_id])
        if reads and len(listed) > len(mine):  # topics free again at the commit, or mail past this run's limit
            session.execute(_RING)
        return reads

    def classify(self, now: datetime) -> list[tuple[int, str]]:
        """Read the oldest mails nobody has classified yet (CLASSIFY of them at most, none that
        another process is classifying) and write each one's topic, in one transaction; keep
        what was read (`read`).  A mail that cannot be read gets a topic of its own and is
        quarantined (`process_mail`): the (id, status) of those."""
        with self.db.engine.connect() as connection:
            transaction = connection.begin()
            rows = connection.execute(_UNCLASSIFIED, {"most": CLASSIFY}).all()
            if not rows:
                transaction.rollback()  # nothing written: no commit
                return []
            _settled, fresh, unreadable = _read_rows(rows)  # all still new: FOR UPDATE, and no topic yet
            reads = [read._replace(topic=read.topic[:TOPIC_SIZE]) for read in confirmed_topics(self.db, fresh)]
            connection.execute(_CLASSIFY, [{"mail_id": read.stored.id, "about": read.topic} for read in reads]
                               + [{"mail_id": mail_id, "about": f"mail {mail_id}"} for mail_id in unreadable])
            transaction.commit()
        self.read.update((read.stored.id, read) for read in reads)
        if len(self.read) > MAX_READ:
            self.read = dict(list(self.read.items())[-MAX_READ // 2:])  # the oldest went to other processes
        return [(mail_id, process_mail(self.db, self.settings, mail_id, now)) for mail_id in unreadable]

    def _peek(self, window: list[int], now: datetime) -> list[tuple[int, str]]:
        """SQLite: read the mails of ``window`` not read yet (`read`); those already settled, with
        their status, and any that could not even be read, quarantined (`process_mail`)."""
        if len(self.read) > MAX_READ:
            self.read.clear()  # mails settled elsewhere since (by `process_mail`)
        unread = [mail_id for mail_id in window if mail_id not in self.read]
        if not unread:
            return []
        with self.db.engine.connect() as connection:  # a read: nothing to commit
            rows = connection.execute(_PEEK, {"mail_ids": unread}).all()
        settled, fresh, unreadable = _read_rows(rows)
        settled += [(mail_id, process_mail(self.db, self.settings, mail_id, now)) for mail_id in unreadable]
        self.read.update((read.stored.id, read) for read in confirmed_topics(self.db, fresh))
        found = {row.id for row in rows}
        return settled + [(mail_id, "missing") for mail_id in unread if mail_id not in found]


def _read_rows(rows: Iterable[Row[*tuple[Any, ...]]]) -> tuple[list[tuple[int, str]], list[Read], list[int]]:
    """Stored mails' rows (id, status, raw, envelope_from, received_at) read (parsed): the (id,
    status) of those another process settled first, those read, and the ids of those that could
    not be read (logged), for `process_mail` to quarantine once the caller's locks are gone."""
    settled: list[tuple[int, str]] = []
    reads: list[Read] = []
    unreadable: list[int] = []
    for row in rows:
        if row.status != "new":
            settled.append((row.id, f"already {row.status}, by another process"))
            continue
        try:
            reads.append(read_stored(Stored(row.id, row.raw, row.envelope_from, row.received_at)))
        except Exception:
            log.exception("mail %s could not be read", row.id)
            unreadable.append(row.id)
    return settled, reads, unreadable


def confirmed_topics(db: Database, reads: list[Read]) -> list[Read]:
    """``reads``, those whose topic is a CONFIRM's token (`topic`) given the topic of what they
    confirm: the game created, joined, observed or taken over (a JOIN that comes after the
    CONFIRM creating its game is then applied after it); an unknown token leaves the mail to
    its sender's address.  One query for them all."""
    tokens = sorted({read.topic.removeprefix(CONFIRMING) for read in reads if read.topic.startswith(CONFIRMING)})
    if not tokens:
        return reads
    with db.engine.connect() as connection:
        rows = connection.execute(_CONFIRMING, {"tokens": tokens}).all()
    games = {token: name or (details or {}).get("name") for token, details, name in rows}

    def resolved(read: Read) -> Read:
        if not read.topic.startswith(CONFIRMING):
            return read
        game = games.get(read.topic.removeprefix(CONFIRMING))
        return read._replace(topic=f"game {game}" if game else f"address {read.mail.reply_to.lower()}")

    return [resolved(read) for read in reads]


class Topics:
    """The topics whose mail one transaction applies, so that several processes applying one
    database's mail keep each game's mail in arrival order and apply two games' at once.

    A mail's topic is the game it is about (`topic`).  On PostgreSQL a run takes a topic with a
    transaction-level advisory lock (``pg_try_advisory_xact_lock``, released by its commit or by
    its process's death) before it claims a mail of it, and applies that topic's mails in
    arrival order; a topic another process holds is left to it, and so is every later mail of
    a topic the run left once: a later mail is never applied before an earlier one.  A run
    takes at most TOPICS_PER_RUN topics, so that the mail of a rush over many games is shared
    among the processes instead of the first one taking every game's.  On SQLite one
    transaction writes at a time, and a run takes every topic.
    """

    def __init__(self, session: Session) -> None:
        self.session = session
        self.shared = session.get_bind().dialect.name == "postgresql"
        self.held: set[str] = set()
        self.left: set[str] = set()

    def take(self, topic: str) -> bool:
        """Whether this run may apply a mail of ``topic`` now (holding it from then on)."""
        if topic in self.held or not self.shared:
            return True
        if topic not in self.left and len(self.held) < TOPICS_PER_RUN and self.session.scalar(
                _TRY_TOPIC, {"space": TOPIC_LOCKS, "topic": topic_lock(topic)}):
            self.held.add(topic)
            return True
        self.left.add(topic)
        return False

    def wait(self, topic: str) -> None:
        """Hold ``topic`` for the transaction, waiting for the process that holds it (PostgreSQL)."""
        if self.shared:
            self.session.execute(_WAIT_TOPIC, {"space": TOPIC_LOCKS, "topic": topic_lock(topic)})


def topic_lock(topic: str) -> int:
    """The advisory lock's key of a topic: 32 bits of its hash (two topics sharing one only wait
    for each other)."""
    return int.from_bytes(hashlib.blake2b(topic.encode("utf-8", "surrogateescape"), digest_size=4).digest(),
                          "big", signed=True)


class Settled(NamedTuple):
    """What became of a mail: its status, the games it changed (for the public pages), and
    whether its stored copy was redacted (a quarantined one may have been)."""

    status: str
    touched: set[str]
    redacted: bool


def _apply_in(session: Session, settings: Settings, read: Read, now: datetime) -> Settled:
    """Claim and apply one mail of a run (in a savepoint), or quarantine it (in another)."""
    if not _claim(session, read.stored.id):  # before any savepoint: it opens the transaction
        return Settled(_settled_elsewhere(session, read.stored.id), set(), False)
    try:
        with session.begin_nested():
            return _settle(session, settings, read, now)
    except RETRIED:
        raise
    except Exception as exc:
        log.exception("mail %s failed", read.stored.id)
        _quarantine_in(session, settings, read.stored.id, now, f"{type(exc).__name__}: {exc}"[:2000])
        return Settled("quarantined", set(), True)


def _apply(db: Database, settings: Settings, mail_id: int, now: datetime) -> Settled:
    """Apply the mail (`Settled`), once its topic is this process's."""
    with db.engine.connect() as connection:
        row = connection.execute(_PEEK, {"mail_ids": [mail_id]}).one_or_none()
    if row is None or row.status != "new":
        return Settled(f"already {row.status}, by another process" if row else "missing", set(), False)
    read = read_stored(Stored(mail_id, row.raw, row.envelope_from, row.received_at))
    [read] = [read._replace(topic=row.topic)] if row.topic is not None else confirmed_topics(db, [read])
    with db.transaction() as session:
        Topics(session).wait(read.topic)
        if not _claim(session, mail_id):
            return Settled(_settled_elsewhere(session, mail_id), set(), False)
        return _settle(session, settings, read, now)


def _settled_elsewhere(session: Session, mail_id: int) -> str:
    """What became of a mail this process could not claim: another process applied it first."""
    row = session.get(InboundRow, mail_id)
    return f"already {row.status}, by another process" if row is not None else "missing"


class Stored(NamedTuple):
    """A stored mail: what applying it reads of its row."""

    id: int
    raw: bytes
    envelope_from: str | None
    received_at: datetime


class Read(NamedTuple):
    """A stored mail as read: parsed, its subject's passwords masked, the passwords it carries,
    its command lines, and its topic (`topic`)."""

    stored: Stored
    mail: InboundMail
    secrets: set[str]
    lines: list[cmd.Line]
    topic: str


def read_stored(stored: Stored) -> Read:
    """Read a stored mail once, for everything applying it needs (`Read`)."""
    mail, secrets = _read(stored.raw, stored.envelope_from)
    lines = cmd.parse_lines(mail.lines)
    return Read(stored, mail, secrets, lines, topic(mail, lines))


def topic(mail: InboundMail, lines: Sequence[cmd.Line]) -> str:
    """What a mail is about, for keeping mail in order among several processes (`Topics`): the
    game its first sign-on, CREATE, JOIN, OBSERVE or TAKEOVER names, or the request its first
    CONFIRM answers (``confirm <token>``, which `Runs` turns into that request's game); else its
    sender's address (its HELP, LIST, SET ADDRESS).  A mail about several games is ordered among
    the first one's mail only."""
    for line in lines:
        if isinstance(line.command, GAME_COMMANDS):
            return f"game {line.command.game}"
        if isinstance(line.command, cmd.Confirm):
            return CONFIRMING + line.command.token  # what it confirms: `Runs` looks it up
    return f"address {mail.reply_to.lower()}"


# The mail's own row is read and written with Core statements built once: it is read before
# its run (`_PEEK`), claimed in one statement and settled (Message-ID, status, redacted copy) in
# another; the ORM would cost several times more for the same statements.
_INBOUND = cast(Table, InboundRow.__table__)
_PEEK = (select(_INBOUND.c.id, _INBOUND.c.status, _INBOUND.c.raw, _INBOUND.c.envelope_from, _INBOUND.c.received_at,
                _INBOUND.c.topic)
         .where(_INBOUND.c.id.in_(bindparam("mail_ids", expanding=True))).order_by(_INBOUND.c.id))
_UNCLASSIFIED = (select(_INBOUND.c.id, _INBOUND.c.status, _INBOUND.c.raw, _INBOUND.c.envelope_from,
                        _INBOUND.c.received_at)
                 .where(_INBOUND.c.status == "new", _INBOUND.c.topic.is_(None)).order_by(_INBOUND.c.id)
                 .limit(bindparam("most")).with_for_update(skip_locked=True))
_CLASSIFY = update(_INBOUND).where(_INBOUND.c.id == bindparam("mail_id")).values(topic=bindparam("about"))
_FIRST_UNCLASSIFIED = (select(func.min(_INBOUND.c.id))
                       .where(_INBOUND.c.status == "new", _INBOUND.c.topic.is_(None)).scalar_subquery())
_CLASSIFIED = (select(_INBOUND.c.id, _INBOUND.c.topic)  # one statement: the list and its limit in one snapshot
               .where(_INBOUND.c.status == "new", _INBOUND.c.topic.is_not(None), _INBOUND.c.id <= bindparam("last"),
                      _INBOUND.c.id < func.coalesce(_FIRST_UNCLASSIFIED, bindparam("last") + 1))
               .order_by(_INBOUND.c.id).limit(4 * WINDOW))
_CLAIM = (update(_INBOUND).where(_INBOUND.c.id == bindparam("mail_id"), _INBOUND.c.status == "new")
          .values(status="applying"))
_SETTLE = (update(_INBOUND).where(_INBOUND.c.id == bindparam("mail_id"))
           .values(message_id=bindparam("seen_id"), processed_at=bindparam("at"), status=bindparam("settled"),
                   raw=bindparam("redacted"), digest=bindparam("seen_digest"), topic=bindparam("about")))
_APPLIED_BEFORE = select(_INBOUND.c.id).where(_INBOUND.c.message_id == bindparam("message_id"),
                                              _INBOUND.c.digest == bindparam("digest"),
                                              _INBOUND.c.id != bindparam("mail_id"),
                                              _INBOUND.c.status.in_(("done", "automatic", "quarantined", "dropped")))
_CONFIRMING = (select(Confirmation.token, Confirmation.details, Game.name)
               .outerjoin(Game, Game.id == Confirmation.game_id)
               .where(Confirmation.token.in_(bindparam("tokens", expanding=True))))
_LIMITS = cast(Table, ReplyLimit.__table__)
_REPLY_LIMIT = (select(_LIMITS.c.hour_start, _LIMITS.c.replies, _LIMITS.c.idle_answered_at)
                .where(_LIMITS.c.address == bindparam("address")).with_for_update())
_NEW_REPLY_LIMIT = insert(_LIMITS)
_SET_REPLY_LIMIT = (update(_LIMITS).where(_LIMITS.c.address == bindparam("who"))
                    .values(hour_start=bindparam("start"), replies=bindparam("count"),
                            idle_answered_at=bindparam("idle_at")))
_RING = select(func.pg_notify(MAIL_CHANNEL, ""))
_TRY_TOPIC = select(func.pg_try_advisory_xact_lock(bindparam("space"), bindparam("topic")))
_WAIT_TOPIC = select(func.pg_advisory_xact_lock(bindparam("space"), bindparam("topic")))


def _claim(session: Session, mail_id: int) -> bool:
    """Claim a stored mail (``new`` → ``applying``); False if it is not ``new`` (applied
    already, or being applied by another processor)."""
    return bool(session.execute(_CLAIM, {"mail_id": mail_id}).rowcount)  # type: ignore[attr-defined]


def _settle(session: Session, settings: Settings, read: Read, now: datetime) -> Settled:
    """Apply a claimed mail (`Settled`).  Its row is written once, at the end: its Message-ID,
    digest, status and redacted copy together."""
    mail, secrets, stored = read.mail, read.secrets, read.stored
    seen = digest(mail, masker(secrets))
    status, touched = _status(session, settings, read, now, seen)
    session.execute(_SETTLE, {"mail_id": stored.id, "seen_id": mail.message_id, "at": now, "settled": status,
                              "redacted": redact(stored.raw, secrets, mail.lines), "seen_digest": seen,
                              "about": read.topic[:TOPIC_SIZE]})
    return Settled(status, touched, bool(secrets))


def _read(raw: bytes, envelope_from: str | None) -> tuple[InboundMail, set[str]]:
    """A stored mail as read, its subject's passwords masked, and the passwords it carries."""
    mail = parse_mail(raw, envelope_from=envelope_from)
    secrets = cmd.password_words(mail.lines)
    return (replace(mail, subject=masker(secrets)(mail.subject)) if secrets else mail), secrets


def fingerprint(raw: bytes, envelope_from: str | None) -> tuple[str | None, str]:
    """A stored mail's Message-ID and `digest`, as its row keeps them once applied: what tells a
    later copy of it for a duplicate (a game's record imported keeps them for its mail)."""
    mail, secrets = _read(raw, envelope_from)
    return mail.message_id, digest(mail, masker(secrets))


def digest(mail: InboundMail, mask: Callable[[str], str]) -> str:
    """SHA-256 of a mail's sender and command text as read, passwords masked (a fast hash of a
    known text around a password would let it be guessed offline): a mail sent again has the
    same, another mail under the same Message-ID not."""
    text = "\n".join([mail.sender, *map(mask, mail.lines)])
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def _status(session: Session, settings: Settings, read: Read, now: datetime, seen: str) -> tuple[str, set[str]]:
    mail, stored = read.mail, read.stored
    if mail.message_id and session.scalar(_APPLIED_BEFORE, {"message_id": mail.message_id, "digest": seen,
                                                           "mail_id": stored.id}):
        return "duplicate", set()
    if mail.automatic:  # never answered; but a bounce of the judge's own mail marks that mail failed
        record_bounce(session, settings, stored.raw, now)
        return "automatic", set()
    envelope = stored.envelope_from
    source = Source(client_address(stored.raw, settings.mta_hostname), mail.sender if envelope is None else envelope,
                    vouched_for(stored.raw, settings.mta_hostname) if settings.mta_authenticates else frozenset())
    answering = partial(_may_answer, session, settings, mail, read.lines, now)
    signs_on = next((line.command.game for line in read.lines if isinstance(line.command, cmd.SignOn)), None)
    language = preferences.language_of(session, settings, mail.reply_to, signs_on)
    with reading(language):  # the answer, in its reader's language (in the game it signs on to): the lines read
        # again in it, for their errors
        lines = read.lines if language == SOURCE else cmd.parse_lines(mail.lines)
        conversation = Conversation(session, settings, mail, now, envelope, source, answering=answering,
                                    accepted=mail_time(settings, stored.raw, stored.received_at), lines=lines)
        return _conversed(session, settings, conversation, answering, source, now)


def _conversed(session: Session, settings: Settings, conversation: Conversation,
               answering: Callable[[bool], tuple[bool, list[str]]], source: Source,
               now: datetime) -> tuple[str, set[str]]:
    """Run ``conversation`` (its mail's lines applied and answered), answer a refusal, and give the
    mail's status and the games it touched."""
    mail = conversation.mail
    refusal = conversation.run()
    if refusal is not None:
        record_failure(session, settings, refusal, source, mail.sender or mail.reply_to, now)
        answer, _limits = answering(False)
        if answer and mail.reply_to:
            queue(session, settings, to=mail.reply_to, subject=reply_subject(mail), kind="reply", now=now,
                  in_reply_to=mail.message_id, references=mail.references,
                  body=render("refusal", until=refusal.until, gone=refusal.gone, key=refusal.who == "KEY",
                              game=refusal.game, line=refusal.line))
        return "done", set()
    for game in conversation.next_opened:  # a phase it completed opened the next: the lines sent ahead for it
        ahead.opened(session, game, settings, now)
    return "done", conversation.touched


def _may_answer(session: Session, settings: Settings, mail: InboundMail, lines: Sequence[cmd.Line],
                now: datetime, proven: bool) -> tuple[bool, list[str]]:
    """Whether the judge may answer ``mail`` (no mail loop: see the module's header), counted as
    an answer to its address if so; and the notes that answer carries about the limits.  A mail
    ``proven`` to be its address's own (it signed on to a seat registered there, or made a change
    for it: `Conversation.proved`) is answered and not counted: no robot signs on, and a stranger
    who forges the address cannot spend the answers its owner's mail gets.  The address's row is
    read (locked) and written with Core statements: every mail does it."""
    if not mail.reply_to or proven:
        return True, []  # nobody to answer, or its owner
    address = mailbox(mail.reply_to)  # every case and +tag of an address reaches one mailbox (H4)
    found = session.execute(_REPLY_LIMIT, {"address": address}).one_or_none()
    if found is None:
        hour_start, replies, idle_answered_at = now, 0, None
    else:
        hour_start, replies, idle_answered_at = found
        if now - hour_start >= HOUR:
            hour_start, replies = now, 0
    idle = all(isinstance(line.command, NOT_COMMANDS) for line in lines)
    quiet = idle and idle_answered_at is not None and now - idle_answered_at < DAY
    if not quiet:
        replies += 1
        if idle and replies <= settings.max_replies_per_hour:
            idle_answered_at = now
    if found is None:
        session.execute(_NEW_REPLY_LIMIT, {"address": address, "hour_start": hour_start, "replies": replies,
                                           "idle_answered_at": idle_answered_at})
    else:
        session.execute(_SET_REPLY_LIMIT, {"who": address, "start": hour_start, "count": replies,
                                           "idle_at": idle_answered_at})
    if quiet:
        log.info("mail from %s has no command, and one was answered in the last day: not answered", address)
        return False, []
    most = settings.max_replies_per_hour
    if replies > most:
        if replies == most + 1:
            log.warning("%s had %d answers this hour: its mail is applied but not answered until %s UTC",
                        address, most, f"{hour_start + HOUR:%H:%M}")
        return False, []
    notes = []
    if idle:
        notes.append(_("Nothing in your mail was a command the judge could act on. It answers such a mail once a "
                       "day per address: another one within a day gets no answer."))
    if replies == most:
        until = hour_start + HOUR
        notes.append(_("This is the last of the {most} answers the judge gives your address in an hour: until "
                       "{time} UTC your mail is applied but not answered.", most=most,
                       time=until.strftime("%H:%M")))
    return True, notes


def _quarantine(db: Database, settings: Settings, mail_id: int, now: datetime, error: Exception) -> str:
    """Set a mail that could not be applied aside, and say so to its sender and to whoever runs its game."""
    with db.transaction() as session:
        _quarantine_in(session, settings, mail_id, now, f"{type(error).__name__}: {error}"[:2000])
    return "quarantined"


def _quarantine_in(session: Session, settings: Settings, mail_id: int, now: datetime, reason: str) -> None:
    """Quarantine a mail and tell of it, in a savepoint; if telling fails, only quarantine it."""
    try:
        with session.begin_nested():
            row = _mark_quarantined(session, mail_id, now, reason)
            if row is not None:
                _tell_of_quarantine(session, settings, row, now, reason)
    except RETRIED:
        raise
    except Exception:
        log.exception("mail %s: could not report its quarantine", mail_id)
        with session.begin_nested():
            _mark_quarantined(session, mail_id, now, reason)
    log.warning("mail %s quarantined: %s", mail_id, reason)


def _mark_quarantined(session: Session, mail_id: int, now: datetime, reason: str) -> InboundRow | None:
    row = session.get(InboundRow, mail_id)
    if row is None or row.status not in ("new", "applying"):
        return None
    row.status, row.error, row.processed_at = "quarantined", reason, now
    mail, secrets = _read(row.raw, row.envelope_from)
    row.message_id, row.digest = mail.message_id, digest(mail, masker(secrets))  # a later copy of it is a duplicate
    return row  # kept whole (passwords too) for `judge quarantine retry`; masked by retry, drop or age


def mask_old_quarantine(db: Database, settings: Settings, now: datetime) -> int:
    """Mask the passwords of the mail quarantined more than ``quarantine_days`` ago that nobody
    retried or dropped (the deadline clock runs this); how many it masked.  A quarantined mail
    is the one stored copy allowed to keep its passwords, and only until then."""
    since = now - timedelta(days=settings.quarantine_days)
    masked = 0
    with db.transaction() as session:
        for row in session.scalars(select(InboundRow).where(InboundRow.status == "quarantined",
                                                            InboundRow.processed_at < since)):
            _mail, secrets = _read(row.raw, row.envelope_from)
            redacted = redact(row.raw, secrets)
            if redacted != row.raw:
                row.raw, masked = redacted, masked + 1
    if masked:
        log.info("passwords masked in %d mail(s) quarantined over %g days ago", masked, settings.quarantine_days)
        db.checkpoint()
    return masked


def _tell_of_quarantine(session: Session, settings: Settings, row: InboundRow, now: datetime, reason: str) -> None:
    mail = parse_mail(row.raw, envelope_from=row.envelope_from)
    game = game_signed_on(session, mail)
    if mail.reply_to and not mail.automatic:
        with preferences.writing_to(session, settings, mail.reply_to, game):
            queue(session, settings, to=mail.reply_to, subject=reply_subject(mail), kind="reply", now=now,
                  in_reply_to=mail.message_id, references=mail.references,
                  body=render("failure", settings=settings))
    to = game.gm_address if game is not None else settings.admin_address
    with preferences.writing_to(session, settings, to, game):
        queue(session, settings, to=to, subject=_("Mail {number} quarantined", number=row.id), kind="notice",
              now=now, game_id=game.id if game else None,
              body=render("quarantined", row=row, mail=mail, reason=reason, game=game, settings=settings))


def game_signed_on(session: Session, mail: InboundMail) -> Game | None:
    """The game a mail signs on to, read line by line (the mail may not parse); None if none."""
    for line in mail.lines:
        with contextlib.suppress(Exception):
            command = cmd.parse_lines([line])[0].command
            if isinstance(command, cmd.SignOn):
                return session.scalar(select(Game).where(Game.name == command.game))
    return None
