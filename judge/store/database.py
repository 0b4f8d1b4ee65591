"""Opening the database: engine, sessions, and changing the schema with the migrations.

An SQLite database keeps no trace of what was overwritten or deleted (``secure_delete``: a
mail's raw copy holds a password until it is redacted), except in its write-ahead log until
that is written back and truncated (`Database.checkpoint`).

The schema is changed by one process at a time: every upgrade or downgrade runs in one
transaction that first takes the database's schema lock (`schema_lock`: a PostgreSQL advisory
lock; on SQLite the write lock, ``BEGIN IMMEDIATE``), so judges started at once on a fresh
database do not both create its tables; the second finds the schema made and does nothing.
Each change is logged ("database upgraded from 0005 to 0007").  A new, empty database is not taken
through every migration but made at once from the models (`create`), which a test holds to what the
migrations make.  Before any of that, each
connection makes an SQLite database a write-ahead-log one (`to_wal`): the one step where SQLite
does not wait for a lock but fails at once ("database is locked") when another process holds
the file, as two judges (or a judge and the tick timer) opening a new database together do; so
that step waits for the lock itself, as long as any other writer would.  A database already at this
judge's newest schema (`SCHEMA`) is seen so with one query, without Alembic, which is imported
only to change a schema: every start of every judge process would otherwise pay for loading
Alembic and every migration script (issue 27, start-up).

Who holds the write lock.  On SQLite one transaction writes at a time: a process that stops inside
one (SIGSTOP, a debugger, a machine swapping) stops every other writer, and nothing makes it let go
but its end.  So a process that ``judge serve`` starts (a deadline worker, the applier) keeps, in a
value it shares with its parent (`watch_writes`), since when its transaction has written: the
parent kills it once that is older than ``lock-seconds`` (`judge.service.running.workers`), which frees
the lock at once.  On PostgreSQL the same value says since when it has held the rows it wrote.
"""

from __future__ import annotations

