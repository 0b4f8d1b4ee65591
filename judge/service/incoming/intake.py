"""The intake: where ``judge serve`` stores each mail it accepts, until the processor takes it in.

Theory of operation.  SMTP's 250 waits for the mail to be committed, so a store must wait for
nothing but the disk.  PostgreSQL lets stores and the transactions applying mail write side by
side, and there mail goes straight into ``inbound_mail`` (`DirectIntake`).  SQLite lets one
transaction write to a database file at a time: a store would wait for the mail being applied
(in the applier's process) to commit, and SQLite's busy handler sleeps in steps of up to 100 ms.
So with SQLite the listener stores into a file of its own beside the database, ``<name>-intake.db``,
which nothing else writes (`FileIntake`); its commits (group commits, `GroupCommit`) wait only
for each other.

Before applying, the processor *takes* the mail in: in one transaction of the judge's database
it copies the rows after its mark into ``inbound_mail``, in arrival order, and moves the mark
(``intake_marks``) past them.  The copy and the mark commit together, so a mail is taken once
even if the judge dies right after; the listener deletes the rows up to the mark in its next
commit, or in one of their own when no mail comes (``tidy``), and overwrites them as it does
(``secure_delete``: they hold passwords, which the judge's database redacts once applied).  Their
inserts stay in the file's write-ahead log until it is written back and truncated: a commit of
no mail (a tidy, which no SMTP session waits for) does that once rows were deleted, without
waiting if the file is busy, and so does closing the intake, which first deletes what was taken
(`FileIntake.close`).  The mark belongs to one intake file (an epoch drawn when the file is
created), so an intake file made anew starts from its first row.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Protocol

from sqlalchemy import (
    Column,
    Connection,
    DateTime,
    Engine,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    delete,
    func,
    insert,
    make_url,
    select,
)
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from judge.service.incoming.handlers.mail import bounded_sender, store
from judge.store.database import Database, checkpoint, make_engine
from judge.store.models import InboundMail, IntakeMark

log = logging.getLogger("judge")
TAKE = 256  # mails copied per transaction at most, so a long backlog is taken in bounded pieces

_schema = MetaData()
_epoch = Table("epoch", _schema, Column("epoch", String(32), nullable=False))
_mail = Table(
    "mail", _schema,
    Column("id", Integer, primary_key=True),
    Column("raw", LargeBinary, nullable=False),
    Column("envelope_from", String(320)),
    Column("received_at", DateTime, nullable=False),
    sqlite_autoincrement=True,  # an id is never used twice, even once its row is deleted
)


class Intake(Protocol):
    kind: str  # what its ids number, for the log: "mail" (``inbound_mail``) or "intake"

    def store(self, mails: Sequence[tuple[bytes, str | None]], now: datetime) -> list[int]:
        """Commit raw mails (each with its envelope sender), one transaction; their ids here."""

    def take(self, db: Database) -> int:
        """Take stored mail into ``db``'s ``inbound_mail``; how many mails."""

    def close(self) -> None:
        """Let go of what the intake holds open."""


class DirectIntake:
    """Mail stored straight into the judge's database: nothing to take in."""

    kind = "mail"

    def __init__(self, db: Database) -> None:
        self.db = db

    def store(self, mails: Sequence[tuple[bytes, str | None]], now: datetime) -> list[int]:
        return store(self.db, mails, now) if mails else []

    def take(self, db: Database) -> int:
        return 0

    def close(self) -> None:
        """The judge's database is closed by its owner."""


