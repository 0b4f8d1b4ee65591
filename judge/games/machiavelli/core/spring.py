"""Phase A of a spring campaign (AoP 2, 3, 5 to 7, 15, 16): the judge's A.1 and A.2, then the
players' A orders, A.4 to A.7.

Theory of operation.  A.1 and A.2 need no letter (an independent garrison springing up in a
rebelling city ends the rebellion, and with it any siege of that city): :func:`spring_opening` carries them out as
soon as the Fall campaign ends (the sequencer calls it), so that A.2's publication — incomes,
map, anticipated treasuries — goes out with the Fall's results, and the position then awaits
the A letters (:attr:`~.position.Phase.A`).  The game's first spring starts at A.3 (AoP 3): no
A.1, no A.2.  :func:`spring_letter` carries out the A letters, each sub-phase for all players
at once and each player's orders in the order written (2, M30):

* A.4 transfers (:func:`~.expense.transfers`);
* A.5 trades: the seller's and the buyer's orders must name the same province and price; the
  seller controls the province, which is empty of units and rebellion; the price is at least
  its tax income and the buyer pays it in full, else nothing moves (6, M10);
* A.6 forced taxation: the province's tax again (a city adds 1 if the taxer controls it), and
  it rebels at once (5.3, M11) — so a one-unit island is taxed only empty (11.1);
* A.7 the Pope's excommunication (15, M32), then the payments: with any A.7 order the units
  not listed are disbanded; without, every unit is listed by default, garrisons, armies then
  fleets, the better-placed first (7.3, M12, M50); the list is paid in order, 3 ducats a unit,
  a unit that cannot be paid is disbanded, a new unit that cannot be paid is not raised (M30);
  no unit is raised where one of the player's units is disbanded (7.2).  The checks read the
  board as A.7 began: the players' payments are simultaneous.

The anticipated treasuries (A.2) are the treasuries as public information updates them: the
incomes, forced taxes, salaries and new units, never a transfer, a trade's price or an
expenditure (those are secret: 8.1).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from judge.games.machiavelli.core.board import Board, ascii_name
from judge.games.machiavelli.core.expenditures import (
    Dismiss,
    Excommunicate,
    ForcedTax,
    LetterOrder,
    Pay,
    Purchase,
    Raise,
    Sell,
    SpringOrder,
    Transfer,
)
from judge.games.machiavelli.core.expense import RebellionStart, can_rebel, home_areas, transfers
from judge.games.machiavelli.core.income import Income, forced_tax, incomes, tax_value
from judge.games.machiavelli.core.ledger import Flow, Movement, OrderOutcome, Purse
from judge.games.machiavelli.core.orders import UnitRef
from judge.games.machiavelli.core.position import Independent, Owner, Phase, Place, Position, Season, Unit, UnitKind
from judge.games.machiavelli.core.preference import Preference
from judge.games.machiavelli.core.results import ControlChange, Disband, Reason, RebellionEnd

SALARY = 3  # a unit's salary for the year, and a new unit's price (7.3)


@dataclass(frozen=True)
class SpringOpening:
    """A.1 and A.2: the independent garrisons that sprang up (and the rebellions and control they
    changed), each living player's income, and the treasury movements."""

    season: Season
    sprung: tuple[Unit, ...]
    rebellions_ended: tuple[RebellionEnd, ...]
    control_changes: tuple[ControlChange, ...]
    incomes: Mapping[str, Income]
    movements: tuple[Movement, ...]


@dataclass(frozen=True)
class Trade:
    """A province sold in A.5 (6); the price None where it is not disclosed (the publication)."""

    area: str
    seller: str
    buyer: str
    price: int | None


@dataclass(frozen=True)
class SpringRecord:
    """Phase A.4 to A.7: each order's outcome, what changed hands, what was taxed, raised and
    disbanded, who was excommunicated, the treasury movements, and the position awaiting the C
    letters."""

    season: Season
    outcomes: tuple[OrderOutcome, ...]
    trades: tuple[Trade, ...]
    forced_taxes: tuple[RebellionStart, ...]
    raised: tuple[Unit, ...]
    disbanded: tuple[Disband, ...]
    excommunicated: tuple[str, ...]
    control_changes: tuple[ControlChange, ...]
    movements: tuple[Movement, ...]
    position: Position

    def for_player(self, player: str) -> SpringRecord:
        """What ``player`` learns privately: its own orders, movements, trades, units raised and
        disbanded (the rest left out)."""
        return replace(
            self,
            outcomes=tuple(o for o in self.outcomes if o.player == player),
            trades=tuple(t for t in self.trades if player in (t.seller, t.buyer)),
            forced_taxes=tuple(t for t in self.forced_taxes if t.victim == player),
            raised=tuple(u for u in self.raised if u.owner == player),
            disbanded=tuple(d for d in self.disbanded if d.unit.owner == player),
            movements=tuple(m for m in self.movements if m.player == player),
        )

    def public(self) -> SpringRecord:
        """What the rules publish (the map, the actions): no order's outcome, no movement of money,
        and the trades without their price (8.1: money changing hands is secret)."""
        return replace(self, outcomes=(), movements=(), trades=tuple(replace(t, price=None) for t in self.trades))


