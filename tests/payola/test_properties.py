"""Properties of order determination over random sheets (hypothesis).

Nobody ends below zero or below the savings they could afford; what the statements say
was paid is what the units record as paid; the issued order has the highest total (or is
a dummy's HOLD); and the same seed gives the same result.  On the standard board, and on
every variant board (rule 6.2) with fewer examples each.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.engine.legal import legal_orders
from judge.engine.map import load_map
from judge.engine.position import Position
from judge.payola.acceptance import parse_acceptance
from judge.payola.determination import PowerInput, determine_orders
from judge.payola.offers import parse_sheet
from judge.payola.options import Options
from tests.payola.game import LETTERS, START
from tests.strength import examples

UNITS = sorted(START.units)
ORDERS = {p: [str(o) for o in legal_orders(START, p)] for p in UNITS}
POWERS = sorted(LETTERS)


@dataclass(frozen=True)
class Board:
    """A game's start on one board: its units' legal orders, its powers and their symbols."""

    start: Position
    units: list[str]
    orders: dict[str, list[str]]
    letters: dict[str, str]


@cache
def board(variant: str) -> Board:
    start = Position.initial(load_map(variant))
    units = sorted(start.units)
    return Board(start, units, {p: [str(o) for o in legal_orders(start, p)] for p in units}, start.game_map.letters)


STANDARD = Board(START, UNITS, ORDERS, LETTERS)


@st.composite
def offer_lines(draw: st.DrawFn, power: str, on: Board = STANDARD) -> str:
    province = draw(st.sampled_from(on.units))
    orders = on.orders[province]
    first = draw(st.sampled_from(orders))
    kind = draw(st.sampled_from(":!>@&"))
    own = on.start.units[province].power == power
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
def phases(draw: st.DrawFn, on: Board = STANDARD) -> tuple[dict[str, PowerInput], Options, int]:
    powers: dict[str, PowerInput] = {}
    names = sorted(on.letters)
    # A power no player takes (Known World 901's Neutral State) is always a dummy.
    always = {p for p, info in on.start.game_map.powers.items() if info.dummy}
    dummies = set(draw(st.lists(st.sampled_from(names), max_size=2))) | always
    options = Options(ebayola=draw(st.booleans()))
    # On a board of many powers (Void's 36) a few send sheets; the others are silent (rule 3.3).
    writing = names if len(names) <= 10 else draw(st.lists(st.sampled_from(names), max_size=8, unique=True))
    for power in names:
        if power in dummies:
            powers[power] = PowerInput(0, dummy=True)
            continue
        if power not in writing:
            continue
        lines = draw(st.lists(offer_lines(power, on), max_size=8))
        savings = draw(st.integers(0, 30))
        text = "\n".join([*lines, f"{savings} $"])
        sheet, errors = parse_sheet(text, on.start, power, options, dummies)
        assert not errors, errors
        letters = on.letters
        accept = draw(st.sampled_from([None, "?", f"{letters[power]}?", "".join(reversed(letters.values()))]))
        acceptance = parse_acceptance(accept, letters) if accept else None
        powers[power] = PowerInput(draw(st.integers(0, 60)), sheet, acceptance)
    return powers, options, draw(st.integers(0, 10**6))


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(phases())
def test_nobody_overspends_money_is_conserved_and_results_repeat(
    phase: tuple[dict[str, PowerInput], Options, int],
) -> None:
    check_determination(START, phase)


@pytest.mark.parametrize(
    "variant", ["ancmed", "modern", "loeb9", "void", "youngstown", "empire", "world", "known_world_901"]
)
def test_nobody_overspends_money_is_conserved_and_results_repeat_on_every_board(variant: str) -> None:
    on = board(variant)

    @settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(phases(on))
    def check(phase: tuple[dict[str, PowerInput], Options, int]) -> None:
        check_determination(on.start, phase)

    check()


def check_determination(start: Position, phase: tuple[dict[str, PowerInput], Options, int]) -> None:
    """The properties of the module docstring, for one phase's sheets."""
    powers, options, seed = phase
    result = determine_orders(start, powers, options, seed)
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
    again = determine_orders(start, powers, options, seed)
    assert {p: d.order for p, d in again.units.items()} == {p: d.order for p, d in result.units.items()}
    assert {p: s.new_balance for p, s in again.statements.items()} == {
        p: s.new_balance for p, s in result.statements.items()}
