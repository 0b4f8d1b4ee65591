"""The classic board as data: every fact the design notes state about it (machiavelli.md section 2),
counted by hand from that table, and the loader's refusals."""

from __future__ import annotations

import json
from importlib.resources import files

import pytest

from judge.games.machiavelli.core.board import AreaKind, BoardError, Location, load_board, parse_board
from judge.games.machiavelli.core.position import Campaign, Independent, Place, Season, UnitKind

from .helpers import altered

BOARD = load_board()
DATA = json.loads((files("judge.games.machiavelli.core") / "boards" / "classic.json").read_text(encoding="utf-8"))

SEAS = {"bot", "egl", "ets", "gon", "ion", "lag", "las", "uas", "wgl", "wms", "wts"}
INLAND = {"are", "aus", "ber", "bos", "bre", "com", "cre", "flo", "for", "hun", "man", "mil", "mon", "par", "pav",
          "per", "pia", "pst", "pon", "rme", "slz", "sla", "spo", "swi", "trt", "tur", "tyr", "urb", "ver", "vic",
          "cri"}
FORTRESSES = {"aqu", "ber", "bre", "for", "par", "pat", "pia", "rma", "slr", "spo", "tiv", "urb", "ver", "vic"}
MAGNITUDE = {"flo": 3, "mil": 3, "gen": 3, "ven": 3, "nap": 2, "tun": 2, "rme": 2}
UNFORTIFIED = {"alb": False, "crn": False, "cro": False, "dal": False, "hun": False, "swi": False,
               "cor": True, "sar": True}  # the unfortified cities, and whether each is a port

# Each power's home country, with the income of its cities (fortresses count nothing).
HOMES = {
    "Austria": ({"aus", "cri", "hun", "tyr"}, 3),
    "Florence": ({"are", "flo", "psa", "pst"}, 5),
    "France": ({"avi", "mar", "pro", "swi"}, 3),
    "Milan": ({"com", "cre", "for", "mil", "par", "pav", "pia"}, 5),
    "Naples": ({"aqu", "bar", "cap", "mes", "nap", "otr", "pal", "slr"}, 5),
    "Papacy": ({"anc", "bol", "pat", "per", "rma", "rme", "spo", "urb"}, 5),
    "Turkey": ({"alb", "bos", "dur", "her", "tun"}, 4),
    "Venice": ({"ber", "bre", "dal", "fri", "ist", "pad", "trv", "ven", "ver", "vic"}, 6),
}
START = {
    "Austria": {"A aus", "A hun", "A tyr"},
    "Florence": {"A are", "A flo", "F psa"},
    "France": {"A avi", "F mar", "A swi"},
    "Milan": {"A cre", "A mil", "A pav"},
    "Naples": {"A bar", "A mes", "F nap", "F pal"},
    "Papacy": {"F anc", "A bol", "A per", "A rme"},
    "Turkey": {"A alb", "F dur", "F tun"},
    "Venice": {"F dal", "A pad", "G ven", "A ver"},
}
INDEPENDENT_GARRISONS = {"fer", "gen", "luc", "man", "mod", "mon", "pio", "rag", "slz", "sav", "sie", "trt"}


def test_the_classic_board_has_81_areas_70_provinces_and_11_seas() -> None:
    kinds = {kind: {c for c, a in BOARD.areas.items() if a.kind is kind} for kind in AreaKind}
    assert len(BOARD.areas) == 81
    assert kinds[AreaKind.SEA] == SEAS
    assert kinds[AreaKind.LAND] == INLAND and len(INLAND) == 31
    assert len(kinds[AreaKind.COAST]) == 39


def test_cities_by_type_without_fortresses() -> None:
    cities = {c: a.city for c, a in BOARD.areas.items() if a.city is not None}
    assert len(cities) == 44
    assert {c for c, city in cities.items() if not city.fortified} == set(UNFORTIFIED)
    assert {c for c, city in cities.items() if not city.fortified and city.port} == {"cor", "sar"}
    assert sum(city.fortified for city in cities.values()) == 36
    assert sum(city.port for city in cities.values()) == 16
    assert {c: city.magnitude for c, city in cities.items() if city.magnitude} == MAGNITUDE
    assert not FORTRESSES & set(cities)


