"""Ballots: P2 (who votes on what), P3 (the balance; drawn ballots), P4 (a one-member room)."""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from judge.games.pirates.core.match import (
    Ballot,
    Submissions,
    balanced,
    ballot_words,
    close_phase,
    draw_ballot,
    gold,
    settle,
)
from tests.games.pirates.match import FOURTEEN, match_in_round_1, phase, refusal, send

SEVEN, OTHERS = FOURTEEN[:7], FOURTEEN[7:]  # Ann..Gus, Hal..Ned


def voting_match(first: tuple[str, ...] = SEVEN, second: tuple[str, ...] = OTHERS):  # type: ignore[no-untyped-def]
    return phase(match_in_round_1(first, second, {p: 10 for p in (*first, *second)}), {})


def test_P2_P3_a_ballot_votes_on_every_plan_of_the_room_own_included() -> None:
    match = voting_match()
    sent = send(match, Submissions(), "Ann", "VOTE YES ME Bob Cy", "VOTE NO Dee Eve Fay Gus")
    assert sent.ballots == (Ballot("Ann", ("Ann", "Bob", "Cy"), ("Dee", "Eve", "Fay", "Gus")),)
    assert refusal(match, "Ann", "VOTE YES Bob Cy Dee", "VOTE NO Eve Fay Gus") == (
        "the ballot leaves out your own plan: a ballot votes on every plan of your room, your own included")
    assert refusal(match, "Ann", "VOTE YES ME Bob Cy", "VOTE NO Dee Eve") == (
        "the ballot leaves out the plans of Fay and Gus: a ballot votes on every plan of your room, your own "
        "included")
    assert refusal(match, "Ann", "VOTE YES Bob Cy Dee", "VOTE NO Eve") == (
        "the ballot leaves out your own plan and the plans of Fay and Gus: a ballot votes on every plan of your room, "
        "your own included")


def test_P2_nobody_votes_on_the_other_rooms_plans() -> None:
    message = refusal(voting_match(), "Ann", "VOTE YES ME Bob Cy Hal", "VOTE NO Dee Eve Fay Gus")
    assert message == "Hal is not in your room this round (your room: Ann, Bob, Cy, Dee, Eve, Fay, Gus)"


def test_P3_a_ballot_naming_a_plan_twice_is_refused() -> None:
    match = voting_match()
    assert refusal(match, "Ann", "VOTE YES ME Bob Cy", "VOTE NO Dee Eve Fay Gus bob") == (
        "the ballot votes twice on the plan of Bob: a ballot votes once on each plan of your room")
    assert refusal(match, "Ann", "VOTE YES ME Bob Cy Ann", "VOTE NO Dee Eve Fay Gus") == (
        "the ballot votes twice on your plan: a ballot votes once on each plan of your room")


def test_P3_an_unbalanced_ballot_is_refused_whole() -> None:
    match = voting_match()
    assert refusal(match, "Ann", "VOTE YES ME Bob Cy Dee Eve", "VOTE NO Fay Gus") == (
        "a ballot's Yes and No votes may differ by at most one; yours has 5 Yes and 2 No")
    assert refusal(match, "Ann", "VOTE NO ME Bob Cy Dee Eve Fay Gus") == (
        "a ballot's Yes and No votes may differ by at most one; yours has 0 Yes and 7 No")
    six = voting_match(SEVEN[:6], OTHERS[:6])
    assert refusal(six, "Ann", "VOTE YES ME Bob Cy Dee", "VOTE NO Eve Fay") == (
        "in a room of 6 a ballot has 3 Yes and 3 No votes; yours has 4 Yes and 2 No")
    send(six, Submissions(), "Ann", "VOTE YES ME Bob Cy", "VOTE NO Dee Eve Fay")


def test_P3_a_refused_ballot_leaves_the_earlier_one_standing_and_a_later_valid_one_replaces_it() -> None:
    match = voting_match()
    first = send(match, Submissions(), "Ann", "VOTE YES ME Bob Cy", "VOTE NO Dee Eve Fay Gus")
    refusal(match, "Ann", "VOTE YES ME", submissions=first)
    later = send(match, first, "Ann", "VOTE NO ME Bob Cy", "VOTE YES Dee Eve Fay Gus")
    assert later.ballot("Ann") == Ballot("Ann", ("Dee", "Eve", "Fay", "Gus"), ("Ann", "Bob", "Cy"))


