"""What the judge publishes (issue 23: 19, 21, 25, 29, 33): the statements of rule 5.7, the start
and end mails, and the public pages, each read as the player, the master or the public reads it,
through the game service as mail."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from tests.support.harness import Judge, Sent
from tests.support.people import GM

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


def test_ebayola_statement_lists_an_offer_refunded_to_nothing_and_says_the_refund(tmp_path: Path) -> None:
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


def test_reduced_statement_says_what_the_reductions_left_and_the_savings(tmp_path: Path) -> None:
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
    assert "total spent: 36 AgP, after 12 reduction rounds" in germany


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


def test_start_mail_names_the_board_grace_list_map_and_help_and_lists_powers_in_board_order(
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
    assert "or if a power is late at the end of the grace period: 6 hours after the deadline" in body
    assert "The board is attached unless you chose SET MAPS NONE; MAP draws it again" in body
    assert "HELP sends the commands" in body
    assert list(start_mail.attachments) == ["g1-S1901M.png"]
    assert powers_listed(start_mail.body, "Powers, in the board's order:\n") == BOARD_ORDER
    assert powers_listed(mail(judge, GM, "g1 starts").body, "Powers, in the board's order:\n") == BOARD_ORDER


def test_start_mail_without_maps_points_to_map(tmp_path: Path) -> None:
    judge = start(Judge(tmp_path))
    body = " ".join(mail(judge, ALICE, "g1 starts").body.split())
    assert "MAP sends a map of the board at any time" in body


def test_the_start_mail_says_a_phase_ends_when_all_have_acted_and_without_grace_says_there_is_none(
        tmp_path: Path) -> None:
    judge = start(Judge(tmp_path))
    body = " ".join(mail(judge, ALICE, "g1 starts").body.split())
    assert ("A phase is processed as soon as every power that must act has done so (unless one asks to WAIT), "
            "else at its deadline; there is no grace period.") in body
    assert "each phase is processed at its deadline" not in body


def test_the_start_mail_writes_a_short_grace_period_in_words(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE g1 gm-secret")
    judge.send(GM, MASTER + "SET GRACE 10m")
    judge.send(ALICE, "JOIN g1 alice-pw FRANCE")
    judge.send(GM, MASTER + "START")
    body = " ".join(mail(judge, ALICE, "g1 starts").body.split())
    assert "at the end of the grace period: 10 minutes after the deadline, in which a late sheet" in body
    assert "0.166667" not in body and "hours" not in body.split("grace period")[1].split(".")[0]


# -- 23.19: the end publication --------------------------------------------------------------------------

RULES = {
    "1": "Introduction", "1.1": "Scope", "1.2": "Deviations",
    "2": "Accounts", "2.1": "Income", "2.2": "Expenditures", "2.3": "Transfers", "2.4": "Eliminated Players",
    "2.5": "Administration",
    "3": "Offer Sheets", "3.1": "Offers", "3.2": "Multiple Offers and Orders", "3.3": "Offers Required",
    "3.4": "Savings Requests", "3.5": "Commentary", "3.6": "Publication",
    "4": "Acceptance Lists", "4.1": "Acceptability of Different Currency", "4.2": "Acceptance Lists Required",
    "4.3": "Acceptance Lists Persist", "4.4": "Eliminated and Unplayed Powers", "4.5": "Publication",
    "5": "Order Determination", "5.1": "Determination by Total Bribes", "5.2": "Determination by Acceptance Rank",
    "5.3": "Determination by Sequence", "5.4": "Determination by Further Acceptance Rank",
    "5.5": "Overexpenditures", "5.6": "Balance Adjustments", "5.7": "Publication",
    "6": "Variations", "6.1": "Payola Classic", "6.2": "Application to Map Variants", "6.3": "Tin Cup Diplomacy",
    "6.4": "eBayola", "6.5": "Loyal Units", "6.6": "Alternate Income Schemes", "6.7": "Zero Sum Payola",
    "6.8": "Exchange Payola",
    "7": "Appendices", "7.1": "Annotations", "7.2": "Rules to Payola Classic", "7.3": "Thoughts On Play",
    "7.4": "Unfinished Variations",
}
"""Every rule of the Payola rules (W1995A) by number, with its title, as the rules document has them."""
SECRETS_PUBLISHED = {"2.5", "3.6", "4.4", "4.5", "5.7", "6.3"}
"""The rules that say what is secret and what is published: accounts (2.5), offers (3.6),
acceptance lists (4.4, 4.5), statements (5.7), a Tin Cup game's sight (6.3)."""
CITATION = re.compile(r"\b[Rr]ules? (\d+(?:\.\d+)?(?:(?:, |,? and |,? or |-)\d+(?:\.\d+)?)*)")
TEXTS = Path(__file__).resolve().parents[3] / "judge"


