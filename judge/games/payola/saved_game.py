"""A Payola game's board history as the ``diplomacy`` package's saved game, the de facto game
record of Diplomacy research and tools (its ``to_saved_game_format``): so that viewers and
analysis tools made for it open a Payola game.

What it holds: the game's map, and each processed phase in order with the board it started from
(units, centers, and the dislodged units, without where each may retreat: the engine decides that
when the orders come), the orders the units
carried out (Payola's: the ones each unit was bribed into, as adjudicated) and what became of
each unit.  Nothing of Payola's money: the saved game has no place for it (the game's record,
`judge export`, has).  The position and result are the phase rows' JSON
(`judge.games.payola.lifecycle`); pure: values in, a dict out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from judge.engine.map import GameMap

FAILURES = ("bounce", "cut", "dislodged", "void", "no convoy", "disband")
"""The reasons of a failed order that the saved game names as its results of a unit."""


def saved_game(name: str, board: GameMap, variant: str,
               phases: Sequence[tuple[str, Mapping[str, Any], Mapping[str, Any] | None]]) -> dict[str, Any]:
    """The saved game of ``phases`` (each its name, position and result, oldest first) of the game
    ``name`` on ``board`` (the map called ``variant``)."""
    return {"id": name, "map": variant, "rules": ["NO_PRESS"],
            "phases": [_phase(board, variant, name, phase, position, result or {})
                       for phase, position, result in phases]}


def _phase(board: GameMap, variant: str, game: str, name: str, position: Mapping[str, Any],
           result: Mapping[str, Any]) -> dict[str, Any]:
    powers = sorted(board.powers)
    units = {power: list(position.get("units", {}).get(power, [])) for power in powers}
    retreats: dict[str, dict[str, list[str]]] = {power: {} for power in powers}
    for power, dislodged in (position.get("dislodged") or {}).items():
        for item in dislodged:  # {"unit": "A BEL", "attacker_from": "HOL"}: where it may go is the engine's
            units.setdefault(power, []).append(f"*{item['unit']}")
            retreats.setdefault(power, {})[item["unit"]] = []
    centers = {power: list(position.get("centers", {}).get(power, [])) for power in powers}
    homes = {power: sorted(board.powers[power].home_centers) for power in powers}
    adjudicated = result.get("adjudication") or {}
    orders: dict[str, list[str]] = {power: [] for power in powers}
    results: dict[str, list[str]] = {}
    for line in adjudicated.get("results", []):
        orders.setdefault(line["power"], []).append(line["order"])
        unit = " ".join(str(line["order"]).split()[:2])
        reason = line.get("reason")
        results[unit] = [reason] if line.get("result") != "succeeds" and reason in FAILURES else []
    state = {"name": name, "game_id": game, "map": variant, "rules": ["NO_PRESS"], "note": "",
             "units": units, "retreats": retreats, "centers": centers, "homes": homes, "influence": centers,
             "civil_disorder": {power: 0 for power in powers},
             "builds": {power: {"count": 0, "homes": []} for power in powers}}
    return {"name": name, "state": state, "orders": orders, "results": results, "messages": []}
