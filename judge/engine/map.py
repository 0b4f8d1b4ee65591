"""The board: provinces, coasts, adjacencies, supply centers and powers, read from a data file.

A map is pure data (``maps/<name>.json``); another variant is another file.  Provinces are
named by their canonical ids (``LON``, ``STP``); a place a unit can stand is a
:class:`Location`, which adds a coast for fleets in split-coast provinces (``STP/SC``).
Armies move along ``army_edges`` between provinces; fleets along ``fleet_edges`` between
locations, so coast-specific moves are just edges.  Both edge lists are undirected.

Everything the legality rules ask of the geometry is a table built once when the map is
loaded: each location is one shared :class:`Location` object (:attr:`GameMap.locations`,
by canonical text), the provinces of each terrain are sets, and per unit type and location
(keyed by its text) the provinces a unit can enter, the coasts a fleet reaches in each of
them, the seas touching each province and the coasts along each sea are frozen sets.
Checking an order against the map is then a few set lookups.

What a variant board adds is data too, each key optional (the standard board has none):

* ``start_season`` (``"S"`` or ``"F"``) with ``start_year``: the first phase (Void begins in
  Fall 1900);
* ``builds``: ``"home_centers"`` (the rule) or ``"owned_centers"`` (Void: any owned center);
* the ``archipelago`` terrain (DPjudge's ``PORT``, Ancient Mediterranean's Baleares): armies
  and fleets may stand there and it is a coast for convoys (an army may be convoyed to and
  from it), and a fleet there is at sea: it may convoy.  Which units reach it by land or sea
  is the edges' business: Baleares has fleet edges only, so armies reach it by convoy alone;
* a province's ``seasons`` (Loeb9's Arctic Ocean, ``["S"]``): the seasons it is passable in.
  In the others it is closed: :meth:`GameMap.in_season` is the board of a season, the same
  board with every edge of its closed provinces taken away, so that nothing moves, retreats,
  supports or convoys into or out of them and a unit there can only hold
  (:class:`~judge.engine.position.Position` plays on the board of its phase's season);
* ``weak_edges`` (Loeb9's straits, DPjudge's ``~``): army edges across which a move has the
  strength of its supports only and no support is given (:mod:`judge.engine.movement`,
  :mod:`judge.engine.legal`);
* ``eliminated_may_transfer`` (false on Void, DPjudge's Payola rule ``NO_DONATIONS``): an
  eliminated power may not transfer money (:mod:`judge.payola.treasury`);
* ``drawing``: the board whose drawing (:mod:`judge.render`) this one shares, when it has the
  same provinces and borders (Void is drawn as the standard board); by default its own;
* ``title``: the board's name for people (``Ancient Mediterranean``), as HELP and LIST give it;
* a power's ``dummy`` (Known World 901's Neutral State, DPjudge's ``DUMMY``): a power no player
  takes, whose units hold unless ordered (in Payola: unless bribed, rule 6.5's neutral units).

The big boards (issue 26) need nothing more: what is special on them is provinces and edges.
Youngstown's twelve off-board boxes are provinces (``OBA`` to ``OBL``) whose lettered lists
are their edges: the African boxes D and G are coasts (armies and fleets, and a fleet there is
on the coast of Africa, so it does not convoy), E and F land (armies only), the other eight
seas (fleets, which convoy armies through them).  The ice-breaker coast of Omsk is a coast with
fleet edges to St Petersburg's north coast and Siberia and no sea beside it (the Arctic Circle
is impassable); the Suez is a sea touching Egypt's two coasts, the Eastern Mediterranean and
the Red Sea, but neither coast of Jordan; the colonies (Joharra, Saigon, Mogadiscio) are home
centers.  World wraps east and west by its edges across the Pacific; Known World 901 builds in
any owned center (``builds``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from judge.engine.values import TextValue
from judge.language import gettext as _


class MapError(ValueError):
    """A name that does not denote anything on the map."""


class Terrain(Enum):
    """What a province is made of; it decides which unit types may enter."""

    SEA = "sea"
    COAST = "coast"
    LAND = "land"
    ARCHIPELAGO = "archipelago"  # a coast for armies and convoys, and at sea for fleets (Baleares)
    IMPASSABLE = "impassable"


@dataclass(frozen=True, slots=True, eq=False)
class Location(TextValue):
    """A place a unit can occupy: a province, and for fleets in split-coast provinces a coast.

    Written ``STP/SC`` or ``PAR``; locations sort by that text.
    """

    province: str
    coast: str | None = None
    text: str = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._set_text(self.write(self.province, self.coast))

    @staticmethod
    def write(province: str, coast: str | None = None) -> str:
        return f"{province}/{coast}" if coast else province

    def __lt__(self, other: Location) -> bool:
        return self.text < other.text


@dataclass(frozen=True, slots=True)
class Province:
    """One province of the map."""

    id: str
    name: str
    terrain: Terrain
    center: bool
    coasts: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PowerInfo:
    """A great power: its initial, home supply centers and starting units (as written)."""

    name: str
    letter: str
    adjective: str
    home_centers: frozenset[str]
    start_units: tuple[str, ...]
    dummy: bool = False  # no player takes it (Known World 901's Neutral State)


_COAST_WORDS = {"NORTH": "NC", "SOUTH": "SC", "EAST": "EC", "WEST": "WC"}


def normalise_name(text: str) -> str:
    """Upper-case a province name and drop everything but letters, digits and spaces."""
    text = text.upper().replace("-", " ").replace(".", " ").replace("'", "")
    return " ".join(text.split())


_NOWHERE: frozenset[str] = frozenset()


@dataclass(frozen=True, eq=False)
class GameMap:
    """An immutable map; build one with :func:`load_map`.

    The fields after ``names`` are derived from the others when the map is built: the
    tables that legality checks and convoy routes consult.
    """

    name: str
    start_year: int
    victory_centers: int
    powers: Mapping[str, PowerInfo]
    provinces: Mapping[str, Province]
    army_adjacency: Mapping[str, frozenset[str]]
    fleet_adjacency: Mapping[Location, frozenset[Location]]
    names: Mapping[str, str] = field(repr=False)  # normalised name or alias -> province id
    start_season: str = "S"  # the first phase's season: "S" (spring) or "F" (fall)
    build_anywhere: bool = False  # builds in any owned supply center, not only in home centers
    eliminated_may_transfer: bool = True
    drawing: str = ""  # the board whose drawing this one uses (parse_map sets it: by default the map's name)
    title: str = ""  # the board's name for people ("Ancient Mediterranean"; parse_map: by default the name)
    weak: Mapping[str, frozenset[str]] = field(default_factory=dict, repr=False)  # province -> across a weak strait
    open_seasons: Mapping[str, frozenset[str]] = field(default_factory=dict, repr=False)  # province -> seasons open
    closed: frozenset[str] = frozenset()  # the provinces closed on this board (a season's board)
    full: GameMap | None = field(default=None, repr=False)  # a season's board: the board with nothing closed
    locations: Mapping[str, Location] = field(init=False, repr=False)  # "STP/SC", "PAR" -> the one Location
    # a fleet's location (text) -> province it can move to -> the locations it reaches there
    fleet_reach: Mapping[str, Mapping[str, tuple[Location, ...]]] = field(init=False, repr=False)
    fleet_provinces: Mapping[str, frozenset[str]] = field(init=False, repr=False)  # the same provinces, as a set
    sea_adjacency: Mapping[str, frozenset[str]] = field(init=False, repr=False)  # province -> seas touching it
    shores: Mapping[str, frozenset[str]] = field(init=False, repr=False)  # sea -> coastal provinces along it
    neighbours: Mapping[str, frozenset[str]] = field(init=False, repr=False)  # by land or sea
    seas: frozenset[str] = field(init=False, repr=False)
    coastal: frozenset[str] = field(init=False, repr=False)
    inland: frozenset[str] = field(init=False, repr=False)
    impassable: frozenset[str] = field(init=False, repr=False)
    supply_centers: frozenset[str] = field(init=False, repr=False)
    seasonal: bool = field(init=False, repr=False)  # some province is closed in some season
    _seasons: dict[str, GameMap] = field(init=False, repr=False)  # the boards of the seasons, once built

    def __post_init__(self) -> None:
        provinces = self.provinces
        locations = {str(loc): loc for p in provinces.values() for loc in (Location(p.id), *_fleet_places(p))}
        # The fleet adjacency is rebuilt over the shared Location objects: a move's destination is one of them.
        fleet = {
            locations[str(a)]: frozenset(locations[str(b)] for b in dests) for a, dests in self.fleet_adjacency.items()
        }
        reach: dict[str, Mapping[str, tuple[Location, ...]]] = {}
        for loc, dests in fleet.items():
            by_province: dict[str, tuple[Location, ...]] = {}
            for dest in sorted(dests):
                by_province[dest.province] = (*by_province.get(dest.province, ()), dest)
            reach[loc.text] = MappingProxyType(by_province)
        terrain = {kind: frozenset(p for p, prov in provinces.items() if prov.terrain is kind) for kind in Terrain}
        neighbours: dict[str, set[str]] = {p: set(self.army_adjacency.get(p, ())) for p in provinces}
        for loc, dests in fleet.items():
            neighbours[loc.province].update(d.province for d in dests)
        # An archipelago is both: a coast an army is convoyed to or from, and a sea a fleet convoys in.
        seas = terrain[Terrain.SEA] | terrain[Terrain.ARCHIPELAGO]
        coastal = terrain[Terrain.COAST] | terrain[Terrain.ARCHIPELAGO]
        derived: dict[str, object] = {
            "locations": MappingProxyType(locations),
            "fleet_adjacency": MappingProxyType(fleet),
            "fleet_reach": MappingProxyType(reach),
            "fleet_provinces": MappingProxyType({loc: frozenset(by) for loc, by in reach.items()}),
            "sea_adjacency": MappingProxyType({p: frozenset(found & seas) for p, found in neighbours.items()}),
            "shores": MappingProxyType({s: frozenset(neighbours[s] & coastal) for s in seas}),
            "neighbours": MappingProxyType({p: frozenset(found) for p, found in neighbours.items()}),
            "seas": seas,
            "coastal": coastal,
            "inland": terrain[Terrain.LAND],
            "impassable": terrain[Terrain.IMPASSABLE],
            "supply_centers": frozenset(p.id for p in provinces.values() if p.center),
            "seasonal": bool(self.open_seasons),
            "_seasons": {},
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)

    # -- seasons ---------------------------------------------------------------

    def in_season(self, season: str) -> GameMap:
        """The board of a season (``"S"``, ``"F"``, ``"W"``): this one, less every edge of the
        provinces closed in that season (built once per season; the board itself when none is)."""
        if not self.seasonal:
            return self
        board = self.full or self
        found = board._seasons.get(season)
        if found is None:
            closed = frozenset(p for p, open_in in board.open_seasons.items() if season not in open_in)
            if not closed:
                found = board
            else:
                army = {
                    p: frozenset(d for d in dests if d not in closed)
                    for p, dests in board.army_adjacency.items()
                    if p not in closed
                }
                fleet = {
                    loc: frozenset(d for d in dests if d.province not in closed)
                    for loc, dests in board.fleet_adjacency.items()
                    if loc.province not in closed
                }
                found = replace(
                    board,
                    army_adjacency=MappingProxyType(army),
                    fleet_adjacency=MappingProxyType(fleet),
                    closed=closed,
                    full=board,
                )
            board._seasons[season] = found
        return found

    @property
    def board(self) -> GameMap:
        """The board with nothing closed (a season's board is a view of it)."""
        return self.full or self

    # -- names -----------------------------------------------------------------

    def province_id(self, text: str) -> str:
        """Resolve an id, alias or full name (any case) to the province id."""
        found = self.names.get(text) or self.names.get(normalise_name(text))
        if found is None:
            raise MapError(_("unknown province '{name}'", name=text.strip()))
        return found

    def location(self, text: str) -> Location:
        """Parse ``STP/NC``, ``STP(NC)``, ``Spain (north coast)`` into the map's location."""
        found = self.locations.get(text)
        if found is not None:
            return found
        raw = text.strip()
        match = re.fullmatch(r"(.+?)\s*(?:/\s*|\(\s*)([A-Za-z ]+?)\s*\)?", raw)
        if match is None:
            return self.locations[self.province_id(raw)]
        prov = self.province_id(match.group(1))
        coast_text = normalise_name(match.group(2)).removesuffix(" COAST")
        coast = _COAST_WORDS.get(coast_text, coast_text)
        # A coast the province does not have is ignored (DATC 4.B.6): "A GAS - SPA/NC",
        # "F MAO - BRE/XC".  Whether a coast is needed is decided by the legality rules.
        return self.place(prov, coast if coast in self.provinces[prov].coasts else None)

    def place(self, province: str, coast: str | None = None) -> Location:
        """The map's one :class:`Location` object for a province (and a coast it has)."""
        return self.locations[f"{province}/{coast}" if coast else province]

    # -- geometry --------------------------------------------------------------

    @property
    def letters(self) -> dict[str, str]:
        """Each power's symbol, by power name (acceptance lists are written in them; ruling 14)."""
        return {name: info.letter for name, info in self.powers.items()}

    def home_power(self, province: str) -> str | None:
        """The power whose home center this is, if any."""
        for power in self.powers.values():
            if province in power.home_centers:
                return power.name
        return None

    def fleet_locations(self, province: str) -> tuple[Location, ...]:
        """Where a fleet may stand in a province: its coasts, or the province itself."""
        return tuple(self.place(province, loc.coast) for loc in _fleet_places(self.provinces[province]))

    def army_can_stand(self, province: str) -> bool:
        return province in self.inland or province in self.coastal

    def provinces_reachable(self, is_fleet: bool, loc: Location) -> frozenset[str]:
        """Provinces a unit at ``loc`` could move into without convoy (coasts ignored)."""
        if is_fleet:
            return self.fleet_provinces.get(loc.text, _NOWHERE)
        return self.army_adjacency.get(loc.province, _NOWHERE)

    def sea_neighbours(self, province: str) -> frozenset[str]:
        """Sea provinces touching a province: where convoy chains start and end."""
        return self.sea_adjacency[province]

    def any_neighbours(self, province: str) -> frozenset[str]:
        """Provinces next to this one by land or sea, for distances that ignore unit type."""
        return self.neighbours[province]


def _location_of(token: str) -> Location:
    prov, _slash, coast = token.partition("/")
    return Location(prov, coast or None)


def _symmetric(edges: Iterable[tuple[Any, Any]]) -> dict[Any, set[Any]]:
    table: dict[Any, set[Any]] = {}
    for a, b in edges:
        table.setdefault(a, set()).add(b)
        table.setdefault(b, set()).add(a)
    return table


def parse_map(data: Any) -> GameMap:
    """Build a map from its JSON data, checking that every edge names a real place."""
    provinces, names = _provinces(data)
    army_pairs = [tuple(edge.split()) for edge in data["army_edges"]]
    fleet_pairs = [(_location_of(a), _location_of(b)) for a, b in (edge.split() for edge in data["fleet_edges"])]
    _check_edges(provinces, army_pairs, fleet_pairs)
    powers = {
        name: PowerInfo(
            name=name,
            letter=info["letter"],
            adjective=info.get("adjective", name.title()),
            home_centers=frozenset(info["home_centers"]),
            start_units=tuple(info["units"]),
            dummy=bool(info.get("dummy", False)),
        )
        for name, info in data["powers"].items()
    }
    army = {k: frozenset(v) for k, v in _symmetric(army_pairs).items()}
    fleet = {k: frozenset(v) for k, v in _symmetric(fleet_pairs).items()}
    weak_pairs = [tuple(edge.split()) for edge in data.get("weak_edges", ())]
    for a, b in weak_pairs:
        if b not in army.get(a, ()):
            raise MapError(f"weak strait {a}-{b}: not an army edge")
    open_seasons = _open_seasons(data)
    builds = data.get("builds", "home_centers")
    if builds not in ("home_centers", "owned_centers"):
        raise MapError(f"builds must be home_centers or owned_centers, not {builds}")
    start_season = str(data.get("start_season", "S"))
    if start_season not in ("S", "F"):
        raise MapError("start_season must be S or F")
    return GameMap(
        name=str(data["name"]),
        start_year=int(data["start_year"]),
        victory_centers=int(data["victory_centers"]),
        powers=MappingProxyType(powers),
        provinces=MappingProxyType(provinces),
        army_adjacency=MappingProxyType(army),
        fleet_adjacency=MappingProxyType(fleet),
        names=MappingProxyType(names),
        start_season=start_season,
        build_anywhere=builds == "owned_centers",
        eliminated_may_transfer=bool(data.get("eliminated_may_transfer", True)),
        drawing=str(data.get("drawing", data["name"])),
        title=str(data.get("title", str(data["name"]).title())),
        weak=MappingProxyType({k: frozenset(v) for k, v in _symmetric(weak_pairs).items()}),
        open_seasons=MappingProxyType(open_seasons),
    )


def _provinces(data: Any) -> tuple[dict[str, Province], dict[str, str]]:
    """The map's provinces by id, and the province each of their names and aliases reads as (no name
    may be two provinces')."""
    provinces: dict[str, Province] = {}
    names: dict[str, str] = {}
    for entry in data["provinces"]:
        prov = Province(
            id=entry["id"],
            name=entry["name"],
            terrain=Terrain(entry["type"]),
            center=bool(entry.get("center", False)),
            coasts=tuple(entry.get("coasts", ())),
        )
        provinces[prov.id] = prov
        for text in (prov.id, prov.name, *entry.get("aliases", ())):
            key = normalise_name(text)
            if names.get(key, prov.id) != prov.id:
                raise MapError(f"name '{text}' used for both {names[key]} and {prov.id}")
            names[key] = prov.id
    return provinces, names


def _check_edges(provinces: dict[str, Province], army_pairs: list[tuple[str, ...]],
                 fleet_pairs: list[tuple[Location, Location]]) -> None:
    """Every army edge joins places an army can hold, every fleet edge places a fleet can stand at."""
    for a, b in army_pairs:
        for p in (a, b):
            if p not in provinces or provinces[p].terrain not in _ARMY_GROUND:
                raise MapError(f"army edge {a}-{b}: {p} cannot hold an army")
    for c, d in fleet_pairs:
        for loc in (c, d):
            if loc.province not in provinces or loc not in _fleet_places(provinces[loc.province]):
                raise MapError(f"fleet edge {c}-{d}: a fleet cannot stand at {loc}")


def _open_seasons(data: Any) -> dict[str, frozenset[str]]:
    """The provinces open only in some seasons (of S, F and W), with those seasons."""
    open_seasons: dict[str, frozenset[str]] = {}
    for entry in data["provinces"]:
        if "seasons" in entry:
            seasons = frozenset(entry["seasons"])
            if not seasons <= {"S", "F", "W"}:
                raise MapError(f"province {entry['id']}: seasons are S, F and W")
            open_seasons[entry["id"]] = seasons
    return open_seasons


_ARMY_GROUND = (Terrain.LAND, Terrain.COAST, Terrain.ARCHIPELAGO)


def _fleet_places(prov: Province) -> tuple[Location, ...]:
    if prov.terrain not in (Terrain.SEA, Terrain.COAST, Terrain.ARCHIPELAGO):
        return ()
    if prov.coasts:
        return tuple(Location(prov.id, c) for c in prov.coasts)
    return (Location(prov.id),)


# The maps are package data beside this module, read directly (importlib.resources would
# import a dozen more modules at start-up).
MAPS = Path(__file__).parent / "maps"


def available_maps() -> list[str]:
    """The boards a game may be played on: the maps shipped with the judge whose drawing is
    shipped too (``<drawing>_geometry.geojson`` beside them).  A board whose drawing is still to
    come (the big boards of issue 26 until they are drawn) loads with :func:`load_map`, for the
    engine, ``judge adjudicate`` and the benches, but is not offered: every game's results are
    drawn.  Read once: the shipped files do not change while the judge runs."""
    return list(_drawn_maps())


@cache
def _drawn_maps() -> tuple[str, ...]:
    def drawn(name: str) -> bool:
        if (MAPS / f"{name}_geometry.geojson").exists():
            return True
        # Only a map without a drawing of its own is read, for the one it shares (Void's).
        return (MAPS / f"{load_map(name).drawing}_geometry.geojson").exists()

    return tuple(sorted(entry.stem for entry in MAPS.glob("*.json") if drawn(entry.stem)))


@cache
def load_map(name: str = "standard") -> GameMap:
    """Load a map shipped in ``judge/engine/maps`` by name (cached: maps are immutable)."""
    if not re.fullmatch(r"[a-z0-9_]+", name):
        raise MapError(f"unknown variant '{name}'")
    try:
        text = (MAPS / f"{name}.json").read_text("utf-8")
    except FileNotFoundError:
        raise MapError(f"unknown variant '{name}'") from None
    return parse_map(json.loads(text))
