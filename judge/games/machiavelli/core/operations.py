"""From the orders written to the operations carried out: who obeys whom, what is legal, and
which orders become a Hold (AoP 8.2: "the judge assumes a Hold order for a unit, if the order
given to it is impossible to carry out").

Theory of operation.  Everything here is decided before any conflict is resolved, from the
position as phase D left it:

1. Each unit obeys its owner's order; an independent unit obeys the player who bribed it to
   operate, and holds otherwise (M39, M33); orders for units the writer does not command are set
   aside undisclosed (M50).  An assassinated player's units hold (M20), and the orders written
   for them are not disclosed: each is reported as held for the assassination (M61, as 8.2
   keeps a bribed unit's original order undisclosed).  A besieger in a siege's second season
   may only besiege or hold (9.4), and holds if bribery made it or the garrison change sides
   (M39).
2. Each order is checked against the board and the position (:func:`_operation`); an order that
   cannot be carried out becomes a Hold that keeps the reason.  A move or support through a
   strait closed to the player is such a Hold (M55): it attacks nothing and supports nothing; so
   is a transport whose fleet would carry the army through a closed strait (an edge of the
   strait, or a passage through the fleet's area: Calabria's, 9.3), and an army's transport onto
   an island that holds fleets only (1.3, M15).
3. Friendly conflicts (13.4, M26), to a fixed point: two own units advancing or converting into
   one area both hold; an advance or conversion into an area where an own army or fleet stays
   holds; a support of another player's operation into an area where one's own army or fleet
   stays holds.
4. Transports (M24): an army's route must run through fleets that transport for its owner, one
   army per fleet.  A route that is geometrically impossible is an illegal order (a Hold, step
   2); a route whose fleets do not cooperate is a valid advance that fails (its target still
   counts as attacked for retreats, M42).
5. Supports are matched to the one unit of the beneficiary whose operation is directed at the
   supported area (M18); a support with none to match is still given, and can still be cut.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import Enum
from itertools import pairwise

from judge.games.machiavelli.core.board import Board, Location, Strait
from judge.games.machiavelli.core.orders import (
    Advance,
    Besiege,
    Convert,
    Hold,
    Order,
    Permission,
    PhaseD,
    Support,
    Transport,
    UnitRef,
)
from judge.games.machiavelli.core.position import Owner, Place, Position, Unit, UnitKind
from judge.games.machiavelli.core.results import IgnoredOrder, Reason


class Op(Enum):
    """The operations of AoP 9.1."""

    HOLD = "hold"
    ADVANCE = "advance"
    SUPPORT = "support"
    TRANSPORT = "transport"
    BESIEGE = "besiege"
    CONVERT = "convert"


@dataclass(frozen=True)
class Operation:
    """What a unit does in F.1.  ``reason`` is set when the rules made it a Hold (or it had no
    order); ``target`` is the area an advance goes to, a support is given into, a siege or a
    conversion takes place in."""

    unit: Unit
    order: Order | None
    op: Op
    reason: Reason | None = None
    target: str | None = None
    coast: str | None = None
    route: tuple[str, ...] = ()
    beneficiary: Owner | None = None
    into: UnitKind | None = None
    transport_failure: Reason | None = None  # a valid transported advance whose fleets fail it (M24)

    @property
    def attacks(self) -> str | None:
        """The province this operation attacks (13.1: an advance, or a conversion into a province)."""
        if self.op is Op.ADVANCE:
            return self.target
        if self.op is Op.CONVERT and self.unit.kind is UnitKind.GARRISON:
            return self.unit.area
        return None

    @property
    def enters_city(self) -> bool:
        """An army or fleet converting into a garrison: it leaves the province for the city."""
        return self.op is Op.CONVERT and self.unit.kind is not UnitKind.GARRISON

    @property
    def directed_at(self) -> str:
        """The area the operation is directed at (9.1): where M18's supports find it."""
        if self.op in (Op.ADVANCE, Op.BESIEGE) and self.target is not None:
            return self.target
        return self.unit.area

    @property
    def given_hold(self) -> bool:
        """A Hold the player ordered, not one the rules imposed (M45)."""
        return self.op is Op.HOLD and self.reason is None and isinstance(self.order, Hold)

    def as_order(self) -> Order:
        """The operation written as an order: what the judge reports the unit carried out."""
        ref = UnitRef(self.unit.kind, self.unit.area)
        if self.op is Op.ADVANCE and self.target is not None:
            return Advance(ref, self.target, self.coast, self.route)
        if self.op is Op.SUPPORT and self.target is not None:
            return Support(ref, self.target, self.beneficiary)
        if self.op is Op.TRANSPORT:
            return Transport(ref, self.beneficiary)
        if self.op is Op.BESIEGE:
            return Besiege(ref)
        if self.op is Op.CONVERT and self.into is not None:
            return Convert(ref, self.into, self.coast)
        return Hold(ref)


