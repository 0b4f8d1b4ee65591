"""The log a game master reads (issue 24 item 5): every phase processed is logged once its change
is committed, with its cause; routine lines are never cut by the flood filter; a mail another
process settled first says so."""

from __future__ import annotations

import io
import logging
import re
import shutil
import signal
import smtplib
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from judge.service.config import Settings
from judge.service.incoming.handlers import receive
from judge.service.incoming.handlers.mail import apply_run
from judge.service.logs import RepeatFilter
from judge.service.running.app import tick, unapplied_mail
from tests.support.auction import auction_judge, start_auction
from tests.support.clock import Clock
from tests.support.daemon import Running
from tests.support.harness import Judge, fresh_database_url, raw_mail
from tests.support.people import GM
from tests.support.ports import free_port
from tests.support.relay import Relay
from tests.support.wait import wait_until

ALICE, BOB = "alice@example.org", "bob@example.org"


@pytest.fixture
def judge(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> Judge:
    """The test kind's auction g1 (`tests.support.auction`): Alice and Bob, lots of 24 hours."""
    caplog.set_level(logging.INFO, logger="judge")
    judge = start_auction(auction_judge(tmp_path))
    judge.new_mail()
    return judge


def processed(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [record.getMessage() for record in caplog.records if " processed (" in record.getMessage()]


def test_a_phase_processed_because_all_bids_are_in_is_logged_with_its_cause(
        judge: Judge, caplog: pytest.LogCaptureFixture) -> None:
    judge.send(ALICE, "SIGNON Alice@g1 alice-pw\nBID 2")
    assert processed(caplog) == []
    judge.send(BOB, "SIGNON Bob@g1 bob-pw\nBID 1")
    assert processed(caplog) == ["game g1 L1 processed (all submitted); next L2"]


def test_the_masters_process_and_the_deadline_are_logged_and_a_preview_is_not(
        judge: Judge, caplog: pytest.LogCaptureFixture) -> None:
    judge.send(GM, "SIGNON MASTER@g1 gm-secret\nPREVIEW")
    assert processed(caplog) == []  # processed in a savepoint that is rolled back: it never happened
    judge.send(GM, "SIGNON MASTER@g1 gm-secret\nPROCESS")
    judge.later(25)
    judge.process("g1")
    assert processed(caplog) == ["game g1 L1 processed (master's PROCESS); next L2",
                                 "game g1 L2 processed (deadline); next L3"]


def test_a_phase_every_power_sent_but_a_wait_held_to_its_deadline_is_logged_as_processed_at_its_deadline(
        judge: Judge, caplog: pytest.LogCaptureFixture) -> None:
    """A WAIT: the phase is processed at its deadline, not when the last seat submits; complete as
    it was, what processed it was the deadline."""
    judge.send(ALICE, "SIGNON Alice@g1 alice-pw\nBID 2\nWAIT")
    judge.send(BOB, "SIGNON Bob@g1 bob-pw\nBID 1")
    assert processed(caplog) == []
    judge.later(25)
    judge.tick()
    assert processed(caplog) == ["game g1 L1 processed (deadline); next L2"]


def test_a_phase_processed_in_a_mail_that_is_then_quarantined_is_not_logged(
        judge: Judge, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    from judge.service.incoming.handlers import conversation
    from tests.kinds.auction.kind import Auction

    calls: list[str] = []
    process = Auction.process

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[-1].cause)  # the closing
        return process(*args, **kwargs)

    def fail_after(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom after the phase")

    monkeypatch.setattr(Auction, "process", counted)
    monkeypatch.setattr(conversation, "reply_subject", fail_after)  # after the commands, before the reply
    judge.send(GM, "SIGNON MASTER@g1 gm-secret\nPROCESS")
    assert calls == ["master's PROCESS"] and processed(caplog) == []
    assert any("quarantined" in record.getMessage() for record in caplog.records)


def test_routine_lines_are_never_cut_by_the_flood_filter() -> None:
    written: list[str] = []
    repeats = RepeatFilter(lambda record: written.append(record.getMessage()), burst=3)
    for number in range(50):
        record = logging.LogRecord("judge", logging.INFO, "", 0, "mail %s done", (number,), None)
        if repeats.filter(record):
            written.append(record.getMessage())
    assert written == [f"mail {number} done" for number in range(50)]
    flood = [logging.LogRecord("judge.smtp", logging.INFO, "", 0, "refused recipient %s", (n,), None) for n in range(9)]
    assert sum(repeats.filter(record) for record in flood) == 3  # what anyone can cause at will is still cut


def test_a_mail_settled_by_another_process_is_not_applied_again(judge: Judge) -> None:
    """A second judge's applier reaching the same mail afterwards (two daemons on one database): on
    SQLite the run reads the mail and says who settled it; on PostgreSQL a run takes only the mail
    still to apply (`Runs._held_mail`), so it takes none, and the mail is no longer among those
    the caller reads as waiting (`apply_stored`)."""
    mail_id = receive(judge.db, raw_mail(ALICE, "SIGNON Alice@g1 alice-pw\nBID 2"), judge.now)
    assert apply_run(judge.db, judge.settings, [mail_id], judge.now) == [(mail_id, "done")]
    again = apply_run(judge.db, judge.settings, [mail_id], judge.now)
    if judge.db.engine.dialect.name == "postgresql":
        assert again == [] and mail_id not in unapplied_mail(judge.db)
    else:
        assert again == [(mail_id, "already done, by another process")]


def test_a_judge_logging_to_a_file_goes_on_through_its_rotation_and_a_sighup(tmp_path: Path) -> None:
    """Without systemd: logrotate moves the log away (and may send SIGHUP); the judge writes on in
    a new file and keeps running (SIGHUP stopped it, and a log redirected by the shell grew for ever)."""
    log, rotated = tmp_path / "serve.log", tmp_path / "serve.log.1"
    port = free_port()
    database = fresh_database_url()
    judge = subprocess.Popen([sys.executable, "-m", "judge", "serve", "--data-dir", str(tmp_path / "data"),
                              "--port", str(port), "--log-file", str(log),
                              *(["--database", database] if database else [])],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until(lambda: log.exists() and "listening on" in log.read_text())
        log.rename(rotated)  # what logrotate does, then its postrotate's kill -HUP
        judge.send_signal(signal.SIGHUP)
        wait_until(lambda: log.exists() and f"SIGHUP: the log goes on in {log}" in log.read_text())
        with smtplib.SMTP("127.0.0.1", port, timeout=10) as client:
            assert client.noop()[0] == 250  # still listening
    finally:
        judge.send_signal(signal.SIGTERM)
        assert judge.wait(timeout=60) == 0
    assert "INFO stopped" in log.read_text() and "INFO stopped" not in rotated.read_text()


def serving(data: Path, port: int) -> subprocess.Popen[bytes]:
    """``judge serve`` on ``data`` and ``port`` with a log file, as install.md starts it without systemd;
    once it listens."""
    database = fresh_database_url()
    log = data.parent / f"{data.name}.log"
    judge = subprocess.Popen([sys.executable, "-m", "judge", "serve", "--data-dir", str(data), "--port", str(port),
                              "--log-file", str(log), *(["--database", database] if database else [])],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_until(lambda: (log.exists() and "listening on" in log.read_text()) or judge.poll() is not None)
    assert judge.poll() is None, log.read_text()
    return judge


@pytest.mark.skipif(shutil.which("pkill") is None, reason="install.md's stop is procps's pkill")
def test_each_judge_without_systemd_is_stopped_by_its_own_pid_file_and_a_dead_ones_file_stops_nothing(
        tmp_path: Path) -> None:
    """install.md's stop without systemd, ``pkill -L -F <data-dir>/serve-<port>.pid``, stops that judge alone
    (``kill $(pgrep -u payola -f 'judge serve')`` stopped every judge of the machine), and its file goes with it;
    ``judge web``'s, ``web-<port>.pid``, stops its pages alone;
    the file of a judge killed outright names a process nobody should signal: pkill -L, which signals only the
    process holding the file locked, stops nothing."""
    first_port, second_port = free_port(), free_port()
    first, second = serving(tmp_path / "first", first_port), serving(tmp_path / "second", second_port)
    started: list[subprocess.Popen[Any]] = [first, second]
    pids = tmp_path / "first" / f"serve-{first_port}.pid", tmp_path / "second" / f"serve-{second_port}.pid"
    try:
        assert pids[0].read_text() == f"{first.pid}\n" and pids[1].read_text() == f"{second.pid}\n"
        assert subprocess.run(["pkill", "-L", "-F", str(pids[0])]).returncode == 0
        assert first.wait(timeout=60) == 0 and not pids[0].exists()
        assert second.poll() is None  # the other judge of the machine runs on
        web_port = free_port()
        web = subprocess.Popen([sys.executable, "-m", "judge", "web", "--data-dir", str(tmp_path / "second"),
                                "--port", str(web_port)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        started.append(web)
        assert web.stdout is not None and web.stdout.readline().startswith("serving ")
        web_pid = tmp_path / "second" / f"web-{web_port}.pid"
        wait_until(web_pid.exists)
        assert subprocess.run(["pkill", "-L", "-F", str(web_pid)]).returncode == 0
        assert web.wait(timeout=60) == 0 and not web_pid.exists() and second.poll() is None
        second.kill()
        second.wait(timeout=60)
        assert subprocess.run(["pkill", "-L", "-F", str(pids[1])], capture_output=True).returncode != 0
    finally:
        for judge in started:
            if judge.poll() is None:
                judge.kill()
                judge.wait(timeout=60)


def test_a_database_down_for_an_hour_writes_each_traceback_once_and_at_most_eleven_lines_a_minute_of_a_kind() -> None:
    """PostgreSQL down: the sender fails every 5 s (with a traceback) and the doorbell warns every
    5 s.  The filter let ten of each through a minute, each error with its whole traceback, and
    every warning (about 7 MB an hour)."""
    clock = [0.0]
    written: list[tuple[int, str]] = []  # (minute, line as written)
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))

    def write(record: logging.LogRecord) -> None:
        written.append((int(clock[0] // 60), handler.format(record)))

    repeats = RepeatFilter(write, clock=lambda: clock[0])
    try:
        raise OperationalError("SELECT 1", {}, ConnectionRefusedError("connection refused"))
    except OperationalError as raised:
        error = raised  # with its traceback
    kinds = ("sender failed; retrying", "not listening for other judges' mail")
    for second in range(0, 3600, 5):
        clock[0] = float(second)
        for record in (logging.LogRecord("judge", logging.ERROR, "", 0, kinds[0], (),
                                         (type(error), error, error.__traceback__)),
                       logging.LogRecord("judge", logging.WARNING, "", 0, kinds[1] + " (trying again in %.0f s): %s",
                                         (5.0, error), None)):
            if repeats.filter(record):
                write(record)
    text = "\n".join(line for _, line in written)
    assert text.count("Traceback (most recent call last)") == 1  # the sender's first failure, whole
    assert f"{kinds[0]}: OperationalError: (builtins.ConnectionRefusedError) connection refused" in text
    for kind in kinds:
        for minute in range(60):
            assert sum(kind in line for at, line in written if at == minute) <= 11  # ten, and a count of the rest
    assert len(text) < 300_000  # about 7 MB before


def test_the_lines_about_a_games_mail_name_the_game(judge: Judge, caplog: pytest.LogCaptureFixture) -> None:
    """One game's history can be read from the logs, of several judges too: each line about a
    mail of a game names it ("mail 45 done" named none)."""
    sheet = receive(judge.db, raw_mail(ALICE, "SIGNON Alice@g1 alice-pw\nBID 2"), judge.now)
    help_mail = receive(judge.db, raw_mail("someone@example.org", "HELP"), judge.now)
    lines = tick(judge.db, judge.settings, judge.now)  # what the timer's judge tick prints
    assert f"mail {sheet} done (game g1)" in lines and f"mail {help_mail} done" in lines
    relay = Relay(smtputf8=False, refuse={BOB: "550 5.1.1 no such user"})
    try:
        judge.settings = replace(judge.settings, relay=f"127.0.0.1:{relay.port}")
        judge.send(GM, "SIGNON MASTER@g1 gm-secret\nPROCESS")  # the results to Bob fail for good
        judge.deliver()
    finally:
        relay.stop()
    assert any(re.fullmatch(rf"outbox \d+ to {BOB} \(game g1\) failed: .*no such user", record.getMessage())
               for record in caplog.records)


HOUR = 3600.0
SCALE = 360.0  # the drill's time runs this much faster: ten seconds stand for an hour


@pytest.mark.database
def test_an_hour_with_the_database_down_writes_under_300_kb_of_log(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/operators/logs.md: "an hour of PostgreSQL down writes under 300 KB".  Every period of the
    daemon (the sender's sweep, its back-off, the heartbeat, the doorbell's retries, the tick) and of
    the log's filter (its minute, its hour) divided by `SCALE`, the database made unreachable as the
    daemon runs (its engine one whose file cannot be opened), the log written as `log_to` writes it
    for ten seconds: an hour.  The bound is an upper one: a busy machine runs fewer loops, never more.
    Measured so, the daemon wrote about 1.3 MB an hour (the clock's traceback every minute, the
    sender's and the doorbell's lines every five seconds)."""
    from judge.service.logs import AGAIN
    from judge.service.running import daemon as daemon_module
    from judge.store.database import Database

    caplog.set_level(logging.INFO)
    for name in ("SENDER_PERIOD", "FAULT_PERIOD", "BEAT", "REFRESH"):
        monkeypatch.setattr(daemon_module, name, getattr(daemon_module, name) / SCALE)
    monkeypatch.setattr(daemon_module.Doorbell, "RETRY", daemon_module.Doorbell.RETRY / SCALE)
    monkeypatch.setattr(daemon_module.Doorbell, "PERIOD", daemon_module.Doorbell.PERIOD / SCALE)
    written = io.StringIO()
    handler = logging.StreamHandler(written)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    handler.addFilter(RepeatFilter(handler.handle, interval=60 / SCALE, again=AGAIN / SCALE))
    settings = Settings(data_dir=tmp_path, database=fresh_database_url(), port=0, tick_seconds=60 / SCALE,
                        mta_flush=None)
    judge = Running(settings, Clock())
    judge.settled()  # started, and at work
    real = judge.daemon.db.engine, judge.daemon.db._sessions
    gone = tmp_path / "gone"
    gone.mkdir()
    dead = Database(f"sqlite:///{gone / 'judge.db'}")
    shutil.rmtree(gone)  # its file, and the folder it was in: nothing can open it
    logging.getLogger().addHandler(handler)
    try:
        judge.daemon.db.engine, judge.daemon.db._sessions = dead.engine, dead._sessions
        time.sleep(HOUR / SCALE)
        judge.daemon.db.engine, judge.daemon.db._sessions = real
    finally:
        logging.getLogger().removeHandler(handler)
        judge.stop()
    log = written.getvalue()
    assert "sender failed" in log  # the database was down, and said so
    assert len(log.encode()) < 300 * 1024, f"{len(log.encode())} bytes:\n{log[-3000:]}"
