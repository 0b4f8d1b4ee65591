"""The course of every game, whatever its kind: its start, the closing of each phase, ROLLBACK and
ROLLFORWARD, and its end with the publication of what the rules kept secret — each written once,
here, for every kind.

Theory of operation.  A kind supplies its rules and nothing of a game's course: `Phases.start`
seats the players and opens the first phase, `Phases.process` closes the open phase and says what
it did (a `PhaseChange`: the next phase, or None when the game is over, with its winner and its
result in words), `Phases.publication` says what its end publishes.  The host moves the game's
state around them (`judge.service.states.move`, the only writer of ``games.state``): START
after a kind's start, END when a phase's closing ends the game, a vote ends it (`end`) or the game
master's TERMINATE does (`terminate`), ROLLBACK when a game goes back (`roll_back`), and RESUME
when the phase a ROLLBACK went back to is processed again (`close`).

A ROLLBACK leaves its marks in the game's settings (``rollback``: the phase gone back to, when its
first results went out, and the last submission then).  While they stand, the phase's closing
is told it is processed *again* (`Closing.again`): every mail of it says that its results replace
the earlier ones, and its subject says so (`Closing.subject`), in every kind.  ROLLFORWARD
(`roll_forward`) processes that phase again as it was, unless anything was sent since (the
host's submissions) or the kind's own records changed (`Phases.changed_since_rollback`): the
players were invited to change their orders, and ROLLFORWARD must not silently discard them.  A
restore of the judge that takes a game back to a phase processed since its backup leaves the same
marks, with the backup's time (``restored``): the phase's results say the judge was restored.

The end (`end`, `terminate`) is the same for every kind: the game's result and winner are kept,
its deadline cleared, its story told (`host.record`), and one mail goes to every player who
played, the game master and the observers (`publish`): the result, what the kind's publication
says (everything its rules kept secret while the game ran), and who played which seat, with
addresses as each reader may know them (`host.who_played`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from judge.language import Stored, later, worded
from judge.language import gettext as _
from judge.service.config import Settings
from judge.service.hosting import host, ratings, records, silent_seats
from judge.service.hosting.kinds import Closing, PhaseChange, Publication, kind_of
from judge.service.hosting.turn import Said, said
from judge.service.outgoing.outbox import queue
from judge.service.outgoing.preferences import language_of, writing_to
from judge.service.states import RUNNING, Event, GameError, GameState, move, state_of
from judge.service.templates import render, seat_word, when
from judge.store.models import Game, GreyPress, Submission

ROLLBACK = "rollback"
"""The key of the game's settings where a ROLLBACK keeps its marks (`RolledBack`)."""
AHEAD = "ahead"
"""The key of the game's settings where the lines sent ahead for the phase now leave their mark when it
opens (`judge.service.incoming.handlers.ahead`: the phase and the seats whose lines were read), so that its
results say the phase was played from them."""


@dataclass(frozen=True)
class RolledBack:
    """What a ROLLBACK left to know while its phase is open again: the phase it went back to, when
    that phase's first results went out (None: unknown), and the last submission then; ``restored``,
    the time of the backup, when it was a restore of the judge that took the game back
    (`judge.service.operators.backup.tell_taken_back`), not the game master."""

    phase: str
    processed: datetime | None
    submission: int
    restored: datetime | None = None

    @staticmethod
    def of(game: Game) -> RolledBack | None:
        """The marks of the ROLLBACK the game is in, if it is in one."""
        kept = game.settings.get(ROLLBACK)
        if not isinstance(kept, dict) or kept.get("phase") != game.phase:
            return None
        first, restored = kept.get("processed"), kept.get("restored")
        return RolledBack(str(kept["phase"]), datetime.fromisoformat(first) if first else None,
                          int(kept.get("submission") or 0), datetime.fromisoformat(restored) if restored else None)

    def data(self) -> dict[str, Any]:
        marks = {"phase": self.phase, "processed": self.processed.isoformat() if self.processed else None,
                 "submission": self.submission}
        return marks | ({"restored": self.restored.isoformat()} if self.restored else {})


