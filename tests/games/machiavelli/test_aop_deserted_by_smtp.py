"""An Absence of Plague game every country of which falls silent, played by SMTP against the judge's
daemon (`judge serve`) on a clock the test moves, day by day, as the weekly clock would pass: the two
findings of the month of play by SMTP that the in-process tests had missed, held where they were
found.  An automatic extension's announcement names no country to the players and the observers
(ruling H2 and M66), and the game ends as deserted and is told to everyone (H1).

The story, worked out by hand (AoP 18.2's week, SET CLOCK AOP: spring letters due Mondays, campaign
letters Thursdays, 12:00 UTC, an hour's grace; SET SILENCE ON: one extension of a day, abandoned
after two missed deadlines; both set before the start on Monday 2026-01-05 12:00 UTC).  Milan's and
Venice's players join, the eleven other countries are dummies, Olga observes.

- SP1459A, due Monday 12th 12:00: Milan writes, Venice does not.  At 13:00 the phase is extended to
  Tuesday 13th 12:00: Milan and Olga read that a country has not acted, not which; the master reads
  Venice.  Carried out Tuesday 13:00: Venice's first miss.
- SP1459C, due Thursday 15th 12:00: nobody writes; extended to Friday 16th 12:00, carried out at
  13:00: Venice's second miss (abandoned: eliminated at the end of SU1459C), Milan's first.
- SU1459C, due Thursday 22nd 12:00: nobody writes; extended to Friday 23rd 12:00 (Milan is played
  and late), carried out at 13:00: Milan's second miss, so Milan is abandoned, and Venice is
  eliminated.  No country has a player now.
- FA1459C, due Thursday 29th 12:00, nobody to wait for and no extension: carried out at 13:00, no
  country taken over during it, and the game ends as deserted, told to the master, Olga and both
  players who played in it."""

from __future__ import annotations

import email
import email.policy
from collections.abc import Iterator
from datetime import datetime
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import or_, select

from judge.mail.outbound import MaildirOutbox
from judge.service.config import Settings
from judge.service.running.app import next_due
from judge.store.models import Game
from tests.support.clock import Clock
from tests.support.daemon import Running
from tests.support.flowed import meant
from tests.support.harness import fresh_database_url
from tests.support.people import GM, OBSERVER
from tests.support.wait import wait_until

MILAN, VENICE = "milan@example.org", "venice@example.org"
MASTER = "SIGNON MASTER@plague gm-secret"
Mail = tuple[str, str, str]
"""A mail the judge sent: its recipient, its subject, its text with every run of spaces made one."""


class Reader:
    """The judge's Maildir, read as its mail comes: each mail once."""

    def __init__(self, settings: Settings) -> None:
        self.outbox = MaildirOutbox(settings.maildir)
        self.known: set[str] = set()

    def new(self) -> list[Mail]:
        """The mails sent since the last time asked, oldest first."""
        found = []
        for path in self.outbox.files(known=self.known):
            self.known.add(path.name)
            message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            assert isinstance(message, EmailMessage)
            body = message.get_body(preferencelist=("plain",))
            text = meant(str(body.get_content())) if body is not None else ""
            if message["To"] != "barrier@example.org":  # `Running.settled`'s
                found.append((str(message["To"]), str(message["Subject"]), " ".join(text.split())))
        return found


