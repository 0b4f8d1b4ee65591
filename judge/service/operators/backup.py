"""Moving a judge's data: ``judge copy-db``, ``judge backup``, ``judge restore``.

``copy_database`` copies every table of one database into another, empty one, with SQLAlchemy
Core, table by table in dependency order, keeping every id; PostgreSQL's sequences are then set
past the highest id, so the next row gets the next number.  It reads the source in one
transaction (on PostgreSQL a REPEATABLE READ snapshot, so a judge may keep running on it) and
writes the target in one (a failure leaves it empty), then compares every table's row count and
every game's money (each kind's `Records.totals`: Payola's balances, Exchange's purses and
treasuries, Machiavelli's treasuries).  A judge kept in SQLite has a second file, its SMTP listener's intake
(``judge-intake.db``, `judge.service.incoming.intake`): the mail stored there and not yet taken in is
copied too, as mail still to apply.  That is how a judge moves from SQLite to PostgreSQL (or
back, or to another server).

``judge backup DIR`` writes ``DIR/judge-<UTC time>/judge.db`` (and ``judge-intake.db``), an SQLite
database whatever the judge runs on, consistent while the judge runs: SQLite's files are copied
with SQLite's backup API (the intake first: a mail taken in between the two copies is then in
the second, never in neither), PostgreSQL's with ``copy_database`` from its snapshot.  The backup
is then checked as ``judge restore --check`` does: opened (a copy of it, so the backup is never
touched), its schema version read, its integrity checked, its rows counted.  With ``--keep N``
(``judge-backup.timer`` keeps a fortnight), the oldest backups beyond the newest N are deleted,
but only once the new one has passed its check.

``judge restore BACKUP`` puts a backup back, the judge stopped: on SQLite the current files are
moved aside (never deleted) into ``before-restore-<time>/`` in their folder and the backup's are
copied in; on PostgreSQL the backup is copied into the configured database, which must be empty
(create a new one and point the settings at it: the old one stays as it was).  The mail that was
waiting to go out when the backup was made goes out when the judge starts, though the judge that
made it may have sent much of it since: restore says how much, queued when, and with
``--no-resend-before TIME`` marks what was queued before TIME failed instead ("not sent again
after the restore"), for ``judge resend`` to send any that had not gone (`hold_outbox`).  The mail
that was stored but not yet applied when the backup was made (in the database, or in the
intake), the judge that made it applied and answered a moment later: the restore applies it
(its sheets and orders count, as they did), but holds every mail that applying it queues, its
answers and any results it caused, as failed ("answered already"), never to be sent a second
time unless ``judge resend`` is asked to (`apply_held`).
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    Integer,
    LargeBinary,
    delete,
    func,
    insert,
    inspect,
    make_url,
    select,
    text,
    update,
)
from sqlalchemy.exc import DatabaseError, SQLAlchemyError
from sqlalchemy.orm import Session

from judge.language import gettext as _
from judge.service.clock import utcnow
from judge.service.config import Settings
from judge.service.datadir import OperatorError, data_dir_lock, make_data_dir, refuse_root, shown_url
from judge.service.hosting import host
from judge.service.hosting.course import ROLLBACK, RolledBack
from judge.service.hosting.kinds import SESSION_KEY, Kinds
from judge.service.incoming.intake import intake_path, untaken
from judge.service.outgoing.outbox import queue
from judge.service.outgoing.preferences import writing_to
from judge.service.running.app import apply_stored, beat
from judge.service.states import RUNNING
from judge.service.templates import counted, render, when
from judge.store import models
from judge.store.database import Database, create_private, make_engine, newest_version, schema_version, upgrade
from judge.store.models import Base, Game, InboundMail, Outbox, PhaseRow, Submission

BACKUP, BACKUP_FAILED = "backup", "backup failed"  # the heartbeats a backup leaves, for ``judge status``
BATCH = 1000  # rows read and written at a time
BLOB_BATCH = 20  # of a table with raw mail or attachments in it (up to a few MB a row)


@dataclass(frozen=True)
class Census:
    """What a database holds: rows per table, and the figures a game master recognises (each
    kind's `judge.service.hosting.kinds.Records.totals`: Payola's balances)."""

    version: str | None
    rows: dict[str, int]
    totals: dict[str, int]
    games: dict[str, int]  # by state
    inbound: dict[str, int]  # by status
    outbox: dict[str, int]  # by status

    def lines(self, waiting: int = 0) -> list[str]:
        def by(counts: dict[str, int]) -> str:
            return ", ".join(f"{count} {name}" for name, count in sorted(counts.items())) or "none"

        return [f"schema {self.version or 'none'} (this judge's newest: {newest_version()})",
                f"games: {by(self.games)}; players {self.rows.get('players', 0)}, phases {self.rows.get('phases', 0)}, "
                f"submissions {self.rows.get('submissions', 0)}"
                + "".join(f", {name} {count}" for name, count in sorted(self.rows.items()) if name not in HOST_TABLES),
                f"mail in: {by(self.inbound)}" + (f"; {waiting} in the intake, not yet taken in" if waiting else ""),
                f"mail out: {by(self.outbox)}"]


def census(connection: Connection, kinds: Kinds) -> Census:
    """Count what the database behind ``connection`` holds (its schema must be this judge's), and
    each kind's totals.  Every table it holds must be one of the host's or the ``kinds``' (their
    models are imported with them): a table the judge does not know would not be copied."""
    present = set(inspect(connection).get_table_names())
    unknown = present - set(Base.metadata.tables) - {"alembic_version"}
    if unknown and schema_version(connection) == newest_version():
        raise OperatorError(f"the database holds tables this judge does not know ({', '.join(sorted(unknown))}): "
                            "copying it would leave them behind")
    rows = {table.name: connection.scalar(select(func.count()).select_from(table)) or 0
            for table in Base.metadata.sorted_tables if table.name in present}
    totals = {name: total for kind in kinds for name, total in kind.totals(connection).items()}

    def by(column: Any) -> dict[str, int]:
        counted = connection.execute(select(column, func.count()).group_by(column))
        return {str(key): int(count) for key, count in counted}

    return Census(schema_version(connection), rows, totals, by(Game.state), by(InboundMail.status),
                  by(Outbox.status))


# -- copying ---------------------------------------------------------------------------------------


def database_url(text_or_path: str) -> str:
    """A database URL, or a path to an SQLite file made into one."""
    if "://" in text_or_path:
        return text_or_path
    return f"sqlite:///{Path(text_or_path).resolve()}"


def sqlite_file(url: str) -> Path | None:
    """The file of an SQLite database URL; None for any other database."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:" \
            or parsed.database.startswith("file:"):
        return None
    return Path(parsed.database)