def start(session: Session, game: Game, settings: Settings, now: datetime) -> None:
    """START: the kind seats the players and opens the first phase (`GameError` if it cannot),
    then the game is active."""
    if game.state != GameState.FORMING:
        raise GameError(_("the game has already started"), "ALREADY_STARTED")
    kind_of(session, game).start(session, game, settings, now)
    move(game, Event.START)


def close(session: Session, game: Game, settings: Settings, now: datetime, *, cause: str,
          preface: Said | None = None) -> PhaseChange:
    """Close the open phase (at its deadline, on PROCESS or ROLLFORWARD, or once it is complete):
    the kind processes it and opens the next; the game ends here if that was its last.  ``cause``
    says why, for the log; ``preface``, what every mail of the closing says first (in each reader's
    language, as every note of the `Closing` is).  A phase a ROLLBACK went back to ends the
    ROLLBACK's pause, and its results say they replace the first ones."""
    if game.state not in RUNNING:
        raise GameError(_("the game is not running"), "NOT_RUNNING")
    marks = RolledBack.of(game)
    notes: list[Said] = [preface] if preface else []
    if marks is not None:
        if state_of(game) is GameState.PAUSED:
            move(game, Event.RESUME)  # before processing: the notice sent ahead of the results says so
        notes.append(_replaced(marks))
    ahead = game.settings.get(AHEAD)
    if isinstance(ahead, dict) and ahead.get("phase") == game.phase:
        notes.append(_played_ahead(game.phase, every_seat=cause == "all submitted"))
    game.settings = {key: value for key, value in game.settings.items() if key not in (ROLLBACK, AHEAD)}
    last = silent_seats.deserted(session, game)  # H1: nobody came during the whole phase, the game's last
    if last is not None:
        notes.append(last.note)
    closing = Closing(cause, tuple(notes), again=marks is not None)
    with silent_seats.closing(session, game, settings, now):  # each seat's record of the phase; silent seats
        change = kind_of(session, game).process(session, game, settings, now, closing)
        if change.next_phase is None:
            end(session, game, settings, now, change.result or later("the game has ended"), change.winner,
                preface=(lambda: closing.preface or "") if closing.notes else None, closed=True, drawn=change.drawn)
    if change.next_phase is None:
        ratings.catch_up(session)  # once the closing has written its phase's lines in the records
    if change.next_phase is not None and (result := last.result if last is not None else
                                          silent_seats.desertion(session, game, change.phase)):
        end(session, game, settings, now, result, deserted=True)  # H1
        return PhaseChange(change.phase, None, None, result)
    return change


def _replaced(marks: RolledBack) -> Said:
    """The note of results that replace earlier ones (a ROLLBACK's, or a restore's), in each reader's language."""
    phase, restored = marks.phase, when(marks.restored) if marks.restored is not None else None
    sent = when(marks.processed) if marks.processed else None

    def note() -> str:
        if restored is not None and sent is not None:
            return _("These results replace the earlier results of {phase}, sent {sent}: the judge was restored from "
                     "its backup of {backup}, made before {phase} was processed, and it has been processed again.",
                     phase=phase, sent=sent, backup=restored)
        if restored is not None:
            return _("These results replace the earlier results of {phase}: the judge was restored from its backup "
                     "of {backup}, made before {phase} was processed, and it has been processed again.",
                     phase=phase, backup=restored)
        if sent is not None:
            return _("These results replace the earlier results of {phase}, sent {sent}: the game master rolled the "
                     "game back to {phase}, and it has been processed again.", phase=phase, sent=sent)
        return _("These results replace the earlier results of {phase}: the game master rolled the game back to "
                 "{phase}, and it has been processed again.", phase=phase)
    return note


def _played_ahead(phase: str | None, *, every_seat: bool) -> Said:
    """The note of a phase some (``every_seat``: all) of whose orders were given ahead, in each reader's language."""
    if every_seat:
        return lambda: _("{phase} was played from orders given ahead: lines sent before it opened (PHASE {phase}) "
                         "were read when it opened, and it closed before its deadline once every seat that had to "
                         "act had sent its part.", phase=phase)
    return lambda: _("Some orders of {phase} were given ahead: lines sent before it opened (PHASE {phase}) were read "
                     "when it opened, as if sent then.", phase=phase)


