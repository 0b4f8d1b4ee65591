"""Inbound mail: raw message bytes in, the sender and the lines of command text out.

The judge reads orders from mail written by people with every kind of mail client, so this
module is deliberately forgiving: it never raises on any input, picks the first readable text
part (plain text, else HTML turned into text, else a text/plain attachment when the message
itself says nothing), decodes transfer encodings and charsets with a lossy fallback, and throws
away what is not a command (quoted lines, signatures, anything after ``SIGNOFF``, and the old
mail that clients paste below a reply separator such as ``-----Original Message-----``).  It
also flags mail that must never be answered (bounces, auto-replies, lists, our own messages)
so the judge cannot be drawn into a mail loop.  It knows nothing of games.

An attribution line (``On <date>, <someone> wrote:``) is the one separator below which reading
may go on, for a reply written inline: a phone's "reply inline" quotes the old mail below the
attribution and the player writes between its quoted lines (a form filled in where it stands).
The rule (`_inline_below`): when the first non-blank line after the attribution is quoted (``>``)
and no unquoted line below it is indented (up to where reading stops again: a signature,
``SIGNOFF``, another separator), what follows is a quoted mail with the player's lines among it:
the quoted lines are dropped as anywhere else, the unquoted ones, between the quoted lines or
after them, are read as the player's.  Otherwise the client pasted the old mail as it was (the
judge's prose and form unquoted; or the judge's reply, whose echoes of the player's lines are
quoted ``> STATUS`` and its answers indented): reading stops at the attribution, as it does at
every other separator (``-----Original Message-----``, a ``From:``/``Sent:`` block: Outlook's
top-post, whose old mail is never quoted), so that no line of the judge's is read as the player's.

It knows one piece of the command language, press blocks (`press_closed`): inside a block
that ``ENDPRESS`` ends, every line is press text, kept as written, a signature separator,
a reply separator, a quoted (``>``) line or ``SIGNOFF`` included: a writer who quotes a
letter in press means it to be sent.  A block with no ``ENDPRESS`` is read like any other
text, so a forgotten ``ENDPRESS`` does not carry a signature and a pasted old mail into the
lines; `judge.commands.parse` refuses such a block and reads none of the lines after it.

The header values it returns go straight into the judge's answer (To, Subject, In-Reply-To),
so they are cleaned and bounded here: an address with any control, separator or whitespace
character is no address, a Message-ID that is not plain visible ASCII is dropped, and the
subject is put on one line.  A mail that could not be answered would fail again on every try.
"""

from __future__ import annotations

import codecs
import email
import email.parser
import email.policy
import email.utils
import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from email.header import decode_header, make_header
from email.message import Message
from functools import lru_cache
from html.parser import HTMLParser
from typing import Any, NamedTuple

from judge.mail.flowed import unflow
from judge.mail.headers import DEFAULT
from judge.mail.outbound import one_line, usable_message_id, well_formed

MAX_LINES = 2000
MAX_CHARS = 200_000
MAX_SUBJECT = 200  # characters of the subject kept
MAX_ADDRESS = 254  # characters of an address (RFC 5321's limit on a forward path, less its brackets)
MAX_STOPPED_AT = 80  # characters of a reply separator kept in `InboundMail.stopped_at`

_MAX_PARTS = 1000  # MIME parts looked at before giving up on finding a text part
_MAX_DEPTH = 50  # nesting depth of multiparts followed

_MAX_HEADER_CHARS = 4096  # a header is cut there before parsing: the parser is slow on huge ones

_SIGNATURE_SEPARATORS = ("-- ", "--")
_BULK_PRECEDENCE = frozenset({"bulk", "junk", "list", "auto_reply"})
_RESPONDER_HEADERS = ("X-Autoreply", "X-Autorespond")  # auto-responders that ignore RFC 3834
_DAEMONS = ("mailer-daemon", "postmaster")


@dataclass(frozen=True)
class InboundMail:
    """What the judge needs to know about one incoming message."""

    sender: str  # bare address of From, domain part lower-cased; "" if none or unusable
    reply_to: str  # bare address to answer: Reply-To if present and usable, else sender
    subject: str  # decoded subject, on one line, at most MAX_SUBJECT characters; "" if none
    message_id: str | None  # the Message-ID header value, stripped; None if absent or not visible ASCII
    lines: tuple[str, ...]  # the command text (see `command_lines`)
    html_only: bool  # no text/plain part: the text came from text/html
    no_text: bool  # neither a text/plain nor a text/html part
    automatic: bool  # must never be answered (bounce, auto-reply, list, loop)
    truncated: bool  # the text was cut at MAX_LINES / MAX_CHARS
    stopped_at: str | None  # the separator reading stopped at, text after it (cut); None if none (`command_lines`)
    from_attachment: bool  # the message itself had no command text: it came from a text/plain attachment
    references: tuple[str, ...] = ()  # the thread it answers: References, else In-Reply-To (`_references`)
    recipients: tuple[str, ...] = ()  # the usable addresses of To and Cc, lower-cased, each once (`_recipients`)


