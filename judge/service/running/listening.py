"""Whether a ``judge serve`` listens for the judge's mail: for the tick timer and ``judge status``.

Theory of operation.  While no ``judge serve`` listens, the judge's MTA holds the players' mail,
and a deadline run then would process a phase without sheets that were sent in time (a stopped
daemon, the ``judge-tick`` timer firing: every power on zero HOLDs, and their sheets applied to
the next phase once the daemon was back).  A daemon that starts after deadlines passed waits
``settle_seconds`` for that mail and then catches up in the order things happened
(`judge.service.running.app.catch_up`); the timer must leave those deadlines to it.

So every ``judge serve``, while its SMTP server serves, leaves a heartbeat, ``listener``, every
`BEAT` seconds, from its event loop (a loop that is stuck accepts no mail and beats no more),
and marks it stopped when it stops; ``listening`` keeps when the present stretch of listening
began, by any judge on the database: a judge that starts while another listens leaves it as it
is (the other received the mail meanwhile), any other start moves it to now.  The timer's tick
(`timer_tick`) runs the stored mail and the deadlines only when a judge listens and began
listening ``settle_seconds`` ago or more (`held` says why not, otherwise); it still sends the
mail waiting to go out.  A judge that has never had a listener (its mail comes by ``judge
inject``: no MTA holds any) is never held.  ``judge status`` reports the listener as its own
line, a problem when none has listened for `Limits.listener` (`judge.service.operators.operator`).
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.service.config import Settings
from judge.service.hosting.schedule import due_games
from judge.service.running.app import beat, tick
from judge.store.database import Database
from judge.store.models import Heartbeat

LISTENER, LISTENING = "listener", "listening"  # the heartbeats' rows
BEAT = 60.0  # seconds between a listening judge's heartbeats
STALE = timedelta(seconds=3 * BEAT)  # a heartbeat older than this: nobody listens
STOPPED = "stopped: "  # how a stopped listener's row begins


@dataclass(frozen=True)
class Listener:
    """What the heartbeats say of the judges' listening: when one was last seen listening (or
    stopped), by whom, and since when judges have listened without a break."""

    seen: datetime
    by: str
    since: datetime
    stopped: bool

    def listening(self, now: datetime) -> bool:
        return not self.stopped and now - self.seen <= STALE


def whoami(settings: Settings, port: int) -> str:
    """The listener, as its heartbeat names it: machine, process and address."""
    return f"{socket.gethostname()} pid {os.getpid()} on {settings.host}:{port}"[:200]


def listener(session: Session) -> Listener | None:
    """The listening judges' state (`Listener`); None when no judge has ever listened."""
    rows = {row.name: row for row in session.scalars(select(Heartbeat).where(Heartbeat.name.in_((LISTENER,
                                                                                                 LISTENING))))}
    seen = rows.get(LISTENER)
    if seen is None:
        return None
    since = rows.get(LISTENING)
    return Listener(seen.at, seen.by.removeprefix(STOPPED), since.at if since else seen.at,
                    seen.by.startswith(STOPPED))


def listening(db: Database, now: datetime, by: str, starting: bool = False) -> None:
    """The listener ``by`` serves at ``now``: its heartbeat, and the start of a stretch of
    listening when nobody was listening before (or when ``starting``, unless another judge is)."""
    with db.transaction() as session:
        before = listener(session)
        going_on = before is not None and before.listening(now) and not (starting and _same_address(before.by, by))
        if not going_on:
            beat(session, LISTENING, now, by)
        beat(session, LISTENER, now, by)


def _same_address(one: str, other: str) -> bool:
    """Whether two listeners (`whoami`) are one machine's same address: a judge restarted."""
    def where(by: str) -> tuple[str, str]:
        return by.split(" ", 1)[0], by.rsplit(" on ", 1)[-1]

    return where(one) == where(other)


def stopped_listening(db: Database, now: datetime, by: str) -> None:
    """The listener ``by`` has stopped: until a judge beats again, nobody listens."""
    with db.transaction() as session:
        beat(session, LISTENER, now, STOPPED + by)


def held(state: Listener | None, now: datetime, settings: Settings) -> str | None:
    """Why the timer's tick must leave the mail and the deadlines alone at ``now``; None if it
    need not (see the header)."""
    if state is None:
        return None
    if state.stopped:
        return f"judge serve stopped listening at {state.seen:%Y-%m-%d %H:%M} UTC"
    if not state.listening(now):
        return f"no judge serve has listened since {state.seen:%Y-%m-%d %H:%M} UTC"
    settled = state.since + timedelta(seconds=settings.settle_seconds)
    if now < settled:
        return (f"judge serve began listening at {state.since:%H:%M:%S} UTC and waits until {settled:%H:%M:%S} UTC "
                "for the mail its MTA held")
    return None


def timer_tick(db: Database, settings: Settings, now: datetime) -> list[str]:
    """What the timer's ``judge tick`` does: `tick` (the stored mail, then the deadlines), unless
    it is `held`; then one line saying why, if a game is due meanwhile."""
    with db.transaction() as session:
        reason = held(listener(session), now, settings)
        due = due_games(session, now) if reason else []
    if reason is None:
        return tick(db, settings, now)
    if not due:
        return []
    return [f"deadlines of {', '.join(due)} not run: {reason} (the MTA holds the players' mail while nobody listens;"
            " judge serve runs them once it has it)"]
