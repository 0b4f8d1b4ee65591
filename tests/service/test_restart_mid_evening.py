"""A judge killed in the middle of an evening and started again runs the rest of the evening at once, in
its deadline workers, and answers mail meanwhile; a deadline that passed while no judge listened still
waits ``settle-seconds`` for the mail its MTA held, and is then run by the workers too.

The judges here are ``judge serve`` processes (`judge.service.running.daemon.serve`, on a port the test picks)
hosting the auction whose every lot's run takes a while and writes which process ran it
(`tests.kinds.stalling`), on the real clock; the games' deadline is set a few seconds ahead.
What is asserted is what happened and in which order; every wait is generous (`PATIENCE`) and far
shorter than ``settle-seconds`` (`SETTLE`) and than a claim on a game (twice `STALL`), which a judge
that waited for them could not meet."""

from __future__ import annotations

import os
import signal
import smtplib
import socket
import subprocess
import sys
from collections import Counter
from datetime import datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, update

from judge.service.clock import utcnow
from judge.service.config import Settings
from judge.service.running.daemon import unheard
from judge.service.running.listening import Listener
from judge.store.database import Database
from judge.store.models import Game, PhaseRow
from tests.kinds.stalling import ran
from tests.support.auction import auction_judge, evening_of, evening_player
from tests.support.daemon import maildir_subjects, settled
from tests.support.harness import once
from tests.support.ports import free_port
from tests.support.wait import wait_until

GAMES = 10
SETTLE = 600.0  # settle-seconds: a judge that waits for it fails every wait below
STALL = 300.0  # stall-seconds: a claim runs out after ten minutes, which a judge that waited for one fails
PATIENCE = 90.0
SLOW = 0.4  # seconds each lot's run takes (its transaction held meanwhile): the evening lasts a few seconds
ROOT = Path(__file__).resolve().parents[2]
SERVE = """
import sys
from pathlib import Path

from judge.bootstrap import hosted, registry
from judge.service.config import load_settings
from judge.service.running.daemon import serve
from tests.kinds.stalling import Stalling

data = Path(sys.argv[1])
serve(load_settings(), registry([*hosted(), Stalling(data / "stopped", slow=float(sys.argv[2]), runs=data / "runs")]))
"""


def evening(tmp_path: Path) -> Settings:
    """``GAMES`` auctions under way, nobody has bid (their deadline is moved to the real clock's evening:
    `due_in`): the judge's settings."""
    judge = once(auction_judge(tmp_path / "data", max_creates_per_day=GAMES, max_creates_per_hour=GAMES),
                 evening_of, GAMES)
    judge.db.engine.dispose()
    due_in(judge.settings, 24 * 3600.0)
    return judge.settings


def due_in(settings: Settings, seconds: float) -> datetime:
    """Make every game's first lot due ``seconds`` from now (a judge running looks every second); that moment."""
    due = utcnow() + timedelta(seconds=seconds)
    db = Database(settings.database_url)
    try:
        with db.transaction() as session:
            session.execute(update(Game).values(deadline=due, next_due=due))
    finally:
        db.engine.dispose()
    return due


