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

from judge.language import gettext as _
from judge.wording import power_title


@dataclass(frozen=True)
class Seat:
    """A player's power and why they got it, for the start mail: ``wish`` the powers asked for, ``turn``
    the player's place in the draw of ``drawn`` (0: drawn by lot among the powers left)."""

    power: str
    wish: tuple[str, ...] = ()
    turn: int = 0
    drawn: int = 0

    @property
    def why(self) -> str:
        """Why the player got their power, in the reader's language."""
        if not self.turn:
            if not self.wish:
                return _("you asked for no power, so yours was drawn by lot among the powers left")
            if len(self.wish) == 1:
                return _("you asked for {power}, but it was taken by a player drawn before you, so yours was drawn "
                         "by lot among the powers left", power=power_title(self.wish[0]))
            return _("you preferred {powers}, but every one was taken by players drawn before you, so yours was "
                     "drawn by lot among the powers left", powers=_names(self.wish))
        place = self.wish.index(self.power)
        if place == 0:
            if len(self.wish) == 1:
                return _("you asked for {power}", power=power_title(self.wish[0]))
            return _("your first choice; the draw placed you {turn} of {drawn}", turn=self.turn, drawn=self.drawn)
        return _("your choice {place}: {taken} went to players the draw placed before you (you were {turn} of "
                 "{drawn})", place=place + 1, taken=_names(self.wish[:place]), turn=self.turn, drawn=self.drawn)


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
        seats[index] = Seat(power, tuple(wish), turn, len(wishing))
    rng.shuffle(free)
    for index, wish in enumerate(wishes):
        if index not in seats:
            seats[index] = Seat(free.pop(), tuple(wish))
    return [seats[index] for index in range(len(wishes))]


def _names(powers: Sequence[str]) -> str:
    return ", ".join(power_title(p) for p in powers)
