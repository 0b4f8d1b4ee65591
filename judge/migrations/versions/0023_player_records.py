"""Players' records across games: ``player_records``, one line per phase an address
was due to act in (on time, late or missed), per seat it left to be declared abandoned, and per game
it played to the end (`judge.service.hosting.records`).  A judge upgraded to it starts every record empty.

Revision ID: 0023
Revises: 0022
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_records",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("address", sa.String(320), nullable=False),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.String(20), nullable=False),
        sa.Column("phase", sa.String(10), nullable=True),
        sa.Column("phase_row", sa.Integer, nullable=True),
        sa.Column("what", sa.String(16), nullable=False),
        sa.Column("at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_player_records_address", "player_records", ["address", "at"])
    op.create_index("ix_player_records_game", "player_records", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_player_records_game", "player_records")
    op.drop_index("ix_player_records_address", "player_records")
    op.drop_table("player_records")
