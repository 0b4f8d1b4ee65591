"""A person's rating from the places of finished games (`judge.service.rating`), with figures worked out
by hand from Weng and Lin's Plackett-Luce update (openskill's model).

For newcomers (mu 25, sigma 25/3, beta 25/6) every team's ``exp(mu / c)`` is the same, so the update of
a team's mean is ``sigma² / c`` times a sum of plain fractions:
``Omega_i = sum over q placed at or above i of (1/A_q) * ([q is i] - 1 / n_q)``, where ``A_q`` is how many
teams share q's place and ``n_q`` how many teams are placed at or below q's place.
``sigma² = 625/9 = 69.444``, ``beta² = 17.361``, so ``c = sqrt(k * 86.806)`` for ``k`` teams:
for three, ``c = 16.137`` and ``sigma² / c = 4.3034``.
"""

from __future__ import annotations

import pytest

from judge.service.rating import NEWCOMER, PROVISIONAL, Rating, Seat, Share, rate

UNIT = 625 / 9 / (3 * (625 / 9 + 625 / 36)) ** 0.5
"""``sigma² / c`` for three newcomers' seats: 4.3034."""


def alone(name: str, place: int, phases: int = 10) -> Seat:
    return Seat(name, place, (Share(name.lower(), phases),))


def test_a_winner_gains_and_the_two_behind_share_their_loss() -> None:
    """Places 1, 2, 2.  The winner: ``(1 - 1/3) = 2/3``, +2.869 (27.869).  Each of the two behind: the
    winner's ``-1/3``, its own ``(1/2)(1 - 1/2)`` and the other's ``(1/2)(-1/2)``: ``-1/3``, -1.434 (23.566)."""
    after = rate({}, [alone("A", 1), alone("B", 2), alone("C", 2)])
    assert after["a"].mu == pytest.approx(27.869, abs=0.001)
    assert after["b"].mu == pytest.approx(23.566, abs=0.001) == after["c"].mu
    assert all(rating.sigma < NEWCOMER.sigma and rating.games == 1 for rating in after.values())


def test_a_draw_is_shared_by_its_seats() -> None:
    """Two seats share first place, the third is second: each drawer ``(1/2)(1 - 1/3) + (1/2)(-1/3) = 1/6``,
    +0.717 (25.717); the third ``-1/6 - 1/6 + (1 - 1) = -1/3``, -1.434 (23.566)."""
    after = rate({}, [alone("A", 1), alone("B", 1), alone("C", 2)])
    assert after["a"].mu == pytest.approx(25.717, abs=0.001) == after["b"].mu
    assert after["c"].mu == pytest.approx(23.566, abs=0.001)


def test_a_seat_played_by_two_moves_each_by_their_share_of_its_phases() -> None:
    """First place, Ann for 4 of its 10 phases and Dee for 6 (resigned and replaced, nobody abandoned): the
    seat's move is +2.869 as in the first test; Dee takes 6/10 of it (26.721), Ann 4/10 (26.148)."""
    seat = Seat("A", 1, (Share("ann", 4), Share("dee", 6)))
    after = rate({}, [seat, alone("B", 2), alone("C", 3)])
    assert after["dee"].mu == pytest.approx(25 + 0.6 * 2.869, abs=0.001)
    assert after["ann"].mu == pytest.approx(25 + 0.4 * 2.869, abs=0.001)
    assert after["ann"].mu == pytest.approx(26.148, abs=0.001)


def test_one_who_abandoned_a_seat_is_placed_last_for_the_phases_after_leaving() -> None:
    """The same seat, Ann declared abandoned after 4 of its 10 phases: for those 4 she takes the seat's
    +2.869; for the other 6 she is last, alone below B (2nd) and C (3rd): B's place gives ``-1/3`` (three
    seats at or below it), C's ``-1/2``, her own ``1 - 1 = 0``: ``-5/6``, -3.586.  25 + 0.4 * 2.869 - 0.6 * 3.586
    = 23.996.  Dee, who took the seat over, is moved by her 6 phases of its first place alone (26.721)."""
    seat = Seat("A", 1, (Share("ann", 4, abandoned=True), Share("dee", 6)))
    after = rate({}, [seat, alone("B", 2), alone("C", 3)])
    assert after["ann"].mu == pytest.approx(25 + 0.4 * 2.869 - 0.6 * 5 / 6 * UNIT, abs=0.001)
    assert after["ann"].mu == pytest.approx(23.996, abs=0.001)
    assert after["dee"].mu == pytest.approx(26.721, abs=0.001)


def test_a_substitute_who_took_a_lost_seat_late_is_moved_little() -> None:
    """Last place (3rd of 3) taken over for the last of its 10 phases: the seat's move is the loser's,
    ``-1/3 - 1/2 + 0 = -5/6``, -3.586; the substitute takes a tenth of it (24.641), the player who lost it
    nine tenths (21.773)."""
    seat = Seat("C", 3, (Share("cy", 9), Share("sub", 1)))
    after = rate({}, [alone("A", 1), alone("B", 2), seat])
    assert after["sub"].mu == pytest.approx(25 - 0.1 * 3.586, abs=0.001)
    assert after["cy"].mu == pytest.approx(25 - 0.9 * 3.586, abs=0.001)


def test_one_who_played_none_of_a_seats_phases_takes_no_part_in_it() -> None:
    seat = Seat("A", 1, (Share("ann", 10), Share("late", 0)))
    after = rate({}, [seat, alone("B", 2), alone("C", 2)])
    assert "late" not in after and after["ann"].mu == pytest.approx(27.869, abs=0.001)


def test_a_game_of_one_played_seat_moves_nobody() -> None:
    assert rate({}, [alone("A", 1), Seat("B", 2, ())]) == {}


def test_a_stronger_players_win_moves_them_less_than_a_newcomers() -> None:
    strong = {"a": Rating(35.0, 3.0, 20)}
    assert rate(strong, [alone("A", 1), alone("B", 2), alone("C", 2)])["a"].mu - 35.0 < 2.869


def test_the_figure_is_the_mean_less_three_uncertainties_read_like_elo() -> None:
    """A newcomer: 25 - 3 * 25/3 = 0, read 1000; mu 30, sigma 2: 24, read 1000 + 40 * 24 = 1960."""
    assert NEWCOMER.figure == 1000
    assert Rating(30.0, 2.0, 9).figure == 1960


def test_a_rating_is_provisional_below_five_rated_games() -> None:
    assert PROVISIONAL == 5
    assert Rating(games=4).provisional and not Rating(games=5).provisional
