"""What became of each order, and the checking of a power's orders before adjudication."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from judge.engine.legal import Illegal, checker
from judge.engine.orders import Order, Waive
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
                entries.append(_invalid(power, item, checked))
    return entries


def _invalid(power: str, given: Order | str, why: str | Illegal) -> Entry:
    """The entry of an order that could not be read (``why``: the text) or is illegal."""
    if isinstance(why, str):
        return Entry(power, given, None, Outcome.INVALID, "unreadable", why)
    return Entry(power, given, None, Outcome.INVALID, "illegal", why.message)


def check_units(
    position: Position, orders: Mapping[str, Sequence[Order | str]]
) -> tuple[list[Entry], dict[str, Entry]]:
    """:func:`check_all`, and the legal order of each unit, by province, found in the same pass.

    A unit given two different orders holds: they are all invalid.  Identical repeats are
    left unsettled here and take the first copy's outcome in :func:`copy_outcomes`.
    """
    entries: list[Entry] = []
    chosen: dict[str, Entry] = {}
    conflicts: dict[str, list[Entry]] = {}
    check = checker(position.phase.kind)
    for power, items in orders.items():
        for item in items:
            order = item if isinstance(item, str) else check(position, power, item)
            if not isinstance(order, TextValue):
                entries.append(_invalid(power, item, order))
                continue
            entry = Entry(power, item, order)
            entries.append(entry)
            if isinstance(order, Waive):
                continue
            province = order.unit.location.province
            first = chosen.get(province)
            if first is None:
                chosen[province] = entry
            elif first.order != order or province in conflicts:
                conflicts.setdefault(province, [first]).append(entry)
    for province, group in conflicts.items():
        if any(entry.order != group[0].order for entry in group[1:]):
            del chosen[province]
            for entry in group:
                entry.settle(Outcome.INVALID, "conflict", MULTIPLE_ORDERS)
    return entries, chosen


def copy_outcomes(entries: Sequence[Entry]) -> tuple[OrderResult, ...]:
    """Results in the order given; a repeated order shares the outcome of its first copy."""
    results: list[OrderResult] = []
    firsts: dict[tuple[str, Order | None], Entry] | None = None  # found at the first repeat
    for entry in entries:
        outcome = entry.outcome
        if outcome is None:
            if firsts is None:
                firsts = {}
                for settled in entries:
                    if settled.outcome is not None and settled.order is not None:
                        firsts.setdefault((settled.power, settled.order), settled)
            first = firsts.get((entry.power, entry.order))
            if first is None or first.outcome is None:
                raise AssertionError(f"order {entry.order} was never settled")
            outcome = first.outcome
            entry.settle(outcome, first.reason, first.detail)
        fields = (entry.power, entry.order or entry.given, outcome, entry.reason, entry.detail)
        results.append(_new_result(OrderResult, fields))
    return tuple(results)
