"""The operator's commands: what a game master running the judge does by hand, without SQL.

``judge status`` (a monitoring check: exit status 1 when something needs attention), ``judge
queue`` and ``judge resend`` (the outgoing mail), ``judge quarantine`` (mail that could not be
applied: list, show, retry, drop), ``judge prune`` (the bulk of old mail), ``judge db`` (the
schema's version, upgrade, one step down), and, in `judge.service.operators.backup`, ``judge backup``,
``judge restore`` and ``judge copy-db``.

Rules every command here keeps:

- None changes the schema except ``judge db upgrade`` and ``judge db downgrade``: a command run
  by hand beside a judge of the previous release must not migrate the database under it.  A
  database whose schema is not this judge's is refused with what to do (`open_current`).
- None runs as root on a data directory that belongs to another user (`refuse_root`): root's
  files there (an SQLite database's -wal and -shm, a page, a Maildir entry) would break the
  judge's own writes.  The operator's guide (docs/operators) writes each command as the judge's user (``runuser -u
  payola -- judge ...``).
- Nothing that could lose a player's last word: ``judge serve`` and ``judge tick`` hold the data
  directory's lock (`data_dir_lock`) shared while they run, and what replaces the data
  (``judge restore``, ``judge db downgrade``, ``judge copy-db`` from this judge's SQLite files)
  takes it alone or refuses to start; a mail is re-sent or re-applied only when asked by its
  number (or ``--all`` for the outgoing mail), and a quarantined mail that a later one may have
  replaced is re-applied only with ``--force``.
- Nothing a game needs is pruned: ``judge prune`` drops the bulk of mail that is done with (the
  text and attachments of mail sent, the raw copy of mail applied) and keeps its rows (a bounce
  or a copy of an old mail is still recognised), every mail not yet sent or applied, quarantined
  mail, and the games themselves: phases, sheets, ledger, from which HISTORY, the public pages,
  ROLLBACK and the end-of-game mail are made.  It works in short transactions beside the
  running judge.
"""

from __future__ import annotations

import argparse
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, NamedTuple

from sqlalchemy import LargeBinary, cast, delete, func, make_url, select, update
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from judge.commands.parse import password_words
from judge.mail.inbound import parse_mail
from judge.mail.received import accepted_at as mta_accepted_at
from judge.mail.received import authserv_ids
from judge.mail.redact import MASK, redact
from judge.service.clock import now_on
from judge.service.config import ConfigError, Settings
from judge.service.datadir import REFUSED, OperatorError, RootRefused, data_dir_lock, refuse_root, shown_url
from judge.service.hosting import ratings
from judge.service.hosting.kinds import SESSION_KEY, Kinds
from judge.service.incoming.handlers import process_mail
from judge.service.incoming.handlers.mail import game_signed_on
from judge.service.incoming.intake import intake_path, untaken
from judge.service.operators.backup import BACKUP, BACKUP_FAILED
from judge.service.outgoing.outbox import drop_unused_blobs
from judge.service.outgoing.sender import deliver_pending, transport_for
from judge.service.rating import PROVISIONAL
from judge.service.running.listening import Listener, listener
from judge.service.states import GameState
from judge.store.database import Database, downgrade, newest_version, schema_version, upgrade, versions
from judge.store.models import Game, Heartbeat, InboundMail, Outbox, OutboxFile, PhaseRow

OUTBOX_STATES = ("pending", "drawing", "sending", "failed", "sent")
SETTLED = ("done", "duplicate", "automatic", "dropped")  # mail received that is never applied again
PRUNE_RUN = 200  # mails pruned per transaction: the running judge never waits long


# -- safety ----------------------------------------------------------------------------------------


def open_current(settings: Settings, kinds: Kinds | None = None) -> Database:
    """The judge's database, if its schema is this judge's; never migrates it (see the header).
    Its sessions know ``kinds`` (to apply mail again: ``judge quarantine retry``)."""
    db = _existing(settings, kinds)
    with db.engine.connect() as connection:
        version = schema_version(connection)
    newest = newest_version()
    if version != newest:
        db.engine.dispose()
        if version is None:
            raise OperatorError(f"{shown_url(settings)} has no judge schema yet: start the judge, or judge db upgrade")
        raise OperatorError(f"{shown_url(settings)} has schema {version}; this judge's is {newest}: "
                            "judge db upgrade (after a backup), or use the judge that matches it")
    return db


def _existing(settings: Settings, kinds: Kinds | None = None) -> Database:
    """The judge's database, refused if it is an SQLite file that is not there (opening it would
    make an empty one: a wrong --config or --data-dir)."""
    url = make_url(settings.database_url)
    if url.get_backend_name() == "sqlite" and url.database and not url.database.startswith("file:") \
            and not Path(url.database).is_file():
        raise OperatorError(f"there is no database at {url.database}: are --config or --data-dir right?")
    return Database(settings.database_url, {SESSION_KEY: kinds} if kinds is not None else None)


# -- judge db --------------------------------------------------------------------------------------


