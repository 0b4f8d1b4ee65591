"""Outbound mail: the judge's answers as RFC 5322 messages, and a Maildir to drop them in.

Every message is marked as machine-made (``Auto-Submitted``, RFC 3834, and ``Precedence: bulk``
for the auto-responders that know only that) and carries the loop header, so that neither
other robots nor the judge itself answer it.  Its text is 7-bit
(quoted-printable when it is not ASCII), so no relay on the way has to convert it, which would
break a DKIM signature made before the conversion, and ``format=flowed`` (RFC 3676,
`judge.mail.flowed`: prose reflows on a phone, tables stay as they are).  An answer carries the whole thread in
``References`` (RFC 5322 3.6.4), so that mail clients keep a game's mail together.  A game's
mail says which game it is about as a mailing list's does (``List-Id``, RFC 2919), so that
people can filter it, and how to get help or stop it (``List-Help``, ``List-Unsubscribe``,
RFC 2369).

The subject and the id replied to usually come from a stranger's mail, so `build_message`
cleans them instead of trusting the caller: Python's email package treats more characters
than CR and LF as line breaks (``\f``, ``\v``, ``\x1c``-``\x1e``, ``\x85``, U+2028, U+2029)
and refuses to write a header containing one; and it decodes anything that looks like an
RFC 2047 encoded word (``=?utf-8?q?=0D=0A?=``) in a header it is given, then writes the
decoded line break into the message as it is: header injection.
"""

from __future__ import annotations

import binascii
import contextlib
import functools
import hashlib
import itertools
import mailbox
import os
import re
import socket
import threading
import time
import unicodedata
from collections.abc import Callable, Container, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email import policy, quoprimime
from email.headerregistry import AddressHeader, BaseHeader
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from email.utils import format_datetime, make_msgid
from pathlib import Path
from typing import BinaryIO, Literal, cast

from judge.mail.flowed import FLOWED, flow
from judge.mail.headers import DEFAULT

LOOP_HEADER = "X-Payola-Judge"
MAX_MESSAGE_ID = 250  # characters of a message id the judge repeats in In-Reply-To
BASE64_LINE = 57  # bytes an attachment's base64 line of 76 characters carries, as `email.contentmanager` writes
MAX_REFERENCES = 10  # message ids in References: the first of the thread and the latest ones
LIST_HEADERS = frozenset({"List-Id", "List-Help", "List-Unsubscribe", "List-Unsubscribe-Post"})  # RFC 2919, 2369, 8058

_SURROGATES = re.compile("[\ud800-\udfff]")
# Headers are folded only past 200 characters: the email package folds a long Subject by moving
# all of it to the next line, which readers then show with a leading space.
_ASCII_HEADERS = DEFAULT.clone(max_line_length=200)
_UTF8_HEADERS = _ASCII_HEADERS.clone(utf8=True)  # policy.SMTPUTF8, but with the Maildir's \n line endings
_TEXT_LINE = cast(int, DEFAULT.max_line_length)  # bytes of a text's line the package writes as it is (78)


Role = Literal["", "orders", "board"]
"""What picture of a game a file is, for the host to keep those its reader chose (SET MAPS:
`judge.service.outgoing.preferences`): ``"orders"``, the phase's orders drawn on the board;
``"board"``, the board as it stands; ``""``, no picture of a game's mail (a file asked for, as MAP's
answer or HELP's text), which every reader gets."""


@dataclass(frozen=True)
class Attachment:
    """A file sent with a mail: its name, MIME type and bytes; its ``role`` and whether it is
    ``spare`` (as for `Drawn`)."""

    filename: str
    content_type: str
    data: bytes
    role: Role = ""
    spare: bool = False
    digest: str = ""
    """The SHA-256 of ``data`` in hex, where the outbox knows it (a stored file's): its MIME part is kept by it
    (`_attachment_part`), not by its bytes, which would be hashed again for each batch of mails that carries
    them (each batch reads them anew)."""


@dataclass(frozen=True)
class _Stored:
    """A stored file's bytes, known by their digest alone (`Attachment.digest`)."""

    digest: str
    data: bytes = field(compare=False)


