"""Adjudication of a retreat phase.

Each dislodged unit retreats to a legal destination or is disbanded: when it is ordered
to disband, has no (legal) order, or another unit retreats to the same province (both are
disbanded).  Retreat destinations are computed by :func:`judge.engine.legal.retreat_options`.

Across a weak strait (Loeb9) a retreat is weaker than any other: when several units retreat
to one province, those crossing a strait are disbanded first, and if one other is left it
retreats there (DPjudge's adjudicator: "strait crossings ... are actually even WEAKER
(drop them first)").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from judge.engine.orders import Order, Retreat, lexicon
from judge.engine.position import PlacedUnit, Position
from judge.engine.results import OrderResult, Outcome, Settled, check_units, unit_results


def adjudicate_retreats(
    position: Position, orders: Mapping[str, Sequence[Order | str]]
) -> tuple[tuple[OrderResult, ...], list[PlacedUnit]]:
    """Return the results of the retreat orders and the units on the board afterwards."""
    checked, chosen = check_units(position, orders)
    targets = Counter(order.destination.province for order in chosen.values() if isinstance(order, Retreat))
    weak = position.game_map.weak
    crossing = Counter(  # the retreats to each province across a weak strait (none on most boards)
        order.destination.province
        for province, order in chosen.items()
        if weak and isinstance(order, Retreat) and order.destination.province in weak.get(province, ())
    )
    units = list(position.units.values())
    lex = lexicon(position.game_map)
    powers = {province: dislodged.power for province, dislodged in position.dislodged.items()}
    settled: dict[str, Settled] = {}
    for province, order in chosen.items():
        if isinstance(order, Retreat):
            into = order.destination.province
            if targets[into] > 1 and (into in weak.get(province, ()) or targets[into] - crossing[into] > 1):
                settled[province] = (Outcome.FAILS, "bounce")
                continue
            units.append(PlacedUnit(powers[province], lex.unit(order.unit.type, order.destination)))
        settled[province] = (Outcome.SUCCEEDS, None)
    return unit_results(checked, chosen, powers, settled), units
