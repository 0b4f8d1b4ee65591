"""The books of one Exchange phase: a working copy of the accounts and the share register, changed
step by step and frozen back into a state at the end.  Nothing outside the phase sees it.

Accounts are named by investor or corporation (E1 keeps the names apart); money moves only
between accounts or to the bank (destroyed), and shares only between holders and pools, so the
money check and the share count hold by construction; each step writes what it did to a
corporation into its ledger here.
"""

from __future__ import annotations

from judge.games.exchange.core.state import ExchangeState, LedgerKind, LedgerLine, Register


class Books:
    """The phase's accounts (``money``), register (``issued``, ``held``) and new ledger lines."""

    def __init__(self, state: ExchangeState, phase: str) -> None:
        self.phase = phase
        self.money: dict[str, int] = {**state.purses, **state.treasuries}
        self.issued: dict[str, int] = dict(state.register.issued)
        self.held: dict[str, dict[str, int]] = {
            c: dict(state.register.holdings.get(c, {})) for c in state.corporations
        }
        self.destroyed = 0
        self.ledger: dict[str, list[LedgerLine]] = {}

    def copy(self) -> Books:
        """A copy to try a step on without changing these books (E13's ``BID ALL BUT k``)."""
        other = object.__new__(Books)
        other.phase, other.destroyed = self.phase, self.destroyed
        other.money = dict(self.money)
        other.issued = dict(self.issued)
        other.held = {c: dict(held) for c, held in self.held.items()}
        other.ledger = {c: list(lines) for c, lines in self.ledger.items()}
        return other

    def holding(self, corporation: str, investor: str) -> int:
        return self.held[corporation].get(investor, 0)

    def outstanding(self, corporation: str) -> int:
        return sum(self.held[corporation].values())

    def pool(self, corporation: str) -> int:
        return self.issued[corporation] - self.outstanding(corporation)

    def pay(self, payer: str, payee: str | None, amount: int) -> None:
        """Move ``amount`` from ``payer`` to ``payee`` (None: the bank, which destroys it, E6)."""
        assert 0 <= amount <= self.money[payer], (payer, amount)
        self.money[payer] -= amount
        if payee is None:
            self.destroyed += amount
        else:
            self.money[payee] += amount

    def move(self, corporation: str, giver: str | None, taker: str | None, shares: int) -> None:
        """Move shares of ``corporation`` between holders (None: its pool)."""
        held = self.held[corporation]
        if giver is not None:
            assert held.get(giver, 0) >= shares, (corporation, giver, shares)
            held[giver] -= shares
        if taker is not None:
            held[taker] = held.get(taker, 0) + shares

    def note(self, corporation: str, kind: LedgerKind, amount: int = 0, who: str = "", shares: int = 0,
             price: int = 0) -> None:
        """A line of ``corporation``'s ledger, in this phase."""
        line = LedgerLine(self.phase, kind, amount, who=who, shares=shares, price=price)
        self.ledger.setdefault(corporation, []).append(line)

    def register(self) -> Register:
        return Register(self.issued, self.held)
