"""Treasuries (rule 2 and the income variants of rule 6): income, transfers, forfeits, Zero Sum.

Balances are plain mappings from power to silver pieces; every function returns the new
balances and the :class:`LedgerEntry` values that explain the change, so the store can keep
a ledger whose sum is always the balance.

On every board (rule 6.2, ruling 13) income follows the board's victory count, which the
caller passes in (``GameMap.victory_centers``): nothing here knows the standard board's
18.  A power that begins with units but no supply center (Void) gets initial funds instead
(:func:`void_start`); on a board whose data says so (Void: DPjudge's Payola rule
``NO_DONATIONS``) an eliminated power may not transfer money (:func:`may_transfer`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from judge.engine.position import Position
from judge.language import gettext as _
from judge.payola.options import IncomeScheme, Options


class TreasuryError(ValueError):
    """A money movement the rules do not allow."""


class EntryKind(Enum):
    INCOME = "income"
    TRANSFER = "transfer"
    PAYMENT = "payment"
    REFUND = "refund"
    FORFEIT = "forfeit"
    ZEROSUM = "zerosum"
    VOID = "void"  # initial funds of a power that begins with units but no centers (rule 6.2)


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One change of one power's balance: positive in, negative out."""

    power: str
    amount: int
    kind: EntryKind
    note: str = ""


def center_income(index: int, victory: int, options: Options) -> int:
    """Income of a power's ``index``-th supply center (1-based), never below zero.

    Standard (2.1): one less than the victory count for the first center, one less again for
    each further one; ``INCOME=FIXED:n`` pays n for each; ``INCOME=INCREASING:n`` pays n for the
    first and one more for each further one; ``INCOME=DECREASING:n`` starts from n.
    """
    scheme = options.income_scheme
    if scheme is IncomeScheme.FIXED:
        return options.income_first or 0
    if scheme is IncomeScheme.INCREASING:
        return (options.income_first if options.income_first is not None else 1) + index - 1
    first = options.income_first if options.income_first is not None else victory - 1
    return max(0, first - (index - 1))


def annual_income(centers: int, victory: int, options: Options | None = None) -> int:
    """A power's income from ``centers`` supply centers (the table of rule 2.1), capped if asked."""
    options = options or Options()
    total = sum(center_income(i, victory, options) for i in range(1, centers + 1))
    return total if options.income_cap is None else min(total, options.income_cap)


def void_funds(units: int, victory: int, options: Options | None = None) -> int:
    """Rule 6.2: a power starting with units but no centers gets half what one center per unit
    would bring it, rounded up (ruling 13: one unit with victory 18 gets 17 / 2 -> 9, as DPjudge
    gives).  Under Zero Sum that is the treasury a center brings at the start, 10 AgP (6.7.1)."""
    options = options or Options()
    full = 10 * units if options.zerosum else annual_income(units, victory, options)
    return (full + 1) // 2


def void_start(
    balances: Mapping[str, int], position: Position, options: Options | None = None
) -> tuple[dict[str, int], list[LedgerEntry]]:
    """Rule 6.2 at the start of a game: initial funds for every power with units and no center."""
    new = dict(balances)
    entries: list[LedgerEntry] = []
    for power in position.game_map.powers:
        units = len(position.units_of(power))
        if units and not position.centers_of(power):
            amount = void_funds(units, position.game_map.victory_centers, options)
            if amount:
                new[power] = new.get(power, 0) + amount
                entries.append(LedgerEntry(power, amount, EntryKind.VOID, f"{units} units and no supply center"))
    return new, entries


def may_transfer(position: Position, power: str) -> bool:
    """Whether a power may transfer money (rule 2.3).  On a board without donations (Void,
    DPjudge's Payola rule ``NO_DONATIONS``: "the powers that have been eliminated may not
    transfer funds") an eliminated power, one with no unit, no center and no unit to retreat,
    may not."""
    if position.game_map.eliminated_may_transfer:
        return True
    return bool(
        position.centers_of(power)
        or position.units_of(power)
        or any(d.power == power for d in position.dislodged.values())
    )


def income_due(season: str, options: Options) -> bool:
    """Whether income is paid before a movement phase of this season (2.1, 6.6; none in Zero Sum)."""
    if options.zerosum:
        return False
    return season == "S" or (options.income_twice and season == "F")


