"""The order parser: standard notation, aliases, phases, and clear errors."""

from __future__ import annotations

import pytest

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
    parse_order,
)

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
        ("A LON - NWY VIA", "expected 'CONVOY' after 'VIA'"),
        ("A PAR S", "expected the province of the supported unit"),
    ],
)
def test_bad_orders_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(OrderSyntaxError, match=message):
        parse_order(text, M)


def test_unknown_coast_is_ignored_datc_4_b_6() -> None:
    assert parse_order("A GAS - SPA/NC", M) == Move(unit(A, "GAS"), Location("SPA", "NC"))
    assert parse_order("F MAO - BRE/EC", M) == Move(unit(F, "MAO"), Location("BRE"))
