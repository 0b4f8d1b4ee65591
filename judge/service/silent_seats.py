"""What the judge does by itself when a phase closes, and about the seats that stay silent: each
played seat's line in its player's record, the automatic extensions, and the abandoned seats.

Theory of operation.  Every phase a kind closes (at the deadline, on the game master's PROCESS,
once complete, or processed again by ROLLFORWARD) closes inside `closing`: it reads, before the
kind closes the phase, which played seats were due to act and whether they did by the deadline
(`_outcomes`), and once the kind has closed it writes their lines in the players' records
(`judge.service.records`) and applies the game's policy (`judge.service.silence`): a seat whose
player has missed ``abandon`` deadlines in a row is declared abandoned (`abandon`).  Its player
leaves it (as by RESIGN, but told why), it opens for TAKEOVER by anyone not already playing in the
game, everyone (observers too) is told, and its kind says what its orders are meanwhile (its
rules for a seat that sends nothing: `judge.service.kinds.Lobby.abandoned`).  A game that ends
there gives its players a ``finished`` line.

Before that, when the deadline and grace have passed and a played seat has still not acted, the
clock extends the deadline (`extend`) instead of processing, as often as the policy allows, and
tells everyone who is late, as njudge does.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from judge.service import host, records, silence
from judge.service.config import Settings
from judge.service.deadlines import move_to, rule_for
from judge.service.kinds import kind_of
from judge.service.outbox import queue
from judge.service.states import RUNNING, GameState
from judge.service.templates import duration, render, when
from judge.store.models import Game, PhaseRow, Submission


@contextmanager
def closing(session: Session, game: Game, settings: Settings, now: datetime) -> Iterator[None]:
    """Around a kind's closing of the game's phase (`judge.service.course.close`): the seats' lines in
    their records and the seats abandoned (the game's end is in the records too: `course.end`).
    Nothing is written if the closing raises."""
    row = host.current_phase(session, game)
    seen = _outcomes(session, game, row, now) if row is not None and game.state in RUNNING else []
    yield
    if row is None:
        return
    for seat, address, what in seen:
        records.keep(session, game, seat, address, what, now, row.name, row.id)
    if game.state == GameState.FINISHED:
        return
    session.flush()
    policy = silence.policy_of(game)
    if policy is None or not policy.abandon or game.state not in RUNNING:
        return
    seats = host.seats(session, game)
    for name in (name for name, _, what in seen if what == "missed"):
        player = seats.get(name)
        if player is not None and host.is_played(player) and player.address is not None and (
                misses := records.missed_in_a_row(session, game, name, player.address)) >= policy.abandon:
            abandon(session, game, settings, now, name, misses, row)


def _outcomes(session: Session, game: Game, row: PhaseRow, now: datetime) -> list[tuple[str, str, str]]:
    """Each played seat due to act in the phase of ``row``, its player's address, and whether it
    acted by the deadline (``on_time``), after it (``late``) or not at all (``missed``, only once the
    deadline has passed: a phase closed early misses nobody).  A seat that had nothing to do, or
    whose player took it over during the phase, has no line."""
    kind = kind_of(session, game)
    due_by = silence.on_time_by(game, row)
    waiting = set(kind.waiting(session, game))
    first = dict(session.execute(
        select(Submission.seat, func.min(func.coalesce(Submission.accepted_at, Submission.created_at)))
        .where(Submission.game_id == game.id, Submission.phase == row.name).group_by(Submission.seat)).all())
    found = []
    for name, player in host.seats(session, game).items():
        if not host.is_played(player) or player.address is None or player.joined_at > row.opened_at or \
                kind.out_of_game(session, game, name):
            continue
        if name in waiting:
            if due_by is not None and now >= due_by:
                found.append((name, player.address, "missed"))
        elif name in first:
            found.append((name, player.address, "on_time" if due_by is None or first[name] <= due_by else "late"))
    return found


def extend(session: Session, game: Game, settings: Settings, now: datetime) -> str | None:
    """At the deadline and grace: extend the deadline by the policy's ``extension`` hours if a
    played seat has still not acted and the phase has extensions left, telling everyone (observers
    too) who is late; what the log says of it, or None (the phase is processed)."""
    policy = silence.policy_of(game)
    row = host.current_phase(session, game)
    if policy is None or not policy.extensions or row is None or game.deadline is None:
        return None
    granted = len(silence.extensions(row)) + 1
    if granted > policy.extensions:
        return None
    kind = kind_of(session, game)
    seat = host.seats(session, game)
    late = [name for name in kind.waiting(session, game) if host.is_played(seat.get(name))]
    if not late:
        return None
    before, length = game.deadline, timedelta(hours=policy.extension)
    after = before + length if before + length > now else now + length
    move_to(game, after, now)
    row.notices = [*(row.notices or []), silence.extension_mark(before, after), silence.daily_mark(now)]
    names = ", ".join(kind.seat_title(name) for name in late)
    verb = "has" if len(late) == 1 else "have"
    tell_everyone(session, settings, game, now, [
        f"{row.name} extended: {names} {verb} not acted yet, so the deadline of {row.name} is extended by "
        f"{duration(policy.extension)} to {when(after)} (automatic extension {granted} of {policy.extensions})"])
    host.record(game, f"deadline extended to {when(after)}: {names} late")
    return f"{game.name} {row.name} extended to {after:%Y-%m-%d %H:%M} UTC: {names} late"


def abandon(session: Session, game: Game, settings: Settings, now: datetime, seat: str, misses: int,
            row: PhaseRow) -> None:
    """Declare ``seat`` abandoned: its player leaves it and is told why, it opens for TAKEOVER, its
    record and the game's story keep it, and everyone is told, with what its kind does with it
    meanwhile."""
    kind = kind_of(session, game)
    title = kind.seat_title(seat)
    player = host.seats(session, game)[seat]
    address = player.address
    assert address is not None
    host.left_seat(game, player)
    player.resigned = True
    game.settings = {**game.settings, "open": sorted({*game.settings.get("open", []), seat}),
                     "abandoned": {**game.settings.get("abandoned", {}), seat: address}}
    records.keep(session, game, seat, address, "abandoned", now, row.name, row.id)
    host.record(game, f"{title} declared abandoned after {misses} missed deadlines in a row")
    meanwhile = kind.abandoned(session, game, seat)
    queue(session, settings, to=address, subject=f"{game.name}: {title} declared abandoned", kind="notice", now=now,
          game_id=game.id, body=render("abandoned", game=game, title=title, seat=seat, misses=misses,
                                       meanwhile=meanwhile))
    tell_everyone(session, settings, game, now, [
        f"{title} declared abandoned: it missed {misses} deadlines in a row; {meanwhile}. Anyone not playing in "
        f"{game.name} may take it over: TAKEOVER {seat}@{game.name} password"])


def tell_everyone(session: Session, settings: Settings, game: Game, now: datetime, news: list[str]) -> None:
    """Mail ``news`` to every player of the game, its game master and its observers: what anyone
    watching the game may know (never a player's address)."""
    played = {p.address for p in host.seats(session, game).values() if host.is_played(p) and p.address}
    readers = sorted(played | {game.gm_address}) + [a for a in host.observers(session, game)
                                                     if a not in played and a != game.gm_address]
    subject = f"{game.name}: " + news[0].split(": ", 1)[0]
    body = render("announcement", game=game, news=news)
    for address in readers:
        queue(session, settings, to=address, subject=subject[:200], kind="announcement", now=now, game_id=game.id,
              body=body)


def lines(session: Session, game: Game) -> list[str]:
    """What STATUS and the start's announcement say of the game's clock, its policy for silent seats
    and its entry gates (nothing for a game that has none of them)."""
    kind = kind_of(session, game)
    found = [f"deadlines of {setting} phases: {rule.words()}" for setting in kind.durations
             if (rule := rule_for(game, setting)) is not None]
    policy = silence.policy_of(game)
    if policy is not None:
        found.append(f"silent seats: {policy.words()}")
    found += [f"entry gate: {gate}" for gate in records.gate_words(game)]
    return found

