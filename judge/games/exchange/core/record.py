"""What an Exchange phase did: each sheet line's outcome and reason, and each step's result.

A phase's :class:`ExchangeRecord` is complete: the replies to the sheets, the annual reports,
the election results, every investor's statement and the corporations' ledgers are all read
from it (and from the state after it) by :mod:`judge.games.exchange.core.views`, which alone
decides who may see what.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from judge.games.exchange.core.sheet import Line
from judge.games.exchange.core.state import LedgerLine


class Outcome(Enum):
    """What became of a line: done (in full, or as far as E13 reduces it), partly, not at all, or
    void (E31)."""

    DONE = "done"
    PARTLY = "partly done"
    FAILED = "failed"
    VOID = "void"


class Reason(Enum):
    """Why a line or a step came out as it did, one reason per rule."""

    DONE = "done"
    REDUCED = "reduced to what was possible (E13)"
    LIQUIDATED = "the corporation was liquidated at the start of this phase (E31)"
    # dividends (E23)
    PAID = "paid (E23)"
    WITHHELD = "no dividend was declared: withheld (E23)"
    LEADERLESS = "a leaderless corporation pays no dividend: withheld (E2, E23)"
    # private deals (E10)
    UNMATCHED = "no matching line in the other investor's sheet (E10)"
    SHARES_MISSING = "the shares were not there when the deal's turn came (E10)"
    MONEY_MISSING = "the money was not there when the deal's turn came (E10)"
    PARTNER_SHORT = "the other investor's part of the deal was not there when its turn came (E10, E40)"
    # new issues (E11)
    ISSUED = "approved by holders of at least 80% of the outstanding shares (E11)"
    TOO_FEW_APPROVALS = "approving holders held less than 80% of the outstanding shares (E11)"
    NO_ISSUE = "the corporation's CEO proposed no issue this phase (E11)"
    ISSUE_TOO_LARGE = "the issue was larger than the approval (E11)"
    NO_HOLDING = "the investor held no share of the corporation when it counted (E11, E14)"
    # the auction (E8, E9, E12)
    FILLED = "filled (E8)"
    SOLD = "sold (E8)"
    NO_ASK = "no ask at or below the bid's price was left (E8)"
    CANNOT_PAY = "the money could not pay for one more share (E8, E33)"
    POOL_LIMIT = "the pool would have held more than a third of the issued shares (E12)"
    NO_BID = "no bid at or above the ask's price was left (E8)"
    NOT_HELD = "the seller held no more shares to sell (E8)"
    ALL_BUT_NONE = "ALL BUT k: no more than k shares could be bought when the bid's turn came, so none (E13)"
    # elections (X.4)
    COUNTED = "counted"
    ABSTAINED = "abstained (E14)"
    REPLACED = "a later ballot for the same corporation replaced it (E14)"
    NOT_ELIGIBLE = "the candidate held no share at the count: the vote is void (E15)"
    PLURALITY = "the most votes (X.4)"
    OUTGOING_CEO = "a tie, broken by the outgoing CEO's ballot (E17)"
    INVESTOR_ORDER = "a tie, broken by the investor order (E17)"
    NO_VOTES = "no valid vote: leaderless for the year (E18)"


class Action(NamedTuple):
    """One sheet line's outcome: who wrote it, where (``corporation``: its block, None for the
    author's own lines; ``place``: its place there, from 0), what it did, and the shares and AgP
    it moved (bought, sold, given, voted; paid, received, spent)."""

    author: str
    corporation: str | None
    place: int
    line: Line
    outcome: Outcome
    reason: Reason
    shares: int = 0
    amount: int = 0


class Fill(NamedTuple):
    """Shares changing hands in the auction (E8): ``seller`` None is the corporation's pool; a
    buy-back's buyer is the corporation (E12)."""

    corporation: str
    buyer: str
    seller: str | None
    shares: int
    price: int


class Liquidation(NamedTuple):
    """E31: a corporation's treasury paid out at ``per_share`` to its holders, the rest destroyed,
    and its shares cancelled."""

    corporation: str
    treasury: int
    per_share: int
    payouts: tuple[tuple[str, int], ...]
    destroyed: int
    cancelled: int


class DividendPaid(NamedTuple):
    """E23: a corporation's dividend a share (0 if withheld, ``reason`` says why) and what each holder got."""

    corporation: str
    per_share: int
    payouts: tuple[tuple[str, int], ...]
    reason: Reason


class IssueResult(NamedTuple):
    """E11: a proposed issue, the shares of the approving holders against the outstanding ones."""

    corporation: str
    shares: int
    price: int
    approving: int
    outstanding: int
    passed: bool


class Report(NamedTuple):
    """The annual report of step g (E37): the treasury and the stockholders' names, alphabetical."""

    corporation: str
    treasury: int
    stockholders: tuple[str, ...]


class Election(NamedTuple):
    """X.4: a corporation's election; ``tally`` is the votes per candidate (never who voted how),
    most votes first and equal votes in the investor order; ``outgoing`` the sitting CEO, ``reason``
    what decided it."""

    corporation: str
    tally: tuple[tuple[str, int], ...]
    winner: str | None
    reason: Reason
    outgoing: str | None


class Handover(NamedTuple):
    """E24: a CEO taking office, and the corporation's complete ledger sent to them."""

    corporation: str
    ceo: str
    ledger: tuple[LedgerLine, ...]


@dataclass(frozen=True)
class ExchangeRecord:
    """Everything an Exchange phase did, step by step (X.8.3 a-i)."""

    phase: str
    actions: tuple[Action, ...]
    """Every sheet line's outcome, in the order the steps acted on them."""
    liquidations: tuple[Liquidation, ...]
    dividends: tuple[DividendPaid, ...]
    order_before: tuple[str, ...]
    order: tuple[str, ...]
    """The investor order bought at step c (E30)."""
    issues: tuple[IssueResult, ...]
    fills: tuple[Fill, ...]
    reports: tuple[Report, ...]
    elections: tuple[Election, ...]
    handovers: tuple[Handover, ...]
    destroyed: int
    """AgP destroyed in this phase: priority spent and liquidation remainders (E6, E31)."""

    def of(self, investor: str) -> tuple[Action, ...]:
        """The outcomes of ``investor``'s lines."""
        return tuple(a for a in self.actions if a.author == investor)
