"""Order determination as plain JSON-ready data (the `judge payola` format).

Input: the position keys of ``judge adjudicate`` plus ``options`` (option words), ``seed``
(expands the ``?`` of acceptance lists) and ``powers``::

    {"ENGLAND": {"balance": 48, "accept": "EFGIART", "sheet": "8 : F LON - NTH\\n10 $\\n",
                 "dummy": false, "orders": []}}

``orders`` are a power's own orders, used only under ``LOYAL_UNITS``.  A sheet with any bad
line is rejected whole and the power is treated as having sent none (rule 3.3 defaults).
The output's ``orders`` can be fed to ``judge adjudicate``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from judge.engine.legal import check_order
from judge.engine.notation import NotationError, position_from_data, power_name
from judge.engine.orders import MovementOrder, OrderSyntaxError, parse_order
from judge.engine.position import Position
from judge.payola.acceptance import AcceptanceError, parse_acceptance
from judge.payola.determination import Determination, PowerInput, Statement, determine_orders
from judge.payola.offers import OfferSheet, PhaseReader, parse_sheet
from judge.payola.options import OptionError, Options, parse_options


def _options(data: Any) -> Options:
    words = data if isinstance(data, list) else str(data or "").split()
    try:
        return parse_options(str(w) for w in words)
    except OptionError as exc:
        raise NotationError(str(exc)) from None


def payola_from_data(data: Any) -> dict[str, Any]:
    """One `judge payola` request: offers in, orders and statements out."""
    position, _ = position_from_data(data)
    if position.phase.kind.value != "M":
        raise NotationError("order determination happens in movement phases only")
    game_map = position.game_map
    options = _options(data.get("options"))
    seed = data.get("seed", 0)
    if not isinstance(seed, int | str):
        raise NotationError("'seed' must be a number or a string")
    raw_powers = data.get("powers") or {}
    if not isinstance(raw_powers, Mapping):
        raise NotationError("'powers' must be an object")
    letters = game_map.letters
    parsed: dict[str, dict[str, Any]] = {}
    for key, info in raw_powers.items():
        if not isinstance(info, Mapping):
            raise NotationError(f"powers.{key} must be an object")
        parsed[power_name(game_map, key)] = dict(info)
    dummies = {p for p, info in parsed.items() if info.get("dummy")}
    for power in dummies:
        if str(parsed[power].get("sheet") or "").strip():
            raise NotationError(f"powers.{power}: a dummy power has no player and sends no offer sheet (rule 4.4)")
    inputs: dict[str, PowerInput] = {}
    errors: dict[str, list[dict[str, Any]]] = {p: [] for p in game_map.powers}
    direct: dict[str, list[MovementOrder]] = {}
    reader = PhaseReader(position)  # the sheets share their readings of orders and amounts
    for power, info in parsed.items():
        balance = info.get("balance", 0)
        if not isinstance(balance, int) or balance < 0:
            raise NotationError(f"powers.{power}.balance must be a whole number of at least 0")
        sheet, sheet_errors = parse_sheet(str(info.get("sheet", "")), position, power, options, dummies, reader)
        errors[power].extend({"line": e.line, "text": e.text, "error": e.error} for e in sheet_errors)
        acceptance = None
        if info.get("accept"):
            try:
                acceptance = parse_acceptance(str(info["accept"]), letters)
            except AcceptanceError as exc:
                errors[power].append({"line": 0, "text": f"ACCEPT {info['accept']}", "error": str(exc)})
        inputs[power] = PowerInput(balance, sheet if not sheet_errors else OfferSheet(), acceptance, power in dummies)
        if options.loyal_units:
            direct[power] = _direct_orders(position, power, info.get("orders") or [], errors[power])
    result = determine_orders(position, inputs, options, seed, direct)
    return determination_to_data(result, options, errors, letters)


def _direct_orders(position: Position, power: str, texts: Any, errors: list[dict[str, Any]]) -> list[MovementOrder]:
    orders: list[MovementOrder] = []
    for number, text in enumerate(texts, 1):
        try:
            verdict = check_order(position, power, parse_order(str(text), position.game_map))
        except OrderSyntaxError as exc:
            errors.append({"line": number, "text": str(text), "error": str(exc)})
            continue
        if verdict.illegal is not None:
            errors.append({"line": number, "text": str(text), "error": verdict.illegal.message})
        elif isinstance(verdict.order, MovementOrder):
            orders.append(verdict.order)
    return orders


def statement_to_data(statement: Statement, options: Options) -> dict[str, Any]:
    """Rule 5.7 for one power; under BLIND the units paid are named by nationality only (6.3).
    Each accepted offer says what was ``offered``, what the reductions left of it (``reduced``,
    5.5), what eBayola gave back (``refund``, 6.4) and what was ``paid``."""
    accepted = [{**({"nationality": a.owner} if options.blind else {"unit": str(a.unit), "order": str(a.order)}),
                 "offered": a.offered, "reduced": a.reduced, "refund": a.reduced - a.paid, "paid": a.paid}
                for a in statement.accepted]
    return {
        "balance": statement.balance,
        "savings": statement.savings,
        "spent": statement.spent,
        "new_balance": statement.new_balance,
        "reductions": statement.reductions,
        "units": [{"unit": str(d.unit), "order": str(d.order), "total": d.total} for d in statement.units],
        "accepted": accepted,
    }


def determination_to_data(
    result: Determination, options: Options, errors: Mapping[str, list[dict[str, Any]]], letters: Mapping[str, str]
) -> dict[str, Any]:
    return {
        "units": {
            str(d.unit): {"owner": d.owner, "order": str(d.order), "total": d.total, "paid": dict(d.paid)}
            for d in result.units.values()
        },
        "orders": {p: [str(o) for o in orders] for p, orders in sorted(result.orders().items())},
        "powers": {
            power: {**statement_to_data(statement, options), "errors": list(errors.get(power, []))}
            for power, statement in result.statements.items()
        },
        "rounds": result.rounds,
        "acceptance": {p: "".join(letters[q] for q in order) for p, order in result.acceptance.items()},
        "chart": {
            str(d.unit): [
                {"order": str(c.order), "total": c.total, "contributions": dict(c.contributions)}
                for c in d.candidates
            ]
            for d in result.units.values()
        },
    }
