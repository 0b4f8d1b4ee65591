"""Delivering the outbox: to an SMTP relay, or to the Maildir when there is none.

Each pending row is first *claimed* (``pending`` → ``sending``, committed), then its message is
built (`judge.service.outgoing.outbox.message_of`, outside any transaction) and handed to the transport,
then the row is marked ``sent``: a row is never handed over twice, even by two daemons on one
database.  Into the Maildir, rows are claimed and marked sent a hundred at a time (`Transport.batch`):
two commits per mail held SQLite's write lock so often that the applier spent half its time
waiting for it (issue 27), and at twenty a time the sender of a deadline evening spent a third
of its time waiting for that lock and fell behind the games (issue 59); their messages are
built and written twenty at a time (`HANDED_AT_ONCE`); after a crash the Maildir tells which
of a batch were written.  To a relay they go one at a time, since nobody can tell afterwards
what it took.  A temporary failure (a 4xx answer, a refused or broken connection) puts the row
back with a growing delay, for ``retry_days``; a permanent one (5xx, or too old) marks it
``failed`` and tells the game master; so does a message that cannot be built, and any other
exception of a transport (a bug is not cured by waiting), so a row never stays ``sending``.
Once a delivery succeeds, the transport is known to take mail again: every row deferred until
later is due at once (`_due_again`) and goes out in the same pass, not after its back-off.
A non-ASCII address needs a relay offering SMTPUTF8; without it the mail fails at once.  Each pass
first gives the mails that have not left the maps a full disk kept the database from storing
(`judge.service.outgoing.outbox.Kept`): once there is room again, such a mail goes with its maps.
Errors are kept as the server's words (``550 5.1.1 ...``).

Every mail leaves with its own envelope sender, ``judge+b<token><tag>@domain`` (VERP: the token
the outbox id enciphered, so that nobody reads in it how many mails the judge sent, and the tag
an HMAC of the id, both under the key in ``secrets``: `judge.mail.dsn`), so a bounce that comes
back later says which row it is about: `record_bounce` reads the delivery status notification,
marks the row failed and tells the same people as a refusal at the relay would (`_give_up`):
the game master, or the admin for mail of no game or to the game master, and the writer of the
mail a failed answer answered, at their other address.  Anyone can write a bounce, so one is
believed only if its address carries the right tag, the message it returns (if it returns
one) is the row's, and the row was sent: a bounce can neither cancel mail still waiting to go
nor be aimed at mail the forger never received.

A mail server's words (a relay's refusal, a bounce's ``Diagnostic-Code``) are a stranger's
text: the mail that reports a failure quotes them, bounded and set apart below the judge's
own words (`quoted`), so that they cannot pass for the judge's advice.

After a crash, a row left ``sending`` is checked against the Maildir when that is the transport:
marked sent if its message is there, else put back to be written again (it never was); the
Maildir's tmp/ is cleared of half-written files.  With a relay nobody can tell whether it went
out, so it is not sent again (no duplicate) and the game master is told.  Only a row claimed
longer ago than a delivery can take is settled so (``MAILDIR_TIME``, 30 s, for the Maildir;
``DELIVERY_TIME``, 5 minutes, for a relay): with several judges on one database (or a
``judge tick`` from cron beside ``judge serve``), a row claimed since then may be in the middle
of its delivery by a judge that is alive, and putting it back would send it twice (seen in
``bench/season.py``: a judge restarting sent again the results another was writing).  The claim
keeps its time in ``next_attempt_at`` (the time it was made, however long the pass has been
going) and the process that made it in ``claimed_by`` (`judge.service.claimants`, which a game's
deadline run claims by too: machine, process id and the moment the process started, so that a
process id used again is not taken for the dead one);
every pass of the sender settles the rows whose claim has grown old, and at once those whose
claimant was a process of this machine that is gone (`settle_stale`): a judge killed and started
again settles its own claims as it starts, and a crashed judge's claims elsewhere are settled
half a minute later (a few minutes through a relay).  Two judges settling at once do not both
put a row back: each takes the rows it settles with their row locks, skipping those the other
has (two judges each sent a results mail that a killed one had left: found by
``bench/season.py``).

Order.  A player never receives a phase's results after a later phase's: a mail is not claimed
while an older one to the same address is being handed over, or is due and not in the same
batch (`_claim`), so each address's mail goes out in the order it was queued, also from several
judges at once and after a crash (a killed judge's results went out half a minute after the next
phase's, which another judge, or the same one started again, had sent meanwhile).  A mail that
waits for its next try after a temporary refusal holds back nothing.
"""

