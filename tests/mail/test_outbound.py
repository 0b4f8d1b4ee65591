"""Outbound mail: the judge's messages carry the right headers, survive a round trip, land in a Maildir."""

from __future__ import annotations

import email
import email.policy
import hashlib
import os
from datetime import UTC, datetime, timedelta, timezone
from email import quoprimime
from email.message import EmailMessage
from email.utils import parsedate_to_datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.mail.flowed import FLOWED, flow
from judge.mail.inbound import parse_mail
from judge.mail.outbound import LOOP_HEADER, Attachment, MaildirOutbox, build_message, quoted_printable

WHEN = datetime(2025, 4, 14, 9, 30, 5, tzinfo=timezone(timedelta(hours=2)))


def build(**overrides: object) -> bytes:
    """A message with sensible defaults, some of them overridden."""
    args: dict[str, object] = {
        "sender": "Payola Judge <judge@payola.example>",
        "to": "alice@example.org",
        "subject": "wonderland: Spring 1901 results",
        "body": "Spring 1901 results\nA PAR - BUR succeeds\n",
        "domain": "payola.example",
        "date": WHEN,
    }
    args.update(overrides)
    return build_message(**args)  # type: ignore[arg-type]


def headers(raw: bytes) -> EmailMessage:
    """``raw`` parsed back with the modern policy."""
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def test_headers_of_a_reply() -> None:
    raw = build(message_id="<r1@payola.example>", in_reply_to="<orders-1@example.org>", reply=True)
    msg = headers(raw)
    assert msg["From"] == "Payola Judge <judge@payola.example>"
    assert msg["To"] == "alice@example.org"
    assert msg["Subject"] == "wonderland: Spring 1901 results"
    assert msg["Date"] == "Mon, 14 Apr 2025 09:30:05 +0200"
    assert msg["Message-ID"] == "<r1@payola.example>"
    assert msg["In-Reply-To"] == "<orders-1@example.org>"
    assert msg["References"] == "<orders-1@example.org>"
    assert msg["Auto-Submitted"] == "auto-replied"
    assert msg["Precedence"] == "bulk"  # issue 22.7: for auto-responders that ignore Auto-Submitted
    assert msg[LOOP_HEADER] == "payola.example"
    assert msg.get_content_type() == "text/plain"
    assert msg.get_content_charset() == "utf-8"
    assert msg.get_content() == "Spring 1901 results\nA PAR - BUR succeeds\n"
    assert b"\r" not in raw


def test_headers_of_a_message_sent_unasked() -> None:
    msg = headers(build())
    assert msg["Auto-Submitted"] == "auto-generated"
    assert "In-Reply-To" not in msg and "References" not in msg
    message_id = msg["Message-ID"]
    assert message_id.startswith("<") and message_id.endswith("@payola.example>")
    assert headers(build())["Message-ID"] != message_id


def test_message_ids_get_angle_brackets() -> None:
    msg = headers(build(message_id="r2@payola.example", in_reply_to=" orders-2@example.org "))
    assert msg["Message-ID"] == "<r2@payola.example>"
    assert msg["In-Reply-To"] == msg["References"] == "<orders-2@example.org>"


def test_date_defaults_to_now_with_a_timezone() -> None:
    before = datetime.now(UTC).replace(microsecond=0)
    date = parsedate_to_datetime(headers(build(date=None))["Date"])
    assert date.tzinfo is not None
    assert before <= date <= datetime.now(UTC)


def test_naive_date_is_utc() -> None:
    assert headers(build(date=datetime(2025, 1, 2, 3, 4, 5)))["Date"] == "Thu, 02 Jan 2025 03:04:05 +0000"


def test_subject_is_kept_on_one_line() -> None:
    assert headers(build(subject="Re: two\r\nlines\tand  spaces"))["Subject"] == "Re: two lines and spaces"


def test_header_injection_is_refused() -> None:
    with pytest.raises(ValueError):
        build(to="alice@example.org\nBcc: everyone@example.org")


