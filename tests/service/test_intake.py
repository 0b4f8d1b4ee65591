"""The SQLite intake (`judge.service.incoming.intake`): stores that wait for no one, mail taken in exactly once."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from judge.bootstrap import open_database
from judge.service.config import Settings
from judge.service.incoming.intake import DirectIntake, FileIntake, intake_for, intake_path
from judge.service.running.app import apply_stored
from judge.store.database import Database
from judge.store.models import InboundMail, IntakeMark
from tests.support.harness import raw_mail

NOW = datetime(2026, 3, 1, 9, 0)
LATER = datetime(2026, 3, 1, 9, 5)


@pytest.fixture
def db(tmp_path: Path) -> Database:
    return open_database(Settings(data_dir=tmp_path))


@pytest.fixture
def intake(db: Database) -> FileIntake:
    path = intake_path(db.url)
    assert path is not None
    return FileIntake(path)


def inbound(db: Database) -> list[tuple[bytes, str | None, datetime, str]]:
    with db.transaction() as session:
        rows = session.execute(select(InboundMail.raw, InboundMail.envelope_from, InboundMail.received_at,
                                      InboundMail.status).order_by(InboundMail.id))
        return [tuple(row) for row in rows]  # type: ignore[misc]


def held(intake: FileIntake) -> list[int]:
    """The ids the intake file still holds."""
    with sqlite3.connect(intake.path) as connection:
        return [row[0] for row in connection.execute("SELECT id FROM mail ORDER BY id")]


def test_an_sqlite_database_gets_an_intake_file_beside_it_and_postgresql_none(db: Database) -> None:
    intake = intake_for(db)
    assert isinstance(intake, FileIntake)
    assert intake.path == Path(db.engine.url.database or "").with_name("judge-intake.db")
    assert intake.path.stat().st_mode & 0o777 == 0o600  # it holds passwords until taken in
    assert intake_path("postgresql+psycopg://judge@127.0.0.1:1/none") is None
    assert isinstance(intake_for(Database("sqlite://")), DirectIntake)


def test_stored_mail_stays_in_the_intake_until_taken_in_in_arrival_order(db: Database, intake: FileIntake) -> None:
    first = intake.store([(b"one", "a@example.org"), (b"two", None)], NOW)
    second = intake.store([(b"three", "c\r\n@example.org")], LATER)
    assert first == [1, 2] and second == [3]
    assert inbound(db) == []
    assert intake.take(db) == 3
    assert inbound(db) == [(b"one", "a@example.org", NOW, "new"), (b"two", None, NOW, "new"),
                           (b"three", "c@example.org", LATER, "new")]  # the envelope sender bounded as stored
    assert intake.take(db) == 0 and len(inbound(db)) == 3


def test_the_next_commit_forgets_what_was_taken_in_and_keeps_the_rest(db: Database, intake: FileIntake) -> None:
    intake.store([(b"one", None), (b"two", None)], NOW)
    intake.take(db)
    assert held(intake) == [1, 2]  # taken in, not yet forgotten
    assert intake.store([(b"three", None)], NOW) == [3]  # ids are never used twice
    assert held(intake) == [3]
    intake.take(db)
    intake.store([], NOW)  # the daemon's tidy: a commit without mail
    assert held(intake) == []


def test_mail_is_taken_in_once_even_if_the_intake_never_forgot_it(db: Database, intake: FileIntake) -> None:
    intake.store([(b"one", None), (b"two", None)], NOW)
    intake.take(db)
    intake.engine.dispose()  # the judge dies before any commit deletes the rows it took in
    again = FileIntake(intake.path)
    assert held(again) == [1, 2]
    again.store([(b"three", None)], NOW)  # a fresh process knows no mark yet: nothing is deleted ...
    assert held(again) == [1, 2, 3]
    assert again.take(db) == 1  # ... but the mark in the judge's database says where to go on
    assert [raw for raw, *_ in inbound(db)] == [b"one", b"two", b"three"]


def test_a_new_intake_file_is_taken_in_from_its_first_row(db: Database) -> None:
    path = intake_path(db.url)
    assert path is not None
    old = FileIntake(path)
    old.store([(b"one", None), (b"two", None)], NOW)
    old.take(db)
    old.engine.dispose()
    for leftover in path.parent.glob(f"{path.name}*"):  # the file and its -wal, -shm
        leftover.unlink()
    new = FileIntake(path)
    assert new.epoch != old.epoch
    assert new.store([(b"three", None)], NOW) == [1]  # its ids start again ...
    assert new.take(db) == 1  # ... and its mark too
    assert [raw for raw, *_ in inbound(db)] == [b"one", b"two", b"three"]
    with db.transaction() as session:
        assert dict(session.execute(select(IntakeMark.epoch, IntakeMark.taken)).all()) == {old.epoch: 2, new.epoch: 1}


def test_a_take_that_fails_forgets_nothing(db: Database, intake: FileIntake, monkeypatch: pytest.MonkeyPatch) -> None:
    intake.store([(b"one", None)], NOW)
    real = db.transaction

    @contextmanager
    def failing() -> Iterator[Session]:
        with real() as session:
            yield session
            raise OSError("disk full")  # inside the transaction: it rolls back

    monkeypatch.setattr(db, "transaction", failing)
    with pytest.raises(OSError):
        intake.take(db)
    monkeypatch.undo()
    intake.store([], NOW)
    assert held(intake) == [1] and inbound(db) == []
    assert intake.take(db) == 1 and len(inbound(db)) == 1


def test_a_store_does_not_wait_for_a_transaction_writing_the_judges_database(db: Database, intake: FileIntake) -> None:
    applying = sqlite3.connect(db.engine.url.database or "", isolation_level=None)
    applying.execute("BEGIN IMMEDIATE")  # as the applier's process holds SQLite's write lock for a run
    try:
        stored: list[int] = []
        store = threading.Thread(target=lambda: stored.extend(intake.store([(b"one", None)], NOW)))
        store.start()
        store.join(timeout=20)  # the judge's database waits 30 s for a lock: a store sharing it would still wait
        assert not store.is_alive() and stored == [1]
    finally:
        applying.rollback()
        applying.close()


def test_a_take_with_nothing_new_does_not_wait_for_the_judges_database(db: Database, intake: FileIntake) -> None:
    intake.store([(b"one", None)], NOW)
    assert intake.take(db) == 1 and held(intake) == [1]

    def take_alone() -> None:
        took: list[int] = []
        take = threading.Thread(target=lambda: took.append(intake.take(db)))
        take.start()
        take.join(timeout=20)  # a take that wrote would wait 30 s for the lock
        assert not take.is_alive() and took == [0]

    applying = sqlite3.connect(db.engine.url.database or "", isolation_level=None)
    applying.execute("BEGIN IMMEDIATE")  # the applier holds SQLite's write lock for a run
    try:
        take_alone()  # holding only what it took
        intake.store([], LATER)
        assert held(intake) == []
        take_alone()  # empty
    finally:
        applying.rollback()
        applying.close()
    intake.store([(b"two", None)], LATER)
    assert intake.take(db) == 1 and [raw for raw, *_ in inbound(db)] == [b"one", b"two"]


def test_judge_tick_and_apply_take_in_what_a_stopped_daemon_left_in_its_intake(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, web=False, maps=False)
    db = open_database(settings)
    path = intake_path(db.url)
    assert path is not None
    intake = FileIntake(path)
    intake.store([(raw_mail("gm@example.org", "HELP"), "gm@example.org")], NOW)
    intake.engine.dispose()
    assert [status for _, status in apply_stored(db, settings, NOW)] == ["done"]
    with db.transaction() as session:
        assert session.scalar(select(func.count()).select_from(InboundMail)) == 1


def test_what_was_taken_in_and_forgotten_leaves_no_password_in_the_intake(db: Database, intake: FileIntake) -> None:
    intake.store([(b"SIGNON FRANCE@game1 swordfish-1234", None)], NOW)
    intake.take(db)
    intake.store([], NOW)
    with intake.engine.connect() as connection:
        connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    assert b"swordfish-1234" not in intake.path.read_bytes()
