"""The inbound SMTP handler (aiosmtpd): accept mail for the judge only, store it, then say 250.

It knows nothing of games.  ``accepts`` says which recipient addresses are the judge's (any
other gets 550: never an open relay); ``store`` must have committed the raw message before it
returns, because the 250 tells the sender the mail is safe.  Any failure of ``store`` answers
451 (try again later): a 5xx would make the sender give up on a mail that was never stored.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger("judge")


class InboundHandler:
    """An aiosmtpd handler object (``handle_RCPT``, ``handle_DATA``)."""

    def __init__(self, accepts: Callable[[str], bool], store: Callable[[bytes, str], Awaitable[None]]) -> None:
        self.accepts = accepts
        self.store = store

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, rcpt_options: list[str]) -> str:
        if not self.accepts(address):
            log.info("refused recipient %s from %s", address, session.peer)
            return f"550 5.1.1 <{address}>: no such user here (this is not a relay)"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        raw = envelope.original_content or envelope.content
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        try:
            await self.store(raw, envelope.mail_from or "")
        except Exception:
            log.exception("could not store mail from %s", envelope.mail_from)
            return "451 4.3.0 Temporary failure storing the message; please try again later"
        return "250 OK: stored"


def judge_addresses(domain: str) -> Callable[[str], bool]:
    """The recipient test for ``judge@domain`` (any case)."""
    wanted = f"judge@{domain}".lower()

    def accepts(address: str) -> bool:
        return address.strip().strip("<>").lower() == wanted

    return accepts
