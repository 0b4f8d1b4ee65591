"""The draw of powers at START (`judge.games.payola.seating`): seeded, Pareto-efficient, and
nobody gains by misstating their wishes."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from judge.games.payola.seating import assign

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
wishes = st.lists(st.lists(st.sampled_from(POWERS), unique=True, max_size=4), min_size=1, max_size=7)


def rank(wish: list[str], power: str) -> int:
    return wish.index(power) if power in wish else len(POWERS)


@given(wishes, st.integers(0, 2**31 - 1))
def test_the_draw_is_seeded_and_gives_each_player_one_power(given_wishes: list[list[str]], seed: int) -> None:
    seats = assign(POWERS, given_wishes, seed)
    assert seats == assign(POWERS, given_wishes, seed)
    assert len({seat.power for seat in seats}) == len(given_wishes)


@given(wishes, st.integers(0, 2**31 - 1))
def test_no_two_players_would_both_gain_by_swapping(given_wishes: list[list[str]], seed: int) -> None:
    seats = [seat.power for seat in assign(POWERS, given_wishes, seed)]
    for a, b in itertools.combinations(range(len(given_wishes)), 2):
        better_a = rank(given_wishes[a], seats[b]) < rank(given_wishes[a], seats[a])
        better_b = rank(given_wishes[b], seats[a]) < rank(given_wishes[b], seats[b])
        assert not (better_a and better_b)
    for index, wish in enumerate(given_wishes):  # nobody is left out of a power nobody took
        free = set(POWERS) - set(seats)
        assert all(rank(wish, power) >= rank(wish, seats[index]) for power in free)


def test_a_later_place_in_the_draw_gives_the_next_wish() -> None:
    seats = assign(POWERS, [["FRANCE", "ENGLAND"], ["FRANCE"], []], seed=1)
    got = {seat.power for seat in seats[:2]}
    assert got == {"FRANCE", "ENGLAND"} or seats[1].why.startswith("you asked for France, but it was taken")
    assert seats[2].why == "you asked for no power, so yours was drawn by lot among the powers left"