def parse_mail(raw: bytes, *, envelope_from: str | None = None, loop_marker: str = "X-Payola-Judge") -> InboundMail:
    """Parse one raw message; never raises on any bytes.

    ``envelope_from`` is the SMTP envelope sender if the delivery agent knows it (``""`` for a
    bounce); ``loop_marker`` names the header the judge puts on its own mail.
    """
    msg = _parse(raw)
    if msg is None:
        return InboundMail("", "", "", None, (), False, True, envelope_from in ("", "<>"), False, None, False)
    sender = _first_address(msg, "From")
    reply_to = _first_address(msg, "Reply-To") or sender
    reading, html_only, no_text, from_attachment = _reading(msg)
    return InboundMail(
        sender=sender,
        reply_to=reply_to,
        subject=_subject(msg),
        message_id=_message_id(msg),
        lines=reading.lines,
        html_only=html_only,
        no_text=no_text,
        automatic=_is_automatic(msg, sender, envelope_from, loop_marker),
        truncated=reading.truncated,
        stopped_at=reading.stopped_at,
        from_attachment=from_attachment,
        references=_references(msg),
        recipients=_recipients(msg),
    )


def read_text(raw: bytes) -> tuple[str, tuple[str, ...]]:
    """The subject and the command lines of a raw message, read exactly as `parse_mail` reads
    them, and nothing else (no addresses, no flags): what `judge.mail.redact` needs to check
    what a stored copy still shows, at a fraction of the cost."""
    msg = _parse(raw)
    if msg is None:
        return "", ()
    return _subject(msg), _reading(msg)[0].lines


def _reading(msg: Message) -> tuple[CommandText, bool, bool, bool]:
    """The command text of a message (`command_lines` of its first readable text part, else of
    a text/plain attachment), and whether it came from HTML, whether there was no text part,
    and whether it came from the attachment."""
    text, html_only, no_text = _body_text(msg)
    reading = command_lines(text)
    if not reading.lines:
        attached = _text_attachment(msg)
        if attached is not None and (attached_reading := command_lines(_part_text(attached))).lines:
            return attached_reading, False, False, True
    return reading, html_only, no_text, False


class CommandText(NamedTuple):
    """What `command_lines` read from a body text."""

    lines: tuple[str, ...]  # the command lines
    truncated: bool  # cut at MAX_LINES / MAX_CHARS
    stopped_at: str | None  # the separator reading stopped at with text after it, or None (`command_lines`)


def command_lines(text: str) -> CommandText:
    """The command lines of a body text, whether they were cut at the limits, and where reading stopped.

    Lines lose trailing whitespace; quoted lines (``>``) are dropped; the text stops before a
    signature separator (``-- `` or ``--``), a ``SIGNOFF`` line or a reply separator (the old
    mail a client pastes below the answer, unquoted; not an attribution that a quoted mail follows,
    below which the player may have written inline: `_inline_below`): that line is ``stopped_at``, as written for
    a signature separator (``-- ``) and ``SIGNOFF``, stripped for a reply separator, when text
    follows it (a signature, the old mail: the answer says it was not read).  Inside a press
    block that ``ENDPRESS`` ends, none of that applies: every line is kept (`press_closed`).  Blank lines inside are
    kept, leading and trailing ones are not.  Only lost non-blank text counts as truncation.
    """
    text_lines = list(_split_lines(text))
    closed = press_closed(text_lines)
    out: list[str] = []
    blanks = 0  # blank lines seen since the last kept line, kept only if text follows
    chars = 0  # length of "\n".join(out)
    in_press = False
    skip = 0  # the first line after an attribution passed over (`_inline_below`)
    for index, raw_line in enumerate(text_lines):
        if index < skip:
            continue
        line = raw_line.rstrip()
        if in_press:
            in_press = not ends_press(line)
        elif line:
            if raw_line in _SIGNATURE_SEPARATORS or line.strip().lower() == "signoff":
                rest = any(following.strip() for following in text_lines[index + 1:])
                return CommandText(tuple(out), False, raw_line[:MAX_STOPPED_AT] if rest else None)
            if line.lstrip().startswith(">"):
                continue
            separator = _reply_separator(text_lines, index)
            if separator is not None:
                below = _inline_below(text_lines, index, separator)
                if below is None:
                    return CommandText(tuple(out), False, separator[:MAX_STOPPED_AT])
                skip = below  # a reply written inline: the attribution is passed over, its quoted mail read on
                continue
            in_press = opens_press(line) and closed[index]
        if not line:
            blanks += 1 if out else 0
            continue
        needed = len(line) + blanks + (1 if out else 0)
        if len(out) + blanks + 1 > MAX_LINES or chars + needed > MAX_CHARS:
            room = MAX_CHARS - chars - blanks - (1 if out else 0)
            if len(out) + blanks + 1 <= MAX_LINES and room > 0:
                out.extend([""] * blanks)
                out.append(line[:room])
            return CommandText(tuple(out), True, None)
        out.extend([""] * blanks)
        out.append(line)
        chars += needed
        blanks = 0
    return CommandText(tuple(out), False, None)


