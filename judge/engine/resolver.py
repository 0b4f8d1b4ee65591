"""The guess-and-check resolver of Kruijswijk's "The Math of Adjudication" (DATC 5.F).

Every order has one yes/no decision (a move: did it move; a support: was it given; a
convoy: did it hold).  ``adjudicate(key)`` computes a decision from the rules, asking the
resolver for the decisions it depends on; it knows nothing of bookkeeping.  ``resolve``
memoises decisions and handles dependency cycles:

* the first time a decision is visited it is provisionally *guessed* false; if the
  recursion comes back to it, that guess is used and the cycle is recorded;
* once the outermost decision of a cycle has been computed with both guesses, an equal
  answer means the cycle has one consistent solution, which is taken;
* different answers mean zero or two solutions: a paradox.  The *backup rule* (passed in,
  so the policy lives with the rules) settles some decisions of the cycle, and resolution
  starts again.

This is the version of the algorithm that also copes with cycles that are not one clean
loop (DATC 5.D): it counts recursion hits so that only the ancestor of a whole cycle
retries it.  The resolver is generic over the decision keys.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Generic, TypeVar

Key = TypeVar("Key", bound=Hashable)


class Resolver(Generic[Key]):
    """Memoised decisions with cycle detection; see the module docstring."""

    def __init__(
        self,
        adjudicate: Callable[[Key], bool],
        backup_rule: Callable[[list[Key]], dict[Key, bool]],
    ) -> None:
        self._adjudicate = adjudicate
        self._backup_rule = backup_rule
        self.resolved: dict[Key, bool] = {}
        self._guess: dict[Key, bool] = {}
        self._visited: set[Key] = set()
        self._cycle: list[Key] = []
        self._in_cycle: set[Key] = set()
        self._guess_based = False
        self._recursion_hits = 0

    def _add_to_cycle(self, key: Key) -> None:
        if key not in self._in_cycle:
            self._cycle.append(key)
            self._in_cycle.add(key)

    def _truncate_cycle(self, length: int) -> None:
        for key in self._cycle[length:]:
            self._in_cycle.discard(key)
        del self._cycle[length:]

    def resolve(self, key: Key) -> bool:
        known = self.resolved.get(key)
        if known is not None:
            return known
        if key in self._in_cycle:
            self._guess_based = True
            return self._guess[key]
        if key in self._visited:
            self._add_to_cycle(key)
            self._guess_based = True
            self._recursion_hits += 1
            return self._guess[key]

        self._visited.add(key)
        old_cycle_len = len(self._cycle)
        old_guess_based = self._guess_based
        old_recursion_hits = self._recursion_hits
        self._guess_based = False
        self._guess[key] = False
        first = self._adjudicate(key)

        if not self._guess_based:
            self._guess_based = old_guess_based
            self.resolved[key] = first
            self._visited.discard(key)
            del self._guess[key]
            return first

        hit_here = key in self._in_cycle
        if hit_here:
            self._recursion_hits -= 1
        # Only a decision that was itself hit, with no hit on its ancestors left open, is
        # the ancestor of the whole cycle.  (Depending on an open cycle's provisional value
        # without being hit is not enough: DATC 5.F's pseudo-code would retry there.)
        if hit_here and self._recursion_hits == old_recursion_hits:
            # This decision is the ancestor of the whole cycle: try the other guess.
            self._truncate_cycle(old_cycle_len)
            self._guess[key] = True
            second = self._adjudicate(key)
            if first == second:
                self._truncate_cycle(old_cycle_len)
                self._guess_based = old_guess_based
                self._finish(key, first)
                return first
            members = self._cycle[old_cycle_len:]
            if key not in members:
                members = [*members, key]
            settled = self._backup_rule(members)
            self._truncate_cycle(old_cycle_len)
            self._guess_based = old_guess_based
            self._visited.discard(key)
            for member, value in settled.items():
                self._finish(member, value)
            return self.resolve(key)

        # Returning from a cycle that started further up: remember this answer for now.
        self._add_to_cycle(key)
        self._guess[key] = first
        self._visited.discard(key)
        return first

    def resolve_all(self, keys: Iterable[Key]) -> dict[Key, bool]:
        """Every decision, resolved in the sequence of ``keys``: the decisions known so far are not asked again."""
        resolved = self.resolved
        for key in keys:
            if key not in resolved:
                self.resolve(key)  # a decision asked from outside any cycle is always settled
        return resolved

    def _finish(self, key: Key, value: bool) -> None:
        self.resolved[key] = value
        self._visited.discard(key)
        self._guess.pop(key, None)
