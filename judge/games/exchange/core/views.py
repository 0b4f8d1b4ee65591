"""What each reader of an Exchange game may see, and when (X.11, E36-E41): one pure function per
reader and moment, each returning a value whose fields are all that reader learns then.  The
mail edge only renders them.

- :func:`public_exchange` (E36, E19): everyone, after an Exchange phase: the investor order,
  each corporation's CEO for the year (or leaderless), its issued, outstanding and pool shares,
  and whether it is eliminated or liquidated.
- :func:`public_board` (E36): everyone, after a phase on the board: the orders issued and their
  results, the units and center ownership (as in Payola), and the same corporate facts.
- :func:`exchange_statement` (E39): one investor, after an Exchange phase: every change to their
  purse (liquidation and dividend payouts to them, their priority, deals and market fills),
  their balance and holdings, and the outcome of each line they wrote.  A fill never names the
  other side (the pool or "an investor"): E40 keeps other investors' bids and asks secret.
- :func:`offers_statement` (E39, rule 5.7 items 3-5): one investor, after a movement phase: their
  accepted private offers, what they spent and their new balance.
- :func:`annual_report` (E37): a corporation's stockholders after the auction, who are
  :func:`report_readers`: its treasury, its stockholders' names (alphabetical, no counts), its
  dividend a share or the withheld notice, and its election's tally (votes per candidate, never
  who voted how) and winner.
- :func:`ceo_view` (E38, E24): a corporation's CEO, and only them: its treasury, its worth list
  for the year and its whole ledger (income per center, pool sales and buy-backs with buyer and
  price, dividends, bribes paid, donations); :func:`corporate_statement`, its rule 5.7 statement
  after a movement phase.

E40: nothing else is shown before the end — no other investor's balance, holdings, bids, asks,
deals, ballots or priority; worths and ledgers only to the CEO; treasuries only to the CEO and,
in the annual report, to the stockholders.  E41 (everything published at the end) is every
record and sheet of the game, which the host keeps and publishes whole.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import NamedTuple

from judge.engine.legal import adjustment_count, build_sites
from judge.engine.orders import PhaseKind
from judge.engine.position import Position
from judge.engine.results import OrderResult
from judge.games.exchange.core.record import Action, ExchangeRecord, Outcome, Reason
from judge.games.exchange.core.sheet import Bid, BuyFrom, Priority, Sell, SellTo
from judge.games.exchange.core.state import ExchangeState, LedgerLine
from judge.games.exchange.core.year import MovementRecord, OrdersRecord
from judge.language import gettext as _
from judge.payola.determination import Accepted, Statement


class ViewRefused(ValueError):
    """A view asked for by a reader who may not see it."""


class CorporationFacts(NamedTuple):
    """What everyone knows of a corporation (E36)."""

    corporation: str
    ceo: str | None
    issued: int
    outstanding: int
    pool: int
    eliminated: bool
    liquidated: bool


def corporation_facts(state: ExchangeState) -> tuple[CorporationFacts, ...]:
    """E36: every corporation's public facts, in the map's order."""
    register = state.register
    return tuple(
        CorporationFacts(c, state.ceos.get(c), register.issued.get(c, 0), register.outstanding(c), register.pool(c),
                         c in state.eliminated, c in state.liquidated)
        for c in state.corporations
    )


class PublicExchange(NamedTuple):
    """E36, E19: what everyone learns after an Exchange phase."""

    phase: str
    order: tuple[str, ...]
    corporations: tuple[CorporationFacts, ...]


def public_exchange(state: ExchangeState, record: ExchangeRecord) -> PublicExchange:
    """For every investor and observer, after the Exchange phase of ``record`` (``state``: after it)."""
    return PublicExchange(record.phase, state.order, corporation_facts(state))


class Adjustment(NamedTuple):
    """What a corporation is due in an adjustment phase, as Payola's board says it: its centers
    and units, the builds (positive) or removals (negative) it is due, and the centers where it
    may build that no unit stands in (its home centers it owns; any it owns on Void)."""

    corporation: str
    centers: int
    units: int
    due: int
    free_homes: tuple[str, ...]


class PublicBoard(NamedTuple):
    """E36: what everyone learns after a phase on the board (and, before an adjustment phase, what
    each corporation is due in it)."""

    phase: str
    results: tuple[OrderResult, ...]
    units: tuple[tuple[str, str], ...]
    centers: tuple[tuple[str, str], ...]
    corporations: tuple[CorporationFacts, ...]
    adjustments: tuple[Adjustment, ...] = ()


def adjustments(position: Position) -> tuple[Adjustment, ...]:
    """Each corporation's builds or removals due in the adjustment phase ``position`` opens (none
    in another phase), in the map's order; those due nothing left out."""
    if position.phase.kind is not PhaseKind.ADJUSTMENT:
        return ()
    found = []
    for corporation in position.game_map.powers:
        due = adjustment_count(position, corporation)
        if due:
            free = tuple(c for c in build_sites(position, corporation) if c not in position.units)
            found.append(Adjustment(corporation, len(position.centers_of(corporation)),
                                    len(position.units_of(corporation)), due, free))
    return tuple(found)


