"""``judge demo``: a judge on a temporary data directory, and a scripted game played against it
by real SMTP on loopback, so a newcomer sees the whole thing work in one command.

The host runs the judge (`demo_judge`) and hands it, as a `DemoJudge`, to the script of the kind
of game asked for (`GameKind.demo`): ``judge demo`` plays Payola's (``--blind``: one phase of a
Tin Cup game), ``judge demo --pirates`` a short match of Pirates' Proposal.  A script sends the
players' and the game master's mail with `DemoJudge.send`, answers the judge's request to confirm
an address as real players do the first time they ask for a game's mail (`DemoJudge.confirm`),
waits for the judge's mail (`DemoJudge.wait_for`) and prints what a newcomer needs to see.  The
host then says how many mails the judge sent, and where they are only if they were kept."""

from __future__ import annotations

import asyncio
import email
import email.policy
import shutil
import smtplib
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path

from judge.games import DEFAULT, kind_named
from judge.mail.outbound import MaildirOutbox
from judge.service.config import Settings
from judge.service.daemon import Daemon


@dataclass(frozen=True)
class DemoJudge:
    """A judge running for a demo: its SMTP port on loopback and its settings (its Maildir)."""

    port: int
    settings: Settings

    def send(self, sender: str, body: str) -> None:
        """Mail ``body`` from ``sender`` to the judge."""
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = sender, "judge@localhost", "demo"
        message.set_content(body)
        with smtplib.SMTP("127.0.0.1", self.port, timeout=30) as client:
            client.send_message(message)

    def mails(self) -> list[EmailMessage]:
        """Every mail the judge has sent, oldest first."""
        found = []
        for raw in MaildirOutbox(self.settings.maildir).messages():
            message = email.message_from_bytes(raw, policy=email.policy.default)
            assert isinstance(message, EmailMessage)
            found.append(message)
        return found

    def wait_for(self, subject: str, to: str | None = None, timeout: float = 60.0) -> EmailMessage:
        """The judge's mail with ``subject`` (to ``to``), once it has sent it."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for message in self.mails():
                if message["Subject"] == subject and to in (None, message["To"]):
                    return message
            time.sleep(0.2)
        raise TimeoutError(f"no mail '{subject}' after {timeout:g} s")

    def answer(self, sender: str, body: str, timeout: float = 60.0) -> EmailMessage:
        """Mail ``body`` from ``sender`` and return the judge's answer to it (the next mail to
        ``sender`` that answers one)."""
        before = len([m for m in self.mails() if m["To"] == sender])
        self.send(sender, body)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for message in [m for m in self.mails() if m["To"] == sender][before:]:
                if str(message["Subject"]).startswith("Re:"):
                    return message
            time.sleep(0.2)
        raise TimeoutError(f"no answer to {sender} after {timeout:g} s")

    def confirm(self, address: str, timeout: float = 60.0) -> None:
        """Answer with ``CONFIRM token`` the mail that asks ``address`` to confirm it wants game mail."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for message in self.mails():
                if str(message["Subject"]).startswith("Please confirm:") and message["To"] == address:
                    token = next(line for line in text_of(message).splitlines() if line.startswith("CONFIRM "))
                    self.send(address, token)
                    return
            time.sleep(0.2)
        raise TimeoutError(f"no request to confirm {address} after {timeout:g} s")


def text_of(message: EmailMessage) -> str:
    """The text of a mail the judge sent (the first part when maps are attached)."""
    body = message.get_body(preferencelist=("plain",))
    return str(body.get_content()) if body is not None else ""


def show(message: EmailMessage) -> None:
    """Print a mail's subject and text, indented, as a newcomer reads it."""
    print(f"    Subject: {message['Subject']}\n\n    " + text_of(message).strip().replace("\n", "\n    "))


@contextmanager
def demo_judge(keep: bool = False) -> Iterator[DemoJudge]:
    """A judge on a temporary data directory, listening on a free port of loopback, for as long as
    the ``with`` lasts; then stopped, and its directory removed unless ``keep``."""
    data = Path(tempfile.mkdtemp(prefix="judge-demo-"))
    settings = Settings(data_dir=data, port=0, tick_seconds=2)
    loop = asyncio.new_event_loop()
    daemon = Daemon(settings)
    thread = threading.Thread(target=loop.run_until_complete, args=(daemon.run(),), daemon=True)
    thread.start()
    while daemon.port is None:
        time.sleep(0.05)
    print(f"A judge is listening on 127.0.0.1:{daemon.port} (data in {data}).")
    try:
        yield DemoJudge(daemon.port, settings)
    finally:
        loop.call_soon_threadsafe(daemon.stop.set)
        thread.join(timeout=30)
        if not keep:
            shutil.rmtree(data, ignore_errors=True)


def run_demo(keep: bool = False, blind: bool = False, kind: str = DEFAULT) -> int:
    """``judge demo``: the script of ``kind`` (``blind``: its variant for hidden boards) against a
    judge of its own; the judge's mail is kept only with ``keep``, and the end says so (issue 23.35:
    it never names a Maildir it has just removed)."""
    with demo_judge(keep) as judge:
        kind_named(kind).demo(judge, blind=blind)
        sent = len(judge.mails())
    if keep:
        print(f"The judge sent {sent} mails; they are in the Maildir {judge.settings.maildir}/new.")
    else:
        print(f"The judge sent {sent} mails; its temporary data directory is removed: run the demo again with "
              "--keep to look at them.")
    return 0
