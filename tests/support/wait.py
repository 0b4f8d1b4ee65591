"""The one wait of the tests: for what another thread or process does (a daemon, a relay, a child
judge), never for time to pass; a virtual `clock.Clock` stands in for the passing of time."""

from __future__ import annotations

import time
from collections.abc import Callable

PATIENCE = 30.0  # seconds: far beyond what a busy two-core machine needs for any one step
FIRST_LOOK = 0.01  # seconds before the condition is asked again, the first time
LONGEST_LOOK = 0.2  # and at most, however long the wait has lasted
"""The condition is asked again after a pause half as long again as the one before, from `FIRST_LOOK` up to
`LONGEST_LOOK`: a step done at once is seen at once, and a wait of seconds (a judge's settle time, a daemon
catching up an evening) asks five times a second, not fifty.  Many conditions open a connection to the judge's
database to ask; asked every 20 ms, they took CPU from the judge they waited for."""


def wait_until(condition: Callable[[], bool], what: str = "the condition", timeout: float = PATIENCE) -> None:
    """Return once ``condition()`` holds; fail naming ``what`` if it has not within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    pause = FIRST_LOOK
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited {timeout:g} s for {what}")
        time.sleep(pause)
        pause = min(pause * 1.5, LONGEST_LOOK)
