"""Deadlines on a weekly clock: at a time of day, in a named time zone, on chosen weekdays.

Theory of operation.  A game master may give a kind of phase a weekly rule instead of a length
(``SET CLOCK MOVEMENT MON THU 12:00 Europe/Paris``, as DPjudge's ``TIMING`` and njudge's clock
and ``days`` do): a phase of that kind opening at moment *t* is due at the first of the rule's
times that comes at least ``least`` hours after *t*, so that a phase is never absurdly short (one
opening at 11:00 on a Thursday is not due at noon).  The rule is read in its own zone's wall
clock, so a deadline at 12:00 Europe/Paris is 11:00 UTC in winter and 10:00 UTC in summer.  On
the day the clocks go forward, a time they skip (02:30) is the moment an hour later by the
clock (03:30); on the day they go back, a time they pass twice is the first of the two (summer
time).  ``every`` 2 keeps only every other week (Monday to Sunday), counted from the week of
``week0``: AoP 18.2's slower schedule has its campaign letters on every other Thursday and the
spring letter on the Thursday between.

Everything here is pure: a rule and a moment in, a moment out (naive UTC, as the judge stores
moments).  `read_rule` reads a rule from SET CLOCK's words; the host keeps it in the game's
settings (`Weekly.data`) and asks it when a phase opens (`judge.service.hosting.deadlines`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from judge.commands.parse import MAX_DURATION_HOURS, MIN_PHASE_HOURS, parse_duration, read_count, read_date
from judge.language import gettext as _
from judge.language import ngettext
from judge.service.zones import zone_named

WEEKDAYS = ("MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN")
DAY_NAMES = ("Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays", "Sundays")
DEFAULT_LEAST = 12.0
"""Hours a phase lasts at least by default: a phase that opens an hour before the clock's time is
due at its next time after that."""
MAX_EVERY = 4  # weeks between two weeks of a rule at most
_NJUDGE_DAYS = re.compile(r"[S-][M-][T-][W-][T-][F-][S-]", re.IGNORECASE)
"""njudge's way to write the days: a letter a day from Sunday to Saturday, ``-`` for a day off."""
USAGE = ("expected SET CLOCK [phase] days HH:MM [zone] [AT LEAST hours] [EVERY 2 WEEKS [FROM date|NEXT WEEK]], "
         "the days as MON THU, MON,THU, DAILY or -M--T-- (e.g. SET CLOCK MOVEMENT MON THU 12:00 Europe/Paris)")
"""How SET CLOCK is written (`usage`: in the reader's language)."""


def usage() -> str:
    """`USAGE` in the reader's language."""
    return _("expected SET CLOCK [phase] days HH:MM [zone] [AT LEAST hours] [EVERY 2 WEEKS [FROM date|NEXT WEEK]], "
             "the days as MON THU, MON,THU, DAILY or -M--T-- (e.g. SET CLOCK MOVEMENT MON THU 12:00 Europe/Paris)")


