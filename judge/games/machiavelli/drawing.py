"""Pictures of a Machiavelli position, as SVG and PNG: an edge of the game, not its rules core.

What is drawn, bottom to top: the sea; the land, each province tinted by its controller (a
power's colour, the independents' grey, or plain when nobody controls it); a rebelling
province hatched in dark red and its victim's colour; the borders; the crossing where the game
goes by land over water (Istria to Dalmatia) as a bridge, a crossing only fleets make (AoP's
Ajaccio to Sassari, Messina to Kalabria: M17 a) as a dotted sea route, and the straits' gates
(Piombino's channel, the Strait of Messina) as dark red chains, grey where nobody controls the
strait (AoP's Bonifacio: M17 d); the empty coasts of a split
coast as faint rings with the coast's name; each city's mark (a square when
fortified, a circle when not, a diamond for a fortress, a blue ring round a port, the digit of
a major city's magnitude, filled with its controller's colour, dark red when it rebels); the
units: armies (discs) and fleets (ships) at the area's unit place (a fleet on a split coast
at its coast's place), garrisons (towers) at the city's place beside them, each in its
owner's colour with its owner's letter (independents grey, marked ``i``); a siege in
progress as a dashed ring in the besieger's colour round the besieged city's place; then,
when given, the operations of a campaign (advances as arrows, through the transporting
fleets; supports as dashed lines into the area supported; transports as dotted rings; holds
as rings; sieges and conversions as lines from the unit to its city's place; an order that
failed or could not be carried out is crossed out, the cross on its line where it covers no
unit or city, or beside the line's middle where the line lies under them); the names (the area codes on the classic
board, the names written in full on AoP's, haloed in white, so that an order's line passes under
them; an area the drawing pinches in two is named once, as every area is); a title bar; a legend of
the players and a key to the marks.

Colours (:func:`board_colours`).  The powers take the palette's set for as many
(:func:`judge.render.palette.power_colours`: AoP's thirteen, Tol's discrete rainbow of 13),
dealt so that powers whose home countries border each other, and, counting less, those one
area apart, look as different as the set allows where their provinces are tinted; a pale
colour tints its provinces more strongly, so that they never look like unheld land
(:func:`province_tint`).

Where things go is the drawing's business (:mod:`tools/build_map_geometry.py` writes
``maps/<board>_geometry.geojson``, package data): each area has a place for its name and its
unit, and, where it has a city, for the city's mark and the garrison, laid out so that none
covers another (their sizes are this module's :data:`UNIT_BOX`, :data:`GARRISON_BOX`,
:data:`CITY_BOX` and :func:`text_box`, which the builder reads: :func:`label_box` for a code,
:func:`name_box` for a name in full).  A single-unit area (Venice, AoP's three small islands)
has one place for its one unit, whatever its kind.  The drawing says whether it is labelled by
name, and which crossings are for fleets.

Elements carry data attributes (``data-area``, ``data-owner``, ``data-kind`` ...) so that a
picture can be checked by reading it back.  The PNG is the same picture composed as Payola's
maps are (:mod:`judge.render.png`, imported only when a PNG is asked for: a judge without the
Cairo library still draws SVG): what never changes on a board (the sea and the land around it,
the borders with the crossings and straits, the names) rasterised by cairosvg once per board
and width, the land's fills through each area's mask, and the rest (rebellions, cities, units,
orders, title and legend) painted by Cairo from the same SVG (:mod:`judge.render.paint`).
"""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from judge.games.machiavelli.core.board import Board
from judge.games.machiavelli.core.campaign import CampaignRecord
from judge.games.machiavelli.core.orders import Advance, Besiege, Convert, Hold, Order, Support, Transport, UnitRef
from judge.games.machiavelli.core.position import Independent, Owner, Phase, Position, Unit, UnitKind
from judge.games.machiavelli.views import season_text
from judge.language import SOURCE, current, ngettext
from judge.language import gettext as _
from judge.render.board import Board as Drawing
from judge.render.board import Shape, along, towards
from judge.render.board import parse_board as parse_drawing
from judge.render.palette import INK, LAND, NEUTRAL_LAND, SEA, SEA_INK, ink_on, power_colours, tint
from judge.render.svg import Recent

Point = tuple[float, float]
Box = tuple[float, float, float, float]  # left, top, right, bottom, about a point

LABEL_SIZE = 8.5  # an area's label on a board labelled by code (the classic): its code in bold capitals
NAME_SIZE = 8.0  # an area's label on a board labelled by name (AoP's): bold for land, italic for a sea
NAME_DROP = 0.28  # ems from a name's point to its baseline: its top (0.78 em up) and foot (0.22 down) as far
UNIT_BOX: Box = (-8.5, -8.5, 8.5, 8.5)  # an army's disc, a fleet's ship (outline included)
GARRISON_BOX: Box = (-9.5, -9.5, 9.5, 9.5)  # a garrison's tower, and the ring a siege draws round the place
CITY_BOX: Box = (-7.0, -7.0, 7.0, 7.0)  # a city's mark at its largest (magnitude 3, a port's ring)

TITLE_HEIGHT = 42.0
LEGEND_ROW = 30.0
KEY_LINE = 13.0  # a line of the legend's key, saying how the marks read
PIXELS_PER_UNIT = 1.2  # the SVG's nominal size
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
INDEPENDENT = "#B4B4B4"  # independent states' units, and the land they control (a light tint)
REBEL = "#8B1A1A"  # a rebelling city, the hatching of a rebelling province, the straits' chains
PORT = "#2F6FA8"  # the ring round a port city
OPEN_STRAIT = "#6E6E6E"  # the chain of a strait nobody controls
PRESENCE = 0.55  # how strongly a controller's colour tints its province (a pale one more: province_tint)
APART = 20.0  # how much a power's province tint differs at least from unheld land (in L*a*b*)


def label_box(text: str, size: float = LABEL_SIZE) -> Box:
    """What a bold capital name of ``text`` centred on its point covers (0.47 em a letter: W, M)."""
    half = 0.47 * size * len(text)
    return -half, -0.45 * size, half, 0.45 * size


