"""Opening the database: engine, sessions, and upgrading the schema with the migrations.

An SQLite database keeps no trace of what was overwritten or deleted (``secure_delete``: a
mail's raw copy holds a password until it is redacted), except in its write-ahead log until
that is written back and truncated (`Database.checkpoint`).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event, make_url
from sqlalchemy.orm import Session, sessionmaker

MIGRATIONS = "judge:migrations"  # package data, found by Alembic through importlib.resources
BUSY_MILLISECONDS = 30_000  # how long an SQLite writer waits for the database before failing

log = logging.getLogger("judge")


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", MIGRATIONS)
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def make_engine(url: str) -> Engine:
    """An engine; SQLite gets foreign keys, a busy timeout so writers wait, not fail, and
    ``secure_delete`` (what is deleted or overwritten is zeroed, not left in free space), and a
    new database file is created readable by its owner only (`create_private`)."""
    if url.startswith("sqlite"):
        database = make_url(url).database
        if database and database != ":memory:" and not database.startswith("file:"):
            create_private(Path(database))
        engine = create_engine(url, connect_args={"timeout": BUSY_MILLISECONDS / 1000})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection, _record):  # type: ignore[no-untyped-def]
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA secure_delete=ON")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


def checkpoint(engine: Engine, wait: bool = False) -> bool:
    """Write an SQLite database's write-ahead log back into it and truncate the log to nothing,
    so that no older version of a row (a mail before its password was masked) stays on disk;
    whether that was done.  Without ``wait`` it does not wait for the database: busy (a reader
    on an older snapshot, a writer), the log is only partly written back, and truncated by a
    later call, which costs the caller nothing.  Anything but SQLite: nothing to do, True."""
    if engine.dialect.name != "sqlite":
        return True
    connection = engine.raw_connection()
    try:
        cursor = connection.cursor()
        if not wait:
            cursor.execute("PRAGMA busy_timeout=0")
        try:
            busy, _, _ = cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        finally:
            cursor.execute(f"PRAGMA busy_timeout={BUSY_MILLISECONDS}")
            cursor.close()
    except Exception as exc:  # a locked or broken database: the next call or the next start does it
        log.warning("could not truncate the write-ahead log of %s: %s", engine.url.database, exc)
        return False
    finally:
        connection.close()
    return not busy


def create_private(path: Path) -> None:
    """Create ``path`` empty with mode 0600 if it does not exist, whatever the umask.

    The database holds players' addresses and mail; SQLite would create it with the process's
    umask (often 0644), and gives its -wal and -shm files the mode of the database file.
    """
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    os.fchmod(descriptor, 0o600)  # exactly 0600, even under a umask such as 0277
    os.close(descriptor)


def upgrade(engine: Engine) -> None:
    """Create or upgrade the schema to the newest migration (idempotent)."""
    config = alembic_config(engine.url.render_as_string(hide_password=False))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


class Turns:
    """Whose turn it is to use an SQLite database, among the threads of one process.

    SQLite lets one transaction write at a time; a writer that finds the database taken sleeps
    and tries again (its busy handler, in steps of up to 100 ms), so under load a store of mail
    could lose the database again and again to the daemon's other threads (the sender commits
    twice per mail) and wait seconds for its 250.  Transactions of one process take turns here
    instead, handed over at once, and a store (``urgent``) goes before any other that is
    waiting.  A thread may nest turns.  Other processes (the daemon's applier, a cron ``judge
    tick``) still meet SQLite's own locking.
    """

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._owner: int | None = None
        self._depth = 0
        self._urgent = 0  # urgent turns waiting

    @contextmanager
    def turn(self, urgent: bool = False) -> Iterator[None]:
        me = threading.get_ident()
        with self._changed:
            if self._owner != me:
                self._urgent += urgent
                self._changed.wait_for(lambda: self._owner is None and (urgent or not self._urgent))
                self._urgent -= urgent
                self._owner = me
            self._depth += 1
        try:
            yield
        finally:
            with self._changed:
                self._depth -= 1
                if not self._depth:
                    self._owner = None
                    self._changed.notify_all()


class Database:
    """The judge's database: one engine, sessions as units of work."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._turns = Turns() if url.startswith("sqlite") else None

    def upgrade(self) -> None:
        upgrade(self.engine)

    def checkpoint(self, wait: bool = False) -> bool:
        """`checkpoint` this database, in a turn of its own among this process's threads."""
        with self._turn():
            return checkpoint(self.engine, wait)

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A unit of work: everything inside commits together or not at all."""
        with self._turn(), self._sessions() as session, session.begin():
            yield session

    @contextmanager
    def urgent(self) -> Iterator[Connection]:
        """A connection in a transaction of its own that goes before the others waiting (`Turns`):
        for storing mail, whose sender is waiting for the 250."""
        with self._turn(urgent=True), self.engine.begin() as connection:
            yield connection

    def _turn(self, urgent: bool = False) -> AbstractContextManager[None]:
        return self._turns.turn(urgent) if self._turns is not None else nullcontext()