def test_non_ascii_recipient_gets_utf8_headers() -> None:
    mail = parse_mail("From: J\u00f6rg <j\u00f6rg@EXAMPLE.org>\n\nA PAR H\n".encode())
    assert mail.reply_to == "j\u00f6rg@example.org"
    raw = build(to=mail.reply_to, subject="Re: \u00e9t\u00e9")
    assert "\nTo: j\u00f6rg@example.org\nSubject: Re: \u00e9t\u00e9\n".encode() in raw  # RFC 6532, for SMTPUTF8
    assert b"=?" not in raw and b"\r" not in raw
    assert parse_mail(raw).sender == "judge@payola.example"


@pytest.mark.parametrize("poison", ["\x0c", "\x0b", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029", "\x00",
                                    "\ud800"])
def test_poison_subject_and_in_reply_to_never_raise(poison: str) -> None:
    msg = headers(build(subject=f"a{poison}b", in_reply_to=f"<a{poison}b@example.org>", body=f"x{poison}y\n"))
    assert msg["Subject"] == ("a b" if poison != "\ud800" else "a\ufffdb")
    assert "In-Reply-To" not in msg and "References" not in msg


def test_encoded_word_in_subject_or_in_reply_to_injects_no_header() -> None:
    msg = headers(build(subject="Re: =?utf-8?q?a=0D=0ABcc:_victim@example.net?=",
                        in_reply_to="<x=?utf-8?q?=0D=0ABcc:_victim@example.net?=@example.org>"))
    assert "Bcc" not in msg and "In-Reply-To" not in msg
    assert msg["Subject"] == "Re: = ?utf-8?q?a=0D=0ABcc:_victim@example.net?="


def test_round_trip_long_line_and_non_ascii() -> None:
    long_line = "OFFERS " + " | ".join(f"{i} A MUN - BUR" for i in range(25))
    assert len(long_line) >= 300
    body = f"{long_line}\nJ\u00fcrgen pays 5 \u20ac \u2014 \u041f\u0440\u0438\u0432\u0435\u0442\n\nlast line\n"
    raw = build(body=body, subject="R\u00e9sultats \u2014 printemps", sender="Le Juge \u00e9 <judge@payola.example>")
    assert all(len(line) <= 998 for line in raw.split(b"\n"))
    mail = parse_mail(raw)
    assert mail.lines == (
        long_line,
        "J\u00fcrgen pays 5 \u20ac \u2014 \u041f\u0440\u0438\u0432\u0435\u0442",
        "",
        "last line",
    )
    assert mail.subject == "R\u00e9sultats \u2014 printemps"
    assert mail.sender == "judge@payola.example"
    assert mail.automatic  # our own loop header and Auto-Submitted
    assert not (mail.truncated or mail.html_only or mail.no_text)


def test_round_trip_plain_ascii_is_7bit() -> None:
    raw = build(body="A PAR - BUR\n")
    assert headers(raw)["Content-Transfer-Encoding"] == "7bit"
    assert parse_mail(raw).lines == ("A PAR - BUR",)


# --- Maildir ---------------------------------------------------------------------------------------


def test_maildir_is_created(tmp_path: Path) -> None:
    path = tmp_path / "spool" / "outbox"
    outbox = MaildirOutbox(path)
    assert sorted(p.name for p in path.iterdir()) == ["cur", "new", "tmp"]
    assert outbox.messages() == []


def test_existing_directory_gets_its_subdirectories(tmp_path: Path) -> None:
    (tmp_path / "new").mkdir()
    MaildirOutbox(tmp_path)
    assert all((tmp_path / sub).is_dir() for sub in ("cur", "new", "tmp"))


def test_deliver_and_read_back_in_order(tmp_path: Path) -> None:
    outbox = MaildirOutbox(tmp_path / "outbox")
    sent = [build(body=f"message {i}\n", message_id=f"<m{i}@payola.example>") for i in range(12)]
    keys = [outbox.deliver(message) for message in sent]
    assert len(set(keys)) == 12
    assert sorted(os.listdir(tmp_path / "outbox" / "new")) == sorted(keys)
    assert os.listdir(tmp_path / "outbox" / "tmp") == []
    assert outbox.messages() == sent
    assert MaildirOutbox(tmp_path / "outbox").messages() == sent  # reopened


