"""The JSON contract of the Machiavelli core: a phase's input as JSON values in, its record out,
and positions both ways (the output's ``position`` is the next request's).  The format, with
an example, is documented in :mod:`judge.games.machiavelli.cli`.

Owners are a power's name, or ``independent`` for the independent state whose native area is
the area the entry is about (a unit's area, a marker's province), or ``independent <code>``
naming the native area.  Seasons read ``Spring 1454``; units are ``[owner, kind, where]`` in a
position (``where`` an area code, ``/nc`` added for a coast) and ``"owner kind where"`` in the
reports; orders are written as a letter writes them (:mod:`~.syntax`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from judge.games.machiavelli.core.board import Board, BoardError, Location, load_board
from judge.games.machiavelli.core.campaign import CampaignRecord, campaign, expected_letters
from judge.games.machiavelli.core.expenditures import LetterOrder
from judge.games.machiavelli.core.expense import RebellionStart
from judge.games.machiavelli.core.ledger import Movement, OrderOutcome
from judge.games.machiavelli.core.position import (
    Campaign,
    Independent,
    Owner,
    Phase,
    Position,
    Season,
    Siege,
    Unit,
    UnitKind,
)
from judge.games.machiavelli.core.results import ControlChange, Disband, RebellionEnd
from judge.games.machiavelli.core.spring import SpringOpening, SpringRecord, spring_letter
from judge.games.machiavelli.core.syntax import parse_letter


class NotationError(ValueError):
    """A request that does not describe a position or letters on its board."""


# -- values --------------------------------------------------------------------------------------------------


def season_to_data(season: Season) -> str:
    return str(season)


def season_from_data(text: Any) -> Season:
    try:
        campaign_name, year = str(text).split()
        return Season(int(year), Campaign(campaign_name.lower()))
    except ValueError:
        raise NotationError(f"a season reads 'Spring 1454', not {text!r}") from None


def owner_to_data(owner: Owner, area: str | None = None) -> str:
    if isinstance(owner, Independent):
        return "independent" if owner.native == area else f"independent {owner.native}"
    return owner


def owner_from_data(text: Any, area: str, board: Board) -> Owner:
    words = str(text).split()
    if words[:1] == ["independent"]:
        return Independent(_code(board, " ".join(words[1:])) if len(words) > 1 else area)
    if text not in board.powers:
        raise NotationError(f"no power is called {text!r} on the {board.name} board")
    return str(text)


def _code(board: Board, name: Any) -> str:
    try:
        return board.code(str(name))
    except BoardError as exc:
        raise NotationError(str(exc)) from None


def unit_to_data(unit: Unit) -> list[str]:
    return [owner_to_data(unit.owner, unit.area), unit.kind.value, str(Location(unit.area, unit.coast))]


def unit_from_data(data: Any, board: Board) -> Unit:
    try:
        owner, kind, where = data
        area, _, coast = str(where).partition("/")
        code = _code(board, area)
        unit = Unit(UnitKind(kind), owner_from_data(owner, code, board), code, coast or None)
    except (TypeError, ValueError) as exc:
        raise NotationError(f"a unit reads [owner, A|F|G, area], not {data!r} ({exc})") from None
    a = board.areas[code]
    if (unit.kind is UnitKind.GARRISON and not a.fortified_city) or (
            unit.kind is UnitKind.ARMY and (not a.is_land or a.fleet_only)) or (
            unit.kind is UnitKind.FLEET and Location(code, unit.coast) not in board.fleet_edges):
        raise NotationError(f"no {unit.kind.name.lower()} can stand in {where}")
    return unit


def position_to_data(position: Position) -> dict[str, Any]:
    """A position as JSON values (see the module docstring)."""
    return {
        "season": season_to_data(position.season),
        "phase": position.phase.value,
        "units": [unit_to_data(u) for u in position.units.values()],
        "control": {a: owner_to_data(o, a) for a, o in sorted(position.control.items())},
        "rebellions": {a: owner_to_data(v, a) for a, v in sorted(position.rebellions.items())},
        "sieges": {a: {"besieger": owner_to_data(s.besieger, a), "seasons": s.seasons}
                   for a, s in sorted(position.sieges.items())},
        "treasuries": dict(sorted(position.treasuries.items())),
        "anticipated": dict(sorted(position.anticipated.items())),
        "homes": {p: sorted(h) for p, h in sorted(position.homes.items())},
        "eliminated": {p: season_to_data(s) for p, s in position.eliminated.items()},
        "bans": {p: season_to_data(s) for p, s in sorted(position.bans.items())},
        "excommunicated": list(position.excommunicated),
    }


def position_from_data(data: Any, board: Board) -> Position:
    """A position from JSON values (NotationError if they describe none on ``board``)."""
    if not isinstance(data, Mapping):
        raise NotationError("a position is a JSON object")
    try:
        areas = {key: _code(board, key) for key in (*data.get("control", {}), *data.get("rebellions", {}),
                                                      *data.get("sieges", {}))}
        eliminated = {_power(board, p): season_from_data(s) for p, s in data.get("eliminated", {}).items()}
        homes = {p: frozenset({p}) for p in board.powers if p not in eliminated}  # a player left out: its own
        homes |= {_power(board, p): frozenset(_power(board, c) for c in h) for p, h in data.get("homes", {}).items()}
        return Position.build(
            season_from_data(data["season"]),
            [unit_from_data(u, board) for u in data.get("units", ())],
            control={areas[a]: owner_from_data(o, areas[a], board) for a, o in data.get("control", {}).items()},
            rebellions={areas[a]: owner_from_data(v, areas[a], board) for a, v in data.get("rebellions", {}).items()},
            sieges={areas[a]: Siege(owner_from_data(s["besieger"], areas[a], board), int(s.get("seasons", 1)))
                    for a, s in data.get("sieges", {}).items()},
            treasuries={_power(board, p): int(v) for p, v in data.get("treasuries", {}).items()},
            homes=homes,
            eliminated=eliminated,
            phase=Phase(data.get("phase", "C")),
            anticipated={_power(board, p): int(v)
                         for p, v in data.get("anticipated", data.get("treasuries", {})).items()},
            bans={_power(board, p): season_from_data(s) for p, s in data.get("bans", {}).items()},
            excommunicated=tuple(_power(board, p) for p in data.get("excommunicated", ())),
        )
    except NotationError:
        raise
    except KeyError as exc:
        raise NotationError(f"the position lacks {exc}") from None
    except (TypeError, AttributeError, ValueError) as exc:  # a bad number or phase, two units in one place...
        raise NotationError(f"malformed position: {exc}") from None


def _power(board: Board, name: Any) -> str:
    if name not in board.powers:
        raise NotationError(f"no power is called {name!r} on the {board.name} board")
    return str(name)


# -- a request and its answer ------------------------------------------------------------------------------


def request_from_data(data: Any) -> tuple[Board, Position, dict[str, tuple[LetterOrder, ...]], dict[str, list[str]]]:
    """A request's board, position, letters (parsed) and the letters' problems."""
    if not isinstance(data, Mapping):
        raise NotationError("a request is a JSON object")
    try:
        board = load_board(str(data.get("board", "classic")))
    except BoardError as exc:
        raise NotationError(str(exc)) from None
    position = position_from_data(data["position"], board) if "position" in data else board.start
    letters: dict[str, tuple[LetterOrder, ...]] = {}
    problems: dict[str, list[str]] = {}
    raw = data.get("letters", {})
    if not isinstance(raw, Mapping):
        raise NotationError("letters is an object: player -> the letter's text (or its lines)")
    for player, text in raw.items():
        body = "\n".join(text) if isinstance(text, list) else str(text)
        orders, trouble = parse_letter(body, board)
        letters[_power(board, player)] = orders
        if trouble:
            problems[player] = [str(p) for p in trouble]
    return board, position, letters, problems


def run(data: Any) -> dict[str, Any]:
    """One request: the phase the position awaits carried out with the letters given."""
    board, position, letters, problems = request_from_data(data)
    answer: dict[str, Any] = {"board": board.name, "season": season_to_data(position.season),
                              "phase": position.phase.value, "problems": problems}
    if position.phase is Phase.A:
        spring = spring_letter(board, position, letters)
        answer |= spring_to_data(spring)
        after = spring.position
    elif position.phase is Phase.C:
        leaving = data.get("leaving", [])
        if not isinstance(leaving, list):
            raise NotationError("leaving is a list of the players who left with no substitute leader (M62)")
        record = campaign(board, position, letters, frozenset(_power(board, str(p)) for p in leaving))
        answer |= campaign_to_data(record)
        after = record.position
    else:
        raise NotationError("the game is over: no letter is awaited")
    answer["position"] = position_to_data(after)
    answer["expected"] = [{"player": e.player, "phase": e.phase.value, "default": e.default}
                          for e in expected_letters(board, after)]
    return answer


def _unit(unit: Unit | None) -> str | None:
    return None if unit is None else " ".join(unit_to_data(unit))


def _outcome(o: OrderOutcome) -> dict[str, Any]:
    return {"player": o.player, "phase": o.phase, "order": str(o.order), "succeeded": o.succeeded,
            "charged": o.charged, "reason": o.reason.name}


def _movement(m: Movement) -> dict[str, Any]:
    return {"player": m.player, "amount": m.amount, "flow": m.flow.value, "phase": m.phase, "detail": m.detail}


def _control(c: ControlChange) -> dict[str, Any]:
    return {"area": c.area, "before": c.before and owner_to_data(c.before, c.area),
            "after": c.after and owner_to_data(c.after, c.area), "reason": c.reason.name}


def _rebellion(r: RebellionStart | RebellionEnd) -> dict[str, Any]:
    return {"area": r.area, "victim": owner_to_data(r.victim, r.area), "reason": r.reason.name}


def _disband(d: Disband) -> dict[str, Any]:
    return {"unit": _unit(d.unit), "reason": d.reason.name}


def _opening(opening: SpringOpening) -> dict[str, Any]:
    return {
        "season": season_to_data(opening.season),
        "sprung": [_unit(u) for u in opening.sprung],
        "rebellions_ended": [_rebellion(r) for r in opening.rebellions_ended],
        "control": [_control(c) for c in opening.control_changes],
        "incomes": {p: {"seas": i.seas, "provinces": i.provinces, "cities": i.cities, "lagoon": i.lagoon,
                        "trade": i.trade, "total": i.total} for p, i in opening.incomes.items()},
    }


def spring_to_data(record: SpringRecord) -> dict[str, Any]:
    """A spring's A.4 to A.7 as JSON values."""
    return {
        "orders": [_outcome(o) for o in record.outcomes],
        "trades": [{"area": t.area, "seller": t.seller, "buyer": t.buyer, "price": t.price} for t in record.trades],
        "forced_taxes": [_rebellion(r) for r in record.forced_taxes],
        "raised": [_unit(u) for u in record.raised],
        "disbanded": [_disband(d) for d in record.disbanded],
        "excommunicated": list(record.excommunicated),
        "control": [_control(c) for c in record.control_changes],
        "movements": [_movement(m) for m in record.movements],
        "treasuries": dict(record.position.treasuries),
    }