def citations() -> list[tuple[str, str, list[str]]]:
    """Each citation of a Payola rule in the judge's texts (templates, messages, docstrings):
    where, the sentence around it, and the numbers it cites.  Pirates' Proposal has rules of
    its own."""
    found = []
    for path in sorted([*TEXTS.rglob("*.py"), *TEXTS.rglob("*.j2")]):
        if "pirates" in path.parts:
            continue
        text = path.read_text("utf-8")
        for match in CITATION.finditer(text):
            start = max(text.rfind(".", 0, match.start() - 1), text.rfind("\n\n", 0, match.start()), 0)
            sentence = " ".join(text[start:match.end()].split())
            found.append((f"{path.relative_to(TEXTS)}:{text.count(chr(10), 0, match.start()) + 1}", sentence,
                          re.split(r", and |, or |, | and | or |-", match.group(1))))
    return found


def test_every_rule_the_judge_cites_exists() -> None:
    cited = citations()
    assert len(cited) > 50  # the scan finds the judge's citations
    missing = [(where, number) for where, _, numbers in cited for number in numbers if number not in RULES]
    assert not missing


def test_what_is_secret_is_cited_from_the_rules_that_say_so() -> None:
    # "offer sheets ... stay secret (rules 2.5, 3.5, 4.5)": 3.5 is Commentary, 3.6 Publication.
    wrong = [(where, sentence) for where, sentence, numbers in citations()
             if re.search(r"secret|publish", sentence.rpartition("(")[0] or sentence)
             and any(n.count(".") and n not in SECRETS_PUBLISHED and n[0] in "234" for n in numbers)]
    assert not wrong


def reveal(judge: Judge) -> Sent:
    judge.send(GM, MASTER + "REVEAL")
    code = re.search(r"to confirm, send REVEAL (\S+)", " ".join(judge.last_to(GM).body.split()))
    assert code is not None
    judge.send(GM, MASTER + f"REVEAL {code.group(1)}")
    return mail(judge, ALICE, "g1: every secret revealed")


def draw(judge: Judge) -> Sent:
    for address, signon in ((ALICE, FRANCE), (BOB, GERMANY), (CAROL, ENGLAND)):
        judge.send(address, signon + "VOTE DRAW")
    return mail(judge, ALICE, "g1 has ended")


def ebayola_spring(tmp_path: Path) -> Judge:
    """The eBayola spring of `test_ebayola_statement_lists_an_offer_refunded_to_nothing_and_says_the_refund`,
    with the players joined in another order than the board's."""
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE g1 gm-secret EBAYOLA")
    judge.send(CAROL, "JOIN g1 carol-pw ENGLAND")
    judge.send(BOB, "JOIN g1 bob-pw GERMANY")
    judge.send(ALICE, "JOIN g1 alice-pw FRANCE")
    judge.send(GM, MASTER + "START")
    judge.send(ALICE, FRANCE + "5 : A PAR - BUR\n0 : A MAR H")
    judge.send(BOB, GERMANY + "3 : A PAR - PIC")
    judge.send(CAROL, ENGLAND + "5 : A PAR - BUR")
    return judge


def test_end_chart_says_the_order_issued_and_what_each_power_paid(tmp_path: Path) -> None:
    end = " ".join(draw(ebayola_spring(tmp_path)).body.split())
    assert ("A PAR (France) issued A PAR - BUR, total 10; paid: England 4 (offered 5, eBayola gave back 1), "
            "France 0 (offered 5, eBayola gave back 5)") in end
    assert "A MAR (France) issued A MAR H, total 0; paid: France 0" in end
    assert "England: 48 AgP, spent 4 -> 44 AgP" in end


def test_dummies_lists_are_not_published_as_used(tmp_path: Path) -> None:
    end = draw(ebayola_spring(tmp_path)).body
    used = end.partition("Acceptance lists used")[2].partition("Offer sheets")[0]
    assert [line.split(":")[0].strip() for line in used.splitlines()[1:4]] == ["England", "France", "Germany"]
    assert "Austria: ACCEPT" not in end and "Russia: ACCEPT" not in end
    assert "not used: Austria, Italy, Russia, Turkey (dummies'" in used


