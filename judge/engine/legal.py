"""Which orders are legal in a position, and why an order is not.

"Legal" is the DATC's word (4.E.1): an order that, not knowing any other orders,
could be valid.  A move that needs a convoy is legal only if fleets on the board could form
a chain for it; a support only if the supporter could itself enter the province and the
supported unit could make the move without the supporter's help as a convoying fleet
(6.D.31); a convoy only if the fleet lies on some minimal convoy route (6.G.19).  An
illegal order is ignored and its unit holds.  The variant boards add three rules, all read
from the board's data: no support is given across a weak strait (Loeb9); a province closed
this season (Loeb9's Arctic Ocean outside spring) has no edges on the season's board, so
nothing enters it and its unit only holds, and in winter its owner may remove that unit;
builds are in any owned center where the board says so (Void).

:func:`check_order` both checks an order and *normalises* it: the unit designation is
taken from the board (a wrong or missing type or coast of the ordered unit is ignored,
DATC 4.B.5, 4.C.1, 4.C.2), army destinations lose any coast (4.B.6), and a fleet move to a
split-coast province gets the one coast it can reach (4.B.2).  Payola's offer validation
relies on :func:`legal_orders` and :func:`check_order` agreeing exactly.

Theory of operation.  Checking asks the map's tables (:mod:`judge.engine.map`: the
provinces each unit type can enter from each location, the coasts a fleet reaches) and the
position's convoy network (:mod:`judge.engine.convoys`), and returns either the normal
form or the rule broken: a few set lookups, no exceptions (the two are told apart by the
normal form's class: ``isinstance`` against the enum goes through its metaclass and is
several times slower).  An order already in normal form is returned as it is; other
normal forms come from the map's :class:`~judge.engine.orders.Lexicon`, so they are
shared values.  Whether a move or
support without convoy is legal depends on the map alone once its units stand as the order
names them: such an order, found legal once, is remembered per map (:func:`_map_legal`, by
text), and checking it again is one set lookup and a look at the board.

Enumeration works per position, not per unit.  What a unit could do from where it stands,
whatever else is on the board, is the map's business (:class:`_Reach`, once per map and
unit): its moves, and for each unit it might support, the supports it could give (of its
holding, and of its moves without convoy), once per map and pair.  What depends on the
board is computed once per position (:class:`_Choices`): each army's moves by convoy, the
armies a convoy could bring to each province (whose moves others may support), and each
fleet's convoys, read off the minimal routes of each army.  A unit's legal orders are then
its hold and moves, the supports it could give the units near it, the supports of moves
by convoy into the provinces it reaches, and its convoys.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cache, lru_cache
from types import MappingProxyType
from typing import Any

from judge.engine.map import GameMap, Location, Terrain
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
    lexicon,
)
from judge.engine.position import Dislodgement, PlacedUnit, Position
from judge.language import gettext as _


class Illegal(Enum):
    """One reason per rule an order can break; the value is the reason in English (what the results keep),
    `message` the sentence shown to a player, in the reader's language."""

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
    SUPPORT_ACROSS_STRAIT = "no support is given across a weak strait"
    CLOSED = "that province is closed this season: nothing moves or supports into or out of it"
    NO_SUPPORTED_UNIT = "there is no unit to support there"
    SUPPORTED_MOVE_ILLEGAL = "the supported unit could not make that move"
    CONVOY_NOT_AT_SEA = "only a fleet in a sea province can convoy"
    CONVOY_NOT_ARMY = "only armies can be convoyed"
    CONVOY_NOT_ON_ROUTE = "the fleet is not on any convoy route for that move"
    RETREAT_OCCUPIED = "the unit cannot retreat there: the province is occupied"
    RETREAT_TO_ATTACKER = "the unit cannot retreat to the province its attacker came from"
    RETREAT_TO_STANDOFF = "the unit cannot retreat there: the province was left empty by a standoff this turn"
    NO_ADJUSTMENT = "this power has no builds or removals to make"
    BUILD_NOT_HOME = "builds are only allowed in home supply centers"
    BUILD_NOT_CENTER = "builds are only allowed in supply centers"
    BUILD_NOT_OWNED = "the power does not own that supply center"
    BUILD_OCCUPIED = "that province is occupied"
    BUILD_NEEDS_TYPE = "say whether to build an army or a fleet (and the coast)"
    BUILD_FLEET_INLAND = "a fleet cannot be built inland"
    BUILD_NEEDS_COAST = "a fleet built there needs a coast"

    @property
    def message(self) -> str:
        """The reason in the reader's language (`judge.language`); the value stays the English the results keep."""
        return _worded()[self]