def _split_lines(text: str) -> Iterator[str]:
    """Lines of ``text`` without their endings (``\\r\\n``, ``\\n`` or a lone ``\\r``)."""
    for line in text.split("\n"):
        if line.endswith("\r"):
            line = line[:-1]
        yield from line.split("\r")


# --- press blocks -------------------------------------------------------------------------------

_PRESS_WORDS = ("PRESS", "BROADCAST")
_PRESS_RESTART = re.compile(r"PRESS\s+TO\s+\S.*|BROADCAST(\s+(GREY|GRAY|WHITE))?", re.IGNORECASE)


def opens_press(line: str) -> bool:
    """Whether ``line``, read outside press, opens a press block: its first word is PRESS or BROADCAST."""
    words = line.split(maxsplit=1)
    return bool(words) and words[0].upper() in _PRESS_WORDS


def ends_press(line: str) -> bool:
    """Whether ``line`` ends a press block: ``ENDPRESS`` alone, any case."""
    return line.strip().upper() == "ENDPRESS"


def restarts_press(line: str) -> bool:
    """Whether ``line``, met inside press, opens another block (``PRESS TO ...``, or ``BROADCAST``
    alone or with its colour).

    The block before it then lacks its ``ENDPRESS``: taking ``ENDPRESS`` further down as its end
    would send one power the press (and anything else) meant for another.
    """
    return _PRESS_RESTART.fullmatch(line.strip()) is not None


def press_closed(lines: Sequence[str]) -> list[bool]:
    """For each line, whether a press block it opened would be ended by ``ENDPRESS``.

    That is, whether the first line after it that ends a block (`ends_press`) or opens another
    (`restarts_press`) is an ``ENDPRESS``.  Computed for every line in one pass from the end,
    so reading a mail stays linear however many ``PRESS`` lines it has.
    """
    closed = [False] * len(lines)
    ended = False
    for index in range(len(lines) - 1, -1, -1):
        closed[index] = ended
        if ends_press(lines[index]):
            ended = True
        elif restarts_press(lines[index]):
            ended = False
    return closed


# --- reply separators ---------------------------------------------------------------------------

_ORIGINAL_MESSAGE = re.compile(
    r"-+\s*(?:original message|forwarded message|ursprüngliche nachricht|weitergeleitete nachricht"
    r"|message d'origine|message transféré|mensaje original|mensaje reenviado|messaggio originale"
    r"|messaggio inoltrato|oorspronkelijk bericht|doorgestuurd bericht|mensagem original)\s*-+",
    re.IGNORECASE,
)
_FORWARD_INTROS = frozenset({  # Apple Mail's forward, in a few languages
    "begin forwarded message:", "anfang der weitergeleiteten nachricht:", "début du message réexpédié :",
    "début du message réexpédié:", "inicio del mensaje reenviado:", "inizio messaggio inoltrato:",
})  # fmt: skip
_UNDERSCORES = re.compile(r"_{10,}")  # Outlook's line above the header block
_HEADER_FROM = re.compile(r"\*?(?:from|von|de|da|van)\s*:\*?(?:\s|$)", re.IGNORECASE)
_HEADER_NEXT = re.compile(
    r"\*?(?:sent|date|to|cc|subject|gesendet|datum|an|betreff|envoyé|à|objet|inviato|data|a|oggetto"
    r"|enviado|fecha|para|asunto|verzonden|aan|onderwerp)\s*:",
    re.IGNORECASE,
)
_HEADER_REACH = 3  # lines after From: that may hold the next header (blank lines between them)
_ATTRIBUTION = re.compile(  # "On <date>, <someone> wrote:" and its common translations
    r"(?:on\s.*\swrote|le\s.*\sa\s+écrit|am\s.*\sschrieb\s.*|el\s.*\sescribió|il\s.*\sha\s+scritto"
    r"|op\s.*\sschreef\s.*|em\s.*\sescreveu)\s*:",
    re.IGNORECASE,
)
_MAX_ATTRIBUTION = 400  # characters: longer lines are not tested (the pattern is quadratic on them)


