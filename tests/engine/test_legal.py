"""Legal orders: enumeration and checking agree exactly, and each rule gives its reason."""

from __future__ import annotations

import random

import pytest

from judge.engine.legal import Illegal, check_order, legal_orders, retreat_options
from judge.engine.map import Location, load_map
from judge.engine.orders import (
    Convoy,
    Hold,
    Move,
    Order,
    PhaseKind,
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
    parse_order,
)
from judge.engine.position import Dislodgement, Phase, PlacedUnit, Position

M = load_map("standard")


def position(*units: str, phase: str = "S1901M") -> Position:
    """Units written ``ENGLAND F LON``."""
    placed = []
    for text in units:
        power, kind, where = text.split()
        placed.append(PlacedUnit(power, Unit(UnitType(kind), M.location(where))))
    return Position.build(M, Phase.parse(phase), placed, {})


def illegal(pos: Position, power: str, text: str) -> Illegal | None:
    return check_order(pos, power, parse_order(text, M, pos.phase.kind)).illegal


def test_army_in_paris_1901_has_eleven_legal_orders() -> None:
    # Hold; moves to BRE BUR GAS PIC; support F BRE to hold; supports of the moves into
    # those provinces that other units can make: F BRE-GAS, F BRE-PIC, A MAR-BUR, A MAR-GAS, A MUN-BUR.
    start = Position.initial(M)
    got = sorted(str(o) for o in legal_orders(start, "PAR"))
    assert got == sorted(
        [
            "A PAR H",
            "A PAR - BRE",
            "A PAR - BUR",
            "A PAR - GAS",
            "A PAR - PIC",
            "A PAR S F BRE",
            "A PAR S F BRE - GAS",
            "A PAR S F BRE - PIC",
            "A PAR S A MAR - BUR",
            "A PAR S A MAR - GAS",
            "A PAR S A MUN - BUR",
        ]
    )


def test_convoy_moves_need_fleets_on_the_board() -> None:
    pos = position("ENGLAND A LON", "ENGLAND F NTH")
    assert illegal(pos, "ENGLAND", "A LON - NWY") is None
    assert illegal(pos, "ENGLAND", "A LON - BEL VIA CONVOY") is None
    assert illegal(pos, "ENGLAND", "A LON - BRE") is Illegal.NOT_ADJACENT  # no fleet in ENG
    orders = {str(o) for o in legal_orders(pos, "LON")}
    assert {"A LON - NWY", "A LON - NWY VIA CONVOY", "A LON - YOR VIA CONVOY", "A LON - YOR"} <= orders
    assert "F NTH C A LON - NWY" in {str(o) for o in legal_orders(pos, "NTH")}


def test_datc_6_d_31_support_needing_own_convoy_is_illegal() -> None:
    pos = position("AUSTRIA A RUM", "TURKEY F BLA")
    assert illegal(pos, "AUSTRIA", "A RUM - ARM") is None
    assert illegal(pos, "TURKEY", "F BLA S A RUM - ARM") is Illegal.SUPPORTED_MOVE_ILLEGAL
    assert "F BLA S A RUM - ARM" not in {str(o) for o in legal_orders(pos, "BLA")}


def test_datc_6_g_19_convoy_by_unnecessary_fleet_is_illegal() -> None:
    pos = position("FRANCE A MAR", "FRANCE F WES", "ITALY F LYO", "ITALY A SPA")
    assert illegal(pos, "ITALY", "F LYO C A MAR - SPA") is None
    assert illegal(pos, "FRANCE", "F WES C A MAR - SPA") is Illegal.CONVOY_NOT_ON_ROUTE


