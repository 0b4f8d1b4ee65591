"""Each game's storage its own: the host's seat column is ``seat``, and what only Payola keeps
moves out of the host's tables into Payola's (``judge/games/payola/store.py``), with its data.

- ``players.power``, ``submissions.power`` and ``absences.power`` become ``seat``: the host
  names a seat as a seat, whatever the game calls it;
- ``players.acceptance``, ``vote``, ``acceptance_at`` and ``vote_at`` move to ``payola_seats``
  (one row per player row that had any);
- ``phases.acceptance``, ``ledger_mark``, ``ledger_start`` and ``rollforward`` move to
  ``payola_phases`` (one row per phase that had any);
- ``ledger`` becomes ``payola_ledger``.

Columns are renamed and dropped in place (``ALTER TABLE ... RENAME COLUMN`` / ``DROP COLUMN``:
SQLite 3.25 and 3.35, PostgreSQL), never by copying a table: the other tables' foreign keys
forbid SQLite's copy once a table holds rows.  Downgrading moves everything back.

Revision ID: 0019
Revises: 0018
Create Date: 2027-03-01
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None

SEAT_TABLES = ("players", "submissions", "absences")
SEAT_COLUMNS = ("acceptance", "vote", "acceptance_at", "vote_at")
PHASE_COLUMNS = ("acceptance", "ledger_mark", "ledger_start", "rollforward")


def upgrade() -> None:
    op.create_table(
        "payola_seats",
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("acceptance", sa.String(40), nullable=True),
        sa.Column("vote", sa.String(30), nullable=True),
        sa.Column("acceptance_at", sa.DateTime(), nullable=True),
        sa.Column("vote_at", sa.DateTime(), nullable=True),
    )
    op.execute(f"INSERT INTO payola_seats (player_id, {', '.join(SEAT_COLUMNS)}) "
               f"SELECT id, {', '.join(SEAT_COLUMNS)} FROM players WHERE "
               + " OR ".join(f"{column} IS NOT NULL" for column in SEAT_COLUMNS))
    op.create_table(
        "payola_phases",
        sa.Column("phase_id", sa.Integer(), sa.ForeignKey("phases.id"), primary_key=True),
        sa.Column("acceptance", sa.JSON(), nullable=True),
        sa.Column("ledger_mark", sa.Integer(), nullable=True),
        sa.Column("ledger_start", sa.Integer(), nullable=True),
        sa.Column("rollforward", sa.JSON(), nullable=True),
    )
    op.execute(f"INSERT INTO payola_phases (phase_id, {', '.join(PHASE_COLUMNS)}) "
               f"SELECT id, {', '.join(PHASE_COLUMNS)} FROM phases WHERE "
               + " OR ".join(f"{column} IS NOT NULL" for column in PHASE_COLUMNS))
    for column in SEAT_COLUMNS:
        op.execute(f"ALTER TABLE players DROP COLUMN {column}")
    for column in PHASE_COLUMNS:
        op.execute(f"ALTER TABLE phases DROP COLUMN {column}")
    for table in SEAT_TABLES:
        op.execute(f"ALTER TABLE {table} RENAME COLUMN power TO seat")
    op.drop_index("ix_ledger_game", "ledger")
    op.rename_table("ledger", "payola_ledger")
    op.create_index("ix_payola_ledger_game", "payola_ledger", ["game_id", "power"])


def downgrade() -> None:
    op.drop_index("ix_payola_ledger_game", "payola_ledger")
    op.rename_table("payola_ledger", "ledger")
    op.create_index("ix_ledger_game", "ledger", ["game_id", "power"])
    for table in SEAT_TABLES:
        op.execute(f"ALTER TABLE {table} RENAME COLUMN seat TO power")
    seat_columns: tuple[tuple[str, sa.types.TypeEngine[Any]], ...] = (
        ("acceptance", sa.String(40)), ("vote", sa.String(30)), ("acceptance_at", sa.DateTime()),
        ("vote_at", sa.DateTime()))
    for name, kind in seat_columns:
        op.add_column("players", sa.Column(name, kind, nullable=True))
        op.execute(f"UPDATE players SET {name} = (SELECT {name} FROM payola_seats WHERE player_id = players.id)")
    phase_columns: tuple[tuple[str, sa.types.TypeEngine[Any]], ...] = (
        ("acceptance", sa.JSON()), ("ledger_mark", sa.Integer()), ("ledger_start", sa.Integer()),
        ("rollforward", sa.JSON()))
    for name, kind in phase_columns:
        op.add_column("phases", sa.Column(name, kind, nullable=True))
        op.execute(f"UPDATE phases SET {name} = (SELECT {name} FROM payola_phases WHERE phase_id = phases.id)")
    op.drop_table("payola_phases")
    op.drop_table("payola_seats")
