"""Tin Cup (rule 6.3): what each power sees of the board, by the Blind variant's rules.

Rule 6.3 item 1 lets "the usual rules of the Blind variant" decide which portions of the
board each player sees in the results of a phase.  The judge follows DPjudge's BLIND rule:

* A power's *eyes* are the provinces where its units stood when the phase began or stand when
  it ended (a dislodged unit stands where it was dislodged), and its home supply centers,
  owned or not.  Its *view* is its eyes and every province adjacent to one, by land or sea.
* It sees all of its own units, their orders and results, and every center it owns.
* It sees a foreign unit *before* the phase if the unit stood in view when the phase began,
  and *after* it if the unit stands in view when it ended.  Seen both times, the unit is
  shown with its order and result.  Seen only before, it ``DEPARTS`` (it moved or retreated
  out of view) or is ``LOST`` (it left the board: disbanded, or removed); seen only after,
  it ``ARRIVES`` (it moved or retreated into view) or is ``FOUND`` (it came onto the board:
  built).  A unit that stays put is seen both times or not at all.
* It sees who owns the foreign-owned centers in view; every other center appears unowned.
  Counts of units and centers, and what is owed in adjustments, it sees for itself only (the
  service shows no other power's).

Decisions where the rules are silent, in the spirit of the variant (a power learns what its
units could witness):

* **Void** orders are never told (the rule): a void support or convoy is told as an order
  that stood, with no mark; so is an order that was illegal only because a unit it names
  out of view was not there (possible with LOYAL_UNITS: such an order is taken without a
  word when given, :func:`in_the_dark`).  An order naming an empty province in view, or
  illegal for any other reason, is refused and told as usual: that reveals nothing.  Of a foreign order the power is
  told the result and its reason (bounce, cut, dislodged), never an invalid order's detail.
* **Adjustments**: other powers' build and removal orders are never told, since a failed one
  tells what that power owed; their units show as FOUND and LOST.
* **Standoffs** are seen through the units in them: a bounce between units out of view is not
  told, even in a province in view, and the board as the power sees it (``contested``) holds
  only the standoffs it saw a unit of (its own, or one seen before and after: :func:`witness`).
  So its own dislodged units' retreats, reckoned on that board, list a province in view that
  an unseen standoff left empty, and a retreat there is taken like any other; the adjudication,
  on the true board, bars it and the unit is disbanded, which the power is told with the
  retreat's result (``fails: standoff``).  Why not tell the power of the standoff next to its
  unit instead: that tells what no unit of it saw, before it did anything, where this tells
  it only what its unit met by going there, as a retreat that bounces off an unseen unit's
  does.  A **support from out of view** is not told; the supported order is, if in view.
* **Dislodged** foreign units in view are shown dislodged, with where their attacker came
  from only when that is in view too.

:func:`witness` gives a power's :class:`Sight` of a phase: the positions before and after as
it saw them (a filtered :class:`Position`, for the mail's board and the maps: unseen units
are absent and unseen centers unowned), the orders it is told, and its sightings.  The
current position as a power sees it is the ``after`` of the phase that led to it (or, at the
start of a game, ``witness(power, position, (), position)``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from judge.engine.legal import check_order
from judge.engine.orders import (
    Build,
    Convoy,
    Move,
    Order,
    PhaseKind,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
    Waive,
)
from judge.engine.position import Dislodgement, PlacedUnit, Position
from judge.engine.results import OrderResult, Outcome


class Glimpse(Enum):
    """What a power saw of a foreign unit it saw only before or only after a phase."""

    ARRIVES = "ARRIVES"  # moved or retreated into view
    DEPARTS = "DEPARTS"  # moved or retreated out of view
    LOST = "LOST"  # left the board in view: disbanded or removed
    FOUND = "FOUND"  # came onto the board in view: built


@dataclass(frozen=True, slots=True)
class Sighting:
    """A foreign unit seen only before or only after a phase: whose, where it was seen, and how."""

    power: str
    unit: Unit
    glimpse: Glimpse

    def __str__(self) -> str:
        kind = "Fleet" if self.unit.type is UnitType.FLEET else "Army"
        return f"{kind} {self.unit.location} {self.glimpse.value}."


@dataclass(frozen=True)
class Sight:
    """What one power saw of a phase: the provinces in its ``view``, the position ``before``
    and ``after`` the phase as it saw them, the ``results`` it is told (its own orders and
    those of foreign units seen before and after), and its ``sightings`` of the others."""

    power: str
    view: frozenset[str]
    before: Position
    results: tuple[OrderResult, ...]
    sightings: tuple[Sighting, ...]
    after: Position


@dataclass(frozen=True, slots=True)
class _Track:
    """One unit through a phase: where it stood (None: built) and stands (None: gone)."""

    power: str
    start: Unit | None
    end: Unit | None


def eyes(power: str, *positions: Position) -> frozenset[str]:
    """The provinces ``power`` looks from: its home centers, and where its units (dislodged
    ones too) stand in any of ``positions``."""
    game_map = positions[0].game_map
    found = set(game_map.powers[power].home_centers)
    for position in positions:
        found.update(p for p, u in position.units.items() if u.power == power)
        found.update(p for p, d in position.dislodged.items() if d.power == power)
    return frozenset(found)


def in_view(power: str, *positions: Position) -> frozenset[str]:
    """The provinces ``power`` sees across ``positions``: its eyes and their neighbours."""
    game_map = positions[0].game_map.board  # the whole board: a province closed this season is still seen
    looking = eyes(power, *positions)
    return looking.union(*(game_map.any_neighbours(p) for p in looking))


def as_seen(position: Position, power: str, view: frozenset[str], standoffs: frozenset[str] = frozenset()) -> Position:
    """``position`` as ``power`` sees it with ``view``: its own units and centers, and of the
    others only the units, dislodged units and owners in view; of its standoffs only those in
    ``standoffs``, the ones it saw a unit bounce in."""
    units = {p: u for p, u in position.units.items() if u.power == power or p in view}
    dislodged = {}
    for province, d in position.dislodged.items():
        if d.power == power or province in view:
            shown = d.attacker_from in view
            dislodged[province] = Dislodgement(d.power, d.unit, d.attacker_from if shown else None,
                                               d.via_convoy and shown)
    centers = {c: owner for c, owner in position.centers.items() if owner == power or c in view}
    return position.evolve(units=units, centers=centers, dislodged=dislodged, contested=position.contested & standoffs)


def named_units(order: Order) -> tuple[Unit, ...]:
    """The units an order names: the unit ordered, then any unit it supports or convoys."""
    if isinstance(order, Waive):
        return ()
    if isinstance(order, SupportHold | SupportMove):
        return order.unit, order.supported
    if isinstance(order, Convoy):
        return order.unit, order.army
    return (order.unit,)


def absent(unit: Unit, seen: Position) -> bool:
    """Whether ``unit`` is not on the board ``seen`` (no unit there, or one of another type):
    on a power's :func:`as_seen` position, whether the power cannot see such a unit."""
    placed = seen.units.get(unit.province)
    return placed is None or (unit.type is not None and unit.type is not placed.unit.type)


