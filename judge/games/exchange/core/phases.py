"""The phases of an Exchange game: which comes next, its name, and whose submission it waits for.

The year (X.8.1): Spring Movement, Spring Retreats, Fall Movement, Fall Retreats, Winter
Adjustments (the engine's phases, retreats and adjustments only when needed), then the Income
step (automatic, no deadline: E27) and the Exchange phase (X.8.3), then the next Spring.  The
game opens with an Exchange phase in the Winter before the first Spring.

Names: the board's phases keep the engine's (``S1901M``, ``F1901R``, ``W1901A``); the Income
step of Winter 1901 is ``W1901I`` and its Exchange phase ``W1901X`` (the first one ``W1900X``).

Who is waited for (E20, E29; "the judge waits only for what they say"): in a movement phase the
sheet of each corporation that has units and a CEO, from its CEO (never an investor's private
sheet); in a retreat or adjustment phase the orders of each corporation with a CEO and something
to order; in the Exchange phase every investor's sheet (``PASS`` will do).  A phase may close
before its deadline once everything waited for has come and nobody waits (``WAIT``, which the
host keeps and weighs, as it does the deadlines).
"""

from __future__ import annotations

from collections.abc import Collection
from enum import Enum
from typing import NamedTuple

from judge.engine.legal import adjustment_count, build_sites, retreat_options
from judge.engine.orders import PhaseKind
from judge.games.exchange.core.state import ExchangeState, Stage


class Step(Enum):
    """The step an Exchange game is at (X.8.1)."""

    MOVEMENT = "movement"
    RETREAT = "retreat"
    ADJUSTMENT = "adjustment"
    INCOME = "income"
    EXCHANGE = "exchange"
    ENDED = "ended"


_BOARD_STEPS = {PhaseKind.MOVEMENT: Step.MOVEMENT, PhaseKind.RETREAT: Step.RETREAT,
                PhaseKind.ADJUSTMENT: Step.ADJUSTMENT}


def step(state: ExchangeState) -> Step:
    """The step that comes next."""
    if state.stage is Stage.BOARD:
        return _BOARD_STEPS[state.position.phase.kind]
    return Step(state.stage.value)


def phase_name(state: ExchangeState) -> str:
    """The next step's name: the board's phase (``F1901M``), or ``W1901I`` / ``W1901X`` for the
    Income step and the Exchange phase after the year 1901 (the position is already Spring 1902's)."""
    if state.stage in (Stage.BOARD, Stage.ENDED):
        return str(state.position.phase)
    suffix = "I" if state.stage is Stage.INCOME else "X"
    return f"W{state.position.phase.year - 1:04d}{suffix}"


class Expected(NamedTuple):
    """A submission the phase waits for: an investor's Exchange sheet (``corporation`` None), or
    the block or orders a CEO writes for a corporation."""

    investor: str
    corporation: str | None = None


def expected(state: ExchangeState) -> tuple[Expected, ...]:
    """What the next step waits for (E20, E29); nothing for the Income step, which has no deadline."""
    current = step(state)
    if current is Step.EXCHANGE:
        return tuple(Expected(investor) for investor in state.order)
    if current not in (Step.MOVEMENT, Step.RETREAT, Step.ADJUSTMENT):
        return ()
    position = state.position
    waited: list[Expected] = []
    for corporation, ceo in state.ceos.items():
        if current is Step.MOVEMENT:
            acts = bool(position.units_of(corporation))
        elif current is Step.RETREAT:
            acts = any(d.power == corporation and retreat_options(position, province)
                       for province, d in position.dislodged.items())
        else:
            due = adjustment_count(position, corporation)
            acts = due < 0 or (due > 0 and any(c not in position.units for c in build_sites(position, corporation)))
        if acts:
            waited.append(Expected(ceo, corporation))
    return tuple(waited)


def complete(state: ExchangeState, submitted: Collection[Expected]) -> bool:
    """Whether the step may close before its deadline: everything expected has come (``submitted``:
    the valid submissions standing); an investor's WAIT (E29) is the host's to weigh."""
    return all(e in submitted for e in expected(state))
