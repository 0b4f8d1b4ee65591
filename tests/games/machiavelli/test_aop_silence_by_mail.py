"""Absence of Plague on AoP 18.2's weekly clock (SET CLOCK AOP: spring letters due Mondays, campaign
letters Thursdays, 12:00 UTC, an hour's grace) with the standard policy for silent seats (SET
SILENCE ON: reminded daily, one extension of 24 hours, abandoned after two missed deadlines), set
before the start, every mail read as its reader reads it (M59, M62, M65, M66; rulings H1-H3).

The first game: Milan writes every letter; Venice's player falls silent, is abandoned, and a
substitute leader takes Venice over in time, worked out by hand:

- Monday 2026-01-05 12:00 UTC, START: the spring letter SP1459A is due the next Monday 12:00 (the
  same Monday's is less than 12 hours on), 2026-01-12.  Venice is reminded each day at 12:00 from
  Tuesday (12 hours after the opening) to Sunday: six reminders.
- Monday 12th 12:00, the deadline: Venice is alerted alone that without a letter by 13:00 (the
  grace) the phase is extended to Tuesday 13th 12:00; Milan is confirmed its letter, alone.
  13:00: extended; the players and the observer are told a country has not written, Venice alone
  that it is Venice, the game master which.  Tuesday 13:00: carried out, Venice's first miss.
- SP1459C opens Tuesday 13th 13:00, due Thursday 15th 12:00, extended to Friday 16th 12:00 and
  carried out at 13:00: Venice's second miss; Venice is abandoned.  SU1459C opens then, due the
  next Thursday, 2026-01-22 12:00: the notice names it (M65).
- Monday 19th 10:00 Carol takes Venice over; her letter and Milan's close SU1459C at once; the
  fall campaign, due Thursday 22nd, closes on both letters on Tuesday 20th: the year is played,
  and Venice lives on.

The second game: all thirteen countries played and every one silent.  Each is abandoned at the
deadline of SP1459C (Friday 16th 13:00), so nobody plays; SU1459C runs its whole week with no
takeover, and when it is carried out at its deadline and grace (Thursday 22nd 13:00, no extension:
no played country is late) the game ends as deserted (H1), told to the master, the observer and
the thirteen former players."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from sqlalchemy import select

from judge.store.models import Game
from tests.support.harness import Judge, Sent
from tests.support.people import CAROL, GM, OBSERVER

COUNTRIES = {"France": "fra", "Savoy": "sav", "Genoa": "gen", "Holy Roman Empire": "hre", "Milan": "mil",
             "Venice": "ven", "Ferrara": "fer", "Florence": "flo", "Papacy": "pap", "Naples": "nap",
             "Sicily": "sic", "Dalmatia": "dal", "Turkey": "tur"}
MILAN, VENICE = "mil@example.org", "ven@example.org"
MASTER = "SIGNON MASTER@plague gm-pw"


def address(country: str) -> str:
    return f"{COUNTRIES[country]}@example.org"


def game_now(judge: Judge) -> tuple[str, str | None, datetime | None, datetime | None]:
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == "plague")).one()
        return game.state, game.phase, game.deadline, game.next_due


def run_clock_until(judge: Judge, end: datetime) -> list[Sent]:
    """Tick at each moment the clock has something to do, up to ``end``, as the daemon does; the
    mail it sent."""
    while (due := game_now(judge)[3]) is not None and due <= end:
        judge.now = due
        judge.tick()
    judge.now = end
    return judge.new_mail()


def plague(judge: Judge, countries: tuple[str, ...]) -> Judge:
    """The AoP game "plague" with ``countries`` played, Olga observing, its clock and policy set
    before the start on Monday 2026-01-05 12:00 UTC."""
    judge.send(GM, "CREATE plague gm-pw machiavelli aop")
    judge.send(GM, f"{MASTER}\nSET CLOCK AOP\nSET SILENCE ON")
    for country in countries:
        judge.send(address(country), f"JOIN plague pw-{COUNTRIES[country]} {country}")
    judge.send(OBSERVER, "OBSERVE plague")
    judge.send(GM, f"{MASTER}\nSTART")
    judge.new_mail()
    return judge


def milan(judge: Judge, *lines: str) -> None:
    """Milan's letter; its answer read."""
    judge.send(MILAN, "\n".join(("SIGNON Milan@plague pw-mil", *lines)))
    judge.new_mail()


