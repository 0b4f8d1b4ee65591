"""A small harness for Payola rule tests: sheets in, determination out."""

from __future__ import annotations

from judge.engine.map import load_map
from judge.engine.position import Position
from judge.payola.acceptance import parse_acceptance
from judge.payola.determination import Determination, PowerInput, determine_orders
from judge.payola.offers import Limits, PhaseReader, parse_sheet
from judge.payola.options import Options

STANDARD = load_map("standard")
START = Position.initial(STANDARD)
LETTERS = STANDARD.letters
WIDE = Limits(amount=1_000_000, offers=10_000, written=100_000)
"""Limits that let a rule test state sheets beyond the judge's (order determination has none:
its tests work out a million rounds, which the judge's limits keep sheets from asking for)."""


def determine(
    sheets: dict[str, str],
    balances: dict[str, int] | None = None,
    accept: dict[str, str] | None = None,
    dummies: frozenset[str] = frozenset(),
    options: Options | None = None,
    position: Position = START,
    seed: int = 1,
) -> Determination:
    """Run order determination; every sheet must be valid (a test states its sheets), within `WIDE`."""
    options = options or Options()
    balances = balances or {}
    accept = accept or {}
    powers = {}
    for power in set(sheets) | set(balances) | set(accept) | set(dummies):
        sheet, errors = parse_sheet(sheets.get(power, ""), position, power, options, dummies,
                                    PhaseReader(position, WIDE))
        assert not errors, errors
        acceptance = parse_acceptance(accept[power], LETTERS) if power in accept else None
        powers[power] = PowerInput(balances.get(power, 0), sheet, acceptance, power in dummies)
    return determine_orders(position, powers, options, seed)


def issued(result: Determination, province: str) -> str:
    return str(result.units[province].order)
