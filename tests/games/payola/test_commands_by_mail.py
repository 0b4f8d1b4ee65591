"""Payola's commands by mail, one behaviour each: acceptance lists, offer sheets, CLEAR, a power's
initial at SIGNON, ZEROSUM's money, victory.  The host's commands are played on the test kind
(tests/service/test_commands.py)."""

from __future__ import annotations

from pathlib import Path

from tests.support.harness import Judge, start_game
from tests.support.people import GM

ALICE, BOB = "alice@example.org", "bob@example.org"


def test_list_shows_who_submitted_but_never_what(judge: Judge) -> None:
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n7 : A PAR - BUR")
    judge.send("stranger@example.org", "LIST g1")
    body = judge.new_mail()[-1].body
    assert "France: played, submitted" in body and "Germany: played, waiting" in body and "Italy: dummy" in body
    assert "A PAR" not in body and "7 :" not in body


def test_accept_persists_and_status_shows_the_sheet_in_force(judge: Judge) -> None:
    judge.send(ALICE, "SIGNON F@g1 alice-pw\nACCEPT FG?\n3 : A PAR - BUR\n2 $")
    judge.send(ALICE, "SIGNON F@g1 alice-pw\nACCEPT FFG\nSTATUS")
    body = judge.new_mail()[-1].body
    assert judge.outcome_of("ACCEPT FFG") == ("error", "BAD_LIST")  # F twice
    assert "your acceptance list: FG?" in body and "3 : A PAR - BUR" in body and "2 $" in body


def test_a_sheet_with_a_bad_line_is_rejected_whole_and_the_old_one_stays(judge: Judge) -> None:
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n3 : A PAR - BUR")
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n4 : A MAR - SPA\n5 : A PAR - XXX\nSTATUS")
    body = judge.new_mail()[-1].body
    assert judge.outcome_of("4 : A MAR - SPA") == ("ignored", "SHEET_REFUSED")
    assert judge.outcome_of("5 : A PAR - XXX") == ("error", "BAD_OFFER")
    assert "your current sheet/orders:\n    3 : A PAR - BUR" in body


def test_rule_6_7_zero_sum_game_money(tmp_path: Path) -> None:
    """Start: 10 AgP per center, no tax income; at the end of the Fall turn the bribes paid to a
    power's units are deposited to it, and a first capture of a neutral center earns 10."""
    judge = start_game(Judge(tmp_path), "z1", "ZEROSUM")
    start = next(m for m in judge.new_mail() if m.subject == "z1 starts" and m.to == ALICE)
    assert "Your balance: 30 AgP" in start.body
    # Germany bribes France's army into Burgundy (4 AgP); France moves its fleet towards Belgium.
    judge.send(BOB, "SIGNON G@z1 bob-pw\n4 : A PAR - BUR\n0 : F KIE - HOL")
    judge.send(ALICE, "SIGNON F@z1 alice-pw\n1 : F BRE - PIC")
    judge.send(BOB, "SIGNON G@z1 bob-pw\n0 : F HOL H")
    judge.send(ALICE, "SIGNON F@z1 alice-pw\n1 : F PIC - BEL")
    judge.send(ALICE, "SIGNON F@z1 alice-pw\nSTATUS")
    status = judge.new_mail()[-1].body
    # France: 30 - 1 - 1 (own bribes) + 4 + 1 + 1 (paid to its units this year) + 10 (first capture of BEL)
    assert "your balance: 44 AgP" in status
    judge.send(BOB, "SIGNON G@z1 bob-pw\nSTATUS")
    # Germany: 30 - 4 + 0 + 10 (first capture of HOL)
    assert "your balance: 36 AgP" in judge.new_mail()[-1].body


def test_signon_with_the_powers_initial(judge: Judge) -> None:
    judge.send(ALICE, "signon Fg1 alice-pw\nstatus")
    body = judge.new_mail()[-1].body
    assert judge.outcome_of("signon Fg1 ****") == ("ok", None) and "your balance: 48 AgP" in body


def test_victory_at_eighteen_centers_ends_the_game_and_publishes_everything(judge: Judge) -> None:
    from sqlalchemy import select

    from judge.engine.notation import position_from_data, position_to_data
    from judge.service.hosting import host as lifecycle
    from judge.store.models import Game

    french = ["BEL", "BRE", "MAR", "PAR", "POR", "SPA", "LON", "LVP", "EDI", "HOL", "DEN", "KIE", "MUN", "TUN",
              "NWY", "NAP", "ROM"]
    with judge.db.transaction() as session:  # a Fall with France at 17 centers, one move from an 18th
        game = session.scalar(select(Game).where(Game.name == "g1"))
        assert game is not None
        row = lifecycle.current_phase(session, game)
        assert row is not None
        position, _ = position_from_data({
            "phase": "F1905M", "units": {"FRANCE": ["A NWY", "A FIN", "F SKA"], "GERMANY": ["A SWE"]},
            "centers": {"FRANCE": french, "GERMANY": ["SWE", "BER"]}})
        row.name, row.position, game.phase = "F1905M", position_to_data(position), "F1905M"
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n3 : A NWY - SWE\n3 : A FIN S A NWY - SWE\n3 : F SKA S A NWY - SWE")
    judge.send(BOB, "SIGNON G@g1 bob-pw\n1 : A SWE H")  # both sent: processed at once
    judge.send(BOB, "SIGNON G@g1 bob-pw\nA SWE D")  # the only retreat: processed at once
    mails = judge.new_mail()
    results = next(m for m in mails if m.subject == "g1 F1905R results" and m.to == ALICE)
    assert "France has won the game." in results.body
    ended = [m for m in mails if m.subject == "g1 has ended"]
    assert {m.to for m in ended} == {ALICE, BOB, GM}
    assert "France has won with 18 supply centers" in ended[0].body and "3 : A NWY - SWE" in ended[0].body
    with judge.db.transaction() as session:
        game = session.scalar(select(Game).where(Game.name == "g1"))
        assert game is not None and (game.state, game.winner) == ("finished", "FRANCE")


def test_clear_withdraws_the_sheet_so_the_phase_waits_again(judge: Judge) -> None:
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n3 : A PAR - BUR\nCLEAR")
    judge.send(BOB, "SIGNON G@g1 bob-pw\n2 : A MUN - RUH")
    assert not [m for m in judge.new_mail() if m.subject == "g1 S1901M results"]  # France has nothing in
    judge.send("x@example.org", "LIST g1")
    assert "France: played, waiting" in judge.new_mail()[-1].body
