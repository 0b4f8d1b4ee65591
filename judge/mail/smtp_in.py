"""The inbound SMTP handler (aiosmtpd): accept mail for the judge only, store it, then say 250.

It knows nothing of games.  ``accepts`` says which recipient addresses are the judge's (any
other gets 550: never an open relay): ``judge@domain`` and ``judge+TAG@domain``, the tag being
how a bounce names the mail it reports (`judge_addresses`).  The stored message starts with one
``Delivered-To:`` line per envelope recipient, as a delivery agent writes it (RFC 9228), since
the envelope is not kept otherwise.  ``store`` must have committed the raw message before it
returns, because the 250 tells the sender the mail is safe.  Any failure of ``store`` answers
451 (try again later): a 5xx would make the sender give up on a mail that was never stored.

`smtp_factory` makes the sessions for the listener, bounded so that idle connections cannot
crowd out real mail: a session silent for ``idle_timeout`` seconds is closed, and beyond
``max_sessions`` at once a new connection is told 421 (a real sender tries again later).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from aiosmtpd.smtp import SMTP

log = logging.getLogger("judge.smtp")  # lines anyone can cause: cut short in floods (judge.service.logs)

TOO_MANY = b"421 4.7.0 too many connections, try again later\r\n"


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
        delivered_to = "".join(f"Delivered-To: {address.strip().strip('<>')}\r\n" for address in envelope.rcpt_tos)
        raw = delivered_to.encode() + raw
        try:
            await self.store(raw, envelope.mail_from or "")
        except Exception:
            log.exception("could not store mail from %s", envelope.mail_from)
            return "451 4.3.0 Temporary failure storing the message; please try again later"
        return "250 OK: stored"


# A tag is what RFC 5322 allows in an unquoted local part (atext and dots), never a space,
# a control character or a line break: the address is written into the stored message.
_TAG = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]*"


def judge_addresses(domain: str) -> Callable[[str], bool]:
    """The recipient test for ``judge@domain`` and ``judge+TAG@domain`` (any case)."""
    wanted = re.compile(rf"judge(?:\+{_TAG})?@{re.escape(domain)}", re.IGNORECASE)

    def accepts(address: str) -> bool:
        return wanted.fullmatch(address.strip().strip("<>")) is not None

    return accepts


class _Sessions:
    """The number of sessions open, shared by every `LimitedSMTP` of one listener."""

    def __init__(self, maximum: int) -> None:
        self.maximum = maximum
        self.open = 0


class LimitedSMTP(SMTP):
    """aiosmtpd's SMTP session, refused with 421 when ``sessions`` are all taken.

    A refused connection never starts a session: it gets the 421 instead of the greeting and
    is closed at once (RFC 5321, 3.8).
    """

    def __init__(self, handler: Any, *, sessions: _Sessions, **options: Any) -> None:
        super().__init__(handler, **options)
        self._sessions = sessions
        self._counted = False  # this connection holds one of the sessions
        self._refused = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if not self._counted:  # not a second call after STARTTLS
            if self._sessions.open >= self._sessions.maximum:
                self._refused = True
                log.warning("refused a connection from %s: %d sessions open", transport.get_extra_info("peername"),
                            self._sessions.open)
                assert isinstance(transport, asyncio.WriteTransport)
                transport.write(TOO_MANY)
                transport.close()
                return
            self._counted = True
            self._sessions.open += 1
        super().connection_made(transport)

    def connection_lost(self, error: Exception | None) -> None:
        if self._refused:
            return
        if self._counted:
            self._counted = False
            self._sessions.open -= 1
        super().connection_lost(error)


def smtp_factory(handler: Any, *, max_sessions: int, idle_timeout: float, **options: Any) -> Callable[[], SMTP]:
    """A protocol factory for `loop.create_server`: bounded `LimitedSMTP` sessions of ``handler``.

    At most ``max_sessions`` at once; each is closed after ``idle_timeout`` seconds without a
    command (aiosmtpd's clock also runs while a message is transferred: DATA must end within
    it too).  ``options`` go to aiosmtpd's SMTP.
    """
    return partial(LimitedSMTP, handler, sessions=_Sessions(max_sessions), timeout=idle_timeout, **options)
