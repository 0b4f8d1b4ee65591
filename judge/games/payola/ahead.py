"""Payola's part of the lines kept for a later phase (``PHASE F1901R``: the host's blocks).

Theory of operation.  The phases that may follow are the board's own cycle (`following`): spring
movement, spring retreats, fall movement, fall retreats, winter adjustments, and the next spring; a
retreat phase the game skips (nobody dislodged) is named all the same, and a block for it is dropped
when the game goes past it.  What a block may hold is what its phase takes (`check_ahead`): offers in
a movement phase (orders too under LOYAL_UNITS, for the power's own units), orders in a retreat or
adjustment phase, each read for its shape on the board alone, since the phases between change the units
and the treasury.  ACCEPT, TRANSFER, VOTE and the rest act when they are read, so they are refused in a
block: sent outside it, they act now.

When the phase opens, a block is sent as the power's mail then (`read_ahead`).  An offer sheet is read
whole, as rule 3 reads every sheet: an offer to a unit that is gone refuses the sheet, and its amounts
are cut by rule 3 against the treasury as it stands then.  Orders are the power's own, given each on its
own line, so each is taken for what is possible now: a retreat may name alternatives (``A BUR - PAR |
BEL``, or ``| D`` to disband), the first one possible then being taken; an order no longer possible
(a unit not dislodged, a build on a centre lost or filled) is left out, saying why, so that it does not
refuse the others; an adjustment block's builds (or removals) are taken in the order written up to the
number the centres allow then, the rest left out.  In a Tin Cup game (rule 6.3) the retreats are taken
on the board as the power sees it, as its orders then would be.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.orm import Session

from judge import api
from judge.api import Command, Game
from judge.engine.legal import adjustment_count
from judge.engine.map import load_map
from judge.engine.orders import Build, Disband, PhaseKind, Remove
from judge.engine.position import Phase
from judge.games.payola import commands, lifecycle
from judge.games.payola.commands import OfferLine, OrderLine
from judge.games.payola.lifecycle import free_home_centers
from judge.language import gettext as _
from judge.language import ngettext
from judge.payola.ahead_orders import read_now, shape_of
from judge.payola.offers import shape_error

CYCLE = 5
"""The phases `following` names: one year's cycle of the board, from any phase."""
_NEXT = {("S", "M"): ("S", "R"), ("S", "R"): ("F", "M"), ("F", "M"): ("F", "R"), ("F", "R"): ("W", "A"),
         ("W", "A"): ("S", "M")}


def following(phase: str) -> tuple[str, ...]:
    """The `CYCLE` phases of the board that may come after ``phase``, nearest first."""
    names = []
    season, year, kind = phase[0], int(phase[1:-1]), phase[-1]
    for _step in range(CYCLE):
        season, kind = _NEXT[season, kind]
        year += season == "S" and kind == "M"
        names.append(f"{season}{year:04d}{kind}")
    return tuple(names)


def check_ahead(game: Game, phase: str, command: Command) -> str | None:
    """Why a line read as ``command`` cannot be kept for ``phase``, in words (see the module's header)."""
    kind = Phase.parse(phase).kind
    options = lifecycle.options_of(game)
    game_map = load_map(game.variant)
    if isinstance(command, OfferLine):
        if kind is not PhaseKind.MOVEMENT:
            return _("offers are only taken in a movement phase, and {phase} is not one", phase=phase)
        return shape_error(command.text, game_map, options)
    if not isinstance(command, OrderLine):
        return _("not kept for {phase}: this command acts when it is read, not in a phase; send it outside the "
                 "PHASE block to do it now", phase=phase)
    if kind is PhaseKind.MOVEMENT and not options.loyal_units:
        return _("in a movement phase units are bribed, not ordered: send offers for {phase}", phase=phase)
    return shape_of(command.text, game_map, kind)


def read_ahead(session: Session, game: Game, seat: str, lines: Sequence[str]) -> list[tuple[str, str | None, str]]:
    """A block's lines as the power sends them now that their phase opens (see the module's header): for each
    line, the line sent (None: none) and why, where it is not sent as written."""
    row = api.current_phase(session, game)
    assert row is not None
    position = lifecycle.position_of(row)
    if position.phase.kind is PhaseKind.MOVEMENT:
        return [(line, line, "") for line in lines]
    if lifecycle.options_of(game).blind and position.phase.kind is PhaseKind.RETREAT:
        position = lifecycle.sight_now(session, game, seat, row).after
    due = adjustment_count(position, seat) if position.phase.kind is PhaseKind.ADJUSTMENT else 0
    room = min(due, len(free_home_centers(position, seat))) if due > 0 else -due
    taken: list[tuple[str, str | None, str]] = []
    for line in lines:
        if not isinstance(commands.read(line, game.variant), OrderLine):  # WAIT: the host's
            taken.append((line, line, ""))
            continue
        text, why, order = read_now(position, seat, line)
        if text is None:
            taken.append((line, None, why))
            continue
        if isinstance(order, Build | Remove | Disband) and position.phase.kind is PhaseKind.ADJUSTMENT:
            if room <= 0:
                taken.append((line, None, ngettext(
                    "your centres allow {count} build now, and the lines before it took it",
                    "your centres allow {count} builds now, and the lines before it took them", due - room)
                    if due > 0 else ngettext("you must remove {count} unit now, and the lines before it did",
                                             "you must remove {count} units now, and the lines before it did", -due)))
                continue
            room -= 1
        taken.append((line, text, why))
    return taken