def serve(settings: Settings, port: int, log: Path, settle: float = SETTLE) -> Any:
    """``judge serve`` on ``settings``'s data, listening on ``port`` (two deadline workers, short bounds,
    ``settle`` seconds of settle time, a look at the deadlines every second), once it has started (it
    has answered a mail)."""
    environment = {**os.environ, "JUDGE_DATA_DIR": str(settings.data_dir), "JUDGE_PORT": str(port),
                   "JUDGE_DEADLINE_WORKERS": "2", "JUDGE_SETTLE_SECONDS": str(settle),
                   "JUDGE_STALL_SECONDS": str(STALL), "JUDGE_LOCK_SECONDS": "5", "JUDGE_TICK_SECONDS": "1",
                   "JUDGE_MAPS": "false", "JUDGE_WEB": "false", "JUDGE_MTA_FLUSH": "", "JUDGE_LOG_FILE": str(log)}
    if settings.database:
        environment["JUDGE_DATABASE"] = settings.database
    process = subprocess.Popen([sys.executable, "-c", SERVE, str(settings.data_dir), str(SLOW)], env=environment,
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wait_until(lambda: accepts(port) or process.poll() is not None, "the judge to listen", PATIENCE)
    assert process.poll() is None, process.stdout.read() if process.stdout else ""
    settled(port, settings)
    return process


def accepts(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def send(port: int, sender: str, body: str, subject: str) -> None:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, "judge@localhost", subject
    message.set_content(body)
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as client:
        client.send_message(message)


def processed(settings: Settings) -> int:
    """How many games' first lot has been processed (read by the test's own connection)."""
    db = Database(settings.database_url)
    try:
        with db.transaction() as session:
            return len(session.scalars(select(Game.name).where(Game.phase == "L2")).all())
    finally:
        db.engine.dispose()


def stop(process: Any) -> str:
    """Stop a judge as its operator does (SIGTERM); what it printed."""
    process.send_signal(signal.SIGTERM)
    output, _ = process.communicate(timeout=PATIENCE)
    assert process.returncode == 0, output
    return str(output)


def results_once(settings: Settings) -> None:
    """Each game's first lot was processed once: each player got its results mail once."""
    subjects = Counter(maildir_subjects(settings))
    assert all(subjects[f"g{number} L1 results"] == 3 for number in range(GAMES)), subjects  # two players, the GM


def test_a_deadline_that_passed_while_a_judge_listened_is_run_at_once_and_later_ones_wait_with_the_first_unheard(
) -> None:
    t = datetime(2026, 11, 26, 20, 0)
    heard = Listener(seen=t + timedelta(minutes=5), by="judge", since=t - timedelta(hours=1), stopped=False)
    due = [(t, "g1"), (t + timedelta(minutes=5), "g2"), (t + timedelta(minutes=6), "g3"),
           (t + timedelta(minutes=7), "g4")]
    assert unheard(due, heard) == due[2:]  # heard until 20:05: g1 and g2 are run now, g3 and the later wait
    assert unheard(due, None) == due  # nobody ever listened: all wait, as before
    before = Listener(seen=t + timedelta(hours=2), by="judge", since=t + timedelta(minutes=1), stopped=True)
    assert unheard(due, before) == due  # g1 fell before that stretch of listening: it and every later one wait
    assert unheard(due[1:], before) == []


@pytest.mark.database
def test_a_judge_killed_mid_evening_and_started_again_runs_the_rest_at_once_in_its_workers_and_answers_mail(
        tmp_path: Path) -> None:
    """The finding: the restarted judge waited ``settle-seconds`` (results at 335 to 347 s), then ran the
    rest in its main process, and answered a HELP 52 s late.  The deadline passed while the first judge
    listened (it leaves its heartbeat before each tick that runs games): no mail was held for it.

    Then (issue 68): a worker of the killed judge, between two games as its judge died, had claimed one
    more game before it found its judge gone and ended; the restarted judge ran that game once the claim
    ran out, 60 s later (the test took 57 to 74 s).  The claim names the worker, a process of this machine
    that has ended: it is taken at once, and a claim here would stand ten minutes (`STALL`)."""
    port, settings = free_port(), evening(tmp_path)
    first = serve(settings, port, tmp_path / "first.log")
    due_in(settings, 1.0)
    wait_until(lambda: processed(settings) >= 2, "the evening to begin", PATIENCE)
    first.kill()  # kill -9: nothing of it runs after this but its workers' games under way
    first.wait(timeout=PATIENCE)
    assert processed(settings) < GAMES  # the rest is the second judge's
    second = serve(settings, port, tmp_path / "second.log")
    try:
        send(port, "stranger@example.org", "HELP", "meanwhile")
        wait_until(lambda: processed(settings) == GAMES, "the rest of the evening", PATIENCE)
        wait_until(lambda: "Re: meanwhile" in maildir_subjects(settings), "the HELP's answer", PATIENCE)
        settled(port, settings)
        results_once(settings)
        runs = ran(settings.data_dir / "runs")
        assert sorted(game for game, _ in runs) == sorted(f"g{number}" for number in range(GAMES))  # once each
        assert not {pid for _, pid in runs} & {first.pid, second.pid}  # each in a deadline worker
    finally:
        output = stop(second)
    log = (tmp_path / "second.log").read_text()
    assert "passed while a judge listened; they are run now" in log and "for held mail" not in log
    assert "Traceback" not in output + log


def test_a_deadline_that_passed_while_no_judge_listened_waits_then_runs_in_the_workers_and_other_mail_is_answered(
        tmp_path: Path) -> None:
    """The judge stopped before the deadline: its MTA may hold mail sent before it, so the deadline waits
    ``settle-seconds`` for it (here 15 s), then the games are caught up by the deadline workers.
    Meanwhile a stranger's HELP is answered; a bid for a game held back, sent after its deadline, waits
    and is applied after that deadline's run (the lot it came after is sold without it)."""
    port, settings = free_port(), evening(tmp_path)
    first = serve(settings, port, tmp_path / "first.log")
    due = due_in(settings, 5.0)
    stop(first)  # before the deadline
    wait_until(lambda: utcnow() > due, "the deadline to pass", PATIENCE)
    second = serve(settings, port, tmp_path / "second.log", settle=15.0)
    try:
        send(port, evening_player(0, "alice"), "SIGNON Alice@g0 alice-pw\nBID 5", "late bid")
        send(port, "stranger@example.org", "HELP", "meanwhile")
        wait_until(lambda: "Re: meanwhile" in maildir_subjects(settings), "the HELP's answer", PATIENCE)
        assert processed(settings) == 0 and "Re: late bid" not in maildir_subjects(settings)  # still settling
        wait_until(lambda: processed(settings) == GAMES, "the games caught up", PATIENCE)
        wait_until(lambda: "Re: late bid" in maildir_subjects(settings), "the bid's answer", PATIENCE)
        settled(port, settings)
        results_once(settings)
        runs = ran(settings.data_dir / "runs")
        assert sorted(game for game, _ in runs) == sorted(f"g{number}" for number in range(GAMES))
        assert not {pid for _, pid in runs} & {second.pid}
    finally:
        stop(second)
    db = Database(settings.database_url)
    try:
        with db.transaction() as session:
            sold = session.scalars(select(PhaseRow.result).join(Game).where(Game.name == "g0", PhaseRow.name == "L1"))
            assert [result["auction"]["sales"][0]["buyer"] for result in sold] == [None]  # nobody's bid was in
    finally:
        db.engine.dispose()
    log = (tmp_path / "second.log").read_text()
    assert "10 deadline(s) passed while the judge was down; they wait until" in log
    assert "Traceback" not in log