from __future__ import annotations

import logging
import re
import smtplib
import ssl
import textwrap
import time
import unicodedata
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import NamedTuple, Protocol

from sqlalchemy import ColumnElement, bindparam, exists, select, update
from sqlalchemy.orm import Session, aliased, selectinload

from judge.language import gettext as _
from judge.mail.dsn import delivered_to, delivery_report, verp_address, verp_outbox_id
from judge.mail.inbound import parse_mail
from judge.mail.outbound import MaildirOutbox
from judge.service.claimants import claimant, gone
from judge.service.config import Settings
from judge.service.outgoing import one_click
from judge.service.outgoing.outbox import KEPT, Drawings, Listing, listings, message_of, queue
from judge.service.outgoing.preferences import writing_to
from judge.service.templates import render
from judge.store.database import Database
from judge.store.models import Blob, Game, InboundMail, Outbox, OutboxFile, Secret

log = logging.getLogger("judge")

BACKOFF_MINUTES: Sequence[float] = (1, 5, 15, 30, 60, 120)
DELIVERY_TIME = timedelta(minutes=5)  # no delivery to a relay takes longer (its timeout is a minute a step)
MAILDIR_TIME = timedelta(seconds=30)  # no writing of a mail into the Maildir takes longer, fsyncs and all
MAX_QUOTED = 1000  # characters of a mail server's words quoted in a report of a failure
QUOTE_WIDTH = 72  # characters of a quoted line, before its "> "
# A row's files and their bytes, loaded with it: the message is built after its transaction ends.
_WITH_FILES = selectinload(Outbox.files).selectinload(OutboxFile.blob).undefer(Blob.data)  # each blob once


class DeliveryFailure(Exception):
    """A mail not handed over.  ``said``: the message is a mail server's words (its SMTP reply),
    not the judge's, and is quoted as such (`quoted`)."""

    def __init__(self, message: str, *, said: bool = False) -> None:
        super().__init__(message)
        self.said = said

    @property
    def words(self) -> tuple[str, str]:
        """(the judge's words, a mail server's words): the message is one of them."""
        return ("", str(self)) if self.said else (str(self), "")


class TemporaryFailure(DeliveryFailure):
    """Try again later."""


class PermanentFailure(DeliveryFailure):
    """Never try again."""


class Transport(Protocol):
    delivery_time: timedelta  # no delivery by it takes longer: a claim older than that is a dead sender's
    batch: int  # rows claimed, and marked sent, together (`deliver_pending`)

    def send(self, sender: str, recipient: str, raw: bytes) -> None: ...

    def send_all(self, mails: Sequence[tuple[str, str, bytes]]) -> list[Exception | None]:
        """Hand over each (envelope sender, recipient, message): for each, None once handed over,
        or what kept it (a `DeliveryFailure`, or any other exception of a transport's)."""
        ...

    def settle(self) -> None:
        """After a crash: clear what a delivery cut short left behind."""
        ...

    def delivered(self) -> set[str] | None:
        """The Message-IDs of everything delivered so far, or None if this transport cannot tell."""
        ...