def _worded() -> dict[Illegal, str]:
    """Each reason as the reader reads it (`Illegal.message`)."""
    return {
        Illegal.NO_UNIT: _("there is no unit there"),
        Illegal.NOT_YOUR_UNIT: _("that unit belongs to another power"),
        Illegal.WRONG_PHASE: _("that kind of order cannot be given in this phase"),
        Illegal.NOT_DISLODGED: _("only dislodged units are ordered in a retreat phase"),
        Illegal.OWN_PROVINCE: _("a unit cannot move to the province it is in"),
        Illegal.ARMY_TO_SEA: _("an army cannot move to a sea province"),
        Illegal.FLEET_INLAND: _("a fleet cannot move to an inland province"),
        Illegal.IMPASSABLE: _("that province is impassable"),
        Illegal.NOT_ADJACENT: _("the destination is not adjacent and no convoy route exists"),
        Illegal.NO_CONVOY_ROUTE: _("no chain of fleets could convoy that move"),
        Illegal.COAST_NEEDED: _("the destination has two coasts the fleet could reach: name one"),
        Illegal.WRONG_COAST: _("the fleet cannot reach that coast"),
        Illegal.SUPPORT_SELF: _("a unit cannot support itself"),
        Illegal.SUPPORT_OWN_PROVINCE: _("a unit cannot support a move into its own province"),
        Illegal.SUPPORT_UNREACHABLE: _("the supporting unit could not move to that province itself"),
        Illegal.SUPPORT_ACROSS_STRAIT: _("no support is given across a weak strait"),
        Illegal.CLOSED: _("that province is closed this season: nothing moves or supports into or out of it"),
        Illegal.NO_SUPPORTED_UNIT: _("there is no unit to support there"),
        Illegal.SUPPORTED_MOVE_ILLEGAL: _("the supported unit could not make that move"),
        Illegal.CONVOY_NOT_AT_SEA: _("only a fleet in a sea province can convoy"),
        Illegal.CONVOY_NOT_ARMY: _("only armies can be convoyed"),
        Illegal.CONVOY_NOT_ON_ROUTE: _("the fleet is not on any convoy route for that move"),
        Illegal.RETREAT_OCCUPIED: _("the unit cannot retreat there: the province is occupied"),
        Illegal.RETREAT_TO_ATTACKER: _("the unit cannot retreat to the province its attacker came from"),
        Illegal.RETREAT_TO_STANDOFF: _("the unit cannot retreat there: the province was left empty by a standoff "
                                       "this turn"),
        Illegal.NO_ADJUSTMENT: _("this power has no builds or removals to make"),
        Illegal.BUILD_NOT_HOME: _("builds are only allowed in home supply centers"),
        Illegal.BUILD_NOT_CENTER: _("builds are only allowed in supply centers"),
        Illegal.BUILD_NOT_OWNED: _("the power does not own that supply center"),
        Illegal.BUILD_OCCUPIED: _("that province is occupied"),
        Illegal.BUILD_NEEDS_TYPE: _("say whether to build an army or a fleet (and the coast)"),
        Illegal.BUILD_FLEET_INLAND: _("a fleet cannot be built inland"),
        Illegal.BUILD_NEEDS_COAST: _("a fleet built there needs a coast"),
    }