@dataclass(frozen=True, eq=False)
class Drawn:
    """A file sent with a mail whose bytes ``draw`` makes once the change that mails it is
    committed (`judge.service.outgoing.outbox.queue`): a map, drawn outside the transaction, once however
    many mails carry the same `Drawn`.  If ``draw`` fails, the mail goes without it."""

    filename: str
    content_type: str
    draw: Callable[[], bytes]
    role: Role = ""
    """What picture it is (`Role`): the host keeps those its reader chose."""
    spare: bool = False
    """Offered only as a reader's one picture in its format (the orders as SVG, for SET MAPS SVG), not
    among the pictures every mail carried before the choice (SET MAPS ALL): drawn only if chosen."""


def build_message(
    *,
    sender: str,
    to: str,
    subject: str,
    body: str,
    domain: str,
    message_id: str | None = None,
    in_reply_to: str | None = None,
    references: Sequence[str] = (),
    date: datetime | None = None,
    reply: bool = False,
    attachments: Sequence[Attachment] = (),
    list_headers: Sequence[tuple[str, str]] = (),
) -> bytes:
    """A text/plain UTF-8 message from the judge, as bytes with ``\\n`` line endings; with
    ``attachments`` (a map, say) a multipart/mixed one whose first part is that text.  The text is
    sent ``format=flowed`` (RFC 3676: `judge.mail.flowed`), its prose reflowing on a phone.

    ``date`` defaults to now (a naive one is taken as UTC); ``message_id`` to a fresh one in
    ``domain``.  Given both, the same arguments give the same bytes (a multipart boundary is
    derived from the Message-ID): the sender builds a queued mail again on every attempt.
    ``reply`` marks an answer to a player's mail (``auto-replied``) rather than mail the judge
    sends on its own (``auto-generated``).  ``sender`` may carry a display name
    (``Payola Judge <judge@example.org>``).  ``references`` are those of the mail answered:
    ``References`` is they and ``in_reply_to`` (`thread`).  The subject is put on one line
    (`one_line`), with a space in every ``=?``; an ``in_reply_to`` that is not a
    `usable_message_id` is left out; lone surrogates in the body become U+FFFD.  Addresses with
    line breaks are refused (ValueError), as header injection would be.  A non-ASCII address
    makes an SMTPUTF8 message (RFC 6532: UTF-8 headers), which only a relay offering SMTPUTF8
    can take.  ``list_headers`` are a game's mail's headers as a mailing list's (``List-Id``,
    ``List-Help``, ``List-Unsubscribe``: `judge.service.outgoing.outbox.list_headers`), written
    after the judge's own; their values are partly made of a game's name, so each is cleaned as the
    subject is, and a name that is not a list header is refused (ValueError).
    """
    when = date or datetime.now(UTC)
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    fields = [("From", sender), ("To", to),
              ("Subject", one_line(subject).replace("=?", "= ?")),  # no encoded word for the email package to decode
              ("Date", format_datetime(when)),
              ("Message-ID", angled(message_id) if message_id else make_msgid(domain=domain))]
    replied = usable_message_id(in_reply_to)
    if replied:
        fields += [("In-Reply-To", angled(replied)), ("References", " ".join(thread(references, replied)))]
    fields += [("Auto-Submitted", "auto-replied" if reply else "auto-generated"), ("Precedence", "bulk"),
               (LOOP_HEADER, domain)]
    for name, value in list_headers:
        if name not in LIST_HEADERS:
            raise ValueError(f"{name!r} is not a list header")
        fields.append((name, one_line(value).replace("=?", "= ?")))
    ascii_only = all(address.addr_spec.isascii() for name, value in fields[:2]
                     for address in cast(AddressHeader, _header(name, value)).addresses)
    head = [_folded(name, value, ascii_only) for name, value in fields]
    mime, content, text = _text(flow(well_formed(body)), ascii_only)
    if not attachments:
        return b"".join([*head, *content, *mime, b"\n", text])
    # the same message each time it is built: the boundary comes from its Message-ID
    mark = ("=_" + hashlib.sha256(str(_header(*fields[4])).encode()).hexdigest()[:40]).encode("ascii")
    parts = [_attachment_part(a.filename, a.content_type, _Stored(a.digest, a.data) if a.digest else a.data,
                              ascii_only) for a in attachments]
    return b"".join([*head, *mime, b'Content-Type: multipart/mixed; boundary="', mark, b'"\n\n--', mark, b"\n",
                     *content, b"\n", text, *(piece for part in parts for piece in (b"\n--", mark, b"\n", part)),
                     b"\n--", mark, b"--\n"])


