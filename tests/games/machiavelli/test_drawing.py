"""The boards' drawings and the pictures of their positions: the classic board of 1454 and
Absence of Plague's of 1459.

Each drawing agrees with its board: every area drawn once; its borders are the board's
adjacency, but where a plane cannot give a pair a border and the drawing says how they touch
instead (a crossing over the water; AoP's four areas meeting at a junction's point); the
straits' gates where the board has them; Venice an island in its Lagoon (AoP 14).  Its places
lie inside their areas (a small island's name in the sea beside it).  No two marks of a
picture cover each other or a name, on the start and on a position with every area occupied,
every fortified city garrisoned and besieged and rebellions about; the SVG is well formed and
shows every unit, city, siege, rebellion, crossing and strait the position has; the PNG renders
where Cairo is; a campaign's operations are drawn, the failed ones crossed out.  The geometry
is read with plain Python (tests/render/geometry.py), as shipped.
"""

from __future__ import annotations

import io
import itertools
import json
import math
import re
import struct
import xml.etree.ElementTree as ET
from dataclasses import replace
from functools import cache
from importlib import resources
from typing import Any

import pytest

from judge.games.machiavelli.core.board import Board, load_board
from judge.games.machiavelli.core.campaign import CampaignRecord, campaign
from judge.games.machiavelli.core.orders import Order
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
from judge.games.machiavelli.core.syntax import parse_letter
from judge.games.machiavelli.drawing import (
    CITY_BOX,
    CROSS_BOX,
    GARRISON_BOX,
    LABEL_SIZE,
    NAME_DROP,
    NAME_SIZE,
    UNIT_BOX,
    Box,
    Geometry,
    GeometryError,
    board_colours,
    colour_difference,
    hatch_lines,
    label_box,
    label_text,
    letters,
    load_geometry,
    name_box,
    parse_geometry,
    province_tint,
    render_svg,
    text_box,
)
from judge.render.palette import LAND, power_colours, tint
from tests.render.geometry import Rings, contains, distance_to_edge, shared_borders

SVG = "{http://www.w3.org/2000/svg}"
MIN_BORDER = 5.0  # map units: a border one can see (as the Diplomacy boards' tests ask)
BOARDS = ("classic", "aop")
BOARD = load_board()
AOP = load_board("aop")


@cache
def board_of(name: str) -> Board:
    return load_board(name)


@cache
def data(name: str) -> dict[str, Any]:
    text = (resources.files("judge.games.machiavelli") / "maps" / f"{name}_geometry.geojson").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@cache
def features(name: str) -> dict[str, Any]:
    return {f["id"]: f for f in data(name)["features"]}


def polygons(name: str, area: str) -> list[Rings]:
    coordinates = features(name)[area]["geometry"]["coordinates"]
    return [[[tuple(p) for p in ring[:-1]] for ring in polygon] for polygon in coordinates]


def inside(name: str, area: str, point: tuple[float, float] | list[float]) -> bool:
    return any(contains(rings, (point[0], point[1])) for rings in polygons(name, area))


@cache
def borders(name: str) -> dict[tuple[str, str], float]:
    return shared_borders({area: polygons(name, area) for area in board_of(name).areas})


def neighbours(board: Board) -> set[tuple[str, str]]:
    """The pairs the board makes neighbours, by army or by fleet, coasts merged."""
    pairs = {(min(a, b), max(a, b)) for a, ends in board.army_edges.items() for b in ends}
    pairs |= {(min(a.area, b.area), max(a.area, b.area)) for a, ends in board.fleet_edges.items() for b in ends}
    return pairs


def crossings(name: str) -> dict[tuple[str, str], list[list[float]]]:
    return {(min(s["provinces"]), max(s["provinces"])): s["line"] for s in data(name).get("straits", ())}


def junctions(name: str) -> list[tuple[tuple[str, str, str, str], tuple[float, float]]]:
    """Each junction's four areas (north-west, north-east, south-east, south-west) and its point."""
    return [(tuple(j["provinces"]), (j["point"][0], j["point"][1])) for j in data(name).get("junctions", ())]


def diagonals(name: str) -> set[tuple[str, str]]:
    """The pairs of different areas that meet at a junction's point only."""
    pairs = {(min(a, b), max(a, b)) for (nw, ne, se, sw), _ in junctions(name) for a, b in ((nw, se), (ne, sw))}
    return {(a, b) for a, b in pairs if a != b}


# -- the drawing agrees with the board --------------------------------------------------------------


@pytest.mark.parametrize("name", BOARDS)
def test_every_area_of_the_board_is_drawn_once_with_its_kind(name: str) -> None:
    board = board_of(name)
    ids = [f["id"] for f in data(name)["features"]]
    assert len(ids) == len(set(ids))
    assert set(ids) == {*board.areas, "neutral"}
    assert {code: features(name)[code]["properties"]["kind"] for code in board.areas} == {
        code: area.kind.value for code, area in board.areas.items()
    }


@pytest.mark.parametrize("name", BOARDS)
def test_the_drawings_borders_crossings_and_junctions_are_the_boards_adjacency(name: str) -> None:
    """Every pair of neighbours shares a visible border, but the pairs the drawing joins by a
    crossing or at a junction's point; no other pair touches; and the borders, the crossings and
    the junctions' diagonals together are exactly the board's adjacency."""
    board = board_of(name)
    joined = set(crossings(name)) | diagonals(name)
    wanted = neighbours(board) - joined
    drawn = {pair for pair, length in borders(name).items() if length > 0}
    assert sorted(drawn - wanted) == []
    assert sorted(pair for pair in wanted if borders(name).get(pair, 0.0) < MIN_BORDER) == []
    assert sorted(joined - neighbours(board)) == []
    assert wanted | joined == neighbours(board)


def test_istria_meets_dalmatia_across_the_water_by_a_crossing() -> None:
    """S3's Istria-Dalmatia land bridge: an army edge with no shared border, drawn as a crossing
    whose ends lie in each area, close enough to read as one."""
    assert "dal" in BOARD.army_reach("ist") and ("dal", "ist") not in borders("classic")
    (dal_end, ist_end) = crossings("classic")[("dal", "ist")]
    assert inside("classic", "dal", dal_end) and inside("classic", "ist", ist_end)
    assert math.dist(dal_end, ist_end) < 40
    assert not any(s.get("fleet") for s in data("classic")["straits"])


