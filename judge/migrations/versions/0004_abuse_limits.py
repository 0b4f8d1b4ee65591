"""What keeps one mail from stopping or cheating the judge: quarantined mail (status
``failed`` becomes ``quarantined``), failed sign-ons for the back-off, join requests waiting
for their address to confirm, and indexes on the queries the hot paths make.  And each
phase's ``ledger_start``, so that a results mail reports every balance change since the last.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("phases") as batch_op:
        batch_op.add_column(sa.Column("ledger_start", sa.Integer(), nullable=True))
    op.execute("UPDATE inbound_mail SET status = 'quarantined' WHERE status = 'failed'")
    op.create_index("ix_inbound_mail_status", "inbound_mail", ["status"])
    op.create_index("ix_outbox_status", "outbox", ["status"])
    op.create_index("ix_submissions_lookup", "submissions", ["game_id", "phase", "power", "kind"])
    op.create_table(
        "signon_failures",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=True),
        sa.Column("who", sa.String(20), nullable=True),
        sa.Column("sender", sa.String(320)),
        sa.Column("at", sa.DateTime()),
    )
    op.create_index("ix_signon_failures_seat", "signon_failures", ["game_id", "who"])
    op.create_index("ix_signon_failures_sender", "signon_failures", ["sender"])
    op.create_table(
        "join_requests",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id")),
        sa.Column("address", sa.String(320)),
        sa.Column("password", sa.String(200)),
        sa.Column("requested", sa.String(20), nullable=True),
        sa.Column("token", sa.String(40), unique=True),
        sa.Column("created_at", sa.DateTime()),
    )


def downgrade() -> None:
    op.drop_table("join_requests")
    op.drop_index("ix_signon_failures_sender", "signon_failures")
    op.drop_index("ix_signon_failures_seat", "signon_failures")
    op.drop_table("signon_failures")
    op.drop_index("ix_submissions_lookup", "submissions")
    op.drop_index("ix_outbox_status", "outbox")
    op.drop_index("ix_inbound_mail_status", "inbound_mail")
    op.execute("UPDATE inbound_mail SET status = 'failed' WHERE status = 'quarantined'")
    with op.batch_alter_table("phases") as batch_op:
        batch_op.drop_column("ledger_start")
