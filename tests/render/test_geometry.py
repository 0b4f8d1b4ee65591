"""The drawing agrees with the game: every adjacency is a visible border, and nothing else is.

The checks read the stored geometry with plain Python (tests/render/geometry.py), so they
hold for the data as shipped, whatever tool made it.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

from judge.engine.map import Terrain, load_map
from judge.render.board import geometry_text, load_board
from tests.render.geometry import Rings, area, contains, distance_to_edge, shared_borders

GAME = load_map("standard")
MIN_BORDER = 5.0  # map units (6 px at 1200 px wide): a border one can see


@cache
def features() -> dict[str, Any]:
    data = json.loads(geometry_text("standard"))
    return {f["id"]: f for f in data["features"]}


def polygons(feature: dict[str, Any]) -> list[Rings]:
    """A GeoJSON MultiPolygon's polygons, rings without the repeated closing point."""
    return [[[tuple(p) for p in ring[:-1]] for ring in polygon] for polygon in feature["geometry"]["coordinates"]]


@cache
def borders() -> dict[tuple[str, str], float]:
    return shared_borders({name: polygons(f) for name, f in features().items() if name in GAME.provinces})


def adjacent_pairs() -> set[tuple[str, str]]:
    pairs = {tuple(sorted((a, b))) for a, ends in GAME.army_adjacency.items() for b in ends}
    pairs |= {tuple(sorted((a.province, b.province))) for a, ends in GAME.fleet_adjacency.items() for b in ends}
    return {(a, b) for a, b in pairs}


def inside(name: str, point: list[float]) -> bool:
    return any(contains(rings, (point[0], point[1])) for rings in polygons(features()[name]))


def test_every_province_is_drawn_with_its_kind() -> None:
    drawn = set(features()) - {"neutral"}
    assert drawn == set(GAME.provinces)
    for name, province in GAME.provinces.items():
        assert features()[name]["properties"]["kind"] == province.terrain.value


@pytest.mark.parametrize("pair", sorted(adjacent_pairs()), ids="-".join)
def test_adjacent_provinces_share_a_visible_border(pair: tuple[str, str]) -> None:
    assert borders().get(pair, 0.0) >= MIN_BORDER, f"{pair} share {borders().get(pair, 0.0):.1f} units of border"


def test_other_provinces_touch_at_most_at_a_point() -> None:
    impassable = {p for p, info in GAME.provinces.items() if info.terrain is Terrain.IMPASSABLE}
    extra = {
        pair: round(length, 2)
        for pair, length in borders().items()
        if pair not in adjacent_pairs() and not impassable & set(pair) and length > 0.01
    }
    assert extra == {}


def test_switzerland_is_drawn_between_its_neighbours() -> None:
    neighbours = {a if b == "SWI" else b for (a, b), length in borders().items() if "SWI" in (a, b) and length > 1}
    assert neighbours == {"MAR", "BUR", "MUN", "TYR", "PIE"}


def test_the_areas_cover_the_board_without_overlap() -> None:
    board = load_board("standard")
    total = sum(area(rings) for f in features().values() for rings in polygons(f))
    assert total == pytest.approx(board.width * board.height, rel=1e-4)


@pytest.mark.parametrize("name", sorted(GAME.provinces))
def test_labels_units_and_centers_lie_inside_their_area(name: str) -> None:
    props = features()[name]["properties"]
    places = {"label": props["label"], "unit": props["unit"]}
    if GAME.provinces[name].center:
        places["center"] = props["center"]
    for coast in GAME.provinces[name].coasts:
        places[f"coast {coast}"] = props["coasts"][coast]
    for kind, point in places.items():
        assert inside(name, point), f"{name}'s {kind} point {point} is outside it"
        others = [other for other in GAME.provinces if other != name and inside(other, point)]
        assert others == [], f"{name}'s {kind} point is also inside {others}"
    unit_room = min(distance_to_edge(rings, tuple(props["unit"])) for rings in polygons(features()[name]))
    assert unit_room >= 3.0, f"{name}'s unit sits {unit_room:.1f} units from its border"


def test_split_coasts_are_marked_apart() -> None:
    for name, province in GAME.provinces.items():
        if len(province.coasts) > 1:
            points = [features()[name]["properties"]["coasts"][c] for c in province.coasts]
            assert points[0] != points[1]
