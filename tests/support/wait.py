"""The one wait of the tests: for what another thread or process does (a daemon, a relay, a child
judge), never for time to pass; a virtual `clock.Clock` stands in for the passing of time."""

from __future__ import annotations

import time
from collections.abc import Callable

PATIENCE = 30.0  # seconds: far beyond what a busy two-core machine needs for any one step


def wait_until(condition: Callable[[], bool], what: str = "the condition", timeout: float = PATIENCE) -> None:
    """Return once ``condition()`` holds; fail naming ``what`` if it has not within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited {timeout:g} s for {what}")
        time.sleep(0.02)
