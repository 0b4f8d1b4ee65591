"""The Exchange phase (X.8.3): every investor's sealed sheet, executed at once in nine steps.

Theory of operation.  :func:`run_exchange` takes the state and the sheets standing at the
deadline (each valid: :func:`judge.games.exchange.core.sheet.check`) and acts on them in the
fixed order of X.8.3, on one working copy of the books (:class:`~judge.games.exchange.core.books.Books`):

a. *Liquidation* (E31) of each corporation eliminated at the Income step just before: its
   treasury paid to its holders at floor(treasury / outstanding) a share, the rest destroyed,
   its shares cancelled.  Every line naming it this phase is void.
b. *Dividends* (E23) declared by the sitting CEOs: k AgP for each share an investor holds (pool
   shares get nothing).  Leaderless or silent: withheld.
c. *Priority* (E30): each investor's ``PRIORITY`` is taken from their purse after the dividends
   (a number above it is cut to it) and destroyed; the new investor order is a stable sort of
   the old by AgP spent, highest first.  It applies at once, to steps d-h.
d. *Private deals* (E10), investor by investor in the new order, each investor's lines in
   sheet order: a gift gives what the giver holds then, up to the number given (E13); a paired
   trade (the other investor's matching line, the first not used yet) executes at the turn of
   its first line, whole or not at all, and answers both lines: each with what of its own
   writer's was missing, if anything, else that the other's part was not there (E40 keeps each
   investor's holdings and purse from the others).
e. *New issues* (E11): an issue passes if the holders approving it (the CEO by the ``ISSUE``
   itself, others by ``APPROVE X m`` with m at least the issue) hold at least 80% of the
   outstanding shares, counted after the deals; its shares enter the pool, asked at its price.
f. *The auction* (E8, E9, E12, E13): :mod:`judge.games.exchange.core.market`.
g. *Annual reports* (E37): each corporation's treasury and stockholders after the auction.
h. *Elections* (X.4): :mod:`judge.games.exchange.core.elections`, on the holdings after the
   auction, ties broken by the outgoing CEO's ballot, then the new investor order.
i. *Handover* (E24): each newly elected CEO gets the corporation's complete ledger; the new
   fiscal year begins, with no worths set until its Spring (E22).

Every line gets an :class:`~judge.games.exchange.core.record.Action` saying what it did and
why; ``ELECT X ME`` is the author's ballot for themselves.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from judge.games.exchange.core.books import Books
from judge.games.exchange.core.elections import elect
from judge.games.exchange.core.market import AskEntry, BidEntry, auction
from judge.games.exchange.core.phases import Step, phase_name, step
from judge.games.exchange.core.record import (
    Action,
    DividendPaid,
    Election,
    ExchangeRecord,
    Fill,
    Handover,
    IssueResult,
    Liquidation,
    Outcome,
    Reason,
    Report,
)
from judge.games.exchange.core.sheet import (
    ALL,
    ME,
    Approve,
    Bid,
    BuyFrom,
    Dividend,
    Elect,
    Give,
    Issue,
    Ledger,
    Line,
    Pass,
    Priority,
    Sell,
    SellTo,
    Sheet,
    check,
    exactly,
)
from judge.games.exchange.core.state import ExchangeState, LedgerKind, Stage


class SheetRefused(ValueError):
    """A sheet given to the phase that does not pass :func:`check` (the host keeps only valid ones)."""


def run_exchange(state: ExchangeState, sheets: Mapping[str, Sheet]) -> tuple[ExchangeState, ExchangeRecord]:
    """Process the Exchange phase (X.8.3 a-i) with each investor's standing sheet (by author)."""
    if step(state) is not Step.EXCHANGE:
        raise ValueError(f"the game is not at an Exchange phase but at {phase_name(state)}")
    for author, sheet in sheets.items():
        problems = check(sheet, state)
        if sheet.author != author or problems:
            raise SheetRefused(f"{author}'s sheet is not valid: {problems}")
    phase = _Phase(state, sheets)
    liquidations = tuple(phase.liquidate(c) for c in state.live if c in state.eliminated)
    dividends = tuple(phase.dividend(c) for c in phase.live)
    order = phase.priority()
    phase.deals()
    issues = phase.issues()
    phase.auction()
    reports = tuple(Report(c, phase.books.money[c], tuple(sorted(n for n, k in phase.books.held[c].items() if k)))
                    for c in phase.live)
    elections = phase.elections()
    phase.rest()
    books = phase.books
    ceos = {e.corporation: e.winner for e in elections if e.winner is not None}
    ledgers = dict(state.ledgers)
    for corporation, lines in books.ledger.items():
        ledgers[corporation] = (*ledgers.get(corporation, ()), *lines)
    handovers = tuple(Handover(c, ceo, ledgers.get(c, ())) for c, ceo in ceos.items() if state.ceos.get(c) != ceo)
    after = state.evolve(
        stage=Stage.BOARD,
        order=order,
        purses={investor: books.money[investor] for investor in state.order},
        treasuries={c: books.money[c] for c in state.corporations},
        register=books.register(),
        ceos=ceos,
        worths={},
        ledgers=ledgers,
        eliminated=frozenset(),
        liquidated=state.liquidated | state.eliminated,
        destroyed=state.destroyed + books.destroyed,
    )
    record = ExchangeRecord(
        books.phase, tuple(phase.actions), liquidations, dividends, state.order, order, issues, tuple(phase.fills),
        reports, elections, handovers, books.destroyed,
    )
    return after, record