@dataclass(frozen=True, slots=True)
class Verdict:
    """The outcome of :func:`check_order`: the normalised order, or why it is illegal."""

    order: Order
    illegal: Illegal | None = None

    @property
    def legal(self) -> bool:
        return self.illegal is None


def check_order(position: Position, power: str | None, order: Order) -> Verdict:
    """Check an order given by ``power`` (``None``: any power may order any unit)."""
    checked = normal_form(position, power, order)
    return Verdict(order, checked) if isinstance(checked, Illegal) else Verdict(checked)


def normal_form(position: Position, power: str | None, order: Order) -> Order | Illegal:
    """The order in normal form if it is legal, else the rule it breaks (:func:`check_order`'s work)."""
    return checker(position.phase.kind)(position, power, order)


def checker(kind: PhaseKind) -> Callable[[Position, str | None, Order], Order | Illegal]:
    """:func:`normal_form` for the phases of one kind: what to call for each of many orders."""
    if kind is PhaseKind.MOVEMENT:
        return _check_movement
    return _check_retreat if kind is PhaseKind.RETREAT else _check_adjustment


# -- geometry -----------------------------------------------------------------------------

_NO_COASTS: Mapping[str, tuple[Location, ...]] = MappingProxyType({})
_NOWHERE: frozenset[str] = frozenset()


def _step(game_map: GameMap, unit: Unit, dest: Location) -> Location | Illegal:
    """The location a move without convoy by this (board) unit to ``dest`` would enter.

    The map's tables answer for the moves a unit can make; why a move is refused is worked
    out only when it is.
    """
    here = unit.location
    if unit.is_fleet:
        reached = game_map.fleet_reach.get(here.text, _NO_COASTS).get(dest.province)
        if reached is not None:
            if dest.coast is None:
                return Illegal.COAST_NEEDED if len(reached) > 1 else reached[0]
            return dest if dest in reached else Illegal.WRONG_COAST
    elif dest.province in game_map.army_adjacency.get(here.province, _NOWHERE):
        return dest if dest.coast is None else game_map.place(dest.province)
    if dest.province == here.province:
        return Illegal.OWN_PROVINCE
    if dest.province in game_map.impassable:
        return Illegal.IMPASSABLE
    if dest.province in game_map.closed or here.province in game_map.closed:
        return Illegal.CLOSED
    if unit.is_fleet and dest.province in game_map.inland:
        return Illegal.FLEET_INLAND
    if not unit.is_fleet and dest.province in game_map.seas and not game_map.army_can_stand(dest.province):
        return Illegal.ARMY_TO_SEA
    return Illegal.NOT_ADJACENT


def _move_target(
    position: Position, unit: Unit, dest: Location, via_convoy: bool, without: str | None = None
) -> Location | Illegal:
    """Where a move would go: by land or sea, else (armies) by a convoy of the fleets at sea
    other than the one in ``without``; by convoy only when ``via_convoy``."""
    if unit.is_fleet:
        return Illegal.CONVOY_NOT_ARMY if via_convoy else _step(position.game_map, unit, dest)
    if not via_convoy:
        reached = _step(position.game_map, unit, dest)
        if isinstance(reached, Location) or reached is not Illegal.NOT_ADJACENT:
            return reached
    start = unit.location.province
    if dest.province == start:
        return Illegal.OWN_PROVINCE
    if not position.convoys.route_exists(start, dest.province, without):
        return Illegal.NO_CONVOY_ROUTE if via_convoy else Illegal.NOT_ADJACENT
    return position.game_map.place(dest.province)