def in_the_dark(position: Position, power: str, order: Order, view: frozenset[str]) -> bool:
    """Whether ``order``, given by ``power`` on ``position``, names beside the unit ordered a
    unit out of its ``view``, and would be legal were that unit there as named: such an order
    is taken, and told, alike whether that unit is there or not."""
    hidden = [u for u in named_units(order)[1:] if u.province not in view]
    if not hidden:
        return False
    game_map, units = position.game_map, dict(position.units)
    for unit in hidden:
        placed = units.get(unit.province)
        kind = unit.type or (placed.unit.type if placed else
                             UnitType.ARMY if game_map.army_can_stand(unit.province) else UnitType.FLEET)
        units[unit.province] = PlacedUnit(placed.power if placed else power, Unit(kind, unit.location))
    return check_order(position.evolve(units=units), power, order).illegal is None


def witness(power: str, before: Position, results: Sequence[OrderResult], after: Position) -> Sight:
    """What ``power`` saw of the phase that went from ``before`` to ``after`` with ``results``
    (see the module's header for the rules)."""
    view = in_view(power, before, after)
    tracks = _tracks(before, results, after)
    seen_both: set[tuple[str, str]] = set()  # (power, province): a dislodged unit shares its province
    sightings: list[Sighting] = []
    for track in tracks:
        if track.power == power:
            continue
        start = track.start is not None and track.start.province in view
        end = track.end is not None and track.end.province in view
        if start and end:
            assert track.start is not None
            seen_both.add((track.power, track.start.province))
        elif start:
            assert track.start is not None
            sightings.append(Sighting(track.power, track.start, Glimpse.DEPARTS if track.end else Glimpse.LOST))
        elif end:
            assert track.end is not None
            sightings.append(Sighting(track.power, track.end, Glimpse.ARRIVES if track.start else Glimpse.FOUND))
    seen_before = as_seen(before, power, view)  # a retreat phase's standoffs are drawn nowhere: none
    told = []
    for result in results:
        if result.power == power:
            told.append(_told_own(result, before, view))
        elif before.phase.kind is not PhaseKind.ADJUSTMENT and not isinstance(result.order, str | Waive) \
                and (result.power, result.order.unit.province) in seen_both:
            told.append(_told_foreign(result))
    order = {p: i for i, p in enumerate(before.game_map.powers)}
    sightings.sort(key=lambda s: (order[s.power], s.unit.text))
    standoffs = frozenset(r.order.destination.province for r in told
                          if isinstance(r.order, Move) and r.reason == "bounce")  # the standoffs it saw
    return Sight(power, view, seen_before, tuple(told), tuple(sightings), as_seen(after, power, view, standoffs))


