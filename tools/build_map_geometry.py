"""Build ``judge/engine/maps/standard_geometry.json``: the standard board drawn as polygons.

Theory.  The board is made from facts, not copied from anyone's artwork:

1. Projection.  Longitude/latitude go through a Lambert conformal conic projection (standard
   parallels 40°N and 62°N, centred on 15°E 50°N), then through a radial "magnifier" around
   central Europe (the board, like the classic one, gives the crowded middle more room than
   Russia or Africa), then are scaled to map units (1000 wide, y pointing down).
2. Land and sea.  Every raster cell of the map is land or sea according to the GLOBE 1 km
   land mask shipped by ``global-land-mask``.  A few hand-drawn patches then close what the
   game closes (the Bosporus, the Dardanelles and the Danish straits: Constantinople and
   Denmark-Sweden are land bridges) and open what it opens (the straits of Gibraltar and
   Messina).  Islands too small to draw are sunk; water that no sea province claims (the Sea
   of Marmara, lakes) becomes land.
3. Provinces.  Each province has seed points at real places (its cities, coasts, regions).
   Each cell takes the province of the nearest seed of its kind (land seeds for land, sea
   seeds for sea) in the same connected piece of land or water: a Voronoi diagram clipped
   by the coastline.  Land with no seed (Ireland, Sicily, Corsica, Libya, ...) is neutral.
   Hand-drawn patches force a province where the game differs from the nearest-seed rule
   (Switzerland's outline), and stray fragments are given to the neighbour they touch most.
4. Checking.  Cells that touch give the drawing's adjacencies; they must equal the union of
   ``army_edges`` and ``fleet_edges`` of ``standard.json`` (Switzerland, impassable, borders
   whoever it borders).  The build stops with a list of differences otherwise.
5. Polygons.  Each province's cells are merged into polygons and the whole coverage is
   simplified at once (``shapely.coverage_simplify``), which keeps shared borders shared.
   Label, unit and supply-center points are the most interior points of each area
   (``polylabel``), with hand overrides where the automatic choice reads badly.

The result is plain data: the judge draws it without any geographic package.  Run with the
``tools`` extra installed::

    python tools/build_map_geometry.py            # writes the JSON beside standard.json
    python tools/build_map_geometry.py --check    # only reports the adjacency differences
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
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
from shapely.ops import polylabel

ROOT = Path(__file__).resolve().parent.parent
MAP_FILE = ROOT / "judge" / "engine" / "maps" / "standard.json"
OUT_FILE = ROOT / "judge" / "engine" / "maps" / "standard_geometry.geojson"

LonLat = tuple[float, float]

# -- projection ----------------------------------------------------------------------------

LON0, LAT0, PAR1, PAR2 = 15.0, 50.0, 40.0, 62.0
MAGNIFIER_CENTRE: LonLat = (8.0, 49.0)
MAGNIFIER_GAIN = 0.3  # scale at the centre relative to the rim, minus one
MAGNIFIER_RADIUS = 0.75  # radians of the conic projection: where the scale is back to 1
EXTENT = (-0.43, -0.36, 0.42, 0.43)  # x0, y0, x1, y1 after the magnifier (y up)
WIDTH = 1000.0  # map units across
CELLS_PER_UNIT = 2  # raster resolution
SIMPLIFY = 1.5  # map units: tolerance of the coverage simplification
MIN_ISLAND = 200  # cells: smaller islands are sunk


def _lcc_constants() -> tuple[float, float, float]:
    f1, f2, f0 = (math.radians(v) for v in (PAR1, PAR2, LAT0))
    n = math.log(math.cos(f1) / math.cos(f2)) / math.log(
        math.tan(math.pi / 4 + f2 / 2) / math.tan(math.pi / 4 + f1 / 2)
    )
    big_f = math.cos(f1) * math.tan(math.pi / 4 + f1 / 2) ** n / n
    rho0 = big_f / math.tan(math.pi / 4 + f0 / 2) ** n
    return n, big_f, rho0


_N, _F, _RHO0 = _lcc_constants()


def lcc(lon: NDArray[np.float64], lat: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Lambert conformal conic: degrees to radians-sized plane coordinates (y up)."""
    theta = _N * np.radians(lon - LON0)
    rho = _F / np.tan(np.pi / 4 + np.radians(lat) / 2) ** _N
    return rho * np.sin(theta), _RHO0 - rho * np.cos(theta)


