"""The one stand-in SMTP relay: an aiosmtpd server on a loopback port that keeps every envelope it
accepts, and refuses what a test tells it to (the first deliveries, or some recipients)."""

from __future__ import annotations

from typing import Any

from aiosmtpd.controller import Controller

from tests.support.ports import free_port


class Relay:
    """A relay on ``host`` (``"::1"`` for IPv6) that answers 451 to its first ``refuse_first`` mails and
    the given reply to each recipient in ``refuse``; ``stop`` it at the end (the `relay` fixture does)."""

    def __init__(self, *, host: str = "127.0.0.1", smtputf8: bool = False, refuse_first: int = 0,
                 refuse: dict[str, str] | None = None) -> None:
        self.refuse_first = refuse_first
        self.refuse = refuse or {}
        self.envelopes: list[Any] = []
        self.port = free_port(host)
        self.controller = Controller(self, hostname=host, port=self.port, enable_SMTPUTF8=smtputf8)
        self.controller.start()

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: list[str]) -> str:
        if address in self.refuse:
            return self.refuse[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.refuse_first > 0:
            self.refuse_first -= 1
            return "451 4.3.2 try again later"
        self.envelopes.append(envelope)
        return "250 OK"

    @property
    def recipients(self) -> list[str]:
        """Every recipient of every mail accepted, in order."""
        return [address for envelope in self.envelopes for address in envelope.rcpt_tos]

    @property
    def received(self) -> list[bytes]:
        """Every mail accepted, as the bytes the judge sent."""
        return [envelope.original_content for envelope in self.envelopes]

    def stop(self) -> None:
        self.controller.stop()
