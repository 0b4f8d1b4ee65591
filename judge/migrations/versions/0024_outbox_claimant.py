"""Who claimed an outgoing mail (branch ops): ``outbox.claimed_by``.

A row the sender claims (``sending``) now says which process claimed it (``host pid N``,
`judge.service.outgoing.sender.claimant`).  A judge that starts again after it was killed settles at once
the rows its own dead process left ``sending`` (the same machine, a process that is gone),
instead of waiting half a minute for their claims to grow old, so that a phase's results never
go out after the next phase's.  Rows claimed before have none, and are settled by their age as
before.

Revision ID: 0024
Revises: 0023
Create Date: 2027-03-20
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outbox") as batch_op:
        batch_op.add_column(sa.Column("claimed_by", sa.String(200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch_op:
        batch_op.drop_column("claimed_by")
