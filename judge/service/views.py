"""What each reader may see of a game, decided in one place for every edge that shows it.

Theory of operation.  When a phase is processed, ``phase_report`` turns what happened into
plain data, stored with the phase: the orders as adjudicated, what the judge did by itself
(``automatic_actions``), and the board after the phase (``board``).  All of that is public:
every player receives it, and pages may show it.  What is private is kept apart and given only
to its owner: a power's rule 5.7 statement and its account (``account``: every change of its
balance since its last statement, rule 2.5).  The game master's chart (``chart``) adds every
power's offers, savings, expanded acceptance list and account.  ``results_view`` and
``chart_view`` are what the mail templates (and later the maps and pages) are given, so a
template cannot show what its reader may not see.

Under BLIND (Tin Cup, rule 6.3) the board is not shown: a Blind player sees only its part
of it, which the judge does not compute yet.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from judge.engine.legal import adjustment_count, retreat_options
from judge.engine.orders import Build, Disband, OrderSyntaxError, PhaseKind, Remove, Retreat, Waive, parse_order
from judge.engine.position import Position


def board(position: Position) -> dict[str, Any]:
    """The public board of a position: units, dislodged units and their retreats, supply
    centers with counts, and in an adjustment phase what each power must build or remove."""
    game_map = position.game_map
    powers = list(game_map.powers)
    units = {p: sorted(str(u.unit) for u in position.units_of(p)) for p in powers}
    centers = {p: sorted(position.centers_of(p)) for p in powers}
    owned = {c for cs in centers.values() for c in cs}
    view: dict[str, Any] = {
        "phase": str(position.phase),
        "powers": [{"power": p, "units": units[p], "centers": centers[p]} for p in powers if units[p] or centers[p]],
        "unowned": sorted(set(game_map.supply_centers) - owned),
        "dislodged": [
            {"power": d.power, "unit": str(d.unit),
             "retreats": sorted(str(loc) for loc in retreat_options(position, province))}
            for province, d in sorted(position.dislodged.items())
        ],
        "adjustments": [],
    }
    if position.phase.kind is PhaseKind.ADJUSTMENT:
        for power in powers:
            count = adjustment_count(position, power)
            if count == 0:
                continue
            free = sorted(c for c in game_map.powers[power].home_centers
                          if position.centers.get(c) == power and c not in position.units)
            view["adjustments"].append({"power": power, "centers": len(centers[power]), "units": len(units[power]),
                                        "builds": max(count, 0), "removals": max(-count, 0), "free_homes": free})
    return view


def automatic_actions(before: Position, results: Sequence[Mapping[str, Any]], after: Position,
                      sheets: Iterable[str] | None, played: Iterable[str]) -> list[str]:
    """What the judge did by itself in a phase, one sentence each: so that no player ever learns
    from a later position that a unit vanished.  ``sheets`` names the powers whose offer sheet
    was used (movement phases), ``played`` the powers with a player."""
    kind = before.phase.kind
    done: list[str] = []
    if kind is PhaseKind.MOVEMENT and sheets is not None:
        for power in sorted(set(played) - set(sheets)):
            if before.units_of(power):
                done.append(f"{power.title()} sent no offer sheet: each of its units was offered a zero HOLD "
                            "by its own power (rule 3.3)")
        return done
    succeeded = [(r.get("power"), _order(before, r)) for r in results if r.get("result") == "succeeds"]
    if kind is PhaseKind.RETREAT:
        moved = {o.unit.province for _, o in succeeded if isinstance(o, Retreat | Disband)}
        bounced = {o.unit.province: o for r in results if r.get("result") == "fails"
                   for o in [_order(before, r)] if isinstance(o, Retreat)}
        for province, d in sorted(before.dislodged.items()):
            if province in moved:
                continue
            unit = f"{d.power.title()} {d.unit}"
            if province in bounced:
                why = f"its retreat to {bounced[province].destination} bounced"
            elif not retreat_options(before, province):
                why = "it had nowhere to retreat to"
            else:
                why = "no retreat was ordered for it"
            done.append(f"{unit} was disbanded: {why}")
        return done
    for power in before.game_map.powers:
        count = adjustment_count(before, power)
        mine = [o for who, o in succeeded if who == power]
        if count > 0:
            built = sum(isinstance(o, Build | Waive) for o in mine)
            if built < count:
                free = [c for c in before.game_map.powers[power].home_centers
                        if before.centers.get(c) == power and c not in before.units]
                reason = "it had no free home center" if not free else "they were not ordered"
                done.append(f"{power.title()} did not use {count - built} build(s): waived ({reason})")
        elif count < 0:
            ordered = {o.unit.province for o in mine if isinstance(o, Remove | Disband)}
            lost = sorted(str(u.unit) for p, u in before.units.items()
                          if u.power == power and p not in ordered and after.units.get(p) != u)
            for unit in lost:
                done.append(f"{power.title()} {unit} was removed in civil disorder: too few removals were ordered")
    return done


def _order(position: Position, result: Mapping[str, Any]) -> Any:
    try:
        return parse_order(str(result.get("order", "")), position.game_map, position.phase.kind)
    except OrderSyntaxError:
        return None


def account(rows: Iterable[tuple[str, int, str]]) -> list[dict[str, Any]]:
    """A power's balance changes, each as ``amount`` and what it was (rule 2.5), from ledger
    rows given as (kind, amount, note)."""
    words = {"income": "income", "transfer": "transfer", "payment": "paid", "refund": "refund",
             "forfeit": "forfeited", "zerosum": "zero sum", "void": "initial funds"}
    return [{"amount": amount, "what": f"{words.get(kind, kind)}: {note}" if note else words.get(kind, kind)}
            for kind, amount, note in rows if amount]


def results_view(report: Mapping[str, Any], power: str | None, statement: Mapping[str, Any] | None,
                 account_lines: list[dict[str, Any]], balance: int, blind: bool) -> dict[str, Any]:
    """What one power's results mail shows: the public part, and its own private part only
    (``power`` None: an observer's or the history's, the public part alone)."""
    return {
        "phase": report["phase"],
        "results": report["results"],
        "automatic": report["automatic"],
        "board": None if blind else report["board"],
        "power": power,
        "statement": statement,
        "account": account_lines,
        "balance": balance,
    }