@pytest.mark.parametrize(
    ("units", "power", "order", "reason"),
    [
        (["ENGLAND F NTH"], "ENGLAND", "F NTH - PIC", Illegal.NOT_ADJACENT),
        (["ENGLAND A LVP"], "ENGLAND", "A LVP - IRI", Illegal.ARMY_TO_SEA),
        (["GERMANY F KIE"], "GERMANY", "F KIE - MUN", Illegal.FLEET_INLAND),
        (["GERMANY F KIE"], "GERMANY", "F KIE - KIE", Illegal.OWN_PROVINCE),
        (["ENGLAND F LON"], "GERMANY", "F LON - NTH", Illegal.NOT_YOUR_UNIT),
        (["ENGLAND F LON"], "ENGLAND", "A YOR - LON", Illegal.NO_UNIT),
        (["FRANCE F POR"], "FRANCE", "F POR - SPA", Illegal.COAST_NEEDED),
        (["FRANCE F GAS"], "FRANCE", "F GAS - SPA/SC", Illegal.WRONG_COAST),
        (["ITALY F ROM"], "ITALY", "F ROM - VEN", Illegal.NOT_ADJACENT),
        (["AUSTRIA F TRI", "AUSTRIA A VIE"], "AUSTRIA", "F TRI S F TRI", Illegal.SUPPORT_SELF),
        (["ITALY A VEN", "ITALY F ROM", "ITALY A APU"], "ITALY", "F ROM S A APU - VEN", Illegal.SUPPORT_UNREACHABLE),
        (["ITALY F ROM"], "ITALY", "F ROM S A NAP", Illegal.NO_UNIT),
        (["ITALY F ROM", "ITALY A NAP"], "ITALY", "F ROM S A NAP - TUS", Illegal.SUPPORTED_MOVE_ILLEGAL),
        (["ENGLAND F LON", "ENGLAND A WAL"], "ENGLAND", "F LON C A WAL - BEL", Illegal.CONVOY_NOT_AT_SEA),
        (["ENGLAND F NTH", "ENGLAND F LON"], "ENGLAND", "F NTH C A LON - BEL", Illegal.CONVOY_NOT_ARMY),
        (["GERMANY A BER", "GERMANY A PRU"], "GERMANY", "A PRU S A BER - PRU", Illegal.SUPPORT_OWN_PROVINCE),
    ],
)
def test_each_rule_gives_its_reason(units: list[str], power: str, order: str, reason: Illegal) -> None:
    assert illegal(position(*units), power, order) is reason


def test_normalisation_fills_unit_type_and_the_one_reachable_coast() -> None:
    pos = position("FRANCE F GAS", "RUSSIA F STP/SC")
    verdict = check_order(pos, "FRANCE", parse_order("GAS - SPA", M))
    assert verdict.order == Move(Unit(UnitType.FLEET, Location("GAS")), Location("SPA", "NC"))
    # DATC 4.B.5: the wrong coast of the ordered unit is ignored.
    verdict = check_order(pos, "RUSSIA", parse_order("F STP/NC - BOT", M))
    assert verdict.legal and str(verdict.order) == "F STP/SC - BOT"


def test_retreat_options_exclude_attacker_origin_standoff_and_occupied() -> None:
    pos = Position.build(
        M,
        Phase.parse("S1901R"),
        [PlacedUnit("GERMANY", Unit(UnitType.ARMY, Location("RUH")))],
        {},
        [Dislodgement("FRANCE", Unit(UnitType.ARMY, Location("BEL")), "HOL")],
        ["PIC"],
    )
    # BEL borders BUR HOL PIC RUH (land); HOL = attacker, PIC = standoff, RUH = occupied.
    assert retreat_options(pos, "BEL") == [Location("BUR")]
    # The player is told which of the three bars the retreat met.
    assert illegal(pos, "FRANCE", "A BEL - HOL") is Illegal.RETREAT_TO_ATTACKER
    assert illegal(pos, "FRANCE", "A BEL - PIC") is Illegal.RETREAT_TO_STANDOFF
    assert illegal(pos, "FRANCE", "A BEL - RUH") is Illegal.RETREAT_OCCUPIED
    assert illegal(pos, "GERMANY", "A RUH - KIE") is Illegal.NOT_DISLODGED
    convoyed = Dislodgement("FRANCE", Unit(UnitType.ARMY, Location("BEL")), "HOL", via_convoy=True)
    via_convoy = pos.evolve(dislodged={"BEL": convoyed})
    # DATC 4.A.5 (2023 rules): an attacker that came by convoy does not bar its origin.
    assert retreat_options(via_convoy, "BEL") == [Location("BUR"), Location("HOL")]


