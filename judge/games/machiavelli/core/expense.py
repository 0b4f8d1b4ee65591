"""Phase D, the ducat expenditures, and phase E, the assassinations' effects (AoP 2, 8.1, 10 to
12, 15, 16; M20, M21, M30 to M40, M51, M54).

Theory of operation.  The sub-phases D.1 to D.4 are carried out in that order whatever the
order of the letter; within each, every player's orders of that sub-phase go in the order the
player wrote them, each simultaneously with the other players' (:class:`~.ledger.Purse`: what a
player receives from another counts once the sub-phase is over).  An order is first checked
(an illegal, impossible or unclear one is not carried out and not charged: 8.1, M38; one that
repeats an order of the same kind on the same target contradicts it, 8.1), then paid in full
or skipped (M30); what it achieves is decided when every player's orders of the sub-phase are
in, against the position as the sub-phase began:

* D.1 transfers, not to or from an excommunicated player (15, M32);
* D.2 assassinations and bodyguards: per leader the highest attempt against the highest
  bodyguard, success at a difference of 30 or more; everything is charged (10, M20);
* D.3 pacifications first (the rebellions standing as D.3 began), then new rebellions at their
  fixed price, one rebellion however many start it, all charged (11, M21); an assassinated
  player's D.3 and D.4 orders are skipped and not charged (M40);
* D.4 bribes and counter-bribes on each unit: the largest bribe (then the lowest minimum) alone
  is checked, and succeeds if its excess over its minimum is not smaller than the highest
  counter-bribe; equal bribes of one minimum all fail, unless they disband (12, M37) — and then
  they too are checked against the counter-bribes.  A bribe reaching its unit only beside a
  third player's unit without that player's permission is charged and fails, and takes no part
  in the comparison (12, M38, M51).  Adjacency is by army or fleet, and a strait closed to the
  briber cuts it (M36, M17e).  A unit that changes owner (bought, or made independent) makes
  the control of its area follow (M5), and liberates a rebellion there (M56); of two units of
  one area made independent at once, the second bribe fails, charged (M54);
* E: the assassinated players' provinces outside their current home country rebel, and their
  units will hold (10, M20).

The position handed to phase F is the one D and E leave (:class:`~.orders.PhaseD` carries the
rest: the assassinated players and the independents bribed to operate).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum

from judge.games.machiavelli.core.board import Board
from judge.games.machiavelli.core.expenditures import (
    Assassinate,
    Bodyguard,
    Bribe,
    BribeKind,
    CounterBribe,
    Expenditure,
    Pacify,
    StartRebellion,
    Transfer,
)
from judge.games.machiavelli.core.ledger import Flow, OrderOutcome, Purse
from judge.games.machiavelli.core.operations import strait_closed
from judge.games.machiavelli.core.orders import Grant, Permission, PhaseD
from judge.games.machiavelli.core.position import Independent, Owner, Place, Position, Unit, UnitKind
from judge.games.machiavelli.core.results import ControlChange, Reason, RebellionEnd

ASSASSINATION, BODYGUARD, COUNTER_BRIBE, PACIFICATION = 30, 3, 3, 12
BRIBE_MINIMUM = {  # (kind, on an independent unit) -> minimum price (12)
    (BribeKind.OPERATE, True): 3, (BribeKind.DISBAND, True): 6, (BribeKind.BUY, True): 9,
    (BribeKind.INDEPENDENT, False): 9, (BribeKind.DISBAND, False): 12, (BribeKind.BUY, False): 18,
}


@dataclass(frozen=True)
class RebellionStart:
    """A rebellion that rose in D.3, in E (an assassination), or by forced taxation in A.6."""

    area: str
    victim: Owner
    reason: Reason


@dataclass(frozen=True)
class BribeEffect:
    """A successful bribe: the unit before, and after (None: disbanded; the same unit: operated)."""

    briber: str
    kind: BribeKind
    before: Unit
    after: Unit | None


@dataclass(frozen=True)
class Expending:
    """What phases D and E did: each order's outcome, the leaders assassinated, the rebellions
    started and ended, the bribes that took, the control markers that moved, the position they
    leave, and what phase F must know of them."""

    outcomes: tuple[OrderOutcome, ...]
    assassinated: frozenset[str]
    rebellions_started: tuple[RebellionStart, ...]
    rebellions_ended: tuple[RebellionEnd, ...]
    bribes: tuple[BribeEffect, ...]
    control_changes: tuple[ControlChange, ...]
    position: Position
    phase_d: PhaseD


def valid_amount(amount: int, minimum: int) -> bool:
    """The minimum, or more by steps of 3 ducats (8.1, 10, 12)."""
    return amount >= minimum and (amount - minimum) % 3 == 0


def home_areas(board: Board, position: Position, player: Owner) -> frozenset[str]:
    """The areas of ``player``'s current home country (4.4)."""
    if not isinstance(player, str):
        return frozenset()
    return frozenset().union(*(board.home_country(c) for c in position.home_countries(player)))