def _supported_target(position: Position, supporter: str, target: Unit, dest: Location) -> Location | Illegal:
    """The destination of a supported move: the supported unit must be able to make it.

    A coast in the support must be one the supported fleet can reach; no coast is fine
    (DATC 6.B.7, 6.B.15).  A convoyed move must be possible without the supporter (6.D.31).
    """
    game_map = position.game_map
    bare = dest if dest.coast is None else game_map.place(dest.province)
    if target.is_fleet:
        reached = _step(game_map, target, dest)
        if isinstance(reached, Location):
            return reached if dest.coast else bare
        return bare if reached is Illegal.COAST_NEEDED else Illegal.SUPPORTED_MOVE_ILLEGAL
    reached = _move_target(position, target, bare, False, without=supporter)
    return reached if isinstance(reached, Location) else Illegal.SUPPORTED_MOVE_ILLEGAL


# -- checking -----------------------------------------------------------------------------


def _check_movement(position: Position, power: str | None, order: Order) -> Order | Illegal:
    check = _MOVEMENT_CHECKS.get(type(order))
    if check is None:
        return Illegal.WRONG_PHASE
    # Only movement orders have a check, and every one of them has a unit.
    placed = position.units.get(order.unit.location.province)  # type: ignore[union-attr]
    if placed is None:
        return Illegal.NO_UNIT
    if power is not None and placed.power != power:
        return Illegal.NOT_YOUR_UNIT
    return check(position, placed.unit, order)


def _check_hold(position: Position, unit: Unit, order: Hold) -> Order | Illegal:
    return order if order.unit is unit or order.unit == unit else lexicon(position.game_map).make(Hold, unit)


def _check_move(position: Position, unit: Unit, order: Move) -> Order | Illegal:
    named = order.unit is unit or order.unit == unit
    known = _map_legal(position.game_map)
    if named and order.text in known:
        return order
    dest = _move_target(position, unit, order.destination, order.via_convoy)
    if not isinstance(dest, Location):
        return dest
    if named and order.destination == dest:
        if not order.via_convoy and dest.province in _reachable(position.game_map, unit):
            _remember(known, order)
        return order
    return lexicon(position.game_map).make(Move, unit, dest, order.via_convoy)


def _reachable(game_map: GameMap, unit: Unit) -> frozenset[str]:
    """The provinces a (board) unit could move to without convoy."""
    if unit.is_fleet:
        return game_map.fleet_provinces.get(unit.location.text, _NOWHERE)
    return game_map.army_adjacency.get(unit.location.province, _NOWHERE)


_MAP_LEGAL_LIMIT = 1 << 17  # texts remembered per map; a full set starts again empty


@cache
def _map_legal(game_map: GameMap) -> set[str]:
    """The texts of the orders found legal by the map alone: moves and supports of moves
    without convoy, in normal form, legal whenever their units stand as the order names them."""
    return set()


def _remember(known: set[str], order: Order) -> None:
    if len(known) >= _MAP_LEGAL_LIMIT:
        known.clear()
    known.add(order.text)


def _check_support_hold(position: Position, unit: Unit, order: SupportHold) -> Order | Illegal:
    target = position.units.get(order.supported.location.province)
    if target is None:
        return Illegal.NO_UNIT
    supported = target.unit
    if supported.location.province == unit.location.province:
        return Illegal.SUPPORT_SELF
    if supported.location.province not in _reachable(position.game_map, unit):
        return _unreachable(position.game_map, unit.location.province, supported.location.province)
    if position.game_map.weak and _across_strait(position.game_map, unit, supported.location.province):
        return Illegal.SUPPORT_ACROSS_STRAIT
    if (order.unit is unit or order.unit == unit) and (order.supported is supported or order.supported == supported):
        return order
    return lexicon(position.game_map).make(SupportHold, unit, supported)


