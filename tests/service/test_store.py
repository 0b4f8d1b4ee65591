"""The schema comes from the migrations only, and every migration walks down and up."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
from datetime import datetime
from pathlib import Path

from alembic import command
from sqlalchemy import inspect

from judge.service.app import open_database
from judge.service.config import Settings
from judge.service.handlers import receive
from judge.service.handlers.mail import store
from judge.store.database import Database, alembic_config
from judge.store.models import Base


def test_migrations_create_exactly_the_models_tables_and_walk_down_and_up(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'j.db'}")
    db.upgrade()
    tables = set(inspect(db.engine).get_table_names()) - {"alembic_version"}
    assert tables == set(Base.metadata.tables)
    for name, table in Base.metadata.tables.items():
        assert {c["name"] for c in inspect(db.engine).get_columns(name)} == set(table.columns.keys())
    config = alembic_config(db.url)
    command.downgrade(config, "base")
    assert set(inspect(db.engine).get_table_names()) <= {"alembic_version"}
    command.upgrade(config, "head")
    db.upgrade()  # idempotent
    assert set(inspect(db.engine).get_table_names()) - {"alembic_version"} == tables


def test_judge_inject_command_line(tmp_path: Path) -> None:
    mail = tmp_path / "create.eml"
    mail.write_bytes(b"From: gm@example.org\nTo: judge@localhost\nSubject: new game\nMessage-ID: <c1@x>\n\n"
                     b"CREATE cli1 secret\nLIST\n")
    data = tmp_path / "data"
    run = [sys.executable, "-m", "judge.service.cli"]
    proc = subprocess.run([*run, "inject", "--data-dir", str(data), str(mail)], capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    assert f"{mail}: done" in proc.stdout
    replies = list((data / "outbox" / "new").iterdir())
    assert len(replies) == 1 and b"cli1: forming" in replies[0].read_bytes()
    proc = subprocess.run([*run, "process", "cli1", "--data-dir", str(data)], capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0 and "cli1 is forming: nothing to process" in proc.stdout


def test_judge_tick_is_quiet_when_nothing_happens_and_timestamps_what_does(tmp_path: Path) -> None:
    data = tmp_path / "data"
    run = [sys.executable, "-m", "judge.service.cli"]
    mail = tmp_path / "create.eml"
    mail.write_bytes(b"From: gm@example.org\nTo: judge@localhost\nSubject: new\nMessage-ID: <t1@x>\n\nCREATE t1 pw\n")
    subprocess.run([*run, "inject", "--data-dir", str(data), str(mail)], capture_output=True, check=True)
    quiet = subprocess.run([*run, "tick", "--data-dir", str(data)], capture_output=True, text=True, check=True)
    assert quiet.stdout == ""
    (data / "outbox" / "new").mkdir(parents=True, exist_ok=True)
    mail.write_bytes(b"From: gm@example.org\nTo: judge@localhost\nSubject: list\nMessage-ID: <t2@x>\n\nLIST\n")
    subprocess.run([*run, "inject", "--data-dir", str(data), str(mail)], capture_output=True, check=True)
    settings = Settings(data_dir=data)
    receive(open_database(settings), mail.read_bytes().replace(b"<t2@x>", b"<t3@x>"), datetime(2026, 1, 1))
    busy = subprocess.run([*run, "tick", "--data-dir", str(data)], capture_output=True, text=True, check=True)
    assert re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC mail \d+ done\n", busy.stdout)
    assert busy.stdout.splitlines()[-1].endswith("UTC 1 mail(s) sent to " + str((data / "outbox").resolve()))


def test_sqlite_transactions_take_turns_and_a_store_of_mail_goes_first(tmp_path: Path) -> None:
    db = open_database(Settings(data_dir=tmp_path))
    order: list[str] = []
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        with db.transaction(), db.transaction():  # a thread may nest its turns
            holding.set()
            assert release.wait(10)
            order.append("holder")

    def other() -> None:
        with db.transaction():
            order.append("other")

    def store_mail() -> None:
        store(db, [(b"Subject: x\r\n\r\nLIST\r\n", None)], datetime(2026, 1, 1))
        order.append("store")

    threads = [threading.Thread(target=hold)]
    threads[0].start()
    assert holding.wait(10)
    for job in (other, store_mail):  # the other transaction waits first, the store after it
        threads.append(threading.Thread(target=job))
        threads[-1].start()
        time.sleep(0.2)
    release.set()
    for thread in threads:
        thread.join(10)
    assert order == ["holder", "store", "other"]
