"""Outgoing mail is queued in the current transaction and delivered later (``sender``).

``queue`` writes an outbox row inside the caller's transaction, so a mail exists exactly
when the change that caused it was committed (a Core statement, at once: nearly every applied
mail queues an answer, and the ORM's flush would cost several times more; the row's id is
returned).  A game's mail is written for its reader as it is queued: its moments in the
reader's time zone (`judge.service.zones`).  Press gets a random Message-ID, where the usual
one tells when it was made: grey press must not be tied by it to the other mail its sender's
mail caused.  The row keeps what the message is made of
(recipient, subject, body, the mail it answers, attachments; its Message-ID and date are
fixed then), not the message: building MIME is the sender's work (`message_of`), done outside
any transaction, and it gives the same bytes each time it is built.

A phase's maps are drawn after the change that mails them is committed (`Drawn` attachments,
`draw`): drawing them took most of a results round's transaction, which on SQLite held the one
writer's lock the whole time, so that a deadline's other games, the mail being applied and the
sender waited on it.  Such a mail is queued ``drawing``; once its transaction has committed
(`judge.store.database.after_commit`) each drawing is drawn once, and the mails get their files
and become ``pending`` in one short transaction.  A mail whose drawings were never stored (the
process died between the two) goes without them once a sender has seen it wait `DRAWING_TIME`
(`Drawings`, at each pass of the sender).  Drawings the database would not store (a full disk) are
kept in memory, in the daemon's process, and given to their mails once it takes them, if the mails
have not left by then: at each pass of the sender, before it claims the mail due (`Kept`).

Of a game's pictures (attachments with a role: `judge.mail.outbound.Role`), a mail keeps those its
reader's mailbox chose with SET MAPS (`preferences`), as it is queued: a picture no reader kept is never
drawn.

An attachment's bytes are stored once, as a ``Blob`` keyed by their SHA-256, and every mail
that carries them refers to it: the maps of a phase, sent to every player, observer and the
game master, are stored once per phase, not once per recipient.  The blobs a transaction
wrote or found are remembered in its session (``session.info``), so a phase's second mail
costs no query for them; a blob that a rolled-back savepoint took out of the session is looked
up (or written) again.

A game's mail to an address that has not said it wants it (a player, master or observer of a game
imported from another judge that this judge has never heard from) is queued `HELD`, maps and all:
it goes out once the address confirms (`release`), in the order it was written, never if it does
not (`judge.service.operators.importing`).

Once a mail is sent, its attachments are kept ``attachment_days`` (7), for ``judge resend
--again``, and then the deadline clock drops them (`drop_sent_attachments`), and the blobs no
mail uses any more with them: a blob is dropped only when no mail not yet sent, or sent too
recently, carries it.  The mail's row stays (its recipient, subject and Message-ID: a bounce
that comes back later is still recognised), and so does its text until ``judge prune``.  A
blob is deleted only while no file refers to it, in the statement that deletes it; a mail
being queued at that moment with the same bytes finds the blob gone (its transaction fails on
the foreign key and is tried again, writing the blob anew) or keeps it.  The public pages and
HISTORY draw their maps from the phases, never from here.
"""

from __future__ import annotations

import hashlib
import logging
import re
import secrets
import threading
import time
import zlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.utils import make_msgid, parseaddr
from typing import cast
from urllib.parse import quote

from sqlalchemy import Table, bindparam, case, delete, exists, func, insert, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from judge.language import current, reading
from judge.mail.outbound import (
    PNG_SIGNATURE,
    Attachment,
    Drawn,
    angled,
    build_message,
    check_recipient,
    thread,
    usable_message_id,
    well_formed,
)
from judge.service import zones
from judge.service.config import Settings
from judge.service.outgoing import forms, one_click, preferences
from judge.store.database import Database, after_commit
from judge.store.models import Blob, Confirmation, Game, Observer, Outbox, OutboxFile, Player