def db_version(settings: Settings) -> tuple[list[str], int]:
    """``judge db version``: the schema's version and this judge's; status 1 when they differ."""
    db = _existing(settings)
    try:
        with db.engine.connect() as connection:
            version = schema_version(connection)
    finally:
        db.engine.dispose()
    newest = newest_version()
    lines = [f"database {shown_url(settings)}: schema {version or 'none'}; this judge's newest: {newest}"]
    if version != newest:
        lines.append("run judge db upgrade (after judge backup), or start the judge: it upgrades at start")
    return lines, 0 if version == newest else 1


def db_upgrade(settings: Settings) -> list[str]:
    """``judge db upgrade``: the schema to this judge's newest (what a start does)."""
    refuse_root(settings)
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    db = Database(settings.database_url)
    try:
        before, after = upgrade(db.engine)
    finally:
        db.engine.dispose()
    if before == after:
        return [f"schema {after}: already this judge's newest"]
    return [f"database upgraded from {before or 'nothing'} to {after}"]


def db_downgrade(settings: Settings, confirmed: bool, to: str | None = None) -> tuple[list[str], int]:
    """``judge db downgrade --yes``: the schema one migration down (``--to``: down to that schema, in one
    process rather than a process a migration), the judge stopped; without ``--yes``, what it would do."""
    refuse_root(settings)
    db = _existing(settings)
    try:
        with db.engine.connect() as connection:
            version = schema_version(connection)
        if version is None:
            return ["the database has no schema: nothing to take down"], 1
        known = versions()
        if to is not None and (to not in known or version not in known or known.index(to) >= known.index(version)):
            return [f"schema {to} is not one below the database's {version} (this judge knows "
                    f"{known[0]} to {known[-1]})"], 1
        steps = "one migration down" if to is None else f"down to schema {to}"
        if not confirmed:
            again = "judge db downgrade --yes" + ("" if to is None else f" --to {to}")
            return [f"this takes schema {version} {steps}, dropping what each migration added; back up "
                    f"first (judge backup DIR), stop the judge, then: {again}"], 1
        with data_dir_lock(settings.data_dir, alone=True):
            before, after = downgrade(db.engine, to or "-1")
    finally:
        db.engine.dispose()
    if after is None:
        return [f"database downgraded from {before} to nothing; it holds no judge's tables now (a judge started on it "
                "makes them anew, empty)"], 0
    return [f"database downgraded from {before} to {after}; install the release that has schema {after} before "
            "starting the judge again (this one would upgrade it at start)"], 0


# -- judge queue, judge resend ---------------------------------------------------------------------


def queue_lines(db: Database, now: datetime, state: str | None, limit: int) -> list[str]:
    """``judge queue``: the outgoing mail by state, then the rows of ``state`` (default: every row
    not yet sent; ``deferred``: pending rows waiting for their next try), oldest first."""
    with db.transaction() as session:
        counts = dict(session.execute(select(Outbox.status, func.count()).group_by(Outbox.status)).all())
        deferred = session.scalar(select(func.count()).select_from(Outbox)
                                  .where(Outbox.status == "pending", Outbox.next_attempt_at > now)) or 0
        query = select(Outbox).order_by(Outbox.id)
        if state == "deferred":
            query = query.where(Outbox.status == "pending", Outbox.next_attempt_at > now)
        elif state in OUTBOX_STATES:
            query = query.where(Outbox.status == state)
        elif state is None:
            query = query.where(Outbox.status != "sent")
        rows = list(session.scalars(query.limit(limit)))
    lines = [", ".join(f"{counts.get(name, 0)} {name}" + (f" ({deferred} deferred)" if name == "pending" else "")
                       for name in OUTBOX_STATES)]
    for row in rows:
        when = f"next try {row.next_attempt_at:%Y-%m-%d %H:%M}" if row.status == "pending" and row.next_attempt_at \
            else f"sent {row.sent_at:%Y-%m-%d %H:%M}" if row.sent_at else ""
        lines.append(f"{row.id:>7} {row.status:<8} {row.attempts:>2} tries  queued {row.created_at:%Y-%m-%d %H:%M}"
                     f"  {when}".rstrip())
        lines.append(f"        to {row.recipient}: {row.subject}")
        if row.body is None and row.raw is None:
            lines.append("        its text was dropped by judge prune: it cannot be sent again")
        if row.last_error:
            lines.append(f"        last error: {' '.join(row.last_error.split())}")
    if len(rows) == limit:
        lines.append(f"(the first {limit}; --limit for more)")
    return lines


