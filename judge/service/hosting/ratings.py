"""The players' ratings kept by the judge: each finished game rated once, in the order the games ended.

Theory of operation.  The figures are `judge.service.rating`'s (openskill); this module reads what rates a
game and keeps what it gives.  A game is rated when it ends (`catch_up`, in the transaction that ends it)
if it counts for its players' records (`judge.service.hosting.records.counts`: its ``finished`` lines),
is not deserted (H1) nor ANONYMOUS (its players are named nowhere, and a rating that moved at its end
would name them), and its kind gives places (`result`).  Each person (a mailbox, H4) has a rating overall
(kind ``""``) and one in each kind they have played (`RatingRow`).

**What rates a game** is read from the players' records alone, so that a game imported from another
judge, whose records come with it, is rated as it was played: the people of each seat are those with a
line for it (a phase due, an abandonment, the game finished), each with the phases due they played
(their share of the seat, `judge.service.rating.Share`), and an ``abandoned`` line marks one who
abandoned it; the game ended when its ``finished`` lines were written.  The places are the kind's
standings (`Pages.standings`: Payola's centres, Machiavelli's 4.2, Exchange Payola's E35, Pirates' gold),
over which the game's result rules: a winner is first alone, the seats of a draw share first place, and
the others follow in their standings' order, a seat the standings leave out last; a kind with no
standings places a winner first and every other seat second, the seats of a draw first and the rest
second, and rates nobody when neither.

**In the order they ended.**  Ratings depend on the order games are rated in; the judge rates them in
the order they ended (then by game), so that `rebuild`, which forgets every rating and rates every
finished game again in that order, gives exactly the ratings kept game by game.  A game that ends
after every game rated is rated on its own; one that ended before the last rated (a game imported with
an earlier end) makes `catch_up` rebuild them all, so it is rated as if it had ended here then.  The
rows are written under a lock (the judge's ``verp`` secret's row, FOR UPDATE on PostgreSQL; SQLite's
writes are one at a time), so two games ending at once do not rate from the same old figures.

Nothing of a running game moves a rating: only a finished game is rated, after its end has published
everything.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Select, delete, select
from sqlalchemy.orm import Session

from judge.language import gettext as _
from judge.service.hosting.kinds import Kinds, kind_of
from judge.service.hosting.records import PHASE_LINES
from judge.service.hosting.scores import by_result
from judge.service.hosting.silent_seats import DESERTED
from judge.service.mailbox import mailbox
from judge.service.options import rules_of
from judge.service.rating import Rating, Seat, Share, rate
from judge.service.states import GameState
from judge.store.models import Game, PhaseRow, PlayerRecord, RatedGame, RatingRow, Secret

OVERALL = ""
"""The kind of the rating across every kind of game."""


@dataclass(frozen=True)
class Rated:
    """A finished game as the ratings read it: when it ended and its seats' places and players
    (none: it rates nobody)."""

    game: Game
    ended: datetime
    seats: tuple[Seat, ...]


def result(session: Session, game: Game) -> Rated | None:
    """What rates ``game`` (see the module's header); None while it runs or if it never counted."""
    if game.state != GameState.FINISHED:
        return None
    lines = session.execute(select(PlayerRecord.seat, PlayerRecord.address, PlayerRecord.what, PlayerRecord.at,
                                   PlayerRecord.phase_row).where(PlayerRecord.game_id == game.id)).all()
    ends = [at for _seat, _address, what, at, _row in lines if what == "finished"]
    if not ends:
        return None
    if game.settings.get(DESERTED) or rules_of(game).anonymous:
        return Rated(game, min(ends), ())
    phases: dict[tuple[str, str], int] = {}
    left: dict[tuple[str, str], int] = {}
    for seat, address, what, _at, row in lines:
        phases[seat, address] = phases.get((seat, address), 0) + (what in PHASE_LINES)
        if what == "abandoned":
            left[seat, address] = min(row or 0, left.get((seat, address), row or 0))
    closed = list(session.scalars(select(PhaseRow.id).where(PhaseRow.game_id == game.id,
                                                            PhaseRow.status == "processed")))
    places = _places(session, game, sorted({seat for seat, _address in phases}))
    seats = tuple(Seat(seat, place, tuple(
        Share(address, phases[seat, address], (seat, address) in left, _after(closed, left.get((seat, address))))
        for held, address in sorted(phases) if held == seat)) for seat, place in places.items())
    return Rated(game, min(ends), seats)


def _after(closed: Sequence[int], left: int | None) -> float:
    """The share of the game's phases played (``closed``: their rows, in the order they opened) after a
    seat was declared abandoned at the close of the phase of row ``left`` (which is played before); 0 if
    it was not."""
    if left is None or not closed:
        return 0.0
    return sum(row > left for row in closed) / len(closed)


def _places(session: Session, game: Game, seats: Sequence[str]) -> dict[str, int]:
    """Each seat's place: the game's result over its kind's standings (`scores.by_result`), a seat they
    leave out last (see the module's header)."""
    drawn: list[str] = game.settings.get("drawn", [])
    first = [game.winner] if game.winner else list(drawn)
    standings = by_result(kind_of(session, game).standings(session, game), game.winner, drawn)
    if not standings and not first:
        return {}
    places = {standing.seat: standing.place for standing in standings}
    last = max(places.values(), default=1) + 1
    return {seat: 1 if seat in first else places.get(seat, last) for seat in seats}


def catch_up(session: Session) -> None:
    """Rate every finished game not yet rated, in the order they ended; rebuild every rating if one of
    them ended before a game already rated (see the module's header)."""
    session.execute(select(Secret).where(Secret.name == "verp").with_for_update())
    waiting = [found for game in session.scalars(_finished().where(Game.id.not_in(select(RatedGame.game_id))))
               if (found := result(session, game)) is not None]
    if not waiting:
        return
    last = session.execute(select(RatedGame.ended_at, RatedGame.game_id)
                           .order_by(RatedGame.ended_at.desc(), RatedGame.game_id.desc()).limit(1)).first()
    if last is not None and min((found.ended, found.game.id) for found in waiting) < (last[0], last[1]):
        rebuild(session)
        return
    for found in sorted(waiting, key=lambda found: (found.ended, found.game.id)):
        _rate(session, found)


def rebuild(session: Session) -> int:
    """Forget every rating and rate every finished game again, in the order they ended; how many
    games were rated."""
    session.execute(delete(RatingRow))
    session.execute(delete(RatedGame))
    session.flush()
    found = [rated for game in session.scalars(_finished()) if (rated := result(session, game)) is not None]
    for rated in sorted(found, key=lambda rated: (rated.ended, rated.game.id)):
        _rate(session, rated)
    return sum(bool(rated.seats) for rated in found)


def _finished() -> Select[Game]:
    """The finished games that count for their players' records (their ``finished`` lines)."""
    return select(Game).where(Game.state == GameState.FINISHED, Game.id.in_(
        select(PlayerRecord.game_id).where(PlayerRecord.what == "finished")))


def _rate(session: Session, rated: Rated) -> None:
    """Rate one game, overall and in its kind, and mark it rated."""
    session.add(RatedGame(game_id=rated.game.id, ended_at=rated.ended))
    people = {share.person for seat in rated.seats for share in seat.players}
    for kind in (OVERALL, rated.game.kind):
        rows = {row.person: row for row in session.scalars(
            select(RatingRow).where(RatingRow.kind == kind, RatingRow.person.in_(people)))}
        known = {person: Rating(row.mu, row.sigma, row.games) for person, row in rows.items()}
        for person, after in rate(known, rated.seats).items():
            row = rows.get(person) or RatingRow(person=person, kind=kind)
            row.mu, row.sigma, row.games = after.mu, after.sigma, after.games
            session.add(row)
    session.flush()


def title(kinds: Kinds, kind: str) -> str:
    """What a rating's ``kind`` is called: "every kind" overall, else the kind's title (its name, for
    a kind this judge no longer hosts)."""
    if kind == OVERALL:
        return _("every kind")
    try:
        return kinds.named(kind).title
    except KeyError:
        return kind


def of(session: Session, address: str) -> dict[str, Rating]:
    """The ratings of ``address``'s mailbox: overall (``""``) and in each kind it has played."""
    return {row.kind: Rating(row.mu, row.sigma, row.games)
            for row in session.scalars(select(RatingRow).where(RatingRow.person == mailbox(address)))}


def table(session: Session, kind: str = OVERALL) -> list[tuple[str, Rating]]:
    """Every rated person's rating in ``kind`` (``""``: overall), best figure first."""
    rows = session.scalars(select(RatingRow).where(RatingRow.kind == kind))
    found = [(row.person, Rating(row.mu, row.sigma, row.games)) for row in rows]
    return sorted(found, key=lambda pair: (-pair[1].figure, -pair[1].games, pair[0]))
