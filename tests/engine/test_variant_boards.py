"""The special rules of the variant boards (issue 25, rule 6.2), each worked out by hand from
the board's rules (DPjudge's map files and its ``about_*`` pages)."""

from __future__ import annotations

from typing import Any

from judge.engine.legal import Illegal, check_order, legal_builds, legal_orders
from judge.engine.map import load_map
from judge.engine.notation import position_from_data, result_to_data
from judge.engine.orders import Move, parse_order
from judge.engine.phases import PhaseResult, adjudicate
from judge.engine.position import Phase, Position


def board(variant: str, phase: str, units: dict[str, list[str]], **rest: Any) -> Position:
    """A position of ``variant`` (``rest``: centers, dislodged... as ``judge adjudicate`` reads them)."""
    position, _ = position_from_data({"variant": variant, "phase": phase, "units": units, **rest})
    return position


def play(position: Position, orders: dict[str, list[str]]) -> PhaseResult:
    read = {p: [parse_order(o, position.game_map, position.phase.kind) for o in listed] for p, listed in orders.items()}
    return adjudicate(position, read)  # type: ignore[arg-type]


def units_after(result: PhaseResult) -> set[str]:
    return {f"{u.power} {u.unit}" for u in result.position.units.values()}


def why(position: Position, power: str, text: str) -> Illegal | None:
    return check_order(position, power, parse_order(text, position.game_map, position.phase.kind)).illegal


def listed(position: Position, province: str) -> list[str]:
    return [str(o) for o in legal_orders(position, province)]


def moves(position: Position, province: str) -> list[str]:
    """Where the unit there may move, as listed, without convoy."""
    found = legal_orders(position, province)
    return sorted(str(o.destination) for o in found if isinstance(o, Move) and not o.via_convoy)


# -- phases ----------------------------------------------------------------------------------


def test_phase_names_are_read_with_or_without_leading_zeros_and_written_with_four_digits() -> None:
    for text in ("S1M", "S0001M", "s01m"):
        assert str(Phase.parse(text)) == "S0001M"
    assert str(Phase.parse("S1994M")) == "S1994M" and str(Phase.parse("F1900M")) == "F1900M"
    assert str(Phase.parse("W12A")) == "W0012A"


def test_ancmed_begins_in_spring_of_year_1_and_its_phases_keep_the_year_in_name_1_to_5() -> None:
    start = Position.initial(load_map("ancmed"))
    assert str(start.phase) == "S0001M"
    data = result_to_data(adjudicate(start, {}))
    assert (data["phase"], data["next_phase"]) == ("S0001M", "F0001M")
    assert data["next_phase"][1:5] == "0001"


def test_void_begins_in_fall_1900_without_home_centers() -> None:
    start = Position.initial(load_map("void"))
    assert str(start.phase) == "F1900M" and not start.centers and len(start.units) == 36
    # 36 units, 34 centers: after the first fall someone must remove a unit, so a winter follows.
    orders = {"ALBANIA": ["A ALB - TRI"], "APULIA": ["A APU - NAP"]}
    after = play(start, orders).position
    assert str(after.phase) == "W1900A"
    assert after.centers == {"TRI": "ALBANIA", "NAP": "APULIA"}


# -- Ancient Mediterranean: Baleares, an archipelago -------------------------------------------


def test_baleares_a_fleet_there_convoys_an_army_between_two_coasts() -> None:
    # Massilia to Saguntum: the Ligurian Sea touches Massilia and Baleares, Baleares touches
    # Saguntum, and no other chain of these fleets links them.
    pos = board("ancmed", "S0001M", {"ROME": ["A MAS", "F LIG", "F BAL"]})
    assert why(pos, "ROME", "F BAL C A MAS - SAG") is None
    assert "F BAL C A MAS - SAG" in listed(pos, "BAL")
    convoyed = play(pos, {"ROME": ["A MAS - SAG", "F LIG C A MAS - SAG", "F BAL C A MAS - SAG"]})
    assert "ROME A SAG" in units_after(convoyed)
    held = play(pos, {"ROME": ["A MAS - SAG", "F LIG C A MAS - SAG", "F BAL H"]})
    assert "ROME A MAS" in units_after(held)


