"""Mail-reading traps seen with ordinary clients: pasted old mail, press blocks, orders attached as a file.

The old mail in these bodies is a judge reply to STATUS, whose sheet lines (``  5 : A PAR - BUR``)
would be read as offers again if reading went on past the separator.
"""

from __future__ import annotations

import pytest

from judge.commands.parse import UNENDED_PRESS, UNREAD_AFTER_PRESS, BadCommand, Press, Unread
from judge.games.payola.commands import parse_lines
from judge.mail.inbound import InboundMail, command_lines, parse_mail

NEW_SHEET = "SIGNON Fwonderland secret\r\n7 : A PAR - PIC\r\n3 : F BRE - ENG\r\n"
OLD_STATUS = (
    "> STATUS\r\n"
    "  game wonderland, active, phase S1901M, deadline 2025-04-22 09:00 UTC\r\n"
    "  your balance: 48 AgP\r\n"
    "  your current sheet/orders:\r\n"
    "  5 : A PAR - BUR\r\n"
    "  3 : A MAR - SPA\r\n"
    "\r\n"
    "-- \r\n"
    "The Payola judge at judge@payola.example\r\n"
)
NEW_LINES = ("SIGNON Fwonderland secret", "7 : A PAR - PIC", "3 : F BRE - ENG")


def message(body: str, content_type: str = "text/plain; charset=utf-8", headers: str = "") -> bytes:
    """A raw mail from Alice to the judge with ``body`` as its only part."""
    return (
        "From: Alice <alice@example.org>\r\nTo: judge@payola.example\r\nSubject: RE: wonderland status\r\n"
        f"Message-ID: <trap@example.org>\r\nMIME-Version: 1.0\r\n{headers}Content-Type: {content_type}\r\n\r\n{body}"
    ).encode()


def alternative(plain: str, html: str) -> bytes:
    """A multipart/alternative mail, as Outlook, Gmail and Apple Mail send it."""
    return message(
        f"--alt\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{plain}\r\n"
        f"--alt\r\nContent-Type: text/html; charset=utf-8\r\n\r\n{html}\r\n--alt--\r\n",
        'multipart/alternative; boundary="alt"',
    )


def offers(mail: InboundMail) -> list[str]:
    """The offer lines the judge would read from ``mail``."""
    return [line.text for line in parse_lines(mail.lines) if line.text[0].isdigit()]


# --- 3. unquoted replies and forwards ------------------------------------------------------------------------


def test_outlook_reply_stops_at_the_underscore_line() -> None:
    plain = NEW_SHEET + (
        "\r\n________________________________\r\n"
        "From: Payola Judge <judge@payola.example>\r\n"
        "Sent: Monday, April 21, 2025 9:00 AM\r\n"
        "To: Alice <alice@example.org>\r\n"
        "Subject: Re: wonderland status\r\n\r\n"
    ) + OLD_STATUS
    html = "<html><body><div>SIGNON Fwonderland secret</div><div>7 : A PAR - PIC</div></body></html>"
    mail = parse_mail(alternative(plain, html))
    assert mail.lines == NEW_LINES
    assert mail.stopped_at == "________________________________"
    assert offers(mail) == ["7 : A PAR - PIC", "3 : F BRE - ENG"]


def test_outlook_web_html_reply_stops_at_its_header_block() -> None:
    html = (
        '<html><body><div dir="ltr">SIGNON Fwonderland secret<br>7 : A PAR - PIC<br>3 : F BRE - ENG</div>'
        '<hr style="display:inline-block;width:98%" tabindex="-1"><div id="divRplyFwdMsg" dir="ltr">'
        '<font face="Calibri, sans-serif" style="font-size:11pt" color="#000000"><b>From:</b> Payola Judge '
        "&lt;judge@payola.example&gt;<br><b>Sent:</b> Monday, April 21, 2025 9:00 AM<br><b>To:</b> Alice "
        "&lt;alice@example.org&gt;<br><b>Subject:</b> Re: wonderland status</font><div>&nbsp;</div></div>"
        "<div><pre>  your current sheet/orders:\n  5 : A PAR - BUR\n  3 : A MAR - SPA</pre></div></body></html>"
    )
    mail = parse_mail(message(html, "text/html; charset=utf-8"))
    assert mail.html_only
    assert mail.lines == NEW_LINES
    assert mail.stopped_at == "From: Payola Judge <judge@payola.example>"


