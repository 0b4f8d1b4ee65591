"""A person's rating across the finished games of the judge: pure figures, from the places each game gave.

Theory of operation.  A rating is what openskill's Bradley-Terry model with full pairing keeps of a player
(Weng and Lin's Bayesian approximation, the family Diplicity's rewrite chose: multi-player ranked outcomes,
ties, no patent): a mean ``mu`` and an uncertainty ``sigma``, 25 and 25/3 for a newcomer.  A finished game
is its seats' places (`Seat`: shared places on a draw, 1, 1, 3), each seat with the people who played it
and the share of its phases each played (`Share`); `rate` gives each of them a new rating, one game at a
time, in the order the games ended, so that the same games always give the same ratings
(`judge.service.hosting.ratings` replays them so).

**Which model, and its luck.**  Bradley-Terry with full pairing reads a game of seven as its 21 pairwise
results (each seat above, level with or below each other), as a multi-player Elo does; Plackett-Luce, the
other model the issue names, reads it as one chain of choices.  On the ratings bench
(``bench/ratings_bench.py``, ``docs/performance/ratings.md``) the pairwise model ranks a community's hidden
skills better on every seed tried, and far better where seats are taken over.  Its ``beta``, how much one
game's performance strays from a player's skill, is 12.5: one and a half times a newcomer's uncertainty
(25/3), the luck the bench assumes of a Diplomacy game (the power drawn, the neighbours and who stabs whom
weigh more than one player's play), where openskill's default (25/6) assumes a game of chess's luck.

A seat played by one person from start to end is openskill's own case: the seat is that person, rated
against the others at its place.  A seat played by several people is, against the others, the blend of
its players by their shares (``mu`` the shares' mean, ``sigma²`` likewise); each of its players is then
rated as if they had played the seat whole against the others as they stood, and **moved by their share
of its phases** (the update scaled by the share: a player who held the seat for a tenth of its phases
takes a tenth of its result's move).  This is what the email judges' JDPR did, sharing a seat's result
among its successive players, and it is how a substitute is not blamed for the position inherited: a
seat taken over late, already lost, weighs on its new player only for the phases they played, and the
earlier player, who lost it, carries the rest.  A person who **abandoned** a seat (declared so by the
silence policy, rulings.md H1-H3) is moved by the seat's place for the share of the game before they
left and by last place, below every seat, for the share after (`Share.after`, the game's phases from
the abandonment on): from the phase they left on, the seat's result is not theirs, whether someone
took it over or it went unplayed, and leaving is the worst result there is.  A person who left a seat
in good order (resigned, replaced by the game master) shares its result by their phases, as any
successive player does.

A rating is shown as one figure (`Rating.figure`): the mean less three times the uncertainty (openskill's
``ordinal``, a figure the player is very likely above), rescaled to read like an Elo rating (1000 for a
newcomer, climbing as the uncertainty shrinks with each game).  Below
`PROVISIONAL` rated games it is provisional: shown as such, and no gate admits on it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import BradleyTerryFull

MODEL = BradleyTerryFull(beta=12.5)
"""openskill's Bradley-Terry model with full pairing (mu 25, sigma 25/3, tau 25/300), ``beta`` 12.5 (see the
module's header)."""
PROVISIONAL = 5
"""Rated games below which a rating is provisional: shown so, and no gate admits on it."""
ELO_BASE = 1000
ELO_SCALE = 40
"""The figure is ``ELO_BASE + ELO_SCALE * (mu - 3 sigma)``: a newcomer's 0 reads 1000."""


@dataclass(frozen=True)
class Rating:
    """What the judge knows of a person's play: ``mu`` and ``sigma`` (openskill's), and the rated games."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0

    @property
    def figure(self) -> int:
        """The conservative figure shown (see the module's header)."""
        return round(ELO_BASE + ELO_SCALE * (self.mu - 3 * self.sigma))

    @property
    def provisional(self) -> bool:
        """Fewer than `PROVISIONAL` rated games: shown as such, and no gate admits on it."""
        return self.games < PROVISIONAL


NEWCOMER = Rating()


@dataclass(frozen=True)
class Share:
    """One person's part in a seat: the seat's phases they played, whether they abandoned it, and if so
    the share of the game's phases played after they did (``after``, 0 to 1)."""

    person: str
    phases: int
    abandoned: bool = False
    after: float = 0.0


@dataclass(frozen=True)
class Seat:
    """A seat's place at the end (1 best; tied seats share it) and the people who played it."""

    name: str
    place: int
    players: tuple[Share, ...]


def rate(known: Mapping[str, Rating], seats: Sequence[Seat]) -> dict[str, Rating]:
    """The new rating of each person who played one of ``seats`` in a game (``known``: the ratings
    before it; a person not in it is a newcomer); see the module's header.  A game of fewer than two
    seats with players moves nobody."""
    played = [seat for seat in seats if _weights(seat)]
    if len(played) < 2:
        return {}
    blends = [_blend(known, seat) for seat in played]
    last = max(seat.place for seat in played) + 1
    moved: dict[str, Rating] = {}
    for at, seat in enumerate(played):
        for share, weight in _weights(seat).items():
            before = known.get(share.person, NEWCOMER)
            if share.abandoned:  # the seat's place until they left, last from then on
                moves = [(1.0 - share.after, _as_seat(before, blends, at, seat.place, played)),
                         (share.after, _as_seat(before, blends, at, last, played))]
            else:
                moves = [(weight, _as_seat(before, blends, at, seat.place, played))]
            moved[share.person] = _moved(before, moves)
    return moved


def _weights(seat: Seat) -> dict[Share, float]:
    """Each player's share of the seat's phases (equal shares if none was counted): one who played
    none of them (took the seat over as the game ended) has no part in its result."""
    total = sum(share.phases for share in seat.players)
    if not total:
        return {share: 1 / len(seat.players) for share in seat.players}
    return {share: share.phases / total for share in seat.players if share.phases}


def _blend(known: Mapping[str, Rating], seat: Seat) -> tuple[float, float]:
    """The seat against the others: its players' ``mu`` and ``sigma²`` averaged by their shares."""
    weights = _weights(seat)
    mu = sum(weight * known.get(share.person, NEWCOMER).mu for share, weight in weights.items())
    variance = sum(weight * known.get(share.person, NEWCOMER).sigma ** 2 for share, weight in weights.items())
    return mu, variance ** 0.5


def _as_seat(player: Rating, blends: Sequence[tuple[float, float]], at: int, place: int,
             seats: Sequence[Seat]) -> tuple[float, float]:
    """``player``'s rating after the game had they played seat ``at`` whole, at ``place``, against the
    other seats' blends."""
    teams = [[MODEL.create_rating([player.mu, player.sigma]) if index == at
              else MODEL.create_rating(list(blend))] for index, blend in enumerate(blends)]
    ranks = [float(place if index == at else seat.place) for index, seat in enumerate(seats)]
    after = MODEL.rate(teams, ranks=ranks)[at][0]
    return after.mu, after.sigma


def _moved(before: Rating, moves: Sequence[tuple[float, tuple[float, float]]]) -> Rating:
    """``before`` moved by each full-game result in ``moves`` scaled by its weight (``sigma²`` alike)."""
    mu = before.mu + sum(weight * (after[0] - before.mu) for weight, after in moves)
    variance = before.sigma ** 2 + sum(weight * (after[1] ** 2 - before.sigma ** 2) for weight, after in moves)
    return Rating(mu, max(variance, 0.0) ** 0.5, before.games + 1)