def transfers(position: Position, players: Sequence[str], orders: Mapping[str, Sequence[Transfer]],
              bans: frozenset[str], purse: Purse, phase: str) -> list[OrderOutcome]:
    """A.4 or D.1: each transfer to another living player, in the order written, paid in full or
    skipped; none to or from an excommunicated player (8.1, 15, M30, M31, M32)."""
    outcomes: list[OrderOutcome] = []
    for player in players:
        for order in orders.get(player, ()):
            if order.to not in players or order.to == player:
                reason = Reason.UNKNOWN_PLAYER
            elif order.amount < 1:
                reason = Reason.NO_DUCATS
            elif player in bans or order.to in bans:
                reason = Reason.EXCOMMUNICATION_BLOCKS
            elif purse.send(player, order.to, order.amount, (Flow.TRANSFER_OUT, Flow.TRANSFER_IN), phase, "transfer"):
                outcomes.append(OrderOutcome(player, phase, order, True, order.amount, Reason.TRANSFERRED))
                continue
            else:
                reason = Reason.UNAFFORDABLE
            outcomes.append(OrderOutcome(player, phase, order, False, 0, reason))
    purse.settle()
    return outcomes


def rebellion_price(board: Board, position: Position, area: str, victim: Owner) -> int:
    """15 in the victim's current home country, 9 in a province it conquered, 3 against an
    independent state (11.1, M21)."""
    if isinstance(victim, Independent):
        return 3
    return 15 if area in home_areas(board, position, victim) else 9


def can_rebel(board: Board, position: Position, area: str) -> bool:
    """A one-unit island rebels only when empty (11.1); any other land province may."""
    a = board.areas[area]
    return a.is_land and not (a.single_unit and (position.province_unit(area) or position.garrison(area)))


def bribe_minimum(board: Board, kind: BribeKind, target: Unit) -> int | None:
    """The minimum price of a bribe on ``target`` (12): doubled for a committed garrison in a
    major city; None if the bribe is not one for that unit."""
    minimum = BRIBE_MINIMUM.get((kind, target.independent))
    if minimum is None:
        return None
    city = board.areas[target.area].city
    major = target.kind is UnitKind.GARRISON and city is not None and city.magnitude > 0
    return minimum * 2 if major and not target.independent else minimum


class Reach(Enum):
    """How a bribe reaches its unit (12, M36)."""

    YES = "yes"
    NEEDS_PERMISSION = "needs permission"
    NO = "no"


def _neighbours(board: Board, area: str) -> frozenset[str]:
    return board.army_reach(area) | board.fleet_areas(area)


def _paired(position: Position, unit: Unit) -> bool:
    """Whether ``unit`` is a garrison sharing its province with an army or fleet: it is then
    adjacent to that unit only (12: "in which case the garrison unit is adjacent to no other
    unit")."""
    return unit.kind is UnitKind.GARRISON and position.province_unit(unit.area) is not None


def adjacent(board: Board, position: Position, near: Unit, target: Unit) -> bool:
    """Whether ``near`` may direct a bribe at ``target`` (12, M36): a garrison and the army or
    fleet of its own province, both ways; otherwise units in neighbouring areas, unless either
    is a garrison paired so with an army or fleet — a garrison alone in its province is adjacent
    to the neighbouring areas' units as any unit is (17.1's Example 5: the Papal army in Perugia
    bribes the Sienese garrison).  A garrison in a rebelling province directs no bribe, and may
    be bribed from the neighbouring areas even when paired."""
    if near.kind is UnitKind.GARRISON and near.area in position.rebellions:
        return False
    if near.area == target.area:
        return True  # two units of one province: a garrison and its army or fleet
    if target.area not in _neighbours(board, near.area) or _paired(position, near):
        return False
    return not _paired(position, target) or target.area in position.rebellions


