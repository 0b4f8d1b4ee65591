"""Rule 6.3 (Tin Cup): what a power sees of a phase, one test per clause of the Blind rules and
per decision of ``judge/payola/blind.py``'s header, on hand-made positions adjudicated by the
engine.  England is the onlooker, with its units on the Continent, far from its home centers."""

from __future__ import annotations

from typing import Any

from judge.engine.legal import retreat_options
from judge.engine.notation import position_from_data
from judge.engine.orders import parse_order
from judge.engine.phases import adjudicate
from judge.engine.position import Position
from judge.engine.results import OrderResult, Outcome
from judge.payola.blind import Sight, witness
from judge.payola.treasury import zerosum_year_end

HOMES = {"ENGLAND": ["LON", "EDI", "LVP"], "GERMANY": ["BER", "KIE", "MUN"], "RUSSIA": ["MOS", "WAR", "SEV", "STP"],
         "AUSTRIA": ["VIE", "BUD", "TRI"], "FRANCE": ["PAR", "BRE", "MAR"]}


def phase(units: dict[str, list[str]], orders: dict[str, list[str]], name: str = "S1901M",
          **extra: Any) -> tuple[Position, tuple[OrderResult, ...], Position]:
    """A phase adjudicated from ``units`` and ``orders``: the position before, the results, after."""
    before, given = position_from_data({"variant": "standard", "phase": name, "units": units,
                                        "centers": extra.pop("centers", HOMES), "orders": orders, **extra})
    outcome = adjudicate(before, given)
    return before, outcome.results, outcome.position


def seen(sight: Sight) -> set[str]:
    """The foreign units on the board after the phase as the power sees it."""
    return {f"{u.power} {u.unit}" for u in sight.after.units.values() if u.power != sight.power}


def told(sight: Sight) -> list[str]:
    """The foreign orders the power is told, and its sightings."""
    return ([f"{r.power} {r.order}" for r in sight.results if r.power != sight.power]
            + [f"{s.power} {s}" for s in sight.sightings])


def test_blind_a_unit_next_to_where_an_own_unit_began_is_seen() -> None:
    # England's army leaves BOH for SIL: Germany's A TYR, next to BOH only, is still seen.
    sight = witness("ENGLAND", *phase({"ENGLAND": ["A BOH"], "GERMANY": ["A TYR"], "TURKEY": ["A SER"]},
                                      {"ENGLAND": ["A BOH - SIL"], "GERMANY": ["A TYR H"], "TURKEY": ["A SER H"]}))
    assert seen(sight) == {"GERMANY A TYR"} and told(sight) == ["GERMANY A TYR H"]


def test_blind_a_unit_next_to_where_an_own_unit_ended_is_seen() -> None:
    sight = witness("ENGLAND", *phase({"ENGLAND": ["A BOH"], "RUSSIA": ["A WAR"], "TURKEY": ["A SER"]},
                                      {"ENGLAND": ["A BOH - SIL"], "RUSSIA": ["A WAR H"], "TURKEY": ["A SER H"]}))
    assert seen(sight) == {"RUSSIA A WAR"} and told(sight) == ["RUSSIA A WAR H"]


def test_blind_units_in_or_next_to_a_home_center_are_seen_whether_owned_or_not() -> None:
    # England has only A MOS; France holds London and owns it, and stands in Wales and Belgium.
    centers = {**HOMES, "ENGLAND": ["EDI", "LVP"], "FRANCE": ["PAR", "BRE", "MAR", "LON"]}
    sight = witness("ENGLAND", *phase({"ENGLAND": ["A MOS"], "FRANCE": ["A LON", "A WAL", "A BEL"]}, {},
                                      centers=centers))
    assert seen(sight) == {"FRANCE A LON", "FRANCE A WAL"}
    assert sight.after.centers["LON"] == "FRANCE"


def test_blind_a_unit_seen_before_and_after_is_told_with_its_full_order_and_result() -> None:
    sight = witness("ENGLAND", *phase({"ENGLAND": ["A BOH"], "GERMANY": ["A MUN", "A TYR"]},
                                      {"ENGLAND": ["A BOH H"], "GERMANY": ["A MUN - TYR", "A TYR - MUN"]}))
    assert told(sight) == ["GERMANY A MUN - TYR", "GERMANY A TYR - MUN"]
    assert sight.results[0] == OrderResult("ENGLAND", sight.results[0].order, Outcome.SUCCEEDS)