@pytest.mark.parametrize(
    "separator",
    ["-----Original Message-----", "----- Original Message -----", "-----original message-----",
     "-------- Original Message --------", "-----Ursprüngliche Nachricht-----", "-----Message d'origine-----"],
)
def test_original_message_line_stops_reading(separator: str) -> None:
    body = NEW_SHEET + f"\r\n{separator}\r\nFrom: Payola Judge [mailto:judge@payola.example]\r\n"
    mail = parse_mail(message(body + "Sent: Monday, April 21, 2025 9:00 AM\r\n\r\n" + OLD_STATUS))
    assert mail.lines == NEW_LINES
    assert mail.stopped_at == separator


def test_gmail_forward_stops_at_forwarded_message() -> None:
    plain = NEW_SHEET + (
        "\r\n---------- Forwarded message ---------\r\n"
        "From: Payola Judge <judge@payola.example>\r\n"
        "Date: Mon, Apr 21, 2025 at 9:00 AM\r\n"
        "Subject: Re: wonderland status\r\n"
        "To: <alice@example.org>\r\n\r\n\r\n"
    ) + OLD_STATUS
    mail = parse_mail(alternative(plain, "<div>forwarded</div>"))
    assert mail.lines == NEW_LINES
    assert mail.stopped_at == "---------- Forwarded message ---------"


def test_gmail_attribution_broken_over_two_lines_stops_reading() -> None:
    plain = NEW_SHEET + (
        "\r\nOn Mon, Apr 21, 2025 at 9:00 AM Payola Judge <judge@payola.example>\r\nwrote:\r\n\r\n"
    ) + OLD_STATUS  # a client that pastes the old mail unquoted: its first line, the judge's echo, quoted
    mail = parse_mail(alternative(plain, "<div>reply</div>"))
    assert mail.lines == NEW_LINES
    assert mail.stopped_at == "On Mon, Apr 21, 2025 at 9:00 AM Payola Judge <judge@payola.example> wrote:"[:80]


def test_apple_mail_forward_stops_at_begin_forwarded_message() -> None:
    plain = NEW_SHEET + (
        "\r\nBegin forwarded message:\r\n\r\n"
        "From: Payola Judge <judge@payola.example>\r\n"
        "Subject: Re: wonderland status\r\n"
        "Date: 21 April 2025 at 09:00:00 CEST\r\n"
        "To: alice@example.org\r\n\r\n"
    ) + OLD_STATUS
    mail = parse_mail(alternative(plain, "<div>forward</div>"))
    assert mail.lines == NEW_LINES
    assert mail.stopped_at == "Begin forwarded message:"


def test_apple_mail_header_block_without_a_separator_line_stops_reading() -> None:
    body = NEW_SHEET + (
        "\r\nFrom: Payola Judge <judge@payola.example>\r\n"
        "Subject: Re: wonderland status\r\n"
        "Date: 21 April 2025 at 09:00:00 CEST\r\n\r\n"
    ) + OLD_STATUS
    mail = parse_mail(message(body))
    assert mail.lines == NEW_LINES
    assert mail.stopped_at == "From: Payola Judge <judge@payola.example>"


def test_thunderbird_forward_stops_at_forwarded_message() -> None:
    body = NEW_SHEET + (
        "\r\n\r\n-------- Forwarded Message --------\r\n"
        "Subject: \tRe: wonderland status\r\n"
        "Date: \tMon, 21 Apr 2025 09:00:00 +0000\r\n"
        "From: \tPayola Judge <judge@payola.example>\r\n"
        "To: \talice@example.org\r\n\r\n\r\n"
    ) + OLD_STATUS
    mail = parse_mail(message(body, "text/plain; charset=utf-8; format=flowed"))
    assert mail.lines == NEW_LINES
    assert mail.stopped_at == "-------- Forwarded Message --------"


@pytest.mark.parametrize(
    ("line", "stops"),
    [
        ("On 21/04/2025 09:00, Payola Judge wrote:", True),
        ("On 21 Apr 2025, at 09:00, Payola Judge <judge@payola.example> wrote:", True),
        ("Le lun. 21 avr. 2025 à 09:00, Payola Judge <judge@payola.example> a écrit :", True),
        ("Am 21.04.25 um 09:00 schrieb Payola Judge:", True),
        ("Am Mo., 21. Apr. 2025 um 09:00 Uhr schrieb Payola Judge <judge@payola.example>:", True),
        ("El lun, 21 abr 2025 a las 9:00, Payola Judge (<judge@payola.example>) escribió:", True),
        ("Il giorno lun 21 apr 2025 alle ore 09:00 Payola Judge ha scritto:", True),
        ("Op ma 21 apr 2025 om 09:00 schreef Payola Judge <judge@payola.example>:", True),
        ("__________", True),
        ("_________", False),
        ("From: Payola Judge", False),  # no Sent:, Date:, To: or Subject: after it
        ("-- Original Message", False),
        ("On the other hand", False),
        ("A PAR - BUR, wrote:", False),
    ],
)
def test_which_lines_stop_reading(line: str, stops: bool) -> None:
    text = f"7 : A PAR - PIC\n{line}\n5 : A PAR - BUR\n"
    if stops:
        assert command_lines(text) == (("7 : A PAR - PIC",), False, line[:80])
    else:
        assert command_lines(text) == (("7 : A PAR - PIC", line, "5 : A PAR - BUR"), False, None)


