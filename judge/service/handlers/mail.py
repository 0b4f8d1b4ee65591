"""Storing a mail, and applying it exactly once: done, duplicate, automatic, or quarantined.

Theory of operation.  ``store`` keeps raw mails with one short insert in a transaction of their
own: that is what SMTP's 250 waits for, so it parses nothing (the Message-ID is read when the
mail is applied) and takes no longer than the write itself.  ``process_mail`` claims the stored
mail (``new`` → ``applying``, inside the transaction that applies it: a second processor waits
for that transaction and then finds the mail taken; a crash rolls the claim back) and applies it.
A mail whose Message-ID was seen in a mail applied before is not applied again (a sender that
got no 250 in time sends it again); automatic mail is recorded and never answered.

Whatever goes wrong while applying one mail ends with that mail *quarantined*: its transaction
is rolled back, it is marked ``quarantined`` with its error, the sender gets a short apology
(never a traceback), and the game master of the game it signs on to (or the judge's admin) is
told; then the next mail is applied.  Only the database itself failing (it cannot be reached,
or a concurrent transaction got in the way: ``RETRIED``) is tried again a few times first, and
if even quarantining fails the mail stays ``new`` for the next pass.  Once a mail is settled its
stored copy keeps no password (``redact``), except a quarantined one: it stays whole until the
operator applies it again (``judge quarantine retry``, once the cause is fixed: its sign-ons
need their passwords) or drops it (``judge quarantine drop``), and either masks it.  A mail
another process settled first is reported as such ("already done, by another process"), so two
judges never both log it done.  The public pages of the games a mail touched are brought up to
date after its transaction commits, so a page never shows a change undone.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Sequence
from datetime import datetime
from typing import NamedTuple, cast

from sqlalchemy import Table, bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from judge.commands import parse as cmd
from judge.mail.inbound import InboundMail, parse_mail
from judge.mail.redact import redact
from judge.service import schedule  # noqa: F401  (its flush hook keeps each game's next_due)
from judge.service.config import Settings
from judge.service.handlers.conversation import Conversation, reply_subject
from judge.service.handlers.signon import record_failure
from judge.service.outbox import queue
from judge.service.render import render
from judge.service.sender import record_bounce
from judge.store.database import Database
from judge.store.models import Game
from judge.store.models import InboundMail as InboundRow
from judge.web.pages import refresh

log = logging.getLogger("judge")

RETRIED = (OperationalError, IntegrityError)  # a busy or unreachable database, a concurrent insert
ATTEMPTS = 3
RUN = 32  # mails applied in one transaction at most (`apply_run`)
MAX_ENVELOPE = 320  # the column's length


def receive(db: Database, raw: bytes, now: datetime, envelope_from: str | None = None) -> int:
    """Store a raw mail (its own transaction) and return its id."""
    return store(db, [(raw, envelope_from)], now)[0]


def store(db: Database, mails: Sequence[tuple[bytes, str | None]], now: datetime) -> list[int]:
    """Store raw mails (each with its envelope sender) in one transaction, with one insert and
    no parsing; their ids, in order.  Several at once is how the daemon commits the mail of many
    SMTP sessions together."""
    rows = [{"raw": raw, "envelope_from": bounded_sender(envelope_from), "received_at": now, "status": "new"}
            for raw, envelope_from in mails]
    with db.urgent() as connection:
        inserted = connection.scalars(insert(InboundRow).returning(InboundRow.id, sort_by_parameter_order=True), rows)
        return list(inserted)


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
            status, touched = _apply(db, settings, mail_id, now)
        except RETRIED as exc:
            log.warning("mail %s: database error, attempt %d: %s", mail_id, attempt + 1, exc)
            error = exc
            time.sleep(0.05 * 4**attempt)
            continue
        except Exception as exc:
            log.exception("mail %s failed", mail_id)
            error = exc
            break
        if touched and settings.web:
            refresh(db, settings, touched)  # the public pages, once the mail's changes are committed
        return status
    assert error is not None
    return _quarantine(db, settings, mail_id, now, error)


def apply_run(db: Database, settings: Settings, mail_ids: Sequence[int], now: datetime) -> list[tuple[int, str]]:
    """Apply stored mails in arrival order, several in one transaction: one commit (one fsync)
    for the run instead of one per mail.  Each mail is applied in a savepoint of its own, so a
    mail that fails is undone alone and quarantined in the same transaction while the others
    stand.  The run ends after RUN mails; it returns the (id, status) of the mails it settled,
    the first ones of ``mail_ids``.  If the database itself fails, the run is
    rolled back and its mails go through `process_mail` one by one (which retries)."""
    run = list(mail_ids[:RUN])
    settled: list[tuple[int, str]] = []
    touched: set[str] = set()
    try:
        with db.transaction() as session:
            for mail_id in run:
                status, changed = _apply_in(session, settings, mail_id, now)
                settled.append((mail_id, status))
                touched |= changed
    except RETRIED as exc:
        log.warning("mails %s to %s: database error, applying them one by one: %s", run[0], run[-1], exc)
        return [(mail_id, process_mail(db, settings, mail_id, now)) for mail_id in run]
    if touched and settings.web:
        refresh(db, settings, touched)
    return settled


def _apply_in(session: Session, settings: Settings, mail_id: int, now: datetime) -> tuple[str, set[str]]:
    """Claim and apply one mail of a run (in a savepoint), or quarantine it (in another)."""
    claimed = _claim(session, mail_id)  # before any savepoint: it opens the transaction
    if claimed is None:
        return _settled_elsewhere(session, mail_id), set()
    try:
        with session.begin_nested():
            return _settle(session, settings, claimed, now)
    except RETRIED:
        raise
    except Exception as exc:
        log.exception("mail %s failed", mail_id)
        _quarantine_in(session, settings, mail_id, now, f"{type(exc).__name__}: {exc}"[:2000])
        return "quarantined", set()


def _apply(db: Database, settings: Settings, mail_id: int, now: datetime) -> tuple[str, set[str]]:
    """Apply the mail; its status, and the games it changed (for the public pages)."""
    with db.transaction() as session:
        claimed = _claim(session, mail_id)
        if claimed is None:
            return _settled_elsewhere(session, mail_id), set()
        return _settle(session, settings, claimed, now)


def _settled_elsewhere(session: Session, mail_id: int) -> str:
    """What became of a mail this process could not claim: another process applied it first."""
    row = session.get(InboundRow, mail_id)
    return f"already {row.status}, by another process" if row is not None else "missing"


class Claimed(NamedTuple):
    """A stored mail claimed for applying: what applying it reads of its row."""

    id: int
    raw: bytes
    envelope_from: str | None


# The mail's own row is read and written with Core statements built once: it is claimed and
# read in one, and settled (Message-ID, status, redacted copy) in another; the ORM would cost
# several times more for the same two statements.
_INBOUND = cast(Table, InboundRow.__table__)
_CLAIM = (update(_INBOUND).where(_INBOUND.c.id == bindparam("mail_id"), _INBOUND.c.status == "new")
          .values(status="applying").returning(_INBOUND.c.id, _INBOUND.c.raw, _INBOUND.c.envelope_from))
_SETTLE = (update(_INBOUND).where(_INBOUND.c.id == bindparam("mail_id"))
           .values(message_id=bindparam("seen_id"), processed_at=bindparam("at"), status=bindparam("settled"),
                   raw=bindparam("redacted")))
_APPLIED_BEFORE = select(InboundRow.id).where(InboundRow.message_id == bindparam("message_id"),
                                              InboundRow.id != bindparam("mail_id"),
                                              InboundRow.status.in_(("done", "automatic", "quarantined", "dropped")))


def _claim(session: Session, mail_id: int) -> Claimed | None:
    """Claim a stored mail (``new`` → ``applying``) and read it, in one statement; None if it
    is not ``new`` (applied already, or being applied by another processor)."""
    row = session.execute(_CLAIM, {"mail_id": mail_id}).one_or_none()
    return Claimed(*row) if row is not None else None


def _settle(session: Session, settings: Settings, claimed: Claimed, now: datetime) -> tuple[str, set[str]]:
    """Apply a claimed mail: its status, and the games it changed (for the public pages).  Its
    row is written once, at the end: its Message-ID, status and redacted copy together."""
    mail = parse_mail(claimed.raw, envelope_from=claimed.envelope_from)
    status, touched = _status(session, settings, mail, claimed, now)
    session.execute(_SETTLE, {"mail_id": claimed.id, "seen_id": mail.message_id, "at": now, "settled": status,
                              "redacted": redact(claimed.raw, cmd.password_words(mail.lines))})
    return status, touched


def _status(session: Session, settings: Settings, mail: InboundMail, claimed: Claimed,
            now: datetime) -> tuple[str, set[str]]:
    if mail.message_id and session.scalar(_APPLIED_BEFORE, {"message_id": mail.message_id, "mail_id": claimed.id}):
        return "duplicate", set()
    if mail.automatic:  # never answered; but a bounce of the judge's own mail marks that mail failed
        record_bounce(session, settings, claimed.raw, now)
        return "automatic", set()
    conversation = Conversation(session, settings, mail, now, claimed.envelope_from)
    refusal = conversation.run()
    if refusal is not None:
        record_failure(session, settings, refusal, mail.sender or mail.reply_to, now)
        queue(session, settings, to=mail.reply_to, subject=reply_subject(mail), kind="reply", now=now,
              in_reply_to=mail.message_id, references=mail.references,
              body=render("refusal", until=refusal.until, gone=refusal.gone))
        return "done", set()
    return "done", conversation.touched


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
    mail = parse_mail(row.raw, envelope_from=row.envelope_from)
    row.message_id = mail.message_id  # a later copy of it is a duplicate
    return row  # kept whole (passwords too) for `judge quarantine retry`, masked by retry or drop


def _tell_of_quarantine(session: Session, settings: Settings, row: InboundRow, now: datetime, reason: str) -> None:
    mail = parse_mail(row.raw, envelope_from=row.envelope_from)
    if mail.reply_to and not mail.automatic:
        queue(session, settings, to=mail.reply_to, subject=reply_subject(mail), kind="reply", now=now,
              in_reply_to=mail.message_id, references=mail.references,
              body=render("failure", settings=settings))
    game = game_signed_on(session, mail)
    to = game.gm_address if game is not None else settings.admin_address
    queue(session, settings, to=to, subject=f"Mail {row.id} quarantined", kind="notice", now=now,
          game_id=game.id if game else None,
          body=render("quarantined", row=row, mail=mail, reason=reason, game=game, settings=settings))


def game_signed_on(session: Session, mail: InboundMail) -> Game | None:
    """The game a mail signs on to, read line by line (the mail may not parse); None if none."""
    for line in mail.lines:
        with contextlib.suppress(Exception):
            command = cmd.parse_lines([line])[0].command
            if isinstance(command, cmd.SignOn):
                return session.scalar(select(Game).where(Game.name == command.game))
    return None
