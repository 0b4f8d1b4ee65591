"""Outgoing mail is queued in the current transaction and delivered later (``sender``).

``queue`` writes an outbox row inside the caller's unit of work, so a mail exists exactly
when the change that caused it was committed.  The row keeps what the message is made of
(recipient, subject, body, the mail it answers, attachments; its Message-ID and date are
fixed then), not the message: building MIME is the sender's work (`message_of`), done outside
any transaction, and it gives the same bytes each time it is built.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from email.utils import make_msgid

from sqlalchemy.orm import Session

from judge.mail.outbound import (
    Attachment,
    angled,
    build_message,
    check_recipient,
    thread,
    usable_message_id,
    well_formed,
)
from judge.service.config import Settings
from judge.store.models import Outbox, OutboxFile


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
    references: Sequence[str] = (),
    attachments: Sequence[Attachment] = (),
) -> Outbox:
    """Add an outbox row for a mail to ``to``; ValueError for an address that no header can carry
    (`check_recipient`), now rather than when the sender builds the message.  The body is kept as
    any database can store it: lone surrogates and NUL (which an echoed line may carry) become U+FFFD."""
    check_recipient(to)
    replied = usable_message_id(in_reply_to)  # what the message will carry: see build_message
    replied = angled(replied) if replied else None
    row = Outbox(game_id=game_id, recipient=to, subject=subject, kind=kind, sender=settings.judge_from,
                 message_id=make_msgid(domain=settings.domain), in_reply_to=replied,
                 refs=thread(references, replied) if replied else None,
                 body=well_formed(body).replace("\x00", "\ufffd"), created_at=now,
                 status="pending", attempts=0,
                 files=[OutboxFile(filename=a.filename, content_type=a.content_type, data=a.data)
                        for a in attachments])
    session.add(row)
    return row


def message_of(row: Outbox) -> bytes:
    """The message of an outbox row, as the sender hands it over.  The loop header names the
    domain its Message-ID was made in (the judge's, when it was queued).  A row queued before
    migration 0006 kept its message whole."""
    if row.raw is not None:
        return row.raw
    assert row.message_id is not None and row.sender is not None and row.body is not None
    return build_message(
        sender=row.sender, to=row.recipient, subject=row.subject, body=row.body,
        domain=row.message_id.rpartition("@")[2].rstrip(">"), message_id=row.message_id,
        in_reply_to=row.in_reply_to, references=row.refs or (), date=row.created_at.replace(tzinfo=UTC),
        reply=row.kind == "reply",
        attachments=[Attachment(f.filename, f.content_type, f.data) for f in row.files],
    )
