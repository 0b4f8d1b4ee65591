"""A Payola game a community can run: every action reported, the game master's tools, no reading traps.
The host's side (ROLLBACK, announcements, WAIT, press, reminders) is played on the test kind in
tests/service/test_game_service.py.

One test per behaviour, through the game service as mail (``judge inject``'s path).  Positions
that take years to reach by play (civil disorder, a retreat with nowhere to go) are set up by
writing the phase's position directly, as a game master's database would hold it.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from tests.games.payola.by_mail import ENGLAND, FRANCE, GERMANY, play_spring, start, teleport, to
from tests.support.harness import Judge
from tests.support.people import ALICE, BOB, CAROL, GM


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    return start(Judge(tmp_path))


# -- everything the judge does by itself is in the results --------------------------------------------


def test_civil_disorder_removal_appears_in_the_results_of_the_power_concerned(judge: Judge) -> None:
    teleport(judge, {"phase": "W1901A",
                     "units": {"FRANCE": ["A PAR", "A BUR", "F BRE", "A PIC"], "GERMANY": ["A MUN"],
                               "ENGLAND": ["F LON"]},
                     "centers": {"FRANCE": ["PAR", "BRE"], "GERMANY": ["MUN", "BER", "KIE", "MAR"],
                                 "ENGLAND": ["LON", "EDI", "LVP"]}})
    judge.send(ALICE, FRANCE + "REMOVE A PIC")  # France owes two removals and orders one
    mails = judge.new_mail()
    assert "WARNING: 2 removals are due and you ordered 1: the judge will remove the rest" in to(mails, ALICE)[0].body
    judge.later(49)
    judge.process("g1")
    results = to(judge.new_mail(), ALICE)[0].body
    # Of A PAR, A BUR and F BRE, A BUR is the farthest from France's centers PAR and BRE (1 step,
    # the others 0): it goes.
    assert "France A BUR was removed in civil disorder: too few removals were ordered" in results
    assert "France: 2 centers, 2 units: A PAR, F BRE" in results


def test_unordered_retreat_disband_appears_in_the_results(judge: Judge) -> None:
    teleport(judge, {"phase": "S1901R",
                     "units": {"FRANCE": ["A PAR"], "GERMANY": ["A BUR", "A MUN"], "ENGLAND": ["F LON"]},
                     "centers": {"FRANCE": ["PAR"], "GERMANY": ["MUN"], "ENGLAND": ["LON"]},
                     "dislodged": {"FRANCE": [{"unit": "A PIC", "attacker_from": "BUR"}]}})
    judge.later(49)
    judge.process("g1")
    mails = judge.new_mail()
    for address in (ALICE, BOB, CAROL):
        assert "France A PIC was disbanded: no retreat was ordered for it" in to(mails, address)[0].body


def test_the_results_mail_lists_every_unit_on_the_board(judge: Judge) -> None:
    play_spring(judge)
    results = next(m for m in to(judge.new_mail(), CAROL) if m.subject == "g1 S1901M results").body
    board = results.split("The board for F1901M:", 1)[1]
    for line in ("Austria: 3 centers, 3 units: A BUD, A VIE, F TRI",
                 "England: 3 centers, 3 units: A LVP, F EDI, F NTH",
                 "France: 3 centers, 3 units: A BUR, A MAR, F BRE",
                 "Germany: 3 centers, 3 units: A BER, A RUH, F KIE",
                 "Italy: 3 centers, 3 units: A ROM, A VEN, F NAP",
                 "Russia: 4 centers, 4 units: A MOS, A WAR, F SEV, F STP/SC",
                 "Turkey: 3 centers, 3 units: A CON, A SMY, F ANK",
                 "unowned (12): BEL BUL DEN GRE HOL NWY POR RUM SER SPA SWE TUN"):
        assert line in board, line
    assert "Austria sent no offer sheet" not in results  # a dummy power's units are not its player's doing


def test_each_power_is_told_its_own_balance_changes_since_its_last_statement(judge: Judge) -> None:
    judge.send(ALICE, FRANCE + "TRANSFER 5 TO GERMANY")
    play_spring(judge)
    mails = judge.new_mail()
    france = to(mails, ALICE)[-1].body
    assert "   -5 AgP  transfer: to Germany" in france and "   -2 AgP  paid: bribes accepted in S1901M" in france
    assert "your balance: 41 AgP" in france
    germany = to(mails, BOB)[-1].body
    assert "   +5 AgP  transfer: from France" in germany and "your balance: 51 AgP" in germany
    assert "to Germany" not in germany and "from France" not in to(mails, CAROL)[-1].body


# -- orders checked when they arrive ------------------------------------------------------------------


def test_a_duplicate_retreat_order_is_refused_at_submission(judge: Judge) -> None:
    teleport(judge, {"phase": "S1901R",
                     "units": {"FRANCE": ["A PAR"], "GERMANY": ["A BUR", "A MUN"], "ENGLAND": ["F LON"]},
                     "centers": {"FRANCE": ["PAR"], "GERMANY": ["MUN"], "ENGLAND": ["LON"]},
                     "dislodged": {"FRANCE": [{"unit": "A PIC", "attacker_from": "BUR"}]}})
    judge.send(ALICE, FRANCE + "A PIC - BEL\nA PIC - BRE")
    body = judge.last_to(ALICE).body
    assert "> A PIC - BRE\n  ERROR: A PIC already has an order in this mail (A PIC - BEL)" in body
    assert judge.outcome_of("A PIC - BEL") == ("ignored", "ORDERS_REFUSED")


def test_builds_are_checked_together_and_unused_ones_are_warned_of(judge: Judge) -> None:
    teleport(judge, {"phase": "W1901A",
                     "units": {"FRANCE": ["A BUR"], "GERMANY": ["A MUN"], "ENGLAND": ["F LON"]},
                     "centers": {"FRANCE": ["PAR", "BRE", "MAR"], "GERMANY": ["MUN", "BER"], "ENGLAND": ["LON"]}})
    judge.send(ALICE, FRANCE + "BUILD A BRE\nBUILD F BRE")
    assert "> BUILD F BRE\n  ERROR: a second build in BRE" in judge.last_to(ALICE).body
    judge.send(ALICE, FRANCE + "BUILD A PAR")
    assert "WARNING: you may build 2 and ordered 1: the rest will be waived" in judge.last_to(ALICE).body


def test_a_power_owed_builds_with_no_free_home_center_is_not_waited_for(judge: Judge) -> None:
    teleport(judge, {"phase": "W1901A",
                     "units": {"FRANCE": ["A PAR", "F BRE", "A MAR"], "GERMANY": ["A MUN", "A BUR"],
                               "ENGLAND": ["F LON"]},
                     "centers": {"FRANCE": ["PAR", "BRE", "MAR", "SPA"], "GERMANY": ["MUN", "BER", "KIE"],
                                 "ENGLAND": ["LON"]}})
    judge.send(GM, "LIST g1")
    listing = judge.last_to(GM).body
    assert "France: played, nothing to order" in listing and "England: played, nothing to order" in listing
    assert "Germany: played, waiting" in listing
    judge.send(BOB, GERMANY + "BUILD A BER")  # the last power that must act: processed now
    assert any(m.subject == "g1 W1901A results" for m in judge.new_mail())


# -- announcements and the game master's tools ---------------------------------------------------------


def test_list_of_a_paused_game_shows_who_has_submitted(judge: Judge) -> None:
    judge.send(ALICE, FRANCE + "2 : A PAR - BUR")
    judge.send(GM, "SIGNON MASTER@g1 gm-secret\nPAUSE\nLIST g1")
    body = judge.last_to(GM).body
    assert "France: played, submitted" in body and "Germany: played, waiting" in body
    assert "A PAR - BUR" not in body


def test_status_after_a_sheet_in_the_same_mail_shows_that_sheet(judge: Judge) -> None:
    judge.send(ALICE, FRANCE + "STATUS\n3 : A PAR - PIC\n1 : A MAR - SPA")
    body = judge.last_to(ALICE).body
    status = body.split("> STATUS", 1)[1]
    assert "3 : A PAR - PIC" in status and "1 : A MAR - SPA" in status
    assert "The board for S1901M:" in status and "France: 3 centers, 3 units: A MAR, A PAR, F BRE" in status


def test_the_chart_shows_savings_expanded_lists_accounts_and_rounds(judge: Judge) -> None:
    judge.send(ALICE, FRANCE + "ACCEPT FGEAIRT\n10 $\n40 : A PAR - BUR")
    judge.send(BOB, GERMANY + "TRANSFER 3 TO ENGLAND\n2 : A MUN - RUH")
    judge.send(CAROL, ENGLAND + "1 : F LON - NTH")
    chart = next(m for m in judge.new_mail() if m.subject == "g1 S1901M chart").body
    # France: 48, saves 10, so 38 to spend: 40 is reduced twice, to 38.
    assert "France: 48 AgP, saves 10, spent 38 -> 10 AgP, 2 reduction rounds, list FGEAIRT" in chart
    assert "Austria: 48 AgP, saves 0, spent 0 -> 48 AgP, list A" in chart and "no sheet" in chart
    assert "Germany: 45 AgP, saves 0, spent 2 -> 43 AgP" in chart
    assert "England: 50 AgP now; +3 transfer: from Germany; -1 paid: bribes accepted in S1901M" in chart


# -- what is read, and how --------------------------------------------------------------------------


def test_an_outlook_style_unquoted_reply_adds_no_offers(judge: Judge) -> None:
    judge.send(ALICE, FRANCE + "2 : A PAR - BUR")
    old = judge.last_to(ALICE).body
    judge.send(ALICE, FRANCE + "3 : A MAR - SPA\n\n-----Original Message-----\nFrom: judge@localhost\n"
                               "Sent: Monday\nSubject: Re: orders\n\n" + old.replace("> ", ""))
    body = judge.last_to(ALICE).body
    assert "offer sheet accepted: 1 offer," in body
    assert "Reading stopped at '-----Original Message-----'" in body
    judge.send(ALICE, FRANCE + "STATUS")
    status = judge.last_to(ALICE).body
    assert "3 : A MAR - SPA" in status and "A PAR - BUR" not in status.split("your current sheet", 1)[1].split(
        "The board", 1)[0]


def test_each_offer_line_is_echoed_with_how_it_was_read(judge: Judge) -> None:
    judge.send(ALICE, FRANCE + "% my plan\n3*2#1 + 1 > A PAR - BUR | - PIC\n5 ! A MUN - RUH\n10 $ % rainy day")
    body = judge.last_to(ALICE).body
    assert "my plan" not in body  # a comment line is accepted silently (rule 3.5)
    assert ("> 3*2#1 + 1 > A PAR - BUR | - PIC\n  OK: read as three offers of 2 AgP (plateau 1) and one of 1 AgP; "
            "move offer for A PAR - BUR or A PAR - PIC, or any other move") in body
    assert "OK: read as one offer of 5 AgP; negative offer: paid if the unit issues any order but A MUN - RUH" in body
    assert "> 10 $ % rainy day\n  OK: read as a savings request of 10 AgP" in body


def test_savings_above_the_balance_are_warned_of(judge: Judge) -> None:
    judge.send(ALICE, FRANCE + "60 $\n2 : A PAR - BUR")
    assert "WARNING: you ask to save 60 AgP but your balance is 48 AgP: you will spend nothing" in \
        judge.last_to(ALICE).body


def test_help_teaches_the_offer_notation(judge: Judge) -> None:
    judge.send(ALICE, "HELP ALL")
    _, data = judge.last_to(ALICE).attachments["help.txt"]
    body = data.decode()
    for example in ("4 : A LON - YOR", "4 ! A LON - YOR", "4 > A LON - YOR", "4 @ A LON H", "4 & A LON - YOR",
                    "3*2 : A LON - YOR", "10#4 : A LON - YOR", "10# : A LON - YOR", "5 + 2*3#1 : A LON - YOR",
                    "4 : F LON - ENG | - NTH | H", "10 $", "% a note", "EBAYOLA", "WAIT", "PRESS TO M"):
        assert example in body, example


# -- maps -----------------------------------------------------------------------------------------------


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_the_results_mail_carries_the_maps_of_the_phase(judge: Judge) -> None:
    judge.settings = replace(judge.settings, maps=True)
    judge.send(ALICE, "SET MAPS ALL")  # every picture: SET MAPS's own tests are in test_set_maps_by_mail
    play_spring(judge)
    results = next(m for m in judge.new_mail() if m.to == ALICE and m.subject == "g1 S1901M results")
    assert set(results.attachments) == {"g1-S1901M-orders.png", "g1-F1901M.png", "g1-F1901M.svg"}
    kind, data = results.attachments["g1-S1901M-orders.png"]
    assert kind == "image/png" and png_size(data)[0] == 1200
    kind, svg = results.attachments["g1-F1901M.svg"]
    assert kind == "image/svg+xml" and b'data-location="BUR"' in svg  # France's army now in Burgundy


def test_a_judge_without_maps_sends_none(judge: Judge) -> None:
    play_spring(judge)
    results = next(m for m in judge.new_mail() if m.to == ALICE and m.subject == "g1 S1901M results")
    assert results.attachments == {}


def test_the_public_pages_follow_every_change(judge: Judge) -> None:
    judge.settings = replace(judge.settings, web=True)
    play_spring(judge)
    pages = judge.settings.data_dir / "web" / "games" / "g1"
    assert (pages / "S1901M.html").exists() and "A PAR - BUR" in (pages / "S1901M.html").read_text()
    judge.later(49)
    judge.process("g1")  # a deadline, not a mail
    assert (pages / "F1901M.html").exists()


def test_map_sends_the_current_board(judge: Judge) -> None:
    judge.send(ALICE, FRANCE + "MAP")
    reply = judge.last_to(ALICE)
    assert "OK: the map of S1901M is attached" in reply.body
    assert png_size(reply.attachments["g1-S1901M.png"][1])[0] == 1200


def test_a_waived_build_is_not_reported_as_unused(judge: Judge) -> None:
    teleport(judge, {"phase": "W1901A",
                     "units": {"FRANCE": ["A BUR"], "GERMANY": ["A MUN"], "ENGLAND": ["F LON"]},
                     "centers": {"FRANCE": ["PAR", "BRE", "MAR"], "GERMANY": ["MUN", "BER"], "ENGLAND": ["LON"]}})
    judge.send(ALICE, FRANCE + "BUILD A PAR\nWAIVE")
    judge.send(BOB, GERMANY + "WAIVE")
    results = next(m for m in judge.new_mail() if m.to == ALICE and m.subject == "g1 W1901A results").body
    assert "France: BUILD A PAR" in results and "France: WAIVE" in results
    assert "did not use" not in results
