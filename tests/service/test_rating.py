"""A person's rating from the places of finished games (`judge.service.rating`), with figures worked out
by hand from Weng and Lin's Bradley-Terry update with full pairing (openskill's model), beta 12.5.

For newcomers (mu 25, sigma 25/3) every pair of seats has ``c = sqrt(2 sigma² + 2 beta²) = sqrt(138.889 +
312.5) = 21.246`` and each is expected to beat the other with ``p = 1/2``, so a seat's mean moves by
``sigma² / c = 3.2686`` times the sum, over every other seat, of its result against it less 1/2 (1 for
above it, 1/2 level, 0 below).  Its ``sigma²`` shrinks by ``(sigma / c)(sigma² / c²)(1/4) = 0.39223 *
0.15385 / 4 = 0.015086`` a seat it met, whatever the result.
"""

from __future__ import annotations

import pytest

from judge.service.rating import NEWCOMER, PROVISIONAL, Rating, Seat, Share, rate

UNIT = 625 / 9 / (2 * 625 / 9 + 2 * 12.5**2) ** 0.5
"""``sigma² / c`` for two newcomers' seats: 3.2686."""


def alone(name: str, place: int, phases: int = 10) -> Seat:
    return Seat(name, place, (Share(name.lower(), phases),))


def test_a_winner_gains_and_the_two_behind_share_their_loss() -> None:
    """Places 1, 2, 2.  The winner is above both: ``1/2 + 1/2 = 1``, +3.269 (28.269).  Each of the two behind
    is below the winner and level with the other: ``-1/2 + 0``, -1.634 (23.366).  Each met two seats: sigma²
    69.444 * (1 - 2 * 0.015086) = 67.349, sigma 8.207."""
    after = rate({}, [alone("A", 1), alone("B", 2), alone("C", 2)])
    assert pytest.approx(3.2686, abs=0.0001) == UNIT
    assert after["a"].mu == pytest.approx(28.269, abs=0.001)
    assert after["b"].mu == pytest.approx(23.366, abs=0.001) == after["c"].mu
    assert all(rating.sigma == pytest.approx(8.207, abs=0.001) and rating.games == 1 for rating in after.values())


def test_a_draw_is_shared_by_its_seats() -> None:
    """Two seats share first place, the third is second: each drawer ``0 + 1/2``, +1.634 (26.634); the third
    ``-1/2 - 1/2``, -3.269 (21.731)."""
    after = rate({}, [alone("A", 1), alone("B", 1), alone("C", 2)])
    assert after["a"].mu == pytest.approx(26.634, abs=0.001) == after["b"].mu
    assert after["c"].mu == pytest.approx(21.731, abs=0.001)


def test_a_seat_played_by_two_moves_each_by_their_share_of_its_phases() -> None:
    """First place of three, Ann for 4 of its 10 phases and Dee for 6 (resigned and replaced, nobody
    abandoned): the seat's move is ``1/2 + 1/2 = 1``, +3.269; Dee takes 6/10 of it (26.961), Ann 4/10
    (26.307)."""
    seat = Seat("A", 1, (Share("ann", 4), Share("dee", 6)))
    after = rate({}, [seat, alone("B", 2), alone("C", 3)])
    assert after["dee"].mu == pytest.approx(25 + 0.6 * UNIT, abs=0.001) == pytest.approx(26.961, abs=0.001)
    assert after["ann"].mu == pytest.approx(26.307, abs=0.001)


def test_one_who_abandoned_a_seat_is_placed_last_for_the_phases_after_leaving() -> None:
    """The same seat, Ann declared abandoned after 4 of its 10 phases (6 tenths of the game after): for those 4
    she takes the seat's +3.269; for the other 6 she is last, below B (2nd) and C (3rd): ``-1/2 - 1/2``, -3.269.
    25 + 0.4 * 3.269 - 0.6 * 3.269 = 24.346.  Dee, who took the seat over, is moved by her 6 phases of its
    first place alone (26.961)."""
    seat = Seat("A", 1, (Share("ann", 4, abandoned=True, after=0.6), Share("dee", 6)))
    after = rate({}, [seat, alone("B", 2), alone("C", 3)])
    assert after["ann"].mu == pytest.approx(24.346, abs=0.001)
    assert after["dee"].mu == pytest.approx(26.961, abs=0.001)


def test_a_substitute_who_took_a_lost_seat_late_is_moved_little() -> None:
    """Last place (3rd of 3) taken over for the last of its 10 phases: the seat's move is ``-1/2 - 1/2``,
    -3.269; the substitute takes a tenth of it (24.673), the player who lost it nine tenths (22.058)."""
    seat = Seat("C", 3, (Share("cy", 9), Share("sub", 1)))
    after = rate({}, [alone("A", 1), alone("B", 2), seat])
    assert after["sub"].mu == pytest.approx(24.673, abs=0.001)
    assert after["cy"].mu == pytest.approx(22.058, abs=0.001)


def test_one_who_played_none_of_a_seats_phases_takes_no_part_in_it() -> None:
    seat = Seat("A", 1, (Share("ann", 10), Share("late", 0)))
    after = rate({}, [seat, alone("B", 2), alone("C", 2)])
    assert "late" not in after and after["ann"].mu == pytest.approx(28.269, abs=0.001)


def test_a_game_of_one_played_seat_moves_nobody() -> None:
    assert rate({}, [alone("A", 1), Seat("B", 2, ())]) == {}


def test_a_stronger_players_win_moves_them_less_than_a_newcomers() -> None:
    strong = {"a": Rating(35.0, 3.0, 20)}
    assert rate(strong, [alone("A", 1), alone("B", 2), alone("C", 2)])["a"].mu - 35.0 < UNIT


def test_the_figure_is_the_mean_less_three_uncertainties_read_like_elo() -> None:
    """A newcomer: 25 - 3 * 25/3 = 0, read 1000; mu 30, sigma 2: 24, read 1000 + 40 * 24 = 1960."""
    assert NEWCOMER.figure == 1000
    assert Rating(30.0, 2.0, 9).figure == 1960


def test_a_rating_is_provisional_below_five_rated_games() -> None:
    assert PROVISIONAL == 5
    assert Rating(games=4).provisional and not Rating(games=5).provisional


def test_one_who_abandoned_a_seat_nobody_took_over_is_last_for_the_rest_of_the_game() -> None:
    """Ann played her seat alone and abandoned it with 6 tenths of the game to go; nobody took it over, and
    it still came first (its centres held): 4 tenths of its +3.269 and 6 tenths of last place's -3.269, as if
    someone had taken it over: 24.346."""
    seat = Seat("A", 1, (Share("ann", 4, abandoned=True, after=0.6),))
    after = rate({}, [seat, alone("B", 2), alone("C", 3)])
    assert after["ann"].mu == pytest.approx(24.346, abs=0.001)
