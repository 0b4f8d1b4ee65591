"""The headers and bodies of the judge's mail: a From with a display name, References with the
whole thread, 7-bit bodies whatever the text, and a relay given as an IPv6 literal."""

from __future__ import annotations

import email
import email.policy
from datetime import datetime
from email.message import EmailMessage
from pathlib import Path

import pytest

from judge.mail.outbound import MAX_REFERENCES, MaildirOutbox, build_message
from judge.service.config import Settings
from judge.service.outgoing.outbox import message_of, queue
from judge.service.outgoing.sender import deliver_pending, transport_for
from judge.service.running.app import inject
from judge.store.models import Outbox
from tests.support.harness import Judge, raw_mail
from tests.support.relay import Relay


def parsed(raw: bytes) -> EmailMessage:
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    return message


def test_from_carries_the_judges_name_which_a_setting_changes(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send("fred@example.org", "HELP")
    assert judge.last_to("fred@example.org").headers["From"] == "The judge <judge@localhost>"
    named = Settings(data_dir=tmp_path, judge_name="Le Juge, Payola")
    with judge.db.transaction() as session:
        row = session.get(Outbox, queue(session, named, to="fred@example.org", subject="s", body="b\n", kind="notice",
                                        now=datetime(2026, 1, 5, 12, 0)))
        assert row is not None
        assert parsed(message_of(row))["From"].addresses[0].display_name == "Le Juge, Payola"


def test_an_answer_carries_the_whole_thread_in_references(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send("fred@example.org", "HELP", message_id="<third@example.org>",
               headers={"In-Reply-To": "<second@example.org>",
                        "References": "<first@example.org> <second@example.org> bad-id"})
    headers = judge.last_to("fred@example.org").headers
    assert headers["In-Reply-To"] == "<third@example.org>"
    assert headers["References"] == "<first@example.org> <second@example.org> <third@example.org>"
    judge.send("fred@example.org", "HELP", message_id="<fifth@example.org>",
               headers={"In-Reply-To": "<fourth@example.org>"})  # no References: In-Reply-To starts the thread
    assert judge.last_to("fred@example.org").headers["References"] == "<fourth@example.org> <fifth@example.org>"


def test_a_long_thread_keeps_its_first_and_latest_ids() -> None:
    ids = [f"<m{number}@example.org>" for number in range(30)]
    raw = build_message(sender="judge@x.org", to="a@x.org", subject="s", body="b\n", domain="x.org",
                        in_reply_to="<last@example.org>", references=ids)
    kept = str(parsed(raw)["References"]).split()
    assert len(kept) == MAX_REFERENCES and kept[0] == ids[0] and kept[-2:] == [ids[-1], "<last@example.org>"]


def test_bodies_are_seven_bit_whatever_the_text(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send("fred@example.org", "HELP Grüße aus Zürich \u2013 3 € " + "x" * 200)
    judge.deliver()
    [raw] = MaildirOutbox(judge.settings.maildir).messages()
    assert raw.isascii()  # a relay without 8BITMIME has nothing to convert: a DKIM signature survives
    message = parsed(raw)
    assert message["Content-Transfer-Encoding"] == "quoted-printable"
    assert "Grüße aus Zürich \u2013 3 €" in message.get_content()
    assert all(len(line) <= 78 for line in raw.splitlines())
    plain = parsed(build_message(sender="judge@x.org", to="a@x.org", subject="s", body="A PAR - BUR\n",
                                 domain="x.org"))
    assert plain["Content-Transfer-Encoding"] == "7bit"


def test_a_relay_given_as_an_ipv6_literal_is_reached(tmp_path: Path) -> None:
    try:
        relay = Relay(host="::1")
    except OSError as exc:
        pytest.skip(f"no IPv6 loopback here: {exc}")
    try:
        judge = Judge(tmp_path)
        settings = Settings(data_dir=tmp_path, database=judge.settings.database, relay=f"[::1]:{relay.port}")
        inject(judge.db, settings, raw_mail("fred@example.org", "HELP"), judge.now)
        assert deliver_pending(judge.db, settings, transport_for(settings), judge.now) == 1
        assert [envelope.rcpt_tos for envelope in relay.envelopes] == [["fred@example.org"]]
    finally:
        relay.stop()
