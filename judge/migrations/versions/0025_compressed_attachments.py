"""An attachment's bytes stored compressed where that saves a tenth (``blobs.encoding``: "zlib").

A phase's SVG maps are text, and AoP's board alone was 200 KB of it in every results mail kept: stored
with zlib they take a third or less.  A PNG, compressed already, stays as it is.  The blobs stored before the
upgrade stay as they are too (their ``encoding`` is NULL); the judge reads both.

Revision ID: 0025
Revises: 0024
Create Date: 2027-03-16
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("blobs") as batch_op:
        batch_op.add_column(sa.Column("encoding", sa.String(8), nullable=True))


def downgrade() -> None:
    """The compressed blobs back as their bytes, then the column dropped."""
    import zlib

    connection = op.get_bind()
    blobs = sa.table("blobs", sa.column("sha256", sa.String), sa.column("data", sa.LargeBinary),
                     sa.column("encoding", sa.String))
    for digest, data in connection.execute(sa.select(blobs.c.sha256, blobs.c.data).where(blobs.c.encoding == "zlib")):
        connection.execute(blobs.update().where(blobs.c.sha256 == digest).values(data=zlib.decompress(data),
                                                                                   encoding=None))
    with op.batch_alter_table("blobs") as batch_op:
        batch_op.drop_column("encoding")