class MaildirTransport:
    """Writes each message into the Maildir ``data_dir/outbox``."""

    delivery_time = MAILDIR_TIME
    batch = 100  # after a crash the Maildir tells what was written: a batch is settled without a loss

    def __init__(self, maildir: MaildirOutbox) -> None:
        self.maildir = maildir

    def send(self, sender: str, recipient: str, raw: bytes) -> None:
        try:
            self.maildir.deliver(raw)
        except OSError as exc:
            raise TemporaryFailure(str(exc)) from exc

    def send_all(self, mails: Sequence[tuple[str, str, bytes]]) -> list[Exception | None]:
        """The batch written at once (`MaildirOutbox.deliver_all`: one flush of the disk for all)."""
        return [TemporaryFailure(str(result)) if isinstance(result, OSError) else None
                for result in self.maildir.deliver_all([raw for _row, _to, raw in mails])]

    def settle(self) -> None:
        removed = self.maildir.remove_partial()
        if removed:
            log.info("removed %d half-written file(s) from %s", removed, self.maildir.path / "tmp")

    def delivered(self) -> set[str]:
        return self.maildir.message_ids()


class OneByOne:
    """A transport that hands its mails over one at a time: `send_all` is `send` on each."""

    def send(self, sender: str, recipient: str, raw: bytes) -> None:
        raise NotImplementedError

    def send_all(self, mails: Sequence[tuple[str, str, bytes]]) -> list[Exception | None]:
        results: list[Exception | None] = []
        for sender, recipient, raw in mails:
            try:
                self.send(sender, recipient, raw)
                results.append(None)
            except Exception as exc:
                results.append(exc)
        return results


class RelayTransport(OneByOne):
    """Hands each message to an SMTP relay (optionally with STARTTLS and a login)."""

    delivery_time = DELIVERY_TIME
    batch = 1  # after a crash nobody can tell what a relay took: one row at a time, marked as it goes

    def __init__(self, host: str, port: int, starttls: bool = False, user: str | None = None,
                 password: str | None = None, timeout: float = 60.0) -> None:
        self.host, self.port, self.starttls = host, port, starttls
        self.user, self.password, self.timeout = user, password, timeout

    def send(self, sender: str, recipient: str, raw: bytes) -> None:
        """Hand ``raw`` over, with SMTPUTF8 if an address is not ASCII (PermanentFailure if not offered)."""
        utf8 = not (sender.isascii() and recipient.isascii())
        try:
            with smtplib.SMTP(self.host, self.port, timeout=self.timeout) as client:
                if self.starttls:
                    client.starttls(context=ssl.create_default_context())
                if self.user:
                    client.login(self.user, self.password or "")
                client.ehlo_or_helo_if_needed()
                if utf8 and not client.has_extn("smtputf8"):
                    raise PermanentFailure(f"the relay does not offer SMTPUTF8, needed for {recipient}")
                options = ["SMTPUTF8"] if utf8 else []
                if not raw.isascii() and client.has_extn("8bitmime"):
                    options.append("BODY=8BITMIME")
                # Stored messages end lines with LF (as a Maildir wants); SMTP needs CRLF.
                client.sendmail(sender, [recipient], re.sub(rb"\r?\n", b"\r\n", raw), mail_options=options)
        except smtplib.SMTPRecipientsRefused as exc:
            code, message = next(iter(exc.recipients.values()))
            raise (PermanentFailure if code >= 500 else TemporaryFailure)(_reply(code, message), said=True) from exc
        except smtplib.SMTPResponseException as exc:
            raise (PermanentFailure if exc.smtp_code >= 500 else TemporaryFailure)(
                _reply(exc.smtp_code, exc.smtp_error), said=True) from exc
        except (OSError, smtplib.SMTPException) as exc:
            raise TemporaryFailure(f"{type(exc).__name__}: {exc}") from exc

    def settle(self) -> None:
        pass  # nothing of a delivery is kept here

    def delivered(self) -> None:
        return None


def _reply(code: int, message: bytes | str) -> str:
    """An SMTP reply as the server wrote it, on one line: ``550 5.1.1 no such user``."""
    text = message.decode("utf-8", "replace") if isinstance(message, bytes) else str(message)
    return " ".join([str(code), *text.split()])


def transport_for(settings: Settings) -> Transport:
    """The Maildir, or the relay; a relay given as an IPv6 literal (``[::1]:25``) loses its brackets."""
    relay = settings.relay_address
    if relay is None:
        return MaildirTransport(MaildirOutbox(settings.maildir))
    host = relay[0][1:-1] if relay[0].startswith("[") and relay[0].endswith("]") else relay[0]
    return RelayTransport(host, relay[1], settings.relay_starttls, settings.relay_user, settings.relay_password)


