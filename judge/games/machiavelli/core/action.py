"""Phase F of a campaign: the Action phase (F.1) and the Retreat phase (F.2), as one pure function.

:func:`adjudicate` takes the board, the position as phase D left it (bribed units already with
their new owners, disbanded ones gone, new rebellions in place), the orders each player wrote,
the rest of phase D's effects (:class:`~.orders.PhaseD`: assassinated players, independents
bribed to operate) and the straits permissions (M51).  It returns every unit's result with its
reason, the retreats chosen, the units disbanded, the conversions, the sieges advanced,
completed or broken, the rebellions ended, the control markers changed and the new position.

The steps, in order:

1. the operations (:mod:`~.operations`): who obeys whom, illegal orders made Holds, M26;
2. the decisions of F.1 (:mod:`~.resolution`);
3. where everyone stands after F.1: advances and conversions carried out, Venice's defender made
   a garrison (M14), the units forced out set aside — a garrison that converted under a superior
   attack among them (M43);
4. sieges (9.4, M22): a season counts if the besieger ordered Besiege, was not forced out, and
   the garrison (or the rebelling city) is still there; the second consecutive one destroys the
   garrison (its result says so, whatever it was ordered) and gives the city to the besieger; a
   siege not carried on is broken;
5. F.2 (:mod:`~.retreats`);
6. rebellions: liberated by a unit not the victim's standing in the province (11.3, M56), put down
   by the victim's army or fleet executing a given Hold there while no fortified city rebels
   (M45), or by taking the rebelling city by siege (9.4);
7. control after F.2 (4.1, M5): a province and its city go to their sole occupant; an army or
   fleet and a garrison of different owners leave them to nobody; an empty province keeps its
   marker; a rebelling province keeps the marker naming its victim.

The season does not advance here: the campaign's sequencer does that.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from judge.games.machiavelli.core.board import Board
from judge.games.machiavelli.core.operations import Op, Operation, operations
from judge.games.machiavelli.core.orders import Order, Permission, PhaseD
from judge.games.machiavelli.core.position import Owner, Place, Position, Siege, Unit, UnitKind
from judge.games.machiavelli.core.resolution import Resolution, resolve
from judge.games.machiavelli.core.results import (
    Adjudication,
    ControlChange,
    Conversion,
    Disband,
    OrderResult,
    Reason,
    RebellionEnd,
    SiegeReport,
)
from judge.games.machiavelli.core.retreats import Dislodgement, retreats


def adjudicate(
    board: Board,
    position: Position,
    orders: Mapping[str, Iterable[Order]],
    *,
    phase_d: PhaseD | None = None,
    permissions: frozenset[Permission] = frozenset(),
) -> Adjudication:
    """Carry out phase F on ``position`` (see the module docstring)."""
    ops, ignored = operations(board, position, orders, phase_d or PhaseD(), permissions)
    decided = resolve(board, position, ops)
    standing, conversions, forced_out = _after_action(board, ops, decided)
    sieges, siege_reports, besieged, taken = _sieges(position, ops, decided, standing)
    disbanded = [Disband(position.units[Place(area, city=True)], Reason.SIEGE) for area in taken
                 if position.garrison(area) is not None]
    attacked = frozenset(op.attacks for op in ops.values() if op.attacks is not None)
    chosen = retreats(board, position, standing, forced_out, attacked)
    for retreat in chosen:
        if retreat.to is None:
            disbanded.append(Disband(retreat.unit, retreat.reason))
        else:
            standing[retreat.to.place] = retreat.to
            if retreat.to.kind is not retreat.unit.kind:
                conversions.append(Conversion(retreat.unit, retreat.to, retreat.reason))
    rebellions, ended, put_down = _rebellions(board, position, ops, decided, standing, taken)
    control, changes = _control(board, position, standing, rebellions, taken)
    carried = {Place(area) for army, op in ops.items() if decided.path.get(army) for area in op.route}
    results = tuple(
        _destroyed(op) if place.city and place.area in taken else
        _result(op, decided, besieged.get(place), place in put_down, place in carried)
        for place, op in sorted(ops.items())
    )
    new = replace(position.with_units(standing.values()), control=control, rebellions=rebellions, sieges=sieges)
    return Adjudication(
        results=results,
        ignored=ignored,
        retreats=chosen,
        disbanded=tuple(disbanded),
        conversions=tuple(conversions),
        sieges=tuple(siege_reports),
        rebellions_ended=tuple(ended),
        control_changes=tuple(changes),
        position=new,
    )


def _after_action(board: Board, ops: Mapping[Place, Operation],
                  decided: Resolution) -> tuple[dict[Place, Unit], list[Conversion], list[Dislodgement]]:
    """Where each unit stands after F.1, the conversions made, and the units that must retreat."""
    standing: dict[Place, Unit] = {}
    conversions: list[Conversion] = []
    forced_out: list[Dislodgement] = []
    lagoon = board.lagoon
    for place, op in sorted(ops.items()):
        unit = op.unit
        winner = decided.dislodged.get(place)
        if winner is not None:
            attacker = ops[winner].unit
            if place.city:  # converted under a superior attack: it retreats as what it became (M43)
                assert op.into is not None
                converted = Unit(op.into, unit.owner, unit.area, op.coast)
                conversions.append(Conversion(unit, converted, Reason.CONVERTED_THEN_DISLODGED))
                forced_out.append(Dislodgement(converted, attacker, attacker.area))
            elif lagoon is not None and unit.area == lagoon.island:
                garrison = Unit(UnitKind.GARRISON, unit.owner, unit.area)
                standing[garrison.place] = garrison
                conversions.append(Conversion(unit, garrison, Reason.MADE_GARRISON))
            else:
                forced_out.append(Dislodgement(unit, attacker, attacker.area))
        elif place in decided.entered:
            if op.op is Op.ADVANCE:
                assert op.target is not None
                moved = Unit(unit.kind, unit.owner, op.target, op.coast)
            else:
                assert op.into is not None
                moved = Unit(op.into, unit.owner, unit.area, op.coast)
                conversions.append(Conversion(unit, moved, Reason.CONVERTED))
            standing[moved.place] = moved
        elif op.enters_city:
            garrison = Unit(UnitKind.GARRISON, unit.owner, unit.area)
            conversions.append(Conversion(unit, garrison, Reason.CONVERTED))
            standing[garrison.place] = garrison
        else:
            standing[place] = unit
    return standing, conversions, forced_out


def _sieges(position: Position, ops: Mapping[Place, Operation], decided: Resolution,
            standing: dict[Place, Unit]) -> tuple[dict[str, Siege], list[SiegeReport], dict[Place, Reason], set[str]]:
    """Carry the sieges on (9.4, M22): the new sieges, the reports, each besieger's outcome, and
    the areas whose city was taken (their garrison removed from ``standing``)."""
    sieges: dict[str, Siege] = {}
    reports: list[SiegeReport] = []
    outcome: dict[Place, Reason] = {}
    taken: set[str] = set()
    for place, op in sorted(ops.items()):
        if op.op is not Op.BESIEGE or op.target is None:
            continue
        area, owner = op.target, op.unit.owner
        garrison = position.garrison(area)
        still = (standing.get(Place(area, city=True)) == garrison
                 and (garrison is not None or position.city_rebelling(area)))
        if place in decided.dislodged or not still:
            outcome[place] = Reason.SIEGE_BROKEN
            continue
        before = position.sieges.get(area)
        if before is not None and before.besieger == owner:
            standing.pop(Place(area, city=True), None)
            taken.add(area)
            outcome[place] = Reason.SIEGE_COMPLETED
            reports.append(SiegeReport(area, owner, before.seasons + 1, Reason.SIEGE_COMPLETED))
        else:
            sieges[area] = Siege(owner)
            outcome[place] = Reason.BESIEGED
            reports.append(SiegeReport(area, owner, 1, Reason.BESIEGED))
    for area, siege in sorted(position.sieges.items()):
        if area not in sieges and area not in taken:
            reports.append(SiegeReport(area, siege.besieger, 0, Reason.SIEGE_BROKEN))
    return sieges, reports, outcome, taken


def _rebellions(
    board: Board, position: Position, ops: Mapping[Place, Operation], decided: Resolution,
    standing: Mapping[Place, Unit], taken: set[str],
) -> tuple[dict[str, Owner], list[RebellionEnd], set[Place]]:
    """The rebellions still going, those ended, and the units whose Hold put one down."""
    going: dict[str, Owner] = {}
    ended: list[RebellionEnd] = []
    put_down: set[Place] = set()
    for area, victim in sorted(position.rebellions.items()):
        here = standing.get(Place(area))
        holder = position.province_unit(area)
        city = board.areas[area].city
        fortified_city_rebels = city is not None and city.fortified and position.garrison(area) is None
        if here is not None and here.owner != victim:
            ended.append(RebellionEnd(area, victim, Reason.LIBERATED))
        elif area in taken:
            ended.append(RebellionEnd(area, victim, Reason.PUT_DOWN_BY_SIEGE))
        elif (holder is not None and holder.owner == victim and ops[holder.place].given_hold
              and holder.place not in decided.dislodged and not fortified_city_rebels):
            ended.append(RebellionEnd(area, victim, Reason.REBELLION_PUT_DOWN))
            put_down.add(holder.place)
        else:
            going[area] = victim
    return going, ended, put_down


def _control(board: Board, position: Position, standing: Mapping[Place, Unit], rebellions: Mapping[str, Owner],
             taken: set[str]) -> tuple[dict[str, Owner], list[ControlChange]]:
    """The control markers after F.2 (4.1, M5), and those that changed."""
    control = dict(position.control)
    changes: list[ControlChange] = []
    for area in sorted(board.areas):
        if not board.areas[area].is_land or area in rebellions:
            continue
        owners = {u.owner for u in (standing.get(Place(area)), standing.get(Place(area, city=True))) if u is not None}
        before = position.control.get(area)
        if len(owners) == 1:
            (after,) = owners
            reason = Reason.OCCUPIED
        elif len(owners) == 2:
            after, reason = None, Reason.CONTESTED
        elif area in taken:  # Venice taken from the Lagoon: the besieger holds the empty island
            after = next(s.besieger for a, s in position.sieges.items() if a == area)
            reason = Reason.SIEGE_COMPLETED
        else:
            continue
        if after is None:
            control.pop(area, None)
        else:
            control[area] = after
        if after != before:
            changes.append(ControlChange(area, before, after, reason))
    return control, changes


def _destroyed(op: Operation) -> OrderResult:
    """The result of a garrison a completed siege destroyed (9.4): whatever it did, it is gone."""
    return OrderResult(op.unit, op.order, op.as_order(), False, Reason.SIEGE)


def _result(op: Operation, decided: Resolution, siege: Reason | None, put_down: bool, carried: bool) -> OrderResult:
    """One unit's result with its reason (see :class:`~.results.OrderResult`)."""
    place = op.unit.place
    winner = decided.dislodged.get(place)
    out = winner is not None
    came_from = winner.area if winner is not None else None
    settled = decided.settled.get(place)
    succeeded = not out
    if op.op is Op.HOLD:
        reason = op.reason or (Reason.DISLODGED if out else Reason.REBELLION_PUT_DOWN if put_down else Reason.HELD)
    elif op.op is Op.ADVANCE:
        succeeded, reason = _advance_result(op, decided, settled)
    elif op.op is Op.CONVERT:
        succeeded, reason = _conversion_result(op, decided, out, settled)
    elif op.op is Op.SUPPORT:
        succeeded, reason = _support_result(place, decided, out, settled)
    elif op.op is Op.TRANSPORT:
        succeeded = carried
        reason = Reason.TRANSPORT_BROKEN if out else Reason.TRANSPORTED if carried else Reason.NOTHING_TRANSPORTED
    else:
        reason = siege or Reason.SIEGE_BROKEN
        succeeded = reason is not Reason.SIEGE_BROKEN
    strength = decided.strength.get(place, 0) if op.attacks is not None else 0
    return OrderResult(op.unit, op.order, op.as_order(), succeeded, reason, strength, came_from,
                       decided.automatic.get(place, ()) if op.attacks is not None else ())


