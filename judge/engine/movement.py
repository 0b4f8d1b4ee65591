"""Adjudication of a movement phase, following DATC v3.0 section 5 with its preferences.

Theory of operation.  Orders are first checked (:mod:`judge.engine.legal`); an illegal
order is reported ``invalid`` and its unit holds, as does a unit with no order.  Each
remaining order gets one decision, settled by :class:`~judge.engine.resolver.Resolver`:

* move: the unit moves.  It needs a PATH (adjacent, or an unbroken chain of fleets that
  successfully convoy it) and an ATTACK strength above the HOLD strength of the target
  (or the DEFEND strength of the unit coming the other way, in a head-to-head battle) and
  above the PREVENT strength of every other move to the same province;
* support: the support is given, i.e. not cut by a move of another power from anywhere
  but the province the support is aimed at, and the supporter not dislodged;
* convoy: the fleet is not dislodged.

Strengths are exactly the DATC's (5.B.5-5.B.8): a power never helps dislodge its own unit,
a unit that lost a head-to-head battle does not prevent (4.A.7 choice b), and a move by
convoy is never head-to-head.  Whether an army move to an adjacent province goes by
convoy is fixed before adjudicating (4.A.3, 2023 rules): it does when ordered ``VIA CONVOY``
or when a fleet of its own power is legally ordered to convoy it; then there is no fallback
to the land route (6.G.8, 6.G.20).  Paradoxes are settled by the backup rule: a cycle of
moves only is circular movement (all move); a cycle containing a convoy is a convoy paradox,
and the Szykman rule makes its convoys fail.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from judge.engine.legal import convoy_route_exists, seas_linked
from judge.engine.orders import Convoy, Hold, Move, MovementOrder, Order, SupportHold, SupportMove, Unit
from judge.engine.position import Dislodgement, PlacedUnit, Position
from judge.engine.resolver import Resolver
from judge.engine.results import Entry, OrderResult, Outcome, assign_units, check_all, copy_outcomes


@dataclass(frozen=True)
class MovementResult:
    results: tuple[OrderResult, ...]
    units: tuple[PlacedUnit, ...]
    dislodged: tuple[Dislodgement, ...]
    contested: frozenset[str]


class _Board:
    """The orders of one movement phase and the DATC decisions over them."""

    def __init__(self, position: Position, orders: Mapping[str, MovementOrder | None]) -> None:
        self.position = position
        self.orders: dict[str, MovementOrder] = {}
        for province, placed in position.units.items():
            self.orders[province] = orders.get(province) or Hold(placed.unit)
        self.owner = {p: u.power for p, u in position.units.items()}
        self.moves_into: dict[str, list[str]] = defaultdict(list)
        self.move_supports: dict[tuple[str, str], list[str]] = defaultdict(list)
        self.hold_supports: dict[str, list[str]] = defaultdict(list)
        self.convoys: dict[tuple[str, str], list[str]] = defaultdict(list)
        for province, order in self.orders.items():
            if isinstance(order, Move):
                self.moves_into[order.destination.province].append(province)
            elif isinstance(order, SupportMove):
                self.move_supports[(order.supported.province, order.destination.province)].append(province)
            elif isinstance(order, SupportHold):
                self.hold_supports[order.supported.province].append(province)
            elif isinstance(order, Convoy):
                self.convoys[(order.army.province, order.destination.province)].append(province)
        self.convoyed = {p for p, o in self.orders.items() if isinstance(o, Move) and self._uses_convoy(p, o)}
        self.paradox: set[str] = set()
        self.resolver: Resolver[str] = Resolver(self._adjudicate, self._backup_rule)

    # -- static facts ---------------------------------------------------------------

    def _uses_convoy(self, province: str, move: Move) -> bool:
        """DATC 4.A.3 (2023 rules): non-adjacent, ``VIA CONVOY``, or an own fleet convoys it."""
        if move.unit.is_fleet:
            return False
        if move.via_convoy:
            return True
        if move.destination.province not in self.position.game_map.army_adjacency.get(province, ()):
            return True
        fleets = self.convoys.get((province, move.destination.province), ())
        return any(self.owner[f] == self.owner[province] for f in fleets)

    def _head_to_head(self, province: str, move: Move) -> str | None:
        """The province of the unit moving the opposite way without convoy, if any."""
        other = self.orders.get(move.destination.province)
        if (
            isinstance(other, Move)
            and other.destination.province == province
            and province not in self.convoyed
            and move.destination.province not in self.convoyed
        ):
            return move.destination.province
        return None

    def _supports_of_move(self, province: str, move: Move) -> list[str]:
        dest = move.destination
        found = []
        for supporter in self.move_supports.get((province, dest.province), ()):
            order = self.orders[supporter]
            assert isinstance(order, SupportMove)
            if order.destination.coast is None or order.destination == dest:
                found.append(supporter)
        return found

    def _is_staying(self, province: str) -> bool:
        return not isinstance(self.orders.get(province), Move)

    # -- strengths (DATC 5.B) -------------------------------------------------------------

    def _given(self, supporters: list[str], exclude_power: str | None = None) -> int:
        counted = (s for s in supporters if exclude_power is None or self.owner[s] != exclude_power)
        return sum(1 for s in counted if self.resolver.resolve(s))

    def path(self, province: str) -> bool:
        if province not in self.convoyed:
            return True
        order = self.orders[province]
        assert isinstance(order, Move)
        dest = order.destination.province
        fleets = {
            f for f in self.convoys.get((province, dest), ()) if f not in self.paradox and self.resolver.resolve(f)
        }
        return convoy_route_exists(self.position, province, dest, fleets)

    def attack_strength(self, province: str, move: Move) -> int:
        if not self.path(province):
            return 0
        dest = move.destination.province
        supporters = self._supports_of_move(province, move)
        occupant = self.orders.get(dest)
        if occupant is None or (
            isinstance(occupant, Move) and self._head_to_head(province, move) is None and self.resolver.resolve(dest)
        ):
            return 1 + self._given(supporters)
        if self.owner[dest] == self.owner[province]:
            return 0
        return 1 + self._given(supporters, exclude_power=self.owner[dest])

    def hold_strength(self, province: str) -> int:
        order = self.orders.get(province)
        if order is None:
            return 0
        if isinstance(order, Move):
            return 0 if self.resolver.resolve(province) else 1
        return 1 + self._given(self.hold_supports.get(province, []))

    def defend_strength(self, province: str) -> int:
        order = self.orders[province]
        assert isinstance(order, Move)
        return 1 + self._given(self._supports_of_move(province, order))

    def prevent_strength(self, province: str) -> int:
        order = self.orders[province]
        assert isinstance(order, Move)
        if not self.path(province):
            return 0
        opponent = self._head_to_head(province, order)
        if opponent is not None and self.resolver.resolve(opponent):
            return 0
        return 1 + self._given(self._supports_of_move(province, order))

    # -- decisions --------------------------------------------------------------------------

    def _adjudicate(self, province: str) -> bool:
        order = self.orders[province]
        if isinstance(order, Move):
            return self._move_succeeds(province, order)
        if isinstance(order, SupportHold | SupportMove):
            return self._support_given(province, order)
        # A convoy succeeds while its fleet is not dislodged.
        return not any(self.resolver.resolve(m) for m in self.moves_into.get(province, ()))

    def _move_succeeds(self, province: str, move: Move) -> bool:
        attack = self.attack_strength(province, move)
        if attack == 0:
            return False
        dest = move.destination.province
        opponent = self._head_to_head(province, move)
        if opponent is not None:
            if attack <= self.defend_strength(opponent):
                return False
        elif attack <= self.hold_strength(dest):
            return False
        return all(attack > self.prevent_strength(other) for other in self.moves_into[dest] if other != province)

    def _support_given(self, province: str, order: SupportHold | SupportMove) -> bool:
        target = order.destination.province if isinstance(order, SupportMove) else order.supported.province
        for attacker in self.moves_into.get(province, ()):
            if self.owner[attacker] == self.owner[province] or not self.path(attacker):
                continue
            if attacker != target or self.resolver.resolve(attacker):
                return False
        return True

    def _backup_rule(self, cycle: list[str]) -> dict[str, bool]:
        """Szykman for a cycle with a convoy; otherwise circular movement: all its moves move."""
        convoys = [p for p in cycle if isinstance(self.orders[p], Convoy)]
        if convoys:
            self.paradox.update(convoys)
            return dict.fromkeys(convoys, False)
        moves = [p for p in cycle if isinstance(self.orders[p], Move)]
        return dict.fromkeys(moves or cycle, bool(moves))

    # -- outcome -----------------------------------------------------------------------------

    def moved(self, province: str) -> bool:
        return isinstance(self.orders[province], Move) and self.resolver.resolve(province)

    def on_used_route(self, province: str, order: Convoy) -> bool:
        """Whether the convoying fleet links up with other convoying fleets from start to end."""
        start, dest = order.army.province, order.destination.province
        fleets = {
            f for f in self.convoys.get((start, dest), ()) if f not in self.paradox and self.resolver.resolve(f)
        }
        return province in seas_linked(self.position, start, fleets) and province in seas_linked(
            self.position, dest, fleets
        )

    def is_void(self, province: str) -> bool:
        """A support or convoy whose unit was not ordered what it assumes."""
        order = self.orders[province]
        if isinstance(order, SupportHold):
            return not self._is_staying(order.supported.province)
        if isinstance(order, SupportMove):
            target = self.orders.get(order.supported.province)
            if not isinstance(target, Move):
                return True
            return province not in self._supports_of_move(order.supported.province, target)
        if isinstance(order, Convoy):
            army = self.orders.get(order.army.province)
            return not (
                isinstance(army, Move)
                and army.destination.province == order.destination.province
                and order.army.province in self.convoyed
            )
        return False


def adjudicate_movement(position: Position, orders: Mapping[str, Sequence[Order | str]]) -> MovementResult:
    """Adjudicate one movement phase; ``orders`` maps each power to its orders."""
    entries = check_all(position, orders)
    chosen = assign_units(entries)
    board = _Board(position, {p: e.order for p, e in chosen.items() if isinstance(e.order, MovementOrder)})
    for province in board.orders:
        board.resolver.resolve(province)

    dislodged_by: dict[str, str] = {}
    for province, order in board.orders.items():
        if board.moved(province):
            assert isinstance(order, Move)
            target = order.destination.province
            if target in board.orders and not board.moved(target):
                dislodged_by[target] = province
    for province, entry in chosen.items():
        _settle(board, entry, province, dislodged_by)

    units: list[PlacedUnit] = []
    dislodged: list[Dislodgement] = []
    occupied: set[str] = set()
    for province, placed in position.units.items():
        order = board.orders[province]
        if board.moved(province):
            assert isinstance(order, Move)
            units.append(PlacedUnit(placed.power, Unit(placed.unit.type, order.destination)))
            occupied.add(order.destination.province)
        elif province in dislodged_by:
            attacker = dislodged_by[province]
            dislodged.append(Dislodgement(placed.power, placed.unit, attacker, attacker in board.convoyed))
        else:
            units.append(placed)
            occupied.add(province)
    contested = frozenset(
        dest
        for dest, movers in board.moves_into.items()
        if dest not in occupied and any(board.prevent_strength(m) > 0 for m in movers)
    )
    return MovementResult(copy_outcomes(entries), tuple(units), tuple(dislodged), contested)


def _settle(board: _Board, entry: Entry, province: str, dislodged_by: Mapping[str, str]) -> None:
    order = board.orders[province]
    dislodged = province in dislodged_by
    if isinstance(order, Move):
        if board.moved(province):
            entry.settle(Outcome.SUCCEEDS)
        elif not board.path(province):
            entry.settle(Outcome.FAILS, "no convoy")
        else:
            entry.settle(Outcome.FAILS, "dislodged" if dislodged else "bounce")
    elif dislodged:
        entry.settle(Outcome.FAILS, "void" if board.is_void(province) else "dislodged")
    elif isinstance(order, Hold):
        entry.settle(Outcome.SUCCEEDS)
    elif board.is_void(province):
        entry.settle(Outcome.FAILS, "void")
    elif isinstance(order, Convoy):
        if province in board.paradox:
            entry.settle(Outcome.FAILS, "paradox")
        elif not board.path(order.army.province):
            entry.settle(Outcome.FAILS, "disrupted")
        elif not board.on_used_route(province, order):
            entry.settle(Outcome.FAILS, "not on route")
        else:
            entry.settle(Outcome.SUCCEEDS)
    elif not board.resolver.resolve(province):
        entry.settle(Outcome.FAILS, "cut")
    else:
        entry.settle(Outcome.SUCCEEDS)
