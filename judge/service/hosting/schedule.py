"""When the deadline clock next has something to do for a game: ``Game.next_due``.

A tick must not cost the games that are waiting for nothing.  So each game keeps, in an
indexed column, the next moment the clock can change anything of it, and a tick selects only
the games whose moment has come (`due_games`).  What the clock does to an active game with a
deadline (`judge.service.running.app.process_game`) is: the reminder (``reminder`` hours before the
deadline, `host.reminder_time`, and each day before it where the game's master asked for it,
`judge.service.hosting.silence`), the late notice (at the deadline), and processing (the deadline plus
the grace period); ``next_due`` is the earliest of those not done yet, the notices
sent being in the current phase row (`next_due`).  A game that is not active, or has no
deadline, has none.  A phase that its kind finds complete (in Payola, once every power has
acted) is processed by the mail that completes it, not by the clock; but one that is complete
as soon as it opens (nobody has anything to do in it: `judge.games.GameKind.closes_at_next_tick`),
or that a mail completed after changing the game's phase already, has no mail to complete it,
so it is due at once and the next tick processes it.  If the tick finds it held after all (a
WAIT came meanwhile), it computes the moment again (`reschedule`).  A phase in which no seat
has a player waits for its deadline all the same (`host.nobody_plays`, ruling H1).

Every flush that adds or changes a game or a phase row recomputes that game's ``next_due``
(`_keep_next_due`, a ``before_flush`` hook on every session): a changed deadline, a RESUME, a
ROLLBACK, an approved absence, a notice sent or a phase opened move it without any call site
having to remember it.  A change made with a bulk UPDATE bypasses the hook, so none is made to
what ``next_due`` depends on.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from itertools import chain
from typing import Any

from sqlalchemy import event, select
from sqlalchemy.orm import Session

from judge.service.hosting import host, silence
from judge.service.hosting.kinds import kind_of
from judge.service.states import GameState
from judge.store.models import Game, PhaseRow


def next_due(game: Game, row: PhaseRow | None, complete: bool = False) -> datetime | None:
    """The next moment the clock has something to do for ``game``, whose current phase row is
    ``row``; when the phase opened if it is ``complete`` already (`reschedule`).  A game whose
    moments cannot be computed (a duration stored before durations were bounded, too large for
    a date) is due at once: its deadline run fails the same way, and so pauses it and tells its
    game master (`judge.service.running.app`)."""
    if game.state != GameState.ACTIVE or game.deadline is None:
        return None
    if complete and row is not None:
        return row.opened_at
    try:
        return _next_due(game, game.deadline, row)
    except (OverflowError, ValueError, TypeError):
        return datetime.min


def _next_due(game: Game, deadline: datetime, row: PhaseRow | None) -> datetime:
    notices = (row.notices or []) if row is not None else []
    moments = [deadline + timedelta(hours=host.duration(game, "grace"))]
    if "late" not in notices:
        moments.append(deadline)
        if row is not None and ("reminder" not in notices or silence.policy_of(game) is not None):
            remind = host.reminder_time(game, row)
            if remind is not None and "reminder" not in notices:
                moments.append(remind)
            if (daily := silence.next_daily(game, row, remind)) is not None:
                moments.append(daily)
    return min(moments)


def due_games(session: Session, now: datetime) -> list[str]:
    """The names of the games the clock has something to do for at ``now`` (one indexed query)."""
    return list(session.scalars(select(Game.name).where(Game.next_due <= now).order_by(Game.name)))


@event.listens_for(Session, "before_flush")
def _keep_next_due(session: Session, _context: Any, _instances: Any) -> None:
    """Recompute ``next_due`` of every game that this flush adds or changes, or whose phase rows it does."""
    changed: dict[int, Game] = {}
    changed_rows: list[PhaseRow] = []
    for obj in chain(session.new, session.dirty):
        if isinstance(obj, Game):
            if obj.id is None:  # a new game is forming: nothing is due
                obj.next_due = None
            else:
                changed[obj.id] = obj
        elif isinstance(obj, PhaseRow) and obj.game_id is not None:
            changed_rows.append(obj)
    if not changed and not changed_rows:
        return
    with session.no_autoflush:
        for row in changed_rows:
            if row.game_id not in changed and (game := session.get(Game, row.game_id)) is not None:
                changed[row.game_id] = game
        for game in changed.values():
            reschedule(session, game)


def reschedule(session: Session, game: Game) -> None:
    """Set ``game.next_due`` from the game as it is (its kind says whether its phase is complete
    already, `judge.games.GameKind.closes_at_next_tick`, and no seat asks it to WAIT)."""
    with session.no_autoflush:
        row = _current_row(session, game)
        complete = row is not None and kind_of(session, game).closes_at_next_tick(session, game, row) and (
            not host.seats_waiting(session, game)) and not host.nobody_plays(session, game)
        due = next_due(game, row, complete)
    if game.next_due != due:
        game.next_due = due


def _current_row(session: Session, game: Game) -> PhaseRow | None:
    """The game's current phase row, as this flush will leave it (a new row is not in the database yet)."""
    if game.phase is None or game.state != GameState.ACTIVE or game.deadline is None:
        return None
    for obj in session.new:
        if isinstance(obj, PhaseRow) and obj.game_id == game.id and obj.name == game.phase:
            return obj
    row = host.current_phase(session, game)
    return None if row in session.deleted else row
