"""What players of the old judges expect: secret draw and concession votes, observers,
absences, and the marks ROLLFORWARD needs to undo a ROLLBACK.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch_op:
        batch_op.add_column(sa.Column("vote", sa.String(30), nullable=True))
    with op.batch_alter_table("phases") as batch_op:
        batch_op.add_column(sa.Column("rollforward", sa.JSON(), nullable=True))
    op.create_table(
        "observers",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id")),
        sa.Column("address", sa.String(320)),
        sa.Column("created_at", sa.DateTime()),
        sa.UniqueConstraint("game_id", "address"),
    )
    op.create_table(
        "absences",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id")),
        sa.Column("power", sa.String(20)),
        sa.Column("start", sa.Date()),
        sa.Column("end", sa.Date()),
        sa.Column("status", sa.String(16)),
        sa.Column("created_at", sa.DateTime()),
    )


def downgrade() -> None:
    op.drop_table("absences")
    op.drop_table("observers")
    with op.batch_alter_table("phases") as batch_op:
        batch_op.drop_column("rollforward")
    with op.batch_alter_table("players") as batch_op:
        batch_op.drop_column("vote")