import logging
import os
import secrets
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy import (
    Column,
    Connection,
    Engine,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    create_engine,
    event,
    insert,
    inspect,
    make_url,
    select,
    text,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from judge.store.models import Base, Secret

if TYPE_CHECKING:
    from alembic.config import Config

log = logging.getLogger("judge")
SCHEMA = "0036"  # the newest migration's revision: a test holds it to Alembic's head
TABLES = frozenset({  # the tables of `SCHEMA` but Alembic's own: a test holds them to the migrations'
    "absences", "address_preferences", "ahead_blocks", "blobs", "confirmations", "confirmed_addresses",
    "deadline_runs", "games", "grey_press", "heartbeats", "inbound_mail", "intake_marks", "observers", "outbox",
    "outbox_files", "payola_ledger", "payola_phases", "payola_seats", "phases", "player_records", "players",
    "rated_games", "ratings", "reply_limits", "secrets", "signon_failures", "signons", "submissions"})
ALEMBIC_VERSION = Table(  # where Alembic keeps a database's version, as Alembic makes it (a test compares the two)
    "alembic_version", MetaData(), Column("version_num", String(32), nullable=False),
    PrimaryKeyConstraint("version_num", name="alembic_version_pkc"))
MIGRATIONS = "judge:migrations"  # package data, found by Alembic through importlib.resources
BUSY_MILLISECONDS = 30_000  # how long an SQLite writer waits for the database before failing
SCHEMA_LOCK = 0x5061796F  # the PostgreSQL advisory lock key of schema changes ("Payo")
WAL_RETRY = 0.02  # seconds between tries to make a database a write-ahead-log one while another process holds it
WRITES = ("INSERT", "UPDATE", "DELETE", "REPLAC")  # how a statement that writes begins (`watch_writes`)


def alembic_config(url: str) -> Config:
    from alembic.config import Config

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
            to_wal(cursor, database or "")
            cursor.execute("PRAGMA secure_delete=ON")
            cursor.close()

        return plain_savepoints(engine)
    return plain_savepoints(create_engine(url, pool_pre_ping=True, connect_args=postgres_connect_args(url)))


def plain_savepoints(engine: Engine) -> Engine:
    """``engine``, its savepoints (``SAVEPOINT``, ``RELEASE SAVEPOINT``, ``ROLLBACK TO SAVEPOINT``) sent as the
    text SQLAlchemy's compiler writes for them on SQLite and PostgreSQL alike.  SQLAlchemy compiles a savepoint
    afresh each time, as it keeps no compiled form of one: every mail's commands run in a savepoint of their own
    (a CHECK or a refused block is rolled back to it), and its two compilations took as long again as the
    two statements (260 us against 130 with ``SELECT 1`` between them)."""
    quote = engine.dialect.identifier_preparer.quote

    def savepoint(connection: Connection, name: str) -> None:
        connection.exec_driver_sql(f"SAVEPOINT {quote(name)}")

    def release(connection: Connection, name: str) -> None:
        connection.exec_driver_sql(f"RELEASE SAVEPOINT {quote(name)}")

    def roll_back_to(connection: Connection, name: str) -> None:
        connection.exec_driver_sql(f"ROLLBACK TO SAVEPOINT {quote(name)}")

    engine.dialect.do_savepoint = savepoint  # type: ignore[method-assign]
    engine.dialect.do_release_savepoint = release  # type: ignore[method-assign]
    engine.dialect.do_rollback_to_savepoint = roll_back_to  # type: ignore[method-assign]
    return engine


# A judge's PostgreSQL connections, and the server's end of them, give up on a machine that is
# cut off within about 20 s, so that what a cut-off judge held is soon another's (the game's
# advisory lock ends with the server's session) and a cut-off judge soon answers 451 instead of
# hanging.  Each is a libpq parameter that the database URL's query may set otherwise
# (``?connect_timeout=5``, ``?options=-c%20lock_timeout%3D30s``: the URL's options come last and win).
PG_CLIENT = {
    "connect_timeout": 10,  # s: a database out of reach fails a connection (a store: 451) rather than hang
    "keepalives": 1,  # an idle connection to a machine cut off is found dead, not kept for the kernel's ~2 h
    "keepalives_idle": 5,  # s of silence before the first probe ...
    "keepalives_interval": 5,  # ... then one every 5 s ...
    "keepalives_count": 3,  # ... and 3 unanswered probes end it: 20 s
    "tcp_user_timeout": 20_000,  # ms: data sent and not acknowledged for 20 s ends it (the kernel's ~15 min)
}
PG_SERVER = {  # the server's settings for the judge's sessions (``options``)
    "tcp_keepalives_idle": 5,  # the server's end probes the judge's machine as the judge probes it:
    "tcp_keepalives_interval": 5,  # a session of a machine cut off ends within 20 s, and with it its
    "tcp_keepalives_count": 3,  # transaction and advisory locks (a game's mail, `...incoming.handlers.mail.Topics`)
    "tcp_user_timeout": 20_000,  # ms: results the server could not send for 20 s end the session too
    "idle_in_transaction_session_timeout": 20_000,  # ms: a transaction whose judge stopped talking mid-way (cut
    # off, or stuck) is rolled back after 20 s; none of the judge's waits that long between two statements
    "lock_timeout": 120_000,  # ms: a backstop; a lock held by a judge cut off is freed within 20 s (above)
    "statement_timeout": 300_000,  # ms: no statement of the judge's takes minutes; one that does is stuck
}


def postgres_connect_args(url: str) -> dict[str, object]:
    """The libpq parameters of a PostgreSQL connection (`PG_CLIENT`, `PG_SERVER`), where the URL's
    query does not set them."""
    query = make_url(url).query
    args: dict[str, object] = {key: value for key, value in PG_CLIENT.items() if key not in query}
    server = " ".join(f"-c {name}={value}" for name, value in PG_SERVER.items())
    theirs = query.get("options")
    args["options"] = f"{server} {theirs if isinstance(theirs, str) else ' '.join(theirs)}" if theirs else server
    return args


class Holding(Protocol):
    """A number shared between processes (``multiprocessing.RawValue("d")``): `watch_writes`'s."""

    value: float


def watch_writes(engine: Engine, holding: Holding, clock: Callable[[], float] = time.monotonic) -> None:
    """Keep in ``holding`` since when (``clock``: the machine's monotonic clock, one for all its
    processes) a connection of ``engine`` has held a transaction that wrote, and 0 when none does.
    On SQLite the first statement that writes takes the one writer's lock, and the commit or the
    rollback lets go of it; on PostgreSQL the rows written stay locked until then.  The moment is
    taken once the statement has run, so a process waiting for the lock is not taken for its
    holder; a connection given back to the pool holds nothing any more, however it ended."""
    holders: dict[int, float] = {}  # each connection's (its DBAPI connection's id) first write, if it holds one

    def keep() -> None:
        holding.value = min(holders.values(), default=0.0)

    @event.listens_for(engine, "after_cursor_execute")
    def _wrote(connection, cursor, statement, parameters, context, executemany):  # type: ignore[no-untyped-def]
        if statement.lstrip()[:6].upper() in WRITES:
            key = id(connection.connection.dbapi_connection)
            if key not in holders:
                holders[key] = clock()
                keep()

    def _ended(connection: Connection) -> None:
        if holders.pop(id(connection.connection.dbapi_connection), None) is not None:
            keep()

    def _returned(dbapi_connection: Any, record: Any) -> None:
        if holders.pop(id(dbapi_connection), None) is not None:
            keep()

    event.listen(engine, "commit", _ended)
    event.listen(engine, "rollback", _ended)
    event.listen(engine, "checkin", _returned)


def to_wal(cursor: sqlite3.Cursor, name: str, pause: Callable[[float], None] = time.sleep) -> None:
    """Make the database of ``cursor`` a write-ahead-log one, if it is not yet, waiting for
    other processes for up to `BUSY_MILLISECONDS`.

    Changing the journal takes the file's exclusive lock, and SQLite then fails at once when
    another connection holds any lock on it, without its busy handler: two processes opening a
    new database together both try, and one failed ("database is locked"; issue 44, item 16).
    A database already in WAL mode (every one the judge has opened before) needs nothing."""
    if cursor.execute("PRAGMA journal_mode").fetchone()[0] == "wal":
        return
    give_up = time.monotonic() + BUSY_MILLISECONDS / 1000
    waited = False
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > give_up:
                raise
        if not waited:
            log.warning("waiting for another process to let go of %s (it is being opened for the first time)", name)
            waited = True
        pause(WAL_RETRY)


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


def newest_version() -> str:
    """The schema version of this judge's newest migration: `SCHEMA`, which a test holds to Alembic's head.
    Neither this nor `schema_version` loads Alembic, whose import (with the Mako and Pygments it brings) took
    a sixth of the CPU of an operator's command that only checks the schema (``judge status``)."""
    return SCHEMA


def schema_version(connection: Connection) -> str | None:
    """The schema version of the database (None: no schema yet), read where Alembic keeps it
    (`ALEMBIC_VERSION`), as Alembic's ``MigrationContext.get_current_revision`` reads it."""
    if not inspect(connection).has_table(ALEMBIC_VERSION.name):
        return None
    versions = connection.execute(select(ALEMBIC_VERSION.c.version_num)).scalars().all()
    if len(versions) > 1:
        raise RuntimeError(f"the database has {len(versions)} schema versions at once: {', '.join(versions)}")
    return versions[0] if versions else None


@contextmanager
def schema_lock(engine: Engine) -> Iterator[Connection]:
    """A connection in a transaction holding the database's schema lock until it ends: one
    process at a time changes the schema, and the others wait and then see the change made.

    On SQLite the change is made as SQLite's own guide to changing a schema says: foreign keys
    off, the change, then a check that it left no row referring to nothing (`dangling`) before it
    commits, foreign keys on again.  A
    migration that copies a table anew (Alembic's batch mode: SQLite alters little in place)
    drops the old table under the rows of other tables that refer to it, which with foreign keys
    on fails (``FOREIGN KEY constraint failed [SQL: DROP TABLE blobs]``, the way back from 0.4
    once mail with maps had gone); PostgreSQL alters the table in place and keeps every key."""
    if engine.dialect.name != "sqlite":
        with engine.begin() as connection:
            if engine.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
            yield connection
        return
    with engine.connect() as connection:
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")  # outside a transaction, or SQLite ignores it
        connection.commit()
        try:
            with connection.begin():
                connection.exec_driver_sql("BEGIN IMMEDIATE")  # the write lock; the DDL is then one transaction
                broken = dangling(connection)
                yield connection
                added = dangling(connection) - broken
                if added:
                    (table, parent), _ = added.most_common(1)[0]
                    raise IntegrityError("PRAGMA foreign_key_check", None, ValueError(
                        f"the change would leave {added.total()} rows referring to nothing ({table} to {parent})"))
        finally:
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")
            connection.commit()


def dangling(connection: Connection) -> Counter[tuple[str, str]]:
    """How many rows of an SQLite database refer to a row that is not there, by table and the table
    they refer to: a schema change is refused if it adds any (rows that referred to nothing before
    it, however they came to, are not the change's doing and do not stop it)."""
    return Counter((str(table), str(parent)) for table, _, parent, _ in
                   connection.exec_driver_sql("PRAGMA foreign_key_check").all())


def upgrade(engine: Engine) -> tuple[str | None, str | None]:
    """Create or upgrade the schema to the newest migration (idempotent), under the schema
    lock; the versions before and after, and a log line when they differ.  A database at
    `SCHEMA` already is left as it is, without Alembic; an empty one is made from the models
    (`create`) when this process knows every table of `SCHEMA`, else by the migrations."""
    with engine.connect() as connection:
        tables = inspect(connection).get_table_names()
        if "alembic_version" in tables:
            version = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
            if version == SCHEMA:
                return version, version
    if not tables and set(Base.metadata.tables) == TABLES and (made := create(engine)):
        return made
    from alembic import command

    return _migrate(engine, lambda config: command.upgrade(config, "head"))


def create(engine: Engine) -> tuple[None, str] | None:
    """Make an empty database's schema at `SCHEMA` from the models, as Alembic's cookbook advises
    ("Building an Up to Date Database from Scratch"): its tables, the row the migrations write
    (the ``verp`` secret, as 0008) and the version Alembic reads, in one transaction under the
    schema lock; about a tenth of the time of the 36 migrations, for every new judge and each test's
    database.  A test holds the result to the migrations' to every column, key, index and
    default.  None if another process made a schema meanwhile (then `upgrade` migrates it)."""
    with schema_lock(engine) as connection:
        if inspect(connection).get_table_names():
            return None
        Base.metadata.create_all(connection)
        connection.execute(insert(Secret).values(name="verp", value=secrets.token_hex(32)))
        ALEMBIC_VERSION.create(connection)
        connection.execute(insert(ALEMBIC_VERSION).values(version_num=SCHEMA))
    log.info("database created (schema %s)", SCHEMA)
    return None, SCHEMA


def downgrade(engine: Engine, to: str = "-1") -> tuple[str | None, str | None]:
    """Take the schema down one migration (or down to schema ``to``, one migration after the other, in this
    process), under the schema lock; the versions before and after."""
    from alembic import command

    return _migrate(engine, lambda config: command.downgrade(config, to))


def versions() -> list[str]:
    """Every schema version of this judge's migrations, oldest first."""
    from alembic.script import ScriptDirectory

    walked = ScriptDirectory.from_config(alembic_config("sqlite://")).walk_revisions()
    return [script.revision for script in reversed(list(walked))]


def _migrate(engine: Engine, change: Callable[[Config], None]) -> tuple[str | None, str | None]:
    config = alembic_config(engine.url.render_as_string(hide_password=False))
    with schema_lock(engine) as connection:
        before = schema_version(connection)
        config.attributes["connection"] = connection
        change(config)
        after = schema_version(connection)
    if before is None and after is not None:
        log.info("database created (schema %s)", after)
    elif before is not None and before != after:
        log.info("database %s from %s to %s", "upgraded" if after and after > before else "downgraded",
                 before, after or "nothing")
    return before, after


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


_AFTER_COMMIT = "judge_after_commit"  # a session's info key: what runs once its transaction has committed


def after_commit(session: Session, hook: Callable[[Database], None]) -> None:
    """Run ``hook`` (given the database) once the transaction of ``session`` (a `Database.transaction`)
    has committed, outside it, after its turn (`Turns`): work that may take long and needs what
    the transaction wrote, without holding SQLite's one writer's lock meanwhile (a phase's maps:
    `judge.service.outgoing.outbox`).  Nothing runs if the transaction rolls back."""
    session.info.setdefault(_AFTER_COMMIT, []).append(hook)


class Database:
    """The judge's database: one engine, sessions as units of work."""

    def __init__(self, url: str, info: Mapping[str, Any] | None = None, holding: Holding | None = None) -> None:
        """A database at ``url``; ``info``: what every session it makes keeps in its ``info``
        (the kinds of game the judge hosts, `judge.service.hosting.kinds.kinds_of`); ``holding``: where to
        keep since when this process has held a transaction that wrote (`watch_writes`)."""
        self.url = url
        self.engine = make_engine(url)
        if holding is not None:
            watch_writes(self.engine, holding)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False, info=dict(info or {}))
        self._turns = Turns() if url.startswith("sqlite") else None

    def upgrade(self) -> tuple[str | None, str | None]:
        return upgrade(self.engine)

    def checkpoint(self, wait: bool = False) -> bool:
        """`checkpoint` this database, in a turn of its own among this process's threads."""
        with self._turn():
            return checkpoint(self.engine, wait)

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A unit of work: everything inside commits together or not at all.  Once it has
        committed, what `after_commit` asked for runs, outside it."""
        with self._turn(), self._sessions() as session:
            with session.begin():
                yield session
            hooks: list[Callable[[Database], None]] = session.info.pop(_AFTER_COMMIT, [])
        for hook in hooks:
            hook(self)

    @contextmanager
    def urgent(self) -> Iterator[Connection]:
        """A connection in a transaction of its own that goes before the others waiting (`Turns`):
        for storing mail, whose sender is waiting for the 250."""
        with self._turn(urgent=True), self.engine.begin() as connection:
            yield connection

    def _turn(self, urgent: bool = False) -> AbstractContextManager[None]:
        return self._turns.turn(urgent) if self._turns is not None else nullcontext()
