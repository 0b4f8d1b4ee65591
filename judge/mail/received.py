"""What the judge's own mail servers wrote in a message's ``Received:`` lines: when its MTA
accepted it, and from which IP address the mail came.

A sender can write any ``Received:`` line into its mail; only lines written on top of it by a
server of the judge's are believed.  The judge's SMTP listener writes one on top of every mail
it stores (`listener_line`: ``from HELO ([ip]) by <domain> (Payola judge) with ESMTP``), naming
the client that connected to it.  When the judge's own MTA (Postfix, ``mta_hostname``) hands
mail to the listener, that client is the MTA, and the line to believe is the MTA's, just below
the listener's (or on top, for mail handed over with ``judge inject``): it names the client
that connected to the MTA.  Nothing else is believed: a mail injected by hand with no such
line has no known address.  With an MTA named, the listener must be reachable by that MTA
only (it listens on 127.0.0.1 by default), or a client could write the MTA's line itself.
"""

from __future__ import annotations

import email.parser
import email.utils
import ipaddress
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import Message

from judge.language import gettext as _
from judge.mail.inbound import LENIENT, header_values

_BY = re.compile(r"\bby\s+([^\s;()]+)", re.IGNORECASE)
LISTENER = "Payola judge"  # the comment after "by <domain>" in the listener's own line
_OURS = re.compile(rf"^from\s+\S+\s+\(\[(?:IPv6:)?([0-9A-Fa-f:.]+)\]\)\s+by\s+(\S+)\s+\({LISTENER}\)\s+with\s+E?SMTP\b",
                   re.IGNORECASE)
_CLIENT = re.compile(r"\[(?:IPv6:)?([0-9A-Fa-f:.]+)\]", re.IGNORECASE)
_HELO = re.compile(r"[^A-Za-z0-9.:_-]")
MAX_KEY = 400  # the column the back-off keys are stored in


@dataclass(frozen=True, slots=True)
class Source:
    """Where a mail came from, as far as the judge can tell without believing the mail: the IP
    address of the client that handed it to the judge's MTA or listener (None: not known, as
    for ``judge inject``), and the SMTP envelope sender (the From when the envelope is not
    known).  An attacker can forge a From for nothing, but not the address it connects from."""

    ip: str | None
    envelope: str
    vouched: frozenset[str] = frozenset()  # domains the judge's MTA says the mail's From truly is of (`vouched_for`)

    def vouches_for(self, address: str) -> bool:
        """Whether the judge's MTA vouched that the mail comes from ``address``'s domain."""
        return address.rpartition("@")[2].lower() in self.vouched

    @property
    def key(self) -> str:
        """The source as the back-off counts it: address and envelope sender."""
        return f"[{self.ip or 'unknown'}] {self.envelope}"[:MAX_KEY]

    @property
    def network(self) -> str | None:
        """What one client controls: its IPv4 address, or the /64 of its IPv6 address (a host
        is given a whole /64 and may send from any address in it); None if not known."""
        if self.ip is None:
            return None
        address = ipaddress.ip_address(self.ip)
        if address.version == 4:
            return str(address)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))

    def __str__(self) -> str:
        """Who sent the mail, as a sentence of the reader's language quotes it (a consent request's "sent by ...")."""
        if self.ip is None:
            return _("{envelope} from an unknown IP address", envelope=self.envelope or "<>")
        return _("{envelope} from {ip}", envelope=self.envelope or "<>", ip=self.ip)


def listener_line(helo: str | None, peer: object, domain: str, extended: bool, now: datetime) -> bytes:
    """The ``Received:`` line the judge's listener writes on top of a mail it stores (RFC 5321,
    4.4), naming the client that connected (``peer``: aiosmtpd's ``(host, port, ...)``)."""
    host = peer[0] if isinstance(peer, tuple) and peer else None
    try:
        address = ipaddress.ip_address(str(host))
        literal = f"IPv6:{address}" if address.version == 6 else str(address)
    except ValueError:
        literal = "unknown"
    name = _HELO.sub("", helo or "")[:100] or "unknown"
    date = email.utils.format_datetime(now.replace(tzinfo=UTC) if now.tzinfo is None else now)
    return (f"Received: from {name} ([{literal}])\r\n\tby {domain} ({LISTENER}) with {'ESMTP' if extended else 'SMTP'};"
            f"\r\n\t{date}\r\n").encode("ascii", "replace")


def _received(raw: bytes) -> list[str]:
    headers: Message = email.parser.BytesParser(policy=LENIENT).parsebytes(bytes(raw), headersonly=True)
    return header_values(headers, "Received")


def _mta_line(received: list[str], mta_hostname: str) -> str | None:
    """The line the judge's MTA wrote: the topmost, or the one just below the listener's."""
    if received and _OURS.match(received[0]):
        received = received[1:]
    if not received:
        return None
    by = _BY.search(received[0].rpartition(";")[0])
    if by is None or by.group(1).rstrip(".").lower() != mta_hostname.rstrip(".").lower():
        return None
    return received[0]


