"""P1 (players and rooms), P8 (packages), the order of phases, and determinism."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from judge.games.pirates.core.match import (
    PACKAGES,
    ROUNDS,
    MatchError,
    Phase,
    SetupError,
    Stage,
    Submissions,
    actors,
    close_phase,
    next_phase,
    open_phase,
    start_match,
    waiting,
)
from tests.games.pirates.match import FOURTEEN, match_in_round_1, phase, play_match, scripted_match, send


def test_P1_an_even_number_of_players_from_4_to_14() -> None:
    for count in (4, 6, 12, 14):
        assert len(start_match(FOURTEEN[:count], 1).players) == count
    for count in (2, 3, 5, 13):
        with pytest.raises(SetupError, match=f"an even number of players from 4 to 14, not {count}"):
            start_match(FOURTEEN[:count], 1)
    with pytest.raises(SetupError, match="not 16"):
        start_match([*FOURTEEN, "Olga", "Pip"], 1)


def test_P1_names_are_2_to_12_letters_or_digits_unique_whatever_the_case() -> None:
    for bad in ("A", "Abcdefghijklm", "Ann-Marie", "Zoë", "Jo Jo"):
        with pytest.raises(SetupError, match=f"'{bad}' cannot be a player's name: a name is 2 to 12 letters or digits"):
            start_match([bad, "Bob", "Cy", "Dee"], 1)
    with pytest.raises(SetupError, match="two players are named 'Bob' and 'BOB'"):
        start_match(["Ann", "Bob", "Cy", "BOB"], 1)
    for word in ("me", "Yes", "NO"):
        with pytest.raises(SetupError, match="ME, YES and NO are words of the commands"):
            start_match([word, "Bob", "Cy", "Dee"], 1)
    assert start_match(["R2D2", "Abcdefghijkl", "Cy", "Dee"], 1).players == ("Abcdefghijkl", "Cy", "Dee", "R2D2")


def test_P7_garnets_at_the_start_are_set_for_the_match() -> None:
    assert start_match(FOURTEEN, 1).garnets == 0
    assert start_match(FOURTEEN, 1, garnets=2).garnets == 2
    with pytest.raises(SetupError, match="cannot start with -1 garnets"):
        start_match(FOURTEEN, 1, garnets=-1)


def test_P1_two_rooms_of_equal_size_drawn_from_the_seed() -> None:
    match = start_match(FOURTEEN, 7)
    first, second = match.rooms
    assert len(first) == len(second) == 7
    assert sorted([*first, *second]) == sorted(FOURTEEN)
    assert start_match(list(reversed(FOURTEEN)), 7).rooms == match.rooms  # the order of joining does not count
    drawn = {start_match(FOURTEEN, seed).rooms for seed in range(20)}
    assert len(drawn) > 15
    everyone_with_ann = Counter(p for seed in range(400) for room in start_match(FOURTEEN, seed).rooms
                                if "Ann" in room for p in room)
    assert set(everyone_with_ann) == set(FOURTEEN)  # Ann shares a room with anyone, some time


def test_phases_follow_each_other_five_rounds_then_the_final_phase() -> None:
    match = start_match(FOURTEEN[:4], 3)
    seen = []
    while (upcoming := next_phase(match)) is not None:
        match = open_phase(match, upcoming.name)
        seen.append(match.phase)
        with pytest.raises(MatchError, match="still open"):
            open_phase(match, 0)
        match = close_phase(match, Submissions(), 0)
    assert seen == [Phase(stage, r) for r in range(1, ROUNDS + 1) for stage in (Stage.DISTRIBUTION, Stage.VOTING)] + [
        Phase(Stage.FINAL, ROUNDS)]
    assert [p.name for p in seen] == ["D1", "V1", "D2", "V2", "D3", "V3", "D4", "V4", "D5", "V5", "F"]
    assert match.over
    with pytest.raises(MatchError, match="the match is over"):
        open_phase(match, 0)
    with pytest.raises(MatchError, match="no phase is open"):
        close_phase(match, Submissions(), 0)


def test_P8_each_package_is_opened_once_in_the_five_rounds() -> None:
    match = play_match(open_phase(start_match(FOURTEEN, 5), "D1"), random.Random(5))
    for player in FOURTEEN:
        assert sorted(r.package(player) for r in match.rounds) == list(PACKAGES)


def test_P8_the_first_package_is_any_of_the_five_and_drawn_from_the_phase_seed() -> None:
    match = start_match(FOURTEEN, 1)
    first = Counter(open_phase(match, seed).round.package("Ann") for seed in range(300))
    assert set(first) == set(PACKAGES)
    assert min(first.values()) > 30  # about 60 each
    assert open_phase(match, 12).round == open_phase(match, 12).round


def test_determinism_the_same_seeds_and_mails_give_the_same_match() -> None:
    def one(seed: int) -> object:
        return play_match(open_phase(start_match(FOURTEEN, seed), f"{seed}/D1"), random.Random(99), f"{seed}")

    assert one(4) == one(4)
    assert one(4) != one(5)


def test_P10_a_reminder_is_for_the_players_with_nothing_standing_in_the_phase() -> None:
    match = match_in_round_1(("Ann", "Bob"), ("Cy", "Dee"), dict.fromkeys(("Ann", "Bob", "Cy", "Dee"), 10))
    assert actors(match) == ("Ann", "Bob", "Cy", "Dee")
    sent = send(match, Submissions(), "Bob", "PLAN ME 10")
    assert waiting(match, sent) == ("Ann", "Cy", "Dee")
    voting = phase(match, {})
    sent = send(voting, Submissions(), "Dee", "MOVE")
    assert waiting(voting, sent) == ("Ann", "Bob", "Cy", "Dee")  # a move is no ballot
    sent = send(voting, sent, "Dee", "VOTE YES ME", "VOTE NO Cy")
    assert waiting(voting, sent) == ("Ann", "Bob", "Cy")
    ended = scripted_match()
    assert waiting(ended, Submissions()) == ("Ann",)
    assert waiting(ended, send(ended, Submissions(), "Ann", "GIVE TOKEN Cy")) == ()
    assert waiting(close_phase(ended, Submissions(), 0), Submissions()) == ()
