"""A position, and the orders of its phase, drawn as an SVG picture.

Layers, bottom to top: the sea (the background), land tinted by who holds it, borders,
supply centers, units, then the orders, then the names (each with a halo, so that an arrow
under it never hides it), then a title bar and a legend.  The parts
that never change for a board (borders, names, neutral land, coast marks) are built once
per board and reused.  The borders (land, coast, sea) are drawn with crisp edges
(``shape-rendering="crispEdges"``): a line about a pixel wide without antialiasing, as sharp
as before, whose thousands of shaded edge pixels were a third of a standard map's PNG bytes
(in 256 colours at zlib's level 6, 122 KB to 82 KB, and Known World 901's
1920-pixel map 326 KB to 240 KB).

Orders are drawn from where the unit stands: a move is an arrow; a support is a dashed
line to the middle of the supported move (or a dashed ring round the supported unit); a
convoy is a dotted path army → fleet → destination, and a convoyed army's arrow runs
through the fleets that carry it; a hold is a ring round the unit.  Retreats are arrows from
the dislodged unit, which is drawn beside its province (`aside_point`: away from its
attacker, the center's star and the name) with a dashed outline; builds are units with a
ring, removals and disbands are crosses.  With results, an order that failed (or was
invalid) is crossed out, in its power's full colour so that it stays visible on any ground;
given bare orders, everything is drawn as ordered.  A province's name moves off the spot
where a unit would cover it (`label_point`).

A position seen by one power (a Tin Cup game, ``seen_by`` and ``view``) is titled "as France
sees it", and the provinces out of its view lie under a fog, a dark grey tone with a dark
hatching (`hatching`), so that an empty province it sees differs from one it cannot see, and
no power's tint (the standard board's Germany is grey) passes for fog.

Where the powers' colours are not the standard board's traditional ones (variants: see
:mod:`judge.render.palette`), each unit also carries its power's letter, and the legend
shows each power's colour with that letter, in as many rows as it needs (Void has 36
powers).  An archipelago is drawn as sea with its islands as land (a holder's tint fills
the islands), a weak strait's crossing as a ford across the water.  On a board that wraps
east-west (World) an order between provinces on opposite edges goes the short way: its
line runs off one edge and is drawn again coming in at the other.

Elements carry data attributes (``data-power``, ``data-type``, ``data-location``,
``data-order``, ``data-result``) so that the picture can be checked by reading it back.
"""

from __future__ import annotations

import math
import threading
from collections import deque
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Generic, TypeVar
from xml.sax.saxutils import escape, quoteattr

from judge.engine.map import GameMap, Location, PowerInfo, Terrain
from judge.engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    PhaseKind,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    UnitType,
)
from judge.engine.position import Phase, Position, Season
from judge.engine.results import OrderResult, Outcome
from judge.language import current, ngettext
from judge.language import gettext as _
from judge.render.board import Board, Point, along, load_board, towards
from judge.render.palette import (
    IMPASSABLE,
    INK,
    LAND,
    NEUTRAL_LAND,
    SEA,
    SEA_INK,
    ink_on,
    lettered,
    power_colours,
    tint,
)
from judge.wording import power_title

TITLE_HEIGHT = 42.0
LEGEND_ROW = 36.0  # each row of powers in the legend
LEGEND_KEY = 26.0  # the line saying how orders are drawn
LEGEND_HEIGHT = LEGEND_ROW + LEGEND_KEY  # the legend of a board whose powers fit in one row
PIXELS_PER_UNIT = 1.2  # the SVG's nominal size: 1200 px for the 1000-unit standard board
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
UNIT_RADIUS = 9.0
UNIT_BOX = (-10.0, -12.0, 10.0, 7.5)  # what a unit's mark covers about its point: left, top, right, bottom
ASIDE = 21.0  # how far from its province's unit point a dislodged unit stands
CRISP = 'shape-rendering="crispEdges"'  # the borders' lines: a pixel wide, without antialiasing (see the header)

FOG = "#3E454C"  # over the provinces a power cannot see: a dark tone, darker than any power's tint...
FOG_HATCH = "#15181B"  # ...and hatched, so that it reads as fog over any tint (issue 43.10)
HATCH = 6.0  # the hatching's lines' distance apart, in map units

OrdersOrResults = Mapping[str, Sequence[Order | str]] | Iterable[OrderResult]


@dataclass(frozen=True, slots=True)
class _Drawn:
    """One order to draw: whose it is, and how it went (``None`` when not adjudicated)."""

    power: str
    order: Order
    outcome: Outcome | None


def _drawn_orders(orders: OrdersOrResults | None) -> list[_Drawn]:
    if orders is None:
        return []
    if isinstance(orders, Mapping):
        return [_Drawn(p, o, None) for p, items in orders.items() for o in items if not isinstance(o, str)]
    return [_Drawn(r.power, r.order, r.outcome) for r in orders if not isinstance(r.order, str)]


def _n(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _xy(p: Point) -> str:
    return f"{_n(p[0])} {_n(p[1])}"


def _text(x: float, y: float, text: str, size: float, **attrs: str) -> str:
    """A text element; keyword ``font_size`` is written ``font-size``, ``class_`` is written ``class``."""
    extra = "".join(f" {k.rstrip('_').replace('_', '-')}={quoteattr(v)}" for k, v in attrs.items())
    return f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}"{extra}>{escape(text)}</text>'


def _named(x: float, y: float, text: str, size: float, **attrs: str) -> str:
    """A name on the map: a halo of the paper's colour round its letters, then the letters, so
    that a line drawn under it (an order's arrow, a border) leaves it readable."""
    halo = {k: v for k, v in attrs.items() if k in ("text_anchor", "font_family", "font_weight", "font_style")}
    return (_text(x, y, text, size, class_="halo", fill="white", fill_opacity="0.7", stroke="white",
                  stroke_opacity="0.7", stroke_width="2.4", stroke_linejoin="round", **halo)
            + _text(x, y, text, size, **attrs))


