"""Which orders are legal in a position, and why an order is not.

"Legal" is the DATC's word (issue 4.E.1): an order that, not knowing any other orders,
could be valid.  A move that needs a convoy is legal only if fleets on the board could form
a chain for it; a support only if the supporter could itself enter the province and the
supported unit could make the move without the supporter's help as a convoying fleet
(6.D.31); a convoy only if the fleet lies on some minimal convoy route (6.G.19).  An
illegal order is ignored and its unit holds.

:func:`check_order` both checks an order and *normalises* it: the unit designation is
taken from the board (a wrong or missing type or coast of the ordered unit is ignored,
DATC 4.B.5, 4.C.1, 4.C.2), army destinations lose any coast (4.B.6), and a fleet move to a
split-coast province gets the one coast it can reach (4.B.2).  Payola's offer validation
relies on :func:`legal_orders` and :func:`check_order` agreeing exactly.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum

from judge.engine.map import Location, Terrain
from judge.engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    PhaseKind,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
    Waive,
)
from judge.engine.position import PlacedUnit, Position


class Illegal(Enum):
    """One reason per rule an order can break; the value is the message shown to players."""

    NO_UNIT = "there is no unit there"
    NOT_YOUR_UNIT = "that unit belongs to another power"
    WRONG_PHASE = "that kind of order cannot be given in this phase"
    NOT_DISLODGED = "only dislodged units are ordered in a retreat phase"
    OWN_PROVINCE = "a unit cannot move to the province it is in"
    ARMY_TO_SEA = "an army cannot move to a sea province"
    FLEET_INLAND = "a fleet cannot move to an inland province"
    IMPASSABLE = "that province is impassable"
    NOT_ADJACENT = "the destination is not adjacent and no convoy route exists"
    NO_CONVOY_ROUTE = "no chain of fleets could convoy that move"
    COAST_NEEDED = "the destination has two coasts the fleet could reach: name one"
    WRONG_COAST = "the fleet cannot reach that coast"
    SUPPORT_SELF = "a unit cannot support itself"
    SUPPORT_OWN_PROVINCE = "a unit cannot support a move into its own province"
    SUPPORT_UNREACHABLE = "the supporting unit could not move to that province itself"
    NO_SUPPORTED_UNIT = "there is no unit to support there"
    SUPPORTED_MOVE_ILLEGAL = "the supported unit could not make that move"
    CONVOY_NOT_AT_SEA = "only a fleet in a sea province can convoy"
    CONVOY_NOT_ARMY = "only armies can be convoyed"
    CONVOY_NOT_ON_ROUTE = "the fleet is not on any convoy route for that move"
    RETREAT_NOT_ALLOWED = "the unit cannot retreat there (attacker's origin, standoff or occupied)"
    NO_ADJUSTMENT = "this power has no builds or removals to make"
    BUILD_NOT_HOME = "builds are only allowed in home supply centers"
    BUILD_NOT_OWNED = "the power does not own that supply center"
    BUILD_OCCUPIED = "that province is occupied"
    BUILD_NEEDS_TYPE = "say whether to build an army or a fleet (and the coast)"
    BUILD_FLEET_INLAND = "a fleet cannot be built inland"
    BUILD_NEEDS_COAST = "a fleet built there needs a coast"

    @property
    def message(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Verdict:
    """The outcome of :func:`check_order`: the normalised order, or why it is illegal."""

    order: Order
    illegal: Illegal | None = None

    @property
    def legal(self) -> bool:
        return self.illegal is None


class _Refused(Exception):
    def __init__(self, reason: Illegal) -> None:
        super().__init__(reason.value)
        self.reason = reason


def _unit(position: Position, power: str | None, ordered: Unit, own: bool = True) -> PlacedUnit:
    placed = position.units.get(ordered.province)
    if placed is None:
        raise _Refused(Illegal.NO_UNIT)
    if own and power is not None and placed.power != power:
        raise _Refused(Illegal.NOT_YOUR_UNIT)
    return placed


# -- geometry helpers -------------------------------------------------------------------


def _destination(position: Position, placed: PlacedUnit, dest: Location) -> Location:
    """The location a non-convoyed move by this unit to ``dest`` would enter, or refuse."""
    game_map = position.game_map
    province = game_map.provinces[dest.province]
    if dest.province == placed.location.province:
        raise _Refused(Illegal.OWN_PROVINCE)
    if province.terrain is Terrain.IMPASSABLE:
        raise _Refused(Illegal.IMPASSABLE)
    if placed.type is UnitType.ARMY:
        if province.terrain is Terrain.SEA:
            raise _Refused(Illegal.ARMY_TO_SEA)
        if dest.province not in game_map.army_adjacency.get(placed.location.province, ()):
            raise _Refused(Illegal.NOT_ADJACENT)
        return Location(dest.province)
    if province.terrain is Terrain.LAND:
        raise _Refused(Illegal.FLEET_INLAND)
    reachable = [d for d in game_map.fleet_adjacency.get(placed.location, ()) if d.province == dest.province]
    if not reachable:
        raise _Refused(Illegal.NOT_ADJACENT)
    if dest.coast is None:
        if len(reachable) > 1:
            raise _Refused(Illegal.COAST_NEEDED)
        return reachable[0]
    if dest not in reachable:
        raise _Refused(Illegal.WRONG_COAST)
    return dest


def seas_linked(position: Position, start: str, links: frozenset[str] | set[str]) -> set[str]:
    """The seas of ``links`` that a chain of them connects to the coast of ``start``."""
    game_map = position.game_map
    frontier = [s for s in game_map.sea_neighbours(start) if s in links]
    seen = set(frontier)
    while frontier:
        sea = frontier.pop()
        for nxt in game_map.sea_neighbours(sea):
            if nxt in links and nxt not in seen:
                seen.add(nxt)
                frontier.append(nxt)
    return seen


def convoy_route_exists(
    position: Position, start: str, dest: str, fleets: frozenset[str] | set[str] | None = None
) -> bool:
    """Whether a chain of the given fleets' seas (default: every fleet at sea) links two coasts."""
    if start == dest or not _is_coastal(position, start) or not _is_coastal(position, dest):
        return False
    links = position.fleet_seas if fleets is None else fleets
    return not seas_linked(position, start, links).isdisjoint(position.game_map.sea_neighbours(dest))