def _reply_separator(lines: Sequence[str], index: int) -> str | None:
    """The reply separator that starts at ``lines[index]``, stripped, or None if there is none.

    A reply separator is where a client pastes the mail being answered or forwarded, often
    unquoted: ``-----Original Message-----`` and its kin (any number of dashes, any case, a
    few languages), Apple Mail's ``Begin forwarded message:``, a line of 10 or more
    underscores (Outlook), a header block (``From:`` followed within _HEADER_REACH lines by
    ``Sent:``, ``Date:``, ``To:``, ``Cc:`` or ``Subject:``, also in a few languages), and an
    attribution ``On <date>, <someone> wrote:`` (or ``Le ... a écrit :``, ``Am ... schrieb
    ...:`` ...), which Gmail may break over two lines: the separator is then both, joined.
    """
    line = lines[index].strip()
    if _ORIGINAL_MESSAGE.fullmatch(line) or _UNDERSCORES.fullmatch(line) or line.lower() in _FORWARD_INTROS:
        return line
    if _HEADER_FROM.match(line) and any(
        _HEADER_NEXT.match(following.strip()) for following in lines[index + 1 : index + 1 + _HEADER_REACH]
    ):
        return line
    if len(line) > _MAX_ATTRIBUTION:
        return None
    if _ATTRIBUTION.fullmatch(line):
        return line
    if index + 1 < len(lines):
        joined = f"{line} {lines[index + 1].strip()}"
        if len(joined) <= _MAX_ATTRIBUTION and _ATTRIBUTION.fullmatch(joined):
            return joined
    return None


def _inline_below(lines: Sequence[str], index: int, separator: str) -> int | None:
    """Where reading goes on below the reply separator ``separator`` found at ``lines[index]``: the
    line after it when it is an attribution (of one line, or of two that Gmail broke) above an old mail
    quoted, the player's lines among it; None when reading stops there (any other separator, or an
    attribution above an old mail pasted unquoted).

    The old mail is quoted when the first non-blank line below the attribution is quoted and no
    unquoted line below it is indented, up to where reading would stop again (a signature, ``SIGNOFF``,
    another separator): a player writes inline at the margin, while the judge's reply pasted unquoted
    has its echoes of the player's lines quoted (``> STATUS``) and its answers indented below them.
    Each line is looked at once by one attribution's search (it ends at the next separator), so a mail
    of many stays linear."""
    if not _ATTRIBUTION.fullmatch(separator):
        return None
    below = index + (1 if separator == lines[index].strip() else 2)
    quoted = False
    for at in range(below, len(lines)):
        line = lines[at].rstrip()
        if not line:
            continue
        if line.lstrip().startswith(">"):
            quoted = True
            continue
        if not quoted or line[0].isspace():
            return None  # an old mail pasted unquoted, or a judge's reply's answer
        if lines[at] in _SIGNATURE_SEPARATORS or line.strip().lower() == "signoff" \
                or _reply_separator(lines, at) is not None:
            break
    return below if quoted else None


# --- parsing and headers -----------------------------------------------------------------------


class _Compat32(email.policy.Compat32):
    """The `compat32` policy, with header values cut at _MAX_HEADER_CHARS when read.

    Its parameter parser takes quadratic time (10 s for a 1 MB Content-Type).
    """

    def header_fetch_parse(self, name: str, value: str) -> Any:
        return super().header_fetch_parse(name, value[:_MAX_HEADER_CHARS])


LENIENT = _Compat32()  # the policy every message is parsed with here and in `judge.mail.dsn`


