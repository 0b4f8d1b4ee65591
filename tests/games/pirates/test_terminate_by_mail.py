"""The game master's TERMINATE of a match under way (P14): the answer says what the end published,
which is only the rounds played to their end, not "everything"."""

from __future__ import annotations

from pathlib import Path

from tests.games.pirates.by_mail import FOUR, pirates_game
from tests.support.harness import Judge
from tests.support.people import GM

MASTER = "SIGNON MASTER@pp gm-pw"


def test_P14_terminate_answers_what_is_published_of_a_match_stopped_in_its_second_round(tmp_path: Path) -> None:
    judge = pirates_game(Judge(tmp_path), FOUR)
    for _ in range(3):  # the first round's Distribution and Voting Phases, then the second's Distribution
        judge.send(GM, f"{MASTER}\nPROCESS")
    judge.terminate(GM, MASTER)
    [answer] = [a for a in judge.answers if a.text.startswith("TERMINATE ")]
    assert answer.outcome == "ok"
    assert "everything is published" not in answer.message
    assert "the rounds played to their end" in answer.message
    assert "The round under way when the match ended is not" in answer.message
