"""The year on the board around the Exchange phase: movement with Payola's order determination,
retreats and adjustments with the engine, the Income step, elimination and the end (X.5-X.10).

Theory of operation.

1. *Worths* (E22).  At the Spring movement each corporation's centers get the worths its CEO
   sent (checked whole: :func:`judge.games.exchange.core.sheet.worth_problems`), or the
   defaults; they are the centers' worths for the fiscal year, whoever owns them at its end.
2. *Order determination* is Payola's (:func:`judge.payola.determination.determine_orders`), with
   these inputs (:func:`determination_inputs`): every corporation is a Payola power whose sheet
   its CEO writes (X.5.1), paid from its treasury, with its persisting acceptance list; a
   leaderless one is a dummy (E2: default HOLDs, ties to HOLD by rule 4.4 and ruling 4, no
   offers); a corporation with a CEO but no sheet gets rule 3.3's zero HOLDs (E20).  Every
   investor is an offerer owning no power (X.6, E25), paid from their purse, ranked after every
   corporation in every acceptance list in the investor order (E26: the determination's
   ``outsiders``).  Bribes paid go to the bank (E6), or under ``ZEROSUM`` are owed to the
   corporation whose unit took them (6.7, :mod:`judge.games.exchange.core.zerosum`).
3. *Adjudication* is the engine's; retreats and adjustments not ordered, and every one of a
   leaderless corporation, follow civil disorder (E2, E20).
4. *The Income step* (E27) follows the year's last phase (Winter adjustments, or Fall when no
   adjustment is needed): each corporation earns its centers' income (under ``ZEROSUM`` instead
   its units' bribes and the captures' money, 6.7); one that owns no center is eliminated, to be
   liquidated at the next Exchange phase (E28, E31).
5. *The end* (E34): a corporation reaching the victory count ends the game when centers change
   hands; a draw, a concession or the game master ends it with :func:`end_game`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from judge.engine.orders import Order
from judge.engine.phases import PhaseResult, adjudicate
from judge.engine.position import Season
from judge.games.exchange.core.income import CenterIncome, corporate_income, default_worths
from judge.games.exchange.core.phases import Step, phase_name, step
from judge.games.exchange.core.sheet import Worth, worth_problems
from judge.games.exchange.core.state import ExchangeState, LedgerKind, LedgerLine, Stage
from judge.games.exchange.core.zerosum import owed_bribes, year_end
from judge.payola.determination import Determination, PowerInput, determine_orders
from judge.payola.offers import OfferSheet


@dataclass(frozen=True)
class CorporateSheet:
    """What a CEO sends for a corporation in a movement phase: its offer sheet (rules 3 and 5, read
    by Payola's reader with the corporation as the power) and, in Spring, its worths (E22)."""

    offers: OfferSheet = field(default_factory=OfferSheet)
    worth: Worth | None = None


@dataclass(frozen=True)
class MovementSheets:
    """A movement phase's standing sheets: each corporation's, by corporation (only those with a
    CEO), and the investors' private ones (X.6), read with the investor's name as the power."""

    corporations: Mapping[str, CorporateSheet] = field(default_factory=dict)
    investors: Mapping[str, OfferSheet] = field(default_factory=dict)


@dataclass(frozen=True)
class MovementRecord:
    """A movement phase: the worths set (in Spring), the determination (every unit's order and
    each offerer's statement, rule 5.7) and the adjudication."""

    phase: str
    worths: Mapping[str, Mapping[str, int]]
    determination: Determination
    result: PhaseResult
    bribes: int
    """AgP paid in bribes: destroyed (E6), but under ``ZEROSUM`` those owed to corporations."""


@dataclass(frozen=True)
class OrdersRecord:
    """A retreat or adjustment phase: the adjudication."""

    phase: str
    result: PhaseResult


class CorporateIncome(NamedTuple):
    """What one corporation earned at the Income step (E27), center by center, and in all; under
    ``ZEROSUM`` no center pays and ``moves`` are its ledger's lines of 6.7's money instead."""

    corporation: str
    centers: tuple[CenterIncome, ...]
    total: int
    moves: tuple[LedgerLine, ...] = ()


@dataclass(frozen=True)
class IncomeRecord:
    """The Income step: each corporation's income, and those eliminated (E27, E28, E31)."""

    phase: str
    incomes: tuple[CorporateIncome, ...]
    eliminated: tuple[str, ...]


def determination_inputs(state: ExchangeState, sheets: MovementSheets) -> dict[str, PowerInput]:
    """Payola's inputs for a movement phase (see the header, 2): one per corporation, then one per
    investor; the investors are the determination's ``outsiders``, in the investor order."""
    inputs: dict[str, PowerInput] = {}
    for corporation in state.corporations:
        leaderless = corporation not in state.ceos
        sheet = CorporateSheet() if leaderless else sheets.corporations.get(corporation, CorporateSheet())
        inputs[corporation] = PowerInput(state.treasuries[corporation], sheet.offers,
                                         state.acceptance.get(corporation), leaderless)
    for power in state.game_map.powers:  # a power no player takes (Neutral State): a dummy, whose units hold
        if power not in inputs:
            inputs[power] = PowerInput(0, OfferSheet(), None, True)
    for investor in state.order:
        inputs[investor] = PowerInput(state.purses[investor], sheets.investors.get(investor, OfferSheet()))
    return inputs


def run_movement(state: ExchangeState, sheets: MovementSheets, seed: int | str) -> tuple[ExchangeState, MovementRecord]:
    """Process a movement phase: worths (Spring), order determination, payment and adjudication.
    ``seed`` expands the acceptance lists' ``?`` (ruling 7)."""
    if step(state) is not Step.MOVEMENT:
        raise ValueError(f"the game is not at a movement phase but at {phase_name(state)}")
    for corporation in sheets.corporations:
        if corporation not in state.ceos:
            raise ValueError(f"{corporation} has no CEO to write its sheet (E2)")
    for investor in sheets.investors:
        if investor not in state.order:
            raise ValueError(f"{investor} is not an investor in this game")
    phase = phase_name(state)
    position = state.position
    ledgers: dict[str, list[LedgerLine]] = {}
    worths: Mapping[str, Mapping[str, int]] = state.worths
    zerosum = state.options.payola.zerosum
    year_owners = state.year_owners
    if position.phase.season is Season.SPRING:
        worths = {} if zerosum else _worths(state, sheets, phase, ledgers)
        year_owners = {c: o for c, o in position.centers.items() if o in state.live} if zerosum else {}
    determination = determine_orders(
        position, determination_inputs(state, sheets), state.options.payola, seed, outsiders=state.order)
    money = {**state.purses, **state.treasuries}
    bribes = 0
    for offerer, statement in determination.statements.items():
        if offerer not in money:  # a power no player takes: it offers nothing, and has nothing
            continue
        money[offerer] -= statement.spent
        bribes += statement.spent
        if offerer in state.treasuries:
            ledgers.setdefault(offerer, []).extend(
                LedgerLine(phase, LedgerKind.BRIBE, -accepted.paid, order=str(accepted.order))
                for accepted in statement.accepted if accepted.paid)
    owed, destroyed = dict(state.owed), bribes
    if zerosum:
        paid_to: dict[str, int] = {}
        for decision in determination.units.values():
            paid_to[decision.owner] = paid_to.get(decision.owner, 0) + sum(decision.paid.values())
        new, destroyed = owed_bribes(paid_to, state.live)
        owed = {c: owed.get(c, 0) + new.get(c, 0) for c in sorted({*owed, *new})}
    result = adjudicate(position, {p: list(o) for p, o in determination.orders().items()})
    after = _after_board(state, result).evolve(
        purses={i: money[i] for i in state.purses},
        treasuries={c: money[c] for c in state.treasuries},
        worths=worths,
        ledgers=_ledgers(state, ledgers),
        destroyed=state.destroyed + destroyed,
        owed=owed,
        year_owners=year_owners,
    )
    shown = worths if position.phase.season is Season.SPRING else {}
    return after, MovementRecord(phase, shown, determination, result, bribes)


def _worths(state: ExchangeState, sheets: MovementSheets, phase: str,
            ledgers: dict[str, list[LedgerLine]]) -> dict[str, dict[str, int]]:
    """E22: each corporation's worth list for the year, its CEO's or the defaults."""
    worths: dict[str, dict[str, int]] = {}
    victory, options = state.game_map.victory_centers, state.options.payola
    for corporation in state.live:
        sent = sheets.corporations.get(corporation, CorporateSheet()).worth
        if sent is not None:
            problems = worth_problems(sent, corporation, state)
            if problems:
                raise ValueError(f"{corporation}'s worths are refused: {[p.value for p in problems]}")
            mine = dict(sent.worths)
        else:
            mine = default_worths(state.position.centers_of(corporation), victory, options)
        worths[corporation] = mine
        ledgers.setdefault(corporation, []).extend(
            LedgerLine(phase, LedgerKind.WORTH, center=c, price=w) for c, w in sorted(mine.items()))
    return worths


def run_orders(state: ExchangeState, orders: Mapping[str, Sequence[Order]]) -> tuple[ExchangeState, OrdersRecord]:
    """Process a retreat or adjustment phase with the orders each CEO gave (by corporation); every
    unit without an order, and every leaderless corporation's, follows civil disorder (E2, E20)."""
    if step(state) not in (Step.RETREAT, Step.ADJUSTMENT):
        raise ValueError(f"the game is not at a retreat or adjustment phase but at {phase_name(state)}")
    for corporation in orders:
        if corporation not in state.ceos:
            raise ValueError(f"{corporation} has no CEO to order it (E2)")
    result = adjudicate(state.position, orders)
    return _after_board(state, result), OrdersRecord(phase_name(state), result)


def _after_board(state: ExchangeState, result: PhaseResult) -> ExchangeState:
    """The state after a board phase: the game ends with a winner (E34); after the year's last
    phase comes the Income step; otherwise the next board phase."""
    after = result.position
    if result.winner is not None:
        return state.evolve(position=after, stage=Stage.ENDED, result=(result.winner,))
    year_over = after.phase.year > state.position.phase.year
    return state.evolve(position=after, stage=Stage.INCOME if year_over else Stage.BOARD)


def run_income(state: ExchangeState) -> tuple[ExchangeState, IncomeRecord]:
    """The Income step (E27, E28): each live corporation's income from the centers it owns now,
    at the year's worths (under ``ZEROSUM``: :func:`judge.games.exchange.core.zerosum.year_end`);
    a corporation owning none is eliminated (E31)."""
    if step(state) is not Step.INCOME:
        raise ValueError(f"the game is not at an Income step but at {phase_name(state)}")
    phase = phase_name(state)
    if state.options.payola.zerosum:
        return _zerosum_income(state, phase)
    victory, options = state.game_map.victory_centers, state.options.payola
    treasuries = dict(state.treasuries)
    ledgers: dict[str, list[LedgerLine]] = {}
    incomes: list[CorporateIncome] = []
    eliminated: list[str] = []
    priced = state.worth()
    for corporation in state.live:
        owned = state.position.centers_of(corporation)
        if not owned:
            eliminated.append(corporation)
            continue
        centers, total = corporate_income(owned, priced, victory, options)
        treasuries[corporation] += total
        lines = ledgers.setdefault(corporation, [])
        lines += [LedgerLine(phase, LedgerKind.INCOME, c.amount, center=c.center) for c in centers]
        earned = sum(c.amount for c in centers)
        if earned > total:
            lines.append(LedgerLine(phase, LedgerKind.INCOME_CAP, total - earned))
        incomes.append(CorporateIncome(corporation, centers, total))
    minted = sum(i.total for i in incomes)
    after = state.evolve(
        stage=Stage.EXCHANGE, treasuries=treasuries, ledgers=_ledgers(state, ledgers),
        eliminated=frozenset(eliminated), minted=state.minted + minted,
    )
    return after, IncomeRecord(phase, tuple(incomes), tuple(eliminated))


def _zerosum_income(state: ExchangeState, phase: str) -> tuple[ExchangeState, IncomeRecord]:
    """The Income step under ZEROSUM (6.7): the bribes owed, the captures' money, eliminations."""
    treasuries, lines, minted = year_end(state, phase)
    incomes = tuple(CorporateIncome(c, (), treasuries[c] - state.treasuries[c], tuple(lines.get(c, ())))
                    for c in state.live if state.position.centers_of(c) or c in lines)
    eliminated = tuple(c for c in state.live if not state.position.centers_of(c))
    owned = {c for c, owner in state.position.centers.items() if owner in state.live}
    after = state.evolve(
        stage=Stage.EXCHANGE, treasuries=treasuries, ledgers=_ledgers(state, lines), eliminated=frozenset(eliminated),
        minted=state.minted + minted, owed={}, ever_owned=state.ever_owned | owned,
    )
    return after, IncomeRecord(phase, incomes, eliminated)


def end_game(state: ExchangeState, corporations: Sequence[str]) -> ExchangeState:
    """E34: the game ends by a draw of the surviving corporations, a concession to one, or the game
    master (``corporations`` empty: nobody scores)."""
    for corporation in corporations:
        if corporation not in state.live:
            raise ValueError(f"{corporation} is not a corporation in the game")
    return state.evolve(stage=Stage.ENDED, result=tuple(corporations))


def surviving(state: ExchangeState) -> tuple[str, ...]:
    """The corporations that own a center or a unit: those a ``VOTE DRAW`` includes (E34)."""
    position = state.position
    return tuple(c for c in state.live if position.centers_of(c) or position.units_of(c))


def _ledgers(state: ExchangeState, new: Mapping[str, list[LedgerLine]]) -> dict[str, tuple[LedgerLine, ...]]:
    ledgers = dict(state.ledgers)
    for corporation, lines in new.items():
        if lines:
            ledgers[corporation] = (*ledgers.get(corporation, ()), *lines)
    return ledgers