def _is_coastal(position: Position, province: str) -> bool:
    return position.game_map.provinces[province].terrain is Terrain.COAST


def convoy_destinations(position: Position, start: str) -> set[str]:
    """Every coastal province an army at ``start`` could reach through fleets at sea."""
    if not _is_coastal(position, start):
        return set()
    return {
        land
        for sea in seas_linked(position, start, position.fleet_seas)
        for land in position.game_map.any_neighbours(sea)
        if land != start and _is_coastal(position, land)
    }


def fleet_on_minimal_route(position: Position, fleet: str, start: str, dest: str) -> bool:
    """Whether some convoy route from ``start`` to ``dest`` needs the fleet in ``fleet``.

    A route needs each of its fleets exactly when it is an induced path: no fleet touches
    the start except the first, none touches the destination except the last, and no two
    fleets touch unless they are consecutive.  Depth-first over such paths only.
    """
    game_map = position.game_map
    links = position.fleet_seas
    if fleet not in links or start == dest:
        return False
    if not (_is_coastal(position, start) and _is_coastal(position, dest)):
        return False
    at_start = game_map.sea_neighbours(start)
    at_dest = game_map.sea_neighbours(dest)

    def extend(path: list[str]) -> bool:
        last = path[-1]
        if last in at_dest:
            return fleet in path
        for nxt in game_map.sea_neighbours(last):
            if nxt not in links or nxt in path or nxt in at_start:
                continue
            if any(nxt in game_map.sea_neighbours(p) for p in path[:-1]):
                continue
            path.append(nxt)
            if extend(path):
                return True
            path.pop()
        return False

    return any(extend([first]) for first in at_start if first in links)


