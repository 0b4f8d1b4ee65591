"""The classic board's drawing and the pictures of its positions.

The drawing agrees with the board (every area drawn once, its borders the board's adjacency,
the crossing and the straits' gates where the board has them, Venice an island in its Lagoon:
AoP 14); its places lie inside their areas; no two marks of a picture cover each other or a
name, on the 1454 start and on a position with every area occupied, every fortified city
garrisoned and besieged and rebellions about; the SVG is well formed and shows every unit,
city, siege, rebellion and strait the position has; the PNG renders where Cairo is; a
campaign's operations are drawn, the failed ones crossed out.  The geometry is read with
plain Python (tests/render/geometry.py), as shipped.
"""

from __future__ import annotations

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
from judge.games.machiavelli.render import (
    CITY_BOX,
    GARRISON_BOX,
    LABEL_SIZE,
    UNIT_BOX,
    Box,
    Geometry,
    GeometryError,
    hatch_lines,
    label_box,
    letters,
    load_geometry,
    parse_geometry,
    render_svg,
)
from tests.render.geometry import Rings, contains, shared_borders

SVG = "{http://www.w3.org/2000/svg}"
MIN_BORDER = 5.0  # map units: a border one can see (as the Diplomacy boards' tests ask)
BOARD = load_board()


@cache
def data() -> dict[str, Any]:
    text = (resources.files("judge.games.machiavelli") / "maps" / "classic_geometry.geojson").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def features() -> dict[str, Any]:
    return {f["id"]: f for f in data()["features"]}


def polygons(name: str) -> list[Rings]:
    coordinates = features()[name]["geometry"]["coordinates"]
    return [[[tuple(p) for p in ring[:-1]] for ring in polygon] for polygon in coordinates]


def inside(name: str, point: tuple[float, float] | list[float]) -> bool:
    return any(contains(rings, (point[0], point[1])) for rings in polygons(name))


@cache
def borders() -> dict[tuple[str, str], float]:
    return shared_borders({name: polygons(name) for name in BOARD.areas})


def neighbours(board: Board) -> set[tuple[str, str]]:
    """The pairs the board makes neighbours, by army or by fleet, coasts merged."""
    pairs = {(min(a, b), max(a, b)) for a, ends in board.army_edges.items() for b in ends}
    pairs |= {(min(a.area, b.area), max(a.area, b.area)) for a, ends in board.fleet_edges.items() for b in ends}
    return pairs


def crossings() -> dict[tuple[str, str], list[list[float]]]:
    return {(min(s["provinces"]), max(s["provinces"])): s["line"] for s in data().get("straits", ())}


# -- the drawing agrees with the board --------------------------------------------------------------


def test_every_area_of_the_board_is_drawn_once_with_its_kind() -> None:
    ids = [f["id"] for f in data()["features"]]
    assert len(ids) == len(set(ids))
    assert set(ids) == {*BOARD.areas, "neutral"}
    assert {code: features()[code]["properties"]["kind"] for code in BOARD.areas} == {
        code: area.kind.value for code, area in BOARD.areas.items()
    }


def test_the_drawings_borders_are_the_boards_adjacency() -> None:
    """Every pair of neighbours shares a visible border but Istria and Dalmatia, which the board
    joins by land across the Kvarner's islands (a crossing); no other pair touches."""
    wanted = neighbours(BOARD) - set(crossings())
    drawn = {pair for pair, length in borders().items() if length > 0}
    assert sorted(drawn - wanted) == []
    assert sorted(pair for pair in wanted if borders().get(pair, 0.0) < MIN_BORDER) == []


def test_istria_meets_dalmatia_across_the_water_by_a_crossing() -> None:
    """S3's Istria-Dalmatia land bridge: an army edge with no shared border, drawn as a crossing
    whose ends lie in each area, close enough to read as one."""
    assert "dal" in BOARD.army_reach("ist") and ("dal", "ist") not in borders()
    (dal_end, ist_end) = crossings()[("dal", "ist")]
    assert inside("dal", dal_end) and inside("ist", ist_end)
    assert math.dist(dal_end, ist_end) < 40