def phase_title(phase: Phase) -> str:
    """``Spring 1901 movement``, ``Fall 1902 retreats``, ``Winter 1903 adjustments``, in the reader's language."""
    year = phase.year
    titles = {
        (Season.SPRING, PhaseKind.MOVEMENT): _("Spring {year} movement", year=year),
        (Season.SPRING, PhaseKind.RETREAT): _("Spring {year} retreats", year=year),
        (Season.SPRING, PhaseKind.ADJUSTMENT): _("Spring {year} adjustments", year=year),
        (Season.FALL, PhaseKind.MOVEMENT): _("Fall {year} movement", year=year),
        (Season.FALL, PhaseKind.RETREAT): _("Fall {year} retreats", year=year),
        (Season.FALL, PhaseKind.ADJUSTMENT): _("Fall {year} adjustments", year=year),
        (Season.WINTER, PhaseKind.MOVEMENT): _("Winter {year} movement", year=year),
        (Season.WINTER, PhaseKind.RETREAT): _("Winter {year} retreats", year=year),
        (Season.WINTER, PhaseKind.ADJUSTMENT): _("Winter {year} adjustments", year=year),
    }
    return titles[(phase.season, phase.kind)]


# -- where things go ----------------------------------------------------------------------


@cache
def hatching(board: Board, province: str) -> str:
    """Path data of the fog's hatching over ``province``: lines at 45 degrees, ``HATCH`` apart on
    one grid for the whole board (so that the lines of neighbouring provinces meet), each cut to
    the province's shape (even-odd: a hole, an enclosed sea, stays clear)."""
    rings = [ring for polygon in board.areas[province].shape for ring in polygon]
    step = HATCH * math.sqrt(2)  # along x - y, the lines' distance apart is step / sqrt(2)
    values = [x - y for ring in rings for x, y in ring]
    parts: list[str] = []
    line = math.floor(min(values) / step) * step + step / 2
    while line < max(values):
        crossings = []
        for ring in rings:
            for (x1, y1), (x2, y2) in zip(ring, (*ring[1:], ring[0]), strict=True):
                d1, d2 = x1 - y1 - line, x2 - y2 - line
                if (d1 > 0) != (d2 > 0):
                    t = d1 / (d1 - d2)
                    crossings.append((x1 + t * (x2 - x1), y1 + t * (y2 - y1)))
        crossings.sort()
        parts.extend(f"M{_xy(a)}L{_xy(b)}" for a, b in zip(crossings[::2], crossings[1::2], strict=True)
                     if math.dist(a, b) >= 1)  # a corner's crumb is no line
        line += step
    return "".join(parts)


def _label_box(at: Point, text: str, size: float) -> tuple[float, float, float, float]:
    """What a bold label of ``text`` drawn at ``at`` (its middle, baseline 3.6 below) covers."""
    half = 0.34 * size * len(text)
    return at[0] - half, at[1] + 3.6 - 0.75 * size, at[0] + half, at[1] + 3.6 + 0.1 * size


def _clear(box: tuple[float, float, float, float], other: tuple[float, float, float, float], gap: float) -> bool:
    return (box[2] + gap <= other[0] or other[2] + gap <= box[0]
            or box[3] + gap <= other[1] or other[3] + gap <= box[1])


