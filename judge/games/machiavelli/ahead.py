"""Machiavelli's part of the lines kept for a later phase (``PHASE SU1454C``: the host's blocks).

Theory of operation.  The phases that may follow are the game's own course (`following`): a year's spring
letter (A orders, AoP 2 and 5 to 7), then the letters of its spring, summer and fall campaigns (C orders),
then the next year's spring letter.  A block is a letter written ahead: what it may hold is what that
phase's letter takes (`check_ahead`), each line read by the letters' syntax on the scenario's board alone
(`judge.games.machiavelli.core.syntax.parse_letter`), an order of the other letter's phase refused (2, 8.1);
its units and its ducats are not checked then, since the phases between change both.  VOTE, BORDERS and the
game master's SET act when they are read, so they are refused in a block: sent outside it, they act now.

When the phase opens, the block is sent as the country's mail then, whole and as written (the host's
`Commands.read_ahead`, which the kind keeps: a letter has no alternatives to choose among): it is read as one
letter (AoP 2) by the same reading as a mail, so it **counts as the letter sent**, the first one (17.1, M35):
the player may still correct it once before the deadline, and a later block for the same phase, sent before it
opens, replaces the block whole without counting as that correction (the letter was not sent yet). The block
is thus no way round the correction rule: it is one letter, read once. What the phases between changed is
answered then, line by line, as a letter's review answers it: an order for a unit the country no longer has is
warned of (`judge.games.machiavelli.core.review`) and does nothing; money is checked when the phase is carried
out, against the ducats then (M30), as for any letter.  A block of a country no letter is awaited from then
(eliminated, 4.3) is answered so and not applied.  A phase whose every awaited letter came ahead is complete as
it opens, and the clock closes it at its next tick (the kind's `closes_at_next_tick`), unless a country asks
WAIT.
"""

from __future__ import annotations

from judge.api import Command, Game
from judge.games.machiavelli import lifecycle
from judge.games.machiavelli.core.campaign import fits
from judge.games.machiavelli.core.position import Phase
from judge.games.machiavelli.core.syntax import parse_letter
from judge.games.machiavelli.handlers import LetterLine
from judge.language import gettext as _

CYCLE = 4
"""The phases `following` names: one year's course, from any phase."""
_NEXT = {("SP", "A"): ("SP", "C"), ("SP", "C"): ("SU", "C"), ("SU", "C"): ("FA", "C"), ("FA", "C"): ("SP", "A")}


def following(phase: str) -> tuple[str, ...]:
    """The `CYCLE` phases that come after ``phase`` (``SP1454A``), nearest first."""
    names = []
    campaign, year, letter = phase[:2], int(phase[2:-1]), phase[-1]
    for _step in range(CYCLE):
        campaign, letter = _NEXT[campaign, letter]
        year += campaign == "SP" and letter == "A"
        names.append(f"{campaign}{year}{letter}")
    return tuple(names)


def check_ahead(game: Game, phase: str, command: Command) -> str | None:
    """Why a line read as ``command`` cannot be kept for ``phase``, in words (see the module's header)."""
    if not isinstance(command, LetterLine):
        return _("not kept for {phase}: this command acts when it is read, not in a letter; send it outside the "
                 "PHASE block to do it now", phase=phase)
    read, problems = parse_letter(command.text, lifecycle.board_of(game))
    if problems:
        return problems[0].message
    if any(not fits(order, Phase(phase[-1])) for order in read):
        return _("read as '{orders}', which is no order of {label} (2, 8.1)", orders="; ".join(map(str, read)),
                 label=lifecycle.label(phase))
    return None
