"""X.8: the phase sequence and the investor order (rulings E29, E30)."""

from __future__ import annotations

import pytest

from judge.games.exchange.core.exchange import SheetRefused, run_exchange
from judge.games.exchange.core.options import ExchangeOptions
from judge.games.exchange.core.phases import Expected, Step, complete, expected, phase_name, step
from judge.games.exchange.core.record import Reason
from judge.games.exchange.core.sheet import Bid, Dividend, Pass, Priority, Refusal, Sheet, check, exactly, standing
from judge.games.exchange.core.state import initial_order, new_game
from judge.games.exchange.core.year import MovementSheets, run_income, run_movement
from tests.games.exchange.game import STANDARD, A, F, actions_of, at_exchange, at_movement, exchange, game, sheet


def test_E29_the_exchange_phase_waits_for_every_investors_sheet() -> None:
    state = game()
    assert (step(state), phase_name(state)) == (Step.EXCHANGE, "W1900X")
    assert expected(state) == (Expected("ANN"), Expected("BOB"), Expected("CAT"))
    assert check(sheet("ANN", Pass()), state) == []  # PASS is a sheet
    sent = {Expected("ANN"), Expected("BOB")}
    assert not complete(state, sent)
    assert complete(state, sent | {Expected("CAT")})  # a WAIT is the host's (tests/service/test_mail_rules.py)


def test_E29_a_sheet_with_a_bad_line_is_refused_whole_and_a_later_one_replaces_it_part_by_part() -> None:
    state = at_exchange({F: {"BOB": 5}}, ceos={F: "BOB"}, treasuries={F: 50})
    bad = sheet("BOB", Bid(exactly(1), A, 0), Priority(exactly(1)), blocks={F: [Dividend(6)]})
    assert check(bad, state) == [(Refusal.PRICE_BELOW_ONE, None, 0), (Refusal.DIVIDEND_ABOVE_LIMIT, F, 0)]
    with pytest.raises(SheetRefused):
        run_exchange(state, {"BOB": bad})
    first = sheet("BOB", Priority(exactly(1)), blocks={F: [Dividend(2)]})
    later = sheet("BOB", blocks={F: [Dividend(3)]})
    assert standing(first, later) == sheet("BOB", Priority(exactly(1)), blocks={F: [Dividend(3)]})
    assert standing(first, sheet("BOB", Pass())) == sheet("BOB", Pass(), blocks={F: [Dividend(2)]})


def test_E29_exchange_lines_are_not_taken_outside_the_exchange_phase() -> None:
    state = at_movement(ceos={F: "BOB"})
    assert check(sheet("BOB", Bid(exactly(1), F, 5)), state) == [(Refusal.NOT_NOW, None, 0)]
    assert check(Sheet("ZED", (Pass(),)), state) == [(Refusal.NOT_AN_INVESTOR, None, None)]


def test_E29_the_year_runs_movement_then_income_then_exchange() -> None:
    state = at_movement()
    assert phase_name(state) == "S1901M"
    state, _ = run_movement(state, MovementSheets(), 1)
    assert (step(state), phase_name(state)) == (Step.MOVEMENT, "F1901M")
    state, _ = run_movement(state, MovementSheets(), 2)
    assert (step(state), phase_name(state), expected(state)) == (Step.INCOME, "W1901I", ())
    assert complete(state, ())  # automatic: no deadline
    state, _ = run_income(state)
    assert (step(state), phase_name(state)) == (Step.EXCHANGE, "W1901X")
    with pytest.raises(ValueError, match="not at a movement phase"):
        run_movement(state, MovementSheets(), 3)


def test_E30_the_new_order_is_a_stable_sort_by_agp_spent_and_the_money_is_destroyed() -> None:
    # ANN 1, BOB 3, CAT 1, DAN 0: BOB first; ANN and CAT keep their order; DAN last.
    order = ("ANN", "BOB", "CAT", "DAN")
    state = at_exchange({}, order=order)
    after, record = exchange(state, sheet("ANN", Priority(exactly(1))), sheet("BOB", Priority(exactly(3))),
                             sheet("CAT", Priority(exactly(1))))
    assert record.order == after.order == ("BOB", "ANN", "CAT", "DAN")
    assert record.destroyed == 5 and after.destroyed == state.destroyed + 5


def test_E30_priority_above_the_balance_is_cut_to_it_after_the_dividends() -> None:
    # BOB has 5 and receives a dividend of 2 on 3 shares first: PRIORITY 100 spends 11.
    state = at_exchange({F: {"BOB": 3, "CAT": 2}}, purses={"BOB": 5}, ceos={F: "CAT"}, treasuries={F: 40})
    after, record = exchange(state, sheet("BOB", Priority(exactly(100))), sheet("CAT", blocks={F: [Dividend(2)]}))
    spent = actions_of(record, "BOB", Priority(exactly(100)))[0]
    assert (spent.amount, spent.reason) == (11, Reason.REDUCED)
    assert after.purses["BOB"] == 0 and after.order[0] == "BOB"


def test_E30_the_first_order_is_drawn_from_the_seed() -> None:
    names = ("ANN", "BOB", "CAT", "DAN", "EVE")
    first = initial_order(names, 7)
    assert sorted(first) == sorted(names)
    assert initial_order(tuple(reversed(names)), 7) == first  # the same seed, the same order
    assert len({initial_order(names, seed) for seed in range(20)}) > 1
    assert new_game(STANDARD, names, ExchangeOptions(5, 70), 7).order == first