def _around(at: Point, box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    return at[0] + box[0], at[1] + box[1], at[0] + box[2], at[1] + box[3]


@cache
def label_point(board: Board, province: str) -> Point:
    """Where a land province's name goes: its label point, unless a unit standing there (or on
    one of its coasts) would cover the name (APU on the standard board); then just above or
    below the unit, whichever is nearer, keeping clear of the supply center's star."""
    area, size = board.areas[province], 9.5
    covers = [_around(p, UNIT_BOX) for p in (area.unit, *area.coasts.values())]
    if all(_clear(_label_box(area.label, area.id, size), box, 0.5) for box in covers):
        return area.label
    star = [] if area.center is None else [_around(area.center, (-6.0, -6.0, 6.0, 6.0))]
    x, y = area.unit
    side = math.copysign(UNIT_BOX[2] + 0.34 * size * len(area.id) + 2.5, area.label[0] - x)
    # Beside the unit on the name's own side if that is much nearer (WAL), else above or below (APU).
    tries = sorted([(x, y + UNIT_BOX[3] + 0.75 * size), (x, y + UNIT_BOX[1] - 0.1 * size - 5.6),
                    (x + side, area.label[1])],
                   key=lambda p: math.dist(p, area.label) * (1.5 if p[1] == area.label[1] else 1.0))
    # Failing those (a unit on a coast as well, Honduras on the Empire board): clear of all the
    # marks at once, below, above or beside them.
    half, gap = 0.34 * size * len(area.id), 2.5
    left, top = min(box[0] for box in covers), min(box[1] for box in covers)
    right, bottom = max(box[2] for box in covers), max(box[3] for box in covers)
    wider = sorted([(area.label[0], bottom + gap + 0.75 * size - 3.6), (area.label[0], top - gap - 3.6 - 0.1 * size),
                    (right + gap + half, area.label[1]), (left - gap - half, area.label[1])],
                   key=lambda p: math.dist(p, area.label))
    for spot in tries + wider:
        if all(_clear(_label_box(spot, area.id, size), box, 2.0) for box in [*covers, *star]):
            return spot
    return tries[0]


@cache
def aside_point(board: Board, province: str) -> Point:
    """Where a unit dislodged from ``province`` is drawn: ``ASIDE`` from the unit point (where its
    attacker now stands), in the direction that keeps it furthest from the attacker's mark and
    from the stars, names and unit points nearby (its own province's and its neighbours')."""
    area = board.areas[province]
    marks = [area.unit]
    for other in board.areas.values():
        if math.dist(other.unit, area.unit) < 3 * ASIDE:
            name = other.label if other.kind == "sea" else label_point(board, other.id)
            marks += [name, *([other.center] if other.center is not None else []),
                      *([other.unit] if other is not area else [])]
    x, y = area.unit
    spots = [(x + ASIDE * math.cos(k * math.pi / 4), y - ASIDE * math.sin(k * math.pi / 4)) for k in range(8)]
    return max(spots, key=lambda p: (min(math.dist(p, m) for m in marks), -spots.index(p)))


# -- units --------------------------------------------------------------------------------

_FLEET = "M-10 -1L10 -1L6.5 5.5L-6.5 5.5ZM-2 -2.5L-2 -12L7 -2.5Z"


def _unit(
    kind: UnitType | None,
    at: Point,
    colour: str,
    attrs: str,
    dashed: bool = False,
    ink: str = INK,
    letter: str = "",
) -> str:
    """A unit's mark: a circle (army) or a ship (fleet), with its power's letter when given."""
    dash = ' stroke-dasharray="2.5 1.5"' if dashed else ""
    style = f'fill="{colour}" stroke="{ink}" stroke-width="1.4"{dash}'
    if kind is UnitType.FLEET:
        mark = f'<path{attrs} d="{_FLEET}" transform="translate({_xy(at)})" {style}/>'
        spot, size = (at[0], at[1] + 4.6), 6.0  # in the hull
    else:
        mark = f'<circle{attrs} cx="{_n(at[0])}" cy="{_n(at[1])}" r="7.5" {style}/>'
        spot, size = (at[0], at[1] + 3.2), 9.0
    if not letter:
        return mark
    return mark + _text(
        spot[0], spot[1], letter, size, class_="letter", fill=ink_on(colour), text_anchor="middle",
        font_family=FONT, font_weight="bold",
    )


def _unit_attrs(classes: str, power: str, kind: UnitType | None, location: Location, extra: str = "") -> str:
    letter = kind.value if kind else ""
    return f' class="{classes}" data-power="{power}" data-type="{letter}" data-location="{location}"{extra}'


# -- orders -------------------------------------------------------------------------------


def _arrow_path(points: Sequence[Point]) -> tuple[str, Point]:
    """Path data for a polyline ending in an arrowhead, and the tip.

    The shaft is drawn there and back again, so that filling the path (for the head) adds
    no area along a bent shaft: one element per stroke colour does shaft and head.
    """
    start = towards(points[0], points[1], UNIT_RADIUS)
    tip = towards(points[-1], points[-2], 4.0)
    base = towards(tip, points[-2], 10.0)
    dx, dy = tip[0] - base[0], tip[1] - base[1]
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length * 5.0, dx / length * 5.0
    line = [start, *points[1:-1], base]
    shaft = "M" + "L".join(_xy(p) for p in [*line, *line[-2::-1]])
    head = f"M{_xy((base[0] + nx, base[1] + ny))}L{_xy(tip)}L{_xy((base[0] - nx, base[1] - ny))}Z"
    return shaft + head, tip


def _cross(at: Point, size: float = 6.0) -> str:
    x, y = at
    a, b = _xy((x - size, y - size)), _xy((x + size, y + size))
    c, e = _xy((x - size, y + size)), _xy((x + size, y - size))
    d = f"M{a}L{b}M{c}L{e}"
    return (
        f'<path class="cross" d="{d}" stroke="white" stroke-width="4.5" stroke-linecap="round"/>'
        f'<path class="cross" d="{d}" stroke="{INK}" stroke-width="2.2" stroke-linecap="round"/>'
    )


class _Scene:
    """Builds the order layer: knows where each unit stands and which fleets carry which army."""

    def __init__(
        self,
        position: Position,
        board: Board,
        colours: Mapping[str, str],
        drawn: list[_Drawn],
        letters: Mapping[str, str],
    ) -> None:
        self.position = position
        self.board = board
        self.colours = colours
        self.letters = letters
        self.beyond: set[float] = set()  # shifts at which the order being drawn is drawn again (see unwrapped)
        self.drawn = drawn
        self.convoys: dict[tuple[str, str], list[str]] = {}
        for item in drawn:
            if isinstance(item.order, Convoy):
                key = (item.order.army.province, item.order.destination.province)
                self.convoys.setdefault(key, []).append(item.order.unit.province)
        # Convoyed moves that are drawn through their fleets: (army's province, destination).
        self.carried = {
            (item.order.unit.province, item.order.destination.province)
            for item in drawn
            if isinstance(item.order, Move) and len(self.route(item.order)) > 2
        }

    def unwrapped(self, points: Sequence[Point], drawn: bool = True) -> list[Point]:
        """``points`` as one line the short way on a board that wraps east-west: each point taken
        on the side of the edge nearer the point before it.  A ``drawn`` line that so runs off the
        map is noted in :attr:`beyond` (the shifts at which :meth:`order` draws the order again)."""
        line = list(points[:1])
        width = self.board.width
        for x, y in points[1:]:
            if self.board.wrap:
                x += width * round((line[-1][0] - x) / width)
            line.append((x, y))
        if drawn and any(x > width for x, _ in line):
            self.beyond.add(-width)
        if drawn and any(x < 0 for x, _ in line):
            self.beyond.add(width)
        return line

    def at(self, location: Location) -> Point:
        """Where the unit ordered at ``location`` stands (dislodged units stand aside)."""
        province = location.province
        if self.position.phase.kind is PhaseKind.RETREAT and province in self.position.dislodged:
            return aside_point(self.board, province)
        unit = self.position.units.get(province)
        return self.board.point(unit.location if unit else location)

    def target(self, location: Location) -> Point:
        """Where a move to ``location`` points: the coast's point, else the province's."""
        return self.board.point(location)

    def route(self, move: Move, drawn: bool = True) -> list[Point]:
        """The way a move goes: straight, or through the fleets ordered to convoy it (``drawn``: see
        :meth:`unwrapped`)."""
        origin, goal = move.unit.province, move.destination.province
        fleets = self.convoys.get((origin, goal), [])
        chain = _convoy_chain(self.position.game_map, origin, goal, fleets) if fleets else []
        return self.unwrapped(
            [self.at(move.unit.location), *(self.at(Location(f)) for f in chain), self.target(move.destination)], drawn
        )

    def order(self, item: _Drawn) -> str:
        order = item.order
        colour = self.colours.get(item.power, "#777777")
        failed = item.outcome in (Outcome.FAILS, Outcome.INVALID)
        # A failed order keeps its power's colour, so that it can be seen on any ground (pale
        # arrows vanished on the sea and on grey land): the cross over it says it failed.
        self.beyond = set()
        mark, focus, extra = self._mark(item.power, order, colour, INK)
        if not mark:
            return ""
        classes = f"order {type(order).__name__.lower()}" + (" failed" if failed else "")
        result = f' data-result="{item.outcome.value}"' if item.outcome else ""
        drawn = mark + (_cross(focus) if failed else "")
        # An order across the edge of a board that wraps runs off the map: again from the other edge.
        again = "".join(
            f'<g class="beyond-edge" transform="translate({_n(shift)} 0)">{drawn}</g>' for shift in sorted(self.beyond)
        )
        return (
            f'<g class="{classes}" data-power="{item.power}" data-order={quoteattr(str(order))}{result}{extra}>'
            f"{drawn}{again}</g>"
        )

    def _mark(self, power: str, order: Order, colour: str, ink: str) -> tuple[str, Point, str]:
        """The drawing of one order, the point a failure cross goes on, and extra attributes."""
        if isinstance(order, Move | Retreat):
            points = (
                self.route(order)
                if isinstance(order, Move)
                else self.unwrapped([self.at(order.unit.location), self.target(order.destination)])
            )
            if math.dist(points[0], points[-1]) < 1:
                return "", points[0], ""
            d, tip = _arrow_path(points)
            mark = (
                f'<path d="{d}" fill="{ink}" stroke="{ink}" stroke-width="4.6" stroke-linejoin="round"/>'
                f'<path d="{d}" fill="{colour}" stroke="{colour}" stroke-width="2.4" stroke-linejoin="round"/>'
            )
            return mark, along(points, 0.5), f' data-to="{order.destination}" data-tip="{_xy(tip)}"'
        if isinstance(order, SupportMove):
            start = self.at(order.unit.location)
            target = along(self.route(Move(order.supported, order.destination), drawn=False), 0.5)
            start, target = self.unwrapped([start, target])
            return self._dashed([start, target], colour, ink, ring=None), along([start, target], 0.5), ""
        if isinstance(order, SupportHold):
            start, held = self.unwrapped([self.at(order.unit.location), self.at(order.supported.location)])
            end = towards(held, start, 12.0)
            return self._dashed([start, end], colour, ink, ring=held), along([start, end], 0.5), ""
        if isinstance(order, Convoy):
            fleet = self.at(order.unit.location)
            ring = (
                f'<circle cx="{_n(fleet[0])}" cy="{_n(fleet[1])}" r="13" fill="none" stroke="{ink}" '
                f'stroke-width="3.4" stroke-dasharray="0.1 4.5" stroke-linecap="round"/>'
                f'<circle cx="{_n(fleet[0])}" cy="{_n(fleet[1])}" r="13" fill="none" stroke="{colour}" '
                f'stroke-width="2.2" stroke-dasharray="0.1 4.5" stroke-linecap="round"/>'
            )
            if (order.army.province, order.destination.province) in self.carried:
                return ring, fleet, ""  # the army's arrow already runs through this fleet
            points = self.unwrapped([fleet, self.at(order.army.location), self.target(order.destination)])
            points = [points[1], points[0], points[2]]
            d = "M" + "L".join(_xy(p) for p in points)
            path = (
                f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="2" stroke-dasharray="0.1 5" '
                f'stroke-linecap="round" stroke-linejoin="round"/>'
            )
            return ring + path, fleet, ""
        if isinstance(order, Build):
            kind = order.unit.type
            at = self.board.point(order.unit.location)
            attrs = _unit_attrs("new-unit", power, kind, order.unit.location)
            ring = f'<circle cx="{_n(at[0])}" cy="{_n(at[1])}" r="13" fill="none" stroke="{ink}" stroke-width="1.6"/>'
            return ring + _unit(kind, at, colour, attrs, ink=ink, letter=self.letters.get(power, "")), at, ""
        if isinstance(order, Remove | Disband):
            at = self.at(order.unit.location)
            return _cross(at, 9.0), at, ""
        if isinstance(order, Hold):
            at = self.at(order.unit.location)
            ring = "".join(
                f'<circle cx="{_n(at[0])}" cy="{_n(at[1])}" r="12.5" fill="none" stroke="{stroke}" '
                f'stroke-width="{width}"/>' for stroke, width in ((ink, "3.6"), (colour, "2"))
            )
            return ring, (at[0] + 9.0, at[1] - 9.0), ""
        return "", (0.0, 0.0), ""

    @staticmethod
    def _dashed(points: list[Point], colour: str, ink: str, ring: Point | None) -> str:
        d = "M" + "L".join(_xy(p) for p in points)
        end = points[-1]
        parts = [
            f'<path d="{d}" fill="none" stroke="{ink}" stroke-width="3.4" stroke-dasharray="6 3"/>',
            f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="1.8" stroke-dasharray="6 3"/>',
        ]
        if ring is None:
            parts.append(f'<circle cx="{_n(end[0])}" cy="{_n(end[1])}" r="3" fill="{colour}" stroke="{ink}"/>')
        else:
            parts.append(
                f'<circle cx="{_n(ring[0])}" cy="{_n(ring[1])}" r="12" fill="none" stroke="{colour}" '
                f'stroke-width="2" stroke-dasharray="4 2"/>'
            )
        return "".join(parts)


def _convoy_chain(game_map: GameMap, origin: str, goal: str, fleets: Sequence[str]) -> list[str]:
    """The fleets a convoy passes, in order: a shortest chain from ``origin`` to ``goal``."""
    seas = [f for f in fleets if game_map.provinces[f].terrain is Terrain.SEA]
    previous: dict[str, str] = {}
    queue = deque(f for f in seas if f in game_map.any_neighbours(origin))
    seen = set(queue)
    while queue:
        here = queue.popleft()
        if goal in game_map.any_neighbours(here):
            chain = [here]
            while chain[-1] in previous:
                chain.append(previous[chain[-1]])
            return chain[::-1]
        for nxt in seas:
            if nxt not in seen and nxt in game_map.any_neighbours(here):
                seen.add(nxt)
                previous[nxt] = here
                queue.append(nxt)
    return []


# -- the picture --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Picture:
    """A drawing in layers: the board's fixed ones, the land's fills, and what this phase adds.

    :meth:`svg` joins them into one document; the PNG renderer keeps rasters of the fixed
    layers (:func:`static_layers`, :func:`legend_powers`, :func:`legend_note` in each language), of each
    province's area and of the fog
    over each province, and draws only ``marks`` and ``frame`` each time.
    """

    board: Board
    powers: tuple[str, ...]
    letters: tuple[tuple[str, str], ...]  # (power, letter) where units carry letters
    fills: Mapping[str, str]  # land province -> fill colour
    owners: Mapping[str, str]  # land province -> the power its tint stands for
    marks: str  # centers, units and orders, in map units
    frame: str  # title bar and legend, in document units
    fog: tuple[str, ...] = ()  # the provinces a Tin Cup power does not see, under the marks (`fog`)

    @property
    def size(self) -> tuple[float, float]:
        return self.board.width, TITLE_HEIGHT + self.board.height + legend_height(len(self.powers))

    def document(self, *parts: str, background: bool = True) -> str:
        """An SVG document of this picture's size holding ``parts`` (map parts already placed)."""
        width, height = self.size
        paper = f'<rect width="{_n(width)}" height="{_n(height)}" fill="white"/>' if background else ""
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width * PIXELS_PER_UNIT)}" '
            f'height="{_n(height * PIXELS_PER_UNIT)}" viewBox="0 0 {_n(width)} {_n(height)}">{paper}'
            + "".join(parts)
            + "</svg>"
        )

    def svg(self) -> str:
        below, over, names = static_layers(self.board)
        land = []
        for province, fill in self.fills.items():
            area = self.board.areas[province]
            owner = self.owners.get(province)
            owner_attr = f' data-owner="{owner}"' if owner else ""
            land.append(
                f'<path class="province {area.kind}" data-province="{province}"{owner_attr} d="{area.land}" '
                f'fill="{fill}" fill-rule="evenodd"/>'
            )
        key = legend_key(self.board, self.powers, self.letters)
        return self.document(map_layer(below + "".join(land) + over + "".join(fog(self.board, province)
                                                                             for province in self.fog)
                                       + self.marks + names), key, self.frame)


