"""The Payola variations an Exchange game plays, and those it refuses (see the options module's header)."""

from __future__ import annotations

import pytest

from judge.games.exchange.core.income import default_worths
from judge.games.exchange.core.options import ExchangeOptions, default_funds, exchange_options
from judge.games.exchange.core.phases import Step, step
from judge.games.exchange.core.sheet import Refusal, Worth, check
from judge.games.exchange.core.state import ExchangeState, LedgerKind
from judge.games.exchange.core.year import CorporateSheet, MovementSheets, run_income, run_movement, run_orders
from judge.payola.options import IncomeScheme, OptionError, Options
from judge.payola.treasury import zerosum_year_end
from tests.games.exchange.game import STANDARD, F, G, at_movement, money, offers, sheet


@pytest.mark.parametrize("word, why", [
    ("CLASSIC", "E25"), ("LOYAL_UNITS", "X.5.1"), ("BLIND", "E36"), ("TINCUP", "E36"), ("INCOME_TWICE", "E27"),
])
def test_exchange_refuses_the_payola_options_its_rulings_contradict(word: str, why: str) -> None:
    with pytest.raises(OptionError, match=why):
        exchange_options([word], STANDARD)


def test_exchange_plays_ebayola_and_the_income_schemes() -> None:
    options = exchange_options(["ebayola", "INCOME=FIXED:7", "INCOME_CAP=100", "SHARES=5"], STANDARD)
    assert options.payola.ebayola and options.payola.income_scheme is IncomeScheme.FIXED
    assert (options.payola.income_first, options.payola.income_cap, options.shares) == (7, 100, 5)
    assert options.funds == 22  # 22 home centers at 7 each, over 7 investors (E4)
    assert exchange_options(options.names, STANDARD) == options
    with pytest.raises(OptionError, match="unknown option"):
        exchange_options(["SHARES=ten"], STANDARD)


def test_E22_with_a_fixed_income_scheme_the_worths_add_up_to_its_income() -> None:
    payola = Options(income_scheme=IncomeScheme.FIXED, income_first=7)
    assert default_funds(STANDARD, 7, payola) == 22
    assert default_worths(["BRE", "MAR", "PAR"], 18, payola) == {"BRE": 7, "MAR": 7, "PAR": 7}  # I(3) = 21
    state = at_movement(ceos={F: "BOB"})
    state = state.evolve(options=ExchangeOptions(3, 60, payola=payola))
    assert check(sheet("BOB", blocks={F: [Worth((("PAR", 21), ("MAR", 0), ("BRE", 0)))]}), state) == []
    assert check(sheet("BOB", blocks={F: [Worth((("PAR", 24), ("MAR", 14), ("BRE", 10)))]}), state) == [
        (Refusal.WORTH_TOTAL, F, 0)]


def test_ebayola_an_investor_pays_one_more_than_the_best_other_total() -> None:
    # ANN offers 5 for A MUN - RUH against Germany's zero HOLD: under eBayola she pays 0 + 1.
    state = at_movement()
    state = state.evolve(options=ExchangeOptions(3, 60, payola=Options(ebayola=True)))
    after, record = run_movement(state, MovementSheets(investors={
        "ANN": offers("5 : A MUN - RUH", "ANN", state.position)}), 1)
    assert str(record.determination.units["MUN"].order) == "A MUN - RUH"
    assert after.purses["ANN"] == 59


def zerosum_spring() -> ExchangeState:
    """Spring 1901 under ZEROSUM: BOB France's CEO with 30 AgP, CAT Germany's with 20; purses 60."""
    state = at_movement(ceos={F: "BOB", G: "CAT"}, treasuries={F: 30, G: 20})
    return state.evolve(options=ExchangeOptions(3, 60, payola=Options(zerosum=True)))


