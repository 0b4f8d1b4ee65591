"""Worth and income (X.5.2, X.7): I(n), the default worths, and what a corporation earns at the
Income step.

*I(n)* is rule 2.1's income for n supply centers on the game's map (its victory count V,
ruling 13), under the game's income scheme (6.6): Σ over k = 0 … n-1 of max(0, V - 1 - k) by
default, 48 for 3 centers on the standard map and 62 for 4 (:func:`standard_income`).

A CEO's worth list must add up to I(n) over the n centers the corporation owns when the Spring
movement opens (E22, checked with the sheet in :mod:`judge.games.exchange.core.sheet`);
without one, each center is worth floor(I(n) / n) and the rest goes one AgP each to the
centers in alphabetical order (:func:`default_worths`).

At the Income step (E27) a corporation earns, for each center it owns, the center's worth if
the center was *priced* that Spring (by any corporation), and for its *unpriced* centers the
scale continued above its m priced ones: the (m + 1)-th center's income, the (m + 2)-th's, …
(:func:`corporate_income`).  With no capture between corporations that is exactly I(n + u).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import NamedTuple

from judge.payola.options import Options
from judge.payola.treasury import annual_income, center_income

ZEROSUM_CENTER = 10
"""Zero Sum (6.7): the AgP a center brings at the start (6.7.1), and the one-time bonus for a center
captured for the first time (6.7.2)."""


def standard_income(centers: int, victory: int, options: Options) -> int:
    """I(n): the rule 2.1 income (6.6 scheme, cap) of a power owning ``centers`` centers."""
    return annual_income(centers, victory, options)


def default_worths(owned: Collection[str], victory: int, options: Options) -> dict[str, int]:
    """E22: floor(I(n) / n) for each owned center, and the remainder one AgP each to the centers in
    alphabetical order (Russia's 62 over MOS SEV STP WAR: 16 16 15 15)."""
    centers = sorted(owned)
    if not centers:
        return {}
    total = standard_income(len(centers), victory, options)
    share, rest = divmod(total, len(centers))
    return {center: share + (1 if i < rest else 0) for i, center in enumerate(centers)}


class CenterIncome(NamedTuple):
    """What one owned center pays at the Income step, and whether it was priced that year."""

    center: str
    amount: int
    priced: bool


def corporate_income(
    owned: Collection[str], worths: Mapping[str, int], victory: int, options: Options,
) -> tuple[tuple[CenterIncome, ...], int]:
    """E27: each owned center's income (priced ones first, each group alphabetical) and the total,
    capped as a whole under ``INCOME_CAP``.  The unpriced centers continue the scale above the
    priced ones in alphabetical order (the total does not depend on that order)."""
    priced = sorted(c for c in owned if c in worths)
    unpriced = sorted(c for c in owned if c not in worths)
    lines = [CenterIncome(c, worths[c], True) for c in priced]
    lines += [CenterIncome(c, center_income(len(priced) + j, victory, options), False)
              for j, c in enumerate(unpriced, 1)]
    total = sum(line.amount for line in lines)
    if options.income_cap is not None:
        total = min(total, options.income_cap)
    return tuple(lines), total