def envelope_sender(settings: Settings, row_id: int, key: bytes) -> str:
    """The VERP envelope sender of outbox row ``row_id``: where its bounce will come back."""
    local, _at, domain = settings.judge_address.rpartition("@")
    return verp_address(local, domain, row_id, key)


_VERP = select(Secret.value).where(Secret.name == "verp")


def verp_key(session: Session) -> bytes:
    """The key of the tags of the judge's VERP addresses: drawn by migration 0008, so the same
    for every process on the database and across restarts.  Read as a column, not a row: loading the
    row took twice as long (0.2 ms, at each pass of the sender)."""
    return session.scalars(_VERP).one().encode()


def recover(db: Database, settings: Settings, transport: Transport, now: datetime) -> None:
    """After a restart: clear what a delivery cut short left behind, and settle the rows a
    crash left in ``sending`` (`settle_stale`)."""
    transport.settle()
    settle_stale(db, settings, transport, now)


def settle_stale(db: Database, settings: Settings, transport: Transport, now: datetime) -> None:
    """Settle the rows left ``sending`` by a sender that died, without ever sending one twice:
    those claimed longer ago than the transport's ``delivery_time`` (or before claims kept their
    time), which no live sender is still delivering, and at once those claimed by a process of
    this machine that has ended (`gone`).

    A row whose message the transport holds was sent; one it does not hold, when it can tell,
    was not, and is sent again; when it cannot tell (a relay), the game master is told instead.
    """
    ended: dict[str | None, bool] = {}

    def dead(claimed_at: datetime | None, claimed_by: str | None) -> bool:
        if claimed_by not in ended:
            ended[claimed_by] = gone(claimed_by)
        return claimed_at is None or claimed_at <= now - transport.delivery_time or ended[claimed_by]

    with db.transaction() as session:
        stale = [row_id for row_id, claimed_at, claimed_by in session.execute(_SENDING) if dead(claimed_at, claimed_by)]
        # Locked (another judge settling some of them has those, and they are skipped), and looked at
        # again: a row put back and claimed anew meanwhile is a live sender's.
        rows = [row for row in session.scalars(select(Outbox).where(Outbox.id.in_(stale), Outbox.status == "sending")
                                               .order_by(Outbox.id).with_for_update(skip_locked=True))
                if dead(row.next_attempt_at, row.claimed_by)] if stale else []
        delivered = transport.delivered() if rows else None
        for row in rows:
            if delivered is None:
                _give_up(session, settings, row, now, "interrupted while being sent; not resent to avoid a duplicate")
            elif row.message_id in delivered:
                row.status, row.sent_at = "sent", now
            else:
                row.status, row.next_attempt_at = "pending", None
                row.last_error = "interrupted while being sent, before it was delivered; sent again"
                log.info("outbox %s to %s was interrupted before delivery; sent again", row.id, row.recipient)


SEND_LIMIT = 200  # rows one pass of the sender takes at most (`send_due`)
DRAWINGS = Drawings()  # the mails this process's sender has seen waiting for their maps


class Pass(NamedTuple):
    """What one pass of the sender did (`send_due`)."""

    sent: int  # mails handed over
    more: bool  # the pass stopped at its limit: more rows may be due at once


def deliver_pending(db: Database, settings: Settings, transport: Transport, now: datetime,
                    limit: int = SEND_LIMIT) -> int:
    """Send what is due (after settling what a dead sender left: `settle_stale`); returns the
    number of mails handed over."""
    return send_due(db, settings, transport, now, limit).sent


