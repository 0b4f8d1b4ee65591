"""Bad input by mail: each gets a clear reply (or none, for automatic mail) and changes nothing it should not.
Played on the test kind's auction g1 (`tests.support.auction`), forming with Alice and Bob joined; its lots
last 24 hours."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.kinds.auction.kind import Auction
from tests.support.auction import auction_judge
from tests.support.harness import Judge, raw_mail
from tests.support.people import ALICE, BOB, GM
from tests.support.replies import only_reply


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    judge = auction_judge(tmp_path)
    judge.send(GM, "CREATE g1 gm-secret auction")
    judge.send(ALICE, "JOIN g1 alice-pw Alice")
    judge.send(BOB, "JOIN g1 bob-pw Bob")
    judge.new_mail()
    return judge


def test_wrong_password_gets_one_short_refusal_and_nothing_is_applied(judge: Judge) -> None:
    judge.send(GM, "JOIN g1 gm-player Gina\nSIGNON MASTER@g1 not-the-password\nSTART")
    body = only_reply(judge, GM)
    assert judge.outcome_of("SIGNON MASTER@g1 ****") == ("error", "SIGNON_REFUSED")
    assert body.count("\n> ") == 0  # one short refusal: nothing else of the mail is answered
    judge.send(ALICE, "LIST g1")
    assert "2 players joined" in only_reply(judge, ALICE)  # the JOIN before the bad sign-on was undone


def test_unknown_game(judge: Judge) -> None:
    judge.send(ALICE, "LIST nogame\nJOIN nogame pw")
    only_reply(judge, ALICE)
    assert judge.outcome_of("LIST nogame") == judge.outcome_of("JOIN nogame ****") == ("error", "NO_SUCH_GAME")
    judge.send(ALICE, "SIGNON Alice@nogame pw")
    only_reply(judge, ALICE)
    assert judge.outcome_of("SIGNON Alice@nogame ****") == ("error", "SIGNON_REFUSED")  # as for a wrong password


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


@pytest.mark.parametrize("header", [("Auto-Submitted", "auto-replied"), ("Precedence", "bulk"),
                                    ("X-Payola-Judge", "localhost")])
def test_automatic_mail_is_recorded_but_never_answered(judge: Judge, header: tuple[str, str]) -> None:
    assert judge.send(ALICE, "LIST", headers=dict([header])) == "automatic"
    assert judge.new_mail() == []


def test_an_internal_error_gets_an_apology_not_a_traceback(judge: Judge, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(Auction, "start", broken)
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
    judge.send(BOB, "SIGNON Bob@g1 bob-pw\nBID 5")
    judge.new_mail()
    judge.later(23 - 15)  # 15 hours before the 24-hour deadline: too early for a reminder
    assert judge.process("g1").startswith("g1 L1 is not due")
    assert judge.new_mail() == []
    judge.later(5)  # 10 hours before: within the reminder window, half of a phase shorter than two days
    assert judge.process("g1").endswith("notices sent to Alice")
    judge.process("g1")
    reminders = judge.new_mail()
    assert [(m.to, m.subject) for m in reminders] == [(ALICE, "g1 L1 reminder")]
    judge.later(11)  # past the deadline, inside the 12-hour grace period
    assert judge.process("g1").endswith("notices sent to Alice")
    late = judge.new_mail()
    assert [m.subject for m in late] == ["g1 L1 late"]
    assert "before 2026-01-07 00:00 UTC" in late[0].body  # the grace's end: the deadline (01-06 12:00) and 12 hours
    judge.later(12)
    assert judge.process("g1").startswith("g1 L1 processed")
