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

from judge.games.pirates.core.match import MOVES, Match, Refused, Stage, check_move, final_result
from judge.games.pirates.core.views import distribution_view, voting_view
from judge.language import gettext as _
from judge.language import ngettext

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
    return ([_("You have more gold than every other player: replace the _ of GIVE TOKEN with the player you give "
               "the extra Token of Life to (P11): {names}.", names=others)], ["GIVE TOKEN _"])


def _plan(match: Match, player: str, number: int) -> Parts:
    """The plan skeleton of a Distribution Phase (P5, P7)."""
    view = distribution_view(match, player, number)
    notes = [_("Round {round} of {rounds}. Your room: {names}. Your gold: {gold}.", round=view.round,
               rounds=view.rounds, names=", ".join(view.room), gold=view.gold),
             _("Replace each _ of the PLAN line with the gold that member gets (0 for none): the amounts add up to "
               "exactly the package, {amount} gold (P5).", amount=view.package)]
    lines = ["PLAN " + " ".join(f"{'ME' if member == player else member} _" for member in view.room)]
    if match.garnets:
        notes.append(ngettext("You hold {count} garnet: each one spent adds 5 gold to share. Replace the _ of GARNETS "
                              "with how many to spend, or leave it as it is to spend none (P7).",
                              "You hold {count} garnets: each one spent adds 5 gold to share. Replace the _ of GARNETS "
                              "with how many to spend, or leave it as it is to spend none (P7).", view.garnets))
        lines.append("GARNETS _")
    return notes, lines


def _ballot(match: Match, player: str, number: int) -> Parts:
    """The ballot of a Voting Phase: every plan of the room, by proposer (P3), and MOVE where it may be
    asked for (P9)."""
    view = voting_view(match, player, number)
    receipts = ", ".join(_("your own {amount} gold", amount=amount) if proposer == player
                         else _("{proposer}'s {amount} gold", proposer=proposer, amount=amount)
                         for proposer, amount in view.receipts)
    notes = [_("Round {round} of {rounds}. What you receive under each plan of your room: {receipts}.",
               round=view.round, rounds=view.rounds, receipts=receipts),
             _("Replace the _ of each VOTE line with YES or NO: as many YES as NO, or one more of either in a room of "
               "odd size (P3).")]
    try:
        check_move(match, player)
    except Refused:
        pass
    else:
        notes.append(_("To change rooms next round, add a line MOVE (at most {most} times a match, P9).", most=MOVES))
    return notes, [f"VOTE _ {'ME' if proposer == player else proposer}" for proposer, _amount in view.receipts]