# The letters of a name by how wide DejaVu Sans Bold sets them, each class at its widest letter's
# advance in ems (the oblique face of a sea's name is narrower); any other letter counts 0.86.
_LETTER_WIDTHS = (
    (" '.,:;!|ijlIJ", 0.38), ("frt-()", 0.5), ("csz", 0.61), ("aekvxyEFLTäàâèéêë", 0.69),
    ("bdghnopquCPSYZöôüùûòóáí", 0.74), ("ABKRVX", 0.78), ("mwM", 1.05), ("W", 1.12),
)


def name_box(text: str, size: float = NAME_SIZE) -> Box:
    """What a name written in full covers, centred on its point: its letters' widths (an upper
    bound of DejaVu Sans Bold's) across, from its ascenders' top to its descenders' foot and a
    little more (no accented capital, which rises higher)."""
    width = sum(next((w for letters, w in _LETTER_WIDTHS if c in letters), 0.86) for c in text)
    return -width * size / 2, -0.52 * size, width * size / 2, 0.52 * size


def label_text(code: str, name: str, names: bool) -> str:
    """What the map writes in an area: its name where the drawing names its areas, else its code in capitals."""
    return name if names else code.upper()


def text_box(text: str, names: bool) -> Box:
    """What an area's label covers (:func:`name_box` or :func:`label_box`)."""
    return name_box(text) if names else label_box(text)


class GeometryError(ValueError):
    """A drawing that does not fit its board, or a board with no drawing."""


# -- the drawing --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Places:
    """Where an area's marks go: its name, its unit, its city's mark and its garrison (a city's
    only), and where a fleet stands on each of its coasts (a split coast's only)."""

    label: Point
    unit: Point
    city: Point | None
    garrison: Point | None
    coasts: Mapping[str, Point]


@dataclass(frozen=True, slots=True)
class Gate:
    """A controlled strait (AoP 9.3, M17), drawn as a chain across its water: its name, the area
    whose fleet controls it, and the line."""

    name: str
    controller: str | None
    line: tuple[Point, Point]


@dataclass(frozen=True, eq=False)
class Geometry:
    """A Machiavelli board's drawing: the areas' polygons and borders (a :class:`judge.render.board.Board`,
    whose crossings are the game's ways over water a border cannot give), each area's places, the
    gates, which crossings only fleets make (AoP's straits of Bonifacio and Messina: drawn as a sea
    route, the others as a bridge), and whether the areas are labelled by name or by code."""

    name: str
    drawing: Drawing
    places: Mapping[str, Places]
    gates: tuple[Gate, ...]
    fleet_crossings: frozenset[frozenset[str]] = frozenset()
    names: bool = False

    @property
    def width(self) -> float:
        return self.drawing.width

    @property
    def height(self) -> float:
        return self.drawing.height


def _point(value: Sequence[float]) -> Point:
    return float(value[0]), float(value[1])


def parse_geometry(name: str, data: Mapping[str, Any]) -> Geometry:
    """A drawing from its GeoJSON data (see :mod:`tools/build_map_geometry.py`)."""
    places = {}
    for feature in data["features"]:
        props = feature["properties"]
        if "unit" not in props:
            continue  # the neutral land
        places[str(feature["id"])] = Places(
            label=_point(props["label"]),
            unit=_point(props["unit"]),
            city=_point(props["city"]) if "city" in props else None,
            garrison=_point(props["garrison"]) if "garrison" in props else None,
            coasts={str(c): _point(p) for c, p in props.get("coasts", {}).items()},
        )
    gates = tuple(
        Gate(str(g["name"]), g.get("controller"), (_point(g["line"][0]), _point(g["line"][1])))
        for g in data.get("gates", ())
    )
    fleet = frozenset(frozenset(map(str, s["provinces"])) for s in data.get("straits", ()) if s.get("fleet"))
    return Geometry(name, parse_drawing(name, data), places, gates, fleet, bool(data.get("names", False)))


@cache
def load_geometry(name: str = "classic") -> Geometry:
    """The drawing of the board ``name``, shipped in ``maps/`` (cached: drawings are immutable)."""
    path = resources.files("judge.games.machiavelli") / "maps" / f"{name}_geometry.geojson"
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        raise GeometryError(f"the board {name!r} has no drawing") from None
    return parse_geometry(name, json.loads(text))


def check_fits(board: Board, geometry: Geometry) -> None:
    """GeometryError unless the drawing has every area of the board, with a city's places for each city."""
    missing = sorted(set(board.areas) - set(geometry.places))
    if missing:
        raise GeometryError(f"the drawing {geometry.name!r} lacks {', '.join(missing)}")
    for code, area in board.areas.items():
        places = geometry.places[code]
        if area.city is not None and (places.city is None or (area.city.fortified and places.garrison is None)):
            raise GeometryError(f"the drawing {geometry.name!r} has no place for {code}'s city")


# -- small pieces of SVG --------------------------------------------------------------------------