HOST_TABLES = frozenset(mapper.local_table.name for mapper in Base.registry.mappers  # type: ignore[attr-defined]
                        if mapper.class_.__module__ == models.__name__)
"""The host's tables (`judge.store.models`'): the census names each of the games' tables beside them."""

# Tables whose rows a migration makes (the VERP key of `judge.mail.dsn`, drawn at upgrade): an
# empty database has them, and a copy takes the source's in their place, so that the bounces of
# mail the source sent are still recognised.
MADE_BY_MIGRATIONS = frozenset({"secrets"})


def copy_database(source_url: str, target_url: str, kinds: Kinds) -> tuple[Census, int]:
    """Copy the judge's database at ``source_url`` (and its intake's mail) into the empty one at
    ``target_url``; what the target then holds, and how many mails came from the intake."""
    source_file = sqlite_file(source_url)
    if source_file is not None and not source_file.is_file():
        raise OperatorError(f"there is no database at {source_file}")
    if make_url(source_url) == make_url(target_url) or (source_file and source_file == sqlite_file(target_url)):
        raise OperatorError("the source and the target are the same database")
    source, target = make_engine(source_url), make_engine(target_url)
    try:
        with _snapshot(source) as reading:
            version = schema_version(reading)
            if version != newest_version():
                raise OperatorError(f"the source has schema {version or 'none'}, this judge's is {newest_version()}: "
                                    "judge db upgrade it first (or copy it with the judge that matches it)")
            _refuse_filled(target)
            upgrade(target)
            intake = intake_path(source_url)
            waiting = untaken(intake, reading) if intake is not None and intake.exists() else []
            with target.begin() as writing:
                for table in Base.metadata.sorted_tables:
                    if table.name in MADE_BY_MIGRATIONS:  # the source's, not the target's fresh ones
                        writing.execute(delete(table))
                    blobs = any(isinstance(column.type, LargeBinary) for column in table.columns)
                    result = reading.execute(select(table).order_by(*table.primary_key.columns)
                                             .execution_options(yield_per=BLOB_BATCH if blobs else BATCH))
                    for batch in result.partitions():
                        writing.execute(insert(table), [dict(row._mapping) for row in batch])
                _set_sequences(writing)
                if waiting:
                    writing.execute(insert(InboundMail), [
                        {"raw": raw, "envelope_from": sender, "received_at": received, "status": "new"}
                        for raw, sender, received in waiting])
                copied, expected = census(writing, kinds), census(reading, kinds)
                grown = {**expected.rows, "inbound_mail": expected.rows.get("inbound_mail", 0) + len(waiting)}
                if copied.rows != grown or copied.totals != expected.totals:
                    raise OperatorError(f"the copy differs from its source ({copied.rows} against {grown}); "
                                        "nothing was written")
    finally:
        source.dispose()
        target.dispose()
    return copied, len(waiting)


