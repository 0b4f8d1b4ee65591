"""The match and a phase's submissions as JSON and back (the service keeps them in JSON columns)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from judge.games.pirates.core.match import Match, Submissions, close_phase, open_phase, start_match
from judge.games.pirates.core.notation import (
    NotationError,
    match_from_data,
    match_to_data,
    submissions_from_data,
    submissions_to_data,
)
from tests.games.pirates.match import FOURTEEN, match_in_round_1, play_match, scripted_match, send


def reordered(data: Any) -> Any:
    """``data`` with every object's keys in reverse order, as a store such as jsonb may give them."""
    if isinstance(data, dict):
        return {key: reordered(data[key]) for key in reversed(list(data))}
    if isinstance(data, list):
        return [reordered(item) for item in data]
    return data


def round_trip(match: Match) -> None:
    text = json.dumps(match_to_data(match))
    assert match_from_data(json.loads(text)) == match
    assert match_from_data(reordered(json.loads(text))) == match


def test_a_match_round_trips_through_json_at_every_phase() -> None:
    play_match(open_phase(start_match(FOURTEEN, 8, garnets=2), "D1"), random.Random(8), each=round_trip)
    round_trip(start_match(FOURTEEN, 8))
    round_trip(scripted_match())


def test_submissions_round_trip_through_json() -> None:
    match = scripted_match()
    given = send(match, Submissions(), "Ann", "GIVE TOKEN Bob")
    assert submissions_from_data(json.loads(json.dumps(submissions_to_data(given)))) == given
    assert submissions_from_data(None) == Submissions()
    distribution = match_in_round_1(("Ann", "Bob"), ("Cy", "Dee"), dict.fromkeys(("Ann", "Bob", "Cy", "Dee"), 10),
                                    garnets=1)
    plans = send(distribution, Submissions(), "Ann", "PLAN ME 15", "GARNETS 1")
    data = reordered(json.loads(json.dumps(submissions_to_data(plans))))
    assert submissions_from_data(data) == plans
    voting = open_phase(close_phase(distribution, plans, 0), 0)
    ballots = send(voting, Submissions(), "Ann", "VOTE YES ME", "VOTE NO Bob", "MOVE")
    ballots = send(voting, ballots, "Bob", "VOTE NO ME", "VOTE YES Ann")
    assert submissions_from_data(reordered(json.loads(json.dumps(submissions_to_data(ballots))))) == ballots


@pytest.mark.parametrize(("data", "error"), [
    ([], "match must be an object"),
    ({"players": "Ann", "rooms": [[], []]}, "players must be a list"),
    ({"players": [], "rooms": [[]]}, "rooms must hold two rooms"),
    ({"players": [], "rooms": [[], []], "garnets": "1"}, "garnets must be a whole number"),
    ({"players": [], "rooms": [[], []], "phase": {"stage": "bidding", "round": 1}}, "phase.stage must be one of"),
    ({"players": [], "rooms": [[], []], "rounds": [{"number": 1, "rooms": [[], []], "packages": {"Ann": True}}]},
     r"rounds\[0\].packages.Ann must be a whole number"),
])
def test_data_of_the_wrong_shape_is_refused(data: Any, error: str) -> None:
    with pytest.raises(NotationError, match=error):
        match_from_data(data)
