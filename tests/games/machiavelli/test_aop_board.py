"""The board of *Absence of Plague* (``boards/aop.json``) and its 1459 scenario, against every map
fact the rules state (machiavelli.md 3.1: AoP chapters 1, 3, 5, 9, 13, 14, 17 and Appendix A), the
counts of 3.3, the edits of 3.4 edge by edge, rulings M1-M4 and M15-M17, and the start of chapter 3.

Every expectation is typed here from the documents, by the AoP names they use; incomes are summed
by hand (M1: a province 1, a city 1 or its magnitude)."""

from __future__ import annotations

import json
from importlib.resources import files

import pytest

from judge.games.machiavelli.core.board import AreaKind, Board, BoardError, City, Location, load_board, parse_board
from judge.games.machiavelli.core.income import incomes
from judge.games.machiavelli.core.position import Campaign, Independent, Phase, Season, UnitKind

from .helpers import altered

BOARD = load_board("aop")
CLASSIC = load_board("classic")
DATA = json.loads((files("judge.games.machiavelli.core") / "boards" / "aop.json").read_text(encoding="utf-8"))


def code(name: str) -> str:
    return BOARD.code(name)


def codes(*names: str) -> set[str]:
    return {code(n) for n in names}


def city_type(city: City | None) -> str:
    """A city written as AoP chapter 3 writes it: U/F, the magnitude of a major city, P for a port."""
    if city is None:
        return ""
    magnitude = str(city.magnitude) if city.magnitude else ""
    return ("F" if city.fortified else "U") + magnitude + ("P" if city.port else "")


# -- AoP 3: the thirteen home countries, their cities, tax (T) and trade (V) incomes --------------------------------

HOMES: dict[str, tuple[dict[str, str], int, int]] = {
    "France": ({"Marseille": "F2P", "Lyon": "F", "Avignon": "U", "Ajaccio": "UP"}, 9, 4),
    "Savoy": ({"Nizza": "FP", "Torino": "F2", "Savoia": "U", "Sassari": "UP", "Aosta": ""}, 11, 3),
    "Genoa": ({"Genova": "F3P", "Ventimiglia": "FP", "Monferrato": "F", "Bastia": "UP"}, 10, 4),
    "Holy Roman Empire": ({"Steiermark": "F2", "Tirol": "F", "Trieste": "FP", "Kärnten": "", "Krain": ""}, 9, 3),
    "Milan": ({"Milano": "F3", "Pavia": "F", "Cremona": "F", "Como": "", "Fornova": "", "Piacenza": "", "Parma": ""},
              12, 3),
    "Venice": ({"Venezia": "F3P", "Padova": "F", "Verona": "F", "Treviso": "F", "Bergamo": "", "Brescia": "",
                "Vicenza": "", "Friuli": ""}, 15, 4),
    "Ferrara": ({"Ferrara": "F2P", "Bologna": "F2", "Ravenna": "F", "Modena": "F", "Reggio": ""}, 11, 3),
    "Florence": ({"Firenze": "F3", "Arezzo": "F", "Pisa": "FP", "Pistoia": "F", "Prato": ""}, 11, 4),
    "Papacy": ({"Roma": "F2", "Perugia": "F2", "Urbino": "F", "Ancona": "FP", "Spoleto": "", "Tivoli": "",
                "Patrimonia": ""}, 13, 3),
    "Naples": ({"Napoli": "F2P", "Salerno": "F", "Bari": "FP", "Aquila": "U", "Capua": "", "Otranto": ""}, 11, 4),
    "Sicily": ({"Palermo": "F2P", "Messina": "FP", "Siracusa": "FP", "Cagliari": "UP", "Pantelleria": "",
                "Lipari": ""}, 11, 3),
    "Dalmatia": ({"Zara": "F2P", "Spalato": "F", "Fiume": "F", "Istria": "", "Croazia": "", "Slavonia": ""}, 10, 4),
    "Turkey": ({"Durazzo": "F2P", "Malta": "FP", "Albania": "U", "Bosnia": "U", "Herzegovina": "", "Lampedusa": ""},
               11, 3),
}
# M1 by hand: (provinces, the cities' incomes, the Lagoon's ducat, Pontremoli) -> T
HAND_TAX = {
    "France": (4, 2 + 1 + 1 + 1, 0), "Savoy": (5 + 1, 1 + 2 + 1 + 1, 0), "Genoa": (4, 3 + 1 + 1 + 1, 0),
    "Holy Roman Empire": (5, 2 + 1 + 1, 0), "Milan": (7, 3 + 1 + 1, 0), "Venice": (8, 3 + 1 + 1 + 1, 1),
    "Ferrara": (5, 2 + 2 + 1 + 1, 0), "Florence": (5, 3 + 1 + 1 + 1, 0), "Papacy": (7, 2 + 2 + 1 + 1, 0),
    "Naples": (6, 2 + 1 + 1 + 1, 0), "Sicily": (6, 2 + 1 + 1 + 1, 0), "Dalmatia": (6, 2 + 1 + 1, 0),
    "Turkey": (6, 2 + 1 + 1 + 1, 0),
}
INDEPENDENT_GARRISONS = {"Saluzzo": "F", "Trento": "F", "Ungarn": "F2", "Mantova": "F2", "Massa": "F", "Lucca": "F",
                         "Piombino": "FP", "Siena": "F", "San Marino": "F", "Kalabria": "F", "Tunis": "F2P",
                         "Ragusa": "FP"}
