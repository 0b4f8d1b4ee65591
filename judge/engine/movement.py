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

What does not depend on any decision is worked out once from the orders: who moves where,
the supports that count for each move, head-to-head pairs, which moves go by convoy; and a
unit nobody moves against keeps its support, convoy or place without asking the resolver.

A move across a weak strait (Loeb9: Cordoba-North Africa, Naples-Sicily; DPjudge's
``about_loeb9``) "is made with a force equal to the number of supports (as opposed to one
plus the number of supports)": its attack, defend and prevent strengths are its supports
alone.  As in DPjudge, where the one strongest unit bound for a province gets it, an
unsupported crossing (strength 0) still enters a province that is empty or being left and
that no other move prevents; anything holding there, another move there with a prevent
strength, or a unit coming the other way stops it.  "An unsupported army making such a move
will have no effect whatsoever on the destination province for the purposes of cutting
support": it cuts a support only while at least one of its own supports is given.  (That
no support is given across a strait is :mod:`judge.engine.legal`'s business.)

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

from judge.engine.convoys import route_exists, seas_linked
from judge.engine.map import Location
from judge.engine.orders import Convoy, Hold, Move, MovementOrder, Order, SupportHold, SupportMove, lexicon
from judge.engine.position import Dislodgement, PlacedUnit, Position
from judge.engine.resolver import Resolver
from judge.engine.results import OrderResult, Outcome, Settled, check_units, unit_results


@dataclass(frozen=True)
class MovementResult:
    results: tuple[OrderResult, ...]
    units: tuple[PlacedUnit, ...]
    dislodged: tuple[Dislodgement, ...]
    contested: frozenset[str]


