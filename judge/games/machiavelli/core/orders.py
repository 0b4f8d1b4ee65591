"""Operation orders (AoP 9) and the other values the Action phase is given.

An order names its unit by kind and area (AoP 8.2: "a unit is identified by listing its type and
location"), as :class:`UnitRef`.  The six orders of AoP 9.1:

* :class:`Hold` — stay (9.2);
* :class:`Advance` — into an adjacent area, or, for an army, along ``route``: the areas of the
  transporting fleets in order (9.3, M24);
* :class:`Support` — of an *area*, for a player (9.5, M18): whatever operation of that player's
  unit is directed at the area; the player is named, or is the owner of the unit named (as
  players write ``F GoL S A Pis - Mar``), or else the supporter's owner;
* :class:`Transport` — by a fleet, for a player (9.6, M24), named as for a support;
* :class:`Besiege` — the city of the unit's province (9.4), or Venice from the Lagoon (14);
* :class:`Convert` — a garrison into an army or fleet, or an army or fleet into a garrison (9.7).

Orders come grouped by the player who wrote them; after phase D a unit obeys only its owner, or,
for an independent unit bribed to operate, its briber (:class:`PhaseD`, M39, M50).  Straits
permissions (M51, ``allow <player> straits``) and third-party bribe permissions (``allow <player> bribe``)
are :class:`Permission` values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import NamedTuple, TypeAlias

from judge.games.machiavelli.core.position import Owner, Place, UnitKind


@dataclass(frozen=True, slots=True)
class UnitRef:
    """A unit as an order names it: its kind and area (a garrison is in the area's city)."""

    kind: UnitKind
    area: str

    @property
    def place(self) -> Place:
        return Place(self.area, city=self.kind is UnitKind.GARRISON)

    def __str__(self) -> str:
        return f"{self.kind.value} {self.area}"


@dataclass(frozen=True, slots=True)
class Hold:
    """Stay in place (9.2)."""

    unit: UnitRef

    def __str__(self) -> str:
        return f"{self.unit} H"


@dataclass(frozen=True, slots=True)
class Advance:
    """Advance into an area, an army perhaps along a route of transporting fleets (9.3)."""

    unit: UnitRef
    to: str
    coast: str | None = None  # a fleet's coast in a dual-coast province
    route: tuple[str, ...] = ()  # the transporting fleets' areas, in order (an army only)

    def __str__(self) -> str:
        via = "".join(f" - {area}" for area in self.route)
        to = f"{self.to}/{self.coast}" if self.coast else self.to
        return f"{self.unit}{via} - {to}"


@dataclass(frozen=True, slots=True)
class Support:
    """Support whatever operation of ``beneficiary``'s unit is directed at ``area`` (9.5, M18).

    The beneficiary may instead be given as the unit that operates (``supported``, as players
    write ``F GoL S A Pis - Mar``): it is then that unit's owner as phase D leaves it."""

    unit: UnitRef
    area: str
    beneficiary: Owner | None = None  # None: the owner of ``supported``, or else the supporter's owner
    supported: UnitRef | None = None

    def __str__(self) -> str:
        if self.supported is not None:
            to = "" if self.area == self.supported.area else f" - {self.area}"
            return f"{self.unit} S {self.supported}{to}"
        return f"{self.unit} S {self.area}" + (f" for {self.beneficiary}" if self.beneficiary else "")


@dataclass(frozen=True, slots=True)
class Transport:
    """Transport an army of ``beneficiary`` (9.6), or of the owner of the army ``carried``."""

    unit: UnitRef
    beneficiary: Owner | None = None  # None: the owner of ``carried``, or else the fleet's owner
    carried: UnitRef | None = None

    def __str__(self) -> str:
        if self.carried is not None:
            return f"{self.unit} T {self.carried}"
        return f"{self.unit} T" + (f" for {self.beneficiary}" if self.beneficiary else "")


@dataclass(frozen=True, slots=True)
class Besiege:
    """Besiege the city of the unit's province (9.4)."""

    unit: UnitRef

    def __str__(self) -> str:
        return f"{self.unit} B"


@dataclass(frozen=True, slots=True)
class Convert:
    """Convert into a garrison, or a garrison into an army or fleet (9.7)."""

    unit: UnitRef
    into: UnitKind
    coast: str | None = None  # a fleet's coast when a garrison becomes a fleet in a dual-coast province

    def __str__(self) -> str:
        return f"{self.unit} C {self.into.value}" + (f"/{self.coast}" if self.coast else "")


Order: TypeAlias = Hold | Advance | Support | Transport | Besiege | Convert


class Grant(Enum):
    """What a permission allows (M51): passing the straits one's fleet controls (9.3, M17), or
    bribing from beside one's units (12, M36)."""

    STRAITS = "straits"
    BRIBE = "bribe"


class Permission(NamedTuple):
    """``allow <grantee> straits`` (or ``bribe``) in ``grantor``'s letter (M51): the grantee's
    units may pass the straits the grantor's fleet controls, or the grantee may bribe units next
    to the grantor's, this campaign."""

    grantor: str
    grantee: str
    grant: Grant = Grant.STRAITS


@dataclass(frozen=True)
class PhaseD:
    """What phase D (and E) did that the Action phase must know, beyond the position it leaves
    (bribed units already have their new owner, disbanded ones are gone, new rebellions stand):

    * ``assassinated`` — the players whose leader was assassinated: all their units hold, and
      those holds put down no rebellion (AoP 10, M20);
    * ``operated`` — the independent units bribed to operate, and the briber whose operation
      order each obeys (AoP 12, M39).
    """

    assassinated: frozenset[str] = frozenset()
    operated: Mapping[Place, str] = field(default_factory=dict)