def test_M17_bonifacio_and_messina_are_crossings_for_fleets_drawn_over_the_sea() -> None:
    """M17 (a): Ajaccio-Sassari and Messina-Kalabria are fleet edges only; the drawing joins each
    pair by a short crossing over its strait (no border, no land bridge), marked as the fleets'."""
    for a, b in (("aja", "sas"), ("kal", "mes")):
        assert b in AOP.fleet_areas(a) and b not in AOP.army_reach(a)
        assert (a, b) not in borders("aop")
        a_end, b_end = crossings("aop")[(a, b)]
        assert inside("aop", a, a_end) and inside("aop", b, b_end)
        assert math.dist(a_end, b_end) < 40
    assert {tuple(s["provinces"]) for s in data("aop")["straits"] if s.get("fleet")} == {("aja", "sas"), ("kal", "mes")}
    assert load_geometry("aop").fleet_crossings == {frozenset({"aja", "sas"}), frozenset({"kal", "mes"})}


# The junctions the AoP drawing needs where its adjacency is no plane map (spec's header):
# (north-west, north-east, south-east, south-west) round each point.
AOP_JUNCTIONS = {
    ("lyo", "sch", "sav", "avi"),  # Geneva: Lyon-Savoia and Schweiz-Avignon
    ("kar", "kra", "tri", "fri"),  # Gorizia: Kärnten-Trieste and Krain-Friuli
    ("pad", "lag", "uas", "fer"),  # the Lagoon's south end: Ferrara-Lagoon and Padova-Upper Adriatic
    ("sch", "tir", "blz", "tir"),  # the Reschen pass: Schweiz-Bolzano, Tirol pinched
    ("kar", "blz", "kar", "trt"),  # Salurn: Bolzano-Trento, Kärnten pinched
}


def test_the_pinched_areas_are_named_once() -> None:
    """Tirol and Kärnten, each in two pieces meeting at a junction's point, have their name written
    once, as every area does, in the piece where their unit stands: a second name read as a second
    area."""
    places = load_geometry("aop").places
    svg = render_svg(AOP, load_geometry("aop"), AOP.start, title="Names")
    names = [g.get("data-area") for g in groups(svg, "name")]
    assert len(names) == len(set(names)) == len(AOP.areas)
    for code in ("tir", "kar"):
        assert len(polygons("aop", code)) == 2, code
        (piece,) = [i for i, polygon in enumerate(polygons("aop", code)) if contains(polygon, places[code].label)]
        assert contains(polygons("aop", code)[piece], places[code].unit), code


def test_aop_junctions_are_points_the_four_areas_reach() -> None:
    """Five junctions, each where the drawing puts them; each diagonal pair is adjacent on the
    board or is one area in two pieces (Tirol, Kärnten) pinched at the point; every area round a
    junction has its point on its rim."""
    assert {quadrants for quadrants, _ in junctions("aop")} == AOP_JUNCTIONS
    for (nw, ne, se, sw), point in junctions("aop"):
        for a, b in ((nw, se), (ne, sw)):
            if a == b:
                assert len(polygons("aop", a)) == 2, a
            else:
                assert (min(a, b), max(a, b)) in neighbours(AOP)
        for area in (nw, ne, se, sw):
            rim = min(distance_to_edge(rings, point) for rings in polygons("aop", area))
            assert rim < 0.05, f"{area} is {rim:.2f} units from the junction at {point}"


def test_the_corners_where_four_aop_areas_meet_without_a_diagonal_touch_at_a_point() -> None:
    """Saluzzo, the Istrian neck, Corsica's and Sardinia's west coasts: four areas in a ring with
    neither diagonal adjacent; the drawing lets each diagonal touch at a point at most."""
    for a, b in (("tor", "vnt"), ("mon", "slz"), ("fiu", "tri"), ("ist", "kra"), ("aja", "lig"), ("bas", "sot"),
                 ("cag", "sot"), ("sas", "wms")):
        assert (a, b) not in neighbours(AOP)
        assert borders("aop").get((a, b), 0.0) == 0.0
    assert {pair for pair in neighbours(AOP) if "slz" in pair} == {("niz", "slz"), ("slz", "tor"), ("slz", "vnt")}


@pytest.mark.parametrize("name", BOARDS)
def test_14_venice_is_an_island_bordering_the_lagoon_alone(name: str) -> None:
    board = board_of(name)
    assert {pair for pair in borders(name) if "ven" in pair} == {("lag", "ven")}
    assert board.lagoon is not None and (board.lagoon.island, board.lagoon.sea) == ("ven", "lag")


def test_14_ferrara_meets_the_lagoon_where_padova_meets_the_upper_adriatic() -> None:
    """AoP 14: a fleet in Ferrara supports across the Lagoon, so Ferrara touches it; Padova
    touches the Upper Adriatic too: the two pairs meet at the Lagoon's south end."""
    assert "lag" in AOP.fleet_areas("fer") and "uas" in AOP.fleet_areas("pad")
    assert ("fer", "lag") in diagonals("aop") and ("pad", "uas") in diagonals("aop")


# Each gate's ends: (the area of one end, the area of the other).
GATE_ENDS = {
    "classic": {"Piombino": ("pio", "pio"), "Messina": ("mes", "otr")},
    "aop": {"Piombino": ("pio", "pio"), "Messina": ("mes", "kal"), "Bonifacio": ("aja", "sas")},
}


@pytest.mark.parametrize("name", BOARDS)
def test_M17_the_straits_are_drawn_as_gates_of_their_controllers(name: str) -> None:
    """Piombino's gate spans the channel between Elba and the headland, both Piombino's; Messina's
    spans the strait from Messina to the Calabrian shore; AoP's Bonifacio's from Corsica to
    Sardinia, controlled by nobody (M17 d).  Each names the board's strait, its controlling area
    and the edges it controls, and each of those edges is a border of the drawing or its crossing."""
    board = board_of(name)
    gates = {g["name"]: g for g in data(name)["gates"]}
    assert set(gates) == {s.name for s in board.straits} == set(GATE_ENDS[name])
    for strait in board.straits:
        gate = gates[strait.name]
        assert gate["controller"] == strait.controller
        assert {frozenset(edge) for edge in gate["provinces"]} == set(strait.edges)
        for edge in gate["provinces"]:
            pair = (min(edge), max(edge))
            assert borders(name).get(pair, 0.0) >= MIN_BORDER or pair in crossings(name), pair
        first, second = GATE_ENDS[name][strait.name]
        assert inside(name, first, gate["line"][0]) and inside(name, second, gate["line"][1])
    if "Bonifacio" in gates:
        assert gates["Bonifacio"]["controller"] is None


def islands(board: Board) -> set[str]:
    """The land areas every neighbour of which is a sea."""
    return {code for code, area in board.areas.items()
            if area.is_land and all(board.areas[n].is_sea for pair in neighbours(board) if code in pair
                                    for n in pair if n != code)}


