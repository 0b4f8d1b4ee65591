"""The hall of fame's places in Pirates' Proposal (`judge.games.pirates.pages.standings_of`): the
players by their gold at the end, with the Tokens of Life the rules' Results give them."""

from __future__ import annotations

from judge.games.pirates.core.match import FinalResult, tokens_of_life
from judge.games.pirates.pages import standings_of
from judge.service.hosting.kinds import Standing

GOLD = {"Ann": 120, "Bob": 80, "Cat": 80, "Dan": 75, "Eve": 30}


def ended(token_to: str) -> FinalResult:
    """The end of a match of five with the gold above: the three richest are Ann (120) and Bob and
    Cat (80 each; Dan's 75 is less than the third's 80), each earning a Token of Life; Ann alone
    is richest and gives the extra one to ``token_to``."""
    assert tokens_of_life(GOLD) == ("Ann", "Bob", "Cat")  # the working above, as the rules' code has it
    return FinalResult(tuple(GOLD.items()), ("Ann", "Bob", "Cat"), "Ann", token_to, ("Eve",), (), ())


def test_results_the_richest_three_hold_a_token_and_the_extra_one_counts_for_whom_it_was_given() -> None:
    """Results: 'the three players with the most gold earn one Token of Life, and the player with
    the most gold earns an extra Token of Life to give away to another player': Dan, fourth by
    gold, holds the token Ann gave him; Bob and Cat share second place (tied gold), so Dan is 4th.
    Each one's gold is its money, beside its scores."""
    assert standings_of(ended("Dan")) == [
        Standing("Ann", 1, "120 gold, a Token of Life", money="120 gold"),
        Standing("Bob", 2, "80 gold, a Token of Life", money="80 gold"),
        Standing("Cat", 2, "80 gold, a Token of Life", money="80 gold"),
        Standing("Dan", 4, "75 gold, a Token of Life", money="75 gold"),
        Standing("Eve", 5, "30 gold", money="30 gold")]


def test_results_an_extra_token_given_to_a_player_with_one_makes_two() -> None:
    assert standings_of(ended("Bob"))[1] == Standing("Bob", 2, "80 gold, 2 Tokens of Life", money="80 gold")
    assert standings_of(ended("Bob"))[3] == Standing("Dan", 4, "75 gold", money="75 gold")
