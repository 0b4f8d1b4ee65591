"""The order parser: standard notation, aliases, phases, and clear errors."""

from __future__ import annotations

import random

import pytest

from judge.engine.legal import legal_orders
from judge.engine.map import Location, load_map
from judge.engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    OrderSyntaxError,
    PhaseKind,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
    Waive,
    _parse_free,
    leads_with_place,
    lexicon,
    parse_order,
)
from judge.engine.position import Phase, PlacedUnit, Position

M = load_map("standard")
A, F = UnitType.ARMY, UnitType.FLEET


def unit(kind: UnitType | None, where: str, coast: str | None = None) -> Unit:
    return Unit(kind, Location(where, coast))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A PAR H", Hold(unit(A, "PAR"))),
        ("A PAR - BUR", Move(unit(A, "PAR"), Location("BUR"))),
        ("F BRE - MAO", Move(unit(F, "BRE"), Location("MAO"))),
        ("A PAR S A MAR - BUR", SupportMove(unit(A, "PAR"), unit(A, "MAR"), Location("BUR"))),
        ("A PAR S F BRE", SupportHold(unit(A, "PAR"), unit(F, "BRE"))),
        ("F NTH C A LON - NWY", Convoy(unit(F, "NTH"), unit(A, "LON"), Location("NWY"))),
        ("A LON - NWY VIA CONVOY", Move(unit(A, "LON"), Location("NWY"), via_convoy=True)),
        ("F STP/SC H", Hold(unit(F, "STP", "SC"))),
        ("F MAO - SPA/NC", Move(unit(F, "MAO"), Location("SPA", "NC"))),
        ("f mao-spa(nc)", Move(unit(F, "MAO"), Location("SPA", "NC"))),
        ("F Mid-Atlantic Ocean - Spain (north coast)", Move(unit(F, "MAO"), Location("SPA", "NC"))),
        ("Army London -> Yorkshire", Move(unit(A, "LON"), Location("YOR"))),
        ("F NRG - NAT", Move(unit(F, "NWG"), Location("NAO"))),
        ("F GOL S F MID - WES", SupportMove(unit(F, "LYO"), unit(F, "MAO"), Location("WES"))),
        ("F ECH C A LON - BRE", Convoy(unit(F, "ENG"), unit(A, "LON"), Location("BRE"))),
        ("F St. Petersburg/SC - Gulf of Bothnia", Move(unit(F, "STP", "SC"), Location("BOT"))),
        ("PAR - BUR", Move(unit(None, "PAR"), Location("BUR"))),
        ("A PAR S A MAR - BUR", SupportMove(unit(A, "PAR"), unit(A, "MAR"), Location("BUR"))),
    ],
)
def test_movement_orders_parse_to_values(text: str, expected: object) -> None:
    assert parse_order(text, M) == expected


@pytest.mark.parametrize(
    "text", ["A PAR H", "A PAR - BUR", "A LON - NWY VIA CONVOY", "F NTH C A LON - NWY", "A PAR S F BRE"]
)
def test_canonical_text_round_trips(text: str) -> None:
    assert str(parse_order(text, M)) == text


def test_retreat_phase_reads_moves_as_retreats_and_d_as_disband() -> None:
    assert parse_order("A BEL - PIC", M, PhaseKind.RETREAT) == Retreat(unit(A, "BEL"), Location("PIC"))
    assert parse_order("A BEL D", M, PhaseKind.RETREAT) == Disband(unit(A, "BEL"))


def test_adjustment_notations() -> None:
    adjust = PhaseKind.ADJUSTMENT
    assert parse_order("BUILD A PAR", M, adjust) == Build(unit(A, "PAR"))
    assert parse_order("A PAR B", M, adjust) == Build(unit(A, "PAR"))
    assert parse_order("REMOVE F BRE", M, adjust) == Remove(unit(F, "BRE"))
    assert parse_order("F BRE D", M, adjust) == Remove(unit(F, "BRE"))
    assert parse_order("WAIVE", M, adjust) == Waive()
    assert parse_order("build f stp/nc", M, adjust) == Build(unit(F, "STP", "NC"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("A PAR - XYZ", "unknown province 'XYZ'"),
        ("A QQQ H", "unknown province 'QQQ'"),
        ("", "empty order"),
        ("A PAR X", "expected H, -, S or C after 'A PAR', found 'X'"),
        ("F NTH C A LON", "a convoy order needs the army's move"),
        ("A PAR - BUR NOW", "unexpected 'NOW'"),
        ("A PAR S", "expected the province of the supported unit"),
    ],
)
def test_bad_orders_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(OrderSyntaxError, match=message):
        parse_order(text, M)


