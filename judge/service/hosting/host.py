"""What the host knows of every game, whatever its kind: its state, seats and observers, its
phase rows and submissions, its deadline and the clock's notices.

Theory of operation.  A game goes forming → active (⇄ paused) → finished.  The host keeps the
rows every kind shares: the game (its ``kind``, settings and deadline), its seats (`Player`:
who plays each, with the seat's name in ``power``), one `PhaseRow` per phase (what the phase
starts from, in the kind's own JSON, and once closed what happened), and the `Submission` rows
of the open phase (a later one of a seat and kind replaces an earlier one).  What a phase is,
who must act in it, what closing it does and who is told what are the kind's
(`judge.service.hosting.kinds.GameKind`); the host asks it through `judge.service.hosting.kinds.kind_of`.

The clock's part is the same for every kind: a phase is *due* when the game master says PROCESS,
when its kind says it is complete, or when its deadline plus the grace period has passed
(`is_due`); before that the seats that have still to act are reminded, each alone, ``reminder``
hours before the deadline, and told they are late at the deadline (`send_notices`).  A deadline
that falls inside an approved absence moves past it, and one on a weekly clock falls at its
next time (`phase_deadline`, `judge.service.hosting.deadlines`).

A seat's row holds its player now; who held it before, and from which phase to which, is kept in
the game's settings (``played``, ``since``: `left_seat`, `took_seat`), so that the end's "who
played what" and SUMMARY name every player of each seat (`who_played`).
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import Connection, Table, bindparam, delete, event, func, insert, inspect, select
from sqlalchemy.orm import Session, SessionTransaction, object_session

from judge.language import Stored, later, worded
from judge.language import gettext as _
from judge.service.config import Settings
from judge.service.hosting import records, silence
from judge.service.hosting.deadlines import deadline_for, move_to, rule_for
from judge.service.hosting.kinds import GameKind, Phases, kind_of
from judge.service.hosting.turn import Turn
from judge.service.mailbox import at_domain, mailbox, same
from judge.service.options import rules_of
from judge.service.outgoing.outbox import queue
from judge.service.outgoing.preferences import writing_to
from judge.service.states import Event, GameError, GameState, move
from judge.service.templates import render, state_word, when
from judge.store.models import Game, Observer, PhaseRow, Player, Submission
from judge.web.public import GameFacts, Seat

# -- the options every game takes -------------------------------------------------------------------

HOST_DURATIONS = ("grace", "reminder")
"""Settings of the clock that every kind has, beside the lengths of its phases."""


# -- reading the state ------------------------------------------------------------------------------

@dataclass
class Reads:
    """What the mails of one transaction have read of the games they act on, read once for them
    all (a run applies several mails in one transaction: `judge.service.incoming.handlers.mail.Runs`):
    each game's row, locked until the transaction ends (`Conversation.game`); its seats once it
    has started (`Conversation.seats`); what is read of a phase (`phase`: its row, `current_phase`; its
    position; the latest submission of each seat and kind, which `submit` keeps up to date).  Everything is
    dropped when anything in the transaction is rolled back (a refused or failed mail's savepoint
    gave up the locks it took and the changes it made), and a game's seats and phases when its
    phase changes (`Game.phase` set: processed, rolled back, started)."""

    games: dict[str, Game] = field(default_factory=dict)  # by name
    seats: dict[int, dict[str, Player]] = field(default_factory=dict)  # by game id
    phase: dict[tuple[int, str, str], Any] = field(default_factory=dict)  # by game id, phase and what

    @staticmethod
    def of(session: Session) -> Reads:
        """The transaction's reads (kept in the session, which lives as long as its transaction)."""
        reads: Reads | None = session.info.get(_READS)
        if reads is None:
            reads = session.info[_READS] = Reads()
        return reads


_READS = "game reads"


@event.listens_for(Session, "after_soft_rollback")
def _forget_reads(session: Session, previous: SessionTransaction) -> None:
    session.info.pop(_READS, None)


@event.listens_for(Game.phase, "set")
def _phase_moved(game: Game, value: str | None, old: object, initiator: object) -> None:
    session = object_session(game)
    reads: Reads | None = session.info.get(_READS) if session is not None else None
    if reads is not None:
        reads.seats.pop(game.id, None)
        reads.phase = {key: found for key, found in reads.phase.items() if key[0] != game.id}


