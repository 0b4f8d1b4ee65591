"""The position: what stands on the board between two phases, as frozen values.

Places (AoP 1.3, M15, M16, M23).  A province has two places: the *province* itself, where one
army or fleet may stand, and, if it has a fortified city, the *city*, where one garrison may
stand beside it (:class:`Place` with ``city=True``).  A sea has one place.  A single-unit area
(Venice) still has both places, but holds one unit in all.  A rebellion is no unit: it is kept
apart (:attr:`Position.rebellions`).

Owners.  A unit belongs to a power (its name, a ``str``) or to an independent state
(:class:`Independent`, named after its native area; on a sea, pirates: AoP 16).  Both are an
:data:`Owner`.

Control (AoP 4.1, M5).  :attr:`Position.control` holds the control markers of the provinces:
for each land area, who controls it — the last sole occupant, or the buyer — as the judge keeps
the markers; a rebelling province keeps its marker, which then points at the victim.  No marker:
nobody controls it (never held, or held by two owners at once).  What a rule asks is
:meth:`Position.controller` (the province) and :meth:`Position.city_controller` (its city),
which apply 4.1's exceptions to the marker: a rebelling province is controlled by nobody; an
army or fleet and a garrison of different owners leave province and city to nobody; a garrison
controls its city even in a rebelling province.  A sea is controlled only by a fleet in it
(:meth:`Position.sea_controller`); seas have no markers.

The rest: rebellions (province → victim), sieges in progress (besieged city's area → who
besieges and for how many successful seasons), treasuries, the home countries each power holds
now (its original one and those conquered, named by the power whose home they were: AoP 4.4),
the powers eliminated so far (with the season each fell in: 4.2 ranks them by it), the season,
and the economy's public and papal state: which letter the position awaits (:class:`Phase`),
the *anticipated* treasuries A.2 publishes (the treasuries as public information updates them:
AoP 2), the excommunications in force (target → the season whose Phase F ends them, unless a
Phase A ends them first: AoP 15, M32) and every player ever excommunicated (once per target per
game).  This model is shared by the Action phase and the economy; it changes only by additions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from types import MappingProxyType
from typing import TypeAlias


class UnitKind(Enum):
    """Army, fleet or garrison (AoP 1.3: the military units)."""

    ARMY = "A"
    FLEET = "F"
    GARRISON = "G"


@dataclass(frozen=True, slots=True, order=True)
class Independent:
    """An independent state (AoP 16), named by the native area of its units: ``Independent("sie")``
    is Siena's; on a sea, pirates."""

    native: str

    def __str__(self) -> str:
        return f"independent {self.native}"


Owner: TypeAlias = str | Independent
"""Who a unit or a control marker belongs to: a power's name, or an independent state."""


def owner_key(owner: Owner) -> tuple[int, str]:
    """A sort key putting powers (by name) before independent states (by native area)."""
    return (1, owner.native) if isinstance(owner, Independent) else (0, owner)


@dataclass(frozen=True, slots=True, order=True)
class Place:
    """Where one unit stands: the province (or sea) ``area``, or its city."""

    area: str
    city: bool = False

    def __str__(self) -> str:
        return f"{self.area} (city)" if self.city else self.area


@dataclass(frozen=True, slots=True)
class Unit:
    """A military unit: its kind, owner, area and, for a fleet in a dual-coast province, its coast."""

    kind: UnitKind
    owner: Owner
    area: str
    coast: str | None = None

    @property
    def place(self) -> Place:
        return Place(self.area, city=self.kind is UnitKind.GARRISON)

    @property
    def independent(self) -> bool:
        return isinstance(self.owner, Independent)

    def __str__(self) -> str:
        where = f"{self.area}/{self.coast}" if self.coast else self.area
        return f"{self.owner} {self.kind.value} {where}"


class Phase(Enum):
    """Which letter a position awaits (AoP 2): the spring's A orders (A.4 to A.7; A.1 and A.2 are
    the judge's, done with them), a campaign's C orders (C.1 and C.2), or none: the game is over."""

    A = "A"
    C = "C"
    OVER = "over"


class Campaign(Enum):
    """The three campaigns of a year (AoP 2: there is no winter campaign)."""

    SPRING = "spring"
    SUMMER = "summer"
    FALL = "fall"


_CAMPAIGNS = tuple(Campaign)


@dataclass(frozen=True, slots=True)
class Season:
    """A campaign season: Spring, Summer or Fall of a year."""

    year: int
    campaign: Campaign

    def sort_key(self) -> tuple[int, int]:
        return (self.year, _CAMPAIGNS.index(self.campaign))

    def next(self) -> Season:
        """The following campaign season (Fall is followed by the next year's Spring)."""
        i = _CAMPAIGNS.index(self.campaign)
        if i + 1 < len(_CAMPAIGNS):
            return Season(self.year, _CAMPAIGNS[i + 1])
        return Season(self.year + 1, _CAMPAIGNS[0])

    def __str__(self) -> str:
        return f"{self.campaign.value.capitalize()} {self.year}"


@dataclass(frozen=True, slots=True)
class Siege:
    """A siege in progress (AoP 9.4, M22): who besieges, and how many consecutive seasons the siege
    has been carried out successfully (1 after the first; the second completes it)."""

    besieger: Owner
    seasons: int = 1


