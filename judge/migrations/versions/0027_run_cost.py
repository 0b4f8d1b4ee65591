"""What a game's deadline run costs (``games.run_cost``): the CPU seconds its last run that
processed a phase took for each seat it mailed, its maps and pages included.  The clock runs
the cheapest of the games due in the same minute first (`judge.service.running.app.claim_next`), so that
the players of a deadline evening have their results as early as they can on average.  A game
upgraded to it has no cost until its next phase is processed: it goes first among its minute's.

Revision ID: 0027
Revises: 0026
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0027"
down_revision = "0026"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("run_cost", sa.Float(), nullable=True))


def downgrade() -> None:
    """The column dropped in place (SQLite 3.35's ``DROP COLUMN``): the games table copied anew, as
    Alembic's batch mode does, would be dropped under the rows that refer to it."""
    op.drop_column("games", "run_cost")
