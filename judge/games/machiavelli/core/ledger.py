"""The treasuries' books: every movement of ducats, and each letter order's outcome.

Money is conserved (checked by the tests at every sub-phase): the treasuries plus what was
spent plus what was destroyed equal the money there was plus the income received.  Each
:class:`Movement` is of one :class:`Flow`, and each flow of one kind:

* *income* enters the game: the tax and trade income of A.2 (5.1, 5.2), forced taxation (A.6);
* *exchange* moves between players and sums to nothing: transfers (A.4, D.1), trades (A.5);
* *spent* leaves for good: salaries and new units (A.7), expenditures (D.2 to D.4);
* *destroyed*: an eliminated player's treasury, removed from the game (4.3).

:class:`Purse` keeps the treasuries while one phase is carried out: it pays an order only in
full (M30), and credits what a player receives from another only when the sub-phase is over,
so that the players' orders within a sub-phase are carried out simultaneously (2: "each phase
simultaneously for all players") while each player's own go in the order written.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum

from judge.games.machiavelli.core.expenditures import LetterOrder
from judge.games.machiavelli.core.results import Reason


class Flow(Enum):
    """What a movement of ducats is, and of which kind (:attr:`kind`)."""

    TAX = "tax"  # A.2, 5.1 and 14
    TRADE = "trade"  # A.2, 5.2
    FORCED_TAX = "forced tax"  # A.6, 5.3
    TRANSFER_OUT = "transfer out"  # A.4, D.1
    TRANSFER_IN = "transfer in"
    SALE = "sale"  # A.5
    PURCHASE = "purchase"
    SALARY = "salary"  # A.7: an old unit kept or a new one raised
    EXPENDITURE = "expenditure"  # D.2 to D.4
    CONFISCATED = "confiscated"  # 4.3: an eliminated player's treasury

    @property
    def kind(self) -> str:
        """``income``, ``exchange``, ``spent`` or ``destroyed``."""
        return _KINDS[self]


_KINDS = {
    Flow.TAX: "income", Flow.TRADE: "income", Flow.FORCED_TAX: "income",
    Flow.TRANSFER_OUT: "exchange", Flow.TRANSFER_IN: "exchange", Flow.SALE: "exchange", Flow.PURCHASE: "exchange",
    Flow.SALARY: "spent", Flow.EXPENDITURE: "spent", Flow.CONFISCATED: "destroyed",
}


@dataclass(frozen=True)
class Movement:
    """One movement of a player's treasury: the signed amount, its flow, the sub-phase (``A.2``,
    ``D.4``, ``end``...) and what it was for: in words, and the letter's order that moved it,
    if one did (a trade's, a forced tax's, a salary's, an expenditure's), for the edges to
    write with its areas' names."""

    player: str
    amount: int
    flow: Flow
    phase: str
    detail: str
    order: LetterOrder | None = None


@dataclass(frozen=True)
class Money:
    """The totals of some movements, by kind."""

    income: int
    spent: int
    destroyed: int

    @classmethod
    def of(cls, movements: Iterable[Movement]) -> Money:
        totals = {"income": 0, "exchange": 0, "spent": 0, "destroyed": 0}
        for movement in movements:
            totals[movement.flow.kind] += movement.amount
        return cls(totals["income"], -totals["spent"], -totals["destroyed"])


@dataclass(frozen=True)
class OrderOutcome:
    """What became of one order of a letter (not an operation order): in which sub-phase, whether
    it did what it asked, the ducats it cost (0: not charged) and why (8.1, M30, M38)."""

    player: str
    phase: str
    order: LetterOrder
    succeeded: bool
    charged: int
    reason: Reason


class Purse:
    """The treasuries while one phase is carried out (see the module docstring).  Internal to a
    call: it starts from a position's treasuries and its movements go into the call's record."""

    def __init__(self, treasuries: Mapping[str, int]) -> None:
        self.treasuries = dict(treasuries)
        self.movements: list[Movement] = []
        self._owed: list[Movement] = []

    def balance(self, player: str) -> int:
        return self.treasuries.get(player, 0)

    def _move(self, movement: Movement) -> None:
        self.treasuries[movement.player] = self.balance(movement.player) + movement.amount
        self.movements.append(movement)

    def receive(self, player: str, amount: int, flow: Flow, phase: str, detail: str,
                order: LetterOrder | None = None) -> None:
        """Income: ducats entering the game (``order``: the letter's order that collected them)."""
        if amount:
            self._move(Movement(player, amount, flow, phase, detail, order))

    def pay(self, player: str, amount: int, flow: Flow, phase: str, detail: str,
            order: LetterOrder | None = None) -> bool:
        """Take ``amount`` from ``player`` if it can be paid in full now (M30); False if not
        (``order``: the letter's order that pays it)."""
        if amount > self.balance(player):
            return False
        if amount:
            self._move(Movement(player, -amount, flow, phase, detail, order))
        return True

    def send(self, payer: str, payee: str, amount: int, flows: tuple[Flow, Flow], phase: str,
             detail: str | tuple[str, str],
             orders: tuple[LetterOrder | None, LetterOrder | None] = (None, None)) -> bool:
        """Move ``amount`` from ``payer`` (now, if it can be paid in full) to ``payee`` (when the
        sub-phase is :meth:`settle`\\ d); ``flows``: the payer's and the payee's; ``detail``: what
        both books say, with "to payee" and "from payer" after it, or each book's own words;
        ``orders``: the payer's and the payee's orders that moved it (a trade's)."""
        paid, received = detail if isinstance(detail, tuple) else (f"{detail} to {payee}", f"{detail} from {payer}")
        if not self.pay(payer, amount, flows[0], phase, paid, orders[0]):
            return False
        self._owed.append(Movement(payee, amount, flows[1], phase, received, orders[1]))
        return True

    def settle(self) -> None:
        """End a sub-phase: credit what players received from each other in it."""
        for movement in self._owed:
            self._move(movement)
        self._owed = []

    def confiscate(self, player: str, phase: str) -> None:
        """Remove an eliminated player's treasury from the game (4.3)."""
        amount = self.treasuries.pop(player, 0)
        if amount:
            self.movements.append(Movement(player, -amount, Flow.CONFISCATED, phase, "eliminated (4.3)"))