def test_baleares_an_army_lands_there_by_convoy() -> None:
    pos = board("ancmed", "S0001M", {"ROME": ["A MAS", "F LIG"]})
    assert "A MAS - BAL" in listed(pos, "MAS")
    result = play(pos, {"ROME": ["A MAS - BAL", "F LIG C A MAS - BAL"]})
    assert "ROME A BAL" in units_after(result)


def test_baleares_an_army_is_refused_it_by_land() -> None:
    pos = board("ancmed", "S0001M", {"ROME": ["A TAR", "F SAG"], "GREECE": ["A BAL"]})
    assert why(pos, "ROME", "A TAR - BAL") is Illegal.NOT_ADJACENT
    assert "A TAR - BAL" not in listed(pos, "TAR")
    assert why(pos, "ROME", "F SAG - BAL") is None  # fleets sail there
    assert why(pos, "GREECE", "A BAL - TAR") is Illegal.NOT_ADJACENT  # nor does an army leave it by land
    assert why(pos, "ROME", "A TAR S F SAG - BAL") is Illegal.SUPPORT_UNREACHABLE


# -- Loeb9: weak straits ---------------------------------------------------------------------------


def test_weak_strait_an_unsupported_army_crosses_into_an_empty_province() -> None:
    pos = board("loeb9", "S1901M", {"ITALY": ["A NAP"]})
    assert "ITALY A SIC" in units_after(play(pos, {"ITALY": ["A NAP - SIC"]}))


def test_weak_strait_a_crossing_has_the_strength_of_its_supports_only() -> None:
    pos = board("loeb9", "S1901M", {"ITALY": ["A NAP", "F TYS", "F ION"], "AUSTRIA": ["F SIC"]})
    alone = play(pos, {"ITALY": ["A NAP - SIC"]})
    assert "ITALY A NAP" in units_after(alone)  # 0 against 1
    one = play(pos, {"ITALY": ["A NAP - SIC", "F TYS S A NAP - SIC"]})
    assert "ITALY A NAP" in units_after(one) and not one.position.dislodged  # 1 against 1
    two = play(pos, {"ITALY": ["A NAP - SIC", "F TYS S A NAP - SIC", "F ION S A NAP - SIC"]})
    assert "ITALY A SIC" in units_after(two) and "SIC" in two.position.dislodged  # 2 against 1


def test_weak_strait_an_unsupported_crossing_is_stopped_by_any_other_move_there() -> None:
    pos = board("loeb9", "S1901M", {"ITALY": ["A NAP"], "AUSTRIA": ["F ION"]})
    result = play(pos, {"ITALY": ["A NAP - SIC"], "AUSTRIA": ["F ION - SIC"]})
    assert units_after(result) == {"ITALY A NAP", "AUSTRIA F SIC"}


def test_weak_strait_no_support_is_given_across_it() -> None:
    pos = board("loeb9", "S1901M", {"ITALY": ["A NAP", "F TYS", "A ROM"], "AUSTRIA": ["A SIC"]})
    assert why(pos, "ITALY", "A NAP S F TYS - SIC") is Illegal.SUPPORT_ACROSS_STRAIT
    assert why(pos, "AUSTRIA", "A SIC S A ROM - NAP") is Illegal.SUPPORT_ACROSS_STRAIT
    assert why(pos, "AUSTRIA", "A SIC S A NAP") is Illegal.SUPPORT_ACROSS_STRAIT
    assert not [o for o in listed(pos, "NAP") if (o.endswith(" - SIC") and " S " in o) or o == "A NAP S A SIC"]
    assert not [o for o in listed(pos, "SIC") if (o.endswith(" - NAP") and " S " in o) or o == "A SIC S A NAP"]
    assert "A NAP S A SIC - ROM" in listed(pos, "NAP")  # by convoy through the Tyrrhenian Sea: no strait
    assert why(pos, "ITALY", "F TYS S A NAP - SIC") is None  # a support of the crossing, from the sea


