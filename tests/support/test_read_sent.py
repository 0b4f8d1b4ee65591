"""The tests' reader of the judge's mail (`tests.support.harness.read_sent`) reads what the email package reads:
the To, the Subject and the text a mail client shows, whatever the mail carries, without parsing the maps."""

from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage

import pytest

from judge.mail.outbound import Attachment, build_message
from tests.support.flowed import meant
from tests.support.harness import read_sent

MAP = Attachment("g1-S1901M.png", "image/png", bytes(range(256)) * 400)


def _package(raw: bytes) -> tuple[str, str, str]:
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    text = message.get_body(preferencelist=("plain",))
    return str(message["To"]), str(message["Subject"]), meant(text.get_content()) if text is not None else ""


def _judges(to: str, subject: str, body: str, attachments: tuple[Attachment, ...]) -> bytes:
    return build_message(sender="Judge <judge@payola.example>", to=to, subject=subject, body=body,
                         domain="payola.example", message_id="<m1@payola.example>", attachments=attachments)


def _attachment_first() -> bytes:
    message = EmailMessage()
    message["To"], message["Subject"] = "alice@example.org", "a map first"
    message.make_mixed()
    picture = EmailMessage()
    picture.set_content(MAP.data, maintype="image", subtype="png", filename="map.png")
    text = EmailMessage()
    text.set_content("the text comes second\n")
    message.attach(picture)
    message.attach(text)
    return message.as_bytes()


def _with_preamble() -> bytes:
    message = EmailMessage()
    message["To"], message["Subject"] = "alice@example.org", "a preamble"
    message.set_content("the text after a preamble\n")
    message.add_attachment(MAP.data, maintype="image", subtype="png", filename="map.png")
    message.preamble = "This is a multi-part message in MIME format."
    return message.as_bytes()


@pytest.mark.parametrize("raw", [
    _judges("alice@example.org", "g1 S1901M results", "Spring 1901 results\nA PAR - BUR succeeds\n", ()),
    _judges("alice@example.org", "g1 S1901M results", "A PAR - BUR succeeds\n", (MAP,)),
    _judges("zoë@example.org", "g1 S1901M résultats", "l'unité a été délogée = " + "é" * 90 + "\n", (MAP, MAP)),
    _judges("Alice <alice@example.org>", "a long subject " * 10, "a paragraph that flows " * 20 + "\n", (MAP,)),
    _attachment_first(),
    _with_preamble(),
], ids=["text", "a map", "french with two maps", "long subject, flowed", "attachment first", "preamble"])
def test_a_mail_reads_as_the_email_package_reads_it(raw: bytes) -> None:
    sent = read_sent(raw)
    assert (sent.to, sent.subject, sent.body) == _package(raw)
    assert sent.body
