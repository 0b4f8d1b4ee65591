"""Build ``judge/engine/maps/<board>_geometry.geojson``: a board drawn as polygons, from real geography.

Theory.  A board is made from facts, not copied from anyone's artwork.  The algorithm is
the same for every board; what differs is data, one module per board in ``tools/boards/``
(:class:`boards.BoardSpec`): where the board lies, and real places in each province.

1. Projection.  Longitude/latitude go through a Lambert conformal conic projection (the
   board's centre and standard parallels), or for a board of the whole globe (World) the
   Miller cylindrical projection about the central meridian, then, where the board asks for
   one, through a radial "magnifier" that gives a crowded middle more room than the rim (the
   standard board's central Europe), then are scaled to map units (1000 wide, or the board's
   own width: World's and Known World 901's 1600, Youngstown's 1400, for their many small
   provinces; y pointing down) over the board's
   extent.  A board that wraps east-west spans the whole 360 degrees: its west edge is the
   same meridian as its east edge.
2. Land and sea.  Every raster cell of the map is land or sea according to the GLOBE 1 km
   land mask shipped by ``global-land-mask``.  Hand-drawn patches then close what the game
   closes (the Bosporus is a land bridge where Constantinople spans it) and open what it
   opens (the straits of Gibraltar and Messina where the game sails through).  Islands too
   small to draw are sunk unless a province claims them; water that no sea claims (the Sea
   of Marmara, lakes) becomes land.
3. Provinces.  Each province has seed points at real places (its cities, coasts, regions).
   Each cell takes the province of the nearest seed of its kind (land seeds for land, water
   seeds for seas) in the same connected piece of land or water: a Voronoi diagram clipped
   by the coastline.  Land with no seed is neutral: the rim of the board.  Hand-drawn
   patches force a province where the game differs from the nearest-seed rule
   (Switzerland's outline), and stray fragments are given to the neighbour they touch most.
   A province the board names as in several pieces (World's Indonesia, Youngstown's Egypt on
   both banks of Suez) keeps every piece that holds one of its seeds; any other is one piece.
   An archipelago (Ancient Mediterranean's Baleares) is water seeded like a sea, with its
   islands inside it: fleets sail in it and armies stand on its islands.  An off-board box
   (Youngstown's lettered spaces beyond the edge of the known world) is a rectangle placed by
   hand at the board's edge, outside the land mask and the nearest-seed rule, framed by a
   strip of neutral land so that it borders no province.
4. Checking.  Cells that touch give the drawing's adjacencies; they must equal the union of
   the board's ``army_edges`` and ``fleet_edges`` (impassable provinces border whoever they
   border; on a board that wraps, cells on the west edge touch those on the east edge, and
   a province or a sea may run across the edge).  Where the game crosses water by land and
   ships sail through the same strait (Loeb9's weak straits), no plane drawing can give both
   pairs a border: the board names such a strait with a crossing, two points facing each
   other across the water, and that pair is checked as a crossing (each end in its province,
   the two close) instead of a border.  Four provinces may meet at a point the board names: a
   junction, where both diagonal pairs are adjacent in the game (or one of them is a single
   province drawn in two pieces, pinched at the point), or a corner, where neither is; the
   build forces the four quadrants of a small square round the point and checks that the
   diagonals are as the board says.  A box touches nothing: each pair the game makes with a
   box is a link.  A box and a province it is linked to must lie close, and are joined by a
   line (the collection's "links"); boxes linked to each other round the world (the
   Atlantic's to the Pacific's) need not, and each box names the boxes it is linked to (the
   collection's "boxes").  The build stops with a list of differences otherwise.
5. Polygons.  Each province's cells are merged into polygons and the whole coverage is
   simplified at once (``shapely.coverage_simplify``), which keeps shared borders shared.
   Label, unit and supply-center points are the most interior points of each area
   (``polylabel``), with hand overrides where the automatic choice reads badly; in a box the
   unit stands at the left and the name at the top right.  An area cut by the edge of a board
   that wraps is two polygons, one at each edge; its points go in the larger, and the file
   says ``"wrap": true`` so that the renderer draws an order across the edge the short way.

6. Machiavelli.  A spec with ``game="machiavelli"`` reads its board from the rules core
   (``judge/games/machiavelli/core/boards/<board>.json``: the areas' kinds, the army and
   fleet lists with coasts merged) and writes ``judge/games/machiavelli/maps/``.  Each area
   there gets a place for every mark the game draws in it (:func:`arrange`): its name and
   its unit, and where it has a city the city's mark and the garrison beside it (a
   single-unit area, Venice, has its garrison where its unit stands), each a box of the
   renderer's size (:mod:`judge.games.machiavelli.drawing`) inside the area and clear of the
   others, of the coasts' places, of the straits' gates and of the crossings; the build
   names the marks that did not fit and any two that overlap.  A board may be labelled with
   its areas' names written in full (``names``; AoP's) rather than their codes: each name's
   box is the renderer's estimate of it.  An area drawn in pieces bears its name once, as every
   area does (AoP's Tirol and Kärnten).  A strait (Piombino, Messina, AoP's Bonifacio),
   whose passage the drawing gives as an ordinary border between its seas or a sea and a
   coast, or as a crossing, is drawn as a gate: a line across its water, each end on one
   area's land and END_MARGIN inside it, no longer than a crossing; the file lists each with
   the edges it controls and its controlling area (none for Bonifacio).  A crossing the game
   makes for fleets only (AoP's Ajaccio-Sassari and Messina-Kalabria: no army edge) is marked
   ``"fleet"``, and drawn as a sea route rather than a bridge.

The result is plain data: the judge draws it without any geographic package.  Run with the
``tools`` extra installed::

    python tools/build_map_geometry.py [BOARD ...]        # writes each board's geometry (default: all)
    python tools/build_map_geometry.py machiavelli_classic  # the classic Machiavelli board
    python tools/build_map_geometry.py machiavelli_aop    # Absence of Plague's board
    python tools/build_map_geometry.py ancmed --check     # only reports the adjacency differences
    python tools/build_map_geometry.py ancmed --preview p.png   # the raster of provinces, named
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import shapely
from global_land_mask import globe
from numpy.typing import NDArray
from scipy import ndimage
from scipy.spatial import cKDTree
from shapely import affinity
from shapely.geometry import MultiPolygon, Point, Polygon, box
from shapely.geometry.polygon import orient
from shapely.ops import nearest_points, polylabel

sys.path.insert(0, str(Path(__file__).resolve().parent))

from boards import BoardSpec, LonLat, load

ROOT = Path(__file__).resolve().parent.parent
MAPS = ROOT / "judge" / "engine" / "maps"
MACHIAVELLI = ROOT / "judge" / "games" / "machiavelli"
BOARDS = sorted(p.stem for p in (Path(__file__).resolve().parent / "boards").glob("*.py") if p.stem != "__init__")

CELLS_PER_UNIT = 2  # raster resolution
SIMPLIFY = 1.5  # map units: tolerance of the coverage simplification
MIN_BORDER = 6 * CELLS_PER_UNIT  # cell sides: the least border two neighbours must share
MAX_CROSSING = 40.0  # map units: the longest crossing of a strait
END_MARGIN = 2.0  # map units: how far inside its area each end of a gate lies
MAX_LINK = 90.0  # map units: the farthest a box may lie from what it is linked to
LINK_REACH = 4.0  # map units: how far inside its area each end of a link's line lies
BOX_FRAME = 3.0  # map units: the width of the neutral strip round a box
JUNCTION = 6.0  # map units: the half-width of the square drawn round a junction of four provinces

NEUTRAL = "neutral"  # the id of land outside every province
OPEN_SEA = "open-sea"  # the id of water outside every province

Array = NDArray[np.float64]
XY = tuple[float, float]  # a point in map units


# -- projection ----------------------------------------------------------------------------


class Projection:
    """Degrees to map units and back, for one board's centre, parallels, magnifier and extent."""

    def __init__(self, spec: BoardSpec) -> None:
        self.lon0, lat0 = spec.centre
        self.cylindrical = spec.projection == "miller"
        if not self.cylindrical:
            f1, f2, f0 = (math.radians(v) for v in (spec.parallels[0], spec.parallels[1], lat0))
            n = math.log(math.cos(f1) / math.cos(f2)) / math.log(
                math.tan(math.pi / 4 + f2 / 2) / math.tan(math.pi / 4 + f1 / 2)
            )
            big_f = math.cos(f1) * math.tan(math.pi / 4 + f1 / 2) ** n / n
            self.n, self.big_f, self.rho0 = n, big_f, big_f / math.tan(math.pi / 4 + f0 / 2) ** n
        # Each magnifier's centre, gain and radius; a centre is placed by the magnifiers before it.
        self.magnifiers: list[tuple[float, float, float, float]] = []
        self.lenses: list[tuple[float, float, float, float]] = []
        for magnifier in spec.magnifiers:
            cx, cy = self.magnify(*self.lcc(np.array(magnifier.centre[0]), np.array(magnifier.centre[1])))
            self.magnifiers.append((float(cx), float(cy), magnifier.gain, magnifier.radius))
        for lens in spec.lenses:
            cx, cy = self.magnify(*self.lcc(np.array(lens.centre[0]), np.array(lens.centre[1])))
            self.lenses.append((float(cx), float(cy), lens.gain, lens.radius))
        self.extent = spec.extent
        self.width = spec.width
        self.scale = self.width / (self.extent[2] - self.extent[0])
        self.height = round((self.extent[3] - self.extent[1]) * self.scale)

    def lcc(self, lon: Array, lat: Array) -> tuple[Array, Array]:
        """The board's projection (Lambert conformal conic, or Miller cylindrical): degrees to
        radians-sized plane coordinates (y up)."""
        if self.cylindrical:
            lam = np.radians((lon - self.lon0 + 180) % 360 - 180)  # -pi <= x < pi: the edge is lon0 + 180
            return lam, 1.25 * np.log(np.tan(np.pi / 4 + 0.4 * np.radians(lat)))
        theta = self.n * np.radians(lon - self.lon0)
        rho = self.big_f / np.tan(np.pi / 4 + np.radians(lat) / 2) ** self.n
        return rho * np.sin(theta), self.rho0 - rho * np.cos(theta)

    def lcc_inverse(self, x: Array, y: Array) -> tuple[Array, Array]:
        if self.cylindrical:
            return self.lon0 + np.degrees(x), np.degrees(2.5 * np.arctan(np.exp(0.8 * y)) - 0.625 * np.pi)
        rho = np.sqrt(x**2 + (self.rho0 - y) ** 2)
        theta = np.arctan2(x, self.rho0 - y)
        lon = self.lon0 + np.degrees(theta / self.n)
        lat = np.degrees(2 * np.arctan((self.big_f / rho) ** (1 / self.n)) - np.pi / 2)
        return lon, lat

    def magnify(self, x: Array, y: Array) -> tuple[Array, Array]:
        """Radial magnifiers in turn: r -> R g(r/R) with g(t) = t (1 + k) / (1 + k t), the identity far away."""
        for cx, cy, gain, radius in self.magnifiers:
            dx, dy = x - cx, y - cy
            r = np.hypot(dx, dy)
            t = r / radius
            factor = (1 + gain) / (1 + gain * t)
            x, y = cx + dx * factor, cy + dy * factor
        for cx, cy, gain, radius in self.lenses:
            # g(t) = t (1 + k (1 - t)^2) inside the lens, t outside: g' = 1 + k (1 - t)(1 - 3t) > 0 for k < 3.
            dx, dy = x - cx, y - cy
            t = np.minimum(np.hypot(dx, dy) / radius, 1.0)
            factor = 1 + gain * (1 - t) ** 2
            x, y = cx + dx * factor, cy + dy * factor
        return x, y

    def magnify_inverse(self, x: Array, y: Array) -> tuple[Array, Array]:
        for cx, cy, gain, radius in reversed(self.lenses):
            dx, dy = x - cx, y - cy
            u = np.hypot(dx, dy) / radius
            low, high = np.zeros_like(u), np.minimum(u, 1.0)  # g(t) >= t, so t <= u
            for _ in range(40):  # bisection: g is increasing
                middle = (low + high) / 2
                below = middle * (1 + gain * (1 - middle) ** 2) < u
                low, high = np.where(below, middle, low), np.where(below, high, middle)
            t = np.where(u >= 1, u, (low + high) / 2)
            factor = np.divide(t, u, out=np.ones_like(u), where=u > 0)
            x, y = cx + dx * factor, cy + dy * factor
        for cx, cy, gain, radius in reversed(self.magnifiers):
            dx, dy = x - cx, y - cy
            u = np.hypot(dx, dy) / radius
            # u = t (1 + k) / (1 + k t)  <=>  t = u / (1 + k - k u)
            factor = 1 / (1 + gain - gain * u)
            x, y = cx + dx * factor, cy + dy * factor
        return x, y

    def to_map(self, lon: Iterable[float] | float, lat: Iterable[float] | float) -> tuple[Array, Array]:
        """Degrees to map units (x right, y down)."""
        x, y = self.magnify(*self.lcc(np.asarray(lon, dtype=float), np.asarray(lat, dtype=float)))
        return (x - self.extent[0]) * self.scale, (self.extent[3] - y) * self.scale

    def from_map(self, x: Array, y: Array) -> tuple[Array, Array]:
        return self.lcc_inverse(*self.magnify_inverse(x / self.scale + self.extent[0], self.extent[3] - y / self.scale))

    def point(self, lonlat: LonLat) -> tuple[float, float]:
        x, y = self.to_map(lonlat[0], lonlat[1])
        return float(x), float(y)

    def polygon(self, lonlats: Sequence[LonLat]) -> Polygon:
        """A polygon given in degrees, in map units."""
        return Polygon([self.point(p) for p in lonlats])


