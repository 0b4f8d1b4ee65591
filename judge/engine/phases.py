"""One step of a game: adjudicate the current phase and produce the position of the next.

Sequence: ``S1901M`` → ``S1901R`` (only if a unit was dislodged) → ``F1901M`` → ``F1901R``
(only if dislodged) → supply centers change hands → ``W1901A`` (only if some power must
remove units or can build somewhere, or a unit may be removed from a province closed in
winter) → ``S1902M``.  A board may begin in Fall (Void: ``F1900M``).  A power that reaches
the board's victory count of centers when they change hands is the winner.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from judge.engine.adjustments import adjudicate_adjustments
from judge.engine.legal import adjustment_count, build_sites
from judge.engine.movement import adjudicate_movement
from judge.engine.orders import Order, PhaseKind
from judge.engine.position import Phase, PlacedUnit, Position, Season
from judge.engine.results import OrderResult
from judge.engine.retreats import adjudicate_retreats


@dataclass(frozen=True)
class PhaseResult:
    """What happened in a phase, and the position the next phase starts from."""

    phase: Phase
    results: tuple[OrderResult, ...]
    position: Position
    winner: str | None


def adjudicate(position: Position, orders: Mapping[str, Sequence[Order | str]]) -> PhaseResult:
    """Adjudicate the phase of ``position`` with each power's orders."""
    phase = position.phase
    if phase.kind is PhaseKind.MOVEMENT:
        moved = adjudicate_movement(position, orders)
        results = moved.results
        if moved.dislodged:
            after = Position.build(
                position.game_map,
                Phase(phase.season, phase.year, PhaseKind.RETREAT),
                moved.units,
                position.centers,
                moved.dislodged,
                moved.contested,
            )
            return PhaseResult(phase, results, after, winner(after))
        units: Sequence[PlacedUnit] = moved.units
    elif phase.kind is PhaseKind.RETREAT:
        results, units = adjudicate_retreats(position, orders)
    else:
        results, units = adjudicate_adjustments(position, orders)
        spring = Phase(Season.SPRING, phase.year + 1, PhaseKind.MOVEMENT)
        after = Position.build(position.game_map, spring, units, position.centers)
        return PhaseResult(phase, results, after, winner(after))
    after = _end_of_season(position, units)
    return PhaseResult(phase, results, after, winner(after))


def _end_of_season(position: Position, units: Sequence[PlacedUnit]) -> Position:
    """The position after the last movement or retreat of a season: in Fall, centers change hands."""
    phase, game_map = position.phase, position.game_map
    if phase.season is Season.SPRING:
        return Position.build(game_map, Phase(Season.FALL, phase.year, PhaseKind.MOVEMENT), units, position.centers)
    centers = dict(position.centers)
    centers.update((u.location.province, u.power) for u in units if u.location.province in game_map.supply_centers)
    after = Position.build(game_map, Phase(Season.WINTER, phase.year, PhaseKind.ADJUSTMENT), units, centers)
    if adjustment_needed(after):
        return after
    return after.evolve(phase=Phase(Season.SPRING, phase.year + 1, PhaseKind.MOVEMENT))


def adjustment_needed(position: Position) -> bool:
    """Some power must remove units, or is due a build and has a free place to build (an owned
    home center, or any owned center on Void), or a unit stands in a province closed in winter
    (its owner may remove it: Loeb9's Arctic Ocean)."""
    closed = position.game_map.closed
    if closed and not closed.isdisjoint(position.units):
        return True
    for power in position.game_map.powers:
        count = adjustment_count(position, power)
        if count < 0:
            return True
        if count > 0 and any(c not in position.units for c in build_sites(position, power)):
            return True
    return False


def winner(position: Position) -> str | None:
    """The power holding at least the map's victory count of supply centers, if any."""
    held: dict[str, int] = {}  # counted in one pass over the centers, not one per power
    for owner in position.centers.values():
        held[owner] = held.get(owner, 0) + 1
    for power in position.game_map.powers:
        if held.get(power, 0) >= position.game_map.victory_centers:
            return power
    return None
