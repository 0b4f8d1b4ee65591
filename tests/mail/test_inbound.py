"""Inbound mail: raw messages from real-looking clients become sender, flags and command lines."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from judge.mail import inbound
from judge.mail.inbound import (
    MAX_CHARS,
    MAX_LINES,
    MAX_RECIPIENTS,
    MAX_STOPPED_AT,
    InboundMail,
    command_lines,
    html_to_text,
    parse_mail,
)

EML = Path(__file__).parent / "eml"


def load(name: str) -> bytes:
    """The raw bytes of a test message."""
    return (EML / name).read_bytes()


def parse(name: str, **kwargs: str | None) -> InboundMail:
    """A test message, parsed."""
    return parse_mail(load(name), **kwargs)  # type: ignore[arg-type]


# --- one test per message ------------------------------------------------------------------------


def test_plain_ascii() -> None:
    mail = parse("plain_ascii.eml")
    assert mail == InboundMail(
        sender="alice@example.org",
        reply_to="alice@example.org",
        subject="orders for game wonderland",
        message_id="<20250414071240.GA1234@mail.example.org>",
        lines=("SIGNON Fwonderland secret", "ORDERS", "  F BRE - MAO", "", "A PAR - BUR"),
        html_only=False,
        no_text=False,
        automatic=False,
        truncated=False,
        stopped_at=None,
        from_attachment=False,
        recipients=("judge@payola.example",),
    )


def test_quoted_printable_latin1() -> None:
    mail = parse("qp_latin1.eml")
    assert mail.sender == "francois@exemple.fr"
    assert mail.subject == "Ordres pour l'\u00e9t\u00e9"
    assert mail.lines == (
        "PRESS TO ENGLAND",
        "Tr\u00e8s cher ami, \u00e0 bient\u00f4t \u00e9t\u00e9 na\u00eff \u00a9",
        "ENDPRESS",
        "Une tr\u00e8s longue ligne coup\u00e9e en deux par l'encodage quoted-printable sans fin de ligne r\u00e9elle",
    )
    assert not (mail.html_only or mail.no_text or mail.automatic or mail.truncated)


def test_base64_utf8() -> None:
    mail = parse("base64_utf8.eml")
    assert mail.sender == "zoya@example.ru"
    assert mail.subject == "\u041f\u0440\u0438\u043a\u0430\u0437\u044b"
    assert mail.lines == (
        "SIGNON Rwonderland secret",
        "\u041f\u0440\u0438\u0432\u0435\u0442, \u0417\u043e\u044f! \u2713 \u00dcn\u00efc\u00f6d\u00e9",
        "A MOS - UKR",
    )


def test_alternative_text_wins_over_html() -> None:
    mail = parse("alternative.eml")
    assert mail.sender == "carol@example.net"
    assert mail.reply_to == "Carol@home.example.net"  # Reply-To wins; only the domain is lower-cased
    assert mail.lines == ("SIGNON Gwonderland secret", "OFFERS", "5 F KIE - HOL")
    assert not mail.html_only


def test_html_only() -> None:
    mail = parse("html_only.eml")
    assert mail.html_only and not mail.no_text
    assert mail.lines == (
        "SIGNON Twonderland secret",
        "OFFERS",
        "3 A CON - BUL",
        "2 F ANK - BLA & more",
        "",
        'Caf\u00e9 <ok> \u20ac5 "quoted"',
        "",
        "Dave",
        "cell one cell two",
        "row two",
        "first",
        "second",
    )


def test_html_reply_drops_blockquote_and_stops_at_the_attribution() -> None:
    mail = parse("html_reply_blockquote.eml")
    assert mail.html_only
    assert mail.lines == ("A BER - KIE",)
    assert mail.stopped_at == "On Sat, Judge wrote:"


def test_attachment_before_text_is_skipped() -> None:
    mail = parse("mixed_attachment_first.eml")
    assert mail.lines == ("SIGNON Ewonderland secret", "A LVP - EDI")
    assert not (mail.html_only or mail.no_text or mail.from_attachment)


def test_a_reply_skips_the_quoted_mail_below_its_attribution_and_stops_at_the_signature() -> None:
    """Below the attribution comes the old mail quoted (its ``SIGNOFF`` quoted too): passed over, and
    reading stops at the writer's signature, whose line after it is not read."""
    assert b"\n-- \nFrank\n" in load("reply_quoted_signature.eml")  # an editor may strip that trailing space
    mail = parse("reply_quoted_signature.eml")
    assert mail.lines == ("SIGNON Awonderland secret", "", "ORDERS", "A VIE - TRI")
    assert mail.stopped_at == "-- "


