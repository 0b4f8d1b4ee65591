"""The Payola variations an Exchange game plays, and those it refuses (see the options module's header)."""

from __future__ import annotations

import pytest

from judge.games.exchange.core.income import default_worths
from judge.games.exchange.core.options import ExchangeOptions, default_funds, exchange_options
from judge.games.exchange.core.sheet import Refusal, Worth, check
from judge.games.exchange.core.year import MovementSheets, run_movement
from judge.payola.options import IncomeScheme, OptionError, Options
from tests.games.exchange.game import STANDARD, F, at_movement, offers, sheet


@pytest.mark.parametrize("word, why", [
    ("CLASSIC", "E25"), ("LOYAL_UNITS", "X.5.1"), ("BLIND", "E36"), ("TINCUP", "E36"), ("ZEROSUM", "E22"),
    ("INCOME_TWICE", "E27"),
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