def hold(unit: Unit, order: Order | None, reason: Reason) -> Operation:
    """The Hold the rules make of ``order`` (8.2), keeping why."""
    return Operation(unit, order, Op.HOLD, reason)


def besieging_place(board: Board, area: str) -> Place:
    """Where the besieger of the city of ``area`` stands: its province, or Venice's Lagoon (14)."""
    if board.lagoon is not None and area == board.lagoon.island:
        return Place(board.lagoon.sea)
    return Place(area)


def strait_closed(board: Board, position: Position, a: str, b: str, player: Owner,
                  permissions: frozenset[Permission]) -> bool:
    """Whether the edge a-b passes a strait whose controller closes it to ``player`` (M17)."""
    return closes(position, board.strait(a, b), player, permissions)


def closes(position: Position, strait: Strait | None, player: Owner, permissions: frozenset[Permission]) -> bool:
    """Whether ``strait``'s controller closes it to ``player`` (M17): the controller is the owner
    of the fleet standing in the controlling area as F.1 begins."""
    if strait is None or strait.controller is None:
        return False
    fleet = position.province_unit(strait.controller)
    if fleet is None or fleet.kind is not UnitKind.FLEET or fleet.owner == player:
        return False
    return not (isinstance(fleet.owner, str) and isinstance(player, str)
                and Permission(fleet.owner, player) in permissions)


def operations(
    board: Board,
    position: Position,
    orders: Mapping[str, Iterable[Order]],
    phase_d: PhaseD,
    permissions: frozenset[Permission],
) -> tuple[dict[Place, Operation], tuple[IgnoredOrder, ...]]:
    """Every unit's operation (steps 1 to 4 of the module docstring), and the orders set aside."""
    given: dict[Place, list[Order]] = defaultdict(list)
    ignored: list[IgnoredOrder] = []
    for player, written in orders.items():
        for each in written:
            unit = position.unit_at(each.unit.place)
            if unit is None or unit.kind is not each.unit.kind:
                ignored.append(IgnoredOrder(player, each, Reason.NO_SUCH_UNIT))
            elif unit.owner == player or (unit.independent and phase_d.operated.get(unit.place) == player):
                if each not in given[unit.place]:
                    given[unit.place].append(each)
            else:
                ignored.append(IgnoredOrder(player, each, Reason.NOT_OWNER))
    ops: dict[Place, Operation] = {}
    for place, unit in position.units.items():
        written = given.get(place, [])
        order = written[0] if len(written) == 1 else None
        if isinstance(unit.owner, str) and unit.owner in phase_d.assassinated:
            ops[place] = hold(unit, None, Reason.ASSASSINATED)  # its orders not carried out, nor disclosed (M61)
        elif len(written) > 1:
            ops[place] = hold(unit, None, Reason.SEVERAL_ORDERS)
        elif unit.independent and place not in phase_d.operated:
            ops[place] = hold(unit, order, Reason.INDEPENDENT)
        elif order is None:
            ops[place] = hold(unit, None, Reason.NO_ORDER)
        else:
            ops[place] = _siege_bound(board, position, unit, order) or _operation(
                board, position, unit, order, permissions)
    _friendly_conflicts(position, ops)
    _transports(position, ops)
    return ops, tuple(ignored)


def possible_orders(board: Board, position: Position, unit: Unit) -> tuple[Order, ...]:
    """The orders ``unit`` may be given that step 2 would carry out as written, as a letter's form
    lists them (`judge.games.machiavelli.views`): its Hold, an army's or fleet's advance into each
    adjacent area (a fleet's onto each coast it reaches there), its siege, its conversions, a fleet's
    transport, and a garrison's support of its own province; in a siege's second season the Hold and
    the siege alone (9.4).  With no permission granted (M51): a strait closed to its owner is
    closed.  An army's or fleet's supports (into the areas it may advance into, 9.5) and transported
    advances (which need the campaign's fleets) are not listed, nor what friendly conflicts undo
    (step 3: the letter's other orders decide them)."""
    ref = UnitRef(unit.kind, unit.area)
    candidates: list[Order] = []
    if unit.kind is UnitKind.FLEET:
        here = Location(unit.area, unit.coast)
        for area in sorted(board.fleet_areas(unit.area)):
            reach = board.fleet_reaches(here, area)
            candidates += [Advance(ref, area, where.coast if len(reach) > 1 else None) for where in reach]
    else:
        candidates += [Advance(ref, area) for area in sorted(board.army_reach(unit.area))]
    candidates += [Support(ref, unit.area), Besiege(ref), Transport(ref)]
    if unit.kind is UnitKind.GARRISON:
        candidates += [Convert(ref, UnitKind.ARMY), *(Convert(ref, UnitKind.FLEET, coast)
                                                      for coast in board.areas[unit.area].coasts or (None,))]
    else:
        candidates.append(Convert(ref, UnitKind.GARRISON))
    possible: list[Order] = [Hold(ref)]
    for order in candidates:
        operation = _siege_bound(board, position, unit, order) or _operation(board, position, unit, order, frozenset())
        if operation.op is not Op.HOLD:
            possible.append(order)
    return tuple(possible)