def public_board(state: ExchangeState, record: MovementRecord | OrdersRecord) -> PublicBoard:
    """The orders issued and their results, then each unit (unit, corporation) and center (center,
    owner), as in Payola; ``state``: after the phase."""
    position = state.position
    units = tuple(sorted((str(placed.unit), placed.power) for placed in position.units.values()))
    return PublicBoard(record.phase, record.result.results, units, tuple(sorted(position.centers.items())),
                       corporation_facts(state), adjustments(position))


class ChangeKind(Enum):
    """Why an investor's purse changed in an Exchange phase (E39)."""

    LIQUIDATION = "liquidation payout (E31)"
    DIVIDEND = "dividend (E23)"
    PRIORITY = "priority (E30)"
    BOUGHT_PRIVATELY = "shares bought in a private deal (E10)"
    SOLD_PRIVATELY = "shares sold in a private deal (E10)"
    BOUGHT = "shares bought in the auction (E8)"
    SOLD = "shares sold in the auction (E8)"


class Change(NamedTuple):
    """One change to an investor's purse: signed ``amount``, for ``shares`` of ``corporation``."""

    kind: ChangeKind
    amount: int
    corporation: str = ""
    shares: int = 0


class ExchangeStatement(NamedTuple):
    """E39: one investor's own statement after an Exchange phase."""

    investor: str
    phase: str
    before: int
    changes: tuple[Change, ...]
    balance: int
    holdings: tuple[tuple[str, int], ...]
    lines: tuple[Action, ...]


def exchange_statement(state: ExchangeState, record: ExchangeRecord, investor: str) -> ExchangeStatement:
    """For ``investor`` alone, after the Exchange phase of ``record`` (``state``: after it)."""
    if investor not in state.order:
        raise ViewRefused(_("{investor} is not an investor in this game", investor=investor))
    changes = [Change(ChangeKind.LIQUIDATION, amount, liquidation.corporation)
               for liquidation in record.liquidations for who, amount in liquidation.payouts if who == investor]
    changes += [Change(ChangeKind.DIVIDEND, amount, dividend.corporation)
                for dividend in record.dividends for who, amount in dividend.payouts if who == investor]
    mine = record.of(investor)
    for action in mine:
        change = _change(action)
        if change is not None:
            changes.append(change)
    balance = state.purses[investor]
    holdings = tuple(sorted(state.register.portfolio(investor).items()))
    before = balance - sum(c.amount for c in changes)
    return ExchangeStatement(investor, record.phase, before, tuple(changes), balance, holdings, mine)


