"""Delivering the outbox: to an SMTP relay, or to the Maildir when there is none.

Each pending row is first *claimed* (``pending`` → ``sending``, committed), then its message is
built (`judge.service.outbox.message_of`, outside any transaction) and handed to the transport,
then the row is marked ``sent``: a row is never handed over twice, even by two daemons on one
database.  A temporary failure (a 4xx answer, a refused or broken connection) puts the row
back with a growing delay, for ``retry_days``; a permanent one (5xx, or too old) marks it
``failed`` and tells the game master; so does a message that cannot be built, and any other
exception of a transport (a bug is not cured by waiting), so a row never stays ``sending``.
A non-ASCII address needs a relay offering SMTPUTF8; without it the mail fails at once.
Errors are kept as the server's words (``550 5.1.1 ...``).

Every mail leaves with its own envelope sender, ``judge+b<outbox id>@domain`` (VERP), so a
bounce that comes back later says which row it is about: `record_bounce` reads the delivery
status notification (`judge.mail.dsn`), marks the row failed and tells the same people as a
refusal at the relay would (`_give_up`): the game master, or the admin for mail of no game or
to the game master, and the writer of the mail a failed answer answered, at their other address.

After a crash, a row left ``sending`` is checked against the Maildir when that is the transport:
marked sent if its message is there, else put back to be written again (it never was); the
Maildir's tmp/ is cleared of half-written files.  With a relay nobody can tell whether it went
out, so it is not sent again (no duplicate) and the game master is told.
"""

from __future__ import annotations

import email.parser
import email.policy
import logging
import re
import smtplib
import ssl
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Protocol

from sqlalchemy import select, update
from sqlalchemy.orm import Session, selectinload

from judge.mail.dsn import delivered_to, delivery_report, verp_address, verp_outbox_id
from judge.mail.inbound import parse_mail
from judge.mail.outbound import MaildirOutbox
from judge.service.config import Settings
from judge.service.outbox import message_of, queue
from judge.service.render import render
from judge.store.database import Database
from judge.store.models import Blob, Game, InboundMail, Outbox, OutboxFile

log = logging.getLogger("judge")

BACKOFF_MINUTES: Sequence[float] = (1, 5, 15, 30, 60, 120)
# A row's files and their bytes, loaded with it: the message is built after its transaction ends.
_WITH_FILES = selectinload(Outbox.files).joinedload(OutboxFile.blob).undefer(Blob.data)


class TemporaryFailure(Exception):
    """Try again later."""


class PermanentFailure(Exception):
    """Never try again."""


class Transport(Protocol):
    def send(self, sender: str, recipient: str, raw: bytes) -> None: ...

    def settle(self) -> None:
        """After a crash: clear what a delivery cut short left behind."""
        ...

    def delivered(self) -> set[str] | None:
        """The Message-IDs of everything delivered so far, or None if this transport cannot tell."""
        ...


class MaildirTransport:
    """Writes each message into the Maildir ``data_dir/outbox``."""

    def __init__(self, maildir: MaildirOutbox) -> None:
        self.maildir = maildir

    def send(self, sender: str, recipient: str, raw: bytes) -> None:
        try:
            self.maildir.deliver(raw)
        except OSError as exc:
            raise TemporaryFailure(str(exc)) from exc

    def settle(self) -> None:
        removed = self.maildir.remove_partial()
        if removed:
            log.info("removed %d half-written file(s) from %s", removed, self.maildir.path / "tmp")

    def delivered(self) -> set[str]:
        return {message_id for raw in self.maildir.messages() if (message_id := _message_id(raw))}


class RelayTransport:
    """Hands each message to an SMTP relay (optionally with STARTTLS and a login)."""

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
            raise (PermanentFailure if code >= 500 else TemporaryFailure)(_reply(code, message)) from exc
        except smtplib.SMTPResponseException as exc:
            raise (PermanentFailure if exc.smtp_code >= 500 else TemporaryFailure)(
                _reply(exc.smtp_code, exc.smtp_error)) from exc
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


def _message_id(raw: bytes) -> str | None:
    value = email.parser.BytesHeaderParser(policy=email.policy.compat32).parsebytes(raw).get("Message-ID")
    return str(value).strip() if value else None


def transport_for(settings: Settings) -> Transport:
    """The Maildir, or the relay; a relay given as an IPv6 literal (``[::1]:25``) loses its brackets."""
    relay = settings.relay_address
    if relay is None:
        return MaildirTransport(MaildirOutbox(settings.maildir))
    host = relay[0][1:-1] if relay[0].startswith("[") and relay[0].endswith("]") else relay[0]
    return RelayTransport(host, relay[1], settings.relay_starttls, settings.relay_user, settings.relay_password)


def envelope_sender(settings: Settings, row_id: int) -> str:
    """The VERP envelope sender of outbox row ``row_id``: where its bounce will come back."""
    local, _, domain = settings.judge_address.rpartition("@")
    return verp_address(local, domain, row_id)


