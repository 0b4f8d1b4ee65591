"""No robot can draw the judge into a mail loop (issue 22.7): mail that says it is automatic is
never answered, a mail with no command is answered once a day per address, and an address gets
at most ``max_replies_per_hour`` answers in an hour; the judge's own mail says it is bulk."""

from __future__ import annotations

import itertools
import logging
from pathlib import Path

import pytest
from sqlalchemy import func, select

from judge.store.models import InboundMail, Submission
from tests.support.auction import auction_judge, start_auction
from tests.support.harness import MX, Judge, Sent, raw_mail

ROBOT = "robot@example.net"
ROUNDS = 200
_ids = itertools.count(1)


def answer_of(mail: Sent, text: str) -> bytes:
    """What an auto-responder that ignores RFC 3834 sends back: no Auto-Submitted, no Precedence."""
    return raw_mail(ROBOT, text, subject=f"Re: {mail.subject}", message_id=f"<robot{next(_ids)}@example.net>",
                    headers={"In-Reply-To": mail.headers["Message-ID"]})


def converse(judge: Judge, text: str) -> int:
    """A forged mail from the robot starts it; the robot answers every judge mail it gets with
    ``text``, for ROUNDS rounds at most; how many mails the judge sent it."""
    judge.send(ROBOT, "HELP")  # the forgery that starts it
    answered = 0
    for _ in range(ROUNDS):
        mails = [mail for mail in judge.new_mail() if mail.to == ROBOT]
        if not mails:
            break
        answered += len(mails)
        for mail in mails:
            assert judge.send_raw(answer_of(mail, text)) == "done"  # applied, answered or not
    return answered + len([mail for mail in judge.new_mail() if mail.to == ROBOT])


def test_an_auto_responder_without_rfc_3834_headers_stops_getting_answers(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    sent = converse(judge, "I am out of the office until Monday.\nYour mail will be read on my return.")
    assert sent == 2  # the answer to the forgery, and one to the first "out of office" of the day
    judge.later(25)  # a day later the robot's next mail is answered once more, and that is all
    judge.send_raw(answer_of(judge.last_to(ROBOT), "I am out of the office until Monday."))
    judge.send_raw(answer_of(judge.last_to(ROBOT), "I am out of the office until Monday."))
    assert len([mail for mail in judge.new_mail() if mail.to == ROBOT]) == 1


def test_a_responder_that_repeats_a_command_gets_at_most_the_hourly_answers(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="judge")
    judge = Judge(tmp_path)
    assert judge.settings.max_replies_per_hour == 30
    sent = converse(judge, "I am away; my assistant sends you this list:\nLIST")
    assert sent == 30
    assert "the last of the 30 answers the judge gives your address in an hour" in judge.last_to(ROBOT).body
    assert len([r for r in caplog.records if "answers this hour" in r.getMessage()]) == 1  # logged once
    with judge.db.transaction() as session:
        assert session.scalar(select(func.count()).select_from(InboundMail).where(
            InboundMail.status == "done")) == 31  # the forgery and 30 answers: every one applied


def received_from(ip: str) -> dict[str, str]:
    """The judge's MTA's Received: line for mail from a client at ``ip`` (the harness's MTA)."""
    return {"Received": f"from client.example (client.example [{ip}]) by {MX} with ESMTP; Mon, 5 Jan 2026 "
                        "12:00:00 +0000"}


def test_mail_over_the_hourly_limit_is_applied_but_not_answered(tmp_path: Path) -> None:
    judge = start_auction(auction_judge(tmp_path, max_replies_per_hour=3))
    for _ in range(3):
        judge.send("alice@example.org", "LIST g1")
    assert "answers the judge gives your address in an hour" in judge.last_to("alice@example.org").body
    judge.new_mail()
    assert judge.send("alice@example.org", "SIGNON Alice@g1 wrong-pw\nLIST") == "done"
    assert judge.new_mail() == []
    judge.later(1)
    judge.send("alice@example.org", "LIST g1")
    assert "g1" in judge.last_to("alice@example.org").body  # answered again


def test_a_players_signed_on_mail_is_answered_whatever_the_hours_count(tmp_path: Path) -> None:
    """A mail that signs on to a seat registered at the address it is answered at is its
    owner's: it is always answered, and counts against nothing (no robot signs on)."""
    judge = start_auction(auction_judge(tmp_path, max_replies_per_hour=3))
    for _ in range(3):
        judge.send("alice@example.org", "LIST g1")
    judge.new_mail()
    assert judge.send("alice@example.org", "SIGNON Alice@g1 alice-pw\nBID 3") == "done"
    assert "OK" in judge.last_to("alice@example.org").body
    with judge.db.transaction() as session:
        assert session.scalar(select(func.count()).select_from(Submission)) == 1  # the bid was stored
    for _ in range(5):
        judge.send("alice@example.org", "SIGNON Alice@g1 alice-pw\nSTATUS")
        assert "your bid: 3" in judge.new_mail()[-1].body


def test_forged_mail_cannot_spend_a_players_answers(tmp_path: Path) -> None:
    """30 mails with the player's From and wrong sign-ons use up the answers to mail that did not
    sign on; the player's own mail is still answered, a refused bid told."""
    judge = start_auction(auction_judge(tmp_path))
    for _ in range(judge.settings.max_replies_per_hour + 5):
        judge.send("alice@example.org", "SIGNON Alice@g1 guess\nSTATUS", headers=received_from("203.0.113.66"))
    judge.new_mail()
    judge.send("alice@example.org", "SIGNON Alice@g1 alice-pw\nBID lots", headers=received_from("198.51.100.7"))
    reply = judge.new_mail()
    assert [mail.to for mail in reply] == ["alice@example.org"] and "ERROR" in reply[0].body


def test_forged_mail_cannot_keep_the_terminate_code_from_the_game_master(tmp_path: Path) -> None:
    judge = start_auction(auction_judge(tmp_path))
    for _ in range(judge.settings.max_replies_per_hour + 5):
        judge.send("gm@example.org", "SIGNON MASTER@g1 guess\nSTATUS", headers=received_from("203.0.113.66"))
    assert judge.terminate("gm@example.org", "SIGNON MASTER@g1 gm-secret") == "done"
    assert "the game master ended the game" in judge.last_to("alice@example.org").body


@pytest.mark.parametrize("header", ["X-Autoreply: yes", "X-Autorespond: Away", "Precedence: auto_reply"])
def test_an_auto_reply_header_makes_a_mail_automatic_never_answered(tmp_path: Path, header: str) -> None:
    judge = Judge(tmp_path)
    name, _, value = header.partition(": ")
    assert judge.send(ROBOT, "HELP", headers={name: value}) == "automatic"
    assert judge.new_mail() == []


def test_the_judges_mail_says_it_is_bulk(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(ROBOT, "HELP")
    assert judge.last_to(ROBOT).headers["Precedence"] == "bulk"