def bribe_reach(board: Board, position: Position, briber: str, target: Unit,
                permissions: frozenset[Permission]) -> Reach:
    """Whether ``briber`` may bribe ``target`` (12, M36, M17e, M51): in the briber's current home
    country, or adjacent to a unit of the briber, or of a third player who gave permission; a
    strait closed to the briber cuts the adjacency across it."""
    if target.area in home_areas(board, position, briber):
        return Reach.YES
    needs = False
    for near in position.units.values():
        if not isinstance(near.owner, str) or near.owner == target.owner or not adjacent(board, position, near, target):
            continue
        if near.area != target.area and strait_closed(board, position, near.area, target.area, briber, permissions):
            continue
        if near.owner == briber or Permission(near.owner, briber, Grant.BRIBE) in permissions:
            return Reach.YES
        needs = True
    return Reach.NEEDS_PERMISSION if needs else Reach.NO


Offers = tuple[tuple[BribeKind, int], ...]
"""The bribes one may direct at a unit, each with its minimum price (12)."""


def bribes_in_reach(board: Board, position: Position, briber: str) -> tuple[tuple[Unit, Offers], ...]:
    """Each unit ``briber`` may bribe as things stand, with the bribes it may direct at it and their
    minimums, lowest first (12, M36), as a letter's form lists them (`judge.games.machiavelli.views`):
    every unit not its own that it reaches without another player's permission (M51), but a
    besieged garrison (9.4); no bribe making a unit independent in an area where an independent unit
    of that area stands (M54)."""
    found: list[tuple[Unit, Offers]] = []
    natives = {unit.owner.native for unit in position.units.values() if isinstance(unit.owner, Independent)}
    for _, unit in sorted(position.units.items()):
        if (unit.owner == briber or (unit.kind is UnitKind.GARRISON and unit.area in position.sieges)
                or bribe_reach(board, position, briber, unit, frozenset()) is not Reach.YES):
            continue
        kinds = [(kind, minimum) for kind in BribeKind if (minimum := bribe_minimum(board, kind, unit)) is not None
                 and not (kind is BribeKind.INDEPENDENT and unit.area in natives)]
        found.append((unit, tuple(sorted(kinds, key=lambda bribe: bribe[1]))))
    return tuple(found)


Written = Mapping[str, Sequence[tuple[int, Expenditure]]]
"""Each player's expenditures with their place in the letter."""


class _Sheet:
    """The outcomes of one sub-phase, each kept at its place while later decisions change it,
    and given back in the order of the players' letters."""

    def __init__(self, phase: str) -> None:
        self.phase = phase
        self.entries: list[tuple[int, OrderOutcome]] = []

    def add(self, player: str, at: int, order: Expenditure, charged: int, reason: Reason,
            succeeded: bool = False) -> int:
        self.entries.append((at, OrderOutcome(player, self.phase, order, succeeded, charged, reason)))
        return len(self.entries) - 1

    def decide(self, index: int, reason: Reason, succeeded: bool) -> None:
        at, outcome = self.entries[index]
        self.entries[index] = (at, replace(outcome, reason=reason, succeeded=succeeded))

    def outcomes(self) -> list[OrderOutcome]:
        return [outcome for _, outcome in sorted(self.entries, key=lambda entry: (entry[1].player, entry[0]))]


def _of(written: Written, player: str, *kinds: type) -> list[tuple[int, Expenditure]]:
    return [(at, order) for at, order in written.get(player, ()) if isinstance(order, kinds)]


def expend(board: Board, position: Position, players: Sequence[str], written: Written,
           permissions: frozenset[Permission], bans: frozenset[str], purse: Purse) -> Expending:
    """Carry out phases D and E (see the module docstring) for the living ``players``, with their
    expenditures as ``written`` (each with its place in the letter)."""
    gifts = {p: [o for _, o in _of(written, p, Transfer) if isinstance(o, Transfer)] for p in players}
    outcomes = transfers(position, players, gifts, bans, purse, "D.1")
    sheet, victims = _assassinations(position, players, written, purse)
    outcomes += sheet
    skipped = [OrderOutcome(p, "D.3" if isinstance(o, Pacify | StartRebellion) else "D.4", o, False, 0,
                            Reason.LEADER_ASSASSINATED)
               for p in sorted(victims) for _, o in _of(written, p, Pacify, StartRebellion, Bribe, CounterBribe)]
    active = [p for p in players if p not in victims]
    sheet, position, started, ended = _rebellions(board, position, active, written, purse)
    outcomes += sheet
    sheet, position, bribes, changes, freed, operated = _bribes(board, position, active, written, permissions, purse)
    outcomes += sheet + skipped
    ended += freed
    rebellions = dict(position.rebellions)
    for victim in sorted(victims):
        home = home_areas(board, position, victim)
        for area in sorted(board.areas):
            if (position.controller(area) == victim and area not in home and area not in rebellions
                    and can_rebel(board, position, area)):
                rebellions[area] = victim
                started.append(RebellionStart(area, victim, Reason.ASSASSINATION_REBELLION))
    return Expending(
        outcomes=tuple(outcomes),
        assassinated=frozenset(victims),
        rebellions_started=tuple(started),
        rebellions_ended=tuple(ended),
        bribes=tuple(bribes),
        control_changes=tuple(changes),
        position=replace(position, rebellions=rebellions),
        phase_d=PhaseD(assassinated=frozenset(victims), operated=operated),
    )