def test_signoff_in_the_middle() -> None:
    assert parse("signoff_middle.eml").lines == ("SIGNON Iwonderland secret", "F NAP - ION")


def test_format_flowed_is_unwrapped() -> None:
    mail = parse("flowed.eml")
    assert mail.lines == (
        "OFFERS 5 A MUN - BUR, 3 A MUN - RUH, 2 A MUN - KIE, 1 A MUN - BER, 1 A MUN H",
        "From the start",
    )


def test_no_text_part() -> None:
    mail = parse("image_only.eml")
    assert mail.no_text and not mail.html_only
    assert mail.lines == ()
    assert mail.sender == "judy@example.org" and not mail.automatic


def test_utf8_declared_but_latin1_bytes() -> None:
    mail = parse("utf8_declared_latin1_bytes.eml")
    assert mail.lines == ("Café crème", "A VIE H")  # mislabelled Latin-1 keeps its accents
    assert mail.subject == "caf\ufffd"
    assert mail.sender == "bob@example.com"


@pytest.mark.parametrize(
    "name",
    [
        "auto_replied.eml",
        "precedence_bulk.eml",
        "return_path_empty.eml",
        "loop_header.eml",
        "list_id.eml",
        "bounce.eml",
    ],
)
def test_automatic(name: str) -> None:
    assert parse(name).automatic


def test_bounce_text_comes_from_the_report_not_the_returned_mail() -> None:
    mail = parse("bounce.eml")
    assert mail.sender == "MAILER-DAEMON@mx.example.org"
    assert mail.lines == (
        "This is the mail system at host mx.example.org.",
        "I'm sorry to have to inform you that your message could not be delivered.",
    )


@pytest.mark.parametrize(
    "name",
    ["plain_ascii.eml", "qp_latin1.eml", "alternative.eml", "html_only.eml", "reply_quoted_signature.eml"],
)
def test_not_automatic(name: str) -> None:
    assert not parse(name).automatic


def test_envelope_sender() -> None:
    assert parse("plain_ascii.eml", envelope_from="").automatic
    assert parse("plain_ascii.eml", envelope_from="<>").automatic
    assert not parse("plain_ascii.eml", envelope_from="alice@example.org").automatic
    assert not parse("plain_ascii.eml", envelope_from=None).automatic


def test_loop_marker_is_configurable() -> None:
    raw = b"From: a@example.org\nX-Other-Judge: yes\n\nhello\n"
    assert not parse_mail(raw).automatic
    assert parse_mail(raw, loop_marker="X-Other-Judge").automatic


@pytest.mark.parametrize(
    ("headers", "automatic"),
    [
        ("Auto-Submitted: no", False),
        ("Auto-Submitted: No (a person wrote this)", False),
        ("Auto-Submitted: auto-generated", True),
        ("Auto-Submitted: auto-notified; owner-email=x@example.org", True),
        ("Precedence: junk", True),
        ("Precedence: LIST", True),
        ("Precedence: first-class", False),
        ("Return-Path: <a@example.org>", False),
        ("Return-Path: < >", True),
        ("List-Id: <x.example.org>", True),
        ("X-Payola-Judge: payola.example", True),
        ("x-payola-judge: payola.example", True),
        ("X-Autoreply: yes", True),  # issue 22.7: auto-responders that ignore RFC 3834
        ("X-Autorespond: Out of office", True),
        ("Precedence: auto_reply", True),
        ("Precedence: bulk", True),
    ],
)
def test_automatic_headers(headers: str, automatic: bool) -> None:
    raw = f"From: a@example.org\n{headers}\nSubject: s\n\nbody\n".encode()
    assert parse_mail(raw).automatic is automatic


@pytest.mark.parametrize(
    "sender",
    [
        "MAILER-DAEMON@example.org",
        "postmaster@example.org",
        "Postmaster@Example.org",
        "MAILER-DAEMON (Mail Delivery Subsystem)",
        "Mail Delivery System <mailer-daemon@mx.example.org>",
    ],
)
def test_daemon_senders_are_automatic(sender: str) -> None:
    assert parse_mail(f"From: {sender}\n\nbody\n".encode()).automatic


