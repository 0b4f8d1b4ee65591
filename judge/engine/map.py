"""The board: provinces, coasts, adjacencies, supply centers and powers, read from a data file.

A map is pure data (``maps/<name>.json``); another variant is another file.  Provinces are
named by their canonical ids (``LON``, ``STP``); a place a unit can stand is a
:class:`Location`, which adds a coast for fleets in split-coast provinces (``STP/SC``).
Armies move along ``army_edges`` between provinces; fleets along ``fleet_edges`` between
locations, so coast-specific moves are just edges.  Both edge lists are undirected.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any


class MapError(ValueError):
    """A name that does not denote anything on the map."""


class Terrain(Enum):
    """What a province is made of; it decides which unit types may enter."""

    SEA = "sea"
    COAST = "coast"
    LAND = "land"
    IMPASSABLE = "impassable"


@dataclass(frozen=True, slots=True, order=True)
class Location:
    """A place a unit can occupy: a province, and for fleets in split-coast provinces a coast."""

    province: str
    coast: str | None = None

    def __str__(self) -> str:
        return f"{self.province}/{self.coast}" if self.coast else self.province


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


_COAST_WORDS = {"NORTH": "NC", "SOUTH": "SC", "EAST": "EC", "WEST": "WC"}


def normalise_name(text: str) -> str:
    """Upper-case a province name and drop everything but letters, digits and spaces."""
    text = text.upper().replace("-", " ").replace(".", " ").replace("'", "")
    return " ".join(text.split())


@dataclass(frozen=True, eq=False)
class GameMap:
    """An immutable map; build one with :func:`load_map`."""

    name: str
    start_year: int
    victory_centers: int
    powers: Mapping[str, PowerInfo]
    provinces: Mapping[str, Province]
    army_adjacency: Mapping[str, frozenset[str]]
    fleet_adjacency: Mapping[Location, frozenset[Location]]
    names: Mapping[str, str] = field(repr=False)  # normalised name or alias -> province id

    # -- names -----------------------------------------------------------------

    def province_id(self, text: str) -> str:
        """Resolve an id, alias or full name (any case) to the province id."""
        key = normalise_name(text)
        try:
            return self.names[key]
        except KeyError:
            raise MapError(f"unknown province '{text.strip()}'") from None

    def location(self, text: str) -> Location:
        """Parse ``STP/NC``, ``STP(NC)``, ``Spain (north coast)`` into a location."""
        raw = text.strip()
        match = re.fullmatch(r"(.+?)\s*(?:/\s*|\(\s*)([A-Za-z ]+?)\s*\)?", raw)
        if match is None:
            return Location(self.province_id(raw))
        prov = self.province_id(match.group(1))
        coast_text = normalise_name(match.group(2)).removesuffix(" COAST")
        coast = _COAST_WORDS.get(coast_text, coast_text)
        # A coast the province does not have is ignored (DATC 4.B.6): "A GAS - SPA/NC",
        # "F MAO - BRE/XC".  Whether a coast is needed is decided by the legality rules.
        return Location(prov, coast if coast in self.provinces[prov].coasts else None)

    # -- geometry --------------------------------------------------------------

    @property
    def supply_centers(self) -> frozenset[str]:
        return _centers(self)

    @property
    def letters(self) -> dict[str, str]:
        """Each power's initial, by power name (acceptance lists are written in initials)."""
        return {name: info.letter for name, info in self.powers.items()}

    def home_power(self, province: str) -> str | None:
        """The power whose home center this is, if any."""
        for power in self.powers.values():
            if province in power.home_centers:
                return power.name
        return None

    def fleet_locations(self, province: str) -> tuple[Location, ...]:
        """Where a fleet may stand in a province: its coasts, or the province itself."""
        prov = self.provinces[province]
        if prov.terrain in (Terrain.LAND, Terrain.IMPASSABLE):
            return ()
        if prov.coasts:
            return tuple(Location(province, c) for c in prov.coasts)
        return (Location(province),)

    def army_can_stand(self, province: str) -> bool:
        return self.provinces[province].terrain in (Terrain.LAND, Terrain.COAST)

    def provinces_reachable(self, is_fleet: bool, loc: Location) -> frozenset[str]:
        """Provinces a unit at ``loc`` could move into without convoy (coasts ignored)."""
        if is_fleet:
            return frozenset(dest.province for dest in self.fleet_adjacency.get(loc, ()))
        return self.army_adjacency.get(loc.province, frozenset())

    def sea_neighbours(self, province: str) -> frozenset[str]:
        """Sea provinces touching a province: where convoy chains start and end."""
        return _sea_neighbours(self, province)

    def any_neighbours(self, province: str) -> frozenset[str]:
        """Provinces next to this one by land or sea, for distances that ignore unit type."""
        return _any_neighbours(self, province)