def test_P3_every_player_without_a_valid_ballot_gets_a_balanced_one_drawn() -> None:
    match = close_phase(voting_match(), send(voting_match(), Submissions(), "Ann", "VOTE YES ME Bob Cy",
                                             "VOTE NO Dee Eve Fay Gus"), "seed")
    round_ = match.rounds[0]
    assert round_.drawn == tuple(p for p in sorted(FOURTEEN, key=str.casefold) if p != "Ann")
    for ballot in round_.ballots:
        room = round_.room_of(ballot.voter)
        assert sorted((*ballot.yes, *ballot.no)) == sorted(room)
        assert balanced(len(ballot.yes), len(ballot.no))


@given(st.integers(1, 14), st.integers(0, 2**32))
def test_P3_a_drawn_ballot_is_balanced_and_votes_once_on_each_plan(size: int, seed: int) -> None:
    room = tuple(f"P{i}" for i in range(size))
    ballot = draw_ballot("P0", room, random.Random(seed))
    assert sorted((*ballot.yes, *ballot.no)) == sorted(room)
    assert abs(len(ballot.yes) - len(ballot.no)) <= 1


def test_P3_every_balanced_ballot_can_be_drawn() -> None:
    for size in range(1, 7):
        room = tuple(f"P{i}" for i in range(size))
        ayes = [size // 2] if size % 2 == 0 else [size // 2, size // 2 + 1]
        every = {frozenset(yes) for k in ayes for yes in combinations(room, k)}
        seen: dict[frozenset[str], int] = {}
        for seed in range(200 * len(every)):
            drawn = frozenset(draw_ballot("P0", room, random.Random(seed)).yes)
            seen[drawn] = seen.get(drawn, 0) + 1
        assert set(seen) == every
        assert min(seen.values()) > 100  # about 200 each: none much rarer than the others


def test_P4_a_one_member_room_decides_its_plan_alone() -> None:
    match = phase(match_in_round_1(("Ann", "Bob"), ("Cy", "Dee"), {"Ann": 10, "Bob": 20, "Cy": 30, "Dee": 40}), {})
    match = phase(match, {"Ann": ["VOTE YES ME", "VOTE NO Bob", "MOVE"],
                          "Bob": ["VOTE YES ME", "VOTE NO Ann"]})
    round_2 = match.round
    assert round_2.rooms == (("Bob",), ("Ann", "Cy", "Dee"))
    package = round_2.package("Bob")
    match = phase(match, {"Bob": ["PLAN ME " + str(package)]})
    sent = send(match, Submissions(), "Bob", "VOTE YES ME")
    kept = close_phase(match, sent, 0)
    assert settle(kept.rounds[1]).outcome("Bob").passed
    assert gold(kept, 2)["Bob"] - gold(kept, 1)["Bob"] == package
    assert refusal(match, "Bob", "VOTE YES ME", "VOTE NO Ann") == (
        "Ann is not in your room this round (your room: Bob)")
    lost = close_phase(match, send(match, Submissions(), "Bob", "VOTE NO ME"), 0)
    settlement = settle(lost.rounds[1])
    assert not settlement.outcome("Bob").passed
    assert gold(lost, 2)["Bob"] == gold(lost, 1)["Bob"]
    assert dict(settlement.receipts)["Bob"] == 0
    destroyed_elsewhere = settle(kept.rounds[1]).destroyed
    assert settlement.destroyed == destroyed_elsewhere + package  # the whole package is destroyed


def test_P4_a_ballot_in_a_room_of_one_is_told_as_its_one_vote_never_as_no_on_none() -> None:
    assert ballot_words(("Ann",), (), "Ann") == "Yes on your own plan"
    assert ballot_words((), ("Ann",), "Ann") == "No on your own plan"
    assert ballot_words(("Ann",), ()) == "Yes on Ann"  # the publication's
    assert ballot_words(("Ann", "Bob"), ("Cy",), "Bob") == "Yes on Ann, your own plan; No on Cy"
