"""The listeners' heartbeats (`judge.service.running.listening`): when the tick timer may run the deadlines.

The timer must not run a deadline while no ``judge serve`` listens (the MTA holds the mail sent
for it), nor while one that has just started settles (that mail is coming in); a judge that
started while another listened changes nothing, since the other received the mail meanwhile."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from judge.bootstrap import open_database
from judge.service.config import Settings
from judge.service.running.listening import held, listener, listening, stopped_listening
from judge.store.database import Database
from tests.support.harness import fresh_database_url

NOW = datetime(2026, 3, 1, 9, 0)
ONE, TWO = "judge1 pid 10 on 127.0.0.1:2525", "judge1 pid 11 on 127.0.0.1:2526"
SETTINGS = Settings(settle_seconds=300)


def beating(db: Database, by: str, minutes: range) -> None:
    """``by`` listening through ``minutes`` after NOW, beating each minute as judge serve does."""
    for minute in minutes:
        listening(db, NOW + timedelta(minutes=minute), by)


def hold(db: Database, now: datetime) -> str | None:
    with db.transaction() as session:
        return held(listener(session), now, SETTINGS)


def test_a_judge_whose_mail_no_listener_ever_took_is_never_held(tmp_path: Path) -> None:
    db = open_database(Settings(data_dir=tmp_path, database=fresh_database_url()))
    assert hold(db, NOW) is None  # judge inject only: no MTA holds its mail


def test_the_timer_waits_while_nobody_listens_and_while_a_judge_that_has_just_started_settles(tmp_path: Path) -> None:
    db = open_database(Settings(data_dir=tmp_path, database=fresh_database_url()))
    listening(db, NOW, ONE, starting=True)
    beating(db, ONE, range(1, 6))
    assert "waits until 09:05:00 UTC" in str(hold(db, NOW + timedelta(minutes=4)))
    assert hold(db, NOW + timedelta(minutes=5)) is None
    assert "no judge serve has listened since 2026-03-01 09:05" in str(hold(db, NOW + timedelta(minutes=9)))  # killed
    listening(db, NOW + timedelta(minutes=10), ONE, starting=True)  # restarted by systemd
    assert "waits until 09:15:00 UTC" in str(hold(db, NOW + timedelta(minutes=11)))
    stopped_listening(db, NOW + timedelta(minutes=20), ONE)
    assert "stopped listening at 2026-03-01 09:20" in str(hold(db, NOW + timedelta(minutes=20)))


def test_a_judge_that_starts_while_another_listens_does_not_make_the_timer_wait(tmp_path: Path) -> None:
    db = open_database(Settings(data_dir=tmp_path, database=fresh_database_url()))
    listening(db, NOW, ONE, starting=True)
    beating(db, ONE, range(1, 11))
    listening(db, NOW + timedelta(minutes=11), TWO, starting=True)  # a second judge on another port
    assert hold(db, NOW + timedelta(minutes=11)) is None
    with db.transaction() as session:
        state = listener(session)
    assert state is not None and state.since == NOW and state.by == TWO
    listening(db, NOW + timedelta(minutes=12), ONE, starting=True)  # the first one restarted: the second had the mail
    assert hold(db, NOW + timedelta(minutes=12)) is None