@cache
def fog(board: Board, province: str) -> str:
    """The fog over a province a Tin Cup power does not see: a veil, and hatching over it."""
    area = board.areas[province]
    return (f'<path class="unseen" data-province="{area.id}" d="{area.path}" fill="{FOG}" fill-opacity="0.6" '
            f'fill-rule="evenodd"/><path class="fog-hatch" data-province="{area.id}" '
            f'd="{hatching(board, area.id)}" fill="none" stroke="{FOG_HATCH}" stroke-width="1.1" '
            'stroke-opacity="0.7"/>')


def map_layer(content: str) -> str:
    """Map-unit content placed below the title bar."""
    return f'<g class="map" transform="translate(0 {_n(TITLE_HEIGHT)})">{content}</g>'


@cache
def static_layers(board: Board) -> tuple[str, str, str]:
    """What lies under the land (the sea, neutral land), over it (borders, straits, coasts) and
    over everything the phase draws (the names: an order's arrow runs under a province's name,
    which a halo of the paper's colour keeps readable, and never hides it: issue 43.11)."""
    below = (
        f'<rect class="sea" width="{_n(board.width)}" height="{_n(board.height)}" fill="{SEA}"/>'
        f'<path class="neutral" d="{board.neutral.path}" fill="{NEUTRAL_LAND}" fill-rule="evenodd"/>'
    )
    over = [
        f'<path class="border sea" d="{board.borders["sea"]}" fill="none" stroke="#7D9AB0" '
        f'stroke-width="0.8" stroke-dasharray="4 2.5" {CRISP}/>',
        f'<path class="border land" d="{board.borders["land"]}" fill="none" stroke="#6B6457" stroke-width="0.8" '
        f'{CRISP}/>',
        f'<path class="border coast" d="{board.borders["coast"]}" fill="none" stroke="#45505A" stroke-width="1.1" '
        f'{CRISP}/>',
    ]
    over += [
        f'<path class="border coast islands" data-province="{area.id}" d="{area.land}" fill="none" '
        f'stroke="#45505A" stroke-width="1.1" {CRISP}/>'
        for area in board.areas.values()
        if area.kind == "archipelago"
    ]
    for strait in board.straits:
        # A ford: a broad pale band with dark edges across the water, like a causeway.
        d = "M" + "L".join(_xy(p) for p in strait.line)
        over.append(
            f'<g class="strait" data-provinces="{" ".join(strait.provinces)}">'
            f'<path d="{d}" fill="none" stroke="{INK}" stroke-width="6" stroke-linecap="round"/>'
            f'<path d="{d}" fill="none" stroke="{LAND}" stroke-width="4" stroke-linecap="round"/>'
            f'<path d="{d}" fill="none" stroke="{SEA_INK}" stroke-width="1" stroke-dasharray="2 2"/></g>'
        )
    for link in board.links:
        # An off-board box's link: a dashed line from the box to the space beyond the edge.
        d = "M" + "L".join(_xy(p) for p in link.line)
        over.append(
            f'<path class="link" data-provinces="{" ".join(link.provinces)}" d="{d}" fill="none" '
            f'stroke="{INK}" stroke-width="1.4" stroke-dasharray="3 2" stroke-linecap="round"/>'
        )
    names: list[str] = []
    for name, linked in board.boxes.items():
        # An off-board box names the boxes it is linked to, three a line, under its own name.
        x, y = board.areas[name].label
        for row in range(0, len(linked), 3):
            names.append(
                _named(x, y + 12 + 3 * row, " ".join(linked[row : row + 3]), 6.5, class_="box-links",
                       fill=INK, text_anchor="middle", font_family=FONT)
            )
    for area in board.areas.values():
        sea = area.kind == "sea"
        style = {"font_style": "italic"} if sea else {"font_weight": "bold"}
        label = area.label if sea else label_point(board, area.id)
        names.append(
            _named(
                label[0],
                label[1] + 3.6,
                area.id,
                10 if sea else 9.5,
                fill=SEA_INK if sea else INK,
                text_anchor="middle",
                font_family=FONT,
                **style,
            )
        )
        for coast, (x, y) in area.coasts.items():
            # The coast's name sits just beyond the point, away from the province's middle.
            dx, dy = x - area.unit[0], y - area.unit[1]
            norm = math.hypot(dx, dy) or 1.0
            tx, ty = x + dx / norm * 12, y + dy / norm * 12
            over.append(f'<circle class="coast" cx="{_n(x)}" cy="{_n(y)}" r="2.2" fill="none" stroke="{INK}"/>')
            names.append(
                _named(
                    tx,
                    ty + 2.6,
                    coast.lower(),
                    7.5,
                    fill=INK,
                    text_anchor="middle",
                    font_family=FONT,
                    font_weight="bold",
                    data_coast=f"{area.id}/{coast}",
                )
            )
    return below, "".join(over), "".join(names)


