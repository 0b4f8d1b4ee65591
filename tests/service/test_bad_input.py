"""Bad input by mail: each gets a clear reply (or none, for automatic mail) and changes nothing it should not."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from judge.games.payola import lifecycle
from judge.store.models import Submission
from tests.support.harness import Judge, raw_mail
from tests.support.people import ALICE, GM


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE g1 gm-secret")
    judge.send(ALICE, "JOIN g1 alice-pw FRANCE")
    judge.new_mail()
    return judge


def only_reply(judge: Judge, to: str) -> str:
    mails = judge.new_mail()
    assert [m.to for m in mails] == [to], [(m.to, m.subject) for m in mails]
    return mails[0].body


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


def test_wrong_password_gets_one_short_refusal_and_nothing_is_applied(judge: Judge) -> None:
    judge.send(GM, "JOIN g1 gm-player ITALY\nSIGNON MASTER@g1 not-the-password\nSTART")
    body = only_reply(judge, GM)
    assert judge.outcome_of("SIGNON MASTER@g1 ****") == ("error", "SIGNON_REFUSED")
    assert body.count("\n> ") == 0  # one short refusal: nothing else of the mail is answered
    judge.send(ALICE, "LIST g1")
    assert "1 player joined" in only_reply(judge, ALICE)  # the JOIN before the bad sign-on was undone


def test_unknown_game(judge: Judge) -> None:
    judge.send(ALICE, "LIST nogame\nJOIN nogame pw")
    only_reply(judge, ALICE)
    assert judge.outcome_of("LIST nogame") == judge.outcome_of("JOIN nogame ****") == ("error", "NO_SUCH_GAME")
    judge.send(ALICE, "SIGNON F@nogame pw")
    only_reply(judge, ALICE)
    assert judge.outcome_of("SIGNON F@nogame ****") == ("error", "SIGNON_REFUSED")  # as for a wrong password


def test_mail_with_no_text_part(judge: Judge) -> None:
    raw = (b"From: alice@example.org\r\nTo: judge@localhost\r\nSubject: pic\r\nMessage-ID: <pic@x>\r\n"
           b"MIME-Version: 1.0\r\nContent-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n\r\niVBORw0KGgo=\r\n")
    assert judge.send_raw(raw) == "done"
    assert "no text part the judge could read" in only_reply(judge, ALICE)


def test_html_only_mail_is_read_and_the_reply_says_so(judge: Judge) -> None:
    raw = (b"From: alice@example.org\r\nTo: judge@localhost\r\nSubject: html\r\nMessage-ID: <html@x>\r\n"
           b"MIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>LIST g1</p>\r\n")
    judge.send_raw(raw)
    body = only_reply(judge, ALICE)
    assert "read its HTML part as text" in body and "state: forming" in body


def test_a_huge_mail_is_cut_and_answered(judge: Judge) -> None:
    judge.send(ALICE, "LIST g1\n" + "% filler line\n" * 50_000)
    body = only_reply(judge, ALICE)
    assert "too long: only its beginning was read" in body and "state: forming" in body


def test_non_utf8_charset(judge: Judge) -> None:
    message = raw_mail(ALICE, "placeholder").replace(b"placeholder", b"")
    raw = (b"From: alice@example.org\r\nTo: judge@localhost\r\nSubject: =?iso-8859-1?q?d=E9j=E0?=\r\n"
           b"Message-ID: <latin@x>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=iso-8859-1\r\n"
           b"Content-Transfer-Encoding: 8bit\r\n\r\nLIST g1 \r\n% d\xe9j\xe0 vu\r\n")
    assert message and judge.send_raw(raw) == "done"
    mail = judge.new_mail()[0]
    assert mail.subject == "Re: déjà" and "state: forming" in mail.body


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


@pytest.mark.parametrize("header", [("Auto-Submitted", "auto-replied"), ("Precedence", "bulk"),
                                    ("X-Payola-Judge", "localhost")])
def test_automatic_mail_is_recorded_but_never_answered(judge: Judge, header: tuple[str, str]) -> None:
    assert judge.send(ALICE, "LIST", headers=dict([header])) == "automatic"
    assert judge.new_mail() == []


def test_an_internal_error_gets_an_apology_not_a_traceback(judge: Judge, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(lifecycle, "start_game", broken)
    assert judge.send(GM, "SIGNON MASTER@g1 gm-secret\nSET PASSWORD new-secret\nSTART",
                      subject="go") == "quarantined"
    apology, notice = judge.new_mail()
    assert apology.to == notice.to == GM and apology.subject == "Re: go"
    assert "internal error" in apology.body and "Traceback" not in apology.body and "disk on fire" not in apology.body
    assert notice.subject.startswith("Mail ") and notice.subject.endswith(" quarantined")
    assert "RuntimeError: disk on fire" in notice.body and "gm-secret" not in notice.body
    judge.send(GM, "SIGNON MASTER@g1 gm-secret")  # the password change in the quarantined mail was not applied
    assert judge.outcome_of("SIGNON MASTER@g1 ****") == ("ok", None)
    judge.new_mail()
    judge.send(ALICE, "LIST g1")
    assert "state: forming" in only_reply(judge, ALICE)


def test_reminder_before_the_deadline_and_late_notice_after_it_once_each(judge: Judge) -> None:
    judge.send(GM, "SIGNON MASTER@g1 gm-secret\nSET GRACE 12\nSTART")
    judge.new_mail()
    judge.later(47 - 30)  # 30 hours before the 48-hour deadline: too early for a reminder
    assert judge.process("g1").startswith("g1 S1901M is not due")
    assert judge.new_mail() == []
    judge.later(10)  # 20 hours before: within the default 24-hour reminder window
    assert judge.process("g1").endswith("notices sent to France")
    judge.process("g1")
    reminders = judge.new_mail()
    assert [(m.to, m.subject) for m in reminders] == [(ALICE, "g1 S1901M reminder")]
    judge.later(21)  # past the deadline, inside the 12-hour grace period
    assert judge.process("g1").endswith("notices sent to France")
    late = judge.new_mail()
    assert [m.subject for m in late] == ["g1 S1901M late"] and "at the latest" in late[0].body
    judge.later(12)
    assert judge.process("g1").startswith("g1 S1901M processed")


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
