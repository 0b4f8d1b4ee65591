"""Fast where it counts: each game's next moment due (``games.next_due``, so that a tick loads
only the games it has something to do for), outgoing mail kept as what its message is made of
(built by the sender, not inside the transaction that queues it; attachments in
``outbox_files``), and indexes on the remaining hot-path queries (outbox rows due, a game's
ledger, a game's absences).

Existing games get their ``next_due``; existing outbox rows keep their message in ``raw`` and
get its Message-ID and In-Reply-To, which bounce matching and crash recovery read.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23
"""

from __future__ import annotations

import email.parser
import email.policy

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

_games = sa.table("games", sa.column("id", sa.Integer), sa.column("state", sa.String), sa.column("phase", sa.String),
                  sa.column("deadline", sa.DateTime), sa.column("settings", sa.JSON),
                  sa.column("next_due", sa.DateTime))
_phases = sa.table("phases", sa.column("game_id", sa.Integer), sa.column("name", sa.String),
                   sa.column("opened_at", sa.DateTime), sa.column("notices", sa.JSON))
_outbox = sa.table("outbox", sa.column("id", sa.Integer), sa.column("raw", sa.LargeBinary),
                   sa.column("message_id", sa.String), sa.column("in_reply_to", sa.String))


def upgrade() -> None:
    with op.batch_alter_table("games") as batch_op:
        batch_op.add_column(sa.Column("next_due", sa.DateTime(), nullable=True))
        batch_op.create_index("ix_games_next_due", ["next_due"])
    _fill_next_due()
    with op.batch_alter_table("outbox") as batch_op:
        batch_op.add_column(sa.Column("sender", sa.String(400), nullable=True))
        batch_op.add_column(sa.Column("message_id", sa.String(300), nullable=True))
        batch_op.add_column(sa.Column("in_reply_to", sa.String(300), nullable=True))
        batch_op.add_column(sa.Column("refs", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("body", sa.Text(), nullable=True))
        batch_op.alter_column("raw", existing_type=sa.LargeBinary(), nullable=True)
        batch_op.create_index("ix_outbox_due", ["status", "next_attempt_at"])
    _fill_outbox_headers()
    op.create_table(
        "outbox_files",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("outbox_id", sa.Integer(), sa.ForeignKey("outbox.id"), nullable=False),
        sa.Column("filename", sa.String(200), nullable=False),
        sa.Column("content_type", sa.String(100), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
    )
    op.create_index("ix_outbox_files_outbox_id", "outbox_files", ["outbox_id"])
    op.create_index("ix_ledger_game", "ledger", ["game_id", "power"])
    op.create_index("ix_absences_game", "absences", ["game_id"])


def _fill_next_due() -> None:
    """Each active game's next moment due, as `judge.service.hosting.schedule.next_due` computes it."""
    from judge.service.hosting.schedule import next_due
    from judge.store.models import Game, PhaseRow

    bind = op.get_bind()
    games = bind.execute(sa.select(_games.c.id, _games.c.state, _games.c.phase, _games.c.deadline, _games.c.settings)
                         .where(_games.c.state == "active", _games.c.deadline.is_not(None))).all()
    for game_id, state, phase, deadline, settings in games:
        row = bind.execute(sa.select(_phases.c.opened_at, _phases.c.notices)
                           .where(_phases.c.game_id == game_id, _phases.c.name == phase)).first()
        game = Game(state=state, phase=phase, deadline=deadline, settings=settings or {})
        current = PhaseRow(name=phase, opened_at=row.opened_at, notices=row.notices) if row and phase else None
        bind.execute(_games.update().where(_games.c.id == game_id).values(next_due=next_due(game, current)))


def _fill_outbox_headers() -> None:
    """The Message-ID and In-Reply-To of every stored message, read from its headers."""
    bind = op.get_bind()
    parser = email.parser.BytesHeaderParser(policy=email.policy.compat32)
    last = 0
    while rows := bind.execute(sa.select(_outbox.c.id, _outbox.c.raw).where(_outbox.c.id > last)
                               .order_by(_outbox.c.id).limit(1000)).all():
        for row_id, raw in rows:
            headers = parser.parsebytes(raw or b"")
            values = {name: str(headers[header]).strip()[:300] if headers[header] else None
                      for name, header in (("message_id", "Message-ID"), ("in_reply_to", "In-Reply-To"))}
            bind.execute(_outbox.update().where(_outbox.c.id == row_id).values(**values))
        last = rows[-1].id


def downgrade() -> None:
    op.drop_index("ix_absences_game", "absences")
    op.drop_index("ix_ledger_game", "ledger")
    _fill_outbox_raw()
    op.drop_index("ix_outbox_files_outbox_id", "outbox_files")
    op.drop_table("outbox_files")
    with op.batch_alter_table("outbox") as batch_op:
        batch_op.drop_index("ix_outbox_due")
        batch_op.alter_column("raw", existing_type=sa.LargeBinary(), nullable=False)
        for column in ("body", "refs", "in_reply_to", "message_id", "sender"):
            batch_op.drop_column(column)
    with op.batch_alter_table("games") as batch_op:
        batch_op.drop_index("ix_games_next_due")
        batch_op.drop_column("next_due")


_OUTBOX_COLUMNS = ("id", "game_id", "recipient", "subject", "kind", "sender", "message_id", "in_reply_to", "refs",
                   "body", "raw", "created_at", "status", "attempts", "next_attempt_at", "sent_at", "last_error")
"""The outbox's columns at this revision."""


def _fill_outbox_raw() -> None:
    """Before going back: the message of every row queued since 0006, built as the sender would
    (its files read from this revision's ``outbox_files``: the models' may have changed since)."""
    from sqlalchemy.orm import Session, load_only

    from judge.mail.outbound import Attachment
    from judge.service.outgoing.outbox import message_of
    from judge.store.models import Outbox

    files = sa.table("outbox_files", sa.column("id", sa.Integer), sa.column("outbox_id", sa.Integer),
                     sa.column("filename", sa.String), sa.column("content_type", sa.String),
                     sa.column("data", sa.LargeBinary))
    with Session(bind=op.get_bind()) as session:
        as_then = load_only(*(getattr(Outbox, name) for name in _OUTBOX_COLUMNS))  # not the columns added since
        for row in session.scalars(sa.select(Outbox).where(Outbox.raw.is_(None)).options(as_then)):  # files unread
            attached = session.execute(sa.select(files.c.filename, files.c.content_type, files.c.data)
                                       .where(files.c.outbox_id == row.id).order_by(files.c.id))
            row.raw = message_of(row, [Attachment(*file) for file in attached])
        session.flush()