def _move_destination(position: Position, placed: PlacedUnit, dest: Location, via_convoy: bool,
                      exclude: str | None = None) -> Location:
    """Where a (possibly convoyed) move would go, refusing it if no route could exist."""
    if placed.type is UnitType.ARMY and not via_convoy:
        try:
            return _destination(position, placed, dest)
        except _Refused as refused:
            if refused.reason is not Illegal.NOT_ADJACENT:
                raise
    if placed.type is UnitType.FLEET:
        if via_convoy:
            raise _Refused(Illegal.CONVOY_NOT_ARMY)
        return _destination(position, placed, dest)
    if dest.province == placed.location.province:
        raise _Refused(Illegal.OWN_PROVINCE)
    fleets = position.fleet_seas - {exclude} if exclude else None
    if not convoy_route_exists(position, placed.location.province, dest.province, fleets):
        raise _Refused(Illegal.NO_CONVOY_ROUTE if via_convoy else Illegal.NOT_ADJACENT)
    return Location(dest.province)


def _can_enter(position: Position, placed: PlacedUnit, province: str) -> bool:
    return province in position.game_map.provinces_reachable(placed.type is UnitType.FLEET, placed.location)


# -- checking -----------------------------------------------------------------------------


def check_order(position: Position, power: str | None, order: Order) -> Verdict:
    """Check an order given by ``power`` (``None``: any power may order any unit)."""
    try:
        return Verdict(_check(position, power, order))
    except _Refused as refused:
        return Verdict(order, refused.reason)


def _check(position: Position, power: str | None, order: Order) -> Order:
    kind = position.phase.kind
    if kind is PhaseKind.MOVEMENT:
        return _check_movement(position, power, order)
    if kind is PhaseKind.RETREAT:
        return _check_retreat(position, power, order)
    return _check_adjustment(position, power, order)


def _check_movement(position: Position, power: str | None, order: Order) -> Order:
    if not isinstance(order, Hold | Move | SupportHold | SupportMove | Convoy):
        raise _Refused(Illegal.WRONG_PHASE)
    placed = _unit(position, power, order.unit)
    unit = placed.unit
    if isinstance(order, Hold):
        return Hold(unit)
    if isinstance(order, Move):
        return Move(unit, _move_destination(position, placed, order.destination, order.via_convoy), order.via_convoy)
    if isinstance(order, SupportHold):
        target = _unit(position, None, order.supported, own=False)
        if target.location.province == unit.province:
            raise _Refused(Illegal.SUPPORT_SELF)
        if not _can_enter(position, placed, target.location.province):
            raise _Refused(Illegal.SUPPORT_UNREACHABLE)
        return SupportHold(unit, target.unit)
    if isinstance(order, SupportMove):
        if order.supported.province not in position.units:
            raise _Refused(Illegal.NO_SUPPORTED_UNIT)
        target = _unit(position, None, order.supported, own=False)
        if target.location.province == unit.province:
            raise _Refused(Illegal.SUPPORT_SELF)
        if order.destination.province == unit.province:
            raise _Refused(Illegal.SUPPORT_OWN_PROVINCE)
        if not _can_enter(position, placed, order.destination.province):
            raise _Refused(Illegal.SUPPORT_UNREACHABLE)
        dest = _supported_destination(position, placed, target, order.destination)
        return SupportMove(unit, target.unit, dest)
    # Convoy
    if placed.type is not UnitType.FLEET or position.game_map.provinces[unit.province].terrain is not Terrain.SEA:
        raise _Refused(Illegal.CONVOY_NOT_AT_SEA)
    army = position.units.get(order.army.province)
    if army is None:
        raise _Refused(Illegal.NO_SUPPORTED_UNIT)
    if army.type is not UnitType.ARMY:
        raise _Refused(Illegal.CONVOY_NOT_ARMY)
    dest = Location(order.destination.province)
    if not fleet_on_minimal_route(position, unit.province, army.location.province, dest.province):
        raise _Refused(Illegal.CONVOY_NOT_ON_ROUTE)
    return Convoy(unit, army.unit, dest)