def _parse(raw: bytes) -> Message | None:
    """The parsed message; only its headers if the body defeats the parser; None if all fails.

    The MIME structure is parsed with the `compat32` policy, which reads headers as plain
    strings: `email.policy.default` parses every Content-Type it meets (about 15 times slower,
    16 s for a 2 MB message of 100,000 parts) and raises on some malformed headers.  The few
    headers that need real parsing go through `email.policy.default` (`DEFAULT`) one by one (`_structured`).
    """
    try:
        return email.message_from_bytes(bytes(raw), policy=LENIENT)
    except Exception:
        pass
    try:
        return email.parser.BytesParser(policy=LENIENT).parsebytes(bytes(raw), headersonly=True)
    except Exception:
        return None


def header_values(msg: Message, name: str) -> list[str]:
    """Unparsed values of every header called ``name``: cut at _MAX_HEADER_CHARS, unfolded, readable."""
    try:
        items = list(msg.raw_items())
    except Exception:
        return []
    values = []
    for key, value in items:
        if isinstance(key, str) and key.strip().lower() == name.lower():
            text = (value if isinstance(value, str) else str(value))[:_MAX_HEADER_CHARS]
            values.append(_clean_text(re.sub(r"\r?\n[ \t]*", " ", text)))
    return values


def _structured(msg: Message, name: str) -> Any:
    """The first ``name`` header parsed by `email.policy.default` (RFC 2047 decoded), or None.

    Headers are cut at _MAX_HEADER_CHARS first: the parser takes quadratic time on some long
    ones (a From with thousands of addresses, a Subject with thousands of encoded words).
    """
    raw = header_values(msg, name)
    return _parsed(name, raw[0]) if raw else None


def _parsed(name: str, value: str) -> Any:
    """Header ``name`` with the unparsed ``value`` parsed by `email.policy.default`, or None."""
    try:
        return DEFAULT.header_fetch_parse(name, value)
    except Exception:
        return None


def _subject(msg: Message) -> str:
    """The subject, RFC 2047 words decoded, on one line (`one_line`), cut at MAX_SUBJECT."""
    raw = header_values(msg, "Subject")
    if not raw:
        return ""
    header = _structured(msg, "Subject")
    if header is not None:
        subject = str(header)
    else:
        try:
            subject = str(make_header(decode_header(raw[0])))
        except Exception:
            subject = raw[0]
    return one_line(_clean_text(subject))[:MAX_SUBJECT].rstrip()


def _message_id(msg: Message) -> str | None:
    """The Message-ID as written (folding and surrounding whitespace removed), if `usable_message_id`.

    One with anything but visible ASCII is dropped, not repaired: it only serves to thread the
    answer and to spot a mail delivered twice, and a repaired id would do neither reliably.
    """
    raw = header_values(msg, "Message-ID")
    return usable_message_id(raw[0]) if raw else None


_MESSAGE_IDS = re.compile(r"<[^<>\s]+>")
_MAX_REFERENCES = 100  # ids read from References; an answer keeps fewer (outbound.MAX_REFERENCES)


def _references(msg: Message) -> tuple[str, ...]:
    """The message ids of ``References`` (else of ``In-Reply-To``), each a `usable_message_id`."""
    for name in ("References", "In-Reply-To"):
        values = header_values(msg, name)
        if values:
            found = (usable_message_id(m) for m in _MESSAGE_IDS.findall(values[0])[:_MAX_REFERENCES])
            return tuple(m for m in found if m)
    return ()


MAX_RECIPIENTS = 50  # addresses of To and Cc kept: enough to tell whether anyone besides the judge was sent it


def _recipients(msg: Message) -> tuple[str, ...]:
    """The usable addresses of To and Cc (`usable_address`), lower-cased, each once, at most
    MAX_RECIPIENTS: whom else the mail was sent to, for a game that reads orders only from mail
    sent to the judge alone (Machiavelli's 17.4).  Bcc is not in the mail, and does not count.
    A function of the headers' text alone: a short one is remembered (`_remembered_recipients`),
    as nearly every mail is addressed to the judge alone, in the same words."""
    raw = (*header_values(msg, "To"), *header_values(msg, "Cc"))
    return (_remembered_recipients if sum(map(len, raw)) <= _REMEMBERED_CHARS else _recipients_in)(raw)


def _recipients_in(raw: tuple[str, ...]) -> tuple[str, ...]:
    """`_recipients` of the To and Cc values ``raw``."""
    found: dict[str, None] = {}
    candidates = safe_getaddresses(list(raw))
    for _, candidate in candidates[:2 * MAX_RECIPIENTS]:  # each is checked by the email package: bounded
        if address := usable_address(candidate).lower():
            found[address] = None
    return tuple(found)[:MAX_RECIPIENTS]


