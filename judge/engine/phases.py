"""One step of a game: adjudicate the current phase and produce the position of the next.

Sequence: ``S1901M`` → ``S1901R`` (only if a unit was dislodged) → ``F1901M`` → ``F1901R``
(only if dislodged) → supply centers change hands → ``W1901A`` (only if some power must
remove units or can build somewhere) → ``S1902M``.  A power that reaches the map's victory
count of centers when they change hands is the winner.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from judge.engine.adjustments import adjudicate_adjustments
from judge.engine.legal import adjustment_count
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
            after = position.evolve(
                phase=Phase(phase.season, phase.year, PhaseKind.RETREAT),
                units={u.location.province: u for u in moved.units},
                dislodged={d.unit.province: d for d in moved.dislodged},
                contested=moved.contested,
            )
            return PhaseResult(phase, results, after, winner(after))
        units: list[PlacedUnit] = list(moved.units)
    elif phase.kind is PhaseKind.RETREAT:
        retreat_results, units = adjudicate_retreats(position, orders)
        results = retreat_results
    else:
        adjustment_results, units = adjudicate_adjustments(position, orders)
        after = _settled(position, units).evolve(phase=Phase(Season.SPRING, phase.year + 1, PhaseKind.MOVEMENT))
        return PhaseResult(phase, adjustment_results, after, winner(after))
    after = _end_of_season(_settled(position, units))
    return PhaseResult(phase, results, after, winner(after))


def _settled(position: Position, units: list[PlacedUnit]) -> Position:
    return position.evolve(units={u.location.province: u for u in units}, dislodged={}, contested=frozenset())


def _end_of_season(position: Position) -> Position:
    """After the last movement or retreat of a season: Fall, centers change hands."""
    phase = position.phase
    if phase.season is Season.SPRING:
        return position.evolve(phase=Phase(Season.FALL, phase.year, PhaseKind.MOVEMENT))
    centers = dict(position.centers)
    for province, unit in position.units.items():
        if province in position.game_map.supply_centers:
            centers[province] = unit.power
    position = position.evolve(centers=centers)
    if adjustment_needed(position):
        return position.evolve(phase=Phase(Season.WINTER, phase.year, PhaseKind.ADJUSTMENT))
    return position.evolve(phase=Phase(Season.SPRING, phase.year + 1, PhaseKind.MOVEMENT))


def adjustment_needed(position: Position) -> bool:
    """Some power must remove units, or is due a build and has a free owned home center."""
    for power, info in position.game_map.powers.items():
        count = adjustment_count(position, power)
        if count < 0:
            return True
        if count > 0 and any(
            position.centers.get(c) == power and c not in position.units for c in info.home_centers
        ):
            return True
    return False


def winner(position: Position) -> str | None:
    """The power holding at least the map's victory count of supply centers, if any."""
    for power in position.game_map.powers:
        if len(position.centers_of(power)) >= position.game_map.victory_centers:
            return power
    return None
