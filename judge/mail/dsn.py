"""Delivery status notifications (RFC 3464): which recipients a bounce says failed, and why.

A bounce is a ``multipart/report; report-type=delivery-status`` whose ``message/delivery-status``
part holds one block of per-message fields (``Reporting-MTA``) and one block per recipient
(``Final-Recipient``, ``Action``, ``Status``, ``Diagnostic-Code``); usually a last part returns
the original message or its headers (``text/rfc822-headers``).  Only ``Action: failed`` is a
failure: ``delayed``, ``delivered``, ``relayed`` and ``expanded`` are news, not failures.

Which outgoing mail a bounce is about is not read from the report (anyone can write one) but
from the address it was sent to: the judge's mail leaves with a VERP envelope sender
(`verp_address`), ``judge+b<token><tag>@domain``, and the listener records the envelope
recipient as the message's first ``Delivered-To:`` line (`delivered_to`).

The token is the outbox id enciphered under a key only the judge knows (kept in its database,
shared by all its processes): a keyed permutation of 64-bit numbers (`_permute`, a four-round
Feistel network whose round function is HMAC-SHA256, Luby and Rackoff's construction), written
in VERP_TAG hex digits.  Outbox ids are sequential, and a player who read them in the envelope
senders of two answers would learn how many mails the judge sent in between: who else was
mailing, when a phase's results went out (rule 6.3, and Pirates' P10, keep who submitted
secret).  The token reads as a random number to anyone without the key.  The tag is an
HMAC-SHA256 of the id under the same key, cut to VERP_TAG hex digits and checked in constant
time: an address with a wrong or missing tag names nothing, so no bounce can be aimed at a mail
by guessing.  The addresses of mail sent before the token, ``judge+b<outbox id>-<tag>@domain``,
are still read, so that a bounce of one still in flight when the judge was upgraded counts; an
untagged ``judge+b<id>@domain``, the form of mail sent before tags were introduced, is ignored.
Like `judge.mail.inbound`, nothing here raises on any input.
"""

from __future__ import annotations

import email
import email.parser
import hashlib
import hmac
import re
from dataclasses import dataclass
from email.message import Message

from judge.mail.inbound import LENIENT, header_values, safe_getaddresses
from judge.mail.outbound import one_line, usable_message_id

MAX_ERROR = 500  # characters of a server's words kept per failed recipient
VERP_TAG = 16  # hex digits of the HMAC in a VERP address: 64 bits, not worth guessing
_REPORTS = ("message/delivery-status", "message/global-delivery-status")  # RFC 3464, RFC 6533
_ORIGINALS = ("text/rfc822-headers", "message/rfc822", "message/global", "message/global-headers")
_MAX_PARTS = 100


@dataclass(frozen=True)
class Failure:
    """One recipient a report says could not be delivered to."""

    recipient: str  # the Final-Recipient address ("" if the report names none)
    status: str  # the enhanced status code, 5.1.1; "" if none
    diagnostic: str  # the remote server's words (Diagnostic-Code less its type), "" if none
    reported_by: str  # Remote-MTA, else Reporting-MTA, less its type; "" if neither

    def describe(self) -> str:
        """One line for a person: the server's words first, then the status and who said it."""
        words = self.diagnostic or "delivery failed"
        details = [f"status {self.status}"] if self.status and self.status not in words else []
        if self.reported_by:
            details.append(f"reported by {self.reported_by}")
        return f"{words} ({', '.join(details)})" if details else words


@dataclass(frozen=True)
class DeliveryReport:
    """What a delivery status notification says."""

    failures: tuple[Failure, ...]  # the recipients with ``Action: failed``
    original_message_id: str | None  # the Message-ID of the returned message (or headers), if any


def delivery_report(raw: bytes) -> DeliveryReport | None:
    """The report a bounce carries, or None if ``raw`` holds no delivery-status part."""
    try:
        message = email.message_from_bytes(bytes(raw), policy=LENIENT)
        return _report(message)
    except Exception:
        return None


def verp_address(local: str, domain: str, outbox_id: int, key: bytes) -> str:
    """The envelope sender of outbox row ``outbox_id``: ``local+b<token><tag>@domain``, the id
    enciphered (`_permute`) and its tag (`verp_tag`), both made with ``key``."""
    return f"{local}+b{_permute(key, outbox_id, _ROUNDS):0{VERP_TAG}x}{verp_tag(key, outbox_id)}@{domain}"


def verp_outbox_id(address: str, local: str, domain: str, key: bytes) -> int | None:
    """The outbox id a VERP address (`verp_address`, or the form before it, with the id in
    plain digits) names, or None if it names none: not of either form, or its tag is not the
    one ``key`` makes for its id."""
    start = rf"{re.escape(local)}\+b"
    end = rf"([0-9a-f]{{{VERP_TAG}}})@{re.escape(domain)}"
    address = address.strip().strip("<>")
    if found := re.fullmatch(rf"{start}([0-9a-f]{{{VERP_TAG}}}){end}", address, re.IGNORECASE):
        outbox_id = _permute(key, int(found.group(1), 16), _ROUNDS[::-1])
    elif found := re.fullmatch(rf"{start}([0-9]{{1,18}})-{end}", address, re.IGNORECASE):
        outbox_id = int(found.group(1))
    else:
        return None
    return outbox_id if hmac.compare_digest(found.group(2).lower(), verp_tag(key, outbox_id)) else None