@pytest.mark.parametrize("name", BOARDS)
def test_every_place_lies_inside_its_area_but_a_small_islands_name_beside_it(name: str) -> None:
    """Names, units, cities, garrisons and the coasts' places of a split coast (Provence, Croatia),
    each inside its area; an island's name may stand in a sea it borders (AoP's Lipari,
    Pantelleria, Lampedusa and Malta are drawn larger than life, but not as large as their names)."""
    board = board_of(name)
    geometry = load_geometry(name)
    outside = []
    for code, places in geometry.places.items():
        for kind, point in (("label", places.label), ("unit", places.unit), ("city", places.city),
                            ("garrison", places.garrison), *places.coasts.items()):
            if point is None or inside(name, code, point):
                continue
            seas = [n for pair in neighbours(board) if code in pair for n in pair if n != code]
            if not (kind == "label" and code in islands(board) and any(inside(name, sea, point) for sea in seas)):
                outside.append((code, kind))
    assert outside == []
    assert {code: set(p.coasts) for code, p in geometry.places.items() if p.coasts} == {
        code: set(area.coasts) for code, area in board.areas.items() if area.coasts
    }


def test_aops_small_islands_are_its_four_and_lie_on_the_border_of_their_two_seas() -> None:
    """Besides Venice in its Lagoon, AoP's islands are Lipari between the Eastern Tyrrhenian and
    the Bay of Naples, Pantelleria between the Bay of Tunis and the Western Mediterranean,
    Lampedusa and Malta between the Bay of Tunis and the Ionian Sea: each touches both seas by a
    border."""
    assert islands(AOP) == {"ven", "lip", "pan", "lam", "mal"}
    for island, seas in {"lip": ("bon", "ets"), "pan": ("bot", "wms"), "lam": ("bot", "ion"),
                         "mal": ("bot", "ion")}.items():
        assert {n for pair in neighbours(AOP) if island in pair for n in pair if n != island} == set(seas)
        for sea in seas:
            assert borders("aop")[(min(island, sea), max(island, sea))] >= MIN_BORDER


@pytest.mark.parametrize("name", BOARDS)
def test_every_city_and_fortress_has_its_mark_and_every_fortified_place_its_garrison_place(name: str) -> None:
    """The drawing fits the board with the classic game's optional fortresses too (the loader
    leaves them out unless asked; AoP has none): a place for each city's or fortress's mark, and
    a garrison's place wherever a garrison may stand (AoP 1.3)."""
    places = load_geometry(name).places
    forts = load_board(name, fortresses=True)
    assert {c for c, p in places.items() if p.city is not None} == {c for c, a in forts.areas.items() if a.city}
    assert {c for c, p in places.items() if p.garrison is not None} == {
        c for c, a in forts.areas.items() if a.fortified_city
    }


def test_fortresses_are_drawn_only_on_a_board_that_has_them() -> None:
    forts = load_board(fortresses=True)
    for board in (BOARD, forts):
        svg = render_svg(board, load_geometry(), board.start, title="Fortresses")
        drawn = {g.get("data-area") for g in groups(svg, "city") if g.get("data-income") == "0"}
        assert drawn == {c for c, a in board.areas.items() if a.city is not None and a.city.fortress}
    assert len({c for c, a in forts.areas.items() if a.city is not None and a.city.fortress}) == 14


@pytest.mark.parametrize("name", BOARDS)
def test_1_3_venice_holds_one_unit_so_its_garrison_stands_at_its_units_place(name: str) -> None:
    venice = load_geometry(name).places["ven"]
    assert venice.garrison == venice.unit and venice.city is not None


def test_1_3_the_islands_for_fleets_only_have_one_place_for_their_one_unit() -> None:
    """AoP 1.3: Lipari, Pantelleria and Lampedusa hold one fleet or a rebellion, and have no city."""
    places = load_geometry("aop").places
    for code in ("lip", "pan", "lam"):
        assert AOP.areas[code].single_unit and AOP.areas[code].fleet_only
        assert places[code].city is None and places[code].garrison is None


def test_a_drawing_lacking_an_area_of_the_board_is_refused() -> None:
    partial = {**data("classic"), "features": [f for f in data("classic")["features"] if f["id"] != "pst"]}
    with pytest.raises(GeometryError, match="pst"):
        render_svg(BOARD, parse_geometry("classic", partial), BOARD.start, title="Test")
    with pytest.raises(GeometryError, match="lacks"):
        render_svg(AOP, load_geometry("classic"), AOP.start, title="Test")


# -- marks that cover nothing ---------------------------------------------------------------------


def _around(at: tuple[float, float], box: Box) -> Box:
    return at[0] + box[0], at[1] + box[1], at[0] + box[2], at[1] + box[3]


def marks(board: Board, geometry: Geometry, position: Position) -> dict[str, Box]:
    """What each mark a picture of ``position`` draws covers: names (codes or names in full, as the
    drawing writes them), cities' marks, units, siege rings, the places of empty split coasts, the
    gates and the crossings (their lines widened by 3)."""
    found = {}
    for code, places in geometry.places.items():
        text = label_text(code, board.areas[code].name, geometry.names)
        found[f"name {code}"] = _around(places.label, text_box(text, geometry.names))
        if board.areas[code].city is not None and places.city is not None:
            found[f"city {code}"] = _around(places.city, CITY_BOX)
        for coast, at in places.coasts.items():
            if not any(u.area == code and u.coast == coast for u in position.units.values()):
                found[f"coast {code}/{coast}"] = _around(at, UNIT_BOX)
    for unit in position.units.values():
        places = geometry.places[unit.area]
        if unit.kind is UnitKind.GARRISON:
            found[f"G {unit.area}"] = _around(places.garrison or places.unit, GARRISON_BOX)
        else:
            found[f"{unit.kind.value} {unit.area}"] = _around(places.coasts.get(unit.coast or "", places.unit),
                                                              UNIT_BOX)
    for code in position.sieges:
        places = geometry.places[code]
        found[f"siege {code}"] = _around(places.garrison or places.unit, GARRISON_BOX)
    lines = [(f"strait {g.name}", g.line) for g in geometry.gates]
    lines += [(f"crossing {'-'.join(c.provinces)}", c.line) for c in geometry.drawing.straits]
    for name, ((ax, ay), (bx, by)) in lines:
        found[name] = (min(ax, bx) - 3, min(ay, by) - 3, max(ax, bx) + 3, max(ay, by) + 3)
    return found


