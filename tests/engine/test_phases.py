"""Phase sequencing, supply-center ownership, adjustments and victory."""

from __future__ import annotations

from judge.engine.map import load_map
from judge.engine.orders import PhaseKind, Unit, UnitType, parse_order
from judge.engine.phases import adjudicate, adjustment_needed
from judge.engine.position import Phase, PlacedUnit, Position

M = load_map("standard")


def place(*units: str) -> list[PlacedUnit]:
    placed = []
    for text in units:
        power, kind, where = text.split()
        placed.append(PlacedUnit(power, Unit(UnitType(kind), M.location(where))))
    return placed


def orders(kind: PhaseKind, **given: list[str]) -> dict[str, list[object]]:
    return {power: [parse_order(t, M, kind) for t in texts] for power, texts in given.items()}


def test_spring_without_dislodgement_goes_to_fall_and_centers_stay() -> None:
    start = Position.initial(M)
    result = adjudicate(start, orders(PhaseKind.MOVEMENT, FRANCE=["A PAR - BUR"], GERMANY=["F KIE - HOL"]))
    assert str(result.position.phase) == "F1901M"
    assert "HOL" not in result.position.centers  # centers change hands after Fall only


def test_dislodgement_gives_retreat_phase_then_fall() -> None:
    pos = Position.build(M, Phase.parse("S1901M"), place("GERMANY A MUN", "FRANCE A BUR", "FRANCE A RUH"), {})
    result = adjudicate(pos, orders(PhaseKind.MOVEMENT, FRANCE=["A BUR - MUN", "A RUH S A BUR - MUN"]))
    assert str(result.position.phase) == "S1901R"
    dislodged = result.position.dislodged["MUN"]
    assert (dislodged.power, dislodged.attacker_from) == ("GERMANY", "BUR")
    retreat = adjudicate(result.position, orders(PhaseKind.RETREAT, GERMANY=["A MUN - KIE"]))
    assert str(retreat.position.phase) == "F1901M"
    assert retreat.position.units["KIE"].power == "GERMANY"
    assert not retreat.position.dislodged


def test_fall_capture_changes_owner_and_opens_winter_for_the_build() -> None:
    pos = Position.initial(M).evolve(phase=Phase.parse("F1901M"))
    result = adjudicate(pos, orders(PhaseKind.MOVEMENT, GERMANY=["F KIE - HOL"]))
    after = result.position
    assert after.centers["HOL"] == "GERMANY"
    assert str(after.phase) == "W1901A"
    built = adjudicate(after, orders(PhaseKind.ADJUSTMENT, GERMANY=["BUILD A KIE"]))
    assert str(built.position.phase) == "S1902M"
    assert built.position.units["KIE"].type is UnitType.ARMY


def test_fall_without_changes_skips_winter() -> None:
    pos = Position.initial(M).evolve(phase=Phase.parse("F1901M"))
    assert str(adjudicate(pos, {}).position.phase) == "S1902M"


def test_build_owed_with_no_free_home_center_needs_no_winter() -> None:
    # Germany owns its three homes and HOL but all three homes are occupied: nothing to do.
    pos = Position.build(
        M,
        Phase.parse("F1901M"),
        place("GERMANY F KIE", "GERMANY A BER", "GERMANY A MUN"),
        {"KIE": "GERMANY", "BER": "GERMANY", "MUN": "GERMANY", "HOL": "GERMANY"},
    )
    assert not adjustment_needed(pos)
    assert str(adjudicate(pos, {}).position.phase) == "S1902M"


def test_too_many_builds_the_first_ones_count_datc_4_d_4() -> None:
    pos = Position.build(M, Phase.parse("W1901A"), [], {"BER": "GERMANY", "KIE": "GERMANY"})
    result = adjudicate(pos, orders(PhaseKind.ADJUSTMENT, GERMANY=["BUILD A BER", "BUILD F KIE", "BUILD A MUN"]))
    assert [r.outcome.value for r in result.results] == ["succeeds", "succeeds", "invalid"]
    assert sorted(result.position.units) == ["BER", "KIE"]


def test_victory_at_eighteen_centers() -> None:
    french = ["BEL", "BRE", "MAR", "PAR", "POR", "SPA", "LON", "LVP", "EDI", "HOL", "DEN", "KIE", "MUN", "TUN",
              "NWY", "NAP", "ROM"]
    assert len(french) == 17
    centers = dict.fromkeys(french, "FRANCE") | {"SWE": "RUSSIA"}
    units = place("FRANCE A NWY", "FRANCE A FIN", "FRANCE F SKA", "RUSSIA A SWE")
    pos = Position.build(M, Phase.parse("F1905M"), units, centers)
    result = adjudicate(
        pos,
        orders(PhaseKind.MOVEMENT, FRANCE=["A NWY - SWE", "A FIN S A NWY - SWE", "F SKA S A NWY - SWE"]),
    )
    assert str(result.position.phase) == "F1905R"  # the Russian army must retreat first
    assert result.winner is None
    retreat = adjudicate(result.position, orders(PhaseKind.RETREAT, RUSSIA=["A SWE D"]))
    assert len(retreat.position.centers_of("FRANCE")) == 18
    assert retreat.winner == "FRANCE"