def test_weak_strait_an_unsupported_crossing_cuts_no_support() -> None:
    # A ROM - APU needs A NAP's support to dislodge A APU; A SIC - NAP attacks the supporter.
    units = {"ITALY": ["A ROM", "A NAP"], "TURKEY": ["A APU"], "AUSTRIA": ["A SIC", "F TYS"]}
    pos = board("loeb9", "S1901M", units)
    italy = ["A ROM - APU", "A NAP S A ROM - APU"]
    unsupported = play(pos, {"ITALY": italy, "AUSTRIA": ["A SIC - NAP"]})
    assert "APU" in unsupported.position.dislodged
    supported = play(pos, {"ITALY": italy, "AUSTRIA": ["A SIC - NAP", "F TYS S A SIC - NAP"]})
    assert "APU" not in supported.position.dislodged and "ITALY A ROM" in units_after(supported)


def test_weak_strait_a_retreat_across_it_loses_to_another_retreat() -> None:
    dislodged = {
        "ITALY": [{"unit": "A ROM", "attacker_from": "TUS"}],
        "AUSTRIA": [{"unit": "A SIC", "attacker_from": "TYS"}],
    }
    pos = board("loeb9", "F1901R", {"FRANCE": ["A TUS", "F TYS"]}, dislodged=dislodged)
    result = play(pos, {"ITALY": ["A ROM - NAP"], "AUSTRIA": ["A SIC - NAP"]})
    assert "ITALY A NAP" in units_after(result) and not any("AUSTRIA" in u for u in units_after(result))


# -- Loeb9: the Arctic Ocean, passable in spring only ------------------------------------------------


def test_arctic_ocean_a_fleet_there_in_fall_must_hold() -> None:
    pos = board("loeb9", "F1901M", {"RUSSIA": ["F ARC", "F BAR"], "ENGLAND": ["F NWG"]})
    assert listed(pos, "ARC") == ["F ARC H"]
    assert why(pos, "RUSSIA", "F ARC - NWG") is Illegal.CLOSED
    assert why(pos, "RUSSIA", "F ARC S F BAR - NWG") is Illegal.CLOSED
    assert why(pos, "ENGLAND", "F NWG - ARC") is Illegal.CLOSED
    assert why(pos, "RUSSIA", "F BAR S F ARC") is Illegal.CLOSED
    assert not [o for o in listed(pos, "NWG") if "ARC" in o]
    spring = board("loeb9", "S1902M", {"RUSSIA": ["F ARC", "F BAR"], "ENGLAND": ["F NWG"]})
    assert why(spring, "RUSSIA", "F ARC - NWG") is None and why(spring, "ENGLAND", "F NWG - ARC") is None


def test_arctic_ocean_a_fleet_there_may_be_removed_in_winter() -> None:
    # Russia owns as many centers as it has units: nothing is due, yet the fleet may go.
    units = {"RUSSIA": ["F ARC", "A MOS", "A WAR", "F SEV"]}
    centers = {"RUSSIA": ["MOS", "WAR", "SEV", "STP"]}
    fall = board("loeb9", "F1901M", units, centers=centers)
    after = play(fall, {})
    assert str(after.position.phase) == "W1901A"  # a winter, for the fleet's sake
    winter = after.position
    assert listed(winter, "ARC") == ["REMOVE F ARC"] and listed(winter, "MOS") == []
    assert why(winter, "RUSSIA", "REMOVE A MOS") is Illegal.NO_ADJUSTMENT
    removed = play(winter, {"RUSSIA": ["REMOVE F ARC"]})
    assert "RUSSIA F ARC" not in units_after(removed) and len(removed.position.units) == 3
    kept = play(winter, {})
    assert "RUSSIA F ARC" in units_after(kept)


# -- Void: builds in any owned center ------------------------------------------------------------