def test_14_venice_is_an_island_bordering_the_lagoon_alone() -> None:
    assert {pair for pair in borders() if "ven" in pair} == {("lag", "ven")}
    assert BOARD.lagoon is not None and (BOARD.lagoon.island, BOARD.lagoon.sea) == ("ven", "lag")


def test_M17_the_controlled_straits_are_drawn_as_gates_of_their_controllers() -> None:
    """Piombino's gate spans the channel between Elba and the headland, both Piombino's; Messina's
    spans the strait from Messina to the Calabrian shore; each names the board's strait, its
    controlling area and the edges it controls, and those edges are borders of the drawing."""
    gates = {g["name"]: g for g in data()["gates"]}
    assert set(gates) == {s.name for s in BOARD.straits}
    for strait in BOARD.straits:
        gate = gates[strait.name]
        assert gate["controller"] == strait.controller
        assert {frozenset(edge) for edge in gate["provinces"]} == set(strait.edges)
        assert all(borders().get((min(e), max(e)), 0.0) >= MIN_BORDER for e in gate["provinces"])
    piombino, messina = gates["Piombino"]["line"], gates["Messina"]["line"]
    assert inside("pio", piombino[0]) and inside("pio", piombino[1])
    assert inside("mes", messina[0]) and inside("otr", messina[1])


def test_every_place_lies_inside_its_area() -> None:
    """Names, units, cities, garrisons and the coasts' places of a split coast (Provence, Croatia)."""
    geometry = load_geometry()
    outside = []
    for code, places in geometry.places.items():
        for kind, point in (("label", places.label), ("unit", places.unit), ("city", places.city),
                            ("garrison", places.garrison), *places.coasts.items()):
            if point is not None and not inside(code, point):
                outside.append((code, kind))
    assert outside == []
    assert {code: set(p.coasts) for code, p in geometry.places.items() if p.coasts} == {
        code: set(area.coasts) for code, area in BOARD.areas.items() if area.coasts
    }


def test_every_city_and_fortress_has_its_mark_and_every_fortified_place_its_garrison_place() -> None:
    """The drawing fits the board with the classic game's optional fortresses too (the loader
    leaves them out unless asked): a place for each city's or fortress's mark, and a garrison's
    place wherever a garrison may stand (AoP 1.3)."""
    places = load_geometry().places
    forts = load_board(fortresses=True)
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


def test_1_3_venice_holds_one_unit_so_its_garrison_stands_at_its_units_place() -> None:
    venice = load_geometry().places["ven"]
    assert venice.garrison == venice.unit and venice.city is not None


def test_a_drawing_lacking_an_area_of_the_board_is_refused() -> None:
    partial = {**data(), "features": [f for f in data()["features"] if f["id"] != "pst"]}
    with pytest.raises(GeometryError, match="pst"):
        render_svg(BOARD, parse_geometry("classic", partial), BOARD.start, title="Test")


# -- marks that cover nothing ---------------------------------------------------------------------


def _around(at: tuple[float, float], box: Box) -> Box:
    return at[0] + box[0], at[1] + box[1], at[0] + box[2], at[1] + box[3]


def marks(board: Board, geometry: Geometry, position: Position) -> dict[str, Box]:
    """What each mark a picture of ``position`` draws covers: names, cities' marks, units, siege
    rings, the places of empty split coasts, the gates and the crossing (their lines widened by 3)."""
    found = {}
    for code, places in geometry.places.items():
        found[f"name {code}"] = _around(places.label, label_box(code.upper()))
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


def crowded() -> Position:
    """Every area occupied: an army or fleet in each province (a fleet on each split coast, one of
    three coastal provinces a fleet) and sea, Venice's one unit a garrison, a garrison besieged in
    every other fortified city (one in two independent), a rebellion in one province in four."""
    powers = BOARD.powers
    units, sieges, rebellions, control = [], {}, {}, {}
    for i, (code, area) in enumerate(sorted(BOARD.areas.items())):
        owner = powers[i % len(powers)]
        if area.single_unit:
            units.append(Unit(UnitKind.GARRISON, owner, code))
            continue
        if area.is_sea:
            units.append(Unit(UnitKind.FLEET, owner, code))
            continue
        if area.coasts:
            units.append(Unit(UnitKind.FLEET, owner, code, area.coasts[i % 2]))
        elif area.is_coastal and i % 3 == 0:
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
    return Position.build(Season(1456, Campaign.SUMMER), units, control=control, sieges=sieges,
                          rebellions=rebellions)


