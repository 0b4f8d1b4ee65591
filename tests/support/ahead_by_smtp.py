"""Lines for later phases (``PHASE <phase>`` blocks) sent by SMTP through `judge serve`: what a story of
them needs to read of the daemon's game besides its mail (`tests.support.forms_by_smtp.Served`)."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from judge.store.models import AheadBlock, DeadlineRun, Game
from tests.support.forms_by_smtp import Mail, Served


def send(served: Served, sender: str, to: Mail, signon: str, lines: tuple[str, ...]) -> Mail:
    """``lines`` under the sign-on line ``signon``, sent by ``sender`` by SMTP as an answer to ``to``; the
    daemon's answer."""
    return served.reply(sender, to, "\n".join((signon, *lines)))


def lines(mail: Mail) -> set[str]:
    """The lines of ``mail``, an echoed line (``> ``) as the line echoed."""
    return {line.removeprefix("> ") for line in mail.body.split("\n")}


def blocks(served: Served, game: str) -> dict[tuple[str, str], str]:
    """The blocks waiting in ``game``, by seat and phase: their text."""
    with served.running.daemon.db.transaction() as session:
        return {(row.seat, row.phase): row.text for row in session.scalars(
            select(AheadBlock).join(Game, Game.id == AheadBlock.game_id).where(Game.name == game))}


def runs(served: Served, game: str) -> list[str]:
    """What the deadline clock did to ``game`` that changed it, oldest first (`DeadlineRun`, the log's lines):
    a phase the clock closed is there, one that a mail closed is not."""
    with served.running.daemon.db.transaction() as session:
        return list(session.scalars(select(DeadlineRun.what).join(Game, Game.id == DeadlineRun.game_id)
                                    .where(Game.name == game).order_by(DeadlineRun.id)))


def to_deadline(served: Served, game: str) -> float:
    """The hours from the virtual clock's moment to ``game``'s deadline."""
    with served.running.daemon.db.transaction() as session:
        deadline = session.scalars(select(Game.deadline).where(Game.name == game)).one()
    assert deadline is not None
    return (deadline - served.clock()) / timedelta(hours=1)