@contextmanager
def _snapshot(engine: Engine) -> Iterator[Connection]:
    """A connection reading one consistent state of the database until it is closed."""
    if engine.dialect.name == "postgresql":
        with engine.connect().execution_options(isolation_level="REPEATABLE READ") as connection, \
                connection.begin():
            yield connection
        return
    with engine.connect() as connection:
        if engine.dialect.name == "sqlite":
            connection.exec_driver_sql("BEGIN")  # SQLite's read snapshot lasts as long as the transaction
        try:
            yield connection
        finally:
            connection.rollback()


def _refuse_filled(engine: Engine) -> None:
    """Refuse a target that holds anything: rows in the judge's tables, or tables of something else."""
    with engine.connect() as connection:
        present = set(inspect(connection).get_table_names())
        foreign = present - set(Base.metadata.tables) - {"alembic_version"}
        filled = [table.name for table in Base.metadata.sorted_tables
                  if table.name in present and table.name not in MADE_BY_MIGRATIONS
                  and connection.scalar(select(func.count()).select_from(table))]
        version = schema_version(connection) if "alembic_version" in present else None
    where = engine.url.render_as_string(hide_password=True)
    if filled or foreign:
        raise OperatorError(f"{where} is not empty ({', '.join(sorted(filled or foreign))}): copy into a new, empty "
                            "database (createdb), never over one in use")
    if version is not None and version > newest_version():
        raise OperatorError(f"{where} has schema {version}, newer than this judge's {newest_version()}")


def _set_sequences(connection: Connection) -> None:
    """After rows were written with their ids: PostgreSQL's sequences continue past the highest
    (SQLite continues past the highest row id by itself)."""
    if connection.dialect.name != "postgresql":
        return
    for table in Base.metadata.sorted_tables:
        keys = list(table.primary_key.columns)
        if len(keys) != 1 or not isinstance(keys[0].type, Integer):
            continue
        name, column = table.name, keys[0].name
        connection.execute(text(f'SELECT setval(pg_get_serial_sequence(:table, :column), '
                                f'COALESCE((SELECT MAX("{column}") FROM "{name}"), 0) + 1, false)'),
                           {"table": name, "column": column})


# -- backups ---------------------------------------------------------------------------------------