def _first_address(msg: Message, name: str) -> str:
    """The first usable bare address in header ``name``, or "" (`_address_in`).  A function of
    the header's text alone, so a short one is remembered (`_remembered_address`): a player's
    mails carry the same From line one after another, and parsing it is the dearest part of
    reading a mail's headers."""
    raw = tuple(header_values(msg, name))
    return (_remembered_address if sum(map(len, raw)) <= _REMEMBERED_CHARS else _address_in)(name, raw)


def _address_in(name: str, raw: tuple[str, ...]) -> str:
    """The first usable bare address in the values ``raw`` of header ``name``, or "".

    Only an address written as such in the header counts: the parsers quietly drop some
    characters (``a@b\\fc.org`` reads as ``a@bc.org``), and that is not the sender's address.
    Where the first mailbox has an address in angle brackets, that is the address, as a
    DMARC-checking MTA reads it, whatever its display name looks like (``victim@evil.org
    <bob@example.org>`` is bob's mail; the parsers took the display name for the address):
    that address, or "" if it is not usable.
    """
    angled = _ANGLED.match(raw[0]) if raw else None
    if angled is not None:
        return usable_address(angled.group(1))
    candidates: list[str] = []
    try:
        addresses = getattr(_parsed(name, raw[0]) if raw else None, "addresses", None) or ()
        candidates.extend(str(a.addr_spec) for a in addresses)
    except Exception:
        pass
    candidates.extend(addr for _, addr in safe_getaddresses(list(raw)))
    written = " ".join(raw)
    for candidate in candidates:
        address = usable_address(candidate)
        if address and candidate.strip().strip("<>") in written:
            return address
    return ""


# The first mailbox of a header, up to the address in its angle brackets if it has one: quoted
# strings and comments are skipped whole, and a comma ends the mailbox.
_ANGLED = re.compile(r'\s*(?:"(?:[^"\\]|\\.)*"|\([^()]*\)|[^"(<,])*<([^<>]*)>')
_REMEMBERED_CHARS = 500  # the longest header text remembered: 1024 of them take well under a megabyte
_remembered_address = lru_cache(maxsize=1024)(_address_in)
_remembered_recipients = lru_cache(maxsize=1024)(_recipients_in)


def usable_address(address: str) -> str:
    """``local@domain`` with the domain lower-cased, or "" if it is not usable as a recipient.

    Usable means: at most MAX_ADDRESS characters, not one control, separator or whitespace
    character anywhere (quoted or not, ASCII or not: U+2028 and U+0085 would become line breaks
    in the answer's To) nor an undecodable byte, and written back unchanged by the email
    package when the answer is built (it decodes RFC 2047 words even inside an address).
    """
    address = _clean_text(address).strip().strip("<>")
    local, at, domain = address.rpartition("@")
    if not at or not local or not domain or "@" in domain or len(address) > MAX_ADDRESS:
        return ""
    if any(unicodedata.category(c)[0] in "CZ" or c.isspace() or c == "\ufffd" for c in address):
        return ""  # U+FFFD: bytes that were not UTF-8, so not the address as its owner wrote it
    if any(c in "<>,;\\" for c in domain) or ("@" in local and not local.startswith('"')):
        return ""
    address = f"{local}@{domain.lower()}"
    return address if _written_back(address) == address else ""


def _written_back(address: str) -> str | None:
    """``address`` as the email package reads it in a To header, or None if it cannot."""
    try:
        addresses = DEFAULT.header_factory("To", address).addresses
    except Exception:
        return None
    return str(addresses[0].addr_spec) if len(addresses) == 1 else None


def _is_automatic(msg: Message, sender: str, envelope_from: str | None, loop_marker: str) -> bool:
    """Whether the message is one the judge must never answer (RFC 3834 and common practice:
    a null envelope sender, ``Auto-Submitted`` other than ``no``, ``Precedence: bulk``, ``junk``,
    ``list`` or ``auto_reply``, an ``X-Autoreply`` or ``X-Autorespond`` header, an empty
    Return-Path, the judge's own loop header, a list's ``List-Id``, or a mailer daemon)."""
    if envelope_from is not None and envelope_from.strip() in ("", "<>"):
        return True
    for value in header_values(msg, "Auto-Submitted"):
        if value.split(";")[0].split("(")[0].strip().lower() != "no":
            return True
    if any(v.strip().lower() in _BULK_PRECEDENCE for v in header_values(msg, "Precedence")):
        return True
    if any("".join(v.split()) in ("", "<>") for v in header_values(msg, "Return-Path")):
        return True
    if header_values(msg, loop_marker) or header_values(msg, "List-Id"):
        return True
    if any(header_values(msg, name) for name in _RESPONDER_HEADERS):
        return True
    from_values = [sender] + [addr for _, addr in safe_getaddresses(header_values(msg, "From"))]
    return any(v.strip().lower().partition("@")[0] in _DAEMONS for v in from_values)