log = logging.getLogger("judge")
DRAWING_TIME = 120.0  # seconds a sender sees a mail wait for its maps before it goes without (`Drawings`)
_DRAWINGS = "judge_drawings"  # a session's info key: its mails waiting for drawings (`queue`)
QUIET = "replayed"
"""The status of the mail a replay queues (`quiet`): kept without its attachments, never sent."""
_quiet: ContextVar[bool] = ContextVar("quiet", default=False)
HELD = "held"
"""The status of a game's mail to an address that has not yet said it wants it: a player, master or
observer of a game imported from another judge whom this judge had never heard from
(`judge.service.operators.importing`).  It is kept, maps and all, and goes out once the address confirms
(`release`), never if it does not."""
MOVED = "moved"
"""The kind of the mail a game's import sends (a new password, the news of the move, the request to
confirm): the move's, never held."""
_HOLDING = "judge_holding"  # a session's info key: the (address, game) pairs whose mail it holds (`holding`)
DROP_MAILS = 200  # sent mails whose attachments one call drops at most: a tick stays short
DROP_BLOBS = 20  # blobs one call deletes at most (a map is a few hundred KB, each zeroed on SQLite)


def queue(
    session: Session,
    settings: Settings,
    *,
    to: str,
    subject: str,
    body: str,
    kind: str,
    now: datetime,
    game_id: int | None = None,
    in_reply_to: str | None = None,
    references: Sequence[str] = (),
    attachments: Sequence[Attachment | Drawn] = (),
    opens: str | None = None,
) -> int:
    """Add an outbox row for a mail to ``to`` and return its id; ValueError for an address that no
    header can carry (`check_recipient`), now rather than when the sender builds the message.  The
    body is kept as any database can store it: lone surrogates and NUL (which an echoed line may
    carry) become U+FFFD.  Of a game's pictures (attachments with a role) it keeps those the reader's
    mailbox chose (SET MAPS, `preferences`), before any is drawn.  A game's mail writes its moments,
    in its subject as in its body, in its reader's time zone (`zones`).  A mail to nobody (``to``
    empty) is a ValueError too.  A mail that ``opens`` the game's phase for that seat (its start, the
    results that name it, a takeover's briefing, a reminder) ends with the seat's form to fill, as its
    kind gives it and the host lays it out (`forms`), unless its reader chose SET FORM OFF."""
    if not to:
        raise ValueError("a mail must have a recipient")
    check_recipient(to)
    _check_language(session, settings, to, game_id, subject)
    if any(attachment.role for attachment in attachments):  # a game's pictures: those its reader chose
        attachments = preferences.kept(attachments, preferences.maps_of(session, settings, to))
    zone = None if kind in zones.UNZONED else zones.reader_zone(session, game_id, to)
    if zone is not None:
        subject, body = zones.localize(subject, zone), zones.localize(body, zone)
    if opens is not None and game_id is not None and preferences.form_wanted(session, to):
        body = _with_form(session, game_id, opens, body)
    replied = usable_message_id(in_reply_to)  # what the message will carry: see build_message
    replied = angled(replied) if replied else None
    # press: a random Message-ID, as make_msgid's tells the moment to a hundredth of a second
    domain = settings.domain
    message_id = f"<{secrets.token_hex(16)}@{domain}>" if kind == "press" else make_msgid(domain=domain)
    quiet = _quiet.get()
    drawing = not quiet and any(isinstance(attachment, Drawn) for attachment in attachments)
    held = not quiet and game_id is not None and kind != MOVED and (to, game_id) in holding(session)
    row_id: int = session.execute(_QUEUE, {
        "game_id": game_id, "recipient": to, "subject": subject, "kind": kind, "sender": settings.judge_from,
        "message_id": message_id, "in_reply_to": replied, "refs": thread(references, replied) if replied else None,
        "body": well_formed(body).replace("\x00", "\ufffd"), "created_at": now,
        "status": QUIET if quiet else HELD if held else "drawing" if drawing else "pending", "attempts": 0,
    }).inserted_primary_key[0]  # type: ignore[attr-defined]
    if quiet:
        return row_id
    if drawing:
        pages = preferences.language_of(session, settings, "", session.get(Game, game_id)) if game_id else None
        _drawings(session).append((row_id, message_id, tuple(attachments), current(), pages))
        return row_id
    for attachment in attachments:  # the ORM writes a file after its blob, if that is new
        assert isinstance(attachment, Attachment)
        session.add(OutboxFile(outbox_id=row_id, filename=attachment.filename, content_type=attachment.content_type,
                               blob=blob(session, attachment.data)))
    return row_id