@pytest.mark.parametrize("text", ["A LON \u2013 NWY", "A LON \u2014 NWY", "A LON \u2212 NWY", "A LON\u2013NWY"])
def test_en_and_em_dashes_and_the_minus_sign_read_as_a_move(text: str) -> None:
    assert parse_order(text, M) == Move(unit(A, "LON"), Location("NWY"))


@pytest.mark.parametrize("text", ["A LON - NWY VIA", "A LON - NWY via", "A London - Norway VIA"])
def test_via_alone_reads_as_via_convoy(text: str) -> None:
    assert parse_order(text, M) == Move(unit(A, "LON"), Location("NWY"), via_convoy=True)


@pytest.mark.parametrize(("text", "board", "order"), [
    ("PAR - BUR", "standard", True), ("Paris holds", "standard", True), ("North Sea - Norway", "standard", True),
    ("MUN S PAR - BUR", "standard", True), ("StP/sc - Bot", "standard", True),
    ("Hi judge,", "standard", False), ("Hi", "standard", False), ("Thanks!", "standard", False),
    # HI, OK and UP are provinces of the empire map, BOB of the modern one: orders there when an order's word
    # follows, not as prose, nor alone (a name signing the mail)
    ("HI - OK", "empire", True), ("Up to you", "empire", True), ("Hi", "empire", False), ("Bob", "modern", False),
    ("PAR", "standard", False),
    ("Hi judge,", "empire", False), ("Hi,", "empire", False), ("OK, here are my orders", "empire", False)])
def test_an_order_without_its_units_type_begins_with_a_place_and_prose_does_not(
        text: str, board: str, order: bool) -> None:
    assert leads_with_place(text, load_map(board)) is order


def test_unknown_coast_is_ignored_datc_4_b_6() -> None:
    assert parse_order("A GAS - SPA/NC", M) == Move(unit(A, "GAS"), Location("SPA", "NC"))
    assert parse_order("F MAO - BRE/EC", M) == Move(unit(F, "MAO"), Location("BRE"))


# -- parse once: shared values and the canonical reading -----------------------------------


def test_an_order_text_parses_to_one_shared_value() -> None:
    first = parse_order("A PAR - BUR", M)
    assert parse_order("A PAR - BUR", M) is first
    assert parse_order("Army Paris -> Burgundy", M) is first  # the tokeniser's result is shared too
    assert first in legal_orders(Position.initial(M), "PAR")
    assert next(o for o in legal_orders(Position.initial(M), "PAR") if o == first) is first


def test_values_compare_and_hash_by_class_and_text() -> None:
    move = Move(unit(A, "BEL"), Location("PIC"))
    assert move == parse_order("A BEL - PIC", M) and hash(move) == hash("A BEL - PIC")
    assert move != Retreat(unit(A, "BEL"), Location("PIC")) and str(move) == "A BEL - PIC"
    assert unit(None, "PAR") != unit(A, "PAR") and {move: 1}[Move(unit(A, "BEL"), Location("PIC"))] == 1
    assert sorted([Location("SPA", "SC"), Location("SPA"), Location("POR")]) == [
        Location("POR"), Location("SPA"), Location("SPA", "SC")
    ]


def _texts() -> list[str]:
    """Canonical texts of every kind, from legal orders of random positions, and a few more."""
    rng = random.Random(2)
    texts = ["WAIVE", "BUILD F STP/NC", "REMOVE A PAR", "A PAR D", "F NTH C F LON - BEL", "A PAR S A MAR",
             "F MAO - SPA", "A NTH H", "A PAR - BUR VIA CONVOY", "A PAR S A MAR H", "A PAR - XYZ", "A PAR H H"]
    for _ in range(6):
        places = rng.sample(sorted(M.locations), 30)
        units = []
        for where in places:
            location = M.locations[where]
            kind = F if M.fleet_locations(location.province) and (location.coast or rng.random() < 0.5) else A
            if kind is A and not M.army_can_stand(location.province):
                continue
            units.append(PlacedUnit("ENGLAND", Unit(kind, location)))
        position = Position.build(M, Phase.parse("S1901M"), units, {})
        texts += [str(o) for p in position.units for o in legal_orders(position, p)]
    return texts


def test_the_canonical_reading_agrees_with_the_tokeniser() -> None:
    lex = lexicon(M)
    read = 0
    for text in _texts():
        for phase in PhaseKind:
            fast = lex._canonical(text.split(), phase)
            try:
                slow: object = _parse_free(text, lex, phase)
            except OrderSyntaxError:
                slow = None
            assert fast is None or fast == slow, (text, phase)
            read += fast is not None
    assert read > 3000  # nearly every canonical text is read without the tokeniser