# Theory of operation.  `build_message` writes the bytes the email package wrote when the
# judge set each header on an EmailMessage (``msg[name] = value``), set its text
# (``set_content``) and wrote it (``as_bytes``); with attachments, those the package writes once
# ``add_attachment`` has added them (tests/mail/test_outbound.py holds both against the package
# itself), the text being the body made format=flowed (`judge.mail.flowed.flow`, its parameters on
# the text's Content-Type).  It leaves out the package's work that is the same for every mail of a deadline (the
# sender spent 5 to 6 ms a results mail, a quarter of a deadline evening's CPU):
# - the package writes each header on its own (``policy.fold_binary(name, header)``, one after
#   the other, then the blank line and the body), so a header's bytes depend only on its name,
#   its value and the policy, and each is made once (`_folded`): a game's results share their
#   From, Subject, Date, loop header and list headers;
# - the headers of a 7-bit text are the same for every text, and its body is the text's lines
#   (`_text`); any other text is the package's own;
# - made mixed, the text's ``Content-`` headers go to its part and ``MIME-Version`` stays with
#   the others, as the package moves them; an attachment's part is made once, however many
#   mails carry it (`_attachment_part`), its base64 in one call, its headers once for every file of its name
#   and type (`_attachment_head`: a picture in each of three languages is three files of one name), and the
#   lines of a PNG chunk that starts a line once for every file that holds it (`base64_lines`: the body of a
#   picture in each of its languages);
# - the message is joined once, not copied again for each piece added (a results mail is 640 KB).
# Errors are never kept (``lru_cache`` keeps results only): a value the package refuses (a line
# break in an address: header injection) is refused anew each time, in the order it was.


@functools.lru_cache(maxsize=1024)
def _header(name: str, value: str) -> BaseHeader:
    """The header ``name: value`` as ``msg[name] = value`` stores it (ValueError for a value no
    header can carry: a line break, as header injection would be)."""
    return cast(BaseHeader, DEFAULT.header_store_parse(name, value)[1])


@functools.lru_cache(maxsize=1024)
def _folded(name: str, value: str, ascii_only: bool) -> bytes:
    """The header ``name: value`` written as ``as_bytes`` writes it, with its line end."""
    return (_ASCII_HEADERS if ascii_only else _UTF8_HEADERS).fold_binary(name, _header(name, value))


def _text(text: str, ascii_only: bool) -> tuple[tuple[bytes, ...], tuple[bytes, ...], bytes]:
    """A text/plain UTF-8 part of ``text`` as the email package writes it: its headers that are
    not ``Content-`` ones (``MIME-Version``), its ``Content-`` headers, each with its line end, and
    its body.  The package writes an ASCII text whose lines are all short enough (78 characters)
    as it is, 7-bit, each line ending in ``\\n`` (``email.contentmanager``: the bytes' lines, as
    ``bytes.splitlines`` cuts them, joined, then a line end): that body is written here, under the
    headers the package writes for a 7-bit text (the same for every such text).  A non-ASCII text
    (a mail in Italian or French) the package writes quoted-printable: its UTF-8 lines joined so, then
    encoded as the package's own quoted-printable encoder encodes them at the policy's line length
    (`quoted_printable`), under the headers it writes for every such text (`_quoted`); the package's
    machinery around that encoder cost as much again, for each of the mails a player reading another
    language than English gets.  Any other text (an ASCII one with a long line) is the package's own."""
    if text.isascii():
        lines = text.encode("ascii").splitlines()
        if max(map(len, lines), default=0) <= _TEXT_LINE:
            mime, content, _ = _seven_bit(ascii_only)
            return mime, content, b"\n".join(lines) + b"\n"
        return _package_text(text, ascii_only)
    mime, content, _ = _quoted(ascii_only)
    return mime, content, quoted_printable(b"\n".join(text.encode("utf-8").splitlines()) + b"\n")


