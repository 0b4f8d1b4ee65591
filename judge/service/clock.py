"""The judge's clock: the moment now, as the database stores moments (naive UTC).

Theory of operation.  Every decision that compares moments -- a deadline due, a mail accepted
before it, how late it came, how many answers an address had this hour, how old a claim on an
outgoing mail is, whether a listener's heartbeat is fresh -- compares a moment one judge wrote
with the moment now of another.  With one judge on SQLite both are its machine's clock.  With
several judges on one PostgreSQL database, on machines whose clocks may differ by minutes, they
must all be one clock, and the only one they share is the database's: so on PostgreSQL a
judge's "now" is its own clock plus its offset to the database's (`SharedClock`).

The offset is measured (`SharedClock.measure`: ``SELECT clock_timestamp()`` between two readings
of the local clock, the database's moment taken as the middle of the round trip, so it is right
within half a round trip) when the judge starts and every `REFRESH` seconds after, off the event
loop.  Reading the clock then costs no query: every decision takes its ``now`` as a value, and a
query per decision would stall the event loop while the database is out of reach.  A
measurement that fails keeps the offset it had (a machine's clock drifts by milliseconds an
hour, a cut link lasts seconds to minutes).  An offset of more than `WARN_SKEW` is logged, once
each time it changes by that much, so the operator learns of a machine whose clock is wrong.
The one-shot commands (``judge tick``, ``judge status``, ...) ask the database once (`now_on`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from sqlalchemy import text

from judge.store.database import Database

log = logging.getLogger("judge")
REFRESH = 60.0  # seconds between measurements of a judge's offset to the database's clock
WARN_SKEW = timedelta(seconds=2)  # an offset this large is logged: the machine's clock is wrong
_DATABASE_NOW = text("SELECT clock_timestamp() AT TIME ZONE 'UTC'")


def utcnow() -> datetime:
    """Naive UTC, as stored."""
    return datetime.now(UTC).replace(tzinfo=None)


def shares_time(db: Database) -> bool:
    """Whether ``db`` is a database several judges may share, whose clock is then the truth."""
    return db.engine.dialect.name == "postgresql"


def database_now(db: Database) -> datetime:
    """The database's clock now (naive UTC): one query."""
    with db.engine.connect() as connection:
        moment = connection.scalar(_DATABASE_NOW)
    assert isinstance(moment, datetime)
    return moment


def now_on(db: Database, local: Callable[[], datetime] = utcnow) -> datetime:
    """The moment now for a one-shot command on ``db``: the database's clock where judges share
    it (`shares_time`), else the local one."""
    return database_now(db) if shares_time(db) else local()


class SharedClock:
    """A judge's clock: ``local`` plus the offset to ``db``'s clock on PostgreSQL (see the header);
    ``local`` alone on SQLite.  Calling it is cheap and never touches the database."""

    def __init__(self, db: Database, local: Callable[[], datetime] = utcnow) -> None:
        self.db = db
        self.local = local
        self.shared = shares_time(db)
        self.offset = timedelta(0)
        self.logged = timedelta(0)  # the offset last logged
        self.lock = threading.Lock()

    def __call__(self) -> datetime:
        return self.local() + self.offset

    def measure(self) -> timedelta:
        """Measure the offset again (PostgreSQL; nothing on SQLite) and return it.  Raises what the
        database raised, keeping the offset it had."""
        if not self.shared:
            return self.offset
        with self.lock:
            before = self.local()
            theirs = database_now(self.db)
            after = self.local()
            self.offset = theirs - (before + (after - before) / 2)
            if abs(self.offset - self.logged) >= WARN_SKEW:
                self.logged = self.offset
                log.warning("this machine's clock is %+.1f s off the database's; the judge keeps the database's time",
                            -self.offset.total_seconds())
            return self.offset