def _supported_destination(position: Position, supporter: PlacedUnit, target: PlacedUnit, dest: Location) -> Location:
    """The destination of a supported move: the supported unit must be able to make it.

    A coast in the support must be one the supported fleet can reach; no coast is fine
    (DATC 6.B.7, 6.B.15).  A convoyed move must be possible without the supporter (6.D.31).
    """
    if target.type is UnitType.FLEET:
        try:
            reached = _destination(position, target, dest)
        except _Refused as refused:
            if refused.reason is Illegal.COAST_NEEDED:
                return Location(dest.province)
            raise _Refused(Illegal.SUPPORTED_MOVE_ILLEGAL) from None
        return reached if dest.coast else Location(dest.province)
    try:
        return _move_destination(position, target, Location(dest.province), False, exclude=supporter.location.province)
    except _Refused:
        raise _Refused(Illegal.SUPPORTED_MOVE_ILLEGAL) from None


def retreat_options(position: Position, province: str) -> list[Location]:
    """Where the dislodged unit in ``province`` may retreat, in map order."""
    dislodged = position.dislodged.get(province)
    if dislodged is None:
        return []
    game_map = position.game_map
    unit = dislodged.unit
    if unit.type is UnitType.FLEET:
        candidates = sorted(game_map.fleet_adjacency.get(unit.location, ()))
    else:
        candidates = [Location(p) for p in sorted(game_map.army_adjacency.get(unit.province, ()))]
    barred = set(position.contested)
    if dislodged.attacker_from and not dislodged.via_convoy:
        barred.add(dislodged.attacker_from)
    return [c for c in candidates if c.province not in barred and c.province not in position.units]


def _check_retreat(position: Position, power: str | None, order: Order) -> Order:
    if not isinstance(order, Retreat | Disband | Move | Hold | Remove):
        raise _Refused(Illegal.WRONG_PHASE)
    dislodged = position.dislodged.get(order.unit.province)
    if dislodged is None:
        if order.unit.province in position.units:
            raise _Refused(Illegal.NOT_DISLODGED)
        raise _Refused(Illegal.NO_UNIT)
    if power is not None and dislodged.power != power:
        raise _Refused(Illegal.NOT_YOUR_UNIT)
    if isinstance(order, Disband | Remove):
        return Disband(dislodged.unit)
    if not isinstance(order, Retreat | Move) or (isinstance(order, Move) and order.via_convoy):
        raise _Refused(Illegal.WRONG_PHASE)
    placed = PlacedUnit(dislodged.power, dislodged.unit)
    dest = _destination(position, placed, order.destination)
    if dest not in retreat_options(position, order.unit.province):
        raise _Refused(Illegal.RETREAT_NOT_ALLOWED)
    return Retreat(dislodged.unit, dest)


def adjustment_count(position: Position, power: str) -> int:
    """Builds (positive) or removals (negative) a power is due in an adjustment phase."""
    return len(position.centers_of(power)) - len(position.units_of(power))


def _check_adjustment(position: Position, power: str | None, order: Order) -> Order:
    if isinstance(order, Waive):
        if power is not None and adjustment_count(position, power) <= 0:
            raise _Refused(Illegal.NO_ADJUSTMENT)
        return order
    if isinstance(order, Remove | Disband):
        placed = _unit(position, power, order.unit)
        if adjustment_count(position, placed.power) >= 0:
            raise _Refused(Illegal.NO_ADJUSTMENT)
        return Remove(placed.unit)
    if not isinstance(order, Build):
        raise _Refused(Illegal.WRONG_PHASE)
    return _check_build(position, power, order.unit)


def _check_build(position: Position, power: str | None, unit: Unit) -> Build:
    game_map = position.game_map
    province = unit.province
    home = game_map.home_power(province)
    if home is None or (power is not None and home != power):
        raise _Refused(Illegal.BUILD_NOT_HOME)
    if position.centers.get(province) != home:
        raise _Refused(Illegal.BUILD_NOT_OWNED)
    if province in position.units:
        raise _Refused(Illegal.BUILD_OCCUPIED)
    if adjustment_count(position, home) <= 0:
        raise _Refused(Illegal.NO_ADJUSTMENT)
    terrain = game_map.provinces[province].terrain
    unit_type = unit.type
    if unit_type is None:
        # DATC 4.C.3: an army inland, a fleet where a coast is named; otherwise ambiguous.
        if terrain is Terrain.LAND:
            unit_type = UnitType.ARMY
        elif unit.location.coast:
            unit_type = UnitType.FLEET
        else:
            raise _Refused(Illegal.BUILD_NEEDS_TYPE)
    if unit_type is UnitType.ARMY:
        return Build(Unit(UnitType.ARMY, Location(province)))
    places = game_map.fleet_locations(province)
    if not places:
        raise _Refused(Illegal.BUILD_FLEET_INLAND)
    if len(places) > 1 and unit.location not in places:
        raise _Refused(Illegal.BUILD_NEEDS_COAST)
    return Build(Unit(UnitType.FLEET, unit.location if len(places) > 1 else places[0]))


