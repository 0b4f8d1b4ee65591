"""The columns the models always required, required by the database too: a sign-on failure's sender and
time, an observer's game, address and time, an absence's game, seat, dates, status and time.  Their
migrations (0004, 0005) left them nullable, though no judge ever wrote a row without them; the database
now refuses such a row as the models do (a test holds the migrations' schema to the models').

A row without one of them cannot have come from a judge: before the columns are required, such a row
is dropped where it means nothing (a failure with no sender, an observer of no game, an absence of no
seat or dates), and given what a judge would have written where it can be (the time of the upgrade for
a missing time, ``pending`` for a missing status, which asks the game master again).

The way back makes the columns nullable again, as they were.

Revision ID: 0035
Revises: 0034
Create Date: 2026-11-27
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0035"
down_revision = "0034"
branch_labels = None
depends_on = None

COLUMNS: dict[str, dict[str, sa.types.TypeEngine[Any]]] = {
    "signon_failures": {"sender": sa.String(320), "at": sa.DateTime()},
    "observers": {"game_id": sa.Integer(), "address": sa.String(320), "created_at": sa.DateTime()},
    "absences": {"game_id": sa.Integer(), "seat": sa.String(20), "start": sa.Date(), "end": sa.Date(),
                 "status": sa.String(16), "created_at": sa.DateTime()},
}
"""Each table's columns made NOT NULL, with their types."""
DROPPED = {"signon_failures": ("sender", "at"), "observers": ("game_id", "address"),
           "absences": ("game_id", "seat", "start", "end")}
"""The columns without which a row means nothing: such a row is dropped."""
FILLED: dict[str, dict[str, sa.ColumnElement[Any]]] = {
    "observers": {"created_at": sa.func.current_timestamp()},
    "absences": {"status": sa.literal("pending"), "created_at": sa.func.current_timestamp()},
}
"""The columns a row missing them is given a value for: what a judge would have written."""


def upgrade() -> None:
    for name, columns in COLUMNS.items():
        table = sa.table(name, *(sa.column(column) for column in columns))
        op.execute(table.delete().where(sa.or_(*(table.c[column].is_(None) for column in DROPPED[name]))))
        for column, value in FILLED.get(name, {}).items():
            op.execute(table.update().where(table.c[column].is_(None)).values({column: value}))
        with op.batch_alter_table(name) as batch_op:
            for column, kind in columns.items():
                batch_op.alter_column(column, existing_type=kind, nullable=False)


def downgrade() -> None:
    for name, columns in COLUMNS.items():
        with op.batch_alter_table(name) as batch_op:
            for column, kind in columns.items():
                batch_op.alter_column(column, existing_type=kind, nullable=True)
