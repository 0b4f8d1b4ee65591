"""Absences: a deadline that falls inside an approved absence moves past it, and what STATUS
says of the absences asked for or approved."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.language import gettext as _
from judge.service.hosting.kinds import kind_of
from judge.store.models import Absence, Game


def shift_for_absences(session: Session, game: Game, deadline: datetime) -> datetime:
    """A deadline that falls inside an approved absence moves to the day after it ends (same time)."""
    absences = list(session.scalars(select(Absence).where(Absence.game_id == game.id, Absence.status == "approved")))
    moved = True
    while moved:
        moved = False
        for absence in absences:
            if absence.start <= deadline.date() <= absence.end:
                deadline = datetime.combine(absence.end + timedelta(days=1), deadline.time())
                moved = True
    return deadline


def absence_lines(session: Session, game: Game, today: date, seat: str | None = None) -> list[str]:
    """STATUS's words for the absences asked for or approved that have not ended by ``today``:
    ``seat``'s own (a player's STATUS), or every seat's with its name (the game master's).
    A denied one is not shown: nothing follows from it."""
    query = select(Absence).where(Absence.game_id == game.id, Absence.status != "denied", Absence.end >= today)
    if seat is not None:
        query = query.where(Absence.seat == seat)
    title = kind_of(session, game).seat_title
    return [_absence(title(a.seat), a.start, a.end, own=seat is not None, approved=a.status == "approved")
            for a in session.scalars(query.order_by(Absence.start, Absence.id))]


def _absence(title: str, start: date, end: date, *, own: bool, approved: bool) -> str:
    """An absence as STATUS says it, in the reader's language."""
    if own:
        return (_("your absence: {start} to {end}, approved", start=start, end=end) if approved else
                _("your absence: {start} to {end}, asked (the game master decides)", start=start, end=end))
    return (_("{seat} absent: {start} to {end}, approved", seat=title, start=start, end=end) if approved else
            _("{seat} absent: {start} to {end}, asked (the game master decides)", seat=title, start=start, end=end))
