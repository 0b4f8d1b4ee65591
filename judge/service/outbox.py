"""Outgoing mail: queue it in the current transaction, deliver it later.

``queue`` writes an outbox row inside the caller's unit of work, so a mail exists exactly
when the change that caused it was committed.  ``deliver_to_maildir`` hands pending rows to
the Maildir (the default transport when no relay is configured).
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.mail.outbound import MaildirOutbox, build_message
from judge.service.config import Settings
from judge.store.database import Database
from judge.store.models import Outbox


def queue(
    session: Session,
    settings: Settings,
    *,
    to: str,
    subject: str,
    body: str,
    kind: str,
    now: datetime,
    game_id: int | None = None,
    in_reply_to: str | None = None,
) -> Outbox:
    raw = build_message(
        sender=settings.judge_address, to=to, subject=subject, body=body, domain=settings.domain,
        in_reply_to=in_reply_to, date=now.replace(tzinfo=UTC), reply=kind == "reply",
    )
    row = Outbox(game_id=game_id, recipient=to, subject=subject, kind=kind, raw=raw, created_at=now,
                 status="pending", attempts=0)
    session.add(row)
    return row


def deliver_to_maildir(db: Database, settings: Settings, now: datetime) -> int:
    """Write every pending outbox row to the Maildir and mark it sent; returns how many."""
    maildir = MaildirOutbox(settings.maildir)
    sent = 0
    with db.transaction() as session:
        rows = session.scalars(select(Outbox).where(Outbox.status == "pending").order_by(Outbox.id)).all()
        for row in rows:
            maildir.deliver(row.raw)
            row.status, row.sent_at, row.attempts = "sent", now, row.attempts + 1
            sent += 1
    return sent