def send_due(db: Database, settings: Settings, transport: Transport, now: datetime, limit: int = SEND_LIMIT) -> Pass:
    """One pass of the sender: `deliver_pending`, up to ``limit`` rows, saying whether it stopped
    at the limit.  A daemon's sender then passes again at once instead of sleeping its period with
    mail due: at the end of a rush of 320 mails, the answers beyond the first 200 waited 5 s for
    the sender's next sweep, the bimodal rate of issue 45 (every answer of a run 6.8 s after its
    first mail instead of 1.7 s, depending on how many the sender had sent while the applier ran)."""
    UNRECORDED.record(db, now)
    settle_stale(db, settings, transport, now)
    KEPT.store(db)  # the maps a full disk refused, given to their mails before those are claimed (`Kept`)
    with db.transaction() as session:
        DRAWINGS.settle(session)
        due = list(session.scalars(_DUE, {"now": now, "limit": limit}))
        key = verp_key(session) if due else b""
    more = len(due) >= limit
    sent = 0
    started = time.monotonic()
    while due:
        batch, due = due[:transport.batch], due[transport.batch:]
        claimed_at = now + timedelta(seconds=time.monotonic() - started)  # a long pass's last claims are not old
        handed = _hand_over(settings, transport, key, *_claim(db, batch, claimed_at, now, one_click.base(settings)))
        try:
            delivered = _record(db, settings, handed, now)
        except Exception:  # the database went away: the next pass records what this one did first
            UNRECORDED.keep(handed)
            raise
        if not delivered:
            continue
        if not sent:
            due += _due_again(db, now, limit)
        sent += len(delivered)
    return Pass(sent, more)


def _due(table: type[Outbox]) -> ColumnElement[bool]:
    """A pending row of ``table`` (the outbox, or an alias of it) may be tried at the bound ``now``."""
    return table.next_attempt_at.is_(None) | (table.next_attempt_at <= bindparam("now"))


def _ahead(sending_only: bool = False) -> ColumnElement[bool]:
    """An older mail to the same address goes first (see the header, "Order"): it is being handed
    over, or (unless ``sending_only``) it is due at the bound ``now`` and not one of the bound ``batch``,
    which this sender hands over in order."""
    older = aliased(Outbox, name="older")
    first = older.status == "sending"
    if not sending_only:
        first |= (older.status == "pending") & _due(older) & older.id.not_in(bindparam("batch", expanding=True))
    return exists().where(older.recipient == Outbox.recipient, older.id < Outbox.id,
                          older.status.in_(("sending", "pending")), first)


# The sender's statements, built once with bound values: built at each pass (an alias, an EXISTS), they cost
# some milliseconds of Python a pass, as much as running them; SQLAlchemy caches what they compile to.  The others
# built at each pass too, and the ORM bringing up to date sessions that had loaded nothing, made the answer to a
# mail that comes alone cost a quarter more CPU (`bench/answer_bench.py`).
_DUE = (select(Outbox.id).where(Outbox.status == "pending", _due(Outbox), ~_ahead(sending_only=True))
        .order_by(Outbox.id).limit(bindparam("limit")))
"""The ids of the rows due at ``now``, oldest first, no older mail to their address being handed over: at most
``limit``."""
_CLAIM = (update(Outbox).where(Outbox.id.in_(bindparam("batch", expanding=True)), Outbox.status == "pending",
                               ~_ahead())
          .values(status="sending", attempts=Outbox.attempts + 1, next_attempt_at=bindparam("claimed_at"),
                  claimed_by=bindparam("claimant"))
          .returning(Outbox.id).execution_options(synchronize_session=False))
"""The rows of ``batch`` claimed at ``claimed_at`` by ``claimant``, if still pending and not behind an older mail
(`_claim`).  Its transaction has loaded no row, so the session has nothing to bring up to date (the ORM's own
way of doing so doubled the statement's cost); nor have those of `_SENT` and `_DUE_AT_ONCE`."""
_CLAIMED = (select(Outbox).where(Outbox.id.in_(bindparam("claimed", expanding=True))).options(_WITH_FILES)
            .order_by(Outbox.id))
"""The rows ``claimed``, with their files (`_claim`)."""
_SENDING = select(Outbox.id, Outbox.next_attempt_at, Outbox.claimed_by).where(Outbox.status == "sending")
"""Each row being handed over, when and by whom it was claimed (`settle_stale`)."""
_SENT = (update(Outbox).where(Outbox.id.in_(bindparam("taken", expanding=True)))
         .values(status="sent", sent_at=bindparam("now")).execution_options(synchronize_session=False))
