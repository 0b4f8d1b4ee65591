"""Which power each player of a Payola game plays: their preferences met as well as a fair draw
can (issue 29.2).

Theory of operation.  Each player may give the powers they want, best first (``JOIN game
password PREFER FEGIART``; ``JOIN game password FRANCE`` is a list of one).  At START the
players who gave any are put in an order drawn by lot (seeded by the game's seed, so the draw
can be replayed and checked), and each in turn takes the first power of their list that nobody
before them took: *random serial dictatorship*.  The players who gave none, and those whose
every wish was taken, then get the powers left, drawn by lot.

Why this and not a maximum-weight assignment (the most first and second choices in all): a
serial draw is Pareto-efficient (no other assignment gives a player a power they rank higher
without giving another one they rank lower) and strategy-proof (nobody gains by listing their
wishes in any order but their true one, or by leaving out a power), where a weighted assignment
rewards guessing what the others will ask for; and each player can be told in a sentence why
they got what they got.  It is also fair between early and late joiners, which first come,
first served (the judge's rule before preferences) was not.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from judge.wording import power_title


@dataclass(frozen=True)
class Seat:
    """A player's power and why they got it, for the start mail."""

    power: str
    why: str


def assign(powers: Sequence[str], wishes: Sequence[Sequence[str]], seed: int) -> list[Seat]:
    """The power of each player, in the order of ``wishes`` (each player's powers wanted, best
    first; empty: none), among ``powers`` (at least as many as players), drawn with ``seed``."""
    rng = random.Random(seed)
    wishing = [index for index, wish in enumerate(wishes) if wish]
    rng.shuffle(wishing)
    free = list(powers)
    seats: dict[int, Seat] = {}
    for turn, index in enumerate(wishing, start=1):
        wish = wishes[index]
        power = next((p for p in wish if p in free), None)
        if power is None:
            continue
        free.remove(power)
        seats[index] = Seat(power, _why(wish, power, turn, len(wishing)))
    rng.shuffle(free)
    for index, wish in enumerate(wishes):
        if index not in seats:
            why = ("you asked for no power, so yours was drawn by lot among the powers left" if not wish else
                   f"{_asked(wish)}, but every one was taken by players drawn before you, so yours was drawn by lot "
                   "among the powers left")
            seats[index] = Seat(free.pop(), why)
    return [seats[index] for index in range(len(wishes))]


def _asked(wish: Sequence[str]) -> str:
    return (f"you asked for {power_title(wish[0])}" if len(wish) == 1
            else f"you preferred {', '.join(power_title(p) for p in wish)}")


def _why(wish: Sequence[str], power: str, turn: int, drawn: int) -> str:
    place = wish.index(power)
    if place == 0:
        return f"{_asked(wish)}" if len(wish) == 1 else f"your first choice; the draw placed you {turn} of {drawn}"
    taken = ", ".join(power_title(p) for p in wish[:place])
    return (f"your choice {place + 1}: {taken} went to players the draw placed before you (you were {turn} of "
            f"{drawn})")
