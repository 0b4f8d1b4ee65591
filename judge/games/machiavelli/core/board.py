"""A Machiavelli board as data: areas, cities, home countries, adjacency, straits, Venice's lagoon.

A board is one JSON file in ``boards/`` read by one loader (:func:`load_board`): ``classic``
(the classic board of 1454) and ``aop`` (AoP's own 102 areas, a reconstruction, in its 1459
scenario); nothing in the rules asks which board it plays on.  The file says where its facts
come from.  What the loader builds:

* :class:`Area` — a province (``land`` or ``coast``: a coast has fleet neighbours) or a ``sea``;
  its canonical name and aliases (Italian, English, German: M49), its :class:`City` if it has one,
  the power whose home country it belongs to, its coasts when it has two (``nc``/``sc``),
  whether it holds one unit only (Venice, Lipari, Pantelleria, Lampedusa: AoP 1.3), and whether
  that unit may only be a fleet (the three islands: a fleet or a rebellion, never an army; AoP
  1.3, M15).
* Army adjacency between areas; fleet adjacency between :class:`Location` values (an area, plus
  a coast in a dual-coast province), both symmetric (the loader refuses a one-way edge).
* :class:`Strait` — the edges that pass a controlled strait and the area whose fleet controls
  it (AoP 9.3, M17: Piombino/Elba, Messina); a strait with no controller (AoP's Bonifacio) is
  only "least preferred" for retreats.  A strait may also close a *passage*: a transport through
  one area from one side of it to the other (AoP 9.3: a fleet in Calabria cannot carry an army
  through the straits of Messina an enemy controls).
* :class:`Lagoon` — the island city reachable only from its lagoon (AoP 14, M14).
* Appendix A's order of the seas, and the scenario's start (:class:`~.position.Position`: the
  game starts at its Phase A.3, AoP 3, so the start awaits the A letters).
* The economy's facts: each home country's trade income (AoP 5.2), the victory condition
  (:class:`VictoryCondition`, AoP 4.2), the power whose leader is the Pope (AoP 15), and how many units a
  player may raise in the first spring (AoP 3, M48).

Fortresses (a fortified place with no city, income 0) are an optional rule of the classic game
that AoP does not play: unless ``fortresses=True`` the loader leaves them out, and such an area
has no city at all.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from importlib.resources import files
from types import MappingProxyType
from typing import Any, NamedTuple

from judge.games.machiavelli.core.position import (
    Campaign,
    Independent,
    Owner,
    Phase,
    Position,
    Season,
    Unit,
    UnitKind,
)


class BoardError(ValueError):
    """A board file that does not describe a consistent board, or a name that denotes no area."""


class AreaKind(Enum):
    """What an area is: an inland province, a province with a coast, or a sea."""

    LAND = "land"
    COAST = "coast"
    SEA = "sea"


@dataclass(frozen=True, slots=True)
class City:
    """A city (AoP 1.2): fortified or not, a port or not, and its income — 1 for an ordinary
    city, 2 or 3 for a major city of that magnitude, 0 for a fortress (a fortified place that is
    no city, an optional classic rule)."""

    fortified: bool
    port: bool
    income: int

    @property
    def magnitude(self) -> int:
        """The magnitude of a major city (2 or 3); 0 for any other."""
        return self.income if self.income >= 2 else 0

    @property
    def fortress(self) -> bool:
        return self.income == 0


class Location(NamedTuple):
    """Where a fleet stands: an area, and its coast when the province has two."""

    area: str
    coast: str | None = None

    def __str__(self) -> str:
        return f"{self.area}/{self.coast}" if self.coast else self.area


@dataclass(frozen=True, slots=True)
class Area:
    """One area of the board."""

    code: str
    name: str
    aliases: tuple[str, ...]
    kind: AreaKind
    city: City | None
    home: str | None
    coasts: tuple[str, ...]  # two coasts (``nc``, ``sc``) in a dual-coast province, else none
    single_unit: bool  # holds one unit at a time, city included (Venice: AoP 1.3, 14)
    fleet_only: bool = False  # that unit is a fleet, never an army (Lipari, Pantelleria, Lampedusa: 1.3, M15)

    @property
    def is_sea(self) -> bool:
        return self.kind is AreaKind.SEA

    @property
    def is_land(self) -> bool:
        """A province (with or without a coast): armies may stand there."""
        return self.kind is not AreaKind.SEA

    @property
    def is_coastal(self) -> bool:
        return self.kind is AreaKind.COAST

    @property
    def fortified_city(self) -> bool:
        """Whether a garrison can stand here (AoP 1.3: one per fortified city)."""
        return self.city is not None and self.city.fortified


@dataclass(frozen=True, slots=True)
class Strait:
    """A strait a fleet may close (AoP 9.3, M17): the edges through it, the passages through it
    (``(a, via, b)``: a transport by the fleet in ``via`` from ``a`` to ``b``, either way) and the
    area whose fleet controls it (None: nobody controls it, as Bonifacio)."""

    name: str
    controller: str | None
    edges: frozenset[frozenset[str]]
    passages: frozenset[tuple[str, str, str]] = frozenset()


@dataclass(frozen=True, slots=True)
class Border:
    """How an area touches one of its neighbours (the board's data, as every rule reads it): by
    ``land`` (an army may advance across), by ``sea`` (a fleet may: along the coast between two
    provinces, or between a province and a sea, or two seas), with the fleet's locations at
    either end where a province has two coasts (``fleets``: ``(from, to)`` pairs), and the
    ``strait`` the border passes, if any (9.3, M17).  Bribes reach across any border (12, M36)."""

    area: str
    land: bool
    sea: bool
    fleets: tuple[tuple[Location, Location], ...] = ()
    strait: Strait | None = None


@dataclass(frozen=True, slots=True)
class VictoryCondition:
    """AoP 4.2: a player wins controlling ``cities`` cities with their provinces (one at least
    in their original home country), ``later`` from the Spring of ``from_year`` on."""

    cities: int
    later: int
    from_year: int

    def needed(self, year: int) -> int:
        """The cities needed at the end of a campaign of ``year``."""
        return self.later if year >= self.from_year else self.cities


@dataclass(frozen=True, slots=True)
class Lagoon:
    """Venice and its Lagoon (AoP 14): the island city reachable only from the lagoon sea."""

    island: str
    sea: str


def ascii_name(name: str) -> str:
    """A name with its accents folded away (Kärnten → Karnten), as Appendix A's alphabetical
    order compares names (M52)."""
    return unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")


def _fold(text: str) -> str:
    """A name as the loader matches it: folded, lower-case, without dots, apostrophes and extra spaces."""
    return " ".join(re.sub("[.'\u2019]", " ", ascii_name(text)).lower().split())


@dataclass(frozen=True, eq=False)
class Board:
    """An immutable board; build one with :func:`load_board` or :func:`parse_board`."""

    name: str
    title: str
    powers: tuple[str, ...]
    areas: Mapping[str, Area]
    army_edges: Mapping[str, frozenset[str]]
    fleet_edges: Mapping[Location, frozenset[Location]]
    straits: tuple[Strait, ...]
    lagoon: Lagoon | None
    sea_order: tuple[str, ...]
    start: Position
    trade: Mapping[str, int]  # home country (by its original power) -> trade income (AoP 5.2)
    victory: VictoryCondition
    papacy: str | None  # the power whose leader is the Pope (AoP 15), if any
    first_builds: int  # the most units a player may raise in the first spring (AoP 3, M48)
    power_aliases: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))
    """Other names a power may be called by in mail (AoP's Holy Roman Empire: Austria, HRE); the judge
    writes its own name only."""
    _names: Mapping[str, str] = field(init=False, repr=False)
    _fleet_areas: Mapping[str, frozenset[str]] = field(init=False, repr=False)
    _conduits: Mapping[frozenset[str], Strait] = field(init=False, repr=False)
    _passages: Mapping[tuple[str, str, str], Strait] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        names: dict[str, str] = {}
        for area in self.areas.values():
            for name in (area.code, area.name, *area.aliases):
                key = _fold(name)
                if names.setdefault(key, area.code) != area.code:
                    raise BoardError(f"the name {name!r} denotes both {names[key]} and {area.code}")
        fleet_areas: dict[str, set[str]] = {code: set() for code in self.areas}
        for loc, dests in self.fleet_edges.items():
            fleet_areas[loc.area].update(d.area for d in dests)
        object.__setattr__(self, "_names", MappingProxyType(names))
        object.__setattr__(self, "_fleet_areas", MappingProxyType({a: frozenset(s) for a, s in fleet_areas.items()}))
        object.__setattr__(self, "_conduits", MappingProxyType({e: s for s in self.straits for e in s.edges}))
        passages = {(a, via, b): s for s in self.straits for a, via, b in s.passages}
        passages |= {(b, via, a): s for (a, via, b), s in passages.items()}
        object.__setattr__(self, "_passages", MappingProxyType(passages))

    # -- names ---------------------------------------------------------------------------------

    def code(self, text: str) -> str:
        """The code of the area ``text`` names: a code, the canonical name or an alias, in any case
        and with or without accents (``Kärnten``, ``karnten``, ``cri``).  A code names its own area (no two areas
        share a name: `__post_init__`), and is most of what is looked up (a position read back): it is not folded."""
        if text in self.areas:
            return text
        code = self._names.get(_fold(text))
        if code is None:
            raise BoardError(f"no area is called {text!r} on the {self.name} board")
        return code

    def area(self, text: str) -> Area:
        return self.areas[self.code(text)]

    def power_names(self, power: str) -> tuple[str, ...]:
        """Every name ``power`` may be called by: its own, then its aliases."""
        return (power, *self.power_aliases.get(power, ()))

    def name_of(self, code: str) -> str:
        return self.areas[code].name

    # -- geometry --------------------------------------------------------------------------------

    def fleet_locations(self, area: str) -> tuple[Location, ...]:
        """Where a fleet can stand in ``area`` (one location per coast); none in an inland province."""
        a = self.areas[area]
        if a.kind is AreaKind.LAND:
            return ()
        if a.coasts:
            return tuple(Location(area, coast) for coast in a.coasts)
        return (Location(area),)

    def army_reach(self, area: str) -> frozenset[str]:
        """The areas an army in ``area`` may advance into without transport."""
        return self.army_edges.get(area, frozenset())

    def fleet_reach(self, location: Location) -> frozenset[Location]:
        """The locations a fleet at ``location`` may advance into."""
        return self.fleet_edges.get(location, frozenset())

    def fleet_reaches(self, location: Location, area: str) -> tuple[Location, ...]:
        """The locations of ``area`` a fleet at ``location`` reaches (two for both coasts of a province)."""
        return tuple(sorted((d for d in self.fleet_reach(location) if d.area == area), key=str))

    def fleet_areas(self, area: str) -> frozenset[str]:
        """The areas a fleet somewhere in ``area`` (on any of its coasts) reaches."""
        return self._fleet_areas.get(area, frozenset())

    def reach(self, kind: UnitKind, area: str) -> frozenset[str]:
        """The areas a unit of ``kind`` in ``area`` may advance into (a garrison: none)."""
        if kind is UnitKind.ARMY:
            return self.army_reach(area)
        if kind is UnitKind.FLEET:
            return self.fleet_areas(area)
        return frozenset()

    def borders(self, area: str) -> tuple[Border, ...]:
        """Every area ``area`` borders, and how (:class:`Border`), by code."""
        fleets = sorted((loc, dest) for loc, dests in self.fleet_edges.items() if loc.area == area for dest in dests)
        neighbours = sorted(self.army_reach(area) | self.fleet_areas(area))
        return tuple(
            Border(other, other in self.army_reach(area), other in self.fleet_areas(area),
                   tuple(pair for pair in fleets if pair[1].area == other
                         and (pair[0].coast is not None or pair[1].coast is not None)),
                   self.strait(area, other))
            for other in neighbours)

    def passages_through(self, area: str) -> tuple[tuple[str, str, Strait], ...]:
        """The transports through a fleet in ``area`` that pass a strait: ``(from, to, strait)``
        (9.3: along Calabria, through the straits of Messina)."""
        return tuple(sorted(((a, b, s) for s in self.straits for a, via, b in s.passages if via == area),
                            key=lambda passage: passage[:2]))

    def strait(self, a: str, b: str) -> Strait | None:
        """The strait the edge between ``a`` and ``b`` passes, if any."""
        return self._conduits.get(frozenset((a, b)))

    def passage(self, a: str, via: str, b: str) -> Strait | None:
        """The strait a transport by the fleet in ``via`` from ``a`` to ``b`` passes, if any."""
        return self._passages.get((a, via, b))

    def home_country(self, power: str) -> frozenset[str]:
        """The areas of the home country originally ``power``'s."""
        return frozenset(code for code, area in self.areas.items() if area.home == power)

    def seas(self) -> frozenset[str]:
        return frozenset(code for code, area in self.areas.items() if area.is_sea)


# -- loading ---------------------------------------------------------------------------------------

_CITY = re.compile(r"(?P<fort>[FU])(?P<port>P?)(?P<income>[123])")


def _city(text: str | None, fortresses: bool) -> City | None:
    if text is None:
        return None
    if text in ("fortress", "fortress-port"):
        return City(fortified=True, port=text == "fortress-port", income=0) if fortresses else None
    match = _CITY.fullmatch(text)
    if match is None:
        raise BoardError(f"bad city {text!r}: expected e.g. F1, FP3, U1, UP1, fortress, fortress-port")
    return City(fortified=match["fort"] == "F", port=bool(match["port"]), income=int(match["income"]))


def _location(text: str) -> Location:
    area, _, coast = text.partition("/")
    return Location(area, coast or None)


def _owner(text: str, area: str) -> Owner:
    return Independent(area) if text == "independent" else text


def parse_board(data: Mapping[str, Any], *, fortresses: bool = False) -> Board:
    """Build a board from the data of a board file (see the module docstring); BoardError if it
    is inconsistent."""
    raw_areas: Mapping[str, Mapping[str, Any]] = data["areas"]
    single = set(data.get("single_unit", ()))
    fleet_only = set(data.get("fleet_only", ()))
    areas: dict[str, Area] = {}
    for code, raw in raw_areas.items():
        fleet = raw.get("fleet", [])
        areas[code] = Area(
            code=code,
            name=raw["name"],
            aliases=tuple(raw.get("aliases", ())),
            kind=AreaKind(raw["kind"]),
            city=_city(raw.get("city"), fortresses),
            home=raw.get("home"),
            coasts=tuple(fleet) if isinstance(fleet, Mapping) else (),
            single_unit=code in single,
            fleet_only=code in fleet_only,
        )
    army: dict[str, set[str]] = {code: set() for code in areas}
    fleet_edges: dict[Location, set[Location]] = {}
    for code, raw in raw_areas.items():
        army[code].update(raw.get("army", ()))
        fleet = raw.get("fleet", [])
        by_coast: Iterable[tuple[str | None, Iterable[str]]] = (
            fleet.items() if isinstance(fleet, Mapping) else [(None, fleet)]
        )
        for coast, targets in by_coast:
            if targets:
                fleet_edges[Location(code, coast)] = {_location(t) for t in targets}
    _check_edges(areas, army, fleet_edges)
    straits = tuple(
        Strait(s["name"], s.get("controller"), frozenset(frozenset(edge) for edge in s["edges"]),
               frozenset((a, via, b) for a, via, b in s.get("passages", ())))
        for s in data.get("straits", ())
    )
    lagoon = Lagoon(data["lagoon"]["island"], data["lagoon"]["sea"]) if "lagoon" in data else None
    sea_order = tuple(data["sea_order"])
    _check_features(areas, army, fleet_edges, straits, lagoon, sea_order)
    board = Board(
        name=data["name"],
        title=data.get("title", data["name"]),
        powers=tuple(data["powers"]),
        areas=MappingProxyType(areas),
        army_edges=MappingProxyType({a: frozenset(s) for a, s in army.items() if s}),
        fleet_edges=MappingProxyType({loc: frozenset(s) for loc, s in fleet_edges.items()}),
        straits=straits,
        lagoon=lagoon,
        sea_order=sea_order,
        start=_start(data["start"], areas),
        trade=MappingProxyType(dict(data["trade"])),
        victory=VictoryCondition(**data["victory"]),
        papacy=data.get("papacy"),
        first_builds=int(data["start"]["builds"]),
        power_aliases=MappingProxyType({p: tuple(names) for p, names in data.get("power_aliases", {}).items()}),
    )
    _check_start(board)
    if set(board.trade) != set(board.powers) or (board.papacy is not None and board.papacy not in board.powers):
        raise BoardError("trade must give every power's trade income, and papacy name a power")
    if not set(board.power_aliases) <= set(board.powers):
        raise BoardError("power_aliases may name only the board's powers")
    return board


def _check_edges(areas: Mapping[str, Area], army: Mapping[str, set[str]],
                 fleet: Mapping[Location, set[Location]]) -> None:
    for code, neighbours in army.items():
        for other in neighbours:
            if other not in areas or not areas[other].is_land or not areas[code].is_land:
                raise BoardError(f"army edge {code}-{other}: armies move between provinces only")
            if code not in army[other]:
                raise BoardError(f"army edge {code}-{other} has no way back")
    for loc, targets in fleet.items():
        if areas[loc.area].kind is AreaKind.LAND:
            raise BoardError(f"{loc.area} is inland, yet it has fleet edges")
        for target in targets:
            if target not in fleet:
                raise BoardError(f"fleet edge {loc}-{target}: {target} is no fleet location")
            if loc not in fleet[target]:
                raise BoardError(f"fleet edge {loc}-{target} has no way back")


def _check_features(areas: Mapping[str, Area], army: Mapping[str, set[str]],
                    fleet: Mapping[Location, set[Location]], straits: Iterable[Strait],
                    lagoon: Lagoon | None, sea_order: tuple[str, ...]) -> None:
    """A board's straits, fleet-only islands, lagoon and order of seas agree with its areas and
    edges; raises :class:`BoardError` at the first that does not."""
    _check_straits(areas, fleet, straits)
    for code, area in areas.items():
        if area.fleet_only and (not area.single_unit or army[code] or area.fortified_city):
            raise BoardError(f"{code} holds fleets only: one unit, no army edge, no fortified city")
    if lagoon is not None:
        _check_lagoon(areas, army, fleet, lagoon)
    seas = {code for code, area in areas.items() if area.is_sea}
    if set(sea_order) != seas or len(sea_order) != len(seas):
        raise BoardError("sea_order must list every sea once")


def _check_straits(areas: Mapping[str, Area], fleet: Mapping[Location, set[Location]],
                   straits: Iterable[Strait]) -> None:
    """Each strait (AoP 9.3, M17) is controlled from an area of the board, and its edges and
    passages are fleet edges."""
    fleet_pairs = {frozenset((a.area, b.area)) for a, targets in fleet.items() for b in targets}
    for strait in straits:
        if strait.controller is not None and strait.controller not in areas:
            raise BoardError(f"strait {strait.name}: no area {strait.controller}")
        for edge in strait.edges:
            if edge not in fleet_pairs:
                raise BoardError(f"strait {strait.name}: {'-'.join(sorted(edge))} is no fleet edge")
        for a, via, b in strait.passages:
            if a == b or frozenset((a, via)) not in fleet_pairs or frozenset((via, b)) not in fleet_pairs:
                raise BoardError(f"strait {strait.name}: {a}-{via}-{b} is no passage of a fleet in {via}")


def _check_lagoon(areas: Mapping[str, Area], army: Mapping[str, set[str]], fleet: Mapping[Location, set[Location]],
                  lagoon: Lagoon) -> None:
    """The lagoon's island (AoP 14, M14) is a fortified city with no army edge, reached by fleet
    from its lagoon sea alone."""
    island = areas[lagoon.island]
    reached = {d.area for loc, targets in fleet.items() if loc.area == lagoon.island for d in targets}
    if army[lagoon.island] or reached != {lagoon.sea} or not island.fortified_city:
        raise BoardError(f"{lagoon.island} must be a fortified city reached by fleet from {lagoon.sea} alone")


def _start(raw: Mapping[str, Any], areas: Mapping[str, Area]) -> Position:
    units = []
    for owner, kind, where in raw["units"]:
        loc = _location(where)
        units.append(Unit(UnitKind(kind), _owner(owner, loc.area), loc.area, loc.coast))
    control = {area: _owner(owner, area) for area, owner in raw.get("control", {}).items()}
    powers = {u.owner for u in units if isinstance(u.owner, str)} | {
        o for o in control.values() if isinstance(o, str)
    } | {a.home for a in areas.values() if a.home}
    treasuries = dict.fromkeys(sorted(powers), int(raw.get("treasury", 0)))
    return Position.build(
        Season(int(raw["year"]), Campaign(raw["season"])),
        units,
        control=control,
        treasuries=treasuries,
        homes={p: frozenset({p}) for p in powers if any(a.home == p for a in areas.values())},
        phase=Phase.A,
        anticipated=treasuries,
    )


def _check_start(board: Board) -> None:
    for unit in board.start.units.values():
        area = board.areas[unit.area]
        if unit.kind is UnitKind.GARRISON and not area.fortified_city:
            raise BoardError(f"a garrison in {unit.area}, which has no fortified city")
        if unit.kind is UnitKind.ARMY and (not area.is_land or area.fleet_only):
            raise BoardError(f"an army at sea, or on an island for fleets only, in {unit.area}")
        if unit.kind is UnitKind.FLEET and Location(unit.area, unit.coast) not in board.fleet_edges:
            raise BoardError(f"a fleet in {unit.area}, where no fleet can stand")
    for code in board.start.control:
        if not board.areas[code].is_land:
            raise BoardError(f"a control marker on the sea {code}: a sea is controlled only by a fleet in it")


def board_names() -> tuple[str, ...]:
    """The boards shipped in ``boards/`` (each file's name, which its ``name`` repeats): the
    scenarios a game may be played in, ``classic`` (the default) first."""
    folder = files("judge.games.machiavelli.core") / "boards"
    names = sorted(entry.name.removesuffix(".json") for entry in folder.iterdir() if entry.name.endswith(".json"))
    return tuple(sorted(names, key=lambda name: name != "classic"))


@cache
def load_board(name: str = "classic", *, fortresses: bool = False) -> Board:
    """The board of ``boards/<name>.json``, shipped with the package."""
    path = files("judge.games.machiavelli.core") / "boards" / f"{name}.json"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BoardError(f"no board called {name!r}") from None
    return parse_board(json.loads(text), fortresses=fortresses)