# The bytes the package's quoted-printable encoder escapes in a text's lines (`quoprimime.body_check`: all but
# printable ASCII, the blank and the tab, and the line end it cuts at), each written ``=XX``.
_ESCAPED = {bytes([byte]): b"=%02X" % byte for byte in range(256) if quoprimime.body_check(byte) and byte != 0x0A}
_UNSAFE = re.compile(b"([" + b"".join(re.escape(byte) for byte in _ESCAPED) + b"])")


def quoted_printable(data: bytes) -> bytes:
    """``data`` (UTF-8 lines, each ending in ``\\n``) as the email package's quoted-printable encoder writes
    it at the policy's line length (``quoprimime.body_encode``, `_TEXT_LINE`), byte for byte: its escapes made
    by one split rather than by ``str.translate``, which looks up each character on its own (a results mail
    in Italian: the encoder took 0.09 ms, 0.07 of them translating; counted in instructions, a tenth of what a
    language after the first added to a deadline), and only the lines too long or ending in a blank cut
    (`_cut`)."""
    pieces = _UNSAFE.split(data)
    pieces[1::2] = map(_ESCAPED.__getitem__, pieces[1::2])
    lines = b"".join(pieces).split(b"\n")
    return b"\n".join(_cut(line) if len(line) > _TEXT_LINE or line[-1:] in _BLANKS else line for line in lines)


_BLANKS = (b" ", b"\t")


def _cut(line: bytes) -> bytes:
    """An escaped line cut as the package cuts it: into pieces of at most ``_TEXT_LINE - 1`` characters and a
    soft break (``=``), never inside an escape; a blank ending it escaped, or kept before a soft break, or
    escaped alone on the next line, as there is room."""
    written: list[bytes] = []
    width = _TEXT_LINE - 1
    start, last_start = 0, len(line) - 1 - _TEXT_LINE
    while start <= last_start:
        stop = start + width
        if line[stop - 2] == 0x3D:  # "=": the line is cut before the escape, not inside it
            written.append(line[start:stop - 1])
            start = stop - 2
        elif line[stop - 1] == 0x3D:
            written.append(line[start:stop])
            start = stop - 1
        else:
            written.append(line[start:stop] + b"=")
            start = stop
    if line[-1:] in _BLANKS:
        room, blank, escaped = start - last_start, line[-1:], b"=%02X" % line[-1]
        ending = escaped if room >= 3 else blank + b"=\n" if room == 2 else b"=\n" + escaped
        written.append(line[start:-1] + ending)
    else:
        written.append(line[start:])
    return b"\n".join(written)


def _package_text(text: str, ascii_only: bool) -> tuple[tuple[bytes, ...], tuple[bytes, ...], bytes]:
    """`_text` as the email package makes it."""
    part = EmailMessage(policy=DEFAULT)
    part.set_content(text, subtype="plain", charset="utf-8", cte=None if text.isascii() else "quoted-printable",
                     params=FLOWED)
    head, _, body = part.as_bytes(policy=_ASCII_HEADERS if ascii_only else _UTF8_HEADERS).partition(b"\n\n")
    fields: list[bytes] = []
    for line in head.split(b"\n"):
        if line[:1] in (b" ", b"\t") and fields:
            fields[-1] += line + b"\n"
        else:
            fields.append(line + b"\n")
    content = tuple(field for field in fields if field.lower().startswith(b"content-"))
    return tuple(field for field in fields if not field.lower().startswith(b"content-")), content, body


@functools.cache
def _seven_bit(ascii_only: bool) -> tuple[tuple[bytes, ...], tuple[bytes, ...], bytes]:
    """The package's part of a 7-bit text (an empty one): its headers are every such text's."""
    return _package_text("", ascii_only)


@functools.cache
def _quoted(ascii_only: bool) -> tuple[tuple[bytes, ...], tuple[bytes, ...], bytes]:
    """The package's part of a non-ASCII text (one letter): its headers are every such text's."""
    return _package_text("\u00e9", ascii_only)