# The game's reads that every applied mail makes, built once: building and keying a statement
# cost more than running it.
_CURRENT_PHASE = select(PhaseRow).where(PhaseRow.game_id == bindparam("game_id"), PhaseRow.name == bindparam("phase"))
_PLAYERS = select(Player).where(Player.game_id == bindparam("game_id")).order_by(Player.id)
# Those that read columns, not rows, are Core statements (the ORM's layer costs more than they do).
_SUBMISSIONS = cast(Table, Submission.__table__)
_NEWEST = (select(func.max(_SUBMISSIONS.c.id))
           .where(_SUBMISSIONS.c.game_id == bindparam("game_id"), _SUBMISSIONS.c.phase == bindparam("phase"))
           .group_by(_SUBMISSIONS.c.seat, _SUBMISSIONS.c.kind))  # a later submission replaces an earlier one
_LATEST_SUBMISSIONS = select(Submission).where(Submission.id.in_(_NEWEST))
_LATEST = (select(_SUBMISSIONS.c.seat, _SUBMISSIONS.c.kind, _SUBMISSIONS.c.text, _SUBMISSIONS.c.accepted_at)
           .where(_SUBMISSIONS.c.id.in_(_NEWEST)))
_SUBMIT = insert(_SUBMISSIONS)


def current_phase(session: Session, game: Game) -> PhaseRow | None:
    """The row of ``game``'s current phase (None before it starts), read once a transaction (`Reads`): a mail or a
    deadline asks for it several times, and each read loaded the row's position again.  Pending changes are
    flushed as the read would have flushed them; a row deleted since (a ROLLBACK's `drop_phase`) is read again."""
    if game.phase is None:
        return None
    read = Reads.of(session).phase
    key = (game.id, game.phase, "current phase row")
    row: PhaseRow | None = read.get(key)
    if session.autoflush:
        session.flush()
    if row is None or not inspect(row).persistent:
        row = read[key] = session.scalar(_CURRENT_PHASE, {"game_id": game.id, "phase": game.phase})
    return row