def picture(
    position: Position,
    orders_or_results: OrdersOrResults | None = None,
    *,
    title: str | None = None,
    date: str | None = None,
    territory: Mapping[str, str] | None = None,
    board: Board | None = None,
    counted: Collection[str] | None = None,
    seen_by: str | None = None,
    view: Collection[str] | None = None,
    captions: Mapping[str, str] | None = None,
) -> Picture:
    """The layers of the drawing of ``position`` (see :func:`render_svg` for the arguments).  All but its frame
    (the title bar and the legend) is the same in every language: drawn again for another language just
    after (a results mail's maps, drawn once for each language their readers read), it is not made again
    (`_UNFRAMED`)."""
    board = board or load_board(position.game_map.drawing)
    orders = tuple(_drawn_orders(orders_or_results))
    key = (position, board, orders, tuple(sorted((territory or {}).items())), None if view is None else frozenset(view))
    drawn = _UNFRAMED.get(key, lambda: _body(position, orders, territory or {}, board, view))
    frame = _title_bar(position, board.width, title, date, seen_by) + _legend(
        position, board.width, TITLE_HEIGHT + board.height, counted, captions or {})
    return replace(drawn, frame=frame)


T = TypeVar("T")


class Recent(threading.local, Generic[T]):
    """This thread's last few values made from their keys: the parts of a picture that are the same in every
    language, for a results mail's pictures are drawn once for each language their readers read, one language
    after the other.  A key's first ``same`` entries are compared by identity (the objects are kept, so that
    no other object can later be taken for one of them), the others by value."""

    def __init__(self, same: int, kept: int = 2) -> None:  # a phase's two pictures: the orders, the board after
        self.same, self.kept = same, kept
        self.made: list[tuple[tuple[object, ...], T]] = []  # the newest first

    def get(self, key: tuple[object, ...], make: Callable[[], T]) -> T:
        """The value kept for ``key``, or ``make()``'s, kept."""
        for last, value in self.made:
            if all(a is b for a, b in zip(last[:self.same], key[:self.same], strict=True)) and \
                    last[self.same:] == key[self.same:]:
                return value
        value = make()
        self.made = [(key, value), *self.made[: self.kept - 1]]
        return value

    def clear(self) -> None:
        self.made = []


