"""The deadline runs that changed a game (records branch): ``deadline_runs``, one row per run of a
game's deadline that did something (processed a phase, extended its deadline, sent notices, paused
it), with the moment and the last mail applied before it, so that a game's record can replay its
mail and its clock in the order they happened (`judge.service.operators.replay`).  A judge upgraded to it
has no runs of its older games: their records replay the runs that closed phases from the phases'
own times.

Revision ID: 0026
Revises: 0025
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "deadline_runs",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("at", sa.DateTime, nullable=False),
        sa.Column("after_mail", sa.Integer, nullable=False),
        sa.Column("what", sa.String(200), nullable=False),
    )
    op.create_index("ix_deadline_runs_game", "deadline_runs", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_deadline_runs_game", "deadline_runs")
    op.drop_table("deadline_runs")
