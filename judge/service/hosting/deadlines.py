"""A phase's deadline as the game's clock sets it: its kind of phase's weekly rule if the game
master gave it one (``SET CLOCK``, `judge.service.hosting.weekly`), else its length from when it opened;
either way moved past the absences granted.

The rules are kept in the game's settings, ``clock``: each phase setting of the game's kind
(``movement``, ``campaign``...) with its rule's data (`weekly.Weekly.data`).  A game with none
runs on its phases' lengths, as every game did before.

A deadline set otherwise than by its phase's opening (SET DEADLINE, RESUME, an absence approved,
a silent seat's extension, the phase opened again by a ROLLBACK) is moved with `move_to`, which
keeps when, in the game's settings (``deadline_moved``: the phase and the moment): the calendar
feeds publish the phase's event again as a revision of it then (`judge.web.feeds`, RFC 5546).
"""

from __future__ import annotations

from datetime import datetime, time, timedelta

from sqlalchemy.orm import Session

from judge.service.hosting.absences import shift_for_absences
from judge.service.hosting.weekly import Weekly
from judge.store.models import Game


def rules(game: Game) -> dict[str, Weekly]:
    """The weekly rule of each kind of phase that has one."""
    return {setting: Weekly.from_data(data) for setting, data in game.settings.get("clock", {}).items()}


def rule_for(game: Game, setting: str) -> Weekly | None:
    """The weekly rule of the phases that last ``setting`` (None: they last their length)."""
    data = game.settings.get("clock", {}).get(setting)
    return Weekly.from_data(data) if data else None


def deadline_for(session: Session, game: Game, setting: str, opened: datetime, length: timedelta) -> datetime:
    """The deadline of a phase of ``setting`` opening at ``opened``: its rule's next time, or
    ``length`` after; moved past the approved absences (with a rule, to its first time after the
    absence ends)."""
    rule = rule_for(game, setting)
    return past_absences(session, game, rule.deadline(opened) if rule else opened + length, setting)


def past_absences(session: Session, game: Game, deadline: datetime, setting: str) -> datetime:
    """``deadline`` moved past the approved absences: to the day after one ends at the same
    time, or with a weekly rule for ``setting``, to its first time from that day on."""
    rule = rule_for(game, setting)
    while (moved := shift_for_absences(session, game, deadline)) != deadline:
        if rule is None:
            return moved
        deadline = rule.first_from(datetime.combine(moved.date(), time.min))
    return deadline


MOVED = "deadline_moved"
"""The key of the game's settings that keeps when the deadline of its phase last moved (`move_to`)."""


def move_to(game: Game, deadline: datetime, now: datetime) -> None:
    """Move the deadline of the game's phase now to ``deadline``, at ``now``: a revision of the
    phase's deadline, kept for the calendar feeds (`revised_at`)."""
    game.deadline = deadline
    game.settings = {**game.settings, MOVED: {"phase": game.phase, "at": now.isoformat()}}


def revised_at(game: Game) -> datetime | None:
    """When the deadline of the game's phase now last moved (`move_to`), or None: it is the one its
    phase opened with."""
    moved = game.settings.get(MOVED)
    if not isinstance(moved, dict) or moved.get("phase") != game.phase:
        return None
    return datetime.fromisoformat(str(moved["at"]))
