"""A player's form to fill in a match of Pirates' Proposal (`judge.api.Form`): what they may send in
the open phase, with ``_`` where they choose, and what they need to fill it.

Theory of operation.  `form_parts` is a pure function of the match as the phase opened and of the
player, built from what that player's own views hold (`judge.games.pirates.core.views`: their room,
package, gold and garnets, what they receive under each plan of their room), so that it shows
nothing the rules keep from them (P10).  Each line holds a ``_`` that no reader of the game takes
for a value: an amount of gold, a garnet count, a YES or NO, a name left blank refuses the plan,
the ballot or the gift it is in (P3, P5, P11).

- **Distribution Phase**: the plan skeleton, ``PLAN ME _ Bob _`` with every member of the player's
  room (``ME`` for themselves), the package to share and, in a match that gave garnets, a
  ``GARNETS _`` line (P5, P7).
- **Voting Phase**: the ballot, a ``VOTE _ name`` line for every plan of the room, their own as
  ``VOTE _ ME``; all of them are one ballot (P3).  ``MOVE`` is said in a note, where the player
  may still change rooms (P9): a line of the form with nothing to choose would be read as written.
- **Final phase**: ``GIVE TOKEN _`` for the single richest player alone (P11); nobody else has
  anything to send.
"""

from __future__ import annotations

from judge.api import counted
from judge.games.pirates.core.match import MOVES, Match, Refused, Stage, check_move, final_result
from judge.games.pirates.core.views import distribution_view, voting_view

Parts = tuple[list[str], list[str]]
"""A form's notes and lines."""


def form_parts(match: Match, player: str) -> Parts | None:
    """The notes and lines of ``player``'s form in the phase ``match`` has open (see the module's
    header); None where they have nothing to send (not the richest in the final phase)."""
    phase = match.current_phase
    if phase is None or player not in match.players:
        return None
    if phase.stage is Stage.DISTRIBUTION:
        return _plan(match, player, phase.round)
    if phase.stage is Stage.VOTING:
        return _ballot(match, player, phase.round)
    result = final_result(match)
    if result.extra_token != player:
        return None
    others = ", ".join(name for name in match.players if name != player)
    return ([f"You have more gold than every other player: replace the _ of GIVE TOKEN with the player you give "
             f"the extra Token of Life to (P11): {others}."], ["GIVE TOKEN _"])


def _plan(match: Match, player: str, number: int) -> Parts:
    """The plan skeleton of a Distribution Phase (P5, P7)."""
    view = distribution_view(match, player, number)
    notes = [f"Round {view.round} of {view.rounds}. Your room: {', '.join(view.room)}. Your gold: {view.gold}.",
             f"Replace each _ of the PLAN line with the gold that member gets (0 for none): the amounts add up to "
             f"exactly the package, {view.package} gold (P5)."]
    lines = ["PLAN " + " ".join(f"{'ME' if member == player else member} _" for member in view.room)]
    if match.garnets:
        notes.append(f"You hold {counted(view.garnets, 'garnet')}: each one spent adds 5 gold to share. Replace the "
                     "_ of GARNETS with how many to spend, or leave it as it is to spend none (P7).")
        lines.append("GARNETS _")
    return notes, lines


def _ballot(match: Match, player: str, number: int) -> Parts:
    """The ballot of a Voting Phase: every plan of the room, by proposer (P3), and MOVE where it may be
    asked for (P9)."""
    view = voting_view(match, player, number)
    receipts = ", ".join(f"your own {amount} gold" if proposer == player else f"{proposer}'s {amount} gold"
                         for proposer, amount in view.receipts)
    notes = [f"Round {view.round} of {view.rounds}. What you receive under each plan of your room: {receipts}.",
             "Replace the _ of each VOTE line with YES or NO: as many YES as NO, or one more of either in a room of "
             "odd size (P3)."]
    try:
        check_move(match, player)
    except Refused:
        pass
    else:
        notes.append(f"To change rooms next round, add a line MOVE (at most {MOVES} times a match, P9).")
    return notes, [f"VOTE _ {'ME' if proposer == player else proposer}" for proposer, _ in view.receipts]