@functools.lru_cache(maxsize=16)
def _attachment_part(filename: str, content_type: str, content: bytes | _Stored, ascii_only: bool) -> bytes:
    """An attachment's MIME part as the email package writes it in a message whose headers are
    ASCII, or UTF-8 (``ascii_only`` False): its headers (`_attachment_head`), then its base64 in the
    package's lines of 76 characters (`base64_lines`).  Kept for the next mails that carry it by its name, type
    and ``content``: a stored file's digest, or its bytes."""
    data = content.data if isinstance(content, _Stored) else content
    head = _attachment_head(filename, content_type, ascii_only)
    return b"".join([head, base64_lines(data), b"\n"]) if data else head


def base64_lines(data: bytes) -> bytes:
    """``data`` in base64, in lines of 76 characters (`BASE64_LINE` bytes each) joined by line ends, as the
    email package writes an attachment; the lines of a PNG chunk that starts a line (`_shared`) made once
    while the chunk's bytes are met again (`_SHARED`: a picture's body, the same in each of its languages)."""
    shared = _shared(data)
    if shared is None:
        return _lines(data)
    start, end, key = shared
    kept = _SHARED.get(key)
    if kept is None or len(kept[0]) != end - start or not data.startswith(kept[0], start):
        kept = data[start:end], _lines(data[start:end])
        with _SHARED_LOCK:
            _SHARED[key] = kept
            while len(_SHARED) > SHARED_KEPT:
                del _SHARED[next(iter(_SHARED))]
    return b"\n".join(piece for piece in (_lines(data[:start]), kept[1], _lines(data[end:])) if piece)


def _lines(data: bytes) -> bytes:
    """``data`` in base64, in lines of 76 characters joined by line ends (none after the last)."""
    encoded = binascii.b2a_base64(data, newline=False)
    width = BASE64_LINE // 3 * 4
    return b"\n".join([encoded[start:start + width] for start in range(0, len(encoded), width)])


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
"""The first bytes of a PNG file (`_shared`; the outbox stores a PNG as it is)."""
SHARED_BYTES = 4096
"""The least a chunk's bytes that are looked for again (`_shared`): a picture's body holds tens of kilobytes."""
SHARED_KEPT = 8
"""The chunks' lines kept (`_SHARED`): a deadline's pictures, each in every language its readers read."""
_SHARED_LOCK = threading.Lock()
_SHARED: dict[tuple[bytes, int], tuple[bytes, bytes]] = {}
"""The lines of chunks met (`_shared`), by the chunk's CRC and length, with the bytes they encode: a chunk whose
key is found is taken only if its bytes are those."""


def _shared(data: bytes) -> tuple[int, int, tuple[bytes, int]] | None:
    """In a PNG, the first IDAT chunk that starts a line of base64 (a multiple of `BASE64_LINE` bytes from the
    file's start) and holds at least `SHARED_BYTES`: the first and the one past the last of its bytes that fill
    whole lines, and its key (its CRC and length); else None."""
    if not data.startswith(PNG_SIGNATURE):
        return None
    at = len(PNG_SIGNATURE)
    while at + 8 <= len(data):
        length = int.from_bytes(data[at:at + 4], "big")
        end = at + 12 + length
        if at % BASE64_LINE == 0 and length >= SHARED_BYTES and data[at + 4:at + 8] == b"IDAT" and end <= len(data):
            return at, at + (end - at) // BASE64_LINE * BASE64_LINE, (data[end - 4:end], length)
        at = end
    return None


@functools.lru_cache(maxsize=64)
def _attachment_head(filename: str, content_type: str, ascii_only: bool) -> bytes:
    """The headers the email package writes for an attachment, and the blank line under them: the same for every
    file of that name and type, whatever its bytes (the package gives bytes base64 whatever they are), so made once
    for all the pictures of a deadline in all their languages (each language's picture is a file of its own)."""
    part = EmailMessage(policy=DEFAULT)
    maintype, _, subtype = content_type.partition("/")
    part.set_content(b"", maintype=maintype, subtype=subtype, filename=filename)
    return part.as_bytes(policy=_ASCII_HEADERS if ascii_only else _UTF8_HEADERS)


