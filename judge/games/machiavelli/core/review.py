"""What a letter will do that its writer may still want to correct (17.1, M35): the judge's
acknowledgment of a letter warns of it, order by order, while a correction is still possible.

Each warning is what the phase will certainly do with an order as the position stands when the
letter is read (a bribe in the same letter may still change a unit's owner, and is taken into
account):

* A.7 (7.1, M12): once the letter holds any payment order, the writer's units it leaves off the
  list are disbanded — warned at the letter's first A.7 order, naming them;
* one unit named by two payment orders (A.7: the later contradicts the earlier and is not
  carried out, 8.1), or given two different operation orders (C: unclear, the unit holds, 8.2);
* an order for a unit the writer does not command: none stands there (8.2), or another's unit
  that no bribe of the letter would make the writer's (buy, or operate an independent one): the
  order is ignored (8.2, M50); a payment for a unit not the writer's is not carried out (7);
* a transfer of 0 ducats, which is none (8.1, M31);
* a unit raised (A.7) where no such unit can ever stand: no city for its kind, or an island that
  holds only a fleet (7.2, M13, M15) — only what the board decides, since a trade of the same
  letter may still change who controls the province.

Nothing here decides anything: the phase does, when it is carried out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from judge.games.machiavelli.core.board import Board
from judge.games.machiavelli.core.expenditures import Bribe, BribeKind, Dismiss, LetterOrder, Pay, Raise, Transfer
from judge.games.machiavelli.core.orders import Order, UnitRef
from judge.games.machiavelli.core.position import Phase, Place, Position
from judge.games.machiavelli.core.results import _
from judge.games.machiavelli.core.spring import unfit_to_raise


class Caveat(Enum):
    """What an order of a letter will come to, worth correcting; ``{unit}`` is the unit concerned, ``{why}``
    the rule's reason (each marked for the kind's catalogue: `judge.games.machiavelli.views.caution_text`
    writes it in the reader's language)."""

    LEFT_OFF = _("payment orders are written, and they leave out {unit}: units not listed are disbanded (7.1, "
                 "M12); add pay orders to keep them")
    PAID_TWICE = _("{unit} is named by an earlier payment order: this one contradicts it and is not carried out "
                   "(8.1)")
    TWO_ORDERS = _("{unit} is given another order in this letter: a unit given two orders holds (8.2)")
    NOT_YOURS = _("{unit} is not yours and no bribe of this letter would make it yours: the order will be ignored "
                  "(8.2, M50)")
    NOT_YOURS_TO_PAY = _("you have no {unit}: the order will not be carried out (7)")
    NO_SUCH_UNIT = _("no {unit} stands there: the order will be ignored (8.2)")
    NO_DUCATS = _("a transfer is of whole ducats, 1 or more: this one will not be carried out (8.1, M31)")
    CANNOT_RAISE = _("{unit} cannot be raised there: {why}")


@dataclass(frozen=True)
class Caution:
    """A caveat on the order at index ``at`` of the letter, about ``subject`` (units as letters write them)."""

    at: int
    caveat: Caveat
    subject: str = ""
    why: str = ""  # the rule's reason, where the caveat quotes one

    def __str__(self) -> str:
        return self.caveat.value.format(unit=self.subject, why=self.why)


def review(board: Board, position: Position, player: str, letter: Sequence[LetterOrder]) -> tuple[Caution, ...]:
    """The cautions on ``player``'s ``letter`` for the phase ``position`` awaits on ``board``, in
    the order of the letter (see the module docstring)."""
    warnings = [Caution(at, Caveat.NO_DUCATS) for at, order in enumerate(letter)
                if isinstance(order, Transfer) and order.amount < 1]
    if position.phase is Phase.A:
        warnings += _payments(position, player, letter)
        warnings += [Caution(at, Caveat.CANNOT_RAISE, str(UnitRef(order.kind, order.area)), unfit.value)
                     for at, order in enumerate(letter)
                     if isinstance(order, Raise) and (unfit := unfit_to_raise(board, order)) is not None]
    elif position.phase is Phase.C:
        warnings += _operations(position, player, letter)
    return tuple(sorted(warnings, key=lambda w: w.at))


def _payments(position: Position, player: str, letter: Sequence[LetterOrder]) -> list[Caution]:
    """A.7's warnings: units named twice or not the player's, and the units left off the list."""
    warnings: list[Caution] = []
    named: set[Place] = set()
    for at, order in enumerate(letter):
        if not isinstance(order, Pay | Dismiss):
            continue
        unit = position.unit_at(order.unit.place)
        if unit is None or unit.owner != player or unit.kind is not order.unit.kind:
            warnings.append(Caution(at, Caveat.NOT_YOURS_TO_PAY, str(order.unit)))
        elif order.unit.place in named:
            warnings.append(Caution(at, Caveat.PAID_TWICE, str(order.unit)))
        named.add(order.unit.place)
    first = next((at for at, order in enumerate(letter) if isinstance(order, Pay | Dismiss | Raise)), None)
    left = sorted(str(UnitRef(u.kind, u.area)) for u in position.units_of(player) if u.place not in named)
    if first is not None and left:
        warnings.append(Caution(first, Caveat.LEFT_OFF, ", ".join(left)))
    return warnings


def _operations(position: Position, player: str, letter: Sequence[LetterOrder]) -> list[Caution]:
    """C's warnings: orders for units the player does not command, and units given two orders."""
    bribed = {order.unit.place for order in letter if isinstance(order, Bribe)
              and order.kind in (BribeKind.BUY, BribeKind.OPERATE)}
    warnings: list[Caution] = []
    given: dict[Place, list[Order]] = {}
    for at, order in enumerate(letter):
        if not isinstance(order, Order):
            continue
        place = order.unit.place
        unit = position.unit_at(place)
        if unit is None or unit.kind is not order.unit.kind:
            warnings.append(Caution(at, Caveat.NO_SUCH_UNIT, str(order.unit)))
        elif unit.owner != player and place not in bribed:
            warnings.append(Caution(at, Caveat.NOT_YOURS, str(order.unit)))
        elif order not in (seen := given.setdefault(place, [])):  # an order repeated is one order (8.2)
            if seen:
                warnings.append(Caution(at, Caveat.TWO_ORDERS, str(order.unit)))
            seen.append(order)
    return warnings