"""The rows ``taken`` by the transport, sent at ``now`` (`_record`)."""
_DEFERRED = (select(Outbox.id).where(Outbox.status == "pending", Outbox.next_attempt_at > bindparam("now"))
             .order_by(Outbox.id).limit(bindparam("limit")))
"""The ids of the rows deferred past ``now``, oldest first: at most ``limit`` (`_due_again`)."""
_DUE_AT_ONCE = (update(Outbox).where(Outbox.id.in_(bindparam("later", expanding=True)), Outbox.status == "pending")
                .values(next_attempt_at=None).execution_options(synchronize_session=False))
"""The deferred rows ``later``, if still pending, due at once (`_due_again`)."""


def _claim(db: Database, batch: list[int], claimed_at: datetime, now: datetime,
           links: str | None = None) -> tuple[list[Outbox], dict[int, Listing]]:
    """Claim the rows of ``batch`` still pending and not behind an older mail to the same
    address (`_ahead`): ``sending``, committed, so another sender skips them; and load them with
    their files and, for a game's mail, its list headers' `Listing` (with one-click links under
    ``links``, where observers' mail offers them: `one_click.base`).  The others, another sender
    took, or they wait for the mail ahead of them."""
    with db.transaction() as session:
        claimed = list(session.scalars(_CLAIM, {"batch": batch, "now": now, "claimed_at": claimed_at,
                                                "claimant": claimant()}))
        if not claimed:
            return [], {}
        rows = list(session.scalars(_CLAIMED, {"claimed": claimed}))
        return rows, listings(session, rows, links)


Handed = list[tuple[Outbox, Exception | None]]
"""Each claimed row, and what kept the transport from taking it (None: it took it)."""


HANDED_AT_ONCE = 20  # messages built and handed to the transport together (`_hand_over`)


def _hand_over(settings: Settings, transport: Transport, key: bytes, rows: Sequence[Outbox],
               listed: Mapping[int, Listing]) -> Handed:
    """Hand the claimed rows' messages to the transport, `HANDED_AT_ONCE` at a time
    (`Transport.send_all`), outside any transaction (the claim is committed), a game's mail with
    its list headers (``listed``: `judge.service.outgoing.outbox.listings`): what became of each.
    A message that cannot be built (what no header can carry: see build_message) is not handed
    over.  Rows are claimed a hundred at a time into the Maildir, but their messages built twenty
    at a time: a hundred results mails with their maps, held at once, took the judge's process
    170 MB more in a deadline evening."""
    handed: Handed = []
    for start in range(0, len(rows), HANDED_AT_ONCE):
        built: list[tuple[Outbox, tuple[str, str, bytes]]] = []
        for row in rows[start:start + HANDED_AT_ONCE]:
            try:
                message = message_of(row, listing=listed.get(row.id))
                built.append((row, (envelope_sender(settings, row.id, key), row.recipient, message)))
            except ValueError as exc:
                handed.append((row, Unbuilt(f"the message cannot be built: {exc}")))
        handed += zip([row for row, _mail in built], transport.send_all([mail for _row, mail in built]), strict=True)
    return handed


def _record(db: Database, settings: Settings, handed: Handed, now: datetime) -> list[int]:
    """Record what became of the rows `_hand_over` handed: those the transport took are sent (the
    ids returned); the others are settled each in a transaction of its own, to be tried again
    later or failed."""
    taken = []
    for row, failure in handed:
        if failure is None:
            taken.append(row.id)
        elif isinstance(failure, TemporaryFailure):
            _retry_later(db, settings, row.id, now, failure)
        elif isinstance(failure, PermanentFailure):
            _fail(db, settings, row.id, now, *failure.words)
        elif isinstance(failure, Unbuilt):
            _fail(db, settings, row.id, now, str(failure))
        else:  # a bug or a case nobody foresaw: retrying would not cure it
            log.error("outbox %s: the transport failed unexpectedly", row.id, exc_info=failure)
            _fail(db, settings, row.id, now, f"{type(failure).__name__}: {failure}")
    if taken:
        with db.transaction() as session:
            session.execute(_SENT, {"taken": taken, "now": now})
    return taken