def phase_data_now(connection: Connection, kind: str, key: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each started game of ``kind`` by name, with what its current phase row holds as it stands:
    the ``key`` of its result once processed, its position while open (`kinds.Records.totals`)."""
    rows = connection.execute(select(Game.name, PhaseRow.status, PhaseRow.position, PhaseRow.result)
                              .join(PhaseRow, (PhaseRow.game_id == Game.id) & (PhaseRow.name == Game.phase))
                              .where(Game.kind == kind))
    for name, status, position, result in rows:
        yield name, result[key] if status == "processed" and result else position


def players(session: Session, game: Game) -> list[Player]:
    return list(session.scalars(_PLAYERS, {"game_id": game.id}))


def seats(session: Session, game: Game) -> dict[str, Player]:
    """The player row of each seat, once seats are assigned (at the start)."""
    return {p.seat: p for p in players(session, game) if p.seat}


def all_phases(session: Session, game: Game) -> list[PhaseRow]:
    return list(session.scalars(select(PhaseRow).where(PhaseRow.game_id == game.id).order_by(PhaseRow.id)))


def processed_phases(session: Session, game: Game) -> list[PhaseRow]:
    return [row for row in all_phases(session, game) if row.status == "processed"]


def processed_names(session: Session, game: Game) -> list[tuple[int, str]]:
    """The id and name of each processed phase, in order, without reading the phases."""
    rows = session.execute(select(PhaseRow.id, PhaseRow.name).where(PhaseRow.game_id == game.id,
                                                                    PhaseRow.status == "processed")
                           .order_by(PhaseRow.id))
    return [(row_id, name) for row_id, name in rows]


def phases_by_id(session: Session, ids: list[int]) -> list[PhaseRow]:
    """The phase rows of ``ids``, in order."""
    return list(session.scalars(select(PhaseRow).where(PhaseRow.id.in_(ids)).order_by(PhaseRow.id))) if ids else []


def is_open(game: Game, seat: str) -> bool:
    """Whether a vacant seat may be taken over: by the game's option, or once the master opened it."""
    return rules_of(game).open_takeover or seat in game.settings.get("open", [])


def open_seat(game: Game, seat: str) -> None:
    """Open a vacant seat for TAKEOVER, as the game master's SET OPENING does (a kind whose rules
    open it themselves: Machiavelli's country left without a leader, AoP 18.3)."""
    game.settings = {**game.settings, "open": sorted({*game.settings.get("open", []), seat})}


def close_seat(game: Game, seat: str) -> None:
    """Close a seat the game master or the kind opened (`open_seat`): a kind whose rules close it
    themselves (Machiavelli's country eliminated, M62)."""
    game.settings = {**game.settings, "open": [name for name in game.settings.get("open", []) if name != seat]}


def observers(session: Session, game: Game) -> list[str]:
    """The addresses that receive the game's public news (OBSERVE), if the game allows them."""
    if not rules_of(game).observers:
        return []
    return list(session.scalars(select(Observer.address).where(Observer.game_id == game.id).order_by(Observer.id)))


def stop_observing(session: Session, game: Game, address: str) -> bool:
    """Stop every address of ``address``'s mailbox observing ``game`` (UNOBSERVE, and the one-click
    link of an observer's mail: `judge.web.unsubscribe`); whether any did."""
    kept = session.scalars(select(Observer).where(Observer.game_id == game.id, at_domain(Observer.address, address)))
    watching = [row.id for row in kept if same(row.address, address)]
    if watching:
        session.execute(delete(Observer).where(Observer.id.in_(watching)))
    return bool(watching)


def record(game: Game, what: Stored) -> None:
    """Keep an event of the game's story for SUMMARY (replacements, resignations, the result), with the
    phase it happened in: ``what`` a stored wording (`judge.language.later`), worded in each reader's
    language when it is read (`story`); a plain string is kept and shown as it is."""
    event = later("{phase}: {event}", phase=game.phase or "-", event=what)
    game.settings = {**game.settings, "events": [*game.settings.get("events", []), event]}


def story(game: Game) -> list[str]:
    """The game's story (`record`) in the reader's language, its oldest event first; an event kept
    as a plain string before events were stored wordings is shown as it was written."""
    return [worded(event) for event in game.settings.get("events", [])]


def result_of(game: Game) -> str | None:
    """How the game ended (``settings["result"]``: `judge.service.hosting.course.end`) in the
    reader's language; None while it runs."""
    kept = game.settings.get("result")
    return None if kept is None else worded(kept)


def command_name(seat: str) -> str:
    """A seat as a command names it after SIGNON or TAKEOVER, where words end at spaces: its words
    joined by hyphens (AoP's ``Holy-Roman-Empire``), which every kind reads as the seat."""
    return seat.replace(" ", "-")


def is_played(player: Player | None) -> bool:
    return player is not None and not player.dummy and not player.resigned and player.address is not None


def submit(session: Session, game: Game, phase: str, power: str, kind: str, text: str, parsed: dict[str, Any],
           now: datetime, accepted: datetime | None = None) -> None:
    """Keep a seat's submission of a phase (its sheet, orders, CLEAR, WAIT...: the latest of a kind
    is in force), written at once with a Core statement (every mail of a seat does it; the ORM's
    flush would cost several times more), and in the phase's latest submissions if the
    transaction has read them (`latest`)."""
    session.execute(_SUBMIT, {"game_id": game.id, "phase": phase, "seat": power, "kind": kind, "text": text,
                              "parsed": parsed, "created_at": now, "accepted_at": accepted})
    known = Reads.of(session).phase.get((game.id, phase, "submissions"))
    if known is not None:
        known[power, kind] = text, accepted


def latest(session: Session, game: Game, phase: str) -> dict[tuple[str, str], tuple[str, datetime | None]]:
    """The text of the latest submission of each (seat, kind) in a phase, and when the mail that
    made it was accepted (None: no mail did), without loading the submissions: read once per
    transaction (`Reads`), as every mail of a seat asks (whether it was superseded, whether the
    phase is complete)."""
    read = Reads.of(session).phase
    key = (game.id, phase, "submissions")
    found: dict[tuple[str, str], tuple[str, datetime | None]] | None = read.get(key)
    if found is None:
        found = read[key] = {(power, kind): (text, accepted) for power, kind, text, accepted in
                             session.execute(_LATEST, {"game_id": game.id, "phase": phase})}
    return found


_LATEST_SUBMISSION = (select(Submission).where(Submission.game_id == bindparam("game_id"),
                                                Submission.phase == bindparam("phase"),
                                                Submission.seat == bindparam("seat"),
                                                Submission.kind == bindparam("kind"))
                      .order_by(Submission.id.desc()).limit(1))
"""A seat's newest submission of a kind in a phase (`latest_submission`)."""


def latest_submission(session: Session, game: Game, phase: str, power: str, kind: str) -> Submission | None:
    return session.scalar(_LATEST_SUBMISSION, {"game_id": game.id, "phase": phase, "seat": power, "kind": kind})


def latest_accepted(session: Session, game: Game, phase: str, power: str, kind: str) -> datetime | None:
    """When the mail of a seat's latest submission of a kind in a phase was accepted (None: no
    submission, or one that no mail made) (`latest`)."""
    found = latest(session, game, phase).get((power, kind))
    return None if found is None else found[1]


def latest_submissions(session: Session, game: Game, phase: str) -> dict[tuple[str, str], Submission]:
    """The latest submission of each (seat, kind) in a phase, in one query (the newest row of
    each pair: a later one replaces an earlier one)."""
    rows = session.scalars(_LATEST_SUBMISSIONS, {"game_id": game.id, "phase": phase})
    return {(s.seat, s.kind): s for s in rows}


def latest_texts(session: Session, game: Game, phase: str) -> dict[tuple[str, str], str]:
    """The text of the latest submission of each (seat, kind) in a phase (`latest`): what tells
    whether a phase is complete."""
    return {pair: text for pair, (text, _at) in latest(session, game, phase).items()}


def who_played(session: Session, game: Game, reader: str) -> list[tuple[str, str]]:
    """Each seat and every player who held it, with the phases they played (the end
    publication's "who played what", SUMMARY), as ``reader`` may read it: with the players'
    addresses for the game master, and for the players unless the game is ANONYMOUS; for anyone
    else (an observer, a stranger asking SUMMARY) only that a player held it, and when.  The
    players who left are kept by `left_seat`; the one who holds the seat now played it from
    the phase it was taken in (`took_seat`), or from the first."""
    addresses = reader == "master" or (reader == "player" and not rules_of(game).anonymous)
    first = session.scalar(select(PhaseRow.name).where(PhaseRow.game_id == game.id).order_by(PhaseRow.id).limit(1))
    left: dict[str, list[dict[str, str | None]]] = {}
    for held in game.settings.get("played", []):
        left.setdefault(held["seat"], []).append(held)
    since = game.settings.get("since", {})

    def who(address: str) -> str:
        return address if addresses else _("a player")

    found = []
    for player in players(session, game):
        if not player.seat:
            continue
        held = [_("{who} ({start} to {end})", who=who(str(h["address"])), start=h["from"] or first, end=h["to"])
                for h in left.get(player.seat, [])]
        if is_played(player) or (player.address and not held):  # a vacant seat whose player left unrecorded
            assert player.address is not None
            start = since.get(player.seat) or first
            if start and is_played(player):
                held.append(_("{who} ({start} to the end)", who=who(player.address), start=start)
                            if game.state == "finished" else
                            _("{who} ({start} to now)", who=who(player.address), start=start))
            else:
                held.append(who(player.address))
        found.append((player.seat, ", ".join(held) or _("(nobody)")))
    return found


def answer_summary(turn: Turn, text: str, game: Game, template: str, what: str, label: str | None,
                   **more: Any) -> None:
    """SUMMARY as a kind without a summary of its own answers it: its ``template`` given the game
    (``what`` it is, the ``label`` of its phase), its events and result, and once it has ended who
    played which seat (`who_played`); ``more`` for the template.  Its moments in the reader's zone."""
    seated = who_played(turn.session, game, turn.reader_of(game)) if game.state == GameState.FINISHED else []
    body = render(template, game=game, what=what, label=label, events=story(game), result=result_of(game),
                  seated=seated, **more)
    turn.answer_long(text, f"{game.name}-summary.txt", body, "the summary", game=game)


def answer_list(game: Game, what: str, label: str | None, seated: Iterable[tuple[str, Player | None]],
                public: Sequence[str] = (), defaults: Sequence[str] = ()) -> list[str]:
    """LIST game as a kind without a listing of its own answers it: the game's state, ``what`` it is,
    its options (those of them that are its kind's ``defaults`` said to be, as `game_facts` keeps
    them apart), its phase (with its ``label``, in words) and deadline; then ``public``, what anyone
    may know of it now, each seat's state (`seat_state`) in the order given, and once it has ended
    its result.  Never who has sent what."""
    options = " ".join(option for option in game.options or () if option not in defaults) or _("none")
    kept = " ".join(option for option in game.options or () if option in defaults)
    lines = [_("state: {state}", state=state_word(game.state)), _("game: {what}", what=what),
             _("options: {options} (by default {kept})", options=options, kept=kept) if kept else
             _("options: {options}", options=options)]
    if game.phase:
        lines.append(_("phase: {phase} ({label}), deadline {deadline}", phase=game.phase, label=label,
                       deadline=when(game.deadline)))
    lines += public
    lines += [f"{seat}: {seat_state(game, seat, player)}" for seat, player in seated]
    if game.state == GameState.FINISHED:
        lines.append(_("result: {result}", result=result_of(game) or ""))
    return lines


def who_plays(session: Session, game: Game, reader: str) -> dict[str, str]:
    """Who plays each played seat now (WHOGAME), as ``reader`` may know it (as `who_played`)."""
    addresses = reader == "master" or (reader == "player" and not rules_of(game).anonymous)
    return {p.seat: p.address if addresses else _("a player") for p in players(session, game)
            if p.seat and p.address and is_played(p)}


def left_seat(game: Game, player: Player, last: str | None = None) -> None:
    """Keep who played the seat of ``player`` and from which phase to this one, as its player
    leaves it (RESIGN, DUMMY, REPLACE), for `who_played`; nothing if nobody played it.  ``last``:
    the last phase it held the seat in, if not this one (a seat abandoned at a deadline leaves as
    the next phase opens: it held the seat up to the phase of that deadline)."""
    if not is_played(player):
        return
    assert player.address is not None and player.seat is not None
    start = game.settings.get("since", {}).get(player.seat)  # None: the first phase (`who_played`)
    held = {"seat": player.seat, "address": player.address, "from": start, "to": last or game.phase or "-"}
    game.settings = {**game.settings, "played": [*game.settings.get("played", []), held]}


def took_seat(game: Game, seat: str) -> None:
    """Keep the phase in which a new player took ``seat`` (TAKEOVER, REPLACE), for `who_played`."""
    game.settings = {**game.settings, "since": {**game.settings.get("since", {}), seat: game.phase or "-"}}


# -- time ---------------------------------------------------------------------------------------------


def durations_at_create(game_kind: Phases, configured: dict[str, float]) -> dict[str, float]:
    """A new game's durations: its kind's phase lengths and the clock's settings, as the judge's
    configuration sets them where it does (``[durations]``), else the kind's own."""
    wanted = {**game_kind.durations, "grace": 0.0}
    found = {key: float(configured.get(key, hours)) for key, hours in wanted.items()}
    return found | ({"reminder": float(configured["reminder"])} if "reminder" in configured else {})


def duration(game: Game, setting: str) -> float:
    """A duration setting of the game in hours: a phase length, ``grace`` or ``reminder``."""
    if setting in game.settings:
        return float(game.settings[setting])
    return float(_kind(game).durations.get(setting, 0.0))


def phase_duration(game: Game, phase: str) -> timedelta:
    """How long the phase ``phase`` of this game lasts (the setting its kind names for it)."""
    return timedelta(hours=duration(game, _kind(game).length_of(phase)))


def phase_deadline(session: Session, game: Game, phase: str, now: datetime) -> datetime:
    """The deadline of the phase ``phase`` opening at ``now``: on the game's weekly clock if its
    kind of phase has a rule (``SET CLOCK``), else its length from now; past the absences granted
    (`judge.service.hosting.deadlines`)."""
    return deadline_for(session, game, _kind(game).length_of(phase), now, phase_duration(game, phase))


def _kind(game: Game) -> GameKind:
    """The kind of ``game``, found through the session it was read in."""
    session = object_session(game)
    assert session is not None, "a game read in a session"
    return kind_of(session, game)


def phase_seed(game: Game, name: str) -> int:
    return zlib.crc32(f"{game.seed}:{name}".encode()) & 0x7FFFFFFF  # fits a 32-bit INTEGER column


def open_phase(session: Session, game: Game, name: str, position: dict[str, Any], now: datetime) -> PhaseRow:
    """The row of the phase ``name`` opening now from ``position`` (its kind's JSON), with the
    phase's seed, in place of any row of that name a ROLLBACK left; the game is in it, and its
    deadline is the phase's length from now or its weekly clock's next time, moved past the
    absences granted (`phase_deadline`)."""
    session.execute(delete(PhaseRow).where(PhaseRow.game_id == game.id, PhaseRow.name == name))
    row = PhaseRow(game_id=game.id, name=name, position=position, seed=phase_seed(game, name), status="open",
                   opened_at=now)
    session.add(row)
    game.phase = name
    game.deadline = phase_deadline(session, game, name, now)
    return row


def processed(row: PhaseRow, result: dict[str, Any], now: datetime) -> None:
    """The phase of ``row`` processed at ``now``, leaving ``result`` (its kind's JSON): the host's
    columns of a phase row are written here, never by a kind."""
    row.result, row.status, row.processed_at = result, "processed", now


def keep_setting(game: Game, key: str, value: Any) -> None:
    """Keep ``value`` (JSON) under ``key`` in ``game``'s settings, the other keys as they are: a kind
    keeps its own of a game there (its votes, what it told), through this alone."""
    game.settings = {**game.settings, key: value}


def drop_setting(game: Game, key: str) -> None:
    """Forget ``key`` of ``game``'s settings, if it is kept (`keep_setting`)."""
    game.settings = {name: value for name, value in game.settings.items() if name != key}


def assign_seat(player: Player, seat: str | None) -> None:
    """Give ``player`` the seat ``seat`` as the game starts (`judge.service.hosting.kinds.Phases.start`)."""
    player.seat = seat


def rollback_target(session: Session, game: Game, phase: str | None) -> tuple[PhaseRow, list[PhaseRow]]:
    """What ROLLBACK goes back to: the phase processed last, or (``phase``, as DPjudge's ``ROLLBACK
    phase``) the processed phase of that name; and the rows of the phases after it, which the kind
    drops (`drop_phase`) with its own records of them.  A phase named that the game has not
    processed is refused, the phase it is in included: ROLLBACK names the phase to go back to,
    and one sent for a game that has moved on since must not go back further than its master meant."""
    if game.state == GameState.FINISHED:
        raise GameError(_("the game has ended; an ended game cannot be rolled back"), "GAME_ENDED")
    rows = list(session.scalars(select(PhaseRow).where(PhaseRow.game_id == game.id).order_by(PhaseRow.id.desc())))
    done = [r for r in rows if r.status == "processed"]
    if not done:
        raise GameError(_("there is no earlier phase to go back to"), "NO_EARLIER_PHASE")
    previous = done[0] if phase is None else next((r for r in done if r.name == phase), None)
    if previous is None:
        raise GameError(_("not rolled back: {game} is in {current} and has not processed {phase}: ROLLBACK names "
                          "the phase to go back to, {before} (the one before) or an earlier one", game=game.name,
                          current=game.phase, phase=phase, before=done[0].name), "NOT_PROCESSED")
    return previous, [row for row in rows if row.id > previous.id]


def drop_phase(session: Session, game: Game, row: PhaseRow) -> None:
    """A phase a ROLLBACK went back before: its row and its submissions."""
    session.execute(delete(Submission).where(Submission.game_id == game.id, Submission.phase == row.name))
    session.delete(row)


REOPENED = "reopened"
"""The key of the game's settings that counts, by phase name, the times a ROLLBACK opened it again
(`reopened`): by name, as a game's record carries it to another judge."""


def reopen(session: Session, game: Game, row: PhaseRow, now: datetime) -> None:
    """The phase of ``row``, processed, open again after a ROLLBACK: its results forgotten, its
    reminders due again, the game paused in it with the phase's whole length (or its weekly
    clock's next time) before its deadline; counted (`reopened`)."""
    counts = game.settings.get(REOPENED, {})
    game.settings = {**game.settings, REOPENED: {**counts, row.name: int(counts.get(row.name, 0)) + 1}}
    row.status, row.result, row.processed_at, row.notices = "open", None, None, None
    records.forget_from(session, game, row.id)  # the phases played again count once (`judge.service.hosting.records`)
    session.flush()
    game.phase = row.name
    move(game, Event.ROLLBACK)
    move_to(game, phase_deadline(session, game, row.name, now), now)  # a new version of its deadline


def reopened(game: Game, row: PhaseRow) -> int:
    """How many times a ROLLBACK opened the phase of ``row`` again: once processed, it has been
    processed that many times again (its results said so: `judge.service.hosting.course.close`)."""
    return int(game.settings.get(REOPENED, {}).get(row.name, 0))


def status_header(game: Game) -> str:
    """The first line of every STATUS, the players' and the game master's, in every kind: the game,
    its state, its phase (in its kind's words too) and its deadline."""
    label = _kind(game).label(game.phase) if game.phase else ""
    phase = f"{game.phase} ({label})" if label else game.phase or "-"
    return _("game {game}, {state}, phase {phase}, deadline {deadline}", game=game.name, state=state_word(game.state),
             phase=phase, deadline=when(game.deadline))


def seat_status(player: Player | None, out: bool = False) -> str:
    """A seat's player: ``played``, ``vacant`` (its player left), ``dummy``, or ``out`` of the game
    (``out``: nobody can play it again, `is_out`)."""
    return "played" if is_played(player) else "out" if out else "vacant" if player is not None and player.address \
        else "dummy"


def is_out(game: Game, seat: str, player: Player | None) -> bool:
    """Whether ``seat``, which nobody plays, can never have a player again (its kind says why:
    `judge.service.hosting.kinds.Lobby.no_new_player`, Machiavelli's eliminated country, Exchange's
    investor who resigned): it is out of the game, never offered as vacant (M65)."""
    session = object_session(game)
    assert session is not None, "a game read in a session"
    return not is_played(player) and _kind(game).no_new_player(session, game, seat) is not None


def seat_state(game: Game, seat: str, player: Player | None) -> str:
    """A seat as the game master's STATUS and LIST show it: played, vacant (its player left), a
    dummy, or out of the game (nobody can play it again, `is_out`), and whether it is open for
    TAKEOVER."""
    if is_out(game, seat, player):
        return _("out of the game")
    state = seat_status(player)
    if not is_played(player) and is_open(game, seat):
        return _("vacant, open for TAKEOVER") if state == "vacant" else _("dummy, open for TAKEOVER")
    return {"played": _("played"), "vacant": _("vacant")}.get(state, _("dummy"))


def public_seat(game: Game, seat: str, player: Player | None) -> Seat:
    """``seat`` as the public pages show it: played, vacant, a dummy or out of the game (`is_out`),
    open for takeover or not; once the game has finished, who played it to the end
    (`public_name`), unless the game is ANONYMOUS, in every kind."""
    status = seat_status(player, is_out(game, seat, player))
    named = status == "played" and game.state == GameState.FINISHED and not rules_of(game).anonymous
    return Seat(seat, status, status not in ("played", "out") and is_open(game, seat),
                public_name(player.address) if named and player is not None and player.address else None)


def public_name(address: str) -> str:
    """How the public pages, the public record and the hall of fame name a player of a finished
    game: its mailbox's part before the "@" (``Alice+dip@Example.org``: ``alice``), never an
    address (the end mail gives the players the whole address; a page, read by anyone, never does).
    Two people may share a name: the hall of fame keeps them apart by their mailboxes."""
    return mailbox(address).rpartition("@")[0]


def game_facts(game: Game, variant: str, joined: Sequence[Player], seated: Iterable[Seat],
               label: str | None, defaults: Sequence[str] = ()) -> GameFacts:
    """What any page may say of ``game`` (`GameFacts`), as every kind without secrets on its board says
    it: its name, ``variant`` (what it is played on or as), the options its game master set and
    those of them that are its kind's ``defaults`` (which the kind adds at CREATE when none of the
    sort is set: a default is shown as one, whoever wrote it), state, phase (``label``: in words)
    and deadline, winner, who shared its draw (as `judge.service.hosting.course.end` kept them) and result,
    whether it is listed, how many players have ``joined``, and its seats (`public_seat`) in the
    kind's order."""
    options = tuple(game.options or ())
    return GameFacts(name=game.name, variant=variant, options=tuple(o for o in options if o not in defaults),
                     state=game.state, phase=game.phase, deadline=game.deadline, winner=game.winner,
                     result=result_of(game), listed=rules_of(game).listed, joined=len(joined),
                     seats=tuple(seated), phase_title=label, drawn=tuple(game.settings.get("drawn", ())),
                     defaults=tuple(o for o in options if o in defaults))


WAIT = "wait"
"""The submission a seat's WAIT (text ``WAIT``) or NOWAIT (empty) is kept as, in every kind."""


def seats_waiting(session: Session, game: Game) -> list[str]:
    """The played seats whose WAIT stands in the current phase (a later NOWAIT withdraws it), in
    the order of the game's seats: each holds the phase to its deadline (`closes_early`)."""
    if game.phase is None:
        return []
    asked = {seat for (seat, kind), (text, _at) in latest(session, game, game.phase).items() if kind == WAIT and text}
    if not asked:
        return []
    read = Reads.of(session).seats  # the game has started: its seats keep their rows (`Reads`)
    if game.id not in read:
        read[game.id] = seats(session, game)
    return [seat for seat, player in read[game.id].items() if seat in asked and is_played(player)]


def closes_early(session: Session, game: Game, turn: Turn | None = None, now: datetime | None = None) -> bool:
    """Whether the current phase closes now, before its deadline: its kind says it is complete
    (`judge.service.hosting.kinds.Phases.complete`: every seat that can act has sent), and no seat asks it
    to WAIT.  A WAIT holds the phase to its deadline, not through the grace period: from the
    deadline on (``now``, else the mail's time; neither: before it) a phase complete closes as
    without it.  A phase in which no seat has a player (`nobody_plays`) never closes early: a
    newcomer may take a seat over until its deadline, and a game nobody plays does not run
    through its phases at the clock's ticks (ruling H1)."""
    moment = now or (turn.now if turn is not None else None)
    held = moment is None or game.deadline is None or moment < game.deadline
    if held and seats_waiting(session, game):
        return False
    return kind_of(session, game).complete(session, game, turn, now) and not nobody_plays(session, game)


def nobody_plays(session: Session, game: Game) -> bool:
    """Whether no seat of the game has a player (ruling H1): each is vacant (its player left,
    resigned or was declared abandoned), a dummy, or out of the game though its player keeps it
    (`judge.service.hosting.kinds.Lobby.out_of_game`: Machiavelli's eliminated countries)."""
    kind = kind_of(session, game)
    return not any(is_played(player) and not kind.out_of_game(session, game, seat)
                   for seat, player in seats(session, game).items())


def is_due(session: Session, game: Game, now: datetime) -> bool:
    if game.state != GameState.ACTIVE or game.deadline is None:
        return False
    if closes_early(session, game, now=now):
        return True
    return deadline_passed(game, now)


def deadline_passed(game: Game, now: datetime) -> bool:
    """Whether the game's deadline and grace period are over at ``now``."""
    return game.deadline is not None and now >= game.deadline + timedelta(hours=duration(game, "grace"))


def send_notices(session: Session, game: Game, settings: Settings, now: datetime) -> list[str]:
    """Remind the seats still to act (within ``reminder`` hours of the deadline, and each day
    before it where the game's policy says so: `judge.service.hosting.silence`), or tell them they are
    late (after it, during the grace period), saying what happens next as the policy makes it
    (ruling H3: an automatic extension left is named); each kind of notice once per phase, and
    each seat alone: one mail to each, naming nobody else.  With the late alerts, a kind that
    `confirms_letters` confirms each part received to its seat alone (M59, M66)."""
    row = current_phase(session, game)
    if row is None or game.state != GameState.ACTIVE or game.deadline is None:
        return []
    notices = row.notices or []
    remind, mark = reminder_time(game, row), None
    if now >= game.deadline:
        which = "late"
    elif remind is not None and now >= remind and "reminder" not in notices:
        if silence.reminded_that_day(game, row, remind):  # one reminder a day: it counts as sent
            row.notices = [*notices, "reminder"]
            return []
        which = "reminder"
    elif (daily := silence.daily_due(game, row, remind, now)) is not None:  # SET SILENCE DAILY
        which, mark = "reminder", silence.daily_mark(daily)
    else:
        return []
    if which in notices and mark is None:
        return []
    row.notices = [*notices, mark or which]
    game_kind = kind_of(session, game)
    seat = seats(session, game)
    told = []
    grace = timedelta(hours=duration(game, "grace"))
    until = game.deadline + grace
    policy = silence.extension_left(game, row) if which == "late" else None
    extended = silence.extended_to(policy, game.deadline, grace) if policy is not None else None
    waiting = game_kind.waiting(session, game)
    for name in waiting:
        player = seat[name]
        assert player.address is not None
        with writing_to(session, settings, player.address, game):  # each seat's notice in its reader's language
            body = game_kind.notice(session, game, row, name, which, until, extended)
            queue(session, settings, to=player.address, subject=_notice_subject(game, row.name, which), body=body,
                  kind=which, now=now, game_id=game.id, opens=name)  # its form to fill, as the phase's opening had
        told.append(name)
    if which == "late" and game_kind.confirms_letters:  # M59: each letter in confirmed, to its seat alone
        for name, player in seat.items():
            if name in waiting or not is_played(player) or player.address is None:
                continue
            with writing_to(session, settings, player.address, game):
                body = game_kind.notice(session, game, row, name, "received", until, extended)
                if body != "":
                    queue(session, settings, to=player.address, subject=_notice_subject(game, row.name, "received"),
                          body=body, kind="notice", now=now, game_id=game.id)
    return told


def _notice_subject(game: Game, phase: str, which: str) -> str:
    """The subject of a seat's reminder, late alert or confirmation of its letter, in its reader's language."""
    if which == "reminder":
        return _("{game} {phase} reminder", game=game.name, phase=phase)
    if which == "late":
        return _("{game} {phase} late", game=game.name, phase=phase)
    return _("{game} {phase} received", game=game.name, phase=phase)


def reminder_time(game: Game, row: PhaseRow) -> datetime | None:
    """When the seats still to act are reminded: ``reminder`` hours before the deadline (set by
    the game master; by default 24, or half the phase for phases shorter than two days).  None
    if that is not after the phase opened: a reminder never comes with the mail that opened it."""
    assert game.deadline is not None
    on_the_clock = "clock" in game.settings and rule_for(game, _kind(game).length_of(row.name)) is not None
    length = game.deadline - row.opened_at if on_the_clock else phase_duration(game, row.name)
    default = timedelta(hours=24) if length >= timedelta(hours=48) else length / 2
    ahead = timedelta(hours=float(game.settings["reminder"])) if "reminder" in game.settings else default
    moment = game.deadline - ahead
    return moment if moment > row.opened_at else None
