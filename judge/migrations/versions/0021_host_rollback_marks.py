"""A ROLLBACK's marks kept by the host, for every kind: ``games.settings["rollback"]``.

The host now owns ROLLBACK and ROLLFORWARD and marks a phase's results "again, after a rollback"
in every kind (`judge.service.hosting.course`).  A game rolled back before the upgrade and not processed
since keeps its marks where its kind kept them: Exchange and Machiavelli in the game's settings
(``rolled_back``, the phase's name; Exchange also ``rollforward``'s last submission), Payola in
its own phase record (``payola_phases.rollforward``: the last submission, when the first results
went out, the ledger and the acceptance lists).  They move to the host's ``rollback`` (the phase,
when its first results went out, the last submission), Payola keeping its ledger and lists where
they were.  A Machiavelli game had no marks of its submissions: the last one at the upgrade
stands for them.  Downgrading puts them back.

Revision ID: 0021
Revises: 0020
Create Date: 2027-03-15
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None

games = sa.table("games", sa.column("id", sa.Integer), sa.column("kind", sa.String), sa.column("phase", sa.String),
                 sa.column("settings", sa.JSON))
phases = sa.table("phases", sa.column("id", sa.Integer), sa.column("game_id", sa.Integer),
                  sa.column("name", sa.String))
payola_phases = sa.table("payola_phases", sa.column("phase_id", sa.Integer), sa.column("rollforward", sa.JSON))
submissions = sa.table("submissions", sa.column("id", sa.Integer), sa.column("game_id", sa.Integer))


def _last_submission(connection: sa.Connection, game_id: int) -> int:
    return int(connection.scalar(sa.select(sa.func.max(submissions.c.id)).where(submissions.c.game_id == game_id))
               or 0)


def upgrade() -> None:
    connection = op.get_bind()
    for game_id, kind, phase, settings in connection.execute(sa.select(games)).all():
        settings = dict(settings or {})
        rolled = settings.pop("rolled_back", None)
        marks: dict[str, Any] | None = None
        if kind in ("exchange", "machiavelli") and isinstance(rolled, str):
            kept = settings.get("rollforward") or {}
            submission = kept.get("submission") if kind == "exchange" else None
            marks = {"phase": rolled, "processed": None,
                     "submission": submission if submission is not None else _last_submission(connection, game_id)}
            if kind == "exchange" and "position" in kept:
                settings["rollforward"] = {"position": kept["position"]}
        elif (kind or "payola") == "payola" and phase is not None:
            row = connection.execute(sa.select(payola_phases.c.phase_id, payola_phases.c.rollforward)
                                     .join(phases, phases.c.id == payola_phases.c.phase_id)
                                     .where(phases.c.game_id == game_id, phases.c.name == phase)).first()
            if row is not None and row.rollforward:
                kept = dict(row.rollforward)
                marks = {"phase": phase, "processed": kept.pop("processed", None),
                         "submission": kept.pop("submission", 0)}
                connection.execute(payola_phases.update().where(payola_phases.c.phase_id == row.phase_id)
                                   .values(rollforward=kept))
        if marks is not None and marks["phase"] == phase:
            settings["rollback"] = marks
        if marks is not None or rolled is not None:
            connection.execute(games.update().where(games.c.id == game_id).values(settings=settings))


def downgrade() -> None:
    connection = op.get_bind()
    for game_id, kind, phase, settings in connection.execute(sa.select(games)).all():
        settings = dict(settings or {})
        marks = settings.pop("rollback", None)
        if not isinstance(marks, dict):
            continue
        if kind in ("exchange", "machiavelli"):
            settings["rolled_back"] = marks["phase"]
            if kind == "exchange":
                settings["rollforward"] = {**(settings.get("rollforward") or {}), "submission": marks["submission"]}
        elif phase is not None:
            row = connection.execute(sa.select(payola_phases.c.phase_id, payola_phases.c.rollforward)
                                     .join(phases, phases.c.id == payola_phases.c.phase_id)
                                     .where(phases.c.game_id == game_id, phases.c.name == phase)).first()
            if row is not None:
                kept = {**(row.rollforward or {}), "processed": marks["processed"], "submission": marks["submission"]}
                connection.execute(payola_phases.update().where(payola_phases.c.phase_id == row.phase_id)
                                   .values(rollforward=kept))
        connection.execute(games.update().where(games.c.id == game_id).values(settings=settings))