def spring_opening(board: Board, position: Position, purse: Purse) -> tuple[Position, SpringOpening]:
    """A.1 and A.2 of the spring ``position`` is in (16, M46; 5, M29, M47, M53, M14)."""
    units = dict(position.units)
    control = dict(position.control)
    rebellions = dict(position.rebellions)
    sprung: list[Unit] = []
    ended: list[RebellionEnd] = []
    changes: list[ControlChange] = []
    for code, area in sorted(board.areas.items()):
        native = Independent(code)
        if (not area.fortified_city or position.garrison(code) is not None
                or isinstance(position.city_controller(code), str)
                or any(u.owner == native for u in position.units.values())
                or (area.single_unit and position.province_unit(code) is not None)):
            continue
        garrison = Unit(UnitKind.GARRISON, native, code)
        units[garrison.place] = garrison
        sprung.append(garrison)
        if code in rebellions:
            ended.append(RebellionEnd(code, rebellions.pop(code), Reason.ENDED_BY_INDEPENDENT))
        occupant = position.province_unit(code)
        after: Owner | None = None if occupant is not None and occupant.owner != native else native
        if after is None:
            control.pop(code, None)
        else:
            control[code] = after
        if position.control.get(code) != after:
            changes.append(ControlChange(code, position.control.get(code), after, Reason.SPRUNG_UP))
    sprung_in = {u.area for u in sprung}  # a siege of the rebelling city ends with the rebellion
    sieges = {area: siege for area, siege in position.sieges.items() if area not in sprung_in}
    position = replace(position.with_units(units.values()), control=control, rebellions=rebellions, sieges=sieges)
    players = position.living(board.powers)
    earned = incomes(board, position, players)
    start = len(purse.movements)
    anticipated = dict(position.anticipated)
    for player, income in earned.items():
        purse.receive(player, income.tax, Flow.TAX, "A.2", "tax income (5.1)")
        purse.receive(player, income.trade, Flow.TRADE, "A.2", "trade income (5.2)")
        anticipated[player] = anticipated.get(player, 0) + income.total
    position = replace(position, treasuries=dict(purse.treasuries), anticipated=anticipated)
    opening = SpringOpening(position.season, tuple(sprung), tuple(ended), tuple(changes), earned,
                            tuple(purse.movements[start:]))
    return position, opening


def default_payments(board: Board, position: Position, player: str) -> tuple[Pay, ...]:
    """The A.7 orders of a player who sent none (7.3, M12, M50): every unit, garrisons first, then
    armies, then fleets; among one kind, by the unit's location in Appendix A's sub-sub-categories
    (a magnitude 3 city first ... no city last), coastal before inland, then by name (M52)."""
    garrisoned = frozenset(place.area for place in position.units if place.city)
    kinds = (UnitKind.GARRISON, UnitKind.ARMY, UnitKind.FLEET)

    def key(unit: Unit) -> tuple[int, int, bool, str]:
        area = board.areas[unit.area]
        rank = Preference(board, position, player, unit.kind, garrisoned).subsubcategory(unit.area)
        return kinds.index(unit.kind), rank, not area.is_coastal, ascii_name(area.name)

    return tuple(Pay(UnitRef(u.kind, u.area)) for u in sorted(position.units_of(player), key=key))


