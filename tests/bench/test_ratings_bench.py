"""`bench/ratings_bench.py` run small: a community of 30 playing 150 games of 7 (35 games a player), its
numbers printed and sane; and the bench's own arithmetic (Spearman with ties, Elo's move) by hand."""

from __future__ import annotations

import math

import pytest

from bench import ratings_bench
from bench.ratings_bench import Elo, Wins, mean_ranks, spearman
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
            assert all(-1.0 <= value <= 1.0 for value in (row.figure, row.mu, row.elo, row.wins))
        assert result.rows[-1].figure > 0.5