def test_a_batch_is_delivered_whole_and_in_order(tmp_path: Path) -> None:
    outbox = MaildirOutbox(tmp_path / "outbox")
    sent = [build(body=f"message {i}\n", message_id=f"<b{i}@payola.example>") for i in range(20)]
    keys = outbox.deliver_all(sent)
    assert all(isinstance(key, str) for key in keys) and len(set(keys)) == 20
    assert os.listdir(tmp_path / "outbox" / "tmp") == []
    assert outbox.messages() == sent
    assert [path.name for path in outbox.files()] == keys


def test_a_batch_that_cannot_be_written_delivers_nothing_and_says_why(tmp_path: Path) -> None:
    outbox = MaildirOutbox(tmp_path / "outbox")
    (tmp_path / "outbox" / "tmp").rmdir()
    results = outbox.deliver_all([build(body="one\n"), build(body="two\n")])
    assert all(isinstance(result, OSError) for result in results)
    assert outbox.messages() == []


def test_a_reader_that_names_the_files_it_has_read_gets_only_the_others_in_order(tmp_path: Path) -> None:
    outbox = MaildirOutbox(tmp_path)
    keys = [outbox.deliver(build(body=f"message {i}\n")) for i in range(4)]
    read = {path.name for path in outbox.files()[:2]}
    assert read == set(keys[:2])
    assert [path.name for path in outbox.files(known=read)] == keys[2:]
    assert [path.read_bytes() for path in outbox.files(known=read)] == outbox.messages()[2:]


def test_messages_include_cur_and_sort_by_mtime(tmp_path: Path) -> None:
    outbox = MaildirOutbox(tmp_path)
    first, second = build(body="first\n"), build(body="second\n")
    key_first = outbox.deliver(first)
    outbox.deliver(second)
    # a reader has seen the first one and moved it to cur/; make it look older still
    moved = tmp_path / "cur" / f"{key_first}:2,S"
    (tmp_path / "new" / key_first).rename(moved)
    os.utime(moved, ns=(0, 0))
    assert outbox.messages() == [first, second]
    os.utime(moved, ns=(2**62, 2**62))
    assert outbox.messages() == [second, first]


def test_a_long_subject_is_not_folded_onto_its_own_line() -> None:
    subject = "g1: the game master set reminders to go out 6 hours before each deadline"
    raw = build_message(sender="judge@localhost", to="a@example.org", subject=subject, body="x" * 300,
                        domain="localhost")
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert str(message["Subject"]) == subject  # not " g1: ..." as when the folder moves it to the next line
    assert max(len(line) for line in raw.split(b"\n\n", 1)[1].splitlines()) <= 78  # the body lines stay short


@pytest.mark.parametrize(("to", "body", "replied"), [
    ("alice@example.org", "Résultats du printemps 1901\nA PAR - BUR\n", None),
    ("zoë@example.org", "Spring 1901\n", "<a-long-thread-start-" + "x" * 60 + "@example.org>"),
])
def test_a_message_with_attachments_is_what_the_email_package_writes(to: str, body: str, replied: str | None) -> None:
    """`build_message` makes a message with attachments from parts the email package wrote (it
    wrote the maps' base64 lines one by one in Python, for every mail): the bytes must be those
    the package writes, for attachments whose length is and is not a multiple of a line's 57
    bytes, an empty one, a non-ASCII body, a non-ASCII address (UTF-8 headers) and a folded
    References header; files of one type under two names, and of one name under two types (an
    attachment's headers are made once for each name and type)."""
    files = [Attachment("map.png", "image/png", os.urandom(57 * 40)),
             Attachment("after.svg", "image/svg+xml", os.urandom(57 * 40 + 13)),
             Attachment("empty.bin", "application/octet-stream", b""),
             Attachment("orders.png", "image/png", os.urandom(57 * 2)),
             Attachment("map.png", "application/octet-stream", os.urandom(57 + 1))]
    raw = build(to=to, body=body, message_id="<m1@payola.example>", in_reply_to=replied,
                references=[f"<ref{n}-{'y' * 50}@example.org>" for n in range(3)], attachments=files)
    expected = EmailMessage(policy=email.policy.default)
    for name, value in headers(raw).items():
        if name not in ("Content-Type", "MIME-Version", "Content-Transfer-Encoding"):
            expected[name] = str(value)
    expected.set_content(flow(body), subtype="plain", charset="utf-8",
                         cte=None if body.isascii() else "quoted-printable", params=FLOWED)
    for attachment in files:
        maintype, _, subtype = attachment.content_type.partition("/")
        expected.add_attachment(attachment.data, maintype=maintype, subtype=subtype, filename=attachment.filename)
    boundary = headers(raw).get_boundary()
    assert boundary is not None
    expected.set_boundary(boundary)
    assert raw == expected.as_bytes(policy=email.policy.default.clone(max_line_length=200, utf8=not to.isascii()))
    assert [part.get_content() for part in headers(raw).iter_attachments()] == [a.data for a in files]