def test_a_long_separator_is_reported_cut() -> None:
    separator = "-" * 100 + "Original Message" + "-" * 100
    assert command_lines(f"STATUS\n{separator}\n5 : A PAR - BUR") == (("STATUS",), False, separator[:80])


# --- a reply written inline, below an attribution ------------------------------------------------------------

ATTRIBUTION = "On Mon, Apr 21, 2025 at 9:00 AM Payola Judge <judge@payola.example> wrote:\r\n"
OLD_FORM = [  # the end of a judge's mail: its form, then its signature
    "%% form for S1901M of wonderland, France",
    "% Treasury: 48 AgP.",
    "SIGNON FRANCE@wonderland _",
    "_ : A PAR H",
    "_ : F BRE H",
    "_ $",
    "%% end of form",
    "",
    "-- ",
    "The Payola judge at judge@payola.example",
]


def quoted(lines: list[str], filled: dict[str, str]) -> str:
    """``lines`` quoted as a phone's reply inline quotes them, each line of ``filled`` written unquoted
    below the quoted line it answers."""
    out = []
    for line in lines:
        out.append(f"> {line}".rstrip() if line != "-- " else "> -- ")
        if line in filled:
            out.append(filled[line])
    return "".join(f"{line}\r\n" for line in out)


def test_a_form_filled_inline_below_an_attribution_is_read_between_its_quoted_lines() -> None:
    body = "Here you go\r\n\r\n" + ATTRIBUTION + "\r\n" + quoted(OLD_FORM, {
        "SIGNON FRANCE@wonderland _": "SIGNON Fwonderland secret",
        "_ : A PAR H": "7 : A PAR - PIC",
        "_ : F BRE H": "3 : F BRE - ENG",
    })
    mail = parse_mail(message(body))
    assert [line for line in mail.lines if line] == ["Here you go", *NEW_LINES]  # the quoted mail dropped
    assert mail.stopped_at is None


def test_lines_written_below_the_quoted_mail_are_read_up_to_the_signature() -> None:
    """A client that puts the reply below the quoted mail (Thunderbird's bottom-posting)."""
    body = ATTRIBUTION + quoted(OLD_FORM, {}) + "\r\n" + NEW_SHEET + "\r\n-- \r\nAlice\r\n7 : A MAR - SPA\r\n"
    mail = parse_mail(message(body))
    assert mail.lines == NEW_LINES
    assert mail.stopped_at == "-- "


def test_an_old_mail_pasted_unquoted_below_an_attribution_is_not_read() -> None:
    body = NEW_SHEET + "\r\n" + ATTRIBUTION + "\r\n" + "".join(f"{line}\r\n" for line in OLD_FORM)
    mail = parse_mail(message(body))
    assert mail.lines == NEW_LINES  # none of the form's lines, nor the judge's prose
    assert mail.stopped_at == ATTRIBUTION.strip()[:80]


def test_a_judges_reply_pasted_unquoted_below_an_attribution_is_not_read() -> None:
    """Its first line, the echo of the player's line, is quoted, but its answers are indented: an
    old mail pasted as it was, not quoted."""
    body = NEW_SHEET + ATTRIBUTION + "> 5 : A PAR - BUR\r\n  OK: offer recorded\r\n> 3 : A MAR - SPA\r\n"
    mail = parse_mail(message(body))
    assert mail.lines == NEW_LINES
    assert mail.stopped_at == ATTRIBUTION.strip()[:80]


@pytest.mark.parametrize("separator", ["-----Original Message-----", "________________________________"])
def test_an_outlook_top_post_stops_reading_even_with_its_old_mail_quoted(separator: str) -> None:
    """Outlook's separators stop reading whatever follows them: only an attribution lets it go on."""
    body = NEW_SHEET + f"\r\n{separator}\r\nFrom: Payola Judge\r\nSent: Monday, April 21, 2025 9:00 AM\r\n\r\n"
    mail = parse_mail(message(body + quoted(OLD_FORM, {"_ : A PAR H": "5 : A PAR - BUR"})))
    assert mail.lines == NEW_LINES
    assert mail.stopped_at == separator