def _check_language(session: Session, settings: Settings, to: str, game_id: int | None, subject: str) -> None:
    """Log a mail composed outside its reader's language (`preferences.writing_to`): its text cannot be
    translated once written, so the code that composed it must compose it in its reader's language.  The
    answer to a SET LANGUAGE is in the language its mail was read in, as meant (`preferences.answered_in`)."""
    if _quiet.get():
        return
    game = session.get(Game, game_id) if game_id is not None else None
    wanted = preferences.language_of(session, settings, to, game)
    if wanted != current() and preferences.answered_in(session, to) != current():
        log.warning("a mail to %s (%s) was written in %s for a reader of %s", to, subject, current(), wanted)


def _with_form(session: Session, game_id: int, seat: str, body: str) -> str:
    """``body`` and, after a blank line, ``seat``'s form for the phase its game is in (`forms.lay_out`),
    if its kind gives one."""
    game = session.get(Game, game_id)
    form = forms.form_of(session, game, seat) if game is not None else None
    if game is None or form is None:
        return body
    return body.rstrip("\n") + "\n\n" + "\n".join(forms.lay_out(form, game.name, seat)) + "\n"


def holding(session: Session) -> set[tuple[str, int]]:
    """The (address, game) pairs whose mail is `HELD`: each address asked to confirm by a game's
    import (`hold`), read once a transaction."""
    held: set[tuple[str, int]] | None = session.info.get(_HOLDING)
    if held is None:
        held = session.info[_HOLDING] = {(str(address), int(game or 0))
                                         for address, game in session.execute(_HELD_ADDRESSES)}
    return held


_HELD_ADDRESSES = select(Confirmation.address, Confirmation.game_id).where(Confirmation.kind.startswith(MOVED),
                                                                          Confirmation.game_id.is_not(None))


def hold(session: Session, address: str, game_id: int) -> None:
    """From now on hold the game's mail to ``address`` (its request to confirm is written)."""
    holding(session).add((address, game_id))


def release(session: Session, address: str, game_id: int) -> int:
    """Send the game's mail held for ``address``, which has confirmed; how many mails."""
    holding(session).discard((address, game_id))
    released = list(session.scalars(update(Outbox).where(Outbox.recipient == address, Outbox.game_id == game_id,
                                                         Outbox.status == HELD)
                                    .values(status="pending").returning(Outbox.id)))
    return len(released)


# Mails waiting for drawings (id and Message-ID: a row a rolled-back savepoint queued may leave its id to
# another, on SQLite), their files, the language they are written in (their reader's: their pictures' too), and
# that of their game's pages (None for no game's mail: `judge.language.pages_language`).
_Waiting = list[tuple[int, str, tuple[Attachment | Drawn, ...], str, str | None]]


def _drawings(session: Session) -> _Waiting:
    """The mails of ``session``'s transaction waiting for their drawings; drawn once it commits."""
    waiting: _Waiting | None = session.info.get(_DRAWINGS)
    if waiting is None:
        waiting = session.info[_DRAWINGS] = []
        after_commit(session, lambda db: draw(db, waiting))
    return waiting


_NOT_LEFT = ("drawing", "pending", HELD)  # a mail that has not left: waiting for its drawings, due, or held
REFUSED = (OperationalError, IntegrityError, OSError)
"""What a database raises that will not store a mail's files for a while: a full disk (SQLite's
"database or disk is full", PostgreSQL's "No space left on device"), a lock or connection that
went, a blob dropped by another process meanwhile (`drop_unused_blobs`)."""

_Files = list[tuple[int, str, tuple[Attachment, ...]]]
"""Mails (id and Message-ID) and the files they are to carry, a phase's maps among them (`_attach`)."""


def draw(db: Database, waiting: _Waiting) -> None:
    """Draw the files of the mails ``waiting`` (`_draw`).  Never raises: the change that queued
    them is committed, and whatever fails here (logged) leaves the mails to go without their
    drawings (`Drawings`)."""
    try:
        _draw(db, waiting)
    except Exception:
        log.exception("the drawings of %d mail(s) could not be made; they go without them", len(waiting))