NEUTRAL_CITIES = {"Schweiz": "U", "Bolzano": "U", "Gabes": "U"}
SEAS = ["Lower Adriatic", "Central Adriatic", "Upper Adriatic", "Eastern Tyrrhenian Sea", "Ligurian Sea",
        "Western Tyrrhenian Sea", "Ionian Sea", "Bay of Tunis", "Western Mediterranean", "Sea of Toulon",
        "Bay of Naples", "Lagoon"]  # Appendix A's order of category 4


# -- 3.3 counts, and where each area comes from ----------------------------------------------------------------------

RECONSTRUCTED = ["Lyon", "Savoia", "Aosta", "Ventimiglia", "Ajaccio", "Bastia", "Sassari", "Cagliari", "Trieste",
                 "Reggio", "Prato", "Siracusa", "Pantelleria", "Lipari", "Malta", "Lampedusa", "Spalato", "Fiume",
                 "Massa", "San Marino", "Kalabria", "Bolzano", "Gabes", "Central Adriatic"]
RENAMED = {"sav": "Nizza", "aus": "Steiermark", "crn": "Krain", "rma": "Ravenna", "dal": "Zara", "hun": "Ungarn",
           "swi": "Schweiz", "egl": "Ligurian Sea", "wgl": "Sea of Toulon", "gon": "Bay of Naples"}
# 3.4 "Renames (keep the S1 edges)": every classic area placed on the AoP board, by its AoP name
PLACED = {
    "avi": "Avignon", "mar": "Marseille", "sav": "Nizza", "tur": "Torino", "slz": "Saluzzo", "mon": "Monferrato",
    "gen": "Genova", "pon": "Pontremoli", "swi": "Schweiz",
    "tyr": "Tirol", "aus": "Steiermark", "cri": "Kärnten", "crn": "Krain", "hun": "Ungarn", "trt": "Trento",
    "mil": "Milano", "pav": "Pavia", "cre": "Cremona", "com": "Como", "for": "Fornova", "pia": "Piacenza",
    "par": "Parma",
    "ven": "Venezia", "pad": "Padova", "ver": "Verona", "vic": "Vicenza", "trv": "Treviso", "ber": "Bergamo",
    "bre": "Brescia", "fri": "Friuli",
    "man": "Mantova", "fer": "Ferrara", "bol": "Bologna", "rma": "Ravenna", "mod": "Modena", "luc": "Lucca",
    "flo": "Firenze", "are": "Arezzo", "psa": "Pisa", "pst": "Pistoia", "pio": "Piombino", "sie": "Siena",
    "rme": "Roma", "per": "Perugia", "urb": "Urbino", "anc": "Ancona", "spo": "Spoleto", "tiv": "Tivoli",
    "pat": "Patrimonia",
    "nap": "Napoli", "slr": "Salerno", "bar": "Bari", "aqu": "Aquila", "cap": "Capua", "otr": "Otranto",
    "pal": "Palermo", "mes": "Messina",
    "dal": "Zara", "ist": "Istria", "cro": "Croazia", "sla": "Slavonia", "bos": "Bosnia", "her": "Herzegovina",
    "rag": "Ragusa", "alb": "Albania", "dur": "Durazzo", "tun": "Tunis",
    "egl": "Ligurian Sea", "wgl": "Sea of Toulon", "gon": "Bay of Naples", "uas": "Upper Adriatic",
    "las": "Lower Adriatic", "ets": "Eastern Tyrrhenian Sea", "wts": "Western Tyrrhenian Sea", "ion": "Ionian Sea",
    "bot": "Bay of Tunis", "wms": "Western Mediterranean", "lag": "Lagoon",
}