def _frozen(mapping: Mapping[str, object] | None) -> Mapping[str, object]:
    return MappingProxyType(dict(mapping or {}))


@dataclass(frozen=True)
class Position:
    """Everything on the board between two phases; build one with :meth:`build`."""

    season: Season
    units: Mapping[Place, Unit]
    control: Mapping[str, Owner] = field(default_factory=dict)
    rebellions: Mapping[str, Owner] = field(default_factory=dict)  # province -> victim
    sieges: Mapping[str, Siege] = field(default_factory=dict)  # besieged city's area -> siege
    treasuries: Mapping[str, int] = field(default_factory=dict)
    homes: Mapping[str, frozenset[str]] = field(default_factory=dict)  # power -> home countries it holds
    eliminated: Mapping[str, Season] = field(default_factory=dict)  # power -> the season it was eliminated in
    phase: Phase = Phase.C
    anticipated: Mapping[str, int] = field(default_factory=dict)  # the treasuries public information gives
    bans: Mapping[str, Season] = field(default_factory=dict)  # excommunicated power -> the season that ends it
    excommunicated: tuple[str, ...] = ()  # every power ever excommunicated, in order (once per game each)

    def __post_init__(self) -> None:
        for place, unit in self.units.items():
            if unit.place != place:
                raise ValueError(f"{unit} is filed under {place}")
        for name in ("units", "control", "rebellions", "sieges", "treasuries", "homes", "eliminated", "anticipated",
                     "bans"):
            object.__setattr__(self, name, _frozen(getattr(self, name)))

    @classmethod
    def build(
        cls,
        season: Season,
        units: Iterable[Unit],
        *,
        control: Mapping[str, Owner] | None = None,
        rebellions: Mapping[str, Owner] | None = None,
        sieges: Mapping[str, Siege] | None = None,
        treasuries: Mapping[str, int] | None = None,
        homes: Mapping[str, frozenset[str]] | None = None,
        eliminated: Mapping[str, Season] | None = None,
        phase: Phase = Phase.C,
        anticipated: Mapping[str, int] | None = None,
        bans: Mapping[str, Season] | None = None,
        excommunicated: tuple[str, ...] = (),
    ) -> Position:
        """A position with ``units`` (ValueError if two share a place)."""
        by_place: dict[Place, Unit] = {}
        for unit in units:
            if unit.place in by_place:
                raise ValueError(f"{unit} and {by_place[unit.place]} share {unit.place}")
            by_place[unit.place] = unit
        return cls(
            season,
            dict(sorted(by_place.items())),
            control=dict(control or {}),
            rebellions=dict(rebellions or {}),
            sieges=dict(sieges or {}),
            treasuries=dict(treasuries or {}),
            homes=dict(homes or {}),
            eliminated=dict(eliminated or {}),
            phase=phase,
            anticipated=dict(anticipated or {}),
            bans=dict(bans or {}),
            excommunicated=excommunicated,
        )

    def with_units(self, units: Iterable[Unit]) -> Position:
        """The same position with these units instead (ValueError if two share a place)."""
        return replace(self, units=Position.build(self.season, units).units)

    def living(self, powers: Iterable[str]) -> tuple[str, ...]:
        """The powers among ``powers`` not eliminated."""
        return tuple(p for p in powers if p not in self.eliminated)

    # -- units -------------------------------------------------------------------------------------

    def unit_at(self, place: Place) -> Unit | None:
        return self.units.get(place)

    def province_unit(self, area: str) -> Unit | None:
        """The army or fleet in the province (or the fleet on the sea) ``area``."""
        return self.units.get(Place(area))

    def garrison(self, area: str) -> Unit | None:
        """The garrison in the city of ``area``."""
        return self.units.get(Place(area, city=True))

    def units_of(self, owner: Owner) -> tuple[Unit, ...]:
        return tuple(u for u in self.units.values() if u.owner == owner)

    # -- control (AoP 4.1) ----------------------------------------------------------------------------

    def split(self, area: str) -> bool:
        """An army or fleet and a garrison of different owners share ``area``: nobody controls it."""
        unit, garrison = self.province_unit(area), self.garrison(area)
        return unit is not None and garrison is not None and unit.owner != garrison.owner

    def controller(self, area: str) -> Owner | None:
        """Who controls the province ``area`` (a land area) now."""
        if area in self.rebellions or self.split(area):
            return None
        return self.control.get(area)

    def city_controller(self, area: str) -> Owner | None:
        """Who controls the city of ``area``: its garrison's owner even in a rebelling province."""
        if self.split(area):
            return None
        garrison = self.garrison(area)
        if garrison is not None:
            return garrison.owner
        return self.controller(area)

    def city_rebelling(self, area: str) -> bool:
        """Whether the city of a rebelling province rebels too: it does unless garrisoned (AoP 11.2)."""
        return area in self.rebellions and self.garrison(area) is None

    def sea_controller(self, area: str) -> Owner | None:
        """A sea is controlled by the owner of the fleet in it, and by nobody when empty (AoP 4.1)."""
        fleet = self.province_unit(area)
        return fleet.owner if fleet is not None else None

    def home_countries(self, power: str) -> frozenset[str]:
        """The home countries ``power`` holds now (its current home country, AoP 4.4)."""
        return self.homes.get(power, frozenset())