def test_void_builds_in_any_owned_center() -> None:
    pos = board("void", "W1901A", {"ALBANIA": ["A SER"]}, centers={"ALBANIA": ["TRI", "SER"]})
    assert why(pos, "ALBANIA", "BUILD A TRI") is None
    assert why(pos, "ALBANIA", "BUILD F TRI") is None
    assert why(pos, "ALBANIA", "BUILD A SER") is Illegal.BUILD_OCCUPIED
    assert why(pos, "ALBANIA", "BUILD A VIE") is Illegal.BUILD_NOT_OWNED
    assert why(pos, "ALBANIA", "BUILD A ALB") is Illegal.BUILD_NOT_CENTER
    assert [str(o) for o in legal_builds(pos, "ALBANIA")] == ["BUILD A TRI", "BUILD F TRI", "WAIVE"]
    assert "ALBANIA A TRI" in units_after(play(pos, {"ALBANIA": ["BUILD A TRI"]}))


# -- Modern: canals and two-coast Iran ---------------------------------------------------------------


def test_modern_canal_a_fleet_passes_through_cairo_from_sea_to_sea() -> None:
    start = Position.initial(load_map("modern"))
    assert str(start.phase) == "S1995M"
    assert {"F CAI - RED", "F CAI - EME"} <= set(listed(start, "CAI"))
    spring = play(start, {"EGYPT": ["F CAI - RED"]})
    assert "EGYPT F RED" in units_after(spring)
    back = play(spring.position, {"EGYPT": ["F RED - CAI"]})
    fall = play(back.position.evolve(phase=Phase.parse("S1996M")), {"EGYPT": ["F CAI - EME"]})
    assert "EGYPT F EME" in units_after(fall)


def test_modern_iran_has_two_coasts() -> None:
    pos = board("modern", "S1995M", {"TURKEY": ["F PER", "F CAS", "F ARA"], "RUSSIA": ["A ARM"]})
    assert str(check_order(pos, "TURKEY", parse_order("F PER - IRN", pos.game_map)).order) == "F PER - IRN/SC"
    assert str(check_order(pos, "TURKEY", parse_order("F CAS - IRN", pos.game_map)).order) == "F CAS - IRN/NC"
    assert why(pos, "TURKEY", "F ARA - IRN/NC") is Illegal.WRONG_COAST
    assert why(pos, "RUSSIA", "A ARM - IRN") is None
    north = board("modern", "S1995M", {"TURKEY": ["F IRN/NC"]})
    assert why(north, "TURKEY", "F IRN/NC - CAS") is None
    assert why(north, "TURKEY", "F IRN/NC - PER") is Illegal.NOT_ADJACENT


# -- names and the JSON commands ------------------------------------------------------------------


def test_orders_are_read_with_each_boards_names_and_aliases() -> None:
    loeb9 = load_map("loeb9")
    # Renamed provinces (rule: "the usual names and abbreviations ... are recognized as aliases").
    assert str(parse_order("A Norway - Sweden", loeb9)) == "A OSL - STO"
    assert str(parse_order("F Portugal - Cordoba", loeb9)) == "F LIS - COR"
    assert str(parse_order("A DEN - KIE", loeb9)) == "A COP - KIE"
    modern = load_map("modern")
    assert str(parse_order("F Persian Gulf - Iran (south coast)", modern)) == "F PER - IRN/SC"
    assert str(parse_order("A Leningrad - Moscow", modern)) == "A STP - MOS"
    ancmed = load_map("ancmed")
    assert str(parse_order("A Massilia - Baleares via convoy", ancmed)) == "A MAS - BAL VIA CONVOY"