@functools.lru_cache(maxsize=4096)
def check_recipient(to: str) -> None:
    """ValueError if no ``To`` header can carry ``to`` (a line break in it, even inside an encoded
    word: header injection), as `build_message` would raise: for checking it when a mail is queued.
    An address found good is remembered (parsing a header costs more than queueing the mail);
    one found bad is checked again each time (an error is never remembered)."""
    EmailMessage(policy=DEFAULT)["To"] = to


def one_line(text: str) -> str:
    """``text`` on one line, safe in any header: no control or line-separator character.

    Those characters and runs of whitespace become one space, lone surrogates (which cannot be
    encoded) become U+FFFD, and the ends are stripped.
    """
    kept = (" " if unicodedata.category(c) in ("Cc", "Zl", "Zp") else c for c in well_formed(text))
    return " ".join("".join(kept).split())


def well_formed(text: str) -> str:
    """``text`` with lone surrogates (which no codec can encode) replaced by U+FFFD."""
    return _SURROGATES.sub("\ufffd", text)


def usable_message_id(value: str | None) -> str | None:
    """``value`` stripped, if it is 1 to MAX_MESSAGE_ID visible ASCII characters and no ``=?``; else None.

    Anything else (spaces, controls, line breaks, non-ASCII, the start of an encoded word that
    would be decoded when written into In-Reply-To) is dropped rather than repaired: a repaired
    id would match no message anyway.
    """
    value = (value or "").strip()
    if not value or len(value) > MAX_MESSAGE_ID or "=?" in value or not all("!" <= c <= "~" for c in value):
        return None
    return value


def thread(references: Sequence[str], replied: str) -> list[str]:
    """The ``References`` of an answer to ``replied`` whose own References were ``references``:
    those that are `usable_message_id`, then ``replied``, each once, in angle brackets; at most
    MAX_REFERENCES, keeping the first (the thread's start) and the latest."""
    ids: list[str] = []
    for value in [*references, replied]:
        usable = usable_message_id(value)
        if usable and angled(usable) not in ids:
            ids.append(angled(usable))
    return ids if len(ids) <= MAX_REFERENCES else [ids[0], *ids[-(MAX_REFERENCES - 1):]]


