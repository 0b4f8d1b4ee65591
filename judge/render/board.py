"""The drawing of a map: each province's area and the points where its label, units and center go.

The geometry is data beside the map (``judge/engine/maps/<drawing>_geometry.geojson``, built
by ``tools/build_map_geometry.py``; a map names the drawing it uses, by default its own, so
that Void shares the standard board's): a GeoJSON feature collection in map units (x right,
y down), one feature per province plus the neutral land around the board and, where the
board has one, the open sea outside every province.  The polygons form a coverage:
neighbours share their border vertex for vertex, so a border is the set of ring edges two
areas have in common.  An archipelago's feature also holds its islands, the land inside
its water.  The collection may list weak straits' crossings (two points facing each other
across the water, drawn as a ford) and junctions (points where four provinces meet, the
two diagonal pairs touching there only) and links (an off-board box and a space it is
linked to, Youngstown's, drawn as a line between them) and, per off-board box, the boxes it
is linked to (round the world, so named in the box rather than drawn); it says ``"wrap":
true`` for a board whose east edge is its west edge (World): an area cut by the edge is drawn
at both, and an order across the edge goes the short way (:mod:`judge.render.svg`).
:func:`load_board` reads it once and prepares
what every picture reuses: SVG path data for each area and the borders, sorted by kind,
drawn as polylines of edges each emitted once.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from itertools import pairwise
from types import MappingProxyType
from typing import Any

from judge.engine.map import Location

Point = tuple[float, float]
Ring = tuple[Point, ...]
Shape = tuple[tuple[Ring, ...], ...]  # polygons, each an outer ring and its holes

NEUTRAL = "neutral"
OPEN_SEA = "open-sea"


class BoardError(ValueError):
    """A map that has no drawing."""


@dataclass(frozen=True, slots=True)
class Area:
    """One province as drawn: its polygons, and where its label, unit and center marker go."""

    id: str
    kind: str  # "sea", "coast", "land", "archipelago" or "impassable" (as in the map), or "neutral", "open-sea"
    shape: Shape
    label: Point
    unit: Point
    center: Point | None
    coasts: Mapping[str, Point]
    path: str  # the shape as SVG path data (fill-rule evenodd for holes)
    islands: Shape = ()  # an archipelago's land
    land: str = ""  # SVG path data of the land a holder's colour fills: the area, an archipelago's islands

    @property
    def land_shape(self) -> Shape:
        """The polygons of :attr:`land`."""
        return self.islands if self.kind == "archipelago" else self.shape


@dataclass(frozen=True, slots=True)
class Strait:
    """A weak strait's crossing: two provinces facing each other across the water, and the line between."""

    provinces: tuple[str, str]
    line: tuple[Point, Point]


@dataclass(frozen=True, slots=True, eq=False)
class Board:
    """A map's drawing: its size in map units, its areas, and its borders by kind."""

    name: str
    width: float
    height: float
    areas: Mapping[str, Area]
    neutral: Area
    borders: Mapping[str, str]  # "coast", "land", "sea" -> SVG path data
    straits: tuple[Strait, ...] = ()
    wrap: bool = False  # the east edge is the west edge (World)
    links: tuple[Strait, ...] = ()  # an off-board box and what it is linked to: no border, a line
    boxes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # an off-board box -> the boxes it is linked to

    def point(self, location: Location) -> Point:
        """Where a unit at ``location`` is drawn: its coast's point on split coasts."""
        area = self.areas[location.province]
        if location.coast and location.coast in area.coasts:
            return area.coasts[location.coast]
        return area.unit


