"""An investor's Exchange sheet as values (section 2 of the rulings), and its check against the game.

The mail edge turns text into these values; the core checks them (:func:`check`) and acts on
them.  A sheet (:class:`Sheet`) is its author's own lines, then a block (:class:`Block`) per
``FOR X``, which only X's CEO may write (2.1, E21).  The lines (2.2):

- the investor's own, in the Exchange phase: :class:`Priority`, :class:`Bid`, :class:`Sell`,
  :class:`SellTo`, :class:`BuyFrom`, :class:`Give`, :class:`Approve`, :class:`Elect`,
  :class:`Pass`;
- a corporation's, in its block, in the Exchange phase: :class:`Dividend`, :class:`Sell` (an ask
  from the pool), :class:`Issue`, :class:`Bid` (a buy-back); in the Spring movement phase:
  :class:`Worth`;
- :class:`Ledger`, at any time, by a CEO, inside or outside a block.

Offers (rule 3) are Payola's :class:`judge.payola.offers.OfferSheet`, read by Payola's own
reader, and an acceptance list is Payola's, set with
:func:`judge.games.exchange.core.accounts.set_acceptance` when it comes (rule 4.3): neither is
a line here.  ``TRANSFER`` acts when it comes too (E5, :func:`~judge.games.exchange.core.accounts.transfer`).

Quantities (E13) are a :class:`Quantity`: a number, ``ALL`` or ``ALL BUT k``, each meaning what
E13 says for its line (see :meth:`Quantity.of`); for a bid, ``ALL`` is as many shares as can be
matched and paid for, and ``ALL BUT k`` all those shares but k, counted when the bid's turn
comes (:mod:`~.market`).  Paired deals and approvals name plain numbers (their two lines must agree exactly).
``ELECT X ME`` is :class:`Elect` with :data:`ME`; ``ELECT X NONE`` with ``None``.

Ruling 8 and E29: a sheet with any bad line is refused whole, with every problem; the last valid
sheet stands.  A later valid sheet replaces the one standing part by part (2.1:
:func:`standing`).  What the state can still change before the sheet is acted on (holdings
before the private deals, balances) is not checked here: the phase answers it line by line.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from judge.engine.position import Season
from judge.games.exchange.core.income import standard_income
from judge.games.exchange.core.phases import Step, step
from judge.games.exchange.core.state import ExchangeState

ME = "ME"
"""``ELECT X ME``: the sheet's author (E14)."""


@dataclass(frozen=True, slots=True)
class Quantity:
    """A number of shares or AgP (E13): ``count`` of them, or, with ``count`` None, all (``but`` 0)
    or all but ``but``."""

    count: int | None = None
    but: int = 0

    def of(self, possible: int) -> int:
        """How many, out of ``possible``: a plain number larger than what is possible is reduced to it."""
        if self.count is not None:
            return max(0, min(self.count, possible))
        return max(0, possible - self.but)

    def __str__(self) -> str:
        if self.count is not None:
            return str(self.count)
        return f"ALL BUT {self.but}" if self.but else "ALL"


ALL = Quantity()


def exactly(count: int) -> Quantity:
    return Quantity(count)


def all_but(but: int) -> Quantity:
    return Quantity(None, but)


@dataclass(frozen=True, slots=True)
class Priority:
    """``PRIORITY n``: AgP spent on the investor order (E30)."""

    spend: Quantity


@dataclass(frozen=True, slots=True)
class Bid:
    """``BID n X AT p`` (E8), or in X's block ``BID n AT p``, a buy-back (E12)."""

    shares: Quantity
    corporation: str
    price: int


@dataclass(frozen=True, slots=True)
class Sell:
    """``SELL n X AT p``, an ask (E8), or in X's block ``SELL n AT p``, an ask from the pool (E9)."""

    shares: Quantity
    corporation: str
    price: int


@dataclass(frozen=True, slots=True)
class SellTo:
    """``SELL n X TO name FOR a``: one half of a paired trade (E10)."""

    shares: int
    corporation: str
    buyer: str
    amount: int


