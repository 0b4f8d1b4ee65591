"""When the judge's own mail server accepted a message: the date of its ``Received:`` line.

After an outage, mail the server held for the judge arrives late; whether it was sent in time
is when the server accepted it.  Only the topmost ``Received:`` header is believed, and only
when it names that server after ``by``: the server wrote it on top of whatever the sender
wrote, and a sender can write any ``Received:`` line below it.
"""

from __future__ import annotations

import email.parser
import email.utils
import re
from datetime import UTC, datetime

from judge.mail.inbound import LENIENT, header_values

_BY = re.compile(r"\bby\s+([^\s;()]+)", re.IGNORECASE)


def accepted_at(raw: bytes, mta_hostname: str) -> datetime | None:
    """The moment (naive UTC) in the topmost ``Received:`` header, if that header is ``by
    mta_hostname``; else None.  Never raises."""
    try:
        headers = email.parser.BytesParser(policy=LENIENT).parsebytes(bytes(raw), headersonly=True)
        received = header_values(headers, "Received")
        if not received:
            return None
        path, _, date = received[0].rpartition(";")
        by = _BY.search(path)
        if by is None or by.group(1).rstrip(".").lower() != mta_hostname.rstrip(".").lower():
            return None
        moment = email.utils.parsedate_to_datetime(date.strip())
    except Exception:
        return None
    if moment.tzinfo is None:  # "-0000": a time in UTC whose zone was not known
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).replace(tzinfo=None)