# --- headers -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("From: Alice <Alice@Example.ORG>", "Alice@example.org"),
        ("From: alice@example.org (Alice)", "alice@example.org"),
        ("From: first@example.org, second@example.org", "first@example.org"),
        ("From: =?utf-8?q?J=C3=BCrgen_M=C3=BCller?= <jm@example.de>", "jm@example.de"),
        ("From: J\u00fcrgen M\u00fcller <jm@example.de>", "jm@example.de"),
        ('From: "M\u00fcller, J\u00fcrgen" <jm@example.de>', "jm@example.de"),
        ("From: Alice <alice@example.org", "alice@example.org"),
        ("From: alice", ""),
        ("From: <>", ""),
        ("From: undisclosed-recipients:;", ""),
        ("From:", ""),
        ("Subject: no from at all", ""),
        # the angle address is the address, as a DMARC-checking MTA reads it, whatever the display name says
        ("From: victim@evil.org <bob@example.org>", "bob@example.org"),
        ("From: =?utf-8?q?victim=0D=0A_victim2@evil.org?= <bob@example.org>", "bob@example.org"),
        ('From: "Smith, <x@evil.org> Bob" <bob@example.org>', "bob@example.org"),
        ("From: (c <x@evil.org>) bob@example.org", "bob@example.org"),
        ("From: victim@evil.org <not an address>", ""),
        ('From: "<img src=x onerror=alert(1)>"@evil.org', ""),
    ],
)
def test_sender(header: str, expected: str) -> None:
    mail = parse_mail(f"{header}\nTo: judge@payola.example\n\nhello\n".encode())
    assert mail.sender == expected
    assert mail.reply_to == expected


def test_reply_to_without_from() -> None:
    mail = parse_mail(b"Reply-To: Bob <bob@EXAMPLE.com>\n\nhello\n")
    assert (mail.sender, mail.reply_to) == ("", "bob@example.com")


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("Subject: =?utf-8?q?Caf=C3=A9?= =?utf-8?b?4oKs?=", "Caf\u00e9\u20ac"),
        ("Subject: =?utf-8?q?two=0Alines?=", "two lines"),
        ("Subject: folded\n  over two lines", "folded over two lines"),
        ("Subject: =?x-unknown?q?caf=E9?=", "caf\ufffd"),
        ("Subject:", ""),
        ("To: nobody@example.org", ""),
    ],
)
def test_subject(header: str, expected: str) -> None:
    assert parse_mail(f"From: a@example.org\n{header}\n\nbody\n".encode()).subject == expected


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ("To: Judge <JUDGE@Payola.Example>", ("judge@payola.example",)),
        ("To: judge@payola.example, Bob <bob@example.org>\nCc: carol@example.org, bob@EXAMPLE.org",
         ("judge@payola.example", "bob@example.org", "carol@example.org")),
        ("To: judge@payola.example\nCc: not an address, \"Dee\" <dee@example.org>", ("judge@payola.example",
                                                                                   "dee@example.org")),
        ("Bcc: hidden@example.org", ()),
        ("To: undisclosed-recipients:;", ()),
    ],
)
def test_recipients_are_the_usable_addresses_of_to_and_cc(headers: str, expected: tuple[str, ...]) -> None:
    assert parse_mail(f"From: a@example.org\n{headers}\n\nbody\n".encode()).recipients == expected


def test_recipients_are_bounded() -> None:
    many = ", ".join(f"p{n}@example.org" for n in range(200))
    assert len(parse_mail(f"To: {many}\n\nbody\n".encode()).recipients) == MAX_RECIPIENTS