@dataclass(frozen=True, slots=True)
class BuyFrom:
    """``BUY n X FROM name FOR a``: the other half of a paired trade (E10)."""

    shares: int
    corporation: str
    seller: str
    amount: int


@dataclass(frozen=True, slots=True)
class Give:
    """``GIVE n X TO name``: a gift of shares (E10)."""

    shares: Quantity
    corporation: str
    receiver: str


@dataclass(frozen=True, slots=True)
class Approve:
    """``APPROVE X m``: approval of an issue of up to m shares of X this phase (E11)."""

    corporation: str
    shares: int


@dataclass(frozen=True, slots=True)
class Elect:
    """``ELECT X name`` / ``ELECT X ME`` / ``ELECT X NONE`` (``candidate`` None): a ballot (E14)."""

    corporation: str
    candidate: str | None


@dataclass(frozen=True, slots=True)
class Worth:
    """``WORTH c w c w …`` in a corporation's block, in Spring: its centers' worths (E22)."""

    worths: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class Dividend:
    """``DIVIDEND k`` in a corporation's block: k AgP a share (E23)."""

    per_share: int


@dataclass(frozen=True, slots=True)
class Issue:
    """``ISSUE n AT p`` in a corporation's block: new shares, asked at p (E11)."""

    shares: int
    price: int


@dataclass(frozen=True, slots=True)
class Ledger:
    """``LEDGER X``: a CEO asks for the corporation's records (E24)."""

    corporation: str


@dataclass(frozen=True, slots=True)
class Pass:
    """``PASS``: nothing this phase, but a sheet all the same (E29)."""


Line = Priority | Bid | Sell | SellTo | BuyFrom | Give | Approve | Elect | Worth | Dividend | Issue | Ledger | Pass


@dataclass(frozen=True, slots=True)
class Block:
    """The lines of a ``FOR X`` block."""

    corporation: str
    lines: tuple[Line, ...] = ()


@dataclass(frozen=True, slots=True)
class Sheet:
    """An investor's sheet: their own lines, then the blocks they write as CEO."""

    author: str
    lines: tuple[Line, ...] = ()
    blocks: tuple[Block, ...] = ()

    def block(self, corporation: str) -> Block | None:
        return next((b for b in self.blocks if b.corporation == corporation), None)


def standing(earlier: Sheet | None, later: Sheet) -> Sheet:
    """2.1: a later valid sheet replaces the one standing part by part: the own lines if it has any,
    and each block it has; what it leaves out stands."""
    if earlier is None:
        return later
    blocks = {b.corporation: b for b in earlier.blocks} | {b.corporation: b for b in later.blocks}
    return Sheet(later.author, later.lines or earlier.lines, tuple(blocks.values()))


class Refusal(Enum):
    """Why a line (or a whole block or sheet) is refused: one reason per rule broken."""

    NOT_AN_INVESTOR = "the sender is not an investor in this game"
    NOT_THE_CEO = "only the corporation's CEO may write for it (2.1, E21, E24)"
    NO_SUCH_CORPORATION = "there is no such corporation"
    LIQUIDATED = "the corporation has been liquidated (E31)"
    NO_SUCH_INVESTOR = "there is no such investor in this game (E1)"
    NOT_NOW = "not in this phase (2.2, X.8.2)"
    FOR_A_CORPORATION = "a corporation's line: it belongs in the corporation's FOR block (2.2)"
    FOR_AN_INVESTOR = "an investor's own line: it belongs before any FOR (2.2)"
    ANOTHER_CORPORATION = "a corporation trades only its own shares, never another's (E12)"
    PRICE_BELOW_ONE = "a price is at least 1 AgP (E8)"
    NO_SHARES = "a number of shares is at least 1 (E8, E10, E11)"
    NEGATIVE = "amounts are whole and never negative (X.2.1)"
    WITH_ONESELF = "a deal or gift is with another investor (E10)"
    TWICE = "said twice in one part of the sheet"
    DIVIDEND_ABOVE_LIMIT = "a dividend is at most floor(treasury / issued shares) AgP a share (E23)"
    NOTHING_OUTSTANDING = "a corporation with no outstanding shares cannot issue (E11)"
    WORTH_MISSING = "the worths must name every center the corporation owns (E22)"
    WORTH_NOT_OWNED = "the worths name a center the corporation does not own (E22)"
    WORTH_TWICE = "the worths name a center twice (E22)"
    WORTH_TOTAL = "the worths must add up to exactly I(n) for the n centers owned (E22)"
    WORTH_ZEROSUM = "under ZEROSUM no center pays income, so there is no worth to set (6.7)"


