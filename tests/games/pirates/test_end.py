"""The end: P11 (Tokens of Life, the extra token), P12 (Elimination Candidates), P7 (garnets earned)."""

from __future__ import annotations

import pytest

from judge.games.pirates.core.match import (
    MatchError,
    Submissions,
    actors,
    close_phase,
    elimination_candidates,
    garnets_earned,
    richest,
    tokens_of_life,
)
from judge.games.pirates.core.views import end_view, publication
from tests.games.pirates.match import match_in_round_1, refusal, scripted_match, send


def test_P11_the_three_richest_get_a_token() -> None:
    assert tokens_of_life({"a": 100, "b": 90, "c": 80, "d": 70}) == ("a", "b", "c")


def test_P11_players_tied_with_the_third_are_included() -> None:
    assert tokens_of_life({"a": 100, "b": 90, "c": 80, "d": 80, "e": 10}) == ("a", "b", "c", "d")
    assert tokens_of_life({"a": 100, "b": 100, "c": 100, "d": 100, "e": 10}) == ("a", "b", "c", "d")
    assert tokens_of_life({"a": 0, "b": 0, "c": 0, "d": 0}) == ("a", "b", "c", "d")


def test_P11_seven_tied_for_first_get_none() -> None:
    final = {name: 120 for name in "abcdefg"} | {name: 10 for name in "hijklmn"}
    assert tokens_of_life(final) == ()
    assert richest(final) is None


def test_P11_while_more_than_six_qualify_the_least_gold_among_them_drops_out() -> None:
    two_then_five = {"a": 100, "b": 90} | {name: 80 for name in "cdefg"} | {"h": 5}
    assert tokens_of_life(two_then_five) == ("a", "b")
    one_then_six = {"a": 100} | {name: 80 for name in "bcdefg"}
    assert tokens_of_life(one_then_six) == ("a",)
    six_tied = {name: 80 for name in "abcdef"} | {"g": 79}
    assert tokens_of_life(six_tied) == tuple("abcdef")


def test_P11_the_extra_token_goes_to_the_single_richest_and_does_not_count_toward_six() -> None:
    final = {"a": 100} | {name: 90 for name in "bcdef"} | {"g": 1}
    assert len(tokens_of_life(final)) == 6
    assert richest(final) == "a"
    assert richest({"a": 100, "b": 100, "c": 3}) is None


def test_P12_players_tied_for_the_least_gold_are_all_elimination_candidates() -> None:
    assert elimination_candidates({"a": 10, "b": 3, "c": 3, "d": 50}) == ("b", "c")
    assert elimination_candidates({"a": 10, "b": 3, "c": 4}) == ("b",)


def test_P7_one_garnet_per_whole_50_gold() -> None:
    assert [garnets_earned(g) for g in (0, 49, 50, 99, 100, 149, 150, 305)] == [0, 0, 1, 1, 2, 2, 3, 6]


def test_the_end_final_gold_tokens_candidates_and_garnets() -> None:
    match = scripted_match()
    assert end_view(match).lines() == (
        "Final gold: Ann 305",
        "Final gold: Cy 300",
        "Final gold: Bob 0",
        "Final gold: Dee 0",
        "Tokens of Life: Ann, Cy, Bob, Dee",
        "Extra Token of Life: Ann gives it to another player (GIVE TOKEN name) before the final deadline",
        "Elimination Candidate: Bob, Dee",
        "Garnets: Ann 6 (6 earned at the end)",
        "Garnets: Bob 1 (0 earned at the end)",
        "Garnets: Cy 7 (6 earned at the end)",
        "Garnets: Dee 1 (0 earned at the end)",
    )


def test_P11_the_single_richest_gives_the_extra_token_to_another_player_in_the_final_phase() -> None:
    match = scripted_match()
    assert actors(match) == ("Ann",)
    assert refusal(match, "Bob", "GIVE TOKEN Cy") == (
        "only the player with more gold than anyone else gives the extra Token of Life")
    assert refusal(match, "Ann", "GIVE TOKEN ann") == "the extra Token of Life goes to another player, not to you"
    assert refusal(match, "Ann", "GIVE TOKEN Zed") == "there is no player named Zed in this game"
    assert refusal(match, "Ann", "PLAN ME 10") == "plans are sent during a Distribution Phase; this is the final phase"
    sent = send(match, Submissions(), "Ann", "GIVE TOKEN dee")
    sent = send(match, sent, "Ann", "GIVE TOKEN TO bob")
    ended = close_phase(match, sent, 0)
    assert ended.over and ended.token_to == "Bob"
    assert "Extra Token of Life: Ann gives it to Bob" in end_view(ended).lines()
    assert publication(ended).end == end_view(ended)


def test_P11_an_extra_token_not_given_in_time_is_not_given() -> None:
    ended = close_phase(scripted_match(), Submissions(), 0)
    assert ended.token_to is None
    assert "Extra Token of Life: not given (Ann named nobody in time)" in end_view(ended).lines()
    assert actors(ended) == ()


def test_the_end_is_not_shown_before_the_last_voting_phase_has_closed() -> None:
    match = match_in_round_1(("Ann", "Bob"), ("Cy", "Dee"), {"Ann": 10, "Bob": 10, "Cy": 10, "Dee": 10})
    with pytest.raises(MatchError, match="has not reached its end"):
        end_view(match)
    with pytest.raises(MatchError, match="has not reached its end"):
        publication(match)