def overlapping(found: dict[str, Box]) -> list[tuple[str, str]]:
    """Pairs of marks whose boxes overlap, but a siege's ring round its own garrison (drawn round it)."""
    return [(a, b) for (a, box_a), (b, box_b) in itertools.combinations(sorted(found.items()), 2)
            if box_a[0] < box_b[2] and box_b[0] < box_a[2] and box_a[1] < box_b[3] and box_b[1] < box_a[3]
            and {a.split()[0], b.split()[0]} != {"G", "siege"}]


def crowded(board: Board) -> Position:
    """Every area occupied: an army or fleet in each province (a fleet on each split coast, one of
    three coastal provinces a fleet, the islands for fleets only a fleet) and sea, Venice's one unit
    a garrison, a garrison besieged in every other fortified city (one in two independent), a
    rebellion in one province in four."""
    powers = board.powers
    units, sieges, rebellions, control = [], {}, {}, {}
    for i, (code, area) in enumerate(sorted(board.areas.items())):
        owner = powers[i % len(powers)]
        if area.single_unit and area.fortified_city:
            units.append(Unit(UnitKind.GARRISON, owner, code))
            continue
        if area.is_sea:
            units.append(Unit(UnitKind.FLEET, owner, code))
            continue
        if area.coasts:
            units.append(Unit(UnitKind.FLEET, owner, code, area.coasts[i % 2]))
        elif area.fleet_only or (area.is_coastal and i % 3 == 0):
            units.append(Unit(UnitKind.FLEET, owner, code))
        else:
            units.append(Unit(UnitKind.ARMY, owner, code))
        control[code] = owner
        if area.fortified_city:
            defender: Owner = Independent(code) if i % 2 else powers[(i + 3) % len(powers)]
            units.append(Unit(UnitKind.GARRISON, defender, code))
            sieges[code] = Siege(owner, 1 + i % 2)
        if i % 4 == 0:
            rebellions[code] = powers[(i + 1) % len(powers)]
    return Position.build(Season(board.start.season.year + 2, Campaign.SUMMER), units, control=control,
                          sieges=sieges, rebellions=rebellions)


@pytest.mark.parametrize("name", BOARDS)
def test_crowded_position_fills_every_area(name: str) -> None:
    board = board_of(name)
    position = crowded(board)
    assert {u.area for u in position.units.values()} == set(board.areas)
    assert {u.area for u in position.units.values() if u.kind is UnitKind.GARRISON} == {
        code for code, area in board.areas.items() if area.fortified_city
    }


@pytest.mark.parametrize("name", BOARDS)
def test_no_two_names_overlap_and_no_unit_city_or_strait_of_the_start_covers_one(name: str) -> None:
    board = board_of(name)
    found = marks(board, load_geometry(name), board.start)
    assert sum(1 for mark in found if mark.startswith("name ")) == len(board.areas)
    assert overlapping(found) == []


@pytest.mark.parametrize("name", BOARDS)
def test_no_mark_covers_another_on_a_position_with_every_area_occupied(name: str) -> None:
    """Units, garrisons, siege rings, cities, names, empty coasts, gates and crossings, all at once."""
    found = marks(board_of(name), load_geometry(name), crowded(board_of(name)))
    assert sum(1 for mark in found if mark.startswith("siege ")) > 30
    assert overlapping(found) == []


@pytest.mark.parametrize("name", BOARDS)
def test_each_unit_and_city_is_drawn_within_the_box_its_place_was_laid_out_for(name: str) -> None:
    """The marks the SVG draws (discs, ships, towers, siege rings, cities' squares, circles and
    port rings, outlines included) keep to the boxes the drawing's layout kept clear for them."""
    board = board_of(name)
    geometry = load_geometry(name)
    svg = ET.fromstring(render_svg(board, geometry, crowded(board), title="Boxes"))
    checked = 0
    for group in svg.iter(f"{SVG}g"):
        kind = group.get("class")
        if kind not in ("unit", "city", "siege"):
            continue
        code = group.get("data-area", "")
        places = geometry.places[code]
        if kind == "city":
            at, box = places.city, CITY_BOX
        elif kind == "siege" or group.get("data-kind") == "G":
            at, box = places.garrison or places.unit, GARRISON_BOX
        else:
            at, box = places.coasts.get(group.get("data-coast", ""), places.unit), UNIT_BOX
        assert at is not None
        left, top, right, bottom = _drawn_extent(group)
        assert at[0] + box[0] <= left and right <= at[0] + box[2], (kind, code)
        assert at[1] + box[1] <= top and bottom <= at[1] + box[3], (kind, code)
        checked += 1
    assert checked > 150


def _drawn_extent(group: ET.Element) -> Box:
    """The extent of a group's circles and paths (absolute M/L, maybe translated), half each stroke included."""
    xs: list[float] = []
    ys: list[float] = []
    for element in group:
        tag, half = element.tag.removeprefix(SVG), float(element.get("stroke-width", "0")) / 2
        if tag == "circle":
            cx, cy, r = (float(element.get(k, "0")) for k in ("cx", "cy", "r"))
            xs += [cx - r - half, cx + r + half]
            ys += [cy - r - half, cy + r + half]
        elif tag == "path":
            shift = re.fullmatch(r"translate\(([-\d.]+) ([-\d.]+)\)", element.get("transform", "translate(0 0)"))
            assert shift is not None
            numbers = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", element.get("d", ""))]
            xs += [x + float(shift.group(1)) + s for x in numbers[::2] for s in (-half, half)]
            ys += [y + float(shift.group(2)) + s for y in numbers[1::2] for s in (-half, half)]
    return min(xs), min(ys), max(xs), max(ys)


def test_a_codes_box_holds_its_bold_capitals() -> None:
    """label_box's estimate (0.47 em a letter) holds the widest codes as Cairo sets them in DejaVu Sans Bold."""
    cairo = _cairo()
    context = cairo.Context(cairo.ImageSurface(cairo.FORMAT_ARGB32, 10, 10))
    context.select_font_face("DejaVu Sans", cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_BOLD)
    context.set_font_size(LABEL_SIZE)
    for code in BOARD.areas:
        _, _, width, height, _, _ = context.text_extents(code.upper())
        left, box_top, right, _ = label_box(code.upper())
        assert width <= right - left, code
        assert height <= 2 * (-box_top) + 1.5, code  # capitals: no descenders below the baseline


