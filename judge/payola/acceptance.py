"""Acceptance lists (rule 4): whose currency a power's units prefer when bribes tie.

A list is written ``ACCEPT EFG?``: power initials in order of preference, and one ``?``
standing for every power left out (which may be omitted only if the ``?`` is there).  The
``?`` is expanded into a random order of the omitted powers once per movement phase, from
the phase's seed (ruling 7), so the same phase adjudicated twice gives the same result.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from judge.language import gettext as _
from judge.language import ngettext

WILDCARD = "?"


class AcceptanceError(ValueError):
    """An acceptance list that breaks rule 4.1."""


@dataclass(frozen=True, slots=True)
class AcceptanceList:
    """Power initials and at most one ``?``, as the player wrote them."""

    entries: tuple[str, ...]

    def __str__(self) -> str:
        return "".join(self.entries)

    def expand(self, letters: Mapping[str, str], rng: random.Random) -> tuple[str, ...]:
        """The full preference order of power names, the ``?`` shuffled with ``rng``."""
        named = [e for e in self.entries if e != WILDCARD]
        omitted = [letter for letter in letters.values() if letter not in named]
        rng.shuffle(omitted)
        by_letter = {letter: power for power, letter in letters.items()}
        order: list[str] = []
        for entry in self.entries:
            order.extend(by_letter[x] for x in (omitted if entry == WILDCARD else [entry]))
        return tuple(order)


def default_list(letter: str) -> AcceptanceList:
    """Rule 4.2: the power's own initial first, everyone else in random order."""
    return AcceptanceList((letter, WILDCARD))


def parse_acceptance(text: str, letters: Mapping[str, str]) -> AcceptanceList:
    """Parse ``ACCEPT EFG?`` (the word ``ACCEPT`` optional; spaces and commas ignored).

    ``letters`` maps each power of the game to its initial.
    """
    body = re.sub(r"^\s*ACCEPT\b", "", text.strip(), flags=re.IGNORECASE)
    entries = [c for c in body.upper() if not c.isspace() and c != ","]
    known = set(letters.values())
    seen: set[str] = set()
    for entry in entries:
        if entry != WILDCARD and entry not in known:
            raise AcceptanceError(_("'{entry}' is not a power of this game (powers: {powers})", entry=entry,
                                    powers="".join(sorted(known))))
        if entry in seen:
            raise AcceptanceError(_("'{entry}' appears more than once", entry=entry))
        seen.add(entry)
    if not entries:
        raise AcceptanceError(_("an acceptance list needs the powers' initials, e.g. ACCEPT EFG?"))
    missing = known - seen
    if missing and WILDCARD not in seen:
        raise AcceptanceError(ngettext("power {powers} is missing: list every power or put one '?' for the rest",
                                       "powers {powers} are missing: list every power or put one '?' for the rest",
                                       len(missing), powers="".join(sorted(missing))))
    return AcceptanceList(tuple(entries))


def phase_rng(seed: int | str, power: str) -> random.Random:
    """The generator that expands ``power``'s ``?`` in a phase with the given seed."""
    return random.Random(f"{seed}/{power}")


def expand_lists(
    lists: Mapping[str, AcceptanceList], letters: Mapping[str, str], seed: int | str
) -> dict[str, tuple[str, ...]]:
    """Every power's full acceptance order for one movement phase (defaults where missing)."""
    return {
        power: lists.get(power, default_list(letter)).expand(letters, phase_rng(seed, power))
        for power, letter in letters.items()
    }


def rank(order: Sequence[str]) -> dict[str, int]:
    """Position of each power in an expanded list (earlier is preferred)."""
    return {power: i for i, power in enumerate(order)}
