"""Phases and positions: the state of the board between two adjudications.

A position is a frozen value.  What many questions about it share is derived once, on
first use, and kept with it: the seas holding fleets and their convoy routes
(:attr:`Position.convoys`).  A position plays on the board of its phase's season
(:meth:`~judge.engine.map.GameMap.in_season`: the board itself, unless some province is
closed in that season, like Loeb9's Arctic Ocean outside spring).

A phase is written with a four-digit year (``S1901M``, ``S0001M`` on a board that starts
in year 1), so that the year is always ``name[1:5]``; it is read with or without the
leading zeros (``S1M``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cached_property
from types import MappingProxyType
from typing import NamedTuple

from judge.engine.convoys import ConvoyNetwork
from judge.engine.map import GameMap, Location
from judge.engine.orders import PhaseKind, Unit, UnitType, lexicon


class Season(Enum):
    SPRING = "S"
    FALL = "F"
    WINTER = "W"


_SEASON_RANK = {Season.SPRING: 0, Season.FALL: 1, Season.WINTER: 2}
_KIND_RANK = {PhaseKind.MOVEMENT: 0, PhaseKind.RETREAT: 1, PhaseKind.ADJUSTMENT: 2}


@dataclass(frozen=True, slots=True)
class Phase:
    """A phase such as ``S1901M`` (Spring 1901 movement), ``F1901R`` or ``W1901A`` (years 0 to 9999)."""

    season: Season
    year: int
    kind: PhaseKind

    @classmethod
    def parse(cls, text: str) -> Phase:
        match = re.fullmatch(r"([SFW])(\d{1,4})([MRA])", text.strip().upper())
        if match is None:
            raise ValueError(f"bad phase '{text}': expected e.g. S1901M, F1901R or W1901A")
        season, kind = Season(match.group(1)), PhaseKind(match.group(3))
        if (season is Season.WINTER) != (kind is PhaseKind.ADJUSTMENT):
            raise ValueError(f"bad phase '{text}': adjustments happen in winter (W...A) only")
        return cls(season, int(match.group(2)), kind)

    def sort_key(self) -> tuple[int, int, int]:
        return (self.year, _SEASON_RANK[self.season], _KIND_RANK[self.kind])

    def __str__(self) -> str:
        return f"{self.season.value}{self.year:04d}{self.kind.value}"


class PlacedUnit(NamedTuple):
    """A unit on the board and the power that owns it (a named tuple: frozen, and quick to build)."""

    power: str
    unit: Unit

    @property
    def type(self) -> UnitType:
        assert self.unit.type is not None
        return self.unit.type

    @property
    def location(self) -> Location:
        return self.unit.location


@dataclass(frozen=True, slots=True)
class Dislodgement:
    """A unit dislodged in the last movement phase, and where its attacker came from.

    ``via_convoy`` records that the attacker was convoyed: the 2023 rules (DATC 4.A.5) then
    let the unit retreat to the attacker's origin.
    """

    power: str
    unit: Unit
    attacker_from: str | None
    via_convoy: bool = False


@dataclass(frozen=True, eq=False)
class Position:
    """The board before a phase: units by province, center owners, and retreat context."""

    game_map: GameMap
    phase: Phase
    units: Mapping[str, PlacedUnit]
    centers: Mapping[str, str]
    dislodged: Mapping[str, Dislodgement] = field(default_factory=dict)
    contested: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        game_map = self.game_map
        if game_map.seasonal:
            object.__setattr__(self, "game_map", game_map.in_season(self.phase.season.value))
        # Each table becomes a read-only copy; a read-only view is kept as it is (only positions
        # make them, over tables nothing changes: evolve() and the next position share them).
        for name in ("units", "centers", "dislodged"):
            mapping = getattr(self, name)
            if type(mapping) is not MappingProxyType:
                object.__setattr__(self, name, MappingProxyType(dict(mapping or {})))

    @classmethod
    def build(
        cls,
        game_map: GameMap,
        phase: Phase,
        units: Iterable[PlacedUnit],
        centers: Mapping[str, str],
        dislodged: Iterable[Dislodgement] = (),
        contested: Iterable[str] = (),
    ) -> Position:
        return cls(
            game_map,
            phase,
            MappingProxyType({u.unit.location.province: u for u in units}),
            centers,  # copied unless it is a position's own
            MappingProxyType({d.unit.province: d for d in dislodged}),
            frozenset(contested),
        )

    @classmethod
    def initial(cls, game_map: GameMap) -> Position:
        """The start of a game: the map's first phase (Spring, or Fall on Void), home centers and units."""
        units: list[PlacedUnit] = []
        centers: dict[str, str] = {}
        lex = lexicon(game_map)
        for power in game_map.powers.values():
            for text in power.start_units:
                kind, where = text.split()
                units.append(PlacedUnit(power.name, lex.unit(UnitType(kind), game_map.location(where))))
            centers.update((c, power.name) for c in power.home_centers)
        first = Phase(Season(game_map.start_season), game_map.start_year, PhaseKind.MOVEMENT)
        return cls.build(game_map, first, units, centers)

    def evolve(self, **changes: object) -> Position:
        return replace(self, **changes)  # type: ignore[arg-type]

    @cached_property
    def convoys(self) -> ConvoyNetwork:
        """The convoy routes the fleets at sea (the links a convoy chain may use) could form."""
        units = self.units
        fleet_seas = frozenset([p for p in self.game_map.seas.intersection(units) if units[p].unit.is_fleet])
        return ConvoyNetwork(self.game_map, fleet_seas)

    def unit_at(self, province: str) -> PlacedUnit | None:
        return self.units.get(province)

    def units_of(self, power: str) -> list[PlacedUnit]:
        return [u for u in self.units.values() if u.power == power]

    def centers_of(self, power: str) -> list[str]:
        return sorted(p for p, owner in self.centers.items() if owner == power)