def _told_own(result: OrderResult, before: Position, view: frozenset[str]) -> OrderResult:
    """One of the power's own orders as it is told: void, or illegal only for want of a unit
    out of its view (:func:`in_the_dark`), reads as an order that stood; a retreat barred by a
    standoff reads as one that failed there (it was taken when sent: the power had not seen
    that standoff, see the module's header)."""
    order = result.order
    if result.outcome is Outcome.INVALID and isinstance(order, Retreat) \
            and order.destination.province in before.contested:
        return OrderResult(result.power, order, Outcome.FAILS, "standoff")
    if result.reason == "void" or (
        result.outcome is Outcome.INVALID and not isinstance(order, str)
        and in_the_dark(before, result.power, order, view)
    ):
        return OrderResult(result.power, order, Outcome.SUCCEEDS)
    return result


def _told_foreign(result: OrderResult) -> OrderResult:
    """A foreign unit's order as it is told: its result and reason, never void, never a detail."""
    if result.reason == "void":
        return OrderResult(result.power, result.order, Outcome.SUCCEEDS)
    return OrderResult(result.power, result.order, result.outcome, result.reason)


def _tracks(before: Position, results: Iterable[OrderResult], after: Position) -> list[_Track]:
    """Every unit through the phase, followed by its orders: moves and retreats that succeeded
    take it elsewhere; a dislodged unit that did not retreat, or a removed one, is gone."""
    went = {r.order.unit.province: r.order.destination.province for r in results
            if r.outcome is Outcome.SUCCEEDS and isinstance(r.order, Move | Retreat)}
    kind = before.phase.kind
    if kind is PhaseKind.RETREAT:  # only the dislodged units move; the others stay where they are
        tracks = [_Track(u.power, u.unit, u.unit) for u in before.units.values()]
        for province, d in before.dislodged.items():
            placed = after.units.get(went[province]) if province in went else None
            tracks.append(_Track(d.power, d.unit, placed.unit if placed else None))
        return tracks
    tracks = []
    for province, unit in before.units.items():
        if province in after.dislodged:
            end: Unit | None = after.dislodged[province].unit
        else:
            placed = after.units.get(went.get(province, province))
            end = placed.unit if placed is not None and placed.power == unit.power else None
        tracks.append(_Track(unit.power, unit.unit, end))
    if kind is PhaseKind.ADJUSTMENT:
        built = {r.order.unit.province for r in results
                 if r.outcome is Outcome.SUCCEEDS and isinstance(r.order, Build)}
        tracks.extend(_Track(after.units[p].power, None, after.units[p].unit) for p in sorted(built & set(after.units)))
    return tracks
