"""How a game handles a silent seat without its game master: the policy (``SET SILENCE``), the
daily reminders it sends before a deadline, and the marks its automatic extensions leave.

Theory of operation.  A game whose master set a policy (`Policy`; none: the game behaves as
every game did before) reminds the seats still to act each day before the deadline, at the
deadline's time of day (`daily_due`: the reminders are the kind's, `judge.service.hosting.host.send_notices`),
as well as ``reminder`` hours before it, but never twice on one of the days counted back from the
deadline (`reminded_that_day`).  At the deadline and grace, a phase in which a played seat
has still not acted is extended by ``extension`` hours, at most ``extensions`` times, and
everyone is told (who is late only where the game shows who has acted, ruling H2); then it is
processed.  A seat that misses ``abandon`` deadlines in a row is declared abandoned and opened
for takeover (`judge.service.hosting.silent_seats`).  What counts towards it, and on a player's record,
is the judge's (ruling H4): a phase whose deadline came under 24 hours after it opened counts
for nobody (`judged`), and a miss counts towards abandonment only in a phase opened once the
policy stood (`policy_since`: the moment it was set is kept with it, ``since``).

The marks live in the phase row's ``notices`` beside the reminder and the late notice, so that a
ROLLBACK, which clears them, forgets them too: ``daily@<moment>`` for each daily reminder sent
(the deadline's moment *k* days before it), ``extended@<deadline before>><deadline after>`` for
each extension.  This module reads no database: the host's clock asks it (`next_daily`,
`judge.service.hosting.schedule`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime, timedelta

from judge.language import gettext as _
from judge.service.templates import duration
from judge.store.models import Game, PhaseRow

DAY = timedelta(days=1)
QUIET = timedelta(hours=12)
"""No daily reminder comes sooner after the phase opened: its opening mail has just said it all."""


@dataclass(frozen=True)
class Policy:
    """What the judge does by itself about silent seats: remind them ``daily``; extend a
    deadline at most ``extensions`` times by ``extension`` hours while a played seat has not
    acted; declare a seat abandoned after ``abandon`` missed deadlines in a row (0: never).
    ``SET SILENCE ON`` sets these defaults, njudge's and the Diplicity rewrite's."""

    daily: bool = True
    extensions: int = 1
    extension: float = 24.0
    abandon: int = 2

    def words(self) -> str:
        """The policy as STATUS and the announcements write it."""
        parts = [_("the seats still to act are reminded each day before the deadline") if self.daily
                 else _("the seats still to act are reminded once before the deadline")]
        if self.extensions == 1:
            parts.append(_("a deadline a played seat misses is extended once by {length}, everyone told (which seat "
                           "is late only where STATUS shows who has acted)", length=duration(self.extension)))
        elif self.extensions:
            parts.append(_("a deadline a played seat misses is extended up to {times} times by {length}, everyone "
                           "told (which seat is late only where STATUS shows who has acted)", times=self.extensions,
                           length=duration(self.extension)))
        else:
            parts.append(_("a deadline is not extended for a late seat"))
        parts.append(_("no seat is declared abandoned") if not self.abandon else
                     _("a seat that misses a deadline is declared abandoned and opened for TAKEOVER")
                     if self.abandon == 1 else
                     _("a seat that misses {count} deadlines in a row is declared abandoned and opened for TAKEOVER",
                       count=self.abandon))
        return "; ".join(parts)


SINCE = "since"
"""The key, in the game's ``silence`` settings, of the moment its policy was last set (changed)."""


def policy_of(game: Game) -> Policy | None:
    """The game's policy, None if it has none (``SET SILENCE OFF``: the game master handles silent seats)."""
    data = game.settings.get("silence")
    return Policy(**{key: value for key, value in data.items() if key != SINCE}) if data else None


def set_policy(game: Game, policy: Policy | None, now: datetime) -> None:
    """Set the game's policy (None: none), keeping when it was set if it changes (`judged`)."""
    kept = game.settings.get("silence")
    since = kept.get(SINCE) if kept and policy == policy_of(game) else now.isoformat()
    game.settings = {key: value for key, value in game.settings.items() if key != "silence"} | (
        {"silence": asdict(policy) | {SINCE: since}} if policy else {})


# -- what counts on a player's record ---------------------------------------------------------------

JUDGED = timedelta(hours=24)
"""The least time between a phase's opening and its deadline for it to count on a player's record."""


def judged(game: Game, row: PhaseRow) -> bool:
    """Whether the phase of ``row`` counts on its players' records (ruling H4: a game master's
    settings cannot mark a record): its deadline as the game master set it (`on_time_by`, before
    the judge's automatic extensions) at least `JUDGED` after it opened.  A shorter phase gives
    no line to anyone, on time, late or missed, and so counts towards nobody's abandonment."""
    due = on_time_by(game, row)
    return due is not None and due - row.opened_at >= JUDGED