class _Phase:
    """The steps of one Exchange phase, over its books; ``actions`` grows step by step."""

    def __init__(self, state: ExchangeState, sheets: Mapping[str, Sheet]) -> None:
        self.state = state
        self.sheets = sheets
        self.books = Books(state, phase_name(state))
        self.void = state.eliminated  # E31: liquidated at step a
        self.live = tuple(c for c in state.live if c not in self.void)
        self.order = state.order
        self.actions: list[Action] = []
        self.fills: list[Fill] = []
        self.proposed: dict[str, tuple[int, Issue]] = {}  # step e: each corporation's ISSUE and its place
        self.passed: set[str] = set()

    # -- reading the sheets ------------------------------------------------------------

    def own(self, kinds: type | tuple[type, ...]) -> Iterator[tuple[str, int, Line]]:
        """Each investor's own lines of these kinds, investors in the current order, lines in sheet order."""
        for investor in self.order:
            sheet = self.sheets.get(investor)
            if sheet is not None:
                for i, line in enumerate(sheet.lines):
                    if isinstance(line, kinds):
                        yield investor, i, line

    def block(self, corporation: str, kinds: type | tuple[type, ...]) -> Iterator[tuple[str, int, Line]]:
        """The lines of these kinds in ``corporation``'s block, written by its sitting CEO."""
        ceo = self.state.ceos.get(corporation)
        sheet = self.sheets.get(ceo) if ceo is not None else None
        block = sheet.block(corporation) if sheet is not None else None
        if ceo is not None and block is not None:
            for i, line in enumerate(block.lines):
                if isinstance(line, kinds):
                    yield ceo, i, line

    def act(self, author: str, block: str | None, index: int, line: Line, outcome: Outcome, reason: Reason,
            shares: int = 0, amount: int = 0) -> None:
        self.actions.append(Action(author, block, index, line, outcome, reason, shares, amount))

    def voided(self, author: str, index: int, line: Line, block: str | None = None) -> bool:
        """E31: a line naming a corporation liquidated this phase is void (and answered so)."""
        corporation = block if block is not None else getattr(line, "corporation", None)
        if corporation in self.void:
            self.act(author, block, index, line, Outcome.VOID, Reason.LIQUIDATED)
            return True
        return False

    # -- a. liquidation (E31) ----------------------------------------------------------

    def liquidate(self, corporation: str) -> Liquidation:
        for ceo, index, line in self.block(corporation, object):
            self.act(ceo, corporation, index, line, Outcome.VOID, Reason.LIQUIDATED)
        books = self.books
        treasury = books.money[corporation]
        outstanding = books.outstanding(corporation)
        per_share = treasury // outstanding if outstanding else 0
        payouts = tuple((who, per_share * n) for who, n in sorted(books.held[corporation].items()) if n)
        for who, amount in payouts:
            books.pay(corporation, who, amount)
        rest = books.money[corporation]
        books.pay(corporation, None, rest)
        books.note(corporation, LedgerKind.LIQUIDATION, -treasury, shares=outstanding, price=per_share)
        cancelled = books.issued[corporation]
        books.held[corporation] = {}
        books.issued[corporation] = 0
        return Liquidation(corporation, treasury, per_share, payouts, rest, cancelled)

    # -- b. dividends (E23) ------------------------------------------------------------

    def dividend(self, corporation: str) -> DividendPaid:
        if corporation not in self.state.ceos:
            return DividendPaid(corporation, 0, (), Reason.LEADERLESS)
        declared = next(self.block(corporation, Dividend), None)
        if declared is None:
            return DividendPaid(corporation, 0, (), Reason.WITHHELD)
        ceo, index, line = declared
        assert isinstance(line, Dividend)
        books = self.books
        payouts = tuple((who, line.per_share * n) for who, n in sorted(books.held[corporation].items()) if n)
        for who, amount in payouts:
            books.pay(corporation, who, amount)
        total = sum(amount for _, amount in payouts)
        outstanding = books.outstanding(corporation)
        books.note(corporation, LedgerKind.DIVIDEND, -total, shares=outstanding, price=line.per_share)
        self.act(ceo, corporation, index, line, Outcome.DONE, Reason.PAID, outstanding, total)
        return DividendPaid(corporation, line.per_share, payouts, Reason.PAID if line.per_share else Reason.WITHHELD)

    # -- c. priority (E30) -------------------------------------------------------------

    def priority(self) -> tuple[str, ...]:
        spent: dict[str, int] = {}
        for investor, index, line in self.own(Priority):
            assert isinstance(line, Priority)
            balance = self.books.money[investor]
            amount = line.spend.of(balance)
            self.books.pay(investor, None, amount)
            spent[investor] = amount
            reduced = line.spend.count is not None and line.spend.count > balance
            self.act(investor, None, index, line, Outcome.DONE, Reason.REDUCED if reduced else Reason.DONE, 0, amount)
        self.order = tuple(sorted(self.order, key=lambda investor: -spent.get(investor, 0)))  # stable
        return self.order

    # -- d. private deals (E10) --------------------------------------------------------

    def deals(self) -> None:
        used: set[tuple[str, int]] = set()
        for investor, index, line in self.own((Give, SellTo, BuyFrom)):
            if (investor, index) in used or self.voided(investor, index, line):
                continue
            if isinstance(line, Give):
                self.give(investor, index, line)
                continue
            assert isinstance(line, SellTo | BuyFrom)
            partner = self.partner(investor, line, used)
            if partner is None:
                self.act(investor, None, index, line, Outcome.FAILED, Reason.UNMATCHED)
                continue
            other, other_index, other_line = partner
            used.add((other, other_index))
            seller, buyer = (investor, other) if isinstance(line, SellTo) else (other, investor)
            shares, amount = line.shares, line.amount
            books = self.books
            held, paid = books.holding(line.corporation, seller) >= shares, books.money[buyer] >= amount
            if held and paid:
                books.move(line.corporation, seller, buyer, shares)
                books.pay(buyer, seller, amount)
                reasons = {seller: Reason.DONE, buyer: Reason.DONE}
            else:  # each is told what of its own was missing, never what of the other's (E40: holdings, purses)
                shares = amount = 0
                reasons = {seller: Reason.PARTNER_SHORT if held else Reason.SHARES_MISSING,
                           buyer: Reason.PARTNER_SHORT if paid else Reason.MONEY_MISSING}
            outcome = Outcome.DONE if held and paid else Outcome.FAILED
            self.act(investor, None, index, line, outcome, reasons[investor], shares, amount)
            self.act(other, None, other_index, other_line, outcome, reasons[other], shares, amount)

    def give(self, investor: str, index: int, line: Give) -> None:
        held = self.books.holding(line.corporation, investor)
        shares = line.shares.of(held)
        if not shares:
            self.act(investor, None, index, line, Outcome.FAILED, Reason.SHARES_MISSING)
            return
        self.books.move(line.corporation, investor, line.receiver, shares)
        reduced = line.shares.count is not None and line.shares.count > held
        self.act(investor, None, index, line, Outcome.DONE, Reason.REDUCED if reduced else Reason.DONE, shares)

    def partner(self, investor: str, line: SellTo | BuyFrom,
                used: set[tuple[str, int]]) -> tuple[str, int, SellTo | BuyFrom] | None:
        """The other half of a paired trade: the first unused line of the other investor's that agrees."""
        other = line.buyer if isinstance(line, SellTo) else line.seller
        sheet = self.sheets.get(other)
        if sheet is None:
            return None
        for i, candidate in enumerate(sheet.lines):
            if (other, i) in used:
                continue
            if isinstance(line, SellTo) and candidate == BuyFrom(line.shares, line.corporation, investor, line.amount):
                return other, i, candidate
            if isinstance(line, BuyFrom) and candidate == SellTo(line.shares, line.corporation, investor, line.amount):
                return other, i, candidate
        return None

    # -- e. new issues (E11) -----------------------------------------------------------

    def issues(self) -> tuple[IssueResult, ...]:
        approvals: dict[tuple[str, str], tuple[int, Approve]] = {}  # the last APPROVE of each investor for each X
        for investor, index, line in self.own(Approve):
            assert isinstance(line, Approve)
            approvals[investor, line.corporation] = index, line
        results: list[IssueResult] = []
        books = self.books
        for corporation in self.live:
            proposal = next(self.block(corporation, Issue), None)
            if proposal is None:
                continue
            ceo, index, issue = proposal
            assert isinstance(issue, Issue)
            self.proposed[corporation] = index, issue
            outstanding = books.outstanding(corporation)
            approving = sum(n for holder, n in books.held[corporation].items() if holder == ceo or (
                (holder, corporation) in approvals and approvals[holder, corporation][1].shares >= issue.shares))
            passed = outstanding > 0 and 5 * approving >= 4 * outstanding
            if passed:
                self.passed.add(corporation)
                books.issued[corporation] += issue.shares
                books.note(corporation, LedgerKind.ISSUE, 0, shares=issue.shares, price=issue.price)
            self.act(ceo, corporation, index, issue, Outcome.DONE if passed else Outcome.FAILED,
                     Reason.ISSUED if passed else Reason.TOO_FEW_APPROVALS, issue.shares)
            results.append(IssueResult(corporation, issue.shares, issue.price, approving, outstanding, passed))
        for investor, index, line in self.own(Approve):
            assert isinstance(line, Approve)
            if self.voided(investor, index, line):
                continue
            held = books.holding(line.corporation, investor)
            proposed = self.proposed.get(line.corporation)
            if approvals[investor, line.corporation][0] != index:
                outcome, reason = Outcome.FAILED, Reason.REPLACED
            elif proposed is None:
                outcome, reason = Outcome.FAILED, Reason.NO_ISSUE
            elif not held:
                outcome, reason = Outcome.FAILED, Reason.NO_HOLDING
            elif proposed[1].shares > line.shares:
                outcome, reason = Outcome.FAILED, Reason.ISSUE_TOO_LARGE
            else:
                outcome, reason = Outcome.DONE, Reason.COUNTED
            self.act(investor, None, index, line, outcome, reason, held if outcome is Outcome.DONE else 0)
        return tuple(results)

    # -- f. the auction (E8, E9, E12) --------------------------------------------------

    def auction(self) -> None:
        rank = {investor: i for i, investor in enumerate(self.order)}
        bids: list[BidEntry] = []
        asks: list[AskEntry] = []
        for investor, index, line in self.own((Bid, Sell)):
            assert isinstance(line, Bid | Sell)
            if self.voided(investor, index, line):
                continue
            if isinstance(line, Bid):
                bids.append(BidEntry(investor, None, index, line, investor, rank[investor]))
            else:
                asks.append(AskEntry(line.corporation, investor, line.shares, line.price, (1, rank[investor], index),
                                     investor, None, index, line))
        for number, corporation in enumerate(self.live):
            if corporation not in self.state.ceos:  # E9: a leaderless corporation floats its whole pool at 1 AgP
                asks.append(AskEntry(corporation, None, ALL, 1, (0, 0, 0)))
                continue
            for ceo, index, line in self.block(corporation, (Bid, Sell)):
                assert isinstance(line, Bid | Sell)
                if isinstance(line, Bid):  # a buy-back ranks after every investor (E12)
                    bids.append(BidEntry(ceo, corporation, index, line, corporation, len(rank) + number))
                else:
                    asks.append(AskEntry(corporation, None, line.shares, line.price, (0, 0, index),
                                         ceo, corporation, index, line))
            if corporation in self.passed:
                index, issue = self.proposed[corporation]
                asks.append(AskEntry(corporation, None, exactly(issue.shares), issue.price, (0, 0, index),
                                     self.state.ceos[corporation], corporation, index, issue))
        actions, fills = auction(self.books, bids, asks)
        self.actions += actions
        self.fills += fills

    # -- h. elections (X.4) ------------------------------------------------------------

    def elections(self) -> tuple[Election, ...]:
        ballots: dict[str, dict[str, str | None]] = {}
        last: dict[tuple[str, str], int] = {}
        for investor, index, line in self.own(Elect):
            assert isinstance(line, Elect)
            ballots.setdefault(line.corporation, {})[investor] = investor if line.candidate == ME else line.candidate
            last[investor, line.corporation] = index
        books = self.books
        results = tuple(
            elect(c, books.held[c], ballots.get(c, {}), self.state.ceos.get(c), self.order) for c in self.live
        )
        for investor, index, line in self.own(Elect):
            assert isinstance(line, Elect)
            if self.voided(investor, index, line):
                continue
            held = books.holding(line.corporation, investor)
            candidate = investor if line.candidate == ME else line.candidate
            if last[investor, line.corporation] != index:
                outcome, reason = Outcome.FAILED, Reason.REPLACED
            elif not held:
                outcome, reason = Outcome.FAILED, Reason.NO_HOLDING
            elif candidate is None:
                outcome, reason = Outcome.DONE, Reason.ABSTAINED
            elif not books.holding(line.corporation, candidate):
                outcome, reason = Outcome.FAILED, Reason.NOT_ELIGIBLE
            else:
                outcome, reason = Outcome.DONE, Reason.COUNTED
            self.act(investor, None, index, line, outcome, reason, held if reason is Reason.COUNTED else 0)
        return results

    # -- lines that only ask ---------------------------------------------------------

    def rest(self) -> None:
        """``PASS`` and ``LEDGER`` lines: done (the ledger is sent by the host, from the CEO's view)."""
        for investor, index, line in self.own((Pass, Ledger)):
            self.act(investor, None, index, line, Outcome.DONE, Reason.DONE)
        for corporation in self.live:
            for ceo, index, line in self.block(corporation, Ledger):
                self.act(ceo, corporation, index, line, Outcome.DONE, Reason.DONE)