def _check_support_move(position: Position, unit: Unit, order: SupportMove) -> Order | Illegal:
    target = position.units.get(order.supported.location.province)
    if target is None:
        return Illegal.NO_SUPPORTED_UNIT
    supported, here, dest = target.unit, unit.location.province, order.destination
    named = (order.unit is unit or order.unit == unit) and (
        order.supported is supported or order.supported == supported
    )
    known = _map_legal(position.game_map)
    if named and order.text in known:
        return order
    if supported.location.province == here:
        return Illegal.SUPPORT_SELF
    if dest.province == here:
        return Illegal.SUPPORT_OWN_PROVINCE
    if dest.province not in _reachable(position.game_map, unit):
        return _unreachable(position.game_map, here, dest.province)
    if position.game_map.weak and _across_strait(position.game_map, unit, dest.province):
        return Illegal.SUPPORT_ACROSS_STRAIT
    normal = _supported_target(position, here, supported, dest)
    if not isinstance(normal, Location):
        return normal
    if named and normal == dest:
        if dest.province in _reachable(position.game_map, supported):
            _remember(known, order)  # the supported move is without convoy: the map decides
        return order
    return lexicon(position.game_map).make(SupportMove, unit, supported, normal)


def _unreachable(game_map: GameMap, here: str, there: str) -> Illegal:
    """Why a unit in ``here`` cannot support into ``there``, which it could not move to."""
    return Illegal.CLOSED if here in game_map.closed or there in game_map.closed else Illegal.SUPPORT_UNREACHABLE


def _across_strait(game_map: GameMap, unit: Unit, province: str) -> bool:
    """Whether a support by this unit into ``province`` would cross a weak strait (Loeb9): DPjudge
    refuses it (``about_loeb9``: "Support cannot be given across the strait")."""
    return province in game_map.weak.get(unit.location.province, _NOWHERE)


def _check_convoy(position: Position, unit: Unit, order: Convoy) -> Order | Illegal:
    here = unit.location.province
    game_map = position.game_map
    if here not in game_map.seas or not unit.is_fleet:
        return Illegal.CONVOY_NOT_AT_SEA
    army = position.units.get(order.army.location.province)
    if army is None:
        return Illegal.NO_SUPPORTED_UNIT
    if army.unit.is_fleet:
        return Illegal.CONVOY_NOT_ARMY
    dest = game_map.place(order.destination.province)
    if not position.convoys.on_minimal_route(army.location.province, dest.province, here):
        return Illegal.CLOSED if here in game_map.closed else Illegal.CONVOY_NOT_ON_ROUTE
    if order.unit == unit and order.army == army.unit and order.destination == dest:
        return order
    return lexicon(game_map).make(Convoy, unit, army.unit, dest)


# The rules of each kind of movement order, given the position, the ordered unit as it
# stands on the board and the order.
_MOVEMENT_CHECKS: dict[type, Callable[[Position, Unit, Any], Order | Illegal]] = {
    Hold: _check_hold,
    Move: _check_move,
    SupportHold: _check_support_hold,
    SupportMove: _check_support_move,
    Convoy: _check_convoy,
}


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
        candidates = [game_map.place(p) for p in sorted(game_map.army_adjacency.get(unit.province, ()))]
    barred = set(position.contested)
    if dislodged.attacker_from and not dislodged.via_convoy:
        barred.add(dislodged.attacker_from)
    return [c for c in candidates if c.province not in barred and c.province not in position.units]


def _check_retreat(position: Position, power: str | None, order: Order) -> Order | Illegal:
    if not isinstance(order, Retreat | Disband | Move | Hold | Remove):
        return Illegal.WRONG_PHASE
    dislodged = position.dislodged.get(order.unit.province)
    if dislodged is None:
        return Illegal.NOT_DISLODGED if order.unit.province in position.units else Illegal.NO_UNIT
    if power is not None and dislodged.power != power:
        return Illegal.NOT_YOUR_UNIT
    lex = lexicon(position.game_map)
    if isinstance(order, Disband | Remove):
        return lex.make(Disband, dislodged.unit)
    if not isinstance(order, Retreat | Move) or (isinstance(order, Move) and order.via_convoy):
        return Illegal.WRONG_PHASE
    dest = _step(position.game_map, dislodged.unit, order.destination)
    if isinstance(dest, Illegal):
        return dest
    if dest not in retreat_options(position, order.unit.province):
        return _retreat_barred(position, dislodged, dest)
    return lex.make(Retreat, dislodged.unit, dest)


