"""Victory and ranking by % control (X.10, E35).

An investor's score is the sum, over the winning corporation or every corporation in the draw,
of (shares held / outstanding shares) x 100, from the holdings when the game ends; only
outstanding shares count, as only they vote (E14).  Money counts for nothing.  Investors are
ranked by score; equal scores share a rank (1, 1, 3, ...), listed in the investor order.  Scores
are exact fractions: 1/3 of a corporation is 100/3, not 33.
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

from judge.games.exchange.core.state import ExchangeState, Stage


class Score(NamedTuple):
    """An investor's place at the end: rank (ties share one), and % control."""

    rank: int
    investor: str
    control: Fraction


def control(state: ExchangeState, investor: str, corporations: tuple[str, ...]) -> Fraction:
    """E35: the investor's % control summed over ``corporations``."""
    register = state.register
    return sum((Fraction(100 * register.held(c, investor), register.outstanding(c))
                for c in corporations if register.outstanding(c)), Fraction(0))


def ranking(state: ExchangeState) -> tuple[Score, ...]:
    """E35: every investor still in the game, by score over the game's result, best first."""
    if state.stage is not Stage.ENDED:
        raise ValueError("the game has not ended")
    scored = sorted(((control(state, i, state.result), i) for i in state.order), key=lambda s: -s[0])  # stable
    ranks: list[Score] = []
    for place, (score, investor) in enumerate(scored, 1):
        rank = ranks[-1].rank if ranks and ranks[-1].control == score else place
        ranks.append(Score(rank, investor, score))
    return tuple(ranks)
