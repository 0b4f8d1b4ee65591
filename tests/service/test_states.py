"""A game's life is one table (`judge.service.states`), and one function writes a game's state."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import judge
from judge.service.states import TRANSITIONS, Event, GameError, GameState, move, state_of
from judge.store.models import Game

ALLOWED = {
    (GameState.FORMING, Event.START): GameState.ACTIVE,
    (GameState.FORMING, Event.END): GameState.FINISHED,
    (GameState.ACTIVE, Event.PAUSE): GameState.PAUSED,
    (GameState.ACTIVE, Event.ROLLBACK): GameState.PAUSED,
    (GameState.ACTIVE, Event.OVERDUE): GameState.PAUSED,
    (GameState.ACTIVE, Event.FAILED): GameState.PAUSED,
    (GameState.ACTIVE, Event.END): GameState.FINISHED,
    (GameState.PAUSED, Event.RESUME): GameState.ACTIVE,
    (GameState.PAUSED, Event.ROLLBACK): GameState.PAUSED,
    (GameState.PAUSED, Event.END): GameState.FINISHED,
}


@pytest.mark.parametrize("state", list(GameState))
@pytest.mark.parametrize("event", list(Event))
def test_a_game_moves_only_as_the_table_says(state: GameState, event: Event) -> None:
    game = Game(name="g", state=state.value)
    if (state, event) in ALLOWED:
        assert move(game, event) is ALLOWED[state, event]
        assert state_of(game) is ALLOWED[state, event] and game.state == ALLOWED[state, event].value
    else:
        with pytest.raises(GameError, match=f"a game that is {state.value} cannot {event.value}"):
            move(game, event)
        assert game.state == state.value  # unchanged


def test_the_table_is_the_one_written_down_here() -> None:
    assert {(state, event): after for state, events in TRANSITIONS.items() for event, after in events.items()} \
        == ALLOWED


def test_a_finished_game_takes_no_event() -> None:
    assert TRANSITIONS[GameState.FINISHED] == {}


def test_nothing_but_the_transition_function_writes_a_games_state() -> None:
    """No module of the host or of a kind's edges assigns ``<something>.state``: a game's state
    changes by `move` only (a rules core cannot reach a game: its own objects may have a state)."""
    root = Path(judge.__file__).parent
    writers = []
    for path in root.rglob("*.py"):
        if (path.name == "states.py" and path.parent.name == "service") or {"migrations", "core"} & set(path.parts):
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] \
                if isinstance(node, ast.AugAssign | ast.AnnAssign) else []
            for target in targets:
                for element in target.elts if isinstance(target, ast.Tuple) else [target]:
                    if isinstance(element, ast.Attribute) and element.attr == "state":
                        writers.append(f"{path.relative_to(root)}:{node.lineno}")
    assert writers == []