class Problem(NamedTuple):
    """A refused line: why, the block it is in (None: the author's own lines), and its place there,
    counted from 0 (None: the block, or the whole sheet)."""

    reason: Refusal
    corporation: str | None = None
    place: int | None = None


_OWN_EXCHANGE = (Priority, Bid, Sell, SellTo, BuyFrom, Give, Approve, Elect, Pass)
_BLOCK_EXCHANGE = (Dividend, Sell, Issue, Bid)
_ONCE = (Priority, Dividend, Issue, Worth)  # lines a part may hold only once


def check(sheet: Sheet, state: ExchangeState) -> list[Problem]:
    """Every problem of ``sheet`` in the game's next step; the sheet is valid if there is none."""
    if sheet.author not in state.order:
        return [Problem(Refusal.NOT_AN_INVESTOR)]
    problems = [Problem(reason, None, i) for i, reason in _part(sheet.lines, None, sheet.author, state)]
    seen: set[str] = set()
    for block in sheet.blocks:
        corporation = block.corporation
        reason = _corporation(state, corporation)
        if reason is None and state.ceos.get(corporation) != sheet.author:
            reason = Refusal.NOT_THE_CEO
        if reason is None and corporation in seen:
            reason = Refusal.TWICE
        seen.add(corporation)
        if reason is not None:
            problems.append(Problem(reason, corporation))
            continue
        problems += [Problem(r, corporation, i) for i, r in _part(block.lines, corporation, sheet.author, state)]
    return problems


def _part(lines: tuple[Line, ...], block: str | None, author: str, state: ExchangeState) -> list[tuple[int, Refusal]]:
    """The problems of the lines of one part (``block`` None: the author's own)."""
    found: list[tuple[int, Refusal]] = []
    once: set[type] = set()
    for i, line in enumerate(lines):
        if isinstance(line, _ONCE):
            if type(line) in once:
                found.append((i, Refusal.TWICE))
                continue
            once.add(type(line))
        found += [(i, reason) for reason in _line(line, block, author, state)]
    return found


def _line(line: Line, block: str | None, author: str, state: ExchangeState) -> list[Refusal]:
    """The problems of one line, in its part."""
    if isinstance(line, Ledger):
        return _ledger(line, author, state)
    now = step(state)
    if isinstance(line, Worth):
        if block is None:
            return [Refusal.FOR_A_CORPORATION]
        if now is not Step.MOVEMENT or state.position.phase.season is not Season.SPRING:
            return [Refusal.NOT_NOW]
        return worth_problems(line, block, state)
    if now is not Step.EXCHANGE:
        return [Refusal.NOT_NOW]
    if block is None and not isinstance(line, _OWN_EXCHANGE):
        return [Refusal.FOR_A_CORPORATION]
    if block is not None and not isinstance(line, _BLOCK_EXCHANGE):
        return [Refusal.FOR_AN_INVESTOR]
    if isinstance(line, Pass):
        return []
    if isinstance(line, Priority):
        return _quantity(line.spend, 0)
    if isinstance(line, Dividend):
        return _dividend(line, block or "", state)
    if isinstance(line, Issue):
        reasons = _shares(line.shares) + _price(line.price)
        if not state.register.outstanding(block or ""):
            reasons.append(Refusal.NOTHING_OUTSTANDING)
        return reasons
    return _share_line(line, block, author, state)


def _ledger(line: Ledger, author: str, state: ExchangeState) -> list[Refusal]:
    """A ``LEDGER`` line's problems: only a standing corporation's CEO may ask for its ledger."""
    reason = _corporation(state, line.corporation)
    if reason is None and state.ceos.get(line.corporation) != author:
        reason = Refusal.NOT_THE_CEO
    return [] if reason is None else [reason]


