"""The tests' one wait (`tests.support.wait.wait_until`): prompt when its condition holds, sparing when it does
not yet."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from tests.support.wait import wait_until


def asked_until(seconds: float) -> tuple[Callable[[], bool], list[float]]:
    """A condition that holds once ``seconds`` have passed, and the moments it was asked at."""
    start = time.monotonic()
    moments: list[float] = []

    def condition() -> bool:
        moments.append(time.monotonic())
        return moments[-1] - start >= seconds

    return condition, moments


def test_a_condition_that_holds_at_once_is_asked_once() -> None:
    condition, moments = asked_until(0.0)
    wait_until(condition, "nothing")
    assert len(moments) == 1


def test_a_wait_of_a_second_asks_its_condition_some_ten_times_not_fifty() -> None:
    """A condition that opens a database connection, asked every 20 ms through a judge's settle time, took
    CPU from the judge it waited for.  The pauses grow from 10 to 200 ms: over a second some ten asks (fewer
    on a loaded machine, whose sleeps last longer), where a pause of 20 ms asked fifty times."""
    condition, moments = asked_until(1.0)
    wait_until(condition, "a second to pass")
    assert len(moments) <= 15


def test_a_condition_never_met_fails_naming_what_was_waited_for() -> None:
    with pytest.raises(TimeoutError, match=r"waited 0\.3 s for the relay"):
        wait_until(lambda: False, "the relay", timeout=0.3)