def test_a_message_with_attachments_is_the_same_bytes_each_time_it_is_built() -> None:
    """The sender builds a queued mail again on each attempt (judge.service.outgoing.outbox.message_of)."""
    made = [build_message(sender="judge@example.org", to="fred@example.org", subject="s", body="the text",
                          domain="example.org", message_id=f"<{n}@example.org>", date=datetime(2026, 1, 1),
                          attachments=[Attachment("map.png", "image/png", b"\x89PNG...")]) for n in (1, 1, 2)]
    assert made[0] == made[1]
    assert made[0] != made[2]
    message = email.message_from_bytes(made[0], policy=email.policy.default)
    assert [p.get_filename() for p in message.iter_attachments()] == ["map.png"]


class _Unhashable(bytes):
    """Bytes that refuse to be hashed: a stored file's, which the sender must know by their digest alone."""

    def __hash__(self) -> int:
        raise AssertionError("a stored file's bytes were hashed")


def test_a_stored_files_part_is_kept_by_its_digest_not_by_its_bytes() -> None:
    """Each batch of the sender's mails reads a stored file's bytes anew (judge.service.outgoing.outbox.message_of):
    a file that names its digest has its part made once and found again by it, its bytes never hashed; the message
    is the one its bytes alone make."""
    data = bytes(range(256)) * 40
    def made(file: Attachment) -> bytes:
        return build_message(sender="judge@example.org", to="fred@example.org", subject="s", body="the text",
                             domain="example.org", message_id="<1@example.org>", date=datetime(2026, 1, 1),
                             attachments=[file])
    digest = hashlib.sha256(data).hexdigest()
    first = made(Attachment("map.png", "image/png", _Unhashable(data), digest=digest))
    again = made(Attachment("map.png", "image/png", _Unhashable(data), digest=digest))
    assert first == again == made(Attachment("map.png", "image/png", data))
    other = bytes(reversed(data))
    assert made(Attachment("map.png", "image/png", _Unhashable(other),
                           digest=hashlib.sha256(other).hexdigest())) == made(Attachment("map.png", "image/png", other))


RESULTS_HEAD = (b"From: Payola Judge <judge@payola.example>\n"
                b"To: alice@example.org\n"
                b"Subject: wonderland: Spring 1901 results\n"
                b"Date: Mon, 14 Apr 2025 09:30:05 +0200\n"
                b"Message-ID: <m1@payola.example>\n"
                b"Auto-Submitted: auto-generated\n"
                b"Precedence: bulk\n"
                b"X-Payola-Judge: payola.example\n")


def test_a_text_message_is_written_header_by_header_then_its_text() -> None:
    """The whole of a results mail without maps, written out by hand: the judge's headers in the
    order it sets them, then the text part's (7-bit: ASCII, no line over 78 characters), a blank
    line and the text."""
    raw = build(message_id="<m1@payola.example>")
    assert raw == (RESULTS_HEAD + b"Content-Transfer-Encoding: 7bit\n"
                   b'Content-Type: text/plain; charset="utf-8"; format="flowed"; delsp="no"\n'
                   b"MIME-Version: 1.0\n"
                   b"\n"
                   b"Spring 1901 results\nA PAR - BUR succeeds\n")


