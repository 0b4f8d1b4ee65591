"""Adjudication of an adjustment (winter) phase: builds, removals and civil disorder.

Orders are carried out one by one in the order given (DATC 4.D.4-4.D.6): once a power has
made all the builds (or ``WAIVE``\\s) or removals it is due, its further ones fail.  A power
that removes too few units is in civil disorder (2023 rules, DATC 6.J): its units furthest
from its nearest owned supply center go first, counting moves over land and sea alike on
the whole board (a province closed in winter included); on equal distance fleets go before
armies, then by the province's English name.

A unit in a province closed in winter (Loeb9's Arctic Ocean) may be removed by its owner
whatever the power is due (DPjudge's ``about_loeb9``): such a removal counts as one of
the removals due while some are, and is an extra one otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from judge.engine.legal import adjustment_count
from judge.engine.orders import Build, Order, Remove, UnitType
from judge.engine.position import PlacedUnit, Position
from judge.engine.results import OrderResult, Outcome, check_all


def distance_to_centers(position: Position, province: str, centers: set[str]) -> int:
    """Steps from a province to the nearest of ``centers``, by land and sea alike."""
    if not centers:
        return 10**6
    board = position.game_map.board
    frontier, seen, steps = {province}, {province}, 0
    while frontier:
        if frontier & centers:
            return steps
        steps += 1
        frontier = {n for p in frontier for n in board.any_neighbours(p)} - seen
        seen |= frontier
    return 10**6


def civil_disorder(position: Position, power: str, units: list[PlacedUnit], count: int) -> list[PlacedUnit]:
    """The ``count`` units a power in civil disorder loses, in the order they are removed."""
    owned = set(position.centers_of(power))
    names = position.game_map.provinces

    def priority(unit: PlacedUnit) -> tuple[int, int, str]:
        distance = distance_to_centers(position, unit.location.province, owned)
        return (-distance, 0 if unit.type is UnitType.FLEET else 1, names[unit.location.province].name)

    return sorted(units, key=priority)[:count]


def adjudicate_adjustments(
    position: Position, orders: Mapping[str, Sequence[Order | str]]
) -> tuple[tuple[OrderResult, ...], list[PlacedUnit]]:
    """Return the results of the adjustment orders and the units on the board afterwards."""
    entries = check_all(position, orders)
    units = dict(position.units)
    used: dict[str, int] = {}
    for entry in entries:
        order, power = entry.order, entry.power
        if entry.outcome is not None or order is None:
            continue
        key = order.unit.province if isinstance(order, Build | Remove) else None
        due = adjustment_count(position, power)
        removals_left = -due - used.get(power, 0)
        if isinstance(order, Remove) and key in position.game_map.closed and removals_left <= 0:
            # A unit in a province closed in winter, removed though no removal is (still) due.
            if key in units:
                del units[key]
                entry.settle(Outcome.SUCCEEDS)
            else:
                entry.settle(Outcome.FAILS, "already removed")
        elif used.get(power, 0) >= abs(due):
            entry.settle(Outcome.FAILS, "too many")
        elif isinstance(order, Build) and key in units:
            entry.settle(Outcome.FAILS, "occupied")
        elif isinstance(order, Remove) and key not in units:
            entry.settle(Outcome.FAILS, "already removed")
        else:
            used[power] = used.get(power, 0) + 1
            if isinstance(order, Build):
                units[order.unit.province] = PlacedUnit(power, order.unit)
            elif isinstance(order, Remove):
                del units[order.unit.province]
            entry.settle(Outcome.SUCCEEDS)
    for power in position.game_map.powers:
        missing = -adjustment_count(position, power) - used.get(power, 0)
        if missing > 0:
            mine = [u for u in units.values() if u.power == power]
            for unit in civil_disorder(position, power, mine, missing):
                del units[unit.location.province]
    return tuple(e.result() for e in entries), list(units.values())