class Unbuilt(Exception):
    """A claimed row whose message cannot be built: failed, never handed over."""


class Unrecorded:
    """The rows this process's sender handed over, or failed to, but could not record: the
    database went away between the hand-over and the record (PostgreSQL stopped just after a
    deadline's results were claimed).  Left ``sending``, each would hold back every later mail
    to its address (`_ahead`) for the transport's ``delivery_time`` (five minutes for a relay),
    and then be given up as perhaps sent; the sender knows what became of it, so its next pass
    records that first: sent, or due again."""

    def __init__(self) -> None:
        self.sent: set[int] = set()
        self.unsent: set[int] = set()

    def keep(self, handed: Handed) -> None:
        for row, failure in handed:
            (self.sent if failure is None else self.unsent).add(row.id)

    def record(self, db: Database, now: datetime) -> None:
        """Record the rows kept, if the database takes it (if not, they are kept for the next pass)."""
        if not self.sent and not self.unsent:
            return
        with db.transaction() as session:
            claimed = (Outbox.status == "sending") & (Outbox.claimed_by == claimant())  # still this sender's claim
            if self.sent:
                session.execute(update(Outbox).where(Outbox.id.in_(self.sent), claimed)
                                .values(status="sent", sent_at=now))
            if self.unsent:
                session.execute(update(Outbox).where(Outbox.id.in_(self.unsent), claimed)
                                .values(status="pending", next_attempt_at=None))
        log.info("recorded %d mail(s) handed over and %d not, while the database was away",
                 len(self.sent), len(self.unsent))
        self.sent.clear()
        self.unsent.clear()


UNRECORDED = Unrecorded()  # what this process's sender did but could not record


def _due_again(db: Database, now: datetime, limit: int) -> list[int]:
    """The rows deferred until later, made due at once: the relay (or the Maildir) took a mail."""
    with db.transaction() as session:
        later = list(session.scalars(_DEFERRED, {"now": now, "limit": limit}))
        if later:
            session.execute(_DUE_AT_ONCE, {"later": later})
            log.info("mail goes out again: %d deferred mail(s) due at once", len(later))
    return later


def _retry_later(db: Database, settings: Settings, row_id: int, now: datetime, failure: TemporaryFailure) -> None:
    error = str(failure)
    with db.transaction() as session:
        row = session.get(Outbox, row_id)
        assert row is not None
        if now - row.created_at > timedelta(days=settings.retry_days):
            reason, said = failure.words
            still = f"still refused after {settings.retry_days:g} days"
            _give_up(session, settings, row, now, f"{still}: {reason}" if reason else still, said)
            return
        delay = BACKOFF_MINUTES[min(row.attempts, len(BACKOFF_MINUTES)) - 1]
        row.status, row.last_error, row.next_attempt_at = "pending", error, now + timedelta(minutes=delay)
        log.info("outbox %s to %s%s deferred %g min: %s", row.id, row.recipient, _of_game(session, row), delay, error)


def _fail(db: Database, settings: Settings, row_id: int, now: datetime, reason: str, said: str = "") -> None:
    """`_give_up` on a row, in a transaction of its own."""
    with db.transaction() as session:
        row = session.get(Outbox, row_id)
        assert row is not None
        _give_up(session, settings, row, now, reason, said)


def record_bounce(session: Session, settings: Settings, raw: bytes, now: datetime) -> bool:
    """Act on a bounce of the judge's mail: mark the row its VERP address names failed (`_give_up`);
    returns whether it did.

    Anyone can write a bounce, so it is believed only if all of these hold: its address names a
    row with the right tag (`judge.mail.dsn.verp_outbox_id`: a bounce to an untagged address,
    of mail sent before tags were introduced, is ignored); the message it returns, if it
    returns one with a Message-ID, is that row's; and the row was ``sent`` (one waiting to go,
    or being handed over, cannot have bounced; one already failed was reported once).
    """
    report = delivery_report(raw)
    address = delivered_to(raw)
    if report is None or not report.failures or address is None:
        return False
    local, _at, domain = settings.judge_address.rpartition("@")
    row_id = verp_outbox_id(address, local, domain, verp_key(session))
    row = session.get(Outbox, row_id) if row_id is not None else None
    if row is None or row.status != "sent" or report.original_message_id not in (None, row.message_id):
        return False
    _give_up(session, settings, row, now, "", "; ".join(failure.describe() for failure in report.failures))
    return True


