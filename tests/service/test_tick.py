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

from judge.service.hosting import host as lifecycle
from judge.service.hosting.schedule import next_due
from judge.store.database import alembic_config
from judge.store.models import Game
from tests.support.auction import auction_judge, master, send, start_auction
from tests.support.harness import Judge

DEADLINE = datetime(2026, 1, 6, 12, 0)  # the auction g1 started 2026-01-05 12:00, its lots last 24 hours
REMINDER = datetime(2026, 1, 6, 0, 0)  # half a phase before it: a phase shorter than two days


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    judge = start_auction(auction_judge(tmp_path))
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
    assert judge.tick() == ["g1 L1 is not due (deadline 2026-01-06 12:00 UTC); notices sent to Alice, Bob"]
    assert due(judge) == DEADLINE  # the reminder sent
    assert judge.tick() == []
    judge.now = DEADLINE
    assert judge.tick() == ["g1 L1 processed; next L2"]
    assert due(judge) == datetime(2026, 1, 7, 0, 0)  # the next phase's reminder, L2 due 01-07 12:00


def test_a_late_notice_comes_at_the_deadline_and_processing_after_the_grace(judge: Judge) -> None:
    master(judge, "SET GRACE 6")
    assert due(judge) == REMINDER
    judge.now = DEADLINE
    assert judge.tick()[0].endswith("notices sent to Alice, Bob")  # late, not reminded first
    assert due(judge) == datetime(2026, 1, 6, 18, 0)
    assert judge.tick() == []
    judge.now = datetime(2026, 1, 6, 18, 0)
    assert judge.tick() == ["g1 L1 processed; next L2"]


def test_an_earlier_deadline_is_run_at_its_time(judge: Judge) -> None:
    master(judge, "SET DEADLINE 2026-01-06 00:00")
    assert due(judge) == datetime(2026, 1, 6, 0, 0)  # no reminder: it would come before the phase opened
    judge.now = datetime(2026, 1, 6, 0, 0)
    assert judge.tick() == ["g1 L1 processed; next L2"]


def test_a_later_deadline_is_not_visited_before_its_reminder(judge: Judge) -> None:
    master(judge, "SET DEADLINE 2026-01-20 12:00")
    assert due(judge) == datetime(2026, 1, 20, 0, 0)  # half a lot's 24 hours before it
    judge.now = DEADLINE
    assert judge.tick() == []


def test_a_paused_game_is_never_due_and_a_resumed_one_is_again(judge: Judge) -> None:
    master(judge, "PAUSE")
    assert due(judge) is None
    judge.later(100)
    assert judge.tick() == []
    master(judge, "RESUME")  # the deadline had passed: a new one, a phase from now (2026-01-10 16:00)
    assert due(judge) == datetime(2026, 1, 10, 4, 0)  # its reminder
    judge.now = datetime(2026, 1, 10, 4, 0)
    assert judge.tick()[0].endswith("notices sent to Alice, Bob")


def test_an_approved_absence_moves_the_moment_with_the_deadline(judge: Judge) -> None:
    send(judge, "Alice", "SET ABSENCE 2026-01-06 TO 2026-01-08")
    assert due(judge) == REMINDER  # asked for, not approved
    master(judge, "APPROVE ABSENCE Alice")
    assert due(judge) == datetime(2026, 1, 9, 0, 0)  # the deadline is 2026-01-09 12:00 now; its reminder
    judge.now = DEADLINE
    assert judge.tick() == []
    judge.now = datetime(2026, 1, 9, 12, 0)
    assert judge.tick()[0].startswith("g1 L1 processed")


def test_the_migration_gives_existing_games_their_moment(judge: Judge) -> None:
    judge.now = REMINDER
    judge.tick()  # g1 reminded: its moment is the deadline
    config = alembic_config(judge.db.url)
    command.downgrade(config, "0005")
    command.upgrade(config, "head")
    assert due(judge) == DEADLINE
    with judge.db.transaction() as session:
        assert session.scalars(select(Game.next_due).where(Game.name == "g2")).one() is None
