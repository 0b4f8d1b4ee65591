"""The fixtures every test may ask for (a pytest plugin, loaded by tests/conftest.py): a judge with a
game under way (the test kind's, ``auction``, for the host's tests; Payola's, ``judge``), SMTP relays
stopped at the end, a virtual clock.  A module that needs another judge defines its own ``judge``
fixture, which wins over this one in that module."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.auction import auction_judge, start_auction
from tests.support.clock import Clock
from tests.support.harness import Judge, two_player_game
from tests.support.relay import Relay


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    """A judge on a fresh database (`harness.Judge`) with game g1 under way: gm@example.org its master,
    alice@example.org France and bob@example.org Germany (`harness.two_player_game`)."""
    return two_player_game(Judge(tmp_path))


@pytest.fixture
def auction(tmp_path: Path) -> Judge:
    """A judge hosting the test kinds with auction g1 under way, its mail read: gm@example.org its master,
    Alice (alice@example.org) and Bob (bob@example.org) its players, lot L1 on sale (`support.auction`).
    What a test of the host plays, where any game will do."""
    judge = start_auction(auction_judge(tmp_path))
    judge.new_mail()
    return judge


@pytest.fixture
def relay() -> Iterator[Callable[..., Relay]]:
    """Starts relays (``relay(smtputf8=..., refuse=..., refuse_first=...)``), each stopped at the end."""
    started: list[Relay] = []

    def start(**options: Any) -> Relay:
        started.append(Relay(**options))
        return started[-1]

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def clock() -> Clock:
    """A virtual clock at 2026-03-01 09:00 that moves only when the test moves it."""
    return Clock()
