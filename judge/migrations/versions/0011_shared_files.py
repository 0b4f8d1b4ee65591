"""Attachments stored once: an attachment's bytes move from each ``outbox_files`` row into
``blobs``, keyed by their SHA-256, which every mail carrying them shares (a phase's maps went
into the database once per recipient).  And the games' creation time and game master's
address are indexed, for the limits on CREATE (per hour, and per address and day).

Existing rows' bytes are moved: each distinct content becomes one blob.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01
"""

from __future__ import annotations

import hashlib

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

_blobs = sa.table("blobs", sa.column("sha256", sa.String), sa.column("data", sa.LargeBinary))
_files = sa.table("outbox_files", sa.column("id", sa.Integer), sa.column("data", sa.LargeBinary),
                  sa.column("sha256", sa.String))
_BATCH = 200  # rows moved at a time: a map is a few hundred KB


def upgrade() -> None:
    op.create_table(
        "blobs",
        sa.Column("sha256", sa.String(64), primary_key=True),
        sa.Column("data", sa.LargeBinary(), nullable=False),
    )
    with op.batch_alter_table("outbox_files") as batch_op:
        batch_op.add_column(sa.Column("sha256", sa.String(64), nullable=True))
    _move_to_blobs()
    with op.batch_alter_table("outbox_files") as batch_op:
        batch_op.alter_column("sha256", existing_type=sa.String(64), nullable=False)
        batch_op.create_foreign_key("fk_outbox_files_sha256_blobs", "blobs", ["sha256"], ["sha256"])
        batch_op.drop_column("data")
    op.create_index("ix_games_created_at", "games", ["created_at"])
    op.create_index("ix_games_gm_address", "games", ["gm_address"])


def _move_to_blobs() -> None:
    """Each row's bytes into the blob of their SHA-256 (written once), the row pointing at it."""
    bind = op.get_bind()
    stored: set[str] = set()
    last = 0
    while rows := bind.execute(sa.select(_files.c.id, _files.c.data).where(_files.c.id > last)
                               .order_by(_files.c.id).limit(_BATCH)).all():
        for row_id, data in rows:
            digest = hashlib.sha256(data).hexdigest()
            if digest not in stored:
                bind.execute(_blobs.insert().values(sha256=digest, data=data))
                stored.add(digest)
            bind.execute(_files.update().where(_files.c.id == row_id).values(sha256=digest))
        last = rows[-1].id


def downgrade() -> None:
    op.drop_index("ix_games_gm_address", "games")
    op.drop_index("ix_games_created_at", "games")
    with op.batch_alter_table("outbox_files") as batch_op:
        batch_op.add_column(sa.Column("data", sa.LargeBinary(), nullable=True))
    bind = op.get_bind()
    bind.execute(_files.update().values(data=sa.select(_blobs.c.data).where(_blobs.c.sha256 == _files.c.sha256)
                                        .scalar_subquery()))
    with op.batch_alter_table("outbox_files") as batch_op:
        batch_op.alter_column("data", existing_type=sa.LargeBinary(), nullable=False)
        batch_op.drop_constraint("fk_outbox_files_sha256_blobs", type_="foreignkey")
        batch_op.drop_column("sha256")
    op.drop_table("blobs")