def _draw(db: Database, waiting: _Waiting) -> None:
    """Draw the files of the mails ``waiting`` (each `Drawn` once per language of the mails that carry
    it, however many they are: a picture's words are its reader's, `judge.language.reading`), then give
    them their files and make them due, in one transaction (`_attach`).  A mail gone (a
    savepoint that queued it was rolled back) or left (it waited so long it went without:
    `DRAWING_TIME`) is left alone; a drawing that fails is logged and its mail goes without it.  A
    database that will not store the files (a full disk) leaves the mails waiting and the files
    kept (`Kept`)."""
    with db.transaction() as session:
        alive = {(row_id, message_id): game for row_id, message_id, game in session.execute(
            select(Outbox.id, Outbox.message_id, Game.name).outerjoin(Game, Game.id == Outbox.game_id)
            .where(Outbox.id.in_([row_id for row_id, *_ in waiting]), Outbox.status.in_(_NOT_LEFT)))}
    waiting = [mail for mail in waiting if (mail[0], mail[1]) in alive]
    if not waiting:
        return
    wanted: dict[int, tuple[Drawn, dict[str, None], str | None]] = {}  # each file, the languages it is wanted
    for _, _, files, language, pages in waiting:  # in, and its game's pages'
        for file in files:
            if isinstance(file, Drawn):
                wanted.setdefault(id(file), (file, {}, pages))[1][language] = None
    made: dict[tuple[int, str], bytes | None] = {}
    for key, (file, languages, pages) in wanted.items():  # a picture in each of its languages in turn: its body
        for language in languages:  # is composed once for them all (`judge.render.png.BODIES`)
            made[(key, language)] = _drawn(file, language, pages)
    mails: _Files = []
    for row_id, message_id, files, language, _ in waiting:
        drawn = [(file, file.data if isinstance(file, Attachment) else made[(id(file), language)]) for file in files]
        mails.append((row_id, message_id, tuple(file if isinstance(file, Attachment) else
                                                Attachment(file.filename, file.content_type, data)
                                                for file, data in drawn if data is not None)))
    try:
        _attach(db, mails)
    except REFUSED as exc:
        KEPT.keep(mails, exc, sorted({game for game in alive.values() if game}))


def _drawn(file: Drawn, language: str, pages: str | None) -> bytes | None:
    """The bytes of ``file`` drawn in ``language`` for a game whose pages are in ``pages``, or None (logged) if the
    drawing fails."""
    try:
        with reading(language, pages=pages):
            return file.draw()
    except Exception:
        log.exception("%s could not be drawn; its mails go without it", file.filename)
        return None


def _attach(db: Database, mails: _Files) -> tuple[int, int]:
    """Give each of ``mails`` that has not left (`_NOT_LEFT`: waiting for its drawings, due, or
    held) and carries no file yet its files, and make those waiting due, in one transaction; how
    many got them, and how many had left (or are being handed over: the sender's claim is a write,
    so a mail is either claimed before this or given its files before its claim).  Each file's
    blob is found once, not once a mail: hashing a map costs."""
    with db.transaction() as session:
        given = set(session.scalars(
            update(Outbox).where(Outbox.id.in_([row_id for row_id, _, _ in mails]),
                                 Outbox.message_id.in_([message_id for _, message_id, _ in mails]),
                                 Outbox.status.in_(_NOT_LEFT), ~exists().where(OutboxFile.outbox_id == Outbox.id))
            .values(status=case((Outbox.status == "drawing", "pending"), else_=Outbox.status))
            .returning(Outbox.id)))
        look_up(session, [file.data for row_id, _, files in mails if row_id in given for file in files])
        stored: dict[int, Blob] = {}  # by the bytes' id: the mails of a phase share its maps' bytes
        for row_id, _, files in mails:
            for file in files if row_id in given else ():
                if id(file.data) not in stored:
                    stored[id(file.data)] = blob(session, file.data)
                session.add(OutboxFile(outbox_id=row_id, filename=file.filename, content_type=file.content_type,
                                       blob=stored[id(file.data)]))
    return len(given), len(mails) - len(given)


KEEP_BYTES = 200 * 2**20  # the files a judge keeps at most while its database refuses them (`Kept`): 500 games' maps


def _size(mails: _Files) -> int:
    """The bytes of the files of ``mails``, each counted once however many mails carry it."""
    return sum(len(data) for data in {id(file.data): file.data for _, _, files in mails for file in files}.values())