def spring_letter(board: Board, position: Position,
                  letters: Mapping[str, Sequence[LetterOrder] | None]) -> SpringRecord:
    """Carry out A.4 to A.7 with every player's A letter (missing: the defaults, M50)."""
    if position.phase is not Phase.A:
        raise ValueError(f"the position awaits the {position.phase.value} letters, not the spring's A letters")
    players = position.living(board.powers)
    purse = Purse(position.treasuries)
    outcomes: list[OrderOutcome] = []
    written: dict[str, list[SpringOrder]] = {p: [] for p in players}
    for player, letter in sorted(letters.items()):
        for order in letter or ():
            if player not in players:
                outcomes.append(OrderOutcome(player, "A", order, False, 0, Reason.NOT_A_PLAYER))
            elif isinstance(order, Transfer | Sell | Purchase | ForcedTax | Pay | Dismiss | Raise | Excommunicate):
                written[player].append(order)
            else:
                outcomes.append(OrderOutcome(player, "A", order, False, 0, Reason.NOT_THIS_PHASE))
    bans = frozenset(position.bans)
    gifts = {p: [o for o in written[p] if isinstance(o, Transfer)] for p in players}
    outcomes += transfers(position, players, gifts, bans, purse, "A.4")
    position, trades, changes, sheet = _trades(board, position, players, written, bans, purse)
    outcomes += sheet
    position, taxed, sheet = _forced_taxes(board, position, players, written, purse)
    outcomes += sheet
    position, excommunicated, sheet = excommunications(board, position, players, written, "A.7")
    outcomes += sheet
    position, raised, disbanded, sheet = _payments(board, position, players, written, purse)
    outcomes += sheet
    position = replace(
        position,
        treasuries=dict(purse.treasuries),
        phase=Phase.C,
        bans={t: s for t, s in position.bans.items() if t not in bans},  # those laid before end with this phase A
    )
    return SpringRecord(position.season, tuple(outcomes), tuple(trades), tuple(taxed), tuple(raised),
                        tuple(disbanded), tuple(excommunicated), tuple(changes), tuple(purse.movements), position)


def _trades(board: Board, position: Position, players: Sequence[str], written: Mapping[str, Sequence[SpringOrder]],
            bans: frozenset[str], purse: Purse,
            ) -> tuple[Position, list[Trade], list[ControlChange], list[OrderOutcome]]:
    """A.5 (6, M10): each buyer's purchases in the order written, against the sellers' sales."""
    sales: dict[tuple[str, str], list[Sell]] = defaultdict(list)  # (seller, area) -> its sales of the area
    for player in players:
        for order in written[player]:
            if isinstance(order, Sell):
                sales[(player, order.area)].append(order)
    result: dict[tuple[str, int], OrderOutcome] = {}  # (player, place in the letter) -> outcome
    sold: dict[tuple[str, str], OrderOutcome] = {}  # (seller, area) -> the sale's outcome, once a purchase met it
    control = dict(position.control)
    trades: list[Trade] = []
    changes: list[ControlChange] = []
    for buyer in players:
        bought: set[str] = set()
        for at, order in enumerate(written[buyer]):
            if not isinstance(order, Purchase):
                continue
            offers = sales.get((order.seller, order.area), [])
            sale = offers[0] if len(offers) == 1 else None
            reason = _trade_check(board, position, buyer, order, sale, players, bans)
            if reason is None and order.area in bought:
                reason = Reason.CONTRADICTORY
            bought.add(order.area)
            if reason is None and not purse.send(buyer, order.seller, order.price, (Flow.PURCHASE, Flow.SALE), "A.5",
                                                 (f"{order.area} bought from {order.seller}",
                                                  f"{order.area} sold to {buyer}"), (order, sale)):
                reason = Reason.BUYER_CANNOT_PAY
            if reason is not None:
                result[(buyer, at)] = OrderOutcome(buyer, "A.5", order, False, 0, reason)
                if sale is not None and sale.buyer == buyer and sale.price == order.price:
                    sold[(order.seller, order.area)] = OrderOutcome(order.seller, "A.5", sale, False, 0, reason)
                continue
            assert sale is not None
            result[(buyer, at)] = OrderOutcome(buyer, "A.5", order, True, order.price, Reason.BOUGHT)
            sold[(order.seller, order.area)] = OrderOutcome(order.seller, "A.5", sale, True, 0, Reason.SOLD)
            trades.append(Trade(order.area, order.seller, buyer, order.price))
            changes.append(ControlChange(order.area, control.get(order.area), buyer, Reason.SOLD))
            control[order.area] = buyer
    purse.settle()
    for seller in players:
        for at, order in enumerate(written[seller]):
            if isinstance(order, Sell):
                several = len(sales[(seller, order.area)]) > 1
                default = Reason.CONTRADICTORY if several else Reason.NO_MATCHING_ORDER
                result[(seller, at)] = sold.get((seller, order.area)) or OrderOutcome(seller, "A.5", order, False, 0,
                                                                                        default)
    outcomes = [result[key] for key in sorted(result, key=lambda key: (players.index(key[0]), key[1]))]
    return replace(position, control=control), trades, changes, outcomes