# -- raster --------------------------------------------------------------------------------


class Raster:
    """The board's grid of cells: CELLS_PER_UNIT cells per map unit each way."""

    def __init__(self, projection: Projection) -> None:
        self.projection = projection
        self.shape = int(projection.height * CELLS_PER_UNIT), int(projection.width * CELLS_PER_UNIT)

    def cell_centres(self) -> tuple[Array, Array]:
        rows, cols = self.shape
        xs = (np.arange(cols) + 0.5) / CELLS_PER_UNIT
        ys = (np.arange(rows) + 0.5) / CELLS_PER_UNIT
        return np.meshgrid(xs, ys)

    def cell_of(self, x: float, y: float) -> tuple[int, int]:
        rows, cols = self.shape
        return min(max(int(y * CELLS_PER_UNIT), 0), rows - 1), min(max(int(x * CELLS_PER_UNIT), 0), cols - 1)

    def inside(self, shape: Polygon, xs: Array, ys: Array) -> NDArray[np.bool_]:
        """Cells whose centre lies in ``shape`` (tested only within its bounding box)."""
        found = np.zeros(xs.shape, dtype=bool)
        x0, y0, x1, y1 = shape.bounds
        r0, c0 = self.cell_of(x0, y0)
        r1, c1 = self.cell_of(x1, y1)
        window = (slice(r0, r1 + 1), slice(c0, c1 + 1))
        found[window] = shapely.contains_xy(shape, xs[window], ys[window])
        return found

    def seed_cells(self, points: Iterable[LonLat]) -> list[tuple[int, int]]:
        return [self.cell_of(*self.projection.point(p)) for p in points]


