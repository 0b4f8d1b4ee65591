"""Who claimed a game for its deadline run: ``games.claimed_by``.

A deadline run's claim on a game now says which process made it (``host pid N started T``,
`judge.service.claimants.claimant`), as an outgoing mail's does since 0024.  A judge killed in the
middle of an evening and started again on the same machine takes at once the games its dead workers
held, instead of waiting for their claims to run out (two minutes with the defaults).  Claims made
before have none, and run out as before.

The way back drops the column: a judge before this revision waits for every claim to run out.

Revision ID: 0031
Revises: 0030
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0031"
down_revision = "0030"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch_op:
        batch_op.add_column(sa.Column("claimed_by", sa.String(200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch_op:
        batch_op.drop_column("claimed_by")
