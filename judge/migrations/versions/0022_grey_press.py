"""Who sent each grey press, kept for the end's publication (``grey_press``).

Grey press reaches its readers unsigned; only the game master is told who sent it.  The end of a
game publishes what its rules kept secret, grey press's authors among them (ruling M63): the host
now keeps, for each grey press, the game, the phase, when, its author's seat and its readers'
seats.  Grey press sent before the upgrade was not kept: its authors stay unknown.

Revision ID: 0022
Revises: 0021
Create Date: 2027-03-15
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "grey_press",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("phase", sa.String(40), nullable=True),
        sa.Column("sent_at", sa.DateTime(), nullable=False),
        sa.Column("author", sa.String(60), nullable=False),
        sa.Column("readers", sa.JSON(), nullable=False),
    )
    op.create_index("ix_grey_press_game", "grey_press", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_grey_press_game", table_name="grey_press")
    op.drop_table("grey_press")