def test_a_message_to_a_utf8_address_has_utf8_headers_and_a_quoted_printable_text() -> None:
    """A non-ASCII address is written as it is (RFC 6532), not as an encoded word; a non-ASCII
    text is quoted-printable: é is C3 A9 in UTF-8, so ``=C3=A9``."""
    raw = build(to="zoë@example.org", body="Résultats\n", message_id="<m1@payola.example>")
    assert raw == (RESULTS_HEAD.replace(b"alice@example.org", "zoë@example.org".encode())
                   + b"Content-Transfer-Encoding: quoted-printable\n"
                   b'Content-Type: text/plain; charset="utf-8"; format="flowed"; delsp="no"\n'
                   b"MIME-Version: 1.0\n"
                   b"\n"
                   b"R=C3=A9sultats\n")


@pytest.mark.parametrize("to", ["alice@example.org", "zoë@example.org"])
def test_a_message_with_a_map_is_written_as_a_multipart_by_hand(to: str) -> None:
    """A results mail with one map, written out by hand: ``MIME-Version`` stays with the judge's
    headers, the multipart's type comes last, with the boundary ``=_`` and the first 40 hex digits
    of the SHA-256 of its Message-ID; the text's part keeps its ``Content-`` headers; the map's
    base64 comes in lines of 76 characters (57 bytes): 60 bytes of ``x`` are 19 times ``xxx``
    (``eHh4``) on the first line and once on the second."""
    mark = b"=_" + hashlib.sha256(b"<m1@payola.example>").hexdigest()[:40].encode()
    raw = build(to=to, message_id="<m1@payola.example>", attachments=[Attachment("map.png", "image/png", b"x" * 60)])
    assert raw == (RESULTS_HEAD.replace(b"alice@example.org", to.encode())
                   + b"MIME-Version: 1.0\n"
                   b'Content-Type: multipart/mixed; boundary="' + mark + b'"\n'
                   b"\n"
                   b"--" + mark + b"\n"
                   b"Content-Transfer-Encoding: 7bit\n"
                   b'Content-Type: text/plain; charset="utf-8"; format="flowed"; delsp="no"\n'
                   b"\n"
                   b"Spring 1901 results\nA PAR - BUR succeeds\n"
                   b"\n"
                   b"--" + mark + b"\n"
                   b"Content-Type: image/png\n"
                   b"Content-Transfer-Encoding: base64\n"
                   b'Content-Disposition: attachment; filename="map.png"\n'
                   b"MIME-Version: 1.0\n"
                   b"\n" + b"eHh4" * 19 + b"\n"
                   b"eHh4\n"
                   b"\n"
                   b"--" + mark + b"--\n")


@pytest.mark.parametrize("body", [
    "", "one line without its end", "a\nb\n", "a\r\nb\r\n", "a\rb", "trailing  \n\n\n", "\x0cform feed\x0bvertical\n",
    "y" * 78 + "\n", "y" * 79 + "\n", "From the judge\n.\n", "über\n", "=?utf-8?q?=0D=0A?=\n", "\x85\u2028\n",
    # non-ASCII (a mail in Italian or French, quoted-printable): an accent where a line is cut, trailing blanks,
    # the = sign, line ends of every kind, a line of accents alone
    "città " * 20 + "\n", "y" * 74 + "é" + "y" * 10 + "\n", "y" * 75 + "é\n", "y" * 76 + "é \n", "y" * 73 + "è\t\n",
    "déjà = 2 \n\n  \n", "à\r\nè\rì\n", "é" * 60, "été\x0cnouveau\u2028fin", "ça va" + " " * 80 + "\n",
])
@pytest.mark.parametrize("to", ["alice@example.org", "zoë@example.org"])
def test_the_text_is_what_the_email_package_writes(body: str, to: str) -> None:
    """The text's part is written as the email package writes it for every kind of text: empty, no
    final line end, CRLF or a lone CR (line ends the package turns into LF), characters Python
    but not bytes count as line ends (form feed, U+0085, U+2028), a line of 78 characters (kept
    as it is) and of 79 (quoted-printable), one that looks like an encoded word, non-ASCII (written here
    as the package's quoted-printable encoder writes it, without its machinery: `judge.mail.outbound._text`)."""
    expected = EmailMessage(policy=email.policy.default)
    for name, value in headers(build(to=to, body=body, message_id="<m1@payola.example>")).items():
        if name not in ("Content-Type", "MIME-Version", "Content-Transfer-Encoding"):
            expected[name] = str(value)
    expected.set_content(flow(body), subtype="plain", charset="utf-8",
                         cte=None if body.isascii() else "quoted-printable", params=FLOWED)
    assert build(to=to, body=body, message_id="<m1@payola.example>") == expected.as_bytes(
        policy=email.policy.default.clone(max_line_length=200, utf8=not to.isascii()))