_ROUNDS = range(4)  # four rounds make a permutation no one without the key tells from a random one
_HALF = 4 * VERP_TAG // 2  # bits in each half of the block the token enciphers


def _permute(key: bytes, number: int, rounds: range) -> int:
    """``number`` (below 2**(4 * VERP_TAG)) through a Feistel network keyed by ``key``: with
    `_ROUNDS` it enciphers, with them reversed it deciphers.  Each round swaps the halves and
    mixes into one an HMAC-SHA256 of the other and of the round's number."""
    mask = (1 << _HALF) - 1
    left, right = number >> _HALF, number & mask
    for number_of_round in rounds:
        if rounds.step > 0:
            left, right = right, left ^ _round(key, number_of_round, right)
        else:
            left, right = right ^ _round(key, number_of_round, left), left
    return left << _HALF | right


def _round(key: bytes, number_of_round: int, half: int) -> int:
    """The Feistel round function: ``half`` under ``key`` and the round's number, as many bits as a half."""
    digest = hmac.new(key, f"verp round {number_of_round}: {half}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:_HALF // 8], "big")


def verp_tag(key: bytes, outbox_id: int) -> str:
    """The tag of outbox row ``outbox_id``'s VERP address: its HMAC-SHA256 under ``key``, in hex, cut."""
    return hmac.new(key, f"b{outbox_id}".encode(), hashlib.sha256).hexdigest()[:VERP_TAG]


def delivered_to(raw: bytes) -> str | None:
    """The first ``Delivered-To:`` address of a stored message (the listener writes it first), or None."""
    try:
        message = email.parser.BytesParser(policy=LENIENT).parsebytes(bytes(raw), headersonly=True)
    except Exception:
        return None
    values = header_values(message, "Delivered-To")
    return values[0].strip().strip("<>") if values else None


def _report(message: Message) -> DeliveryReport | None:
    status: Message | None = None
    original: Message | None = None
    for count, part in enumerate(message.walk()):
        if count >= _MAX_PARTS:
            break
        kind = part.get_content_type().lower()
        if kind in _REPORTS and status is None:
            status = part
        elif kind in _ORIGINALS and original is None and status is not None:
            original = part
    if status is None:
        return None
    blocks = _blocks(status)  # per-message fields first, then one block per recipient (any order is read)
    reporting = next((value for block in blocks if (value := _field(block, "Reporting-MTA"))), "")
    failures = tuple(_failure(block, reporting) for block in blocks if _field(block, "Action").lower() == "failed")
    return DeliveryReport(failures, _original_message_id(original))


def _blocks(part: Message) -> list[Message]:
    """The field blocks of a delivery-status part (the parser makes each block a Message)."""
    payload = part.get_payload()
    if isinstance(payload, list):
        return [block for block in payload if isinstance(block, Message)]
    text = payload if isinstance(payload, str) else ""  # an encoded part the parser left as text
    decoded = part.get_payload(decode=True)
    if isinstance(decoded, bytes):
        text = decoded.decode("utf-8", "replace")
    chunks = re.split(r"\r?\n[ \t]*\r?\n", text.strip())
    return [email.message_from_string(chunk + "\n\n", policy=LENIENT) for chunk in chunks if chunk.strip()]


def _field(block: Message, name: str) -> str:
    """A field's value on one line, with its type (``rfc822;``, ``smtp;``, ``dns;``) removed."""
    values = header_values(block, name)
    if not values:
        return ""
    value = one_line(values[0])
    kind, separator, rest = value.partition(";")
    if separator and re.fullmatch(r"[A-Za-z0-9-]+", kind.strip()):
        value = rest.strip()
    return value[:MAX_ERROR]


def _failure(block: Message, reporting: str) -> Failure:
    recipient = _field(block, "Final-Recipient") or _field(block, "Original-Recipient")
    addresses = safe_getaddresses([recipient])
    address = addresses[0][1] if addresses and addresses[0][1] else recipient
    status = _field(block, "Status").split(" ")[0]
    return Failure(address, status, _field(block, "Diagnostic-Code"), _field(block, "Remote-MTA") or reporting)


def _original_message_id(part: Message | None) -> str | None:
    """The Message-ID of the message a report returns (its headers, or the whole message)."""
    if part is None:
        return None
    payload = part.get_payload()
    if isinstance(payload, list) and payload and isinstance(payload[0], Message):
        headers = payload[0]
    else:
        decoded = part.get_payload(decode=True)
        text = decoded.decode("utf-8", "replace") if isinstance(decoded, bytes) else str(payload)
        headers = email.parser.Parser(policy=LENIENT).parsestr(text, headersonly=True)
    values = header_values(headers, "Message-ID")
    return usable_message_id(values[0]) if values else None
