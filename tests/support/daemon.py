"""`judge serve`'s daemon on its own event loop in a thread, on a virtual clock, for the tests of the
daemon over real SMTP on loopback; and the subjects of what it sent, read from its Maildir."""

from __future__ import annotations

import asyncio
import email
import email.parser
import email.policy
import smtplib
import sys
import threading
import traceback
from concurrent.futures import Future
from email.message import EmailMessage
from typing import Any

import pytest
from sqlalchemy import select

from judge.bootstrap import kinds
from judge.mail.outbound import MaildirOutbox
from judge.service.config import Settings
from judge.service.hosting.kinds import Kinds
from judge.service.running.daemon import Daemon
from judge.store.models import Outbox
from tests.support.clock import Clock
from tests.support.harness import tokens
from tests.support.wait import wait_until

STOP_SECONDS = 60  # beyond the 30 s the daemon gives its applier process to end


class Running:
    """A daemon on its own event loop in a thread, stopped cleanly at the end (`stop`)."""

    def __init__(self, settings: Settings, clock: Clock, hosted: Kinds | None = None) -> None:
        """``hosted``: the kinds of game the daemon hosts (by default the judge's own)."""
        self.settings = settings
        self.loop = asyncio.new_event_loop()
        self.daemon = Daemon(settings, hosted or kinds(), clock)
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self.daemon.run(),), daemon=True)
        self.thread.start()
        wait_until(lambda: self.daemon.port is not None, "the daemon to listen")
        assert self.daemon.port is not None
        self.port: int = self.daemon.port

    def send(self, sender: str, body: str, to: str = "judge@localhost", subject: str = "orders", **kwargs: Any) -> None:
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = sender, to, subject
        message.set_content(body)
        with smtplib.SMTP("127.0.0.1", self.port, timeout=10) as client:
            client.send_message(message, **kwargs)

    def confirm(self, address: str) -> None:
        """Answer the judge's request to confirm ``address`` (`harness.tokens`), once it comes."""
        wait_until(lambda: bool(tokens(self.daemon.db, address)), f"a confirmation request to {address}")
        self.send(address, f"CONFIRM {tokens(self.daemon.db, address)[-1]}", subject="confirm")

    def settled(self) -> None:
        """Return once this daemon has done what it had to with the mail stored and queued before (`settled`);
        a mail still waiting for its maps (`drawn`) is passed over by the sender, and may come after."""
        settled(self.port, self.settings)

    def drawn(self) -> bool:
        """Whether no mail of this daemon waits for its maps to be drawn: wait for it before `settled` where a
        results mail must be in the Maildir by then (on a loaded machine the barrier's answer overtakes it)."""
        with self.daemon.db.transaction() as session:
            return session.scalar(select(Outbox.id).where(Outbox.status == "drawing").limit(1)) is None

    def tick(self) -> None:
        """Have the daemon tick now, and return at once."""
        self.loop.call_soon_threadsafe(self.daemon.deadline_clock.tick_now.set)

    def sweep(self) -> None:
        """Have the daemon's sender go through the outbox now, as it does every `SENDER_PERIOD` seconds of real
        time when nothing wakes it, and return at once: a test that moved the clock past a retry's time
        need not wait out the period."""
        self.loop.call_soon_threadsafe(self.daemon.sender.outbox_waiting.set)

    def ticked(self) -> None:
        """Have the daemon tick now, and return once a tick begun after this call has ended: the games due by
        then have been run and their changes committed (their mail may still be on its way)."""
        clock = self.daemon.deadline_clock
        asked: Future[int] = Future()

        def ask() -> None:  # on the loop, so that a tick begun after it is numbered above what it reads
            clock.tick_now.set()
            asked.set_result(clock.begun)

        self.loop.call_soon_threadsafe(ask)
        before = asked.result(timeout=STOP_SECONDS)
        wait_until(lambda: clock.ended > before, "a tick to run the deadlines due")

    def stop(self) -> None:
        """Stop the daemon; if it has not stopped in time, fail with what each thread is doing."""
        self.loop.call_soon_threadsafe(self.daemon.stop.set)
        self.thread.join(timeout=STOP_SECONDS)
        if self.thread.is_alive():
            applier = self.daemon.applier
            frames = sys._current_frames()
            stacks = "\n".join(f"--- {thread.name}\n{''.join(traceback.format_stack(frames[thread.ident]))}"
                               for thread in threading.enumerate() if thread.ident in frames)
            pytest.fail(f"the daemon did not stop in {STOP_SECONDS} s; applier alive: "
                        f"{applier is not None and applier.process.is_alive()}\n{stacks}")


def settled(port: int, settings: Settings) -> None:
    """Return once the judge listening on ``port`` has done whatever it had to do with the mail it had stored
    and the mail it had queued: a HELP sent now (subject "barrier") is applied after the mail stored before
    it, and its answer sent after the mail queued before it, so once that answer is in the Maildir, anything
    the judge was going to apply or send again would be there too.  Instead of sleeping and hoping."""
    before = maildir_subjects(settings).count("Re: barrier")
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "barrier@example.org", "judge@localhost", "barrier"
    message.set_content("HELP")
    with smtplib.SMTP("127.0.0.1", port, timeout=10) as client:
        client.send_message(message)
    wait_until(lambda: maildir_subjects(settings).count("Re: barrier") > before, "the barrier's answer")


_HEADERS = email.parser.BytesHeaderParser(policy=email.policy.default)  # a mail's headers alone
_SUBJECTS: dict[tuple[str, int], str] = {}
"""Each Maildir file's subject, by path and inode: a file delivered is never written again, and the tests wait
for a subject by reading them all again and again (parsing every whole mail each time was 3% of the suite)."""


def maildir_subjects(settings: Settings) -> list[str]:
    """The subject of every mail in the Maildir of the judge of ``settings``, oldest first."""
    subjects = []
    for path in MaildirOutbox(settings.maildir).files():
        key = (str(path), path.stat().st_ino)
        if key not in _SUBJECTS:
            _SUBJECTS[key] = str(_HEADERS.parsebytes(path.read_bytes())["Subject"])
        subjects.append(_SUBJECTS[key])
    return subjects

