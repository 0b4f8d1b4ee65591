"""The schema comes from the migrations, or for a new database from the models, and the two are held alike;
every migration walks down and up."""

from __future__ import annotations

import logging
import re
import sqlite3
import subprocess
import sys
import threading
import time
from datetime import datetime
from pathlib import Path
from types import SimpleNamespace

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, event, inspect, select, text
from sqlalchemy.exc import IntegrityError, OperationalError

from judge.bootstrap import hosted, open_database
from judge.service.config import Settings
from judge.service.hosting import records
from judge.service.incoming.handlers import mail as applying
from judge.service.incoming.handlers import receive
from judge.service.incoming.handlers.mail import apply_run, store
from judge.store import database
from judge.store.database import SCHEMA, TABLES, Database, alembic_config, newest_version, schema_lock
from judge.store.models import (
    Absence,
    Base,
    Confirmation,
    ConfirmedAddress,
    InboundMail,
    Observer,
    SignonFailure,
)
from tests.support.auction import auction_judge, start_auction
from tests.support.harness import fresh_database_url, raw_mail


def test_migrations_create_exactly_the_models_tables_and_walk_down_and_up(tmp_path: Path) -> None:
    """A database made from the models (as a new judge's is) walks down every migration to nothing, and
    up again to the models' tables."""
    hosted()  # the kinds' own tables join the models as their kinds load (alone, this test loaded none)
    db = Database(f"sqlite:///{tmp_path / 'j.db'}")
    assert db.upgrade() == (None, SCHEMA)
    config = alembic_config(db.url)
    command.downgrade(config, "base")
    assert set(inspect(db.engine).get_table_names()) <= {"alembic_version"}
    command.upgrade(config, "head")
    db.upgrade()  # idempotent
    tables = set(inspect(db.engine).get_table_names()) - {"alembic_version"}
    assert tables == set(Base.metadata.tables) == TABLES
    for name, table in Base.metadata.tables.items():
        assert {c["name"] for c in inspect(db.engine).get_columns(name)} == set(table.columns.keys())


def migrated(tmp_path: Path, name: str) -> Database:
    """A new database taken to the newest schema by the migrations, one after the other."""
    db = Database(fresh_database_url(schema=False) or f"sqlite:///{tmp_path / name}")
    command.upgrade(alembic_config(db.url), "head")
    return db


def test_the_migrations_make_the_models_schema_to_each_columns_type_nullability_and_index(tmp_path: Path) -> None:
    """What Alembic's autogenerate would write to take the migrations' schema to the models': nothing.  A model
    changed without its migration (a column made NOT NULL, an index added) would leave every judge's
    database unlike the code that reads it; on PostgreSQL too, where types are compared strictly."""
    hosted()
    db = migrated(tmp_path, "j.db")
    with db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, Base.metadata) == []
    db.engine.dispose()


def reflected(engine: Engine) -> dict[str, dict[str, object]]:
    """Everything the database says of each of its tables, in a form two databases compare by: each
    column's type, nullability and default (by name: the migrations add columns last), the names and
    columns of its keys, indexes and constraints."""
    seen = inspect(engine)
    return {table: {
        "columns": {column["name"]: (str(column["type"]), column["nullable"], column.get("default"))
                    for column in seen.get_columns(table)},
        "primary key": seen.get_pk_constraint(table),
        "foreign keys": sorted((key["name"] or "", key["constrained_columns"], key["referred_table"],
                                key["referred_columns"], sorted(key["options"].items()))
                               for key in seen.get_foreign_keys(table)),
        "indexes": sorted((index["name"], index["column_names"], index["unique"]) for index in seen.get_indexes(table)),
        "unique": sorted((unique["name"] or "", unique["column_names"])
                         for unique in seen.get_unique_constraints(table)),
        "checks": sorted((check["name"] or "", check["sqltext"]) for check in seen.get_check_constraints(table)),
    } for table in seen.get_table_names()}


def test_a_new_database_made_from_the_models_is_the_migrations_to_every_key_index_default_and_row(
        tmp_path: Path) -> None:
    """A new judge's database is made from the models (`create`), not by the 35 migrations; what a later
    migration alters or drops by name, or a row read by default, must then be there as the migrations
    leave it: every table, column (type, nullability, server default), key, index and constraint by name,
    Alembic's version table and version, and the one row the migrations write (the ``verp`` secret, a
    random value of the same length)."""
    hosted()
    by_migrations = migrated(tmp_path, "migrated.db")
    by_models = Database(fresh_database_url(schema=False) or f"sqlite:///{tmp_path / 'created.db'}")
    assert by_models.upgrade() == (None, SCHEMA)
    assert reflected(by_models.engine) == reflected(by_migrations.engine)
    for db in (by_migrations, by_models):
        with db.engine.connect() as connection:
            assert connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all() == [SCHEMA]
            [(name, value)] = connection.execute(text("SELECT name, value FROM secrets")).all()
            assert name == "verp" and re.fullmatch("[0-9a-f]{64}", value)
        db.engine.dispose()


