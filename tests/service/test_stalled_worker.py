"""A stalled process of the judge stops nobody: a deadline worker or the applier stopped (SIGSTOP)
inside its write transaction is killed once it has held the lock ``lock-seconds``, one stopped
elsewhere once it has said nothing for ``stall-seconds``; the listener and the applier answer mail
meanwhile, and the game or the mail it held is done again, once.

Each test runs `judge serve`'s daemon (`tests.support.daemon.Running`) with its real worker
processes, on a virtual clock, hosting the auction whose process stops itself at a chosen moment
(`tests.kinds.stalling`): inside a transaction that has written, as an operator's ``kill
-STOP`` at the wrong moment would.  The bounds are short here (2 and 3 s); every wait is generous
(`PATIENCE`): what is asserted is what happened and in which order, not how fast."""

from __future__ import annotations

import email
import email.policy
import logging
import os
import signal
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.bootstrap import hosted, registry
from judge.mail.outbound import MaildirOutbox
from judge.service.config import Settings
from judge.store.models import Game, Heartbeat, InboundMail
from tests.kinds.stalling import STOPPING_BID, Stalling, stopped
from tests.support.auction import auction_judge, evening_of, evening_player
from tests.support.clock import Clock
from tests.support.daemon import Running, maildir_subjects
from tests.support.harness import Judge, once
from tests.support.wait import wait_until

GAMES = 6
STALLED = "g2"  # the game whose deadline run stops its worker
PATIENCE = 90.0  # seconds: far beyond the bounds (2 and 3 s) and a worker's start on a loaded machine


@pytest.fixture(autouse=True)
def _daemon_log(caplog: pytest.LogCaptureFixture) -> None:
    """The daemon's line per event, for the assertions and in the report of a test that fails."""
    caplog.set_level(logging.INFO, logger="judge")


@pytest.fixture
def evening(tmp_path: Path) -> Judge:
    """``GAMES`` auctions under way, none of their players has bid: each lot is sold at its deadline."""
    judge = once(auction_judge(tmp_path, max_creates_per_day=GAMES, max_creates_per_hour=GAMES), evening_of, GAMES)
    judge.db.engine.dispose()
    return judge


@contextmanager
def serving(judge: Judge, kind: Stalling, **bounds: float) -> Iterator[tuple[Running, Clock]]:
    """`judge serve`'s daemon on ``judge``'s data, two deadline workers, hosting ``kind`` in the
    auction's place; its clock at the games' start."""
    settings = replace(judge.settings, port=0, tick_seconds=3600, deadline_workers=2, mta_flush=None,
                       **{"lock_seconds": 2.0, "stall_seconds": 30.0, **bounds})
    clock = Clock(judge.now)
    running = Running(settings, clock, registry([*hosted(), kind]))
    try:
        running.settled()  # its start is over: the clock may move
        yield running, clock
    finally:
        for pid in stopped(kind.marker):  # a test that failed may leave one stopped: let it end with the daemon
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
        running.stop()


def phases(running: Running) -> dict[str, str | None]:
    with running.daemon.db.transaction() as session:
        return {game.name: game.phase for game in session.scalars(select(Game))}


def states(running: Running) -> dict[str, str]:
    with running.daemon.db.transaction() as session:
        return {game.name: game.state for game in session.scalars(select(Game))}


def results(settings: Settings) -> Counter[tuple[str, str]]:
    """How many results mails each (recipient, subject) got, read from the Maildir."""
    mails = [email.message_from_bytes(raw, policy=email.policy.default)
             for raw in MaildirOutbox(settings.maildir).messages()]
    return Counter((str(mail["To"]), str(mail["Subject"])) for mail in mails
                   if str(mail["Subject"]).endswith(" results"))


def every_game_processed_once(running: Running) -> None:
    """Each game's first lot was processed once: each player and the game master got its results once."""
    wait_until(lambda: set(phases(running).values()) == {"L2"}, "every game's first lot processed", PATIENCE)
    running.settled()
    got = results(running.settings)
    for number in range(GAMES):
        for address in (evening_player(number, "alice"), evening_player(number, "bob"), "gm@example.org"):
            assert got[(address, f"g{number} L1 results")] == 1, (address, number, got)
    assert sum(got.values()) == 3 * GAMES


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def killed(caplog: pytest.LogCaptureFixture, what: str) -> list[str]:
    """The daemon's lines saying it killed a process of its own, for ``what``."""
    return [record.getMessage() for record in caplog.records if "was killed" in record.getMessage()
            and what in record.getMessage()]