def _advance_result(op: Operation, decided: Resolution, settled: Reason | None) -> tuple[bool, Reason]:
    """An advance's success and reason: it entered; it prevailed but the defender became a
    garrison; its transport failed; or it bounced (or a rule settled it, M24, M27)."""
    place = op.unit.place
    succeeded = decided.prevails[place]
    if place in decided.entered:
        return succeeded, Reason.ADVANCED
    if succeeded:
        return succeeded, Reason.DEFENDER_MADE_GARRISON
    if op.route and not decided.path[place]:
        return succeeded, settled or op.transport_failure or Reason.TRANSPORT_FAILED
    return succeeded, settled or Reason.BOUNCED


def _conversion_result(op: Operation, decided: Resolution, out: bool, settled: Reason | None) -> tuple[bool, Reason]:
    """A conversion's success and reason: converted; converted, then dislodged (it still
    succeeded); or bounced."""
    if op.enters_city or op.unit.place in decided.entered:
        return True, Reason.CONVERTED
    if out:
        return True, Reason.CONVERTED_THEN_DISLODGED
    return False, settled or Reason.CONVERSION_BOUNCED


def _support_result(place: Place, decided: Resolution, out: bool, settled: Reason | None) -> tuple[bool, Reason]:
    """A support's success and reason: given (to a matching order or to nothing), or not given
    because its unit was dislodged or the support was cut."""
    if decided.given[place]:
        return True, Reason.SUPPORT_GIVEN if decided.matched.get(place) else Reason.NOTHING_TO_SUPPORT
    return False, Reason.SUPPORTER_DISLODGED if out else settled or Reason.SUPPORT_CUT