def test_3_3_the_board_has_102_areas_90_land_and_12_seas() -> None:
    land = [a for a in BOARD.areas.values() if a.is_land]
    home = sum(len(cities) for cities, _, _ in HOMES.values())
    assert home == 74
    assert len(BOARD.areas) == 102 and len(land) == 90 == home + 1 + len(INDEPENDENT_GARRISONS) + len(NEUTRAL_CITIES)
    assert BOARD.seas() == codes(*SEAS) and len(SEAS) == 12


def test_3_3_seventy_eight_areas_are_placed_from_the_classic_board_and_twenty_four_reconstructed() -> None:
    sources = {c: a["source"] for c, a in DATA["areas"].items()}
    placed = {c for c, s in sources.items() if s.startswith("classic ")}
    rebuilt = {c for c, s in sources.items() if s.startswith("reconstructed from the geography of 1459")}
    assert placed | rebuilt == set(BOARD.areas) and not placed & rebuilt
    assert rebuilt == codes(*RECONSTRUCTED) and len(rebuilt) == 24
    assert placed == codes(*PLACED.values()) and len(placed) == 78
    assert sum(BOARD.areas[c].is_sea for c in placed) == 11 and sum(BOARD.areas[c].is_land for c in rebuilt) == 23
    for classic, name in PLACED.items():  # each names the classic area it is, renamed where 3.3 says so
        source = sources[code(name)]
        assert source.startswith(f"classic {classic} ({CLASSIC.name_of(classic)})") or source == (
            f"classic {classic}, renamed ({CLASSIC.name_of(classic)})"), source
        assert ("renamed" in source) == (classic in RENAMED)
    assert {RENAMED[c] for c in RENAMED} == {BOARD.name_of(code(n)) for n in RENAMED.values()}


def test_the_data_file_says_it_is_a_reconstruction_and_where_its_facts_come_from() -> None:
    note = " ".join(DATA["note"])
    assert "RECONSTRUCTION" in note and "machiavelli.md" in note and "facts only" in note
    assert "reconstructed from the geography of 1459" in note


@pytest.mark.parametrize("name", ["Provence", "Corsica", "Sardinia"])
def test_M4_provence_is_not_on_the_board_and_corsica_and_sardinia_are_split(name: str) -> None:
    with pytest.raises(BoardError):
        BOARD.code(name)


def test_M49_each_area_has_one_canonical_name_a_unique_code_and_aliases_in_three_languages() -> None:
    assert all(3 <= len(c) <= 4 and c.isalpha() and c.islower() for c in BOARD.areas)
    assert code("Kärnten") == code("Carinthia") == code("Carinzia") == code("karnten")
    assert code("Firenze") == code("Florence") == code("Florenz")
    assert code("Napoli") == code("Naples") == code("Neapel")
    assert code("Kalabria") == code("Calabria") and code("Rome") == code("Roma")
    assert code("Adr. Sup.") == code("Adriatico Superiore") == code("Upper Adriatic") == code("Obere Adria")
    assert code("Elba") == code("Piombino")  # 9.3: Piombino includes the island of Elba
    names = [a.name for a in BOARD.areas.values()]
    assert len(set(names)) == 102


# -- AoP 1: the units each place holds ------------------------------------------------------------------------------


def test_1_2_unfortified_port_cities_take_a_fleet_or_an_army_but_no_garrison() -> None:
    ports = {c for c, a in BOARD.areas.items() if a.city is not None and a.city.port and not a.city.fortified}
    assert ports == codes("Ajaccio", "Bastia", "Sassari", "Cagliari")
    assert all(not BOARD.areas[c].fortified_city for c in ports)


def test_1_3_venice_holds_one_unit_of_any_kind_the_three_islands_a_fleet_or_a_rebellion_only() -> None:
    single = {c for c, a in BOARD.areas.items() if a.single_unit}
    fleet_only = {c for c, a in BOARD.areas.items() if a.fleet_only}
    assert single == codes("Venezia", "Lipari", "Pantelleria", "Lampedusa")
    assert fleet_only == codes("Lipari", "Pantelleria", "Lampedusa")
    for island in fleet_only:
        assert BOARD.army_reach(island) == frozenset() and BOARD.areas[island].city is None
        assert BOARD.fleet_locations(island) == (Location(island),)
        assert all(BOARD.areas[n].is_sea for n in BOARD.fleet_areas(island))