def _retreat_barred(position: Position, dislodged: Dislodgement, dest: Location) -> Illegal:
    """Why a retreat to ``dest``, a place the unit could reach, is not among its options
    (`retreat_options`): the player is told which of the three bars it met."""
    if dest.province in position.units:
        return Illegal.RETREAT_OCCUPIED
    if dest.province == dislodged.attacker_from and not dislodged.via_convoy:
        return Illegal.RETREAT_TO_ATTACKER
    return Illegal.RETREAT_TO_STANDOFF


def adjustment_count(position: Position, power: str) -> int:
    """Builds (positive) or removals (negative) a power is due in an adjustment phase."""
    return len(position.centers_of(power)) - len(position.units_of(power))


def _check_adjustment(position: Position, power: str | None, order: Order) -> Order | Illegal:
    if isinstance(order, Waive):
        if power is not None and adjustment_count(position, power) <= 0:
            return Illegal.NO_ADJUSTMENT
        return order
    if isinstance(order, Remove | Disband):
        placed = position.units.get(order.unit.province)
        if placed is None:
            return Illegal.NO_UNIT
        if power is not None and placed.power != power:
            return Illegal.NOT_YOUR_UNIT
        if adjustment_count(position, placed.power) >= 0 and order.unit.province not in position.game_map.closed:
            return Illegal.NO_ADJUSTMENT
        return lexicon(position.game_map).make(Remove, placed.unit)
    if not isinstance(order, Build):
        return Illegal.WRONG_PHASE
    return _check_build(position, power, order.unit)


def _check_build(position: Position, power: str | None, unit: Unit) -> Build | Illegal:
    game_map = position.game_map
    province = unit.province
    if game_map.build_anywhere:
        # Void (DPjudge's BUILD_ANY): in any supply center the power owns.
        if province not in game_map.supply_centers:
            return Illegal.BUILD_NOT_CENTER
        builder = position.centers.get(province)
        if builder is None or (power is not None and builder != power):
            return Illegal.BUILD_NOT_OWNED
    else:
        builder = game_map.home_power(province)
        if builder is None or (power is not None and builder != power):
            return Illegal.BUILD_NOT_HOME
        if position.centers.get(province) != builder:
            return Illegal.BUILD_NOT_OWNED
    if province in position.units:
        return Illegal.BUILD_OCCUPIED
    if adjustment_count(position, builder) <= 0:
        return Illegal.NO_ADJUSTMENT
    terrain = game_map.provinces[province].terrain
    unit_type = unit.type
    if unit_type is None:
        # DATC 4.C.3: an army inland, a fleet where a coast is named; otherwise ambiguous.
        if terrain is Terrain.LAND:
            unit_type = UnitType.ARMY
        elif unit.location.coast:
            unit_type = UnitType.FLEET
        else:
            return Illegal.BUILD_NEEDS_TYPE
    lex = lexicon(game_map)
    if unit_type is UnitType.ARMY:
        return lex.make(Build, lex.unit(UnitType.ARMY, game_map.place(province)))
    places = game_map.fleet_locations(province)
    if not places:
        return Illegal.BUILD_FLEET_INLAND
    if len(places) > 1 and unit.location not in places:
        return Illegal.BUILD_NEEDS_COAST
    where = game_map.place(province, unit.location.coast) if len(places) > 1 else places[0]
    return lex.make(Build, lex.unit(UnitType.FLEET, where))


# -- enumeration ------------------------------------------------------------------------