def resend(db: Database, settings: Settings, ids: Sequence[int], every: bool, again: bool,
           now: datetime) -> tuple[list[str], int]:
    """``judge resend N ...`` or ``--all`` (every mail not yet sent: failed, or waiting for its next
    try): due at once, with the back-off started afresh, then sent; a row already sent only with
    ``again`` (a second copy)."""
    lines, status = [], 0
    kept_since = now - timedelta(days=settings.attachment_days)
    with db.transaction() as session:
        if every:
            rows = list(session.scalars(select(Outbox).where(Outbox.status.in_(("failed", "pending")), _has_text)
                                        .order_by(Outbox.id)))
            pruned = session.scalar(select(func.count()).select_from(Outbox).where(Outbox.status == "failed",
                                                                                   ~_has_text))
            if pruned:
                lines.append(f"{pruned} failed mail(s) cannot be sent again: judge prune dropped their text "
                             "(judge queue --state failed lists them)")
        else:
            rows = []
            for row_id in ids:
                row = session.get(Outbox, row_id)
                if row is None:
                    lines.append(f"outbox {row_id}: there is no such mail")
                elif row.body is None and row.raw is None:
                    lines.append(f"outbox {row_id}: its text was dropped by judge prune; it cannot be sent again")
                elif row.status == "sending":
                    lines.append(f"outbox {row_id}: being handed over right now; see judge queue in a minute")
                elif row.status == "sent" and not again:
                    lines.append(f"outbox {row_id}: sent {row.sent_at:%Y-%m-%d %H:%M}; --again sends a second copy")
                else:
                    rows.append(row)
            status = 1 if len(rows) < len(ids) else 0
        bare = {row.id for row in rows if row.status == "sent" and row.sent_at and row.sent_at < kept_since}
        for row in rows:
            row.status, row.next_attempt_at, row.attempts = "pending", None, 0
        chosen = [row.id for row in rows]
    if not chosen:
        return lines + (["nothing to send again"] if every else []), status
    deliver_pending(db, settings, transport_for(settings), now)
    with db.transaction() as session:
        for row in session.scalars(select(Outbox).where(Outbox.id.in_(chosen)).order_by(Outbox.id)):
            error = f": {' '.join(row.last_error.split())}" if row.status != "sent" and row.last_error else ""
            note = (f" (without the attachments it had, if any: a sent mail's are dropped "
                    f"{settings.attachment_days:g} days after it went)" if row.id in bare else "")
            lines.append(f"outbox {row.id} to {row.recipient}: {row.status}{error}{note}")
    return lines, status


_has_text = Outbox.body.is_not(None) | Outbox.raw.is_not(None)  # not pruned (`prune`)


# -- judge quarantine ------------------------------------------------------------------------------


def quarantine_lines(db: Database) -> list[str]:
    """``judge quarantine``: the mail set aside, oldest first."""
    with db.transaction() as session:
        rows = list(session.scalars(select(InboundMail).where(InboundMail.status == "quarantined")
                                    .order_by(InboundMail.id)))
        lines = []
        for row in rows:
            mail = parse_mail(row.raw, envelope_from=row.envelope_from)
            lines.append(f"{row.id:>7}  received {row.received_at:%Y-%m-%d %H:%M}  from {mail.sender or '(none)'}: "
                         f"{mail.subject or '(no subject)'}")
            lines.append(f"         {' '.join((row.error or '').split())[:200]}")
    return lines or ["no mail is quarantined"]


def quarantine_show(db: Database, mail_id: int) -> list[str]:
    """``judge quarantine show N``: a quarantined mail as read (its passwords masked), its error,
    and what retrying it would meet (`_retry_doubts`)."""
    with db.transaction() as session:
        row = _quarantined(session.get(InboundMail, mail_id), mail_id)
        mail = parse_mail(row.raw, envelope_from=row.envelope_from)
        shown = parse_mail(redact(row.raw, password_words(mail.lines)), envelope_from=row.envelope_from)
        lines = [f"mail {row.id}, received {row.received_at:%Y-%m-%d %H:%M} UTC, quarantined "
                 f"{row.processed_at:%Y-%m-%d %H:%M} UTC" if row.processed_at else f"mail {row.id}",
                 f"From: {mail.sender or '(none)'} (envelope {row.envelope_from or '<>'})",
                 f"Subject: {mail.subject}", "", *shown.lines, "", f"Error: {row.error}"]
        doubts = _retry_doubts(session, row)
    lines += [f"Before retrying: {doubt}" for doubt in doubts]
    lines.append(f"judge quarantine retry {row.id}{' --force' if doubts else ''} applies it now; "
                 f"judge quarantine drop {row.id} sets it aside for good")
    return lines


def quarantine_retry(db: Database, settings: Settings, mail_id: int, force: bool,
                     now: datetime) -> tuple[list[str], int]:
    """``judge quarantine retry N``: apply a quarantined mail again, as if it had just arrived
    (after the cause was fixed); refused, unless ``force``, when `_retry_doubts` finds any."""
    with db.transaction() as session:
        row = _quarantined(session.get(InboundMail, mail_id), mail_id)
        doubts = _retry_doubts(session, row)
        if doubts and not force:
            return [*doubts, f"judge quarantine retry {mail_id} --force applies it all the same"], 1
        row.status, row.processed_at = "new", None
    status = process_mail(db, settings, mail_id, now)
    sent = deliver_pending(db, settings, transport_for(settings), now)
    return [f"mail {mail_id} {status}; {sent} mail(s) sent"], 0 if status == "done" else 1