def _share_line(line: Bid | Sell | SellTo | BuyFrom | Give | Approve | Elect, block: str | None, author: str,
                state: ExchangeState) -> list[Refusal]:
    """The problems of an Exchange line naming a corporation: the corporation stands, and in a
    block it is the block's own (E12); then the line's own quantities, prices and parties."""
    reasons = []
    corporation_problem = _corporation(state, line.corporation)
    if corporation_problem is not None:
        reasons.append(corporation_problem)
    elif block is not None and line.corporation != block:
        reasons.append(Refusal.ANOTHER_CORPORATION)
    if isinstance(line, Bid | Sell):
        return reasons + _quantity(line.shares, 1) + _price(line.price)
    if isinstance(line, Approve):
        return reasons + _shares(line.shares)
    if isinstance(line, Elect):
        if line.candidate not in (None, ME) and line.candidate not in state.order:
            reasons.append(Refusal.NO_SUCH_INVESTOR)
        return reasons
    if isinstance(line, Give):
        return reasons + _quantity(line.shares, 1) + _other(line.receiver, author, state)
    other = line.buyer if isinstance(line, SellTo) else line.seller
    reasons += _shares(line.shares) + _other(other, author, state)
    if line.amount < 0:
        reasons.append(Refusal.NEGATIVE)
    return reasons


def _corporation(state: ExchangeState, corporation: str) -> Refusal | None:
    if corporation not in state.corporations:
        return Refusal.NO_SUCH_CORPORATION
    if corporation in state.liquidated:
        return Refusal.LIQUIDATED
    return None


def _quantity(quantity: Quantity, least: int) -> list[Refusal]:
    if quantity.but < 0 or (quantity.count is not None and quantity.count < 0):
        return [Refusal.NEGATIVE]
    if quantity.count is not None and quantity.count < least:
        return [Refusal.NO_SHARES]
    return []


def _shares(count: int) -> list[Refusal]:
    return [Refusal.NO_SHARES] if count < 1 else []


def _price(price: int) -> list[Refusal]:
    return [Refusal.PRICE_BELOW_ONE] if price < 1 else []


def _other(name: str, author: str, state: ExchangeState) -> list[Refusal]:
    if name == author:
        return [Refusal.WITH_ONESELF]
    return [] if name in state.order else [Refusal.NO_SUCH_INVESTOR]


def dividend_limit(state: ExchangeState, corporation: str) -> int:
    """E23: the largest dividend a share, floor(treasury / issued shares)."""
    issued = state.register.issued.get(corporation, 0)
    return state.treasuries.get(corporation, 0) // issued if issued else 0


def _dividend(line: Dividend, corporation: str, state: ExchangeState) -> list[Refusal]:
    if line.per_share < 0:
        return [Refusal.NEGATIVE]
    return [Refusal.DIVIDEND_ABOVE_LIMIT] if line.per_share > dividend_limit(state, corporation) else []


def worth_problems(line: Worth, corporation: str, state: ExchangeState) -> list[Refusal]:
    """E22: what is wrong with a worth list for ``corporation`` in the Spring about to be played:
    it must name every center owned when the Spring opens, each once, with whole worths >= 0
    adding up to I(n).  Under ``ZEROSUM`` there is no income for a worth to be (6.7), so none is set."""
    if state.options.payola.zerosum:
        return [Refusal.WORTH_ZEROSUM]
    owned = set(state.position.centers_of(corporation))
    named = [center for center, _ in line.worths]
    reasons = []
    if len(set(named)) != len(named):
        reasons.append(Refusal.WORTH_TWICE)
    if not set(named) <= owned:
        reasons.append(Refusal.WORTH_NOT_OWNED)
    if owned - set(named):
        reasons.append(Refusal.WORTH_MISSING)
    if any(worth < 0 for _, worth in line.worths):
        reasons.append(Refusal.NEGATIVE)
    total = standard_income(len(owned), state.game_map.victory_centers, state.options.payola)
    if sum(worth for _, worth in line.worths) != total:
        reasons.append(Refusal.WORTH_TOTAL)
    return reasons