def test_zerosum_6_7_bribes_go_to_the_bribed_units_corporation_and_a_capture_takes_a_share_of_the_treasury() -> None:
    """Worked by hand.  Spring: ANN pays 4 for A MUN - BUR (Germany's unit), France 2 for its own
    F BRE - MAO, A MAR - SPA for nothing.  Fall: ANN pays 5 for A BUR - MAR, which takes Marseilles
    from France; A SPA holds and takes Spain, a neutral center.  At the Income step the bribes are
    deposited (France 28 + 2 = 30, Germany 20 + 4 + 5 = 29); Marseilles moves 30 // 3 (France's
    centers at the Spring) = 10 from France to Germany; Spain's first capture earns France 10
    (minted).  France 30, Germany 39, ANN 51: 180 + 50 + 10 in all."""
    state = zerosum_spring()
    state, spring = run_movement(state, MovementSheets(
        corporations={F: CorporateSheet(offers("2 : F BRE - MAO\n0 : A MAR - SPA", F, state.position))},
        investors={"ANN": offers("4 : A MUN - BUR", "ANN", state.position)}), 1)
    assert spring.worths == {} and state.worths == {}
    assert (state.treasuries[F], dict(state.owed), state.destroyed) == (28, {F: 2, G: 4}, 0)
    state, _ = run_movement(state, MovementSheets(
        investors={"ANN": offers("5 : A BUR - MAR", "ANN", state.position)}), 2)
    assert dict(state.owed) == {F: 2, G: 9} and state.purses["ANN"] == 51
    while step(state) is not Step.INCOME:
        state, _ = run_orders(state, {})
    assert state.position.centers["MAR"] == G and state.position.centers["SPA"] == F
    before = state
    state, income = run_income(state)
    assert (state.treasuries[F], state.treasuries[G]) == (30, 39)
    assert state.minted == before.minted + 10 == 180 + 50 + 10 == money(state)
    assert not state.owed and {"SPA", "MAR"} <= state.ever_owned
    by = {i.corporation: i for i in income.incomes}
    assert [(m.kind, m.amount, m.center, m.who) for m in by[F].moves] == [
        (LedgerKind.ZEROSUM_DEPOSIT, 2, "", ""), (LedgerKind.CENTER_LOST, -10, "MAR", G),
        (LedgerKind.FIRST_CAPTURE, 10, "SPA", "")]
    assert [(m.kind, m.amount) for m in by[G].moves] == [(LedgerKind.ZEROSUM_DEPOSIT, 9),
                                                           (LedgerKind.CENTER_TAKEN, 10)]
    # the same sums as Payola's Zero Sum (judge.payola.treasury), the corporations as its powers
    corporate = {c: o for c, o in before.position.centers.items() if o in (F, G)}
    payola, _ = zerosum_year_end({F: 28, G: 20}, {F: 2, G: 9}, dict(before.year_owners), corporate,
                                 before.ever_owned)
    assert payola == {F: 30, G: 39}


def test_zerosum_6_7_no_worth_is_set_and_the_funds_share_ten_agp_a_home_center() -> None:
    state = zerosum_spring()
    assert check(sheet("BOB", blocks={F: [Worth((("PAR", 24), ("MAR", 14), ("BRE", 10)))]}), state) == [
        (Refusal.WORTH_ZEROSUM, F, 0)]
    assert exchange_options(["ZEROSUM"], STANDARD).funds == 31  # 22 home centers at 10 AgP, over 7 investors
    with pytest.raises(OptionError, match="ZEROSUM pays no income"):
        exchange_options(["ZEROSUM", "INCOME=FIXED:7"], STANDARD)


def test_zerosum_6_7_with_ebayola_the_corporation_is_owed_what_the_briber_paid_after_the_saving() -> None:
    # ANN offers 5 for A MUN - RUH against Germany's zero HOLD: eBayola makes it 0 + 1, owed to Germany.
    state = at_movement()
    state = state.evolve(options=ExchangeOptions(3, 60, payola=Options(ebayola=True, zerosum=True)))
    after, _ = run_movement(state, MovementSheets(investors={
        "ANN": offers("5 : A MUN - RUH", "ANN", state.position)}), 1)
    assert (after.purses["ANN"], dict(after.owed), after.destroyed) == (59, {G: 1}, 0)
    assert money(after) == after.minted == state.minted
