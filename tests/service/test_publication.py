"""What the judge publishes (issue 23: 19, 21, 25, 29, 33): the statements of rule 5.7, the start
and end mails, and the public pages, each read as the player, the master or the public reads it,
through the game service as mail."""

from __future__ import annotations

from pathlib import Path

from tests.service.harness import Judge, Sent

GM = "gm@example.org"
ALICE, BOB, CAROL = "alice@example.org", "bob@example.org", "carol@example.org"
FRANCE, GERMANY, ENGLAND = "SIGNON F@g1 alice-pw\n", "SIGNON G@g1 bob-pw\n", "SIGNON E@g1 carol-pw\n"
MASTER = "SIGNON MASTER@g1 gm-secret\n"


def start(judge: Judge, options: str = "") -> Judge:
    """Game g1 (``options`` at CREATE) with France (alice), Germany (bob) and England (carol)."""
    judge.send(GM, f"CREATE g1 gm-secret {options}".strip())
    judge.send(ALICE, "JOIN g1 alice-pw FRANCE")
    judge.send(BOB, "JOIN g1 bob-pw GERMANY")
    judge.send(CAROL, "JOIN g1 carol-pw ENGLAND")
    judge.send(GM, MASTER + "START")
    return judge


def results(judge: Judge, address: str, phase: str = "S1901M") -> str:
    mails = [m for m in judge.all_mail() if m.to == address and m.subject == f"g1 {phase} results"]
    assert len(mails) == 1
    return " ".join(mails[0].body.split())


def statement(body: str) -> str:
    """The private statement of a results mail (spaces squeezed)."""
    return body.partition("Your private statement")[2].partition("Your account")[0]


def mail(judge: Judge, address: str, subject: str) -> Sent:
    return next(m for m in judge.all_mail() if m.to == address and m.subject == subject)


# -- 23.29: statements list every accepted offer, and what it came to --------------------------------


def test_23_29_ebayola_statement_lists_an_offer_refunded_to_nothing_and_says_the_refund(tmp_path: Path) -> None:
    # A PAR is offered BUR by France (5) and England (5): 10, against Germany's 3 for PIC.  Under
    # eBayola (6.4) BUR costs one more than PIC's 3, so 4; the saving of 6 goes back in the order
    # of France's acceptance list F? (France first): France gets its 5 back and pays 0, England
    # gets 1 back and pays 4.  France's 0 : A MAR H is accepted and costs 0 (rule 5.7 item 3).
    judge = start(Judge(tmp_path), "EBAYOLA")
    judge.send(ALICE, FRANCE + "5 : A PAR - BUR\n0 : A MAR H")
    judge.send(BOB, GERMANY + "3 : A PAR - PIC")
    judge.send(CAROL, ENGLAND + "5 : A PAR - BUR")
    france = statement(results(judge, ALICE))
    assert "you paid 0 AgP for A PAR - BUR (you offered 5; eBayola gave back 5 (rule 6.4))" in france
    assert "you paid 0 AgP for A MAR H" in france and "total spent: 0 AgP" in france
    england = statement(results(judge, CAROL))
    assert "you paid 4 AgP for A PAR - BUR (you offered 5; eBayola gave back 1 (rule 6.4))" in england
    assert "total spent: 4 AgP" in england
    assert "none of your offers was accepted" in statement(results(judge, BOB))


def test_23_29_reduced_statement_says_what_the_reductions_left_and_the_savings(tmp_path: Path) -> None:
    # Germany has 48 AgP and keeps 10 (rule 3.4): it may spend 38 and offers 30 + 30 + 12 = 72.
    # After r rounds (5.5) it would pay 2*(30 - r) + max(0, 12 - r): 39 after 11 rounds, 36
    # after 12.  So 12 rounds: 18, 18 and 0; it spends 36 and keeps 12.  The F KIE - HOL offer,
    # cut to nothing, was still accepted (its fleet issued that order) and is listed at 0.
    judge = start(Judge(tmp_path))
    judge.send(ALICE, FRANCE + "1 : A PAR H")
    judge.send(CAROL, ENGLAND + "1 : F LON H")
    judge.send(BOB, GERMANY + "30 : A MUN - RUH\n30 : A BER - SIL\n12 : F KIE - HOL\n10 $")
    germany = statement(results(judge, BOB))
    assert "you paid 18 AgP for A MUN - RUH (you offered 30; the reductions left 18 (rule 5.5))" in germany
    assert "you paid 18 AgP for A BER - SIL (you offered 30; the reductions left 18 (rule 5.5))" in germany
    assert "you paid 0 AgP for F KIE - HOL (you offered 12; the reductions left 0 (rule 5.5))" in germany
    assert "savings you asked for: 10 AgP (rule 3.4)" in germany
    assert "total spent: 36 AgP, after 12 reduction round(s)" in germany


# -- 23.25: the start mail ---------------------------------------------------------------------------------


def powers_listed(body: str, heading: str) -> list[str]:
    """The powers named, in order, in the indented lines under ``heading``."""
    lines = body.partition(heading)[2].strip("\n").splitlines()
    listed = []
    for line in lines:
        if not line.startswith("  "):
            break
        listed.append(line.split(":")[0].strip())
    return listed


BOARD_ORDER = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]


def test_23_25_start_mail_names_the_board_grace_list_map_and_help_and_lists_powers_in_board_order(
        tmp_path: Path) -> None:
    judge = Judge(tmp_path, maps=True)
    judge.send(GM, "CREATE g1 gm-secret")
    judge.send(GM, MASTER + "SET GRACE 6")
    judge.send(CAROL, "JOIN g1 carol-pw GERMANY")  # joined before the others: not listed first
    judge.send(ALICE, "JOIN g1 alice-pw FRANCE")
    judge.send(BOB, "JOIN g1 bob-pw ENGLAND")
    judge.send(GM, MASTER + "START")
    start_mail = mail(judge, ALICE, "g1 starts")
    body = " ".join(start_mail.body.split())
    assert "Board: Standard: 7 powers, 34 centers, 18 to win, from S1901M." in body
    assert "Your acceptance list: F? (rule 4.2" in body and "(the board's: AEFGIRT)" in body
    assert "Grace period: 6 hours after each deadline" in body
    assert "The board is attached; MAP draws it again" in body and "HELP sends the commands" in body
    assert list(start_mail.attachments) == ["g1-S1901M.png"]
    assert powers_listed(start_mail.body, "Powers, in the board's order:\n") == BOARD_ORDER
    assert powers_listed(mail(judge, GM, "g1 starts").body, "Powers, in the board's order:\n") == BOARD_ORDER


def test_23_25_start_mail_without_maps_points_to_map(tmp_path: Path) -> None:
    judge = start(Judge(tmp_path))
    body = " ".join(mail(judge, ALICE, "g1 starts").body.split())
    assert "MAP sends a map of the board at any time" in body and "Grace period: none" in body