def _n(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _xy(p: Point) -> str:
    return f"{_n(p[0])} {_n(p[1])}"


def _attrs(**attrs: object) -> str:
    """Attributes, ``data_area`` written ``data-area`` and ``class_`` written ``class``."""
    return "".join(f" {k.rstrip('_').replace('_', '-')}={quoteattr(str(v))}" for k, v in attrs.items())


def _text(at: Point, text: str, size: float, **attrs: object) -> str:
    return f'<text x="{_n(at[0])}" y="{_n(at[1])}" font-size="{_n(size)}"{_attrs(**attrs)}>{escape(text)}</text>'


def _owner_name(owner: Owner) -> str:
    return "independent" if isinstance(owner, Independent) else owner


def letters(powers: Sequence[str]) -> dict[str, str]:
    """Each power's mark on its units: its initial, or as many letters as tell it from the others
    (Florence ``Fl``, France ``Fr``)."""
    found = {}
    for power in powers:
        length = 1
        while any(o != power and o[:length].lower() == power[:length].lower() for o in powers):
            length += 1
        found[power] = power[:length]
    return found


def _lab(colour: str) -> tuple[float, float, float]:
    """An sRGB colour in CIE L*a*b* (D65)."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
              for c in (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))]
    x, y, z = ((m[0] * linear[0] + m[1] * linear[1] + m[2] * linear[2]) / white for m, white in (
        ((0.4124, 0.3576, 0.1805), 0.95047), ((0.2126, 0.7152, 0.0722), 1.0), ((0.0193, 0.1192, 0.9505), 1.08883)))
    fx, fy, fz = (t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in (x, y, z))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def colour_difference(a: str, b: str) -> float:
    """How different two colours look: their distance in CIE L*a*b* (CIE76; about 2 is the least
    one notices side by side, over 20 plainly different)."""
    return math.dist(_lab(a), _lab(b))


def province_tint(colour: str) -> str:
    """The tint of a province a power holds: its colour at PRESENCE, or as much stronger (in tenths,
    up to the colour itself) as it takes to differ by APART from unheld land, so that a pale colour
    (Tol's pale purple and pale green) still reads as held."""
    strength = PRESENCE
    while colour_difference(tint(colour, strength), LAND) < APART and strength < 1.0:
        strength = min(1.0, strength + 0.1)
    return tint(colour, strength)


NEAR = 1.5  # how much less a difference between powers one area apart counts than between neighbours'


@cache
def board_colours(board: Board) -> dict[str, str]:
    """Each power's colour: the palette's set for as many powers (:func:`judge.render.palette.power_colours`),
    dealt so that powers whose home countries border each other look as different as they can
    where their provinces are tinted, and, counting less, powers whose homes are one area apart.

    The differences (in L*a*b*) between the tints of each pair of neighbours, and those of each
    pair one area apart multiplied by NEAR, are sorted; from the board's order of powers, two
    powers swap colours while the swap raises the least of them, then the next least, and so on,
    until no swap does: the same board always deals the same colours."""
    powers = list(board.powers)
    palette = list(power_colours(powers).values())
    homes = {code: area.home for code, area in board.areas.items() if area.home is not None}

    def reach(area: str) -> set[str]:
        return {*board.army_reach(area), *board.fleet_areas(area)}

    def pair(a: str, b: str) -> tuple[str, str]:
        return min(homes[a], homes[b]), max(homes[a], homes[b])

    neighbours = {pair(a, b) for a in homes for b in reach(a) if b in homes and homes[a] != homes[b]}
    near = {pair(a, b) for a in homes for between in reach(a) for b in reach(between)
            if b in homes and homes[a] != homes[b]} - neighbours
    weighed = [(a, b, 1.0) for a, b in sorted(neighbours)] + [(a, b, NEAR) for a, b in sorted(near)]
    tints = [province_tint(colour) for colour in palette]
    index = {power: i for i, power in enumerate(powers)}

    def differences(dealt: list[int]) -> list[float]:
        return sorted(weight * colour_difference(tints[dealt[index[a]]], tints[dealt[index[b]]])
                      for a, b, weight in weighed)

    dealt = list(range(len(powers)))
    best = differences(dealt)
    swapped = True
    while swapped:
        swapped = False
        for i, j in itertools.combinations(range(len(powers)), 2):
            trial = dealt.copy()
            trial[i], trial[j] = trial[j], trial[i]
            if (found := differences(trial)) > best:
                dealt, best, swapped = trial, found, True
    return {power: palette[dealt[i]] for i, power in enumerate(powers)}


@dataclass(frozen=True)
class _Style:
    """How owners look: their colours and letters."""

    colours: Mapping[str, str]
    marks: Mapping[str, str]

    def colour(self, owner: Owner | None) -> str:
        if owner is None:
            return "#FFFFFF"
        return INDEPENDENT if isinstance(owner, Independent) else self.colours.get(owner, INDEPENDENT)

    def letter(self, owner: Owner) -> str:
        return "i" if isinstance(owner, Independent) else self.marks.get(owner, owner[:1])


# -- marks ------------------------------------------------------------------------------------------

_SHIP = "M-7.8 0.5L7.8 0.5L5.2 6L-5.2 6ZM-1.7 -0.6L-1.7 -7.6L5.6 -0.6Z"  # a hull and a sail, within 8 of its point


def _unit(unit: Unit, at: Point, style: _Style) -> str:
    """An army's disc, a fleet's ship or a garrison's tower, in its owner's colour with its letter."""
    colour = style.colour(unit.owner)
    attrs = _attrs(class_="unit", data_owner=_owner_name(unit.owner), data_kind=unit.kind.value,
                   data_area=unit.area, **({"data_coast": unit.coast} if unit.coast else {}))
    x, y = at
    paint = f'fill="{colour}" stroke="{INK}" stroke-width="1.2" stroke-linejoin="round"'
    if unit.kind is UnitKind.FLEET:
        shape = f'<path d="{_SHIP}" transform="translate({_xy(at)})" {paint}/>'
        spot, size = (x, y + 5.0), 5.4
    elif unit.kind is UnitKind.GARRISON:
        outline = [(-6, 6), (-6, -6), (-3.6, -6), (-3.6, -4.2), (-1.2, -4.2), (-1.2, -6), (1.2, -6), (1.2, -4.2),
                   (3.6, -4.2), (3.6, -6), (6, -6), (6, 6)]  # a tower with its battlements
        shape = f'<path d="M{"L".join(_xy((x + dx, y + dy)) for dx, dy in outline)}Z" {paint}/>'
        spot, size = (x, y + 3.8), 7.0
    else:
        shape = f'<circle cx="{_n(x)}" cy="{_n(y)}" r="7.5" {paint}/>'
        spot, size = (x, y + 3.1), 8.5
    letter = style.letter(unit.owner)
    if len(letter) > 1:
        size *= 0.8
    mark = _text(spot, letter, size, fill=ink_on(colour), text_anchor="middle", font_family=FONT, font_weight="bold")
    return f"<g{attrs}><title>{escape(str(unit))}</title>{shape}{mark}</g>"


def _city(board: Board, position: Position, code: str, at: Point, style: _Style) -> str:
    """A city's mark: its kind, port, magnitude and controller (dark red while it rebels)."""
    city = board.areas[code].city
    assert city is not None
    controller = position.city_controller(code)
    fill = REBEL if position.city_rebelling(code) else (
        "#FFFFFF" if controller is None else tint(style.colour(controller), 0.75))
    half = (4.0, 4.0, 4.8, 5.4)[city.income]  # a fortress, a city, a major city of magnitude 2, 3
    x, y = at
    paint = f'fill="{fill}" stroke="{INK}" stroke-width="1"'
    if city.fortress:
        shape = f'<path d="M{_xy((x, y - half - 1))}L{_xy((x + half + 1, y))}L{_xy((x, y + half + 1))}' \
                f'L{_xy((x - half - 1, y))}Z" {paint}/>'
    elif city.fortified:
        shape = f'<path d="M{_xy((x - half, y - half))}L{_xy((x + half, y - half))}L{_xy((x + half, y + half))}' \
                f'L{_xy((x - half, y + half))}Z" {paint}/>'
    else:
        shape = f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(half)}" {paint}/>'
    ring = (f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(half + 1.1)}" fill="none" stroke="{PORT}" stroke-width="1"/>'
            if city.port else "")
    digit = "" if city.magnitude == 0 else _text(
        (x, y + 2.5), str(city.magnitude), 7.0, fill=ink_on(fill), text_anchor="middle", font_family=FONT,
        font_weight="bold")
    attrs = _attrs(class_="city", data_area=code, data_fortified=str(city.fortified).lower(),
                   data_port=str(city.port).lower(), data_income=city.income,
                   data_controller="" if controller is None else _owner_name(controller))
    return f"<g{attrs}>{ring}{shape}{digit}</g>"


