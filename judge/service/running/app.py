"""The service layer: the use cases the command line and the daemon call.

Each game's deadline runs in a transaction of its own, and a game whose deadline fails is
paused and reported (to its game master and the judge's admin) instead of failing every tick
and holding up the games after it; a busy or unreachable database is only logged, and tried
again at the next tick.

After an outage.  Mail sent while the judge was down waits in its MTA and arrives after the
restart, in no particular order, mixed with mail sent since.  A deadline that passed meanwhile
must see the mail accepted before it and not the mail accepted after it.  So the daemon, when
it starts with deadlines already past (`overdue`) that passed while no judge listened, waits
``settle_seconds``: meanwhile it applies the mail accepted before the first of them, and the
later mail about any other game (`settling_mail`), then `catch_up` replays the rest in the order
things happened.  A mail was accepted when the judge's MTA wrote so in its ``Received:`` line,
else when the judge stored it (`accepted_at`).  Mail that comes after the settle time, or with
no deadline past, is applied as it comes, and a seat's older mail still never replaces what a
newer one set (`judge.service.incoming.handlers.mail`, "Order").
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import NamedTuple

from sqlalchemy import ColumnElement, and_, case, func, or_, select, update
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from judge.language import gettext as _
from judge.service.claimants import claimant, gone
from judge.service.config import Settings
from judge.service.hosting import archive, course, host, ratings, silent_seats
from judge.service.hosting.kinds import SESSION_KEY, Kinds, kind_of
from judge.service.hosting.schedule import reschedule
from judge.service.incoming.handlers import ahead, process_mail, receive
from judge.service.incoming.handlers.mail import (
    Runs,
    Stored,
    accepted_at,
    confirmed_topics,
    mask_old_quarantine,
    read_stored,
)
from judge.service.incoming.intake import take_in
from judge.service.outgoing.outbox import drop_sent_attachments, queue
from judge.service.outgoing.preferences import writing_to
from judge.service.states import Event, GameState, move
from judge.service.templates import render
from judge.store.database import Database
from judge.store.models import Game, Heartbeat, InboundMail, Player
from judge.web.pages import IndexLine, game_pages, publish_changed, publish_players, refresh

log = logging.getLogger("judge")
# Seconds before looking again at mail every game of which other processes are applying: the daemon
# looks sooner when its doorbell rings (new mail, or another judge's run done with mail left).
LEFT_PAUSE = 1.0
CLAIM = timedelta(minutes=2)  # how long a deadline run may hold a game before others may take over (`claim_length`)
RETRY = timedelta(minutes=1)  # how long a game whose run met a database error waits before the next try


def open_database(settings: Settings, kinds: Kinds | None = None) -> Database:
    """Open (creating the data directory and the schema if needed) the judge's database, whose
    sessions know the ``kinds`` of game the judge hosts (the composition root's, `judge.bootstrap`;
    none: the database's mail cannot be applied, as by `judge db` and the like)."""
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    db = Database(settings.database_url, {SESSION_KEY: kinds} if kinds is not None else None)
    db.upgrade()
    return db


def inject(db: Database, settings: Settings, raw: bytes, now: datetime, envelope_from: str | None = None) -> str:
    """Process one raw mail as if it had just arrived."""
    mail_id = receive(db, raw, now, envelope_from)
    return process_mail(db, settings, mail_id, now)


def process_game(db: Database, settings: Settings, name: str, now: datetime, force: bool = False) -> str:
    """What a deadline does for one game: process its phase if due (or ``force``), else send
    the reminders or late notices that are due.  Idempotent, and safe to run from several
    processes at once: a claim on the game row makes each phase process exactly once.  The
    game's public pages follow once the change is committed."""
    summary = _process_game(db, settings, name, now, force)
    if settings.web:
        refresh(db, settings, [name.lower()])
    return summary


def claim_length(settings: Settings) -> timedelta:
    """How long a deadline run claims its game: twice ``stall_seconds``, after which the judge kills a
    worker that has said nothing (`judge.service.running.workers`), so that no other judge takes a game this
    one may still be running (`CLAIM` with the default)."""
    return 2 * timedelta(seconds=settings.stall_seconds)


def _dead(session: Session, *among: ColumnElement[bool]) -> list[str]:
    """The claimants of the games claimed (of those ``among`` says) that were processes of this machine
    and have ended (`judge.service.claimants.gone`): a judge killed, or its deadline worker, whose runs
    never finished.  A claim names its process only while its run is under way (`_process_game` lets
    go of the name as the run marks its game), so these are few: a judge's workers."""
    held = session.scalars(select(Game.claimed_by).distinct().where(Game.claimed_by.is_not(None), *among))
    return [name for name in held if name is not None and gone(name)]


def _free(session: Session, now: datetime, *among: ColumnElement[bool]) -> ColumnElement[bool]:
    """The games a claim may take at ``now``: held by nobody, or by a claim that has run out, or by one
    whose process has ended on this machine (`_dead`), which is taken at once rather than when it runs
    out.  A claim of a process alive, or of another machine, is left until it runs out."""
    dead = _dead(session, *among)
    return or_(Game.claimed_until.is_(None), Game.claimed_until < now, *([Game.claimed_by.in_(dead)] if dead else []))


def _among(only: Sequence[str] | None, skip: Sequence[str]) -> list[ColumnElement[bool]]:
    """The games a claim may take: those named in ``only`` (None: any), none named in ``skip``."""
    clauses: list[ColumnElement[bool]] = [] if only is None else [Game.name.in_(list(only))]
    return clauses + ([Game.name.not_in(list(skip))] if skip else [])


class Claim(NamedTuple):
    """A game `claim_next` claimed, and the phase it was in."""

    name: str
    phase: str | None


def claim_next(db: Database, now: datetime, ran: tuple[Claim, float] | None = None, hold: timedelta = CLAIM,
               only: Sequence[str] | None = None, skip: Sequence[str] = ()) -> Claim | None:
    """Claim the game the clock has something to do for at ``now`` that is due first (`schedule.due_games`),
    for ``hold``, the time a deadline run may take (`claim_length`), and commit the claim: its name
    and phase, or None when no game is left to claim.  ``ran``: the run this process just did and
    the CPU it took, kept in the claim's transaction (`_keep_cost`): on SQLite each write
    transaction may wait for the one writer's lock, in sleeps of up to 100 ms.  ``only`` and
    ``skip``: the games it may take (`_among`; the settle time after an outage holds some back).

    Of the games due in the same minute, the cheapest for each of its players goes first (its
    `Game.run_cost`, measured by `drain`; a game not measured yet first of all): a deadline evening
    of a thousand games due at the same hour runs, on two cores, for a minute or two, and a
    player's results then come as early as they can on average, shortest job first.  Among the
    games of a minute, the order had no fairness to keep (it went by name); from one minute to the
    next, the earlier deadline still goes first.

    Claims are what several judges (and a judge's several workers) share a deadline's games by:
    each claim takes a game nobody holds, skipping a row another judge has locked (``FOR UPDATE
    SKIP LOCKED``, PostgreSQL's; SQLite has one writer), so two judges take different games at
    once.  A claim names the process that made it (`claimant`, the one running the game): the
    claim of a process of this machine that has ended (a judge killed, its workers with it) is
    taken at once (`_free`); another machine's only once it has run out.  A game is claimed once a
    tick: its run marks it with the tick's moment (`_process_game`), which the next tick is later
    than.  Processing each phase exactly once does not rest on the claim: the run locks the game's
    row and looks whether the phase is still due."""
    postgres = db.engine.dialect.name == "postgresql"
    minute = func.date_trunc("minute", Game.next_due) if postgres else func.strftime("%Y-%m-%d %H:%M", Game.next_due)
    with db.transaction() as session:
        if ran is not None:
            _keep_cost(session, *ran)
        due = Game.next_due <= now
        chosen = (select(Game.id).where(due, _free(session, now, due), *_among(only, skip))
                  .order_by(minute, Game.run_cost.asc().nulls_first(), Game.next_due, Game.name)
                  .limit(1).with_for_update(skip_locked=True).scalar_subquery())
        claimed = session.execute(update(Game).where(Game.id == chosen)
                                  .values(claimed_until=now + hold, claimed_by=claimant())
                                  .returning(Game.name, Game.phase)).first()
        return Claim(*claimed) if claimed is not None else None


def due_now(db: Database, now: datetime, skip: Sequence[str] = ()) -> bool:
    """Whether a game, but those of ``skip``, is left for `claim_next` to claim at ``now``."""
    with db.transaction() as session:
        due = Game.next_due <= now
        return session.scalar(select(Game.id).where(due, _free(session, now, due), *_among(None, skip))
                              .limit(1)) is not None


def next_due(db: Database, skip: Sequence[str] = ()) -> datetime | None:
    """The next moment the clock may have something to claim (`claim_next`), if any, among the games
    but those of ``skip``: a game's next moment (`schedule.next_due`), or when the claim on it runs
    out if that is later and its process has not ended (`_dead`)."""
    with db.transaction() as session:
        dead = _dead(session)
        held = and_(Game.claimed_until > Game.next_due, *([Game.claimed_by.not_in(dead)] if dead else []))
        later = case((held, Game.claimed_until), else_=Game.next_due)
        moment: datetime | None = session.scalar(select(func.min(later)).where(Game.next_due.is_not(None),
                                                                              *_among(None, skip)))
        return moment


def _process_game(db: Database, settings: Settings, name: str, now: datetime, force: bool,
                  claimed: bool = False) -> str:
    """`process_game` without its pages.  ``claimed``: the caller claimed the game (`claim_next`);
    the run then marks it with ``now``, done for this tick, and else clears the claim it takes (one
    that has run out, or whose process has ended: `_free`).  Either way the claim names no process
    any longer: a run done this tick is not taken again when its process ends."""
    with db.transaction() as session:
        if claimed:  # the row's lock: another process running this game (its mail) finishes first
            session.execute(update(Game).where(Game.name == name.lower()).values(claimed_until=now, claimed_by=None))
        else:
            game_row = Game.name == name.lower()
            taken = session.execute(
                update(Game)
                .where(game_row, or_(Game.claimed_until == now, _free(session, now, game_row)))
                .values(claimed_until=None, claimed_by=None)
            )
        game = session.scalar(select(Game).where(Game.name == name.lower()))
        if game is None:
            return f"there is no game '{name}'"
        if not claimed and not taken.rowcount:  # type: ignore[attr-defined]
            return f"{game.name} is being processed elsewhere"
        if game.state != GameState.ACTIVE:
            return f"{game.name} is {game.state}: nothing to process"
        if not force and game.deadline is not None and _missed(game, settings, now):
            move(game, Event.OVERDUE)
            with writing_to(session, settings, game.gm_address, game):  # in the game master's language
                queue(session, settings, to=game.gm_address, kind="notice", now=now, game_id=game.id,
                      subject=_("{game} paused: missed deadline", game=game.name),
                      body=render("outage", game=game, now=now))
            summary = f"{game.name} paused: its deadline passed long ago (was the judge down?)"
            archive.ran(session, game, now, summary)
        elif force or host.is_due(session, game, now):
            cause = "judge process --force" if force else "deadline" if host.deadline_passed(game, now) \
                else "all submitted"  # due before its deadline: complete, and no WAIT holds it
            if cause == "deadline" and (extended := silent_seats.extend(session, game, settings, now)):
                archive.ran(session, game, now, extended)
                return extended  # a played seat is late, and the game's policy gives it more time
            processed = course.close(session, game, settings, now, cause=cause)
            ahead.opened(session, game, settings, now)
            summary = f"{game.name} {processed.phase} processed"
            summary += f"; {processed.winner} wins" if processed.winner else f"; next {processed.next_phase}"
            archive.ran(session, game, now, summary, forced=force)
        else:
            told = host.send_notices(session, game, settings, now)
            reschedule(session, game)  # a phase that was to close at this tick and is held now (WAIT)
            summary = f"{game.name} {game.phase} is not due (deadline {game.deadline:%Y-%m-%d %H:%M} UTC)"
            if told:
                title = kind_of(session, game).seat_title
                summary += f"; notices sent to {', '.join(title(p) for p in told)}"
                archive.ran(session, game, now, summary)
    return summary


def _missed(game: Game, settings: Settings, now: datetime) -> bool:
    """A deadline (plus grace) more than ``settings.max_lateness`` hours ago: an outage or a
    clock jump, not a late player.  The old judges stopped there rather than run through."""
    assert game.deadline is not None
    due = game.deadline + timedelta(hours=host.duration(game, "grace"))
    return now - due > timedelta(hours=settings.max_lateness)


def unapplied_mail(db: Database) -> list[int]:
    """Stored mail not yet applied, in arrival order."""
    with db.transaction() as session:
        return list(session.scalars(select(InboundMail.id).where(InboundMail.status == "new").order_by(InboundMail.id)))


def apply_stored(db: Database, settings: Settings, now: datetime,
                 about: dict[int, str] | None = None) -> list[tuple[int, str]]:
    """Apply every stored mail not yet applied (a stopped daemon's intake taken in first), in
    arrival order, several per transaction (`apply_run`); returns (id, status) pairs, and puts
    the game each mail was about in ``about`` (`Runs.about`)."""
    take_in(db)
    waiting, settled = unapplied_mail(db), []
    runs = Runs(db, settings)
    while waiting:
        done = runs.run(waiting, now)
        settled += done
        if about is not None:
            about.update(runs.about)
        waiting = still_waiting(waiting, done)
        if not done:  # PostgreSQL: other processes are applying the mail of every game left (or settled it)
            time.sleep(LEFT_PAUSE)
            left = set(waiting)
            waiting = [mail_id for mail_id in unapplied_mail(db) if mail_id in left]
    return settled


def still_waiting(waiting: list[int], done: list[tuple[int, str]]) -> list[int]:
    """The mails of ``waiting`` that a run (`Runs.run`) did not settle, in order: on PostgreSQL
    a run leaves the mail of games that other processes are applying, wherever it stands."""
    settled = {mail_id for mail_id, _ in done}
    return [mail_id for mail_id in waiting if mail_id not in settled]


def stored_mail(db: Database, settings: Settings) -> list[tuple[int, datetime]]:
    """Stored mail not yet applied, in arrival order, each with when it was accepted (`accepted_at`)."""
    with db.transaction() as session:
        rows = session.execute(select(InboundMail.id, InboundMail.raw, InboundMail.received_at)
                               .where(InboundMail.status == "new").order_by(InboundMail.id))
        return [(mail_id, accepted_at(settings, raw, received)) for mail_id, raw, received in rows]


def on_time_mail(db: Database, settings: Settings, due: datetime) -> list[int]:
    """Stored mail not yet applied that was accepted before ``due``, in arrival order."""
    return [mail_id for mail_id, accepted in stored_mail(db, settings) if accepted < due]


def settling_mail(db: Database, settings: Settings, held: list[tuple[datetime, str]],
                  topics: dict[int, str]) -> list[int]:
    """While the deadlines ``held`` (earliest first) wait for the settle time's end: the stored mail
    to apply now, in arrival order.  That is the mail accepted before the first of them
    (`on_time_mail`), and of the later mail, all but the mail about a game held (its `topic`, a
    CONFIRM's that of what it confirms, read once and kept in ``topics``): a stranger's HELP, a
    LIST, the orders for a game not held are answered meanwhile, and a held game's mail waits for
    `catch_up`, which applies it after the deadline it came after.  A mail that cannot be read
    is the applier's to quarantine: it is applied now."""
    games = {f"game {name}".lower() for _, name in held}
    early = set(on_time_mail(db, settings, held[0][0]))
    with db.transaction() as session:
        rows = session.execute(select(InboundMail.id, InboundMail.raw, InboundMail.envelope_from,
                                      InboundMail.received_at).where(InboundMail.status == "new")
                               .order_by(InboundMail.id)).all()
    later = [Stored(*row) for row in rows if row.id not in early and row.id not in topics]
    reads = []
    for stored in later:
        try:
            reads.append(read_stored(stored))
        except Exception:  # unreadable: quarantined when applied, whatever its game
            topics[stored.id] = ""
    topics.update((read.stored.id, read.topic.lower()) for read in confirmed_topics(db, reads))
    return [row.id for row in rows if row.id in early or topics.get(row.id, "") not in games]


def overdue(db: Database, now: datetime) -> list[tuple[datetime, str]]:
    """The active games whose deadline (and grace) has passed: (when it did, name), earliest first."""
    with db.transaction() as session:
        active = session.scalars(select(Game).where(Game.state == GameState.ACTIVE, Game.deadline.is_not(None),
                                                   Game.next_due <= now))  # next_due comes first
        due = [(game.deadline + timedelta(hours=host.duration(game, "grace")), game.name) for game in active
               if game.deadline is not None]
    return sorted(item for item in due if item[0] <= now)


def rate_finished(db: Database) -> None:
    """At start: rate the finished games not yet rated (`ratings.catch_up`): after the upgrade that
    brought the ratings, every game finished before it, in the order they ended."""
    with db.transaction() as session:
        ratings.catch_up(session)


def catch_up(db: Database, settings: Settings, now: datetime, games: list[tuple[datetime, str]],
             run: Callable[[list[str]], list[str]] | None = None) -> list[str]:
    """The end of the settle time: the mail held back and the deadlines of ``games`` (`overdue`)
    in the order they happened.  A game whose deadline fell before a held mail was accepted is
    processed before that mail is applied, as it would have been had the judge been up.  ``run``
    runs the deadlines of games that fell between two held mails, whose order among themselves
    does not matter (the daemon's deadline workers, each game in one of them; by default here, one
    after another), and returns their summaries."""
    run_games = run or (lambda names: [_run_deadline(db, settings, name, now) for name in names])
    waiting = sorted(games)
    summaries = []
    runs = Runs(db, settings)
    for mail_id, accepted in sorted(stored_mail(db, settings), key=lambda item: (item[1], item[0])):
        due = []
        while waiting and waiting[0][0] <= accepted:
            due.append(waiting.pop(0)[1])
        if due:
            summaries += run_games(due)
        done = runs.run([mail_id], now)  # on PostgreSQL, none if another judge holds its game: then wait for it
        summaries.append(mail_line(mail_id, done[0][1] if done else process_mail(db, settings, mail_id, now),
                                   runs.about.get(mail_id)))
    return summaries + (run_games([name for _, name in waiting]) if waiting else [])


def mail_line(mail_id: int, status: str, game: str | None) -> str:
    """The log's line for a mail applied: its number, what became of it, and the game it was
    about, so that one game's history can be read from the logs (of several judges, too)."""
    return f"mail {mail_id} {status}" + (f" (game {game})" if game else "")


def run_deadlines(db: Database, settings: Settings, now: datetime) -> list[str]:
    """Run the deadline of every game the clock has something to do for (`claim_next`: a
    reminder, a late notice or processing is due), each on its own: one game's failure stops
    no other.  A game waiting for nothing costs nothing.  The games' pages follow their runs
    (`drain`), and the index of every game is written once, at the end (`finish_tick`)."""
    summaries, lines = drain(db, settings, now)
    finish_tick(db, settings, now, lines)
    return summaries


def drain(db: Database, settings: Settings, now: datetime, ready: Callable[[str, str], None] | None = None,
          stopping: Callable[[], bool] = lambda: False, claimed: Callable[[str], None] | None = None,
          only: Sequence[str] | None = None, skip: Sequence[str] = ()) -> tuple[list[str], list[IndexLine]]:
    """Claim and run the deadlines due at ``now`` one after another until none is left to claim
    (`claim_next`, among ``only`` but ``skip``; several processes drain at once, each taking its
    own games) or ``stopping`` says so; then write the pages of the games run (`game_pages`) and of
    their players (`_players_pages`): the runs' summaries, and the index lines their games' pages
    changed.  ``claimed`` is told each game as soon as its claim is committed (the daemon watches
    how long its run takes: `judge.service.running.workers`); ``ready`` each game and summary as soon as
    its run is committed: its mail can go out.

    The pages wait for the last game this process can claim: the players' results, which the mail
    carries, come first.  The maps the pages show are the mails', which the process that drew
    them remembers."""
    summaries: list[str] = []
    ran: list[str] = []
    cost: tuple[Claim, float] | None = None  # the last run's, kept with the next claim
    hold = claim_length(settings)
    while not stopping():
        claim = claim_next(db, now, cost, hold, only, skip)
        cost = None
        if claim is None:
            break
        if claimed is not None:
            claimed(claim.name)
        began = time.process_time()
        summary = _run_deadline(db, settings, claim.name, now, claimed=True)
        summaries.append(summary)
        if ready is not None:
            ready(claim.name, summary)
        ran.append(claim.name)
        cost = (claim, time.process_time() - began)
    if cost is not None:  # stopped before the next claim
        _cost(db, *cost)
    lines: list[IndexLine] = []
    if settings.web and ran:
        lines = [line for name in ran if (line := game_pages(db, settings, name, players=False)) is not None]
        _players_pages(db, settings, ran)
    return summaries, lines


def _players_pages(db: Database, settings: Settings, names: list[str]) -> None:
    """The pages of the players of the games a drain ran, all at once once no game is left to
    claim: off the evening's path, where they cost a tenth of a game's run.  Never raises."""
    try:
        publish_players(db, settings, names)
    except Exception:
        log.exception("the pages of the players of %d game(s) could not be written", len(names))


def _cost(db: Database, claimed: Claim, seconds: float) -> None:
    """`_keep_cost` in a transaction of its own, a busy database only logged: the cost orders
    the next evening, nothing depends on it."""
    try:
        with db.transaction() as session:
            _keep_cost(session, claimed, seconds)
    except (OperationalError, IntegrityError) as exc:
        log.warning("the cost of %s's run is not kept: %s", claimed.name, exc)


def _keep_cost(session: Session, claimed: Claim, seconds: float) -> None:
    """Keep what the run of ``claimed`` cost, ``seconds`` of CPU, for each of its seats that has
    a player (`Game.run_cost`), if the run processed its phase: a run that only sent reminders
    costs nothing like a phase, and would put its game first at its deadline."""
    seats = (select(func.count(Player.id)).where(Player.game_id == Game.id, Player.seat.is_not(None),
                                                 Player.address.is_not(None)).scalar_subquery())
    session.execute(update(Game).where(Game.name == claimed.name, Game.phase != claimed.phase)
                    .values(run_cost=seconds / case((seats > 0, seats), else_=1)))


def finish_tick(db: Database, settings: Settings, now: datetime, lines: list[IndexLine]) -> None:
    """What the clock does once a tick's deadlines are run: the index of the games, if their
    runs changed a line of it (`publish_changed`); its heartbeat (`judge status`); masking the
    passwords of mail quarantined too long ago; dropping the attachments of mail sent more than
    ``attachment_days`` ago (`drop_sent_attachments`)."""
    if settings.web:
        publish_changed(db, settings, lines)
    with db.transaction() as session:
        beat(session, "tick", now)
    mask_old_quarantine(db, settings, now)
    try:
        drop_sent_attachments(db, settings, now)
    except (OperationalError, IntegrityError) as exc:  # busy, or a blob taken by a mail meanwhile: next tick
        log.warning("dropping the attachments of sent mail: database error, trying again at the next tick: %s", exc)


def beat(session: Session, name: str, now: datetime, by: str | None = None) -> None:
    """Record that ``name`` ran at ``now``, here or ``by`` (for ``judge status``); one row per
    name, whichever judge wrote it last."""
    values = {"name": name, "at": now, "by": (by or f"{socket.gethostname()} pid {os.getpid()}")[:200]}
    changed = {"at": values["at"], "by": values["by"]}
    if session.get_bind().dialect.name == "postgresql":  # imported with PostgreSQL's engine, not at every start
        from sqlalchemy.dialects.postgresql import insert as postgresql_insert

        session.execute(postgresql_insert(Heartbeat).values(**values).on_conflict_do_update(index_elements=["name"],
                                                                                             set_=changed))
    else:
        session.execute(sqlite_insert(Heartbeat).values(**values).on_conflict_do_update(index_elements=["name"],
                                                                                         set_=changed))


def _run_deadline(db: Database, settings: Settings, name: str, now: datetime, claimed: bool = False) -> str:
    """`process_game` (`_process_game` for a game the caller ``claimed``, whose pages it writes
    itself), with a busy database left for the next tick and any other failure reported."""
    try:
        return _process_game(db, settings, name, now, False, claimed) if claimed else \
            process_game(db, settings, name, now)
    except (OperationalError, IntegrityError) as exc:
        log.warning("deadline of %s: database error, trying again at the next tick: %s", name, exc)
        if claimed:
            _release(db, name, now + RETRY)
        return f"{name}: database error, will try again"
    except Exception as exc:
        log.exception("deadline of %s failed", name)
        if claimed:
            _release(db, name, now)
        return _deadline_failed(db, settings, name, now, f"{type(exc).__name__}: {exc}")


def abandoned(db: Database, settings: Settings, name: str, now: datetime, why: str, again: bool) -> str:
    """The deadline run of ``name`` at ``now`` that its process left unfinished, ``why`` (killed, or
    dead: `judge.service.running.workers`).  A run that committed its change had made its claim end at
    ``now``: nothing is left to do.  A run that did not was rolled back with its transaction, and its
    claim is let go so that the game is claimed again at once, and run once; unless it was left
    unfinished before at this tick (``again``): then the game is paused and its game master and the
    admin told, as when a deadline fails, rather than cost one worker after another.  A busy database
    leaves the claim to run out by itself (`claim_length`)."""
    try:
        with db.transaction() as session:
            claimed = session.execute(update(Game).where(Game.name == name, Game.claimed_until > now)
                                      .values(claimed_until=None if not again else now, claimed_by=None))
            if not claimed.rowcount:  # type: ignore[attr-defined]
                return f"{name}: its run was left unfinished after its change was committed ({why})"
        if again:
            return _deadline_failed(db, settings, name, now, why, unfinished=True)
    except (OperationalError, IntegrityError) as exc:
        log.warning("the claim on %s stays until it runs out: %s", name, exc)
        return f"{name}: its run was left unfinished ({why}); it is claimed again once its claim runs out"
    return f"{name}: its run was left unfinished ({why}); it is claimed again"


def _release(db: Database, name: str, until: datetime) -> None:
    """The claim on a game whose run failed, held ``until`` the game is tried again."""
    try:
        with db.transaction() as session:
            session.execute(update(Game).where(Game.name == name).values(claimed_until=until, claimed_by=None))
    except (OperationalError, IntegrityError) as exc:  # the claim runs out by itself (`CLAIM`)
        log.warning("the claim on %s stays until it runs out: %s", name, exc)


def _deadline_failed(db: Database, settings: Settings, name: str, now: datetime, why: str,
                     unfinished: bool = False) -> str:
    """Pause a game whose deadline could not be run, ``why`` (the error, or what ended the run left
    ``unfinished`` twice, as the program reported it), and tell its game master and the admin: each mail in
    its reader's language, ``why`` quoted as it is (the program's own words, which no catalogue holds)."""
    reason = why[:2000]
    said = f"its run was left unfinished twice ({reason})" if unfinished else reason  # the operator's, in English
    with db.transaction() as session:
        game = session.scalar(select(Game).where(Game.name == name).with_for_update())
        if game is None or game.state != GameState.ACTIVE:
            return f"{name} failed: {said}"
        move(game, Event.FAILED)
        for address in sorted({game.gm_address, settings.admin_address}):
            with writing_to(session, settings, address, game):  # each reader's, the master's and the admin's
                queue(session, settings, to=address, subject=_("{game} paused: its deadline failed", game=game.name),
                      kind="notice", now=now, game_id=game.id,
                      body=render("deadline_failed", game=game, reason=reason, unfinished=unfinished, now=now))
    return f"{name} paused: its deadline failed ({said})"


def tick(db: Database, settings: Settings, now: datetime) -> list[str]:
    """What cron's ``judge tick`` does: first apply any mail already accepted (a sheet that got
    its 250 before the deadline counts), then run the deadlines, even if the mail could not be."""
    try:
        about: dict[int, str] = {}
        applied = [mail_line(mail_id, status, about.get(mail_id))
                   for mail_id, status in apply_stored(db, settings, now, about)]
    except Exception as exc:  # the database: the deadlines below say whether it is usable at all
        log.exception("applying stored mail failed")
        applied = [f"applying stored mail failed: {type(exc).__name__}"]
    return applied + run_deadlines(db, settings, now)