# --- 2. inside press only ENDPRESS ends it -----------------------------------------------------------------


def test_press_keeps_its_signature_quotes_and_a_forwarded_letter() -> None:
    body = (
        "SIGNON Fwonderland secret\r\n"
        "PRESS TO GERMANY\r\n"
        "Look what England sent me:\r\n"
        "-----Original Message-----\r\n"
        "From: England\r\n"
        "Sent: yesterday\r\n"
        "> let us take Belgium together\r\n"
        "SIGNOFF\r\n"
        "-- \r\n"
        "France\r\n"
        "ENDPRESS\r\n"
        "7 : A PAR - PIC\r\n"
        "-- \r\n"
        "Alice\r\n"
    )
    mail = parse_mail(message(body))
    assert mail.stopped_at == "-- "  # the writer's own signature, after the press
    assert [line.command for line in parse_lines(mail.lines)][1:] == [
        Press(("GERMANY",), ("Look what England sent me:", "-----Original Message-----", "From: England",
                             "Sent: yesterday", "> let us take Belgium together", "SIGNOFF", "--", "France")),
        parse_lines(["7 : A PAR - PIC"])[0].command,
    ]


def test_press_without_endpress_sends_nothing_and_reads_nothing_up_to_the_signature() -> None:
    body = (
        "SIGNON Fwonderland secret\r\n"
        "PRESS TO G\r\n"
        "My offers this turn, between us:\r\n"
        "TRANSFER 10 TO G\r\n"
        "-- \r\n"
        "Alice\r\n\r\n"
        "________________________________\r\n"
        "From: Payola Judge <judge@payola.example>\r\n"
        "Sent: Monday, April 21, 2025 9:00 AM\r\n\r\n"
    ) + OLD_STATUS
    mail = parse_mail(message(body))
    assert mail.lines == ("SIGNON Fwonderland secret", "PRESS TO G", "My offers this turn, between us:",
                          "TRANSFER 10 TO G")
    assert [line.command for line in parse_lines(mail.lines)][1:] == [
        BadCommand(UNENDED_PRESS), Unread(UNREAD_AFTER_PRESS), Unread(UNREAD_AFTER_PRESS),
    ]


# --- 5. orders in a text/plain attachment -------------------------------------------------------------------


def mixed(inline: str | None, *attachments: tuple[str, str, bytes]) -> bytes:
    """A multipart/mixed mail: an optional inline text part, then (content type, encoding, data) attachments."""
    parts = [] if inline is None else [f"--mix\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{inline}\r\n".encode()]
    for content_type, encoding, data in attachments:
        parts.append(
            f'--mix\r\nContent-Type: {content_type}\r\nContent-Disposition: attachment; filename="orders"\r\n'
            f"Content-Transfer-Encoding: {encoding}\r\n\r\n".encode() + data + b"\r\n"
        )
    return message(b"".join(parts).decode("latin-1") + "--mix--\r\n", 'multipart/mixed; boundary="mix"')


def test_empty_body_is_read_from_the_text_attachment() -> None:
    raw = mixed("\r\n", ("text/plain; charset=utf-8", "7bit", b"SIGNON Fwonderland secret\r\n7 : A PAR - PIC"))
    mail = parse_mail(raw)
    assert mail.lines == ("SIGNON Fwonderland secret", "7 : A PAR - PIC")
    assert mail.from_attachment and not (mail.no_text or mail.html_only)
    mail = parse_mail(mixed("LIST", ("text/plain", "7bit", b"STATUS")))  # a body with commands wins
    assert mail.lines == ("LIST",) and not mail.from_attachment


def test_body_with_only_a_signature_is_read_from_the_text_attachment() -> None:
    raw = mixed("\r\n-- \r\nSent from my phone", ("text/plain", "7bit", b"STATUS"))
    assert parse_mail(raw).lines == ("STATUS",)


def test_mail_with_no_text_part_but_a_text_attachment_is_read_from_it_with_its_charset() -> None:
    raw = mixed(None, ("image/png", "base64", b"iVBORw0KGgo="),
                ("text/plain; charset=iso-8859-1", "base64", b"UFJFU1MgVE8gRwpjYWbpCkVORFBSRVNT"))
    mail = parse_mail(raw)
    assert mail.lines == ("PRESS TO G", "caf\u00e9", "ENDPRESS")
    assert mail.from_attachment and not mail.no_text


def test_only_the_first_text_plain_attachment_is_read() -> None:
    raw = mixed("", ("text/html", "7bit", b"<p>HELP</p>"), ("text/plain", "7bit", b"STATUS"),
                ("text/plain", "7bit", b"LIST"))
    assert parse_mail(raw).lines == ("STATUS",)
