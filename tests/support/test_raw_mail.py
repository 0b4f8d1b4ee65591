"""The mails the tests send (`tests.support.harness.raw_mail`) are the bytes the email package writes for them,
whether written by hand (plain ASCII or UTF-8 text, short lines, plain fields) or by the package."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from email.message import EmailMessage

from tests.support.harness import _plain_mail, mail_fields, raw_mail

SENDERS = ("alice@example.org", "Alice <alice@example.org>", '"Smith, A" <a@b.example>', "a+tag@EXAMPLE.org")
BODIES = ("", "x", "SIGNON F@g1 alice-pw\n1 : A PAR - BUR\n", "héllo\n", "x" * 78, "x" * 79, "é" * 39, "é" * 40,
          "a\r\nb\rc\n", "a\n\n\nb", " lead\ttab \n", "From here\n", "\x00\n", "=?utf-8?q?x?=\n")
SUBJECTS = ("orders", "", "Re: orders", "two  spaces", " leading", "=?utf-8?q?x?=", "é", "s" * 69, "s" * 70)
HEADERS: tuple[dict[str, str], ...] = (
    {}, {"To": "gm@example.org"}, {"Reply-To": "b@example.org"}, {"Cc": "Carol <c@example.org>"},
    {"Authentication-Results": "mx.test; dmarc=pass header.from=example.org"},
    {"Date": "Mon, 05 Jan 2026 12:00:00 +0000"}, {"In-Reply-To": "<a@b>"}, {"X-Spaced": "a  b"})
MESSAGE_IDS = ("<m1@example.org>", "no-angles", "<a b@example.org>")


def _package(sender: str, body: str, subject: str, headers: dict[str, str], message_id: str) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = headers.get("To", "judge@localhost")
    message["Subject"] = subject
    message["Message-ID"] = message_id
    for name, value in headers.items():
        if name != "To":
            message[name] = value
    message.set_content(body)
    return message.as_bytes()


def _cases() -> Iterator[tuple[str, str, str, dict[str, str], str]]:
    """Each sender with each text, each subject with each set of fields, each Message-ID with each text; the
    others at their first value."""
    sender, body, subject, headers, message_id = SENDERS[0], BODIES[2], SUBJECTS[0], HEADERS[0], MESSAGE_IDS[0]
    for a_sender, a_body in itertools.product(SENDERS, BODIES):
        yield a_sender, a_body, subject, headers, message_id
    for a_subject, some in itertools.product(SUBJECTS, HEADERS):
        yield sender, body, a_subject, some, message_id
    for an_id, a_body in itertools.product(MESSAGE_IDS, BODIES):
        yield sender, a_body, subject, headers, an_id


def test_every_mail_a_test_sends_is_the_email_packages_bytes_for_it() -> None:
    written_by_hand = 0
    for sender, body, subject, headers, message_id in _cases():
        written_by_hand += _plain_mail(mail_fields(sender, subject, headers, message_id), body) is not None
        wanted = _package(sender, body, subject, headers, message_id)
        assert raw_mail(sender, body, subject, headers, message_id) == wanted, (sender, body, subject, headers)
    assert written_by_hand > 40  # the cases written by hand were compared too, not only the package's


def test_a_plain_mail_of_orders_is_written_by_hand() -> None:
    fields = {"From": "alice@example.org", "To": "judge@localhost", "Subject": "orders",
              "Message-ID": "<test1@example.org>",
              "Authentication-Results": "mx.test; dmarc=pass header.from=example.org"}
    assert _plain_mail(fields, "SIGNON F@g1 alice-pw\n2 : A PAR - BUR\n") is not None
    assert _plain_mail(fields, "SIGNON F@g1 alice-pw\nprès\n") is not None
