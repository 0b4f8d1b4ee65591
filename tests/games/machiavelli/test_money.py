"""Money is conserved and units stay whole over random seasons of random letters (economy and
operations, legal and not): after every movement of a treasury no treasury is negative, and
treasuries + spent + destroyed = the money there was + the income received, at every step;
no unit stands in two places, and units appear or vanish only as the record says."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.games.machiavelli.core.board import Location
from judge.games.machiavelli.core.campaign import CampaignRecord, campaign
from judge.games.machiavelli.core.expenditures import (
    Allow,
    Assassinate,
    Bodyguard,
    Bribe,
    BribeKind,
    CounterBribe,
    Dismiss,
    Excommunicate,
    ForcedTax,
    LetterOrder,
    Pacify,
    Pay,
    Purchase,
    Raise,
    Sell,
    StartRebellion,
    Transfer,
)
from judge.games.machiavelli.core.ledger import Money
from judge.games.machiavelli.core.orders import Advance, Convert, Hold, Support, UnitRef
from judge.games.machiavelli.core.position import (
    Campaign,
    Independent,
    Owner,
    Phase,
    Position,
    Season,
    Siege,
    Unit,
    UnitKind,
)
from judge.games.machiavelli.core.spring import SpringRecord, spring_letter
from tests.strength import examples

from .helpers import BOARD

POWERS = ("Florence", "Milan", "Papacy", "Venice")
AREAS = sorted({"ven", "lag", "pad", "trv", "fri", "uas", "fer", "bol", "man", "ver", "vic", "mod", "par", "cre",
                "mil", "bre", "ber", "trt", "luc", "psa", "flo", "pst", "rma", "anc", "urb", "pio", "sie", "per",
                "are", "rme", "spo", "ets", "pav", "com"})
LANDS = [a for a in AREAS if BOARD.areas[a].is_land]


@st.composite
def positions(draw: st.DrawFn) -> Position:
    units: list[Unit] = []
    for area in AREAS:
        a = BOARD.areas[area]
        kinds = [UnitKind.ARMY] if a.is_land else []
        kinds += [UnitKind.FLEET] if BOARD.fleet_locations(area) else []
        owners: list[Owner] = [*POWERS, *POWERS, Independent(area)]
        if draw(st.integers(0, 2)) == 0:
            units.append(Unit(draw(st.sampled_from(kinds)), draw(st.sampled_from(owners)), area))
        if a.fortified_city and not (a.single_unit and units and units[-1].area == area) and draw(st.booleans()):
            units.append(Unit(UnitKind.GARRISON, draw(st.sampled_from(owners)), area))
    control = {area: draw(st.sampled_from([*POWERS, Independent(area)])) for area in LANDS if draw(st.booleans())}
    rebellions = {area: draw(st.sampled_from(POWERS)) for area in draw(st.lists(st.sampled_from(LANDS), max_size=3))}
    sieges = {u.area: Siege(draw(st.sampled_from(POWERS))) for u in units
              if u.kind is UnitKind.GARRISON and draw(st.integers(0, 4)) == 0}
    season = Season(draw(st.integers(1454, 1466)), draw(st.sampled_from(list(Campaign))))
    phase = Phase.A if season.campaign is Campaign.SPRING and draw(st.booleans()) else Phase.C
    treasuries = {p: draw(st.integers(0, 60)) for p in BOARD.powers}
    homes = {p: frozenset({p}) for p in BOARD.powers}
    bans = {draw(st.sampled_from(POWERS)): season} if draw(st.integers(0, 3)) == 0 else {}
    return Position.build(season, units, control=control, rebellions=rebellions, sieges=sieges,
                          treasuries=treasuries, homes=homes, phase=phase, anticipated=treasuries, bans=bans)


def amounts(minimum: int) -> st.SearchStrategy[int]:
    """Mostly legal amounts (the minimum, or more by threes), now and then not."""
    return st.one_of(st.integers(0, 6).map(lambda k: minimum + 3 * k), st.integers(0, minimum + 20))


@st.composite
def campaign_letter(draw: st.DrawFn, start: Position, player: str) -> list[LetterOrder]:
    units = list(start.units.values())
    orders: list[LetterOrder] = []
    for _ in range(draw(st.integers(0, 6))):
        target = draw(st.sampled_from(units)) if units else None
        ref = UnitRef(target.kind, target.area) if target else UnitRef(UnitKind.ARMY, "flo")
        orders.append(draw(st.one_of(
            st.builds(Transfer, st.sampled_from(BOARD.powers), st.integers(0, 30)),
            st.builds(Assassinate, st.sampled_from(BOARD.powers), amounts(30)),
            st.builds(Bodyguard, amounts(3), st.sampled_from([None, *BOARD.powers])),
            st.builds(StartRebellion, st.sampled_from(LANDS), st.sampled_from([None, 3, 9, 15])),
            st.builds(Pacify, st.sampled_from(LANDS), st.sampled_from([None, 12])),
            st.builds(Bribe, st.sampled_from(list(BribeKind)), st.just(ref), amounts(9)),
            st.builds(CounterBribe, st.just(ref), amounts(3)),
            st.builds(Allow, st.sampled_from(BOARD.powers)),
            st.builds(Excommunicate, st.sampled_from(BOARD.powers)),
        )))
    for unit in units:
        if unit.owner == player or draw(st.integers(0, 9)) == 0:  # now and then for a unit one hopes to buy
            orders.append(draw(operation(unit)))
    return orders


def operation(unit: Unit) -> st.SearchStrategy[LetterOrder]:
    ref = UnitRef(unit.kind, unit.area)
    reach = sorted(BOARD.reach(unit.kind, unit.area))
    choices: list[LetterOrder] = [Hold(ref), *(Convert(ref, k) for k in UnitKind if k is not unit.kind)]
    for area in reach:
        choices += [Advance(ref, area), Support(ref, area)]
    if unit.kind is UnitKind.GARRISON:
        choices.append(Support(ref, unit.area))
    return st.sampled_from(choices)


@st.composite
def spring_orders(draw: st.DrawFn, start: Position, player: str) -> list[LetterOrder]:
    orders: list[LetterOrder] = []
    home = sorted(BOARD.home_country(player))
    for _ in range(draw(st.integers(0, 4))):
        orders.append(draw(st.one_of(
            st.builds(Transfer, st.sampled_from(BOARD.powers), st.integers(0, 30)),
            st.builds(Sell, st.sampled_from(LANDS), st.sampled_from(POWERS), st.integers(0, 6)),
            st.builds(Purchase, st.sampled_from(LANDS), st.sampled_from(POWERS), st.integers(0, 6)),
            st.builds(ForcedTax, st.sampled_from(LANDS)),
            st.builds(Raise, st.sampled_from(list(UnitKind)), st.sampled_from(home)),
        )))
    if draw(st.booleans()):  # payment orders; without them the default
        for unit in start.units_of(player):
            kind = draw(st.sampled_from([Pay, Pay, Dismiss]))
            orders.append(kind(UnitRef(unit.kind, unit.area)))
    return orders


def _check(start: Position, record: CampaignRecord | SpringRecord, appeared: int, vanished: int) -> None:
    end = record.position
    money = Money.of(record.movements)
    assert sum(end.treasuries.values()) + money.spent + money.destroyed == sum(start.treasuries.values()) + money.income
    running = dict(start.treasuries)
    for movement in record.movements:
        running[movement.player] = running.get(movement.player, 0) + movement.amount
        assert running[movement.player] >= 0, movement
    assert {p: v for p, v in running.items() if p in end.treasuries} == dict(end.treasuries)
    assert all(running[p] == 0 for p in running if p not in end.treasuries)
    assert len(end.units) == len(start.units) + appeared - vanished
    for place, unit in end.units.items():
        area = BOARD.areas[unit.area]
        assert unit.place == place
        if unit.kind is UnitKind.GARRISON:
            assert area.fortified_city, unit
        elif unit.kind is UnitKind.FLEET:
            assert Location(unit.area, unit.coast) in BOARD.fleet_edges, unit
        else:
            assert area.is_land, unit
        if area.single_unit:
            assert sum(u.area == unit.area for u in end.units.values()) == 1, unit


def _step(draw: st.DrawFn, position: Position) -> Position:
    players = position.living(BOARD.powers)
    if position.phase is Phase.A:
        letters = {p: draw(spring_orders(position, p)) for p in players}
        for area in draw(st.lists(st.sampled_from(LANDS), max_size=3, unique=True)):  # trades agreed on both sides
            seller, buyer = position.control.get(area), draw(st.sampled_from(POWERS))
            if isinstance(seller, str) and seller in letters and buyer in letters and seller != buyer:
                price = draw(st.integers(1, 6))
                letters[seller].append(Sell(area, buyer, price))
                letters[buyer].append(Purchase(area, seller, price))
        spring = spring_letter(BOARD, position, letters)
        _check(position, spring, len(spring.raised), len(spring.disbanded))
        return spring.position
    letters = {p: draw(campaign_letter(position, p)) for p in players if p in POWERS}
    done = campaign(BOARD, position, letters)
    gone = sum(b.after is None for b in done.expending.bribes) + len(done.action.disbanded) + sum(
        after is None for e in done.ending.eliminations for _, after in e.units)
    sprung = len(done.opening.sprung) if done.opening else 0
    _check(position, done, sprung, gone)
    return done.position


@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_money_is_conserved_and_no_unit_is_in_two_places_over_random_seasons(data: st.DataObject) -> None:
    position = data.draw(positions())
    for _ in range(3):
        if position.phase is Phase.OVER:
            break
        position = _step(data.draw, position)