def pay_income(
    balances: Mapping[str, int], centers: Mapping[str, int], victory: int, options: Options | None = None
) -> tuple[dict[str, int], list[LedgerEntry]]:
    """Rule 2.1: add each power's income from its supply centers to its balance."""
    options = options or Options()
    new = dict(balances)
    entries: list[LedgerEntry] = []
    for power, count in centers.items():
        amount = annual_income(count, victory, options)
        if amount:
            new[power] = new.get(power, 0) + amount
            entries.append(LedgerEntry(power, amount, EntryKind.INCOME, f"{count} supply centers"))
    return new, entries


def transfer(
    balances: Mapping[str, int], sender: str, receiver: str, amount: int, allowed: bool = True
) -> tuple[dict[str, int], list[LedgerEntry]]:
    """Rule 2.3: move money between two powers (to any power, eliminated ones included).

    ``allowed``: :func:`may_transfer` for the sender (false for an eliminated power on Void).
    """
    if not allowed:
        raise TreasuryError(_("an eliminated power may not transfer money on this board (no donations)"))
    if amount <= 0:
        raise TreasuryError(_("a transfer must be of at least one silver piece"))
    if sender == receiver:
        raise TreasuryError(_("a power cannot transfer money to itself"))
    if receiver not in balances:
        raise TreasuryError(_("there is no power {power} in this game", power=receiver))
    if balances.get(sender, 0) < amount:
        raise TreasuryError(_("the balance ({balance} AgP) is smaller than {amount} AgP",
                              balance=balances.get(sender, 0), amount=amount))
    new = dict(balances)
    new[sender] -= amount
    new[receiver] += amount
    return new, [
        LedgerEntry(sender, -amount, EntryKind.TRANSFER, f"to {receiver}"),
        LedgerEntry(receiver, amount, EntryKind.TRANSFER, f"from {sender}"),
    ]


def forfeit(balances: Mapping[str, int], power: str) -> tuple[dict[str, int], list[LedgerEntry]]:
    """Rule 2.4: an eliminated power that resigns loses what is left in its treasury."""
    amount = balances.get(power, 0)
    new = dict(balances)
    new[power] = 0
    return new, ([LedgerEntry(power, -amount, EntryKind.FORFEIT, "resigned while eliminated")] if amount else [])


def zerosum_start(centers: Mapping[str, int]) -> dict[str, int]:
    """Rule 6.7.1: ten silver pieces per owned supply center."""
    return {power: 10 * count for power, count in centers.items()}


def zerosum_year_end(
    balances: Mapping[str, int],
    paid_to_units: Mapping[str, int],
    centers_at_start: Mapping[str, str],
    centers_now: Mapping[str, str],
    ever_owned: frozenset[str],
    blind: bool = False,
) -> tuple[dict[str, int], list[LedgerEntry]]:
    """Rule 6.7.2, at the end of a Fall turn.

    ``paid_to_units`` is what successful offers paid to each power's units during the year
    (deposited to that power); a neutral center captured for the first time earns its new
    owner 10; an owned center changing hands earns the new owner the old owner's treasury
    divided by the old owner's number of centers at the start of the year (rounded down),
    taken from the old owner.  The treasury divided is the one after the deposits and before
    any capture transfer (ruling 12), so each center lost moves the same share whatever the
    order in which the centers are named.  Under ``BLIND`` (Tin Cup) the loser of a center is
    not told who took it: the center may be out of its sight.
    """
    new = dict(balances)
    entries: list[LedgerEntry] = []

    def move(power: str, amount: int, note: str) -> None:
        if amount:
            new[power] = new.get(power, 0) + amount
            entries.append(LedgerEntry(power, amount, EntryKind.ZEROSUM, note))

    for power, amount in sorted(paid_to_units.items()):
        move(power, amount, "bribes paid to its units this year")
    treasury = dict(new)  # ruling 12: every lost center takes a share of the treasury as it stands here
    counts_at_start: dict[str, int] = {}
    for owner in centers_at_start.values():
        counts_at_start[owner] = counts_at_start.get(owner, 0) + 1
    for center, owner in sorted(centers_now.items()):
        before = centers_at_start.get(center)
        if before == owner:
            continue
        if before is None:
            if center not in ever_owned:
                move(owner, 10, f"first capture of {center}")
            continue
        share = treasury.get(before, 0) // max(1, counts_at_start.get(before, 1))
        move(before, -share, f"{center} lost" if blind else f"{center} lost to {owner}")
        move(owner, share, f"{center} taken from {before}")
    return new, entries
