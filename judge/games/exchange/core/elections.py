"""Elections of CEOs (X.4, E14-E18), counted at step h of the Exchange phase.

Every investor holding shares of X at the count votes with one vote a share (E14); pool shares
do not vote.  A holder's ballot is their last ``ELECT X …`` (E14); without one, they vote for the
sitting CEO if the sitting CEO is eligible, and otherwise abstain (E16).  Only investors holding
at least one share of X at the count are eligible; votes for anyone else are void (E15).  The
most votes wins; a tie goes to the tied candidate named on the outgoing CEO's ballot (even if
the outgoing CEO holds no share any more), else to the tied candidate earliest in the investor
order (E17).  No valid vote: leaderless for the year (E18).

The outgoing CEO's *ballot*, for E17, is their ``ELECT X`` line, or if they sent none and hold
shares of X, what E16 makes of their silence: a vote for the sitting CEO, themselves (the
judge's reading: the same ballot that counts in the tally breaks the tie).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from judge.games.exchange.core.record import Election, Reason

Ballots = Mapping[str, str | None]
"""Each investor's standing ballot for one corporation: a candidate, or None to abstain."""


def cast(holdings: Mapping[str, int], ballots: Ballots, sitting: str | None) -> dict[str, str | None]:
    """Each holder's vote (E14, E16): their ballot, or the sitting CEO if eligible, or None."""
    default = sitting if sitting is not None and holdings.get(sitting, 0) > 0 else None
    return {holder: ballots.get(holder, default) for holder, n in holdings.items() if n > 0}


def elect(
    corporation: str, holdings: Mapping[str, int], ballots: Ballots, sitting: str | None, order: Sequence[str],
) -> Election:
    """The election of ``corporation``'s CEO from the holdings at the count (E14-E18)."""
    tally: dict[str, int] = {}
    for holder, candidate in cast(holdings, ballots, sitting).items():
        if candidate is not None and holdings.get(candidate, 0) > 0:
            tally[candidate] = tally.get(candidate, 0) + holdings[holder]
    rank = {investor: i for i, investor in enumerate(order)}
    listed = tuple(sorted(tally.items(), key=lambda item: (-item[1], rank.get(item[0], len(rank)), item[0])))
    if not listed:
        return Election(corporation, (), None, Reason.NO_VOTES, sitting)
    top = listed[0][1]
    tied = [candidate for candidate, votes in listed if votes == top]
    if len(tied) == 1:
        return Election(corporation, listed, tied[0], Reason.PLURALITY, sitting)
    if sitting is not None:
        choice = ballots[sitting] if sitting in ballots else cast(holdings, ballots, sitting).get(sitting)
        if choice in tied:
            return Election(corporation, listed, choice, Reason.OUTGOING_CEO, sitting)
    return Election(corporation, listed, tied[0], Reason.INVESTOR_ORDER, sitting)