_LINE_ENDS = st.text(st.sampled_from(list("yz =.\t\r\x00\x7f\x0b\x85\u2028\u2019éàç€«»")), max_size=8)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(_LINE_ENDS, st.integers(0, 90), _LINE_ENDS), max_size=6))
def test_quoted_printable_is_the_email_packages_encoder_byte_for_byte(lines: list[tuple[str, int, str]]) -> None:
    """The judge's quoted-printable encoder writes what the package's writes at the policy's line length, for
    lines of every length around the cut (78), escapes and blanks where a line is cut or ends, and characters
    that are line ends to Python but not to bytes."""
    text = "\n".join(start + "y" * length + end for start, length, end in lines)
    data = b"\n".join(text.encode("utf-8").splitlines()) + b"\n"
    assert quoted_printable(data) == quoprimime.body_encode(data.decode("latin-1"), 78).encode("ascii")


def test_a_header_refused_once_is_refused_every_time() -> None:
    """A header the email package refuses (an encoded line break in the address) is refused on
    every build, not only the first: refusals are not remembered as headers are."""
    for _ in range(2):
        with pytest.raises(ValueError):
            build(to="=?utf-8?q?a=0D=0ABcc=3A_x=40evil.example?= <a@example.org>")


# --- a game's mail as a mailing list's (RFC 2919, RFC 2369) ----------------------------------------

OBSERVED = (("List-Id", "Game spring <spring.payola.example>"),
            ("List-Help", "<mailto:judge@payola.example?subject=HELP&body=HELP>"),
            ("List-Unsubscribe", "<mailto:judge@payola.example?subject=UNOBSERVE%20spring&body=UNOBSERVE%20spring>"))


def test_list_headers_come_after_the_judges_own_as_they_were_given() -> None:
    """A game's list headers, written out by hand: after the loop header, in the order given, each
    on its line as it is (no folding, no encoded word), before the text's own headers."""
    raw = build(message_id="<m1@payola.example>", list_headers=OBSERVED)
    assert raw == (RESULTS_HEAD
                   + b"List-Id: Game spring <spring.payola.example>\n"
                   b"List-Help: <mailto:judge@payola.example?subject=HELP&body=HELP>\n"
                   b"List-Unsubscribe: <mailto:judge@payola.example?subject=UNOBSERVE%20spring"
                   b"&body=UNOBSERVE%20spring>\n"
                   b"Content-Transfer-Encoding: 7bit\n"
                   b'Content-Type: text/plain; charset="utf-8"; format="flowed"; delsp="no"\n'
                   b"MIME-Version: 1.0\n"
                   b"\n"
                   b"Spring 1901 results\nA PAR - BUR succeeds\n")


@pytest.mark.parametrize("to", ["alice@example.org", "zoë@example.org"])
def test_a_message_with_list_headers_and_a_map_is_what_the_email_package_writes(to: str) -> None:
    """The list headers go through the same per-header cache as the others: the bytes, with a map,
    are those the package writes for the same headers set one by one."""
    files = [Attachment("map.png", "image/png", os.urandom(57 * 3 + 5))]
    raw = build(to=to, message_id="<m1@payola.example>", list_headers=OBSERVED, attachments=files)
    expected = EmailMessage(policy=email.policy.default)
    for name, value in headers(raw).items():
        if name not in ("Content-Type", "MIME-Version", "Content-Transfer-Encoding"):
            expected[name] = str(value)
    expected.set_content("Spring 1901 results\nA PAR - BUR succeeds\n", subtype="plain", charset="utf-8",
                         params=FLOWED)
    expected.add_attachment(files[0].data, maintype="image", subtype="png", filename="map.png")
    boundary = headers(raw).get_boundary()
    assert boundary is not None
    expected.set_boundary(boundary)
    assert raw == expected.as_bytes(policy=email.policy.default.clone(max_line_length=200, utf8=not to.isascii()))
    assert [headers(raw)[name] for name, _ in OBSERVED] == [value for _, value in OBSERVED]