def test_blind_a_unit_that_moves_into_sight_arrives() -> None:
    sight = witness("ENGLAND", *phase({"ENGLAND": ["A BOH"], "GERMANY": ["A BUR"]},
                                      {"ENGLAND": ["A BOH H"], "GERMANY": ["A BUR - MUN"]}))
    assert told(sight) == ["GERMANY Army MUN ARRIVES."] and seen(sight) == {"GERMANY A MUN"}
    assert not sight.before.units.get("BUR"), "where it came from is not told, nor drawn"


def test_blind_a_unit_that_moves_out_of_sight_departs() -> None:
    sight = witness("ENGLAND", *phase({"ENGLAND": ["A BOH"], "GERMANY": ["A MUN"]},
                                      {"ENGLAND": ["A BOH H"], "GERMANY": ["A MUN - BUR"]}))
    assert told(sight) == ["GERMANY Army MUN DEPARTS."] and not seen(sight)
    assert "MUN" in sight.before.units, "the orders map shows it where it stood"


def test_blind_a_dislodged_unit_disbanded_in_sight_is_lost_and_one_retreating_away_departs() -> None:
    dislodged = {"GERMANY": [{"unit": "A MUN", "attacker_from": "BUR"}, {"unit": "F BAL", "attacker_from": "PRU"}]}
    sight = witness("ENGLAND", *phase({"ENGLAND": ["A BOH", "F LVN"], "FRANCE": ["A MUN"], "RUSSIA": ["F BAL"]},
                                      {"GERMANY": ["A MUN D", "F BAL - KIE"]}, "F1901R", dislodged=dislodged))
    assert told(sight) == ["GERMANY Army MUN LOST.", "GERMANY Fleet BAL DEPARTS."]


def test_blind_a_unit_removed_in_sight_is_lost_and_the_removal_order_is_not_told() -> None:
    centers = {**HOMES, "GERMANY": ["BER", "KIE"]}
    sight = witness("ENGLAND", *phase({"ENGLAND": ["A BOH"], "GERMANY": ["A MUN", "A BER", "A KIE"]},
                                      {"GERMANY": ["REMOVE A MUN"]}, "W1901A", centers=centers))
    assert told(sight) == ["GERMANY Army MUN LOST."]


def test_blind_a_unit_built_in_sight_is_found_and_no_foreign_adjustment_order_is_told() -> None:
    centers = {**HOMES, "GERMANY": ["BER", "KIE", "MUN", "DEN"], "AUSTRIA": ["VIE", "BUD", "TRI", "SER"]}
    before, results, after = phase({"ENGLAND": ["A BOH"], "GERMANY": ["A DEN", "A HOL", "F HEL"],
                                    "AUSTRIA": ["A TYR", "A GAL", "A BUD"]},
                                   {"GERMANY": ["BUILD A MUN"], "AUSTRIA": ["BUILD A VIE", "WAIVE"]},
                                   "W1901A", centers=centers)
    sight = witness("ENGLAND", before, results, after)
    assert told(sight) == ["AUSTRIA Army VIE FOUND.", "GERMANY Army MUN FOUND."]
    assert "AUSTRIA A TYR" in seen(sight) and len(results) == 3, "seen before and after, yet no order told"


def test_blind_centers_out_of_sight_appear_unowned_and_own_centers_are_all_shown() -> None:
    centers = {**HOMES, "ENGLAND": ["LON", "EDI", "LVP", "TUN"], "GERMANY": ["BER", "KIE", "MUN"]}
    sight = witness("ENGLAND", *phase({"ENGLAND": ["A BOH"], "GERMANY": ["A BER"]}, {}, centers=centers))
    assert sight.after.centers_of("GERMANY") == ["MUN"]  # next to BOH; Berlin and Kiel are out of sight
    assert sight.after.centers_of("ENGLAND") == ["EDI", "LON", "LVP", "TUN"]  # Tunis is far, but England's
    assert not sight.after.centers_of("RUSSIA") and "VIE" in sight.after.centers  # Vienna, next to BOH