def _candidates(pos: Position, placed: PlacedUnit) -> list[Order]:
    """A broad superset of orders for one unit: every move, support and convoy shape."""
    unit, board = placed.unit, pos.game_map
    places = [Location(p) for p in board.provinces] + [
        Location(p, c) for p in board.provinces for c in board.provinces[p].coasts
    ]
    found: list[Order] = [Hold(unit)]
    for dest in places:
        found.append(Move(unit, dest))
        found.append(Move(unit, dest, via_convoy=True))
    for other in pos.units.values():
        found.append(SupportHold(unit, other.unit))
        for dest in places:
            if dest.province in board.any_neighbours(other.location.province) or other.type is UnitType.ARMY:
                found.append(SupportMove(unit, other.unit, dest))
            if other.type is UnitType.ARMY and placed.type is UnitType.FLEET and dest.coast is None:
                found.append(Convoy(unit, other.unit, dest))
    return found


# Every board (rule 6.2), in each season its provinces may be open or closed in (Loeb9's Arctic Ocean).
BOARDS = [
    ("standard", "S1901M"), ("ancmed", "S0001M"), ("modern", "F1995M"), ("loeb9", "S1901M"), ("loeb9", "F1901M"),
    ("void", "F1900M"), ("youngstown", "S1901M"), ("empire", "F1999M"), ("world", "S2000M"),
    ("known_world_901", "F0901M"),
]


SPECIAL = {
    "ancmed": ["BAL", "LIG", "MAS"],
    "modern": ["IRN", "CAI"],
    "loeb9": ["ARC", "NWG", "NAP", "SIC", "COR", "NAF"],
    "youngstown": ["OBC", "OBD", "OBE", "OBG", "OMS", "SIB", "SUE", "EGY"],  # boxes, the ice-breaker, the Suez
    "empire": ["PAN", "TEN", "UNG", "NUN"],  # a canal, a waterway, a land bridge
    "world": ["BRS", "KAM", "ALA", "NWP", "NPO"],  # across the Pacific
}


def _random_position(rng: random.Random, count: int, variant: str = "standard", phase: str = "S1901M") -> Position:
    board = load_map(variant)
    provinces = [p for p in board.provinces if board.provinces[p].terrain.value != "impassable"]
    special = SPECIAL.get(variant, [])  # the places of the board's special rules are always taken
    units = []
    for province in special + rng.sample([p for p in provinces if p not in special], count - len(special)):
        fleets = board.fleet_locations(province)
        if fleets and (not board.army_can_stand(province) or rng.random() < 0.5):
            unit = Unit(UnitType.FLEET, rng.choice(fleets))
        else:
            unit = Unit(UnitType.ARMY, Location(province))
        units.append(PlacedUnit(rng.choice(list(board.powers)), unit))
    return Position.build(board, Phase.parse(phase), units, {})


def _agree(pos: Position) -> set[str]:
    """Check that the listed orders are exactly those check_order accepts; the kinds of order listed."""
    kinds: set[str] = set()
    for province, placed in pos.units.items():
        listed = legal_orders(pos, province)
        assert len(set(listed)) == len(listed), "an order is listed twice"
        for order in listed:
            verdict = check_order(pos, placed.power, order)
            assert verdict.legal and verdict.order == order, f"{order} listed but {verdict.illegal}"
            kinds.add(type(order).__name__ + (" via" if isinstance(order, Move) and order.via_convoy else ""))
        listed_set = set(listed)
        for order in _candidates(pos, placed):
            verdict = check_order(pos, placed.power, order)
            if verdict.legal:
                assert verdict.order in listed_set, f"{order} accepted as {verdict.order} but not listed"
    return kinds


@pytest.mark.parametrize("seed", range(4))
def test_legal_orders_are_exactly_the_orders_check_accepts(seed: int) -> None:
    """Payola validates offers with both functions, so they must agree on every order."""
    _agree(_random_position(random.Random(seed), 14))


@pytest.mark.parametrize(("variant", "phase"), BOARDS[1:])
@pytest.mark.parametrize("seed", range(2))
def test_legal_orders_are_exactly_the_orders_check_accepts_on_every_board(
    variant: str, phase: str, seed: int
) -> None:
    _agree(_random_position(random.Random(seed), 20, variant, phase))


