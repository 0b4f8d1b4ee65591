"""Mail in the order it was sent, and dropping what mail no longer needs (issue 24).

A seat's sheet, orders, acceptance list and vote remember when the judge's mail server accepted
the mail that set them (``submissions.accepted_at``, ``players.acceptance_at`` and
``players.vote_at``), so that an older mail delivered after a newer one does not replace what
the newer one set.  Rows from before have none: they never hold a mail back.  And the files of
outgoing mail are indexed by their blob, so that the blobs no mail uses any more are found
without reading every file (the deadline clock drops a sent mail's attachments, `judge prune`).

Revision ID: 0012
Revises: 0011
Create Date: 2027-01-10
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("submissions") as batch_op:
        batch_op.add_column(sa.Column("accepted_at", sa.DateTime(), nullable=True))
    with op.batch_alter_table("players") as batch_op:
        batch_op.add_column(sa.Column("acceptance_at", sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column("vote_at", sa.DateTime(), nullable=True))
    op.create_index("ix_outbox_files_sha256", "outbox_files", ["sha256"])


def downgrade() -> None:
    op.drop_index("ix_outbox_files_sha256", "outbox_files")
    with op.batch_alter_table("players") as batch_op:
        batch_op.drop_column("vote_at")
        batch_op.drop_column("acceptance_at")
    with op.batch_alter_table("submissions") as batch_op:
        batch_op.drop_column("accepted_at")
