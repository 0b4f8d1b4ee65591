"""Properties of order determination over random sheets (hypothesis).

Nobody ends below zero or below the savings they could afford; what the statements say
was paid is what the units record as paid; the issued order has the highest total (or is
a dummy's HOLD); and the same seed gives the same result.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.engine.legal import legal_orders
from judge.payola.acceptance import parse_acceptance
from judge.payola.determination import PowerInput, determine_orders
from judge.payola.offers import parse_sheet
from judge.payola.options import Options
from tests.payola.game import LETTERS, START

UNITS = sorted(START.units)
ORDERS = {p: [str(o) for o in legal_orders(START, p)] for p in UNITS}
POWERS = sorted(LETTERS)


@st.composite
def offer_lines(draw: st.DrawFn, power: str) -> str:
    province = draw(st.sampled_from(UNITS))
    orders = ORDERS[province]
    first = draw(st.sampled_from(orders))
    kind = draw(st.sampled_from(":!>@&"))
    own = START.units[province].power == power
    amount = draw(st.integers(0 if own else 1, 12))
    plateau = draw(st.sampled_from(["", "#", f"#{amount // 2}"]))
    repeat = draw(st.sampled_from(["", "2*", "3*"]))
    extra = draw(st.sampled_from(["", " + 2", " + 2*3#1"]))
    line = f"{repeat}{amount}{plateau}{extra} {kind} {first}"
    alternative = draw(st.sampled_from([None, *orders]))
    if alternative and alternative != first:
        line += " | " + alternative.split(" ", 2)[2]
    return line


@st.composite
def phases(draw: st.DrawFn) -> tuple[dict[str, PowerInput], Options, int]:
    powers: dict[str, PowerInput] = {}
    dummies = set(draw(st.lists(st.sampled_from(POWERS), max_size=2)))
    options = Options(ebayola=draw(st.booleans()))
    for power in POWERS:
        if power in dummies:
            powers[power] = PowerInput(0, dummy=True)
            continue
        lines = draw(st.lists(offer_lines(power), max_size=8))
        savings = draw(st.integers(0, 30))
        text = "\n".join([*lines, f"{savings} $"])
        sheet, errors = parse_sheet(text, START, power, options, dummies)
        assert not errors, errors
        accept = draw(st.sampled_from([None, "?", f"{LETTERS[power]}?", "".join(reversed(LETTERS.values()))]))
        acceptance = parse_acceptance(accept, LETTERS) if accept else None
        powers[power] = PowerInput(draw(st.integers(0, 60)), sheet, acceptance)
    return powers, options, draw(st.integers(0, 10**6))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(phases())
def test_nobody_overspends_money_is_conserved_and_results_repeat(
    phase: tuple[dict[str, PowerInput], Options, int],
) -> None:
    powers, options, seed = phase
    result = determine_orders(START, powers, options, seed)
    for power, info in powers.items():
        statement = result.statements[power]
        assert statement.new_balance >= 0
        if info.sheet.savings <= info.balance:
            assert statement.new_balance >= info.sheet.savings  # rule 3.4
        else:
            assert statement.spent == 0  # ruling 5
        assert statement.spent == sum(a.paid for a in statement.accepted)
    paid_by_units = sum(sum(d.paid.values()) for d in result.units.values())
    assert paid_by_units == sum(s.spent for s in result.statements.values())
    for decision in result.units.values():
        best = max(c.total for c in decision.candidates)
        if decision.dummy_tie:
            assert str(decision.order).endswith(" H") and decision.total == best + 1 and not decision.paid
        else:
            chosen = next(c for c in decision.candidates if c.order == decision.order)
            assert chosen.total == best == decision.total
            assert sum(decision.paid.values()) <= chosen.total
    again = determine_orders(START, powers, options, seed)
    assert {p: d.order for p, d in again.units.items()} == {p: d.order for p, d in result.units.items()}
    assert {p: s.new_balance for p, s in again.statements.items()} == {
        p: s.new_balance for p, s in result.statements.items()}
