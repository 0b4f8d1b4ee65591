"""Outbound mail: the judge's answers as RFC 5322 messages, and a Maildir to drop them in.

Every message is marked as machine-made (``Auto-Submitted``, RFC 3834) and carries the loop
header, so that neither other robots nor the judge itself answer it.  Delivery is left to
whatever picks the messages up from the Maildir (a sendmail wrapper, a test, a demo).
"""

from __future__ import annotations

import mailbox
import os
import re
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path

LOOP_HEADER = "X-Payola-Judge"


def build_message(
    *,
    sender: str,
    to: str,
    subject: str,
    body: str,
    domain: str,
    message_id: str | None = None,
    in_reply_to: str | None = None,
    date: datetime | None = None,
    reply: bool = False,
) -> bytes:
    """A text/plain UTF-8 message from the judge, as bytes with ``\\n`` line endings.

    ``date`` defaults to now (a naive one is taken as UTC); ``message_id`` to a fresh one in
    ``domain``.  ``reply`` marks an answer to a player's mail (``auto-replied``) rather than
    mail the judge sends on its own (``auto-generated``).  Line breaks in the subject become
    spaces; addresses with line breaks are refused (ValueError), as header injection would be.
    """
    when = date or datetime.now(UTC)
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    msg = EmailMessage(policy=policy.default)
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = " ".join(subject.split())
    msg["Date"] = format_datetime(when)
    msg["Message-ID"] = _angle(message_id) if message_id else make_msgid(domain=domain)
    if in_reply_to:
        msg["In-Reply-To"] = _angle(in_reply_to)
        msg["References"] = _angle(in_reply_to)
    msg["Auto-Submitted"] = "auto-replied" if reply else "auto-generated"
    msg[LOOP_HEADER] = domain
    msg.set_content(body, subtype="plain", charset="utf-8")
    return msg.as_bytes(policy=policy.default)


def _angle(message_id: str) -> str:
    """A message id in angle brackets, as the headers want it."""
    message_id = message_id.strip()
    return message_id if message_id.startswith("<") else f"<{message_id}>"


class MaildirOutbox:
    """Outgoing messages as files in a Maildir, each written atomically (tmp/, then new/)."""

    def __init__(self, path: Path) -> None:
        """Open the Maildir at ``path``, creating it (and cur/new/tmp) if missing."""
        self.path = Path(path)
        self.path.mkdir(mode=0o700, parents=True, exist_ok=True)
        for sub in ("cur", "new", "tmp"):
            (self.path / sub).mkdir(mode=0o700, exist_ok=True)
        self._box = mailbox.Maildir(self.path, factory=None, create=True)

    def deliver(self, message: bytes) -> str:
        """Add ``message`` to new/; returns its Maildir key."""
        return self._box.add(message)

    def messages(self) -> list[bytes]:
        """Every message in new/ and cur/, oldest first (file mtime, then key) — for tests and demos."""
        found: list[tuple[int, list[str | int], Path]] = []
        for sub in ("new", "cur"):
            with os.scandir(self.path / sub) as entries:
                for entry in entries:
                    if entry.name.startswith(".") or not entry.is_file():
                        continue
                    key = entry.name.split(self._box.colon)[0]
                    found.append((entry.stat().st_mtime_ns, _natural(key), Path(entry.path)))
        found.sort(key=lambda item: (item[0], item[1]))
        return [path.read_bytes() for _, _, path in found]


def _natural(key: str) -> list[str | int]:
    """A sort key reading the digit runs of a Maildir key as numbers (its counters are not padded)."""
    return [int(token) if token.isdigit() else token for token in re.split(r"(\d+)", key)]