def test_blind_nobody_is_told_that_an_order_was_void() -> None:
    # England supports A MUN - TYR, and Germany supports A VIE - BOH: both units hold instead.
    before, results, after = phase({"ENGLAND": ["A BOH"], "GERMANY": ["A MUN", "A TYR"], "AUSTRIA": ["A VIE"]},
                                   {"ENGLAND": ["A BOH S A MUN - TYR"], "GERMANY": ["A MUN H", "A TYR S A VIE - BOH"],
                                    "AUSTRIA": ["A VIE H"]})
    assert {r.reason for r in results} >= {"void"}, "the engine says void: the game master sees it"
    sight = witness("ENGLAND", before, results, after)
    assert all(r.reason != "void" and r.outcome is Outcome.SUCCEEDS for r in sight.results)
    assert [str(r.order) for r in sight.results] == ["A BOH S A MUN - TYR", "A MUN H", "A TYR S A VIE - BOH",
                                                     "A VIE H"]


def test_blind_an_own_order_illegal_for_want_of_a_unit_out_of_sight_reads_as_one_that_stood() -> None:
    # Loyal units order themselves: a support of a unit in Silesia, out of England's sight, that is not there.
    before, results, after = phase({"ENGLAND": ["A TYR"]}, {"ENGLAND": ["A TYR S A SIL - BOH"]})
    assert results[0].outcome is Outcome.INVALID
    assert witness("ENGLAND", before, results, after).results == (
        OrderResult("ENGLAND", results[0].order, Outcome.SUCCEEDS),)


def test_blind_an_own_order_illegal_for_want_of_a_unit_in_sight_or_for_its_geometry_is_told_so() -> None:
    # Bohemia is next to Tyrolia, and empty: England sees it.  Livonia is out of sight, but no
    # unit there could reach Bohemia anyway.
    before, results, after = phase({"ENGLAND": ["A TYR"]}, {"ENGLAND": ["A TYR S A BOH - MUN"]})
    assert witness("ENGLAND", before, results, after).results == results
    before, results, after = phase({"ENGLAND": ["A TYR"]}, {"ENGLAND": ["A TYR S A LVN - BOH"]})
    assert results[0].outcome is Outcome.INVALID
    assert witness("ENGLAND", before, results, after).results == results


def test_blind_a_foreign_invalid_order_is_told_without_its_detail() -> None:
    before, results, after = phase({"ENGLAND": ["A BOH"], "GERMANY": ["A MUN"]},
                                   {"GERMANY": ["A MUN - LON"]})
    assert results[0].detail
    [german] = [r for r in witness("ENGLAND", before, results, after).results if r.power == "GERMANY"]
    assert german.outcome is Outcome.INVALID and german.reason == "illegal" and german.detail is None


def test_blind_a_standoff_between_units_out_of_sight_is_not_told_even_in_a_province_in_sight() -> None:
    sight = witness("ENGLAND", *phase({"ENGLAND": ["A TYR"], "GERMANY": ["A SIL"], "RUSSIA": ["A GAL"]},
                                      {"ENGLAND": ["A TYR H"], "GERMANY": ["A SIL - BOH"], "RUSSIA": ["A GAL - BOH"]}))
    assert "BOH" in sight.view and not told(sight) and not seen(sight)


def test_blind_a_support_from_out_of_sight_is_not_told_but_the_supported_move_is() -> None:
    sight = witness("ENGLAND", *phase({"ENGLAND": ["A TYR"], "GERMANY": ["A MUN", "A RUH"]},
                                      {"ENGLAND": ["A TYR H"], "GERMANY": ["A MUN - BOH", "A RUH S A MUN - BOH"]}))
    assert told(sight) == ["GERMANY A MUN - BOH"]  # MUN and BOH are next to TYR; RUH is not


def test_blind_a_foreign_unit_dislodged_in_sight_shows_no_retreats_nor_an_attacker_out_of_sight() -> None:
    before, results, after = phase({"ENGLAND": ["A TYR"], "GERMANY": ["A BOH"], "RUSSIA": ["A GAL", "A SIL"]},
                                   {"GERMANY": ["A BOH H"], "RUSSIA": ["A GAL - BOH", "A SIL S A GAL - BOH"]})
    assert after.dislodged["BOH"].attacker_from == "GAL"
    sight = witness("ENGLAND", before, results, after)
    assert sight.after.dislodged["BOH"].attacker_from is None
    assert told(sight) == ["GERMANY A BOH H", "RUSSIA Army BOH ARRIVES."]
    assert [r.reason for r in sight.results if r.power == "GERMANY"] == ["dislodged"]


