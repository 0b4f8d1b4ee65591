"""Payola's tools on the command line: ``judge adjudicate``, ``orders``, ``payola`` and ``map``.

They call the rules cores directly (the Diplomacy engine, `judge.engine`; the Payola core,
`judge.payola`; the renderer, `judge.render`): tools for those cores, not the host, documented
with their JSON in the README.  Each imports only its core, so a one-shot call starts fast.
"""

from __future__ import annotations

from typing import Any

from judge.api import Tool, json_tool


def adjudicate_data(data: Any) -> dict[str, Any]:
    """One `judge adjudicate` request: a position with orders in, the phase result out."""
    from judge.engine.notation import position_from_data, result_to_data
    from judge.engine.phases import adjudicate

    position, orders = position_from_data(data)
    return result_to_data(adjudicate(position, orders))


def orders_data(data: Any) -> dict[str, Any]:
    """One `judge orders` request: a position in, every legal order of every unit out."""
    from judge.engine.notation import legal_orders_to_data, position_from_data

    position, _ = position_from_data(data)
    return legal_orders_to_data(position)


def payola_data(data: Any) -> dict[str, Any]:
    """One `judge payola` request (the Payola core is imported on first use)."""
    from judge.payola.notation import payola_from_data

    return payola_from_data(data)


def draw(arguments: list[str]) -> int:
    """``judge map``: its own parser (`judge.render.cli`)."""
    from judge.render.cli import main

    return main(arguments)


TOOLS = (
    json_tool("adjudicate", "adjudicate a phase given as JSON (see docs/reference/json.md)", adjudicate_data),
    json_tool("orders", "list every legal order of every unit of a position (see docs/reference/json.md)", orders_data),
    json_tool("payola", "determine orders from offer sheets given as JSON (see docs/reference/json.md)", payola_data),
    Tool("map", "draw a `judge adjudicate` input or output as SVG or PNG (judge map -h)", draw),
)
"""Payola's subcommands, which the composition root hands to the command line."""