def test_M16_malta_is_an_ordinary_province_with_a_fortified_port_city() -> None:
    malta = BOARD.area("Malta")
    assert not malta.single_unit and not malta.fleet_only and city_type(malta.city) == "FP"
    assert BOARD.fleet_areas(malta.code) == codes("Ionian Sea", "Bay of Tunis") and not BOARD.army_reach(malta.code)


def test_every_port_city_lies_on_a_coast_and_every_coast_has_a_fleet_neighbour() -> None:
    for c, area in BOARD.areas.items():
        if area.city is not None and area.city.port:
            assert area.is_coastal, c
        assert bool(BOARD.fleet_locations(c) and BOARD.fleet_areas(c)) == (area.kind is not AreaKind.LAND), c
    assert not any(a.coasts for a in BOARD.areas.values())  # Provence is gone, Croazia is inland: no dual coast


def test_every_adjacency_is_symmetric_armies_between_provinces_fleets_along_coasts_and_seas() -> None:
    for area, neighbours in BOARD.army_edges.items():
        assert BOARD.areas[area].is_land and all(area in BOARD.army_reach(n) and BOARD.areas[n].is_land
                                                 for n in neighbours), area
    for loc, targets in BOARD.fleet_edges.items():
        assert BOARD.areas[loc.area].kind is not AreaKind.LAND
        assert all(loc in BOARD.fleet_reach(t) for t in targets), loc


# -- AoP 3: the 1459 scenario ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("power", sorted(HOMES))
def test_3_home_countries_and_their_city_types(power: str) -> None:
    cities, _, _ = HOMES[power]
    assert BOARD.home_country(power) == codes(*cities)
    assert {name: city_type(BOARD.area(name).city) for name in cities} == cities


def test_3_the_thirteen_powers_the_pope_trade_incomes_and_victory() -> None:
    assert set(BOARD.powers) == set(HOMES) and len(BOARD.powers) == 13
    assert BOARD.papacy == "Papacy"
    assert dict(BOARD.trade) == {p: v for p, (_, _, v) in HOMES.items()}
    assert {p for p, v in BOARD.trade.items() if v == 4} == {"France", "Genoa", "Venice", "Florence", "Naples",
                                                            "Dalmatia"}  # 5.2: the rest 3
    assert BOARD.victory.needed(1464) == 15 and BOARD.victory.needed(1465) == 12  # 4.2


@pytest.mark.parametrize("power", sorted(HOMES))
def test_M1_each_tax_figure_of_chapter_3_adds_up_from_the_start(power: str) -> None:
    provinces, cities, lagoon = HAND_TAX[power]
    _, tax, trade = HOMES[power]
    assert provinces + cities + lagoon == tax
    income = incomes(BOARD, BOARD.start, BOARD.powers)[power]
    assert (income.provinces, income.cities, income.lagoon, income.seas) == (provinces, cities, lagoon, 0)
    assert (income.tax, income.trade) == (tax, trade)


def test_M1_dalmatias_figures_read_tax_10_and_trade_4() -> None:
    income = incomes(BOARD, BOARD.start, ["Dalmatia"])["Dalmatia"]
    assert (income.tax, income.trade) == (10, 4)


def test_3_the_start_is_spring_1459_at_a3_with_15_ducats_each_and_three_units_to_raise() -> None:
    start = BOARD.start
    assert start.season == Season(1459, Campaign.SPRING) and start.phase is Phase.A
    assert dict(start.treasuries) == dict.fromkeys(HOMES, 15) == dict(start.anticipated)
    assert BOARD.first_builds == 3
    assert dict(start.homes) == {p: {p} for p in HOMES}


def test_3_the_only_units_are_the_twelve_independent_garrisons() -> None:
    units = BOARD.start.units.values()
    assert {u.area for u in units} == codes(*INDEPENDENT_GARRISONS) and len(units) == 12
    assert all(u.kind is UnitKind.GARRISON and u.owner == Independent(u.area) for u in units)
    assert {n: city_type(BOARD.area(n).city) for n in INDEPENDENT_GARRISONS} == INDEPENDENT_GARRISONS
    assert all(BOARD.area(n).home is None for n in INDEPENDENT_GARRISONS)