def test_a_names_box_holds_the_name_as_cairo_sets_it() -> None:
    """name_box's estimate holds every AoP name, a land's in DejaVu Sans Bold and a sea's in its
    oblique face, from the ascenders' top to the descenders' foot about the baseline the renderer
    sets (NAME_DROP below the point)."""
    cairo = _cairo()
    context = cairo.Context(cairo.ImageSurface(cairo.FORMAT_ARGB32, 10, 10))
    scale = NAME_SIZE / 100  # measured at 100 units, where the font's hinting rounds nothing away
    for code, area in AOP.areas.items():
        slant, weight = (cairo.FONT_SLANT_OBLIQUE, cairo.FONT_WEIGHT_NORMAL) if area.is_sea else (
            cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_BOLD)
        context.select_font_face("DejaVu Sans", slant, weight)
        context.set_font_size(100)
        _, y_bearing, width, height, _, _ = (v * scale for v in context.text_extents(area.name))
        left, top, right, bottom = name_box(area.name)
        assert width <= right - left, code
        baseline = NAME_DROP * NAME_SIZE
        assert top <= baseline + y_bearing and baseline + y_bearing + height <= bottom, code


@pytest.mark.parametrize(("name", "codes"), [("classic", ("tyr", "cri", "pio", "ven", "ist")),
                                             ("aop", ("tir", "kar", "pio", "ven", "smr", "mal"))])
def test_hatching_stays_inside_the_rebelling_province(name: str, codes: tuple[str, ...]) -> None:
    """A rebellion's stripes are clipped to the province's polygons (even-odd: holes left out),
    an area in two pieces (Tirol, Kärnten, Piombino) hatched in both."""
    drawing = load_geometry(name).drawing
    for code in codes:
        shape = drawing.areas[code].shape
        lines = hatch_lines(shape, 8.0, 2.0)
        assert lines, code
        hatched = set()
        for (ax, ay), (bx, by) in lines:
            middle = ((ax + bx) / 2, (ay + by) / 2)
            pieces = [i for i, polygon in enumerate(shape) if contains(list(polygon), middle)]
            assert pieces, code
            hatched |= set(pieces)
        if code in ("tir", "kar"):  # the pinched areas: both pieces
            assert hatched == {0, 1}, code


# -- the picture hides nothing ----------------------------------------------------------------------


def groups(svg: str, cls: str) -> list[ET.Element]:
    return [g for g in ET.fromstring(svg).iter() if g.get("class", "").split()[:1] == [cls]]


def owner_name(owner: Owner) -> str:
    return "independent" if isinstance(owner, Independent) else owner


CROSSINGS = {"classic": [("dal ist", "land")], "aop": [("aja sas", "sea"), ("kal mes", "sea")]}


@pytest.mark.parametrize("name", BOARDS)
def test_the_svg_shows_every_unit_city_siege_rebellion_strait_crossing_and_name_of_the_position(name: str) -> None:
    board = board_of(name)
    position = crowded(board)
    svg = render_svg(board, load_geometry(name), position, title="Everything")
    drawn_units = sorted((g.get("data-owner"), g.get("data-kind"), g.get("data-area"), g.get("data-coast"))
                         for g in groups(svg, "unit"))
    assert drawn_units == sorted((owner_name(u.owner), u.kind.value, u.area, u.coast)
                                 for u in position.units.values())
    cities = {g.get("data-area"): g.get("data-controller") for g in groups(svg, "city")}
    assert cities == {code: owner_name(c) if (c := position.city_controller(code)) is not None else ""
                      for code, area in board.areas.items() if area.city is not None}
    assert {(g.get("data-area"), g.get("data-besieger"), g.get("data-seasons")) for g in groups(svg, "siege")} == {
        (code, owner_name(s.besieger), str(s.seasons)) for code, s in position.sieges.items()}
    assert {(g.get("data-area"), g.get("data-victim")) for g in groups(svg, "rebellion")} == {
        (code, owner_name(victim)) for code, victim in position.rebellions.items()}
    assert {(g.get("data-name"), g.get("data-controller")) for g in groups(svg, "strait")} == {
        (s.name, s.controller or "") for s in board.straits}
    assert sorted((g.get("data-areas"), g.get("data-by")) for g in groups(svg, "crossing")) == CROSSINGS[name]
    assert {g.get("data-area"): g.get("data-name") for g in groups(svg, "name")} == {
        code: area.name for code, area in board.areas.items()}
    provinces = {p.get("data-area"): p.get("data-controller") for p in groups(svg, "province")}
    assert provinces == {code: owner_name(c) if (c := position.controller(code)) is not None else None
                         for code, area in board.areas.items() if area.is_land}


def written_names(svg: str) -> dict[str, str]:
    """Each area's label as the picture writes it (its halo's text and its own are the same)."""
    found = {}
    for group in groups(svg, "name"):
        texts = {text.text for text in group.iter(f"{SVG}text")}
        assert len(texts) == 1
        found[group.get("data-area", "")] = texts.pop() or ""
    return found


def test_the_classic_map_writes_codes_and_aops_writes_the_names_it_gives() -> None:
    """The classic board is labelled by its codes in capitals; AoP's by its areas' names as its
    board gives them (M49: Firenze, Kärnten, Ungarn; Appendix A's seas)."""
    classic = written_names(render_svg(BOARD, load_geometry(), BOARD.start, title="Codes"))
    assert classic == {code: code.upper() for code in BOARD.areas}
    aop = written_names(render_svg(AOP, load_geometry("aop"), AOP.start, title="Names"))
    assert aop == {code: area.name for code, area in AOP.areas.items()}
    assert (aop["fir"], aop["kar"], aop["ung"], aop["uas"]) == ("Firenze", "Kärnten", "Ungarn", "Upper Adriatic")


def test_1454_start_every_power_is_in_the_legend_with_its_cities_and_units() -> None:
    """The start (AoP 3): eight powers and twelve independent garrisons; a city belongs to whoever
    controls it (4.1), so Florence's three and Venice's four are counted."""
    svg = render_svg(BOARD, load_geometry(), BOARD.start, title="Machiavelli")
    players = {g.get("data-player"): "".join(g.itertext()) for g in groups(svg, "player")}
    assert list(players) == [*BOARD.powers, "Independent"]
    assert "3 cities, 3 units" in players["Florence"]
    assert "4 cities, 4 units" in players["Venice"]
    assert "12 units" in players["Independent"]
    title = next(e for e in ET.fromstring(svg).iter(f"{SVG}text") if e.get("class") == "title")
    assert title.text == "Machiavelli: Spring 1454, the spring's orders (A) awaited"


