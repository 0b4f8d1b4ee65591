"""Plain-Python plane geometry for checking the board's drawing: no geographic package.

Borders are found as collinear overlaps of ring edges, so the check does not rely on
neighbours sharing vertices; a grid of cells keeps the edge comparisons local.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence

Point = tuple[float, float]
Segment = tuple[Point, Point]
Rings = Sequence[Sequence[Point]]

EPSILON = 0.05  # map units: how far off a line a point may be and still be on it


def segments(rings: Rings) -> list[Segment]:
    return [(ring[i], ring[(i + 1) % len(ring)]) for ring in rings for i in range(len(ring))]


def contains(rings: Rings, point: Point) -> bool:
    """Even-odd ray casting: is ``point`` inside the area the rings bound (holes excluded)?"""
    x, y = point
    inside = False
    for (x1, y1), (x2, y2) in segments(rings):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def distance_to_edge(rings: Rings, point: Point) -> float:
    """How far ``point`` is from the nearest edge of the rings."""
    best = math.inf
    px, py = point
    for (x1, y1), (x2, y2) in segments(rings):
        dx, dy = x2 - x1, y2 - y1
        t = max(0.0, min(1.0, ((px - x1) * dx + (py - y1) * dy) / (dx * dx + dy * dy or 1.0)))
        best = min(best, math.hypot(px - (x1 + t * dx), py - (y1 + t * dy)))
    return best


def area(rings: Rings) -> float:
    """The area bounded by the rings, holes subtracted (shoelace formula, even-odd)."""
    outer, *holes = (abs(_signed_area(ring)) for ring in rings)
    return outer - sum(holes)


def _signed_area(ring: Sequence[Point]) -> float:
    return sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(ring, [*ring[1:], ring[0]], strict=True)) / 2


def overlap(a: Segment, b: Segment) -> float:
    """The length two segments share when they lie on one line (0 otherwise)."""
    (ax, ay), (bx, by) = a
    dx, dy = bx - ax, by - ay
    length = math.hypot(dx, dy)
    if length == 0:
        return 0.0
    for px, py in b:
        if abs((px - ax) * dy - (py - ay) * dx) / length > EPSILON:
            return 0.0
    t1 = ((b[0][0] - ax) * dx + (b[0][1] - ay) * dy) / length
    t2 = ((b[1][0] - ax) * dx + (b[1][1] - ay) * dy) / length
    return max(0.0, min(length, max(t1, t2)) - max(0.0, min(t1, t2)))


def shared_borders(shapes: dict[str, list[Rings]], cell: float = 25.0) -> dict[tuple[str, str], float]:
    """The length of border each pair of named shapes shares (pairs sorted by name)."""
    grid: dict[tuple[int, int], list[tuple[str, int, Segment]]] = defaultdict(list)
    serial = 0
    for name, polygons in shapes.items():
        for rings in polygons:
            for seg in segments(rings):
                serial += 1
                for key in _cells(seg, cell):
                    grid[key].append((name, serial, seg))
    found: dict[tuple[str, str], float] = defaultdict(float)
    seen: set[tuple[int, int]] = set()
    for items in grid.values():
        for i, (name_a, id_a, seg_a) in enumerate(items):
            for name_b, id_b, seg_b in items[i + 1 :]:
                if name_a == name_b or (id_a, id_b) in seen:
                    continue
                seen.add((id_a, id_b))
                shared = overlap(seg_a, seg_b)
                if shared > 0:
                    found[(min(name_a, name_b), max(name_a, name_b))] += shared
    return dict(found)


def _cells(seg: Segment, cell: float) -> Iterable[tuple[int, int]]:
    (x1, y1), (x2, y2) = seg
    for cx in range(int(min(x1, x2) // cell), int(max(x1, x2) // cell) + 1):
        for cy in range(int(min(y1, y2) // cell), int(max(y1, y2) // cell) + 1):
            yield cx, cy
