"""The deadline clock visits only the games it has something to do for (``games.next_due``).

Every change that moves a game's next moment must move its ``next_due``, or the tick misses a
reminder, a late notice or a deadline: each test makes such a change, checks the stored moment
against one computed afresh, and runs the tick at the moment that matters.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import select

from judge.service import host as lifecycle
from judge.service.schedule import next_due
from judge.store.database import alembic_config
from judge.store.models import Game
from tests.support.harness import Judge, two_player_game
from tests.support.people import ALICE, GM

MASTER, FRANCE = "SIGNON MASTER@g1 gm-secret\n", "SIGNON F@g1 alice-pw\n"
DEADLINE = datetime(2026, 1, 7, 12, 0)  # started 2026-01-05 12:00, movement phases last 48 hours
REMINDER = datetime(2026, 1, 6, 12, 0)  # 24 hours before it


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    judge = two_player_game(Judge(tmp_path))
    judge.send("other@example.org", "CREATE g2 other-secret")  # forming: nothing ever due
    judge.new_mail()
    return judge


def due(judge: Judge) -> datetime | None:
    """g1's stored next moment, checked against one computed afresh from the game as it is."""
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == "g1")).one()
        assert game.next_due == next_due(game, lifecycle.current_phase(session, game))
        return game.next_due


def test_a_tick_visits_a_game_only_when_a_notice_or_its_deadline_is_due(judge: Judge) -> None:
    assert due(judge) == REMINDER
    assert judge.tick() == []
    judge.now = REMINDER
    assert judge.tick() == ["g1 S1901M is not due (deadline 2026-01-07 12:00 UTC); notices sent to France, Germany"]
    assert due(judge) == DEADLINE  # the reminder sent
    assert judge.tick() == []
    judge.now = DEADLINE
    assert judge.tick() == ["g1 S1901M processed; next F1901M"]
    assert due(judge) == datetime(2026, 1, 8, 12, 0)  # the next phase's reminder


def test_a_late_notice_comes_at_the_deadline_and_processing_after_the_grace(judge: Judge) -> None:
    judge.send(GM, MASTER + "SET GRACE 6")
    assert due(judge) == REMINDER
    judge.now = DEADLINE
    assert judge.tick()[0].endswith("notices sent to France, Germany")  # late, not reminded first
    assert due(judge) == datetime(2026, 1, 7, 18, 0)
    assert judge.tick() == []
    judge.now = datetime(2026, 1, 7, 18, 0)
    assert judge.tick() == ["g1 S1901M processed; next F1901M"]


def test_an_earlier_deadline_is_run_at_its_time(judge: Judge) -> None:
    judge.send(GM, MASTER + "SET DEADLINE 2026-01-06 00:00")
    assert due(judge) == datetime(2026, 1, 6, 0, 0)  # no reminder: it would come before the phase opened
    judge.now = datetime(2026, 1, 6, 0, 0)
    assert judge.tick() == ["g1 S1901M processed; next F1901M"]


def test_a_later_deadline_is_not_visited_before_its_reminder(judge: Judge) -> None:
    judge.send(GM, MASTER + "SET DEADLINE 2026-01-20 12:00")
    assert due(judge) == datetime(2026, 1, 19, 12, 0)
    judge.now = DEADLINE
    assert judge.tick() == []


def test_a_paused_game_is_never_due_and_a_resumed_one_is_again(judge: Judge) -> None:
    judge.send(GM, MASTER + "PAUSE")
    assert due(judge) is None
    judge.later(100)
    assert judge.tick() == []
    judge.send(GM, MASTER + "RESUME")  # the deadline had passed: a new one, a phase from now
    assert due(judge) == datetime(2026, 1, 10, 16, 0)
    judge.now = datetime(2026, 1, 10, 16, 0)
    assert judge.tick()[0].endswith("notices sent to France, Germany")


def test_an_approved_absence_moves_the_moment_with_the_deadline(judge: Judge) -> None:
    judge.send(ALICE, FRANCE + "SET ABSENCE 2026-01-06 TO 2026-01-08")
    assert due(judge) == REMINDER  # asked for, not approved
    judge.send(GM, MASTER + "APPROVE ABSENCE FRANCE")
    assert due(judge) == datetime(2026, 1, 8, 12, 0)  # the deadline is 2026-01-09 12:00 now
    judge.now = DEADLINE
    assert judge.tick() == []
    judge.now = datetime(2026, 1, 9, 12, 0)
    assert judge.tick()[0].startswith("g1 S1901M processed")


def test_the_migration_gives_existing_games_their_moment(judge: Judge) -> None:
    judge.now = REMINDER
    judge.tick()  # g1 reminded: its moment is the deadline
    config = alembic_config(judge.db.url)
    command.downgrade(config, "0005")
    command.upgrade(config, "head")
    assert due(judge) == DEADLINE
    with judge.db.transaction() as session:
        assert session.scalars(select(Game.next_due).where(Game.name == "g2")).one() is None