class Kept:
    """The files (a phase's maps) of mails that the database would not store when they were drawn
    (`_draw`): a full disk.  The change that queued the mails is committed; without this, the mails
    would go without their maps once a sender had seen them wait `DRAWING_TIME`, and the maps were
    lost.  Instead the judge keeps them in memory, and gives them to their mails once the database
    takes them again, if the mails have not left by then (`store`); a mail that left without them
    stays sent, never sent again.  The mails do not wait longer for them than `DRAWING_TIME`: where
    the mail can still go (a relay on another machine), the players' results go as text rather
    than wait for the operator to make room.

    Where: the daemon's process keeps them, and its sender tries to store them at each pass, before
    it claims the mail due (`judge.service.outgoing.sender.send_due`).  The daemon lives as long as the judge
    and its sender passes every few seconds, where a deadline worker works only while games are due
    (after an evening, not for days); and trying just before the claim, a mail that has not left
    when there is room again (a Maildir on the same full disk refused it meanwhile) goes with its
    maps.  So a deadline worker or the applier, which draw most maps, hand what they keep to the
    daemon with each game run or run of mail (`hand_over`, `take`).  A process of its own (``judge
    tick`` from cron) keeps them until it ends, its sender trying them once.  At most ``most``
    bytes are kept (`KEEP_BYTES`): a judge whose disk filled at the start of an evening of a
    thousand games would otherwise hold 400 MB of maps; the mails of the maps not kept go without
    them."""

    def __init__(self, most: int = KEEP_BYTES) -> None:
        self.most = most
        self.mails: list[_Files] = []  # each phase's mails and their files, oldest first
        self.lock = threading.Lock()  # the daemon's threads: the tick's, the applier's, the sender's

    def keep(self, mails: _Files, why: BaseException, games: Sequence[str]) -> None:
        """Keep the files of ``mails``, which the database refused (``why``), of ``games``; the line that
        says so."""
        reason = (str(getattr(why, "orig", None) or why).splitlines() or [type(why).__name__])[0]
        if len(games) == 1:
            log.warning("the maps of %d mail(s) of %s could not be stored (%s); the judge keeps them and attaches "
                        "them to those mails once the database takes them, if the mails have not left by then",
                        len(mails), games[0], reason)
        else:
            log.warning("the maps of %d mail(s) could not be stored (%s); the judge keeps them and attaches them to "
                        "those mails once the database takes them, if the mails have not left by then",
                        len(mails), reason)
        self.take([mails])

    def take(self, kept: Sequence[_Files]) -> None:
        """Keep what another process kept (`hand_over`), or this one, within ``most`` bytes."""
        with self.lock:
            for mails in kept:
                if sum(_size(each) for each in self.mails) + _size(mails) > self.most:
                    log.warning("the maps of %d mail(s) are not kept: the judge keeps %g MB of maps at most; those "
                                "mails go without them", len(mails), self.most / 2**20)
                else:
                    self.mails.append(mails)

    def hand_over(self) -> list[_Files]:
        """What this process keeps, no longer kept here: for the daemon (`take`), or to store (`store`)."""
        with self.lock:
            kept, self.mails = self.mails, []
        return kept

    def waiting(self) -> set[int]:
        """The mails whose files are kept."""
        with self.lock:
            return {row_id for mails in self.mails for row_id, _, _ in mails}

    def store(self, db: Database) -> None:
        """Give the mails that have not left the files kept for them, each phase's in a transaction of
        its own, until the database refuses one (still full: the rest wait for the next try)."""
        kept = self.hand_over()
        given = gone = 0
        for index, mails in enumerate(kept):
            try:
                got, left = _attach(db, mails)
            except REFUSED:
                with self.lock:
                    self.mails[:0] = kept[index:]
                break
            except Exception:  # a bug: the sender goes on, these mails without their maps
                log.exception("the maps kept for %d mail(s) could not be attached; those mails go without them",
                              len(mails))
                continue
            given, gone = given + got, gone + left
        if given:
            log.info("the maps of %d mail(s), which the database had refused, are stored and attached: those mails "
                     "go with their maps", given)
        if gone:
            log.warning("%d mail(s) left without their maps before the database took them; the maps kept for them "
                        "are dropped", gone)


KEPT = Kept()  # this process's (`Kept`)


_DRAWING = select(Outbox.id, Outbox.message_id).where(Outbox.status == "drawing")
"""Each row waiting for its drawings (`Drawings.settle`)."""