class _Board:
    """The orders of one movement phase, the facts fixed by them, and the DATC decisions over them."""

    def __init__(self, position: Position, chosen: Mapping[str, Order]) -> None:
        self.position = position
        self.orders: dict[str, MovementOrder] = {}
        self.owner: dict[str, str] = {}
        self.moves: dict[str, Move] = {}
        self.target: dict[str, str] = {}  # each move's destination province
        self.aim: dict[str, str] = {}  # each support's province: where a cut does not come from
        self.moves_into: dict[str, list[str]] = defaultdict(list)
        self.hold_supports: dict[str, list[str]] = defaultdict(list)
        self.convoys: dict[tuple[str, str], list[str]] = defaultdict(list)
        move_supports = self._sort(chosen)
        self.supports: dict[str, list[str]] = {province: [] for province in self.moves}
        self.void: set[str] = set()
        self._count_move_supports(move_supports)
        moves, target = self.moves, self.target
        self.convoyed = {p for p, move in moves.items() if not move.unit.is_fleet and self._uses_convoy(p, move)}
        weak = position.game_map.weak
        # The moves across a weak strait (none on most boards): their strengths have no base of 1.
        self.weak: set[str] = (
            {p for p, dest in target.items() if dest in weak.get(p, ()) and p not in self.convoyed} if weak else set()
        )
        self.opponent = {  # head to head: moving into each other's province, neither by convoy
            p: dest
            for p, dest in target.items()
            if target.get(dest) == p and p not in self.convoyed and dest not in self.convoyed
        }
        self._void_unmatched()
        self.paradox: set[str] = set()
        self.resolver: Resolver[str] = Resolver(self._adjudicate, self._backup_rule)
        # A unit that neither moves nor is moved against keeps its support, convoy or place:
        # those decisions depend on nothing else.
        self.resolver.resolved.update(dict.fromkeys(self.orders.keys() - moves.keys() - self.moves_into.keys(), True))

    def _sort(self, chosen: Mapping[str, Order]) -> dict[str, list[tuple[str, Location]]]:
        """File each unit's order in the tables by what it is (a unit without an order holds); the
        supports of moves, by supported province, are returned to be counted (`_count_move_supports`)."""
        position = self.position
        # The tables are filled through local names: this loop runs for every unit of every phase.
        orders, owner, moves, target, aim = self.orders, self.owner, self.moves, self.target, self.aim
        moves_into, hold_supports, convoys = self.moves_into, self.hold_supports, self.convoys
        move_supports: dict[str, list[tuple[str, Location]]] = {}  # by supported province
        for province, placed in position.units.items():
            order = chosen.get(province)
            owner[province] = placed.power
            # The order classes have no subclasses: their type says what they are.
            if type(order) is SupportMove:
                aim[province] = order.destination.province
                supported = order.supported.location.province
                if supported in move_supports:
                    move_supports[supported].append((province, order.destination))
                else:
                    move_supports[supported] = [(province, order.destination)]
            elif type(order) is Move:
                moves[province] = order
                target[province] = into = order.destination.province
                moves_into[into].append(province)
            elif type(order) is SupportHold:
                aim[province] = supported = order.supported.location.province
                hold_supports[supported].append(province)
            elif type(order) is Convoy:
                convoys[(order.army.location.province, order.destination.province)].append(province)
            elif type(order) is not Hold:
                order = lexicon(position.game_map).make(Hold, placed.unit)  # no order: the unit holds
            orders[province] = order
        return move_supports

    def _count_move_supports(self, move_supports: dict[str, list[tuple[str, Location]]]) -> None:
        """A support of a move counts for it unless it names another destination or coast; a support
        of a unit that does not move is void."""
        for supported, named in move_supports.items():
            move = self.moves.get(supported)
            if move is None:
                for supporter, _ in named:
                    self.void.add(supporter)
                continue
            into, coast = move.destination.province, move.destination.coast
            counted = self.supports[supported]
            for supporter, where in named:
                if where.province == into and where.coast in (None, coast):
                    counted.append(supporter)
                else:
                    self.void.add(supporter)

    def _void_unmatched(self) -> None:
        """A support of a hold to a unit that moves is void, and so is a convoy of an army not ordered
        that move by convoy."""
        for supported, supporters in self.hold_supports.items():
            if supported in self.moves:
                self.void.update(supporters)
        for (army, to), fleets in self.convoys.items():
            if self.target.get(army) != to or army not in self.convoyed:
                self.void.update(fleets)

    # -- static facts ---------------------------------------------------------------

    def _uses_convoy(self, province: str, move: Move) -> bool:
        """Whether an army's move goes by convoy, DATC 4.A.3 (2023 rules): non-adjacent,
        ``VIA CONVOY``, or an own fleet convoys it."""
        if move.via_convoy:
            return True
        if move.destination.province not in self.position.game_map.army_adjacency.get(province, ()):
            return True
        fleets = self.convoys.get((province, move.destination.province))
        return fleets is not None and any(self.owner[f] == self.owner[province] for f in fleets)

    # -- strengths (DATC 5.B) -------------------------------------------------------------

    def _given(self, supporters: list[str], exclude_power: str | None = None) -> int:
        """How many of these supports are given (not counting those of ``exclude_power``)."""
        given = 0
        for supporter in supporters:
            if (exclude_power is None or self.owner[supporter] != exclude_power) and self.resolver.resolve(supporter):
                given += 1
        return given

    def path(self, province: str) -> bool:
        if province not in self.convoyed:
            return True
        dest = self.target[province]
        ordered = self.convoys.get((province, dest))
        if ordered is None:
            return False  # no fleet was ordered to convoy it
        fleets = {f for f in ordered if f not in self.paradox and self.resolver.resolve(f)}
        return route_exists(self.position.game_map, province, dest, fleets)

    def attack_strength(self, province: str) -> int:
        if not self.path(province):
            return 0
        dest = self.target[province]
        supporters = self.supports[province]
        base = 0 if province in self.weak else 1
        if dest not in self.orders or (
            dest in self.moves and province not in self.opponent and self.resolver.resolve(dest)
        ):
            return base + self._given(supporters)
        if self.owner[dest] == self.owner[province]:
            return 0
        return base + self._given(supporters, exclude_power=self.owner[dest])

    def hold_strength(self, province: str) -> int:
        if province not in self.orders:
            return 0
        if province in self.moves:
            return 0 if self.resolver.resolve(province) else 1
        return 1 + self._given(self.hold_supports.get(province, []))

    def defend_strength(self, province: str) -> int:
        return (0 if province in self.weak else 1) + self._given(self.supports[province])

    def prevent_strength(self, province: str) -> int:
        if not self.prevents(province):
            return 0
        return (0 if province in self.weak else 1) + self._given(self.supports[province])

    def prevents(self, province: str) -> bool:
        """Whether a move has a prevent strength at all: a path, and no head-to-head battle lost."""
        if not self.path(province):
            return False
        opponent = self.opponent.get(province)
        return opponent is None or not self.resolver.resolve(opponent)

    # -- decisions --------------------------------------------------------------------------

    def _adjudicate(self, province: str) -> bool:
        if province in self.moves:
            return self._move_succeeds(province)
        if province in self.aim:
            return self._support_given(province, self.aim[province])
        # A convoy succeeds (and a unit holds) while it is not dislodged.
        return not any(map(self.resolver.resolve, self.moves_into.get(province, ())))

    def _move_succeeds(self, province: str) -> bool:
        attack = self.attack_strength(province)
        if attack == 0:
            return province in self.weak and self._unsupported_crossing(province)
        dest = self.target[province]
        opponent = self.opponent.get(province)
        if opponent is not None:
            if attack <= self.defend_strength(opponent):
                return False
        elif attack <= self.hold_strength(dest):
            return False
        for other in self.moves_into[dest]:
            if other != province and attack <= self.prevent_strength(other):
                return False
        return True

    def _unsupported_crossing(self, province: str) -> bool:
        """Whether a move across a weak strait with no support given (strength 0) gets in: only
        into a province nothing holds (empty, or left), that nothing else moving there prevents
        and that no unit is leaving the other way."""
        dest = self.target[province]
        if province in self.opponent or self.hold_strength(dest) > 0:
            return False
        return not any(self.prevents(other) for other in self.moves_into[dest] if other != province)

    def _support_given(self, province: str, aim: str) -> bool:
        for attacker in self.moves_into.get(province, ()):
            if self.owner[attacker] == self.owner[province] or not self.path(attacker):
                continue
            if attacker in self.weak and not self._given(self.supports[attacker]):
                continue  # an unsupported crossing of a weak strait cuts nothing
            if attacker != aim or self.resolver.resolve(attacker):
                return False
        return True

    def _backup_rule(self, cycle: list[str]) -> dict[str, bool]:
        """Szykman for a cycle with a convoy; otherwise circular movement: all its moves move."""
        convoys = [p for p in cycle if isinstance(self.orders[p], Convoy)]
        if convoys:
            self.paradox.update(convoys)
            return dict.fromkeys(convoys, False)
        moves = [p for p in cycle if p in self.moves]
        return dict.fromkeys(moves or cycle, bool(moves))

    # -- outcome -----------------------------------------------------------------------------

    def on_used_route(self, province: str, order: Convoy) -> bool:
        """Whether the convoying fleet links up with other convoying fleets from start to end."""
        start, dest = order.army.province, order.destination.province
        fleets = {
            f for f in self.convoys.get((start, dest), ()) if f not in self.paradox and self.resolver.resolve(f)
        }
        game_map = self.position.game_map
        return province in seas_linked(game_map, start, fleets) and province in seas_linked(game_map, dest, fleets)