def end(session: Session, game: Game, settings: Settings, now: datetime, result: Stored, winner: str | None = None,
        *, preface: Said | None = None, closed: bool = False, drawn: Sequence[str] = (),
        deserted: bool = False) -> Publication | None:
    """The game is over (its last phase closed: ``closed``; a vote of its players, TERMINATE; or
    nobody playing it: ``deserted``, ruling H1): its result, its winner and who shared its draw
    (``drawn``, kept in its settings for its record and the hall of fame) kept (``result``: a stored wording,
    `judge.language.later`, worded in each reader's language; a plain string is shown as it is), its story told, its
    players' records told it finished if it counts (`records.finished`; a deserted game counts on
    nobody's record), and everything its rules kept secret published to everyone who played, its
    master and its observers (`publish`), once it has started, and its players rated
    (`judge.service.hosting.ratings`).  Returns what was published (None:
    the game had not started)."""
    started = game.phase is not None
    move(game, Event.END)
    game.deadline = None
    game.winner = winner
    game.settings = {key: value for key, value in game.settings.items() if key not in (ROLLBACK, silent_seats.UNPLAYED)
                     } | {"result": result} | ({"drawn": list(drawn)} if drawn else {}) | (
                         {silent_seats.DESERTED: True} if deserted else {})
    host.record(game, result)
    if not started:
        return None
    if not deserted:
        records.finished(session, game, now, closed=closed)
    kind = kind_of(session, game)
    publication = kind.publication(session, game)
    publish(session, game, settings, now, subject=lambda: _("{game} has ended", game=game.name),
            headline=lambda: _("has ended: {result}", result=worded(result)),
            publication=lambda: kind.publication(session, game), preface=preface)
    if not closed:  # a closing rates the game once its phase's lines are written (`close`)
        ratings.catch_up(session)
    return publication


def terminate(session: Session, game: Game, settings: Settings, now: datetime, reason: Stored) -> Publication | None:
    """TERMINATE: the kind closes what is open (`Phases.terminated`), then the game ends, nobody
    winning; what its end published (None: it had not started)."""
    if game.state == GameState.FINISHED:
        raise GameError(_("the game has already ended"), "GAME_ENDED")
    if game.phase is not None:
        kind_of(session, game).terminated(session, game, now)
    return end(session, game, settings, now, reason)


def publish(session: Session, game: Game, settings: Settings, now: datetime, *, subject: Said, headline: Said,
            publication: Publication | Callable[[], Publication], preface: Said | None = None) -> None:
    """Mail ``publication`` to every player who played the game (those who left a seat, kept by
    `host.left_seat`, as those who hold one now), its master and its observers, each with who played
    which seat as that reader may know it (`host.who_played`: addresses for the players and the
    master, unless the game is ANONYMOUS for the players).  Each reader's mail is written in that
    reader's language (`writing_to`), once per language and kind of reader: ``subject``, ``headline``,
    ``preface`` and ``publication`` given as functions are called in it (a text stays as given)."""
    kind = kind_of(session, game)
    playing = {player.address for player in host.players(session, game) if player.address} | {
        str(held["address"]) for held in game.settings.get("played", [])}
    bodies: dict[tuple[str, str], tuple[str, str]] = {}  # (reader, language) -> subject, body
    order = {seat: at for at, seat in enumerate(kind.seat_order(session, game))}
    for address in sorted(playing | {game.gm_address} | set(host.observers(session, game))):
        reader = "master" if address == game.gm_address else "player" if address in playing else "anyone"
        with writing_to(session, settings, address, game):
            key = (reader, language_of(session, settings, address, game))
            if key not in bodies:
                who = sorted(host.who_played(session, game, reader), key=lambda held: order.get(held[0], len(order)))
                published = publication() if callable(publication) else publication
                bodies[key] = said(subject), render(
                    "end", game=game, headline=said(headline), preface=said(preface) if preface is not None else None,
                    publication=published, grey=grey_press(session, game, kind.seat_title),
                    who=[(kind.seat_title(seat), held) for seat, held in who], seat_word=seat_word(kind.seat_word))
            title, body = bodies[key]
            queue(session, settings, to=address, subject=title, body=body, kind="end", now=now, game_id=game.id)