def policy_since(game: Game) -> datetime:
    """When the game's policy was last set: only the deadlines of phases opened since count towards
    a seat's abandonment (ruling H4).  A policy kept before the judge noted it: set long ago."""
    data = game.settings.get("silence") or {}
    return datetime.fromisoformat(data[SINCE]) if data.get(SINCE) else datetime.min


# -- the daily reminders ----------------------------------------------------------------------------


def _covered(row: PhaseRow, remind: datetime | None) -> datetime:
    """Up to when the seats still to act have been reminded: the phase's opening (and `QUIET` after
    it), the last daily reminder, or the usual reminder if it was sent."""
    notices = row.notices or []
    moments = [row.opened_at + QUIET, *(datetime.fromisoformat(n[6:]) for n in notices if n.startswith("daily@"))]
    if "reminder" in notices and remind is not None:
        moments.append(remind)
    return max(moments)


def _dailies(game: Game, row: PhaseRow) -> bool:
    policy = policy_of(game)
    return policy is not None and policy.daily and game.deadline is not None and "late" not in (row.notices or [])


def next_daily(game: Game, row: PhaseRow, remind: datetime | None) -> datetime | None:
    """When the next daily reminder is due (the deadline's time of day, a whole number of days
    before it, after the last reminder); None without one (no policy, or none left).
    ``remind``: the usual reminder's moment (`judge.service.hosting.host.reminder_time`)."""
    if not _dailies(game, row):
        return None
    assert game.deadline is not None
    days = -(-(game.deadline - _covered(row, remind)) // DAY) - 1  # the most whole days before, after the last
    return game.deadline - days * DAY if days >= 1 else None


def daily_due(game: Game, row: PhaseRow, remind: datetime | None, now: datetime) -> datetime | None:
    """The daily reminder due at ``now`` and not yet sent (the latest of its moments up to now),
    or None."""
    if not _dailies(game, row) or game.deadline is None or now >= game.deadline:
        return None
    days = -(-(game.deadline - now) // DAY)  # the fewest whole days before the deadline, up to now
    moment = game.deadline - days * DAY
    return moment if moment > _covered(row, remind) else None


def reminded_that_day(game: Game, row: PhaseRow, remind: datetime) -> bool:
    """Whether a daily reminder was sent on the day before the deadline on which the usual reminder
    at ``remind`` falls (the days counted back from the deadline, as the daily reminders are): the
    seats were reminded that day, so the usual reminder is not sent half an hour after it (a phase
    under two days gets it half the phase ahead: AoP's Tuesday 13:00 to Thursday 12:00, 23.5 hours
    ahead).  A seat is reminded once a day."""
    if game.deadline is None:
        return False
    day = -(-(game.deadline - remind) // DAY)
    return any(-(-(game.deadline - datetime.fromisoformat(notice[6:])) // DAY) == day
               for notice in row.notices or [] if notice.startswith("daily@"))


def daily_mark(moment: datetime) -> str:
    return f"daily@{moment.isoformat()}"


# -- extensions -----------------------------------------------------------------------------------------


def extensions(row: PhaseRow) -> list[tuple[datetime, datetime]]:
    """The phase's automatic extensions so far: each deadline before and after."""
    found = []
    for notice in row.notices or []:
        if notice.startswith("extended@"):
            before, _to, after = notice[9:].partition(">")
            found.append((datetime.fromisoformat(before), datetime.fromisoformat(after)))
    return found


def extended_to(policy: Policy, deadline: datetime, grace: timedelta) -> datetime:
    """The deadline an automatic extension of ``deadline`` gives, the clock running on time: the
    extension's length after it, or after the grace period if that is longer (it is granted once
    the grace has passed).  What a late alert promises (ruling H3)."""
    length = timedelta(hours=policy.extension)
    return deadline + length if length > grace else deadline + grace + length


def extension_left(game: Game, row: PhaseRow) -> Policy | None:
    """The game's policy if it grants the phase of ``row`` another automatic extension, else None."""
    policy = policy_of(game)
    return policy if policy is not None and len(extensions(row)) < policy.extensions else None


def extension_mark(before: datetime, after: datetime) -> str:
    return f"extended@{before.isoformat()}>{after.isoformat()}"


def on_time_by(game: Game, row: PhaseRow) -> datetime | None:
    """The deadline a seat's mail had to meet to be on time in the phase of ``row``: the deadline
    before the judge's automatic extensions; the game master's own deadline if it moved it since
    (a game master's extension counts against nobody)."""
    found = extensions(row)
    if found and game.deadline == found[-1][1]:
        return found[0][0]
    return game.deadline