def test_3_starting_control_home_countries_savoys_pontremoli_and_the_independents() -> None:
    control = BOARD.start.control
    for power, (cities, _, _) in HOMES.items():
        assert all(control[code(n)] == power for n in cities)
    assert all(control[code(n)] == Independent(code(n)) for n in INDEPENDENT_GARRISONS)
    assert control[code("Pontremoli")] == "Savoy"
    assert set(BOARD.areas) - set(control) == BOARD.seas() | codes(*NEUTRAL_CITIES)


def test_M2_pontremoli_is_savoys_but_no_part_of_its_home_country() -> None:
    pontremoli = BOARD.area("Pontremoli")
    assert pontremoli.city is None and pontremoli.home is None and pontremoli.kind is AreaKind.LAND
    assert pontremoli.code not in BOARD.home_country("Savoy")


def test_3_schweiz_bolzano_and_gabes_are_unfortified_cities_nobody_holds() -> None:
    assert {n: city_type(BOARD.area(n).city) for n in NEUTRAL_CITIES} == NEUTRAL_CITIES
    assert all(BOARD.area(n).home is None and BOARD.start.controller(code(n)) is None for n in NEUTRAL_CITIES)
    assert not any(BOARD.start.units.get(p) for n in NEUTRAL_CITIES for p in BOARD.start.units if p.area == code(n))


def test_every_city_of_the_board_is_named_in_chapter_3_and_no_other() -> None:
    named = {n: t for cities, _, _ in HOMES.values() for n, t in cities.items() if t}
    named |= INDEPENDENT_GARRISONS | NEUTRAL_CITIES
    assert {a.name: city_type(a.city) for a in BOARD.areas.values() if a.city is not None} == named


# -- AoP 9.3, 14, 17 and Appendix A: the stated map facts ------------------------------------------------------------


def army(a: str, b: str) -> bool:
    return code(b) in BOARD.army_reach(code(a))


def fleet(a: str, b: str) -> bool:
    return code(b) in BOARD.fleet_areas(code(a))


def test_9_3_a_fleet_may_not_go_from_capua_to_aquila_an_army_may() -> None:
    assert army("Capua", "Aquila") and not fleet("Capua", "Aquila")


def test_9_3_M17_the_straits_of_bonifacio_and_messina_are_direct_fleet_edges_only() -> None:
    assert fleet("Ajaccio", "Sassari") and fleet("Messina", "Kalabria")
    assert not army("Ajaccio", "Sassari") and not army("Messina", "Kalabria")


def test_9_3_M17_piombino_with_elba_controls_the_channel_of_the_eastern_tyrrhenian_sea_to_pisa() -> None:
    strait = BOARD.strait(code("Eastern Tyrrhenian Sea"), code("Pisa"))
    assert strait is not None and strait.name == "Piombino" and strait.controller == code("Piombino")
    assert strait.edges == {frozenset(codes("Eastern Tyrrhenian Sea", "Pisa"))} and not strait.passages
    assert fleet("Piombino", "Eastern Tyrrhenian Sea") and BOARD.strait(code("Piombino"), code("Pisa")) is None


def test_9_3_M17_a_fleet_in_messina_controls_its_strait_and_the_passage_along_calabria() -> None:
    strait = BOARD.strait(code("Messina"), code("Kalabria"))
    assert strait is not None and strait.controller == code("Messina")
    assert strait.edges == {frozenset(codes("Messina", "Kalabria")), frozenset(codes("Bay of Naples", "Ionian Sea"))}
    kal = code("Kalabria")
    for tyrrhenian in ("Bay of Naples", "Salerno"):
        for ionian in ("Ionian Sea", "Otranto"):
            assert BOARD.passage(code(tyrrhenian), kal, code(ionian)) is strait
            assert BOARD.passage(code(ionian), kal, code(tyrrhenian)) is strait
    assert BOARD.passage(code("Bay of Naples"), kal, code("Salerno")) is None
    assert BOARD.passage(code("Ionian Sea"), kal, code("Otranto")) is None


def test_9_3_a_fleet_in_calabria_lies_anywhere_along_its_coast() -> None:
    assert BOARD.fleet_areas(code("Kalabria")) == codes("Bay of Naples", "Ionian Sea", "Messina", "Salerno", "Otranto")
    assert BOARD.fleet_locations(code("Kalabria")) == (Location(code("Kalabria")),)