def connected(mask: NDArray[np.bool_], wrap: bool) -> tuple[NDArray[np.int32], int]:
    """The connected pieces of ``mask`` numbered from 1 (``ndimage.label``), joined across the
    east-west edge when the board wraps."""
    pieces, count = ndimage.label(mask)
    if not wrap or not count:
        return pieces, count
    parent = list(range(count + 1))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for a, b in zip(pieces[:, 0], pieces[:, -1], strict=True):
        if a and b:
            parent[root(int(a))] = root(int(b))
    roots = sorted({root(i) for i in range(1, count + 1)})
    number = np.zeros(count + 1, dtype=np.int32)
    for i in range(1, count + 1):
        number[i] = roots.index(root(i)) + 1
    return number[pieces], len(roots)


def tidy_mask(
    land: NDArray[np.bool_],
    sea_seeds: set[tuple[int, int]],
    land_seeds: set[tuple[int, int]],
    min_island: int,
    wrap: bool = False,
) -> None:
    """Sink small unseeded islands; turn water that no sea claims into land (in place)."""
    pieces, count = connected(land, wrap)
    sizes = np.bincount(pieces.ravel(), minlength=count + 1)
    seeded = {pieces[c] for c in land_seeds}
    small = np.array([i != 0 and sizes[i] < min_island and i not in seeded for i in range(count + 1)])
    land[small[pieces]] = False
    pieces, count = connected(~land, wrap)
    seeded = {pieces[c] for c in sea_seeds}
    unclaimed = np.array([i != 0 and i not in seeded for i in range(count + 1)])
    land[unclaimed[pieces]] = True


def nearest_seed(
    mask: NDArray[np.bool_],
    seeds: list[tuple[int, int, int]],
    labels: NDArray[np.int32],
    default: int,
    wrap: bool = False,
) -> None:
    """Label each cell of ``mask`` by the nearest seed (row, col, label) in its connected piece
    (distances measured across the east-west edge too when the board wraps)."""
    pieces, _ = connected(mask, wrap)
    # A torus in the columns only: the rows' period is too long to ever be the shorter way.
    period = [4.0 * mask.shape[0], float(mask.shape[1])] if wrap else None
    by_piece: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    for r, c, lab in seeds:
        if mask[r, c]:
            by_piece[int(pieces[r, c])].append((r, c, lab))
    labels[mask] = default
    for piece, items in by_piece.items():
        rows, cols = np.nonzero(pieces == piece)
        tree = cKDTree(np.array([(r, c) for r, c, _ in items], dtype=float), boxsize=period)
        _, nearest = tree.query(np.column_stack([rows, cols]).astype(float))
        labels[rows, cols] = np.array([lab for _, _, lab in items], dtype=np.int32)[nearest]


def reassign_fragments(
    labels: NDArray[np.int32],
    names: list[str],
    seeds: dict[str, list[tuple[int, int]]],
    water: set[str],
    wrap: bool = False,
) -> None:
    """Give each detached fragment of a province to the neighbouring province it touches most."""
    is_sea = np.array([False] + [n in water for n in names[1:]])
    for index, name in enumerate(names):
        if index == 0:
            continue
        pieces, count = connected(labels == index, wrap)
        if count <= 1:
            continue
        keep = {int(pieces[c]) for c in seeds.get(name, []) if pieces[c]}
        if not keep:
            sizes = np.bincount(pieces.ravel())
            sizes[0] = 0
            keep = {int(np.argmax(sizes))}
        for piece in range(1, count + 1):
            if piece in keep:
                continue
            cells = pieces == piece
            grown = ndimage.binary_dilation(cells)
            if wrap:
                grown |= np.roll(cells, 1, axis=1) | np.roll(cells, -1, axis=1)
            ring = grown & ~cells
            around = Counter(int(v) for v in labels[ring] if is_sea[v] == is_sea[index] and v != 0)
            if around:
                labels[cells] = around.most_common(1)[0][0]


def raster_adjacency(labels: NDArray[np.int32], wrap: bool = False) -> Counter[tuple[int, int]]:
    """Pairs of labels whose cells share a side (across the east-west edge too when the board
    wraps), with the number of such sides."""
    found: Counter[tuple[int, int]] = Counter()
    sides = [(labels[:, :-1], labels[:, 1:]), (labels[:-1, :], labels[1:, :])]
    if wrap:
        sides.append((labels[:, -1:], labels[:, :1]))
    for a, b in sides:
        differ = a != b
        pairs = np.stack([np.minimum(a[differ], b[differ]), np.maximum(a[differ], b[differ])], axis=1)
        uniq, counts = np.unique(pairs, axis=0, return_counts=True)
        for (p, q), n in zip(uniq, counts, strict=True):
            found[(int(p), int(q))] += int(n)
    return found


def vectorise(labels: NDArray[np.int32], count: int) -> list[shapely.Geometry]:
    """Each label's cells as one (multi)polygon, in cell units; all share exact edges."""
    boxes: dict[int, list[shapely.Geometry]] = defaultdict(list)
    for row in range(labels.shape[0]):
        line = labels[row]
        starts = np.concatenate([[0], np.nonzero(line[1:] != line[:-1])[0] + 1])
        ends = np.concatenate([starts[1:], [line.size]])
        for s, e in zip(starts, ends, strict=True):
            boxes[int(line[s])].append(box(int(s), row, int(e), row + 1))
    return [shapely.union_all(boxes[i]) for i in range(count)]


