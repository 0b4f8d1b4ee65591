"""How the judge reads a mail and answers it (issue 23 items 11-16, 23, 26-28, 31, 36; issue 29
item 6): sign-offs, rejected sheets summed up, where reading stopped, durations in words, a
unit's type, dashes and VIA, unknown words, SIGNON's mistakes, the copy to a registered
address, amounts, UNOBSERVE, and the information commands."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.harness import Judge, Sent, start_game
from tests.support.people import ALICE, BOB, GM

FRANCE = "SIGNON FRANCE@g1 alice-pw\n"


def reply_to(judge: Judge, address: str) -> Sent:
    """The one mail ``address`` got since the mail was last read."""
    mails = [m for m in judge.new_mail() if m.to == address]
    assert len(mails) == 1, [(m.to, m.subject) for m in mails]
    return mails[0]


def answer(body: str, line: str) -> str:
    """The answer line under the echo of ``line`` in a reply."""
    lines = body.splitlines()
    return lines[lines.index(f"> {line}") + 1].strip()


# -- 23.11: a sign-off after the last command ------------------------------------------------------


def test_a_short_sign_off_after_the_last_command_is_taken_as_such(judge: Judge) -> None:
    judge.send(ALICE, FRANCE + "4 : A PAR - BUR\n\nThanks!\nFrancois\nSent from my iPhone")
    body = reply_to(judge, ALICE).body
    for line in ("Thanks!", "Francois", "Sent from my iPhone"):
        assert (judge.answer(line).outcome, judge.answer(line).code) == ("ignored", "SIGN_OFF"), body
    assert [answer.code for answer in judge.answers if answer.outcome == "error"] == []
    assert "offer sheet accepted: 1 offer," in body


def test_unknown_words_amid_commands_are_unknown_commands_without_the_hint_on_orders(judge: Judge) -> None:
    judge.send(ALICE, FRANCE + "Hello judge\n4 : A PAR - BUR\nA MAR - SPA")
    body = reply_to(judge, ALICE).body
    assert judge.outcome_of("Hello judge") == ("error", "UNKNOWN_COMMAND")
    # an order, by its look, keeps the hint that is true of it
    assert answer(body, "A MAR - SPA") == "ERROR: unknown command (in a movement phase units are bribed, not ordered)"


def test_a_long_run_of_unknown_lines_at_the_end_is_no_sign_off(judge: Judge) -> None:
    judge.send(ALICE, FRANCE + "4 : A PAR - BUR\nWHOAMI\nGETRULES\nLISTME\nWHEREAMI")
    reply_to(judge, ALICE)
    assert [answer.code for answer in judge.answers[2:]] == ["UNKNOWN_COMMAND"] * 4  # none taken as a sign-off


def test_a_short_greeting_before_the_first_command_is_taken_as_such(judge: Judge) -> None:
    judge.send(ALICE, "Hello,\nSorry, late!\n\n" + FRANCE + "4 : A PAR - BUR\nThanks!")
    reply_to(judge, ALICE)
    assert [(answer.text, answer.outcome, answer.code) for answer in judge.answers if answer.code] == [
        ("Hello,", "ignored", "GREETING"), ("Sorry, late!", "ignored", "GREETING"),
        ("4 : A PAR - BUR", "ok", "SHEET_ACCEPTED"), ("Thanks!", "ignored", "SIGN_OFF")]


def test_a_greeting_whose_first_word_is_a_province_of_another_board_is_a_greeting_not_an_order(
        judge: Judge) -> None:
    """HI and UP are provinces of the empire board; g1 is played on the standard board: "Hi judge,"
    greets, and "Up to you" after the sign-on, read on g1's own board, is an unknown command without the
    hint on orders (read on every board, it was a move of the unit in UP, TO being a move's word)."""
    judge.send(ALICE, "Hi judge,\n\n" + FRANCE + "Up to you\n4 : A PAR - BUR")
    body = reply_to(judge, ALICE).body
    assert judge.outcome_of("Hi judge,") == ("ignored", "GREETING")
    assert answer(body, "Up to you") == "ERROR: unknown command 'Up': HELP lists the commands"
    assert judge.outcome_of("4 : A PAR - BUR") == ("ok", "SHEET_ACCEPTED")


def test_a_long_run_of_unknown_lines_before_the_first_command_or_with_none_after_is_no_greeting(
        judge: Judge) -> None:
    judge.send(ALICE, "Hello,\nsorry,\nI was away.\nHere goes:\n" + FRANCE + "4 : A PAR - BUR")
    reply_to(judge, ALICE)
    assert [judge.outcome_of(line) for line in ("Hello,", "sorry,", "I was away.", "Here goes:")] == [
        ("error", "UNKNOWN_COMMAND")] * 4  # none taken as a greeting
    judge.send(ALICE, "WHOAMI\n" + FRANCE + "4 : A PAR - BUR")  # in capitals, as commands are: one mistyped
    reply_to(judge, ALICE)
    assert judge.outcome_of("WHOAMI") == ("error", "UNKNOWN_COMMAND")
    judge.send(ALICE, "Sorry, late!")  # no command at all: it may be one mistyped
    reply_to(judge, ALICE)
    assert judge.outcome_of("Sorry, late!") == ("error", "UNKNOWN_COMMAND")


# -- 23.13: where reading stopped --------------------------------------------------------------------


def test_reading_that_stops_at_a_signature_says_so(judge: Judge) -> None:
    judge.send(ALICE, FRANCE + "4 : A PAR - BUR\n-- \nFrancois\n4 : A MAR - SPA")
    body = reply_to(judge, ALICE).body
    assert ("NOTE: Reading stopped at the signature line '-- ': what follows it (your signature) was not read."
            in body)
    assert "A MAR - SPA" not in body


def test_a_signature_with_nothing_after_it_needs_no_note(judge: Judge) -> None:
    judge.send(ALICE, FRANCE + "4 : A PAR - BUR\n-- \n")
    assert "Reading stopped" not in reply_to(judge, ALICE).body


# -- 23.14: durations in words -------------------------------------------------------------------------


@pytest.mark.parametrize(("written", "words"), [("4m", "4 minutes"), ("2", "2 hours"), ("30h", "1 day 6 hours"),
                                                ("0.0667", "4 minutes"), ("1d", "1 day"), ("90m", "1 hour 30 minutes")])
def test_durations_are_echoed_in_words(judge: Judge, written: str, words: str) -> None:
    judge.send(GM, f"SIGNON MASTER@g1 gm-secret\nSET GRACE {written}")
    mails = judge.new_mail()
    [reply] = [m for m in mails if m.to == GM]
    assert answer(reply.body, f"SET GRACE {written}") == f"OK: grace set to {words}"
    [news] = [m for m in mails if m.to == ALICE]
    assert f"the grace period after each deadline to {words}" in news.body
    assert "0.0666" not in news.body


@pytest.mark.parametrize("command", ["SET MOVEMENT 0", "SET RETREAT 30m", "SET ADJUSTMENT 0.5", "SET REMINDER 0"])
def test_a_phase_of_no_time_or_a_reminder_at_the_deadline_is_refused_and_not_announced(
        judge: Judge, command: str) -> None:
    """A phase lasts at least an hour; a reminder comes at least 10 minutes before the deadline."""
    judge.send(GM, f"SIGNON MASTER@g1 gm-secret\n{command}")
    mails = judge.new_mail()
    assert judge.outcome_of(command) == ("error", "SYNTAX")
    assert [m.to for m in mails] == [GM]  # nobody is told of a change that was not made


def test_the_shortest_phase_and_reminder_and_no_grace_at_all_are_taken(judge: Judge) -> None:
    judge.send(GM, "SIGNON MASTER@g1 gm-secret\nSET MOVEMENT 1h\nSET REMINDER 10m\nSET GRACE 0")
    body = judge.last_to(GM).body
    assert "OK: movement set to 1 hour" in body and "OK: reminder set to 10 minutes" in body
    assert "OK: grace set to 0 hours" in body


# -- 23.15: the type of the unit an offer names ------------------------------------------------------


def test_an_offer_to_a_fleet_where_an_army_stands_says_it_is_an_army(judge: Judge) -> None:
    judge.send(ALICE, FRANCE + "4 : F PAR - BUR\n2 : A BRE H")
    body = reply_to(judge, ALICE).body
    assert answer(body, "4 : F PAR - BUR") == "ERROR: the unit in PAR is an army (A PAR)"
    assert answer(body, "2 : A BRE H") == "ERROR: the unit in BRE is a fleet (F BRE)"


# -- 23.16: dashes and VIA -------------------------------------------------------------------------------


def test_autocorrected_dashes_and_via_alone_are_read(judge: Judge) -> None:
    judge.send(ALICE, FRANCE + "4 : A PAR \u2013 BUR\n3 : A MAR \u2014 SPA\n2 : F BRE \u2212 MAO")
    body = reply_to(judge, ALICE).body
    assert "ERROR" not in body, body
    assert "offer sheet accepted: 3 offers," in body
    assert answer(body, "4 : A PAR \u2013 BUR") == "OK: read as one offer of 4 AgP; direct offer for A PAR - BUR"
    judge.send(ALICE, FRANCE + "1 : A MAR - SPA VIA")
    assert answer(reply_to(judge, ALICE).body, "1 : A MAR - SPA VIA") == (
        "ERROR: 'A MAR - SPA VIA CONVOY' is not a legal order for A MAR: no chain of fleets could convoy that move")


# -- 23.23: Tin Cup: an offer to an empty province in sight ------------------------------------------------


def test_tin_cup_offers_to_missing_units_in_and_out_of_sight_are_answered_alike_and_truly(tmp_path: Path) -> None:
    judge = start_game(Judge(tmp_path), "tc", "standard TINCUP", ((ALICE, "FRANCE"), (BOB, "TURKEY")))
    judge.new_mail()
    # in sight and empty (BUR, next to PAR); in sight, of the other type (F PAR: its own A PAR); out of
    # sight, with a unit there (A MUN, Germany's) and without (A SIL)
    lines = ["1 : A BUR H", "1 : F PAR H", "1 : A MUN H", "1 : A SIL H"]
    judge.send(ALICE, "SIGNON FRANCE@tc alice-pw\n" + "\n".join(lines))
    body = reply_to(judge, ALICE).body
    answers = {answer(body, line) for line in lines}
    assert len(answers) == 1, answers  # one wording, whatever the case
    [said] = answers
    assert said.startswith("OK: names a unit that is not on the board as you see it (Tin Cup, rule 6.3)")
    assert "you do not see" not in said  # false of BUR and PAR, which France sees


# -- 23.31: amounts ------------------------------------------------------------------------------------


def test_negative_and_fractional_amounts_are_whole_numbers_of_agp(judge: Judge) -> None:
    lines = ["-3 : A PAR H", "3.5 : A PAR H", "\u22123 : A PAR H", "2.5 $", "TRANSFER -5 TO GERMANY",
             "TRANSFER 3.5 TO GERMANY"]
    judge.send(ALICE, FRANCE + "\n".join(lines))
    body = reply_to(judge, ALICE).body
    for line in lines:
        assert answer(body, line).endswith("an amount is a whole number of AgP, 0 or more"), (line, body)


# -- 23.36: UNOBSERVE ---------------------------------------------------------------------------------------


def test_unobserve_of_a_game_never_observed_says_so(judge: Judge) -> None:
    judge.send("carol@example.org", "UNOBSERVE g1")
    assert judge.outcome_of("UNOBSERVE g1") == ("ignored", "NOT_OBSERVING")
    judge.send("carol@example.org", "OBSERVE g1")
    judge.new_mail()
    judge.send("carol@example.org", "UNOBSERVE g1")
    assert judge.outcome_of("UNOBSERVE g1") == ("ok", None)


# -- 23.27: unknown words before a sign-on ---------------------------------------------------------------------


def test_unknown_words_before_a_sign_on_are_unknown_commands(judge: Judge) -> None:
    judge.send("carol@example.org", "WHOAMI classic\nA PAR - BUR\nTRANSFER 5 TO GERMANY")
    reply_to(judge, "carol@example.org")
    assert [(answer.outcome, answer.code) for answer in judge.answers] == [
        ("error", "UNKNOWN_COMMAND"), ("error", "SIGN_ON_FIRST"), ("error", "SIGN_ON_FIRST")]  # what needs one says so


# -- 23.12: a rejected sheet, summed up --------------------------------------------------------------------


def test_a_rejected_sheet_never_speaks_of_a_previous_sheet_that_is_not_there(judge: Judge) -> None:
    judge.send(ALICE, FRANCE + "4 : A PAR - BUR\n2 : A XXX H")
    body = reply_to(judge, ALICE).body
    assert "previous sheet" not in body
    assert judge.outcome_of("4 : A PAR - BUR") == ("ignored", "SHEET_REFUSED")
    assert body.splitlines()[body.splitlines().index("> 2 : A XXX H") + 2].strip() == (
        "sheet REJECTED (1 error); your sheet for S1901M is now: none")


def test_a_rejected_sheet_says_which_sheet_stands(judge: Judge) -> None:
    judge.later(1)
    judge.send(ALICE, FRANCE + "4 : A PAR - BUR")
    judge.later(1)
    judge.send(ALICE, FRANCE + "4 : A PAR - XXX\n2 : F PAR H\n1 : A MAR H")
    body = [m for m in judge.new_mail() if m.to == ALICE][-1].body
    assert "sheet REJECTED (2 errors); your sheet for S1901M is now: the one of 2026-01-05 13:00 UTC" in body


def test_rejected_orders_say_which_orders_stand(tmp_path: Path) -> None:
    judge = start_game(Judge(tmp_path), "lu", "standard LOYAL_UNITS")
    judge.new_mail()
    judge.send(ALICE, "SIGNON FRANCE@lu alice-pw\nA PAR - BUR\nA MAR - XXX")
    body = reply_to(judge, ALICE).body
    assert "previous orders" not in body
    assert "orders REJECTED (1 error); your orders for S1901M are now: none" in body


# -- 23.26: SIGNON's mistakes ----------------------------------------------------------------------------------


def test_a_refused_sign_on_quotes_its_line_without_the_password(judge: Judge) -> None:
    judge.send(ALICE, "LIST\nSIGNON FRANCE@g1 wrong-pw\n4 : A PAR - BUR")
    body = reply_to(judge, ALICE).body
    assert body.startswith("> SIGNON FRANCE@g1 ****\n"), body
    assert judge.outcome_of("SIGNON FRANCE@g1 ****") == ("error", "SIGNON_REFUSED")
    assert "wrong-pw" not in body


def test_njudge_signon_question_mark_points_to_join(judge: Judge) -> None:
    judge.send("carol@example.org", "SIGNON ?g1 carol-pw")
    body = reply_to(judge, "carol@example.org").body
    assert answer(body, "SIGNON ?g1 ****") == ("ERROR: to join a game, send JOIN g1 password [power] (njudge's "
                                               "SIGNON ?game is JOIN here); SIGNON POWER@game password signs on to "
                                               "a power you play")
    assert "carol-pw" not in body


# -- 23.28: the copy to a registered address --------------------------------------------------------------------


def test_each_registered_address_gets_a_copy_of_its_own_sign_on_only(judge: Judge) -> None:
    judge.send("shared@example.org", "LIST\nSIGNON FRANCE@g1 alice-pw\n4 : A PAR - BUR\n"
                                     "SIGNON GERMANY@g1 bob-pw\n3 : A MUN - RUH\nTRANSFER 5 TO FRANCE")
    mails = judge.new_mail()
    [to_alice] = [m for m in mails if m.to == ALICE and m.subject.startswith("Copy:")]
    [to_bob] = [m for m in mails if m.to == BOB and m.subject.startswith("Copy:")]
    assert "> 4 : A PAR - BUR" in to_alice.body and "A MUN" not in to_alice.body and "GERMANY" not in to_alice.body
    assert "> 3 : A MUN - RUH" in to_bob.body and "A PAR" not in to_bob.body and "FRANCE@" not in to_bob.body
    assert "> LIST" not in to_alice.body + to_bob.body
    [reply] = [m for m in mails if m.to == "shared@example.org"]
    assert "> 4 : A PAR - BUR" in reply.body and "> 3 : A MUN - RUH" in reply.body  # the writer's reply is whole


# -- 23.27: HISTORY after a sign-on --------------------------------------------------------------------------------


def test_history_after_a_sign_on_needs_no_game_name(judge: Judge) -> None:
    judge.process("g1", force=True)
    judge.new_mail()
    judge.send(ALICE, FRANCE + "HISTORY")
    body = reply_to(judge, ALICE).body
    assert "ERROR" not in body and "S1901M" in body.split("> HISTORY", 1)[1]
    judge.send(ALICE, FRANCE + "HISTORY S1901M")
    body = reply_to(judge, ALICE).body
    assert "ERROR" not in body and "S1901M" in body.split("> HISTORY S1901M", 1)[1]
    judge.send("carol@example.org", "HISTORY")
    assert answer(reply_to(judge, "carol@example.org").body, "HISTORY").startswith(
        "ERROR: expected HISTORY game [phase | first-last] (or sign on first")


def test_summary_after_a_sign_on_needs_no_game_name(judge: Judge) -> None:
    judge.send(ALICE, FRANCE + "SUMMARY")
    body = reply_to(judge, ALICE).body
    assert "ERROR" not in body and "Supply centers at the start of each year:" in body
    assert "Game g1 (standard): active, S1901M." in body
    judge.send("carol@example.org", "SUMMARY")
    assert answer(reply_to(judge, "carol@example.org").body, "SUMMARY") == \
        "ERROR: expected SUMMARY game (or sign on first)"


# -- 23.27 + 29.6: WHOGAME, GET INFO, GET RULES -------------------------------------------------------------------


def info_lines(body: str, line: str) -> list[str]:
    """The answer's lines under the echo of ``line``, up to the next echo."""
    lines = body.splitlines()
    found = []
    for text in lines[lines.index(f"> {line}") + 1:]:
        if text.startswith(">") or text.startswith("-- "):
            break
        found.append(text.strip())
    return [text for text in found if text]


def test_whogame_lists_the_seats_and_who_plays_them(judge: Judge) -> None:
    judge.send(GM, "SIGNON MASTER@g1 gm-secret\nDUMMY GERMANY")
    judge.new_mail()
    judge.send(ALICE, "WHOGAME g1")
    lines = info_lines(reply_to(judge, ALICE).body, "WHOGAME g1")
    assert lines[:2] == ["g1: Payola Diplomacy, active, S1901M", f"game master: {GM}"]
    assert lines[2:] == ["Austria: a dummy", "England: a dummy", f"France: played by {ALICE}",
                         "Germany: vacant (its player left)", "Italy: a dummy", "Russia: a dummy", "Turkey: a dummy"]
    judge.send("carol@example.org", "WHOGAME g1")  # a stranger: which seats are played, never an address
    body = reply_to(judge, "carol@example.org").body
    assert "France: played by a player" in body and "@example.org" not in body.split("> WHOGAME g1")[1]
    assert "game master" not in body  # nor says that an address is kept from them


def test_whogame_never_gives_an_address_in_an_anonymous_game(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE anon gm-secret standard ANONYMOUS")
    judge.send(ALICE, "JOIN anon alice-pw FRANCE")
    judge.send(BOB, "JOIN anon bob-pw GERMANY")
    judge.new_mail()
    for reader in (ALICE, "carol@example.org"):
        judge.send(reader, "WHOGAME anon")
        assert "@" not in reply_to(judge, reader).body.split("> WHOGAME anon")[1].split("\n-- \n")[0], reader
    judge.send(GM, "SIGNON MASTER@anon gm-secret\nSTART")
    judge.new_mail()
    judge.send(ALICE, "SIGNON FRANCE@anon alice-pw\nWHOGAME")
    body = reply_to(judge, ALICE).body
    assert "France: played by a player" in body and "Germany: played by a player" in body
    assert "@" not in body.split("> WHOGAME")[1].split("\n-- \n")[0]
    judge.send(GM, "SIGNON MASTER@anon gm-secret\nWHOGAME")
    assert f"Germany: played by {BOB}" in reply_to(judge, GM).body  # the master knows


def test_get_info_tells_the_options_and_rules_in_words(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE eb gm-secret standard EBAYOLA INCOME=FIXED:10 NO_DRAW ANONYMOUS")
    judge.send(GM, "SIGNON MASTER@eb gm-secret\nSET MOVEMENT 36\nSET GRACE 90m")
    judge.new_mail()
    judge.send("carol@example.org", "GET INFO eb\nGET RULES eb")
    body = reply_to(judge, "carol@example.org").body
    lines = info_lines(body, "GET INFO eb")
    assert lines == info_lines(body, "GET RULES eb")
    text = "\n".join(lines)
    assert text.startswith("Payola Diplomacy (the numbers are those of the Payola rules) on the standard board")
    assert "EBAYOLA (6.4): a successful total bribe costs one AgP more than the best losing one" in text
    assert "income (2.1, 6.6): 10 AgP for each supply center" in text
    assert "draws: none, the game ends only in a win or a concession" in text
    assert "phases: movement 1 day 12 hours, retreat 1 day, adjustment 1 day; grace after each deadline: " \
           "1 hour 30 minutes" in text
    assert "who plays what: told only at the end (ANONYMOUS)" in text
    judge.send("carol@example.org", "GET INFO")
    assert answer(reply_to(judge, "carol@example.org").body, "GET INFO") == (
        "ERROR: expected GET INFO game (or sign on first)")


def test_get_info_of_a_pirates_match(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE pp gm-secret pirates PLAYERS=4 GARNETS=2")
    judge.new_mail()
    judge.send("carol@example.org", "GET INFO pp\nWHOGAME pp")
    body = reply_to(judge, "carol@example.org").body
    assert "PLAYERS=4: 4 players in two rooms, five rounds (P1)" in body
    assert "GARNETS=2: each player starts with 2 garnets (P1, P7)" in body
    assert "0 players joined, of 4" in body