@pytest.fixture
def plague(tmp_path: Path) -> Iterator[tuple[Running, Clock, Reader]]:
    """The judge's daemon on a clock standing at Monday 2026-01-05 12:00 UTC, hosting "plague" started
    then as the story says; the mail it sent before the start read."""
    settings = Settings(data_dir=tmp_path, database=fresh_database_url(), port=0, tick_seconds=3600)
    clock = Clock(datetime(2026, 1, 5, 12, 0))
    judge = Running(settings, clock)
    try:
        judge.send(GM, "CREATE plague gm-secret machiavelli aop")
        judge.confirm(GM)
        judge.settled()
        judge.send(GM, f"{MASTER}\nSET CLOCK AOP\nSET SILENCE ON")
        for address, country in ((MILAN, "Milan"), (VENICE, "Venice")):
            judge.send(address, f"JOIN plague pw-{country.lower()} {country}")
            judge.confirm(address)
        judge.send(OBSERVER, "OBSERVE plague")
        judge.confirm(OBSERVER)
        judge.settled()
        judge.send(GM, f"{MASTER}\nSTART")
        judge.send(MILAN, "SIGNON Milan@plague pw-milan\nraise A mil")
        judge.settled()
        reader = Reader(settings)
        reader.new()
        yield judge, clock, reader
    finally:
        judge.stop()


def busy(judge: Running, now: datetime) -> bool:
    """Whether a game is still due at ``now``, or being run."""
    with judge.daemon.db.transaction() as session:
        return session.scalar(select(Game.id).where(or_(Game.next_due <= now, Game.claimed_until > now))
                              .limit(1)) is not None


def run_until(judge: Running, clock: Clock, end: datetime) -> None:
    """Move the clock on to ``end``, stopping at each moment a game has something to do on the way
    (a reminder, a deadline, a grace's end), where the daemon's clock is woken and does it, and its
    mail is sent, as the days passing would."""
    while (due := next_due(judge.daemon.db)) is not None and due <= end:
        clock.now = max(due, clock.now)
        judge.tick()
        wait_until(lambda: not busy(judge, clock.now), f"the judge's work due at {clock.now}")
        wait_until(judge.drawn, f"the maps of the results due at {clock.now}")
        judge.settled()
    clock.now = end


def test_H1_H2_an_aop_game_every_country_of_which_falls_silent_ends_deserted_its_extensions_naming_none(
        plague: tuple[Running, Clock, Reader]) -> None:
    judge, clock, reader = plague
    run_until(judge, clock, datetime(2026, 1, 12, 13, 30))
    extended = {to: text for to, subject, text in reader.new() if subject == "plague: SP1459A extended"}
    assert set(extended) == {GM, MILAN, VENICE, OBSERVER}
    said = ("SP1459A extended: not every country has acted yet, so the deadline of SP1459A is extended by 1 day to "
            "2026-01-13 12:00 UTC (automatic extension 1 of 1); which country is late, only the game master is told")
    assert said in extended[MILAN] and said in extended[OBSERVER]
    assert "Venice" not in extended[MILAN] and "Venice" not in extended[OBSERVER]
    assert "SP1459A extended: Venice has not acted yet" in extended[GM]
    assert "SP1459A extended: you (Venice) have not acted yet" in extended[VENICE]

    run_until(judge, clock, datetime(2026, 1, 23, 14, 0))
    mails = reader.new()
    extended = {to: text for to, subject, text in mails if subject == "plague: SU1459C extended"}
    assert "Milan" not in extended[OBSERVER] and "SU1459C extended: Milan has not acted yet" in extended[GM]
    assert {to for to, subject, _ in mails if subject == "plague: Milan declared abandoned"} == {GM, MILAN, OBSERVER}

    run_until(judge, clock, datetime(2026, 1, 29, 11, 59))
    assert not [subject for to, subject, _ in reader.new() if to not in (GM, OBSERVER)]  # nobody plays: nobody told
    run_until(judge, clock, datetime(2026, 1, 29, 14, 0))
    ended = {to: text for to, subject, text in reader.new() if subject == "plague has ended"}
    assert set(ended) == {GM, OBSERVER, MILAN, VENICE}
    assert all("Game plague has ended: deserted (nobody has played in it since the deadline of SU1459C, and nobody "
               "took a seat over in FA1459C)." in text for text in ended.values())
    assert MILAN not in ended[OBSERVER] and VENICE not in ended[OBSERVER]
    run_until(judge, clock, datetime(2026, 2, 26, 14, 0))
    assert reader.new() == []  # ended: no phase runs any more, nobody is mailed