def adjudicate_movement(position: Position, orders: Mapping[str, Sequence[Order | str]]) -> MovementResult:
    """Adjudicate one movement phase; ``orders`` maps each power to its orders."""
    checked, chosen = check_units(position, orders)
    board = _Board(position, chosen)
    decided = board.resolver.resolve_all(board.orders)
    moved = {province for province in board.moves if decided[province]}
    dislodged_by = {
        target: province
        for province, target in board.target.items()
        if province in moved and target in board.orders and target not in moved
    }
    settled = {
        province: _SUCCEEDS if province in moved else _outcome(board, decided, province, province in dislodged_by)
        for province in chosen
    }

    lex = lexicon(position.game_map)
    units: list[PlacedUnit] = []
    dislodged: list[Dislodgement] = []
    occupied: set[str] = set()
    for province, placed in position.units.items():
        if province in moved:
            arrived = lex.arrival(board.moves[province])
            units.append(tuple.__new__(PlacedUnit, (placed.power, arrived)))  # in C, not the named tuple's __new__
            occupied.add(arrived.location.province)
        elif province in dislodged_by:
            attacker = dislodged_by[province]
            dislodged.append(Dislodgement(placed.power, placed.unit, attacker, attacker in board.convoyed))
        else:
            units.append(placed)
            occupied.add(province)
    contested = frozenset(
        dest
        for dest, movers in board.moves_into.items()
        if dest not in occupied and any(map(board.prevents, movers))
    )
    results = unit_results(checked, chosen, board.owner, settled)
    return MovementResult(results, tuple(units), tuple(dislodged), contested)


# What can become of an order: it succeeds, or it fails for one of these reasons.
_SUCCEEDS: Settled = (Outcome.SUCCEEDS, None)
_NO_CONVOY: Settled = (Outcome.FAILS, "no convoy")
_BOUNCE: Settled = (Outcome.FAILS, "bounce")
_DISLODGED: Settled = (Outcome.FAILS, "dislodged")
_VOID: Settled = (Outcome.FAILS, "void")
_CUT: Settled = (Outcome.FAILS, "cut")
_PARADOX: Settled = (Outcome.FAILS, "paradox")
_DISRUPTED: Settled = (Outcome.FAILS, "disrupted")
_NOT_ON_ROUTE: Settled = (Outcome.FAILS, "not on route")


def _outcome(board: _Board, decided: Mapping[str, bool], province: str, dislodged: bool) -> Settled:
    """What became of the order of the unit in ``province`` (not a move that succeeded), and why it failed;
    ``decided``: every decision."""
    if province in board.moves:
        if not board.path(province):
            return _NO_CONVOY
        return _DISLODGED if dislodged else _BOUNCE
    if province in board.void:
        return _VOID
    if dislodged:
        return _DISLODGED
    if province in board.aim:  # a support: given unless cut
        return _SUCCEEDS if decided[province] else _CUT
    order = board.orders[province]
    if isinstance(order, Convoy):
        if province in board.paradox:
            return _PARADOX
        if not board.path(order.army.province):
            return _DISRUPTED
        if not board.on_used_route(province, order):
            return _NOT_ON_ROUTE
    return _SUCCEEDS