def test_blind_an_own_dislodged_unit_keeps_every_retreat_it_really_has() -> None:
    before, results, after = phase({"ENGLAND": ["A BOH"], "GERMANY": ["A MUN", "A TYR"], "AUSTRIA": ["A GAL"],
                                    "RUSSIA": ["A SIL", "A UKR"]},
                                   {"GERMANY": ["A MUN - BOH", "A TYR S A MUN - BOH"],
                                    "RUSSIA": ["A SIL - GAL", "A UKR - GAL"], "AUSTRIA": ["A GAL - VIE"]})
    sight = witness("ENGLAND", before, results, after)
    assert retreat_options(sight.after, "BOH") == retreat_options(after, "BOH")
    assert "GAL" not in {str(loc) for loc in retreat_options(after, "BOH")}, "the standoff in GAL counts"


def test_blind_a_standoff_it_did_not_see_bars_none_of_its_retreats_on_the_board_it_sees() -> None:
    # England's A BOH is dislodged from MUN; Austria's A BUD and Russia's A WAR, neither seen from
    # BOH, bounce in GAL, which England sees (next to BOH): GAL is free on the board England sees.
    before, results, after = phase({"ENGLAND": ["A BOH"], "GERMANY": ["A MUN", "A TYR"], "AUSTRIA": ["A BUD"],
                                    "RUSSIA": ["A WAR"]},
                                   {"GERMANY": ["A MUN - BOH", "A TYR S A MUN - BOH"],
                                    "AUSTRIA": ["A BUD - GAL"], "RUSSIA": ["A WAR - GAL"]})
    sight = witness("ENGLAND", before, results, after)
    assert "GAL" in after.contested and "GAL" in sight.view
    assert told(sight) == ["GERMANY A MUN - BOH", "GERMANY A TYR S A MUN - BOH"]  # nothing of GAL
    assert "GAL" not in {str(loc) for loc in retreat_options(after, "BOH")}
    assert "GAL" in {str(loc) for loc in retreat_options(sight.after, "BOH")}


def test_blind_an_own_retreat_barred_by_a_standoff_reads_as_one_that_failed_there() -> None:
    _, _, after = phase({"ENGLAND": ["A BOH"], "GERMANY": ["A MUN", "A TYR"], "AUSTRIA": ["A BUD"],
                                    "RUSSIA": ["A WAR"]},
                                   {"GERMANY": ["A MUN - BOH", "A TYR S A MUN - BOH"],
                                    "AUSTRIA": ["A BUD - GAL"], "RUSSIA": ["A WAR - GAL"]})
    outcome = adjudicate(after, {"ENGLAND": [parse_order("A BOH - GAL", after.game_map, after.phase.kind)]})
    [result] = outcome.results
    assert result.outcome is Outcome.INVALID  # the true board bars it
    [own] = witness("ENGLAND", after, outcome.results, outcome.position).results
    assert (own.outcome, own.reason) == (Outcome.FAILS, "standoff")


def test_blind_a_power_sees_its_own_units_and_orders_wherever_they_are() -> None:
    sight = witness("ENGLAND", *phase({"ENGLAND": ["F TUN", "A MOS"]}, {"ENGLAND": ["F TUN - ION"]}))
    assert {str(u.unit) for u in sight.after.units.values()} == {"F ION", "A MOS"}
    assert [str(r.order) for r in sight.results] == ["F TUN - ION"]


def test_blind_zerosum_the_loser_of_a_center_is_not_told_who_took_it() -> None:
    # Rule 6.7 with Tin Cup: England loses Tunis, far from its sight, to Italy; 40 // 4 = 10 AgP.
    start = {"LON": "ENGLAND", "EDI": "ENGLAND", "LVP": "ENGLAND", "TUN": "ENGLAND", "ROM": "ITALY"}
    now = {**start, "TUN": "ITALY"}
    _, entries = zerosum_year_end({"ENGLAND": 40, "ITALY": 0}, {}, start, now, frozenset(start), blind=True)
    assert [(e.power, e.amount, e.note) for e in entries] == [("ENGLAND", -10, "TUN lost"),
                                                              ("ITALY", 10, "TUN taken from ENGLAND")]
    _, entries = zerosum_year_end({"ENGLAND": 40, "ITALY": 0}, {}, start, now, frozenset(start))
    assert entries[0].note == "TUN lost to ITALY"
