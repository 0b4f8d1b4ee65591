"""Masking passwords in what the judge keeps of a mail, and in what it writes back.

Where a password counts as written.  A password is masked wherever it stands as a token: an
occurrence of it that no letter or digit directly precedes or follows.  The start or end of
the text, whitespace, punctuation and markup all bound it, so ``pw``, ``pw,``, ``(pw)``,
``"pw"``, ``pw<br>`` and ``pw</p>`` are masked; ``pwd`` and ``apw`` are other words, left
alone.  A password may hold any character but whitespace, so this masks a little more than
the password itself at times (``pw-x``): never less.

The stored copy.  A mail carrying a password command is never kept as it came: its raw bytes
hold the password in forms no mask on the bytes can find (an HTML alternative, a
quoted-printable soft break inside the password, base64, a signature below the commands).
Its stored copy (`redact`) is its headers, every occurrence in them masked (a header whose
RFC 2047 words hide one is written back decoded and masked; the Subject is masked, not
dropped), less the MIME headers of a body it no longer has, then its command text as it was
read, masked.  A mail without one is kept as it came.  Knows nothing of games.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from email.header import decode_header, make_header

from judge.mail.inbound import read_text
from judge.mail.outbound import one_line

MASK = "****"
REDACTED_HEADER = "X-Payola-Judge-Redacted"
_BODY_BREAK = re.compile(rb"\r?\n\r?\n")
_FIELD_NAME = re.compile(rb"[^\s:]+")
_MIME_HEADERS = re.compile(rb"content-[a-z0-9-]*|mime-version|" + REDACTED_HEADER.encode(), re.IGNORECASE)


def masker(secrets: Collection[str]) -> Callable[[str], str]:
    """A function giving its text with every token occurrence of each secret masked (see the
    module's header); the identity when there is none."""
    words = sorted({s for s in secrets if s}, key=len, reverse=True)
    if not words:
        return _unchanged
    pattern = re.compile(r"(?<![^\W_])(?:" + "|".join(map(re.escape, words)) + r")(?![^\W_])")
    return lambda text: pattern.sub(MASK, text)


def _unchanged(text: str) -> str:
    return text


def redact(raw: bytes, secrets: Collection[str], lines: Sequence[str] | None = None) -> bytes:
    """The copy of the mail ``raw`` to keep: ``raw`` itself if ``secrets`` is empty, else its
    masked headers and its masked command text (see the module's header).  ``lines`` are its
    command lines if the caller has read them already (`judge.mail.inbound.parse_mail`'s)."""
    mask = masker(secrets)
    if mask is _unchanged:
        return raw
    end = _BODY_BREAK.search(raw)
    head = raw[:end.start()] if end else raw
    fields = [field for field in _fields(head) if not _MIME_HEADERS.fullmatch(_name(field))]
    if lines is None:
        _, lines = read_text(raw)
    text = "\n".join(mask(line) for line in lines)
    return b"".join([*(_masked_field(field, mask) + b"\n" for field in fields),
                     b"MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n",
                     REDACTED_HEADER.encode(), b": yes\n\n", text.encode("utf-8", "surrogateescape"), b"\n"])


def _fields(head: bytes) -> list[bytes]:
    """The header fields of a header block, each with its folded lines, line endings removed."""
    fields: list[bytes] = []
    for line in re.split(rb"\r?\n", head):
        if line[:1] in (b" ", b"\t") and fields:
            fields[-1] += b"\n" + line
        elif line:
            fields.append(line)
    return fields


def _name(field: bytes) -> bytes:
    found = _FIELD_NAME.match(field)
    return found.group() if found else b""


def _masked_field(field: bytes, mask: Callable[[str], str]) -> bytes:
    """A header field with its secrets masked: as written, and then, if its RFC 2047 words still
    hide one, decoded and masked on one line."""
    written = mask(field.decode("utf-8", "surrogateescape"))
    name, colon, value = written.partition(":")
    try:
        decoded = str(make_header(decode_header(" ".join(value.split()))))
    except Exception:
        decoded = ""
    masked = mask(decoded)
    if colon and masked != decoded:
        written = f"{name}: {one_line(masked)}"
    return written.encode("utf-8", "surrogateescape")