_UNFRAMED: Recent[Picture] = Recent(same=2)  # the position and the board


def forget_unframed() -> None:
    """Forget the pictures kept for their other languages (`picture`): for a benchmark that times the drawing."""
    _UNFRAMED.clear()


def _body(position: Position, drawn: tuple[_Drawn, ...], territory: Mapping[str, str], board: Board,
          view: Collection[str] | None) -> Picture:
    """A picture of ``position`` without its frame (`picture`)."""
    game_map = position.game_map
    colours = power_colours(game_map.powers)
    letters = _letters(game_map.powers.values())
    fills: dict[str, str] = {}
    owners: dict[str, str] = {}
    for area in board.areas.values():
        if area.kind == "sea":
            continue
        owner = position.centers.get(area.id) if area.center is not None else territory.get(area.id)
        if area.kind == "impassable":
            fills[area.id] = IMPASSABLE
        elif owner in colours:
            fills[area.id] = tint(colours[owner], 0.62 if area.center else 0.3)
            owners[area.id] = owner
        else:
            fills[area.id] = LAND
    marks: list[str] = []
    fog: tuple[str, ...] = ()
    if view is not None:
        seen = set(view)
        fog = tuple(area.id for area in board.areas.values() if area.id not in seen and area.kind != "impassable")
    for area in board.areas.values():
        if area.center is not None:
            owner = position.centers.get(area.id)
            marks.append(_center(area.id, area.center, owner, colours.get(owner, "white") if owner else "white"))
    for _province, placed in sorted(position.units.items()):  # the same picture of a position read back from the store
        attrs = _unit_attrs("unit", placed.power, placed.type, placed.location)
        marks.append(
            _unit(placed.type, board.point(placed.location), colours[placed.power], attrs,
                  letter=letters.get(placed.power, ""))
        )
    for province, dislodged in sorted(position.dislodged.items()):
        at = aside_point(board, province)
        attacker = f' data-attacker-from="{dislodged.attacker_from}"' if dislodged.attacker_from else ""
        attrs = _unit_attrs("unit dislodged", dislodged.power, dislodged.unit.type, dislodged.unit.location, attacker)
        marks.append(f'<circle cx="{_n(at[0])}" cy="{_n(at[1])}" r="12" fill="white" fill-opacity="0.75"/>')
        marks.append(
            _unit(dislodged.unit.type, at, colours[dislodged.power], attrs, dashed=True,
                  letter=letters.get(dislodged.power, ""))
        )
    scene = _Scene(position, board, colours, list(drawn), letters)
    marks.extend(scene.order(item) for item in drawn)
    return Picture(board, tuple(game_map.powers), tuple(letters.items()), fills, owners, "".join(marks), "", fog)