def rings(geom: shapely.Geometry) -> list[list[list[list[float]]]]:
    """A (multi)polygon as GeoJSON MultiPolygon coordinates in map units (closed rings)."""
    parts = geom.geoms if isinstance(geom, MultiPolygon) else [geom]
    out = []
    for part in parts:
        if part.is_empty:
            continue
        part = orient(part)
        polygon_rings = [part.exterior, *part.interiors]
        out.append([[[round(x, 1), round(y, 1)] for x, y in ring.coords] for ring in polygon_rings])
    return out


# -- points inside an area -------------------------------------------------------------------

LABEL_BOX = (13.0, 6.5)  # half width and half height of a province's name
UNIT_ROOM = 10.0  # radius kept clear around a unit
STAR_ROOM = 6.0  # radius kept clear around a supply center's star


def _first_fit(room: shapely.Geometry, shapes: Iterable[shapely.Geometry]) -> shapely.Geometry | None:
    return next((shape for shape in shapes if shape.within(room)), None)


def _around(origin: Point, distances: Sequence[float]) -> list[Point]:
    """Candidate spots round ``origin``: below, above, right, left, then the diagonals."""
    directions = [(0, 1), (0, -1), (1, 0), (-1, 0), (0.7, 0.7), (-0.7, 0.7), (0.7, -0.7), (-0.7, -0.7)]
    return [Point(origin.x + dx * d, origin.y + dy * d) for d in distances for dx, dy in directions]


def layout(
    shape: shapely.Geometry, center: bool, fixed: dict[str, Point], unit_area: shapely.Geometry | None = None
) -> dict[str, list[float]]:
    """Points for the unit, the name and the supply center: inside the area, clear of each other.

    The unit goes to the most interior point (of ``unit_area`` when given: an archipelago's
    islands); the name just below it (or above, beside...) where its box fits inside the
    area; the star beside them where it fits.  Where nothing fits, the most interior point of
    what is left.  ``fixed`` (the board's hand-placed points) overrides any of them.
    """
    parts = shape.geoms if isinstance(shape, MultiPolygon) else [shape]
    main = max(parts, key=lambda p: p.area)
    inner = main.buffer(-1.5)

    def most_interior(room: shapely.Geometry, fallback: Point) -> Point:
        pieces = [p for p in (room.geoms if isinstance(room, MultiPolygon) else [room]) if not p.is_empty]
        return polylabel(max(pieces, key=lambda p: p.area), tolerance=0.5) if pieces else fallback

    unit = fixed.get("unit") or (
        most_interior(unit_area, Point(0, 0)) if unit_area is not None else polylabel(main, tolerance=0.5)
    )
    taken = unit.buffer(UNIT_ROOM)
    hw, hh = LABEL_BOX
    boxes = (box(p.x - hw, p.y - hh, p.x + hw, p.y + hh) for p in _around(unit, (17.0, 21.0, 26.0)))
    label_box = _first_fit(inner.difference(taken), boxes)
    label = fixed.get("label") or (label_box.centroid if label_box else most_interior(inner.difference(taken), unit))
    places = {"unit": unit, "label": label}
    if center:
        taken = taken.union(box(label.x - hw, label.y - hh, label.x + hw, label.y + hh))
        stars = (p.buffer(STAR_ROOM) for p in _around(unit, (16.0, 20.0)) + _around(label, (15.0, 19.0)))
        star = _first_fit(inner.difference(taken), stars)
        places["center"] = fixed.get("center") or (
            star.centroid if star else most_interior(main.difference(taken), label)
        )
    return {kind: [round(p.x, 1), round(p.y, 1)] for kind, p in places.items()}


# -- a Machiavelli area's places --------------------------------------------------------------

PLACE_GAP = 1.0  # map units kept between two marks
PLACE_STEP = 0.5  # map units between candidate points
PLACE_REACH = 40.0  # map units: the farthest another mark of an area lies from its unit
PLACE_ANCHORS = 4000  # candidate unit points tried, nearest the area's most interior point first

Box = tuple[float, float, float, float]  # left, top, right, bottom


def mark_boxes(label: str, names: bool, marks: Sequence[str], single: bool = False) -> dict[str, Box]:
    """What each mark of a Machiavelli area covers about its point (the renderer's sizes), its
    ``label`` written in full or as a code; a ``single``-unit area's unit place is a garrison's,
    which may stand there."""
    from judge.games.machiavelli.drawing import CITY_BOX, GARRISON_BOX, UNIT_BOX, text_box

    sizes = {"unit": UNIT_BOX, "label": text_box(label, names), "city": CITY_BOX, "garrison": GARRISON_BOX}
    boxes = {kind: sizes[kind] for kind in marks}
    if single:
        boxes["unit"] = GARRISON_BOX
    return boxes


def _box_at(point: tuple[float, float], box: Box, grow: float = 0.0) -> Box:
    return point[0] + box[0] - grow, point[1] + box[1] - grow, point[0] + box[2] + grow, point[1] + box[3] + grow


def _preference(kind: str, dx: Array, dy: Array) -> Array:
    """How much a mark is disliked at (dx, dy) from the unit: the name below it, the city and
    the garrison beside it; nearer is better."""
    if kind == "label":
        return np.hypot(dx * 1.6, dy) + np.where(dy < 0, 4.0, 0.0)
    return np.hypot(dx, dy * 1.4)


def arrange(
    shape: shapely.Geometry, boxes: Mapping[str, Box], fixed: Mapping[str, XY], taken: Sequence[Box]
) -> tuple[dict[str, list[float]], list[str]]:
    """Points for a Machiavelli area's marks: each mark's box inside the area, clear of the others
    and of ``taken`` (coasts' places, straits' gates, crossings), the group as near the area's most interior
    point as it fits; and the marks that did not fit inside.

    The area is rasterised at PLACE_STEP and eroded by each box, which gives where that mark fits;
    candidate unit points are tried nearest the most interior point first, and round each the
    other marks go where :func:`_preference` likes them best.  ``fixed`` (the board's hand-placed
    points) overrides any of them.
    """
    parts = shape.geoms if isinstance(shape, MultiPolygon) else [shape]
    main = max(parts, key=lambda p: p.area)
    x0, y0, x1, y1 = shape.bounds
    xs = np.arange(math.floor(x0), math.ceil(x1) + PLACE_STEP, PLACE_STEP)
    ys = np.arange(math.floor(y0), math.ceil(y1) + PLACE_STEP, PLACE_STEP)
    gx, gy = np.meshgrid(xs, ys)
    inside = shapely.contains_xy(shape.buffer(-0.75), gx, gy)
    for left, top, right, bottom in taken:
        beside = (gx <= left - PLACE_GAP) | (gx >= right + PLACE_GAP)
        inside &= beside | (gy <= top - PLACE_GAP) | (gy >= bottom + PLACE_GAP)
    fits = {}
    for kind, (left, top, right, bottom) in boxes.items():
        assert left == -right and top == -bottom, f"{kind}'s box is not centred on its point"
        half_columns, half_rows = math.ceil(right / PLACE_STEP), math.ceil(bottom / PLACE_STEP)
        structure = np.ones((2 * half_rows + 1, 2 * half_columns + 1), dtype=bool)
        fits[kind] = ndimage.binary_erosion(inside, structure=structure, border_value=0)
    if "unit" in fixed:
        anchors = [fixed["unit"]]
    else:
        middle = polylabel(main, tolerance=0.5)
        rows, cols = np.nonzero(fits["unit"])
        nearest = np.argsort(np.hypot(xs[cols] - middle.x, ys[rows] - middle.y), kind="stable")[:PLACE_ANCHORS]
        anchors = [(float(xs[cols[i]]), float(ys[rows[i]])) for i in nearest] or [(middle.x, middle.y)]
    best: dict[str, tuple[float, float]] = {}
    others = [kind for kind in boxes if kind != "unit"]
    orders = [others, others[::-1], others[1:] + others[:1]]  # the name first, else the garrison or the city
    for anchor, order in itertools.product(anchors, orders):
        placed = {"unit": anchor, **{kind: fixed[kind] for kind in others if kind in fixed}}
        for kind in order:
            if kind in placed:
                continue
            spot = _best_spot(kind, boxes, placed, fits[kind], gx, gy)
            if spot is None:
                break
            placed[kind] = spot
        if len(placed) > len(best):
            best = placed
        if len(placed) == len(boxes):
            break
    outside = [kind for kind in boxes if kind not in best]
    for kind in outside:  # crowded: nearest its unit, clear of its area's other marks, wherever that is
        free = np.ones(gx.shape, dtype=bool)
        best[kind] = _best_spot(kind, boxes, best, free, gx, gy) or best["unit"]
    return {kind: [round(best[kind][0], 1), round(best[kind][1], 1)] for kind in boxes}, outside


