"""Lines kept for a later phase (``PHASE <later phase>``): ``ahead_blocks``, one row per game,
seat and phase, its text as written, the Message-ID of the mail that sent it and when that mail was
accepted.  Read when the phase opens (`judge.service.incoming.handlers.ahead`), then deleted.

The way back drops the table, and the blocks waiting with it: a judge before this revision keeps no
lines for a later phase (it refused them).

Revision ID: 0032
Revises: 0031
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0032"
down_revision = "0031"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ahead_blocks",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.String(20), nullable=False),
        sa.Column("phase", sa.String(10), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("message_id", sa.String(500), nullable=True),
        sa.Column("accepted_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("game_id", "seat", "phase", name="uq_ahead_blocks_seat_phase"),
    )


def downgrade() -> None:
    op.drop_table("ahead_blocks")