class Drawings:
    """What a sender has seen of the mails waiting for their drawings: each since when, by its
    own monotonic clock (``clock``), not a database's or another machine's.

    A mail waits for its drawings from its commit until the drawings are stored, a second or
    two; one that a sender has seen waiting for `DRAWING_TIME` lost them (the process drawing
    them died) and goes without them (`settle`).  The time is the sender's own: the time the mail
    was queued at is the moment of the deadline's tick, minutes before the commit in a large
    evening, and judges' clocks differ."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.since: dict[str, float] = {}  # a waiting mail's Message-ID -> when it was first seen waiting

    def settle(self, session: Session) -> int:
        """Make due, without their drawings, the mails seen waiting for them `DRAWING_TIME` or longer;
        how many."""
        now = self.clock()
        waiting = session.execute(_DRAWING).all()
        self.since = {str(message_id): self.since.get(str(message_id), now) for _, message_id in waiting}
        lost = [row_id for row_id, message_id in waiting if now - self.since[str(message_id)] >= DRAWING_TIME]
        if not lost:
            return 0
        settled = list(session.scalars(update(Outbox).where(Outbox.id.in_(lost), Outbox.status == "drawing")
                                       .values(status="pending").returning(Outbox.id)))
        refused = len(KEPT.waiting().intersection(settled))
        if len(settled) > refused:
            log.warning("%d mail(s) waited %g s for their maps (the process drawing them ended); they go without",
                        len(settled) - refused, DRAWING_TIME)
        if refused:
            log.warning("%d mail(s) waited %g s for their maps, which the database refused; they go without them, "
                        "unless the maps are stored before they leave", refused, DRAWING_TIME)
        return len(settled)


_QUEUE = insert(cast(Table, Outbox.__table__))


@contextmanager
def quiet() -> Iterator[None]:
    """Meanwhile, the mail queued is kept with the status `QUIET` and never sent: a game's record
    played again (`judge.service.operators.replay`) writes its mail as the game did, and its players had it
    long ago."""
    token = _quiet.set(True)
    try:
        yield
    finally:
        _quiet.reset(token)


_BLOBS = "judge_blobs"  # a session's info key: the blobs it found or added, by their digest (`blob`)
_ABSENT = "judge_blobs_absent"  # a session's info key: the digests `look_up` found no blob of
_DIGESTS = "judge_blob_digests"  # a session's info key: the bytes it hashed, by their id, and their digest


def _sha256(session: Session, data: bytes) -> str:
    """The SHA-256 of ``data`` in hex, computed once a session for the same bytes (`look_up`, then `blob`):
    counted in instructions (Valgrind), hashing was the largest single cost a language after the first added
    to a deadline, this hashing each map twice among it."""
    seen: dict[int, tuple[bytes, str]] = session.info.setdefault(_DIGESTS, {})
    kept = seen.get(id(data))
    if kept is None or kept[0] is not data:  # kept holds the bytes: their id stays theirs while the session lasts
        kept = seen[id(data)] = data, hashlib.sha256(data).hexdigest()
    return kept[1]


def look_up(session: Session, contents: Sequence[bytes]) -> None:
    """Find which of ``contents`` are stored already with one query, so that `blob` asks the database
    nothing more of them.  Looked up one by one, each lookup first wrote the blob the one before had
    added (the session flushes before it reads): a phase's maps, a picture for each language of its
    readers, cost twice the time."""
    known: dict[str, Blob] = session.info.setdefault(_BLOBS, {})
    digests = {_sha256(session, data) for data in contents}
    wanted = [digest for digest in digests if (found := known.get(digest)) is None or found not in session]
    if not wanted:
        return
    for found in session.scalars(select(Blob).where(Blob.sha256.in_(wanted))):
        known[found.sha256] = found
    session.info.setdefault(_ABSENT, set()).update(digest for digest in wanted if digest not in known)


def blob(session: Session, data: bytes) -> Blob:
    """The blob holding ``data``: the one stored already, or a new one added to the session, compressed
    where that saves a tenth at least.  A PNG is compressed already and stored as it is, without
    trying: zlib spent a tenth of an evening's deadline work finding so, map after map.  The rest
    (an SVG map) is compressed at zlib's fastest level: a fifth of the time of level 6 for a
    fifth more bytes (a standard board's SVG: 143 KB to 42 KB in 0.9 ms, against 36 KB in 4.7).
    Bytes `look_up` found no blob of are not looked for again."""
    digest = _sha256(session, data)
    known: dict[str, Blob] = session.info.setdefault(_BLOBS, {})
    found = known.get(digest)
    if found is None or found not in session:  # unknown, or taken out by a rolled-back savepoint
        found = None if digest in session.info.get(_ABSENT, ()) else session.get(Blob, digest)
        if found is None:
            packed = data if data.startswith(PNG_SIGNATURE) else zlib.compress(data, 1)
            smaller = len(packed) < len(data) * 0.9  # text (an SVG map: a third or less), never a PNG
            found = Blob(sha256=digest, data=packed if smaller else data, encoding="zlib" if smaller else None)
            session.add(found)
        known[digest] = found
    return found


def message_of(row: Outbox, attachments: Sequence[Attachment] | None = None, listing: Listing | None = None) -> bytes:
    """The message of an outbox row, as the sender hands it over, with its files (or
    ``attachments``, for a migration reading them its own way) and, for a game's mail, the list
    headers of its ``listing`` (`list_headers`, `listings`).  The loop header and the list's id
    name the domain its Message-ID was made in (the judge's, when it was queued); the list's
    commands go to the address of its From.  A row queued before migration 0006 kept its message
    whole."""
    if row.raw is not None:
        return row.raw
    assert row.message_id is not None and row.sender is not None and row.body is not None
    domain = row.message_id.rpartition("@")[2].rstrip(">")
    return build_message(
        sender=row.sender, to=row.recipient, subject=row.subject, body=row.body,
        domain=domain, message_id=row.message_id,
        in_reply_to=row.in_reply_to, references=row.refs or (), date=row.created_at.replace(tzinfo=UTC),
        reply=row.kind == "reply",
        attachments=([Attachment(f.filename, f.content_type, f.blob.content, digest=f.sha256) for f in row.files]
                     if attachments is None else attachments),
        list_headers=list_headers(listing, parseaddr(row.sender)[1], domain) if listing is not None else (),
    )


@dataclass(frozen=True)
class Listing:
    """What a game's mail says of it as a mailing list's (`list_headers`): the game's name,
    whether the mail goes to one of its observers, who may stop it (``UNOBSERVE``), and then
    where the pages are served over HTTPS, the link that stops it in one click (``one_click``:
    `judge.service.outgoing.one_click`)."""

    game: str
    observer: bool
    one_click: str | None = None


_GAMES = select(Game.id, Game.name, Game.gm_address).where(Game.id.in_(bindparam("games", expanding=True)))
_WATCHING = select(Observer.game_id, Observer.address).where(
    Observer.game_id.in_(bindparam("games", expanding=True)),
    Observer.address.in_(bindparam("recipients", expanding=True)))
_SEATED = select(Player.game_id, Player.address).where(
    Player.game_id.in_(bindparam("games", expanding=True)), Player.address.in_(bindparam("recipients", expanding=True)))
"""Of the ``games`` and ``recipients`` of the mail leaving: each game's name and master, who observes one, and
who plays a seat of one (asked only when someone observes: `listings`)."""


def listings(session: Session, rows: Sequence[Outbox], links: str | None = None) -> dict[int, Listing]:
    """The `Listing` of each of ``rows`` that is about a game (a game id), by the row's id: what the
    sender builds their messages with (`message_of`).  A mail goes to an observer when its
    recipient observes the game (OBSERVE) and neither plays, nor played, a seat of it nor is its
    master: a player who also observes the game gets the player's mail alone, which stopping
    the observing would not stop (`judge.service.incoming.handlers.telling`).  Read when the
    mail leaves, not when it was queued: an observer who stopped meanwhile is offered nothing.
    An observer's mail has a one-click link under ``links``, where the operator offers them
    (`judge.service.outgoing.one_click.base`)."""
    games = {row.game_id for row in rows if row.game_id is not None}
    if not games:
        return {}
    recipients = {row.recipient for row in rows if row.game_id is not None}
    chosen = {"games": games, "recipients": recipients}
    found = {game_id: (name, master) for game_id, name, master in session.execute(_GAMES, chosen)}
    watching = {(game_id, address) for game_id, address in session.execute(_WATCHING, chosen)}
    seated = {(game_id, address) for game_id, address in session.execute(_SEATED, chosen)} if watching else set()
    pages = links if watching else None
    secret = one_click.key(session) if pages else b""
    listed = {}
    for row in rows:
        if row.game_id not in found:
            continue
        observer = ((row.game_id, row.recipient) in watching and (row.game_id, row.recipient) not in seated
                    and row.recipient != found[row.game_id][1])
        link = one_click.link(pages, secret, row.game_id, row.recipient) if observer and pages else None
        listed[row.id] = Listing(found[row.game_id][0], observer=observer, one_click=link)
    return listed


_NOT_LABEL = re.compile(r"[^a-z0-9_-]+")


def list_label(game: str) -> str:
    """A game's name as the label of its list's id (RFC 2919: a dot-atom, here one atom): lower
    case, each run of characters other than ASCII letters, digits, ``-`` and ``_`` one ``-``,
    and no ``-`` at either end (``game`` if nothing is left).  A name the judge gives a game
    (a letter, then letters, digits, ``-`` or ``_``) is its label as it is; one imported from
    another judge may lose characters, and two such names may then share a label."""
    return _NOT_LABEL.sub("-", game.lower()).strip("-") or "game"


def list_headers(listing: Listing, judge: str, domain: str) -> tuple[tuple[str, str], ...]:
    """The headers that make a game's mail filterable as a mailing list's: ``List-Id`` (RFC 2919:
    ``Game spring <spring.judge-domain>``, the game's `list_label` in the judge's domain) and
    ``List-Help`` (RFC 2369: a mail to the judge ``judge`` saying ``HELP``); to an observer,
    ``List-Unsubscribe`` too, a mail saying ``UNOBSERVE game``.  A mailto carries its command as
    both its subject and its body: the judge reads commands in a mail's body only, and the
    subject shows the person sending it what it asks.  The game's name
    in a mailto is percent-encoded (nothing of it can end the URL or the header).  Where the
    listing has a one-click link (the pages served over HTTPS), ``List-Unsubscribe`` names it
    first, the mailto after it, and ``List-Unsubscribe-Post`` says a POST to it stops the mail
    (RFC 8058; ``judge web`` answers it, `judge.web.unsubscribe`).  A player's or master's own
    mail offers nothing to stop, in a mail or a click."""
    label = list_label(listing.game)
    fields = [("List-Id", f"Game {label} <{label}.{domain}>"), ("List-Help", f"<{_mailto(judge, 'HELP')}>")]
    if listing.observer:
        mailto = f"<{_mailto(judge, f'UNOBSERVE {listing.game}')}>"
        if listing.one_click is None:
            fields.append(("List-Unsubscribe", mailto))
        else:
            fields += [("List-Unsubscribe", f"<{listing.one_click}>, {mailto}"),
                       ("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")]
    return tuple(fields)


def _mailto(judge: str, command: str) -> str:
    """A mailto URL (RFC 6068) of a mail to ``judge`` whose subject and body are ``command``."""
    words = quote(command, safe="")
    return f"mailto:{judge}?subject={words}&body={words}"


def drop_sent_attachments(db: Database, settings: Settings, now: datetime) -> tuple[int, int]:
    """What the deadline clock does each tick: drop the attachments of mail sent more than
    ``attachment_days`` ago (`drop_attachments`), and the blobs no mail uses any more."""
    files = drop_attachments(db, now - timedelta(days=settings.attachment_days))
    return files, drop_unused_blobs(db)[1]


def drop_attachments(db: Database, sent_before: datetime, limit: int = DROP_MAILS) -> int:
    """Drop the attachments of up to ``limit`` mails sent before ``sent_before`` (their files;
    the blobs stay until `drop_unused_blobs`); how many files were dropped."""
    with db.transaction() as session:
        mails = list(session.scalars(select(OutboxFile.outbox_id).join(Outbox, Outbox.id == OutboxFile.outbox_id)
                                     .where(Outbox.status == "sent", Outbox.sent_at < sent_before)
                                     .distinct().limit(limit)))
        if not mails:
            return 0
        dropped = session.execute(delete(OutboxFile).where(OutboxFile.outbox_id.in_(mails)))
        return int(dropped.rowcount)  # type: ignore[attr-defined]


def drop_unused_blobs(db: Database, limit: int = DROP_BLOBS) -> tuple[int, int]:
    """Delete up to ``limit`` blobs that no mail's file refers to; (blobs deleted, their bytes)."""
    unused = ~exists().where(OutboxFile.sha256 == Blob.sha256)
    with db.transaction() as session:
        chosen = list(session.scalars(select(Blob.sha256).where(unused).limit(limit)))
        if not chosen:
            return 0, 0
        sizes = list(session.scalars(delete(Blob).where(Blob.sha256.in_(chosen), unused)
                                     .returning(func.length(Blob.data))
                                     .execution_options(synchronize_session=False)))
    return len(sizes), sum(sizes)
