"""P9: changing rooms."""

from __future__ import annotations

from judge.games.pirates.core.match import Submissions, close_phase, moves_made, open_phase, settle
from judge.games.pirates.core.views import distribution_view
from tests.games.pirates.match import FOURTEEN, match_in_round_1, phase, refusal, send

FIRST, SECOND = FOURTEEN[:7], FOURTEEN[7:]


def round_1_voting():  # type: ignore[no-untyped-def]
    return phase(match_in_round_1(FIRST, SECOND, {p: 10 for p in FOURTEEN}), {})


def test_P9_moves_take_effect_together_at_the_start_of_the_next_distribution_phase() -> None:
    match = round_1_voting()
    match = phase(match, {"Ann": ["MOVE"], "Bob": ["MOVE"], "Hal": ["MOVE"]})
    assert match.round.rooms == (("Cy", "Dee", "Eve", "Fay", "Gus", "Hal"),
                                 ("Ann", "Bob", "Ivy", "Jo", "Kim", "Lou", "Max", "Ned"))
    assert match.rounds[0].rooms == (FIRST, SECOND)  # the round they asked in is played where they were
    assert distribution_view(match, "Ann", 2).room == ("Ann", "Bob", "Ivy", "Jo", "Kim", "Lou", "Max", "Ned")
    assert distribution_view(match, "Cy", 2).room == ("Cy", "Dee", "Eve", "Fay", "Gus", "Hal")


def test_P9_NOMOVE_withdraws_a_move() -> None:
    match = round_1_voting()
    sent = send(match, Submissions(), "Ann", "MOVE")
    assert sent.moves == ("Ann",)
    sent = send(match, sent, "Ann", "NOMOVE")
    assert sent.moves == ()
    assert open_phase(close_phase(match, sent, 0), 0).round.rooms == (FIRST, SECOND)


def test_P9_a_player_moves_at_most_twice_a_third_request_is_refused() -> None:
    match = round_1_voting()
    match = phase(match, {"Ann": ["MOVE"]})
    match = phase(phase(match, {}), {"Ann": ["MOVE"]})
    assert moves_made(match, "Ann") == 2
    match = phase(match, {})
    assert refusal(match, "Ann", "MOVE") == (
        "a player may change rooms at most 2 times in a match, and you have already changed 2 times")
    send(match, Submissions(), "Ann", "NOMOVE")
    send(match, Submissions(), "Bob", "MOVE")


def test_P9_no_move_in_the_last_round() -> None:
    match = round_1_voting()
    for _ in range(4):
        match = phase(phase(match, {}), {})
    assert match.round.number == 5
    assert refusal(match, "Ann", "MOVE") == "a move changes your room for the next round, and this is the last round"


def test_P9_a_move_is_asked_for_in_a_voting_phase_only() -> None:
    match = match_in_round_1(FIRST, SECOND, {p: 10 for p in FOURTEEN})
    assert refusal(match, "Ann", "MOVE") == (
        "a move is asked for during a Voting Phase; this is the Distribution Phase of round 1")


def test_P9_a_room_may_end_up_with_any_number_of_members_and_an_empty_room_has_no_plans() -> None:
    match = phase(match_in_round_1(("Ann", "Bob"), ("Cy", "Dee"), {"Ann": 10, "Bob": 20, "Cy": 30, "Dee": 40}), {})
    match = phase(match, {"Ann": ["MOVE"], "Bob": ["MOVE"]})
    assert match.round.rooms == ((), ("Ann", "Bob", "Cy", "Dee"))
    match = phase(phase(match, {}), {})
    settlement = settle(match.rounds[1])
    assert [o.proposer for o in settlement.outcomes] == ["Ann", "Bob", "Cy", "Dee"]
    assert sum(amount for _, amount in settlement.receipts) + settlement.destroyed == sum(
        match.rounds[1].package(p) for p in match.players)


def test_P9_a_room_is_listed_by_name_whoever_came_into_it() -> None:
    first, second = ("Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"), ("Ann", "Bob", "Jo", "Kim", "Lou", "Max", "Ned")
    match = phase(match_in_round_1(first, second, {p: 10 for p in FOURTEEN}), {})
    match = phase(match, {"Ann": ["MOVE"], "Ivy": ["MOVE"]})
    assert distribution_view(match, "Cy", 2).lines()[1] == "Room: Ann, Cy, Dee, Eve, Fay, Gus, Hal"
    assert distribution_view(match, "Bob", 2).lines()[1] == "Room: Bob, Ivy, Jo, Kim, Lou, Max, Ned"