def test_9_3_M17_calabrias_borders_name_the_strait_of_messina_and_the_passages_along_its_coast() -> None:
    """What BORDERS tells of Calabria: Messina by sea only, through the strait of Messina; a
    transport along its coast from the Bay of Naples or Salerno to the Ionian Sea or Otranto
    passes that strait; Ajaccio's border with Sassari passes Bonifacio, which nobody controls."""
    kal = {BOARD.name_of(b.area): (b.land, b.sea, b.strait.name if b.strait else None)
           for b in BOARD.borders(code("Kalabria"))}
    assert kal == {"Messina": (False, True, "Messina"), "Bay of Naples": (False, True, None),
                   "Ionian Sea": (False, True, None), "Salerno": (True, True, None), "Otranto": (True, True, None)}
    passages = {(BOARD.name_of(a), BOARD.name_of(b)) for a, b, s in BOARD.passages_through(code("Kalabria"))}
    assert passages == {("Bay of Naples", "Ionian Sea"), ("Bay of Naples", "Otranto"), ("Salerno", "Ionian Sea"),
                        ("Salerno", "Otranto")}
    (sassari,) = [b for b in BOARD.borders(code("Ajaccio")) if b.area == code("Sassari")]
    assert sassari.strait is not None and (sassari.strait.name, sassari.strait.controller) == ("Bonifacio", None)


def test_M17_bonifacio_is_a_strait_nobody_controls() -> None:
    strait = BOARD.strait(code("Ajaccio"), code("Sassari"))
    assert strait is not None and strait.name == "Bonifacio" and strait.controller is None
    assert {s.name for s in BOARD.straits} == {"Piombino", "Messina", "Bonifacio"}


def test_14_venice_is_reached_only_from_the_lagoon_which_ferrara_touches() -> None:
    assert BOARD.lagoon is not None and BOARD.lagoon.island == code("Venezia") and BOARD.lagoon.sea == code("Lagoon")
    venice = code("Venezia")
    assert {a for a in BOARD.areas if venice in BOARD.fleet_areas(a) | BOARD.army_reach(a)} == {code("Lagoon")}
    assert fleet("Ferrara", "Lagoon") and fleet("Lagoon", "Ferrara")
    assert BOARD.fleet_areas(code("Lagoon")) == codes("Venezia", "Ferrara", "Padova", "Treviso", "Friuli",
                                                      "Upper Adriatic")


def test_17_example_5_urbino_and_perugia_touch_arezzo_ancona_the_upper_adriatic_roma_and_siena_no_ports() -> None:
    assert army("Urbino", "Arezzo") and army("Perugia", "Arezzo") and fleet("Ancona", "Adr. Sup.")
    assert not BOARD.area("Roma").city.port and not BOARD.area("Siena").city.port  # type: ignore[union-attr]


def test_appendix_a_example_6_the_ligurian_coast() -> None:
    assert all(fleet(n, "Ligurian Sea") for n in ("Ventimiglia", "Pisa", "Massa", "Lucca", "Western Tyrrhenian Sea"))
    assert army("Pontremoli", "Massa") and army("Pisa", "Lucca")
    assert not army("Massa", "Pisa") and not fleet("Massa", "Pisa") and not army("Pontremoli", "Lucca")  # M3
    assert "Pisa" in HOMES["Florence"][0] and "Pontremoli" not in HOMES["Florence"][0]


def test_appendix_a_the_twelve_seas_in_their_order_of_preference() -> None:
    assert [BOARD.name_of(c) for c in BOARD.sea_order] == SEAS and set(BOARD.sea_order) == BOARD.seas()


def test_M3_massa_lies_between_genova_and_lucca_and_modena_is_inland() -> None:
    massa = code("Massa")
    assert BOARD.army_reach(massa) == codes("Pontremoli", "Genova", "Lucca", "Modena")
    assert BOARD.fleet_areas(massa) == codes("Genova", "Lucca", "Ligurian Sea")
    assert BOARD.area("Modena").kind is AreaKind.LAND


# -- 3.4: the classic board plus these edits, edge by edge --------------------------------------------------------