def _number(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def path_data(shape: Shape) -> str:
    """SVG path data for polygons with holes: one closed subpath per ring, each point as the path
    writes it (to a tenth), the points a ring runs through within `TOLERANCE` of a straight line left
    out (a traced board's outlines step along thousands of them: AoP's picture was 250 KB of path)."""
    parts = []
    for polygon in shape:
        for ring in polygon:
            coords = " ".join(f"{_number(x)} {_number(y)}" for x, y in corners(ring))
            parts.append(f"M{coords}Z")
    return "".join(parts)


TOLERANCE = 0.5
"""How far, in the board's units (a picture is about 1,400 wide), a point may lie from the straight line
that replaces it in an SVG outline: a pixel at most at the picture's size, where the PNG draws every point."""


def corners(ring: Sequence[Point], tolerance: float = TOLERANCE) -> list[Point]:
    """The points of the closed ``ring`` that keep its shape within ``tolerance`` (Douglas and Peucker's
    simplification, each half of the ring from its two farthest-apart points), rounded to a tenth."""
    points = [(round(x, 1), round(y, 1)) for x, y in ring]
    points = [p for i, p in enumerate(points) if p != points[i - 1]] or points[:1]
    if len(points) < 4:
        return points
    far = max(range(len(points)), key=lambda i: (points[i][0] - points[0][0]) ** 2 + (points[i][1] - points[0][1]) ** 2)
    first, second = points[: far + 1], [*points[far:], points[0]]
    kept = _simplified(first, tolerance)[:-1] + _simplified(second, tolerance)[:-1]
    return kept if len(kept) >= 3 else points


def towards(p: Point, q: Point, distance: float) -> Point:
    """The point ``distance`` from ``p`` on the way to ``q`` (``q`` itself if nearer)."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    length = math.hypot(dx, dy)
    if length <= distance or length == 0:
        return q
    return p[0] + dx / length * distance, p[1] + dy / length * distance


def along(points: Sequence[Point], fraction: float) -> Point:
    """The point ``fraction`` of the way along a polyline."""
    remaining = sum(math.dist(a, b) for a, b in pairwise(points)) * fraction
    for a, b in pairwise(points):
        if remaining <= math.dist(a, b):
            return towards(a, b, remaining)
        remaining -= math.dist(a, b)
    return points[-1]


def _simplified(line: Sequence[Point], tolerance: float) -> list[Point]:
    """``line``'s first and last points, and between them the points needed to stay within ``tolerance``."""
    keep = [False] * len(line)
    keep[0] = keep[-1] = True
    pending = [(0, len(line) - 1)]
    while pending:
        start, end = pending.pop()
        (ax, ay), (bx, by) = line[start], line[end]
        length = math.hypot(bx - ax, by - ay)
        worst, at = 0.0, -1
        for i in range(start + 1, end):
            px, py = line[i]
            distance = (abs((px - ax) * (by - ay) - (py - ay) * (bx - ax)) / length if length
                        else math.hypot(px - ax, py - ay))
            if distance > worst:
                worst, at = distance, i
        if worst > tolerance:
            keep[at] = True
            pending += [(start, at), (at, end)]
    return [p for p, kept in zip(line, keep, strict=True) if kept]


def _shape(coordinates: Iterable[Any]) -> Shape:
    # GeoJSON rings repeat their first point at the end; drop it.
    return tuple(
        tuple(tuple((float(x), float(y)) for x, y in ring[:-1]) for ring in polygon) for polygon in coordinates
    )


def _point(value: Any) -> Point:
    return float(value[0]), float(value[1])


def _border_kind(a: str, b: str | None) -> str | None:
    """What the edge between areas of kinds ``a`` and ``b`` is (``None``: the board's rim)."""
    if b is None:
        return None
    water = ("sea", "archipelago", OPEN_SEA)  # an archipelago's area is water with islands in it
    if a in water and b in water:
        return "sea"
    if a in water or b in water:
        return "coast"
    return "land"


def _borders(areas: list[Area]) -> dict[str, str]:
    """Every shared edge once, joined into polylines, as path data by kind of border."""
    owners: dict[tuple[Point, Point], list[int]] = {}
    for index, area in enumerate(areas):
        for polygon in area.shape:
            for ring in polygon:
                for p, q in zip(ring, ring[1:] + ring[:1], strict=True):
                    owners.setdefault((min(p, q), max(p, q)), []).append(index)
    runs: dict[str, list[list[Point]]] = {"coast": [], "land": [], "sea": []}
    for index, area in enumerate(areas):
        for polygon in area.shape:
            for ring in polygon:
                current: tuple[str, list[Point]] | None = None
                for p, q in zip(ring, ring[1:] + ring[:1], strict=True):
                    sharing = owners[(min(p, q), max(p, q))]
                    other = next((o for o in sharing if o != index), None)
                    kind = None if other is None or other < index else _border_kind(area.kind, areas[other].kind)
                    if kind is None:
                        current = None
                    elif current is not None and current[0] == kind and current[1][-1] == p:
                        current[1].append(q)
                    else:
                        current = (kind, [p, q])
                        runs[kind].append(current[1])
    return {
        kind: "".join("M" + " ".join(f"{_number(x)} {_number(y)}" for x, y in line) for line in lines)
        for kind, lines in runs.items()
    }


def parse_board(name: str, data: Mapping[str, Any]) -> Board:
    """Build a board from its GeoJSON data."""
    areas: list[Area] = []
    for feature in data["features"]:
        props = feature["properties"]
        shape = _shape(feature["geometry"]["coordinates"])
        islands = _shape(props.get("islands", ()))
        origin = shape[0][0][0] if shape else (0.0, 0.0)
        path = path_data(shape)
        areas.append(
            Area(
                id=str(feature["id"]),
                kind=str(props["kind"]),
                shape=shape,
                label=_point(props.get("label", origin)),
                unit=_point(props.get("unit", origin)),
                center=_point(props["center"]) if "center" in props else None,
                coasts=MappingProxyType({k: _point(v) for k, v in props.get("coasts", {}).items()}),
                path=path,
                islands=islands,
                land=path_data(islands) if props["kind"] == "archipelago" else path,
            )
        )
    neutral = next(a for a in areas if a.id == NEUTRAL)
    straits, links = (
        tuple(
            Strait((str(s["provinces"][0]), str(s["provinces"][1])), (_point(s["line"][0]), _point(s["line"][1])))
            for s in data.get(key, ())
        )
        for key in ("straits", "links")
    )
    return Board(
        name=name,
        width=float(data["width"]),
        height=float(data["height"]),
        areas=MappingProxyType({a.id: a for a in areas if a.id not in (NEUTRAL, OPEN_SEA)}),
        neutral=neutral,
        borders=MappingProxyType(_borders(areas)),
        straits=straits,
        wrap=bool(data.get("wrap", False)),
        links=links,
        boxes=MappingProxyType({str(k): tuple(str(v) for v in vs) for k, vs in data.get("boxes", {}).items()}),
    )


def geometry_text(name: str) -> str:
    """The geometry file of drawing ``name`` as shipped with the judge."""
    return resources.files("judge.engine.maps").joinpath(f"{name}_geometry.geojson").read_text("utf-8")


@cache
def load_board(name: str = "standard") -> Board:
    """The drawing named ``name`` (a map's :attr:`~judge.engine.map.GameMap.drawing`; cached: boards are immutable)."""
    try:
        text = geometry_text(name)
    except FileNotFoundError:
        raise BoardError(f"the map '{name}' has no drawing") from None
    return parse_board(name, json.loads(text))