def test_judge_adjudicate_and_judge_orders_take_the_variant() -> None:
    from judge.games.payola.cli import adjudicate_data, orders_data

    out = adjudicate_data({"variant": "ancmed", "phase": "S1M", "units": {"ROME": ["F NEA"]},
                           "orders": {"R": ["F NEA - TYN"]}})
    assert (out["variant"], out["phase"], out["next_phase"]) == ("ancmed", "S0001M", "F0001M")
    assert out["units"] == {"ROME": ["F TYN"]}
    listed = orders_data({"variant": "loeb9", "phase": "F1901M", "units": {"RUSSIA": ["F ARC"]}})
    assert listed["orders"] == {"F ARC": ["F ARC H"]}
    void = orders_data({"variant": "void", "phase": "W1900A", "units": {"+": ["F WES"]},
                        "centers": {"+": ["TUN", "NAP"]}})
    builds = ["BUILD A NAP", "BUILD F NAP", "BUILD A TUN", "BUILD F TUN", "WAIVE"]
    assert void["builds"] == {"W_MEDITERRANEAN_SEA": builds}


# -- Youngstown: the off-board boxes (DPjudge's about_youngstown, "Off-board areas") --------------


def test_youngstown_off_board_box_a_unit_enters_the_box_of_its_space_and_leaves_it_for_that_space() -> None:
    # "English F NAt -> ObA", "Japan F ObK -> SPO" (SPO: the South Pacific, which holds box K).
    pos = board("youngstown", "S1901M", {"ENGLAND": ["F NAO"], "JAPAN": ["F OBK"]})
    assert why(pos, "ENGLAND", "F NAO - OBA") is None and why(pos, "JAPAN", "F OBK - SPO") is None
    result = play(pos, {"ENGLAND": ["F NAO - OBA"], "JAPAN": ["F OBK - SPO"]})
    assert units_after(result) == {"ENGLAND F OBA", "JAPAN F SPO"}


def test_youngstown_off_board_box_a_unit_moves_to_the_boxes_whose_letters_its_box_shows() -> None:
    # "French F ObB -> ObC", "India F ObH -> ObG"; box A shows B and L only (and lies in the North
    # Atlantic), so not C.
    pos = board("youngstown", "S1901M", {"FRANCE": ["F OBB", "F OBA"], "INDIA": ["F OBH"]})
    assert why(pos, "FRANCE", "F OBB - OBC") is None and why(pos, "INDIA", "F OBH - OBG") is None
    assert why(pos, "FRANCE", "F OBA - OBC") is Illegal.NOT_ADJACENT
    assert moves(pos, "OBA") == ["NAO", "OBB", "OBL"]
    assert "FRANCE F OBC" in units_after(play(pos, {"FRANCE": ["F OBB - OBC"]}))


def test_youngstown_off_board_box_holds_one_unit_and_supports_apply() -> None:
    # "England F ObB -> ObK, F ObJ S F ObB -> ObK": two against one dislodges the fleet in box K.
    pos = board("youngstown", "S1901M", {"ENGLAND": ["F OBB", "F OBJ"], "JAPAN": ["F OBK"]})
    alone = play(pos, {"ENGLAND": ["F OBB - OBK"]})
    assert "ENGLAND F OBB" in units_after(alone) and not alone.position.dislodged
    supported = play(pos, {"ENGLAND": ["F OBB - OBK", "F OBJ S F OBB - OBK"]})
    assert "ENGLAND F OBK" in units_after(supported) and "OBK" in supported.position.dislodged


def test_youngstown_off_board_box_an_army_enters_the_african_boxes_only() -> None:
    # "Armies may move only to the four off-board boxes located in Africa (boxes D, E, F, and G)."
    pos = board("youngstown", "S1901M", {"FRANCE": ["A MOR", "A OBD"], "ITALY": ["A SAH", "A EAF"]})
    assert why(pos, "FRANCE", "A MOR - OBD") is None
    assert why(pos, "FRANCE", "A OBD - OBE") is None and why(pos, "FRANCE", "A OBD - OBF") is None
    assert why(pos, "ITALY", "A SAH - OBE") is None and why(pos, "ITALY", "A EAF - OBG") is None
    assert why(pos, "FRANCE", "A OBD - OBC") is Illegal.ARMY_TO_SEA  # box C, in the South Atlantic
    assert moves(pos, "OBD") == ["MOR", "OBE", "OBF", "OBG"]
    result = play(pos, {"FRANCE": ["A OBD - OBE"], "ITALY": ["A EAF - OBG"]})
    assert {"FRANCE A OBE", "ITALY A OBG"} <= units_after(result)


