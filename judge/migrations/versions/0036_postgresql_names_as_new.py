"""On PostgreSQL, the keys a renamed table or column kept under its old name named as the new: the ledger's
primary key, foreign key and id sequence (``ledger_pkey``, ``ledger_game_id_fkey``, ``ledger_id_seq``, the
table renamed ``payola_ledger`` by 0019) and the players' key on game and seat (``players_game_id_power_key``,
the column renamed ``seat`` by 0019).  A new database is made from the models (`judge.store.database.create`),
which gives them the names of the tables and columns as they are now; upgraded or new, every database then
has the same names, which a later migration may alter or drop by (a test holds the two alike).  SQLite keeps
no name for these, and nothing changes there.

A name that is not there (a database whose keys were named otherwise by hand) is left as it is.  The way
back names them as they were.

Revision ID: 0036
Revises: 0035
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0036"
down_revision = "0035"
branch_labels = None
depends_on = None

CONSTRAINTS = (
    ("payola_ledger", "ledger_pkey", "payola_ledger_pkey"),
    ("payola_ledger", "ledger_game_id_fkey", "payola_ledger_game_id_fkey"),
    ("players", "players_game_id_power_key", "players_game_id_seat_key"),
)
"""Each table, its key's old name and its new."""
SEQUENCE = ("ledger_id_seq", "payola_ledger_id_seq")
"""The ledger's id sequence, its old name and its new."""


def upgrade() -> None:
    _rename(forward=True)


def downgrade() -> None:
    _rename(forward=False)


def _rename(forward: bool) -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    for table, old, new in CONSTRAINTS:
        was, to = (old, new) if forward else (new, old)
        there = bind.execute(sa.text("SELECT 1 FROM pg_constraint WHERE conname = :name "
                                     "AND conrelid = CAST(:table AS regclass)"), {"name": was, "table": table})
        if there.first():
            op.execute(f"ALTER TABLE {table} RENAME CONSTRAINT {was} TO {to}")
    was, to = SEQUENCE if forward else SEQUENCE[::-1]
    op.execute(f"ALTER SEQUENCE IF EXISTS {was} RENAME TO {to}")
