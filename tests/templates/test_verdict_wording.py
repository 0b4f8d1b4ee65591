"""The words of the judge's verdicts on a player's lines, as a real mail gets them: the one place they are asserted.

The tests of behaviour assert what the judge made of a line (`tests.support.harness.Answer`: outcome and code);
these assert what a player reads, for the verdicts players meet most: a refused sign-on, a refused offer sheet, a
draw vote in a NO_DRAW game, and a Machiavelli letter line that names no area; and for the answers whose words the
tests of behaviour stopped asserting when they turned to codes (docs/decisions/test-suite-moves.md): UNOBSERVE's
two, a sign-off, refused orders, a player's line sent before any sign-on, and the usages of TRANSFER and JOIN.  Each
golden file under golden/ is the reply as it should read, written by hand: the line quoted, its outcome as a word,
the reason in the rules' terms and the rule's number where there is one.  A rewording changes the golden file with
the words, and fails nothing else.
"""

from __future__ import annotations

from pathlib import Path

from tests.games.payola.by_mail import teleport
from tests.support.harness import Judge, start_game
from tests.support.people import ALICE, CAROL, GM, OBSERVER

GOLDEN = Path(__file__).parent / "golden"


def golden(name: str) -> str:
    return (GOLDEN / name).read_text("utf-8")


def test_a_refused_sign_on_quotes_its_line_masked_and_says_nothing_was_applied_nor_what_was_wrong(
        tmp_path: Path) -> None:
    judge = start_game(Judge(tmp_path), "g1")
    judge.send(ALICE, "SIGNON F@g1 wrong-pw\n3 : A PAR - BUR")
    assert judge.last_to(ALICE).body == golden("signon_refused.txt")


def test_a_refused_offer_sheet_names_the_bad_line_and_says_the_others_were_not_applied(tmp_path: Path) -> None:
    judge = start_game(Judge(tmp_path), "g1")
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n3 : A PAR - BUR\n2 : A XXX - YYY")
    assert judge.last_to(ALICE).body == golden("sheet_refused.txt")


def test_a_draw_vote_in_a_no_draw_game_is_refused_naming_the_option(tmp_path: Path) -> None:
    judge = start_game(Judge(tmp_path), "g1", "NO_DRAW")
    judge.send(ALICE, "SIGNON F@g1 alice-pw\nVOTE DRAW")
    assert judge.last_to(ALICE).body == golden("no_draw.txt")


def test_a_letter_line_naming_no_area_is_not_read_and_a_mail_of_such_lines_is_no_letter(tmp_path: Path) -> None:
    judge = start_game(Judge(tmp_path), "m1", "machiavelli", ((ALICE, "Venice"),))
    judge.send(ALICE, "SIGNON Venice@m1 alice-pw\npay A xyz")
    assert judge.last_to(ALICE).body == golden("letter_not_read.txt")


def test_unobserve_of_a_game_not_observed_says_there_is_nothing_to_stop_at_that_address(tmp_path: Path) -> None:
    judge = start_game(Judge(tmp_path), "g1")
    judge.send(OBSERVER, "UNOBSERVE g1")
    assert judge.last_to(OBSERVER).body == golden("not_observing.txt")


def test_unobserve_of_an_observed_game_says_its_results_stop(tmp_path: Path) -> None:
    judge = start_game(Judge(tmp_path), "g1")
    judge.send(OBSERVER, "OBSERVE g1")
    judge.send(OBSERVER, "UNOBSERVE g1")
    assert judge.last_to(OBSERVER).body == golden("unobserved.txt")


def test_a_short_sign_off_after_a_sheet_is_ignored_line_by_line_saying_so(tmp_path: Path) -> None:
    judge = start_game(Judge(tmp_path), "g1")
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n4 : A PAR - BUR\n\nThanks!\nAlice")
    assert judge.last_to(ALICE).body == golden("sign_off.txt")


def test_refused_orders_say_the_good_ones_were_not_applied_and_what_orders_stand(tmp_path: Path) -> None:
    judge = start_game(Judge(tmp_path), "g1")  # France to retreat two armies; MAR's attacker came from GAS
    teleport(judge, {"phase": "S1901R", "units": {"FRANCE": ["A PAR"], "GERMANY": ["A PIC", "A MAR"]},
                     "centers": {"FRANCE": ["PAR"], "GERMANY": ["MUN"]},
                     "dislodged": {"FRANCE": [{"unit": "A PIC", "attacker_from": "BUR"},
                                              {"unit": "A MAR", "attacker_from": "GAS"}]}})
    judge.send(ALICE, "SIGNON F@g1 alice-pw\nA PIC - BEL\nA MAR - GAS")
    assert judge.last_to(ALICE).body == golden("orders_refused.txt")


def test_an_offer_before_any_sign_on_says_to_sign_on_first_and_such_a_mail_holds_no_command(tmp_path: Path) -> None:
    judge = start_game(Judge(tmp_path), "g1")
    judge.send(ALICE, "3 : A PAR - BUR")
    assert judge.last_to(ALICE).body == golden("sign_on_first.txt")


def test_a_transfer_without_to_is_answered_with_its_usage(tmp_path: Path) -> None:
    judge = start_game(Judge(tmp_path), "g1")
    judge.send(ALICE, "SIGNON F@g1 alice-pw\nTRANSFER 5 GERMANY")
    assert judge.last_to(ALICE).body == golden("transfer_usage.txt")


def test_a_join_without_a_password_is_answered_with_its_usage(tmp_path: Path) -> None:
    """g1 is no game: the usage names what every kind of game may ask after the password."""
    judge = Judge(tmp_path)
    judge.send(CAROL, "JOIN g1")
    assert judge.last_to(CAROL).body == golden("join_usage.txt")


def test_a_join_naming_a_pirates_game_is_answered_with_that_games_usage_a_name(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE pp gm-pw pirates PLAYERS=4")
    judge.send(CAROL, "JOIN pp")
    assert judge.last_to(CAROL).body == golden("join_usage_pirates.txt")


def test_a_join_preferring_nothing_in_a_machiavelli_game_is_answered_with_its_usage_in_countries(
        tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE m1 gm-pw machiavelli")
    judge.send(CAROL, "JOIN m1 carol-pw PREFER")
    assert judge.last_to(CAROL).body == golden("join_usage_machiavelli.txt")