def test_youngstown_off_board_box_a_fleet_is_refused_the_inland_african_boxes() -> None:
    # "Fleets may move to any off-board box with the exception of the inland African boxes (E and F)."
    pos = board("youngstown", "S1901M", {"FRANCE": ["F OBD"], "ITALY": ["F OBG"]})
    assert why(pos, "FRANCE", "F OBD - OBE") is Illegal.FLEET_INLAND
    assert why(pos, "ITALY", "F OBG - OBF") is Illegal.FLEET_INLAND
    assert why(pos, "FRANCE", "F OBD - OBC") is None and why(pos, "ITALY", "F OBG - OBH") is None
    assert why(pos, "FRANCE", "F OBD - OBG") is None  # along the coast of Africa


def test_youngstown_off_board_box_a_fleet_in_an_african_box_is_on_the_coast_and_does_not_convoy() -> None:
    # "A fleet in either of the other African off-board boxes (D and G) is considered to be on the
    # coast of the African continent, and may not participate in convoys."
    pos = board("youngstown", "S1901M", {"FRANCE": ["A MOR", "F OBD", "F OBC"], "ITALY": ["A EAF", "F OBG"]})
    assert why(pos, "FRANCE", "F OBD C A MOR - OBC") is Illegal.CONVOY_NOT_AT_SEA
    assert why(pos, "ITALY", "F OBG C A EAF - OBH") is Illegal.CONVOY_NOT_AT_SEA
    assert not [o for o in listed(pos, "OBD") + listed(pos, "OBG") if " C " in o]


def test_youngstown_off_board_box_an_army_is_convoyed_through_the_boxes() -> None:
    # The page's example: Japan's A Tok -> NPa -> ObL -> ObA -> NAt -> Ire, each fleet convoying.
    fleets = ["F NPO", "F OBL", "F OBA", "F NAO"]
    pos = board("youngstown", "S1901M", {"JAPAN": ["A TOK", *fleets]})
    convoys = [f"{f} C A TOK - IRE" for f in fleets]
    assert all(why(pos, "JAPAN", c) is None for c in convoys)
    assert "A TOK - IRE" in listed(pos, "TOK")
    assert "JAPAN A IRE" in units_after(play(pos, {"JAPAN": ["A TOK - IRE", *convoys]}))
    broken = play(pos, {"JAPAN": ["A TOK - IRE", *convoys[:2], convoys[3]]})  # box A holds
    assert "JAPAN A TOK" in units_after(broken)


# -- Youngstown: the ice-breaker, the Suez, the colonies -----------------------------------------------


def test_youngstown_ice_breaker_a_fleet_moves_along_the_coast_of_omsk() -> None:
    # "Fleets may move along the coast of Omsk": St Petersburg's north coast - Omsk - Siberia,
    # though no sea touches Omsk (the Arctic Circle is impassable).
    pos = board("youngstown", "S1901M", {"RUSSIA": ["F STP/NC", "A MOS"], "CHINA": ["F SIB"]})
    assert why(pos, "RUSSIA", "F STP/NC - OMS") is None and why(pos, "CHINA", "F SIB - OMS") is None
    assert why(pos, "RUSSIA", "A MOS - OMS") is None  # armies too, as anywhere on land
    spring = play(pos, {"RUSSIA": ["F STP/NC - OMS"]})
    assert "RUSSIA F OMS" in units_after(spring)
    there = board("youngstown", "S1901M", {"RUSSIA": ["F OMS", "A MOS"]})
    assert moves(there, "OMS") == ["SIB", "STP/NC"]
    assert why(there, "RUSSIA", "F OMS - STP") is None  # the one coast it reaches
    assert why(there, "RUSSIA", "F OMS - ACI") is Illegal.IMPASSABLE
    assert why(there, "RUSSIA", "F OMS C A MOS - SIB") is Illegal.CONVOY_NOT_AT_SEA


