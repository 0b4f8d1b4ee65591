"""The mark up to which mail has been taken in from the SMTP listener's intake file
(`judge.service.incoming.intake`), one row per intake file.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "intake_marks",
        sa.Column("epoch", sa.String(32), primary_key=True),
        sa.Column("taken", sa.Integer(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("intake_marks")