def _trade_check(board: Board, position: Position, buyer: str, order: Purchase, sale: Sell | None,
                 players: Sequence[str], bans: frozenset[str]) -> Reason | None:
    """Why a purchase does not go through (6, M10, M32), if it does not."""
    area = order.area
    if order.seller not in players or order.seller == buyer:
        return Reason.UNKNOWN_PLAYER
    if sale is None or sale.buyer != buyer or sale.price != order.price:
        return Reason.NO_MATCHING_ORDER
    if (position.controller(area) != order.seller or position.province_unit(area) is not None
            or position.garrison(area) is not None):
        return Reason.NOT_FOR_SALE
    if order.price < tax_value(board, area):
        return Reason.BELOW_MINIMUM_PRICE
    if buyer in bans or order.seller in bans:
        return Reason.EXCOMMUNICATION_BLOCKS
    return None


def _forced_taxes(board: Board, position: Position, players: Sequence[str],
                  written: Mapping[str, Sequence[SpringOrder]], purse: Purse,
                  ) -> tuple[Position, list[RebellionStart], list[OrderOutcome]]:
    """A.6 (5.3, M11): the tax collected again from each province taxed by force, which rebels."""
    rebellions = dict(position.rebellions)
    anticipated = dict(position.anticipated)
    taxed: list[RebellionStart] = []
    outcomes: list[OrderOutcome] = []
    for player in players:
        for order in written[player]:
            if not isinstance(order, ForcedTax):
                continue
            area = order.area
            if any(t.area == area for t in taxed):
                reason: Reason | None = Reason.CONTRADICTORY
            elif not board.areas[area].is_land or position.controller(area) != player:
                reason = Reason.NOT_CONTROLLED
            elif not can_rebel(board, position, area):
                reason = Reason.ISLAND_OCCUPIED
            else:
                reason = None
            if reason is not None:
                outcomes.append(OrderOutcome(player, "A.6", order, False, 0, reason))
                continue
            amount = forced_tax(board, position, player, area)
            purse.receive(player, amount, Flow.FORCED_TAX, "A.6", f"{area} taxed by force", order)
            anticipated[player] = anticipated.get(player, 0) + amount
            rebellions[area] = player
            taxed.append(RebellionStart(area, player, Reason.FORCED_TAX_COLLECTED))
            outcomes.append(OrderOutcome(player, "A.6", order, True, 0, Reason.FORCED_TAX_COLLECTED))
    return replace(position, rebellions=rebellions, anticipated=anticipated), taxed, outcomes


def excommunication_check(board: Board, position: Position, player: str, order: Excommunicate,
                          players: Sequence[str], already: bool) -> Reason | None:
    """Why an excommunication is not carried out (15, M32), if it is not."""
    if player != board.papacy or already:
        return Reason.NOT_THE_POPE
    if order.target not in players or order.target == player:
        return Reason.UNKNOWN_PLAYER
    if order.target in position.excommunicated:
        return Reason.ONCE_PER_GAME
    return None


def excommunications(board: Board, position: Position, players: Sequence[str],
                      written: Mapping[str, Sequence[LetterOrder]], phase: str,
                      ) -> tuple[Position, list[str], list[OrderOutcome]]:
    """The Pope's excommunication in A.7 or C.2 (15, M32): laid in A.7, it lasts to the end of this
    spring's F; laid in C.2, to the end of the next campaign's F or of the next phase A."""
    targets: list[str] = []
    outcomes: list[OrderOutcome] = []
    until = position.season if phase == "A.7" else position.season.next()
    for player in players:
        for order in written.get(player, ()):
            if not isinstance(order, Excommunicate):
                continue
            reason = excommunication_check(board, position, player, order, players, bool(targets))
            if reason is None:
                targets.append(order.target)
                position = replace(position, bans={**position.bans, order.target: until},
                                   excommunicated=(*position.excommunicated, order.target))
            outcomes.append(OrderOutcome(player, phase, order, reason is None, 0, reason or Reason.EXCOMMUNICATED))
    return position, targets, outcomes


