"""An address's language (SET LANGUAGE): ``address_preferences.language``, the code of a language the
judge writes (``it``, ``fr``).  Null, as in every row before this revision, is no choice: the mail of a
game is written in the game's language, else the judge's ``language-default``.  A game's own language
(SET GAME LANGUAGE) is one of its settings, kept with the others (no column).

The way back drops the column, and the choices with it: a judge before this revision writes English.

Revision ID: 0034
Revises: 0033
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0034"
down_revision = "0033"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("address_preferences") as batch_op:
        batch_op.add_column(sa.Column("language", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("address_preferences") as batch_op:
        batch_op.drop_column("language")
