"""Grey press answered by pseudonym (AoP 18.1): nothing its writer is told says what became of the seat
behind the pseudonym.  The game's list of seats says which are vacant or dummies; an answer refused
"not to ANON-...: no player" beside it would name the seat, and so unmask every grey press that seat
sent before."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.harness import Answer, Judge

GM = "gm@example.org"
PLAYERS = {"Florence": "ann", "Milan": "bob", "Venice": "cy"}


def address(country: str) -> str:
    return f"{PLAYERS[country]}@example.org"


def mail(judge: Judge, country: str, *lines: str) -> None:
    judge.send(address(country), "\n".join((f"SIGNON {country}@p1 pw-{PLAYERS[country]}", *lines)))


def answer_to_venice(judge: Judge, venice: str) -> tuple[Answer, list[str]]:
    """Venice sends Florence grey press; Venice's seat is then left as ``venice`` says (played, vacant:
    its player resigned, a dummy: the game master made it one); Florence answers it by the pseudonym
    it was given.  What Florence is told of her answer (the pseudonym written ANON: each judge has its
own), and who received it."""
    judge.confirmed(GM, *map(address, PLAYERS))
    judge.send(GM, "CREATE p1 gm-pw machiavelli")
    for country, name in PLAYERS.items():
        judge.send(address(country), f"JOIN p1 pw-{name} {country}")
    judge.send(GM, "SIGNON MASTER@p1 gm-pw\nSTART")
    mail(judge, "Venice", "PRESS TO Florence", "Who paid the Turk?", "ENDPRESS")
    [grey] = [m for m in judge.new_mail() if m.to == address("Florence") and m.subject == "p1 grey press"]
    [pseudonym] = re.findall(r"PRESS TO (ANON-[A-Z2-7]{8})\)", grey.body)
    if venice == "vacant":
        mail(judge, "Venice", "RESIGN")
    elif venice == "a dummy":
        judge.send(GM, "SIGNON MASTER@p1 gm-pw\nDUMMY Venice")
    judge.new_mail()
    mail(judge, "Florence", f"PRESS TO {pseudonym}", "Not I.", "ENDPRESS")
    [told] = [a for a in judge.answers if a.text.startswith("PRESS TO")]
    told = Answer(told.text.replace(pseudonym, "ANON"), told.outcome, told.code, told.message.replace(pseudonym,
                                                                                                    "ANON"))
    return told, [m.to for m in judge.new_mail() if m.subject == "p1 grey press"]


@pytest.mark.parametrize("venice", ["vacant", "a dummy"])
def test_18_1_an_answer_to_a_pseudonym_is_answered_alike_whatever_became_of_the_seat_behind_it(
        tmp_path: Path, venice: str) -> None:
    played, delivered = answer_to_venice(Judge(tmp_path / "played"), "played")
    assert delivered == [address("Venice")] and played.outcome == "ok"
    left, nobody = answer_to_venice(Judge(tmp_path / "left"), venice)
    assert nobody == []  # nobody plays the seat: the answer reaches nobody
    assert (left.text, left.outcome, left.code, left.message) == (
        played.text, played.outcome, played.code, played.message)
    assert "no player" not in left.message
