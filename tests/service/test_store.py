"""The schema comes from the migrations only, and every migration walks down and up."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from alembic import command
from sqlalchemy import inspect

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
