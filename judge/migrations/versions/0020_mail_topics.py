"""Each stored mail's topic, written once by the judge that reads it first (issue 45).

``inbound_mail.topic`` is the game a mail is about (``game <name>``, else ``address <sender>``:
`judge.service.incoming.handlers.mail.topic`), NULL until a judge has read the mail for it.  With several
judges on one PostgreSQL database, one judge reads each new mail for its topic and writes it here;
then each judge reads the raw mail only of the topics it holds, instead of every judge reading
every mail (`judge.service.incoming.handlers.mail.Runs`).  Rows from before have none: they are read
again when they are applied, as they were.

Revision ID: 0020
Revises: 0019
Create Date: 2027-03-08
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("inbound_mail") as batch_op:
        batch_op.add_column(sa.Column("topic", sa.String(400), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("inbound_mail") as batch_op:
        batch_op.drop_column("topic")
