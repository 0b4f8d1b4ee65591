"""Accounts (issue 22): addresses confirm before they receive a game's mail, and the sign-on
back-off counts by where a mail came from.

``confirmations`` replaces ``join_requests`` (a waiting JOIN is kept as a confirmation of kind
``join``): every request that would make an address receive a game's mail waits there for the
address to confirm.  ``confirmed_addresses`` holds the addresses that did; the addresses that
already receive a game's mail (players, game masters, observers) are taken as confirmed.
``signon_failures`` gains the source (IP address and envelope sender) and network it counts
by; ``signons`` keeps the sources that signed on to each seat.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("signon_failures") as batch_op:
        batch_op.add_column(sa.Column("source", sa.String(400), nullable=False, server_default=""))
        batch_op.add_column(sa.Column("network", sa.String(50), nullable=True))
        batch_op.drop_index("ix_signon_failures_sender")
        batch_op.create_index("ix_signon_failures_source", ["source"])
    op.execute("UPDATE signon_failures SET source = '[unknown] ' || sender")
    op.create_table(
        "signons",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("who", sa.String(20), nullable=False),
        sa.Column("source", sa.String(400), nullable=False),
        sa.Column("network", sa.String(50), nullable=True),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.UniqueConstraint("game_id", "who", "source"),
    )
    op.create_table(
        "confirmations",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("token", sa.String(40), nullable=False, unique=True),
        sa.Column("address", sa.String(320), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=True),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_confirmations_address", "confirmations", ["address"])
    requests, confirmations = _tables()
    connection = op.get_bind()
    waiting = [{"token": r.token, "address": r.address, "kind": "join", "game_id": r.game_id,
                "details": {"password": r.password, "requested": r.requested}, "created_at": r.created_at}
               for r in connection.execute(sa.select(requests))]
    if waiting:
        op.bulk_insert(confirmations, waiting)
    op.drop_table("join_requests")
    op.create_table(
        "confirmed_addresses",
        sa.Column("address", sa.String(320), primary_key=True),
        sa.Column("confirmed_at", sa.DateTime(), nullable=False),
    )
    op.execute("INSERT INTO confirmed_addresses (address, confirmed_at) SELECT address, CURRENT_TIMESTAMP FROM "
               "(SELECT address FROM players WHERE address IS NOT NULL UNION SELECT gm_address FROM games "
               "UNION SELECT address FROM observers) AS known")


def downgrade() -> None:
    op.drop_table("confirmed_addresses")
    op.create_table(
        "join_requests",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id")),
        sa.Column("address", sa.String(320)),
        sa.Column("password", sa.String(200)),
        sa.Column("requested", sa.String(20), nullable=True),
        sa.Column("token", sa.String(40), unique=True),
        sa.Column("created_at", sa.DateTime()),
    )
    requests, confirmations = _tables()
    connection = op.get_bind()
    waiting = [{"game_id": r.game_id, "address": r.address, "password": r.details["password"],
                "requested": r.details.get("requested"), "token": r.token, "created_at": r.created_at}
               for r in connection.execute(sa.select(confirmations).where(confirmations.c.kind == "join"))]
    if waiting:
        op.bulk_insert(requests, waiting)
    op.drop_index("ix_confirmations_address", "confirmations")
    op.drop_table("confirmations")
    op.drop_table("signons")
    with op.batch_alter_table("signon_failures") as batch_op:
        batch_op.drop_index("ix_signon_failures_source")
        batch_op.create_index("ix_signon_failures_sender", ["sender"])
        batch_op.drop_column("network")
        batch_op.drop_column("source")


def _tables() -> tuple[sa.TableClause, sa.TableClause]:
    """The waiting JOINs as 0004 kept them, and as this revision keeps them."""
    requests = sa.table("join_requests", sa.column("game_id", sa.Integer()), sa.column("address", sa.String()),
                        sa.column("password", sa.String()), sa.column("requested", sa.String()),
                        sa.column("token", sa.String()), sa.column("created_at", sa.DateTime()))
    confirmations = sa.table("confirmations", sa.column("token", sa.String()), sa.column("address", sa.String()),
                             sa.column("kind", sa.String()), sa.column("game_id", sa.Integer()),
                             sa.column("details", sa.JSON()), sa.column("created_at", sa.DateTime()))
    return requests, confirmations
