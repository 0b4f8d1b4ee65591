"""The weekly clock by mail (SET CLOCK, `judge.service.hosting.deadlines`): the deadlines it gives the
phases, a judge restarted across one, an absence, the presets of a kind, and what STATUS and GET
INFO say.  Europe/Paris is UTC+1 until 2026-03-29, when the clocks go forward to UTC+2.  The test
kind's auction g1 (`tests.support.auction`) starts here on Thursday 2026-03-19 at 09:00 UTC, its lots
(phases L1, L2, L3) lasting 24 hours."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from sqlalchemy import select

from judge.store.models import Game
from tests.support.auction import auction_judge, bid, master, send, start_auction
from tests.support.harness import Judge, start_game
from tests.support.people import ALICE, BOB, GM

THURSDAY = datetime(2026, 3, 19, 9, 0)


def deadline(judge: Judge, name: str = "g1") -> tuple[str | None, str, datetime | None]:
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == name)).one()
        return game.phase, game.state, game.deadline


def on_the_clock(tmp_path: Path) -> Judge:
    """g1 started Thursday 2026-03-19 09:00 UTC (L1 due 24 hours later, Friday 09:00), its lots
    then put on Mondays and Thursdays 12:00 Paris."""
    judge = start_auction(auction_judge(tmp_path, now=THURSDAY))
    master(judge, "SET CLOCK LOT MON THU 12:00 Europe/Paris")
    return judge


def both_act(judge: Judge) -> None:
    bid(judge, "Alice", 20)
    bid(judge, "Bob", 10)


def test_the_clock_applies_from_the_next_phase_of_its_kind_on(tmp_path: Path) -> None:
    """The running phase keeps its deadline (Friday 20th 09:00 UTC); the next, opened when both
    players have bid on Friday 20th at 08:00 UTC, is due Monday 23rd at 12:00 Paris, 11:00 UTC."""
    judge = on_the_clock(tmp_path)
    assert judge.outcome_of("SET CLOCK LOT MON THU 12:00 Europe/Paris") == ("ok", None)
    assert deadline(judge) == ("L1", "active", datetime(2026, 3, 20, 9, 0))
    judge.now = datetime(2026, 3, 20, 8, 0)
    both_act(judge)
    assert deadline(judge) == ("L2", "active", datetime(2026, 3, 23, 11, 0))


def test_a_judge_down_across_a_deadline_processes_it_and_keeps_to_the_clock(tmp_path: Path) -> None:
    """L2 is due Monday 23rd 11:00 UTC; the judge is down from Sunday until Monday 15:00 UTC
    (within max-lateness): its first tick processes the phase, and the next phase, opened then, is
    due on the clock's next time at least 12 hours on: Thursday 26th 12:00 Paris, 11:00 UTC."""
    judge = on_the_clock(tmp_path)
    judge.now = datetime(2026, 3, 20, 8, 0)
    both_act(judge)
    judge.now = datetime(2026, 3, 23, 15, 0)
    assert judge.tick() == ["g1 L2 processed; next L3"]
    assert deadline(judge) == ("L3", "active", datetime(2026, 3, 26, 11, 0))


def test_a_judge_down_too_long_pauses_the_game_and_resume_keeps_to_the_clock(tmp_path: Path) -> None:
    """Down past max-lateness (24 hours after Monday 23rd 11:00 UTC): the game is paused; the game
    master's RESUME on Wednesday 25th at 09:00 UTC gives L2 the clock's next time at least 12 hours
    on, Thursday 26th 11:00 UTC; on Saturday 28th it would be Monday 30th 12:00 Paris summer time, 10:00 UTC."""
    judge = on_the_clock(tmp_path)
    judge.now = datetime(2026, 3, 20, 8, 0)
    both_act(judge)
    judge.now = datetime(2026, 3, 24, 13, 0)
    judge.tick()
    assert deadline(judge)[1] == "paused"
    judge.now = datetime(2026, 3, 25, 9, 0)
    master(judge, "RESUME")
    assert deadline(judge) == ("L2", "active", datetime(2026, 3, 26, 11, 0))
    master(judge, "PAUSE")
    judge.now = datetime(2026, 3, 28, 9, 0)
    judge.later(48)  # Monday 30th 09:00: the deadline has passed
    judge.now = datetime(2026, 3, 28, 9, 0)
    master(judge, "SET DEADLINE 2026-03-28 10:00 UTC")
    judge.now = datetime(2026, 3, 28, 11, 0)
    master(judge, "RESUME")
    assert deadline(judge) == ("L2", "active", datetime(2026, 3, 30, 10, 0))