def _convoy_position(rng: random.Random, variant: str = "standard", phase: str = "S1901M") -> Position:
    """Fleets on a cluster of seas and armies on coasts: many convoy routes, some through one fleet only."""
    board = load_map(variant)
    first = ["NTH", "MAO", "ION", "TYS", "ENG"] if variant == "standard" else sorted(board.seas - board.coastal)
    seas = {rng.choice(first)}
    while len(seas) < 7:
        further = sorted({n for s in seas for n in board.sea_neighbours(s)} - seas)
        if not further:
            break  # a small group of seas (Modern's Red, Arabian and Persian seas)
        seas.add(rng.choice(further))
    coasts = sorted({c for s in seas for c in board.shores[s]} - seas)
    units = [PlacedUnit(rng.choice(list(board.powers)), Unit(UnitType.FLEET, Location(s))) for s in sorted(seas)]
    for province in rng.sample(coasts, min(8, len(coasts))):
        kind = UnitType.FLEET if rng.random() < 0.25 and not board.provinces[province].coasts else UnitType.ARMY
        units.append(PlacedUnit(rng.choice(list(board.powers)), Unit(kind, Location(province))))
    return Position.build(board, Phase.parse(phase), units, {})


@pytest.mark.parametrize("seed", range(4))
def test_legal_orders_agree_with_check_where_convoys_abound(seed: int) -> None:
    """Moves by convoy, supports of them (6.D.31) and convoys on minimal routes (6.G.19)."""
    kinds = _agree(_convoy_position(random.Random(seed)))
    assert {"Convoy", "Move via", "SupportMove"} <= kinds


@pytest.mark.parametrize(("variant", "phase"), BOARDS[1:])
@pytest.mark.parametrize("seed", range(2))
def test_legal_orders_agree_with_check_where_convoys_abound_on_every_board(
    variant: str, phase: str, seed: int
) -> None:
    kinds = _agree(_convoy_position(random.Random(seed), variant, phase))
    assert "Convoy" in kinds


def test_retreat_phase_lists_retreats_and_disband() -> None:
    pos = Position.build(
        M,
        Phase.parse("F1901R"),
        [],
        {},
        [Dislodgement("ENGLAND", Unit(UnitType.FLEET, Location("NTH")), "HEL")],
    )
    got = {str(o) for o in legal_orders(pos, "NTH")}
    assert "F NTH D" in got and "F NTH - HEL" not in got and "F NTH - EDI" in got
    assert check_order(pos, "ENGLAND", parse_order("F NTH - HEL", M, PhaseKind.RETREAT)).illegal is (
        Illegal.RETREAT_TO_ATTACKER
    )


def test_an_order_found_legal_is_checked_again_on_each_board() -> None:
    # A move or support without convoy, once found legal, is remembered for the map: on another
    # board it must still meet the units that stand there.
    first = position("FRANCE A PAR", "FRANCE A BUR", "FRANCE A BRE")
    for text in ("A PAR S A BUR - PIC", "A BRE - PIC", "A PAR S A BRE - PIC"):
        order = parse_order(text, M)
        for _ in range(2):  # found legal, then known
            assert check_order(first, "FRANCE", order) == check_order(first, None, order)
            assert check_order(first, "FRANCE", order).order == order
        assert illegal(first, "GERMANY", text) is Illegal.NOT_YOUR_UNIT
    assert illegal(position("FRANCE A PAR"), "FRANCE", "A PAR S A BUR - PIC") is Illegal.NO_SUPPORTED_UNIT
    assert illegal(position("FRANCE A BUR"), "FRANCE", "A BRE - PIC") is Illegal.NO_UNIT
    fleet_in_brest = position("FRANCE A PAR", "FRANCE F BRE")
    assert str(check_order(fleet_in_brest, "FRANCE", parse_order("A BRE - PIC", M)).order) == "F BRE - PIC"
    supported = check_order(fleet_in_brest, "FRANCE", parse_order("A PAR S A BRE - PIC", M))
    assert str(supported.order) == "A PAR S F BRE - PIC"
