"""F.1, the Action phase proper: which attacks win, which supports are given (AoP 13, M18 to M27).

Theory of operation.  The vocabulary is Kruijswijk's ("The Math of Adjudication"), as the DATC
engine of :mod:`judge.engine` uses it: three kinds of decision — does an *attack* prevail, is a
*support* given, does a transported advance find its *path* — and four strengths derived from
them: an attack's *attack* strength, an area's *hold* strength, a head-to-head opponent's
*defend* strength and a rival attack's *prevent* strength.  An attack is an advance or a
conversion of a garrison into its province (13.1); it prevails when its attack strength beats
the hold strength of the area (the defend strength of the unit it meets head to head) and the
prevent strength of every other attack on the area.  Up to there it is the DATC resolver.  Where
AoP differs:

* Supports go to an *area* for a *player* (M18): :func:`~.operations.supports_matched` gives each
  support the one unit it adds to; a rebellion or an independent garrison adds 1 to a lone
  player's attack on its province (M44).
* A unit forced to retreat has its order cancelled (13.5): its attack neither cuts a support
  (M25, AoP Example 3) nor prevents another attack on its target (Example 3: M takes Modena once
  P is forced out of Bologna).  DATC keeps both.
* A garrison's conversion is an attack on its province from its city, which nobody else can
  enter (M23); if another attack wins the province, the garrison converts all the same and must
  retreat (M43) — settled after the decisions, since it changes none of them.
* Venice (M14): an attack that beats an army or fleet in Venice makes it a garrison and stays in
  the Lagoon; a besieged garrison in Venice converts if the besieging force is not superior.
* The judge does not guess (M27): decisions are fixed by three-valued iteration — strengths are
  intervals, a decision is fixed as soon as it is certain ("fixing supports that are certainly
  given or certainly cut").  What stays open is a cycle.  Its consistent outcomes are found by
  search: one is taken; with a transport in the cycle, the Szykman rule holds the transported
  army (M24); of two outcomes, the one in which the supports stand and the attacks succeed is
  taken when it contains the other (Example 4a; pure movement rings, as in DATC); anything else
  — no outcome, a symmetric pair, more — is a standoff: the cycle's supports are cut and its
  attacks fail (Example 4b/4c, 13.6's last paragraph).

Why not :class:`judge.engine.resolver.Resolver` itself: its guess-and-check tries two guesses of
one decision of a cycle and hands a paradox to a backup rule, which cannot tell M27's cases apart
(one outcome, two where one contains the other, two mirror images, none); the interval iteration
finds what is certain first, as M27's first step asks, and a search over what is left lists the
outcomes.  The strengths and decisions keep the engine's (Kruijswijk's) names and meanings.

The parts: `_Orders`, what the orders say before anything is decided (the attacks on each area,
the supports matched, M44's automatic supports, the head-to-head pairs); `_Decisions`, the
decisions and strengths, three-valued; the module functions that fix them (`_propagate`, then
`_cycle`, `_settle` for what stays open); `_resolution`, what the fixed decisions do to the board.

Friendly conflicts (M26) were turned into Holds before (:mod:`~.operations`); what is left of
them here is DATC's rule that no unit is dislodged by, or with the help of, its own owner when
its own move out fails.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass

from judge.games.machiavelli.core.board import Board
from judge.games.machiavelli.core.operations import Op, Operation, supports_matched
from judge.games.machiavelli.core.position import Owner, Place, Position
from judge.games.machiavelli.core.results import Automatic, Reason

PREVAILS, GIVEN, PATH = "prevails", "given", "path"
Key = tuple[str, Place]
Tri = bool | None
Span = tuple[int, int]  # the least and the most a strength can still come to


def _and(*values: Tri) -> Tri:
    if any(v is False for v in values):
        return False
    return True if all(v is True for v in values) else None


def _or(*values: Tri) -> Tri:
    if any(v is True for v in values):
        return True
    return False if all(v is False for v in values) else None


def _not(value: Tri) -> Tri:
    return None if value is None else not value


@dataclass(frozen=True)
class Resolution:
    """The decisions of F.1 and what follows from them for the board."""

    prevails: Mapping[Place, bool]  # each attack (by the attacking unit's place): did it win its area
    given: Mapping[Place, bool]  # each support: was it given
    path: Mapping[Place, bool]  # each transported advance: did its fleets carry it
    entered: frozenset[Place]  # the attacks whose unit now stands in the area attacked
    strength: Mapping[Place, int]  # each attack's attack strength
    automatic: Mapping[Place, tuple[Automatic, ...]]  # each attack's automatic supports (M44), if it had any
    dislodged: Mapping[Place, Place]  # a unit forced out (or made a garrison in Venice) -> its attacker's place
    matched: Mapping[Place, Place | None]  # each support -> the unit it adds to (M18)
    settled: Mapping[Place, Reason]  # decisions fixed by the Szykman (M24) or standoff (M27) rule


def resolve(board: Board, position: Position, ops: Mapping[Place, Operation]) -> Resolution:
    """Decide every attack, support and transport of F.1: what is certain first, then each cycle
    left (M27, M24), then what the decisions do to the board."""
    decisions = _Decisions(_Orders(board, position, ops))
    _propagate(decisions)
    while open_keys := [k for k in decisions.keys if k not in decisions.known]:
        _settle(decisions, _cycle(decisions, open_keys))
        _propagate(decisions)
    return _resolution(decisions)


class _Orders:
    """The orders of one F.1 as its decisions read them, worked out before any decision: the
    attacks on each area, the supports and the unit each adds to (M18), the automatic supports
    (M44) and the advances that meet head to head (13.2)."""

    def __init__(self, board: Board, position: Position, ops: Mapping[Place, Operation]) -> None:
        self.board = board
        self.position = position
        self.ops = ops
        self.attacks = {p: op for p, op in ops.items() if op.attacks is not None}
        self.into: dict[str, list[Place]] = defaultdict(list)
        for place, op in self.attacks.items():
            assert op.attacks is not None
            self.into[op.attacks].append(place)
        self.supports = {p: op for p, op in ops.items() if op.op is Op.SUPPORT}
        self.matched = supports_matched(ops)
        self.backers: dict[Place, list[Place]] = defaultdict(list)
        for support, unit in self.matched.items():
            if unit is not None:
                self.backers[unit].append(support)
        self.automatic = self._automatic_supports()
        self.bonus = {place: len(helpers) for place, helpers in self.automatic.items()}
        self.head_on = self._head_to_head()

    def _automatic_supports(self) -> dict[Place, tuple[Automatic, ...]]:
        """The supports a rebellion and an independent garrison give a lone player's attack, 1
        each (M44)."""
        found: dict[Place, tuple[Automatic, ...]] = {}
        for area, attackers in self.into.items():
            owners = {self.ops[p].unit.owner for p in attackers}
            if len(owners) != 1:
                continue
            (owner,) = owners
            helpers: list[Automatic] = []
            victim = self.position.rebellions.get(area)
            if victim is not None and victim != owner:
                helpers.append(Automatic.REBELLION)
            garrison = self.position.garrison(area)
            occupant = self.position.province_unit(area)
            if (garrison is not None and garrison.independent and self.ops[garrison.place].reason is Reason.INDEPENDENT
                    and occupant is not None and occupant.owner not in (garrison.owner, owner)):
                helpers.append(Automatic.GARRISON)
            if helpers:
                for place in attackers:
                    found[place] = tuple(helpers)
        return found

    def _head_to_head(self) -> dict[Place, Place]:
        """Advances that meet head to head: each into the other's area, neither transported (13.2)."""
        pairs: dict[Place, Place] = {}
        for place, op in self.attacks.items():
            if op.op is not Op.ADVANCE or op.route or op.target is None:
                continue
            other = self.position.province_unit(op.target)
            if other is None:
                continue
            other_op = self.ops[other.place]
            if other_op.op is Op.ADVANCE and not other_op.route and other_op.target == op.unit.area:
                pairs[place] = other.place
        return pairs

    def venice(self, area: str) -> bool:
        """Whether ``area`` is Venice, whose army or fleet a superior attack makes a garrison (14,
        M14): the other one-unit islands lose theirs as any province does."""
        return self.board.lagoon is not None and area == self.board.lagoon.island


