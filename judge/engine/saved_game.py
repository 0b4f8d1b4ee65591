"""A game's board history as the ``diplomacy`` package's saved game, the de facto game record of
Diplomacy research and tools (its ``to_saved_game_format``): so that viewers and analysis tools
made for it open the judge's games played on a Diplomacy board (Payola, Exchange Payola).

What it holds: the game's map, and each phase in order with the board it started from (units,
centers, and the dislodged units, without where each may retreat: the package's engine works that
out when orders come), the orders its units carried out and what became of each.  Nothing of
money: the saved game has no place for it (the judge's game record, ``judge export``, has).  Pure:
the phases as each kind keeps them, read into `Phase` by the kind, in; a dict out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from judge.engine.map import GameMap

FAILURES = ("bounce", "cut", "dislodged", "void", "no convoy", "disband")
"""The reasons of a failed order that the saved game names as its results of a unit."""


@dataclass(frozen=True)
class Phase:
    """One phase: its name, the board it started from (``judge adjudicate``'s position: units,
    centers, dislodged), the orders carried out by power, and each unit's failures (`FAILURES`)."""

    name: str
    position: Mapping[str, Any]
    orders: Mapping[str, Sequence[str]] = field(default_factory=dict)
    results: Mapping[str, Sequence[str]] = field(default_factory=dict)


def adjudicated(lines: Sequence[Mapping[str, Any]]) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """The orders by power and each unit's failures of an adjudication's result lines (``judge
    adjudicate``'s ``results``: power, order, result, reason)."""
    orders: dict[str, list[str]] = {}
    results: dict[str, list[str]] = {}
    for line in lines:
        orders.setdefault(str(line["power"]), []).append(str(line["order"]))
        unit = " ".join(str(line["order"]).split()[:2])
        reason = line.get("reason")
        results[unit] = [str(reason)] if line.get("result") != "succeeds" and reason in FAILURES else []
    return orders, results


def saved_game(name: str, board: GameMap, variant: str, phases: Sequence[Phase]) -> dict[str, Any]:
    """The saved game of the game ``name`` on ``board`` (the map called ``variant``): ``phases``
    oldest first, the last the one it is in."""
    return {"id": name, "map": variant, "rules": ["NO_PRESS"],
            "phases": [_phase(board, variant, name, phase) for phase in phases]}


def _phase(board: GameMap, variant: str, game: str, phase: Phase) -> dict[str, Any]:
    powers = sorted(board.powers)
    position = phase.position
    units = {power: list(position.get("units", {}).get(power, [])) for power in powers}
    retreats: dict[str, dict[str, list[str]]] = {power: {} for power in powers}
    for power, dislodged in (position.get("dislodged") or {}).items():
        for item in dislodged:  # {"unit": "A BEL", "attacker_from": "HOL"}
            units.setdefault(power, []).append(f"*{item['unit']}")
            retreats.setdefault(power, {})[item["unit"]] = []
    centers = {power: list(position.get("centers", {}).get(power, [])) for power in powers}
    state = {"name": phase.name, "game_id": game, "map": variant, "rules": ["NO_PRESS"], "note": "",
             "units": units, "retreats": retreats, "centers": centers,
             "homes": {power: sorted(board.powers[power].home_centers) for power in powers},
             "influence": centers, "civil_disorder": {power: 0 for power in powers},
             "builds": {power: {"count": 0, "homes": []} for power in powers}}
    orders = {power: list(phase.orders.get(power, [])) for power in powers}
    return {"name": phase.name, "state": state, "orders": orders,
            "results": {unit: list(failed) for unit, failed in phase.results.items()}, "messages": []}
