"""A game's life as one table: its states, what moves it from one to another, and the one writer.

Theory of operation (after h11's state machine).  A game is *forming* while players join,
*active* once started, *paused* while its deadlines do not fire, and *finished* for ever once it
has ended (by its rules, or by TERMINATE).  Each change of state is an `Event`, and `TRANSITIONS`
says, for each state, which events it takes and where they lead: anything else is refused
(`GameError`), whoever asks.  `move` is the only code that writes ``games.state``, and only the
host calls it, never a kind of game: its commands and clock for what they do (PAUSE, RESUME, a
deadline missed in an outage or failing), and the course of every game (`judge.service.hosting.course`)
around what a kind's rules do: START after the kind's start, END when a phase's closing, a vote or
TERMINATE ends the game, ROLLBACK when the game master rolls it back, and RESUME when a phase
rolled back to is processed again (which ends the pause the rollback began).

::

    forming --START--> active --PAUSE, ROLLBACK, OVERDUE, FAILED--> paused --RESUME--> active
    forming, active, paused --END--> finished (for ever)
"""

from __future__ import annotations

from enum import StrEnum

from judge.store.models import Game


class GameState(StrEnum):
    """The states of a game, as ``games.state`` keeps them."""

    FORMING = "forming"
    ACTIVE = "active"
    PAUSED = "paused"
    FINISHED = "finished"


class Event(StrEnum):
    """What changes a game's state."""

    START = "start"  # the game master's START: seats assigned, the first phase open
    PAUSE = "pause"  # the game master's PAUSE
    RESUME = "resume"  # RESUME, or a rolled-back phase processed again
    ROLLBACK = "rollback"  # the game master's ROLLBACK: paused until RESUME or the phase is processed
    OVERDUE = "overdue"  # a deadline missed by more than max-lateness (the judge was down): paused
    FAILED = "failed"  # a deadline that could not be run: paused, and reported
    END = "end"  # the game is over: by its rules, or by TERMINATE


RUNNING = frozenset({GameState.ACTIVE, GameState.PAUSED})
"""The states of a game that has started and not ended."""

TRANSITIONS: dict[GameState, dict[Event, GameState]] = {
    GameState.FORMING: {Event.START: GameState.ACTIVE, Event.END: GameState.FINISHED},
    GameState.ACTIVE: {Event.PAUSE: GameState.PAUSED, Event.ROLLBACK: GameState.PAUSED,
                       Event.OVERDUE: GameState.PAUSED, Event.FAILED: GameState.PAUSED, Event.END: GameState.FINISHED},
    GameState.PAUSED: {Event.RESUME: GameState.ACTIVE, Event.ROLLBACK: GameState.PAUSED,
                       Event.END: GameState.FINISHED},
    GameState.FINISHED: {},
}
"""For each state, the events it takes and the state each leads to."""


class GameError(ValueError):
    """A request the game's state does not allow; the message is for the user, ``code`` names why for programs
    (`Echo.code`; NOT_ALLOWED where no more is named)."""

    def __init__(self, message: str, code: str = "NOT_ALLOWED") -> None:
        super().__init__(message)
        self.code = code


def state_of(game: Game) -> GameState:
    """The state ``game`` is in."""
    return GameState(game.state)


def move(game: Game, event: Event) -> GameState:
    """Change ``game``'s state by ``event`` as `TRANSITIONS` says, and return the new state;
    `GameError` if its state does not take that event."""
    now = state_of(game)
    after = TRANSITIONS[now].get(event)
    if after is None:
        raise GameError(f"a game that is {now} cannot {event.value}")
    game.state = after
    return after