class _Decisions:
    """The decisions of one F.1 and the strengths they are worked out from (the module docstring),
    three-valued: each from the decisions known so far, or assumed while a cycle's outcomes are
    sought (`_consequences`); and which of them a rule fixed (M24, M27)."""

    def __init__(self, orders: _Orders) -> None:
        self.orders = orders
        self.known: dict[Key, bool] = {}
        self.settled: dict[Place, Reason] = {}
        self.trial: dict[Key, bool] | None = None
        self.reads: set[Key] | None = None
        for place, op in orders.attacks.items():
            if op.transport_failure is not None:
                self.known[(PATH, place)] = False
        self.keys: list[Key] = [(PREVAILS, p) for p in orders.attacks]
        self.keys += [(GIVEN, p) for p in orders.supports]
        self.keys += [(PATH, p) for p, op in orders.attacks.items() if op.route]

    def value(self, key: Key) -> Tri:
        """A decision as known so far (or as assumed while a cycle's outcomes are sought)."""
        if self.reads is not None:
            self.reads.add(key)
        if self.trial is not None and key in self.trial:
            return self.trial[key]
        return self.known.get(key)

    def evaluate(self, key: Key) -> Tri:
        """A decision worked out from the others: True, False, or None while it is uncertain."""
        kind, place = key
        if kind == PREVAILS:
            return self.prevails(place)
        if kind == GIVEN:
            return self.given(place)
        return self.path(place)

    def path(self, place: Place) -> Tri:
        """A transported advance finds its path unless a fleet of its route is forced to retreat (9.3)."""
        return _and(*(_not(self.dislodged(Place(area))) for area in self.orders.attacks[place].route))

    def leaves(self, place: Place) -> Tri:
        """Whether the army or fleet at ``place`` gets out of its province (or sea)."""
        orders = self.orders
        op = orders.ops[place]
        if op.enters_city:
            return True
        if op.op is not Op.ADVANCE or op.target is None:
            return False
        won = self.value((PREVAILS, place))
        if orders.venice(op.target):
            defender = orders.position.province_unit(op.target)
            if defender is not None:  # Venice holds one unit: its defender must get out (M14)
                return _and(won, self.leaves(defender.place) if orders.ops[defender.place].op is Op.ADVANCE else False)
        return won

    def dislodged(self, place: Place) -> Tri:
        """Whether the army or fleet at ``place`` is forced to retreat (in Venice: to become a garrison)."""
        ops = self.orders.ops
        if place.city or place not in ops or ops[place].enters_city:
            return False
        gone = self.leaves(place)
        if gone is True:
            return False
        hit = _or(*(self.value((PREVAILS, a)) for a in self.orders.into.get(place.area, ()) if a != place))
        if hit is False:
            return False
        return True if hit is True and gone is False else None

    def supported(self, unit: Place, exclude: Owner | None = None, into: str | None = None) -> Span:
        """How many supports the unit at ``unit`` gets, leaving out those of ``exclude``'s units
        (and, with ``into``, those given into another area)."""
        orders = self.orders
        low = high = 0
        for support in orders.backers.get(unit, ()):
            if exclude is not None and orders.ops[support].unit.owner == exclude:
                continue
            if into is not None and orders.supports[support].target != into:
                continue
            given = self.value((GIVEN, support))
            low += given is True
            high += given is not False
        return low, high

    def full(self, attack: Place, exclude: Owner | None = None) -> Span:
        """An attack's strength with all its supports (and the automatic ones, M44)."""
        low, high = self.supported(attack, exclude)
        base = 1 + self.orders.bonus.get(attack, 0)
        return base + low, base + high

    def attack(self, place: Place) -> Span:
        """The attack strength (Kruijswijk): nothing through a failed path, nothing against an own
        unit that stays, and no help from the supports of the owner of a unit it would dislodge."""
        orders = self.orders
        op = orders.attacks[place]
        assert op.attacks is not None
        found = self.value((PATH, place)) if op.route else True
        if found is False:
            return 0, 0
        defender = orders.position.province_unit(op.attacks)
        span = self.full(place)
        if defender is not None:
            defence = orders.ops[defender.place]
            if defence.enters_city and orders.venice(op.attacks):
                return 0, 0  # it becomes Venice's garrison: Venice stays full (M14, M57)
            if defence.op is Op.ADVANCE:
                gone = self.leaves(defender.place)
                rest = (0, 0) if defender.owner == op.unit.owner else self.full(place, defender.owner)
                span = span if gone is True else rest if gone is False else (rest[0], span[1])
        return (0, span[1]) if found is None else span

    def hold(self, area: str) -> Span:
        """The hold strength of a province or sea."""
        orders = self.orders
        unit = orders.position.province_unit(area)
        if unit is None or orders.ops[unit.place].enters_city:
            return 0, 0
        if orders.ops[unit.place].op is Op.ADVANCE:
            gone = self.leaves(unit.place)
            return (0, 0) if gone is True else (1, 1) if gone is False else (0, 1)
        low, high = self.supported(unit.place, into=area)  # not a Lagoon besieger's supports into Venice
        return 1 + low, 1 + high

    def prevent(self, place: Place) -> Span:
        """The prevent strength: nothing through a failed path, nothing from a unit forced out (13.5)."""
        op = self.orders.attacks[place]
        found = self.value((PATH, place)) if op.route else True
        out = self.dislodged(place)
        if found is False or out is True:
            return 0, 0
        low, high = self.full(place)
        return (0 if found is None or out is None else low), high

    def prevails(self, place: Place) -> Tri:
        """An attack prevails when stronger than the defence and than every other attack on its area."""
        orders = self.orders
        op = orders.attacks[place]
        target = op.attacks
        assert target is not None
        strength = self.attack(place)
        against = [self.full(orders.head_on[place]) if place in orders.head_on else self.hold(target)]
        against += [self.prevent(other) for other in orders.into[target] if other != place]
        against += self._besieging_force(place)
        if all(strength[0] > high for _, high in against):
            return True
        if any(strength[1] <= low for low, _ in against):
            return False
        return None

    def _besieging_force(self, place: Place) -> list[Span]:
        """A garrison besieged in Venice from the Lagoon converts only if the besieging force is not
        superior (14): the force less one stands against the conversion."""
        orders = self.orders
        lagoon = orders.board.lagoon
        if lagoon is None or not place.city or place.area != lagoon.island:
            return []
        besieger = orders.position.province_unit(lagoon.sea)
        if besieger is None or orders.ops[besieger.place].op is not Op.BESIEGE:
            return []
        out = self.dislodged(besieger.place)
        if out is True:
            return []
        low, high = self.supported(besieger.place)
        return [(0 if out is None else low, high)]

    def given(self, place: Place) -> Tri:
        """A support is given unless its supporter is forced to retreat or the support is cut."""
        if place.city:
            return True  # nobody can attack a city: a garrison's support stands (M19, M23)
        return _and(_not(self.dislodged(place)), _not(self.cut(place)))

    def cut(self, place: Place) -> Tri:
        """Cut by an attack of another owner not from the supported area, unless the attacker is
        itself forced to retreat (13.1, M25) or its transport fails."""
        orders = self.orders
        op = orders.supports[place]
        cuts: list[Tri] = []
        for attacker in orders.into.get(place.area, ()):
            attack = orders.attacks[attacker]
            if attack.unit.owner == op.unit.owner or attack.unit.area == op.target:
                continue
            found = self.value((PATH, attacker)) if attack.route else True
            cuts.append(_and(found, _not(self.dislodged(attacker))))
        return _or(*cuts)


