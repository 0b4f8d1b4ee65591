"""What acts at any time, when it comes: transfers (E5), acceptance lists (rule 4.3, X.5.1) and
resignations (E19, E32).

- An investor may ``TRANSFER`` money to another investor, or to a corporation as a donation;
  a corporation never transfers (E5, E21).  Money only moves, so the money check holds.
- A corporation's acceptance list persists across CEOs (X.5.1); only its CEO may change it.
- An investor who resigns forfeits their purse (destroyed, Payola 2.4), their shares go back to
  each corporation's pool (E32: they do not count against E12's limit, which only bars
  buy-backs), and they leave every CEO office at once, the corporation leaderless until the
  next election (E19).  They leave the investor order.
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

from judge.games.exchange.core.phases import phase_name
from judge.games.exchange.core.state import ExchangeState, LedgerKind, LedgerLine, Register, Stage
from judge.payola.acceptance import AcceptanceList


class Refused(Enum):
    """Why a transfer or an acceptance list is refused."""

    NOT_AN_INVESTOR = "only an investor in the game may transfer (E5, E21)"
    NO_SUCH_RECEIVER = "money goes to an investor in the game or to a corporation not liquidated (E5)"
    TO_ONESELF = "a transfer goes to someone else"
    NOT_POSITIVE = "a transfer is of at least 1 AgP"
    ABOVE_BALANCE = "a transfer is at most the sender's balance (E33)"
    GAME_OVER = "the game is over"
    NOT_THE_CEO = "only the corporation's CEO may set its acceptance list (X.5.1)"


class AccountError(ValueError):
    """A refused transfer or acceptance list, with its reason."""

    def __init__(self, reason: Refused) -> None:
        super().__init__(reason.value)
        self.reason = reason


class Transfer(NamedTuple):
    """E5: ``amount`` AgP from an investor to an investor or a corporation, in ``phase``."""

    phase: str
    sender: str
    receiver: str
    amount: int


def transfer(state: ExchangeState, sender: str, receiver: str, amount: int) -> tuple[ExchangeState, Transfer]:
    """E5: a transfer, which takes effect at once; a donation goes into the corporation's ledger."""
    if state.stage is Stage.ENDED:
        raise AccountError(Refused.GAME_OVER)
    if sender not in state.order:
        raise AccountError(Refused.NOT_AN_INVESTOR)
    if receiver == sender:
        raise AccountError(Refused.TO_ONESELF)
    if receiver not in state.order and receiver not in state.live:
        raise AccountError(Refused.NO_SUCH_RECEIVER)
    if amount < 1:
        raise AccountError(Refused.NOT_POSITIVE)
    if amount > state.purses[sender]:
        raise AccountError(Refused.ABOVE_BALANCE)
    done = Transfer(phase_name(state), sender, receiver, amount)
    purses = dict(state.purses)
    purses[sender] -= amount
    if receiver in purses:
        return state.evolve(purses=purses | {receiver: purses[receiver] + amount}), done
    treasuries = dict(state.treasuries)
    treasuries[receiver] += amount
    ledgers = dict(state.ledgers)
    ledgers[receiver] = (*state.ledger(receiver), LedgerLine(done.phase, LedgerKind.DONATION, amount, who=sender))
    return state.evolve(purses=purses, treasuries=treasuries, ledgers=ledgers), done


def set_acceptance(state: ExchangeState, corporation: str, author: str, acceptance: AcceptanceList) -> ExchangeState:
    """Rule 4.3: the corporation's new acceptance list, from its CEO (X.5.1)."""
    if state.ceos.get(corporation) != author:
        raise AccountError(Refused.NOT_THE_CEO)
    return state.evolve(acceptance=dict(state.acceptance) | {corporation: acceptance})


def resign(state: ExchangeState, investor: str) -> ExchangeState:
    """E32: the investor leaves the game (see the header)."""
    if investor not in state.order:
        raise AccountError(Refused.NOT_AN_INVESTOR)
    register = state.register
    holdings = {c: {who: n for who, n in held.items() if who != investor} for c, held in register.holdings.items()}
    return state.evolve(
        order=tuple(i for i in state.order if i != investor),
        purses={i: n for i, n in state.purses.items() if i != investor},
        register=Register(register.issued, holdings),
        ceos={c: ceo for c, ceo in state.ceos.items() if ceo != investor},
        resigned=state.resigned | {investor},
        destroyed=state.destroyed + state.purses[investor],
    )
