"""`bench/ratings_bench.py` run small: a community of 30 playing 150 games of 7 (35 games a player), its
numbers printed and sane; and the bench's own arithmetic (Spearman with ties, Elo's move) by hand."""

from __future__ import annotations

import math

import pytest

from bench import ratings_bench
from bench.ratings_bench import PRIOR_SIGMA, SCALE, Elo, Wins, mean_ranks, spearman, whole_history
from judge.service.rating import Seat, Share


def test_tied_values_share_the_mean_of_their_ranks() -> None:
    """2 and 2 span ranks 2 and 3: both 2.5."""
    assert mean_ranks([(3.0,), (2.0,), (1.0,), (2.0,)]) == [4.0, 2.5, 1.0, 2.5]


def test_spearman_by_hand_with_a_tie() -> None:
    """Ranks 1, 2.5, 2.5, 4 against 1, 2, 3, 4: deviations -1.5, 0, 0, 1.5 and -1.5, -0.5, 0.5, 1.5, so
    4.5 / sqrt(4.5 * 5) = sqrt(0.9); a reversed order is -1; a constant says nothing, 0."""
    assert spearman([(1,), (2,), (2,), (3,)], [(1,), (2,), (3,), (4,)]) == pytest.approx(math.sqrt(0.9))
    assert spearman([(1,), (2,), (3,)], [(9,), (5,), (0,)]) == pytest.approx(-1.0)
    assert spearman([(1,), (1,), (1,)], [(1,), (2,), (3,)]) == 0.0


def test_elo_moves_each_seat_by_k_over_the_others_and_a_substitute_by_share() -> None:
    """Three newcomers placed 1, 2, 3: each pair expected 1/2, so the first gains 32/2 * (1/2 + 1/2) = 16,
    the second 32/2 * (-1/2 + 1/2) = 0, the third loses 16; a seat shared 10 and 20 phases splits its
    16 into 16/3 and 32/3."""
    elo = Elo()
    elo.play([Seat("a", 1, (Share("x", 10), Share("y", 20))), Seat("b", 2, (Share("z", 30),)),
              Seat("c", 3, (Share("w", 30),))])
    assert elo.known == pytest.approx({"x": 1500 + 16 / 3, "y": 1500 + 32 / 3, "z": 1500.0, "w": 1484.0})


def test_the_whole_history_of_one_game_is_where_the_prior_pull_equals_the_result() -> None:
    """Two newcomers, a above b: by symmetry a is at 25 + x and b at 25 - x, where the prior's pull
    ``x / sigma²`` (sigma 25/3) equals the result's ``(1 - p) / c`` with ``p = 1 / (1 + exp(-2x / c))``,
    c = sqrt(2) 12.5 = 17.678: x = 3.9284 (1 - p), 1.768 by iteration.  Each sigma is ``(1 / sigma² +
    p (1 - p) / c²)^(-1/2)``."""
    after = whole_history([(Seat("A", 1, (Share("a", 30),)), Seat("B", 2, (Share("b", 30),)))])
    x = after["a"].mu - 25
    p = 1 / (1 + math.exp(-2 * x / SCALE))
    assert x / PRIOR_SIGMA**2 == pytest.approx((1 - p) / SCALE)
    assert x == pytest.approx(1.768, abs=0.001) and after["b"].mu == pytest.approx(25 - x)
    assert after["a"].sigma == pytest.approx((PRIOR_SIGMA**-2 + p * (1 - p) / SCALE**2) ** -0.5) == after["b"].sigma
    assert after["a"].games == after["b"].games == 1


def test_the_whole_history_keeps_a_draw_level_and_forgets_the_order_of_games() -> None:
    """A draw of two newcomers leaves both at 25; three games give the same means in any order, which
    a rating fed one game at a time cannot."""
    drawn = whole_history([(Seat("A", 1, (Share("a", 30),)), Seat("B", 1, (Share("b", 30),)))])
    assert drawn["a"].mu == pytest.approx(25.0) == drawn["b"].mu
    played = [(Seat("A", 1, (Share("a", 30),)), Seat("B", 2, (Share("b", 30),)), Seat("C", 3, (Share("c", 30),))),
              (Seat("A", 3, (Share("a", 30),)), Seat("B", 1, (Share("b", 30),)), Seat("D", 2, (Share("d", 30),))),
              (Seat("C", 1, (Share("c", 30),)), Seat("D", 1, (Share("d", 30),)), Seat("A", 3, (Share("a", 30),)))]
    forwards, backwards = whole_history(played), whole_history(played[::-1])
    assert {person: rating.mu for person, rating in forwards.items()} == pytest.approx(
        {person: rating.mu for person, rating in backwards.items()}, abs=1e-5)


def test_the_whole_history_moves_a_seats_players_by_their_shares_and_an_abandoner_down() -> None:
    """A seat of x (10 phases) and y (20) beats z: each player's pull from the prior is their share of
    the seat's ``(1 - p) / c``, so y is twice as far above 25 as x, and the two together as far as z is
    below.  Had x abandoned the seat, with half the game after, x would also be last for that half."""
    shared = whole_history([(Seat("A", 1, (Share("x", 10), Share("y", 20))), Seat("B", 2, (Share("z", 30),)))])
    assert shared["y"].mu - 25 == pytest.approx(2 * (shared["x"].mu - 25))
    assert (shared["x"].mu - 25) + (shared["y"].mu - 25) == pytest.approx(25 - shared["z"].mu)
    left = whole_history([(Seat("A", 1, (Share("x", 10, abandoned=True, after=0.5), Share("y", 20))),
                           Seat("B", 2, (Share("z", 30),)))])
    assert left["x"].mu < 25 < shared["x"].mu


def test_the_halls_counts_go_to_who_finished_the_seat() -> None:
    """A draw of two: each finisher has drawn one and played one; the player who left has nothing."""
    wins = Wins()
    wins.play([Seat("a", 1, (Share("x", 10), Share("y", 20))), Seat("b", 1, (Share("z", 30),)),
               Seat("c", 3, (Share("w", 30),))])
    assert wins.known == {"y": (0, 1, 1), "z": (0, 1, 1), "w": (0, 0, 1)}


def test_a_small_community_prints_its_numbers_and_the_ratings_beat_chance(capsys: pytest.CaptureFixture[str]) -> None:
    """Correlations are within [-1, 1]; at the end the ratings rank 30 players far better than chance (a
    random order's Spearman has a spread of 1/sqrt(29) = 0.19 about 0), with and without takeovers."""
    assert ratings_bench.main(["--players", "30", "--games", "150"]) == 0
    out = capsys.readouterr().out
    assert "Whole games" in out and "20% of seats taken over mid-game" in out
    assert out.count("target after 30 games a player: ratings") == 2
    assert "stand-ins (substitutions alone)" in out and "first players who abandon" in out
    for takeover in (0.0, 0.2):
        result = ratings_bench.run(30, 150, 7, 1.5, 0.5, takeover, 71)
        assert [row.per_player >= 10 for row in result.rows] == [True] * len(result.rows)
        for row in result.rows:
            assert all(-1.0 <= value <= 1.0 for value in (row.figure, row.mu, row.whole, row.elo, row.wins))
        assert result.rows[-1].figure > 0.5
