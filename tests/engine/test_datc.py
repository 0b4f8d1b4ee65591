"""DATC v3.0 section 6, data-driven: one fixture format (``datc/6_*.txt``), one driver.

The fixtures were transcribed by hand from the DATC document; their header comment and
``docs`` in each file explain the format.  Each case runs one or more phases in sequence,
each later phase continuing from the position the engine produced, and checks every order's
outcome, the exact set of dislodged units after a movement phase, and the units named in
``EXPECT UNITS`` lines.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from judge.engine.map import load_map
from judge.engine.orders import Unit, UnitType, parse_order
from judge.engine.phases import adjudicate
from judge.engine.position import Dislodgement, Phase, PlacedUnit, Position

FIXTURES = Path(__file__).parent / "datc"
STANDARD = load_map("standard")


@dataclass
class PhaseBlock:
    phase: str
    orders: list[tuple[str, str, str]] = field(default_factory=list)  # power, order, result
    dislodged: set[tuple[str, str]] = field(default_factory=set)
    units: dict[str, set[str]] = field(default_factory=dict)


@dataclass
class Case:
    id: str
    title: str
    units: list[tuple[str, str]] = field(default_factory=list)
    centers: dict[str, list[str]] = field(default_factory=dict)
    dislodged: list[tuple[str, str, str]] = field(default_factory=list)
    contested: list[str] = field(default_factory=list)
    phases: list[PhaseBlock] = field(default_factory=list)


def _power_and_rest(text: str) -> tuple[str, str]:
    power, _, rest = text.partition(":")
    return power.strip(), rest.strip()


def load_cases() -> list[Case]:
    cases: list[Case] = []
    seen: dict[str, int] = {}
    for path in sorted(FIXTURES.glob("6_*.txt")):
        case: Case | None = None
        for number, raw in enumerate(path.read_text("utf-8").splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            word, _, rest = line.partition(" ")
            where = f"{path.name}:{number}"
            if word == "CASE":
                ident, _, title = rest.partition(" ")
                seen[ident] = seen.get(ident, 0) + 1
                if seen[ident] > 1:
                    ident = f"{ident}-{seen[ident]}"
                case = Case(ident, title)
                continue
            assert case is not None, f"{where}: statement outside a case"
            if word == "END":
                cases.append(case)
                case = None
            elif word == "UNIT":
                case.units.append(_power_and_rest(rest))
            elif word == "CENTERS":
                power, provinces = _power_and_rest(rest)
                case.centers[power] = provinces.split()
            elif word == "DISLODGED":
                power, text = _power_and_rest(rest)
                unit, _, origin = text.partition(" FROM ")
                case.dislodged.append((power, unit.strip(), origin.strip()))
            elif word == "CONTESTED":
                case.contested.extend(rest.split())
            elif word == "PHASE":
                case.phases.append(PhaseBlock(rest.strip()))
            elif word == "ORDER":
                power, text = _power_and_rest(rest)
                order, _, result = text.rpartition("=>")
                case.phases[-1].orders.append((power, order.strip(), result.strip()))
            elif word == "EXPECT":
                what, _, text = rest.partition(" ")
                power, listed = _power_and_rest(text)
                if what == "DISLODGED":
                    case.phases[-1].dislodged.add((power, listed))
                elif what == "UNITS":
                    case.phases[-1].units[power] = {u.strip() for u in listed.split(",") if u.strip()}
                else:
                    raise AssertionError(f"{where}: unknown EXPECT {what}")
            else:
                raise AssertionError(f"{where}: unknown statement {word}")
    return cases


def _unit(text: str) -> Unit:
    kind, where = text.split()
    return Unit(UnitType(kind), STANDARD.location(where))


def initial_position(case: Case) -> Position:
    first = case.phases[0]
    phase = Phase.parse(first.phase)
    units = {}
    for power, text in case.units:
        unit = _unit(text)
        units[unit.province] = PlacedUnit(power, unit)
    if phase.kind.value == "M":
        for power, text, _ in first.orders:
            order = parse_order(text, STANDARD)
            unit = getattr(order, "unit", None)
            if unit is not None and unit.province not in units and unit.type is not None:
                units[unit.province] = PlacedUnit(power, unit)
    if case.centers:
        centers = {c: power for power, provinces in case.centers.items() for c in provinces}
    else:
        centers = {c: p.name for p in STANDARD.powers.values() for c in p.home_centers}
    dislodged = [Dislodgement(power, _unit(u), origin) for power, u, origin in case.dislodged]
    return Position.build(STANDARD, phase, units.values(), centers, dislodged, case.contested)


def _describe(placed: PlacedUnit | Dislodgement) -> str:
    return f"{placed.unit.type.value if placed.unit.type else '?'} {placed.unit.location}"


CASES = load_cases()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_datc(case: Case) -> None:
    position = initial_position(case)
    for block in case.phases:
        assert str(position.phase) == block.phase, f"{case.id}: engine went to {position.phase}, not {block.phase}"
        orders: dict[str, list[object]] = {}
        for power, text, _ in block.orders:
            orders.setdefault(power, []).append(parse_order(text, STANDARD, position.phase.kind))
        outcome = adjudicate(position, orders)  # type: ignore[arg-type]
        assert len(outcome.results) == len(block.orders)
        for (power, text, expected), result in zip(block.orders, outcome.results, strict=True):
            assert result.power == power
            assert result.outcome.value == expected, (
                f"{case.id}: {power}: {text} expected {expected}, got {result.outcome.value} "
                f"({result.reason}: {result.detail})"
            )
        after = outcome.position
        if block.phase.endswith("M"):
            dislodged = {(d.power, _describe(d)) for d in after.dislodged.values()}
            assert dislodged == block.dislodged, f"{case.id}: dislodged {sorted(dislodged)}"
        for power, units in block.units.items():
            have = {_describe(u) for u in after.units.values() if u.power == power}
            assert have == units, f"{case.id}: {power} has {sorted(have)}"
        position = after