def _change(action: Action) -> Change | None:
    """The change an investor's own line made to their purse, if any."""
    line = action.line
    if action.corporation is not None or action.outcome in (Outcome.FAILED, Outcome.VOID):
        return None  # a block's lines move the corporation's money, not the CEO's
    if isinstance(line, Bid) and not action.shares:
        return None  # ALL BUT k that left nothing to buy (E13): done, and nothing moved
    if isinstance(line, Priority):
        return Change(ChangeKind.PRIORITY, -action.amount) if action.amount else None
    if isinstance(line, SellTo):
        return Change(ChangeKind.SOLD_PRIVATELY, action.amount, line.corporation, action.shares)
    if isinstance(line, BuyFrom):
        return Change(ChangeKind.BOUGHT_PRIVATELY, -action.amount, line.corporation, action.shares)
    if isinstance(line, Bid):
        return Change(ChangeKind.BOUGHT, -action.amount, line.corporation, action.shares)
    if isinstance(line, Sell):
        return Change(ChangeKind.SOLD, action.amount, line.corporation, action.shares)
    return None


class OffersStatement(NamedTuple):
    """E39 with rule 5.7 items 3-5: an investor's accepted private offers, spending and balance."""

    investor: str
    phase: str
    accepted: tuple[Accepted, ...]
    spent: int
    balance: int


def offers_statement(record: MovementRecord, investor: str) -> OffersStatement:
    """For ``investor`` alone, after the movement phase of ``record``."""
    statement = record.determination.statements.get(investor)
    if statement is None:
        raise ViewRefused(_("{investor} is not an investor in this game", investor=investor))
    return OffersStatement(investor, record.phase, statement.accepted, statement.spent, statement.new_balance)


class AnnualReport(NamedTuple):
    """E37: a corporation's report to its stockholders at step g, with its dividend and election."""

    corporation: str
    phase: str
    treasury: int
    stockholders: tuple[str, ...]
    dividend: int
    withheld: Reason | None
    tally: tuple[tuple[str, int], ...]
    ceo: str | None


def report_readers(record: ExchangeRecord, corporation: str) -> tuple[str, ...]:
    """Who receives ``corporation``'s annual report: its stockholders after the auction (X.8.3 g)."""
    return next((r.stockholders for r in record.reports if r.corporation == corporation), ())


def annual_report(record: ExchangeRecord, corporation: str, reader: str) -> AnnualReport:
    """For a stockholder of ``corporation``, after the Exchange phase of ``record``."""
    if reader not in report_readers(record, corporation):
        raise ViewRefused(_("{investor} holds no share of {corporation}: the annual report is for its stockholders",
                            investor=reader, corporation=corporation))
    report = next(r for r in record.reports if r.corporation == corporation)
    dividend = next(d for d in record.dividends if d.corporation == corporation)
    election = next(e for e in record.elections if e.corporation == corporation)
    return AnnualReport(corporation, record.phase, report.treasury, report.stockholders, dividend.per_share,
                        None if dividend.per_share else dividend.reason, election.tally, election.winner)


class CeoView(NamedTuple):
    """E38, E24: a corporation's records, for its CEO: treasury, the year's worth list, the ledger."""

    corporation: str
    treasury: int
    worths: Mapping[str, int]
    ledger: tuple[LedgerLine, ...]


def ceo_view(state: ExchangeState, corporation: str, reader: str) -> CeoView:
    """For ``corporation``'s CEO only (on taking office, on ``LEDGER X``, with each statement)."""
    if state.ceos.get(corporation) != reader:
        raise ViewRefused(_("{investor} is not {corporation}'s CEO: its worths and ledger are for its CEO (E38, E40)",
                            investor=reader, corporation=corporation))
    return CeoView(corporation, state.treasuries[corporation], state.worths.get(corporation, {}),
                   state.ledger(corporation))


def corporate_statement(state: ExchangeState, record: MovementRecord, corporation: str, reader: str) -> Statement:
    """E38: a corporation's rule 5.7 statement after a movement phase, for its CEO only."""
    if state.ceos.get(corporation) != reader:
        raise ViewRefused(_("{investor} is not {corporation}'s CEO: its statement is for its CEO (E38)",
                            investor=reader, corporation=corporation))
    return record.determination.statements[corporation]
