"""What an offer sheet's form lists of a power's units, in Payola and Exchange Payola alike: each unit
with the orders it may be given (`judge.engine.legal.legal_orders`), in short (``- BUR``, ``S A MAR -
GAS``), as the form's notes (`judge.service.outgoing.forms`, through ``judge.api.note_list``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from judge.engine.legal import legal_orders
from judge.engine.position import Position
from judge.language import gettext as _

MOST = 3
"""The most notes a unit's orders take: past them, its supports and convoys are not listed."""
HELPS = ("S ", "C ")  # a support's or a convoy's short form begins so
UNLISTED = "S/C: a unit may also support or convoy any unit it can reach, where not listed above."
"""The note ending a form whose supports and convoys are not all listed, in English (`unlisted_note` words it)."""


def unlisted_note() -> str:
    """`UNLISTED` in the reader's language: the form's "S/C:" stays, a comment line the parser skips."""
    return _("S/C: a unit may also support or convoy any unit it can reach, where not listed above.")


def unit_choices(position: Position, power: str,
                 listed: Callable[[str, Sequence[str]], list[str]]) -> tuple[list[str], list[str]]:
    """The units of ``power`` in order (``A PAR``), and the notes listing what each may be ordered
    (``listed``: a unit and its orders as notes); a unit whose orders take more than `MOST` notes lists
    its hold and moves alone, and then the notes end saying so (`UNLISTED`)."""
    units: list[str] = []
    notes: list[str] = []
    unlisted = False
    for placed in sorted(position.units_of(power), key=lambda placed: str(placed.unit)):
        unit = str(placed.unit)
        orders = [str(order).removeprefix(unit).strip() for order in legal_orders(position, placed.unit.province)]
        moves = [order for order in orders if not order.startswith(HELPS)]
        helps = [order for order in orders if order.startswith(HELPS)]
        chunks = listed(unit, [*moves, *helps])
        if len(chunks) > MOST:
            chunks, unlisted = listed(unit, moves), unlisted or bool(helps)
        notes.extend(chunks)
        units.append(unit)
    return units, [*notes, unlisted_note()] if unlisted else notes