def render_svg(
    position: Position,
    orders_or_results: OrdersOrResults | None = None,
    *,
    title: str | None = None,
    date: str | None = None,
    territory: Mapping[str, str] | None = None,
    board: Board | None = None,
    counted: Collection[str] | None = None,
    seen_by: str | None = None,
    view: Collection[str] | None = None,
    captions: Mapping[str, str] | None = None,
) -> str:
    """Draw ``position`` and its phase's orders (or their results) as an SVG document.

    ``orders_or_results`` is either each power's orders (as read by
    :func:`judge.engine.notation.position_from_data`) or the results of adjudicating them,
    which also show what failed.  ``title`` names the game; ``date`` (any text, e.g. the
    deadline) is shown at the right of the title bar; ``territory`` gives the last occupant
    of provinces that are not supply centers, drawn with a light tint.  ``board`` defaults
    to the drawing of the position's map.  ``counted`` names the powers whose centers and
    units the legend counts (by default all; a position that shows only part of the board
    counts only the powers it shows whole).  ``seen_by`` and ``view`` draw a position as one
    power sees it (Tin Cup): the title says so, and the provinces not in ``view`` are fogged.
    ``captions`` adds a word to some powers' lines of the legend, after their counts (Exchange
    Payola's corporations: who is the CEO of each).
    """
    return picture(position, orders_or_results, title=title, date=date, territory=territory, board=board,
                   counted=counted, seen_by=seen_by, view=view, captions=captions).svg()


_STAR = [
    (math.sin(i * math.pi / 5) * r, -math.cos(i * math.pi / 5) * r) for i in range(10) for r in ((5.6, 2.4)[i % 2],)
]


@cache
def _star(at: Point) -> str:
    """The path of a supply center's star at ``at``: the same in every picture of a board."""
    return "M" + "L".join(_xy((at[0] + x, at[1] + y)) for x, y in _STAR) + "Z"


def _center(province: str, at: Point, owner: str | None, fill: str) -> str:
    d = _star(at)
    return (
        f'<path class="center" data-province="{province}" data-owner="{owner or ""}" d="{d}" fill="{fill}" '
        f'stroke="{INK}" stroke-width="1" stroke-linejoin="round"/>'
    )


def _title_bar(position: Position, width: float, title: str | None, date: str | None,
               seen_by: str | None = None) -> str:
    phase = phase_title(position.phase)
    if seen_by and title:
        heading = _("{game}: {phase}, as {power} sees it (hatched: out of sight)", game=title, phase=phase,
                    power=power_title(seen_by))
    elif seen_by:
        heading = _("{phase}, as {power} sees it (hatched: out of sight)", phase=phase, power=power_title(seen_by))
    else:
        heading = _("{game}: {phase}", game=title, phase=phase) if title else phase
    parts = [_text(12, 28, heading, 20, class_="title", font_family=FONT, font_weight="bold", fill=INK)]
    if date:
        parts.append(_text(width - 12, 28, date, 13, class_="date", font_family=FONT, text_anchor="end", fill=INK))
    return "".join(parts)


def _letters(powers: Iterable[PowerInfo]) -> dict[str, str]:
    """Each power's letter, drawn on its units, where the board's colours call for it (else none)."""
    infos = list(powers)
    return {p.name: p.letter for p in infos} if lettered(p.name for p in infos) else {}


def legend_columns(count: int) -> int:
    """How many powers the legend puts in a row: all of the standard seven, fewer for bigger boards."""
    return count if count <= 7 else 5 if count <= 10 else 6