def safe_getaddresses(values: list[str]) -> list[tuple[str, str]]:
    """`email.utils.getaddresses`, or nothing if it fails."""
    try:
        return email.utils.getaddresses(values)
    except Exception:
        return []


def _clean_text(text: str) -> str:
    """``text`` with smuggled raw bytes (surrogate escapes) read as UTF-8, never unencodable."""
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeError:
        return text.encode("utf-8", "replace").decode("utf-8", "replace")


# --- body ------------------------------------------------------------------------------------------


def _body_text(msg: Message) -> tuple[str, bool, bool]:
    """The text of the first text/plain part, else of the first text/html part as plain text.

    Returns the text, whether it came from HTML, and whether there was no text part at all.
    """
    html: Message | None = None
    for part in _text_parts(msg):
        subtype = _content_type(part)
        if subtype == "text/plain":
            return _part_text(part), False, False
        if html is None:
            html = part
    if html is not None:
        return html_to_text(_part_text(html)), True, False
    return "", False, True


def _text_parts(msg: Message) -> Iterator[Message]:
    """text/plain and text/html leaves, depth first, not inside attachments or attached mail."""
    for part, attached in _leaves(msg):
        if not attached and _content_type(part) in ("text/plain", "text/html"):
            yield part


def _text_attachment(msg: Message) -> Message | None:
    """The first text/plain attachment (``Content-Disposition: attachment``), or None.

    Some clients (and players) send their orders as a file attached to an empty message.
    """
    for part, attached in _leaves(msg):
        if attached and _content_type(part) == "text/plain":
            return part
    return None


def _leaves(msg: Message) -> Iterator[tuple[Message, bool]]:
    """Leaf parts, depth first, each with whether it is an attachment; attachments and attached
    mail are not looked into.  At most _MAX_PARTS parts and _MAX_DEPTH levels are looked at."""
    stack: list[tuple[Message, int]] = [(msg, 0)]
    seen = 0
    while stack and seen < _MAX_PARTS:
        part, depth = stack.pop()
        seen += 1
        try:
            attached = part is not msg and part.get_content_disposition() == "attachment"
            if not attached and part.is_multipart():
                children = part.get_payload()
                if _content_type(part).startswith("multipart/") and depth < _MAX_DEPTH and isinstance(children, list):
                    stack.extend((child, depth + 1) for child in reversed(children) if isinstance(child, Message))
                continue
        except Exception:
            continue
        yield part, attached


def _content_type(part: Message) -> str:
    """The part's content type (text/plain when missing or unreadable)."""
    try:
        return str(part.get_content_type()).lower()
    except Exception:
        return "text/plain"


def _part_text(part: Message) -> str:
    """The decoded text of a leaf part: transfer encoding undone, then its charset."""
    try:
        data = part.get_payload(decode=True)
    except Exception:
        data = None
    if not isinstance(data, bytes):
        try:
            payload = part.get_payload()
            data = payload.encode("utf-8", "surrogateescape") if isinstance(payload, str) else b""
        except Exception:
            data = b""
    text = _decode(data, _charset(part))
    if _is_flowed(part):
        text = unflow(text, delsp=_param(part, "delsp").lower() == "yes")
    return text


def _charset(part: Message) -> str:
    """The declared charset, or "utf-8"."""
    try:
        return str(part.get_content_charset() or "utf-8")
    except Exception:
        return "utf-8"


def _param(part: Message, name: str) -> str:
    """A Content-Type parameter as a plain string, "" if absent or unreadable."""
    try:
        value = part.get_param(name)
        if isinstance(value, tuple):
            value = value[2]
        return str(value) if value else ""
    except Exception:
        return ""


