"""How the judge reads a mail and answers it, alike in every game (issue 23 items 11, 13, 14, 26-28,
36): sign-offs and greetings, where reading stopped, durations in words, unknown words before a
sign-on, SIGNON's mistakes, the copy to a registered address, UNOBSERVE and WHOGAME.  Played on the
test kind's auction g1 (the fixture ``auction``: Alice and Bob, lot L1 on sale).  How a Payola mail's
own lines are read is in tests/games/payola/test_reading_by_mail.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.auction import auction_judge, master
from tests.support.harness import Judge
from tests.support.people import ALICE, BOB, GM
from tests.support.replies import answer, info_lines, reply_to

ALICE_SIGNON = "SIGNON Alice@g1 alice-pw\n"


# -- 23.11: a sign-off after the last command, a greeting before the first -----------------------------


def test_a_short_sign_off_after_the_last_command_is_taken_as_such(auction: Judge) -> None:
    auction.send(ALICE, ALICE_SIGNON + "BID 4\n\nThanks!\nFrancois\nSent from my iPhone")
    body = reply_to(auction, ALICE).body
    for line in ("Thanks!", "Francois", "Sent from my iPhone"):
        assert (auction.answer(line).outcome, auction.answer(line).code) == ("ignored", "SIGN_OFF"), body
    assert [answer.code for answer in auction.answers if answer.outcome == "error"] == []
    assert auction.outcome_of("BID 4") == ("ok", None)


def test_a_long_run_of_unknown_lines_at_the_end_is_no_sign_off(auction: Judge) -> None:
    auction.send(ALICE, ALICE_SIGNON + "BID 4\nWHOAMI\nGETRULES\nLISTME\nWHEREAMI")
    reply_to(auction, ALICE)
    assert [answer.code for answer in auction.answers[2:]] == ["UNKNOWN_COMMAND"] * 4  # none taken as a sign-off


def test_a_short_greeting_before_the_first_command_is_taken_as_such(auction: Judge) -> None:
    auction.send(ALICE, "Hello,\nSorry, late!\n\n" + ALICE_SIGNON + "BID 4\nThanks!")
    reply_to(auction, ALICE)
    assert [(answer.text, answer.outcome, answer.code) for answer in auction.answers] == [
        ("Hello,", "ignored", "GREETING"), ("Sorry, late!", "ignored", "GREETING"),
        ("SIGNON Alice@g1 ****", "ok", None), ("BID 4", "ok", None), ("Thanks!", "ignored", "SIGN_OFF")]


def test_a_long_run_of_unknown_lines_before_the_first_command_or_with_none_after_is_no_greeting(
        auction: Judge) -> None:
    auction.send(ALICE, "Hello,\nsorry,\nI was away.\nHere goes:\n" + ALICE_SIGNON + "BID 4")
    reply_to(auction, ALICE)
    assert [auction.outcome_of(line) for line in ("Hello,", "sorry,", "I was away.", "Here goes:")] == [
        ("error", "UNKNOWN_COMMAND")] * 4  # none taken as a greeting
    auction.send(ALICE, "WHOAMI\n" + ALICE_SIGNON + "BID 4")  # in capitals, as commands are: one mistyped
    reply_to(auction, ALICE)
    assert auction.outcome_of("WHOAMI") == ("error", "UNKNOWN_COMMAND")
    auction.send(ALICE, "Sorry, late!")  # no command at all: it may be one mistyped
    reply_to(auction, ALICE)
    assert auction.outcome_of("Sorry, late!") == ("error", "UNKNOWN_COMMAND")


# -- 23.13: where reading stopped --------------------------------------------------------------------


def test_reading_that_stops_at_a_signature_says_so(auction: Judge) -> None:
    auction.send(ALICE, ALICE_SIGNON + "BID 4\n-- \nFrancois\nBID 9")
    body = reply_to(auction, ALICE).body
    assert ("NOTE: Reading stopped at the signature line '-- ': what follows it (your signature) was not read."
            in body)
    assert "BID 9" not in body


def test_a_signature_with_nothing_after_it_needs_no_note(auction: Judge) -> None:
    auction.send(ALICE, ALICE_SIGNON + "BID 4\n-- \n")
    assert "Reading stopped" not in reply_to(auction, ALICE).body


# -- 23.14: durations in words -------------------------------------------------------------------------


@pytest.mark.parametrize(("written", "words"), [("4m", "4 minutes"), ("2", "2 hours"), ("30h", "1 day 6 hours"),
                                                ("0.0667", "4 minutes"), ("1d", "1 day"), ("90m", "1 hour 30 minutes")])
def test_durations_are_echoed_in_words(auction: Judge, written: str, words: str) -> None:
    master(auction, f"SET GRACE {written}")
    mails = auction.new_mail()
    [reply] = [m for m in mails if m.to == GM]
    assert answer(reply.body, f"SET GRACE {written}") == f"OK: grace set to {words}"
    [news] = [m for m in mails if m.to == ALICE]
    assert f"the grace period after each deadline to {words}" in news.body
    assert "0.0666" not in news.body


@pytest.mark.parametrize("command", ["SET LOT 0", "SET LOT 30m", "SET LOT 0.5", "SET REMINDER 0"])
def test_a_phase_of_no_time_or_a_reminder_at_the_deadline_is_refused_and_not_announced(
        auction: Judge, command: str) -> None:
    """A phase lasts at least an hour; a reminder comes at least 10 minutes before the deadline."""
    master(auction, command)
    mails = auction.new_mail()
    assert auction.outcome_of(command) == ("error", "SYNTAX")
    assert [m.to for m in mails] == [GM]  # nobody is told of a change that was not made


def test_the_shortest_phase_and_reminder_and_no_grace_at_all_are_taken(auction: Judge) -> None:
    body = master(auction, "SET LOT 1h", "SET REMINDER 10m", "SET GRACE 0").body
    assert "OK: lot set to 1 hour" in body and "OK: reminder set to 10 minutes" in body
    assert "OK: grace set to 0 hours" in body


# -- 23.36: UNOBSERVE ---------------------------------------------------------------------------------------


def test_unobserve_of_a_game_never_observed_says_so(auction: Judge) -> None:
    auction.send("carol@example.org", "UNOBSERVE g1")
    assert auction.outcome_of("UNOBSERVE g1") == ("ignored", "NOT_OBSERVING")
    auction.send("carol@example.org", "OBSERVE g1")
    auction.new_mail()
    auction.send("carol@example.org", "UNOBSERVE g1")
    assert auction.outcome_of("UNOBSERVE g1") == ("ok", None)


# -- 23.27: unknown words before a sign-on ---------------------------------------------------------------------


def test_unknown_words_before_a_sign_on_are_unknown_commands(auction: Judge) -> None:
    auction.send("carol@example.org", "WHOAMI classic\nWAIT\nRESIGN")
    reply_to(auction, "carol@example.org")
    assert [(answer.outcome, answer.code) for answer in auction.answers] == [
        ("error", "UNKNOWN_COMMAND"), ("error", "SIGN_ON_FIRST"), ("error", "SIGN_ON_FIRST")]  # what needs one says so


# -- 23.26: SIGNON's mistakes ----------------------------------------------------------------------------------


def test_a_refused_sign_on_quotes_its_line_without_the_password(auction: Judge) -> None:
    auction.send(ALICE, "LIST\nSIGNON Alice@g1 wrong-pw\nBID 4")
    body = reply_to(auction, ALICE).body
    assert body.startswith("> SIGNON Alice@g1 ****\n"), body
    assert auction.outcome_of("SIGNON Alice@g1 ****") == ("error", "SIGNON_REFUSED")
    assert "wrong-pw" not in body


def test_njudge_signon_question_mark_points_to_join(auction: Judge) -> None:
    auction.send("carol@example.org", "SIGNON ?g1 carol-pw")
    body = reply_to(auction, "carol@example.org").body
    assert answer(body, "SIGNON ?g1 ****").startswith("ERROR: to join a game, send JOIN g1 password")
    assert "(njudge's SIGNON ?game is JOIN here)" in body and "carol-pw" not in body


# -- 23.28: the copy to a registered address --------------------------------------------------------------------


def test_each_registered_address_gets_a_copy_of_its_own_sign_on_only(auction: Judge) -> None:
    auction.send("shared@example.org", "LIST\nSIGNON Alice@g1 alice-pw\nBID 4\nSIGNON Bob@g1 bob-pw\nBID 3\nWAIT")
    mails = auction.new_mail()
    [to_alice] = [m for m in mails if m.to == ALICE and m.subject.startswith("Copy:")]
    [to_bob] = [m for m in mails if m.to == BOB and m.subject.startswith("Copy:")]
    assert "> BID 4" in to_alice.body and "BID 3" not in to_alice.body and "Bob@" not in to_alice.body
    assert "> BID 3" in to_bob.body and "> WAIT" in to_bob.body and "BID 4" not in to_bob.body
    assert "Alice@" not in to_bob.body and "> LIST" not in to_alice.body + to_bob.body
    [reply] = [m for m in mails if m.to == "shared@example.org"]
    assert "> BID 4" in reply.body and "> BID 3" in reply.body  # the writer's reply is whole


# -- 23.27 + 29.6: WHOGAME -------------------------------------------------------------------------------------


def test_whogame_lists_the_seats_and_who_plays_them(auction: Judge) -> None:
    master(auction, "DUMMY Bob")
    auction.new_mail()
    auction.send(ALICE, "WHOGAME g1")
    lines = info_lines(reply_to(auction, ALICE).body, "WHOGAME g1")
    assert lines == ["g1: Sealed-bid auction, active, L1", f"game master: {GM}", f"Alice: played by {ALICE}",
                     "Bob: vacant (its player left)"]
    auction.send("carol@example.org", "WHOGAME g1")  # a stranger: which seats are played, never an address
    body = reply_to(auction, "carol@example.org").body
    assert "Alice: played by a player" in body and "@example.org" not in body.split("> WHOGAME g1")[1]
    assert "game master" not in body  # nor says that an address is kept from them


def test_whogame_never_gives_an_address_in_an_anonymous_game(tmp_path: Path) -> None:
    judge = auction_judge(tmp_path)
    judge.send(GM, "CREATE anon gm-secret auction ANONYMOUS")
    judge.send(ALICE, "JOIN anon alice-pw Alice")
    judge.send(BOB, "JOIN anon bob-pw Bob")
    judge.new_mail()
    for reader in (ALICE, "carol@example.org"):
        judge.send(reader, "WHOGAME anon")
        assert "@" not in reply_to(judge, reader).body.split("> WHOGAME anon")[1].split("\n-- \n")[0], reader
    judge.send(GM, "SIGNON MASTER@anon gm-secret\nSTART")
    judge.new_mail()
    judge.send(ALICE, "SIGNON Alice@anon alice-pw\nWHOGAME")
    body = reply_to(judge, ALICE).body
    assert "Alice: played by a player" in body and "Bob: played by a player" in body
    assert "@" not in body.split("> WHOGAME")[1].split("\n-- \n")[0]
    judge.send(GM, "SIGNON MASTER@anon gm-secret\nWHOGAME")
    assert f"Bob: played by {BOB}" in reply_to(judge, GM).body  # the master knows


# -- GET INFO of another kind: Pirates' Proposal's own options ------------------------------------------------


def test_get_info_of_a_pirates_match(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE pp gm-secret pirates PLAYERS=4 GARNETS=2")
    judge.new_mail()
    judge.send("carol@example.org", "GET INFO pp\nWHOGAME pp")
    body = reply_to(judge, "carol@example.org").body
    assert "PLAYERS=4: 4 players in two rooms, five rounds (P1)" in body
    assert "GARNETS=2: each player starts with 2 garnets (P1, P7)" in body
    assert "0 players joined, of 4" in body
