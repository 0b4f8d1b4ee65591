"""Shorthands for the Machiavelli tests: units, positions on the classic board, orders by owner, letters."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from judge.games.machiavelli.core.action import adjudicate
from judge.games.machiavelli.core.board import Board, load_board
from judge.games.machiavelli.core.campaign import CampaignRecord, campaign
from judge.games.machiavelli.core.expenditures import LetterOrder
from judge.games.machiavelli.core.orders import Order, Permission, PhaseD, UnitRef
from judge.games.machiavelli.core.position import Campaign, Owner, Phase, Position, Season, Siege, Unit, UnitKind
from judge.games.machiavelli.core.results import Adjudication, Reason
from judge.games.machiavelli.core.spring import SpringRecord, spring_letter
from judge.games.machiavelli.core.syntax import parse_letter

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


# -- the economy ------------------------------------------------------------------------------------------------

SUMMER = Season(1454, Campaign.SUMMER)
POWERS = BOARD.powers


def game(*units: Unit, season: Season = SUMMER, phase: Phase = Phase.C, treasuries: Mapping[str, int] | None = None,
         control: Mapping[str, Owner] | None = None, rebellions: Mapping[str, Owner] | None = None,
         sieges: Mapping[str, Siege] | None = None, homes: Mapping[str, frozenset[str]] | None = None,
         eliminated: Mapping[str, Season] | None = None, bans: Mapping[str, Season] | None = None,
         excommunicated: tuple[str, ...] = ()) -> Position:
    """A position for the economy: every living power holds its own home country unless told,
    and has the treasury given (else nothing)."""
    out = eliminated or {}
    held = {p: frozenset({p}) for p in POWERS if p not in out} | dict(homes or {})
    money = {p: 0 for p in POWERS if p not in out} | dict(treasuries or {})
    return Position.build(season, units, control=control, rebellions=rebellions, sieges=sieges, treasuries=money,
                          homes=held, eliminated=eliminated, phase=phase, anticipated=money, bans=bans,
                          excommunicated=excommunicated)


def homeland(*powers: str) -> dict[str, Owner]:
    """Control markers on every province of these powers' home countries."""
    return {area: power for power in powers for area in BOARD.home_country(power)}


def letter(text: str, board: Board = BOARD) -> tuple[LetterOrder, ...]:
    """A letter's orders on ``board`` (the test fails if a line is no order)."""
    orders, problems = parse_letter(text, board)
    assert not problems, [str(p) for p in problems]
    return orders


def play(start: Position, board: Board = BOARD, **letters: str) -> CampaignRecord:
    """One campaign on ``board`` with these players' letters (one order a line)."""
    return campaign(board, start, {player: letter(text, board) for player, text in letters.items()})


def spring(start: Position, board: Board = BOARD, **letters: str) -> SpringRecord:
    """A spring's A letters carried out on ``board``."""
    return spring_letter(board, start, {player: letter(text, board) for player, text in letters.items()})


def outcomes(record: CampaignRecord | SpringRecord, player: str) -> list[tuple[str, int, Reason]]:
    """A player's letter orders as (the order written, ducats charged, reason), in letter order."""
    return [(str(o.order), o.charged, o.reason) for o in record.outcomes if o.player == player]


def altered(data: Mapping[str, Any], change: Mapping[str, object]) -> dict[str, Any]:
    """A deep copy of a board file's ``data`` with ``change`` made: each key a dotted path ("areas.ist.army"),
    each value what it is set to there (for the tests of the loader's refusals)."""
    copy: dict[str, Any] = json.loads(json.dumps(data))
    for path, value in change.items():
        where = copy
        *steps, last = path.split(".")
        for step in steps:
            where = where[step]
        where[last] = value
    return copy