def test_a_process_that_does_not_know_every_table_makes_a_new_database_by_the_migrations(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A process that has not loaded a kind whose tables the schema has (its models lack them) cannot make
    them from the models: the migrations make the whole schema, as before."""
    hosted()
    monkeypatch.setattr(database, "TABLES", TABLES | {"a_table_of_a_kind_not_loaded"})
    monkeypatch.setattr(database, "create", lambda engine: pytest.fail("made from the models"))
    db = Database(f"sqlite:///{tmp_path / 'j.db'}")
    assert db.upgrade() == (None, SCHEMA)
    assert set(inspect(db.engine).get_table_names()) - {"alembic_version"} == TABLES


def test_the_schema_judges_check_at_start_is_alembics_newest() -> None:
    """`SCHEMA` is what a start and every operator's command compare the database with without loading
    Alembic: a migration added without it would leave every database a version behind."""
    head = ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()
    assert newest_version() == SCHEMA == head


def test_a_judge_opening_a_database_at_the_newest_schema_does_not_load_alembic(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'j.db'}"
    assert Database(url).upgrade() == (None, SCHEMA)  # made, by Alembic
    opened = subprocess.run([sys.executable, "-c", "import sys; from judge.store.database import Database; "
                             f"print(Database({url!r}).upgrade(), 'alembic' in sys.modules)"],
                            capture_output=True, text=True, check=True)
    assert opened.stdout.split() == [f"('{SCHEMA}',", f"'{SCHEMA}')", "False"]


def test_an_operators_command_reads_the_schema_version_as_alembic_does_without_loading_it(tmp_path: Path) -> None:
    """``judge status`` and the other commands check the schema (`schema_version`, `newest_version`) without
    Alembic, and read what Alembic reads: none before the schema, then the version it wrote, at every step."""
    db = Database(f"sqlite:///{tmp_path / 'j.db'}")
    config = alembic_config(db.url)
    with db.engine.connect() as connection:
        assert database.schema_version(connection) is None
        assert MigrationContext.configure(connection).get_current_revision() is None
    for version in ("0001", "0007", SCHEMA):
        command.upgrade(config, version)
        with db.engine.connect() as connection:
            assert database.schema_version(connection) == version == \
                MigrationContext.configure(connection).get_current_revision()
    db.engine.dispose()
    checked = subprocess.run([sys.executable, "-c", "import sys; from sqlalchemy import create_engine; "
                              "from judge.store.database import newest_version, schema_version; "
                              f"connection = create_engine({db.url!r}).connect(); "
                              "print(schema_version(connection), newest_version(), 'alembic' in sys.modules)"],
                             capture_output=True, text=True, check=True)
    assert checked.stdout.split() == [SCHEMA, SCHEMA, "False"]
    with db.engine.begin() as connection:
        connection.execute(text("INSERT INTO alembic_version VALUES ('0001')"))
    with db.engine.connect() as connection, pytest.raises(RuntimeError, match="2 schema versions at once"):
        database.schema_version(connection)  # as Alembic refuses a database with two heads
    db.engine.dispose()


AT = "2026-01-01 00:00:00"  # when the rows written by hand at an old schema were written


def at_0007(tmp_path: Path, state: str) -> tuple[Database, Config]:
    """A new database at schema 0007 (the first release's) holding game g1, in ``state``, of gm@x.org, and
    the Alembic configuration that takes it on."""
    db = Database(fresh_database_url(schema=False) or f"sqlite:///{tmp_path / 'j.db'}")
    config = alembic_config(db.url)
    command.upgrade(config, "0007")
    with db.engine.begin() as connection:
        connection.execute(text("INSERT INTO games (id, name, variant, options, state, gm_address, gm_password, seed, "
                                f"settings, created_at) VALUES (1, 'g1', 'standard', '[]', '{state}', 'gm@x.org', "
                                f"'h', 1, '{{}}', '{AT}')"))
    return db, config


def test_keeps_waiting_joins_and_takes_the_addresses_already_served_as_confirmed(tmp_path: Path) -> None:
    db, config = at_0007(tmp_path, "forming")
    with db.engine.begin() as connection:
        connection.execute(text(f"INSERT INTO players (game_id, address, password, dummy, resigned, joined_at) "
                                f"VALUES (1, 'p@x.org', 'h', false, false, '{AT}')"))
        connection.execute(text(f"INSERT INTO observers (game_id, address, created_at) VALUES (1, 'o@x.org', '{AT}')"))
        connection.execute(text("INSERT INTO join_requests (game_id, address, password, requested, token, created_at) "
                                f"VALUES (1, 'q@x.org', 'hash', 'FRANCE', 'abc123', '{AT}')"))
        connection.execute(text(f"INSERT INTO signon_failures (game_id, who, sender, at) VALUES (1, 'FRANCE', "
                                f"'m@x.org', '{AT}')"))
    command.upgrade(config, "head")
    with db.transaction() as session:
        assert set(session.scalars(select(ConfirmedAddress.address))) == {"gm@x.org", "p@x.org", "o@x.org"}
        [waiting] = session.scalars(select(Confirmation))
        assert (waiting.token, waiting.kind, waiting.address, waiting.details) == (
            "abc123", "join", "q@x.org", {"password": "hash", "requested": "FRANCE"})
        assert session.scalars(select(SignonFailure.source)).one() == "[unknown] m@x.org"
    command.downgrade(config, "0007")
    with db.engine.begin() as connection:
        assert connection.execute(text("SELECT token, password, requested FROM join_requests")).one() == (
            "abc123", "hash", "FRANCE")
    db.engine.dispose()


def test_the_upgrade_to_0035_drops_the_rows_no_judge_wrote_and_fills_what_it_can(tmp_path: Path) -> None:
    """Rows without a column the models require: a sign-on failure without its sender, another without its
    time, an observer without its address are dropped; an observer without its time and an absence without
    its status or time are kept, given the upgrade's time and ``pending``.  The whole rows stay as they were."""
    db, config = at_0007(tmp_path, "active")
    command.upgrade(config, "0034")
    with db.engine.begin() as connection:
        for sender, moment in (("whole@x.org", f"'{AT}'"), ("timeless@x.org", "NULL"), (None, f"'{AT}'")):
            connection.execute(text("INSERT INTO signon_failures (game_id, who, sender, source, at) VALUES "
                                    f"(1, 'FRANCE', :sender, 'src', {moment})"), {"sender": sender})
        for address, moment in (("o@x.org", f"'{AT}'"), ("late@x.org", "NULL"), (None, f"'{AT}'")):
            connection.execute(text("INSERT INTO observers (game_id, address, created_at) "
                                    f"VALUES (1, :address, {moment})"), {"address": address})
        for seat, status, moment in (("FRANCE", "'approved'", f"'{AT}'"), ("ITALY", "NULL", "NULL"),
                                     (None, "'pending'", f"'{AT}'")):
            connection.execute(text('INSERT INTO absences (game_id, seat, start, "end", status, created_at) VALUES '
                                    f"(1, :seat, '2026-01-02', '2026-01-09', {status}, {moment})"), {"seat": seat})
    command.upgrade(config, "head")
    with db.transaction() as session:
        assert session.execute(select(SignonFailure.sender, SignonFailure.at)).all() == [
            ("whole@x.org", datetime(2026, 1, 1))]
        observers = {row.address: row.created_at for row in session.scalars(select(Observer))}
        absences = {row.seat: (row.status, row.created_at) for row in session.scalars(select(Absence))}
    assert observers.keys() == {"o@x.org", "late@x.org"} and observers["o@x.org"] == datetime(2026, 1, 1)
    assert absences.keys() == {"FRANCE", "ITALY"} and absences["FRANCE"] == ("approved", datetime(2026, 1, 1))
    assert absences["ITALY"][0] == "pending"
    assert observers["late@x.org"] > datetime(2026, 1, 1) and absences["ITALY"][1] > datetime(2026, 1, 1)
    command.downgrade(config, "0034")  # the way back: nullable again
    with db.engine.begin() as connection:
        connection.execute(text("INSERT INTO observers (game_id, address, created_at) VALUES (1, 'o2@x.org', NULL)"))
    db.engine.dispose()


def test_H4_an_upgrade_merges_the_records_of_one_mailbox_and_says_so(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Five lines under four ways of writing two people's addresses: after 0028 they are the
    records of bob@example.org (three lines) and alice@example.org (two); 4 addresses are 2 records,
    2 merged.  The way back keeps the merge, and the way forward again changes nothing."""
    url = fresh_database_url(schema=False) or f"sqlite:///{tmp_path / 'j.db'}"
    db = Database(url)
    config = alembic_config(db.url)
    command.upgrade(config, "0027")
    at = "2026-01-01 00:00:00"
    written = ["bob@example.org", "Bob+games@example.org", "BOB@example.org", "alice@example.org", "alice@example.org"]
    with db.engine.begin() as connection:
        connection.execute(text("INSERT INTO games (id, name, variant, options, state, gm_address, gm_password, seed, "
                                f"settings, created_at) VALUES (1, 'g1', 'standard', '[]', 'finished', 'gm@x.org', "
                                f"'h', 1, '{{}}', '{at}')"))
        for address in written:
            connection.execute(text("INSERT INTO player_records (address, game_id, seat, what, at) "
                                    f"VALUES ('{address}', 1, 'FRANCE', 'on_time', '{at}')"))
    with caplog.at_level(logging.INFO, logger="judge"):
        command.upgrade(config, "head")
    assert "players' records by mailbox: 2 addresses merged into another of its mailbox, 2 records kept" in caplog.text

    def kept() -> list[str]:
        with db.engine.connect() as connection:
            return sorted(connection.execute(text("SELECT address FROM player_records")).scalars())

    assert kept() == ["alice@example.org"] * 2 + ["bob@example.org"] * 3
    with db.transaction() as session:
        assert records.of(session, "Bob@Example.org", datetime(2026, 1, 2)).on_time == 3
    command.downgrade(config, "0027")
    assert kept() == ["alice@example.org"] * 2 + ["bob@example.org"] * 3
    command.upgrade(config, "head")
    assert kept() == ["alice@example.org"] * 2 + ["bob@example.org"] * 3
    db.engine.dispose()


def test_a_schema_change_that_would_leave_a_row_referring_to_nothing_is_undone_and_keys_hold_again(
        tmp_path: Path) -> None:
    """SQLite changes a schema with its foreign keys off (`schema_lock`: a table copied anew is dropped under the
    rows that refer to it); a change that leaves a row referring to nothing is refused whole, and the keys hold
    again after it.  PostgreSQL refuses the row at once."""
    db = Database(fresh_database_url() or f"sqlite:///{tmp_path / 'j.db'}")
    db.upgrade()
    dangling = text("INSERT INTO outbox_files (outbox_id, filename, content_type, sha256) VALUES (7, 'm.png', "
                    "'image/png', 'no such blob')")
    with pytest.raises(IntegrityError), schema_lock(db.engine) as connection:
        connection.execute(text("CREATE TABLE scratch (id INTEGER PRIMARY KEY)"))
        connection.execute(dangling)
    assert "scratch" not in inspect(db.engine).get_table_names()
    with pytest.raises(IntegrityError), db.engine.begin() as connection:
        connection.execute(dangling)
    db.engine.dispose()


def test_savepoints_go_as_text_and_each_keeps_or_undoes_its_own_writes(tmp_path: Path) -> None:
    """Every mail's commands run in a savepoint, sent as text, not compiled afresh at each mail
    (`database.plain_savepoints`): one released keeps its writes, one rolled back to undoes its own
    and nothing written before it."""
    db = Database(fresh_database_url() or f"sqlite:///{tmp_path / 'j.db'}")
    db.upgrade()
    sent: list[tuple[str, bool]] = []

    @event.listens_for(db.engine, "before_cursor_execute")
    def _sent(_connection, _cursor, statement, _parameters, context, _many):  # type: ignore[no-untyped-def]
        if "SAVEPOINT" in statement:
            sent.append((statement, context.compiled is None))

    moment = datetime(2026, 11, 28, 12, 0)
    with db.transaction() as session:
        session.add(ConfirmedAddress(address="ann@example.org", confirmed_at=moment))
        kept = session.begin_nested()
        session.add(ConfirmedAddress(address="bob@example.org", confirmed_at=moment))
        kept.commit()
        undone = session.begin_nested()
        session.add(ConfirmedAddress(address="cat@example.org", confirmed_at=moment))
        session.flush()
        undone.rollback()
    with db.transaction() as session:
        assert sorted(session.scalars(select(ConfirmedAddress.address))) == ["ann@example.org", "bob@example.org"]
    assert sent == [("SAVEPOINT sa_savepoint_1", True), ("RELEASE SAVEPOINT sa_savepoint_1", True),
                    ("SAVEPOINT sa_savepoint_2", True), ("ROLLBACK TO SAVEPOINT sa_savepoint_2", True)]
    db.engine.dispose()


def test_judge_inject_command_line(tmp_path: Path) -> None:
    mail = tmp_path / "create.eml"
    mail.write_bytes(b"From: gm@example.org\nTo: judge@localhost\nSubject: new game\nMessage-ID: <c1@x>\n\n"
                     b"CREATE cli1 secret\nLIST\n")
    data = tmp_path / "data"
    run = [sys.executable, "-m", "judge"]
    proc = subprocess.run([*run, "inject", "--data-dir", str(data), str(mail)], capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    assert f"{mail}: done" in proc.stdout
    sent = [path.read_bytes() for path in (data / "outbox" / "new").iterdir()]
    assert len(sent) == 2  # the reply, and the request to confirm the game master's address
    [asked] = [raw for raw in sent if b"Subject: Please confirm: CREATE cli1" in raw]
    token = re.search(rb"^CONFIRM (\w+)", asked, re.M)
    assert token is not None
    mail.write_bytes(b"From: gm@example.org\nTo: judge@localhost\nSubject: yes\nMessage-ID: <c2@x>\n\n"
                     b"CONFIRM " + token.group(1) + b"\nLIST\n")
    proc = subprocess.run([*run, "inject", "--data-dir", str(data), str(mail)], capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0 and f"{mail}: done" in proc.stdout
    replies = [path.read_bytes() for path in (data / "outbox" / "new").iterdir()]
    assert len(replies) == 3 and any(b"cli1: forming" in raw for raw in replies)
    proc = subprocess.run([*run, "process", "cli1", "--data-dir", str(data)], capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0 and "cli1 is forming: nothing to process" in proc.stdout


def test_judge_tick_is_quiet_when_nothing_happens_and_timestamps_what_does(tmp_path: Path) -> None:
    data = tmp_path / "data"
    run = [sys.executable, "-m", "judge"]
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


def test_a_mail_applied_while_the_database_disk_is_full_waits_for_the_next_pass_instead_of_quarantine(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite says "database or disk is full" (PostgreSQL "could not extend file"): nothing is
    wrong with the mail, so it stays new, as when the database cannot be reached, and is
    applied once there is room again; the daemon's pass ends and tries again later."""
    judge = start_auction(auction_judge(tmp_path))  # the test kind's game (`tests.support.auction`)
    mail_id = receive(judge.db, raw_mail("alice@example.org", "SIGNON Alice@g1 alice-pw\nBID 2"), judge.now)
    settle = applying._settle

    def full(*args: object) -> object:
        raise OperationalError("INSERT INTO outbox ...", {}, sqlite3.OperationalError("database or disk is full"))

    monkeypatch.setattr(applying, "_settle", full)
    monkeypatch.setattr(applying.time, "sleep", lambda seconds: None)  # the retries' pauses
    with pytest.raises(OperationalError, match="disk is full"):
        apply_run(judge.db, judge.settings, [mail_id], judge.now)
    with judge.db.transaction() as session:
        assert session.get_one(InboundMail, mail_id).status == "new"
    monkeypatch.setattr(applying, "_settle", settle)  # room again
    assert apply_run(judge.db, judge.settings, [mail_id], judge.now) == [(mail_id, "done")]


def test_a_process_keeps_since_when_it_has_held_a_transaction_that_wrote_until_it_ends(tmp_path: Path) -> None:
    """What `judge serve` kills a stalled worker by: a read holds no writer's lock, the first write takes it
    (on SQLite; on PostgreSQL the row), and the commit or the rollback lets it go."""
    settings = Settings(data_dir=tmp_path, database=fresh_database_url())
    open_database(settings).engine.dispose()
    holding = SimpleNamespace(value=0.0)
    db = Database(settings.database_url, holding=holding)
    try:
        with db.transaction() as session:
            session.scalars(select(InboundMail.id)).all()
            assert holding.value == 0.0
            before = time.monotonic()
            session.add(ConfirmedAddress(address="a@example.org", confirmed_at=datetime(2026, 1, 1)))
            session.flush()
            assert before <= holding.value <= time.monotonic()
        assert holding.value == 0.0
        with pytest.raises(ZeroDivisionError), db.transaction() as session:
            session.add(ConfirmedAddress(address="b@example.org", confirmed_at=datetime(2026, 1, 1)))
            session.flush()
            assert holding.value > 0.0
            1 / 0  # noqa: B018
        assert holding.value == 0.0
    finally:
        db.engine.dispose()
