"""X.1 and X.2: investors and corporations, money (rulings E1-E6)."""

from __future__ import annotations

import pytest

from judge.games.exchange.core.accounts import AccountError, Refused, transfer
from judge.games.exchange.core.options import ExchangeOptions, default_funds, exchange_options
from judge.games.exchange.core.record import Reason
from judge.games.exchange.core.state import LedgerKind, NameProblem, name_problem, opening
from judge.games.exchange.core.year import CorporateSheet, MovementSheets, run_movement
from judge.payola.options import OptionError
from tests.games.exchange.game import STANDARD, F, G, at_exchange, at_movement, exchange, game, money, offers


def test_E1_an_investor_is_named_with_letters_and_digits_unique_and_not_a_power() -> None:
    assert name_problem("ANN", STANDARD) is None
    assert name_problem("Ann2", STANDARD, ("BOB",)) is None
    assert name_problem("ann", STANDARD, ("ANN",)) is NameProblem.TAKEN
    assert name_problem("France", STANDARD) is NameProblem.A_POWER
    assert name_problem("G", STANDARD) is NameProblem.A_POWER  # an initial, used in ACCEPT lists
    assert name_problem("ME", STANDARD) is NameProblem.RESERVED  # ME means oneself
    assert name_problem("A-1", STANDARD) is NameProblem.NOT_LETTERS_AND_DIGITS
    with pytest.raises(ValueError, match="a power"):
        opening(STANDARD, ("ANN", "ITALY"), ExchangeOptions(2, 60))


def test_E1_at_least_two_investors_by_default_one_per_power() -> None:
    assert exchange_options([], STANDARD).investors == 7
    assert exchange_options(["INVESTORS=3"], STANDARD).investors == 3
    with pytest.raises(OptionError, match="at least 2 investors"):
        exchange_options(["INVESTORS=1"], STANDARD)
    with pytest.raises(ValueError, match="for 3 investors, not 2"):
        opening(STANDARD, ("ANN", "BOB"), ExchangeOptions(3, 60))


def test_E2_a_leaderless_corporations_unit_holds_on_a_tie_and_nobody_pays() -> None:
    # Germany has no CEO: a dummy.  ANN offers 2 for A MUN - BUR and BOB 2 for A MUN - RUH: a tie,
    # which a dummy's unit settles with its default HOLD, paid by nobody, reported as 3 (rule 4.4).
    state = at_movement()
    position = state.position
    after, record = run_movement(state, MovementSheets(investors={
        "ANN": offers("2 : A MUN - BUR", "ANN", position), "BOB": offers("2 : A MUN - RUH", "BOB", position)}), 1)
    decision = record.determination.units["MUN"]
    assert str(decision.order) == "A MUN H" and decision.total == 3 and not decision.paid
    assert after.purses["ANN"] == after.purses["BOB"] == 60


def test_E2_a_leaderless_corporation_has_default_worths_and_pays_no_dividend() -> None:
    state = at_movement()
    _, record = run_movement(state, MovementSheets(), 1)
    assert dict(record.worths[G]) == {"BER": 16, "KIE": 16, "MUN": 16}
    _, exchanged = exchange(at_exchange({G: {"ANN": 4}}, treasuries={G: 40}))
    dividend = next(d for d in exchanged.dividends if d.corporation == G)
    assert (dividend.per_share, dividend.payouts, dividend.reason) == (0, (), Reason.LEADERLESS)


def test_E3_a_donation_is_the_same_agp_the_corporation_then_spends() -> None:
    state = at_movement(ceos={F: "BOB"})
    state, done = transfer(state, "ANN", F, 10)
    assert (state.purses["ANN"], state.treasuries[F], done.amount) == (50, 10, 10)
    assert state.ledger(F)[-1][1:4] == (LedgerKind.DONATION, 10, "ANN")
    position = state.position
    state, record = run_movement(state, MovementSheets({F: CorporateSheet(offers("10 : A PAR - BUR", F, position))}), 1)
    assert record.determination.statements[F].spent == 10
    assert state.treasuries[F] == 0


def test_E4_investors_start_with_the_same_money_and_corporations_with_none() -> None:
    assert default_funds(STANDARD, 7) == 50  # 350 / 7: a standard Payola start's money
    assert default_funds(STANDARD, 3) == 116  # floor(350 / 3)
    assert exchange_options(["INVESTORS=3"], STANDARD).funds == 116
    assert exchange_options(["FUNDS=60", "INVESTORS=3"], STANDARD).funds == 60
    state = game(funds=60)
    assert set(state.purses.values()) == {60}
    assert set(state.treasuries.values()) == {0}
    assert state.minted == 180 == money(state)


def test_E5_investors_transfer_to_investors_or_corporations_and_corporations_never() -> None:
    state = at_exchange({}, ceos={F: "BOB"}, treasuries={F: 30})
    state, _ = transfer(state, "ANN", "CAT", 7)
    assert (state.purses["ANN"], state.purses["CAT"]) == (53, 67)
    for sender, receiver, amount, reason in [
        (F, "ANN", 5, Refused.NOT_AN_INVESTOR),  # a corporation never transfers (E21 too)
        ("ANN", "ANN", 5, Refused.TO_ONESELF),
        ("ANN", "ZED", 5, Refused.NO_SUCH_RECEIVER),
        ("ANN", "BOB", 0, Refused.NOT_POSITIVE),
        ("ANN", "BOB", 54, Refused.ABOVE_BALANCE),
    ]:
        with pytest.raises(AccountError) as refused:
            transfer(state, sender, receiver, amount)
        assert refused.value.reason is reason
    liquidated = state.evolve(liquidated=frozenset({G}))
    with pytest.raises(AccountError) as refused:
        transfer(liquidated, "ANN", G, 5)
    assert refused.value.reason is Refused.NO_SUCH_RECEIVER


def test_E6_priority_and_bribes_leave_the_game() -> None:
    state = at_movement(purses={"ANN": 10})
    position = state.position
    sheets = MovementSheets(investors={"ANN": offers("4 : A MUN - RUH", "ANN", position)})
    after, record = run_movement(state, sheets, 1)
    assert record.bribes == 4
    assert (after.purses["ANN"], after.destroyed - state.destroyed, after.minted) == (6, 4, state.minted)
    assert money(after) == after.minted
