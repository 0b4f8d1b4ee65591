"""Mail the judge's MTA held while the judge was down, delivered once it is back, in any order:
what the tests of mail order (its acceptance, not its arrival, decides) send."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from typing import NamedTuple

from tests.support.harness import Answer, Judge, raw_mail

MTA = "mx.example.net"
"""The judge's MTA, whose Received: line says when it accepted a mail (the judge's ``mta_hostname``)."""


def held_mail(sender: str, body: str, accepted: datetime, subject: str = "orders") -> bytes:
    """A mail as the judge's MTA delivers it once the judge is back: its Received: line (when the
    MTA took it) on top; its Date, the sender's clock, a day later than that and going backwards."""
    line = (f"Received: from client.example (client.example [198.51.100.7])\r\n\tby {MTA} (Postfix) with ESMTP id "
            f"4F2A;\r\n\t{format_datetime(accepted.replace(tzinfo=UTC))}\r\n").encode()
    dated = format_datetime((datetime(2026, 1, 7) - (accepted - datetime(2026, 1, 5))).replace(tzinfo=UTC))
    return line + raw_mail(sender, body, subject=subject, headers={"Date": dated})


class Delivered(NamedTuple):
    """The judge's reply to a mail, and what it made of each of the mail's lines."""

    body: str
    answers: list[Answer]

    def codes(self, line: str | None = None) -> set[tuple[str, str | None]]:
        """The outcomes and codes of the mail's lines (of those that are ``line``, if given)."""
        return {(a.outcome, a.code) for a in self.answers if line is None or a.text == line}


def deliver(judge: Judge, mails: list[tuple[str, str]], order: list[int],
            held: timedelta = timedelta(minutes=10), subject: str = "orders") -> list[Delivered]:
    """Deliver the numbered mails (sender, body; accepted a minute apart from ``held`` ago on)
    in ``order``; the judge's answers to them, in the same order."""
    first = judge.now - held
    answers = []
    for number in order:
        sender, body = mails[number - 1]
        judge.send_raw(held_mail(sender, body, first + timedelta(minutes=number), subject))
        answers.append(Delivered(judge.last_to(sender).body, list(judge.answers)))
    return answers
