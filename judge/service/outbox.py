"""Outgoing mail is queued in the current transaction and delivered later (``sender``).

``queue`` writes an outbox row inside the caller's unit of work, so a mail exists exactly
when the change that caused it was committed.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from sqlalchemy.orm import Session

from judge.mail.outbound import Attachment, build_message
from judge.service.config import Settings
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
    references: Sequence[str] = (),
    attachments: Sequence[Attachment] = (),
) -> Outbox:
    raw = build_message(
        sender=settings.judge_from, to=to, subject=subject, body=body, domain=settings.domain,
        in_reply_to=in_reply_to, references=references, date=now.replace(tzinfo=UTC), reply=kind == "reply",
        attachments=attachments,
    )
    row = Outbox(game_id=game_id, recipient=to, subject=subject, kind=kind, raw=raw, created_at=now,
                 status="pending", attempts=0)
    session.add(row)
    return row