@dataclass
class _Payroll:
    """A.7 as it is carried out, player after player: the units left, the anticipated treasuries,
    the units raised and disbanded, and each order's outcome."""

    units: dict[Place, Unit]
    anticipated: dict[str, int]
    raised: list[Unit] = field(default_factory=list)
    disbanded: list[Disband] = field(default_factory=list)
    outcomes: list[OrderOutcome] = field(default_factory=list)

    def disband(self, unit: Unit, reason: Reason) -> None:
        """``unit`` leaves the board in A.7, for ``reason`` (not paid, dismissed, not listed)."""
        self.disbanded.append(Disband(unit, reason))
        del self.units[unit.place]


def _payments(board: Board, position: Position, players: Sequence[str], written: Mapping[str, Sequence[SpringOrder]],
              purse: Purse) -> tuple[Position, list[Unit], list[Disband], list[OrderOutcome]]:
    """A.7 (7, M12, M13, M30, M48): salaries paid, units disbanded, new units raised."""
    first = position.season == board.start.season
    payroll = _Payroll(dict(position.units), dict(position.anticipated))
    for player in players:
        listed = [o for o in written[player] if isinstance(o, Pay | Dismiss | Raise)]
        default = not listed
        orders: Sequence[Pay | Dismiss | Raise] = default_payments(board, position, player) if default else listed
        _player_payments(board, position, player, orders, default, first, purse, payroll)
    return (replace(position.with_units(payroll.units.values()), anticipated=payroll.anticipated),
            payroll.raised, payroll.disbanded, payroll.outcomes)


def _first_namings(position: Position, player: str, orders: Sequence[Pay | Dismiss | Raise]) -> dict[Place, int]:
    """Each of ``player``'s own units named by a payment or dismissal, with the place in the list
    of the first order naming it: a later order naming it again contradicts it (8.1)."""
    named: dict[Place, int] = {}
    for at, order in enumerate(orders):
        if isinstance(order, Pay | Dismiss) and order.unit.place not in named:
            unit = position.unit_at(order.unit.place)
            if unit is not None and unit.owner == player and unit.kind is order.unit.kind:
                named[order.unit.place] = at
    return named


def _player_payments(board: Board, position: Position, player: str, orders: Sequence[Pay | Dismiss | Raise],
                     default: bool, first: bool, purse: Purse, payroll: _Payroll) -> None:
    """One player's A.7 list paid in order (7.3, M30): a unit that cannot be paid is disbanded,
    a new unit that cannot be paid is not raised, and a unit the list does not name is disbanded."""
    named = _first_namings(position, player, orders)
    kept = {place for place, at in named.items() if isinstance(orders[at], Pay)}
    leaving = {u.area for u in position.units_of(player) if u.place not in kept}
    builds: set[str] = set()
    for at, order in enumerate(orders):
        present = {**position.units, **{u.place: u for u in payroll.raised if u.owner == player}}  # A.7 is simultaneous
        if isinstance(order, Pay | Dismiss) and named.get(order.unit.place, at) != at:
            reason, unit, cost = Reason.CONTRADICTORY, None, 0
        else:
            reason, unit, cost = _payment(board, position, player, order, leaving, builds, present, first)
        if reason in (Reason.PAID, Reason.RAISED) and not purse.pay(player, cost, Flow.SALARY, "A.7", str(order),
                                                                    order):
            reason = Reason.UNAFFORDABLE
            if isinstance(order, Pay):
                assert unit is not None
                leaving.add(unit.area)
                payroll.disband(unit, Reason.NOT_PAID)
        _carry_out(payroll, player, order, reason, unit, cost, builds, default)
    for unit in position.units_of(player):
        if unit.place not in named:
            payroll.disband(unit, Reason.NOT_LISTED)


def _carry_out(payroll: _Payroll, player: str, order: Pay | Dismiss | Raise, reason: Reason, unit: Unit | None,
               cost: int, builds: set[str], default: bool) -> None:
    """One checked A.7 order's effect: a unit raised or dismissed, its cost taken from the
    anticipated treasury (a dismissal costs nothing), and its outcome, a default list's
    payments told apart (7.3, M12, M50)."""
    succeeded = reason in (Reason.PAID, Reason.RAISED, Reason.DISMISSED)
    if reason is Reason.RAISED:
        assert unit is not None
        payroll.units[unit.place] = unit
        payroll.raised.append(unit)
        builds.add(unit.area)
    elif reason is Reason.DISMISSED:
        assert unit is not None
        payroll.disband(unit, Reason.DISMISSED)
    if succeeded and reason is not Reason.DISMISSED:
        payroll.anticipated[player] = payroll.anticipated.get(player, 0) - cost
    if default and reason is Reason.PAID:
        reason = Reason.PAID_BY_DEFAULT
    payroll.outcomes.append(OrderOutcome(player, "A.7", order, succeeded, cost if succeeded else 0, reason))


