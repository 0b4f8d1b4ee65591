"""A judge on a temporary data directory, fed raw mails the way `judge inject` feeds them."""

from __future__ import annotations

import email
import email.policy
import itertools
import os
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, make_url, text

from judge.mail.outbound import MaildirOutbox
from judge.service.app import inject, open_database, process_game
from judge.service.config import Settings
from judge.service.sender import deliver_pending, transport_for

_ids = itertools.count(1)


@dataclass(frozen=True)
class Sent:
    """A mail the judge sent, as read back from the Maildir: its text, and its attachments by name."""

    to: str
    subject: str
    body: str
    headers: dict[str, str]
    attachments: dict[str, tuple[str, bytes]]  # filename -> (content type, bytes)


def raw_mail(sender: str, body: str, subject: str = "orders", headers: dict[str, str] | None = None,
             message_id: str | None = None) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = "judge@localhost"
    message["Subject"] = subject
    message["Message-ID"] = message_id or f"<test{next(_ids)}@example.org>"
    for name, value in (headers or {}).items():
        message[name] = value
    message.set_content(body)
    return message.as_bytes()


def fresh_database_url() -> str | None:
    """With JUDGE_TEST_DATABASE_URL set (a PostgreSQL server), a new empty database on it."""
    base = os.environ.get("JUDGE_TEST_DATABASE_URL")
    if not base:
        return None
    name = f"judge_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return make_url(base).set(database=name).render_as_string(hide_password=False)


class Judge:
    """A judge on ``data_dir``.  Maps and public pages are off unless asked for (``maps=True``,
    ``web=True``): drawing them is what the tests of maps and pages are for, and it is slow."""

    def __init__(self, data_dir: Path, now: datetime = datetime(2026, 1, 5, 12, 0), **settings: Any) -> None:
        settings = {"maps": False, "web": False, **settings}
        self.settings = Settings(data_dir=data_dir, database=fresh_database_url(), **settings)
        self.db = open_database(self.settings)
        self.now = now
        self.read = 0
        self._parsed: dict[bytes, Sent] = {}  # a mail read back once: those with maps are big

    def send(self, sender: str, body: str, **kwargs: object) -> str:
        return self.send_raw(raw_mail(sender, body, **kwargs))  # type: ignore[arg-type]

    def send_raw(self, raw: bytes) -> str:
        status = inject(self.db, self.settings, raw, self.now)
        deliver_pending(self.db, self.settings, transport_for(self.settings), self.now)
        return status

    def later(self, hours: float) -> None:
        self.now += timedelta(hours=hours)

    def process(self, game: str, force: bool = False) -> str:
        summary = process_game(self.db, self.settings, game, self.now, force=force)
        deliver_pending(self.db, self.settings, transport_for(self.settings), self.now)
        return summary

    def all_mail(self) -> list[Sent]:
        found = []
        for raw in MaildirOutbox(self.settings.maildir).messages():
            if raw in self._parsed:
                found.append(self._parsed[raw])
                continue
            message = email.message_from_bytes(raw, policy=email.policy.default)
            assert isinstance(message, EmailMessage)
            text = message.get_body(preferencelist=("plain",))
            body = text.get_content() if text is not None else ""
            files = {str(part.get_filename()): (part.get_content_type(), part.get_payload(decode=True))
                     for part in message.iter_attachments()}
            self._parsed[raw] = Sent(str(message["To"]), str(message["Subject"]), str(body),
                                     {k: str(v) for k, v in message.items()}, files)
            found.append(self._parsed[raw])
        return found

    def new_mail(self) -> list[Sent]:
        """Mails sent since the last call."""
        mails = self.all_mail()
        fresh = mails[self.read:]
        self.read = len(mails)
        return fresh

    def last_to(self, address: str) -> Sent:
        return [m for m in self.all_mail() if m.to == address][-1]


def two_player_game(judge: Judge) -> Judge:
    """``judge`` with game g1 created by gm@example.org (password gm-secret) and started with
    alice@example.org as France (alice-pw) and bob@example.org as Germany (bob-pw); the mail
    so far is read."""
    judge.send("gm@example.org", "CREATE g1 gm-secret")
    judge.send("alice@example.org", "JOIN g1 alice-pw FRANCE")
    judge.send("bob@example.org", "JOIN g1 bob-pw GERMANY")
    judge.send("gm@example.org", "SIGNON MASTER@g1 gm-secret\nSTART")
    judge.new_mail()
    return judge