def _siege(code: str, at: Point, besieger: Owner, seasons: int, style: _Style) -> str:
    """A siege in progress: a dashed ring in the besieger's colour round the city's place."""
    x, y = at
    attrs = _attrs(class_="siege", data_area=code, data_besieger=_owner_name(besieger), data_seasons=seasons)
    return (f'<g{attrs}><circle cx="{_n(x)}" cy="{_n(y)}" r="8.4" fill="none" stroke="{INK}" stroke-width="2.2"/>'
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="8.4" fill="none" stroke="{style.colour(besieger)}" '
            'stroke-width="1.4" stroke-dasharray="2.5 1.5"/></g>')


def hatch_lines(shape: Shape, spacing: float, offset: float = 0.0) -> list[tuple[Point, Point]]:
    """Diagonal lines (down to the right) ``spacing`` apart (shifted by ``offset``), clipped to the
    polygons (even-odd)."""
    root = math.sqrt(0.5)
    edges = [((ax + ay) * root, (ax - ay) * root, (bx + by) * root, (bx - by) * root)
             for polygon in shape for ring in polygon for (ax, ay), (bx, by) in zip(ring, ring[1:] + ring[:1],
                                                                                    strict=True)]
    if not edges:
        return []
    low = min(min(e[1], e[3]) for e in edges)
    high = max(max(e[1], e[3]) for e in edges)
    lines = []
    v = math.floor(low / spacing) * spacing + offset
    while v < high:
        crossings = sorted(u1 + (u2 - u1) * (v - v1) / (v2 - v1) for u1, v1, u2, v2 in edges if (v1 > v) != (v2 > v))
        for u1, u2 in zip(crossings[::2], crossings[1::2], strict=False):
            lines.append((((u1 + v) * root, (u1 - v) * root), ((u2 + v) * root, (u2 - v) * root)))
        v += spacing
    return lines


def _rebellion(code: str, shape: Shape, victim: Owner, style: _Style) -> str:
    """A rebelling province hatched in dark red and its victim's colour, stripe by stripe."""
    stripes = [
        "".join(f"M{_xy(a)}L{_xy(b)}" for a, b in hatch_lines(shape, 8.0, offset)) for offset in (2.0, 6.0)
    ]
    attrs = _attrs(class_="rebellion", data_area=code, data_victim=_owner_name(victim))
    return (f'<g{attrs}><path d="{stripes[0]}" fill="none" stroke="{REBEL}" stroke-width="1.6"/>'
            f'<path d="{stripes[1]}" fill="none" stroke="{style.colour(victim)}" stroke-width="1.6"/></g>')


def _gate(gate: Gate) -> str:
    """A strait: a chain across the water with a post at each end, dark red where a fleet in an
    area controls it, grey where nobody does (Bonifacio: M17 d)."""
    d = f"M{_xy(gate.line[0])}L{_xy(gate.line[1])}"
    colour = REBEL if gate.controller else OPEN_STRAIT
    posts = "".join(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="2" fill="{colour}" stroke="white" stroke-width="0.8"/>'
                    for x, y in gate.line)
    attrs = _attrs(class_="strait", data_name=gate.name, data_controller=gate.controller or "")
    said = (_("the strait of {strait}, controlled from {area}", strait=gate.name, area=gate.controller)
            if gate.controller else _("the strait of {strait}, controlled by nobody", strait=gate.name))
    return (f'<g{attrs}><title>{escape(said)}</title>'
            f'<path d="{d}" stroke="white" stroke-width="4.2" stroke-linecap="round"/>'
            f'<path d="{d}" stroke="{colour}" stroke-width="2.6" stroke-dasharray="3 1.6"/>{posts}</g>')


# -- the board's fixed layers --------------------------------------------------------------------


