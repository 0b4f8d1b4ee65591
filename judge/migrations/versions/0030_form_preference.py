"""An address's choice of the form to fill (SET FORM ON / OFF): ``address_preferences.form``.  Null,
as in every row before this revision, is the judge's default: each mail that opens a phase for a seat
ends with its form; false is SET FORM OFF.

The way back drops the column, and the choices with it: a judge before this revision sends no form.

Revision ID: 0030
Revises: 0029
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0030"
down_revision = "0029"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("address_preferences") as batch_op:
        batch_op.add_column(sa.Column("form", sa.Boolean(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("address_preferences") as batch_op:
        batch_op.drop_column("form")
