"""The judge's email policy (`judge.mail.headers.DEFAULT`) reads and writes headers as `email.policy.default`
does, making each header name's class once."""

from __future__ import annotations

from email import policy
from email.message import EmailMessage

import pytest

from judge.mail.headers import DEFAULT

HEADERS = [
    ("Subject", "Re: orders for g1 S1901M"),
    ("Subject", "=?utf-8?q?Comte_d=C3=A9chu?="),
    ("To", "Alice <alice@example.org>, bob@example.org"),
    ("From", '"Zoë, the GM" <gm@example.org>'),
    ("Content-Type", 'text/plain; charset="utf-8"; format=flowed'),
    ("Message-ID", "<1@judge.example.org>"),
    ("Date", "Mon, 05 Jan 2026 12:00:00 +0000"),
    ("X-Payola-Judge", "yes"),
]


@pytest.mark.parametrize(("name", "value"), HEADERS)
def test_a_header_reads_and_writes_as_under_the_email_packages_default_policy(name: str, value: str) -> None:
    ours, theirs = DEFAULT.header_fetch_parse(name, value), policy.default.header_fetch_parse(name, value)
    assert (str(ours), ours.defects, type(ours).__mro__[1:]) == (str(theirs), theirs.defects, type(theirs).__mro__[1:])
    mine, standard = EmailMessage(policy=DEFAULT), EmailMessage(policy=policy.default)
    mine[name] = standard[name] = value
    assert mine.as_bytes() == standard.as_bytes()


def test_each_header_names_class_is_made_once_whatever_its_case() -> None:
    assert DEFAULT.header_factory["Subject"] is DEFAULT.header_factory["SUBJECT"]
    assert type(DEFAULT.header_fetch_parse("To", "a@example.org")) is type(DEFAULT.header_fetch_parse("to", "b@x.org"))
    assert policy.default.header_factory["Subject"] is not policy.default.header_factory["Subject"]  # why it exists