def grey_press(session: Session, game: Game, title: Callable[[str], str]) -> list[str]:
    """Every grey press sent in the game so far, with its author: when, in which phase, from whom to
    whom (its readers never learned who sent it; the end publishes it, M63)."""
    lines = []
    for phase, sent_at, author, readers in session.execute(
            select(GreyPress.phase, GreyPress.sent_at, GreyPress.author, GreyPress.readers)
            .where(GreyPress.game_id == game.id).order_by(GreyPress.id)):
        to = ", ".join(_("the game master") if reader == "MASTER" else title(reader) for reader in readers)
        lines.append("  " + _("{phase}, {moment}: from {author} to {readers}", phase=phase or "-", moment=when(sent_at),
                              author=title(author), readers=to or _("nobody")))
    return lines


def roll_back(session: Session, game: Game, settings: Settings, now: datetime, phase: str | None) -> str:
    """ROLLBACK: go back to the phase processed last, or to the processed phase ``phase``; the
    kind brings back its own records (`Phases.rolling_back`; a kind without ROLLBACK refuses there,
    saying why), the later phases and their submissions are dropped, and the phase is open again,
    the game paused in it, its marks kept for its processing again and for ROLLFORWARD.  Returns
    the phase's name."""
    previous, later = host.rollback_target(session, game, phase)
    kind = kind_of(session, game)
    kind.rolling_back(session, game, previous, later)
    for row in later:
        host.drop_phase(session, game, row)
    first = previous.processed_at
    host.reopen(session, game, previous, now)
    last = session.scalar(select(func.max(Submission.id)).where(Submission.game_id == game.id)) or 0
    game.settings = {**game.settings, ROLLBACK: RolledBack(previous.name, first, last).data()}
    session.flush()
    kind.rolled_back(session, game, settings, now)
    return previous.name


def rolling_forward(session: Session, game: Game) -> str:
    """The phase ROLLFORWARD would process again as it was rolled back; `GameError`, naming who,
    once anyone has sent anything in it or the kind's own records changed since the ROLLBACK: the
    players were invited to change their orders, and ROLLFORWARD must not silently discard them
    (PROCESS processes the phase with them)."""
    marks = RolledBack.of(game)
    if game.state == GameState.FINISHED or marks is None:
        raise GameError(_("there is no ROLLBACK to undo in this phase"), "NO_ROLLBACK")
    kind = kind_of(session, game)
    sent = set(session.scalars(select(Submission.seat).where(
        Submission.game_id == game.id, Submission.phase == marks.phase, Submission.id > marks.submission)))
    changes = [_("{seats} sent something in this phase", seats=", ".join(
        _in_order(kind.seat_order(session, game), sent, kind.seat_title)))] if sent else []
    if why := kind.changed_since_rollback(session, game):
        changes.append(why)
    if changes:
        raise GameError(_("not undone: since the ROLLBACK, {changes}, which ROLLFORWARD would discard; PROCESS "
                          "processes {phase} with them as they are now", changes="; ".join(changes),
                          phase=marks.phase), "CHANGED_SINCE_ROLLBACK")
    return marks.phase


def roll_forward(session: Session, game: Game, settings: Settings, now: datetime, *,
                 preface: Said | None = None) -> PhaseChange:
    """ROLLFORWARD: undo a ROLLBACK by processing its phase again as it was, unless that is refused
    (`rolling_forward`)."""
    rolling_forward(session, game)
    game.deadline = None  # the phase is processed at once: no deadline of it stands
    return close(session, game, settings, now, cause="master's ROLLFORWARD", preface=preface)


def _in_order(order: Sequence[str], seats: set[str], title: Callable[[str], str]) -> list[str]:
    """``seats`` in the game's order of seats, as answers write them."""
    return [title(seat) for seat in sorted(seats, key=lambda seat: (order.index(seat) if seat in order else len(order),
                                                                    seat))]