def test_an_aop_year_on_the_weekly_clock_with_a_silent_country_abandoned_and_taken_over_in_time(
        tmp_path: Path) -> None:
    judge = plague(Judge(tmp_path), ("Milan", "Venice"))
    assert game_now(judge)[1:3] == ("SP1459A", datetime(2026, 1, 12, 12, 0))
    milan(judge, "raise A mil")
    mails = run_clock_until(judge, datetime(2026, 1, 12, 11, 59))
    assert [m.subject for m in mails if m.to == VENICE] == ["plague SP1459A reminder"] * 6
    assert not [m for m in mails if m.to == MILAN]

    mails = run_clock_until(judge, datetime(2026, 1, 12, 12, 30))  # the deadline (M59)
    assert {(m.to, m.subject) for m in mails} == {(VENICE, "plague SP1459A late"), (MILAN, "plague SP1459A received")}
    late = next(m.body for m in mails if m.to == VENICE).replace("\n", " ")
    assert ("Without a letter by 2026-01-12 13:00 UTC, when the grace period ends, the phase is extended to "
            "2026-01-13 12:00 UTC, the game's automatic extension for a country that has not written") in late

    mails = run_clock_until(judge, datetime(2026, 1, 12, 13, 30))  # the extension (H2, M66)
    told = {m.to: m.body.replace("\n", " ") for m in mails}
    assert set(told) == {GM, MILAN, VENICE, OBSERVER}
    assert ("SP1459A extended: not every country has acted yet, so the deadline of SP1459A is extended by 1 day to "
            "2026-01-13 12:00 UTC (automatic extension 1 of 1); which country is late, only the game master is "
            "told") in told[MILAN]
    assert "Venice" not in told[MILAN] and "Venice" not in told[OBSERVER]
    assert "SP1459A extended: Venice has not acted yet" in told[GM]
    assert ("SP1459A extended: you (Venice) have not acted yet, so the deadline of SP1459A is extended by 1 day to "
            "2026-01-13 12:00 UTC (automatic extension 1 of 1). Without a mail from you, it is carried out at "
            "2026-01-13 13:00 UTC at the latest.") in told[VENICE]

    run_clock_until(judge, datetime(2026, 1, 13, 14, 0))
    assert game_now(judge)[1:3] == ("SP1459C", datetime(2026, 1, 15, 12, 0))
    milan(judge, "A mil H")
    mails = run_clock_until(judge, datetime(2026, 1, 16, 14, 0))
    assert game_now(judge)[1:3] == ("SU1459C", datetime(2026, 1, 22, 12, 0))
    told = {m.to: m.body.replace("\n", " ") for m in mails if m.subject == "plague: Venice declared abandoned"}
    assert set(told) == {GM, MILAN, VENICE, OBSERVER}  # one mail each (M65)
    said = ("Venice declared abandoned: it missed 2 deadlines in a row, up to that of SP1459C; it plays by the "
            "defaults (17.2, M50), and unless a substitute leader takes it over before Summer 1459's campaign "
            "(SU1459C) is carried out, at its deadline, 2026-01-22 12:00 UTC, Venice is eliminated then, its units "
            "becoming independent (18.3, 4.3, M62).")
    assert all(said in body for reader, body in told.items() if reader != VENICE)
    assert "You have not acted in 2 phases of plague in a row, up to SP1459C, so the judge" in told[VENICE]
    assert "unless a substitute leader takes it over before Summer 1459's campaign (SU1459C)" in told[VENICE]

    judge.now = datetime(2026, 1, 19, 10, 0)
    judge.confirmed(CAROL)
    judge.send(CAROL, "TAKEOVER Venice@plague pw-carol")
    assert judge.outcome_of("TAKEOVER Venice@plague ****") == ("ok", None)
    judge.send(CAROL, "SIGNON Venice@plague pw-carol\ntransfer 3 to Milan")
    judge.now = datetime(2026, 1, 19, 11, 0)
    milan(judge, "A mil H")
    assert game_now(judge)[1:3] == ("FA1459C", datetime(2026, 1, 22, 12, 0))
    judge.now = datetime(2026, 1, 20, 9, 0)
    judge.send(CAROL, "SIGNON Venice@plague pw-carol\ntransfer 1 to Milan")
    milan(judge, "A mil H")
    assert game_now(judge)[1] == "SP1460A"
    judge.send(CAROL, "WHOGAME plague")
    assert "Venice: played by" in judge.last_to(CAROL).body


def test_an_aop_game_every_country_of_which_falls_silent_ends_as_deserted(tmp_path: Path) -> None:
    judge = plague(Judge(tmp_path), tuple(COUNTRIES))
    mails = run_clock_until(judge, datetime(2026, 1, 16, 14, 0))
    assert game_now(judge)[:3] == ("active", "SU1459C", datetime(2026, 1, 22, 12, 0))
    abandoned = [m for m in mails if m.subject.endswith("declared abandoned")]
    assert len([m for m in abandoned if m.to == GM]) == 1 and len([m for m in abandoned if m.to == OBSERVER]) == 1
    assert sorted(m.to for m in abandoned if m.to not in (GM, OBSERVER)) == sorted(map(address, COUNTRIES))

    mails = run_clock_until(judge, datetime(2026, 1, 22, 11, 59))  # the whole phase: nobody is reminded
    assert not [m for m in mails if m.to not in (GM, OBSERVER)] and game_now(judge)[1] == "SU1459C"
    mails = run_clock_until(judge, datetime(2026, 1, 22, 14, 0))
    assert game_now(judge)[0] == "finished"
    ended = {m.to: m.body.replace("\n", " ") for m in mails if m.subject == "plague has ended"}
    assert set(ended) == {GM, OBSERVER, *map(address, COUNTRIES)}
    assert ("Game plague has ended: deserted (nobody has played in it since the deadline of SP1459C, and nobody took a "
            "seat over in SU1459C).") in ended[OBSERVER]
    results = next(m.body for m in mails if m.to == OBSERVER and m.subject == "plague SU1459C results")
    assert "These are the game's last results" in results
    assert "@" not in ended[OBSERVER].replace(OBSERVER, "")
