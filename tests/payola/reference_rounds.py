"""Rule 5.5 round by round: the definition, literally, as the reference for the judge's jumps.

Conversion and decision (rules 5.1-5.4, 5.6, 6.4) are the production code's
:class:`~judge.payola.determination.Conversion`; only the reductions are done here, the
obvious way: every term is a mutable amount; each round every unit decides from the
current amounts, every power that would pay more than it may is over, and each over
power has every term cut by one — only those above their plateau while any of its terms
is, otherwise every non-zero one (ruling 6).  Slow on purpose: no jumps, no shortcuts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from judge.engine.orders import MovementOrder
from judge.engine.position import Position
from judge.payola.determination import BribedUnit, Conversion, Determination, PowerInput
from judge.payola.options import Options


def _contributions(
    conversion: Conversion, target: BribedUnit, amounts: Mapping[tuple[int, int], list[list[int]]],
) -> list[dict[str, int]]:
    """Each candidate's contributions by power from the lines' current amounts (5.1)."""
    parts: list[dict[str, int]] = [{} for _ in target.candidates]
    for money in target.money.values():
        for k, offer in enumerate(money.offers):
            amount = sum(term[0] for term in amounts[id(money), k])
            for c in conversion.pays(target, offer):
                parts[c][money.power] = parts[c].get(money.power, 0) + amount
    return parts


def determine_by_rounds(
    position: Position,
    powers: Mapping[str, PowerInput],
    options: Options | None = None,
    seed: int | str = 0,
    direct_orders: Mapping[str, Sequence[MovementOrder]] | None = None,
    outsiders: Sequence[str] = (),
) -> Determination:
    """What :func:`~judge.payola.determination.determine_orders` must return, one round at a time."""
    options = options or Options()
    dummies = {p for p, i in powers.items() if i.dummy}
    bribed = {
        province for province, placed in position.units.items()
        if not options.loyal_units or placed.power in dummies
    }
    conversion = Conversion(position, powers, options, seed, bribed, outsiders)
    # Every term of every line on a bribed unit: [amount, plateau], reduced in place; the
    # lines keyed by their power's money on the unit and their place there.
    amounts: dict[tuple[int, int], list[list[int]]] = {}
    lines: dict[str, list[tuple[int, int]]] = {}  # each power's lines on bribed units
    for target in conversion.units.values():
        for power, money in target.money.items():
            for k, offer in enumerate(money.offers):
                amounts[id(money), k] = [[term.amount, term.plateau] for term in offer.terms]
                lines.setdefault(power, []).append((id(money), k))
    rounds = 0
    reductions = dict.fromkeys(conversion.offerers, 0)
    while True:
        contributions = {p: _contributions(conversion, t, amounts) for p, t in conversion.units.items()}
        spend = dict.fromkeys(conversion.offerers, 0)
        for province, target in conversion.units.items():
            for power, paid in conversion.settle(target, contributions[province]).payments.items():
                spend[power] += paid
        over = [p for p in conversion.offerers if spend[p] > conversion.available(p)]
        if not over:
            break
        rounds += 1
        for power in over:
            reductions[power] += 1
            terms = [term for line in lines.get(power, ()) for term in amounts[line]]
            above = any(amount > plateau for amount, plateau in terms)
            for term in terms:
                if term[0] > (term[1] if above else 0):
                    term[0] -= 1
    direct = {p: tuple(o) for p, o in (direct_orders or {}).items()} if options.loyal_units else {}
    return conversion.result(rounds, reductions, contributions, direct)
