"""Properties of the Action phase on random positions with random orders (legal and not): no two
units share a place, every retreat goes to a place the rules allow, and no unit is created or
lost except by the disbands reported."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.games.machiavelli.core.action import adjudicate
from judge.games.machiavelli.core.board import Location
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
)
from judge.games.machiavelli.core.position import Independent, Owner, Place, Position, Siege, Unit, UnitKind
from judge.games.machiavelli.core.results import Adjudication
from tests.strength import examples

from .helpers import BOARD, SPRING, ref

POWERS = ("Florence", "Milan", "Papacy", "Venice")
# A crowded corner of the board, so that conflicts, transports, sieges and Venice come up often.
AREAS = sorted({"ven", "lag", "pad", "trv", "fri", "uas", "fer", "bol", "man", "ver", "vic", "mod", "par", "cre",
                "mil", "bre", "ber", "trt", "luc", "psa", "flo", "pst", "rma", "anc", "las", "urb", "egl", "gen",
                "ets", "pio", "sie", "wts", "cro", "ist", "dal", "crn"})


@st.composite
def positions(draw: st.DrawFn) -> Position:
    units: list[Unit] = []
    for area in AREAS:
        a = BOARD.areas[area]
        kinds = [UnitKind.ARMY] if a.is_land else []
        kinds += [UnitKind.FLEET] if BOARD.fleet_locations(area) else []
        owners: list[Owner] = [*POWERS, *POWERS, Independent(area)]
        if draw(st.booleans()):
            kind = draw(st.sampled_from(kinds))
            coast = draw(st.sampled_from(a.coasts)) if kind is UnitKind.FLEET and a.coasts else None
            units.append(Unit(kind, draw(st.sampled_from(owners)), area, coast))
        if a.fortified_city and not (a.single_unit and units and units[-1].area == area) and draw(st.booleans()):
            units.append(Unit(UnitKind.GARRISON, draw(st.sampled_from(owners)), area))
    lands = [area for area in AREAS if BOARD.areas[area].is_land]
    rebellions = {}
    for area in draw(st.lists(st.sampled_from(lands), max_size=4, unique=True)):
        here = [u for u in units if u.area == area and not u.place.city]
        rebellions[area] = here[0].owner if here else draw(st.sampled_from(POWERS))
    sieges = {}
    for unit in units:
        garrison = next((g for g in units if g.area == unit.area and g.place.city), None)
        if not unit.place.city and garrison is not None and garrison.owner != unit.owner and draw(st.booleans()):
            sieges[unit.area] = Siege(unit.owner)
    control = {area: draw(st.sampled_from([*POWERS, Independent(area)])) for area in lands if draw(st.booleans())}
    homes = {power: frozenset({power}) for power in POWERS if power != "Florence"}
    return Position.build(SPRING, units, control=control, rebellions=rebellions, sieges=sieges, homes=homes)


def _orders_for(draw: st.DrawFn, start: Position, unit: Unit) -> Order:
    """A random order for ``unit``, mostly advances and supports, sometimes impossible."""
    r = ref(unit)
    reach = sorted(BOARD.reach(unit.kind, unit.area))
    choices: list[Order] = [Hold(r)]
    choices += [Convert(r, kind) for kind in UnitKind if kind is not unit.kind]
    if unit.kind is UnitKind.GARRISON:
        area = draw(st.sampled_from([unit.area, *reach, *BOARD.army_reach(unit.area)]))
        choices += [Support(r, area, draw(st.sampled_from(_near(start, area))))] * 2
        return draw(st.sampled_from(choices))
    choices.append(Besiege(r))
    if reach:
        if unit.kind is UnitKind.FLEET:
            choices += [Advance(r, loc.area, loc.coast) for loc in BOARD.fleet_reach(Location(unit.area, unit.coast))]
        choices += [Advance(r, draw(st.sampled_from(reach)))] * 3
        area = draw(st.sampled_from(reach))
        choices += [Support(r, area, draw(st.sampled_from(_near(start, area))))] * 3
    if unit.kind is UnitKind.FLEET:
        choices += [Transport(r, draw(st.sampled_from(POWERS)))] * 2
    else:
        fleets = [u.area for u in start.units.values() if u.kind is UnitKind.FLEET
                  and BOARD.fleet_reaches(Location(u.area, u.coast), unit.area)]
        if fleets:
            fleet = start.province_unit(draw(st.sampled_from(fleets)))
            assert fleet is not None
            beyond = sorted(d.area for d in BOARD.fleet_reach(Location(fleet.area, fleet.coast))
                            if BOARD.areas[d.area].is_land and d.area != unit.area)
            if beyond:
                choices += [Advance(r, draw(st.sampled_from(beyond)), route=(fleet.area,))] * 3
    return draw(st.sampled_from(choices))


def _near(start: Position, area: str) -> list[str]:
    """The powers with a unit in or next to ``area``: the beneficiaries a support likely helps."""
    near = {area} | BOARD.army_reach(area) | BOARD.fleet_areas(area)
    owners = sorted({u.owner for u in start.units.values() if u.area in near and isinstance(u.owner, str)})
    return owners or list(POWERS)


@st.composite
def turns(draw: st.DrawFn) -> tuple[Position, dict[str, list[Order]], PhaseD, frozenset[Permission]]:
    start = draw(positions())
    written: dict[Place, tuple[str, Order]] = {}
    operated = {}
    for unit in start.units.values():
        if draw(st.integers(0, 9)) == 0:
            continue  # no order
        writer = unit.owner if isinstance(unit.owner, str) else draw(st.sampled_from(POWERS))
        if unit.independent:
            if not draw(st.booleans()):
                continue
            operated[unit.place] = writer
        written[unit.place] = (writer, _orders_for(draw, start, unit))
    # Plans: fleets transport the armies routed through them, units support advances they can reach.
    for writer, order in list(written.values()):
        if not isinstance(order, Advance):
            continue
        for area in order.route:
            fleet = start.province_unit(area)
            if fleet is not None and fleet.place in written and draw(st.integers(0, 4)):
                written[fleet.place] = (written[fleet.place][0], Transport(ref(fleet), writer))
        helpers = [u for u in start.units.values() if u.place in written and u.area != order.unit.area and (
            order.to in BOARD.reach(u.kind, u.area) or (u.kind is UnitKind.GARRISON and u.area == order.to))]
        for helper in draw(st.lists(st.sampled_from(helpers), max_size=2, unique=True)) if helpers else ():
            written[helper.place] = (written[helper.place][0], Support(ref(helper), order.to, writer))
    orders: dict[str, list[Order]] = {power: [] for power in POWERS}
    for writer, order in written.values():
        orders[writer].append(order)
    victims = draw(st.sampled_from([(), (), (), (draw(st.sampled_from(POWERS)),)]))
    phase_d = PhaseD(assassinated=frozenset(victims), operated=operated)
    permissions = frozenset(draw(st.lists(st.builds(Permission, st.sampled_from(POWERS), st.sampled_from(POWERS)),
                                          max_size=2)))
    return start, orders, phase_d, permissions


def _check(start: Position, done: Adjudication) -> None:
    end = done.position
    assert len(done.results) == len(start.units)
    assert len(start.units) == len(end.units) + len(done.disbanded)
    for unit in end.units.values():
        area = BOARD.areas[unit.area]
        if unit.kind is UnitKind.GARRISON:
            assert area.fortified_city, unit
        elif unit.kind is UnitKind.FLEET:
            assert Location(unit.area, unit.coast) in BOARD.fleet_edges, unit
        else:
            assert area.is_land, unit
        if area.single_unit:
            assert sum(u.area == unit.area for u in end.units.values()) == 1, unit
    attacked = {r.operation.to for r in done.results if isinstance(r.operation, Advance)}
    attacked |= {r.unit.area for r in done.results if isinstance(r.operation, Convert)
                 and r.unit.kind is UnitKind.GARRISON}
    for retreat in done.retreats:
        to, unit = retreat.to, retreat.unit
        if to is None:
            continue
        assert end.unit_at(to.place) == to
        if to.kind is not unit.kind:
            assert to.kind is UnitKind.GARRISON and to.area == unit.area and BOARD.areas[unit.area].fortified_city
            continue
        assert not unit.independent
        assert to.area in BOARD.reach(unit.kind, unit.area)
        assert to.area not in attacked and to.area != retreat.attacked_from
        assert start.rebellions.get(to.area) != unit.owner


@settings(max_examples=examples(80), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(turns())
def test_no_shared_places_legal_retreats_and_units_kept_except_reported_disbands(
        turn: tuple[Position, dict[str, list[Order]], PhaseD, frozenset[Permission]]) -> None:
    start, orders, phase_d, permissions = turn
    done = adjudicate(BOARD, start, orders, phase_d=phase_d, permissions=permissions)
    _check(start, done)