def _decode(data: bytes, charset: str) -> str:
    """``data`` in ``charset``; if unknown or wrong: UTF-8, else Windows-1252, else Latin-1.

    Lone surrogates, which some codecs produce (UTF-7, ``unicode_escape``), become U+FFFD: they
    could not be encoded in the answer that echoes the text.

    Mail that lies about its charset is nearly always Windows-1252 or Latin-1 labelled as
    UTF-8 (or unlabelled), so trying those keeps a player's accents instead of losing them.
    """
    try:
        if codecs.lookup(charset)._is_text_encoding:
            return well_formed(data.decode(charset))
    except Exception:
        pass
    for fallback in ("utf-8", "cp1252"):
        try:
            return data.decode(fallback)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def _is_flowed(part: Message) -> bool:
    """Whether the part is text/plain with ``format=flowed`` (RFC 3676)."""
    return _content_type(part) == "text/plain" and _param(part, "format").lower() == "flowed"


# --- HTML ---------------------------------------------------------------------------------------------

_SKIPPED_TAGS = frozenset({"script", "style", "head", "title", "template", "blockquote"})
_BLOCK_TAGS = frozenset(
    {
        "p", "div", "tr", "li", "ul", "ol", "dl", "dt", "dd", "table", "thead", "tbody", "tfoot",
        "h1", "h2", "h3", "h4", "h5", "h6", "pre", "hr", "address", "article", "aside", "center",
        "footer", "header", "nav", "section", "form", "fieldset", "figure", "main", "body", "html",
    }
)  # fmt: skip
_CELL_TAGS = frozenset({"td", "th"})
_VOID_TAGS = frozenset({"br", "hr", "img", "meta", "link", "input", "wbr", "col", "area", "base", "source"})


class _HTMLText(HTMLParser):
    """Collects the readable text of an HTML document, one output line per visual line.

    Quoted replies (``<blockquote>``) are dropped like quoted lines of plain text.
    """

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []  # finished lines
        self._line: list[str] = []  # pieces of the current line
        self._skip: list[str] = []  # open tags whose content is dropped
        self._pre = 0

    def _end_line(self) -> None:
        """Finish the current line, even an empty one (``<br>``)."""
        self.lines.append("".join(self._line))
        self._line = []

    def _break(self) -> None:
        """Start a new line, unless the current one is still empty (a block boundary)."""
        if self._line:
            self._end_line()

    def text(self) -> list[str]:
        """Every line read so far."""
        return [*self.lines, "".join(self._line)]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "body":  # ends a <head> left open, as a browser would
            self._skip = [t for t in self._skip if t not in ("head", "title")]
        if tag in _SKIPPED_TAGS:
            self._skip.append(tag)
        if self._skip:
            return
        if tag == "br":
            self._end_line()
        elif tag in _BLOCK_TAGS:
            self._break()
            if tag == "pre":
                self._pre += 1
        elif tag in _CELL_TAGS and self._line:
            self._line.append(" ")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _SKIPPED_TAGS:
            self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in self._skip:
            while self._skip.pop() != tag:
                pass
            return
        if self._skip or tag in _VOID_TAGS:
            return
        if tag in _BLOCK_TAGS:
            self._break()
            if tag == "pre" and self._pre:
                self._pre -= 1

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        if self._pre:
            *ended, last = data.replace("\r\n", "\n").split("\n")
            for piece in ended:
                self._line.append(piece)
                self._end_line()
            if last:
                self._line.append(last)
            return
        text = re.sub(r"[ \t\n\r\f\v]+", " ", data)
        if not self._line:
            text = text.lstrip(" ")
        if text:
            self._line.append(text)


def html_to_text(html: str) -> str:
    """Plain text from HTML: no scripts or styles, a line per block or ``<br>``, one blank line at most."""
    parser = _HTMLText()
    try:
        parser.feed(_defuse_unterminated_tag(html))
        parser.close()
    except Exception:
        pass  # keep what was read
    lines = [line.replace("\xa0", " ").rstrip() for line in parser.text()]
    return "\n".join(_collapse_blank_runs(lines)).strip("\n")


def _defuse_unterminated_tag(html: str) -> str:
    """``html`` with each ``<`` after the last ``>`` written ``&lt;``, so it reads as text.

    Such a ``<`` cannot open a complete tag, and `HTMLParser.close` takes quadratic time on
    a long run of them (``<a<a<a...``).
    """
    tail = html.rfind(">") + 1
    return html[:tail] + html[tail:].replace("<", "&lt;")


def _collapse_blank_runs(lines: Iterable[str]) -> Iterator[str]:
    """``lines`` with each run of blank lines reduced to one."""
    previous_blank = False
    for line in lines:
        blank = not line.strip()
        if not (blank and previous_blank):
            yield "" if blank else line
        previous_blank = blank
