"""The weekly clock by mail (SET CLOCK, `judge.service.deadlines`): the deadlines it gives the
phases, a judge restarted across one, an absence, the presets of a kind, and what STATUS and GET
INFO say.  Europe/Paris is UTC+1 until 2026-03-29, when the clocks go forward to UTC+2.  The
standard game g1 starts here on Thursday 2026-03-19 at 09:00 UTC."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from sqlalchemy import select

from judge.store.models import Game
from tests.support.harness import Judge, start_game
from tests.support.people import ALICE, BOB, GM

MASTER = "SIGNON MASTER@g1 gm-secret\n"
THURSDAY = datetime(2026, 3, 19, 9, 0)


def deadline(judge: Judge, name: str = "g1") -> tuple[str | None, str, datetime | None]:
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == name)).one()
        return game.phase, game.state, game.deadline


def on_the_clock(tmp_path: Path) -> Judge:
    """g1 started Thursday 2026-03-19 09:00 UTC (S1901M due 48 hours later, Saturday 09:00), its
    movement phases then put on Mondays and Thursdays 12:00 Paris."""
    judge = start_game(Judge(tmp_path, now=THURSDAY), "g1")
    judge.send(GM, MASTER + "SET CLOCK MOVEMENT MON THU 12:00 Europe/Paris")
    return judge


def both_act(judge: Judge) -> None:
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n2 : A PAR - BUR")
    judge.send(BOB, "SIGNON G@g1 bob-pw\n1 : A MUN - RUH")


def test_the_clock_applies_from_the_next_phase_of_its_kind_on(tmp_path: Path) -> None:
    """The running phase keeps its deadline (Saturday 21st 09:00 UTC); the next, opened when both
    powers have acted on Friday 20th at 10:00 UTC, is due Monday 23rd at 12:00 Paris, 11:00 UTC."""
    judge = on_the_clock(tmp_path)
    assert judge.outcome_of("SET CLOCK MOVEMENT MON THU 12:00 Europe/Paris") == ("ok", None)
    assert deadline(judge) == ("S1901M", "active", datetime(2026, 3, 21, 9, 0))
    judge.now = datetime(2026, 3, 20, 10, 0)
    both_act(judge)
    assert deadline(judge) == ("F1901M", "active", datetime(2026, 3, 23, 11, 0))


def test_a_judge_down_across_a_deadline_processes_it_and_keeps_to_the_clock(tmp_path: Path) -> None:
    """F1901M is due Monday 23rd 11:00 UTC; the judge is down from Sunday until Monday 15:00 UTC
    (within max-lateness): its first tick processes the phase, and the next phase, opened then, is
    due on the clock's next time at least 12 hours on: Thursday 26th 12:00 Paris, 11:00 UTC."""
    judge = on_the_clock(tmp_path)
    judge.now = datetime(2026, 3, 20, 10, 0)
    both_act(judge)
    judge.now = datetime(2026, 3, 23, 15, 0)
    assert judge.tick() == ["g1 F1901M processed; next S1902M"]
    assert deadline(judge) == ("S1902M", "active", datetime(2026, 3, 26, 11, 0))


def test_a_judge_down_too_long_pauses_the_game_and_resume_keeps_to_the_clock(tmp_path: Path) -> None:
    """Down past max-lateness (24 hours after Monday 23rd 11:00 UTC): the game is paused; the game
    master's RESUME on Wednesday 25th at 09:00 UTC gives F1901M the clock's next time at least 12 hours
    on, Thursday 26th 11:00 UTC; on Saturday 28th it would be Monday 30th 12:00 Paris summer time, 10:00 UTC."""
    judge = on_the_clock(tmp_path)
    judge.now = datetime(2026, 3, 20, 10, 0)
    both_act(judge)
    judge.now = datetime(2026, 3, 24, 13, 0)
    judge.tick()
    assert deadline(judge)[1] == "paused"
    judge.now = datetime(2026, 3, 25, 9, 0)
    judge.send(GM, MASTER + "RESUME")
    assert deadline(judge) == ("F1901M", "active", datetime(2026, 3, 26, 11, 0))
    judge.send(GM, MASTER + "PAUSE")
    judge.now = datetime(2026, 3, 28, 9, 0)
    judge.later(48)  # Monday 30th 09:00: the deadline has passed
    judge.now = datetime(2026, 3, 28, 9, 0)
    judge.send(GM, MASTER + "SET DEADLINE 2026-03-28 10:00 UTC")
    judge.now = datetime(2026, 3, 28, 11, 0)
    judge.send(GM, MASTER + "RESUME")
    assert deadline(judge) == ("F1901M", "active", datetime(2026, 3, 30, 10, 0))


def test_an_absence_moves_a_deadline_to_the_clocks_first_time_after_it(tmp_path: Path) -> None:
    """F1901M would be due Monday 23rd; Bob is absent from the 22nd to the 24th (approved at once
    with ABSENCE_DAYS), so it is due on the clock's first time from Wednesday 25th on: Thursday 26th
    12:00 Paris, 11:00 UTC."""
    judge = start_game(Judge(tmp_path, now=THURSDAY), "g1", "ABSENCE_DAYS=10")
    judge.send(GM, MASTER + "SET CLOCK MOVEMENT MON THU 12:00 Europe/Paris")
    judge.send(BOB, "SIGNON G@g1 bob-pw\nSET ABSENCE 2026-03-22 TO 2026-03-24")
    judge.now = datetime(2026, 3, 20, 10, 0)
    both_act(judge)
    assert deadline(judge) == ("F1901M", "active", datetime(2026, 3, 26, 11, 0))


def test_a_clock_for_every_phase_and_off_again(tmp_path: Path) -> None:
    judge = on_the_clock(tmp_path)
    judge.send(GM, MASTER + "SET CLOCK DAILY 18:00\nSTATUS")
    status = judge.last_to(GM).body
    assert "deadlines of retreat phases: every day at 18:00 (UTC)" in status
    judge.send(GM, MASTER + "SET CLOCK OFF")
    assert judge.outcome_of("SET CLOCK OFF") == ("ok", None)
    judge.now = datetime(2026, 3, 20, 10, 0)
    both_act(judge)  # F1901M lasts its length again: 48 hours
    assert deadline(judge) == ("F1901M", "active", datetime(2026, 3, 22, 10, 0))


def test_a_clock_that_cannot_be_read_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    judge = on_the_clock(tmp_path)
    judge.send(GM, MASTER + "SET CLOCK MOVEMENT FUNDAY 12:00")
    assert judge.outcome_of("SET CLOCK MOVEMENT FUNDAY 12:00") == ("error", "BAD_CLOCK")
    judge.send(GM, MASTER + "GET INFO")
    assert "deadlines of movement phases: Mondays and Thursdays at 12:00 (Europe/Paris)" in judge.last_to(GM).body


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
