"""The policy for silent seats (SET SILENCE, `judge.service.silence`, `judge.service.silent_seats`)
on game g1 (Alice France, Bob Germany; S1901M due 48 hours after its start, 2026-01-07 12:00
UTC): what STATUS says of it, how many extensions a late seat gets, and when it is abandoned."""

from __future__ import annotations

from pathlib import Path

from tests.support.harness import Judge, two_player_game
from tests.support.people import ALICE, BOB, GM

MASTER = "SIGNON MASTER@g1 gm-secret\n"


def silent_bob(tmp_path: Path, policy: str) -> Judge:
    judge = two_player_game(Judge(tmp_path))
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n2 : A PAR - BUR")
    judge.new_mail()
    judge.send(GM, MASTER + policy)
    return judge


def test_status_says_the_policy_to_the_game_master_and_the_players(tmp_path: Path) -> None:
    judge = silent_bob(tmp_path, "SET SILENCE ON\nSET SILENCE EXTENSIONS 2\nSET SILENCE ABANDON 3\nSTATUS")
    assert judge.outcome_of("SET SILENCE EXTENSIONS 2") == ("ok", None)
    said = ("silent seats: the seats still to act are reminded each day before the deadline; a deadline a played "
            "seat misses is extended up to 2 times by 24 hours")
    assert said in judge.last_to(GM).body.replace("\n  ", " ")
    judge.send(BOB, "SIGNON G@g1 bob-pw\nSTATUS")
    assert "a seat that misses 3 deadlines in a row is declared abandoned" in judge.last_to(BOB).body
    news = [m for m in judge.new_mail() if m.subject.startswith("g1: the game master set how silent seats")]
    assert {m.to for m in news} >= {ALICE, BOB}  # a change to a running game is announced


def test_a_late_seat_gets_the_extensions_the_policy_gives_and_no_more(tmp_path: Path) -> None:
    """Two extensions of 12 hours: the deadline goes from 2026-01-07 12:00 to 2026-01-08 00:00,
    then to 12:00; the phase is processed at the third."""
    judge = silent_bob(tmp_path, "SET SILENCE ON\nSET SILENCE EXTENSIONS 2\nSET SILENCE EXTENSION 12h")
    judge.later(48)
    assert judge.tick() == ["g1 S1901M extended to 2026-01-08 00:00 UTC: Germany late"]
    judge.later(12)
    assert judge.tick() == ["g1 S1901M extended to 2026-01-08 12:00 UTC: Germany late"]
    judge.later(12)
    assert judge.tick() == ["g1 S1901M processed; next F1901M"]


def test_a_late_seat_that_acts_in_its_extension_is_late_not_abandoned(tmp_path: Path) -> None:
    judge = silent_bob(tmp_path, "SET SILENCE ON\nSET SILENCE ABANDON 1")
    judge.later(48)
    judge.tick()  # extended by 24 hours
    judge.later(2)
    judge.send(BOB, "SIGNON G@g1 bob-pw\n1 : A MUN - RUH")  # the phase is complete: processed now
    judge.send(GM, MASTER + "WHOGAME")
    assert "Germany: played by bob@example.org" in judge.last_to(GM).body
    judge.send(BOB, "GET RECORD")
    assert "phases due: 1, on time: 0 (0%), late: 1, missed: 0" in judge.last_to(BOB).body


def test_with_abandon_zero_a_silent_seat_is_extended_but_never_abandoned(tmp_path: Path) -> None:
    judge = silent_bob(tmp_path, "SET SILENCE ON\nSET SILENCE ABANDON 0")
    for _ in range(3):  # three phases missed, each extended once
        judge.later(72)
        judge.tick()
        judge.send(ALICE, "SIGNON F@g1 alice-pw\n1 : A PAR H")
    assert not [m for m in judge.new_mail() if "abandoned" in m.subject]
    judge.send(GM, MASTER + "WHOGAME")
    assert "Germany: played by bob@example.org" in judge.last_to(GM).body


def test_silence_off_leaves_the_game_as_every_game_was(tmp_path: Path) -> None:
    judge = silent_bob(tmp_path, "SET SILENCE ON\nSET SILENCE OFF\nSTATUS")
    assert judge.outcome_of("SET SILENCE OFF") == ("ok", None)
    assert "silent seats:" not in judge.last_to(GM).body.split("> STATUS")[1]
    judge.later(48)
    assert judge.tick() == ["g1 S1901M processed; next F1901M"]


def test_a_silence_setting_that_cannot_be_read_is_refused(tmp_path: Path) -> None:
    judge = silent_bob(tmp_path, "SET SILENCE EXTENSIONS 7")
    assert judge.outcome_of("SET SILENCE EXTENSIONS 7")[0] == "error"