def legal_orders(position: Position, province: str) -> list[Order]:
    """Every legal order for the unit in ``province`` (the dislodged one in a retreat phase).

    Each order is given once, in its normalised form, so that an order is in this list
    exactly when :func:`check_order` accepts it and normalises it to that form.  Movement
    orders come as: hold; moves (by land or sea, then by convoy); supports, by supported
    unit (of its holding, then of its moves without convoy, the province alone before its
    coasts); supports of moves by convoy (by destination, then army); convoys (by army,
    then destination).  In an adjustment phase a unit's only possible order is its
    removal, when its power must remove units or the unit stands in a province closed in
    winter (Loeb9's Arctic Ocean); builds are :func:`legal_builds`.
    """
    kind = position.phase.kind
    lex = lexicon(position.game_map)
    if kind is PhaseKind.RETREAT:
        dislodged = position.dislodged.get(province)
        if dislodged is None:
            return []
        retreats: list[Order] = [lex.make(Retreat, dislodged.unit, d) for d in retreat_options(position, province)]
        return [*retreats, lex.make(Disband, dislodged.unit)]
    placed = position.units.get(province)
    if placed is None:
        return []
    if kind is PhaseKind.ADJUSTMENT:
        removable = adjustment_count(position, placed.power) < 0 or province in position.game_map.closed
        return [lex.make(Remove, placed.unit)] if removable else []
    return _choices(position).orders(placed)


def build_sites(position: Position, power: str) -> list[str]:
    """Where a power may build (when unoccupied), sorted: the home centers it owns, or on a
    board with builds in any owned center (Void) every center it owns."""
    if position.game_map.build_anywhere:
        return sorted(c for c, owner in position.centers.items() if owner == power)
    return sorted(c for c in position.game_map.powers[power].home_centers if position.centers.get(c) == power)


def legal_builds(position: Position, power: str) -> list[Order]:
    """Every legal build of a power in an adjustment phase, then ``WAIVE``; none if it has no builds."""
    if position.phase.kind is not PhaseKind.ADJUSTMENT or adjustment_count(position, power) <= 0:
        return []
    game_map = position.game_map
    lex = lexicon(game_map)
    builds: list[Order] = []
    for province in build_sites(position, power):
        if province in position.units:
            continue
        if game_map.army_can_stand(province):
            builds.append(lex.make(Build, lex.unit(UnitType.ARMY, game_map.place(province))))
        builds.extend(lex.make(Build, lex.unit(UnitType.FLEET, where)) for where in game_map.fleet_locations(province))
    return [*builds, lex.make(Waive)]


class _Reach:
    """What a unit could do from where it stands, whatever else is on the board (once per map and unit).

    ``provinces``: where it could move without convoy, sorted; ``moves``: those moves;
    ``targets``: for each of those provinces, the destinations a support of the move may
    name (the province alone, then the coasts a fleet reaches); ``supported``: the provinces
    it could support into (all of ``provinces`` but those across a weak strait); ``near``:
    sorted, the provinces where a unit it could support (holding, or moving without convoy)
    may stand.
    """

    def __init__(self, game_map: GameMap, unit: Unit) -> None:
        self.game_map, self.unit = game_map, unit
        lex = lexicon(game_map)
        if unit.type is UnitType.ARMY:
            places = [game_map.place(p) for p in sorted(game_map.army_adjacency.get(unit.province, ()))]
            targets = [(p.province, p) for p in places]
        else:
            places = sorted(game_map.fleet_adjacency.get(unit.location, ()))
            targets = []
            for province, coasts in sorted(game_map.fleet_reach.get(unit.location.text, {}).items()):
                # A support may name the province alone, or a coast the fleet can reach (6.B.7).
                targets.append((province, game_map.place(province)))
                targets.extend((province, coast) for coast in coasts if coast.coast)
        self.provinces = tuple(sorted({p.province for p in places}))
        self.moves = tuple(lex.make(Move, unit, p, False) for p in places)
        self.targets = tuple(targets)
        across = game_map.weak.get(unit.province, _NOWHERE)
        self.supported = tuple(p for p in self.provinces if p not in across)
        near = set(self.supported).union(*(game_map.neighbours[p] for p in self.supported)) - {unit.province}
        self.near = tuple(sorted(near))
        self._supports: dict[str, tuple[SupportHold | SupportMove, ...]] = {}

    def supports(self, other: Unit) -> tuple[SupportHold | SupportMove, ...]:
        """The unit's supports of ``other``: of its holding, then of its moves without convoy."""
        found = self._supports.get(other.text)
        if found is None:
            lex = lexicon(self.game_map)
            held = [lex.make(SupportHold, self.unit, other)] if other.province in self.supported else []
            moves = [
                lex.make(SupportMove, self.unit, other, dest)
                for province, dest in _reach(self.game_map, other).targets
                if province in self.supported
            ]
            found = self._supports[other.text] = (*held, *moves)
        return found