def test_1459_start_the_thirteen_players_are_in_the_legend_with_their_cities() -> None:
    """AoP 3: thirteen powers, no unit of theirs before the first spring's raising (M48), and the
    twelve independent garrisons; Florence's home has four cities (Firenze, Arezzo, Pisa,
    Pistoia), Venice's four (Venezia, Padova, Verona, Treviso), Savoy's four (Nizza, Torino,
    Savoia, Sassari: Pontremoli, which it controls, has none: M2), the Holy Roman Empire's three
    (Steiermark, Tirol, Trieste), in the legend by the name AoP gives it, never "Austria"."""
    svg = render_svg(AOP, load_geometry("aop"), AOP.start, title="Absence of Plague")
    players = {g.get("data-player"): "".join(g.itertext()) for g in groups(svg, "player")}
    assert list(players) == [*AOP.powers, "Independent"] and len(AOP.powers) == 13
    for power, cities in (("Florence", 4), ("Venice", 4), ("Savoy", 4), ("Holy Roman Empire", 3)):
        assert f"{cities} cities, 0 units" in players[power], power
        assert power in players[power], power
    assert not any("Austria" in text for text in players.values())
    assert "12 units" in players["Independent"]
    title = next(e for e in ET.fromstring(svg).iter(f"{SVG}text") if e.get("class") == "title")
    assert title.text == "Absence of Plague: Spring 1459, the spring's orders (A) awaited"
    key = [e.text or "" for e in ET.fromstring(svg).iter(f"{SVG}text") if e.get("font-size") == "9.5"]
    assert any("grey chain: a strait nobody controls" in line and "blue dots" in line for line in key)


@pytest.mark.parametrize("name", BOARDS)
def test_each_power_has_its_own_colour_and_letter(name: str) -> None:
    board = board_of(name)
    svg = render_svg(board, load_geometry(name), board.start, title="Colours")
    fills = {g.get("data-player"): g.find(f"{SVG}circle").get("fill")  # type: ignore[union-attr]
             for g in groups(svg, "player")}
    assert len(set(fills.values())) == len(fills) == len(board.powers) + 1
    assert len(set(letters(board.powers).values())) == len(board.powers)


def test_the_letters_tell_aops_thirteen_powers_apart() -> None:
    assert letters(AOP.powers) == {"Dalmatia": "D", "Ferrara": "Fe", "Florence": "Fl", "France": "Fr",
                                   "Genoa": "G", "Holy Roman Empire": "H", "Milan": "M", "Naples": "N",
                                   "Papacy": "P", "Savoy": "Sa", "Sicily": "Si", "Turkey": "T", "Venice": "V"}
    assert letters(BOARD.powers) == {"Austria": "A", "Florence": "Fl", "France": "Fr", "Milan": "M",
                                     "Naples": "N", "Papacy": "P", "Turkey": "T", "Venice": "V"}


def home_neighbours(board: Board) -> set[tuple[str, str]]:
    """Pairs of powers whose home countries border each other (by army or by fleet)."""
    return {(min(board.areas[a].home or "", board.areas[b].home or ""), max(board.areas[a].home or "",
                                                                           board.areas[b].home or ""))
            for a, b in neighbours(board)
            if board.areas[a].home and board.areas[b].home and board.areas[a].home != board.areas[b].home}


def test_aops_thirteen_colours_are_dealt_so_that_neighbours_look_apart() -> None:
    """The palette's thirteen (Tol's discrete rainbow), each power one; dealt in the board's order
    Naples and the Papacy, whose homes border at Capua and Tivoli, would both be pale greens, and
    France and Genoa, at Corsica, both light blues.  Dealt as drawn, every two powers whose homes
    border each other have tints that differ by more than 25 in L*a*b* (plainly apart at a
    glance), which the board's order does not give."""
    dealt = board_colours(AOP)
    assert sorted(dealt.values()) == sorted(power_colours(AOP.powers).values())
    assert len(set(dealt.values())) == 13
    assert ("Naples", "Papacy") in home_neighbours(AOP) and ("France", "Genoa") in home_neighbours(AOP)

    def difference(colours: dict[str, str], a: str, b: str) -> float:
        return colour_difference(province_tint(colours[a]), province_tint(colours[b]))

    ordered = power_colours(AOP.powers)
    assert difference(ordered, "Naples", "Papacy") < 25 and difference(ordered, "France", "Genoa") < 25
    assert min(difference(dealt, a, b) for a, b in home_neighbours(AOP)) > 25


def test_a_province_a_power_holds_never_looks_unheld() -> None:
    """Tol's pale green tinted as the others are (0.55) would differ from unheld land by less than
    10 in L*a*b*, and still by less than 20 at 0.85: it is tinted at 0.95; every power's province
    tint differs from unheld land by 20 at least."""
    assert colour_difference(tint("#CAE0AB", 0.55), LAND) < 10
    assert colour_difference(tint("#CAE0AB", 0.85), LAND) < 20
    assert province_tint("#CAE0AB") == tint("#CAE0AB", 0.95)
    for colour in board_colours(AOP).values():
        assert colour_difference(province_tint(colour), LAND) >= 20, colour


@pytest.mark.parametrize(("name", "area", "victim"), [("classic", "pst", "Florence"), ("aop", "pra", "Florence")])
def test_a_rebelling_province_is_controlled_by_nobody_and_hatched_for_its_victim(name: str, area: str,
                                                                                 victim: str) -> None:
    """AoP 11.2: nobody controls a rebelling province; the marker points at the victim."""
    board = board_of(name)
    position = replace(board.start, rebellions={area: victim})
    svg = render_svg(board, load_geometry(name), position, title="Rebellion")
    province = next(p for p in groups(svg, "province") if p.get("data-area") == area)
    assert province.get("data-controller") is None
    assert [(g.get("data-area"), g.get("data-victim")) for g in groups(svg, "rebellion")] == [(area, victim)]


# -- a campaign's operations --------------------------------------------------------------------------


def written(board: Board, letters_text: dict[str, str]) -> dict[str, tuple[Any, ...]]:
    found = {}
    for player, text in letters_text.items():
        orders, problems = parse_letter(text, board)
        assert problems == ()
        found[player] = orders
    return found


def fall_campaign() -> CampaignRecord:
    """Spring 1454's units ordered by hand: a supported advance, a bounce in the Upper Adriatic,
    a support of a hold, a hold, an army transported and an advance through the Piombino strait."""
    start = replace(BOARD.start, phase=Phase.C, treasuries=dict.fromkeys(BOARD.powers, 30))
    return campaign(BOARD, start, written(BOARD, {
        "Florence": "A Flo - Sie\nA Are S A Flo - Sie\nF Psa - Ets",
        "Venice": "A Ver S A Pad\nA Pad H\nF Dal - Uas",
        "Papacy": "F Anc - Uas",
        "Naples": "F Nap T A Mes\nA Mes - Nap",
    }))


