"""`Running.ticked` returns only once a tick asked for has run the games due: a test that reads the database right
after it sees what the tick did.  `Running.tick` only asks, and a test that read the phase after it and a barrier
(`Running.settled`, which waits for the mail, not for the deadline workers) once failed on a loaded machine."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from pathlib import Path

from sqlalchemy import select

from judge.bootstrap import hosted, registry
from judge.store.models import Game
from tests.kinds.stalling import Stalling, ran
from tests.support.auction import auction_judge, evening_of
from tests.support.clock import Clock
from tests.support.daemon import Running
from tests.support.harness import once

GAMES = 2


def test_ticked_returns_once_the_games_due_have_been_run(tmp_path: Path) -> None:
    """Each lot's run takes half a second in the deadline worker: when `ticked` returns, both games are past
    their first lot, and were run once each."""
    judge = once(auction_judge(tmp_path, max_creates_per_day=GAMES, max_creates_per_hour=GAMES), evening_of, GAMES)
    judge.db.engine.dispose()
    kind = Stalling(tmp_path / "stopped", slow=0.5, runs=tmp_path / "runs")
    settings = replace(judge.settings, port=0, tick_seconds=3600, deadline_workers=1, mta_flush=None)
    clock = Clock(judge.now)
    running = Running(settings, clock, registry([*hosted(), kind]))
    try:
        running.settled()  # its start is over: the clock may move
        clock.now += timedelta(hours=25)  # the first lot's deadline has passed
        running.ticked()
        with running.daemon.db.transaction() as session:
            assert {game.name: game.phase for game in session.scalars(select(Game))} == {"g0": "L2", "g1": "L2"}
        assert sorted(game for game, _ in ran(tmp_path / "runs")) == ["g0", "g1"]
    finally:
        running.stop()
