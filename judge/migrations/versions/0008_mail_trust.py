"""What lets the judge trust, or not, the mail it receives: the key of its bounce addresses'
tags (a random value drawn here, kept in ``secrets``), each applied mail's digest (a resend
is a duplicate only if it is the same mail from the same sender), and how much each address
has been answered lately (``reply_limits``: no mail loop with a robot).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    table = op.create_table(
        "secrets",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("value", sa.String(200), nullable=False),
    )
    op.bulk_insert(table, [{"name": "verp", "value": secrets.token_hex(32)}])
    with op.batch_alter_table("inbound_mail") as batch_op:
        batch_op.add_column(sa.Column("digest", sa.String(64), nullable=True))
    op.create_table(
        "reply_limits",
        sa.Column("address", sa.String(320), primary_key=True),
        sa.Column("hour_start", sa.DateTime(), nullable=False),
        sa.Column("replies", sa.Integer(), nullable=False),
        sa.Column("idle_answered_at", sa.DateTime(), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("reply_limits")
    with op.batch_alter_table("inbound_mail") as batch_op:
        batch_op.drop_column("digest")
    op.drop_table("secrets")