def recover(db: Database, settings: Settings, transport: Transport, now: datetime) -> None:
    """After a restart: settle rows a crash left in ``sending`` without ever sending one twice.

    A row whose message the transport holds was sent; one it does not hold, when it can tell,
    was not, and is sent again; when it cannot tell (a relay), the game master is told instead.
    """
    transport.settle()
    with db.transaction() as session:
        rows = list(session.scalars(select(Outbox).where(Outbox.status == "sending").order_by(Outbox.id)))
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


def deliver_pending(db: Database, settings: Settings, transport: Transport, now: datetime, limit: int = 200) -> int:
    """Send what is due; returns the number of mails handed over."""
    with db.transaction() as session:
        due = list(session.scalars(
            select(Outbox.id).where(Outbox.status == "pending",
                                    (Outbox.next_attempt_at.is_(None)) | (Outbox.next_attempt_at <= now))
            .order_by(Outbox.id).limit(limit)))
    sent = 0
    for row_id in due:
        with db.transaction() as session:
            claimed = session.execute(update(Outbox).where(Outbox.id == row_id, Outbox.status == "pending")
                                      .values(status="sending", attempts=Outbox.attempts + 1))
            if not claimed.rowcount:  # type: ignore[attr-defined]
                continue  # another sender took it
            row = session.get(Outbox, row_id, options=[_WITH_FILES])
            assert row is not None
        try:
            raw = message_of(row)  # outside the transaction: the claim is committed
        except ValueError as exc:  # what no header can carry (see build_message)
            _fail(db, settings, row_id, now, f"the message cannot be built: {exc}")
            continue
        try:
            transport.send(envelope_sender(settings, row_id), row.recipient, raw)
        except TemporaryFailure as exc:
            _retry_later(db, settings, row_id, now, str(exc))
            continue
        except PermanentFailure as exc:
            _fail(db, settings, row_id, now, str(exc))
            continue
        except Exception as exc:  # a bug or a case nobody foresaw: retrying would not cure it
            log.exception("outbox %s: the transport failed unexpectedly", row_id)
            _fail(db, settings, row_id, now, f"{type(exc).__name__}: {exc}")
            continue
        with db.transaction() as session:
            session.execute(update(Outbox).where(Outbox.id == row_id).values(status="sent", sent_at=now))
        sent += 1
    return sent


def _retry_later(db: Database, settings: Settings, row_id: int, now: datetime, error: str) -> None:
    with db.transaction() as session:
        row = session.get(Outbox, row_id)
        assert row is not None
        if now - row.created_at > timedelta(days=settings.retry_days):
            _give_up(session, settings, row, now, f"still refused after {settings.retry_days:g} days: {error}")
            return
        delay = BACKOFF_MINUTES[min(row.attempts, len(BACKOFF_MINUTES)) - 1]
        row.status, row.last_error, row.next_attempt_at = "pending", error, now + timedelta(minutes=delay)
        log.info("outbox %s to %s deferred %g min: %s", row.id, row.recipient, delay, error)


def _fail(db: Database, settings: Settings, row_id: int, now: datetime, error: str) -> None:
    """`_give_up` on a row, in a transaction of its own."""
    with db.transaction() as session:
        row = session.get(Outbox, row_id)
        assert row is not None
        _give_up(session, settings, row, now, error)


def record_bounce(session: Session, settings: Settings, raw: bytes, now: datetime) -> bool:
    """Act on a bounce of the judge's mail: mark the row its VERP address names failed (`_give_up`).

    Returns whether ``raw`` was a report of a failure of a row of the outbox.  A report whose
    returned message has another Message-ID than the row's is not about that row (a forgery,
    or a mangled address) and is ignored; a report on a row already failed tells nobody again.
    """
    report = delivery_report(raw)
    address = delivered_to(raw)
    if report is None or not report.failures or address is None:
        return False
    local, _, domain = settings.judge_address.rpartition("@")
    row_id = verp_outbox_id(address, local, domain)
    row = session.get(Outbox, row_id) if row_id is not None else None
    if row is None or report.original_message_id not in (None, row.message_id):
        return False
    if row.status != "failed":
        _give_up(session, settings, row, now, "; ".join(failure.describe() for failure in report.failures))
    return True


def _give_up(session: Session, settings: Settings, row: Outbox, now: datetime, error: str) -> None:
    """Mark a row failed and say so: to the game master of its game, or to the admin when it has
    no game or was for the game master; and to the writer of the mail it answered, when they
    wrote from another address than the one that failed.  Never about a notice of this kind."""
    row.status, row.last_error = "failed", error
    log.warning("outbox %s to %s failed: %s", row.id, row.recipient, error)
    if row.kind == "bounce":
        return
    told: str | None = None
    game = session.get(Game, row.game_id) if row.game_id else None
    if game is not None and row.recipient != game.gm_address:
        told = game.gm_address
        _tell(session, settings, row, now, told, f"{game.name}: undeliverable mail", game,
              render("bounce", row=row, error=error))
    elif row.recipient != settings.admin_address:
        told = settings.admin_address
        _tell(session, settings, row, now, told, "Undeliverable mail", game,
              render("undeliverable", row=row, error=error, player=False))
    writer = _writer_elsewhere(session, row)
    if writer is not None and writer != told:
        _tell(session, settings, row, now, writer, f"Undeliverable: {row.subject}"[:300], game,
              render("undeliverable", row=row, error=error, player=True))


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
