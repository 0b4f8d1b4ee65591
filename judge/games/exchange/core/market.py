"""The sealed auction of step f (E8, E9, E12, E13): pay-as-bid, every bid executed in turn.

Theory of operation.

1. *The book.*  Every bid of the phase, for every corporation, is sorted once: price, highest
   first; then the bidder, investors in the investor order (as bought at step c) and
   corporations' buy-backs after every investor; then the line's place in its sheet.
2. *A bid's turn.*  Each bid in turn takes shares from the asks for its corporation priced at or
   below it: the cheapest first, and at one price the pool first, then investors in the
   investor order, then line order.  A bidder never matches its own ask, and a buy-back only
   investors' asks.  Each step moves k = min(what the bid still wants, what the ask still offers
   and its seller still holds, what the buyer can pay for at its own price) shares (and for a
   buy-back no more than keeps 3 x pool <= issued), and the buyer pays its bid price for each: a
   pool sale pays the corporation, an investor's sale the investor.  The bid stops when filled,
   when no ask is left, when the buyer cannot pay for one more share, or (a buy-back) at the
   third.
3. *What an ask offers* is worked out at each step from what its seller holds then (E13): a
   number less what it sold already, at most the holding; ``ALL`` the holding; ``ALL BUT k``
   the holding less k.  Every pool ask of a corporation (the CEO's ``SELL``, an issue's new
   shares, or a leaderless corporation's whole pool at 1 AgP, E9) sells from its one pool.
4. *What a bid wants* (E13): a number; ``ALL``, as many shares as can be matched and paid for;
   ``ALL BUT k``, all those shares but k: when the bid's turn comes it is tried as ``ALL`` on a
   copy of the books, and then wants what that bought less k (none if that was k or fewer).  The
   shares on offer count, not only the buyer's money: 5 shares in the pool and money for 20 make
   ``ALL BUT 2`` buy 3.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from judge.games.exchange.core.books import Books
from judge.games.exchange.core.record import Action, Fill, Outcome, Reason
from judge.games.exchange.core.sheet import Bid, Issue, Quantity, Sell
from judge.games.exchange.core.state import LedgerKind


@dataclass(frozen=True, slots=True)
class BidEntry:
    """A bid in the book: ``buyer`` is its investor, or for a buy-back the corporation (whose CEO,
    ``author``, wrote it in its block); ``rank`` orders bidders at one price (E8)."""

    author: str
    block: str | None
    index: int
    line: Bid
    buyer: str
    rank: int


@dataclass(slots=True)
class AskEntry:
    """An ask in the book: ``seller`` None is the corporation's pool; ``line`` None is a leaderless
    corporation's pool, offered by the rules (E9), with no line behind it."""

    corporation: str
    seller: str | None
    shares: Quantity
    price: int
    rank: tuple[int, int, int]
    author: str | None = None
    block: str | None = None
    index: int = 0
    line: Sell | Issue | None = None
    sold: int = 0
    proceeds: int = 0

    def offers(self, books: Books) -> int:
        """What the ask still offers and its seller still holds (E8 step 3, E13)."""
        have = books.pool(self.corporation) if self.seller is None else books.holding(self.corporation, self.seller)
        if self.shares.count is not None:
            return max(0, min(self.shares.count - self.sold, have))
        return max(0, have - self.shares.but)


def auction(books: Books, bids: list[BidEntry], asks: list[AskEntry]) -> tuple[list[Action], list[Fill]]:
    """Run the book (see the header): the outcome of every bid and ask line, and the fills."""
    actions: list[Action] = []
    fills: list[Fill] = []
    for bid in sorted(bids, key=lambda b: (-b.line.price, b.rank, b.index)):
        actions.append(_execute(books, bid, asks, fills))
    for ask in asks:
        if ask.line is not None and ask.author is not None:
            actions.append(_ask_outcome(books, ask))
    return actions, fills


def _execute(books: Books, bid: BidEntry, asks: list[AskEntry], fills: list[Fill]) -> Action:
    line = bid.line
    wanted: int | None = line.shares.count  # None: as many as can be matched and paid for (ALL)
    if wanted is None and line.shares.but:  # all but k of what ALL would buy now (E13), tried on copies
        possible, _, _ = _take(books.copy(), bid, [replace(a) for a in asks], None, [])
        wanted = max(0, possible - line.shares.but)
        if not wanted:
            return Action(bid.author, bid.block, bid.index, line, Outcome.DONE, Reason.ALL_BUT_NONE, 0, 0)
    bought, paid, reason = _take(books, bid, asks, wanted, fills)
    if not bought:
        outcome = Outcome.FAILED
    elif wanted is None or bought >= wanted:
        outcome = Outcome.DONE
    else:
        outcome = Outcome.PARTLY
    return Action(bid.author, bid.block, bid.index, line, outcome, reason, bought, paid)


def _take(books: Books, bid: BidEntry, asks: list[AskEntry], wanted: int | None,
          fills: list[Fill]) -> tuple[int, int, Reason]:
    """Run ``bid`` against ``asks`` for ``wanted`` shares (None: as many as can be matched and paid
    for), moving shares and money in ``books``: the shares bought, the AgP paid, and why it stopped."""
    line = bid.line
    corporation, price, buyer = line.corporation, line.price, bid.buyer
    buy_back = buyer == corporation
    bought = paid = 0
    reason = Reason.FILLED if wanted else Reason.CANNOT_PAY
    while wanted is None or bought < wanted:
        open_asks = [a for a in asks if a.corporation == corporation and a.price <= price
                     and a.seller != buyer and not (buy_back and a.seller is None) and a.offers(books)]
        if not open_asks:
            reason = Reason.NO_ASK
            break
        ask = min(open_asks, key=lambda a: (a.price, a.rank))
        limit = ask.offers(books)
        if buy_back:
            room = books.issued[corporation] // 3 - books.pool(corporation)  # 3 x pool <= issued after each share
            if room <= 0:
                reason = Reason.POOL_LIMIT
                break
            limit = min(limit, room)
        affordable = books.money[buyer] // price
        if not affordable:
            reason = Reason.CANNOT_PAY
            break
        shares = min(limit, affordable) if wanted is None else min(limit, affordable, wanted - bought)
        books.pay(buyer, corporation if ask.seller is None else ask.seller, shares * price)
        books.move(corporation, ask.seller, None if buy_back else buyer, shares)
        if ask.seller is None:
            books.note(corporation, LedgerKind.POOL_SALE, shares * price, who=buyer, shares=shares, price=price)
        elif buy_back:
            books.note(corporation, LedgerKind.BUY_BACK, -shares * price, who=ask.seller, shares=shares, price=price)
        fills.append(Fill(corporation, buyer, ask.seller, shares, price))
        ask.sold += shares
        ask.proceeds += shares * price
        bought += shares
        paid += shares * price
    return bought, paid, reason


def _ask_outcome(books: Books, ask: AskEntry) -> Action:
    assert ask.author is not None and ask.line is not None
    if ask.offers(books):
        reason, outcome = Reason.NO_BID, (Outcome.PARTLY if ask.sold else Outcome.FAILED)
    elif not ask.sold:
        reason, outcome = Reason.NOT_HELD, Outcome.FAILED
    elif ask.shares.count is None or ask.sold >= ask.shares.count:
        reason, outcome = Reason.SOLD, Outcome.DONE
    else:
        reason, outcome = Reason.REDUCED, Outcome.DONE
    return Action(ask.author, ask.block, ask.index, ask.line, outcome, reason, ask.sold, ask.proceeds)
