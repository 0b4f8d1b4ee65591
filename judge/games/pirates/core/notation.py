"""A Pirates' Proposal match and a phase's submissions as plain JSON-ready data, and back.

The service keeps both in JSON columns between phases.  The layout::

    {"players": ["Ann", "Bob", ...], "garnets": 0, "rooms": [["Ann", ...], ["Bob", ...]],
     "phase": {"stage": "voting", "round": 2} | null, "closed": false, "token_to": null,
     "rounds": [{"number": 1, "rooms": [[...], [...]], "packages": {"Ann": 30, ...},
                 "plans": {"Ann": {"shares": {"Ann": 10, "Cy": 20, ...}, "garnets": 0}, ...},
                 "defaults": ["Cy"], "ballots": {"Ann": {"yes": ["Ann"], "no": ["Cy"]}, ...},
                 "drawn": [], "moves": ["Ann"]}]}

    {"plans": {...as above}, "ballots": {...}, "moves": ["Ann"], "token_to": null}

Lists of names are written in the match's order (sorted by name, case-insensitively), and read
back into it whatever order they come in, so a store that reorders an object's keys (PostgreSQL's
``jsonb``) gives back the same values.  Data of the wrong shape is a :class:`NotationError`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from judge.games.pirates.core.match import Ballot, Match, Phase, Plan, Room, Round, Stage, Submissions


class NotationError(ValueError):
    """Data that is not a stored match or submissions."""


def _key(name: str) -> str:
    return name.casefold()


def _object(data: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise NotationError(f"{where} must be an object")
    return data


def _list(data: Any, where: str) -> list[Any]:
    if not isinstance(data, list):
        raise NotationError(f"{where} must be a list")
    return data


def _int(data: Any, where: str) -> int:
    if not isinstance(data, int) or isinstance(data, bool):
        raise NotationError(f"{where} must be a whole number")
    return data


def _str(data: Any, where: str) -> str:
    if not isinstance(data, str):
        raise NotationError(f"{where} must be a string")
    return data


def _names(data: Any, where: str) -> tuple[str, ...]:
    return tuple(sorted((_str(name, where) for name in _list(data, where)), key=_key))


def _amounts(data: Any, where: str) -> tuple[tuple[str, int], ...]:
    """An object of names to whole numbers, in name order."""
    return tuple(sorted(((_str(name, where), _int(n, f"{where}.{name}")) for name, n in _object(data, where).items()),
                        key=lambda item: _key(item[0])))


def _rooms(data: Any, where: str) -> tuple[Room, Room]:
    rooms = _list(data, where)
    if len(rooms) != 2:
        raise NotationError(f"{where} must hold two rooms")
    return _names(rooms[0], f"{where}[0]"), _names(rooms[1], f"{where}[1]")


def _plans_to_data(plans: tuple[Plan, ...]) -> dict[str, Any]:
    return {p.proposer: {"shares": dict(p.shares), "garnets": p.garnets} for p in plans}


def _plans(data: Any, where: str) -> tuple[Plan, ...]:
    plans = []
    for proposer, plan in _object(data, where).items():
        at = f"{where}.{proposer}"
        info = _object(plan, at)
        plans.append(Plan(proposer, _amounts(info.get("shares"), f"{at}.shares"), _int(info.get("garnets", 0),
                                                                                        f"{at}.garnets")))
    return tuple(sorted(plans, key=lambda p: _key(p.proposer)))


def _ballots_to_data(ballots: tuple[Ballot, ...]) -> dict[str, Any]:
    return {b.voter: {"yes": list(b.yes), "no": list(b.no)} for b in ballots}


def _ballots(data: Any, where: str) -> tuple[Ballot, ...]:
    ballots = []
    for voter, ballot in _object(data, where).items():
        at = f"{where}.{voter}"
        info = _object(ballot, at)
        ballots.append(Ballot(voter, _names(info.get("yes"), f"{at}.yes"), _names(info.get("no"), f"{at}.no")))
    return tuple(sorted(ballots, key=lambda b: _key(b.voter)))


def _round_to_data(round_: Round) -> dict[str, Any]:
    return {"number": round_.number, "rooms": [list(room) for room in round_.rooms],
            "packages": dict(round_.packages), "plans": _plans_to_data(round_.plans),
            "defaults": list(round_.defaults), "ballots": _ballots_to_data(round_.ballots),
            "drawn": list(round_.drawn), "moves": list(round_.moves)}


def _round(data: Any, where: str) -> Round:
    info = _object(data, where)
    return Round(_int(info.get("number"), f"{where}.number"), _rooms(info.get("rooms"), f"{where}.rooms"),
                 _amounts(info.get("packages"), f"{where}.packages"), _plans(info.get("plans", {}), f"{where}.plans"),
                 _names(info.get("defaults", []), f"{where}.defaults"),
                 _ballots(info.get("ballots", {}), f"{where}.ballots"), _names(info.get("drawn", []), f"{where}.drawn"),
                 _names(info.get("moves", []), f"{where}.moves"))


def match_to_data(match: Match) -> dict[str, Any]:
    """The match as JSON-ready data."""
    phase = None if match.phase is None else {"stage": match.phase.stage.value, "round": match.phase.round}
    return {"players": list(match.players), "garnets": match.garnets, "rooms": [list(room) for room in match.rooms],
            "phase": phase, "closed": match.closed, "token_to": match.token_to,
            "rounds": [_round_to_data(round_) for round_ in match.rounds]}


def match_from_data(data: Any) -> Match:
    """The match that :func:`match_to_data` wrote."""
    info = _object(data, "match")
    phase_data = info.get("phase")
    phase = None
    if phase_data is not None:
        phase_info = _object(phase_data, "phase")
        try:
            stage = Stage(phase_info.get("stage"))
        except ValueError:
            raise NotationError(f"phase.stage must be one of {', '.join(s.value for s in Stage)}") from None
        phase = Phase(stage, _int(phase_info.get("round"), "phase.round"))
    closed = info.get("closed", False)
    if not isinstance(closed, bool):
        raise NotationError("closed must be true or false")
    token_to = info.get("token_to")
    return Match(_names(info.get("players"), "players"), _int(info.get("garnets", 0), "garnets"),
                 _rooms(info.get("rooms"), "rooms"),
                 tuple(_round(r, f"rounds[{i}]") for i, r in enumerate(_list(info.get("rounds", []), "rounds"))),
                 phase, closed, None if token_to is None else _str(token_to, "token_to"))


def submissions_to_data(submissions: Submissions) -> dict[str, Any]:
    """A phase's submissions as JSON-ready data."""
    return {"plans": _plans_to_data(submissions.plans), "ballots": _ballots_to_data(submissions.ballots),
            "moves": list(submissions.moves), "token_to": submissions.token_to}


def submissions_from_data(data: Any) -> Submissions:
    """The submissions that :func:`submissions_to_data` wrote (``None``: none yet)."""
    info = _object({} if data is None else data, "submissions")
    token_to = info.get("token_to")
    return Submissions(_plans(info.get("plans", {}), "plans"), _ballots(info.get("ballots", {}), "ballots"),
                       _names(info.get("moves", []), "moves"), None if token_to is None else _str(token_to, "token_to"))
