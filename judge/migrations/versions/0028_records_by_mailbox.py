"""Players' records by mailbox (ruling H4): every line of ``player_records`` is kept under the
mailbox of the address that earned it, whatever case or ``+tag`` it was written with
(``Bob+x@Example.org``: ``bob@example.org``, `judge.service.mailbox`), so that the records of one
person written several ways are merged into one; the log says how many addresses were merged.

The mailbox is written here as this revision defines it, whatever the judge's own function
becomes.  The way back keeps the merge: the addresses as written are not known any more, and a
record under its mailbox is what every later judge reads.

Revision ID: 0028
Revises: 0027
Create Date: 2026-11-27
"""

from __future__ import annotations

import logging

import sqlalchemy as sa
from alembic import op

revision = "0028"
down_revision = "0027"
branch_labels = None
depends_on = None

log = logging.getLogger("judge")


def mailbox(address: str) -> str:
    """The mailbox of ``address``: its local part without its ``+tag`` and its domain, lower-cased;
    a quoted local part, or one that is nothing but a tag, whole."""
    local, at, domain = address.strip().rpartition("@")
    if not at:
        return address.strip().lower()
    if not local.startswith('"'):
        local = local.partition("+")[0] or local
    return f"{local.lower()}@{domain.lower()}"


def upgrade() -> None:
    records = sa.table("player_records", sa.column("address", sa.String()))
    connection = op.get_bind()
    written = [address for address, in connection.execute(sa.select(records.c.address).distinct())]
    moved = {address: mailbox(address) for address in written if mailbox(address) != address}
    for address, box in sorted(moved.items()):
        connection.execute(records.update().where(records.c.address == address).values(address=box))
    people = len({mailbox(address) for address in written})
    merged = len(written) - people
    log.info("players' records by mailbox: %s merged into another of its mailbox, %s kept (%s rewritten)",
             _counted(merged, "address"), _counted(people, "record"), _counted(len(moved), "address"))


def _counted(count: int, noun: str) -> str:
    return f"{count} {noun if count == 1 else noun + ('es' if noun.endswith('s') else 's')}"


def downgrade() -> None:
    log.info("players' records stay by mailbox: the addresses as they were written are not kept")
