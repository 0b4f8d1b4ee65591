"""The orders of a letter beyond the operation orders: the A orders of a spring and the
expenditures of a campaign (AoP 2, 5.3 to 8, 10 to 12, 15), as frozen values.

A player's letter is one sequence of orders, in the order written (the order matters: M30).
The spring letter (phase A) holds:

* :class:`Transfer` — A.4, ducats to another player (M31);
* :class:`Sell` and :class:`Purchase` — A.5, a province traded; both lists must match (6, M10);
* :class:`ForcedTax` — A.6 (5.3, M11);
* :class:`Pay`, :class:`Dismiss` and :class:`Raise` — A.7, a unit kept, disbanded or raised (7, M12, M13);
* :class:`Excommunicate` — the Pope's, in A.7 (15, M32).

The campaign letter (phase C) holds the operation orders of :mod:`~.orders`, an
:class:`Excommunicate` (C.2), :class:`Allow` permissions (M51) and the expenditures, carried out
in phase D by kind whatever their place in the letter (2, D):

* D.1 :class:`Transfer`;
* D.2 :class:`Assassinate` and :class:`Bodyguard` (10, M20);
* D.3 :class:`Pacify` and :class:`StartRebellion` (11, M21);
* D.4 :class:`Bribe` and :class:`CounterBribe` (12, M36 to M39, M54).

Each value prints as the line :func:`~.syntax.parse_letter` reads back.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TypeAlias

from judge.games.machiavelli.core.orders import Grant, Order, UnitRef
from judge.games.machiavelli.core.position import UnitKind


@dataclass(frozen=True, slots=True)
class Transfer:
    """Give whole ducats to another player (A.4, D.1, M31)."""

    to: str
    amount: int

    def __str__(self) -> str:
        return f"transfer {self.amount} to {self.to}"


@dataclass(frozen=True, slots=True)
class Sell:
    """Sell an unoccupied province one controls to ``buyer`` for ``price`` (A.5, 6)."""

    area: str
    buyer: str
    price: int

    def __str__(self) -> str:
        return f"sell {self.area} to {self.buyer} for {self.price}"


@dataclass(frozen=True, slots=True)
class Purchase:
    """Buy a province from ``seller`` for ``price`` (A.5, 6): the seller's :class:`Sell` must match."""

    area: str
    seller: str
    price: int

    def __str__(self) -> str:
        return f"buy {self.area} from {self.seller} for {self.price}"


@dataclass(frozen=True, slots=True)
class ForcedTax:
    """Tax a controlled province by force (A.6, 5.3, M11): its tax again, and it rebels."""

    area: str

    def __str__(self) -> str:
        return f"tax {self.area}"


@dataclass(frozen=True, slots=True)
class Pay:
    """Pay an existing unit's salary of 3 ducats, keeping it for the year (A.7, 7.3, M12)."""

    unit: UnitRef

    def __str__(self) -> str:
        return f"pay {self.unit}"


@dataclass(frozen=True, slots=True)
class Dismiss:
    """Disband one's own unit in A.7 (7.1)."""

    unit: UnitRef

    def __str__(self) -> str:
        return f"disband {self.unit}"


@dataclass(frozen=True, slots=True)
class Raise:
    """Raise a new unit for 3 ducats (A.7, 7.2, M13); ``coast`` for a fleet in a two-coast province."""

    kind: UnitKind
    area: str
    coast: str | None = None

    def __str__(self) -> str:
        return f"raise {self.kind.value} {self.area}" + (f"/{self.coast}" if self.coast else "")


@dataclass(frozen=True, slots=True)
class Excommunicate:
    """The Pope's excommunication of another player (A.7 or C.2; 15, M32)."""

    target: str

    def __str__(self) -> str:
        return f"excommunicate {self.target}"


@dataclass(frozen=True, slots=True)
class Allow:
    """``allow <player> [bribe|straits]`` (M51): permissions for this campaign."""

    grantee: str
    grants: frozenset[Grant] = frozenset(Grant)

    def __str__(self) -> str:
        what = "" if self.grants == frozenset(Grant) else " " + " ".join(sorted(g.value for g in self.grants))
        return f"allow {self.grantee}{what}"


@dataclass(frozen=True, slots=True)
class Assassinate:
    """An assassination attempt on another player's leader: 30 ducats or more, by threes (D.2, 10)."""

    leader: str
    amount: int

    def __str__(self) -> str:
        return f"assassinate {self.leader} {self.amount}"


@dataclass(frozen=True, slots=True)
class Bodyguard:
    """A bodyguard for a leader (None: the writer's own): 3 ducats or more, by threes (D.2, 10)."""

    amount: int
    leader: str | None = None

    def __str__(self) -> str:
        return f"bodyguard {self.amount}" + (f" for {self.leader}" if self.leader else "")


@dataclass(frozen=True, slots=True)
class StartRebellion:
    """Start a rebellion in an enemy-controlled province (D.3, 11.1, M21); the price is fixed,
    and an ``amount`` written must be it."""

    area: str
    amount: int | None = None

    def __str__(self) -> str:
        return "rebellion " + (f"{self.amount} " if self.amount is not None else "") + self.area


@dataclass(frozen=True, slots=True)
class Pacify:
    """Pacify a rebelling province for 12 ducats (D.3, 11.3, M21)."""

    area: str
    amount: int | None = None

    def __str__(self) -> str:
        return "pacify " + (f"{self.amount} " if self.amount is not None else "") + self.area


class BribeKind(Enum):
    """The bribes of AoP 12: *operate*, *disband* and *buy* an independent unit; *independent*
    (convert a committed unit into an independent one), *disband* and *buy* a committed unit."""

    OPERATE = "operate"
    DISBAND = "disband"
    BUY = "buy"
    INDEPENDENT = "independent"


@dataclass(frozen=True, slots=True)
class Bribe:
    """A bribe of ``kind`` on a unit, for ``amount`` ducats: its minimum, or more by threes (D.4, 12)."""

    kind: BribeKind
    unit: UnitRef
    amount: int

    def __str__(self) -> str:
        return f"bribe {self.amount} {self.kind.value} {self.unit}"


@dataclass(frozen=True, slots=True)
class CounterBribe:
    """A counter-bribe on any unit: 3 ducats or more, by threes (D.4, 12)."""

    unit: UnitRef
    amount: int

    def __str__(self) -> str:
        return f"counter-bribe {self.amount} {self.unit}"


SpringOrder: TypeAlias = Transfer | Sell | Purchase | ForcedTax | Pay | Dismiss | Raise | Excommunicate
Expenditure: TypeAlias = Transfer | Assassinate | Bodyguard | StartRebellion | Pacify | Bribe | CounterBribe
LetterOrder: TypeAlias = Order | SpringOrder | Expenditure | Allow
"""Any order a letter may hold."""

SPRING_ORDERS = (Transfer, Sell, Purchase, ForcedTax, Pay, Dismiss, Raise, Excommunicate)
CAMPAIGN_ORDERS = (Transfer, Assassinate, Bodyguard, StartRebellion, Pacify, Bribe, CounterBribe, Allow, Excommunicate)
