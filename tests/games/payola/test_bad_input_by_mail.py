"""Bad input to a Payola game by mail: each gets a clear reply and changes nothing it should not (its commands,
offers, sheets and boards).  The host's part is played on the test kind in tests/service/test_bad_input.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from judge.store.models import Submission
from tests.support.harness import Judge, raw_mail
from tests.support.people import ALICE, GM
from tests.support.replies import only_reply


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE g1 gm-secret")
    judge.send(ALICE, "JOIN g1 alice-pw FRANCE")
    judge.new_mail()
    return judge


def test_each_malformed_command_is_refused_with_the_reason_it_is_wrong_and_the_rest_is_read(judge: Judge) -> None:
    judge.send(GM, "SIGNON MASTER@g1 gm-secret\nSTART")
    judge.new_mail()
    judge.send(ALICE, "JOIN g1\nSIGNON F@g1 alice-pw\nTRANSFER lots TO ITALY\n4 ; F BRE - MAO\nA PAR - BUR\nSTART")
    only_reply(judge, ALICE)
    assert [(answer.text, answer.outcome, answer.code) for answer in judge.answers] == [
        ("JOIN g1", "error", "SYNTAX"),
        ("SIGNON F@g1 ****", "ok", None),  # read on after a malformed line
        ("TRANSFER lots TO ITALY", "error", "SYNTAX"),
        ("4 ; F BRE - MAO", "error", "BAD_OFFER"),  # read as an offer, not as a malformed amount
        ("A PAR - BUR", "error", "UNKNOWN_COMMAND"),  # in a movement phase units are bribed, not ordered
        ("START", "error", "MASTER_ONLY"),
    ]


def test_a_sheet_with_one_bad_offer_is_refused_whole_and_none_of_it_is_stored(judge: Judge) -> None:
    judge.send(GM, "SIGNON MASTER@g1 gm-secret\nSTART")
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n3 : A PAR - BUR\n2 : A XXX - YYY")
    assert judge.answer("3 : A PAR - BUR").code == "SHEET_REFUSED"
    assert judge.outcome_of("2 : A XXX - YYY") == ("error", "BAD_OFFER")
    with judge.db.transaction() as session:
        assert session.scalars(select(Submission).where(Submission.seat == "FRANCE")).all() == []
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n3 : A PAR - BUR")  # the good line alone is a sheet
    assert judge.outcome_of("3 : A PAR - BUR") == ("ok", "SHEET_ACCEPTED")
    with judge.db.transaction() as session:
        assert [row.kind for row in session.scalars(select(Submission).where(Submission.seat == "FRANCE"))] == [
            "sheet"]


def test_the_same_mail_twice_is_applied_once(judge: Judge) -> None:
    judge.send(GM, "SIGNON MASTER@g1 gm-secret\nSTART")
    judge.new_mail()
    raw = raw_mail(ALICE, "SIGNON F@g1 alice-pw\nTRANSFER 5 TO ITALY", message_id="<once@example.org>")
    assert judge.send_raw(raw) == "done"
    assert judge.send_raw(raw) == "duplicate"
    mails = judge.new_mail()
    assert [m.to for m in mails] == [ALICE], "one reply; Italy is a dummy and gets no notice"
    judge.send(ALICE, "SIGNON F@g1 alice-pw\nSTATUS")
    assert "your balance: 43 AgP" in only_reply(judge, ALICE)  # 48 - 5, not 48 - 10


def test_offer_lines_above_a_clear_are_answered_as_withdrawn_by_it(judge: Judge) -> None:
    judge.send(GM, "SIGNON MASTER@g1 gm-secret\nSTART")
    judge.new_mail()
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n2 : A PAR - BUR\n1 : A MAR H\nCLEAR\n1 : F BRE - MAO")
    mails = {m.subject: m.body for m in judge.new_mail() if m.to == ALICE}
    body = mails["Re: orders"]
    assert [(answer.outcome, answer.code) for answer in judge.answers[1:]] == [
        ("ignored", "WITHDRAWN"), ("ignored", "WITHDRAWN"), ("ok", None),  # the CLEAR
        ("ok", "SHEET_ACCEPTED")]  # the offer
    assert "> 1 : F BRE - MAO\n  OK: read as one offer of 1 AgP; direct offer for F BRE - MAO\n" in body
    results = mails["g1 S1901M results"]  # France, the only player, has submitted: the sheet below the CLEAR
    assert "France: F BRE - MAO\n" in results and "France: A PAR H\n" in results


def test_join_to_a_full_game_says_it_is_full_whatever_power_it_names(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE a1 gm-secret ancmed")  # five powers: Carthage, Egypt, Greece, Persia, Rome
    for number in range(5):
        judge.send(f"p{number}@example.org", f"JOIN a1 pw-{number}")
    judge.send(ALICE, "JOIN a1 alice-pw AUSTRIA")  # no power of this board: the game is full all the same
    assert "> JOIN a1 **** AUSTRIA\n  ERROR: the game is full\n" in judge.last_to(ALICE).body
