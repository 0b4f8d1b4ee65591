"""Positions, orders and phase results as plain JSON-ready data (the `judge adjudicate` format).

Input::

    {"variant": "standard", "phase": "S1901M",
     "units": {"ENGLAND": ["F LON", "A YOR"]}, "centers": {"ENGLAND": ["LON", "EDI", "LVP"]},
     "dislodged": {"FRANCE": [{"unit": "A BEL", "attacker_from": "HOL"}]}, "contested": ["HOL"],
     "orders": {"ENGLAND": ["F LON - NTH", "A YOR - NWY VIA CONVOY"]}}

The output of :func:`result_to_data` has the same keys for the position after the phase,
plus ``results``, ``next_phase`` and ``winner``; when it is read back, ``next_phase`` is the
phase adjudicated, so one phase's output with new ``orders`` is the next phase's input.
Without ``centers`` every power owns its home centers.  Bad data raises
:class:`NotationError` with a message for the user.

:func:`legal_orders_to_data` is the `judge orders` format: every legal order of every unit
of a position, ``{"orders": {"A PAR": ["A PAR H", "A PAR - BUR", ...]}}``, plus in an
adjustment phase ``builds``, each power's legal builds (and ``WAIVE``).

Units and orders written in canonical notation are read through the map's
:class:`~judge.engine.orders.Lexicon`: a dictionary lookup each, and shared values.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from judge.engine.legal import legal_builds, legal_orders, retreat_options
from judge.engine.map import GameMap, MapError, load_map
from judge.engine.orders import Order, OrderSyntaxError, PhaseKind, Unit, UnitType, lexicon
from judge.engine.phases import PhaseResult
from judge.engine.position import Dislodgement, Phase, PlacedUnit, Position
from judge.engine.results import OrderResult, Outcome


class NotationError(ValueError):
    """Input that does not describe a position."""


def _mapping(data: Any, what: str) -> Mapping[str, Any]:
    if data is None:
        return {}
    if not isinstance(data, Mapping):
        raise NotationError(f"'{what}' must be an object")
    return data


def _list(data: Any, what: str, power: str | None = None) -> list[Any]:
    """``data``, which must be a list: the value of ``what`` (of ``power``, when given)."""
    if not isinstance(data, list):
        raise NotationError(f"'{what}.{power}' must be a list" if power is not None else f"'{what}' must be a list")
    return data


def power_name(game_map: GameMap, text: Any) -> str:
    """A power's name from its name or initial, any case; a name of more than one word written
    in any way that differs only in case, spaces, hyphens and underscores (``BRITISH_COLUMBIA``,
    as the map names it: ``British Columbia`` as docs/rules/boards.md's table writes it, ``BRITISH-COLUMBIA``
    as DPjudge's map files do, ``BRITISHCOLUMBIA`` as the ``diplomacy`` package does)."""
    if isinstance(text, str):
        if text in game_map.powers:
            return text
        key = text.strip().upper()
        if key in game_map.powers:
            return key
        for power in game_map.powers.values():
            if power.letter == key:
                return power.name
        squashed = _JOINS.sub("", key)
        for name in game_map.powers:
            if _JOINS.sub("", name) == squashed:
                return name
    raise NotationError(f"unknown power '{text}' (powers: {' '.join(game_map.powers)})")


_JOINS = re.compile(r"[\s_-]+")
"""What may join the words of a power's name: spaces, hyphens, underscores, or nothing."""


def parse_unit(game_map: GameMap, text: Any) -> Unit:
    """A unit written ``A LON`` or ``F STP/SC``, placed where such a unit can stand."""
    lex = lexicon(game_map)
    found = lex.standing.get(text) if isinstance(text, str) else None
    if found is not None:
        return found
    if not isinstance(text, str) or len(text.split(maxsplit=1)) != 2:
        raise NotationError(f"bad unit '{text}': expected e.g. 'A LON' or 'F STP/SC'")
    kind, where = text.split(maxsplit=1)
    if kind.upper() not in ("A", "F"):
        raise NotationError(f"bad unit '{text}': the type must be A or F")
    try:
        location = game_map.location(where)
    except MapError as exc:
        raise NotationError(f"bad unit '{text}': {exc}") from None
    unit_type = UnitType(kind.upper())
    if unit_type is UnitType.ARMY:
        if not game_map.army_can_stand(location.province):
            raise NotationError(f"bad unit '{text}': an army cannot stand in {location.province}")
        return lex.unit(unit_type, game_map.place(location.province))
    places = game_map.fleet_locations(location.province)
    if not places:
        raise NotationError(f"bad unit '{text}': a fleet cannot stand in {location.province}")
    if location not in places:
        if len(places) > 1:
            raise NotationError(f"bad unit '{text}': say which coast ({', '.join(map(str, places))})")
        location = places[0]
    return lex.unit(unit_type, location)


def position_from_data(data: Any) -> tuple[Position, dict[str, list[Order | str]]]:
    """Read a position and its orders; orders that cannot be read are kept as strings."""
    data = _mapping(data, "input")
    variant = data.get("variant", "standard")
    try:
        game_map = load_map(str(variant))
    except MapError as exc:
        raise NotationError(str(exc)) from None
    phase_text = data.get("next_phase") or data.get("phase")
    if not isinstance(phase_text, str):
        raise NotationError("'phase' is required, e.g. \"S1901M\"")
    try:
        phase = Phase.parse(phase_text)
    except ValueError as bad_phase:  # (an exception variable has one type per function when compiled)
        raise NotationError(str(bad_phase)) from None

    units = _units(game_map, data.get("units"))
    if "centers" in data:
        centers = _centers(game_map, data["centers"])
    else:
        centers = {c: p.name for p in game_map.powers.values() for c in p.home_centers}
    dislodged: list[Dislodgement] = []
    contested: list[str] = []
    if phase.kind is PhaseKind.RETREAT:
        dislodged = _dislodged(game_map, data.get("dislodged"), units)
        contested = _contested(game_map, data.get("contested", []))
    orders = _orders(game_map, phase.kind, data.get("orders"))
    position = Position.build(game_map, phase, units.values(), centers, dislodged, contested)
    return position, orders


def _units(game_map: GameMap, data: Any) -> dict[str, PlacedUnit]:
    """Each power's units, by province: no two in one.  Mostly written canonically: those are read
    with one lookup each."""
    standing = lexicon(game_map).standing
    units: dict[str, PlacedUnit] = {}
    for power_text, listed in _mapping(data, "units").items():
        power = power_name(game_map, power_text)
        for text in _list(listed, "units", power_text):
            unit = standing.get(text) if isinstance(text, str) else None
            if unit is None:
                unit = parse_unit(game_map, text)
            province = unit.location.province
            if province in units:
                raise NotationError(f"two units in {province}")
            units[province] = PlacedUnit(power, unit)
    return units


def _centers(game_map: GameMap, data: Any) -> dict[str, str]:
    """The owner of each supply center listed: no center owned by two powers.  A center's id or name
    as written is read with one lookup."""
    names = game_map.names
    centers: dict[str, str] = {}
    for power_text, listed in _mapping(data, "centers").items():
        power = power_name(game_map, power_text)
        for text in _list(listed, "centers", power_text):
            found = names.get(text) if isinstance(text, str) else None
            try:
                province = found or game_map.province_id(str(text))
            except MapError as exc:
                raise NotationError(str(exc)) from None
            if province not in game_map.supply_centers:
                raise NotationError(f"{province} is not a supply center")
            if centers.get(province, power) != power:
                raise NotationError(f"{province} is owned by two powers")
            centers[province] = power
    return centers


def _contested(game_map: GameMap, data: Any) -> list[str]:
    """The provinces a retreat may not go to (a standoff left them empty)."""
    contested: list[str] = []
    for text in _list(data, "contested"):
        try:
            contested.append(game_map.province_id(str(text)))
        except MapError as exc:
            raise NotationError(str(exc)) from None
    return contested


def _orders(game_map: GameMap, kind: PhaseKind, data: Any) -> dict[str, list[Order | str]]:
    """Each power's orders for a phase of ``kind``; one that cannot be read is kept as a string saying why."""
    orders: dict[str, list[Order | str]] = {}
    read = lexicon(game_map).reader(kind)
    for power_text, listed in _mapping(data, "orders").items():
        power = power_name(game_map, power_text)
        bucket = orders.setdefault(power, [])
        for text in _list(listed, "orders", power_text):
            try:
                bucket.append(read(str(text)))
            except OrderSyntaxError as unreadable:
                bucket.append(f"{text}: {unreadable}")
    return orders


def _dislodged(game_map: GameMap, data: Any, units: Mapping[str, PlacedUnit]) -> list[Dislodgement]:
    found: list[Dislodgement] = []
    for power_text, listed in _mapping(data, "dislodged").items():
        power = power_name(game_map, power_text)
        for item in _list(listed, "dislodged", power_text):
            item = _mapping(item, "dislodged entry")
            unit = parse_unit(game_map, item.get("unit"))
            attacker = item.get("attacker_from")
            try:
                origin = game_map.province_id(str(attacker)) if attacker else None
            except MapError as exc:
                raise NotationError(str(exc)) from None
            found.append(Dislodgement(power, unit, origin, bool(item.get("via_convoy", False))))
    return found


def _by_power(pairs: list[tuple[str, str]]) -> dict[str, list[str]]:
    grouped: dict[str, list[str]] = {}
    for power, text in sorted(pairs):
        grouped.setdefault(power, []).append(text)
    return grouped


def position_to_data(position: Position) -> dict[str, Any]:
    """The position as input data (without orders)."""
    data: dict[str, Any] = {
        "variant": position.game_map.name,
        "phase": str(position.phase),
        "units": _by_power([(u.power, u.unit.text) for u in position.units.values()]),
        "centers": _by_power([(power, c) for c, power in position.centers.items()]),
    }
    if position.dislodged:
        dislodged: dict[str, list[dict[str, Any]]] = {}
        for province, item in sorted(position.dislodged.items()):
            entry: dict[str, Any] = {"unit": str(item.unit), "attacker_from": item.attacker_from}
            if item.via_convoy:
                entry["via_convoy"] = True
            entry["retreats"] = [str(loc) for loc in retreat_options(position, province)]
            dislodged.setdefault(item.power, []).append(entry)
        data["dislodged"] = dislodged
        data["contested"] = sorted(position.contested)
    return data


def legal_orders_to_data(position: Position) -> dict[str, Any]:
    """Every legal order of every unit (by unit, in province order), and in winter every legal build."""
    ordered = position.dislodged if position.phase.kind is PhaseKind.RETREAT else position.units
    orders: dict[str, list[str]] = {}
    for province in sorted(ordered):
        listed = legal_orders(position, province)
        if listed:
            orders[ordered[province].unit.text] = [order.text for order in listed]
    data: dict[str, Any] = {"orders": orders}
    if position.phase.kind is PhaseKind.ADJUSTMENT:
        builds = {power: [o.text for o in legal_builds(position, power)] for power in position.game_map.powers}
        data["builds"] = {power: listed for power, listed in builds.items() if listed}
    return data


_WORDS = {outcome: outcome.value for outcome in Outcome}


def order_result_to_data(result: OrderResult) -> dict[str, Any]:
    """One order's result; ``detail`` only when there is one."""
    order = result.order
    data: dict[str, Any] = {
        "power": result.power,
        "order": order if isinstance(order, str) else order.text,
        "result": _WORDS[result.outcome],
        "reason": result.reason,
    }
    if result.detail:
        data["detail"] = result.detail
    return data


def results_from_data(position: Position, results: Sequence[Mapping[str, Any]]) -> tuple[OrderResult, ...]:
    """Results as :func:`result_to_data` writes them, read back against the position they were
    adjudicated from (an order that cannot be read stays text, as unreadable orders are)."""
    read = lexicon(position.game_map).reader(position.phase.kind)
    found = []
    for r in results:
        try:
            order: Order | str = read(str(r["order"]))
        except OrderSyntaxError:
            order = str(r["order"])
        found.append(OrderResult(str(r["power"]), order, Outcome(r["result"]), r.get("reason"), r.get("detail")))
    return tuple(found)


def result_to_data(result: PhaseResult) -> dict[str, Any]:
    """A phase result: what became of each order, and the position after the phase."""
    after = position_to_data(result.position)
    data: dict[str, Any] = {
        "variant": after.pop("variant"),
        "phase": str(result.phase),
        "results": [order_result_to_data(r) for r in result.results],
    }
    next_phase = after.pop("phase")
    data.update(after)
    data.setdefault("dislodged", {})
    data.setdefault("contested", [])
    data["next_phase"] = next_phase
    data["winner"] = result.winner
    return data
