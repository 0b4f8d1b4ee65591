"""The year of play of section 3 of the Exchange rulings, phase by phase through the core (3.1's
set-up: standard map, V = 18, 10 shares per corporation; ANN, BOB and CAT with 60 AgP each, in the
investor order ANN, BOB, CAT): the sheets and each phase's state and record, for the tests that
check its figures (test_worked_year) and those that reuse its states (secrecy, notation)."""


from __future__ import annotations

from functools import cache

from judge.games.exchange.core.exchange import run_exchange
from judge.games.exchange.core.record import ExchangeRecord
from judge.games.exchange.core.sheet import (
    ME,
    Approve,
    Bid,
    BuyFrom,
    Dividend,
    Elect,
    Issue,
    Priority,
    Sell,
    SellTo,
    Worth,
    exactly,
)
from judge.games.exchange.core.state import ExchangeState
from judge.games.exchange.core.year import (
    CorporateSheet,
    IncomeRecord,
    MovementRecord,
    MovementSheets,
    run_income,
    run_movement,
    run_orders,
)
from tests.games.exchange.game import F, G, game, offers, orders, sheet

LEADERLESS = ("AUSTRIA", "ENGLAND", "ITALY", "RUSSIA", "TURKEY")


SHEETS_1900 = {
    "ANN": sheet("ANN", Bid(exactly(6), F, 5), Bid(exactly(2), G, 3), Elect(F, ME), Elect(G, "CAT")),
    "BOB": sheet("BOB", Priority(exactly(2)), Bid(exactly(5), F, 5), Bid(exactly(5), G, 4), Elect(F, ME),
                 Elect(G, ME)),
    "CAT": sheet("CAT", Priority(exactly(3)), Bid(exactly(4), G, 4), Bid(exactly(3), F, 6), Elect(G, ME),
                 Elect(F, ME)),
}
"""3.2's sheets: no corporate blocks yet."""

SHEETS_1901 = {
    "BOB": sheet("BOB", BuyFrom(1, G, "ANN", 9), Approve(G, 2), Bid(exactly(1), F, 9), Elect(F, ME),
                 Elect(G, ME), blocks={F: [Dividend(5)]}),
    "CAT": sheet("CAT", Sell(exactly(1), F, 7), Elect(G, ME), Elect(F, "ANN"),
                 blocks={G: [Dividend(3), Issue(2, 8)]}),
    "ANN": sheet("ANN", SellTo(1, G, "BOB", 9), Bid(exactly(2), G, 8), Elect(F, ME), Elect(G, "CAT")),
}
"""3.7's sheets (CAT's is the mail of 2.3 without ``PRIORITY 0``, which changes nothing)."""


@cache
def winter_1900() -> tuple[ExchangeState, ExchangeRecord]:
    """3.2: the initial offering and the first election."""
    return run_exchange(game(), SHEETS_1900)


@cache
def spring_1901() -> tuple[ExchangeState, MovementRecord]:
    """3.3: BOB sets France's worths; Germany gets the defaults; ANN bribes A MUN."""
    state, _ = winter_1900()
    position = state.position
    return run_movement(state, MovementSheets(
        {F: CorporateSheet(offers("0 : A PAR - PIC\n0 : A MAR - SPA\n0 : F BRE - MAO", F, position),
                           Worth((("PAR", 24), ("MAR", 14), ("BRE", 10)))),
         G: CorporateSheet(offers("0 : F KIE - HOL\n0 : A BER - KIE\n3 : A MUN - BUR", G, position))},
        {"ANN": offers("2 : A MUN - RUH", "ANN", position)},
    ), seed=1901)


@cache
def fall_1901() -> tuple[ExchangeState, MovementRecord]:
    """3.4: Germany takes Marseilles; its corporate money holds a French unit."""
    state, _ = spring_1901()
    position = state.position
    return run_movement(state, MovementSheets(
        {F: CorporateSheet(offers("0 : A PIC - BEL\n0 : A SPA H\n0 : F MAO - POR", F, position)),
         G: CorporateSheet(offers("5 : A BUR - MAR\n0 : F HOL H\n0 : A KIE - DEN\n5 : A SPA H", G, position))},
        {"ANN": offers("4 : A SPA - MAR", "ANN", position)},
    ), seed=19011)


@cache
def winter_1901_income() -> tuple[ExchangeState, IncomeRecord]:
    """3.5 and 3.6: the builds, then the income."""
    state, _ = fall_1901()
    state, _ = run_orders(state, orders(state, FRANCE=["BUILD A PAR", "BUILD F BRE"],
                                        GERMANY=["BUILD A BER", "BUILD F KIE", "BUILD A MUN"]))
    return run_income(state)


@cache
def winter_1901() -> tuple[ExchangeState, ExchangeRecord]:
    """3.7: dividends, a private deal, an issue, the auction and the elections for 1902."""
    state, _ = winter_1901_income()
    return run_exchange(state, SHEETS_1901)