def quarantine_drop(db: Database, mail_id: int) -> list[str]:
    """``judge quarantine drop N``: never apply it; its stored copy loses its passwords."""
    with db.transaction() as session:
        row = _quarantined(session.get(InboundMail, mail_id), mail_id)
        mail = parse_mail(row.raw, envelope_from=row.envelope_from)
        row.raw = redact(row.raw, password_words(mail.lines))
        row.status = "dropped"
    return [f"mail {mail_id} dropped: it will not be applied; its passwords are masked"]


def _quarantined(row: InboundMail | None, mail_id: int) -> InboundMail:
    if row is None or row.status != "quarantined":
        raise OperatorError(f"mail {mail_id} is not quarantined" + (f" (it is {row.status})" if row else ""))
    return row


def _retry_doubts(session: Session, row: InboundMail) -> list[str]:
    """Why applying a quarantined mail now might not be what its sender meant: its passwords were
    masked (quarantined before 0.2.0), its sender has had mail applied since (which it may
    contradict), or the phase it was meant for has been processed."""
    doubts = []
    mail = parse_mail(row.raw, envelope_from=row.envelope_from)
    if any(MASK in line.split() for line in mail.lines):
        doubts.append("its passwords were masked when it was set aside, so its sign-ons will fail; "
                      "ask its sender to send it again instead")
    if row.envelope_from:
        later = session.scalar(select(func.count()).select_from(InboundMail).where(
            InboundMail.id > row.id, InboundMail.envelope_from == row.envelope_from, InboundMail.status == "done"))
        if later:
            doubts.append(f"{later} later mail(s) from {row.envelope_from} were applied since; this one would "
                          "come after them (its sheet, orders, list or vote would not replace theirs, but its "
                          "other commands, a TRANSFER say, would act now)")
    game = game_signed_on(session, mail)
    if game is not None and game.phase is not None:
        opened = session.scalar(select(PhaseRow.opened_at).where(PhaseRow.game_id == game.id,
                                                                 PhaseRow.name == game.phase))
        if opened is not None and opened > row.received_at:
            doubts.append(f"{game.name} is now in {game.phase}, which began after the mail came: it would count "
                          f"for {game.phase}")
    return doubts


# -- judge ratings ---------------------------------------------------------------------------------


def rating_lines(db: Database, kind: str, *, rebuild: bool) -> list[str]:
    """``judge ratings [--kind KIND] [--rebuild]``: every rated player's figure, games and
    mailbox, best first (the operator's view: the pages name players, never by address);
    ``--rebuild`` first forgets every rating and rates every finished game again
    (`judge.service.hosting.ratings.rebuild`)."""
    with db.transaction() as session:
        lines = [f"ratings rebuilt from {ratings.rebuild(session)} finished game(s)"] if rebuild else []
        table = ratings.table(session, kind)
        lines += [f"{rating.figure:>5}{'?' if rating.provisional else ' '} {rating.games:>4} game(s)  {person}"
                  for person, rating in table]
        if not table:
            lines.append(f"no player is rated{f' in {kind}' if kind else ''} yet")
        elif any(rating.provisional for _, rating in table):
            lines.append(f"?: provisional, fewer than {PROVISIONAL} rated games")
    return lines


# -- judge prune -----------------------------------------------------------------------------------


def prune(db: Database, now: datetime, older_than: float) -> list[str]:
    """``judge prune --older-than DAYS``: drop the bulk of the mail done with before then (see
    the header): the text and attachments of mail sent (or failed) then, the blobs no mail uses
    any more, and the raw copy of mail applied then; each in transactions of `PRUNE_RUN` mails.
    Says what it dropped, and how many bytes of it."""
    before = now - timedelta(days=older_than)
    sent = files = text = 0
    while found := _prune_sent(db, before):
        sent, files, text = sent + found[0], files + found[1], text + found[2]
    blobs = blob_bytes = 0
    while (dropped := drop_unused_blobs(db, PRUNE_RUN))[0]:
        blobs, blob_bytes = blobs + dropped[0], blob_bytes + dropped[1]
    received = raw = 0
    while taken := _prune_received(db, before):
        received, raw = received + taken[0], raw + taken[1]
    db.checkpoint(wait=True)
    return [f"mail sent before {before:%Y-%m-%d %H:%M} UTC: the text of {sent} mail(s) dropped ({text:,} bytes), "
            f"and {files} attachment(s) they still had",
            f"attachments no mail uses any more: {blobs} deleted ({blob_bytes:,} bytes)",
            f"mail received and applied before then: the raw copy of {received} mail(s) dropped ({raw:,} bytes)",
            "kept: mail not yet sent or applied, quarantined mail, and the games (phases, sheets, ledger)"]


