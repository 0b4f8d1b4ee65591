"""What the operator's ``judge status`` reads that no game row holds: when the deadline clock
last ran (``judge serve``'s clock or a ``judge tick``), and by whom.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "heartbeats",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("by", sa.String(200), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("heartbeats")
