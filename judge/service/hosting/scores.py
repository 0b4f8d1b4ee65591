"""Each finished game's scores by the centre-based systems tournament players know, and its money.

Theory of operation.  A kind says how each seat stood at the end (`Pages.standings`, a list of
`judge.service.hosting.kinds.Standing`): its place and, where the kind has them, its ``centres``
(Payola's supply centres, Machiavelli's cities counted by M6) and its ``money`` in words (Payola's
treasury at the end, Machiavelli's ducats, Exchange's % control, Pirates' gold).  From those and
how the game ended (its winner, who shared its draw: `judge.web.public.GameFacts`) this module
scores every seat, purely, by three systems, each out of 100 for the whole board:

- **Draw-Size Scoring** (DSS): a solo gives the winner 100 and the others 0; a draw shares 100
  equally among those in it; a game that ended with neither (the game master ended it, or several
  shared a win by 4.2 without a vote) shares 100 among the survivors, the seats that still held
  a centre (`Basis` says which of the three it was).
- **Sum-of-Squares** (SoS): a solo 100 and 0; else each seat 100 * c² / Σc², c its centres, over
  every seat.
- **C-Diplo**, its "C-Diplo 100" form (Bruno-André Giraudon's, as the World Diplomacy Database
  describes it): a solo 100 and 0; else each seat gets 1 point for playing, 1 point for each
  centre it owns, and the seats first, second and third by centres 38, 14 and 7 points; seats tied
  by centres share the points of the places they tie for ((38 + 14) / 2 = 26 each for two tied on
  top, the third then gets 7).  On the standard board a game's points add
  up to 100; on another they add up to the seats, the centres and 59.

A kind without centres per seat (Exchange Payola's investors, Pirates' Proposal) has none of the
three: only its money.  Each figure is kept exact, as a `Fraction`; the public record writes it
rounded to four decimals (`exact`), the pages to one (`shown`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction

from judge.service.hosting.kinds import Standing

HUNDRED = Fraction(100)
C_DIPLO_PLACES = (38, 14, 7)
"""C-Diplo's points for the first, second and third seats by centres."""


class Basis(Enum):
    """Whom Draw-Size Scoring gave its 100 points to: the winner, those in the draw, or the survivors
    of a game that ended with neither."""

    SOLO = "solo"
    DRAW = "draw"
    SURVIVORS = "survivors"


@dataclass(frozen=True)
class Score:
    """A seat's scores at the end of its game: its place and standing by its kind's rules, its
    centres and money as the kind gives them, and its points by each system (None where the kind
    has no centres)."""

    seat: str
    place: int
    standing: str
    centres: int | None
    money: str | None
    dss: Fraction | None
    sos: Fraction | None
    c_diplo: Fraction | None


@dataclass(frozen=True)
class Scores:
    """A finished game's scores: each seat's, in its kind's order of the standings, and whom
    Draw-Size Scoring gave its points to (None where the kind has no centres)."""

    seats: tuple[Score, ...]
    basis: Basis | None

    @property
    def centred(self) -> bool:
        """Whether the systems by centres scored the game (its kind has centres per seat)."""
        return self.basis is not None


def by_result(standings: Sequence[Standing], winner: str | None, drawn: Sequence[str]) -> list[Standing]:
    """``standings`` under the game's result: a winner first alone, the seats of a draw sharing first place,
    then the others in their standings' order, tied where their standings tie (1, 1, 3).  What the hall
    of fame shows, the scores and the ratings (`judge.service.hosting.ratings`) place the seats by."""
    first = [winner] if winner else list(drawn)
    top = [replace(s, place=1) for s in standings if s.seat in first]
    rest = [s for s in standings if s.seat not in first]
    placed = list(top)
    for at, standing in enumerate(rest):
        tied = at > 0 and rest[at - 1].place == standing.place
        placed.append(replace(standing, place=placed[-1].place if tied else len(top) + at + 1))
    return placed


def score(standings: Sequence[Standing], winner: str | None, drawn: Sequence[str]) -> Scores:
    """The scores of a finished game whose seats stood as ``standings`` (see the module's header),
    placed by its result (`by_result`)."""
    standings = by_result(standings, winner, drawn)
    centres = {s.seat: s.centres for s in standings if s.centres is not None}
    if not standings or len(centres) < len(standings):
        return Scores(tuple(Score(s.seat, s.place, s.score, s.centres, s.money, None, None, None)
                            for s in standings), None)
    solo = winner if winner in centres else None
    basis = Basis.SOLO if solo else Basis.DRAW if drawn else Basis.SURVIVORS
    dss = draw_size(centres, solo, drawn)
    sos = {seat: HUNDRED if seat == solo else Fraction(0) for seat in centres} if solo else sum_of_squares(centres)
    c_diplo = ({seat: HUNDRED if seat == solo else Fraction(0) for seat in centres} if solo
               else c_diplo_points(centres))
    return Scores(tuple(Score(s.seat, s.place, s.score, s.centres, s.money, dss[s.seat], sos[s.seat],
                              c_diplo[s.seat]) for s in standings), basis)


def draw_size(centres: dict[str, int], solo: str | None, drawn: Sequence[str]) -> dict[str, Fraction]:
    """Draw-Size Scoring: 100 to the solo winner, else shared among the draw, else among the
    seats that still hold a centre."""
    sharing = [solo] if solo else [seat for seat in drawn if seat in centres] or [
        seat for seat, owned in centres.items() if owned > 0]
    return {seat: HUNDRED / len(sharing) if seat in sharing else Fraction(0) for seat in centres}


def sum_of_squares(centres: dict[str, int]) -> dict[str, Fraction]:
    """Sum-of-Squares: 100 * c² / Σc² (0 for every seat of a board where nobody holds a centre)."""
    total = sum(owned * owned for owned in centres.values())
    return {seat: HUNDRED * owned * owned / total if total else Fraction(0) for seat, owned in centres.items()}


def c_diplo_points(centres: dict[str, int]) -> dict[str, Fraction]:
    """C-Diplo without a solo: 1 for playing, 1 a centre, and 38, 14 and 7 to the first three by
    centres, tied seats sharing the points of the places they tie for."""
    order = sorted(centres.values(), reverse=True)
    bonus = [*C_DIPLO_PLACES, *[0] * max(0, len(order) - len(C_DIPLO_PLACES))]
    points: dict[str, Fraction] = {}
    for seat, owned in centres.items():
        first, ties = order.index(owned), order.count(owned)
        points[seat] = 1 + owned + Fraction(sum(bonus[first:first + ties]), ties)
    return points


def exact(value: Fraction | None) -> float | None:
    """A score as the public record keeps it: rounded to four decimals."""
    return None if value is None else round(float(value), 4)


def shown(value: Fraction | None) -> str:
    """A score as the pages show it: one decimal ("33.3"); empty where there is none."""
    return "" if value is None else f"{float(value):.1f}"