# -- fixing the decisions ----------------------------------------------------------------------------------

def _propagate(decisions: _Decisions) -> None:
    """Fix every open decision that is certain, until no more is (M27's first step)."""
    changed = True
    while changed:
        changed = False
        for key in decisions.keys:
            if key not in decisions.known:
                value = decisions.evaluate(key)
                if value is not None:
                    decisions.known[key] = value
                    changed = True


def _cycle(decisions: _Decisions, open_keys: list[Key]) -> list[Key]:
    """The open decisions that depend on each other with the first one (its cycle)."""
    links: dict[Key, set[Key]] = {key: set() for key in open_keys}
    for key in open_keys:
        decisions.reads = set()
        decisions.evaluate(key)
        for other in decisions.reads & links.keys():
            links[key].add(other)
            links[other].add(key)
        decisions.reads = None
    members, todo = {open_keys[0]}, [open_keys[0]]
    while todo:
        for other in links[todo.pop()] - members:
            members.add(other)
            todo.append(other)
    return [key for key in open_keys if key in members]


def _settle(decisions: _Decisions, cycle: list[Key]) -> None:
    """Fix a cycle's decisions by M27 (and M24 for transports)."""
    outcomes = _outcomes(decisions, cycle)
    paths = [key for key in cycle if key[0] == PATH]
    if len(outcomes) == 1:
        decisions.known.update(outcomes[0])
        return
    if paths:
        for key in paths:
            decisions.known[key] = False
            decisions.settled[key[1]] = Reason.CONVOY_PARADOX
        return
    best = _containing(outcomes)
    if best is not None:
        decisions.known.update(best)
        return
    for key in cycle:
        decisions.known[key] = False
        decisions.settled[key[1]] = Reason.CYCLE_STANDOFF


