"""Exchange Payola's part of the lines kept for a later phase (``PHASE W1901A``: the host's blocks).

Theory of operation.  The phases that may follow are the year's (`following`): spring movement, spring
retreats, fall movement, fall retreats, winter adjustments, the Exchange phase (E29), and the next spring;
a retreat phase the game skips is named all the same, and a block for it is dropped when the game goes
past it.  The Income step is no phase anyone writes for.

What a block may hold (`check_ahead`) is what a CEO writes for its corporation in a board phase, and the
investor's own offers, as Payola keeps them: ``FOR X`` and ``END`` around a corporation's lines (2.1),
offers in a movement phase (rule 3), orders in a retreat or adjustment phase, and ``WORTH`` in a Spring
movement phase (E22), each read for its shape on the board alone, since the phases between change the
units, the treasuries and who is CEO.  The Exchange phase's lines (``BID``, ``SELL``, ``BUY``, ``GIVE``,
``APPROVE``, ``ELECT``, ``PRIORITY``, ``PASS``, ``DIVIDEND``, ``ISSUE``) are refused in a block: they move
money and shares in a sealed market (E8) at prices an investor sets against the treasuries, centres and
holdings the year's board phases and Income step decide, and a ballot (X.4) is cast for the CEOs that
year made; written before those are known they would be guesses the judge could not undo.  ``TRANSFER``,
``ACCEPT``, ``LEDGER``, ``CLEAR``, ``MAP`` and ``VOTE`` act when they are read, so they are refused in a
block too: sent outside it, they act now.

When the phase opens, a block is sent as the investor's mail then (`read_ahead`), so its sheet is checked
whole as every sheet is (ruling 8, E29): a ``FOR X`` block from an investor who is no longer X's CEO, or
an offer to a unit that is gone, refuses the sheet, each line answered.  Orders are the corporation's
own, each on its own line, so each is taken for what is possible now, as in Payola: a retreat may name
alternatives (``A BUR - PAR | BEL``, or ``| D`` to disband), the first one possible then being taken; an
order no longer possible is left out, saying why, so that it does not refuse the sheet; an adjustment
block's builds (or removals) are taken in the order written up to the number the corporation's centres
allow then, the rest left out.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.orm import Session

from judge.api import Command, Game
from judge.engine.legal import adjustment_count
from judge.engine.map import GameMap, load_map
from judge.engine.notation import NotationError, power_name
from judge.engine.orders import Build, Disband, PhaseKind, Remove
from judge.engine.position import Phase
from judge.games.exchange import stored
from judge.games.exchange.core.state import Stage
from judge.games.exchange.handlers import SheetLine
from judge.games.exchange.reading import EXCHANGE_WORDS
from judge.language import gettext as _
from judge.language import ngettext
from judge.payola.ahead_orders import read_now, shape_of
from judge.payola.offers import shape_error

CYCLE = 6
"""The phases `following` names: one year's cycle of the game, from any phase."""
_NEXT = {"SM": "SR", "SR": "FM", "FM": "FR", "FR": "WA", "WA": "WX", "WX": "SM"}
_ACTING = frozenset({"TRANSFER", "ACCEPT", "LEDGER"})
"""Sheet words that act when they are read (E5, rule 4.3, E24), not in a phase."""


def following(phase: str) -> tuple[str, ...]:
    """The `CYCLE` phases that may come after ``phase``, nearest first (``W1900X``: ``S1901M`` on)."""
    names = []
    key, year = phase[0] + phase[-1], int(phase[1:-1])
    for _step in range(CYCLE):
        key = _NEXT[key]
        year += key == "SM"
        names.append(f"{key[0]}{year:04d}{key[1]}")
    return tuple(names)