def _best_spot(
    kind: str, boxes: Mapping[str, Box], placed: Mapping[str, XY], fits: NDArray[np.bool_], gx: Array, gy: Array
) -> tuple[float, float] | None:
    """The best-liked point for ``kind`` where it fits, within reach of the unit and clear of ``placed``."""
    ux, uy = placed["unit"]
    ok = fits & (np.hypot(gx - ux, gy - uy) <= PLACE_REACH)
    left, top, right, bottom = boxes[kind]
    for other, at in placed.items():
        ol, ot, orr, ob = _box_at(at, boxes[other], PLACE_GAP)
        ok &= (gx + right <= ol) | (gx + left >= orr) | (gy + bottom <= ot) | (gy + top >= ob)
    rows, cols = np.nonzero(ok)
    if not len(rows):
        return None
    px, py = gx[rows, cols], gy[rows, cols]
    dx, dy = px - ux, py - uy
    cost = _preference(kind, dx, dy)
    if kind == "garrison" and "city" in placed:
        cost = cost * 0.5 + np.hypot(px - placed["city"][0], py - placed["city"][1])
    i = int(np.argmin(cost))
    return float(px[i]), float(py[i])


# -- one board -------------------------------------------------------------------------------


_QUADRANT_STEPS = ((-0.25, -0.25), (0.25, -0.25), (0.25, 0.25), (-0.25, 0.25))  # NW, NE, SE, SW of a point


@dataclass(frozen=True)
class Game:
    """What the builder reads of a board's game data: each area's kind, the pairs of areas the
    game makes neighbours (army or fleet, coasts merged), the areas that show a marker (a
    Diplomacy supply center, a Machiavelli city), where the geometry goes, and for Machiavelli
    the marks each area makes room for and its controlled straits."""

    name: str  # the data file's name, for messages
    kinds: dict[str, str]
    edges: frozenset[tuple[str, str]]
    centers: frozenset[str]
    out_file: Path
    marks: dict[str, tuple[str, ...]] = field(default_factory=dict)  # Machiavelli: area -> its places, unit first
    single: frozenset[str] = frozenset()  # Machiavelli: the areas that hold one unit at a time (Venice)
    straits: dict[str, tuple[str | None, tuple[tuple[str, str], ...]]] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)  # Machiavelli: area -> what the map writes in it
    fleet_only: frozenset[tuple[str, str]] = frozenset()  # Machiavelli: the neighbours no army reaches

    @staticmethod
    def pair(a: str, b: str) -> tuple[str, str]:
        a, b = a.split("/")[0], b.split("/")[0]
        return min(a, b), max(a, b)

    @classmethod
    def read(cls, spec: BoardSpec) -> Game:
        if spec.game == "machiavelli":
            return cls.machiavelli(spec.board, spec.names)
        data = json.loads((MAPS / f"{spec.board}.json").read_text("utf-8"))
        return cls(
            name=f"{spec.board}.json",
            kinds={p["id"]: p["type"] for p in data["provinces"]},
            edges=frozenset(cls.pair(*edge.split()) for edge in (*data["army_edges"], *data["fleet_edges"])),
            centers=frozenset(p["id"] for p in data["provinces"] if p.get("center")),
            out_file=MAPS / f"{spec.board}_geometry.geojson",
        )

    @classmethod
    def machiavelli(cls, board: str, names: bool = False) -> Game:
        """A Machiavelli board file (the rules core's ``boards/<board>.json``): its areas' kinds,
        names (written in full on the map where ``names``, else their codes), army and fleet lists
        (a dual-coast province's per coast), cities (fortified or not, and the optional
        fortresses), single-unit areas and straits."""
        from judge.games.machiavelli.drawing import label_text

        path = MACHIAVELLI / "core" / "boards" / f"{board}.json"
        data = json.loads(path.read_text("utf-8"))
        edges: set[tuple[str, str]] = set()
        army_edges: set[tuple[str, str]] = set()
        marks: dict[str, tuple[str, ...]] = {}
        single = set(data.get("single_unit", ()))
        for code, area in data["areas"].items():
            fleet = area.get("fleet", [])
            targets = [*area.get("army", ()), *(t for ts in fleet.values() for t in ts)] if isinstance(
                fleet, dict) else [*area.get("army", ()), *fleet]
            edges |= {cls.pair(code, t) for t in targets}
            army_edges |= {cls.pair(code, t) for t in area.get("army", ())}
            city = area.get("city")
            fortified = city is not None and (city.startswith("F") or city.startswith("fortress"))
            # A single-unit area's garrison stands where its unit does (see mark_boxes).
            marks[code] = ("unit", "label", *(("city",) if city else ()),
                           *(("garrison",) if fortified and code not in single else ()))
        straits = {
            s["name"]: (s.get("controller"), tuple(cls.pair(*edge) for edge in s["edges"]))
            for s in data.get("straits", ())
        }
        return cls(
            name=str(path.relative_to(ROOT)),
            kinds={code: area["kind"] for code, area in data["areas"].items()},
            edges=frozenset(edges),
            centers=frozenset(code for code, area in data["areas"].items() if "city" in area),
            out_file=MACHIAVELLI / "maps" / f"{board}_geometry.geojson",
            marks=marks,
            single=frozenset(single),
            straits=straits,
            labels={code: label_text(code, area["name"], names) for code, area in data["areas"].items()},
            fleet_only=frozenset(edges - army_edges),
        )


