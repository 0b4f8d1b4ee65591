"""What players of the old judges expect of the game master's remaining tools: ROLLFORWARD, TERMINATE
with its code, unlisted and private games, a denied absence, observers switched off.  One test per
command, as mail, on the test kind's auction g1 (`tests.support.auction`: Alice, Bob and Carol; lots
of 24 hours, L1 due 2026-01-06 12:00 UTC).  Payola's draws, concessions, treasuries, history, PREVIEW
and REVEAL are in tests/games/payola/test_old_judges_by_mail.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.auction import auction_judge, every_bid, master, send, start_auction, state, to
from tests.support.harness import Judge
from tests.support.people import ALICE, BOB, CAROL, GM, OBSERVER


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    judge = start_auction(auction_judge(tmp_path), players=3)
    judge.new_mail()
    return judge


def test_rollforward_after_rollback_reproduces_the_original_results(judge: Judge) -> None:
    every_bid(judge)
    original = next(m for m in judge.new_mail() if m.to == ALICE and m.subject == "g1 L1 results").body
    master(judge, "ROLLBACK")
    judge.new_mail()
    master(judge, "ROLLFORWARD")
    again = next(m for m in judge.new_mail() if m.to == ALICE and m.subject.startswith("g1 L1 results")).body
    note = ("These results replace the earlier results of L1, sent 2026-01-05 12:00 UTC: the game master rolled "
            "the game back to L1, and it has been processed again.\n\n")
    news = ("Also in the game master's mail: the game master undid the rollback of L1: it is processed again now, "
            "as it was when it was rolled back (nobody has changed anything since).\n\n")
    assert note in again and news in again and again.replace(note, "").replace(news, "") == original
    master(judge, "ROLLFORWARD")
    assert judge.outcome_of("ROLLFORWARD") == ("error", "NO_ROLLBACK")


def test_terminate_asks_for_a_code_as_reveal_does_then_ends_the_game(judge: Judge) -> None:
    reply = master(judge, "TERMINATE").body
    assert "TERMINATE ends the game now and for ever" in reply and "cannot be undone" in reply
    code = reply.split("to confirm, send TERMINATE ", 1)[1].split()[0]
    assert state(judge)[0] == "active" and not [m for m in judge.new_mail() if m.subject == "g1 has ended"]
    master(judge, "TERMINATE wrong")
    assert judge.outcome_of("TERMINATE wrong") == ("error", "WRONG_CODE")
    assert state(judge)[0] == "active"
    master(judge, "TERMINATE x y")
    assert judge.outcome_of("TERMINATE x y") == ("error", "SYNTAX")
    master(judge, f"TERMINATE {code}")
    assert state(judge)[0] == "finished"
    assert {m.to for m in judge.new_mail() if m.subject == "g1 has ended"} == {ALICE, BOB, CAROL, GM}


def test_unlisted_games_are_hidden_from_list(judge: Judge) -> None:
    master(judge, "SET UNLISTED")
    judge.send(OBSERVER, "LIST")
    assert "g1:" not in judge.last_to(OBSERVER).body
    judge.send(OBSERVER, "LIST g1")
    assert "state: active" in judge.last_to(OBSERVER).body


def test_a_private_game_needs_its_join_key(tmp_path: Path) -> None:
    judge = auction_judge(tmp_path)
    judge.send(GM, "CREATE g1 gm-secret auction")
    assert "SET PRIVATE ****" in master(judge, "SET PRIVATE letmein").body
    judge.send(ALICE, "JOIN g1 alice-pw Alice")
    assert judge.outcome_of("JOIN g1 **** Alice") == ("error", "PRIVATE_GAME")
    judge.send(ALICE, "JOIN g1 alice-pw Alice KEY letmein")
    assert "you joined 'g1'" in judge.last_to(ALICE).body and "letmein" not in judge.last_to(ALICE).body


def test_a_denied_absence_moves_nothing_and_the_player_is_told(judge: Judge) -> None:
    send(judge, "Alice", "SET ABSENCE 2026-01-06 TO 2026-01-08")
    master(judge, "DENY ABSENCE Alice")
    mails = judge.new_mail()
    assert any(m.subject == "g1: absence denied" for m in to(mails, ALICE))
    judge.send(GM, "LIST g1")
    assert "deadline 2026-01-06 12:00 UTC" in judge.last_to(GM).body
    master(judge, "DENY ABSENCE Alice")
    assert judge.outcome_of("DENY ABSENCE Alice") == ("error", "NO_ABSENCE")


def test_observers_switched_off_receive_nothing(judge: Judge) -> None:
    judge.send(OBSERVER, "OBSERVE g1")
    master(judge, "SET OBSERVERS OFF")
    judge.new_mail()
    every_bid(judge)
    assert not to(judge.new_mail(), OBSERVER)
    master(judge, "SET OBSERVERS ON")
    judge.later(25)
    judge.process("g1")
    assert any(m.subject == "g1 L2 results" for m in to(judge.new_mail(), OBSERVER))


def test_a_listed_game_shows_again_and_a_public_game_needs_no_key(tmp_path: Path) -> None:
    judge = auction_judge(tmp_path)
    judge.send(GM, "CREATE g1 gm-secret auction")
    master(judge, "SET UNLISTED", "SET PRIVATE letmein", "SET LISTED", "SET PUBLIC")
    judge.send(OBSERVER, "LIST")
    assert "g1: forming" in judge.last_to(OBSERVER).body
    judge.send(ALICE, "JOIN g1 alice-pw Alice")
    assert "you joined 'g1'" in judge.last_to(ALICE).body
