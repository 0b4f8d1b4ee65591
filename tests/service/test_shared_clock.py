"""Judges whose machines' clocks disagree by minutes decide every moment by the database's clock
(`judge.service.clock`); on SQLite, one machine, the judge keeps its own."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.bootstrap import database
from judge.service.clock import SharedClock, database_now, now_on, utcnow
from judge.service.hosting import host
from judge.service.incoming.handlers.mail import store
from judge.service.running.app import on_time_mail, tick
from judge.store.database import Database
from judge.store.models import Game, InboundMail, PhaseRow
from tests.support.harness import Judge, raw_mail, two_player_game
from tests.support.wait import wait_until

SKEW = timedelta(minutes=5)
NEAR = timedelta(seconds=2)  # a measurement is right within half a round trip; a loaded test machine's is < 2 s

postgres_only = pytest.mark.skipif(not os.environ.get("JUDGE_TEST_DATABASE_URL"),
                                   reason="judges share a PostgreSQL database (JUDGE_TEST_DATABASE_URL)")


def skewed(offset: timedelta) -> Callable[[], datetime]:
    """A machine's clock ``offset`` off the true time."""
    return lambda: utcnow() + offset


def test_on_sqlite_the_judge_keeps_its_own_clock(tmp_path: Path) -> None:
    judge = Judge(tmp_path, database=f"sqlite:///{tmp_path / 'judge.db'}")
    ahead = skewed(SKEW)
    clock = SharedClock(judge.db, ahead)
    assert clock.measure() == timedelta(0)
    assert abs(clock() - (utcnow() + SKEW)) < NEAR
    assert abs(now_on(judge.db, ahead) - (utcnow() + SKEW)) < NEAR


@postgres_only
@pytest.mark.parametrize("offset", [SKEW, -SKEW], ids=["five minutes ahead", "five minutes behind"])
def test_a_judge_whose_clock_is_off_reads_the_database_time(tmp_path: Path, offset: timedelta) -> None:
    judge = Judge(tmp_path)
    clock = SharedClock(judge.db, skewed(offset))
    assert abs(clock.measure() + offset) < NEAR  # the offset undoes the machine's error
    assert abs(clock() - database_now(judge.db)) < NEAR
    assert abs(now_on(judge.db, skewed(offset)) - database_now(judge.db)) < NEAR


def _set_processing_at(db: Database, game: str, moment: datetime) -> None:
    """Move ``game``'s deadline so that the clock processes it at ``moment``: the deadline plus
    the game's grace (the reminder and the late notice come before it)."""
    with db.transaction() as session:
        row = session.scalars(select(Game).where(Game.name == game)).one()
        row.deadline = moment - timedelta(hours=host.duration(row, "grace"))


def _processed(db: Database) -> int:
    with db.transaction() as session:
        return len(session.scalars(select(PhaseRow.id).where(PhaseRow.status == "processed")).all())


@postgres_only
def test_judges_five_minutes_apart_process_a_deadline_once_at_the_database_time(tmp_path: Path) -> None:
    """A judge 5 minutes ahead does not process a deadline 2 minutes away by the database's
    clock; a sheet it stores meanwhile is accepted before the deadline; once the deadline has
    passed by the database's clock, a judge 5 minutes behind processes it, and only it."""
    judge = Judge(tmp_path)
    judge.now = database_now(judge.db)
    two_player_game(judge)
    ahead_db, behind_db = database(judge.settings.database_url), database(judge.settings.database_url)
    ahead, behind = SharedClock(ahead_db, skewed(SKEW)), SharedClock(behind_db, skewed(-SKEW))
    ahead.measure()
    behind.measure()
    due = database_now(judge.db) + timedelta(minutes=2)
    _set_processing_at(judge.db, "g1", due)
    tick(behind_db, judge.settings, behind())  # the reminder and the late notice, if due
    tick(ahead_db, judge.settings, ahead())  # by its own clock, 3 minutes past the deadline
    assert _processed(judge.db) == 0
    [sheet] = store(ahead_db, [(raw_mail("alice@example.org", "SIGNON FRANCE@g1 alice-pw\n3 : A PAR - BUR"),
                                "alice@example.org")], ahead())
    assert sheet in on_time_mail(judge.db, judge.settings, due)  # accepted before the deadline
    with judge.db.transaction() as session:
        received = session.scalars(select(InboundMail.received_at).where(InboundMail.id == sheet)).one()
    _set_processing_at(judge.db, "g1", received + timedelta(milliseconds=1))  # time passes: the deadline is past
    assert sheet in on_time_mail(judge.db, judge.settings, received + timedelta(milliseconds=1))
    # the two judges' readings of the database's clock differ by their measurements' errors (milliseconds): the
    # deadline is past by the judge behind's reading once that has passed the moment the judge ahead stamped
    wait_until(lambda: behind() > received + timedelta(milliseconds=1), "the judge behind's clock to pass the deadline")
    lines = tick(behind_db, judge.settings, behind())  # by its own clock, 5 minutes before the deadline
    assert any("S1901M processed" in line for line in lines), lines
    assert not any("processed" in line for line in tick(ahead_db, judge.settings, ahead()))
    assert _processed(judge.db) == 1
    with judge.db.transaction() as session:
        assert session.scalars(select(InboundMail.status).where(InboundMail.id == sheet)).one() == "done"
    ahead_db.engine.dispose()
    behind_db.engine.dispose()
