"""X.1.1 on the judge's other boards: every power a player may take is a corporation, and a power
the board's data gives nobody (Known World 901's Neutral State) is none: it issues no stock,
holds no treasury and earns nothing, and its units hold unless bribed, as a Payola dummy's
(rule 4.4)."""

from __future__ import annotations

from judge.engine.map import load_map
from judge.games.exchange.core.options import corporations_of, default_funds, exchange_options
from judge.games.exchange.core.sheet import Bid, Refusal, check, exactly
from judge.games.exchange.core.state import Stage, opening
from judge.games.exchange.core.year import MovementSheets, run_movement
from tests.games.exchange.game import offers, sheet

KNOWN_WORLD = load_map("known_world_901")
NEUTRAL = "NEUTRAL_STATE"
NAMES = ("ANN", "BOB")


def test_X_1_1_a_power_no_player_takes_is_no_corporation() -> None:
    corporations = corporations_of(KNOWN_WORLD)
    assert NEUTRAL not in corporations and len(corporations) == 15 == len(KNOWN_WORLD.powers) - 1
    state = opening(KNOWN_WORLD, NAMES, exchange_options(["INVESTORS=2"], KNOWN_WORLD))
    assert NEUTRAL not in state.treasuries and NEUTRAL not in state.register.issued
    assert state.corporations == corporations
    problems = check(sheet("ANN", Bid(exactly(1), NEUTRAL, 1)), state)
    assert problems == [(Refusal.NO_SUCH_CORPORATION, None, 0)]


def test_E1_E4_the_defaults_count_corporations_only() -> None:
    # 15 corporations of 4 home centers each: I(4) = 54 + 53 + 52 + 51 = 210 with V = 55; the
    # Neutral State's 49 centers count for nothing.
    assert default_funds(KNOWN_WORLD, 15) == 15 * 210 // 15
    options = exchange_options([], KNOWN_WORLD)
    assert (options.investors, options.funds) == (15, 210)


def test_X_1_1_the_neutral_states_units_hold_unless_bribed_and_move_when_bribed() -> None:
    state = opening(KNOWN_WORLD, NAMES, exchange_options(["INVESTORS=2", "FUNDS=10"], KNOWN_WORLD))
    state = state.evolve(stage=Stage.BOARD)
    sheets = MovementSheets(investors={"ANN": offers("2 : A ARM - DAM", "ANN", state.position)})
    after, record = run_movement(state, sheets, seed=901)
    assert str(record.determination.units["ARM"].order) == "A ARM - DAM"  # 2 against its zero HOLD
    assert str(record.determination.units["AZE"].order) == "A AZE H"
    assert after.position.units["DAM"].power == NEUTRAL
    assert after.purses["ANN"] == 8 and NEUTRAL not in after.treasuries