@cache
def _borders(geometry: Geometry, language: str) -> str:
    """Borders, crossings and gates: what every picture of the board shares under its marks (the
    gates' titles written in ``language``, the reader's: the messages read it)."""
    drawing = geometry.drawing
    parts = [
        f'<path class="border sea" d="{drawing.borders["sea"]}" fill="none" stroke="#7D9AB0" '
        'stroke-width="0.8" stroke-dasharray="4 2.5"/>',
        f'<path class="border land" d="{drawing.borders["land"]}" fill="none" stroke="#6B6457" stroke-width="0.8"/>',
        f'<path class="border coast" d="{drawing.borders["coast"]}" fill="none" stroke="#45505A" stroke-width="1.1"/>',
    ]
    for crossing in drawing.straits:
        d = "M" + "L".join(_xy(p) for p in crossing.line)
        areas = " ".join(crossing.provinces)
        if frozenset(crossing.provinces) in geometry.fleet_crossings:  # a sea route: blue dots, a ring at each end
            ends = "".join(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="2.2" fill="white" stroke="{SEA_INK}" '
                           f'stroke-width="1.2"/>' for x, y in crossing.line)
            parts.append(
                f'<g class="crossing" data-areas="{areas}" data-by="sea">'
                f'<path d="{d}" fill="none" stroke="{SEA_INK}" stroke-width="2.2" stroke-linecap="round" '
                f'stroke-dasharray="0.1 3.4"/>{ends}</g>'
            )
            continue
        parts.append(
            f'<g class="crossing" data-areas="{areas}" data-by="land">'
            f'<path d="{d}" fill="none" stroke="{INK}" stroke-width="5" stroke-linecap="round"/>'
            f'<path d="{d}" fill="none" stroke="{LAND}" stroke-width="3.2" stroke-linecap="round"/></g>'
        )
    parts += [_gate(gate) for gate in geometry.gates]
    return "".join(parts)


@cache
def _names(board: Board, geometry: Geometry) -> str:
    """The areas' names, haloed in white, over everything else on the map: no mark covers one, and
    an order's line passes under it."""
    parts = []
    # The baseline sits below the point by half the capitals' height, or for a name written in full
    # by what centres its ascenders and descenders (NAME_DROP).
    size, drop = (NAME_SIZE, NAME_DROP * NAME_SIZE) if geometry.names else (LABEL_SIZE, 0.36 * LABEL_SIZE)
    for code, area in board.areas.items():
        places = geometry.places[code]
        text = label_text(code, area.name, geometry.names)
        style = {"font_style": "italic", "fill": SEA_INK} if area.is_sea else {"font_weight": "bold", "fill": INK}
        halo = {"stroke": "white", "stroke_width": "2.4", "stroke_linejoin": "round", "stroke_opacity": "0.8"}
        x, y = places.label
        parts.append(f'<g class="name" data-area="{code}" data-name={quoteattr(area.name)}>'
                     + _text((x, y + drop), text, size, text_anchor="middle", font_family=FONT, **style, **halo)
                     + _text((x, y + drop), text, size, text_anchor="middle", font_family=FONT, **style)
                     + "</g>")
    return "".join(parts)


def _coast_slot(code: str, coast: str, at: Point) -> str:
    """An empty coast's place: a faint ring with the coast's name."""
    x, y = at
    return (f'<g class="coast" data-area="{code}" data-coast="{coast}">'
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="7.5" fill="none" stroke="{SEA_INK}" stroke-width="0.8" '
            f'stroke-dasharray="1.5 1.5"/>'
            + _text((x, y + 2.2), coast, 6.0, fill=SEA_INK, text_anchor="middle", font_family=FONT, font_weight="bold")
            + "</g>")


# -- orders ------------------------------------------------------------------------------------


def _arrow(points: Sequence[Point], colour: str) -> str:
    """A polyline ending in an arrowhead, outlined in ink."""
    start = towards(points[0], points[1], 8.0)
    tip = towards(points[-1], points[-2], 5.0)
    base = towards(tip, points[-2], 8.0)
    length = math.dist(tip, base) or 1.0
    nx, ny = -(tip[1] - base[1]) / length * 4.0, (tip[0] - base[0]) / length * 4.0
    line = [start, *points[1:-1], base]
    shaft = "M" + "L".join(_xy(p) for p in [*line, *line[-2::-1]])
    head = f"M{_xy((base[0] + nx, base[1] + ny))}L{_xy(tip)}L{_xy((base[0] - nx, base[1] - ny))}Z"
    return (f'<path d="{shaft + head}" fill="{INK}" stroke="{INK}" stroke-width="4" stroke-linejoin="round"/>'
            f'<path d="{shaft + head}" fill="{colour}" stroke="{colour}" stroke-width="2" stroke-linejoin="round"/>')