class FileIntake:
    """Mail stored in an SQLite file of its own until `take` copies it into the judge's database."""

    kind = "intake"

    def __init__(self, path: Path) -> None:
        self.path = path
        self.engine: Engine = make_engine(f"sqlite:///{path}")  # with secure_delete
        _schema.create_all(self.engine)
        with self.engine.begin() as connection:
            epoch = connection.scalar(select(_epoch.c.epoch))
            if epoch is None:
                epoch = secrets.token_hex(16)
                connection.execute(insert(_epoch).values(epoch=epoch))
        self.epoch: str = epoch
        self.taken = 0  # rows up to here are in the judge's database: the next commit deletes them
        self.logged = False  # rows were deleted whose inserts the write-ahead log may still hold

    def store(self, mails: Sequence[tuple[bytes, str | None]], now: datetime) -> list[int]:
        """Commit ``mails`` and forget what was taken, in one transaction; their ids in the intake.
        With no mail, and rows deleted since the log was last truncated, truncate it (`checkpoint`)."""
        rows = [{"raw": raw, "envelope_from": bounded_sender(sender), "received_at": now} for raw, sender in mails]
        with self.engine.begin() as connection:
            deleted = connection.execute(delete(_mail).where(_mail.c.id <= self.taken)).rowcount
            ids = list(connection.scalars(insert(_mail).returning(_mail.c.id, sort_by_parameter_order=True), rows)
                       ) if rows else []
        self.logged = self.logged or bool(deleted)
        if self.logged and not rows:
            self.logged = not checkpoint(self.engine)
        return ids

    def take(self, db: Database) -> int:
        """Copy the mail after the mark into ``db``, moving the mark in the same transaction.

        With nothing stored after what this intake last took, it returns at once: the mark in
        ``db`` is at least that far, so there is nothing to take, and the processor's every
        wake and every tick would otherwise take the judge database's write lock for nothing.
        """
        with self.engine.connect() as intake:
            newest = intake.scalar(select(func.max(_mail.c.id)))
        if newest is None or newest <= self.taken:
            return 0
        taken = 0
        while True:
            with db.transaction() as session:
                # A write first, so that SQLite's lock is held before the mark is read: a second
                # taker (a cron ``judge tick``) waits for this one and then reads the moved mark.
                session.execute(sqlite_insert(IntakeMark).values(epoch=self.epoch, taken=0)
                                .on_conflict_do_nothing())
                mark = session.get_one(IntakeMark, self.epoch)
                with self.engine.connect() as intake:
                    rows = intake.execute(select(_mail.c.id, _mail.c.raw, _mail.c.envelope_from, _mail.c.received_at)
                                          .where(_mail.c.id > mark.taken).order_by(_mail.c.id).limit(TAKE)).all()
                if rows:
                    ids = list(session.scalars(
                        insert(InboundMail).returning(InboundMail.id, sort_by_parameter_order=True),
                        [{"raw": raw, "envelope_from": sender, "received_at": received, "status": "new"}
                         for _, raw, sender, received in rows]))
                    mark.taken = rows[-1].id
                upto = mark.taken
            self.taken = upto  # only once committed: the listener deletes these rows
            if rows:
                log.info("intake %d-%d taken in as mail %d-%d", rows[0].id, rows[-1].id, ids[0], ids[-1])
            taken += len(rows)
            if len(rows) < TAKE:
                return taken

    def close(self) -> None:
        """Delete what was taken in, truncate the write-ahead log (waiting for the file if it is
        busy), and let go of the file."""
        with self.engine.begin() as connection:
            connection.execute(delete(_mail).where(_mail.c.id <= self.taken))
        checkpoint(self.engine, wait=True)
        self.engine.dispose()


def intake_for(db: Database) -> Intake:
    """The daemon's intake: a `FileIntake` beside a database kept in an SQLite file, else a `DirectIntake`."""
    path = intake_path(db.url)
    return FileIntake(path) if path is not None else DirectIntake(db)


def take_in(db: Database) -> int:
    """Take in what a daemon's intake holds, if there is one (for ``judge tick`` and ``judge apply``)."""
    path = intake_path(db.url)
    if path is None or not path.exists():
        return 0
    intake = FileIntake(path)
    try:
        return intake.take(db)
    finally:
        intake.close()


def intake_path(database_url: str) -> Path | None:
    """Where the intake of a database kept in an SQLite file is (``judge.db`` has
    ``judge-intake.db``); None for any other database."""
    url = make_url(database_url)
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:" \
            or url.database.startswith("file:"):
        return None
    path = Path(url.database)
    return path.with_name(f"{path.stem}-intake.db")


def untaken(path: Path, judge: Connection) -> list[tuple[bytes, str | None, datetime]]:
    """The mail of the intake file ``path`` that the judge's database (``judge``) has not taken
    in: (raw, envelope sender, when stored), in arrival order.  For copies and backups of a
    stopped judge, whose intake may still hold mail, and for ``judge status``."""
    engine = make_engine(f"sqlite:///{path}")
    try:
        with engine.connect() as intake:
            epoch = intake.scalar(select(_epoch.c.epoch))
            mark = judge.scalar(select(IntakeMark.taken).where(IntakeMark.epoch == epoch)) if epoch else None
            rows = intake.execute(select(_mail.c.raw, _mail.c.envelope_from, _mail.c.received_at)
                                  .where(_mail.c.id > (mark or 0)).order_by(_mail.c.id))
            return [(raw, sender, received) for raw, sender, received in rows]
    finally:
        engine.dispose()