def _containing(outcomes: list[dict[Key, bool]]) -> dict[Key, bool] | None:
    """Of two outcomes, the one whose given supports and prevailing attacks contain the other's."""
    if len(outcomes) != 2:
        return None
    first, second = ({key for key, value in outcome.items() if value} for outcome in outcomes)
    if first > second:
        return outcomes[0]
    if second > first:
        return outcomes[1]
    return None


def _outcomes(decisions: _Decisions, cycle: list[Key]) -> list[dict[Key, bool]]:
    """The consistent outcomes of a cycle (at most three are sought: more than two is a standoff)."""
    found: list[dict[Key, bool]] = []

    def search(assumed: dict[Key, bool]) -> None:
        if len(found) > 2:
            return
        closed = _consequences(decisions, cycle, assumed)
        if closed is None:
            return
        free = [key for key in cycle if key not in closed]
        if not free:
            found.append(closed)
            return
        for guess in (True, False):
            search({**closed, free[0]: guess})

    search({})
    return found


def _consequences(decisions: _Decisions, cycle: list[Key], assumed: dict[Key, bool]) -> dict[Key, bool] | None:
    """What follows from ``assumed`` within the cycle, or None if it contradicts itself."""
    closed = dict(assumed)
    decisions.trial = closed
    try:
        changed = True
        while changed:
            changed = False
            for key in cycle:
                value = decisions.evaluate(key)
                if value is None:
                    continue
                if key in closed and closed[key] != value:
                    return None
                if key not in closed:
                    closed[key] = value
                    changed = True
        if len(closed) == len(cycle) and any(decisions.evaluate(key) is None for key in cycle):
            return None
        return closed
    finally:
        decisions.trial = None