def angled(message_id: str) -> str:
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
        """Add ``message`` to new/ (`deliver_all`); returns its Maildir key."""
        [delivered] = self.deliver_all([message])
        if isinstance(delivered, OSError):
            raise delivered
        return delivered

    def deliver_all(self, messages: Sequence[bytes]) -> list[str | OSError]:
        """Add each of ``messages`` to new/: each one's Maildir key, or the error that kept it out.

        Each is written to tmp/, then all of them are made durable at once (`_sync`), then each is
        moved to new/ and new/ itself made durable: a message is in new/ only once its bytes are on
        disk, as Python's mailbox makes sure with a fsync a file, but for one commit of the
        filesystem's journal instead of one a message (5 ms each on the bench's machine, for a
        results mail with its maps; under 1 ms each by twenty)."""
        written: list[tuple[Path, str] | OSError] = []
        for message in messages:
            key = _unique_key()
            temporary = self.path / "tmp" / key
            try:
                with open(temporary, "xb") as file:
                    file.write(message)
                written.append((temporary, key))
            except OSError as exc:
                with contextlib.suppress(OSError):
                    os.remove(temporary)
                written.append(exc)
        files = [item for item in written if not isinstance(item, OSError)]
        if not files:
            return [item if isinstance(item, OSError) else item[1] for item in written]
        try:
            _sync([path for path, _ in files])
            for path, key in files:
                os.rename(path, self.path / "new" / key)
            _sync_folder(self.path / "new")
        except OSError as exc:  # none of them is known to be on disk: none is delivered
            for path, key in files:
                with contextlib.suppress(OSError):
                    os.remove(path)
                with contextlib.suppress(OSError):
                    os.remove(self.path / "new" / key)
            return [exc for _ in written]
        return [item if isinstance(item, OSError) else item[1] for item in written]

    def remove_partial(self) -> int:
        """Delete every file in tmp/ (writes a crash cut short); returns how many.

        A write under way in another process then fails and is retried: its message never
        reached new/, which is all a reader looks at.
        """
        removed = 0
        with os.scandir(self.path / "tmp") as entries:
            for entry in entries:
                if entry.is_file(follow_symlinks=False):
                    with contextlib.suppress(FileNotFoundError):
                        os.remove(entry.path)
                        removed += 1
        return removed

    def messages(self) -> list[bytes]:
        """Every message in new/ and cur/, oldest first (file mtime, then key) — for tests and demos."""
        return [path.read_bytes() for path in self.files()]

    def files(self, known: Container[str] = ()) -> list[Path]:
        """The file of every message in new/ and cur/ but those named in ``known``, oldest first (file mtime,
        then key): a reader that has read some asks only for the others (a file delivered is never written
        again, and one delivered later comes after it)."""
        found: list[tuple[int, list[str | int], Path]] = []
        for sub in ("new", "cur"):
            with os.scandir(self.path / sub) as entries:
                for entry in entries:
                    if entry.name in known or entry.name.startswith(".") or not entry.is_file():
                        continue
                    key = entry.name.split(self._box.colon)[0]
                    found.append((entry.stat().st_mtime_ns, _natural(key), Path(entry.path)))
        found.sort(key=lambda item: (item[0], item[1]))
        return [path for _, _, path in found]

    def message_ids(self) -> set[str]:
        """The Message-ID of every message in new/ and cur/, from its header alone.

        What a restart asks (`judge.service.outgoing.sender.recover`) of a Maildir that keeps every mail
        the judge sent, maps and all: reading each one whole took over half a minute once 2,400
        mails (1.1 GB) were there on a busy two-core machine, and a judge that was killed again
        within that time never got going (`bench/season.py`)."""
        found: set[str] = set()
        for sub in ("new", "cur"):
            with os.scandir(self.path / sub) as entries:
                for entry in entries:
                    if entry.name.startswith(".") or not entry.is_file():
                        continue
                    with contextlib.suppress(FileNotFoundError), open(entry.path, "rb") as file:
                        if message_id := _message_id(file):
                            found.add(message_id)
        return found


_counter = itertools.count(1)


def _unique_key() -> str:
    """A new message's Maildir key, made as Python's mailbox makes one: the time, the process and a
    counter, and the host's name (its ``/`` and ``:`` escaped)."""
    now = time.time()
    host = socket.gethostname().replace("/", "\\057").replace(":", "\\072")
    return f"{int(now)}.M{int((now % 1) * 1e6)}P{os.getpid()}Q{next(_counter)}.{host}"


_SYNCING = ThreadPoolExecutor(max_workers=20, thread_name_prefix="judge-fsync")


def _sync(paths: Sequence[Path]) -> None:
    """Make the files ``paths`` durable, all at once: their fsyncs run together, so that the
    filesystem commits its journal once for the batch, not once a file (a file's fsync waits
    about 5 ms for its commit here; twenty at once, 1 ms a file).  Raises the first error.  A file
    alone is made durable here: handing it to a thread and waiting for it cost as much again as
    the fsync on a fast disk."""
    if len(paths) == 1:
        _fsync(paths[0])
        return
    list(_SYNCING.map(_fsync, paths))  # each one's result taken: an error raises here


def _fsync(path: Path) -> None:
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _sync_folder(folder: Path) -> None:
    """Make the names in ``folder`` durable (a rename into it)."""
    _fsync(folder)


def _message_id(file: BinaryIO) -> str | None:
    """The Message-ID in the header of the message ``file`` holds (read up to the blank line)."""
    header = []
    for line in file:
        if line in (b"\n", b"\r\n"):
            break
        header.append(line)
    value = BytesHeaderParser(policy=policy.compat32).parsebytes(b"".join(header)).get("Message-ID")
    return str(value).strip() if value else None


def _natural(key: str) -> list[str | int]:
    """A sort key reading the digit runs of a Maildir key as numbers (its counters are not padded)."""
    return [int(token) if token.isdigit() else token for token in re.split(r"(\d+)", key)]
