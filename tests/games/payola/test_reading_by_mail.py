"""How the judge reads a Payola mail and answers it (issue 23 items 11, 12, 15, 16, 23, 27, 31; issue
29 item 6): order-like lines amid commands, rejected sheets summed up, a unit's type, dashes and VIA,
amounts, HISTORY and SUMMARY, GET INFO.  What the host reads alike in every game (sign-offs and
greetings, where reading stopped, durations, SIGNON's mistakes, copies, UNOBSERVE, WHOGAME) is played
on the test kind in tests/service/test_reading.py."""

from __future__ import annotations

from pathlib import Path

from tests.support.harness import Judge, start_game
from tests.support.people import ALICE, BOB, GM
from tests.support.replies import answer, info_lines, reply_to

FRANCE = "SIGNON FRANCE@g1 alice-pw\n"


# -- 23.11: a sign-off after the last command ------------------------------------------------------


def test_unknown_words_amid_commands_are_unknown_commands_without_the_hint_on_orders(judge: Judge) -> None:
    judge.send(ALICE, FRANCE + "Hello judge\n4 : A PAR - BUR\nA MAR - SPA")
    body = reply_to(judge, ALICE).body
    assert judge.outcome_of("Hello judge") == ("error", "UNKNOWN_COMMAND")
    # an order, by its look, keeps the hint that is true of it
    assert answer(body, "A MAR - SPA") == "ERROR: unknown command (in a movement phase units are bribed, not ordered)"


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


# -- 23.27: Payola's lines before a sign-on (read by the default kind) -------------------------------------


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