def lcc_inverse(x: NDArray[np.float64], y: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    rho = np.sqrt(x**2 + (_RHO0 - y) ** 2)
    theta = np.arctan2(x, _RHO0 - y)
    lon = LON0 + np.degrees(theta / _N)
    lat = np.degrees(2 * np.arctan((_F / rho) ** (1 / _N)) - np.pi / 2)
    return lon, lat


_CX, _CY = (float(v) for v in lcc(np.array(MAGNIFIER_CENTRE[0]), np.array(MAGNIFIER_CENTRE[1])))


def magnify(x: NDArray[np.float64], y: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Radial magnifier: r -> R g(r/R) with g(t) = t (1 + k) / (1 + k t), the identity far away."""
    dx, dy = x - _CX, y - _CY
    r = np.hypot(dx, dy)
    t = r / MAGNIFIER_RADIUS
    factor = (1 + MAGNIFIER_GAIN) / (1 + MAGNIFIER_GAIN * t)
    return _CX + dx * factor, _CY + dy * factor


def magnify_inverse(x: NDArray[np.float64], y: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    dx, dy = x - _CX, y - _CY
    u = np.hypot(dx, dy) / MAGNIFIER_RADIUS
    # u = t (1 + k) / (1 + k t)  <=>  t = u / (1 + k - k u)
    factor = 1 / (1 + MAGNIFIER_GAIN - MAGNIFIER_GAIN * u)
    return _CX + dx * factor, _CY + dy * factor


SCALE = WIDTH / (EXTENT[2] - EXTENT[0])
HEIGHT = round((EXTENT[3] - EXTENT[1]) * SCALE)


def to_map(
    lon: Iterable[float] | float, lat: Iterable[float] | float
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Degrees to map units (x right, y down)."""
    x, y = magnify(*lcc(np.asarray(lon, dtype=float), np.asarray(lat, dtype=float)))
    return (x - EXTENT[0]) * SCALE, (EXTENT[3] - y) * SCALE


def from_map(x: NDArray[np.float64], y: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    return lcc_inverse(*magnify_inverse(x / SCALE + EXTENT[0], EXTENT[3] - y / SCALE))


def point(lonlat: LonLat) -> tuple[float, float]:
    x, y = to_map(lonlat[0], lonlat[1])
    return float(x), float(y)


def polygon(lonlats: Sequence[LonLat]) -> Polygon:
    """A polygon given in degrees, in map units."""
    return Polygon([point(p) for p in lonlats])


# -- the board's facts ---------------------------------------------------------------------

SEEDS: dict[str, list[LonLat]] = {
    # seas
    "NAO": [(-20, 56), (-14, 56), (-15, 50), (-22, 62), (-11, 59), (-9, 56.8), (-16, 47), (-5.6, 55.4), (-6.5, 55.8)],
    "NWG": [
        (0, 65),
        (-4, 68),
        (6, 68),
        (12, 71),
        (-1, 61.8),
        (3, 62.5),
        (-6, 63),
        (-4.5, 59.3),
        (-1.5, 60.2),
        (-3.0, 59.0),
    ],
    "BAR": [(35, 72), (28, 72.5), (42, 70), (38, 66), (50, 70), (33, 70)],
    "NTH": [
        (3, 56),
        (2, 53.5),
        (4, 58),
        (1.5, 58.5),
        (3.5, 54),
        (6.5, 57.5),
        (-1.5, 57.2),
        (3.0, 51.8),
        (2.5, 52.3),
        (7.0, 56.5),
    ],
    "ENG": [(-2, 50), (-4.5, 49.6), (0.5, 50.4), (1.6, 51.0), (-5.7, 49.4), (-3.5, 50.3)],
    "IRI": [(-5, 53.5), (-6, 52), (-8, 51), (-6.5, 50.6), (-4.8, 54.3), (-10, 50.8)],
    "MAO": [
        (-12, 45),
        (-12, 40),
        (-12, 35),
        (-6, 46),
        (-3, 44.3),
        (-8, 35.5),
        (-5.5, 35.95),
        (-15, 31),
        (-9, 42.5),
        (-8.5, 44.5),
        (-4.5, 36.1),
    ],
    "WES": [(2, 38.5), (5, 38), (0, 37.5), (-2, 36.2), (7.5, 38), (1, 39.5), (5, 37), (8.2, 37.6)],
    "LYO": [(4.5, 42.5), (6.5, 42.8), (3.5, 41.5), (8.5, 43.8), (2.6, 41.0), (1.8, 40.6), (8.8, 43.2)],
    "TYS": [(12, 40), (11, 39), (13, 39.5), (10.3, 42.2), (11, 38.3), (14.8, 39), (12.2, 38.4)],
    "ION": [
        (18, 37),
        (16, 35),
        (20, 36),
        (19.2, 39.2),
        (14.5, 35.5),
        (13, 33.5),
        (20.8, 38.0),
        (22.3, 36.2),
        (17, 38.5),
        (11.8, 34.8),
    ],
    "ADR": [(15, 43), (13.5, 44.5), (17, 42), (18.4, 41.5), (12.8, 45.3)],
    "AEG": [(25, 39), (25, 37.5), (24, 38.5), (25.5, 36.3), (23.6, 39.8), (24.7, 40.5), (26.3, 38.3)],
    "EAS": [(30, 34), (33, 34.5), (26.5, 34.5), (35, 35.3), (28.5, 35.6), (31, 36)],
    "BLA": [
        (34, 43.2),
        (31, 43.5),
        (37, 42.7),
        (29.8, 42.5),
        (39.5, 42.5),
        (32, 42),
        (31.5, 45.5),
        (35, 44.2),
        (36.6, 45.8),
    ],
    "BAL": [(18, 55.5), (15, 55), (19.6, 57.5), (13, 54.6), (17, 56.5), (23.3, 57.6), (20, 55)],
    "BOT": [(20, 62), (21.5, 64), (23.5, 65.2), (19.6, 60.6), (24.5, 59.9), (27, 60.1), (22.2, 59.5), (29.3, 60)],
    "SKA": [(9.5, 58), (11.2, 57.6), (11.4, 56.8), (12.3, 56.4), (7.8, 57.8)],
    "HEL": [(7.8, 54.2), (7.9, 54.9), (6.5, 54.0), (8.4, 54.5)],
    # land
    "CLY": [(-5.4, 57.0), (-5.0, 56.2), (-4.4, 55.85), (-5.0, 58.1)],
    "EDI": [
        (-3.2, 56.0),
        (-3.3, 57.3),
        (-2.4, 57.1),
        (-3.5, 58.4),
        (-2.6, 55.6),
        (-3.6, 56.5),
        (-4.0, 57.6),
        (-3.9, 56.1),
        (-4.4, 57.9),
    ],
    "LVP": [(-2.98, 53.4), (-2.9, 54.5), (-4.1, 55.0), (-2.4, 53.6), (-3.4, 54.2), (-4.5, 55.3)],
    "YOR": [(-1.08, 53.96), (-1.6, 54.8), (-1.1, 53.1), (-0.2, 53.5)],
    "WAL": [(-3.8, 52.3), (-4.2, 51.8), (-2.0, 52.5), (-3.3, 53.0), (-4.7, 50.4), (-3.6, 50.7), (-2.7, 51.3)],
    "LON": [(-0.12, 51.5), (0.8, 52.3), (1.0, 51.3), (-1.3, 51.3), (-1.3, 50.9)],
    "BRE": [(-4.5, 48.4), (-3.0, 48.0), (-1.3, 48.5), (-0.3, 49.1), (-1.7, 47.4)],
    "PIC": [(2.3, 49.9), (1.2, 49.6), (3.2, 50.3)],
    "PAR": [(2.35, 48.85), (1.5, 47.8), (3.2, 48.2), (0.9, 48.5)],
    "GAS": [(-0.6, 44.8), (0.6, 44.0), (1.2, 45.6), (-0.7, 43.5)],
    "MAR": [(5.4, 43.4), (4.1, 43.9), (2.8, 43.1), (5.7, 44.8), (6.6, 43.7), (6.1, 45.6)],
    "BUR": [(4.8, 47.3), (5.6, 48.6), (4.6, 46.2), (3.2, 46.4), (7.3, 48.3), (2.8, 45.6)],
    "BEL": [(4.35, 50.85), (5.5, 50.3), (3.5, 51.1), (4.5, 51.4)],
    "HOL": [(4.9, 52.4), (6.1, 52.5), (6.6, 53.2), (5.6, 53.0)],
    "RUH": [(7.0, 51.4), (7.6, 50.3), (6.9, 50.2), (8.0, 51.6)],
    "KIE": [(10.1, 54.3), (9.7, 53.55), (8.8, 53.1), (9.7, 52.4), (9.5, 51.4), (9.3, 54.7), (10.8, 53.9)],
    "DEN": [(12.57, 55.68), (9.5, 56.2), (10.0, 55.3), (11.5, 55.4), (9.3, 57.1), (12.0, 55.0)],
    "BER": [(13.4, 52.5), (12.2, 53.5), (11.8, 52.2), (14.5, 53.3), (13.8, 51.9), (15.5, 53.8)],
    "PRU": [(20.5, 54.7), (18.6, 54.35), (17.3, 54.2), (21.5, 53.9), (19.5, 53.6), (22.5, 54.7)],
    "SIL": [(17.0, 51.1), (15.3, 51.5), (18.5, 50.4), (16.3, 52.2), (18.0, 52.2)],
    "MUN": [(11.6, 48.1), (9.2, 48.8), (10.8, 50.5), (12.5, 51.2), (8.3, 48.0), (10.4, 49.4), (13.6, 50.9)],
    "BOH": [(14.4, 50.1), (16.6, 49.2), (13.3, 49.7), (15.6, 49.8), (18.0, 49.7), (13.3, 48.6)],
    "TYR": [(11.4, 47.3), (11.1, 46.1), (12.4, 46.6), (10.2, 46.9), (12.8, 47.6), (13.8, 46.8)],
    "VIE": [(16.4, 48.2), (15.0, 48.4), (15.4, 47.1), (16.5, 47.5), (18.5, 48.8), (17.6, 48.4)],
    "BUD": [(19.0, 47.5), (21.6, 47.5), (20.5, 46.3), (23.6, 46.8), (18.0, 46.5), (24.5, 47.4), (20.0, 48.0)],
    "GAL": [(24.0, 49.8), (20.0, 50.0), (25.9, 48.3), (22.0, 49.5), (26.5, 49.5), (24.2, 48.4)],
    "TRI": [
        (13.8, 45.65),
        (14.5, 46.0),
        (16.0, 45.8),
        (18.4, 43.85),
        (16.4, 43.5),
        (19.25, 42.45),
        (15.2, 44.6),
        (17.5, 44.8),
    ],
    "SER": [(20.5, 44.8), (21.4, 42.0), (21.9, 43.3), (20.9, 43.6), (20.5, 42.7)],
    "ALB": [(19.8, 41.3), (20.0, 40.2), (19.9, 42.0)],
    "GRE": [(23.7, 38.0), (22.9, 40.6), (22.1, 37.5), (21.8, 39.4), (24.2, 41.0), (21.3, 40.3)],
    "BUL": [(23.3, 42.7), (27.5, 42.5), (25.4, 41.2), (25.6, 43.1), (27.2, 43.3), (24.5, 42.0)],
    "RUM": [(26.1, 44.4), (27.6, 47.2), (28.6, 44.3), (24.0, 44.7), (28.3, 45.6), (28.6, 46.6), (23.0, 44.4)],
    "CON": [(28.97, 41.0), (27.0, 41.5), (29.4, 40.3), (27.3, 40.4)],
    "ANK": [(32.85, 39.93), (35.5, 41.3), (33.7, 41.7), (30.5, 41.0), (31.8, 40.6)],
    "SMY": [(27.14, 38.42), (30.7, 36.9), (32.5, 37.9), (29.5, 39.0), (34.8, 37.7), (28.3, 37.3), (35.2, 38.8)],
    "ARM": [(41.3, 39.9), (44.5, 40.2), (39.7, 40.9), (38.5, 39.5), (43.0, 38.5), (42.4, 41.2), (46, 39.5)],
    "SYR": [(36.3, 33.5), (37.2, 36.2), (36.1, 36.4), (40.0, 35.0), (43, 36), (38.5, 34)],
    "SEV": [
        (33.5, 44.6),
        (34.2, 45.3),
        (30.7, 46.6),
        (37.5, 47.2),
        (39.7, 47.2),
        (38.5, 45.5),
        (42.0, 45.0),
        (40.0, 43.8),
        (45.0, 46.5),
        (35.0, 47.1),
        (32.6, 46.7),
        (42.5, 42.3),
        (47, 44),
        (44.5, 42.6),
    ],
    "UKR": [(30.5, 50.45), (36.2, 50.0), (28.0, 49.2), (33.5, 49.0), (30.0, 48.3), (39.5, 49.0), (26.8, 50.9)],
    "WAR": [(21.0, 52.2), (19.5, 51.8), (23.5, 52.0), (22.5, 50.8), (25.3, 52.2)],
    "LVN": [(24.1, 56.95), (25.5, 58.5), (27.0, 56.5), (23.0, 55.5), (25.5, 54.8), (27.6, 58.8), (22.4, 57.3)],
    "MOS": [
        (37.6, 55.75),
        (33.0, 55.0),
        (40.0, 58.5),
        (45.0, 55.0),
        (30.0, 53.5),
        (42, 52),
        (31.5, 57),
        (48, 58),
        (47, 51),
        (36, 53),
        (44, 61),
        (28.3, 53.9),
    ],
    "STP": [
        (30.3, 59.9),
        (33.0, 63.5),
        (35.0, 67.8),
        (40.5, 64.5),
        (45.0, 65.5),
        (31.0, 66.5),
        (32, 69.1),
        (29.5, 61.8),
        (28.5, 68.5),
        (36.5, 61),
        (50, 66),
        (52, 63),
    ],
    "FIN": [
        (25.0, 61.5),
        (26.5, 64.0),
        (25.5, 67.0),
        (22.5, 61.2),
        (28.5, 62.5),
        (24.8, 60.3),
        (29.2, 64.5),
        (23.8, 68.3),
        (27.5, 66.2),
    ],
    "NWY": [
        (10.7, 59.9),
        (5.8, 60.4),
        (10.4, 63.4),
        (14.5, 67.0),
        (19.0, 69.6),
        (24.5, 70.4),
        (28.8, 70.0),
        (8.0, 58.5),
        (7.5, 62.2),
        (12.5, 65),
        (17, 68.6),
        (9.2, 61.5),
        (22, 70),
        (26.5, 69.5),
    ],
    "SWE": [
        (18.1, 59.3),
        (13.2, 55.8),
        (14.2, 58.0),
        (15.5, 62.0),
        (18.5, 64.5),
        (21.0, 66.8),
        (12.0, 58.0),
        (16.0, 56.8),
        (13, 60),
        (17, 61),
        (14.5, 64),
        (18.5, 67),
        (22.5, 66.3),
    ],
    "POR": [(-8.6, 41.1), (-8.1, 39.5), (-8.0, 37.5), (-8.0, 40.3)],
    "SPA": [
        (-3.7, 40.4),
        (-6.0, 37.4),
        (-0.4, 39.5),
        (2.0, 41.6),
        (-5.8, 43.2),
        (-1.9, 43.0),
        (-2, 37.5),
        (-4.5, 42),
        (0.6, 41.5),
        (-7.5, 42.6),
    ],
    "NAF": [
        (-7.6, 33.6),
        (-1.0, 35.0),
        (3.0, 36.5),
        (5.0, 34.0),
        (-5.5, 35.3),
        (6.5, 36.2),
        (-3.0, 32.0),
        (1.0, 32.5),
        (-9.5, 30.5),
        (6, 30.5),
    ],
    "TUN": [(10.2, 36.8), (10.0, 34.0), (9.0, 33.0), (10.7, 35.6), (9.2, 36.6), (9, 31), (11, 32.6)],
    "NAP": [(14.25, 40.85), (16.1, 39.3), (15.7, 40.4), (16.4, 38.5), (15.0, 41.2)],
    "APU": [(16.9, 41.1), (18.0, 40.3), (15.6, 41.6), (14.8, 41.9), (17.3, 40.6)],
    "ROM": [(12.5, 41.9), (13.4, 42.0), (13.5, 41.4), (12.0, 42.6), (12.6, 42.9)],
    "TUS": [(11.25, 43.77), (10.4, 43.7), (11.3, 43.0), (10.2, 44.2)],
    "VEN": [
        (12.3, 45.45),
        (11.3, 44.5),
        (12.0, 44.1),
        (11.0, 45.4),
        (13.4, 43.6),
        (10.5, 45.1),
        (12.9, 46.2),
        (14.0, 42.6),
        (13.8, 43.0),
    ],
    "PIE": [(7.7, 45.1), (8.9, 44.4), (8.3, 45.5), (7.2, 44.4), (9.6, 45.6), (9.2, 45.0)],
    "SWI": [(7.45, 46.95)],
}

# Land that is part of no province: the rim of the board.
NEUTRAL_SEEDS: list[LonLat] = [
    (15, 31),
    (19, 30.8),
    (22, 32.2),
    (13.2, 32.6),
    (25, 31.2),
    (29, 30.8),
    (31.2, 30.2),
    (34.8, 31.5),
    (35.5, 30),
    (39, 31),
    (43, 32.5),
    (45, 34.5),
    (47, 33),
    (49, 37),
]

# Patches of land and water the game needs where the land mask disagrees.
FORCE_LAND: list[list[LonLat]] = [
    [(28.85, 40.95), (29.25, 40.95), (29.3, 41.3), (28.9, 41.3)],  # Bosporus
    [(26.05, 40.0), (26.5, 39.95), (26.95, 40.45), (26.55, 40.65), (26.15, 40.3)],  # Dardanelles
    # the Danish straits: Jutland, Funen, Zealand and Scania as one land
    [
        (9.55, 55.1),
        (9.9, 55.75),
        (10.6, 55.9),
        (11.2, 55.85),
        (12.1, 56.1),
        (12.65, 56.1),
        (12.95, 55.9),
        (12.95, 55.4),
        (12.4, 54.95),
        (11.4, 54.7),
        (10.6, 54.8),
        (10.0, 54.95),
    ],
]
FORCE_WATER: list[list[LonLat]] = [
    [(-6.2, 35.75), (-5.2, 35.8), (-5.2, 36.12), (-6.2, 36.12)],  # Strait of Gibraltar
    [(15.5, 37.95), (15.75, 37.95), (15.75, 38.35), (15.5, 38.35)],  # Strait of Messina
]

# Areas drawn as one province whatever the nearest seed says (they apply to their own kind).
FORCE_PROVINCE: dict[str, list[list[LonLat]]] = {
    "SWI": [
        [
            (5.95, 46.15),
            (6.8, 45.95),
            (7.9, 45.95),
            (8.45, 46.3),
            (9.0, 45.82),
            (9.3, 46.5),
            (10.15, 46.25),
            (10.5, 46.6),
            (9.6, 47.05),
            (9.55, 47.55),
            (8.6, 47.8),
            (7.6, 47.6),
            (6.9, 47.4),
            (6.1, 46.65),
        ]
    ],
}

# Where fleets stand on split coasts (and the coast's mark is drawn).
COAST_POINTS: dict[str, LonLat] = {
    "STP/NC": (35.5, 67.6),
    "STP/SC": (29.6, 60.2),
    "SPA/NC": (-5.5, 43.0),
    "SPA/SC": (-0.8, 38.6),
    "BUL/EC": (27.4, 42.7),
    "BUL/SC": (25.2, 41.25),
}

# Hand choices for points the automatic layout places badly: (province, kind) -> lon/lat.
PLACES: dict[tuple[str, str], LonLat] = {
    ("APU", "label"): (17.2, 40.6),
    ("STP", "unit"): (33.0, 62.3),
    ("MOS", "unit"): (37.6, 55.75),
    ("SEV", "unit"): (40.0, 46.3),
}

NEUTRAL = "neutral"  # the id of land outside every province


# -- raster --------------------------------------------------------------------------------


def grid_shape() -> tuple[int, int]:
    return int(HEIGHT * CELLS_PER_UNIT), int(WIDTH * CELLS_PER_UNIT)


def cell_centres() -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    rows, cols = grid_shape()
    xs = (np.arange(cols) + 0.5) / CELLS_PER_UNIT
    ys = (np.arange(rows) + 0.5) / CELLS_PER_UNIT
    return np.meshgrid(xs, ys)


def cell_of(x: float, y: float) -> tuple[int, int]:
    rows, cols = grid_shape()
    return min(max(int(y * CELLS_PER_UNIT), 0), rows - 1), min(max(int(x * CELLS_PER_UNIT), 0), cols - 1)


def inside(shape: Polygon, xs: NDArray[np.float64], ys: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Cells whose centre lies in ``shape`` (tested only within its bounding box)."""
    found = np.zeros(xs.shape, dtype=bool)
    x0, y0, x1, y1 = shape.bounds
    r0, c0 = cell_of(x0, y0)
    r1, c1 = cell_of(x1, y1)
    window = (slice(r0, r1 + 1), slice(c0, c1 + 1))
    found[window] = shapely.contains_xy(shape, xs[window], ys[window])
    return found


def land_mask(xs: NDArray[np.float64], ys: NDArray[np.float64]) -> NDArray[np.bool_]:
    lon, lat = from_map(xs, ys)
    land: NDArray[np.bool_] = globe.is_land(np.clip(lat, -89.9, 89.9), ((lon + 180) % 360) - 180)
    for patch in FORCE_LAND:
        land |= inside(polygon(patch), xs, ys)
    for patch in FORCE_WATER:
        land &= ~inside(polygon(patch), xs, ys)
    return land


def seed_cells(points: Iterable[LonLat]) -> list[tuple[int, int]]:
    return [cell_of(*point(p)) for p in points]


def tidy_mask(land: NDArray[np.bool_], sea_seeds: set[tuple[int, int]], land_seeds: set[tuple[int, int]]) -> None:
    """Sink small unseeded islands; turn water that no sea claims into land (in place)."""
    pieces, count = ndimage.label(land)
    sizes = np.bincount(pieces.ravel(), minlength=count + 1)
    seeded = {pieces[c] for c in land_seeds}
    small = np.array([i != 0 and sizes[i] < MIN_ISLAND and i not in seeded for i in range(count + 1)])
    land[small[pieces]] = False
    pieces, count = ndimage.label(~land)
    seeded = {pieces[c] for c in sea_seeds}
    unclaimed = np.array([i != 0 and i not in seeded for i in range(count + 1)])
    land[unclaimed[pieces]] = True


def nearest_seed(
    mask: NDArray[np.bool_], seeds: list[tuple[int, int, int]], labels: NDArray[np.int32], default: int
) -> None:
    """Label each cell of ``mask`` by the nearest seed (row, col, label) in its connected piece."""
    pieces, _ = ndimage.label(mask)
    by_piece: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    for r, c, lab in seeds:
        if mask[r, c]:
            by_piece[int(pieces[r, c])].append((r, c, lab))
    labels[mask] = default
    for piece, items in by_piece.items():
        rows, cols = np.nonzero(pieces == piece)
        tree = cKDTree(np.array([(r, c) for r, c, _ in items], dtype=float))
        _, nearest = tree.query(np.column_stack([rows, cols]).astype(float))
        labels[rows, cols] = np.array([lab for _, _, lab in items], dtype=np.int32)[nearest]


def reassign_fragments(labels: NDArray[np.int32], names: list[str], seeds: dict[str, list[tuple[int, int]]]) -> None:
    """Give each detached fragment of a province to the neighbouring province it touches most."""
    is_sea = np.array([False] + [n in SEA for n in names[1:]])
    for index, name in enumerate(names):
        if index == 0:
            continue
        pieces, count = ndimage.label(labels == index)
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
            ring = ndimage.binary_dilation(cells) & ~cells
            around = Counter(int(v) for v in labels[ring] if is_sea[v] == is_sea[index] and v != 0)
            if around:
                labels[cells] = around.most_common(1)[0][0]


def raster_adjacency(labels: NDArray[np.int32]) -> Counter[tuple[int, int]]:
    """Pairs of labels whose cells share a side, with the number of such sides."""
    found: Counter[tuple[int, int]] = Counter()
    for a, b in ((labels[:, :-1], labels[:, 1:]), (labels[:-1, :], labels[1:, :])):
        differ = a != b
        pairs = np.stack([np.minimum(a[differ], b[differ]), np.maximum(a[differ], b[differ])], axis=1)
        uniq, counts = np.unique(pairs, axis=0, return_counts=True)
        for (p, q), n in zip(uniq, counts, strict=True):
            found[(int(p), int(q))] += int(n)
    return found


# -- the map data --------------------------------------------------------------------------

GAME = json.loads(MAP_FILE.read_text("utf-8"))
SEA = {p["id"] for p in GAME["provinces"] if p["type"] == "sea"}


def required_adjacency() -> set[tuple[str, str]]:
    pairs: set[tuple[str, str]] = set()
    for edge in (*GAME["army_edges"], *GAME["fleet_edges"]):
        a, b = (token.split("/")[0] for token in edge.split())
        pairs.add((min(a, b), max(a, b)))
    return pairs


def build_labels() -> tuple[NDArray[np.int32], list[str]]:
    """The raster of province labels: index 0 is neutral land, then provinces by id."""
    names = [NEUTRAL, *sorted(SEEDS)]
    index = {n: i for i, n in enumerate(names)}
    xs, ys = cell_centres()
    sea_cells = {c for n in SEA for c in seed_cells(SEEDS[n])}
    land_cells = {c for n in SEEDS if n not in SEA for c in seed_cells(SEEDS[n])}
    land = land_mask(xs, ys)
    tidy_mask(land, sea_cells, land_cells)
    labels = np.zeros(land.shape, dtype=np.int32)
    land_seeds = [(*c, index[n]) for n in SEEDS if n not in SEA for c in seed_cells(SEEDS[n])]
    land_seeds += [(*c, 0) for c in seed_cells(NEUTRAL_SEEDS)]
    nearest_seed(land, land_seeds, labels, 0)
    nearest_seed(~land, [(*c, index[n]) for n in SEA for c in seed_cells(SEEDS[n])], labels, index["NTH"])
    for name, patches in FORCE_PROVINCE.items():
        kind = ~land if name in SEA else land
        for patch in patches:
            labels[inside(polygon(patch), xs, ys) & kind] = index[name]
    reassign_fragments(labels, names, {n: seed_cells(SEEDS[n]) for n in SEEDS})
    return labels, names


def adjacency_report(labels: NDArray[np.int32], names: list[str]) -> list[str]:
    """Differences between the drawing's adjacencies and the game's, one line each."""
    found = raster_adjacency(labels)
    drawn = {(names[a], names[b]): n for (a, b), n in found.items() if a and b}
    drawn = {(min(p), max(p)): n for p, n in drawn.items()}
    required = required_adjacency()
    problems = []
    for pair in sorted(required):
        n = drawn.get(pair, 0)
        if n < 6 * CELLS_PER_UNIT:
            problems.append(f"missing  {pair[0]}-{pair[1]} (touching along {n} cells)")
    for pair, n in sorted(drawn.items()):
        if pair not in required and "SWI" not in pair:
            problems.append(f"extra    {pair[0]}-{pair[1]} (touching along {n} cells)")
    for index, name in enumerate(names[1:], start=1):
        pieces = ndimage.label(labels == index)[1]
        if pieces != 1:
            problems.append(f"pieces   {name} is drawn in {pieces} pieces")
    return problems


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


LABEL_BOX = (13.0, 6.5)  # half width and half height of a province's name
UNIT_ROOM = 10.0  # radius kept clear around a unit
STAR_ROOM = 6.0  # radius kept clear around a supply center's star


def _first_fit(room: shapely.Geometry, shapes: Iterable[shapely.Geometry]) -> shapely.Geometry | None:
    return next((shape for shape in shapes if shape.within(room)), None)


def _around(origin: Point, distances: Sequence[float]) -> list[Point]:
    """Candidate spots round ``origin``: below, above, right, left, then the diagonals."""
    directions = [(0, 1), (0, -1), (1, 0), (-1, 0), (0.7, 0.7), (-0.7, 0.7), (0.7, -0.7), (-0.7, -0.7)]
    return [Point(origin.x + dx * d, origin.y + dy * d) for d in distances for dx, dy in directions]


def layout(shape: shapely.Geometry, name: str, center: bool) -> dict[str, list[float]]:
    """Points for the unit, the name and the supply center: inside the area, clear of each other.

    The unit goes to the most interior point; the name just below it (or above, beside...)
    where its box fits inside the area; the star beside them where it fits.  Where nothing
    fits, the most interior point of what is left.  ``PLACES`` overrides any of them.
    """
    parts = shape.geoms if isinstance(shape, MultiPolygon) else [shape]
    main = max(parts, key=lambda p: p.area)
    inner = main.buffer(-1.5)

    def fixed(kind: str) -> Point | None:
        return Point(point(PLACES[(name, kind)])) if (name, kind) in PLACES else None

    def most_interior(room: shapely.Geometry, fallback: Point) -> Point:
        pieces = [p for p in (room.geoms if isinstance(room, MultiPolygon) else [room]) if not p.is_empty]
        return polylabel(max(pieces, key=lambda p: p.area), tolerance=0.5) if pieces else fallback

    unit = fixed("unit") or polylabel(main, tolerance=0.5)
    taken = unit.buffer(UNIT_ROOM)
    hw, hh = LABEL_BOX
    boxes = (box(p.x - hw, p.y - hh, p.x + hw, p.y + hh) for p in _around(unit, (17.0, 21.0, 26.0)))
    label_box = _first_fit(inner.difference(taken), boxes)
    label = fixed("label") or (label_box.centroid if label_box else most_interior(inner.difference(taken), unit))
    places = {"unit": unit, "label": label}
    if center:
        taken = taken.union(box(label.x - hw, label.y - hh, label.x + hw, label.y + hh))
        stars = (p.buffer(STAR_ROOM) for p in _around(unit, (16.0, 20.0)) + _around(label, (15.0, 19.0)))
        star = _first_fit(inner.difference(taken), stars)
        places["center"] = fixed("center") or (star.centroid if star else most_interior(main.difference(taken), label))
    return {kind: [round(p.x, 1), round(p.y, 1)] for kind, p in places.items()}


def build(check_only: bool) -> int:
    labels, names = build_labels()
    problems = adjacency_report(labels, names)
    for line in problems:
        print(line)
    if problems:
        print(f"{len(problems)} differences from standard.json", file=sys.stderr)
        return 1
    if check_only:
        return 0
    shapes = vectorise(labels, len(names))
    simple = shapely.coverage_simplify(shapes, SIMPLIFY * CELLS_PER_UNIT, simplify_boundary=False)
    simple = [affinity.scale(g, 1 / CELLS_PER_UNIT, 1 / CELLS_PER_UNIT, origin=(0, 0)) for g in simple]
    centers = {p["id"] for p in GAME["provinces"] if p.get("center")}
    kinds = {p["id"]: p["type"] for p in GAME["provinces"]}
    features: list[dict[str, object]] = []
    for index, name in enumerate(names):
        properties: dict[str, object] = {"kind": "neutral" if index == 0 else kinds[name]}
        if index:
            properties.update(layout(simple[index], name, name in centers))
            coasts = {
                key.split("/")[1]: [round(v, 1) for v in point(p)]
                for key, p in COAST_POINTS.items()
                if key.startswith(name + "/")
            }
            if coasts:
                properties["coasts"] = coasts
        geometry = {"type": "MultiPolygon", "coordinates": rings(simple[index])}
        features.append({"type": "Feature", "id": name, "properties": properties, "geometry": geometry})
    data = {
        "type": "FeatureCollection",
        "about": "The standard board, drawn by tools/build_map_geometry.py from the GLOBE land mask and seed "
        "points at real places. Coordinates are map units (x right, y down), not degrees.",
        "width": WIDTH,
        "height": HEIGHT,
        "features": features,
    }
    text = json.dumps(data, separators=(",", ":"))
    OUT_FILE.write_text(text.replace(',{"type":"Feature"', ',\n{"type":"Feature"') + "\n", "utf-8")
    print(f"wrote {OUT_FILE.relative_to(ROOT)} ({len(text) // 1024} KiB)")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only compare the adjacencies with standard.json")
    args = parser.parse_args(argv)
    return build(args.check)


if __name__ == "__main__":
    raise SystemExit(main())