@dataclass(frozen=True)
class Weekly:
    """A weekly rule: deadlines on ``days`` (0 is Monday) at ``at`` in ``zone``, each phase at
    least ``least`` hours long, in one week of each ``every`` counted from the week of ``week0``."""

    days: tuple[int, ...]
    at: time
    zone: str
    least: float = DEFAULT_LEAST
    every: int = 1
    week0: date | None = None

    def first_from(self, earliest: datetime) -> datetime:
        """The first of the rule's moments at or after ``earliest`` (naive UTC)."""
        zone = ZoneInfo(self.zone)
        day = earliest.replace(tzinfo=UTC).astimezone(zone).date()
        for offset in range(7 * self.every + 2):
            candidate = day + timedelta(days=offset)
            if candidate.weekday() in self.days and self.in_week(candidate):
                moment = wall_clock(candidate, self.at, zone)
                if moment >= earliest:
                    return moment
        raise AssertionError("a weekly rule has a day in every span of its weeks")  # pragma: no cover

    def deadline(self, opened: datetime) -> datetime:
        """The deadline of a phase opening at ``opened``: the first moment at least ``least`` hours on."""
        return self.first_from(opened + timedelta(hours=self.least))

    def in_week(self, day: date) -> bool:
        """Whether ``day`` is in one of the rule's weeks."""
        if self.every == 1 or self.week0 is None:
            return True
        return ((day - monday_of(self.week0)).days // 7) % self.every == 0

    def words(self) -> str:
        """The rule in words: "Mondays and Thursdays at 12:00 (Europe/Paris), at least 12 hours a phase"."""
        days = _("every day") if len(self.days) == 7 else _and([_day_names()[d] for d in self.days])
        least = ngettext("{hours} hour", "{hours} hours", 1 if self.least == 1 else 2, hours=format(self.least, "g"))
        values = {"days": days, "time": self.at.strftime("%H:%M"), "zone": self.zone, "least": least}
        if self.every > 1 and self.week0 is not None:
            monday = monday_of(self.week0)
            if self.every == 2:
                return _("{days} of every other week from the week of {monday} at {time} ({zone}), at least {least} "
                         "a phase", monday=monday, **values)
            nth = _("third") if self.every == 3 else _("fourth")
            return _("{days} of every {nth} week from the week of {monday} at {time} ({zone}), at least {least} a "
                     "phase", nth=nth, monday=monday, **values)
        return _("{days} at {time} ({zone}), at least {least} a phase", **values)

    def data(self) -> dict[str, Any]:
        """The rule as the game's settings keep it (`from_data` reads it back)."""
        found: dict[str, Any] = {"days": list(self.days), "at": f"{self.at:%H:%M}", "zone": self.zone,
                                 "least": self.least}
        if self.every > 1:
            found |= {"every": self.every, "week0": self.week0.isoformat() if self.week0 else None}
        return found

    @staticmethod
    def from_data(data: Mapping[str, Any]) -> Weekly:
        week0 = data.get("week0")
        return Weekly(tuple(data["days"]), time.fromisoformat(data["at"]), data["zone"], float(data["least"]),
                      int(data.get("every", 1)), date.fromisoformat(week0) if week0 else None)


def monday_of(day: date) -> date:
    return day - timedelta(days=day.weekday())


def wall_clock(day: date, at: time, zone: ZoneInfo) -> datetime:
    """The moment (naive UTC) that ``zone``'s clocks show ``at`` on ``day``: a time they skip
    when summer time starts is read with the offset before the change (02:30 is 03:30 by the new
    clock), one they pass twice when it ends is the first (summer time), as ``fold=0`` reads them."""
    return datetime.combine(day, at, tzinfo=zone).astimezone(UTC).replace(tzinfo=None)


def read_rule(words: Sequence[str], zone: str, today: date) -> Weekly:
    """A weekly rule from SET CLOCK's words after the phase (``MON THU 12:00 Europe/Paris AT LEAST
    2d``); ``zone``: the zone when none is written (the game's); ``today``: where ``EVERY 2 WEEKS``
    counts from when no ``FROM`` says.  ValueError with a message for the game master."""
    rest = [w.upper() for w in words]
    original = list(words)
    days: set[int] = set()
    while rest and not re.fullmatch(r"\d{1,2}:?\d{2}", rest[0]):
        word = rest.pop(0)
        original.pop(0)
        days |= _days(word)
    if not days or not rest:
        raise ValueError(usage())
    at = _time(rest.pop(0))
    original.pop(0)
    least, every, week0 = DEFAULT_LEAST, 1, None
    if rest and rest[0] not in ("AT", "EVERY"):
        zone = zone_named(original[0]).key
        rest.pop(0)
    while rest:
        if rest[:2] == ["AT", "LEAST"] and len(rest) >= 3:
            least = parse_duration(rest[2], MIN_PHASE_HOURS, "a phase on the clock")
            if least > MAX_DURATION_HOURS:
                raise ValueError(_("a phase may last at most {count} days", count=MAX_DURATION_HOURS // 24))
            rest = rest[3:]
        elif rest[0] == "EVERY" and len(rest) >= 3 and rest[2] in ("WEEK", "WEEKS"):
            every = read_count(rest[1], MAX_EVERY, _("EVERY n WEEKS takes 1 to {most} weeks", most=MAX_EVERY))
            if every < 1:
                raise ValueError(_("EVERY n WEEKS takes 1 to {most} weeks", most=MAX_EVERY))
            rest, week0 = rest[3:], today
            if rest[:3] == ["FROM", "NEXT", "WEEK"]:
                rest, week0 = rest[3:], today + timedelta(days=7)
            elif rest[:1] == ["FROM"] and len(rest) >= 2:
                week0 = read_date(rest[1])
                rest = rest[2:]
        else:
            raise ValueError(usage())
    return Weekly(tuple(sorted(days)), at, zone, least, every, monday_of(week0) if every > 1 and week0 else None)


def _days(word: str) -> set[int]:
    if word in ("DAILY", "EVERYDAY"):
        return set(range(7))
    if _NJUDGE_DAYS.fullmatch(word):
        return {(index - 1) % 7 for index, letter in enumerate(word) if letter != "-"}
    found = set()
    for part in filter(None, word.split(",")):
        day = next((i for i, name in enumerate(WEEKDAYS) if part.startswith(name) and
                    part in (name, name + "S", _full(i), _full(i) + "S")), None)
        if day is None:
            raise ValueError(_("'{word}' is not a day: {usage}", word=part[:20], usage=usage()))
        found.add(day)
    return found


def _full(index: int) -> str:
    return DAY_NAMES[index][:-1].upper()


def _time(word: str) -> time:
    match = re.fullmatch(r"(\d{1,2}):?(\d{2})", word)
    if match is None or int(match.group(1)) > 23 or int(match.group(2)) > 59:
        raise ValueError(_("'{word}' is not a time of day (12:00)", word=word[:10]))
    return time(int(match.group(1)), int(match.group(2)))


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else _("{first} and {last}", first=", ".join(names[:-1]), last=names[-1])


def _day_names() -> tuple[str, ...]:
    """`DAY_NAMES` in the reader's language."""
    return (_("Mondays"), _("Tuesdays"), _("Wednesdays"), _("Thursdays"), _("Fridays"), _("Saturdays"), _("Sundays"))