def legend_height(count: int) -> float:
    """The legend's height for ``count`` powers: a row per ``legend_columns`` powers, and the key."""
    rows = -(-max(count, 1) // legend_columns(max(count, 1)))
    return rows * LEGEND_ROW + LEGEND_KEY


def _legend_cell(index: int, count: int, width: float) -> Point:
    """Where power number ``index`` of ``count`` sits in the legend: its column's left, its row's top."""
    columns = legend_columns(max(count, 1))
    return (index % columns) * width / columns, (index // columns) * LEGEND_ROW


def legend_key(board: Board, powers: tuple[str, ...], letters: tuple[tuple[str, str], ...] = ()) -> str:
    """The fixed part of the legend: each power's colour (and letter) and name, and how orders are drawn
    (in the reader's language: `legend_note`)."""
    return legend_group(board, legend_powers(board, powers, letters) + legend_note(board, powers))


def legend_group(board: Board, content: str) -> str:
    """Parts of the legend's fixed part (`legend_powers`, `legend_note`) placed under the map."""
    return f'<g class="legend-key" transform="translate(0 {_n(TITLE_HEIGHT + board.height)})">{content}</g>'


@cache
def legend_powers(board: Board, powers: tuple[str, ...], letters: tuple[tuple[str, str], ...] = ()) -> str:
    """Each power's colour (and letter) and name in the legend: the same in every language."""
    colours = power_colours(powers)
    marks = dict(letters)
    size = 12.5 if len(powers) <= 10 else 11.0
    parts = []
    for i, power in enumerate(powers):
        x, y = _legend_cell(i, len(powers), board.width)
        x += 14
        parts.append(
            f'<circle cx="{_n(x)}" cy="{_n(y + 19)}" r="7.5" fill="{colours[power]}" stroke="{INK}" '
            'stroke-width="1.4"/>'
        )
        if power in marks:
            parts.append(
                _text(x, y + 22.2, marks[power], 9, fill=ink_on(colours[power]), text_anchor="middle",
                      font_family=FONT, font_weight="bold")
            )
        parts.append(_text(x + 12, y + 23.5, power_title(power), size, font_family=FONT, font_weight="bold", fill=INK))
    return "".join(parts)


def legend_note(board: Board, powers: tuple[str, ...]) -> str:
    """How orders are drawn, the legend's last line, in the reader's language (kept once per language:
    `_legend_note`)."""
    return _legend_note(board, len(powers), current())


@cache
def _legend_note(board: Board, count: int, language: str) -> str:
    """`legend_note` written in ``language`` (the reader's: the messages read it)."""
    key = _(
        "arrow: move \u00b7 ring: hold \u00b7 dashed line: support \u00b7 dotted ring: convoy \u00b7 crossed out: "
        "failed \u00b7 dashed unit beside its province: dislodged \u00b7 ringed unit: build"
    )
    bottom = legend_height(count) - LEGEND_KEY
    room = board.width - 24  # a language that says it in more letters writes it smaller, inside the picture
    size = 9.5 if _ems(key) * 9.5 <= room else room / _ems(key)
    return _text(board.width / 2, bottom + 19, key, size, font_family=FONT, text_anchor="middle", fill="#555555")


def _caption(x: float, y: float, power: str, count: int, caption: str, cell: float) -> str:
    """A power's caption in the legend: in italics, on its name's line a space after the (bold)
    name, inside the power's cell of width ``cell``. Widths are estimated from the letters, a
    little generously (``_ems``); a caption too long for the room left is written smaller, down to
    6.5 units, then cut short with an ellipsis rather than run into the next power's cell, and left
    out where not even its first letter fits (the page names every corporation's CEO anyway)."""
    if not caption.strip():
        return ""
    size = 12.5 if count <= 10 else 11.0
    after = x + 26 + _ems(power_title(power), bold=True) * size + 6
    room = x + cell - 4 - after
    font = max(6.5, min(9.0, room / _ems(caption)))
    while _ems(caption) * font > room and len(caption) > 2:
        caption = caption[:-2] + "\u2026"
    if _ems(caption) * font > room:
        return ""
    return _text(after, y + 23.5, caption, font, font_family=FONT, fill=INK, font_style="italic")


def _ems(text: str, bold: bool = False) -> float:
    """A generous estimate of ``text``'s width in ems in the legend's sans-serif (DejaVu Sans's
    widths rounded up): M, W, m and w widest, then capitals and digits, narrow letters (i, l, f,
    r, t ...) and spaces narrowest."""
    wide, capital, narrow, other = (1.08, 0.84, 0.46, 0.72) if bold else (1.0, 0.74, 0.44, 0.62)
    return sum(wide if c in "MWmw" else capital if c.isupper() or c.isdigit() else
               narrow if c in " .,:;'!|ijlfrt" else other for c in text)


def counts(centers: int, units: int) -> str:
    """A power's line of the legend, ``5 centers, 4 units``: each count in its own plural form (the
    language's rule), the two in the order the language puts them."""
    return _("{centers}, {units}", centers=ngettext("{count} center", "{count} centers", centers),
             units=ngettext("{count} unit", "{count} units", units))


def _legend(position: Position, width: float, top: float, counted: Collection[str] | None,
            captions: Mapping[str, str]) -> str:
    """The changing part of the legend: each (``counted``) power's count of centers and units, and
    its caption if it has one."""
    powers = list(position.game_map.powers)
    parts = [f'<g class="legend" transform="translate(0 {_n(top)})">']
    for i, power in enumerate(powers):
        if counted is not None and power not in counted:
            continue
        centers = len(position.centers_of(power))
        units = len(position.units_of(power))
        x, y = _legend_cell(i, len(powers), width)
        parts.append(
            f'<g class="power" data-power="{power}" data-centers="{centers}" data-units="{units}">'
            + _text(x + 26, y + 38, counts(centers, units), 10, font_family=FONT, fill=INK)
            + (_caption(x, y, power, len(powers), captions[power], width / legend_columns(len(powers)))
               if power in captions else "")
            + "</g>"
        )
    parts.append("</g>")
    return "".join(parts)
