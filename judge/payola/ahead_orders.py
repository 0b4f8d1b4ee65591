"""Orders given ahead, as Payola and Exchange Payola read them: a line's shape when it is kept
(`shape_of`), a retreat's ``|`` alternatives made whole (`choices`), and when its phase opens the first of
a unit's orders its power may give now (`first_possible`, `read_now`), by the engine's own check."""

from __future__ import annotations

from collections.abc import Sequence

from judge.engine.legal import check_order
from judge.engine.map import GameMap
from judge.engine.orders import Order, OrderSyntaxError, PhaseKind, parse_order
from judge.engine.position import Position
from judge.language import gettext as _


def choices(line: str) -> list[str]:
    """A retreat line's orders, the first as written and each ``|`` alternative made whole for its unit:
    ``A BUR - PAR | BEL | D`` is ``A BUR - PAR``, ``A BUR - BEL``, ``A BUR D``."""
    first, *alternatives = (part.strip() for part in line.split("|"))
    if not alternatives:
        return [first]
    words = first.split()
    unit = " ".join(words[:2] if words and words[0].upper() in ("A", "F", "ARMY", "FLEET") else words[:1])
    whole = []
    for alternative in alternatives:
        if alternative.upper() in ("D", "DISBAND"):
            whole.append(f"{unit} D")
        elif alternative.startswith("-"):
            whole.append(f"{unit} {alternative}")
        else:
            whole.append(f"{unit} - {alternative}")
    return [first, *whole]


def shape_of(line: str, game_map: GameMap, kind: PhaseKind) -> str | None:
    """Why an order line kept for a phase of ``kind`` cannot be read on ``game_map`` (None: it can): its
    orders, ``|`` alternatives for a retreat alone, each read for its shape."""
    first, *alternatives = choices(line)
    if alternatives and kind is not PhaseKind.RETREAT:
        return _("alternatives (|) are given only for a retreat")
    try:
        for text in (first, *alternatives):
            parse_order(text, game_map, kind)
    except OrderSyntaxError as exc:
        return str(exc)
    return None


def first_possible(position: Position, power: str, texts: Sequence[str]) -> tuple[str, Order] | str:
    """The first of ``texts`` (one unit's orders, best first) that ``power`` may give now, with its order;
    else why the first may not."""
    why = ""
    for text in texts:
        try:
            order = parse_order(text, position.game_map, position.phase.kind)
        except OrderSyntaxError as exc:
            why = why or str(exc)
            continue
        verdict = check_order(position, power, order)
        if verdict.illegal is None:
            return text, order
        why = why or verdict.illegal.message
    return why


def read_now(position: Position, power: str, line: str) -> tuple[str | None, str, Order | None]:
    """A unit's order line kept ahead (``|`` alternatives for a retreat) as ``power`` sends it now: the order
    sent (None: none of them is possible), why it is not the line's first, and the order read."""
    first, *alternatives = choices(line)
    chosen = first_possible(position, power, [first, *alternatives])
    if isinstance(chosen, str):
        return None, chosen, None
    text, order = chosen
    why = "" if text == first else _("{order} is not possible now, and the first alternative that is was taken",
                                      order=first)
    return text, why, order
