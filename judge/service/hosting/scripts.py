"""What a kind's script for ``judge demo`` works with: a running judge to mail (`DemoJudge`), and
how to show a newcomer what it sent (`show`).  The host runs the judge (`judge.service.operators.demo`)."""

from __future__ import annotations

import email
import email.policy
import smtplib
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from email.message import EmailMessage

from judge.mail.flowed import unflow
from judge.mail.outbound import MaildirOutbox
from judge.service.config import Settings

POLL = 0.05  # seconds between two looks for the judge's mail: a look reads only the mails not read yet


@dataclass(frozen=True)
class _Read:
    """A mail the judge sent, with its To and Subject read once: the email package parses a header again each
    time it is asked, and a script waiting for answers asked it of every mail sent, twenty times a second."""

    message: EmailMessage
    to: str
    subject: str


@dataclass(frozen=True)
class DemoJudge:
    """A judge running for a demo: its SMTP port on loopback and its settings (its Maildir)."""

    port: int
    settings: Settings
    _read: list[_Read] = field(default_factory=list, repr=False, compare=False)  # the mails read, in order
    _files: set[str] = field(default_factory=set, repr=False, compare=False)  # their files' names: each read once

    def send(self, sender: str, body: str) -> None:
        """Mail ``body`` from ``sender`` to the judge."""
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = sender, "judge@localhost", "demo"
        message.set_content(body)
        with smtplib.SMTP("127.0.0.1", self.port, timeout=30) as client:
            client.send_message(message)

    def mails(self) -> list[EmailMessage]:
        """Every mail the judge has sent, oldest first."""
        return [read.message for read in self._sent()]

    def _sent(self) -> list[_Read]:
        """Every mail the judge has sent, oldest first, with its To and Subject."""
        for path in MaildirOutbox(self.settings.maildir).files(known=self._files):
            message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            assert isinstance(message, EmailMessage)
            self._files.add(path.name)
            self._read.append(_Read(message, str(message["To"]), str(message["Subject"])))
        return self._read

    def wait_for(self, subject: str, to: str | None = None, timeout: float = 60.0) -> EmailMessage:
        """The judge's mail with ``subject`` (to ``to``), once it has sent it."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for read in self._sent():
                if read.subject == subject and to in (None, read.to):
                    return read.message
            time.sleep(POLL)
        raise TimeoutError(f"no mail '{subject}' after {timeout:g} s")

    def answer(self, sender: str, body: str, timeout: float = 60.0) -> EmailMessage:
        """Mail ``body`` from ``sender`` and return the judge's answer to it (the next mail to
        ``sender`` that answers one)."""
        return self.answers([(sender, body)], timeout)[0]

    def answers(self, mails: Sequence[tuple[str, str]], timeout: float = 60.0) -> list[EmailMessage]:
        """Mail each ``(sender, body)`` of ``mails`` (one each from different senders), one after another without
        waiting, and return the judge's answers to them in the same order: players writing at once, as they do
        before a deadline, and a script that waits for the judge once rather than once a mail."""
        senders = [sender for sender, _ in mails]
        assert len(set(senders)) == len(senders), "one mail a sender: an answer is told apart by its recipient"
        before = {sender: sum(read.to == sender for read in self._sent()) for sender in senders}
        for sender, body in mails:
            self.send(sender, body)
        deadline = time.monotonic() + timeout
        found: dict[str, EmailMessage] = {}
        while len(found) < len(senders):
            if time.monotonic() > deadline:
                raise TimeoutError(f"no answer to {sorted(set(senders) - set(found))} after {timeout:g} s")
            time.sleep(POLL)
            sent = self._sent()
            for sender in set(senders) - set(found):
                answer = next((read for read in [read for read in sent if read.to == sender][before[sender]:]
                               if read.subject.startswith("Re:")), None)
                if answer is not None:
                    found[sender] = answer.message
        return [found[sender] for sender in senders]

    def confirm(self, address: str, timeout: float = 60.0) -> None:
        """Answer with ``CONFIRM token`` the mail that asks ``address`` to confirm it wants game mail."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for read in self._sent():
                if read.subject.startswith("Please confirm:") and read.to == address:
                    token = next(line for line in text_of(read.message).splitlines() if line.startswith("CONFIRM "))
                    self.send(address, token)
                    return
            time.sleep(POLL)
        raise TimeoutError(f"no request to confirm {address} after {timeout:g} s")


def text_of(message: EmailMessage) -> str:
    """The text of a mail the judge sent (the first part when maps are attached), as its reader shows
    it: format=flowed undone, each paragraph on one line."""
    body = message.get_body(preferencelist=("plain",))
    return unflow(str(body.get_content())) if body is not None else ""


def show(message: EmailMessage) -> None:
    """Print a mail's subject and text, indented, as a newcomer reads it."""
    print(f"    Subject: {message['Subject']}\n\n    " + text_of(message).strip().replace("\n", "\n    "))
