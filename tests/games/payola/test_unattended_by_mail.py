"""A Payola game that runs without its game master: deadlines on a weekly clock across the change
to summer time, and a silent player who is reminded each day, extended, declared abandoned and
replaced by a newcomer's TAKEOVER, every mail read as its reader would.

The story, worked out by hand (Europe/Paris: UTC+1 until the clocks go forward on Sunday
2026-03-29, UTC+2 after).  The game starts on Thursday 2026-03-19 at 09:00 UTC with movement
phases due Mondays and Thursdays at 12:00 Paris time, each at least 12 hours long, and the
standard policy for silent seats (a reminder each day, one extension of 24 hours, abandoned after
2 missed deadlines in a row).

- S1901M opens Thursday 19th 09:00 UTC; 12:00 Paris that day (11:00 UTC) is under 12 hours on,
  so it is due Monday 23rd 12:00 Paris, 11:00 UTC.  Alice sends a sheet, Bob nothing.  Bob is
  reminded at the deadline's time on the days before it that come 12 hours or more after the
  opening: Friday 20th, Saturday 21st and Sunday 22nd at 11:00 UTC (the usual reminder, 24 hours
  before, is the Sunday one).
- Monday 23rd 11:00 UTC: Germany has not acted, so the deadline goes to Tuesday 24th 11:00 UTC
  and everyone is told; Tuesday 24th it is processed: Bob's first missed deadline.
- F1901M opens Tuesday 24th 11:00 UTC: due Thursday 26th 12:00 Paris, 11:00 UTC (reminded
  Wednesday 25th 11:00), extended to Friday 27th 11:00 UTC, processed then: Bob's second miss, and
  Germany is declared abandoned.
- S1902M opens Friday 27th 11:00 UTC: the next Monday, the 30th, is after the change, so its
  12:00 Paris is 10:00 UTC.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

from sqlalchemy import select

from judge.store.models import Game, PlayerRecord
from tests.support.harness import Judge, Sent
from tests.support.people import ALICE, BOB, GM, OBSERVER

DAVE = "dave@example.org"  # a newcomer
SETUP = ("SIGNON MASTER@g1 gm-secret\nSET CLOCK MOVEMENT MON THU 12:00 Europe/Paris\n"
         "SET CLOCK RETREAT DAILY 12:00 Europe/Paris\nSET CLOCK ADJUSTMENT DAILY 12:00 Europe/Paris\n"
         "SET SILENCE ON\nSTART")


def game_now(judge: Judge) -> tuple[str | None, datetime | None, datetime | None]:
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == "g1")).one()
        return game.phase, game.deadline, game.next_due


def run_clock_until(judge: Judge, end: datetime) -> list[tuple[datetime, list[str]]]:
    """Tick at each moment the clock has something to do, up to ``end``, as the daemon does: what
    each tick logged."""
    ticks = []
    while (due := game_now(judge)[2]) is not None and due <= end:
        judge.now = due
        ticks.append((due, judge.tick()))
    judge.now = end
    return ticks


def to(mails: list[Sent], address: str) -> list[Sent]:
    return [mail for mail in mails if mail.to == address]


def started(tmp_path: Path) -> Judge:
    judge = Judge(tmp_path, now=datetime(2026, 3, 19, 9, 0))
    judge.send(GM, "CREATE g1 gm-secret")
    judge.send(ALICE, "JOIN g1 alice-pw FRANCE")
    judge.send(BOB, "JOIN g1 bob-pw GERMANY")
    judge.send(OBSERVER, "OBSERVE g1")
    judge.send(GM, SETUP)
    return judge


def test_a_silent_player_is_reminded_extended_abandoned_and_replaced_on_a_weekly_clock_across_summer_time(
        tmp_path: Path) -> None:
    judge = started(tmp_path)
    assert judge.outcome_of("START") == ("ok", None)
    assert game_now(judge)[:2] == ("S1901M", datetime(2026, 3, 23, 11, 0))
    start = judge.new_mail()
    told = [m for m in start if m.subject == "g1: how g1 runs"]  # START says how the game runs, to all
    assert {m.to for m in told} == {ALICE, BOB, OBSERVER}
    assert "Mondays and Thursdays at 12:00 (Europe/Paris)" in told[0].body
    assert "declared abandoned" in told[0].body
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n2 : A PAR - BUR")
    judge.new_mail()

    ticks = run_clock_until(judge, datetime(2026, 3, 24, 12, 0))
    mails = judge.new_mail()
    reminders = to(mails, BOB)
    assert [m.subject for m in reminders[:3]] == ["g1 S1901M reminder"] * 3
    assert [moment for moment, said in ticks if "notices sent to Germany" in said[0]] == [
        datetime(2026, 3, 20, 11, 0), datetime(2026, 3, 21, 11, 0), datetime(2026, 3, 22, 11, 0)]
    assert not [m for m in to(mails, ALICE) if "reminder" in m.subject]  # Alice had sent: nothing to remind
    extended = [m for m in mails if m.subject == "g1: S1901M extended"]
    assert {m.to for m in extended} == {ALICE, BOB, GM, OBSERVER}  # each knows who is late
    assert all("Germany has not acted yet" in m.body and "2026-03-24 11:00 UTC" in m.body for m in extended)
    assert ticks[-1] == (datetime(2026, 3, 24, 11, 0), ["g1 S1901M processed; next F1901M"])

    assert game_now(judge)[:2] == ("F1901M", datetime(2026, 3, 26, 11, 0))
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n2 : A BUR - MUN")
    run_clock_until(judge, datetime(2026, 3, 27, 12, 0))
    mails = judge.new_mail()
    abandoned = [m for m in mails if m.subject == "g1: Germany declared abandoned"]
    assert {m.to for m in abandoned} == {ALICE, BOB, GM, OBSERVER}
    own = to(abandoned, BOB)[0]
    assert "You have not acted in 2 phases of g1 in a row" in own.body
    assert "rule 3.3" in own.body  # what Payola does with its units meanwhile
    public = to(abandoned, OBSERVER)[0]
    assert "TAKEOVER GERMANY@g1 password" in public.body and "@example.org" not in public.body

    # summer time: S1902M is due Monday 30th at 12:00 in Paris, which is 10:00 UTC now
    assert game_now(judge)[:2] == ("S1902M", datetime(2026, 3, 30, 10, 0))
    judge.send("zed@example.org", "LIST")
    assert "g1: active, S1902M; open for TAKEOVER: GERMANY" in judge.last_to("zed@example.org").body
    judge.send(BOB, "SIGNON G@g1 bob-pw")
    assert judge.outcome_of("SIGNON G@g1 ****")[0] == "error"

    judge.send(ALICE, "TAKEOVER GERMANY@g1 other-pw")  # the player of another seat may not
    assert judge.outcome_of("TAKEOVER GERMANY@g1 ****") == ("error", "ALREADY_PLAYING")
    judge.new_mail()
    judge.send(DAVE, "TAKEOVER GERMANY@g1 dave-pw")
    mails = judge.new_mail()
    briefing = [m for m in mails if m.subject == "g1: your briefing as Germany"]
    assert [m.to for m in briefing] == [DAVE]
    assert "Your treasury" in briefing[0].body and "S1902M" in briefing[0].body
    news = {m.to: m for m in mails if m.subject.startswith("g1: Germany has a new player")}
    assert set(news) == {ALICE, DAVE, OBSERVER}
    assert DAVE in news[ALICE].body and "@" not in news[OBSERVER].body.replace("judge@", "")
    assert not to(mails, BOB)  # the player who left is told nothing more of the game

    with judge.db.transaction() as session:
        lines = list(session.execute(select(PlayerRecord.address, PlayerRecord.phase, PlayerRecord.what)
                                     .order_by(PlayerRecord.id)))
    assert lines == [(ALICE, "S1901M", "on_time"), (BOB, "S1901M", "missed"),
                     (ALICE, "F1901M", "on_time"), (BOB, "F1901M", "missed"), (BOB, "F1901M", "abandoned")]


def test_every_mail_a_silent_player_gets_is_about_its_own_seat(tmp_path: Path) -> None:
    """Bob's reminders name only Germany, and no mail to Bob, Dave or the observer carries France's
    sheet, acceptance list or treasury, which Payola keeps secret."""
    judge = started(tmp_path)
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n2 : A PAR - BUR")
    run_clock_until(judge, datetime(2026, 3, 24, 12, 0))
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n3 : A BUR - MUN")
    run_clock_until(judge, datetime(2026, 3, 27, 12, 0))
    judge.send(DAVE, "TAKEOVER GERMANY@g1 dave-pw")
    mails = judge.all_mail()
    for mail in to(mails, BOB):
        if "reminder" in mail.subject:
            assert "France" not in mail.body and "FRANCE" not in mail.body
    for reader in (BOB, DAVE, OBSERVER):
        for mail in to(mails, reader):
            assert "alice-pw" not in mail.body
            # Germany's form to fill lists what its units may do on the public board: a support of A BUR's
            # move to Munich is one of them, and no word of France's sheet
            body, form = mail.body.partition("%% form for ")[::2]
            assert not form or re.match(r"\S+ of g1, Germany\n", form)
            if "results" not in mail.subject:  # the results publish the phase's offers (rule 5)
                assert "A BUR - MUN" not in body and "A PAR - BUR" not in body
                assert "France" not in form and "FRANCE" not in form and ": A BUR - MUN" not in form


def test_a_game_without_a_policy_waits_for_its_silent_seats_as_before(tmp_path: Path) -> None:
    """No SET SILENCE: one reminder 24 hours before the deadline, no extension, nobody abandoned."""
    judge = Judge(tmp_path, now=datetime(2026, 3, 19, 9, 0))
    judge.send(GM, "CREATE g1 gm-secret")
    judge.send(ALICE, "JOIN g1 alice-pw FRANCE")
    judge.send(BOB, "JOIN g1 bob-pw GERMANY")
    judge.send(GM, "SIGNON MASTER@g1 gm-secret\nSTART")
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n2 : A PAR - BUR")
    judge.new_mail()
    run_clock_until(judge, datetime(2026, 3, 30, 12, 0))
    mails = judge.new_mail()
    assert not [m for m in mails if "extended" in m.subject or "abandoned" in m.subject]
    assert len([m for m in to(mails, BOB) if m.subject == "g1 S1901M reminder"]) == 1