DELETED = [
    ("Nizza", "Genova", "AF"), ("Nizza", "Monferrato", "A"),
    ("Genova", "Modena", "AF"), ("Modena", "Lucca", "F"), ("Modena", "Ligurian Sea", "F"), ("Parma", "Modena", "A"),
    ("Krain", "Upper Adriatic", "F"), ("Krain", "Friuli", "F"), ("Krain", "Croazia", "F"),
    ("Croazia", "Istria", "F"), ("Croazia", "Upper Adriatic", "F"), ("Croazia", "Zara", "F"),  # all Croazia's fleet
    ("Istria", "Zara", "AF"), ("Istria", "Croazia", "A"),
    ("Zara", "Herzegovina", "AF"), ("Zara", "Lower Adriatic", "F"),
    ("Upper Adriatic", "Lower Adriatic", "F"), ("Ancona", "Lower Adriatic", "F"),
    ("Otranto", "Bay of Naples", "F"),
    ("Palermo", "Ionian Sea", "F"),
]
ADDED = [
    ("Marseille", "Nizza", "AF"), ("Marseille", "Avignon", "AF"), ("Nizza", "Sea of Toulon", "F"),
    ("Avignon", "Nizza", "A"), ("Lyon", "Avignon", "A"), ("Lyon", "Savoia", "A"), ("Lyon", "Schweiz", "A"),
    ("Savoia", "Schweiz", "A"), ("Savoia", "Aosta", "A"), ("Savoia", "Torino", "A"), ("Savoia", "Avignon", "A"),
    ("Aosta", "Schweiz", "A"), ("Aosta", "Torino", "A"),
    ("Nizza", "Ventimiglia", "AF"), ("Ventimiglia", "Genova", "AF"), ("Ventimiglia", "Monferrato", "A"),
    ("Ventimiglia", "Saluzzo", "A"), ("Ventimiglia", "Ligurian Sea", "F"),
    ("Ajaccio", "Bastia", "AF"), ("Ajaccio", "Sea of Toulon", "F"), ("Ajaccio", "Western Tyrrhenian Sea", "F"),
    ("Bastia", "Ligurian Sea", "F"), ("Bastia", "Western Tyrrhenian Sea", "F"), ("Ajaccio", "Sassari", "F"),
    ("Sassari", "Cagliari", "AF"), ("Sassari", "Sea of Toulon", "F"), ("Sassari", "Western Tyrrhenian Sea", "F"),
    ("Cagliari", "Western Mediterranean", "F"), ("Cagliari", "Western Tyrrhenian Sea", "F"),
    ("Massa", "Pontremoli", "A"), ("Massa", "Lucca", "AF"), ("Massa", "Genova", "AF"), ("Massa", "Modena", "A"),
    ("Massa", "Ligurian Sea", "F"),
    ("Reggio", "Parma", "A"), ("Reggio", "Modena", "A"), ("Reggio", "Mantova", "A"), ("Reggio", "Pontremoli", "A"),
    ("Prato", "Firenze", "A"), ("Prato", "Pistoia", "A"), ("Prato", "Bologna", "A"),
    ("San Marino", "Ravenna", "A"), ("San Marino", "Urbino", "A"),
    ("Bolzano", "Tirol", "A"), ("Bolzano", "Trento", "A"), ("Bolzano", "Kärnten", "A"), ("Bolzano", "Schweiz", "A"),
    ("Trieste", "Friuli", "AF"), ("Trieste", "Istria", "AF"), ("Trieste", "Krain", "A"), ("Trieste", "Kärnten", "A"),
    ("Trieste", "Upper Adriatic", "F"),
    ("Fiume", "Istria", "AF"), ("Fiume", "Krain", "A"), ("Fiume", "Croazia", "A"), ("Fiume", "Zara", "AF"),
    ("Fiume", "Upper Adriatic", "F"),
    ("Spalato", "Zara", "AF"), ("Spalato", "Bosnia", "A"), ("Spalato", "Herzegovina", "AF"),
    ("Spalato", "Central Adriatic", "F"),
    ("Central Adriatic", "Upper Adriatic", "F"), ("Central Adriatic", "Lower Adriatic", "F"),
    ("Central Adriatic", "Ancona", "F"), ("Central Adriatic", "Aquila", "F"), ("Central Adriatic", "Zara", "F"),
    ("Central Adriatic", "Herzegovina", "F"),
    ("Kalabria", "Otranto", "AF"), ("Kalabria", "Salerno", "AF"), ("Kalabria", "Bay of Naples", "F"),
    ("Kalabria", "Ionian Sea", "F"), ("Kalabria", "Messina", "F"),
    ("Siracusa", "Palermo", "AF"), ("Siracusa", "Messina", "AF"), ("Siracusa", "Ionian Sea", "F"),
    ("Siracusa", "Bay of Tunis", "F"),
    ("Lipari", "Eastern Tyrrhenian Sea", "F"), ("Lipari", "Bay of Naples", "F"), ("Pantelleria", "Bay of Tunis", "F"),
    ("Pantelleria", "Western Mediterranean", "F"), ("Malta", "Ionian Sea", "F"), ("Malta", "Bay of Tunis", "F"),
    ("Lampedusa", "Bay of Tunis", "F"), ("Lampedusa", "Ionian Sea", "F"),
    ("Gabes", "Tunis", "AF"), ("Gabes", "Bay of Tunis", "F"),
    ("Ferrara", "Lagoon", "F"),
]
DROPPED = {"pro", "cor", "sar"}  # Provence (M4); Corsica and Sardinia, split


