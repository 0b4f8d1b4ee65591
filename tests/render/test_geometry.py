"""The drawings agree with their games: every adjacency is a visible border, and nothing else is.

Each test runs on every drawing shipped (the standard board's, Ancient Mediterranean's,
Modern's, Loeb9's; Void is drawn with the standard board's).  Where no plane drawing can
give a pair a border, the drawing says how they touch instead, and that is checked: four
provinces meeting at a junction (the diagonal pairs touch at its point), or a weak strait's
crossing (two points facing each other across the water).  The checks read the stored
geometry with plain Python (tests/render/geometry.py), so they hold for the data as
shipped, whatever tool made it.
"""

from __future__ import annotations

import json
import math
from functools import cache
from typing import Any

import pytest

from judge.engine.map import GameMap, Terrain, available_maps, load_map
from judge.render.board import geometry_text, load_board
from tests.render.geometry import Rings, area, contains, distance_to_edge, shared_borders

MIN_BORDER = 5.0  # map units (6 px at 1200 px wide): a border one can see
OUTSIDE = {"neutral", "open-sea"}  # features that are no province: land and sea off the board
DRAWINGS = sorted({load_map(name).drawing for name in available_maps()})


@cache
def data(drawing: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(geometry_text(drawing))
    return loaded


@cache
def features(drawing: str) -> dict[str, Any]:
    return {f["id"]: f for f in data(drawing)["features"]}


def game(drawing: str) -> GameMap:
    """The map a drawing is named after (the maps sharing it have its provinces and edges)."""
    return load_map(drawing)


def polygons(feature: dict[str, Any], key: str | None = None) -> list[Rings]:
    """A GeoJSON MultiPolygon's polygons (or a property's), rings without the repeated closing point."""
    coordinates = feature["properties"][key] if key else feature["geometry"]["coordinates"]
    return [[[tuple(p) for p in ring[:-1]] for ring in polygon] for polygon in coordinates]


@cache
def bounds(drawing: str, name: str) -> tuple[float, float, float, float]:
    points = [p for rings in polygons(features(drawing)[name]) for ring in rings for p in ring]
    return (min(x for x, _ in points), min(y for _, y in points), max(x for x, _ in points), max(y for _, y in points))


@cache
def borders(drawing: str) -> dict[tuple[str, str], float]:
    provinces = game(drawing).provinces
    return shared_borders({name: polygons(f) for name, f in features(drawing).items() if name in provinces})


def adjacent_pairs(drawing: str) -> set[tuple[str, str]]:
    board = game(drawing)
    pairs = {tuple(sorted((a, b))) for a, ends in board.army_adjacency.items() for b in ends}
    pairs |= {tuple(sorted((a.province, b.province))) for a, ends in board.fleet_adjacency.items() for b in ends}
    return {(a, b) for a, b in pairs}


def corners(drawing: str) -> dict[tuple[str, str], tuple[float, float]]:
    """The diagonal pairs of each junction of four provinces, and the point where they meet."""
    found = {}
    for junction in data(drawing).get("junctions", ()):
        nw, ne, se, sw = junction["provinces"]
        for a, b in ((nw, se), (ne, sw)):
            found[(min(a, b), max(a, b))] = (junction["point"][0], junction["point"][1])
    return found


def crossings(drawing: str) -> dict[tuple[str, str], list[list[float]]]:
    return {tuple(sorted(s["provinces"])): s["line"] for s in data(drawing).get("straits", ())}  # type: ignore[misc]


def boxes(drawing: str) -> dict[str, list[str]]:
    """Each off-board box (Youngstown's) and the boxes it names as linked to it."""
    named: dict[str, list[str]] = data(drawing).get("boxes", {})
    return named


def box_pairs(drawing: str) -> set[tuple[str, str]]:
    """The adjacent pairs with an off-board box: links, not borders."""
    return {pair for pair in adjacent_pairs(drawing) if set(pair) & set(boxes(drawing))}


def bordered_pairs(drawing: str) -> list[tuple[str, str]]:
    """The adjacent pairs that must share a border: all but junctions' diagonals, straits' crossings
    and off-board boxes' links."""
    return sorted(adjacent_pairs(drawing) - set(corners(drawing)) - set(crossings(drawing)) - box_pairs(drawing))


def inside(drawing: str, name: str, point: list[float] | tuple[float, float]) -> bool:
    x0, y0, x1, y1 = bounds(drawing, name)
    if not (x0 <= point[0] <= x1 and y0 <= point[1] <= y1):
        return False
    return any(contains(rings, (point[0], point[1])) for rings in polygons(features(drawing)[name]))


def test_every_map_has_a_drawing_of_its_provinces_and_borders() -> None:
    """A map drawn with another board's drawing (Void) has that board's provinces and edges."""
    for name in available_maps():
        board, drawn = load_map(name), game(load_map(name).drawing)
        assert load_board(board.drawing).areas.keys() == board.provinces.keys()
        assert {p: (v.terrain, v.coasts) for p, v in board.provinces.items()} == {
            p: (v.terrain, v.coasts) for p, v in drawn.provinces.items()
        }
        assert dict(board.army_adjacency) == dict(drawn.army_adjacency)
        assert dict(board.fleet_adjacency) == dict(drawn.fleet_adjacency)


@pytest.mark.parametrize("drawing", DRAWINGS)
def test_every_province_is_drawn_with_its_kind(drawing: str) -> None:
    assert set(features(drawing)) - OUTSIDE == set(game(drawing).provinces)
    for name, province in game(drawing).provinces.items():
        assert features(drawing)[name]["properties"]["kind"] == province.terrain.value


@pytest.mark.parametrize("drawing", DRAWINGS)
def test_an_archipelago_is_water_with_its_islands_inside(drawing: str) -> None:
    """Baleares: its area holds islands (where armies stand), and its unit stands on one of them."""
    for name, province in game(drawing).provinces.items():
        props = features(drawing)[name]["properties"]
        if province.terrain is not Terrain.ARCHIPELAGO:
            assert "islands" not in props
            continue
        islands = polygons(features(drawing)[name], "islands")
        assert islands
        for rings in islands:
            assert all(inside(drawing, name, p) for p in rings[0])
            assert 0 < area(rings) < area(polygons(features(drawing)[name])[0]) / 4
        assert any(contains(rings, tuple(props["unit"])) for rings in islands)


@pytest.mark.parametrize("drawing", DRAWINGS)
def test_adjacent_provinces_share_a_visible_border(drawing: str) -> None:
    """Every pair of the drawing in one test, each short border named: a test a pair was 3,351 tests of a
    lookup each, whose reports cost the run more than their checks."""
    short = {pair: round(found, 1) for pair in bordered_pairs(drawing)
             if (found := borders(drawing).get(pair, 0.0)) < MIN_BORDER}
    assert short == {}, f"adjacent pairs sharing less than {MIN_BORDER} units of border: {short}"


@pytest.mark.parametrize("drawing", DRAWINGS)
def test_other_provinces_touch_at_most_at_a_point(drawing: str) -> None:
    impassable = {p for p, info in game(drawing).provinces.items() if info.terrain is Terrain.IMPASSABLE}
    extra = {
        pair: round(length, 2)
        for pair, length in borders(drawing).items()
        if (pair not in adjacent_pairs(drawing) or pair in crossings(drawing) or pair in box_pairs(drawing))
        and not impassable & set(pair)
        and length > 0.01
    }
    assert extra == {}


@pytest.mark.parametrize("drawing", DRAWINGS)
def test_junctions_are_points_all_four_provinces_reach(drawing: str) -> None:
    """Both diagonal pairs of a junction are adjacent in the game, and each province has the point on its rim."""
    for pair, point in corners(drawing).items():
        assert pair in adjacent_pairs(drawing)
        for name in pair:
            rim = min(distance_to_edge(rings, point) for rings in polygons(features(drawing)[name]))
            assert rim < 0.05, f"{name} is {rim:.2f} units from the junction at {point}"


@pytest.mark.parametrize("drawing", DRAWINGS)
def test_weak_straits_are_drawn_as_short_crossings(drawing: str) -> None:
    """Every weak strait has a crossing from one province to the other, across a little water."""
    weak = {(min(a, b), max(a, b)) for a, ends in game(drawing).weak.items() for b in ends}
    assert set(crossings(drawing)) == weak
    for (a, b), line in crossings(drawing).items():
        assert {n for n in (a, b) if inside(drawing, n, line[0]) or inside(drawing, n, line[1])} == {a, b}
        assert math.dist(line[0], line[1]) < 40


@pytest.mark.parametrize("drawing", DRAWINGS)
def test_off_board_boxes_touch_nothing_and_are_linked_as_the_data_links_them(drawing: str) -> None:
    """A box borders no province; a province linked to it has a short line from the box into it,
    and two linked boxes (round the world) each name the other."""
    named = boxes(drawing)
    links = {tuple(sorted(s["provinces"])): s["line"] for s in data(drawing).get("links", ())}
    assert {pair for pair in box_pairs(drawing) if not set(pair) <= set(named)} == set(links)
    for box in named:
        assert game(drawing).provinces[box].name.startswith("Off Board")
        assert {b if a == box else a for a, b in box_pairs(drawing) if box in (a, b) and {a, b} <= set(named)} == set(
            named[box])
    for (a, b), line in links.items():
        assert {n for n in (a, b) if inside(drawing, n, line[0]) or inside(drawing, n, line[1])} == {a, b}
        assert math.dist(line[0], line[1]) < 100
    if drawing == "youngstown":
        assert len(named) == 12 and named["OBA"] == ["OBB", "OBL"] and ("MOR", "OBD") in links


@pytest.mark.parametrize("drawing", DRAWINGS)
def test_impassable_switzerland_is_drawn_between_its_neighbours(drawing: str) -> None:
    """Switzerland, where it is impassable (no edges to check it by), lies where the Alps are."""
    swi = game(drawing).provinces.get("SWI")
    if swi is None or swi.terrain is not Terrain.IMPASSABLE:
        pytest.skip("no impassable Switzerland")
    neighbours = {
        a if b == "SWI" else b for (a, b), length in borders(drawing).items() if "SWI" in (a, b) and length > 1
    }
    assert neighbours == {"MAR", "BUR", "MUN", "TYR", "PIE"}


@pytest.mark.parametrize("drawing", DRAWINGS)
def test_the_areas_cover_the_board_without_overlap(drawing: str) -> None:
    board = load_board(drawing)
    total = sum(area(rings) for f in features(drawing).values() for rings in polygons(f))
    assert total == pytest.approx(board.width * board.height, rel=1e-4)


def provinces(drawing: str) -> list[str]:
    return sorted(game(drawing).provinces)


def misplaced(drawing: str, name: str) -> list[str]:
    """What is wrong with province ``name``'s points: a label, unit, center or coast point outside its
    area or also inside another's, a unit too near the border."""
    province = game(drawing).provinces[name]
    props = features(drawing)[name]["properties"]
    places = {"label": props["label"], "unit": props["unit"]}
    if province.center:
        places["center"] = props["center"]
    for coast in province.coasts:
        places[f"coast {coast}"] = props["coasts"][coast]
    found = []
    for kind, point in places.items():
        if not inside(drawing, name, point):
            found.append(f"{name}'s {kind} point {point} is outside it")
        others = [other for other in game(drawing).provinces if other != name and inside(drawing, other, point)]
        if others:
            found.append(f"{name}'s {kind} point is also inside {others}")
    unit_room = min(distance_to_edge(rings, tuple(props["unit"])) for rings in polygons(features(drawing)[name]))
    if unit_room < 3.0:
        found.append(f"{name}'s unit sits {unit_room:.1f} units from its border")
    return found


@pytest.mark.parametrize("drawing", DRAWINGS)
def test_labels_units_and_centers_lie_inside_their_area(drawing: str) -> None:
    """Every province of the drawing in one test, each fault named (a test a province was 1,189 tests)."""
    faults = [fault for name in provinces(drawing) for fault in misplaced(drawing, name)]
    assert faults == []


@pytest.mark.parametrize("drawing", DRAWINGS)
def test_split_coasts_are_marked_apart(drawing: str) -> None:
    for name, province in game(drawing).provinces.items():
        if len(province.coasts) > 1:
            points = [features(drawing)[name]["properties"]["coasts"][c] for c in province.coasts]
            assert points[0] != points[1]
