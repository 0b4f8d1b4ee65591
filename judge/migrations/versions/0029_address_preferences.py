"""What an address chose for the mail it gets, by mailbox (ruling H4): ``address_preferences``, one
row per mailbox that chose something, in every game alike.  Its first choice is ``maps`` (SET MAPS:
the pictures a game's mail carries); the row is there for what an address may choose later (SET
FORM).  A mailbox without a row gets the judge's defaults (``maps-default``).

The way back drops the table, and the choices with it: a judge before this revision sends every
address every picture, as it did.

Revision ID: 0029
Revises: 0028
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0029"
down_revision = "0028"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "address_preferences",
        sa.Column("mailbox", sa.String(320), primary_key=True),
        sa.Column("maps", sa.String(8), nullable=True),
        sa.Column("updated_at", sa.DateTime, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("address_preferences")