def campaign_to_data(record: CampaignRecord) -> dict[str, Any]:
    """A campaign's record as JSON values."""
    d, f, end = record.expending, record.action, record.ending
    return {
        "orders": [_outcome(o) for o in record.outcomes],
        "assassinated": sorted(d.assassinated),
        "bribes": [{"briber": b.briber, "kind": b.kind.value, "unit": _unit(b.before), "after": _unit(b.after)}
                   for b in d.bribes],
        "rebellions": {"started": [_rebellion(r) for r in d.rebellions_started],
                       "ended": [_rebellion(r) for r in (*d.rebellions_ended, *f.rebellions_ended,
                                                         *end.rebellions_ended)]},
        "operations": [{"unit": _unit(r.unit), "order": r.order and str(r.order), "carried_out": str(r.operation),
                        "succeeded": r.succeeded, "reason": r.reason.name, "strength": r.strength,
                        "dislodged_from": r.dislodged_from} for r in f.results],
        "ignored": [{"player": i.player, "order": str(i.order), "reason": i.reason.name} for i in f.ignored],
        "retreats": [{"unit": _unit(r.unit), "from": r.attacked_from, "to": _unit(r.to), "reason": r.reason.name}
                     for r in f.retreats],
        "disbanded": [_disband(x) for x in f.disbanded],
        "conversions": [{"before": _unit(c.before), "after": _unit(c.after), "reason": c.reason.name}
                        for c in f.conversions],
        "sieges": [{"area": s.area, "besieger": owner_to_data(s.besieger, s.area), "seasons": s.seasons,
                    "reason": s.reason.name} for s in f.sieges],
        "control": [_control(c) for c in (*d.control_changes, *f.control_changes, *end.control_changes)],
        "conquests": [{"country": c.country, "player": c.player, "previous": c.previous} for c in end.conquests],
        "losses": [{"player": x.player, "country": x.country} for x in end.losses],
        "eliminated": [{"player": e.player, "treasury": e.treasury, "reason": e.reason.name,
                        "units": [[_unit(u), _unit(a)] for u, a in e.units]} for e in end.eliminations],
        "winners": list(end.end.winners) if end.end else [],
        "ranking": [{"player": s.player, "rank": s.rank, "cities": s.cities, "provinces": s.provinces, "tax": s.tax,
                     "treasury": s.treasury} for s in end.end.ranking] if end.end else [],
        "spring": _opening(record.opening) if record.opening else None,
        "movements": [_movement(m) for m in record.movements],
        "treasuries": dict(record.position.treasuries),
    }
