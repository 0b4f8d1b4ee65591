"""What became of each order, and the checking of a power's orders before adjudication."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from judge.engine.legal import Illegal, checker
from judge.engine.orders import Order, UnitOrder, Waive
from judge.engine.position import Position
from judge.engine.values import TextValue


class Outcome(Enum):
    SUCCEEDS = "succeeds"
    FAILS = "fails"
    INVALID = "invalid"


class OrderResult(NamedTuple):
    """What became of one order: ``reason`` says why it failed or was invalid (a frozen named tuple)."""

    power: str
    order: Order | str
    outcome: Outcome
    reason: str | None = None
    detail: str | None = None


# Builds an ``OrderResult`` from its five fields in C: the named tuple's own ``__new__`` is
# a Python function, and a phase builds one result per order.
_new_result = tuple.__new__


MULTIPLE_ORDERS = "the unit was given different orders; it holds (DATC 4.D.3)"


@dataclass(slots=True)
class Entry:
    """One order as given, its normalised form once checked, and (later) what became of it."""

    power: str
    given: Order | str
    order: Order | None = None
    outcome: Outcome | None = None
    reason: str | None = None
    detail: str | None = None

    def settle(self, outcome: Outcome, reason: str | None = None, detail: str | None = None) -> None:
        self.outcome, self.reason, self.detail = outcome, reason, detail

    def result(self) -> OrderResult:
        assert self.outcome is not None
        return _new_result(OrderResult, (self.power, self.order or self.given, self.outcome, self.reason, self.detail))


def check_all(position: Position, orders: Mapping[str, Sequence[Order | str]]) -> list[Entry]:
    """Check every order, in the sequence given; illegal ones are settled as invalid.

    ``orders`` values may hold strings for lines that failed to parse; they are reported
    invalid with the string as the detail.
    """
    entries: list[Entry] = []
    check = checker(position.phase.kind)
    for power, items in orders.items():
        for item in items:
            checked = item if isinstance(item, str) else check(position, power, item)
            if isinstance(checked, TextValue):  # an order, not the text read or the rule broken
                entries.append(Entry(power, item, checked))
            else:
                reason, detail = _invalid(checked)
                entries.append(Entry(power, item, None, Outcome.INVALID, reason, detail))
    return entries


def _invalid(why: str | Illegal) -> tuple[str, str]:
    """The reason and detail of an order that could not be read (``why``: the text) or is illegal."""
    return ("unreadable", why) if isinstance(why, str) else ("illegal", why.value)


# An order as given, once checked: its result when it is invalid, else the province of its
# unit, whose order's result it gets (an identical repeat is the same order of the same unit).
Checked = OrderResult | str

Settled = tuple[Outcome, str | None]  # what became of a unit's order, and why it failed


def check_units(
    position: Position, orders: Mapping[str, Sequence[Order | str]]
) -> tuple[list[Checked], dict[str, UnitOrder]]:
    """Every order checked, in the sequence given, and the legal order of each unit, by province.

    A unit given two different orders holds: they are all invalid.
    """
    checked: list[Checked] = []
    chosen: dict[str, UnitOrder] = {}
    # By province, for a unit given different orders: its orders from the first different one on, by place.
    conflicts: dict[str, dict[int, tuple[str, UnitOrder]]] = {}
    check = checker(position.phase.kind)
    for power, items in orders.items():
        for item in items:
            order = item if isinstance(item, str) else check(position, power, item)
            if not isinstance(order, TextValue):
                reason, detail = _invalid(order)
                checked.append(_new_result(OrderResult, (power, item, Outcome.INVALID, reason, detail)))
                continue
            if isinstance(order, Waive):  # never legal in the phases with units to order
                continue
            province = order.unit.location.province
            first = chosen.get(province)
            if first is None:
                chosen[province] = order
            elif first != order or province in conflicts:
                conflicts.setdefault(province, {})[len(checked)] = (power, order)
            checked.append(province)
    for province, later in conflicts.items():
        first = chosen.pop(province)
        owner, _ = next(iter(later.values()))
        for at, entry in enumerate(checked):
            if isinstance(entry, str) and entry == province:
                power, order = later.get(at, (owner, first))  # before the first different one: a repeat
                checked[at] = _new_result(OrderResult, (power, order, Outcome.INVALID, "conflict", MULTIPLE_ORDERS))
    return checked, chosen


def unit_results(
    checked: Sequence[Checked],
    chosen: Mapping[str, UnitOrder],
    powers: Mapping[str, str],
    settled: Mapping[str, Settled],
) -> tuple[OrderResult, ...]:
    """Results in the order given.  A legal order's is that of its unit's order: by province,
    the order (``chosen``), the unit's power and what became of the order (``settled``)."""
    results: list[OrderResult] = []
    for entry in checked:
        if isinstance(entry, str):
            outcome, reason = settled[entry]
            results.append(_new_result(OrderResult, (powers[entry], chosen[entry], outcome, reason, None)))
        else:
            results.append(entry)
    return tuple(results)