# -- enumeration ------------------------------------------------------------------------


def legal_orders(position: Position, province: str) -> list[Order]:
    """Every legal order for the unit in ``province`` in this (movement or retreat) phase.

    Each order is given once, in its normalised form, so that an order is in this list
    exactly when :func:`check_order` accepts it and normalises it to that form.
    """
    if position.phase.kind is PhaseKind.RETREAT:
        dislodged = position.dislodged.get(province)
        if dislodged is None:
            return []
        retreats: list[Order] = [Retreat(dislodged.unit, d) for d in retreat_options(position, province)]
        return [*retreats, Disband(dislodged.unit)]
    placed = position.units.get(province)
    if placed is None or position.phase.kind is not PhaseKind.MOVEMENT:
        return []
    return list(_movement_orders(position, placed))


def _movement_orders(position: Position, placed: PlacedUnit) -> Iterator[Order]:
    unit = placed.unit
    yield Hold(unit)
    yield from _moves(position, placed)
    for province in sorted(position.game_map.provinces_reachable(placed.type is UnitType.FLEET, unit.location)):
        target = position.units.get(province)
        if target is not None:
            yield SupportHold(unit, target.unit)
    yield from _move_supports(position, placed)
    yield from _convoys(position, placed)


def _moves(position: Position, placed: PlacedUnit) -> Iterator[Move]:
    game_map = position.game_map
    unit = placed.unit
    if placed.type is UnitType.FLEET:
        for dest in sorted(game_map.fleet_adjacency.get(unit.location, ())):
            yield Move(unit, dest)
        return
    adjacent = game_map.army_adjacency.get(unit.province, frozenset())
    for province in sorted(adjacent):
        yield Move(unit, Location(province))
    for province in sorted(convoy_destinations(position, unit.province)):
        yield Move(unit, Location(province), via_convoy=province in adjacent)
        if province not in adjacent:
            yield Move(unit, Location(province), via_convoy=True)


def _move_supports(position: Position, placed: PlacedUnit) -> Iterator[SupportMove]:
    reach = position.game_map.provinces_reachable(placed.type is UnitType.FLEET, placed.location)
    here = placed.location.province
    for province in sorted(position.units):
        if province == here:
            continue
        target = position.units[province]
        seen: set[Location] = set()
        for move in _moves(position, target):
            dest = move.destination
            if dest.province not in reach or dest.province == here:
                continue
            normal = Location(dest.province) if target.type is UnitType.ARMY else dest
            candidates = [normal]
            if target.type is UnitType.FLEET and dest.coast is not None:
                candidates.append(Location(dest.province))
            for cand in candidates:
                if cand in seen:
                    continue
                seen.add(cand)
                if (target.type is UnitType.ARMY and move.via_convoy) or (
                    target.type is UnitType.ARMY
                    and dest.province not in position.game_map.army_adjacency.get(province, ())
                ):
                    fleets = position.fleet_seas - {here}
                    if not convoy_route_exists(position, province, dest.province, fleets):
                        continue
                yield SupportMove(placed.unit, target.unit, cand)


def _convoys(position: Position, placed: PlacedUnit) -> Iterator[Convoy]:
    here = placed.location.province
    if placed.type is not UnitType.FLEET or position.game_map.provinces[here].terrain is not Terrain.SEA:
        return
    for province in sorted(position.units):
        army = position.units[province]
        if army.type is not UnitType.ARMY:
            continue
        for dest in sorted(convoy_destinations(position, province)):
            if fleet_on_minimal_route(position, here, province, dest):
                yield Convoy(placed.unit, army.unit, Location(dest))