def test_a_campaigns_operations_are_drawn_and_the_failed_crossed_out() -> None:
    record = fall_campaign()
    svg = render_svg(BOARD, load_geometry(), record.expending.position, title="Orders", record=record)
    drawn = {g.get("data-order"): g for g in ET.fromstring(svg).iter() if "order" in g.get("class", "").split()}
    given = {str(r.order) for r in record.action.results if r.order is not None}
    assert set(drawn) == given
    failed = {order for order, g in drawn.items() if "failed" in g.get("class", "").split()}
    # Two fleets bounce in the Upper Adriatic (13.2); Messina does not reach Naples, so its army
    # holds instead (9.3), and the fleet in Naples has nobody to transport (9.6).
    assert failed == {"F anc - uas", "F dal - uas", "A mes - nap", "F nap T A mes"}
    assert "advance" in (drawn["A flo - sie"].get("class") or "")
    assert "support" in (drawn["A are S A flo - sie"].get("class") or "")
    title = next(e for e in ET.fromstring(svg).iter(f"{SVG}text") if e.get("class") == "title")
    assert title.text == "Orders: Spring 1454, the campaign's orders carried out (failures crossed out)"


def aop_campaign() -> CampaignRecord:
    """A campaign of 1460 on AoP's board, its orders written with AoP's names: fleets through the
    straits of Bonifacio (Ajaccio to Sassari, which Savoy's fleet leaves for the Sea of Toulon)
    and of Messina (Messina to Kalabria, besieging nothing: Kalabria's garrison holds), an army
    advancing with support, and two fleets bouncing in the Upper Adriatic."""
    units = [
        *AOP.start.units.values(),
        Unit(UnitKind.FLEET, "France", "aja"), Unit(UnitKind.FLEET, "Savoy", "sas"),
        Unit(UnitKind.FLEET, "Sicily", "mes"), Unit(UnitKind.ARMY, "Florence", "fir"),
        Unit(UnitKind.ARMY, "Florence", "are"), Unit(UnitKind.FLEET, "Venice", "pad"),
        Unit(UnitKind.FLEET, "Papacy", "anc"),
    ]
    start = Position.build(Season(1460, Campaign.SPRING), units, control=AOP.start.control,
                           treasuries=dict.fromkeys(AOP.powers, 30), homes=AOP.start.homes, phase=Phase.C)
    return campaign(AOP, start, written(AOP, {
        "France": "F Ajaccio - Sassari",
        "Savoy": "F Sassari - Sea of Toulon",
        "Sicily": "F Messina - Kalabria",
        "Florence": "A Firenze - Siena\nA Arezzo S A Firenze - Siena",
        "Venice": "F Padova - Upper Adriatic",
        "Papacy": "F Ancona - Adriatico Superiore",
    }))


def test_an_aop_campaigns_operations_through_its_straits_are_drawn() -> None:
    """Every operation of the campaign is drawn; the two fleets bound for the Upper Adriatic bounce
    (13.2) and are crossed out, the fleet for Kalabria's province and Ajaccio's for Sassari,
    emptied by Savoy's fleet, are not (M17: nobody controls Bonifacio; Sicily's fleet is Messina's
    own)."""
    record = aop_campaign()
    svg = render_svg(AOP, load_geometry("aop"), record.expending.position, title="Orders", record=record)
    drawn = {g.get("data-order"): g for g in ET.fromstring(svg).iter() if "order" in g.get("class", "").split()}
    assert set(drawn) == {str(r.order) for r in record.action.results if r.order is not None}
    failed = {order for order, g in drawn.items() if "failed" in g.get("class", "").split()}
    assert failed == {"F pad - uas", "F anc - uas"}
    assert "advance" in (drawn["F aja - sas"].get("class") or "")
    assert "advance" in (drawn["F mes - kal"].get("class") or "")


def test_a_failed_orders_cross_covers_no_unit_or_city_where_its_lines_middle_lies_under_them() -> None:
    """Milano holds Milan's garrison and army beside its city: the garrison's conversion into a
    fleet (Milano is no port: impossible, 8.2) is a line under their marks, Pavia's army bouncing
    off Milano (its army holds) and Como's too end there; each failure's cross is drawn where it
    covers none of the units' and cities' marks (an AoP campaign of 1460, crowded Lombardy)."""
    units = [Unit(UnitKind.GARRISON, "Milan", "mil"), Unit(UnitKind.ARMY, "Milan", "mil"),
             Unit(UnitKind.ARMY, "Savoy", "pav"), Unit(UnitKind.GARRISON, "Milan", "pav"),
             Unit(UnitKind.ARMY, "Venice", "com"), Unit(UnitKind.GARRISON, "Milan", "cre"),
             Unit(UnitKind.ARMY, "Milan", "cre")]
    start = Position.build(Season(1460, Campaign.SPRING), units, control=AOP.start.control,
                           treasuries=dict.fromkeys(AOP.powers, 0), homes=AOP.start.homes, phase=Phase.C)
    record = campaign(AOP, start, written(AOP, {"Milan": "G mil convert to F\nA mil H\nG cre convert to A",
                                                 "Savoy": "A pav - mil", "Venice": "A com - mil"}))
    geometry = load_geometry("aop")
    svg = render_svg(AOP, geometry, record.expending.position, title="Crosses", record=record)
    found = marks(AOP, geometry, record.expending.position)
    taken = {name: box for name, box in found.items() if name.split()[0] in ("A", "F", "G", "city")}
    crossed = 0
    for group in ET.fromstring(svg).iter(f"{SVG}g"):
        if "failed" not in (group.get("class") or "").split():
            continue
        cross = next(e for e in group if e.get("class") == "cross")
        x, y = (float(v) + 5 for v in re.findall(r"-?\d+(?:\.\d+)?", cross.get("d", ""))[:2])
        box = _around((x, y), CROSS_BOX)
        assert not [name for name, other in taken.items() if overlapping({"cross": box, name: other})], (
            group.get("data-order"))
        crossed += 1
    assert crossed == 4  # the two conversions (impossible; Cremona's army stands in its way) and two bounces


def test_the_names_are_drawn_over_the_orders_lines() -> None:
    """An arrow may cross an area's name; the name, drawn after every order, stays readable."""
    for board, name, record in ((BOARD, "classic", fall_campaign()), (AOP, "aop", aop_campaign())):
        svg = render_svg(board, load_geometry(name), record.expending.position, title="Orders", record=record)
        classes = [(g.get("class") or "").split()[:1] for g in ET.fromstring(svg).iter(f"{SVG}g")]
        last_order = max(i for i, c in enumerate(classes) if c == ["order"])
        assert min(i for i, c in enumerate(classes) if c == ["name"]) > last_order


