"""A phase's deadline as the game's clock sets it: its kind of phase's weekly rule if the game
master gave it one (``SET CLOCK``, `judge.service.weekly`), else its length from when it opened;
either way moved past the absences granted.

The rules are kept in the game's settings, ``clock``: each phase setting of the game's kind
(``movement``, ``campaign``...) with its rule's data (`weekly.Weekly.data`).  A game with none
runs on its phases' lengths, as every game did before.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta

from sqlalchemy.orm import Session

from judge.service.absences import shift_for_absences
from judge.service.weekly import Weekly
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