def test_the_recipients_of_a_short_header_are_read_once_and_of_a_long_one_each_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Nearly every mail is sent to the judge alone, in the same words: its To is parsed once, and
    remembered; a header of over 500 characters is not remembered, and is parsed each time."""
    mark = f"m{random.getrandbits(64)}"  # in no other test's mail: not yet remembered
    parsed: list[list[str]] = []
    real = inbound.safe_getaddresses
    monkeypatch.setattr(inbound, "safe_getaddresses", lambda values: parsed.append(values) or real(values))
    short = f"To: Judge <judge-{mark}@payola.example>"
    long = "To: " + ", ".join(f"p{n}-{mark}@example.org" for n in range(30))
    for headers in (short, short, long, long):
        assert parse_mail(f"From: a@example.org\n{headers}\n\nbody\n".encode()).recipients
    assert len([values for values in parsed if mark in str(values)]) == 3 and len(long) > 500


def test_message_id() -> None:
    assert parse_mail(b"Message-ID:   <x@y>  \n\n").message_id == "<x@y>"
    assert parse_mail(b"Message-Id: not-bracketed@y\n\n").message_id == "not-bracketed@y"
    assert parse_mail(b"Message-ID:\n\n").message_id is None
    assert parse_mail(b"From: a@example.org\n\n").message_id is None


# --- body decoding ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(p.name for p in EML.glob("*.eml")))
def test_crlf_line_endings_give_the_same_result(name: str) -> None:
    raw = load(name)
    assert parse_mail(raw.replace(b"\n", b"\r\n")) == parse_mail(raw)


@pytest.mark.parametrize(
    ("charset", "encoded", "expected"),
    [
        ("windows-1252", "\u201cquoted\u201d \u20ac".encode("cp1252"), "\u201cquoted\u201d \u20ac"),
        ("iso-8859-15", "\u20ac \u0153".encode("iso-8859-15"), "\u20ac \u0153"),
        ("latin-1", "\u00e9".encode("latin-1"), "\u00e9"),
        ("x-no-such-charset", "\u00e9".encode(), "\u00e9"),
        ("x-no-such-charset", "\u00e9".encode("latin-1"), "\u00e9"),  # not UTF-8: read as Windows-1252
        ("base64", b"plain", "plain"),  # a codec, but not a text encoding
        ("us-ascii", "\u00e9".encode(), "\u00e9"),
    ],
)
def test_charsets(charset: str, encoded: bytes, expected: str) -> None:
    raw = f"From: a@example.org\nContent-Type: text/plain; charset={charset}\n\n".encode() + encoded + b"\n"
    assert parse_mail(raw).lines == (expected,)


def test_no_content_type_defaults_to_utf8_text() -> None:
    assert parse_mail("From: a@example.org\n\nna\u00efve\n".encode()).lines == ("na\u00efve",)


def test_broken_base64_does_not_raise() -> None:
    raw = b"From: a@example.org\nContent-Transfer-Encoding: base64\n\nSGVsbG8gd29ybGQ=!!!x\n"
    assert parse_mail(raw).lines[0].startswith("Hello world")


def test_attached_message_is_not_read() -> None:
    raw = (
        b"From: a@example.org\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n\n"
        b"--b\nContent-Type: message/rfc822\n\nFrom: x@example.org\n\nA PAR - BUR\n--b--\n"
    )
    mail = parse_mail(raw)
    assert mail.no_text and mail.lines == ()


# --- command lines --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a\r\nb\r\n", ("a", "b")),
        ("a\rb", ("a", "b")),
        ("\n\n  \nfirst\n\n\nlast\n\n  \n", ("first", "", "", "last")),

        ("a\n--  \nb", ("a", "--", "b")),  # not a signature separator
        ("a\n---\nb", ("a", "---", "b")),
        ("a\n -- \nb", ("a", " --", "b")),
        ("a\nSIGNOFF now\nb", ("a", "SIGNOFF now", "b")),
        ("> q\n  >q\na > b", ("a > b",)),
        ("\t indented\t \n", ("\t indented",)),
        ("", ()),
    ],
)
def test_command_lines(text: str, expected: tuple[str, ...]) -> None:
    assert command_lines(text) == (expected, False, None)


@pytest.mark.parametrize(("text", "stopped_at"), [("a\n--\nb", "--"), ("a\n-- \nb", "-- "),
                                                 ("a\nSignOff\nb", "SignOff"), ("a\n-- \n\n", None),
                                                 ("a\nSIGNOFF", None)])
def test_reading_stops_at_a_signature_or_signoff_and_says_where_if_text_follows(
        text: str, stopped_at: str | None) -> None:
    assert command_lines(text) == (("a",), False, stopped_at)


def test_huge_body_is_truncated_at_max_lines() -> None:
    body = "\n".join(f"line {i}" for i in range(5000))
    mail = parse_mail(f"From: a@example.org\nSubject: huge\n\n{body}\n".encode())
    assert mail.truncated
    assert len(mail.lines) == MAX_LINES == 2000
    assert mail.lines[0] == "line 0" and mail.lines[-1] == "line 1999"


def test_exactly_max_lines_is_not_truncated() -> None:
    text = "\n".join(f"l{i}" for i in range(MAX_LINES)) + "\n\n\n-- \nsig\n" + "x\n" * 10
    lines, truncated, _ = command_lines(text)
    assert len(lines) == MAX_LINES and not truncated


def test_blank_lines_count_toward_the_limit_only_before_text() -> None:
    text = "\n".join(["a"] * (MAX_LINES - 1)) + "\n\n\nb"
    lines, truncated, _ = command_lines(text)
    assert truncated and len(lines) == MAX_LINES - 1 and lines[-1] == "a"


def test_max_chars() -> None:
    text = ("x" * 1000 + "\n") * 300  # 300,300 characters in 300 lines
    lines, truncated, _ = command_lines(text)
    assert truncated
    assert len("\n".join(lines)) == MAX_CHARS
    assert len(lines) == 200 and lines[-1] == "x" * 801  # 199 lines and their line breaks take 199,198


def test_one_giant_line_is_cut() -> None:
    lines, truncated, _ = command_lines("y" * (MAX_CHARS + 10))
    assert truncated and lines == ("y" * MAX_CHARS,)


# --- HTML ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        ("a<br>b<br/>c<br />d", "a\nb\nc\nd"),
        ("<p>one</p>\n\n   <p>two</p>", "one\ntwo"),
        ("<div>a</div><div><br></div><div><br></div><div><br></div><div>b</div>", "a\n\nb"),
        ("<p>x &amp; y &lt;z&gt; &nbsp;&eacute;&#233;&#xe9;</p>", "x & y <z>  \u00e9\u00e9\u00e9"),
        ("<style>a{}</style><script>if (a < b) {}</script>text", "text"),
        ("<pre>  keep\n    this</pre>after", "  keep\n    this\nafter"),
        ("<p>unclosed <b>bold <i>italic", "unclosed bold italic"),
        ("<<>>&&;</p></div><br", "<<>>&&;\n<br"),  # an unfinished tag is text
        ("<html><head><title>t</title><style>x{}</style><body>body text</body></html>", "body text"),
        ("<blockquote>quoted<br>reply</blockquote>mine", "mine"),
        ("<a" * 1000, "<a" * 1000),
        ("", ""),
    ],
)
def test_html_to_text(html: str, expected: str) -> None:
    assert html_to_text(html) == expected


# --- never raise --------------------------------------------------------------------------------------

_FRAGMENTS = [
    b"From: ",
    b"Content-Type: multipart/mixed; boundary=b\n",
    b"Content-Type: text/html; charset=",
    b"Content-Transfer-Encoding: base64\n",
    b"Content-Transfer-Encoding: quoted-printable\n",
    b"Content-Disposition: attachment\n",
    b"--b\n",
    b"--b--\n",
    b"=?utf-8?q?",
    b"=?x?b?",
    b"?=",
    b"<",
    b">",
    b"@",
    b"\n\n",
    b"\r\n",
    b"\xff\xfe",
    b"=\n",
    b"<br>",
    b"<script>",
    b"&#x110000;",
    b"&#99999999999;",
    b"-- \n",
    b"SIGNOFF\n",
    b"Subject: ",
    b"Reply-To: ",
    b"Message-ID: ",
    b"Auto-Submitted: ",
    b"PRESS TO G\n",
    b"ENDPRESS\n",
    b"-----Original Message-----\n",
    b"From: x\nSent: y\n",
    b"On Mon, x wrote:\n",
    b"Content-Type: text/plain\n",
]


def _assert_sane(mail: InboundMail) -> None:
    """Every string is valid Unicode (no smuggled surrogates) and every line is one clean line."""
    assert isinstance(mail, InboundMail)
    for text in (mail.sender, mail.reply_to, mail.subject, mail.message_id or "", mail.stopped_at or "", *mail.lines):
        text.encode("utf-8")
    assert mail.stopped_at is None or ("\n" not in mail.stopped_at and len(mail.stopped_at) <= MAX_STOPPED_AT)
    for line in mail.lines:
        assert "\n" not in line and "\r" not in line and line == line.rstrip()
    assert "\n" not in mail.subject
    assert len(mail.lines) <= MAX_LINES


def test_random_bytes_never_raise() -> None:
    rng = random.Random(20250414)
    for _ in range(300):
        raw = rng.randbytes(rng.randrange(0, 2000))
        _assert_sane(parse_mail(raw, envelope_from=rng.choice([None, "", "x@y"])))


def test_random_fragments_never_raise() -> None:
    rng = random.Random(7)
    for _ in range(300):
        raw = b"".join(rng.choice(_FRAGMENTS) + rng.randbytes(rng.randrange(0, 8)) for _ in range(rng.randrange(40)))
        _assert_sane(parse_mail(raw))


@pytest.mark.parametrize("name", sorted(p.name for p in EML.glob("*.eml")))
def test_truncated_and_mutated_messages_never_raise(name: str) -> None:
    raw = load(name)
    for end in range(0, len(raw), 7):
        _assert_sane(parse_mail(raw[:end]))
    rng = random.Random(name)
    for _ in range(50):
        mutated = bytearray(raw)
        for _ in range(rng.randrange(1, 10)):
            mutated[rng.randrange(len(mutated))] = rng.randrange(256)
        _assert_sane(parse_mail(bytes(mutated)))


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"\n",
        b"no headers at all",
        b"\x00" * 100,
        b"Content-Type: multipart/mixed\n\nno boundary",
        b"Content-Type: multipart/mixed; boundary=x\n\n--x\n" * 200,
        b"Content-Type: text/plain; charset*=utf-8''%FF%FE\n\nx",
        b"Content-Type: text/plain; charset*=x-bad'en'\xff\n\nx",
        b"From: " + b"<" * 5000 + b"\n\n",
        b"From: =?utf-8?b?" + b"A" * 3 + b"?= <a@b.c>\n\n",
        ("From: \u00e4@\u00f6.example\n\n").encode(),
    ],
)
def test_odd_inputs_never_raise(raw: bytes) -> None:
    _assert_sane(parse_mail(raw))


def test_deep_nesting_never_raises() -> None:
    depth = 300
    head = b"".join(b"Content-Type: multipart/mixed; boundary=b%d\n\n--b%d\n" % (i, i) for i in range(depth))
    raw = b"From: a@example.org\n" + head + b"Content-Type: text/plain\n\ndeep\n"
    _assert_sane(parse_mail(raw))


@pytest.mark.parametrize(
    "raw",
    [
        b"Content-Type: text/html\n\n" + b"<a" * 100_000,  # HTMLParser.close is quadratic on this
        b"From: " + b"a@example.org, " * 100_000 + b"\n\n",  # so is the address-list parser
        b"To: " + b"a@example.org, " * 100_000 + b"\nCc: " + b"b@example.org, " * 100_000 + b"\n\n",
        b"Subject: " + b"=?utf-8?q?a?= " * 20_000 + b"\n\n",  # and the encoded-word decoder
        b"Content-Type: text/plain; " + b"a=b; " * 200_000 + b"\n\n",  # and the parameter parser
        b"Content-Type: multipart/mixed; boundary=b\n\n" + b"--b\nContent-Type: image/png\n\nx\n" * 20_000,
        b"Subject: x\n\n" + b"On Mon, x wrote:\n> q\nA PAR H\n" * 30_000,  # each attribution's search is its own
    ],
    ids=["html", "from", "to", "subject", "params", "parts", "attributions"],
)
def test_pathological_inputs_are_fast(raw: bytes) -> None:
    with WorkBudget(CALLS) as budget:
        mail = parse_mail(raw)
    assert budget.calls <= CALLS
    _assert_sane(mail)


CALLS = 5_000_000  # function calls; the worst of these takes about 3 million, unprotected ones billions


class OverBudget(BaseException):
    """Raised inside the parse once it has used its budget: not an Exception, which the parser absorbs."""


class WorkBudget:
    """Counts the function calls (Python and C) made inside the block, and stops the block once
    there are more than ``limit``: a measure of work that does not depend on the machine's load,
    as a time limit would, and ends a quadratic parse at once instead of after minutes."""

    def __init__(self, limit: int) -> None:
        self.limit, self.calls = limit, 0

    def _count(self, frame: object, event: str, arg: object) -> None:
        if event in ("call", "c_call"):
            self.calls += 1
            if self.calls > self.limit:
                raise OverBudget

    def __enter__(self) -> WorkBudget:
        sys.setprofile(self._count)
        return self

    def __exit__(self, kind: object, error: object, traceback: object) -> bool:
        sys.setprofile(None)
        return kind is OverBudget  # the assertion on ``calls`` reports it
