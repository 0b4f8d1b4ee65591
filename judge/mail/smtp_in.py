"""The inbound SMTP handler (aiosmtpd): accept mail for the judge only, store it, then say 250.

It knows nothing of games.  ``accepts`` says which recipient addresses are the judge's (any
other gets 550: never an open relay): ``judge@domain`` and ``judge+TAG@domain``, the tag being
how a bounce names the mail it reports (`judge_addresses`).  The stored message starts with one
``Delivered-To:`` line per envelope recipient, as a delivery agent writes it (RFC 9228), since
the envelope is not kept otherwise, then a ``Received:`` line naming the client that connected
(`judge.mail.received.listener_line`): where a mail came from is what the sign-on back-off
counts by, and only a line the judge wrote itself can be believed.  ``store`` must have
committed the raw message before it returns, because the 250 tells the sender the mail is
safe.  Any failure of ``store`` answers 451 (try again later): a 5xx would make the sender give
up on a mail that was never stored.

`smtp_factory` makes the sessions for the listener, bounded so that idle or hoarded connections
cannot crowd out real mail.  A session is closed when it has been silent for ``idle_timeout``
seconds, and when it has gone ``lifetime`` seconds without finishing a mail (from its start, or
from the end of its last DATA): NOOP, RSET, HELP and the like keep a session from being silent,
never alive, so sessions kept open with NOOP hold their places for minutes at most.  A new
connection is told 421 (a real sender tries again later) beyond ``max_sessions`` at once, beyond
``per_client`` at once from its client (an IPv4 address or an IPv6 /64, `judge.peers`), and
beyond ``max_sessions - reserved`` at once from clients that are not ``trusted``.  The trusted
clients are the judge's own MTA (``trusted-clients``, by default this machine's loopback
addresses): they have no per-client limit, and the ``reserved`` places are theirs alone, so a
flood from elsewhere, however spread, cannot lock the MTA out.  With no trusted client (the
judge listening on port 25 itself, ``trusted-clients = []``) nothing is reserved.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from datetime import UTC, datetime
from functools import partial
from typing import Any

from aiosmtpd.smtp import SMTP, syntax

from judge.mail.received import listener_line
from judge.peers import Network, client, is_trusted

log = logging.getLogger("judge.smtp")  # lines anyone can cause: cut short in floods (judge.service.logs)

TOO_MANY = b"421 4.7.0 too many connections, try again later\r\n"
TOO_MANY_FROM_YOU = b"421 4.7.0 too many connections from your address, try again later\r\n"
TOO_LONG = b"421 4.4.2 no mail finished in this session for too long, closing\r\n"


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
        received = listener_line(session.host_name, session.peer, server.hostname, session.extended_smtp,
                                 datetime.now(UTC))
        raw = delivered_to.encode() + received + raw
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
    """The sessions open, shared by every `LimitedSMTP` of one listener: in all, from untrusted
    clients, and per untrusted client."""

    def __init__(self, maximum: int, per_client: int, reserved: int, trusted: Iterable[Network]) -> None:
        self.maximum = maximum
        self.per_client = per_client
        self.trusted = tuple(trusted)
        self.untrusted_maximum = maximum - reserved if self.trusted else maximum
        self.open = 0
        self.untrusted = 0
        self.by_client: Counter[Network] = Counter()

    def take(self, host: str) -> Network | bytes | None:
        """Count a session from ``host``: the client it is counted against (None for a trusted
        one), or the 421 to answer instead."""
        if self.open >= self.maximum:
            return TOO_MANY
        if is_trusted(host, self.trusted):
            self.open += 1
            return None
        key = client(host)
        if self.untrusted >= self.untrusted_maximum:
            return TOO_MANY
        if self.by_client[key] >= self.per_client:
            return TOO_MANY_FROM_YOU
        self.open += 1
        self.untrusted += 1
        self.by_client[key] += 1
        return key

    def give_back(self, key: Network | None) -> None:
        """Count a session `take` counted as closed."""
        self.open -= 1
        if key is not None:
            self.untrusted -= 1
            self.by_client[key] -= 1
            if not self.by_client[key]:
                del self.by_client[key]


class LimitedSMTP(SMTP):
    """aiosmtpd's SMTP session, refused with 421 when `_Sessions` has no place for its client,
    and closed with 421 when ``lifetime`` seconds pass without a mail finished.

    A refused connection never starts a session: it gets the 421 instead of the greeting and
    is closed at once (RFC 5321, 3.8).
    """

    def __init__(self, handler: Any, *, sessions: _Sessions, lifetime: float, **options: Any) -> None:
        super().__init__(handler, **options)
        self._sessions = sessions
        self._counted = False  # this connection holds one of the sessions
        self._client: Network | None = None  # the client it is counted against; None if trusted
        self._refused = False
        self._lifetime = lifetime
        self._expiry: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if not self._counted:  # not a second call after STARTTLS
            peer = transport.get_extra_info("peername")
            place = self._sessions.take(peer[0])
            if isinstance(place, bytes):
                self._refused = True
                log.warning("refused a connection from %s: %d sessions open, %d from its client", peer,
                            self._sessions.open, self._sessions.by_client[client(peer[0])])
                assert isinstance(transport, asyncio.WriteTransport)
                transport.write(place)
                transport.close()
                return
            self._counted = True
            self._client = place
            self._renew()
        super().connection_made(transport)

    def connection_lost(self, error: Exception | None) -> None:
        if self._refused:
            return
        if self._counted:
            self._counted = False
            self._sessions.give_back(self._client)
        if self._expiry is not None:
            self._expiry.cancel()
        super().connection_lost(error)

    def _renew(self) -> None:
        """Give the session ``lifetime`` seconds more to finish a mail."""
        if self._expiry is not None:
            self._expiry.cancel()
        self._expiry = self.loop.call_later(self._lifetime, self._expire)

    def _expire(self) -> None:
        if self.transport is None:
            return
        if self.envelope is not None and self.envelope.content is not None:
            return  # its mail is read and being stored: the end of DATA renews the session
        assert self.session is not None
        log.info("closed the session of %s: no mail finished in %g s", self.session.peer, self._lifetime)
        assert isinstance(self.transport, asyncio.WriteTransport)
        self.transport.write(TOO_LONG)
        self.transport.close()

    def _timeout_cb(self) -> None:
        """aiosmtpd's idle clock, except while the mail read is being stored: the sender waits for
        its 250 or 451, and a store that takes long (a database cut off is given up after about 30 s,
        longer on a loaded machine) must not end in a hang-up the sender cannot tell from a crash."""
        if self.envelope is not None and self.envelope.content is not None:
            self._reset_timeout()
            return
        assert self.session is not None and self.transport is not None
        log.info("closed the session of %s: silent for %g s", self.session.peer, self._timeout_duration)
        self.transport.close()

    @syntax("DATA")
    async def smtp_DATA(self, arg: str) -> None:
        envelope = self.envelope
        await super().smtp_DATA(arg)
        if self.envelope is not envelope:  # the message was read to its end and answered: progress
            self._renew()


def smtp_factory(handler: Any, *, max_sessions: int, per_client: int, reserved: int, trusted: Iterable[Network],
                 idle_timeout: float, lifetime: float, **options: Any) -> Callable[[], SMTP]:
    """A protocol factory for `loop.create_server`: bounded `LimitedSMTP` sessions of ``handler``.

    At most ``max_sessions`` at once, ``per_client`` from one untrusted client, and
    ``max_sessions - reserved`` from untrusted clients together (all of them when nothing is
    ``trusted``).  Each is closed after ``idle_timeout`` seconds without a command (aiosmtpd's
    clock also runs while a message is transferred: DATA must end within it too, but not while the
    message is stored), and after ``lifetime`` seconds without finishing a mail.  ``options`` go to
    aiosmtpd's SMTP.
    """
    sessions = _Sessions(max_sessions, per_client, reserved, trusted)
    return partial(LimitedSMTP, handler, sessions=sessions, lifetime=lifetime, timeout=idle_timeout, **options)