def test_fortresses_are_an_optional_rule_of_fortified_places_without_income() -> None:
    board = load_board(fortresses=True)
    fortresses = {c for c, a in board.areas.items() if a.city is not None and a.city.fortress}
    assert fortresses == FORTRESSES
    assert {c for c in fortresses if board.areas[c].city.port} == {"slr", "tiv"}  # type: ignore[union-attr]
    assert all(board.areas[c].city.fortified and board.areas[c].city.income == 0 for c in fortresses)  # type: ignore[union-attr]


@pytest.mark.parametrize("power", sorted(HOMES))
def test_home_countries_and_their_city_incomes(power: str) -> None:
    areas, income = HOMES[power]
    assert BOARD.home_country(power) == areas
    assert sum(BOARD.areas[a].city.income for a in areas if BOARD.areas[a].city is not None) == income  # type: ignore[union-attr]


def test_provence_and_croatia_have_two_coasts_each_reached_separately() -> None:
    assert BOARD.areas["pro"].coasts == ("nc", "sc") and BOARD.areas["cro"].coasts == ("nc", "sc")
    assert BOARD.fleet_reaches(Location("avi"), "pro") == (Location("pro", "nc"),)
    assert BOARD.fleet_reaches(Location("sav"), "pro") == (Location("pro", "sc"),)
    assert BOARD.fleet_reaches(Location("mar"), "pro") == (Location("pro", "nc"), Location("pro", "sc"))
    assert BOARD.fleet_reaches(Location("uas"), "cro") == (Location("cro", "nc"),)
    assert BOARD.fleet_reaches(Location("dal"), "cro") == (Location("cro", "sc"),)
    assert BOARD.fleet_reaches(Location("ist"), "cro") == (Location("cro", "nc"), Location("cro", "sc"))
    assert BOARD.fleet_reach(Location("cro", "sc")) == {Location("dal"), Location("ist")}


def test_the_straits_of_piombino_and_messina_and_their_controllers() -> None:
    piombino, messina = BOARD.straits
    assert (piombino.name, piombino.controller, piombino.edges) == ("Piombino", "pio", {frozenset({"ets", "psa"})})
    assert (messina.name, messina.controller, messina.edges) == ("Messina", "mes", {frozenset({"gon", "ion"})})
    assert BOARD.strait("psa", "ets") is piombino and BOARD.strait("ion", "gon") is messina
    assert BOARD.strait("pio", "ets") is None and BOARD.strait("mes", "ion") is None


def test_venice_is_reached_only_from_the_lagoon() -> None:
    assert BOARD.lagoon is not None and (BOARD.lagoon.island, BOARD.lagoon.sea) == ("ven", "lag")
    assert BOARD.army_reach("ven") == frozenset() and BOARD.fleet_areas("ven") == {"lag"}
    assert {a for a in BOARD.areas if "ven" in BOARD.fleet_areas(a) | BOARD.army_reach(a)} == {"lag"}
    assert BOARD.areas["ven"].single_unit and BOARD.areas["ven"].city.magnitude == 3  # type: ignore[union-attr]
    assert [a for a in BOARD.areas.values() if a.single_unit] == [BOARD.areas["ven"]]


def test_the_istria_dalmatia_land_bridge() -> None:
    assert "dal" in BOARD.army_reach("ist") and "ist" in BOARD.army_reach("dal")


def test_a_fleet_cannot_go_from_capua_to_aquila() -> None:
    assert "aqu" in BOARD.army_reach("cap") and "aqu" not in BOARD.fleet_areas("cap")


def test_an_areas_borders_by_land_by_sea_along_which_coasts_and_through_which_strait() -> None:
    """What BORDERS answers, from the classic table (machiavelli.md 2): Pisa's armies reach Lucca,
    Pistoia, Florence, Siena and Piombino, its fleets the Eastern Gulf of Lyons, Lucca, Piombino,
    the Western Tyrrhenian and, through the strait of Piombino, the Eastern Tyrrhenian; Provence
    reaches Avignon from its north coast only, Marseilles from both; Capua and Aquila touch by
    land only; Venice touches its Lagoon alone."""
    pisa = {b.area: (b.land, b.sea, b.strait.name if b.strait else None) for b in BOARD.borders("psa")}
    assert pisa == {"luc": (True, True, None), "pst": (True, False, None), "flo": (True, False, None),
                    "sie": (True, False, None), "pio": (True, True, None), "egl": (False, True, None),
                    "wts": (False, True, None), "ets": (False, True, "Piombino")}
    provence = {b.area: b.fleets for b in BOARD.borders("pro")}
    assert provence["avi"] == ((Location("pro", "nc"), Location("avi")),)
    assert provence["mar"] == ((Location("pro", "nc"), Location("mar")), (Location("pro", "sc"), Location("mar")))
    assert {b.area: (b.land, b.sea) for b in BOARD.borders("cap")}["aqu"] == (True, False)
    assert [(b.area, b.land, b.sea) for b in BOARD.borders("ven")] == [("lag", False, True)]