def _assassinations(position: Position, players: Sequence[str], written: Written,
                    purse: Purse) -> tuple[list[OrderOutcome], set[str]]:
    """D.2 (10, M20): the attempts and bodyguards paid, and the leaders assassinated."""
    sheet = _Sheet("D.2")
    attempts: dict[str, list[tuple[int, int]]] = defaultdict(list)  # leader -> (amount, outcome index)
    guards: dict[str, list[int]] = defaultdict(list)
    for player in players:
        seen: set[tuple[type, str]] = set()
        for at, order in _of(written, player, Assassinate, Bodyguard):
            assert isinstance(order, Assassinate | Bodyguard)
            leader = order.leader if isinstance(order, Assassinate) else order.leader or player
            minimum = ASSASSINATION if isinstance(order, Assassinate) else BODYGUARD
            if leader not in players or (isinstance(order, Assassinate) and leader == player):
                sheet.add(player, at, order, 0, Reason.UNKNOWN_PLAYER)
            elif not valid_amount(order.amount, minimum):
                sheet.add(player, at, order, 0, Reason.WRONG_AMOUNT)
            elif (type(order), leader) in seen:
                sheet.add(player, at, order, 0, Reason.CONTRADICTORY)
            elif not purse.pay(player, order.amount, Flow.EXPENDITURE, "D.2", f"{order}", order):
                sheet.add(player, at, order, 0, Reason.UNAFFORDABLE)
            elif isinstance(order, Assassinate):
                index = sheet.add(player, at, order, order.amount, Reason.NOT_THE_HIGHEST)
                attempts[leader].append((order.amount, index))
            else:
                guards[leader].append(order.amount)
                sheet.add(player, at, order, order.amount, Reason.BODYGUARD_HIRED, succeeded=True)
            seen.add((type(order), leader))
    victims: set[str] = set()
    for leader, tries in attempts.items():
        highest = max(amount for amount, _ in tries)
        success = highest - max(guards[leader], default=0) >= ASSASSINATION
        if success:
            victims.add(leader)
        for amount, index in tries:
            if amount == highest:
                sheet.decide(index, Reason.ASSASSINATION_SUCCEEDED if success else Reason.ASSASSINATION_GUARDED,
                             success)
    return sheet.outcomes(), victims


