"""The composition root: the use cases the command line (and later the daemon) call."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select

from judge.service import lifecycle
from judge.service.config import Settings
from judge.service.handlers import process_mail, receive
from judge.service.outbox import deliver_to_maildir
from judge.store.database import Database
from judge.store.models import Game


def utcnow() -> datetime:
    """Naive UTC, as stored."""
    return datetime.now(UTC).replace(tzinfo=None)


def open_database(settings: Settings) -> Database:
    """Open (creating the data directory and the schema if needed) the judge's database."""
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    db = Database(settings.database)
    db.upgrade()
    return db


def inject(db: Database, settings: Settings, raw: bytes, now: datetime, envelope_from: str | None = None) -> str:
    """Process one raw mail as if it had just arrived; deliver what it caused to the Maildir."""
    mail_id = receive(db, raw, now, envelope_from)
    status = process_mail(db, settings, mail_id, now)
    deliver_to_maildir(db, settings, now)
    return status


def process_game(db: Database, settings: Settings, name: str, now: datetime, force: bool = False) -> str:
    """What a deadline does: process the game's phase if it is due (or ``force``); otherwise
    send the reminders or late notices that are due."""
    with db.transaction() as session:
        game = session.scalar(select(Game).where(Game.name == name.lower()))
        if game is None:
            return f"there is no game '{name}'"
        if game.state != "active":
            return f"{game.name} is {game.state}: nothing to process"
        if force or lifecycle.is_due(session, game, now):
            processed = lifecycle.process_phase(session, game, settings, now)
            summary = f"{game.name} {processed.phase} processed"
            summary += f"; {processed.winner} wins" if processed.winner else f"; next {processed.next_phase}"
        else:
            told = lifecycle.send_notices(session, game, settings, now)
            summary = f"{game.name} {game.phase} is not due (deadline {game.deadline:%Y-%m-%d %H:%M} UTC)"
            if told:
                summary += f"; notices sent to {', '.join(p.title() for p in told)}"
    deliver_to_maildir(db, settings, now)
    return summary