def test_crowded_position_fills_every_area() -> None:
    position = crowded()
    assert {u.area for u in position.units.values()} == set(BOARD.areas)
    assert {u.area for u in position.units.values() if u.kind is UnitKind.GARRISON} == {
        code for code, area in BOARD.areas.items() if area.fortified_city
    }


def test_no_two_names_overlap_and_no_unit_city_or_strait_of_the_1454_start_covers_one() -> None:
    found = marks(BOARD, load_geometry(), BOARD.start)
    assert sum(1 for name in found if name.startswith("name ")) == len(BOARD.areas)
    assert overlapping(found) == []


def test_no_mark_covers_another_on_a_position_with_every_area_occupied() -> None:
    """Units, garrisons, siege rings, cities, names, empty coasts and gates, all at once."""
    found = marks(BOARD, load_geometry(), crowded())
    assert sum(1 for name in found if name.startswith("siege ")) > 30
    assert overlapping(found) == []


def test_each_unit_and_city_is_drawn_within_the_box_its_place_was_laid_out_for() -> None:
    """The marks the SVG draws (discs, ships, towers, siege rings, cities' squares, circles and
    port rings, outlines included) keep to the boxes the drawing's layout kept clear for them."""
    geometry = load_geometry()
    svg = ET.fromstring(render_svg(BOARD, geometry, crowded(), title="Boxes"))
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


def test_a_names_box_holds_its_bold_capitals() -> None:
    """label_box's estimate (0.47 em a letter) holds the widest codes as Cairo sets them in DejaVu Sans Bold."""
    cairo = _cairo()
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, 10, 10)
    context = cairo.Context(surface)
    context.select_font_face("DejaVu Sans", cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_BOLD)
    context.set_font_size(LABEL_SIZE)
    for code in BOARD.areas:
        _, _, width, height, _, _ = context.text_extents(code.upper())
        left, box_top, right, _ = label_box(code.upper())
        assert width <= right - left, code
        assert height <= 2 * (-box_top) + 1.5, code  # capitals: no descenders below the baseline


def test_hatching_stays_inside_the_rebelling_province() -> None:
    """A rebellion's stripes are clipped to the province's polygons (even-odd: holes left out)."""
    drawing = load_geometry().drawing
    for code in ("tyr", "cri", "pio", "ven", "ist"):
        shape = drawing.areas[code].shape
        lines = hatch_lines(shape, 8.0, 2.0)
        assert lines, code
        for (ax, ay), (bx, by) in lines:
            middle = ((ax + bx) / 2, (ay + by) / 2)
            assert any(contains(list(polygon), middle) for polygon in shape), code


# -- the picture hides nothing ----------------------------------------------------------------------


def groups(svg: str, cls: str) -> list[ET.Element]:
    return [g for g in ET.fromstring(svg).iter() if g.get("class", "").split()[:1] == [cls]]


def owner_name(owner: Owner) -> str:
    return "independent" if isinstance(owner, Independent) else owner


