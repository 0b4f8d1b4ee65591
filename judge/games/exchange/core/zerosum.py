"""Zero Sum Payola (rule 6.7) in an Exchange game: how its corporations' money moves without
tax income.

Theory of operation.  Rule 6.7 replaces income by three movements of money, and Exchange reads
each for corporations (the powers, X.1.1) and investors (who own no power), keeping every AgP
accounted for (Σ purses + Σ treasuries + Σ owed + destroyed = minted):

1. *No income* (6.7.2), so nothing for a worth to set: a CEO's ``WORTH`` is refused (the sheet's
   ``Refusal.WORTH_ZEROSUM``) and the Income step pays no center.  The starting money is 6.7.1's
   10 AgP a center, held by the investors as E4 holds a standard start's: the default FUNDS is
   floor(10 * the corporations' home centers / investors) (`options.default_funds`), and the
   corporations start with 0 (E4).
2. *Bribes go to the bribed unit's owner* (6.7.2, first point).  What an accepted offer pays,
   from a corporation's treasury or an investor's purse, is owed to the corporation owning the
   unit (``ExchangeState.owed``) and paid into its treasury at the Income step, the end of the
   fiscal year (E27; no money moves between Fall and that step, so it is 6.7's "conclusion of
   the Fall turn").  A bribe to a unit of a power nobody plays (Known World 901's Neutral State)
   has no treasury to go to: it is destroyed, as every bribe is in standard Payola (E6).
3. *Captures* (6.7.2, second and third points), settled at the Income step after the deposits:
   a center no corporation has ever owned (a neutral one, or a power's nobody plays) earns its
   first corporate owner 10 AgP (new money, counted in ``minted``); a center that a corporation
   owned when the year's Spring opened (``year_owners``) and another corporation owns now moves
   floor(the loser's treasury / the centers it owned at that Spring) from the loser to the
   taker, the treasury taken as it stands after the deposits and before any capture (Payola's
   ruling 12: each lost center takes the same share, whatever the order).  A center a power
   nobody plays takes moves no money: that power has no treasury.  This is the arithmetic of
   :func:`judge.payola.treasury.zerosum_year_end`, with the ledger lines a CEO reads (E38); a
   test holds the two to the same sums.

Every investor stays informed as E39 asks: their purse moves only by what they paid for their
own offers (rule 5.7, as in standard Payola); the corporate movements are in each corporation's
ledger and its CEO's Income-step mail (E38), its treasury in the annual report (E37).  A
corporation left with no center after the captures is eliminated (E31) and what its treasury
kept is liquidated to its holders at the next Exchange phase.
"""

from __future__ import annotations

from collections.abc import Mapping

from judge.games.exchange.core.income import ZEROSUM_CENTER
from judge.games.exchange.core.state import ExchangeState, LedgerKind, LedgerLine


def owed_bribes(paid_to: Mapping[str, int], corporations: tuple[str, ...]) -> tuple[dict[str, int], int]:
    """What one movement phase's bribes add to each corporation's ``owed`` (by the owner of the
    unit that took them), and what is destroyed: bribes to units of a power no player takes."""
    owed = {owner: amount for owner, amount in paid_to.items() if owner in corporations and amount}
    return owed, sum(paid_to.values()) - sum(owed.values())


def year_end(state: ExchangeState, phase: str) -> tuple[dict[str, int], dict[str, list[LedgerLine]], int]:
    """The Income step under ZEROSUM (see the header, 2 and 3): the new treasuries, each
    corporation's ledger lines, and the AgP minted (the first-capture bonuses)."""
    live = state.live
    treasuries = dict(state.treasuries)
    lines: dict[str, list[LedgerLine]] = {}

    def move(corporation: str, kind: LedgerKind, amount: int, center: str = "", who: str = "") -> None:
        if amount:
            treasuries[corporation] += amount
            lines.setdefault(corporation, []).append(LedgerLine(phase, kind, amount, who=who, center=center))

    for corporation in live:
        move(corporation, LedgerKind.ZEROSUM_DEPOSIT, state.owed.get(corporation, 0))
    before = dict(treasuries)  # Payola's ruling 12: every lost center takes a share of this
    counts: dict[str, int] = {}
    for owner in state.year_owners.values():
        counts[owner] = counts.get(owner, 0) + 1
    minted = 0
    for center, owner in sorted(state.position.centers.items()):
        if owner not in live:
            continue
        loser = state.year_owners.get(center)
        if loser == owner:
            continue
        if loser is None:
            if center not in state.ever_owned:
                move(owner, LedgerKind.FIRST_CAPTURE, ZEROSUM_CENTER, center=center)
                minted += ZEROSUM_CENTER
            continue
        share = before[loser] // counts[loser]
        move(loser, LedgerKind.CENTER_LOST, -share, center=center, who=owner)
        move(owner, LedgerKind.CENTER_TAKEN, share, center=center, who=loser)
    return treasuries, lines, minted
