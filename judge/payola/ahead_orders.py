"""Orders given ahead, as Payola and Exchange Payola read them when their phase opens: a retreat's
``|`` alternatives made whole (`choices`), and the first of a unit's orders its power may give now
(`first_possible`), by the engine's own check."""

from __future__ import annotations

from collections.abc import Sequence

from judge.engine.legal import check_order
from judge.engine.orders import Order, OrderSyntaxError, parse_order
from judge.engine.position import Position


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
