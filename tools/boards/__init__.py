"""The facts each board is drawn from, one module per board (``tools/boards/<board>.py``).

A board module holds a :class:`BoardSpec` named ``SPEC``: where the board lies on the globe
(a Lambert conformal conic projection, or Miller's cylindrical one for the whole globe,
optional magnifiers, the extent in projected units, whether it wraps east-west) and, per
province, seed points at real places written as longitude/latitude, with the hand patches
where the game's borders differ from geography, and the off-board boxes a board has beyond
its edge (rectangles placed by hand in map units).  ``tools/build_map_geometry.py``
turns a spec into ``judge/engine/maps/<board>_geometry.geojson``; the algorithm is the same
for every board (see its header).  A Machiavelli board (``game="machiavelli"``) is read from
``judge/games/machiavelli/core/boards/<board>.json`` and drawn into
``judge/games/machiavelli/maps/<board>_geometry.geojson``; its straits are drawn where the
spec's ``gates`` say, and its areas are labelled by code or, with ``names``, by name.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

LonLat = tuple[float, float]


@dataclass(frozen=True)
class Magnifier:
    """A radial magnifier: the scale at ``centre`` is ``1 + gain`` times the rim's, back to 1 at ``radius``."""

    centre: LonLat
    gain: float
    radius: float  # radians of the projection


@dataclass(frozen=True)
class Lens:
    """A local magnifier: the scale at ``centre`` is ``1 + gain`` (gain below 3), the identity beyond ``radius``."""

    centre: LonLat
    gain: float
    radius: float  # radians of the projection


@dataclass(frozen=True)
class BoardSpec:
    """Everything board-specific the builder needs; see the builder's header for how each is used."""

    board: str  # the map's name: judge/engine/maps/<board>.json
    title: str  # how the geometry file's "about" names it
    centre: LonLat  # the projection's central meridian and latitude of origin (the conic's)
    parallels: tuple[float, float]  # the conic's standard parallels
    extent: tuple[float, float, float, float]  # x0, y0, x1, y1 in projected units (y up)
    seeds: dict[str, list[LonLat]]  # province -> real places inside it (water for seas and archipelagos)
    magnifiers: tuple[Magnifier, ...] = ()  # applied in turn
    lenses: tuple[Lens, ...] = ()  # applied in turn, after the magnifiers
    neutral_seeds: list[LonLat] = field(default_factory=list)  # land outside every province
    force_land: list[list[LonLat]] = field(default_factory=list)  # land bridges
    force_water: list[list[LonLat]] = field(default_factory=list)  # straits the mask closes
    force_province: dict[str, list[list[LonLat]]] = field(default_factory=dict)  # outlines drawn by hand
    islands: dict[str, list[LonLat]] = field(default_factory=dict)  # archipelago -> its islands
    straits: dict[tuple[str, str], tuple[LonLat, LonLat]] = field(default_factory=dict)  # weak straits' crossings
    # points where four provinces meet, (north-west, north-east, south-east, south-west) round each: each
    # diagonal pair is adjacent in the game (or is one province in two pieces, pinched at the point)
    junctions: list[tuple[LonLat, tuple[str, str, str, str]]] = field(default_factory=list)
    # points where four provinces meet as a junction's do, but neither diagonal pair is adjacent in the
    # game: the corners a plane drawing needs where the game has a ring of four with no diagonal
    corners: list[tuple[LonLat, tuple[str, str, str, str]]] = field(default_factory=list)
    open_sea: list[LonLat] = field(default_factory=list)  # water outside every province, drawn as sea
    coast_points: dict[str, LonLat] = field(default_factory=dict)  # "STP/NC" -> where its fleets stand
    places: dict[tuple[str, str], LonLat] = field(default_factory=dict)  # (province, kind) -> hand-placed point
    min_island: int = 200  # cells: smaller unseeded islands are sunk
    in_pieces: frozenset[str] = frozenset()  # provinces in several pieces, a seed on each (else one piece)
    width: float = 1000.0  # map units across (the renderer draws 1.2 pixels a unit)
    projection: str = "conic"  # "conic" (Lambert conformal) or "miller" (cylindrical, the whole globe)
    wrap: bool = False  # the board wraps east-west: its extent spans 360 degrees, x0 = -pi and x1 = pi
    # off-board boxes (Youngstown's): province -> (x0, y0, x1, y1) in map units, at the board's edge
    boxes: dict[str, tuple[float, float, float, float]] = field(default_factory=dict)
    game: str = "diplomacy"  # whose board: "diplomacy" (judge/engine/maps) or "machiavelli" (its core's boards)
    # a Machiavelli board's straits: the strait's name -> a line across the water where it is drawn
    gates: dict[str, tuple[LonLat, LonLat]] = field(default_factory=dict)
    names: bool = False  # a Machiavelli board's map writes each area's name in full (else its code)


def load(board: str) -> BoardSpec:
    """The spec in ``tools/boards/<board>.py``."""
    spec: BoardSpec = importlib.import_module(f"boards.{board}").SPEC
    return spec
