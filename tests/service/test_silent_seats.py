"""The policy for silent seats (SET SILENCE, `judge.service.silence`, `judge.service.silent_seats`)
on the test kind's game g1 (`tests.support.auction`: Alice and Bob, four lots; L1 due 24 hours
after its start, 2026-01-06 12:00 UTC; Alice has bid, Bob is silent): what STATUS says of it, how
many extensions a late seat gets, and when it is abandoned."""

from __future__ import annotations

from pathlib import Path

from tests.support.auction import auction_judge, bid, master, send, start_auction
from tests.support.harness import Judge
from tests.support.people import ALICE, BOB, GM


def silent_bob(tmp_path: Path, policy: str) -> Judge:
    judge = start_auction(auction_judge(tmp_path), options="LOTS=4")
    bid(judge, "Alice", 10)
    judge.new_mail()
    master(judge, policy)
    return judge


def test_status_says_the_policy_to_the_game_master_and_the_players(tmp_path: Path) -> None:
    judge = silent_bob(tmp_path, "SET SILENCE ON\nSET SILENCE EXTENSIONS 2\nSET SILENCE ABANDON 3\nSTATUS")
    assert judge.outcome_of("SET SILENCE EXTENSIONS 2") == ("ok", None)
    said = ("silent seats: the seats still to act are reminded each day before the deadline; a deadline a played "
            "seat misses is extended up to 2 times by 24 hours")
    assert said in judge.last_to(GM).body.replace("\n  ", " ")
    assert "a seat that misses 3 deadlines in a row is declared abandoned" in send(judge, "Bob", "STATUS").body
    news = [m for m in judge.new_mail() if m.subject.startswith("g1: the game master set how silent seats")]
    assert {m.to for m in news} >= {ALICE, BOB}  # a change to a running game is announced


def test_a_late_seat_gets_the_extensions_the_policy_gives_and_no_more(tmp_path: Path) -> None:
    """Two extensions of 12 hours: the deadline goes from 2026-01-06 12:00 to 2026-01-07 00:00,
    then to 12:00; the phase is processed at the third."""
    judge = silent_bob(tmp_path, "SET SILENCE ON\nSET SILENCE EXTENSIONS 2\nSET SILENCE EXTENSION 12h")
    judge.later(24)
    assert judge.tick() == ["g1 L1 extended to 2026-01-07 00:00 UTC: Bob late"]
    judge.later(12)
    assert judge.tick() == ["g1 L1 extended to 2026-01-07 12:00 UTC: Bob late"]
    judge.later(12)
    assert judge.tick() == ["g1 L1 processed; next L2"]


def test_a_late_seat_that_acts_in_its_extension_is_late_not_abandoned(tmp_path: Path) -> None:
    judge = silent_bob(tmp_path, "SET SILENCE ON\nSET SILENCE ABANDON 1")
    judge.later(24)
    judge.tick()  # extended by 24 hours
    judge.later(2)
    bid(judge, "Bob", 5)  # the phase is complete: processed now
    assert "Bob: played by bob@example.org" in master(judge, "WHOGAME").body
    assert "phases due: 1, on time: 0 (0%), late: 1, missed: 0" in send(judge, "Bob", "GET RECORD").body


def test_with_abandon_zero_a_silent_seat_is_extended_but_never_abandoned(tmp_path: Path) -> None:
    """Bob misses three deadlines in a row, each extended once (by 24 hours) then passed: by the
    default policy (abandoned after 2) he would have been abandoned at the second."""
    judge = silent_bob(tmp_path, "SET SILENCE ON\nSET SILENCE ABANDON 0")
    for lot in (1, 2, 3):
        judge.later(24)
        assert judge.tick()[0].startswith(f"g1 L{lot} extended to")
        judge.later(24)
        assert judge.tick()[0].startswith(f"g1 L{lot} processed")
        bid(judge, "Alice", 1)
    assert not [m for m in judge.new_mail() if "abandoned" in m.subject]
    assert "Bob: played by bob@example.org" in master(judge, "WHOGAME").body


def test_silence_off_leaves_the_game_as_every_game_was(tmp_path: Path) -> None:
    judge = silent_bob(tmp_path, "SET SILENCE ON\nSET SILENCE OFF\nSTATUS")
    assert judge.outcome_of("SET SILENCE OFF") == ("ok", None)
    assert "silent seats:" not in judge.last_to(GM).body.split("> STATUS")[1]
    judge.later(24)
    assert judge.tick() == ["g1 L1 processed; next L2"]


def test_a_silence_setting_that_cannot_be_read_is_refused(tmp_path: Path) -> None:
    judge = silent_bob(tmp_path, "SET SILENCE EXTENSIONS 7")
    assert judge.outcome_of("SET SILENCE EXTENSIONS 7")[0] == "error"