def _line(points: Sequence[Point], colour: str, dashes: str) -> str:
    d = "M" + "L".join(_xy(p) for p in points)
    return (f'<path d="{d}" fill="none" stroke="{INK}" stroke-width="3" stroke-dasharray="{dashes}"/>'
            f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="1.6" stroke-dasharray="{dashes}"/>')


CROSS_BOX: Box = (-7.0, -7.0, 7.0, 7.0)  # a failed order's cross, its white outline included
_CROSS_STOPS = (0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8, 0.1, 0.9)


def _box(at: Point, box: Box) -> Box:
    return at[0] + box[0], at[1] + box[1], at[0] + box[2], at[1] + box[3]


def _covers(box: Box, at: Point, other: Box) -> bool:
    return (at[0] + box[0] < other[2] and other[0] < at[0] + box[2]
            and at[1] + box[1] < other[3] and other[1] < at[1] + box[3])


def _cross_place(points: Sequence[Point], taken: Sequence[Box]) -> Point:
    """Where a failed order's cross goes: on its line, at the middle or the point nearest it that
    covers no unit or city (crowded land has a mark at the middle); else beside the middle (a
    line between a garrison and its province's army lies under their marks); the middle if all
    those are covered."""
    middle = along(points, 0.5)
    beside = [(middle[0] + radius * math.cos(turn * math.pi / 4), middle[1] + radius * math.sin(turn * math.pi / 4))
              for radius in (12.0, 17.0, 22.0) for turn in range(8)]
    for at in [*(along(points, fraction) for fraction in _CROSS_STOPS), *beside]:
        if not any(_covers(CROSS_BOX, at, box) for box in taken):
            return at
    return middle


def _cross(at: Point) -> str:
    x, y = at
    d = f"M{_xy((x - 5, y - 5))}L{_xy((x + 5, y + 5))}M{_xy((x - 5, y + 5))}L{_xy((x + 5, y - 5))}"
    return (f'<path class="cross" d="{d}" stroke="white" stroke-width="4" stroke-linecap="round"/>'
            f'<path class="cross" d="{d}" stroke="{INK}" stroke-width="2" stroke-linecap="round"/>')


@dataclass(frozen=True)
class _Order:
    """One operation to draw: whose, the order, and whether it failed (None: not adjudicated)."""

    owner: Owner
    order: Order
    failed: bool | None


class _Orders:
    """Draws the operations of a campaign from where their units stand."""

    def __init__(self, board: Board, geometry: Geometry, position: Position, style: _Style) -> None:
        self.board = board
        self.geometry = geometry
        self.position = position
        self.style = style
        self.taken = [*(_box(self.at(UnitRef(u.kind, u.area)), GARRISON_BOX if u.kind is UnitKind.GARRISON
                                else UNIT_BOX) for u in position.units.values()),
                      *(_box(places.city, CITY_BOX) for code, places in geometry.places.items()
                        if places.city is not None and board.areas[code].city is not None)]
        """What a failed order's cross should not cover: the units' and cities' marks."""

    def at(self, unit: UnitRef) -> Point:
        """Where the unit an order names stands: its garrison place, its coast's, or its area's."""
        places = self.geometry.places[unit.area]
        if unit.kind is UnitKind.GARRISON and places.garrison is not None:
            return places.garrison
        standing = self.position.unit_at(unit.place)
        coast = standing.coast if standing is not None else None
        return places.coasts.get(coast, places.unit) if coast else places.unit

    def into(self, area: str, coast: str | None = None) -> Point:
        places = self.geometry.places[area]
        return places.coasts.get(coast, places.unit) if coast else places.unit

    def draw(self, item: _Order) -> str:
        order, colour = item.order, self.style.colour(item.owner)
        start = self.at(order.unit)
        if isinstance(order, Advance):
            points = [start, *(self.geometry.places[a].unit for a in order.route), self.into(order.to, order.coast)]
            mark, focus = _arrow(points, colour), _cross_place(points, self.taken)
        elif isinstance(order, Support):
            end = self.into(order.area)
            end = towards(end, start, 9.0)
            dot = f'<circle cx="{_n(end[0])}" cy="{_n(end[1])}" r="2.6" fill="{colour}" stroke="{INK}"/>'
            mark, focus = _line([start, end], colour, "5 3") + dot, _cross_place([start, end], self.taken)
        elif isinstance(order, Transport):
            x, y = start
            mark = (f'<circle cx="{_n(x)}" cy="{_n(y)}" r="11" fill="none" stroke="{INK}" stroke-width="3" '
                    f'stroke-dasharray="0.1 4" stroke-linecap="round"/>'
                    f'<circle cx="{_n(x)}" cy="{_n(y)}" r="11" fill="none" stroke="{colour}" stroke-width="1.8" '
                    f'stroke-dasharray="0.1 4" stroke-linecap="round"/>')
            focus = (x + 7.8, y - 7.8)
        elif isinstance(order, Besiege | Convert):
            places = self.geometry.places[order.unit.area]
            other = places.unit if order.unit.kind is UnitKind.GARRISON else (places.garrison or places.unit)
            lagoon = self.board.lagoon
            if isinstance(order, Besiege) and lagoon is not None and order.unit.area == lagoon.sea:
                island = self.geometry.places[lagoon.island]  # Venice besieged from the Lagoon (AoP 14)
                other = island.garrison or island.unit
            mark, focus = _line([start, other], colour, "1.5 1.5" if isinstance(order, Convert) else "4 1.5"), \
                _cross_place([start, other], self.taken)
        else:  # Hold
            x, y = start
            mark = "".join(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="10.5" fill="none" stroke="{stroke}" '
                           f'stroke-width="{width}"/>' for stroke, width in ((INK, "3.2"), (colour, "1.8")))
            focus = (x + 7.4, y - 7.4)
        result = "" if item.failed is None else f' data-result="{"failed" if item.failed else "succeeded"}"'
        classes = f"order {type(order).__name__.lower()}" + (" failed" if item.failed else "")
        return (f'<g class="{classes}" data-owner="{_owner_name(item.owner)}" data-order={quoteattr(str(order))}'
                f'{result}>{mark}{_cross(focus) if item.failed else ""}</g>')


def _drawn_orders(position: Position, orders: Mapping[str, Sequence[Order]] | None,
                  record: CampaignRecord | None) -> list[_Order]:
    found = []
    if orders is not None:
        for player, items in orders.items():
            found += [_Order(player, order, None) for order in items]
    if record is not None:
        for result in record.action.results:
            if result.order is None:
                continue
            # An order that could not be carried out became a Hold (8.2); one carried out may have
            # been completed by the judge (a support's beneficiary), so it is not compared as written.
            failed = not result.succeeded or (isinstance(result.operation, Hold) and not isinstance(result.order, Hold))
            found.append(_Order(result.unit.owner, result.order, failed))
    return found


# -- the picture ------------------------------------------------------------------------------------


def _legend_columns(count: int) -> int:
    return min(count, 5)


def picture_size(board: Board, geometry: Geometry) -> Point:
    """The picture's size in map units: the title bar, the map and the legend."""
    rows = -(-(len(board.powers) + 1) // _legend_columns(len(board.powers) + 1))
    return geometry.width, TITLE_HEIGHT + geometry.height + rows * LEGEND_ROW + 14 + KEY_LINE * len(_key(geometry))


def _key(geometry: Geometry) -> list[str]:
    """How the marks read, a line each: cities, then units and orders, then (where the board has
    them) the straits nobody controls and the crossings fleets make."""
    key = [
        _("city: square fortified \u00b7 circle unfortified \u00b7 diamond fortress \u00b7 blue ring port \u00b7 "
          "digit: major city \u00b7 fill: who controls it (dark red: rebelling)"),
        _("disc: army \u00b7 ship: fleet \u00b7 tower: garrison \u00b7 dashed ring: siege \u00b7 hatched: rebellion "
          "\u00b7 red chain: strait \u00b7 arrow: advance \u00b7 dashed: support \u00b7 crossed: failed"),
    ]
    extra = []
    if any(gate.controller is None for gate in geometry.gates):
        extra.append(_("grey chain: a strait nobody controls"))
    if geometry.fleet_crossings:
        extra.append(_("blue dots: a crossing for fleets (an army crosses only if transported)"))
    return [*key, " \u00b7 ".join(extra)] if extra else key


def _heading(position: Position, orders: bool = False, record: CampaignRecord | None = None) -> str:
    """What the picture shows: a campaign's orders carried out (``record``), orders as given
    (``orders``), or the board awaiting the next letters."""
    if record is not None:
        return _("{season}, the campaign's orders carried out (failures crossed out)",
                 season=season_text(record.season))
    season = season_text(position.season)
    if orders:
        return _("{season}, the campaign's orders as given", season=season)
    if position.phase is Phase.A:
        return _("{season}, the spring's orders (A) awaited", season=season)
    if position.phase is Phase.C:
        return _("{season}, the campaign's orders (C) awaited", season=season)
    return _("{season}, the game is over", season=season)


def _counts(cities: int, units: int, eliminated: bool) -> str:
    """A country's line of the legend: its cities and its units, each in its plural form, and whether it
    is eliminated."""
    held = ngettext("{count} city", "{count} cities", cities)
    kept = ngettext("{count} unit", "{count} units", units)
    if eliminated:
        return _("{cities}, {units} (eliminated)", cities=held, units=kept)
    return _("{cities}, {units}", cities=held, units=kept)


def _legend(board: Board, geometry: Geometry, position: Position, style: _Style, top: float, width: float) -> str:
    """Each power's colour and letter, its cities and units; the independents; how the marks read."""
    entries: list[tuple[str, str, str, str, str]] = []  # the name kept, the name shown, colour, letter, counts
    held = Counter(position.city_controller(code) for code, area in board.areas.items()
                   if area.city is not None and not area.city.fortress)  # each city's controller asked once
    for power in board.powers:
        units = len(position.units_of(power))
        entries.append((power, power, style.colours[power], style.marks[power],
                        _counts(held[power], units, power in position.eliminated)))
    independents = [u for u in position.units.values() if isinstance(u.owner, Independent)]
    entries.append(("Independent", _("Independent"), INDEPENDENT, "i",
                    ngettext("{count} unit", "{count} units", len(independents))))
    columns = _legend_columns(len(entries))
    parts = [f'<g class="legend" transform="translate(0 {_n(top)})">']
    for i, (name, shown, colour, letter, counts) in enumerate(entries):
        x, y = (i % columns) * width / columns + 16, (i // columns) * LEGEND_ROW + 16
        parts.append(
            f'<g class="player" data-player="{escape(name)}">'
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="7" fill="{colour}" stroke="{INK}" stroke-width="1.2"/>'
            + _text((x, y + 3), letter, 7.5 if len(letter) == 1 else 6.5, fill=ink_on(colour), text_anchor="middle",
                    font_family=FONT, font_weight="bold")
            + _text((x + 12, y - 1), shown, 11, fill=INK, font_family=FONT, font_weight="bold")
            + _text((x + 12, y + 10), counts, 9, fill=INK, font_family=FONT)
            + "</g>"
        )
    rows = -(-len(entries) // columns)
    for line, text in enumerate(_key(geometry)):
        parts.append(_text((width / 2, rows * LEGEND_ROW + 14 + KEY_LINE * line), text, 9.5, fill="#555555",
                           text_anchor="middle", font_family=FONT))
    parts.append("</g>")
    return "".join(parts)


@dataclass(frozen=True)
class _Picture:
    """A picture's parts, bottom to top between the board's fixed layers (`_fixed`): the land's
    fills (with each province's SVG, which carries its controller), the rebellions' hatching
    (under the borders), the marks (coasts, cities, sieges, units, orders: over the borders,
    under the names), and the frame (the title bar and the legend)."""

    width: float
    height: float
    fills: Mapping[str, str]
    land: str
    rebellions: str
    marks: str
    frame: str

    def document(self, *parts: str, background: bool = False) -> str:
        """An SVG document of the picture's size holding ``parts``."""
        paper = f'<rect width="{_n(self.width)}" height="{_n(self.height)}" fill="white"/>' if background else ""
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(self.width * PIXELS_PER_UNIT)}" '
                f'height="{_n(self.height * PIXELS_PER_UNIT)}" viewBox="0 0 {_n(self.width)} {_n(self.height)}">'
                + paper + "".join(parts) + "</svg>")


def _map(content: str) -> str:
    """Map-unit content placed below the title bar."""
    return f'<g class="map" transform="translate(0 {_n(TITLE_HEIGHT)})">{content}</g>'


def _under(geometry: Geometry) -> str:
    """The sea and the land around the board: what every picture of the board has under the land."""
    return (f'<rect class="sea" width="{_n(geometry.width)}" height="{_n(geometry.height)}" fill="{SEA}"/>'
            f'<path class="neutral" d="{geometry.drawing.neutral.path}" fill="{NEUTRAL_LAND}" fill-rule="evenodd"/>')


def _picture(board: Board, geometry: Geometry, position: Position, title: str,
             orders: Mapping[str, Sequence[Order]] | None, record: CampaignRecord | None) -> _Picture:
    """The picture's parts: all but its frame the same in every language, and made once for a picture drawn in
    several languages one after the other (`_UNFRAMED`); its frame, the title bar and the legend, in the reader's."""
    given = None if orders is None else tuple((seat, tuple(items)) for seat, items in sorted(orders.items()))
    body = _UNFRAMED.get((board, geometry, position, record, given),
                       lambda: _body(board, geometry, position, orders, record))
    style = _Style(board_colours(board), letters(board.powers))
    heading = _heading(position, orders is not None, record)
    title_bar = _text((12, 28), _("{game}: {heading}", game=title, heading=heading), 18, class_="title", fill=INK,
                      font_family=FONT, font_weight="bold")
    legend = _legend(board, geometry, position, style, TITLE_HEIGHT + geometry.height, body.width)
    return replace(body, frame=title_bar + legend)


_UNFRAMED: Recent[_Picture] = Recent(same=4)  # the board, the geometry, the position and the record


def _body(board: Board, geometry: Geometry, position: Position, orders: Mapping[str, Sequence[Order]] | None,
          record: CampaignRecord | None) -> _Picture:
    """A picture without its frame (`_picture`)."""
    check_fits(board, geometry)
    style = _Style(board_colours(board), letters(board.powers))
    drawing = geometry.drawing
    width, height = picture_size(board, geometry)
    fills, land = {}, []
    for code, area in board.areas.items():
        if area.is_sea:
            continue
        controller = position.controller(code)
        fill = LAND if controller is None else (tint(INDEPENDENT, PRESENCE) if isinstance(controller, Independent)
                                                else province_tint(style.colour(controller)))
        owner = "" if controller is None else f' data-controller="{escape(_owner_name(controller))}"'
        fills[code] = fill
        land.append(f'<path class="province" data-area="{code}"{owner} d="{drawing.areas[code].path}" '
                    f'fill="{fill}" fill-rule="evenodd"/>')
    rebellions = [_rebellion(code, drawing.areas[code].shape, victim, style) for code, victim in
                  sorted(position.rebellions.items())]
    marks = []
    occupied = {(u.area, u.coast) for u in position.units.values() if u.coast}
    for code, places in geometry.places.items():
        for coast, at in places.coasts.items():
            if (code, coast) not in occupied:
                marks.append(_coast_slot(code, coast, at))
    for code, places in geometry.places.items():
        if places.city is not None and board.areas[code].city is not None:
            marks.append(_city(board, position, code, places.city, style))
    for code, siege in sorted(position.sieges.items()):
        places = geometry.places[code]
        marks.append(_siege(code, places.garrison or places.unit, siege.besieger, siege.seasons, style))
    for unit in position.units.values():
        places = geometry.places[unit.area]
        if unit.kind is UnitKind.GARRISON:
            at = places.garrison or places.unit
        else:
            at = places.coasts.get(unit.coast, places.unit) if unit.coast else places.unit
        marks.append(_unit(unit, at, style))
    painter = _Orders(board, geometry, position, style)
    marks += [painter.draw(item) for item in _drawn_orders(position, orders, record)]
    return _Picture(width, height, fills, "".join(land), "".join(rebellions), "".join(marks), "")


def render_svg(
    board: Board,
    geometry: Geometry,
    position: Position,
    *,
    title: str,
    orders: Mapping[str, Sequence[Order]] | None = None,
    record: CampaignRecord | None = None,
) -> str:
    """Draw ``position`` on ``board`` as an SVG document.

    ``orders`` (each player's operation orders) are drawn as ordered; ``record`` draws the
    operations of the campaign it records, each as ordered and crossed out where it failed or
    could not be carried out (give it the position its operations started from,
    ``record.expending.position``).  ``title`` names the game.  GeometryError if the drawing
    does not fit the board.
    """
    drawn = _picture(board, geometry, position, title, orders, record)
    return drawn.document(_map(_under(geometry) + drawn.land + drawn.rebellions + _borders(geometry, current())
                               + drawn.marks + _names(board, geometry)), drawn.frame, background=True)


@cache
def _fixed(board: Board, geometry: Geometry, width: int) -> tuple[Any, Any, Any, dict[str, Any]]:
    """Rasters of a board's fixed layers at ``width`` pixels (what lies under the land, the
    borders, the names) and each land area's mask: drawn by cairosvg once per board and width."""
    from judge.render.png import land_masks, rasterise

    blank = _Picture(*picture_size(board, geometry), {}, "", "", "", "")
    under = rasterise(blank.document(_map(_under(geometry)), background=True), width)
    borders = rasterise(blank.document(_map(_borders(geometry, SOURCE))), width)  # its titles are not drawn
    names = rasterise(blank.document(_map(_names(board, geometry))), width)
    land = ((code, geometry.drawing.areas[code].shape) for code, area in board.areas.items() if not area.is_sea)
    return under, borders, names, land_masks(land, width / geometry.width, TITLE_HEIGHT)


def render_png(
    board: Board,
    geometry: Geometry,
    position: Position,
    *,
    title: str,
    orders: Mapping[str, Sequence[Order]] | None = None,
    record: CampaignRecord | None = None,
    width: int | None = None,
) -> bytes:
    """The PNG of :func:`render_svg`'s picture, ``width`` pixels wide (by default its nominal size).
    Needs the Cairo library: ImportError or OSError without it.

    As Payola's maps (`judge.render.png`): the board's fixed layers drawn once (`_fixed`), and a
    picture composed of them, the land's fills through each area's mask, and its own parts
    painted by Cairo (`judge.render.paint`): AoP's map took 1.9 s when cairosvg drew the whole
    document each time.  Its words lie in its title bar and legend alone: drawn in another language
    just after (a results mail's, for each language its readers read), only those are drawn again
    (`judge.render.png.compose_framed`)."""
    from judge.render.png import Canvas, compose_framed

    size = width or round(geometry.width * PIXELS_PER_UNIT)
    under, borders, names, masks = _fixed(board, geometry, size)
    drawn = _picture(board, geometry, position, title, orders, record)
    scale = size / geometry.width

    def body() -> Canvas:
        canvas = Canvas(under)
        canvas.fill(masks, drawn.fills)
        if drawn.rebellions:
            canvas.paint(drawn.document(_map(drawn.rebellions)), scale)
        canvas.layer(borders)
        canvas.paint(drawn.document(_map(drawn.marks)), scale)
        canvas.layer(names)
        return canvas

    key = ("machiavelli", board.name, geometry.name, size, tuple(sorted(drawn.fills.items())), drawn.rebellions,
           drawn.marks)
    rows = int(TITLE_HEIGHT * scale), int((TITLE_HEIGHT + geometry.height) * scale)
    return compose_framed(key, body, drawn.document(drawn.frame), scale, rows)