def test_every_adjacency_is_symmetric() -> None:
    for area, neighbours in BOARD.army_edges.items():
        assert all(area in BOARD.army_reach(n) for n in neighbours), area
    for loc, targets in BOARD.fleet_edges.items():
        assert all(loc in BOARD.fleet_reach(t) for t in targets), loc


def test_armies_move_only_between_provinces_and_fleets_only_along_coasts_and_seas() -> None:
    for area, neighbours in BOARD.army_edges.items():
        assert BOARD.areas[area].is_land and all(BOARD.areas[n].is_land for n in neighbours)
    assert all(BOARD.areas[loc.area].kind is not AreaKind.LAND for loc in BOARD.fleet_edges)
    assert not BOARD.fleet_locations("mil") and not BOARD.army_reach("cor") and not BOARD.army_reach("tun")


def test_the_sea_order_of_appendix_a_on_the_classic_seas() -> None:
    assert BOARD.sea_order == ("las", "uas", "ets", "egl", "wts", "ion", "bot", "wms", "wgl", "gon", "lag")


def test_names_aliases_and_accents() -> None:
    assert BOARD.code("Kärnten") == BOARD.code("karnten") == BOARD.code("Carinthia") == "cri"
    assert BOARD.code("Adr. Sup.") == BOARD.code("Adriatico Superiore") == "uas"
    assert BOARD.code("Ligurian Sea") == "egl" and BOARD.code("FIRENZE") == "flo"
    assert BOARD.name_of("pia") == "Piacenza" and BOARD.code("Piancenza") == "pia"
    assert BOARD.area("Venezia").code == "ven" and BOARD.seas() == SEAS
    with pytest.raises(BoardError):
        BOARD.code("Nizza")


def test_the_1454_start() -> None:
    start = BOARD.start
    assert start.season == Season(1454, Campaign.SPRING)
    by_power = {
        power: {f"{u.kind.value} {u.area}" for u in start.units.values() if u.owner == power} for power in START
    }
    assert by_power == START
    independents = [u for u in start.units.values() if u.independent]
    assert {u.area for u in independents} == INDEPENDENT_GARRISONS
    assert all(u.kind is UnitKind.GARRISON and u.owner == Independent(u.area) for u in independents)
    assert start.unit_at(Place("ven", city=True)) is not None and start.province_unit("ven") is None
    assert len(start.units) == 27 + 12  # 3 + 3 + 3 + 3 + 4 + 4 + 3 + 4 committed units


def test_the_1454_control_markers_follow_home_countries_and_independent_garrisons() -> None:
    control = BOARD.start.control
    for power, (areas, _) in HOMES.items():
        assert all(control[a] == power for a in areas)
    assert all(control[a] == Independent(a) for a in INDEPENDENT_GARRISONS)
    assert set(BOARD.areas) - set(control) == SEAS | {"cor", "crn", "cro", "pon", "sar", "sla", "tiv", "tur"}
    assert BOARD.start.homes["Venice"] == {"Venice"}


@pytest.mark.parametrize("change", [
    {"areas.ist.army": ["cro"]},  # Dalmatia still lists Istria: a one-way edge
    {"areas.lag.fleet": ["pad", "trv", "fri", "uas"]},  # Venice reaches the Lagoon, not back
    {"areas.fer.army": ["man", "ver", "pad", "bol", "uas"]},  # an army edge to a sea
    {"sea_order": ["las"]},
    {"areas.pad.aliases": ["Venezia"]},  # one name for two areas
    {"straits": [{"name": "Nowhere", "controller": "pio", "edges": [["mil", "tyr"]]}]},
    {"areas.ven.army": ["lag"]},
])
def test_the_loader_refuses_an_inconsistent_board(change: dict[str, object]) -> None:
    with pytest.raises(BoardError):
        parse_board(altered(DATA, change))


def test_the_data_file_says_where_its_facts_come_from() -> None:
    note = " ".join(DATA["note"])
    assert "machiavelli.md" in note and "facts only" in note
