"""The state as the host keeps it (JSON in a phase row) reads back as the same state, at every step
of the worked year and on a board with a power no player takes."""

from __future__ import annotations

import json

import pytest

from judge.engine.map import load_map
from judge.engine.notation import position_to_data
from judge.games.exchange.core.notation import state_from_data, state_to_data
from judge.games.exchange.core.options import exchange_options
from judge.games.exchange.core.state import ExchangeState, new_game
from tests.games.exchange.worked_year import fall_1901, spring_1901, winter_1900, winter_1901, winter_1901_income


def _same(again: ExchangeState, state: ExchangeState) -> bool:
    """The same state: a position is compared by its data (positions are equal only to themselves)."""
    return position_to_data(again.position) == position_to_data(state.position) and again.evolve(
        position=state.position) == state


def _steps() -> list[ExchangeState]:
    return [winter_1900()[0], spring_1901()[0], fall_1901()[0], winter_1901_income()[0], winter_1901()[0]]


@pytest.mark.parametrize("step", range(5))
def test_the_state_reads_back_from_its_json_the_same(step: int) -> None:
    state = _steps()[step]
    again = state_from_data(json.loads(json.dumps(state_to_data(state))))
    assert _same(again, state)
    assert again.ledgers == state.ledgers and again.acceptance == state.acceptance


def test_a_known_world_opening_reads_back_the_same() -> None:
    board = load_map("known_world_901")
    state = new_game(board, ["ANN", "BOB"], exchange_options(["INVESTORS=2", "SHARES=4", "EBAYOLA"], board), 7)
    assert _same(state_from_data(json.loads(json.dumps(state_to_data(state)))), state)