@pytest.mark.database
def test_a_worker_stopped_inside_its_write_transaction_is_killed_and_its_game_run_once_while_mail_is_answered(
        evening: Judge, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """On SQLite the stopped worker holds the one writer's lock: without a bound, no mail is answered
    and no other game run until it is continued (in the finding, 150 s).  With it, the worker is
    killed after ``lock-seconds``, a HELP sent meanwhile is answered, and its game, rolled back, is
    claimed again and processed once, as every other game."""
    kind = Stalling(tmp_path / "stopped", game=STALLED)
    with serving(evening, kind) as (running, clock):
        clock.now += timedelta(hours=25)  # the first lot's deadline has passed
        running.tick()
        wait_until(lambda: bool(stopped(kind.marker)), "the worker running g2 to stop itself", PATIENCE)
        [pid] = stopped(kind.marker)
        running.send("stranger@example.org", "HELP", subject="meanwhile")  # never continued: only a kill frees it
        wait_until(lambda: "Re: meanwhile" in maildir_subjects(running.settings), "the HELP's answer", PATIENCE)
        # on PostgreSQL, after the answer; the line is logged once the killed worker is reaped
        wait_until(lambda: bool(killed(caplog, f"(pid {pid})")), "the stopped worker killed", PATIENCE)
        assert gone(pid)
        [line] = killed(caplog, f"(pid {pid})")
        assert "held the database's write lock" in line and f"running {STALLED}" in line
        every_game_processed_once(running)
        assert states(running) == {f"g{number}": "active" for number in range(GAMES)}


def test_a_worker_stopped_outside_a_transaction_is_killed_once_silent_for_stall_seconds_and_the_tick_ends(
        evening: Judge, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A worker stopped while it waits for work holds no lock: mail is answered at once, and the other
    worker runs every game; but the tick waits for every worker's word, and without a bound the clock
    would never tick again.  Once silent for ``stall-seconds`` it is killed, another takes its place,
    and the tick ends (its heartbeat)."""
    kind = Stalling(tmp_path / "stopped")
    with serving(evening, kind, stall_seconds=3.0) as (running, clock):
        running.daemon.deadlines.start()
        first = running.daemon.deadlines.workers[0]
        assert first is not None
        pid = first.process.pid
        os.kill(pid, signal.SIGSTOP)
        try:
            clock.now += timedelta(hours=25)
            running.tick()
            running.settled()  # a HELP answered while it is stopped
            every_game_processed_once(running)

            def tick_ended() -> bool:
                with running.daemon.db.transaction() as session:
                    return session.scalar(select(Heartbeat.at).where(Heartbeat.name == "tick")) == clock.now

            wait_until(tick_ended, "the tick's end", PATIENCE)
        finally:  # a test that failed leaves it stopped: let it end with the daemon
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
        assert gone(pid)
        [line] = killed(caplog, f"(pid {pid})")
        assert "said nothing" in line
        replacement = running.daemon.deadlines.workers[0]
        assert replacement is not None and replacement.process.pid != pid and replacement.process.is_alive()


def test_a_game_whose_run_is_left_unfinished_twice_is_paused_and_its_master_told(
        evening: Judge, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A run that stalls every time would cost one worker after another: the second time, its game is
    paused and its game master told, as for a deadline that fails; the other games are processed."""
    kind = Stalling(tmp_path / "stopped", game=STALLED, every=True)
    with serving(evening, kind) as (running, clock):
        clock.now += timedelta(hours=25)
        running.tick()
        wait_until(lambda: states(running)[STALLED] == "paused", "g2 paused", PATIENCE)
        wait_until(lambda: set(phases(running).values()) == {"L1", "L2"} and list(phases(running).values()).count(
            "L2") == GAMES - 1, "the other games processed", PATIENCE)
        running.settled()
        assert len(stopped(kind.marker)) == 2 and all(gone(pid) for pid in stopped(kind.marker))
        assert f"{STALLED} paused: its deadline failed" in maildir_subjects(running.settings)
        assert not any(subject.startswith(f"{STALLED} L1") for subject in maildir_subjects(running.settings))


@pytest.mark.database
def test_the_applier_stopped_inside_its_write_transaction_is_killed_and_the_mail_applied_once(
        evening: Judge, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The applier holds the same lock while it applies a run of mail: stopped there, it is killed after
    ``lock-seconds``, another applier applies the run again, and the mail is answered once."""
    kind = Stalling(tmp_path / "stopped")
    with serving(evening, kind) as (running, _):
        running.send(evening_player(0, "alice"), f"SIGNON Alice@g0 alice-pw\nBID {STOPPING_BID}", subject="my bid")
        wait_until(lambda: bool(stopped(kind.marker)), "the applier to stop itself", PATIENCE)
        [pid] = stopped(kind.marker)
        running.send("stranger@example.org", "HELP", subject="meanwhile")
        wait_until(lambda: "Re: meanwhile" in maildir_subjects(running.settings), "the HELP's answer", PATIENCE)
        running.settled()
        assert gone(pid)  # the run it was applying, and the HELP after it, waited for another applier
        [line] = killed(caplog, f"the applier (pid {pid})")
        assert "held the database's write lock" in line
        assert maildir_subjects(running.settings).count("Re: my bid") == 1
        with running.daemon.db.transaction() as session:
            assert not set(session.scalars(select(InboundMail.status))) & {"new", "applying", "quarantined"}