def _give_up(session: Session, settings: Settings, row: Outbox, now: datetime, reason: str, said: str = "") -> None:
    """Mark a row failed and say so: to the game master of its game, or to the admin when it has
    no game or was for the game master; and to the writer of the mail it answered, when they
    wrote from another address than the one that failed.  Never about a notice of this kind.
    ``reason`` is the judge's words, ``said`` a mail server's (`quoted` in the notices); the
    row's error is both."""
    error = ": ".join(part for part in (reason, said) if part)
    row.status, row.last_error = "failed", error
    log.warning("outbox %s to %s%s failed: %s", row.id, row.recipient, _of_game(session, row), error)
    if row.kind == "bounce":
        return
    told: str | None = None
    game = session.get(Game, row.game_id) if row.game_id else None
    words = {"row": row, "reason": reason, "said": quoted(said)}
    if game is not None and row.recipient != game.gm_address:
        told = game.gm_address
        with writing_to(session, settings, told, game):  # each notice in its reader's language
            _tell(session, settings, row, now, told, _("{game}: undeliverable mail", game=game.name), game,
                  render("bounce", **words))
    elif row.recipient != settings.admin_address:
        told = settings.admin_address
        with writing_to(session, settings, told, game):
            _tell(session, settings, row, now, told, _("Undeliverable mail"), game,
                  render("undeliverable", player=False, **words))
    writer = _writer_elsewhere(session, row)
    if writer is not None and writer != told:
        with writing_to(session, settings, writer, game):
            _tell(session, settings, row, now, writer, _("Undeliverable: {subject}", subject=row.subject)[:300], game,
                  render("undeliverable", player=True, **words))


def _of_game(session: Session, row: Outbox) -> str:
    """`` (game NAME)`` for the log's line about a mail of a game; nothing for the others."""
    game = session.get(Game, row.game_id) if row.game_id else None
    return f" (game {game.name})" if game is not None else ""


def quoted(said: str) -> list[str]:
    """A mail server's words as the lines of a quotation: at most MAX_QUOTED characters (cut
    with "[...]"), without control or format characters (no line breaks, no right-to-left
    overrides), wrapped at QUOTE_WIDTH.  The template puts "> " before each."""
    text = "".join(" " if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") else c for c in said)
    text = " ".join(text.split())
    if len(text) > MAX_QUOTED:
        text = text[:MAX_QUOTED].rstrip() + " [...]"
    return textwrap.wrap(text, QUOTE_WIDTH, break_long_words=True, break_on_hyphens=False)


def _tell(session: Session, settings: Settings, row: Outbox, now: datetime, to: str, subject: str,
          game: Game | None, body: str) -> None:
    try:
        queue(session, settings, to=to, subject=subject, kind="bounce", now=now, game_id=game.id if game else None,
              body=body)
    except ValueError:  # an address the message cannot carry: the row must end failed all the same
        log.warning("outbox %s: cannot tell %r of its failure", row.id, to)


def _writer_elsewhere(session: Session, row: Outbox) -> str | None:
    """For a failed answer: the address the answered mail came from, if it is not the one that failed."""
    replied = row.in_reply_to if row.kind == "reply" else None
    if replied is None:
        return None
    inbound = session.scalars(select(InboundMail).where(InboundMail.message_id == replied)
                              .order_by(InboundMail.id)).first()
    if inbound is None:
        return None
    mail = parse_mail(inbound.raw, envelope_from=inbound.envelope_from)
    return mail.sender if mail.sender and mail.sender != row.recipient and not mail.automatic else None