def _prune_sent(db: Database, before: datetime) -> tuple[int, int, int] | None:
    """Drop the text (and any attachments left) of up to `PRUNE_RUN` mails sent, or failed,
    before ``before``; (mails, attachments, bytes of text), or None when none is left.
    The row stays: a bounce of it is still recognised, ``judge queue --state sent`` lists it."""
    done = (((Outbox.status == "sent") & (Outbox.sent_at < before))
            | ((Outbox.status == "failed") & (Outbox.created_at < before)))
    with db.transaction() as session:
        size = func.coalesce(_octets(session, Outbox.body), 0) + func.coalesce(func.length(Outbox.raw), 0)
        found = {row_id: length for row_id, length in session.execute(
            select(Outbox.id, size).where(done, _has_text).limit(PRUNE_RUN))}
        if not found:
            return None
        pruned = list(session.scalars(update(Outbox).where(Outbox.id.in_(found), done)  # not resent meanwhile
                                      .values(body=None, raw=None, refs=None).returning(Outbox.id)
                                      .execution_options(synchronize_session=False)))
        files = session.execute(delete(OutboxFile).where(OutboxFile.outbox_id.in_(pruned)))
        return len(pruned), int(files.rowcount), sum(found[row_id] for row_id in pruned)  # type: ignore[attr-defined]


def _octets(session: Session, text: Any) -> Any:
    """The length of a text column in bytes (UTF-8), not characters, on either database."""
    if session.get_bind().dialect.name == "postgresql":
        return func.octet_length(text)
    return func.length(cast(text, LargeBinary))  # SQLite: a text cast to a blob is its UTF-8 bytes


def _prune_received(db: Database, before: datetime) -> tuple[int, int] | None:
    """Empty the raw copy of up to `PRUNE_RUN` mails applied (or set aside for good) before
    ``before``; (mails, bytes), or None when none is left.  Its row stays, with its Message-ID
    and digest: a copy of it sent again is still a duplicate."""
    settled = InboundMail.status.in_(SETTLED) & (InboundMail.processed_at < before)
    with db.transaction() as session:
        found = {row_id: length for row_id, length in session.execute(
            select(InboundMail.id, func.length(InboundMail.raw)).where(settled, func.length(InboundMail.raw) > 0)
            .limit(PRUNE_RUN))}
        if not found:
            return None
        pruned = list(session.scalars(update(InboundMail).where(InboundMail.id.in_(found), settled)
                                      .values(raw=b"").returning(InboundMail.id)
                                      .execution_options(synchronize_session=False)))
        return len(pruned), sum(found[row_id] for row_id in pruned)


# -- judge status ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Limits:
    """How old things may get before ``judge status`` calls them a problem."""

    outbox: timedelta = timedelta(hours=1)  # a mail not yet handed over
    inbound: timedelta = timedelta(minutes=10)  # a mail stored but not applied
    tick: timedelta = timedelta(minutes=15)  # since the deadline clock last ran
    due: timedelta = timedelta(minutes=15)  # a game whose moment has come but no tick has seen to
    listener: timedelta = timedelta(minutes=5)  # since a judge serve was last seen listening for mail
    free_bytes: int = 200 * 2**20  # free on the data directory's file system
    backup: timedelta = timedelta(hours=26)  # since the last good backup, once there has been one (a day's timer)
    ahead: timedelta = timedelta(minutes=2)  # a moment stored this far past now: a clock jumped back


@dataclass(frozen=True)
class Seen:
    """What ``judge status`` read of the judge, in one transaction, and what it judges it by."""

    settings: Settings
    now: datetime
    limits: Limits
    free: int | None  # bytes free on the data directory's file system (None: no such folder)
    tick: Heartbeat | None
    heard: Listener | None
    last_in: datetime | None
    inbound: dict[str, int]  # mail received by status
    oldest_new: datetime | None
    outbox: dict[str, int]  # mail to send by status
    oldest_out: datetime | None
    last_out: datetime | None
    games: dict[str, int]  # games by state
    due: list[tuple[str, datetime]]  # the running games whose moment has come, and since when
    taken: list[tuple[bytes, str | None, datetime]]  # mail in the intake, not yet taken in: (raw, sender, stored)
    handed: list[int]
    unvouched: list[int]
    deferred: tuple[int, str | None]  # outgoing mail the relay deferred, and the last error
    backups: dict[str, Heartbeat | None]
    future: list[tuple[str, datetime]]


class Said(NamedTuple):
    """What one of ``judge status``'s rules says: its lines, and its problems."""

    lines: list[str]
    problems: list[str]


def status(db: Database, settings: Settings, now: datetime, limits: Limits,
           free: Callable[[Path], int] = lambda path: shutil.disk_usage(path).free) -> tuple[list[str], int]:
    """``judge status``: what a game master (or a monitoring check) wants to know; exit status 1
    when something is wrong (each such line starts with PROBLEM).  ``free`` measures the free
    space of the file system of a folder.  Each of `STATUS_RULES` says its lines and its problems,
    in order."""
    seen = _seen(db, settings, now, limits, free(settings.data_dir) if settings.data_dir.is_dir() else None)
    lines = [f"judge@{settings.domain}, database {shown_url(settings)}, schema {newest_version()}"]
    problems: list[str] = []
    for rule in STATUS_RULES:
        said = rule(seen)
        lines += said.lines
        problems += said.problems
    if not problems:
        return [*lines, "OK"], 0
    return lines + [f"PROBLEM: {problem}" for problem in problems], 1