def _payment(board: Board, position: Position, player: str, order: Pay | Dismiss | Raise, leaving: set[str],
             builds: set[str], units: Mapping[Place, Unit], first: bool) -> tuple[Reason, Unit | None, int]:
    """One A.7 order checked: its reason if carried out (PAID, RAISED, DISMISSED) or why not, the
    unit concerned, and its cost."""
    if isinstance(order, Pay | Dismiss):
        unit = position.unit_at(order.unit.place)
        if unit is None or unit.owner != player or unit.kind is not order.unit.kind:
            return Reason.NO_SUCH_UNIT, None, 0
        return (Reason.PAID, unit, SALARY) if isinstance(order, Pay) else (Reason.DISMISSED, unit, 0)
    return _raising(board, position, player, order, leaving, builds, units, first)


def raisings(board: Board, position: Position, player: str) -> tuple[Raise, ...]:
    """The units ``player`` may raise in A.7 as things stand (7.2, M13), as a letter's form lists them
    (`judge.games.machiavelli.views`): each kind of unit in each place of its current home country
    where A.7 would raise it (a fleet onto each coast of a two-coast province), every unit of the
    player kept (one disbanded in a province forbids raising there, 7.2); the first spring's limit
    (M48) is the form's to say."""
    found: list[Raise] = []
    for area in sorted(home_areas(board, position, player)):
        coasts = board.areas[area].coasts or (None,)
        for order in (Raise(UnitKind.ARMY, area), *(Raise(UnitKind.FLEET, area, coast) for coast in coasts),
                      Raise(UnitKind.GARRISON, area)):
            if _raising(board, position, player, order, set(), set(), position.units, False)[0] is Reason.RAISED:
                found.append(order)
    return tuple(found)


def unfit_to_raise(board: Board, order: Raise) -> Reason | None:
    """Why the area of ``order`` can never take the unit it would raise, whoever raises it and
    whenever (7.2, M13, M15): no city for its kind, or an island that holds only a fleet; None if
    it can."""
    area = board.areas.get(order.area)
    if area is None:
        return None
    if area.fleet_only and order.kind is not UnitKind.FLEET:
        return Reason.FLEETS_ONLY
    city = area.city
    if (city is None or (order.kind is UnitKind.GARRISON and not city.fortified)
            or (order.kind is UnitKind.FLEET and not city.port)):
        return Reason.NO_CITY_FOR_IT
    return None


def _raising(board: Board, position: Position, player: str, order: Raise, leaving: set[str], builds: set[str],
             units: Mapping[Place, Unit], first: bool) -> tuple[Reason, Unit | None, int]:
    """A new unit checked (7.2, M13, M48)."""
    area = board.areas.get(order.area)
    if first and len(builds) >= board.first_builds:
        return Reason.FIRST_SPRING_LIMIT, None, 0
    if area is None or order.area not in home_areas(board, position, player):
        return Reason.NOT_HOME, None, 0
    if order.area in position.rebellions:
        return Reason.REBELLING, None, 0
    if position.controller(order.area) != player:
        return Reason.NOT_CONTROLLED, None, 0
    if (unfit := unfit_to_raise(board, order)) is not None:
        return unfit, None, 0
    garrison = units.get(Place(order.area, city=True))
    if garrison is not None and garrison.owner != player:
        return Reason.CITY_HELD, None, 0
    if order.area in builds:
        return Reason.ONE_PER_PROVINCE, None, 0
    if order.area in leaving:
        return Reason.DISBANDED_HERE, None, 0
    coast = order.coast
    if order.kind is UnitKind.FLEET and area.coasts and coast not in area.coasts:
        return (Reason.COAST_UNCLEAR if coast is None else Reason.NO_SUCH_COAST), None, 0
    unit = Unit(order.kind, player, order.area, coast if order.kind is UnitKind.FLEET and area.coasts else None)
    occupied = unit.place in units or (area.single_unit and (Place(order.area) in units or garrison is not None))
    return (Reason.PLACE_TAKEN, None, 0) if occupied else (Reason.RAISED, unit, SALARY)