def test_end_mail_has_a_final_supply_center_table_and_powers_in_board_order(tmp_path: Path) -> None:
    end = draw(ebayola_spring(tmp_path)).body
    assert powers_listed(end, "Who played which power:\n") == BOARD_ORDER
    assert powers_listed(end, "Final treasuries:\n") == BOARD_ORDER
    table = end.partition("Supply centers at the end (after S1901M):\n")[2]
    assert table.splitlines()[:2] == ["  Russia:     4  MOS SEV STP WAR", "  Austria:    3  BUD TRI VIE"]


def test_reveal_mid_game_does_not_headline_final_treasuries(tmp_path: Path) -> None:
    revealed = reveal(ebayola_spring(tmp_path)).body
    assert "Final treasuries" not in revealed and "at the end" not in revealed
    assert "Treasuries now (the game goes on):" in revealed and "Supply centers now (after S1901M):" in revealed


# -- 23.21: the public pages of a finished or revealed game --------------------------------------------------


def page_text(judge: Judge, *path: str) -> str:
    """A public page's text, tags dropped and spaces squeezed."""
    html = (judge.settings.data_dir / "web").joinpath(*path).read_text("utf-8")
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_after_reveal_the_pages_show_what_was_revealed_and_nothing_since(tmp_path: Path) -> None:
    judge = ebayola_spring(tmp_path)
    judge.settings = replace(judge.settings, web=True)
    reveal(judge)
    game = page_text(judge, "games", "g1", "index.html")
    assert "What the game master revealed" in game
    revealed = page_text(judge, "games", "g1", "end.html")
    assert "what the game master revealed" in revealed and "Treasuries when revealed" in revealed
    assert "5 : A PAR - BUR" in revealed and "3 : A PAR - PIC" in revealed
    assert "England 4 (offered 5, eBayola gave back 1)" in revealed
    judge.send(ALICE, FRANCE + "7 : A BUR - MUN")  # sent after the reveal: secret still
    judge.send(BOB, GERMANY + "1 : A MUN H")
    judge.send(CAROL, ENGLAND + "1 : F LON H")
    after = page_text(judge, "games", "g1", "end.html")
    assert "F1901M" not in after and "7 : A BUR - MUN" not in after and "Final treasuries" not in after


def test_the_archive_words_a_draw_as_it_words_a_win(tmp_path: Path) -> None:
    judge = ebayola_spring(tmp_path)
    judge.settings = replace(judge.settings, web=True)
    draw(judge)
    index = page_text(judge, "index.html")
    assert "g1 standard EBAYOLA F1901M" in index.partition("Finished")[2]
    assert "Draw: Austria, England, France, Germany, Italy, Russia, Turkey" in index.partition("Finished")[2]
    game = page_text(judge, "games", "g1", "index.html")
    assert "Result Draw: Austria, England, France, Germany, Italy, Russia, Turkey" in game
    assert "England carol 3 3" in game and "France alice 3 3" in game and "example.org" not in game


# -- 23.22: a Tin Cup power's maps show what it cannot see ----------------------------------------------------


def test_tin_cup_maps_fog_what_the_power_cannot_see_and_say_whose_sight(tmp_path: Path) -> None:
    """England after F LON - NTH sees round its home centers and NTH: Holland and the Norwegian
    Sea, not Moscow or Paris; empty Yorkshire, seen, is not fogged; the master's map has no fog."""
    judge = Judge(tmp_path, maps=True, maps_default="all")  # every picture: the board's SVG is read
    judge.send(GM, "CREATE g1 gm-secret standard TINCUP")
    judge.send(CAROL, "JOIN g1 carol-pw ENGLAND")
    judge.send(BOB, "JOIN g1 bob-pw GERMANY")
    judge.send(GM, MASTER + "START")
    assert list(mail(judge, CAROL, "g1 starts").attachments) == ["g1-S1901M.png"]  # England's own sight
    judge.send(CAROL, ENGLAND + "1 : F LON - NTH")
    judge.send(BOB, GERMANY + "1 : F KIE - HOL")
    svg = mail(judge, CAROL, "g1 S1901M results").attachments["g1-F1901M.svg"][1].decode()
    fogged = set(re.findall(r'class="unseen" data-province="(\w+)"', svg))
    assert {"MOS", "PAR", "TUN", "BLA"} <= fogged
    assert not fogged & {"LON", "EDI", "LVP", "YOR", "WAL", "NTH", "HOL", "NWG", "CLY"}
    assert "g1 F1901M: Fall 1901 movement, as England sees it (hatched: out of sight)" in svg
    master = mail(judge, GM, "g1 S1901M chart").attachments["g1-F1901M.svg"][1].decode()
    assert 'class="unseen"' not in master and "sees it" not in master
