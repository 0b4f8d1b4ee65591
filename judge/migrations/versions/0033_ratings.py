"""Players' ratings (`judge.service.hosting.ratings`): ``ratings``, one row per person (a mailbox, H4)
and kind of game (``""``: every kind), its openskill ``mu`` and ``sigma`` and the games rated; and
``rated_games``, each finished game rated, with when it ended, in the order the ratings were made.

The ratings are made from the games already finished when the judge first runs at this revision
(`judge ratings --rebuild`, which the judge runs then by itself).  The way back drops both tables:
a judge before this revision rates nobody, and the players' records and the games keep all that
rates them.

Revision ID: 0033
Revises: 0032
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0033"
down_revision = "0032"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("person", sa.String(320), primary_key=True),
        sa.Column("kind", sa.String(20), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
    )
    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("ended_at", sa.DateTime, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rated_games")
    op.drop_table("ratings")