def _seen(db: Database, settings: Settings, now: datetime, limits: Limits, free: int | None) -> Seen:
    """What ``judge status`` reads of the database, in one transaction."""
    with db.transaction() as session:
        handed, unvouched = _authenticated(session, settings)
        deferred = session.execute(select(func.count(), func.max(Outbox.id)).where(
            Outbox.status == "pending", Outbox.next_attempt_at > now, Outbox.last_error.is_not(None))).one()
        return Seen(
            settings=settings, now=now, limits=limits, free=free,
            tick=session.get(Heartbeat, "tick"),
            heard=listener(session),
            last_in=session.scalar(select(func.max(InboundMail.received_at))),
            inbound=dict(session.execute(select(InboundMail.status, func.count()).group_by(InboundMail.status)).all()),
            oldest_new=session.scalar(select(func.min(InboundMail.received_at)).where(InboundMail.status == "new")),
            outbox=dict(session.execute(select(Outbox.status, func.count()).group_by(Outbox.status)).all()),
            oldest_out=session.scalar(select(func.min(Outbox.created_at)).where(
                Outbox.status.in_(("pending", "sending")))),
            last_out=session.scalar(select(func.max(Outbox.sent_at))),
            games=dict(session.execute(select(Game.state, func.count()).group_by(Game.state)).all()),
            due=[(name, when) for name, when in session.execute(
                select(Game.name, Game.next_due).where(Game.state == GameState.ACTIVE, Game.next_due <= now)
                .order_by(Game.next_due)) if when is not None],
            taken=untaken(path, session.connection()) if (path := intake_path(db.url)) and path.exists() else [],
            handed=handed, unvouched=unvouched,
            deferred=(deferred[0], session.scalar(select(Outbox.last_error).where(Outbox.id == deferred[1]))
                      if deferred[0] else None),
            backups={name: session.get(Heartbeat, name) for name in (BACKUP, BACKUP_FAILED)},
            future=_future(session, now + limits.ahead))


def _clock(seen: Seen) -> Said:
    """The deadline clock has run, and lately."""
    if seen.tick is None:
        return Said(["deadline clock: has never run"],
                    ["the deadline clock has never run: is judge serve (or the judge-tick timer) running?"])
    late = seen.now - seen.tick.at > seen.limits.tick
    return Said([f"deadline clock: last ran {_ago(seen.now, seen.tick.at)} ({seen.tick.by})"],
                [f"the deadline clock has not run for {_ago(seen.now, seen.tick.at)}"] if late else [])


def _listening(seen: Seen) -> Said:
    """A judge serve listens for mail, or did lately."""
    heard, now = seen.heard, seen.now
    line = [_listener_line(heard, now)]
    if heard is None:
        return Said(line, ["no judge serve has ever listened for mail: is it running? (systemctl start judge)"])
    if not heard.listening(now) and now - heard.seen > seen.limits.listener:
        return Said(line, [f"no judge serve has listened for mail for {_ago(now, heard.seen, False)}: its MTA holds "
                           "the players' mail meanwhile (systemctl start judge)"])
    return Said(line, [])


def _disk(seen: Seen) -> Said:
    """The data directory's file system has room for the mail to come."""
    limit = seen.limits.free_bytes
    if seen.free is None or seen.free >= limit:
        return Said([], [])
    return Said([], [f"{seen.settings.data_dir} has {seen.free / 2**20:.0f} MB free (under {limit / 2**20:.0f}"
                     " MB): mail the judge cannot store is refused for now, and mail it cannot apply waits"])


def _mail_in(seen: Seen) -> Said:
    """Mail comes in and is applied without waiting long, the intake's counted with the stored."""
    now, taken = seen.now, seen.taken
    newest_in = max([received for _, _, received in taken] + ([seen.last_in] if seen.last_in else []), default=None)
    lines = [f"last mail in: {_ago(now, newest_in) if newest_in else 'none yet'}; last mail out: "
             f"{_ago(now, seen.last_out) if seen.last_out else 'none yet'}",
             "mail in: " + (", ".join(f"{count} {name}" for name, count in sorted(seen.inbound.items())) or "none")
             + (f"; {len(taken)} in the intake, not yet taken in" if taken else "")]
    since = min([received for _, _, received in taken] + ([seen.oldest_new] if seen.oldest_new else []),
                default=None)
    if since is None or now - since <= seen.limits.inbound:
        return Said(lines, [])
    return Said(lines, [f"mail has been waiting to be applied for {_ago(now, since, False)}: is judge serve running?"])


def _mail_out(seen: Seen) -> Said:
    """Mail goes out without waiting long."""
    oldest = seen.oldest_out
    lines = ["mail out: " + ", ".join(f"{seen.outbox.get(name, 0)} {name}" for name in OUTBOX_STATES)
             + (f"; oldest not yet sent queued {_ago(seen.now, oldest)}" if oldest else "")]
    if oldest is None or seen.now - oldest <= seen.limits.outbox:
        return Said(lines, [])
    return Said(lines, [f"mail has been waiting to go out for {_ago(seen.now, oldest, False)}: see judge queue"])