def _siege_bound(board: Board, position: Position, unit: Unit, order: Order) -> Operation | None:
    """The Hold a besieger in a siege's second season must carry out, if it must (9.4, M39)."""
    for area, siege in position.sieges.items():
        if besieging_place(board, area) != unit.place:
            continue
        garrison = position.garrison(area)
        if garrison is None and not position.city_rebelling(area):
            return None  # the garrison is gone: the besieger is free (9.4, last sentence)
        if unit.owner != siege.besieger or (garrison is not None and garrison.owner == unit.owner):
            return hold(unit, order, Reason.BRIBED_BESIEGER)
        if not isinstance(order, Besiege | Hold):
            return hold(unit, order, Reason.SIEGE_SECOND_SEASON)
    return None


def _operation(board: Board, position: Position, unit: Unit, order: Order,
               permissions: frozenset[Permission]) -> Operation:
    """The operation ``order`` gives ``unit``, or the Hold it becomes (with its reason)."""
    if isinstance(order, Hold):
        return Operation(unit, order, Op.HOLD)
    if isinstance(order, Advance):
        return _advance(board, position, unit, order, permissions)
    if isinstance(order, Support):
        return _support(board, position, unit, order, permissions)
    if isinstance(order, Transport):
        if unit.kind is not UnitKind.FLEET:
            return hold(unit, order, Reason.WRONG_UNIT)
        beneficiary = _beneficiary(position, unit, order.beneficiary, order.carried)
        if beneficiary is None:
            return hold(unit, order, Reason.NO_UNIT_NAMED)
        return Operation(unit, order, Op.TRANSPORT, beneficiary=beneficiary)
    if isinstance(order, Besiege):
        return _besiege(board, position, unit, order)
    return _convert(board, position, unit, order)


def _advance(board: Board, position: Position, unit: Unit, order: Advance,
             permissions: frozenset[Permission]) -> Operation:
    """An advance (9.3), or the Hold it becomes."""
    target = order.to
    if unit.kind is UnitKind.GARRISON or (unit.kind is UnitKind.FLEET and order.route):
        return hold(unit, order, Reason.WRONG_UNIT)
    if unit.independent:
        return hold(unit, order, Reason.INDEPENDENT_MAY_NOT_ADVANCE)
    if target not in board.areas or target == unit.area:
        return hold(unit, order, Reason.NOT_ADJACENT)
    coast: str | None = None
    if order.route:
        failure = _route(board, position, unit, order, permissions)
        if failure is not None:
            return hold(unit, order, failure)
    elif unit.kind is UnitKind.ARMY:
        if target not in board.army_reach(unit.area):
            return hold(unit, order, Reason.NOT_ADJACENT)
    else:
        reach = board.fleet_reaches(Location(unit.area, unit.coast), target)
        if not reach:
            return hold(unit, order, Reason.NOT_ADJACENT)
        if order.coast is not None:
            if Location(target, order.coast) not in reach:
                return hold(unit, order, Reason.NO_SUCH_COAST)
            coast = order.coast
        elif len(reach) > 1:
            return hold(unit, order, Reason.COAST_UNCLEAR)
        else:
            coast = reach[0].coast
    if not order.route and strait_closed(board, position, unit.area, target, unit.owner, permissions):
        return hold(unit, order, Reason.STRAIT_CLOSED)
    if board.areas[target].single_unit:
        if position.province_unit(target) is None and position.garrison(target) is not None:
            return hold(unit, order, Reason.ISLAND_GARRISONED)
        if position.rebellions.get(target) == unit.owner:
            return hold(unit, order, Reason.ISLAND_REBELLING)
    return Operation(unit, order, Op.ADVANCE, target=target, coast=coast, route=order.route)