def _rebellions(
    board: Board, position: Position, players: Sequence[str], written: Written, purse: Purse,
) -> tuple[list[OrderOutcome], Position, list[RebellionStart], list[RebellionEnd]]:
    """D.3 (11, M21): pacifications of the rebellions standing as D.3 began, then new rebellions."""
    sheet = _Sheet("D.3")
    pacified: set[str] = set()
    for player in players:
        seen: set[str] = set()
        for at, order in _of(written, player, Pacify):
            assert isinstance(order, Pacify)
            if order.area not in position.rebellions:
                sheet.add(player, at, order, 0, Reason.NOT_REBELLING)
            elif order.amount not in (None, PACIFICATION):
                sheet.add(player, at, order, 0, Reason.WRONG_AMOUNT)
            elif order.area in seen:
                sheet.add(player, at, order, 0, Reason.CONTRADICTORY)
            elif not purse.pay(player, PACIFICATION, Flow.EXPENDITURE, "D.3", f"pacify {order.area}", order):
                sheet.add(player, at, order, 0, Reason.UNAFFORDABLE)
            else:
                sheet.add(player, at, order, PACIFICATION, Reason.PACIFIED, succeeded=True)
                pacified.add(order.area)
            seen.add(order.area)
    rebellions = dict(position.rebellions)
    ended = [RebellionEnd(area, rebellions.pop(area), Reason.PACIFIED) for area in sorted(pacified)]
    position = replace(position, rebellions=rebellions)
    rising: dict[str, Owner] = {}
    for player in players:
        seen = set()
        for at, rebel in _of(written, player, StartRebellion):
            assert isinstance(rebel, StartRebellion)
            area = rebel.area
            victim = position.controller(area) if board.areas[area].is_land else None
            price = rebellion_price(board, position, area, victim) if victim is not None else 0
            if area in position.rebellions:
                reason: Reason | None = Reason.ALREADY_REBELLING
            elif victim is None or victim == player:
                reason = Reason.NOT_ENEMY_CONTROLLED
            elif not can_rebel(board, position, area):
                reason = Reason.ISLAND_OCCUPIED
            elif rebel.amount not in (None, price):
                reason = Reason.WRONG_AMOUNT
            elif area in seen:
                reason = Reason.CONTRADICTORY
            elif not purse.pay(player, price, Flow.EXPENDITURE, "D.3", f"rebellion {area}", rebel):
                reason = Reason.UNAFFORDABLE
            else:
                reason = None
            seen.add(area)
            if reason is not None:
                sheet.add(player, at, rebel, 0, reason)
                continue
            assert victim is not None
            sheet.add(player, at, rebel, price, Reason.REBELLION_STARTED, succeeded=True)
            rising[area] = victim
    started = [RebellionStart(area, victim, Reason.REBELLION_STARTED) for area, victim in sorted(rising.items())]
    position = replace(position, rebellions={**position.rebellions, **rising})
    return sheet.outcomes(), position, started, ended


@dataclass(frozen=True)
class _Bid:
    player: str
    bribe: Bribe
    minimum: int
    index: int


def _bribes(
    board: Board, position: Position, players: Sequence[str], written: Written,
    permissions: frozenset[Permission], purse: Purse,
) -> tuple[list[OrderOutcome], Position, list[BribeEffect], list[ControlChange], list[RebellionEnd], dict[Place, str]]:
    """D.4 (12, M36 to M39, M54): bribes and counter-bribes, and what the successful bribes do."""
    sheet = _Sheet("D.4")
    bids: dict[Place, list[_Bid]] = defaultdict(list)
    counters: dict[Place, list[int]] = defaultdict(list)
    for player in players:
        seen: set[tuple[type, Place]] = set()
        for at, order in _of(written, player, Bribe, CounterBribe):
            assert isinstance(order, Bribe | CounterBribe)
            target = position.unit_at(order.unit.place)
            key = (type(order), order.unit.place)
            repeated = key in seen
            seen.add(key)
            if target is None or target.kind is not order.unit.kind:
                sheet.add(player, at, order, 0, Reason.NO_SUCH_UNIT)
                continue
            if isinstance(order, CounterBribe):
                reason = (Reason.WRONG_AMOUNT if not valid_amount(order.amount, COUNTER_BRIBE)
                          else Reason.CONTRADICTORY if repeated else None)
                if reason is None and not purse.pay(player, order.amount, Flow.EXPENDITURE, "D.4",
                                                    f"counter-bribe {target}", order):
                    reason = Reason.UNAFFORDABLE
                if reason is not None:
                    sheet.add(player, at, order, 0, reason)
                else:
                    counters[target.place].append(order.amount)
                    sheet.add(player, at, order, order.amount, Reason.COUNTER_BRIBE_PAID, succeeded=True)
                continue
            minimum = bribe_minimum(board, order.kind, target)
            reason, reach = _bribe_check(board, position, player, order, target, minimum, permissions)
            if reason is None and repeated:
                reason = Reason.CONTRADICTORY
            if reason is None and not purse.pay(player, order.amount, Flow.EXPENDITURE, "D.4",
                                                f"bribe ({order.kind.value}) {target}", order):
                reason = Reason.UNAFFORDABLE
            if reason is not None:
                sheet.add(player, at, order, 0, reason)
            elif reach is Reach.NEEDS_PERMISSION:
                sheet.add(player, at, order, order.amount, Reason.BRIBE_NO_PERMISSION)
            else:
                assert minimum is not None
                index = sheet.add(player, at, order, order.amount, Reason.BRIBE_OUTBID)
                bids[target.place].append(_Bid(player, order, minimum, index))
    winners = _bribe_winners(sheet, bids, counters)
    position, effects, changes, freed, operated = _bribe_effects(position, winners, sheet)
    return sheet.outcomes(), position, effects, changes, freed, operated