def _games(seen: Seen) -> Said:
    """The games, and those whose moment has come: none waits long for the clock."""
    lines = ["games: " + (", ".join(f"{count} {name}" for name, count in sorted(seen.games.items())) or "none")]
    if not seen.due:
        return Said(lines, [])
    lines.append("games due now: " + ", ".join(f"{name} (since {_ago(seen.now, when)})" for name, when in seen.due))
    late = [name for name, when in seen.due if seen.now - when > seen.limits.due]
    return Said(lines, [f"games due for over {seen.limits.due.total_seconds() / 60:g} minutes: {', '.join(late)}"]
                if late else [])


def _quarantine(seen: Seen) -> Said:
    """No mail waits in quarantine."""
    if not (count := seen.inbound.get("quarantined")):
        return Said([], [])
    return Said([f"{count} quarantined mail(s): see judge quarantine"],
                [f"{count} mail(s) could not be applied and wait in quarantine: judge quarantine shows each; retry it "
                 "once the cause is fixed, or drop it"])


def _deferred(seen: Seen) -> Said:
    """The relay takes the judge's mail: none of it is deferred."""
    count, last = seen.deferred
    if not count:
        return Said([], [])
    return Said([], [f"{count} outgoing mail(s) deferred: the relay refused them or could not be reached (last: "
                     f"{' '.join((last or '').split())[:200]}); they go out once it takes mail again (judge queue "
                     "--state deferred)"])


def _backups(seen: Seen) -> Said:
    """The last backup did not fail, and is not old."""
    good, failed = seen.backups[BACKUP], seen.backups[BACKUP_FAILED]
    lines = [_backup_line(good, failed, seen.now)]
    if failed is not None and (good is None or failed.at >= good.at):
        return Said(lines, [f"the last backup failed, at {failed.at:%Y-%m-%d %H:%M} UTC: {failed.by}"])
    if good is not None and seen.now - good.at > seen.limits.backup:
        return Said(lines, [f"the last good backup was {_ago(seen.now, good.at, False)} ago: is the backup timer "
                            "(or cron job) running?"])
    return Said(lines, [])


def _clock_jumped(seen: Seen) -> Said:
    """No moment the judge wrote is in the future: else a clock jumped back."""
    if not seen.future:
        return Said([], [])
    what, when = max(seen.future, key=lambda item: item[1])
    return Said([], [f"the database holds moments in the future ({what} at {when:%Y-%m-%d %H:%M} UTC, "
                     f"{(when - seen.now).total_seconds() / 60:.0f} min from now): a clock jumped back (this "
                     "machine's or the database's); deadlines, reminders, limits and the listener's heartbeat "
                     "compare with them, so put the clock right (NTP) rather than wait"])


def _vouched(seen: Seen) -> Said:
    """With ``mta-authenticates``: the MTA writes an Authentication-Results header on the mail it hands over."""
    if not seen.unvouched:
        return Said([], [])
    settings, unvouched = seen.settings, seen.unvouched
    return Said([], [f"mta-authenticates is set, but {len(unvouched)} of the last {len(seen.handed)} mail(s) your MTA "
                     f"({settings.mta_hostname}) handed over carry no Authentication-Results header by "
                     f"{settings.mta_hostname} (mail {', '.join(map(str, unvouched[:5]))}): it writes none (is its "
                     "milter running, with that authserv-id?), and unless it also removes those a mail comes with, "
                     "the judge believes a forged one (docs/operators/authentication.md)"])


STATUS_RULES: tuple[Callable[[Seen], Said], ...] = (
    _clock, _listening, _disk, _mail_in, _mail_out, _games, _quarantine, _deferred, _backups, _clock_jumped, _vouched)
"""``judge status``'s rules, in the order their lines and problems are written."""


AUTHENTICATED_SAMPLE = 20  # the newest mails whose Authentication-Results ``judge status`` reads


def _future(session: Session, after: datetime) -> list[tuple[str, datetime]]:
    """The newest moment of each kind the judge writes as things happen, where it is after ``after``."""
    newest = {"a heartbeat": select(func.max(Heartbeat.at)),
              "a mail received": select(func.max(InboundMail.received_at)),
              "a mail queued": select(func.max(Outbox.created_at)),
              "a mail sent": select(func.max(Outbox.sent_at)),
              "a phase opened": select(func.max(PhaseRow.opened_at))}
    found = [(what, session.scalar(query)) for what, query in newest.items()]
    return [(what, when) for what, when in found if when is not None and when > after]


def _backup_line(good: Heartbeat | None, failed: Heartbeat | None, now: datetime) -> str:
    """The line of ``judge status`` about the backups ``judge backup`` made."""
    if good is None and failed is None:
        return "backups: none made by judge backup yet"
    line = f"backups: the last good one {_ago(now, good.at)}" if good is not None else "backups: none good yet"
    return line + (f"; one failed {_ago(now, failed.at)}" if failed is not None else "")


