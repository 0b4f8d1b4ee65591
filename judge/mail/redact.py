"""Masking secrets in a stored raw mail, so that the judge's copy of a mail keeps no password.

Each secret is replaced where it stands as a whole word in the raw bytes.  If the mail still
shows it once read (its text was quoted-printable or base64, say), the stored copy becomes the
mail's headers and its command text as read, with the secrets masked.  Knows nothing of games.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from judge.mail.inbound import read_text

MASK = "****"
_FOLDED = rb":.*(\r?\n[ \t].*)*\r?\n"
_MIME_HEADERS = re.compile(rb"^(content-[a-z-]+|mime-version)" + _FOLDED, re.I | re.M)
_SUBJECT = re.compile(rb"^subject" + _FOLDED, re.I | re.M)


def redact(raw: bytes, secrets: Collection[str]) -> bytes:
    """``raw`` with every whole-word occurrence of each secret masked."""
    words = sorted({s.encode("utf-8", "surrogateescape") for s in secrets if s}, key=len, reverse=True)
    if not words:
        return raw
    pattern = re.compile(rb"(?<!\S)(?:" + b"|".join(re.escape(w) for w in words) + rb")(?!\S)")
    masked = pattern.sub(MASK.encode(), raw)
    subject, lines = read_text(masked)
    if not _shows(subject, secrets) and not any(_shows(line, secrets) for line in lines):
        return masked
    end = re.search(rb"\r?\n\r?\n", masked)
    head = _MIME_HEADERS.sub(b"", (masked[:end.start()] if end else masked) + b"\n")
    if _shows(subject, secrets):
        head = _SUBJECT.sub(b"", head)
    head = head.rstrip(b"\r\n")
    text = "\n".join(" ".join(MASK if w in secrets else w for w in line.split()) for line in lines)
    return (head + b"\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n"
            b"Content-Transfer-Encoding: 8bit\nX-Payola-Judge-Redacted: yes\n\n" + text.encode("utf-8") + b"\n")


def _shows(text: str, secrets: Collection[str]) -> bool:
    return any(word in secrets for word in text.split())