def _bribe_check(board: Board, position: Position, player: str, order: Bribe, target: Unit, minimum: int | None,
                 permissions: frozenset[Permission]) -> tuple[Reason | None, Reach]:
    """Why a bribe is not carried out (M38), if it is not, and how it reaches its unit."""
    if target.owner == player:
        return Reason.BRIBE_OWN_UNIT, Reach.NO
    if minimum is None:
        return Reason.WRONG_BRIBE, Reach.NO
    if target.kind is UnitKind.GARRISON and target.area in position.sieges:
        return Reason.BRIBE_BESIEGED, Reach.NO
    if not valid_amount(order.amount, minimum):
        return Reason.WRONG_AMOUNT, Reach.NO
    native = Independent(target.area)
    if order.kind is BribeKind.INDEPENDENT and any(u.owner == native for u in position.units.values()):
        return Reason.NATIVE_AREA_TAKEN, Reach.NO
    reach = bribe_reach(board, position, player, target, permissions)
    return (Reason.BRIBE_OUT_OF_REACH if reach is Reach.NO else None), reach


def _bribe_winners(sheet: _Sheet, bids: Mapping[Place, list[_Bid]],
                   counters: Mapping[Place, list[int]]) -> list[tuple[Place, _Bid]]:
    """Per unit, the largest bribe checked against the highest counter-bribe (12, M37): the
    bribe that took (of tied Disband bribes, which disband the unit together, the first)."""
    winners: list[tuple[Place, _Bid]] = []
    for place, placed in sorted(bids.items()):
        top = max(bid.bribe.amount for bid in placed)
        largest = [bid for bid in placed if bid.bribe.amount == top]
        lowest = min(bid.minimum for bid in largest)
        checked = [bid for bid in largest if bid.minimum == lowest]
        if len(checked) > 1 and any(bid.bribe.kind is not BribeKind.DISBAND for bid in checked):
            reason, succeeded = Reason.BRIBE_TIED, False
        elif top - lowest < max(counters.get(place, ()), default=0):
            reason, succeeded = Reason.BRIBE_COUNTERED, False
        else:
            reason, succeeded = Reason.BRIBE_SUCCEEDED, True
            winners.append((place, checked[0]))
        for bid in checked:
            sheet.decide(bid.index, reason, succeeded)
    return winners


def _bribe_effects(
    position: Position, winners: list[tuple[Place, _Bid]], sheet: _Sheet,
) -> tuple[Position, list[BribeEffect], list[ControlChange], list[RebellionEnd], dict[Place, str]]:
    """What the successful bribes do (M39): units bought, made independent, disbanded or operated;
    the control of their areas (M5) and the rebellions they liberate (11.3, M56)."""
    units = dict(position.units)
    effects: list[BribeEffect] = []
    operated: dict[Place, str] = {}
    turned: set[str] = set()
    for place, bid in winners:
        unit, kind = units[place], bid.bribe.kind
        after: Unit | None = unit
        if kind is BribeKind.DISBAND:
            del units[place]
            after = None
        elif kind is BribeKind.OPERATE:
            operated[place] = bid.player
        else:
            owner: Owner = bid.player if kind is BribeKind.BUY else Independent(unit.area)
            if any(u.owner == owner for u in units.values()) and isinstance(owner, Independent):
                sheet.decide(bid.index, Reason.NATIVE_AREA_CLAIMED, False)  # its neighbour in the area was made one
                continue
            after = units[place] = Unit(unit.kind, owner, unit.area, unit.coast)
            turned.add(unit.area)
        effects.append(BribeEffect(bid.player, kind, unit, after))
    rebellions = dict(position.rebellions)
    control = dict(position.control)
    freed: list[RebellionEnd] = []
    changes: list[ControlChange] = []
    for area in sorted(turned):
        if area in rebellions:
            freed.append(RebellionEnd(area, rebellions.pop(area), Reason.LIBERATED_BY_BRIBE))
        owners = {u.owner for u in (units.get(Place(area)), units.get(Place(area, city=True))) if u is not None}
        before = position.control.get(area)
        now = next(iter(owners)) if len(owners) == 1 else None
        if now is None:
            control.pop(area, None)
        else:
            control[area] = now
        if now != before:
            changes.append(ControlChange(area, before, now, Reason.OCCUPIED if now is not None else Reason.CONTESTED))
    new = replace(position.with_units(units.values()), rebellions=rebellions, control=control)
    return new, effects, changes, freed, operated