def test_youngstown_suez_fleets_pass_between_the_red_sea_and_the_eastern_mediterranean() -> None:
    # "The Suez is adjacent to the Eastern Mediterranean, the Red Sea, and the north and east
    # coasts of Egypt. It is not adjacent to either coast of Jordan."
    pos = board("youngstown", "S1901M", {"TURKEY": ["F EAS", "F SUE"], "ENGLAND": ["A EGY"]})
    assert why(pos, "TURKEY", "F EAS - SUE") is None  # a unit in Egypt does not bar it
    assert why(pos, "TURKEY", "F SUE - RED") is None
    assert why(pos, "TURKEY", "F SUE - JOR") is Illegal.NOT_ADJACENT
    assert why(pos, "TURKEY", "F SUE - EGY") is Illegal.COAST_NEEDED
    assert why(pos, "TURKEY", "F SUE - EGY/EC") is None and why(pos, "TURKEY", "F SUE - EGY/NC") is None
    result = play(pos, {"TURKEY": ["F SUE - RED", "F EAS - SUE"]})
    assert {"TURKEY F RED", "TURKEY F SUE"} <= units_after(result)


def test_youngstown_suez_a_fleet_there_convoys_and_egypt_still_borders_jordan() -> None:
    # "Fleets in the Suez may convoy armies"; "Units may move between Egypt and Jordan regardless
    # of whether or not there is a fleet in the Suez."
    pos = board("youngstown", "S1901M", {"TURKEY": ["A SYR", "F EAS", "F SUE", "F RED"], "ENGLAND": ["A EGY"]})
    convoys = ["F EAS C A SYR - ETH", "F SUE C A SYR - ETH", "F RED C A SYR - ETH"]
    assert all(why(pos, "TURKEY", c) is None for c in convoys)
    assert "TURKEY A ETH" in units_after(play(pos, {"TURKEY": ["A SYR - ETH", *convoys]}))
    assert "ENGLAND A JOR" in units_after(play(pos, {"ENGLAND": ["A EGY - JOR"]}))
    north, east = (board("youngstown", "S1901M", {"ENGLAND": [f"F EGY/{c}"]}) for c in ("NC", "EC"))
    assert why(north, "ENGLAND", "F EGY/NC - JOR") is None and why(north, "ENGLAND", "F EGY/NC - SUE") is None
    assert str(check_order(north, "ENGLAND", parse_order("F EGY - JOR", north.game_map)).order) == "F EGY/NC - JOR/NC"
    assert str(check_order(east, "ENGLAND", parse_order("F EGY - JOR", east.game_map)).order) == "F EGY/EC - JOR/WC"


def test_youngstown_colonies_are_home_centers_of_england_france_and_italy() -> None:
    # "England, France and Italy are free to build new units at their respective colony
    # territories (Joharra, Saigon, and Mogadiscio) with the same restrictions as regular home centers."
    centers = {"ENGLAND": ["JOH", "LON"], "FRANCE": ["SAI", "PAR", "MOG"], "ITALY": ["ROM"]}
    pos = board("youngstown", "W1901A", {"ITALY": ["A ROM"]}, centers=centers)
    assert why(pos, "ENGLAND", "BUILD F JOH") is None and why(pos, "FRANCE", "BUILD F SAI") is None
    assert why(pos, "FRANCE", "BUILD F MOG") is Illegal.BUILD_NOT_HOME  # Italy's colony, owned by France
    assert why(pos, "ITALY", "BUILD F MOG") is Illegal.BUILD_NOT_OWNED
    built = play(pos, {"ENGLAND": ["BUILD F JOH"], "FRANCE": ["BUILD A SAI"]})
    assert {"ENGLAND F JOH", "FRANCE A SAI"} <= units_after(built)


# -- Empire, World, Known World 901 ----------------------------------------------------------------