# -- the result --------------------------------------------------------------------------------------------

def _resolution(decisions: _Decisions) -> Resolution:
    """The decisions, all fixed, and who is forced out of where by whom."""
    orders, known = decisions.orders, decisions.known
    prevails = {p: known[(PREVAILS, p)] for p in orders.attacks}
    dislodged: dict[Place, Place] = {}
    for place in orders.ops:
        winner = _winner(decisions, place.area)
        if winner is None:
            continue
        if not place.city and decisions.dislodged(place) is True:
            dislodged[place] = winner
        elif place.city and place in orders.attacks and not prevails[place]:
            dislodged[place] = winner  # converted under a superior attack, and must retreat (M43)
    entered = frozenset(p for p in orders.attacks if prevails[p] and (p.city or decisions.leaves(p) is True))
    return Resolution(
        prevails=prevails,
        given={p: known[(GIVEN, p)] for p in orders.supports},
        path={p: known[(PATH, p)] for p, op in orders.attacks.items() if op.route},
        entered=entered,
        strength={p: decisions.attack(p)[0] for p in orders.attacks},
        automatic=orders.automatic,
        dislodged=dislodged,
        matched=orders.matched,
        settled=decisions.settled,
    )


def _winner(decisions: _Decisions, area: str) -> Place | None:
    """The attack that won ``area``, if one did."""
    for attacker in decisions.orders.into.get(area, ()):
        if decisions.known[(PREVAILS, attacker)]:
            return attacker
    return None