@pytest.mark.parametrize("value", [
    "Game x <x.payola.example>\r\nBcc: victim@example.net",
    "Game x <x.payola.example>\nBcc: victim@example.net",
    "Game x <x.payola.example>\u2028Bcc: victim@example.net",
    "Game =?utf-8?q?x=0D=0ABcc:_victim@example.net?= <x.payola.example>",
])
def test_a_list_header_value_cannot_inject_a_header(value: str) -> None:
    """A value that carries a line break, as such or as an encoded word the email package would
    decode, stays one header on one line: no Bcc appears."""
    raw = build(list_headers=[("List-Id", value)])
    msg = headers(raw)
    assert "Bcc" not in msg and b"\nBcc" not in raw
    assert len(msg.get_all("List-Id") or []) == 1
    assert "\n" not in msg["List-Id"] and "victim@example.net" in msg["List-Id"]


def test_only_list_headers_may_be_given_as_list_headers() -> None:
    with pytest.raises(ValueError):
        build(list_headers=[("Bcc", "victim@example.net")])


def test_a_message_without_list_headers_has_none() -> None:
    msg = headers(build())
    assert not any(name.lower().startswith("list-") for name in msg)


def _png_like(seed: int, before: int, chunk: bytes, crc: bytes, after: int, aligned: bool) -> bytes:
    """Bytes that start as a PNG: a chunk of ``before`` bytes or so, then an IDAT chunk holding ``chunk`` (its CRC
    field ``crc``) that starts a multiple of 57 bytes from the start when ``aligned``, then ``after`` bytes."""
    import random

    from judge.mail.outbound import PNG_SIGNATURE

    filler = before + -(len(PNG_SIGNATURE) + 12 + before) % 57 + (0 if aligned else 1 + seed % 56)
    noise = random.Random(seed)
    return b"".join((PNG_SIGNATURE, filler.to_bytes(4, "big"), b"tEXt", noise.randbytes(filler), b"\0\0\0\0",
                     len(chunk).to_bytes(4, "big"), b"IDAT", chunk, crc, noise.randbytes(after)))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), before=st.integers(0, 200), size=st.integers(4096, 4400),
       afters=st.lists(st.integers(0, 130), min_size=3, max_size=3), aligned=st.booleans())
def test_base64_lines_of_files_sharing_a_chunk_are_each_files_own(seed: int, before: int, size: int,
                                                                   afters: list[int], aligned: bool) -> None:
    """`base64_lines` writes each file's base64 as the email package does (`base64.encodebytes`, its lines of
    76 characters), whether its IDAT chunk starts a line or not, and whatever files sharing that chunk (their
    lines kept: `_SHARED`) came before: also a file whose chunk has the same CRC field and length but other
    bytes, and files that are no PNG at all."""
    import base64
    import random

    from judge.mail import outbound

    noise = random.Random(seed)
    chunk, crc = noise.randbytes(size), noise.randbytes(4)
    other = bytes([chunk[0] ^ 1]) + chunk[1:]  # the same CRC field and length, other bytes
    files = [_png_like(seed, before, chunk, crc, afters[0], aligned),
             _png_like(seed + 1, before + 57, chunk, crc, afters[1], aligned),
             _png_like(seed, before, other, crc, afters[2], aligned),
             _png_like(seed + 2, before, chunk, crc, afters[0], aligned),
             noise.randbytes(before + afters[1] + 1), b"\x89PNG"]
    for data in files:
        assert outbound.base64_lines(data) + b"\n" == base64.encodebytes(data)
