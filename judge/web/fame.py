"""What the public pages keep of the games that have ended, whatever their kind: each one's end
publication and public record beside its pages, and the hall of fame of them all.

Theory of operation.  A game's end publishes everything its rules kept secret (`judge.service.hosting.course`),
in a mail to its players, master and observers; once it has ended the host also writes it into
the game's folder, as anyone reads it (``publication.html``, `judge.service.hosting.archive.publication_text`),
with the game's public record (``record.json``, `judge.service.hosting.archive.public_record`), for
every kind alike; the head of each game's page links to both once it has ended (the ``summary``
macro).  The hall of fame (``halloffame.html``, linked from the index) lists the finished games
by kind, each with how it ended, its standings by its kind's rules (`Pages.standings`: Payola's
supply centers, Machiavelli's ranking by 4.2, Exchange's % control by E35; none for a game that
ended deserted, ruling H1) with each seat's scores and money (`judge.service.hosting.scores`, as
its public record keeps them) and who played which
seat, as the pages name the players (`judge.service.hosting.host.public_name`, never an address), and
then each player's placings across them: games won, drawn and played, and each place; and the
players' ratings (`rated`), across every kind and in each, as `judge.service.hosting.ratings` keeps them.

A person is a mailbox (ruling H4): the placings are keyed by it, never by the name shown, so two
people who share a name are two rows, and each game's seat links to its player's row (its
``id`` keyed with the judge's secret, `judge.service.hosting.records.named`, so that no address can be
worked out from it).  The placings are read from the players' records (their ``finished``
lines, `judge.service.hosting.records.finished`): a game that counts for nobody's record (started and
ended within a day, or with no phase played) places nobody, and the hall of fame and a record
agree by construction.  An ANONYMOUS game names nobody and places nobody.  The hall is written
with the index, from what the index reads, and two queries: when each game ended, and its
players' ``finished`` lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from judge.language import gettext as _
from judge.service.hosting import ratings, records, scores
from judge.service.hosting.archive import public_record, publication_text, scored
from judge.service.rating import Rating
from judge.service.states import GameState
from judge.store.models import Game, PhaseRow, PlayerRecord, RatingRow
from judge.web import public


@dataclass(frozen=True)
class Ended:
    """A finished game's end publication and public record, for its folder."""

    name: str
    publication: str
    record: dict[str, Any]


def gather(session: Session, game: Game) -> Ended | None:
    """What a finished game's folder holds beside its kind's pages; None while it runs."""
    if game.state != GameState.FINISHED or game.phase is None:
        return None
    return Ended(game.name, publication_text(session, game), public_record(session, game))


@dataclass(frozen=True)
class Placing:
    """A player's placings across the finished games, as the pages name the player (``player``),
    in the row ``anchor`` of the page (one for each mailbox: `records.named`): games played, won
    and drawn, and each place the game's kind gave (`Pages.standings`: "1st of 3 in g1")."""

    player: str
    anchor: str
    played: int
    won: int
    drawn: int
    places: tuple[str, ...] = ()


def ordinal(place: int) -> str:
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def hall(session: Session, games: Sequence[Game], facts: Sequence[public.GameFacts],
         titles: dict[str, str]) -> dict[str, Any]:
    """The hall of fame's content: the finished, listed games by kind (``titles``: each kind's
    title), newest first, each seat with the row of its player's placings if the game placed
    them, and each player's placings, one row a mailbox."""
    finished = [(game, fact) for game, fact in zip(games, facts, strict=True)
                if fact.finished and fact.listed and game.phase is not None]
    ids = [game.id for game, _ in finished]
    ended: dict[int, datetime] = dict(session.execute(  # type: ignore[arg-type]
        select(PhaseRow.game_id, func.max(PhaseRow.processed_at)).where(PhaseRow.game_id.in_(ids))
        .group_by(PhaseRow.game_id)).all()) if ids else {}
    placed: dict[tuple[int, str], str] = {(game_id, seat): box for game_id, seat, box in session.execute(
        select(PlayerRecord.game_id, PlayerRecord.seat, PlayerRecord.address).where(
            PlayerRecord.game_id.in_(ids), PlayerRecord.what == "finished"))} if ids else {}
    key = records.page_key(session) if placed else b""
    kinds: dict[str, list[dict[str, Any]]] = {}
    placings: dict[str, Placing] = {}
    for game, fact in sorted(finished, key=lambda pair: (ended.get(pair[0].id) or datetime.min, pair[0].name),
                             reverse=True):
        shown = public.summary(fact)
        scoring = scored(session, game, fact)  # none for a deserted game, ruling H1
        standings = scoring.seats
        place = {standing.seat: standing for standing in standings}
        anchors: dict[str, str] = {}
        for seat in fact.seats:
            box = placed.get((game.id, seat.name))
            if not seat.played_by or box is None:
                continue
            anchors[seat.name] = records.named(key, box, "fame")
            known = placings.get(box, Placing(seat.played_by, anchors[seat.name], 0, 0, 0))
            placed_at = place.get(seat.name)
            placings[box] = Placing(
                known.player, known.anchor, known.played + 1, known.won + (seat.name == fact.winner),
                known.drawn + (seat.name in fact.drawn),
                known.places + ((f"{ordinal(placed_at.place)} of {len(standings)} in {game.name}",)
                                if placed_at else ()))
        kinds.setdefault(titles.get(game.kind, game.kind), []).append(shown | {
            "ended": ended.get(game.id),
            "seats": [seat | ({"player": anchors[seat["name"]]} if seat["name"] in anchors else {})
                      for seat in shown["seats"]],
            "centred": scoring.centred, "dss_shared_by": scoring.basis.value if scoring.basis else None,
            "standings": [{"seat": s.seat, "place": ordinal(s.place), "score": s.standing, "money": s.money,
                           "dss": scores.shown(s.dss), "sos": scores.shown(s.sos),
                           "c_diplo": scores.shown(s.c_diplo)}
                          for s in standings]})
    ranked = sorted(placings.values(), key=lambda p: (-p.won, -p.drawn, -p.played, p.player, p.anchor))
    return {"kinds": sorted(kinds.items()), "placings": ranked, "ratings": rated(session, placings, titles)}


def rated(session: Session, placings: dict[str, Placing], titles: dict[str, str]) -> list[dict[str, Any]]:
    """The ratings of the players the hall names (``placings``, by mailbox), best first: one table
    across every kind, then one for each kind (`judge.service.hosting.ratings`); a player the hall
    does not name (who played only unlisted or anonymous games) is in none."""
    if not placings:
        return []
    found: dict[str, list[dict[str, Any]]] = {}
    for row in session.scalars(select(RatingRow).where(RatingRow.person.in_(list(placings)))):
        rating = Rating(row.mu, row.sigma, row.games)
        found.setdefault(row.kind, []).append({
            "player": placings[row.person].player, "anchor": placings[row.person].anchor, "figure": rating.figure,
            "games": rating.games, "provisional": rating.provisional})
    return [{"title": _("Every kind") if kind == ratings.OVERALL else titles.get(kind, kind),
             "rows": sorted(rows, key=lambda r: (-r["figure"], -r["games"], r["player"], r["anchor"]))}
            for kind, rows in sorted(found.items())]
