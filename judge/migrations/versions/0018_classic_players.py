"""What players of the classic judges look for (issue 29): a player's power preferences, given
at JOIN (``JOIN game password PREFER FEGIART``: the powers in the order wanted, read at START),
and the time zone deadlines are written in for them (``SET MYZONE``; None: the game's).

Revision ID: 0018
Revises: 0013
Create Date: 2027-02-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch_op:
        batch_op.add_column(sa.Column("preferences", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("zone", sa.String(64), nullable=True))


def downgrade() -> None:
    # Not a batch (see 0013): SQLite 3.35 and later drops a plain column in place.
    op.drop_column("players", "zone")
    op.drop_column("players", "preferences")