def test_orders_as_written_are_drawn_without_a_verdict() -> None:
    record = fall_campaign()
    florentine: list[Order] = [r.order for r in record.action.results
                               if r.order is not None and r.unit.owner == "Florence"]
    svg = render_svg(BOARD, load_geometry(), record.expending.position, title="Orders", orders={"Florence": florentine})
    drawn = [g for g in ET.fromstring(svg).iter() if "order" in g.get("class", "").split()]
    assert len(drawn) == 3 and all(g.get("data-result") is None for g in drawn)


# -- PNG ---------------------------------------------------------------------------------------------


def _cairo() -> Any:
    """Cairo, or a clean skip where the library is missing (its import fails with OSError then)."""
    try:
        import cairocffi
    except (ImportError, OSError) as missing:
        pytest.skip(f"the Cairo library is missing: {missing}")
    return cairocffi


@pytest.mark.parametrize("name", BOARDS)
def test_the_png_of_the_start_and_of_a_crowded_position_renders(name: str) -> None:
    _cairo()
    from judge.games.machiavelli.drawing import PIXELS_PER_UNIT, picture_size, render_png

    board = board_of(name)
    geometry = load_geometry(name)
    for position in (board.start, crowded(board)):
        png = render_png(board, geometry, position, title="PNG")
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = struct.unpack(">II", png[16:24])
        assert width == round(geometry.width * PIXELS_PER_UNIT)
        assert height == pytest.approx(width / geometry.width * picture_size(board, geometry)[1], abs=2)
    assert struct.unpack(">II", render_png(board, geometry, board.start, title="Small", width=400)[16:24])[0] == 400


@pytest.mark.parametrize("name", BOARDS)
def test_the_png_looks_like_the_svg_rasterised_whole(name: str) -> None:
    """The board's fixed layers drawn once, the land filled through masks and the marks painted by
    Cairo give the picture cairosvg gives of the whole document: a crowded position (every kind of
    mark, rebellions' hatching among them) and a campaign's operations, failed ones crossed out."""
    _cairo()
    from PIL import Image, ImageChops, ImageStat

    from judge.games.machiavelli.drawing import render_png
    from judge.render.png import svg_to_png

    board, geometry = board_of(name), load_geometry(name)
    record = fall_campaign() if name == "classic" else aop_campaign()
    for position, drawn in ((crowded(board), None), (record.expending.position, record)):
        fast = render_png(board, geometry, position, title="Same", record=drawn, width=500)
        whole = svg_to_png(render_svg(board, geometry, position, title="Same", record=drawn), width=500)
        difference = ImageStat.Stat(ImageChops.difference(Image.open(io.BytesIO(fast)).convert("RGB"),
                                                          Image.open(io.BytesIO(whole)).convert("RGB"))).mean
        assert max(difference) < 0.5  # out of 255: antialiasing at a few edges, nothing drawn differently


@pytest.mark.parametrize(("language", "heading", "counts", "independent", "key", "strait"), [
    ("it", "Absence of Plague: Primavera 1459, in attesa degli ordini di primavera (A)", "4 città, 0 unità",
     "Indipendenti", "catena grigia: uno stretto che nessuno controlla", "lo stretto di "),
    ("fr", "Absence of Plague : Printemps 1459, ordres du printemps (A) attendus", "4 villes, 0 unité",
     "Indépendants", "chaîne grise : un détroit que personne ne contrôle", "le détroit de "),
])
def test_the_drawings_words_are_in_the_readers_language(language: str, heading: str, counts: str, independent: str,
                                                        key: str, strait: str) -> None:
    """The title, the legend's counts and key, the independents' name and the straits' titles, in the
    reader's language (issue 72); the names of the areas and the countries stay the board's."""
    from judge.language import add_catalogue, reading

    add_catalogue("judge.games.machiavelli")  # as the kinds' registry does
    with reading(language):
        svg = render_svg(AOP, load_geometry("aop"), AOP.start, title="Absence of Plague")
        orders = render_svg(BOARD, load_geometry(), fall_campaign().expending.position, title="Orders",
                            record=fall_campaign())
    english = render_svg(AOP, load_geometry("aop"), AOP.start, title="Absence of Plague")
    players = {g.get("data-player"): "".join(g.itertext()) for g in groups(svg, "player")}
    assert list(players) == [*AOP.powers, "Independent"]
    assert counts in players["Florence"] and independent in players["Independent"]
    title = next(e for e in ET.fromstring(svg).iter(f"{SVG}text") if e.get("class") == "title")
    assert title.text == heading
    assert key in svg and strait in svg and "the strait of" not in svg and "cities" not in svg
    assert "the strait of" in english and "grey chain" in english and "città" not in english
    assert "campaign's orders" not in orders and "(failures crossed out)" not in orders


def test_a_pictures_other_languages_draw_only_its_title_bar_and_legend_over_its_body_composed_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """AoP's picture of a campaign drawn in English, Italian and French in turn, as a results mail's maps are
    (`judge.render.png.compose_framed`): its body (the land, the borders, the marks, the names) is composed
    once, and each other language's PNG is byte for byte the one composed over the whole body."""
    _cairo()
    from judge.games.machiavelli.drawing import render_png
    from judge.language import reading
    from judge.render import png as pictures

    record = aop_campaign()

    def three_languages() -> list[bytes]:
        monkeypatch.setattr(pictures, "BODIES", pictures._Bodies())
        drawn = []
        for language in ("en", "it", "fr"):
            with reading(language):
                drawn.append(render_png(AOP, load_geometry("aop"), record.expending.position, title="g1",
                                        record=record, width=500))
        return drawn

    from judge.games.machiavelli import drawing

    composed: list[int] = []
    real = pictures.Canvas.__init__
    monkeypatch.setattr(pictures.Canvas, "__init__", lambda canvas, under, rows=(): composed.append(
        not rows) or real(canvas, under, rows))
    made: list[int] = []
    real_parts = drawing._body
    monkeypatch.setattr(drawing, "_body", lambda *args: made.append(1) or real_parts(*args))
    monkeypatch.setattr(drawing, "_UNFRAMED", drawing.Recent(same=4))
    shared = three_languages()
    assert composed.count(True) == 1  # the body alone is a whole canvas: the other languages draw strips
    assert len(made) == 1  # its marks made once for the three languages
    with reading("it"):  # the same position without the campaign's operations is a picture of its own
        assert render_png(AOP, load_geometry("aop"), record.expending.position, title="g1", width=500) != shared[1]
    assert len(made) == 2
    monkeypatch.setattr(pictures, "_words_rows", lambda surface, body: None)
    assert three_languages() == shared
    assert len(set(shared)) == 3
