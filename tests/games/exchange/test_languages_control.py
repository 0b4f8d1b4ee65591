"""Exchange's scores (E35) in each reader's language (issue 72): a % control written as the reader's
language writes a percentage (French: ``66,7 %``, a space before its sign), in a whole sentence."""

from __future__ import annotations

from fractions import Fraction

from judge.games.exchange.core.scoring import Score
from judge.games.exchange.views import control, ranking_lines
from judge.language import add_catalogue, reading

add_catalogue("judge.games.exchange")  # as the kinds' registry reads it (the test may run alone)
SCORES = [Score(1, "ann", Fraction(200, 3)), Score(2, "bob", Fraction(100, 3))]


def test_a_control_is_written_the_readers_way() -> None:
    assert control(Fraction(200, 3)) == "66.7% control"
    with reading("it"):
        assert control(Fraction(200, 3)) == "66,7% di controllo"
    with reading("fr"):
        assert control(Fraction(200, 3)) == "66,7\u00a0% de contrôle"


def test_the_ranking_is_whole_sentences_in_the_readers_language() -> None:
    english = ranking_lines(SCORES, ["BLUE"])
    assert english[1:] == ["  1. ann: 66.67%", "  2. bob: 33.33%"]
    with reading("fr"):
        french = ranking_lines(SCORES, ["BLUE"])
    assert french[0].startswith("Scores par % de contrôle de ")
    assert french[1:] == ["  1. ann : 66,67\u00a0%", "  2. bob : 33,33\u00a0%"]
    with reading("it"):
        italian = ranking_lines(SCORES, ["BLUE"])
    assert italian[1:] == ["  1. ann: 66,67%", "  2. bob: 33,33%"]