def test_the_svg_shows_every_unit_city_siege_rebellion_strait_and_name_of_the_position() -> None:
    position = crowded()
    svg = render_svg(BOARD, load_geometry(), position, title="Everything")
    drawn_units = sorted((g.get("data-owner"), g.get("data-kind"), g.get("data-area"), g.get("data-coast"))
                         for g in groups(svg, "unit"))
    assert drawn_units == sorted((owner_name(u.owner), u.kind.value, u.area, u.coast)
                                 for u in position.units.values())
    cities = {g.get("data-area"): g.get("data-controller") for g in groups(svg, "city")}
    assert cities == {code: owner_name(c) if (c := position.city_controller(code)) is not None else ""
                      for code, area in BOARD.areas.items() if area.city is not None}
    assert {(g.get("data-area"), g.get("data-besieger"), g.get("data-seasons")) for g in groups(svg, "siege")} == {
        (code, owner_name(s.besieger), str(s.seasons)) for code, s in position.sieges.items()}
    assert {(g.get("data-area"), g.get("data-victim")) for g in groups(svg, "rebellion")} == {
        (code, owner_name(victim)) for code, victim in position.rebellions.items()}
    assert {(g.get("data-name"), g.get("data-controller")) for g in groups(svg, "strait")} == {
        (s.name, s.controller) for s in BOARD.straits}
    assert [g.get("data-areas") for g in groups(svg, "crossing")] == ["dal ist"]
    assert {g.get("data-area") for g in groups(svg, "name")} == set(BOARD.areas)
    provinces = {p.get("data-area"): p.get("data-controller") for p in groups(svg, "province")}
    assert provinces == {code: owner_name(c) if (c := position.controller(code)) is not None else None
                         for code, area in BOARD.areas.items() if area.is_land}


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


def test_each_power_has_its_own_colour_and_letter() -> None:
    assert letters(BOARD.powers) == {"Austria": "A", "Florence": "Fl", "France": "Fr", "Milan": "M",
                                     "Naples": "N", "Papacy": "P", "Turkey": "T", "Venice": "V"}
    svg = render_svg(BOARD, load_geometry(), BOARD.start, title="Colours")
    fills = {g.get("data-player"): g.find(f"{SVG}circle").get("fill")  # type: ignore[union-attr]
             for g in groups(svg, "player")}
    assert len(set(fills.values())) == len(fills)


def test_a_rebelling_province_is_controlled_by_nobody_and_hatched_for_its_victim() -> None:
    """AoP 11.2: nobody controls a rebelling province; the marker points at the victim."""
    position = replace(BOARD.start, rebellions={"pst": "Florence"})
    svg = render_svg(BOARD, load_geometry(), position, title="Rebellion")
    province = next(p for p in groups(svg, "province") if p.get("data-area") == "pst")
    assert province.get("data-controller") is None
    assert [(g.get("data-area"), g.get("data-victim")) for g in groups(svg, "rebellion")] == [("pst", "Florence")]


# -- a campaign's operations --------------------------------------------------------------------------


def fall_campaign() -> CampaignRecord:
    """Spring 1454's units ordered by hand: a supported advance, a bounce in the Upper Adriatic,
    a support of a hold, a hold, an army transported and an advance through the Piombino strait."""
    start = replace(BOARD.start, phase=Phase.C, treasuries=dict.fromkeys(BOARD.powers, 30))
    letters_text = {
        "Florence": "A Flo - Sie\nA Are S A Flo - Sie\nF Psa - Ets",
        "Venice": "A Ver S A Pad\nA Pad H\nF Dal - Uas",
        "Papacy": "F Anc - Uas",
        "Naples": "F Nap T A Mes\nA Mes - Nap",
    }
    written = {}
    for player, text in letters_text.items():
        orders, problems = parse_letter(text, BOARD)
        assert problems == ()
        written[player] = orders
    return campaign(BOARD, start, written)


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


def test_the_names_are_drawn_over_the_orders_lines() -> None:
    """An arrow may cross an area's name; the name, drawn after every order, stays readable."""
    record = fall_campaign()
    svg = render_svg(BOARD, load_geometry(), record.expending.position, title="Orders", record=record)
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


def test_the_png_of_the_start_and_of_a_crowded_position_renders() -> None:
    _cairo()
    from judge.games.machiavelli.render import PIXELS_PER_UNIT, picture_size, render_png

    geometry = load_geometry()
    for position in (BOARD.start, crowded()):
        png = render_png(BOARD, geometry, position, title="PNG")
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = struct.unpack(">II", png[16:24])
        assert width == round(geometry.width * PIXELS_PER_UNIT)
        assert height == pytest.approx(width / geometry.width * picture_size(BOARD, geometry)[1], abs=2)
    assert struct.unpack(">II", render_png(BOARD, geometry, BOARD.start, title="Small", width=400)[16:24])[0] == 400