def test_an_absence_moves_a_deadline_to_the_clocks_first_time_after_it(tmp_path: Path) -> None:
    """L2 would be due Monday 23rd; Bob is absent from the 22nd to the 24th (approved at once
    with ABSENCE_DAYS), so it is due on the clock's first time from Wednesday 25th on: Thursday 26th
    12:00 Paris, 11:00 UTC."""
    judge = start_auction(auction_judge(tmp_path, now=THURSDAY), options="ABSENCE_DAYS=10")
    master(judge, "SET CLOCK LOT MON THU 12:00 Europe/Paris")
    send(judge, "Bob", "SET ABSENCE 2026-03-22 TO 2026-03-24")
    judge.now = datetime(2026, 3, 20, 8, 0)
    both_act(judge)
    assert deadline(judge) == ("L2", "active", datetime(2026, 3, 26, 11, 0))


def test_a_clock_for_every_phase_and_off_again(tmp_path: Path) -> None:
    judge = on_the_clock(tmp_path)
    status = master(judge, "SET CLOCK DAILY 18:00", "STATUS").body
    assert "deadlines of lot phases: every day at 18:00 (UTC)" in status
    master(judge, "SET CLOCK OFF")
    assert judge.outcome_of("SET CLOCK OFF") == ("ok", None)
    judge.now = datetime(2026, 3, 20, 8, 0)
    both_act(judge)  # L2 lasts its length again: 24 hours
    assert deadline(judge) == ("L2", "active", datetime(2026, 3, 21, 8, 0))


def test_a_clock_that_cannot_be_read_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    judge = on_the_clock(tmp_path)
    master(judge, "SET CLOCK LOT FUNDAY 12:00")
    assert judge.outcome_of("SET CLOCK LOT FUNDAY 12:00") == ("error", "BAD_CLOCK")
    assert "deadlines of lot phases: Mondays and Thursdays at 12:00 (Europe/Paris)" in master(judge, "GET INFO").body


def test_machiavelli_offers_aop_18_2_schedules_as_presets(tmp_path: Path) -> None:
    """M59: SET CLOCK AOP puts the spring letter on Mondays and campaign letters on Thursdays at
    12:00 GMT, an hour's grace after each.  Started Thursday 2026-03-19 09:00 UTC, the spring
    letter (SP1454A) keeps its length (72 hours); the campaign letter it opens on, once both
    letters are in on Friday 20th, is due Thursday 26th 12:00 UTC (the 20th's is past)."""
    judge = start_game(Judge(tmp_path, now=THURSDAY), "m1", "machiavelli",
                       ((ALICE, "VENICE"), (BOB, "MILAN")))
    judge.send(GM, "SIGNON MASTER@m1 gm-secret\nSET CLOCK AOP\nGET INFO")
    assert judge.outcome_of("SET CLOCK AOP") == ("ok", None)
    info = judge.last_to(GM).body
    assert "deadlines of spring phases: Mondays at 12:00 (UTC)" in info
    assert "deadlines of campaign phases: Thursdays at 12:00 (UTC)" in info
    assert "grace after each deadline: 1 hour" in info
    judge.now = datetime(2026, 3, 20, 10, 0)
    judge.send(GM, "SIGNON MASTER@m1 gm-secret\nPROCESS SP1454A")
    assert deadline(judge, "m1") == ("SP1454C", "active", datetime(2026, 3, 26, 12, 0))
    judge.send(GM, "SIGNON MASTER@m1 gm-secret\nSET CLOCK AOP SLOW")
    assert judge.outcome_of("SET CLOCK AOP SLOW") == ("ok", None)
    assert "of every other week" in judge.last_to(GM).body
