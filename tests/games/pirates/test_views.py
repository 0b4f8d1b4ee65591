"""P10 (what a player learns, and nothing more) and P14 (the publication at the end)."""

from __future__ import annotations

import random

import pytest

from judge.games.pirates.core.match import (
    ROUNDS,
    Match,
    MatchError,
    Stage,
    Submissions,
    close_phase,
    gold,
    open_phase,
    settle,
)
from judge.games.pirates.core.views import (
    distribution_view,
    publication,
    published_rounds,
    voting_result_view,
    voting_view,
)
from tests.games.pirates.match import (
    FOURTEEN,
    match_in_round_1,
    phase,
    random_ballot,
    random_plan,
    scripted_match,
    send,
)

FIRST, SECOND = FOURTEEN[:7], FOURTEEN[7:]


def test_P10_the_lines_of_a_round() -> None:
    match = match_in_round_1(FIRST, SECOND, {p: 20 for p in FOURTEEN} | {"Ann": 30}, garnets=2)
    assert distribution_view(match, "Ann", 1).lines() == (
        "Round 1 of 5", "Room: Ann, Bob, Cy, Dee, Eve, Fay, Gus", "Package: 30 gold", "Gold: 0", "Garnets: 2")
    match = phase(match, {"Ann": ["PLAN ME 7 Bob 3 Cy 7 Dee 2 Eve 3 Fay 4 Gus 9", "GARNETS 1"],
                          "Bob": ["PLAN Ann 20"]})
    assert voting_view(match, "Ann", 1).lines() == (
        "Round 1 of 5",
        "Plan of Ann: you receive 7 gold",
        "Plan of Bob: you receive 20 gold",
        *(f"Plan of {p}: you receive 3 gold" for p in ("Cy", "Dee", "Eve", "Fay", "Gus")),  # 20 // 6, default plans
        "Your plan: you 7, Bob 3, Cy 7, Dee 2, Eve 3, Fay 4, Gus 9 (1 garnet spent)",
        "Gold: 0",  # nobody has any before the first round's vote
    )
    assert voting_view(match, "Cy", 1).lines()[-2] == (
        "Your plan: Ann 3, Bob 3, you 2, Dee 3, Eve 3, Fay 3, Gus 3 (the default plan: you sent no valid plan in time)")
    match = phase(match, {"Ann": ["VOTE YES ME Bob Cy", "VOTE NO Dee Eve Fay Gus", "MOVE"]})
    lines = voting_result_view(match, "Ann", 1).lines()
    settlement = settle(match.rounds[0])
    assert lines[0] == "Round 1 of 5"
    assert lines[1:8] == tuple(f"Plan of {p}: {'passed' if settlement.outcome(p).passed else 'failed'}"
                               for p in FIRST)
    assert lines[8:] == ("Your ballot: Yes on your own plan, Bob, Cy; No on Dee, Eve, Fay, Gus",
                         f"Gold: {gold(match, 1)['Ann']}", "You change rooms at the start of round 2")
    assert distribution_view(match, "Ann", 2).lines()[1] == "Room: Ann, Hal, Ivy, Jo, Kim, Lou, Max, Ned"
    assert distribution_view(match, "Ann", 2).lines()[3:] == (f"Gold: {gold(match, 1)['Ann']}", "Garnets: 1")
    assert voting_result_view(match, "Bob", 1).lines()[8].endswith(
        "(drawn at random: you sent no valid ballot in time)")


def test_P10_a_view_is_not_given_before_its_time() -> None:
    match = match_in_round_1(FIRST, SECOND, {p: 20 for p in FOURTEEN})
    with pytest.raises(MatchError, match="the Distribution Phase of round 1 has not closed"):
        voting_view(match, "Ann", 1)
    with pytest.raises(MatchError, match="the Voting Phase of round 1 has not closed"):
        voting_result_view(phase(match, {}), "Ann", 1)
    with pytest.raises(MatchError, match="round 2 has not opened"):
        distribution_view(match, "Ann", 2)
    with pytest.raises(MatchError, match="Zed is not a player"):
        distribution_view(match, "Zed", 1)