class Builder:
    """One board's spec, its map data and its raster."""

    def __init__(self, spec: BoardSpec) -> None:
        self.spec = spec
        self.projection = Projection(spec)
        self.raster = Raster(self.projection)
        self.game = Game.read(spec)
        self.kinds = self.game.kinds
        # Seeded in the water: seas, and archipelagos (whose islands are seeded apart).
        self.water = {p for p, kind in self.kinds.items() if kind in ("sea", "archipelago") and p not in spec.boxes}
        self.impassable = {p for p, kind in self.kinds.items() if kind == "impassable"}
        self.out_file = self.game.out_file

    def point(self, lonlat: LonLat) -> tuple[float, float]:
        return self.projection.point(lonlat)

    def required_adjacency(self) -> set[tuple[str, str]]:
        return set(self.game.edges)

    def land_mask(self, xs: Array, ys: Array) -> NDArray[np.bool_]:
        lon, lat = self.projection.from_map(xs, ys)
        land: NDArray[np.bool_] = globe.is_land(np.clip(lat, -89.9, 89.9), ((lon + 180) % 360) - 180)
        for patch in self.spec.force_land:
            land |= self.raster.inside(self.projection.polygon(patch), xs, ys)
        for patch in self.spec.force_water:
            land &= ~self.raster.inside(self.projection.polygon(patch), xs, ys)
        for _, quadrants in self.junction_cells(xs, ys):
            for name, cells in quadrants.items():
                if name in self.water:
                    land &= ~cells
                else:
                    land |= cells
        return land

    def junction_point(self, lonlat: LonLat) -> tuple[float, float]:
        """A junction's point in map units, on a corner of the cells."""
        x, y = self.point(lonlat)
        return round(x * CELLS_PER_UNIT) / CELLS_PER_UNIT, round(y * CELLS_PER_UNIT) / CELLS_PER_UNIT

    def junction_cells(self, xs: Array, ys: Array) -> list[tuple[tuple[float, float], dict[str, NDArray[np.bool_]]]]:
        """Each junction's point and, per province round it, the cells of its quadrant of the square."""
        found = []
        for lonlat, names in [*self.spec.junctions, *self.spec.corners]:
            px, py = self.junction_point(lonlat)
            near = (abs(xs - px) < JUNCTION) & (abs(ys - py) < JUNCTION)
            west, north = xs < px, ys < py
            quadrants = (north & west, north & ~west, ~north & ~west, ~north & west)
            found.append(((px, py), {name: near & q for name, q in zip(names, quadrants, strict=True)}))
        return found

    def build_labels(self) -> tuple[NDArray[np.int32], NDArray[np.bool_], list[str]]:
        """The raster of province labels (index 0 is neutral land, then provinces by id) and the land."""
        spec, raster = self.spec, self.raster
        seeds = spec.seeds
        names = [NEUTRAL, *sorted({*seeds, *spec.boxes}), *([OPEN_SEA] if spec.open_sea else [])]
        index = {n: i for i, n in enumerate(names)}
        xs, ys = raster.cell_centres()
        sea_cells = {c for n in self.water for c in raster.seed_cells(seeds[n])}
        sea_cells |= set(raster.seed_cells(spec.open_sea))
        land_seeds = [(*c, index[n]) for n in seeds if n not in self.water for c in raster.seed_cells(seeds[n])]
        land_seeds += [(*c, index[n]) for n, points in spec.islands.items() for c in raster.seed_cells(points)]
        land = self.land_mask(xs, ys)
        tidy_mask(land, sea_cells, {(r, c) for r, c, _ in land_seeds}, spec.min_island, spec.wrap)
        labels = np.zeros(land.shape, dtype=np.int32)
        land_seeds += [(*c, 0) for c in raster.seed_cells(spec.neutral_seeds)]
        nearest_seed(land, land_seeds, labels, 0, spec.wrap)
        # Seeds go in the spec's order, which breaks ties between equidistant seeds the same way in
        # every run; every water piece has a seed (tidy_mask made the others land): no default is used.
        water_seeds = [(*c, index[n]) for n in seeds if n in self.water for c in raster.seed_cells(seeds[n])]
        water_seeds += [(*c, index.get(OPEN_SEA, 0)) for c in raster.seed_cells(spec.open_sea)]
        nearest_seed(~land, water_seeds, labels, 0, spec.wrap)
        for name, patches in spec.force_province.items():
            kind = ~land if name in self.water else land
            for patch in patches:
                labels[raster.inside(self.projection.polygon(patch), xs, ys) & kind] = index[name]
        for _, quadrants in self.junction_cells(xs, ys):
            for name, cells in quadrants.items():
                labels[cells] = index[name]
        reassign_fragments(labels, names, {n: raster.seed_cells(seeds[n]) for n in seeds}, self.water, spec.wrap)
        for name, (x0, y0, x1, y1) in spec.boxes.items():
            frame = box(x0 - BOX_FRAME, y0 - BOX_FRAME, x1 + BOX_FRAME, y1 + BOX_FRAME)
            labels[raster.inside(frame, xs, ys)] = 0
            labels[raster.inside(box(x0, y0, x1, y1), xs, ys)] = index[name]
        return labels, land, names

    def links(self) -> list[tuple[str, str]]:
        """The pairs the game makes with an off-board box, each once, sorted."""
        return sorted(pair for pair in self.required_adjacency() if set(pair) & set(self.spec.boxes))

    def adjacency_report(self, labels: NDArray[np.int32], names: list[str], land: NDArray[np.bool_]) -> list[str]:
        """Differences between the drawing's adjacencies and the game's, one line each."""
        found = raster_adjacency(labels, self.spec.wrap)
        outside = {0, names.index(OPEN_SEA) if OPEN_SEA in names else 0}
        drawn = {(names[a], names[b]): n for (a, b), n in found.items() if not outside & {a, b}}
        drawn = {(min(p), max(p)): n for p, n in drawn.items()}
        required = self.required_adjacency()
        crossings = {(min(p), max(p)) for p in self.spec.straits} | set(self.links())
        diagonals: set[tuple[str, str]] = set()  # the diagonals of junctions: they meet at a point
        index = {n: i for i, n in enumerate(names)}
        problems = []
        for lonlat, quadrants in [*self.spec.junctions, *self.spec.corners]:
            px, py = self.junction_point(lonlat)
            found_round = [names[labels[self.raster.cell_of(px + dx, py + dy)]] for dx, dy in _QUADRANT_STEPS]
            if found_round != list(quadrants):
                problems.append(f"junction at {lonlat} has {', '.join(found_round)} round it")
        for lonlat, (a, b, c, d) in self.spec.junctions:
            for pair in ((min(a, c), max(a, c)), (min(b, d), max(b, d))):
                if pair[0] != pair[1] and pair not in required:
                    problems.append(f"junction at {lonlat}: {pair[0]}-{pair[1]} is no edge of the board")
            diagonals |= {(min(a, c), max(a, c)), (min(b, d), max(b, d))}
        for lonlat, (a, b, c, d) in self.spec.corners:
            for pair in ((min(a, c), max(a, c)), (min(b, d), max(b, d))):
                if pair in required:
                    problems.append(f"corner at {lonlat}: {pair[0]}-{pair[1]} is an edge of the board (a junction)")
        for name in sorted(set(self.kinds) - set(self.spec.seeds) - set(self.spec.boxes)):
            problems.append(f"unseeded {name}")
        for pair in sorted(required - crossings - diagonals):
            n = drawn.get(pair, 0)
            if n < MIN_BORDER:
                problems.append(f"missing  {pair[0]}-{pair[1]} (touching along {n} cells)")
        for pair, n in sorted(drawn.items()):
            if (pair not in required or pair in crossings) and not self.impassable & set(pair):
                problems.append(f"extra    {pair[0]}-{pair[1]} (touching along {n} cells)")
        for (a, b), ends in sorted(self.spec.straits.items()):
            if (min(a, b), max(a, b)) not in required:
                problems.append(f"crossing {a}-{b} is no edge of the board")
            for name, end in zip((a, b), ends, strict=True):
                if labels[self.raster.cell_of(*self.point(end))] != index[name]:
                    problems.append(f"crossing {a}-{b}: its end {end} is not in {name}")
            if math.dist(self.point(ends[0]), self.point(ends[1])) > MAX_CROSSING:
                problems.append(f"crossing {a}-{b} is longer than {MAX_CROSSING} units")
        for name in sorted(set(self.spec.gates) ^ set(self.game.straits)):
            problems.append(f"gate     {name}: " + ("no such strait" if name in self.spec.gates else "not drawn"))
        for name, ends in sorted(self.spec.gates.items()):
            for end in ends:
                held = self.around(labels, end)
                if len(held) != 1 or not land[self.raster.cell_of(*self.point(end))]:
                    problems.append(f"gate     {name}: its end {end} is not on the land of one area, "
                                    f"{END_MARGIN} units inside")
            if math.dist(self.point(ends[0]), self.point(ends[1])) > MAX_CROSSING:
                problems.append(f"gate     {name} is longer than {MAX_CROSSING} units")
        for a, b in self.links():
            if {a, b} <= set(self.spec.boxes):
                continue  # boxes linked round the world: their box names each other
            gap = self.gap(labels, names.index(a), names.index(b))
            if gap > MAX_LINK:
                problems.append(f"link     {a}-{b}: {gap:.0f} units apart (at most {MAX_LINK:.0f})")
        for i, name in enumerate(names[1:], start=1):
            if name == OPEN_SEA:
                continue
            pieces = connected(labels == i, self.spec.wrap)[1]
            if name in self.spec.in_pieces:
                seeded = {int(v) for v in (connected(labels == i, self.spec.wrap)[0][c] for c in
                          self.raster.seed_cells(self.spec.seeds[name])) if v}
                if len(seeded) != pieces:
                    problems.append(f"pieces   {name} has {pieces - len(seeded)} pieces without a seed")
            elif pieces != 1:
                problems.append(f"pieces   {name} is drawn in {pieces} pieces")
        return problems

    def around(self, labels: NDArray[np.int32], end: LonLat) -> set[int]:
        """The labels at a line's end and END_MARGIN units round it (one, where the end lies well
        inside an area: the coasts' simplification will not move it out)."""
        x, y = self.point(end)
        steps = ((0, 0), (-END_MARGIN, 0), (END_MARGIN, 0), (0, -END_MARGIN), (0, END_MARGIN))
        return {int(labels[self.raster.cell_of(x + dx, y + dy)]) for dx, dy in steps}

    @staticmethod
    def link_line(a: shapely.Geometry, b: shapely.Geometry) -> list[list[float]]:
        """A link's line: the shortest from ``a`` to ``b`` once both are shrunk by LINK_REACH, so
        that each end lies inside its area, clear of the border."""
        ends = nearest_points(a.buffer(-LINK_REACH), b.buffer(-LINK_REACH))
        return [[round(v, 1) for v in end.coords[0]] for end in ends]

    @staticmethod
    def gap(labels: NDArray[np.int32], a: int, b: int) -> float:
        """The least distance in map units between the cells of labels ``a`` and ``b`` (inf if one is empty)."""
        cells_a, cells_b = np.argwhere(labels == a), np.argwhere(labels == b)
        if not len(cells_a) or not len(cells_b):
            return math.inf
        distance, _ = cKDTree(cells_b.astype(float)).query(cells_a.astype(float))
        return float(distance.min()) / CELLS_PER_UNIT

    def preview(self, labels: NDArray[np.int32], land: NDArray[np.bool_], names: list[str], path: Path) -> None:
        """A picture of the raster for tuning seeds: each province a colour, named at its seeds' middle,
        each seed a dot, each junction and corner a red cross."""
        from PIL import Image, ImageDraw  # cairosvg's dependency; only this preview uses it

        rng = np.random.default_rng(7)
        colours = rng.integers(90, 230, size=(len(names), 3)).astype(np.uint8)
        colours[0] = (200, 200, 200)
        for i, name in enumerate(names):
            if name in self.water:
                colours[i] = (colours[i] // 3) + np.array([60, 100, 170], dtype=np.uint8)
        size = (int(self.projection.width * 1.6), int(self.projection.height * 1.6))
        image = Image.fromarray(colours[labels]).resize(size)
        draw = ImageDraw.Draw(image)
        factor = 1.6 / CELLS_PER_UNIT
        for name in names[1:]:
            rows, cols = np.nonzero(labels == names.index(name))
            if len(rows):
                draw.text((cols.mean() * factor - 8, rows.mean() * factor - 5), name, fill=(0, 0, 0))
            for p in self.spec.seeds.get(name, []):
                r, c = self.raster.cell_of(*self.point(p))
                draw.point((c * factor, r * factor), fill=(0, 0, 0))
        for lonlat, _ in [*self.spec.junctions, *self.spec.corners]:  # a red cross on each
            x, y = (v * CELLS_PER_UNIT * factor for v in self.junction_point(lonlat))
            draw.line((x - 4, y - 4, x + 4, y + 4), fill=(200, 0, 0))
            draw.line((x - 4, y + 4, x + 4, y - 4), fill=(200, 0, 0))
        image.save(path)

    def islands(
        self, labels: NDArray[np.int32], land: NDArray[np.bool_], names: list[str]
    ) -> dict[str, shapely.Geometry]:
        """Each archipelago's islands, simplified, in map units."""
        found = {}
        for name in self.spec.islands:
            cells = np.where(land & (labels == names.index(name)), 1, 0).astype(np.int32)
            shape = vectorise(cells, 2)[1].simplify(SIMPLIFY * CELLS_PER_UNIT / 2)
            found[name] = affinity.scale(shape, 1 / CELLS_PER_UNIT, 1 / CELLS_PER_UNIT, origin=(0, 0))
        return found

    def line_boxes(self) -> dict[str, Box]:
        """What each controlled strait's gate and each crossing covers: its line's bounds and half its width."""
        lines = {f"gate {name}": ends for name, ends in self.spec.gates.items()}
        lines |= {f"crossing {a}-{b}": ends for (a, b), ends in self.spec.straits.items()}
        found = {}
        for name, ends in lines.items():
            (ax, ay), (bx, by) = (self.point(p) for p in ends)
            found[name] = (min(ax, bx) - 3.0, min(ay, by) - 3.0, max(ax, bx) + 3.0, max(ay, by) + 3.0)
        return found

    def places(self, simple: list[shapely.Geometry], names: list[str]) -> dict[str, dict[str, object]]:
        """Each Machiavelli area's places (:func:`arrange`) and coasts' places; prints the marks
        that fell outside their area or over another area's."""
        from judge.games.machiavelli.drawing import UNIT_BOX

        lines = self.line_boxes()
        found: dict[str, dict[str, object]] = {}
        every: list[tuple[str, str, Box]] = [(name, "line", box) for name, box in lines.items()]
        for name, marks in sorted(self.game.marks.items()):
            coasts = {key.split("/")[1]: self.point(p) for key, p in self.spec.coast_points.items()
                      if key.startswith(name + "/")}
            fixed = {kind: self.point(p) for (n, kind), p in self.spec.places.items() if n == name}
            taken = [*lines.values(), *(_box_at(p, UNIT_BOX) for p in coasts.values())]
            single = name in self.game.single
            boxes = mark_boxes(self.game.labels[name], self.spec.names, marks, single)
            points, outside = arrange(simple[names.index(name)], boxes, fixed, taken)
            if outside:
                print(f"crowded  {name}: {', '.join(outside)} outside the area")
            found[name] = dict(points)
            if single and "city" in marks:  # one unit at a time: a garrison stands at the unit's place
                found[name]["garrison"] = points["unit"]
            if coasts:
                found[name]["coasts"] = {c: [round(v, 1) for v in p] for c, p in coasts.items()}
            every += [(name, kind, _box_at((points[kind][0], points[kind][1]), boxes[kind])) for kind in boxes]
            every += [(name, f"coast {c}", _box_at(p, UNIT_BOX)) for c, p in coasts.items()]
        for (a, kind_a, box_a), (b, kind_b, box_b) in itertools.combinations(every, 2):
            if box_a[0] < box_b[2] and box_b[0] < box_a[2] and box_a[1] < box_b[3] and box_b[1] < box_a[3]:
                print(f"overlap  {a} {kind_a} and {b} {kind_b}")
        return found

    def build(self, check_only: bool, preview: Path | None = None) -> int:
        labels, land, names = self.build_labels()
        if preview:
            self.preview(labels, land, names, preview)
        problems = self.adjacency_report(labels, names, land)
        for line in problems:
            print(line)
        if problems:
            print(f"{len(problems)} differences from {self.game.name}", file=sys.stderr)
            return 1
        if check_only:
            return 0
        shapes = vectorise(labels, len(names))
        simple = shapely.coverage_simplify(shapes, SIMPLIFY * CELLS_PER_UNIT, simplify_boundary=False)
        simple = [affinity.scale(g, 1 / CELLS_PER_UNIT, 1 / CELLS_PER_UNIT, origin=(0, 0)) for g in simple]
        islands = {
            name: shape.intersection(simple[names.index(name)])
            for name, shape in self.islands(labels, land, names).items()
        }
        centers = self.game.centers
        places = self.places(simple, names) if self.game.marks else {}
        features: list[dict[str, object]] = []
        for index, name in enumerate(names):
            properties: dict[str, object] = {"kind": self.kinds.get(name, name)}
            if name in places:
                properties.update(places[name])
            elif name in self.kinds:
                fixed = {kind: Point(self.point(p)) for (n, kind), p in self.spec.places.items() if n == name}
                if name in self.spec.boxes:  # the unit at the left, the name at the top right
                    x0, y0, x1, y1 = self.spec.boxes[name]
                    fixed = {"unit": Point(x0 + 14, (y0 + y1) / 2), "label": Point((x0 + 28 + x1) / 2, y0 + 9)}
                properties.update(layout(simple[index], name in centers, fixed, islands.get(name)))
                coasts = {
                    key.split("/")[1]: [round(v, 1) for v in self.point(p)]
                    for key, p in self.spec.coast_points.items()
                    if key.startswith(name + "/")
                }
                if coasts:
                    properties["coasts"] = coasts
                if name in islands:
                    properties["islands"] = rings(islands[name])
            geometry = {"type": "MultiPolygon", "coordinates": rings(simple[index])}
            features.append({"type": "Feature", "id": name, "properties": properties, "geometry": geometry})
        data: dict[str, object] = {
            "type": "FeatureCollection",
            "about": f"{self.spec.title}, drawn by tools/build_map_geometry.py from the GLOBE land mask and seed "
            "points at real places. Coordinates are map units (x right, y down), not degrees.",
            "width": self.projection.width,
            "height": self.projection.height,
        }
        if self.spec.wrap:
            data["wrap"] = True
        if self.spec.names:
            data["names"] = True
        if self.spec.straits:
            data["straits"] = [
                {"provinces": [a, b], "line": [[round(v, 1) for v in self.point(p)] for p in ends],
                 **({"fleet": True} if (min(a, b), max(a, b)) in self.game.fleet_only else {})}
                for (a, b), ends in sorted(self.spec.straits.items())
            ]
        boxes = set(self.spec.boxes)
        if boxes:
            data["boxes"] = {
                name: sorted(b if a == name else a for a, b in self.links() if name in (a, b) and {a, b} <= boxes)
                for name in sorted(boxes)
            }
            data["links"] = [
                {"provinces": [a, b], "line": self.link_line(simple[names.index(a)], simple[names.index(b)])}
                for a, b in self.links()
                if {a, b} - boxes
            ]
        if self.spec.gates:
            data["gates"] = [
                {"name": name, "controller": self.game.straits[name][0],
                 "provinces": [list(pair) for pair in self.game.straits[name][1]],
                 "line": [[round(v, 1) for v in self.point(p)] for p in ends]}
                for name, ends in sorted(self.spec.gates.items())
            ]
        if self.spec.junctions:
            data["junctions"] = [
                {"provinces": list(names_round), "point": [round(v, 1) for v in self.junction_point(p)]}
                for p, names_round in self.spec.junctions
            ]
        data["features"] = features
        text = json.dumps(data, separators=(",", ":"))
        self.out_file.write_text(text.replace(',{"type":"Feature"', ',\n{"type":"Feature"') + "\n", "utf-8")
        print(f"wrote {self.out_file.relative_to(ROOT)} ({len(text) // 1024} KiB)")
        return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("boards", nargs="*", metavar="BOARD", help=f"{', '.join(BOARDS)} (default: all)")
    parser.add_argument("--check", action="store_true", help="only compare the adjacencies with the map data")
    parser.add_argument("--preview", type=Path, help="write a PNG of the province raster (one board)")
    args = parser.parse_args(argv)
    unknown = set(args.boards) - set(BOARDS)
    if unknown:
        parser.error(f"no such board: {', '.join(sorted(unknown))}")
    status = 0
    for board in args.boards or BOARDS:
        status |= Builder(load(board)).build(args.check, args.preview)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