def _route(board: Board, position: Position, unit: Unit, order: Advance,
           permissions: frozenset[Permission]) -> Reason | None:
    """Why a transported advance is impossible, if it is (9.3, M17, M24)."""
    chain = (unit.area, *order.route, order.to)
    if len(set(chain)) != len(chain) or not board.areas[order.to].is_land:
        return Reason.BAD_ROUTE
    if board.areas[order.to].fleet_only:
        return Reason.ISLAND_FOR_FLEETS
    for area in order.route:
        fleet = position.province_unit(area)
        if fleet is None or fleet.kind is not UnitKind.FLEET:
            return Reason.BAD_ROUTE
    for i, area in enumerate(order.route):
        fleet = position.province_unit(area)
        assert fleet is not None
        here = Location(area, fleet.coast)
        if not board.fleet_reaches(here, chain[i]) or not board.fleet_reaches(here, chain[i + 2]):
            return Reason.BAD_ROUTE
    for a, b in pairwise(chain):
        if strait_closed(board, position, a, b, unit.owner, permissions):
            return Reason.STRAIT_CLOSED
    for before, via, after in zip(chain[:-2], order.route, chain[2:], strict=True):
        if closes(position, board.passage(before, via, after), unit.owner, permissions):
            return Reason.STRAIT_CLOSED
    return None


def _beneficiary(position: Position, unit: Unit, named: Owner | None, ref: UnitRef | None) -> Owner | None:
    """Whom a support or transport is for: the player named, or the owner of the unit named (as
    phase D left it: None if no such unit stands there), or else the supporter's own owner."""
    if named is not None:
        return named
    if ref is None:
        return unit.owner
    other = position.unit_at(ref.place)
    return other.owner if other is not None and other.kind is ref.kind else None


def _support(board: Board, position: Position, unit: Unit, order: Support,
             permissions: frozenset[Permission]) -> Operation:
    """A support (9.5, M18, M19, 11.2, 14), or the Hold it becomes."""
    area = order.area
    beneficiary = _beneficiary(position, unit, order.beneficiary, order.supported)
    if beneficiary is None:
        return hold(unit, order, Reason.NO_UNIT_NAMED)
    if area not in board.areas or (area == unit.area and unit.kind is not UnitKind.GARRISON):
        return hold(unit, order, Reason.SUPPORT_OUT_OF_REACH)
    if unit.kind is UnitKind.GARRISON:
        if area != unit.area:
            return hold(unit, order, Reason.GARRISON_SUPPORTS_OWN_PROVINCE)
        return Operation(unit, order, Op.SUPPORT, target=area, beneficiary=beneficiary)
    if position.rebellions.get(unit.area) == unit.owner:
        return hold(unit, order, Reason.VICTIM_MAY_NOT_SUPPORT)
    if unit.kind is UnitKind.ARMY:
        reachable = area in board.army_reach(unit.area)
    else:
        reachable = bool(board.fleet_reaches(Location(unit.area, unit.coast), area))
    if reachable:
        if strait_closed(board, position, unit.area, area, unit.owner, permissions):
            return hold(unit, order, Reason.STRAIT_CLOSED)
        return Operation(unit, order, Op.SUPPORT, target=area, beneficiary=beneficiary)
    lagoon = board.lagoon
    if lagoon is not None and unit.kind is UnitKind.FLEET and (
        (area == lagoon.island and lagoon.sea in board.fleet_areas(unit.area))
        or (unit.area == lagoon.island and area in board.fleet_areas(lagoon.sea))
    ):
        guard = position.province_unit(lagoon.sea)
        if guard is not None and guard.owner not in (unit.owner, beneficiary):
            return hold(unit, order, Reason.LAGOON_CLOSED)
        return Operation(unit, order, Op.SUPPORT, target=area, beneficiary=beneficiary)
    return hold(unit, order, Reason.SUPPORT_OUT_OF_REACH)


def _besiege(board: Board, position: Position, unit: Unit, order: Besiege) -> Operation:
    """A siege of an enemy garrison or a rebelling city (9.4, 14), or the Hold it becomes."""
    if unit.kind is UnitKind.GARRISON:
        return hold(unit, order, Reason.WRONG_UNIT)
    lagoon = board.lagoon
    area = lagoon.island if lagoon is not None and unit.area == lagoon.sea else unit.area
    city = board.areas[area].city
    garrison = position.garrison(area)
    enemy = garrison is not None and garrison.owner != unit.owner
    if city is None or not city.fortified or not (enemy or position.city_rebelling(area)):
        return hold(unit, order, Reason.NOTHING_TO_BESIEGE)
    if unit.kind is UnitKind.FLEET and not city.port:
        return hold(unit, order, Reason.FLEET_BESIEGES_PORT_ONLY)
    return Operation(unit, order, Op.BESIEGE, target=area)