def views(match: Match, player: str) -> list[object]:
    """Everything ``player`` has been told so far."""
    told: list[object] = []
    for round_ in match.rounds:
        told.append(distribution_view(match, player, round_.number))
        if round_.plans:
            told.append(voting_view(match, player, round_.number))
        if round_.ballots:
            told.append(voting_result_view(match, player, round_.number))
    return told


def test_P10_amendment_II_nobody_can_tell_a_default_plan_or_a_drawn_ballot_from_one_sent() -> None:
    match = match_in_round_1(FIRST, SECOND, {p: 10 * (i % 5 + 1) for i, p in enumerate(FOURTEEN)})
    silent = close_phase(match, Submissions(), "D1")
    default = silent.round.plan("Bob")
    sent = send(match, Submissions(), "Bob", "PLAN " + " ".join(f"{m} {n}" for m, n in default.shares))
    sending = close_phase(match, sent, "D1")
    assert sending.round.defaults != silent.round.defaults
    silent, sending = open_phase(silent, 0), open_phase(sending, 0)
    silent = close_phase(silent, Submissions(), "V1")
    drawn = silent.round.ballot("Bob")
    sent = send(sending, Submissions(), "Bob", f"VOTE YES {' '.join(drawn.yes)}", f"VOTE NO {' '.join(drawn.no)}")
    sending = close_phase(sending, sent, "V1")
    assert sending.round.drawn != silent.round.drawn
    silent, sending = open_phase(silent, "D2"), open_phase(sending, "D2")
    for player in FOURTEEN:
        if player != "Bob":
            assert views(silent, player) == views(sending, player)
    assert views(silent, "Bob") != views(sending, "Bob")  # Bob alone is told his plan was the default one


def play_apart(seed: int, other: int, mate: int = 0, moves: bool = True) -> list[Match]:
    """A 14-player match with random mails in which, each phase, Ann's room-mates' mails come from
    one generator (``mate``) and the other room's from another (``other``); only Ann's room moves.
    Returns the match after each phase opens."""
    mine, theirs = random.Random(f"{seed}/{mate}"), random.Random(f"{seed}/{other}")
    match = match_in_round_1(FIRST, SECOND, {p: 10 * (i % 5 + 1) for i, p in enumerate(FOURTEEN)}, garnets=1)
    states = [match]
    while match.phase is not None and match.phase.stage is not Stage.FINAL:
        mails: dict[str, list[str]] = {}
        room = match.round.room_of("Ann")
        for player in match.players:
            rng = mine if player in room else theirs
            if rng.random() < 0.3:
                continue
            if match.phase.stage is Stage.DISTRIBUTION:
                mails[player] = random_plan(match, player, rng)
            else:
                mails[player] = random_ballot(match, player, rng)
                if (moves and player in room and player != "Ann" and match.phase.round < ROUNDS
                        and not any(player in r.moves for r in match.rounds) and rng.random() < 0.3):
                    mails[player].append("MOVE")
        match = phase(match, mails, f"{seed}/{match.phase.name}")
        states.append(match)
    return states


@pytest.mark.parametrize("seed", range(6))
def test_P10_nothing_of_the_other_room_reaches_a_player(seed: int) -> None:
    one, two = play_apart(seed, other=1), play_apart(seed, other=2)
    assert one[-1] != two[-1]
    for before, after in zip(one, two, strict=True):
        assert views(before, "Ann") == views(after, "Ann")


def test_P10_what_room_mates_do_does_reach_a_player() -> None:
    # The comparison above can fail: a different room-mate's plan shows in Ann's views.
    one, two = play_apart(0, other=1, mate=0), play_apart(0, other=1, mate=1)
    assert views(one[-1], "Ann") != views(two[-1], "Ann")


