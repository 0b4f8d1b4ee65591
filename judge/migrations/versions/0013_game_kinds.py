"""A judge of several games: each game row says which kind of game it is (``payola`` for every
game made before, the only kind there was; ``pirates`` for Pirates' Proposal), so that the host
hands its commands, phases and pages to that kind (`judge.games`).

Revision ID: 0013
Revises: 0012
Create Date: 2027-01-10
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch_op:
        batch_op.add_column(sa.Column("kind", sa.String(16), nullable=False, server_default="payola"))


def downgrade() -> None:
    # Not a batch: on SQLite that copies ``games``, which the other tables' foreign keys forbid
    # once it holds games; SQLite (3.35 and later) drops a plain column in place.
    op.drop_column("games", "kind")