def accepted_at(raw: bytes, mta_hostname: str) -> datetime | None:
    """The moment (naive UTC) in the ``Received:`` line of the judge's MTA (by
    ``mta_hostname``: the topmost line, or the one below the listener's); else None.  Never raises."""
    try:
        line = _mta_line(_received(raw), mta_hostname)
        if line is None:
            return None
        moment = email.utils.parsedate_to_datetime(line.rpartition(";")[2].strip())
    except Exception:
        return None
    if moment.tzinfo is None:  # "-0000": a time in UTC whose zone was not known
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).replace(tzinfo=None)


def not_before(accepted: datetime, moment: datetime) -> bool:
    """Whether a mail accepted at ``accepted`` came no earlier than ``moment`` (a phase's start,
    another mail's acceptance), compared at the resolution of the ``Received:`` lines that date
    mail: whole seconds (RFC 5322's date-time).  The MTA's line says 12:00:00 of a mail it took at
    12:00:00.7, so a mail of the same second as ``moment`` is not taken as older than it, whichever
    of the two the judge's own clock (sub-second) dated."""
    return accepted.replace(microsecond=0) >= moment.replace(microsecond=0)


def client_address(raw: bytes, mta_hostname: str | None) -> str | None:
    """The IP address of the client that handed the mail to the judge's MTA (with
    ``mta_hostname``) or else to its listener, as their ``Received:`` lines say; None if
    neither wrote one on top of the mail.  Never raises."""
    try:
        received = _received(raw)
        if mta_hostname is not None:
            line = _mta_line(received, mta_hostname)
            found = _CLIENT.search(line.partition(" by ")[0]) if line else None
        else:
            found = _OURS.match(received[0]) if received else None
        return str(ipaddress.ip_address(found.group(1))) if found else None
    except Exception:
        return None


_COMMENT = re.compile(r"\([^()]*\)")
_PROPERTY = re.compile(r"([A-Za-z0-9-]+)\.([A-Za-z0-9-]+)\s*=\s*([^\s;]+)")
_RESULT = re.compile(r"^\s*([A-Za-z0-9-]+)\s*=\s*([A-Za-z0-9-]+)")


def vouched_for(raw: bytes, mta_hostname: str | None) -> frozenset[str]:
    """The domains the judge's MTA (``mta_hostname``) vouches a mail's From belongs to, as its
    ``Authentication-Results`` header says (RFC 8601): the first such header whose authserv-id
    is ``mta_hostname`` (a milter of that MTA writes it above the headers the mail came with;
    the MTA must drop any that came with the mail, as RFC 8601 section 5 asks), and in it
    ``dmarc=pass`` (``header.from``), ``dkim=pass`` (``header.d``) or ``spf=pass``
    (``smtp.mailfrom``).  Nothing if there is no such header or ``mta_hostname`` is not set.
    Never raises."""
    if not mta_hostname:
        return frozenset()
    for authserv, results in _authentication_results(raw):
        if authserv == mta_hostname.rstrip(".").lower():
            return frozenset(_passed(results))
    return frozenset()


def authserv_ids(raw: bytes) -> list[str]:
    """The authserv-id of each ``Authentication-Results`` header of a mail, topmost first, in
    lower case and without a final dot: whether the judge's MTA wrote one (``judge status``).
    Never raises."""
    return [authserv for authserv, _ in _authentication_results(raw)]


def _authentication_results(raw: bytes) -> list[tuple[str, list[str]]]:
    """Each ``Authentication-Results`` header of a mail, topmost first: its authserv-id (lower
    case, no final dot; empty if it has none) and its results, comments removed.  Never raises."""
    found = []
    try:
        headers: Message = email.parser.BytesParser(policy=LENIENT).parsebytes(bytes(raw), headersonly=True)
        for value in header_values(headers, "Authentication-Results"):
            text = value
            while _COMMENT.search(text):
                text = _COMMENT.sub(" ", text)
            authserv, *results = text.split(";")
            words = authserv.split()
            found.append((words[0].rstrip(".").lower() if words else "", results))
    except Exception:
        pass
    return found


def _passed(results: list[str]) -> set[str]:
    """The domains a header's results (``method=result ptype.property=value ...``) vouch for."""
    vouched = set()
    wanted = {"dmarc": ("header", "from"), "dkim": ("header", "d"), "spf": ("smtp", "mailfrom")}
    for result in results:
        found = _RESULT.match(result)
        if found is None or found.group(2).lower() != "pass" or found.group(1).lower() not in wanted:
            continue
        ptype, name = wanted[found.group(1).lower()]
        for kind, prop, value in _PROPERTY.findall(result[found.end():]):
            if (kind.lower(), prop.lower()) == (ptype, name):
                vouched.add(value.strip('"').rpartition("@")[2].rstrip(".").lower())
    return vouched
