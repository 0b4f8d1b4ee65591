"""X.9 and X.10: elimination, liquidation, resignation, no debt; victory and ranking (rulings E31-E35)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from judge.engine.orders import PhaseKind, UnitType, lexicon
from judge.engine.position import Phase, PlacedUnit, Position, Season
from judge.games.exchange.core.accounts import resign, transfer
from judge.games.exchange.core.record import Outcome, Reason
from judge.games.exchange.core.scoring import Score, ranking
from judge.games.exchange.core.sheet import ME, Bid, Elect, Refusal, Sell, check, exactly
from judge.games.exchange.core.state import Stage
from judge.games.exchange.core.views import public_exchange
from judge.games.exchange.core.year import CorporateSheet, MovementSheets, end_game, run_movement, surviving
from tests.games.exchange.game import (
    STANDARD,
    A,
    F,
    G,
    at_exchange,
    at_movement,
    exchange,
    money,
    offers,
    sheet,
)


def test_E31_an_eliminated_corporation_is_liquidated_to_its_holders() -> None:
    # Austria has 47 AgP; ANN holds 2, BOB 1 (7 in the pool): 47 // 3 = 15 a share, 2 destroyed.
    state = at_exchange({A: {"ANN": 2, "BOB": 1}}, ceos={A: "BOB"}, treasuries={A: 47}).evolve(
        eliminated=frozenset({A}))
    after, record = exchange(state, sheet("CAT", Bid(exactly(1), A, 5)), sheet("ANN", Sell(exactly(1), A, 1),
                                                                              Elect(A, ME)))
    liquidation = record.liquidations[0]
    assert liquidation == (A, 47, 15, (("ANN", 30), ("BOB", 15)), 2, 10)
    assert (after.purses["ANN"], after.purses["BOB"], after.treasuries[A]) == (90, 75, 0)
    assert (after.register.issued[A], after.register.outstanding(A)) == (0, 0)
    assert A not in after.ceos and A in after.liquidated and not after.eliminated
    assert {a.outcome for a in record.actions} == {Outcome.VOID}
    assert {a.reason for a in record.actions} == {Reason.LIQUIDATED}
    assert money(after) == after.minted
    assert check(sheet("ANN", Bid(exactly(1), A, 5)), after.evolve(stage=Stage.EXCHANGE)) == [
        (Refusal.LIQUIDATED, None, 0)]
    facts = {f.corporation: f for f in public_exchange(after, record).corporations}
    assert facts[A].liquidated and facts[A].issued == 0


def test_E32_an_investor_with_nothing_stays_in_the_game() -> None:
    state = at_exchange({}, purses={"ANN": 0})
    after, _ = exchange(state)
    assert "ANN" in after.order
    after, _ = transfer(after, "BOB", "ANN", 5)
    assert after.purses["ANN"] == 5


def test_E32_a_resigning_investor_forfeits_money_returns_shares_to_the_pools_and_leaves_office() -> None:
    state = at_exchange({F: {"ANN": 6, "BOB": 3}}, ceos={F: "ANN"}, treasuries={F: 90})
    after = resign(state, "ANN")
    assert "ANN" not in after.order and "ANN" not in after.purses
    assert after.destroyed == state.destroyed + 60 and money(after) == after.minted
    assert (after.register.pool(F), after.register.outstanding(F)) == (7, 3)  # above a third, no breach
    assert F not in after.ceos
    # France is leaderless now: it floats its 7 pool shares at 1 AgP.
    after, _ = exchange(after, sheet("CAT", Bid(exactly(2), F, 1)))
    assert after.register.held(F, "CAT") == 2 and after.register.pool(F) == 5


def test_E33_offers_beyond_the_treasury_are_cut_and_nobody_goes_below_zero() -> None:
    # France has 3 AgP and offers 5 for A PAR - BUR: rule 5.5 cuts it to 3, which still wins.
    state = at_movement(ceos={F: "BOB"}, treasuries={F: 3})
    after, record = run_movement(state, MovementSheets({F: CorporateSheet(offers("5 : A PAR - BUR", F,
                                                                                  state.position))}), 1)
    assert str(record.determination.units["PAR"].order) == "A PAR - BUR"
    assert after.treasuries[F] == 0


def test_E34_a_corporation_reaching_the_victory_count_ends_the_game() -> None:
    # Fall 1905: Germany owns 17 centers and its A BUR enters Belgium, on ANN's 1 AgP (Germany is
    # leaderless: its units' default HOLD is worth 0).
    centers = {c: G for c in ("BER", "KIE", "MUN", "HOL", "DEN", "SWE", "NWY", "WAR", "MOS", "STP", "SEV", "VIE",
                              "BUD", "TRI", "PAR", "MAR", "BRE")}
    fall = Position.build(STANDARD, Phase(Season.FALL, 1905, PhaseKind.MOVEMENT),
                          [PlacedUnit(G, lexicon(STANDARD).unit(UnitType.ARMY, STANDARD.location("BUR")))], centers)
    state = at_movement(position=fall)
    after, record = run_movement(state, MovementSheets(investors={"ANN": offers("1 : A BUR - BEL", "ANN", fall)}), 1)
    assert record.result.winner == G
    assert after.stage is Stage.ENDED and after.result == (G,)


def test_E34_a_draw_of_the_surviving_corporations_ends_the_game() -> None:
    state = at_movement()
    assert surviving(state) == state.corporations
    ended = end_game(state, (F, G))
    assert ended.stage is Stage.ENDED and ended.result == (F, G)
    with pytest.raises(ValueError):
        end_game(state.evolve(liquidated=frozenset({A})), (A,))


def test_E35_scores_are_percent_control_of_the_winners_and_equal_scores_share_a_rank() -> None:
    # France: ANN 6, BOB 4 of 10 outstanding; Germany: BOB 3, CAT 9 of 12.  A draw of both:
    # ANN 60, BOB 40 + 25 = 65, CAT 75.
    state = at_exchange({F: {"ANN": 6, "BOB": 4}, G: {"BOB": 3, "CAT": 9}}, issued={G: 12})
    assert ranking(end_game(state, (F, G))) == (
        Score(1, "CAT", Fraction(75)), Score(2, "BOB", Fraction(65)), Score(3, "ANN", Fraction(60)))
    # France alone, with 3 in the pool (only outstanding shares count): ANN 4/6, BOB 1/6, CAT 1/6.
    state = at_exchange({F: {"ANN": 4, "BOB": 1, "CAT": 1}}, order=("CAT", "BOB", "ANN"), issued={F: 9})
    assert ranking(end_game(state, (F,))) == (
        Score(1, "ANN", Fraction(200, 3)), Score(2, "CAT", Fraction(50, 3)), Score(2, "BOB", Fraction(50, 3)))
    with pytest.raises(ValueError, match="not ended"):
        ranking(state)
