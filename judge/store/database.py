"""Opening the database: engine, sessions, and upgrading the schema with the migrations."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, make_url
from sqlalchemy.orm import Session, sessionmaker

MIGRATIONS = "judge:migrations"  # package data, found by Alembic through importlib.resources


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", MIGRATIONS)
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def make_engine(url: str) -> Engine:
    """An engine; SQLite gets foreign keys and a busy timeout so writers wait, not fail, and a
    new database file is created readable by its owner only (`create_private`)."""
    if url.startswith("sqlite"):
        database = make_url(url).database
        if database and database != ":memory:" and not database.startswith("file:"):
            create_private(Path(database))
        engine = create_engine(url, connect_args={"timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection, _record):  # type: ignore[no-untyped-def]
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


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


class Database:
    """The judge's database: one engine, sessions as units of work."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    def upgrade(self) -> None:
        upgrade(self.engine)

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A unit of work: everything inside commits together or not at all."""
        with self._sessions() as session, session.begin():
            yield session