def _authenticated(session: Session, settings: Settings) -> tuple[list[int], list[int]]:
    """With ``mta_authenticates``: of the newest mails the judge's MTA handed over (its
    ``Received:`` line by ``mta_hostname``), which they are, and which of them carry no
    ``Authentication-Results`` header of that MTA's (`authserv_ids`)."""
    if not (settings.mta_authenticates and settings.mta_hostname):
        return [], []
    ours = settings.mta_hostname.rstrip(".").lower()
    recent = session.execute(select(InboundMail.id, InboundMail.raw).where(func.length(InboundMail.raw) > 0)
                             .order_by(InboundMail.id.desc()).limit(AUTHENTICATED_SAMPLE))
    handed = [(mail_id, raw) for mail_id, raw in recent if mta_accepted_at(raw, settings.mta_hostname) is not None]
    return [mail_id for mail_id, _ in handed], [mail_id for mail_id, raw in handed if ours not in authserv_ids(raw)]


def _listener_line(heard: Listener | None, now: datetime) -> str:
    """The line of ``judge status`` about the judges listening for mail (`judge.service.running.listening`)."""
    if heard is None:
        return "listener: no judge serve has listened yet"
    if heard.stopped:
        return f"listener: stopped {_ago(now, heard.seen)} ({heard.by})"
    if not heard.listening(now):
        return f"listener: last seen {_ago(now, heard.seen)} ({heard.by}); not since"
    return f"listener: listening ({heard.by}), without a break since {heard.since:%Y-%m-%d %H:%M} UTC"


def _ago(now: datetime, then: datetime, suffix: bool = True) -> str:
    """``then`` as a UTC time and how long ago: ``2026-01-05 12:00 UTC (3 min ago)``."""
    minutes = max(0, int((now - then).total_seconds() // 60))
    span = f"{minutes} min" if minutes < 120 else f"{minutes // 60} h" if minutes < 2880 else f"{minutes // 1440} days"
    return f"{then:%Y-%m-%d %H:%M} UTC ({span} ago)" if suffix else span


# -- the command line ------------------------------------------------------------------------------


def main(args: argparse.Namespace, settings: Settings, kinds: Callable[[], Kinds]) -> int:
    """Run an operator command parsed by `judge.service.operators.cli`; prints its lines, returns its status
    (``kinds``: the kinds of game the judge hosts, for the commands that apply mail)."""
    from judge.service.operators import backup

    command = args.command
    try:
        if command == "db":
            if args.action == "version":
                lines, code = db_version(settings)
            elif args.action == "upgrade":
                lines, code = db_upgrade(settings), 0
            else:
                lines, code = db_downgrade(settings, args.yes, args.to)
        elif command in ("backup", "restore", "copy-db"):
            lines, code = backup.main(args, settings, kinds())
        else:
            refuse_root(settings)
            db = open_current(settings, kinds() if command in ("quarantine", "ratings") else None)
            try:
                lines, code = _on_database(args, db, settings)
            finally:
                db.engine.dispose()
    except RootRefused as exc:
        print(f"judge {command}: {exc}", flush=True)
        return REFUSED
    except (OperatorError, ConfigError, OSError) as exc:
        print(f"judge {command}: {exc}", flush=True)
        return 1
    except SQLAlchemyError as exc:  # the database cannot be reached or read: for a monitoring check, worse than 1
        print(f"judge {command}: the database cannot be used: {' '.join(str(exc).split())[:500]}", flush=True)
        return 2
    except ImportError as exc:  # the database's driver: PostgreSQL's comes with the postgres extra
        print(f"judge {command}: the database cannot be used: its driver {exc.name} is not installed "
              "(pip install '.[postgres]' for PostgreSQL)", flush=True)
        return 2
    for line in lines:
        print(line)
    return code


def _on_database(args: argparse.Namespace, db: Database, settings: Settings) -> tuple[list[str], int]:
    now = now_on(db)
    if args.command == "status":
        limits = Limits(outbox=timedelta(minutes=args.max_age), free_bytes=int(args.min_free * 2**20))
        return status(db, settings, now, limits)
    if args.command == "queue":
        return queue_lines(db, now, args.state, args.limit), 0
    if args.command == "prune":
        return prune(db, now, args.older_than), 0
    if args.command == "ratings":
        return rating_lines(db, args.kind, rebuild=args.rebuild), 0
    if args.command == "resend":
        if bool(args.ids) == args.all:
            raise OperatorError("give the numbers of the mails to send again (judge queue lists them), or --all")
        return resend(db, settings, args.ids, args.all, args.again, now)
    action = args.action or "list"
    if action == "list":
        return quarantine_lines(db), 0
    if args.number is None:
        raise OperatorError(f"judge quarantine {action} needs the mail's number (judge quarantine lists them)")
    if action == "show":
        return quarantine_show(db, args.number), 0
    if action == "retry":
        return quarantine_retry(db, settings, args.number, args.force, now)
    return quarantine_drop(db, args.number), 0