def _convert(board: Board, position: Position, unit: Unit, order: Convert) -> Operation:
    """A conversion (9.7, M23), or the Hold it becomes."""
    area = board.areas[unit.area]
    city = area.city
    if (unit.kind is UnitKind.GARRISON) == (order.into is UnitKind.GARRISON):
        return hold(unit, order, Reason.WRONG_UNIT)
    if city is None or not city.fortified:
        return hold(unit, order, Reason.NO_FORTIFIED_CITY)
    fleet = UnitKind.FLEET in (unit.kind, order.into)
    if fleet and not city.port:
        return hold(unit, order, Reason.NOT_A_PORT)
    coast: str | None = None
    if unit.kind is UnitKind.GARRISON:
        coast = order.coast if order.into is UnitKind.FLEET else None
        if order.into is UnitKind.FLEET and area.coasts and coast not in area.coasts:
            return hold(unit, order, Reason.COAST_UNCLEAR if coast is None else Reason.NO_SUCH_COAST)
    else:
        if position.garrison(unit.area) is not None:
            return hold(unit, order, Reason.CITY_OCCUPIED)
        if position.city_rebelling(unit.area):
            return hold(unit, order, Reason.CITY_REBELLING)
    return Operation(unit, order, Op.CONVERT, target=unit.area, into=order.into, coast=coast)


def _friendly_conflicts(position: Position, ops: dict[Place, Operation]) -> None:
    """Turn into Holds the operations that would set own units against each other (13.4, M26)."""
    changed = True
    while changed:
        changed = False
        by_target: dict[str, list[Operation]] = defaultdict(list)
        for op in ops.values():
            if op.attacks is not None:
                by_target[op.attacks].append(op)
        for area, attacks in by_target.items():
            stays = _staying_unit(position, ops, area)
            for op in attacks:
                twins = [o for o in attacks if o.unit.owner == op.unit.owner]
                own_stays = stays is not None and stays.owner == op.unit.owner
                if len(twins) > 1 or own_stays:
                    ops[op.unit.place] = hold(op.unit, op.order, Reason.FRIENDLY_CONFLICT)
                    changed = True
        for op in list(ops.values()):
            if op.op is Op.SUPPORT and op.target is not None and op.beneficiary != op.unit.owner:
                stays = _staying_unit(position, ops, op.target)
                if stays is not None and stays.owner == op.unit.owner:
                    ops[op.unit.place] = hold(op.unit, op.order, Reason.FRIENDLY_CONFLICT)
                    changed = True


def _staying_unit(position: Position, ops: Mapping[Place, Operation], area: str) -> Unit | None:
    """The army or fleet in ``area`` if it is not ordered out of the province."""
    unit = position.province_unit(area)
    if unit is None:
        return None
    op = ops[unit.place]
    return None if op.op is Op.ADVANCE or op.enters_city else unit


def _transports(position: Position, ops: dict[Place, Operation]) -> None:
    """Mark transported advances whose fleets do not all transport for the army's owner (M24)."""
    users: dict[Place, list[Place]] = defaultdict(list)
    for op in ops.values():
        for area in op.route if op.op is Op.ADVANCE else ():
            users[Place(area)].append(op.unit.place)
    for place, op in list(ops.items()):
        if op.op is not Op.ADVANCE or not op.route:
            continue
        failure: Reason | None = None
        for area in op.route:
            fleet_op = ops[Place(area)]
            if fleet_op.op is not Op.TRANSPORT or fleet_op.beneficiary != op.unit.owner:
                failure = Reason.TRANSPORT_FAILED
            elif sum(ops[user].unit.owner == op.unit.owner for user in users[Place(area)]) > 1:
                failure = failure or Reason.TRANSPORT_AMBIGUOUS
        if failure is not None:
            ops[place] = replace(op, transport_failure=failure)


def supports_matched(ops: Mapping[Place, Operation]) -> dict[Place, Place | None]:
    """Each support and the one unit it supports (M18), None if no operation of the beneficiary
    is directed at the area, or if two are (then neither gets it)."""
    matched: dict[Place, Place | None] = {}
    for place, op in ops.items():
        if op.op is not Op.SUPPORT or op.target is None:
            continue
        candidates = [
            other.unit.place for other in ops.values()
            if other.unit.owner == op.beneficiary and other.op is not Op.SUPPORT
            and other.directed_at == op.target and not (other.unit.kind is UnitKind.GARRISON and other.op is Op.HOLD)
            and other.unit.place != place
        ]
        matched[place] = candidates[0] if len(candidates) == 1 else None
    return matched