def test_P14_the_publication_holds_everything() -> None:
    match = scripted_match()
    published = publication(match)
    assert len(published.rounds) == 5
    first = published.rounds[0]
    assert first.rooms == (("Ann", "Bob"), ("Cy", "Dee"))
    assert first.packages == (("Ann", 10), ("Bob", 10), ("Cy", 10), ("Dee", 10))
    assert [(p.proposer, p.shares, p.garnets, p.default, p.yes, p.no, p.passed) for p in first.plans] == [
        ("Ann", (("Ann", 15), ("Bob", 0)), 1, False, 2, 0, True),
        ("Bob", (("Ann", 0), ("Bob", 10)), 0, False, 0, 2, False),
        ("Cy", (("Cy", 10), ("Dee", 0)), 0, False, 2, 0, True),
        ("Dee", (("Cy", 0), ("Dee", 10)), 0, False, 0, 2, False),
    ]
    assert [(b.voter, b.yes, b.no, b.drawn) for b in first.ballots] == [
        ("Ann", ("Ann",), ("Bob",), False), ("Bob", ("Ann",), ("Bob",), False),
        ("Cy", ("Cy",), ("Dee",), False), ("Dee", ("Cy",), ("Dee",), False)]
    assert first.gold == (("Ann", 25), ("Bob", 0), ("Cy", 20), ("Dee", 0))
    assert published.rounds[-1].gold == (("Ann", 305), ("Bob", 0), ("Cy", 300), ("Dee", 0))
    assert sorted(amount for r in published.rounds for name, amount in r.packages if name == "Bob") == [
        10, 20, 30, 40, 50]
    lines = published.lines()
    assert lines[:5] == ("Round 1 of 5", "Room A: Ann, Bob", "Room B: Cy, Dee", "Package of Ann: 10 gold",
                         "Package of Bob: 10 gold")
    assert "Plan of Ann: Ann 15, Bob 0 (15 gold; 1 garnet): passed, 2 Yes, 0 No" in lines
    assert "Ballot of Bob: Yes on Ann; No on Bob" in lines
    assert "Changed rooms: nobody" in lines
    assert lines[-11:] == published.end.lines()


def test_P14_default_plans_drawn_ballots_and_moves_are_marked() -> None:
    match = match_in_round_1(("Ann", "Bob"), ("Cy", "Dee"), {"Ann": 10, "Bob": 20, "Cy": 30, "Dee": 40})
    match = phase(match, {"Ann": ["PLAN ME 10"]})
    match = phase(match, {"Ann": ["VOTE YES ME", "VOTE NO Bob", "MOVE"]})
    for _ in range(4):
        match = phase(phase(match, {}), {})
    first, second = publication(match).rounds[:2]
    assert [p.default for p in first.plans] == [False, True, True, True]
    assert [b.drawn for b in first.ballots] == [False, True, True, True]
    assert (first.moved, second.moved) == ((), ("Ann",))
    assert second.rooms == (("Bob",), ("Ann", "Cy", "Dee"))
    lines = publication(match).lines()
    assert "Plan of Bob: Ann 20, Bob 0 (20 gold; default): " in "\n".join(lines)
    assert any(line.startswith("Ballot of Bob: ") and line.endswith(" (drawn)") for line in lines)
    assert "Changed rooms: Ann" in lines


def test_P14_a_match_stopped_before_its_end_publishes_the_rounds_it_played_and_no_more() -> None:
    """The game master's TERMINATE: the rounds whose Voting Phase closed are published as at the
    end; the round under way (its plans known, its ballots not) is not."""
    match = scripted_match()
    four = ("Ann", "Bob", "Cy", "Dee")
    under_way = phase(phase(phase(match_in_round_1(four[:2], four[2:], dict.fromkeys(four, 10)), {}), {}), {})
    assert under_way.current_phase == (Stage.VOTING, 2) and under_way.rounds[1].plans
    [played] = published_rounds(under_way)
    assert played.number == 1 and {b.voter for b in played.ballots} == set(four)
    assert published_rounds(match) == publication(match).rounds
