"""The one clock of the tests: a virtual one that a test moves by hand, so deadlines, retries and
quiet spells pass in no real time (the daemon takes any callable returning a naive UTC datetime)."""

from __future__ import annotations

from datetime import datetime, timedelta

START = datetime(2026, 3, 1, 9, 0)


class Clock:
    """A clock that stands still until the test moves it (`advance`, or by setting ``now``)."""

    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        """Move the clock on by ``delta`` (``timedelta``'s keywords: ``minutes=10``); the new time."""
        self.now += timedelta(**delta)
        return self.now