def check_ahead(game: Game, phase: str, command: Command) -> str | None:
    """Why a line read as ``command`` cannot be kept for ``phase``, in words (see the module's header)."""
    if not isinstance(command, SheetLine):
        return _("not kept for {phase}: this command acts when it is read, not in a phase; send it outside the "
                 "PHASE block to do it now", phase=phase)
    text = command.text
    key = text.split()[0].upper().rstrip(".,:;!")
    if phase.endswith("X") or key in EXCHANGE_WORDS - {"WORTH"}:
        return _("the Exchange phase's lines are not kept ahead: bids, sales and ballots are written against the "
                 "treasuries, centres and holdings the year decides, so send them in the Exchange phase itself")
    if key in _ACTING:
        return _("not kept for {phase}: {word} acts when it is read, not in a phase; send it outside the PHASE "
                 "block to do it now", phase=phase, word=key)
    game_map = load_map(game.variant)
    kind = Phase.parse(phase).kind
    if key in ("FOR", "END"):
        return _part_error(game_map, text.split())
    if key == "WORTH":
        return None if phase.startswith("S") and kind is PhaseKind.MOVEMENT else (
            _("WORTH is written only in a Spring movement phase (E22)"))
    if text[0].isdigit() or text[0] in "-.\u2013\u2014\u2212":
        if kind is not PhaseKind.MOVEMENT:
            return _("offers are only taken in a movement phase, and {phase} is not one", phase=phase)
        return shape_error(text, game_map, stored.options_of(game).payola)
    if kind is PhaseKind.MOVEMENT:
        return _("in a movement phase units are bribed, not ordered: send offers for {phase}", phase=phase)
    return shape_of(text, game_map, kind)


def read_ahead(session: Session, game: Game, seat: str, lines: Sequence[str]) -> list[tuple[str, str | None, str]]:
    """A block's lines as the investor sends them now that their phase opens (see the module's header): for
    each line, the line sent (None: none) and why, where it is not sent as written."""
    state = stored.state_now(session, game)
    assert state is not None
    position = state.position
    if state.stage is not Stage.BOARD or position.phase.kind is PhaseKind.MOVEMENT:
        return [(line, line, "") for line in lines]
    room: dict[str, int] = {}
    corporation: str | None = None
    taken: list[tuple[str, str | None, str]] = []
    for line in lines:
        words = line.split()
        key = words[0].upper() if words else ""
        if key in ("FOR", "END"):
            corporation = _corporation(position.game_map, words[1]) if key == "FOR" and len(words) == 2 else None
            taken.append((line, line, ""))
            continue
        if corporation is None or key == "WAIT":  # the investor's own, or the host's: the sheet answers them
            taken.append((line, line, ""))
            continue
        text, why, order = read_now(position, corporation, line)
        if text is None:
            taken.append((line, None, why))
            continue
        if isinstance(order, Build | Remove | Disband) and position.phase.kind is PhaseKind.ADJUSTMENT:
            due = adjustment_count(position, corporation)
            left = room.setdefault(corporation, abs(due))
            if left <= 0:
                taken.append((line, None, _no_room(corporation, due)))
                continue
            room[corporation] = left - 1
        taken.append((line, text, why))
    return taken


def _no_room(corporation: str, due: int) -> str:
    """Why an adjustment is left out once ``corporation``'s ``due`` builds (or removals) are taken."""
    if due > 0:
        return ngettext("{corporation}'s centres allow {count} build now, and the lines before it took it",
                        "{corporation}'s centres allow {count} builds now, and the lines before it took them", due,
                        corporation=corporation)
    if due < 0:
        return ngettext("{corporation} must remove {count} unit now, and the lines before it did",
                        "{corporation} must remove {count} units now, and the lines before it did", -due,
                        corporation=corporation)
    return _("{corporation} has no build or removal to make now", corporation=corporation)


def _part_error(game_map: GameMap, words: list[str]) -> str | None:
    """What is wrong with a ``FOR X`` or ``END`` line as written; None if nothing is."""
    if words[0].upper() == "END":
        return None if len(words) == 1 else _("END takes nothing after it")
    if len(words) != 2 or _corporation(game_map, words[1]) is None:
        return _("expected FOR and a corporation's name or initial (FOR FRANCE, FOR F)")
    return None


def _corporation(game_map: GameMap, word: str) -> str | None:
    """The corporation ``word`` names (a power's name or initial), or None."""
    try:
        return power_name(game_map, word)
    except NotationError:
        return None
