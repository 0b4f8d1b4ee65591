"""Shorthands for the Machiavelli tests: units, positions on the classic board, orders by owner."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping

from judge.games.machiavelli.core.action import adjudicate
from judge.games.machiavelli.core.board import load_board
from judge.games.machiavelli.core.orders import Order, Permission, PhaseD, UnitRef
from judge.games.machiavelli.core.position import Campaign, Owner, Position, Season, Siege, Unit, UnitKind
from judge.games.machiavelli.core.results import Adjudication

BOARD = load_board()
SPRING = Season(1454, Campaign.SPRING)


def A(owner: Owner, area: str) -> Unit:
    return Unit(UnitKind.ARMY, owner, area)


def F(owner: Owner, area: str, coast: str | None = None) -> Unit:
    return Unit(UnitKind.FLEET, owner, area, coast)


def G(owner: Owner, area: str) -> Unit:
    return Unit(UnitKind.GARRISON, owner, area)


def ref(unit: Unit) -> UnitRef:
    return UnitRef(unit.kind, unit.area)


def position(*units: Unit, control: Mapping[str, Owner] | None = None,
             rebellions: Mapping[str, Owner] | None = None, sieges: Mapping[str, Siege] | None = None,
             homes: Mapping[str, frozenset[str]] | None = None) -> Position:
    return Position.build(SPRING, units, control=control, rebellions=rebellions, sieges=sieges, homes=homes)


def judge(start: Position, *orders: Order, phase_d: PhaseD | None = None,
          permissions: Iterable[Permission] = ()) -> Adjudication:
    """Adjudicate ``orders``, each written by the owner of the unit it names (for an independent
    unit, by the player who bribed it to operate)."""
    operated = phase_d.operated if phase_d is not None else {}
    by_owner: dict[str, list[Order]] = defaultdict(list)
    for order in orders:
        unit = start.unit_at(order.unit.place)
        assert unit is not None, order
        by_owner[unit.owner if isinstance(unit.owner, str) else operated[unit.place]].append(order)
    return adjudicate(BOARD, start, by_owner, phase_d=phase_d, permissions=frozenset(permissions))


def where(result: Adjudication) -> set[str]:
    """The units of the new position, written as ``str(unit)``."""
    return {str(unit) for unit in result.position.units.values()}