def test_empire_waterway_a_fleet_moves_along_the_mississippi_and_armies_cross_it() -> None:
    # DPjudge's about_empire: "a fleet could move from Tennessee to any of Kentucky, Missouri,
    # Arkansas or Deep South"; the rivers "do not impede army movement".
    pos = board("empire", "S1999M", {"FLORIDA": ["F TEN"], "TEXAS": ["A ARK"]})
    assert moves(pos, "TEN") == ["ARK", "DSO", "KEN", "MIS"]
    assert why(pos, "FLORIDA", "F TEN - GEO") is Illegal.NOT_ADJACENT  # Georgia is on no waterway
    assert why(pos, "TEXAS", "A ARK - MIS") is None and why(pos, "TEXAS", "A ARK - TEN") is None


def test_empire_canals_and_land_bridges() -> None:
    # Panama is a canal (a fleet passes from the Caribbean to the Pacific side); the Hudson canal
    # joins New York City and New York State; armies cross between Ungava and Nunavut, fleets
    # still sail between Hudson Bay and the Sea of Labrador.
    pos = board("empire", "S1999M", {"PERU": ["F PAN"], "NEW_YORK": ["F NYC"], "QUEBEC": ["A UNG", "F HUB"]})
    assert why(pos, "PERU", "F PAN - GOP") is None and why(pos, "PERU", "F PAN - SCS") is None
    assert why(pos, "NEW_YORK", "F NYC - NYS") is None
    assert why(pos, "QUEBEC", "A UNG - NUN") is None and why(pos, "QUEBEC", "F HUB - SOL") is None


def test_world_wraps_east_and_west_across_the_pacific() -> None:
    # The globe has no edge: the Bering Strait joins Kamchatka to Alaska, the Northwest Pacific
    # touches the North Pacific Ocean off America.
    pos = board("world", "S2000M", {"PACIFIC_RUSSIA": ["A KAM", "F BRS"], "WESTERN_CANADA": ["F NWP"]})
    assert why(pos, "WESTERN_CANADA", "F NWP - NPO") is None
    convoy = "F BRS C A KAM - ALA"
    assert why(pos, "PACIFIC_RUSSIA", convoy) is None
    assert "PACIFIC_RUSSIA A ALA" in units_after(play(pos, {"PACIFIC_RUSSIA": ["A KAM - ALA", convoy]}))


def test_known_world_901_builds_in_any_owned_center() -> None:
    # The package's known_world_901.map: RULE BUILD_ANY.
    centers = {"ARABIA": ["BAG", "ARD", "ARM", "AZE"]}
    pos = board("known_world_901", "W0901A", {"ARABIA": ["A BAG"]}, centers=centers)
    assert why(pos, "ARABIA", "BUILD A ARM") is None and why(pos, "ARABIA", "BUILD F AZE") is None
    assert why(pos, "ARABIA", "BUILD A ISF") is Illegal.BUILD_NOT_OWNED
    assert "ARABIA A ARM" in units_after(play(pos, {"ARABIA": ["BUILD A ARM"]}))


def test_known_world_901_the_neutral_state_is_a_dummy_whose_armies_hold_unordered() -> None:
    # NEUTRAL-STATE (letter N) has a home and an army in each of the 49 neutral centers and is
    # marked DUMMY: no player takes it, and a unit without orders holds.
    game_map = load_map("known_world_901")
    neutral = game_map.powers["NEUTRAL_STATE"]
    assert neutral.dummy and [p for p, info in game_map.powers.items() if info.dummy] == ["NEUTRAL_STATE"]
    assert len(neutral.home_centers) == 49 == len(neutral.start_units)
    pos = board("known_world_901", "S0901M", {"ARABIA": ["A BAG", "A ISF"], "NEUTRAL_STATE": ["A ARD"]})
    attacked = play(pos, {"ARABIA": ["A BAG - ARD", "A ISF S A BAG - ARD"]})
    assert "ARABIA A ARD" in units_after(attacked) and "ARD" in attacked.position.dislodged
    held = play(pos, {"ARABIA": ["A BAG - ARD"]})
    assert "NEUTRAL_STATE A ARD" in units_after(held)