def _edges(board: Board, kind: str, name: dict[str, str] | None = None) -> set[frozenset[str]]:
    """A board's army (A) or fleet (F) edges between areas (coasts merged), the areas renamed by ``name``."""
    rename = name or {}
    if kind == "A":
        pairs = {(a, b) for a, ns in board.army_edges.items() for b in ns}
    else:
        pairs = {(loc.area, t.area) for loc, ts in board.fleet_edges.items() for t in ts}
    return {frozenset((rename.get(a, a), rename.get(b, b))) for a, b in pairs
            if a not in DROPPED and b not in DROPPED}


@pytest.mark.parametrize(("a", "b", "kinds"), DELETED, ids=[f"{a}-{b} {k}" for a, b, k in DELETED])
def test_3_4_a_classic_edge_broken_by_a_new_area_is_deleted(a: str, b: str, kinds: str) -> None:
    for kind in kinds:
        assert frozenset(codes(a, b)) in _edges(CLASSIC, kind, {c: code(n) for c, n in PLACED.items()})
        assert frozenset(codes(a, b)) not in _edges(BOARD, kind)


@pytest.mark.parametrize(("a", "b", "kinds"), ADDED, ids=[f"{a}-{b} {k}" for a, b, k in ADDED])
def test_3_4_an_edge_of_the_reconstruction_is_added(a: str, b: str, kinds: str) -> None:
    for kind in "AF":
        assert (frozenset(codes(a, b)) in _edges(BOARD, kind)) == (kind in kinds)


@pytest.mark.parametrize("kind", ["A", "F"])
def test_3_4_the_board_is_the_classic_board_renamed_minus_the_deleted_plus_the_added_edges(kind: str) -> None:
    classic = _edges(CLASSIC, kind, {c: code(n) for c, n in PLACED.items()})
    deleted = {frozenset(codes(a, b)) for a, b, kinds in DELETED if kind in kinds}
    added = {frozenset(codes(a, b)) for a, b, kinds in ADDED if kind in kinds}
    assert not added & classic and deleted <= classic
    assert _edges(BOARD, kind) == (classic - deleted) | added


def test_3_4_krain_croazia_and_modena_become_inland_and_ferrara_a_port() -> None:
    assert {BOARD.area(n).kind for n in ("Krain", "Croazia", "Modena")} == {AreaKind.LAND}
    assert BOARD.area("Ferrara").city == City(fortified=True, port=True, income=2)


# -- the loader's refusals for what the AoP board added ------------------------------------------------------------


@pytest.mark.parametrize("change", [
    {"areas.lip.army": ["mes"], "areas.mes.army": ["pal", "sir", "lip"]},  # an army edge onto a fleet-only island
    {"single_unit": ["ven"]},  # the fleet-only islands would hold more than one unit
    {"straits": [{"name": "Messina", "controller": "mes", "edges": [["kal", "mes"]],
                  "passages": [["nap", "kal", "ion"]]}]},  # Napoli does not touch Kalabria
    {"start.units": [["Sicily", "A", "lip"]]},  # an army on Lipari
])
def test_1_3_M15_M17_the_loader_refuses_an_army_on_an_island_for_fleets_and_a_passage_that_is_none(
        change: dict[str, object]) -> None:
    with pytest.raises(BoardError):
        parse_board(altered(DATA, change))