@cache
def _centers(game_map: GameMap) -> frozenset[str]:
    return frozenset(p.id for p in game_map.provinces.values() if p.center)


@cache
def _sea_neighbours(game_map: GameMap, province: str) -> frozenset[str]:
    seas = game_map.provinces
    found: set[str] = set()
    for loc in game_map.fleet_locations(province):
        found.update(
            d.province for d in game_map.fleet_adjacency.get(loc, ()) if seas[d.province].terrain is Terrain.SEA
        )
    return frozenset(found)


@cache
def _any_neighbours(game_map: GameMap, province: str) -> frozenset[str]:
    found = set(game_map.army_adjacency.get(province, ()))
    for loc in game_map.fleet_locations(province):
        found.update(d.province for d in game_map.fleet_adjacency.get(loc, ()))
    return frozenset(found)


def _location_of(token: str) -> Location:
    prov, _, coast = token.partition("/")
    return Location(prov, coast or None)


def _symmetric(edges: Iterable[tuple[Any, Any]]) -> dict[Any, set[Any]]:
    table: dict[Any, set[Any]] = {}
    for a, b in edges:
        table.setdefault(a, set()).add(b)
        table.setdefault(b, set()).add(a)
    return table


def parse_map(data: Any) -> GameMap:
    """Build a map from its JSON data, checking that every edge names a real place."""
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
    army_pairs = [tuple(edge.split()) for edge in data["army_edges"]]
    fleet_pairs = [(_location_of(a), _location_of(b)) for a, b in (edge.split() for edge in data["fleet_edges"])]
    for a, b in army_pairs:
        for p in (a, b):
            if p not in provinces or provinces[p].terrain not in (Terrain.LAND, Terrain.COAST):
                raise MapError(f"army edge {a}-{b}: {p} cannot hold an army")
    for a, b in fleet_pairs:
        for loc in (a, b):
            if loc.province not in provinces or loc not in _fleet_places(provinces[loc.province]):
                raise MapError(f"fleet edge {a}-{b}: a fleet cannot stand at {loc}")
    powers = {
        name: PowerInfo(
            name=name,
            letter=info["letter"],
            adjective=info.get("adjective", name.title()),
            home_centers=frozenset(info["home_centers"]),
            start_units=tuple(info["units"]),
        )
        for name, info in data["powers"].items()
    }
    army = {k: frozenset(v) for k, v in _symmetric(army_pairs).items()}
    fleet = {k: frozenset(v) for k, v in _symmetric(fleet_pairs).items()}
    return GameMap(
        name=str(data["name"]),
        start_year=int(data["start_year"]),
        victory_centers=int(data["victory_centers"]),
        powers=MappingProxyType(powers),
        provinces=MappingProxyType(provinces),
        army_adjacency=MappingProxyType(army),
        fleet_adjacency=MappingProxyType(fleet),
        names=MappingProxyType(names),
    )


def _fleet_places(prov: Province) -> tuple[Location, ...]:
    if prov.terrain not in (Terrain.SEA, Terrain.COAST):
        return ()
    if prov.coasts:
        return tuple(Location(prov.id, c) for c in prov.coasts)
    return (Location(prov.id),)


def available_maps() -> list[str]:
    """The names of the maps shipped with the judge."""
    folder = resources.files("judge.engine.maps")
    return sorted(entry.name.removesuffix(".json") for entry in folder.iterdir() if entry.name.endswith(".json"))


@cache
def load_map(name: str = "standard") -> GameMap:
    """Load a map shipped in ``judge/engine/maps`` by name (cached: maps are immutable)."""
    if not re.fullmatch(r"[a-z0-9_]+", name):
        raise MapError(f"unknown variant '{name}'")
    try:
        text = resources.files("judge.engine.maps").joinpath(f"{name}.json").read_text("utf-8")
    except FileNotFoundError:
        raise MapError(f"unknown variant '{name}'") from None
    return parse_map(json.loads(text))