def backup(settings: Settings, kinds: Kinds, folder: Path, now: datetime,
           keep: int | None = None) -> tuple[Path, list[str], int]:
    """``judge backup DIR``: a consistent copy of the judge's data in ``DIR/judge-<time>``, checked;
    then, if it passed and ``keep`` is given, only the newest ``keep`` backups there are kept."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    made = folder / f"judge-{now:%Y%m%d-%H%M%S}"
    number = 0
    while made.exists():  # two in one second
        number += 1
        made = folder / f"judge-{now:%Y%m%d-%H%M%S}-{number}"
    made.mkdir(mode=0o700)
    database = sqlite_file(settings.database_url)
    target = made / "judge.db"
    if database is None:
        copy_database(settings.database_url, f"sqlite:///{target}", kinds)
    else:
        if not database.is_file():
            raise OperatorError(f"there is no database at {database}")
        intake = intake_path(settings.database_url)
        if intake is not None and intake.exists():
            _sqlite_backup(intake, made / "judge-intake.db")  # first: see the module's header
        _sqlite_backup(database, target)
    lines, status = check(made, kinds)
    if keep is not None and status == 0:
        made_by_us = sorted(path for path in folder.glob("judge-*") if (path / "judge.db").is_file())
        for old in made_by_us[:-keep] if keep > 0 else []:
            shutil.rmtree(old)
            lines.append(f"  deleted the older backup {old.name} (--keep {keep})")
    return made, lines, status


def _sqlite_backup(source: Path, target: Path) -> None:
    """Copy an SQLite database with its backup API (consistent while others write to it) into a
    new file of its own, readable by its owner only, with no -wal file beside it."""
    create_private(target)
    reading = sqlite3.connect(source, timeout=30)
    writing = sqlite3.connect(target)
    try:
        reading.backup(writing)
        writing.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
    finally:
        writing.close()
        reading.close()


def _backup_files(backup_path: str) -> tuple[Path, Path | None]:
    """The database file of a backup (its folder, or the file itself) and its intake file, if any."""
    path = Path(backup_path)
    database = path / "judge.db" if path.is_dir() else path
    if not database.is_file():
        raise OperatorError(f"there is no backup at {path} (a folder made by judge backup, or its judge.db)")
    intake = database.with_name(f"{database.stem}-intake.db")
    return database, intake if intake.is_file() else None


def check(backup_path: str | Path, kinds: Kinds) -> tuple[list[str], int]:
    """``judge restore --check BACKUP``: open a copy of the backup (a folder, a file, or a database
    URL) and say what it holds; status 1 if it cannot be read, is damaged, or is newer than this judge."""
    if isinstance(backup_path, str) and "://" in backup_path:
        engine = make_engine(backup_path)
        try:
            with engine.connect() as connection:
                return _verdict(make_url(backup_path).render_as_string(hide_password=True), connection, kinds, None)
        finally:
            engine.dispose()
    database, intake = _backup_files(str(backup_path))
    with tempfile.TemporaryDirectory(prefix="judge-check-") as scratch:
        copy = Path(scratch) / "judge.db"
        shutil.copyfile(database, copy)
        if intake is not None:
            shutil.copyfile(intake, Path(scratch) / "judge-intake.db")
        engine = make_engine(f"sqlite:///{copy}")
        name = str(database.parent if database.name == "judge.db" else database)
        try:
            with engine.connect() as connection:
                integrity = connection.exec_driver_sql("PRAGMA integrity_check").scalar()
                return _verdict(name, connection, kinds, integrity, copy)
        except DatabaseError as exc:  # not a database, or one too damaged to read
            return [f"backup {name}:", f"  PROBLEM: it cannot be read: {exc.orig}"], 1
        finally:
            engine.dispose()


def _verdict(name: str, connection: Connection, kinds: Kinds, integrity: str | None,
             copy: Path | None = None) -> tuple[list[str], int]:
    version = schema_version(connection)
    problems = []
    if integrity not in (None, "ok"):
        problems.append(f"damaged: {integrity}")
    if version is None:
        problems.append("it holds no judge's database")
    elif version > newest_version():
        problems.append(f"its schema {version} is newer than this judge's: restore it with a newer judge")
    lines = [f"backup {name}:"]
    if problems:
        return lines + [f"  PROBLEM: {problem}" for problem in problems], 1
    intake = copy.with_name("judge-intake.db") if copy is not None else None
    waiting = len(untaken(intake, connection)) if intake is not None and intake.exists() else 0
    lines += [f"  {line}" for line in census(connection, kinds).lines(waiting)]
    if version != newest_version():
        lines.append("  (an older schema: the judge upgrades it when it starts on it)")
    lines.append("  integrity: ok" if integrity == "ok" else "  integrity: the database server's to keep")
    return [*lines, "OK"], 0


def hold_outbox(engine: Engine, backup_path: str, before: datetime | None) -> list[str]:
    """After a restore: what the backup's mail waiting to go out (pending, waiting for its maps, or
    being handed over when it was made) will do at the judge's start, said; with ``before``, the part of it queued
    before then is marked failed instead, not to be sent a second time."""
    waiting = (Outbox.status.in_(("pending", "sending", "drawing")))
    with engine.begin() as connection:
        count, first, last = connection.execute(select(func.count(), func.min(Outbox.created_at),
                                                       func.max(Outbox.created_at)).where(waiting)).one()
        if not count:
            return []
        if before is None:
            return [f"{count} mail(s) waiting to go out in the backup (queued {first:%Y-%m-%d %H:%M} to "
                    f"{last:%Y-%m-%d %H:%M} UTC) go out when the judge starts; any the judge sent after the backup "
                    "was made go a second time: judge restore --no-resend-before TIME (UTC) keeps those queued "
                    "before TIME from going (marked failed: judge resend N sends one)"]
        held = connection.execute(update(Outbox).where(waiting, Outbox.created_at < before).values(
            status="failed", last_error=f"not sent again after the restore of {backup_path}: queued before "
            f"{before:%Y-%m-%d %H:%M} UTC, it had most likely gone already")).rowcount
    return [f"{held} of the {count} mail(s) waiting to go out in the backup, queued before {before:%Y-%m-%d %H:%M} "
            "UTC, will not go out again (marked failed: judge queue --state failed lists them, judge resend N "
            f"sends one); {count - held} go out when the judge starts"]


def apply_held(settings: Settings, kinds: Kinds, backup_path: str, now: datetime) -> list[str]:
    """After a restore: apply the mail the backup held stored but unapplied, holding (failed) every
    mail that applying it queues: the judge that made the backup answered it already (see the header)."""
    db = Database(settings.database_url, {SESSION_KEY: kinds})
    try:
        with db.transaction() as session:
            before = session.scalar(select(func.max(Outbox.id))) or 0
        applied = apply_stored(db, settings, now)
        if not applied:
            return []
        with db.transaction() as session:
            held = session.execute(update(Outbox).where(Outbox.id > before, Outbox.status == "pending").values(
                status="failed", last_error=f"not sent after the restore of {backup_path}: the answer to mail that "
                "was waiting to be applied in the backup, which the judge that made it had most likely answered")
            ).rowcount  # type: ignore[attr-defined]
    finally:
        db.engine.dispose()
    return [f"{len(applied)} mail(s) stored but not yet applied in the backup applied now, as the judge that made it "
            f"applied them; the {held} mail(s) that queued (answers, results) will not go out a second time "
            "(marked failed: judge queue --state failed lists them, judge resend N sends one)"]


def made_at(database: Path) -> datetime:
    """When the backup of ``database`` was made (UTC): the time ``judge backup`` names its folder by
    (``judge-20260105-030000``), else when its file was last written."""
    try:
        return datetime.strptime(database.parent.name[:21], "judge-%Y%m%d-%H%M%S")
    except ValueError:
        return datetime.fromtimestamp(database.stat().st_mtime, UTC).replace(tzinfo=None, microsecond=0)


def tell_taken_back(settings: Settings, kinds: Kinds, backup: datetime, replaced: str | None,
                    now: datetime) -> list[str]:
    """After a restore: the games whose phase the data it replaced (``replaced``, a database URL) had
    processed since are taken back to it.  Each game's players, game master and observers are told
    that the judge was restored to ``backup`` and which phase is played again, and that phase's
    results will say that they replace the earlier ones, as after a ROLLBACK (`course.RolledBack`,
    ``restored``): without it a phase processed after the backup ran again and every player got a
    second, identical results mail with no word of the restore."""
    if replaced is None:
        return [] if sqlite_file(settings.database_url) else [
            "the players of games the restore took back were not told: which games those are the database it "
            "replaces says (judge restore BACKUP --replacing URL, the database the settings named before)"]
    engine = make_engine(replaced)
    try:
        with engine.connect() as connection:
            processed = {(str(game), str(phase)): at for game, phase, at in connection.execute(
                select(Game.name, PhaseRow.name, PhaseRow.processed_at).join(Game, Game.id == PhaseRow.game_id)
                .where(PhaseRow.processed_at.is_not(None)))}
    finally:
        engine.dispose()
    db = Database(settings.database_url, {SESSION_KEY: kinds})
    told = []
    try:
        with db.transaction() as session:
            for game in session.scalars(select(Game).where(Game.state.in_(RUNNING), Game.phase.is_not(None))
                                        .order_by(Game.name)):
                phase = str(game.phase)
                if (game.name, phase) not in processed:
                    continue
                first = processed[(game.name, phase)]
                last = session.scalar(select(func.max(Submission.id)).where(Submission.game_id == game.id)) or 0
                game.settings = {**game.settings, ROLLBACK: RolledBack(phase, first, last, backup).data()}
                readers = sorted({player.address for player in host.seats(session, game).values()
                                  if host.is_played(player) and player.address} | {game.gm_address}
                                 | set(host.observers(session, game)))
                for address in readers:  # each reader's mail in their own language
                    with writing_to(session, settings, address, game):
                        body = render("restored", game=game, phase=phase, backup=when(backup), processed=when(first))
                        queue(session, settings, to=address, body=body, kind="announcement", now=now, game_id=game.id,
                              subject=_("{game}: the judge was restored to {backup}", game=game.name,
                                        backup=when(backup)))
                told.append(f"{game.name} ({phase})")
    finally:
        db.engine.dispose()
    if not told:
        return []
    return [f"the players of {counted(len(told), 'game')} taken back by the restore are told which phase is played "
            f"again: {', '.join(told)}"]


def restore(settings: Settings, kinds: Kinds, backup_path: str, now: datetime,
            no_resend_before: datetime | None = None, replacing: str | None = None) -> list[str]:
    """``judge restore BACKUP``: the judge's data replaced by a backup's, the judge stopped; then
    `hold_outbox`, `apply_held`, and `tell_taken_back` (compared with the files moved aside, on SQLite;
    on PostgreSQL with the database ``replacing`` names, the one the settings named before)."""
    lines, status = check(backup_path, kinds)
    if status:
        raise OperatorError("the backup did not pass its check:\n" + "\n".join(lines))
    source, intake = _backup_files(backup_path)
    database = sqlite_file(settings.database_url)
    if database is None:
        with tempfile.TemporaryDirectory(prefix="judge-restore-") as scratch:  # the backup itself stays untouched
            copy = Path(scratch) / "judge.db"
            shutil.copyfile(source, copy)
            if intake is not None:
                shutil.copyfile(intake, Path(scratch) / "judge-intake.db")
            copied, waiting = copy_database(f"sqlite:///{copy}", settings.database_url, kinds)
        engine = make_engine(settings.database_url)
        try:
            outgoing = hold_outbox(engine, backup_path, no_resend_before)
        finally:
            engine.dispose()
        outgoing += apply_held(settings, kinds, backup_path, now)
        outgoing += tell_taken_back(settings, kinds, made_at(source), replacing, now)
        return [f"restored {backup_path} into {shown_url(settings)}:", *[f"  {line}" for line in copied.lines(waiting)],
                *outgoing, "start the judge again (systemctl start judge judge-tick.timer)"]
    for folder in dict.fromkeys((settings.data_dir, database.parent)):  # the disk's, deleted or new: made again
        make_data_dir(folder, source)
    with data_dir_lock(settings.data_dir, alone=True):
        aside = database.parent / f"before-restore-{now:%Y%m%d-%H%M%S}"
        current_intake = intake_path(settings.database_url)
        moved = []
        for path in (database, current_intake):
            for part in ([path, path.with_name(f"{path.name}-wal"), path.with_name(f"{path.name}-shm")]
                         if path is not None else []):
                if part.exists():
                    aside.mkdir(mode=0o700, exist_ok=True)
                    part.rename(aside / part.name)
                    moved.append(part.name)
        for backed, place in ((source, database), (intake, current_intake)):
            if backed is not None and place is not None:
                create_private(place)
                shutil.copyfile(backed, place)
        engine = make_engine(settings.database_url)
        try:
            upgrade(engine)
            outgoing = hold_outbox(engine, backup_path, no_resend_before)
            with engine.connect() as connection:
                waiting = len(untaken(current_intake, connection)) if current_intake and current_intake.exists() else 0
                counted = census(connection, kinds)
        finally:
            engine.dispose()
        outgoing += apply_held(settings, kinds, backup_path, now)
        replaced = f"sqlite:///{aside / database.name}" if database.name in moved else None
        outgoing += tell_taken_back(settings, kinds, made_at(source), replaced, now)
    where = f"; the files it replaced are in {aside}" if moved else ""
    return [f"restored {backup_path} into {database}{where}:", *[f"  {line}" for line in counted.lines(waiting)],
            *outgoing, "start the judge again (systemctl start judge judge-tick.timer)"]


def _record_backup(settings: Settings, now: datetime, failure: str | None) -> None:
    """Leave ``judge status`` a heartbeat of this backup: a good one, or one that failed and why.
    A database that cannot take it (the failure itself, often) is left alone: status then sees
    no good backup for too long."""
    engine = make_engine(settings.database_url)
    try:
        with Session(engine) as session, session.begin():
            beat(session, BACKUP if failure is None else BACKUP_FAILED, now,
                 None if failure is None else " ".join(failure.split())[:200])
    except SQLAlchemyError:
        pass
    finally:
        engine.dispose()


def main(args: argparse.Namespace, settings: Settings, kinds: Kinds) -> tuple[list[str], int]:
    """``judge backup``, ``judge restore`` and ``judge copy-db``, for `judge.service.operators.operator.main`
    (``kinds``: the kinds of game the judge hosts, whose tables are copied and totals checked too)."""
    now = utcnow()
    if args.command == "restore" and args.check:
        return check(args.backup, kinds)
    refuse_root(settings)
    if args.command == "backup":
        try:
            made, lines, status = backup(settings, kinds, Path(args.folder), now, args.keep)
        except (OperatorError, OSError, SQLAlchemyError) as exc:
            _record_backup(settings, now, f"{type(exc).__name__}: {exc}")
            raise
        _record_backup(settings, now, None if status == 0 else f"{made} did not pass its check")
        return [f"backup written to {made}", *lines[1:]], status
    if args.command == "restore":
        return restore(settings, kinds, args.backup, now, args.no_resend_before, args.replacing), 0
    source = database_url(args.source) if args.source else settings.database_url
    target = database_url(args.target)
    source_file = sqlite_file(source)
    with data_dir_lock(source_file.parent, alone=True) if source_file else nullcontext():  # its intake stays put
        copied, waiting = copy_database(source, target, kinds)
    lines = [f"copied into {make_url(target).render_as_string(hide_password=True)}:",
             *[f"  {line}" for line in copied.lines()]]
    if waiting:
        lines.append(f"  (with {waiting} mail(s) from the intake, to be applied at the next start)")
    lines.append("every table's rows and every game's money (its balances, purses and treasuries) match the source")
    return lines, 0