@cache
def _reach(game_map: GameMap, unit: Unit) -> _Reach:
    return _Reach(game_map, unit)


class _Choices:
    """The part of the legal orders of the units of a movement position that depends on the board.

    Computed once per position: each army's moves by convoy, the supports of them others
    could give (``by_convoy``: for each province, the armies a convoy could bring there,
    and not by land), and each fleet's legal convoys.  The rest is per map and unit.
    """

    def __init__(self, position: Position) -> None:
        self.position = position
        game_map = position.game_map
        self.lex = lex = lexicon(game_map)
        network = position.convoys
        self.units = units = dict(position.units)  # a plain dict: quicker to look up than the read-only view
        self.convoy_moves: dict[str, list[Move]] = {}
        self.by_convoy: dict[str, list[PlacedUnit]] = {}
        self.convoys: dict[str, list[Convoy]] = {}
        for province in sorted(units):
            placed = units[province]
            if placed.unit.is_fleet or not network.destinations(province):
                continue
            adjacent = game_map.army_adjacency.get(province, frozenset())
            moves = self.convoy_moves[province] = []
            routes = network.minimal_routes(province)
            for target in sorted(network.destinations(province)):
                dest = game_map.place(target)
                if target not in adjacent:
                    self.by_convoy.setdefault(target, []).append(placed)
                    moves.append(lex.make(Move, placed.unit, dest, False))
                moves.append(lex.make(Move, placed.unit, dest, True))
                for fleet in routes[target]:
                    self.convoys.setdefault(fleet, []).append(lex.make(Convoy, units[fleet].unit, placed.unit, dest))
        # Armies were taken in the order of their provinces: every list is in that order.

    def orders(self, placed: PlacedUnit) -> list[Order]:
        """The unit's legal orders, in the order :func:`legal_orders` documents."""
        unit, here = placed.unit, placed.location.province
        game_map, units = self.position.game_map, self.units
        reach = _reach(game_map, unit)
        orders: list[Order] = [self.lex.make(Hold, unit), *reach.moves, *self.convoy_moves.get(here, ())]
        for province in reach.near:
            other = units.get(province)
            if other is not None:
                orders.extend(reach.supports(other.unit))
        network = self.position.convoys
        at_sea = here in network.fleet_seas
        for province in reach.supported:
            for army in self.by_convoy.get(province, ()):
                # Never the unit itself: it could go there without convoy.
                if at_sea and network.needs_fleet(army.location.province, province, here):
                    continue  # the move needs this fleet's convoy (6.D.31)
                orders.append(self.lex.make(SupportMove, unit, army.unit, game_map.place(province)))
        orders.extend(self.convoys.get(here, ()))
        return orders


@lru_cache(maxsize=8)
def _choices(position: Position) -> _Choices:
    """The choices of a position, kept for the last few positions asked about."""
    return _Choices(position)
