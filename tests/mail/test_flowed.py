"""The judge's text as format=flowed (RFC 3676, DelSp=no): which lines a reader joins, where long
ones are broken, the stuffing; and that a reader of RFC 3676 gets back what the judge wrote."""

from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage

import pytest

from judge.mail.flowed import WIDTH, flow, unflow
from judge.mail.inbound import parse_mail
from judge.mail.outbound import build_message
from tests.support.flowed import chunks, meant, on_a_phone

SENTENCE = ("This judge's mail server does not check who sent a mail, so the judge asks each time a request "
            "would send a game's mail to an address.")


def test_a_long_line_of_prose_is_broken_into_soft_lines_of_at_most_72_characters() -> None:
    """The first 69 characters end at "judge"; with its space 70, and "asks " would make 75."""
    assert flow(SENTENCE) == ("This judge's mail server does not check who sent a mail, so the judge \n"
                              "asks each time a request would send a game's mail to an address.")


def test_a_paragraph_wrapped_by_hand_is_joined_where_its_sentence_goes_on() -> None:
    text = ("If it was not you, ignore this mail: nothing happens unless you answer it,\n"
            "and the judge will not send you the game's mail.\n")
    assert meant(flow(text)) == text.replace(",\n", ", ")


@pytest.mark.parametrize(("text", "joined"), [
    ("First phase: S1901M.\nA phase is processed at its deadline.", True),  # a sentence, then a sentence
    ("The request came from ann@example.org,\nsent by ann@example.org.", True),  # goes on in lower case
    ("send it by 2026-12-03\n(answering this mail is fine).", True),  # a bracket goes on
    ("Sign on with: SIGNON ENGLAND@p1 yourpassword\nYour balance: 48 AgP", False),  # no sentence ended
    ("Your balance: 48 AgP\nYour acceptance list: E?", False),
    ("NOTE: the first note.\nNOTE: the second.", False),  # a word in capitals is no sentence's start
    ("Send this line back.\nCONFIRM 78093b2e0631272a", False),
    ("The orders.\nA PAR - BUR", False),  # a unit, not "A phase"
    ("Powers, in the board's order:\nAustria: dummy", False),  # a colon opens a list
    ("What the investor knows now:\ninvestor order (E30): ANN", False),  # even one in lower case
])
def test_two_lines_are_one_paragraph_only_where_the_rule_says(text: str, joined: bool) -> None:
    first, second = text.split("\n")
    assert flow(text) == (f"{first} {second}" if joined else text)  # joined, the paragraph fits one line


@pytest.mark.parametrize("line", [
    "  Austria: 3 centers, 3 units: A BUD, A VIE, F TRI",  # indented: a list's
    "Orders:  A PAR - BUR",  # two spaces: a table's columns
    "> 5 : A PAR - BUR",  # the player's line an answer quotes
    "% Treasury: 12 ducats.",  # a comment to the judge's reader: a form's note
])
def test_a_fixed_line_is_never_joined_to_the_prose_around_it(line: str) -> None:
    text = f"The judge read this.\n{line}\nIt goes on here."
    assert [chunk.text for chunk in chunks(flow(text))] == text.split("\n")


def test_every_line_of_a_form_to_fill_stands_alone_whatever_case_it_begins_in() -> None:
    """A form's lines are sent back by the player one by one: none is joined to the next, though
    Machiavelli's orders begin in lower case, which would go on the sentence before it."""
    form = ("%% form for SP1454A of d1, Florence\n% Treasury: 12 ducats.\nSIGNON FLORENCE@d1 _\n"
            "transfer _ to Milan.\nmove _ to Pisa\n%% end of form")
    text = f"Your orders were read.\n{form}\nthe end goes on."
    assert flow(text) == text  # nothing joined, nothing stuffed: the block as it was laid out


def test_lines_that_begin_with_a_space_a_quote_mark_or_from_are_stuffed() -> None:
    assert flow("  indented\n> 1 : F LON - NTH\nFrom the start\nPlain") == (
        "   indented\n > 1 : F LON - NTH\n From the start\nPlain")


def test_a_long_answer_keeps_its_indent_on_its_first_line_and_its_continuation_at_the_margin() -> None:
    """Stuffed, 1 + 2 + 68 characters end at "it " (71); "a " would make 73."""
    answer = ("  OK: waiting for ann@example.org to confirm: the judge has mailed it a token to send back "
              "(CONFIRM token, within 7 days)")
    wire = flow(answer)
    assert wire == ("   OK: waiting for ann@example.org to confirm: the judge has mailed it \n"
                    "a token to send back (CONFIRM token, within 7 days)")
    assert meant(wire) == answer


def test_a_table_row_longer_than_a_line_is_left_whole_for_the_template_to_shorten() -> None:
    row = "  HELP topic" + " " * 26 + "one topic: HELP seats, HELP master, HELP mail (below)"
    assert len(row) > WIDTH
    assert flow(row) == f" {row}"


def test_trailing_spaces_are_dropped_but_the_signature_separator_keeps_its_own() -> None:
    assert flow("a list:   \n  Austria  \n\n-- \nThe judge\n") == "a list:\n   Austria\n\n-- \nThe judge\n"


def test_a_word_longer_than_a_line_is_not_cut() -> None:
    url = "https://judge.example.org/games/" + "x" * 60
    assert flow(f"The game's page: {url} (public).") == f"The game's page: \n{url} \n(public)."


def test_the_judges_reader_and_a_phones_give_back_each_paragraph_and_each_fixed_line() -> None:
    text = (f"{SENTENCE}\nIt says so once.\n\nYour balance: 48 AgP\n"
            "  Austria: 3 centers, 3 units: A BUD, A VIE, F TRI\n> 2 : A PAR - BUR\n")
    paragraph = f"{SENTENCE} It says so once."
    expected = (f"{paragraph}\n\nYour balance: 48 AgP\n"
                "  Austria: 3 centers, 3 units: A BUD, A VIE, F TRI\n> 2 : A PAR - BUR\n")
    assert meant(flow(text)) == expected == unflow(flow(text))
    phone = on_a_phone(flow(text), 40)
    assert all(len(line) <= 40 for line in phone if not line.startswith((" ", ">")))
    assert phone[-2:] == ["  Austria: 3 centers, 3 units: A BUD, A VIE, F TRI", "> 2 : A PAR - BUR"]


def test_a_quoted_printable_text_flows_as_well() -> None:
    """A non-ASCII text is quoted-printable; its soft lines keep their space (=20 where the line
    ends, or as it is) and read back as the paragraph."""
    text = "Résultats : " + SENTENCE.replace("judge", "juge") + "\n"
    raw = build_message(sender="judge@example.org", to="zoé@example.org", subject="s", body=text,
                        domain="example.org")
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    assert message["Content-Transfer-Encoding"] == "quoted-printable"
    assert (message.get_param("format"), message.get_param("delsp")) == ("flowed", "no")
    wire = message.get_content()
    assert [line.endswith(" ") for line in wire.splitlines()] == [True, True, False]
    assert all(len(line) <= WIDTH for line in wire.splitlines())
    assert meant(wire) == text


REPLY_HEAD = ("From: Kim <kim@example.org>\nTo: judge@payola.example\nSubject: Re: p1 S1901M results\n"
              "MIME-Version: 1.0\nContent-Transfer-Encoding: 8bit\n")


@pytest.mark.parametrize(("delsp", "broken"), [
    ("no", "OFFERS 5 A MUN - BUR, 3 A MUN - RUH, 2 A MUN - KIE, 1 A \nMUN - BER, 1 A MUN H"),
    ("yes", "OFFERS 5 A MUN - BUR, 3 A MUN - RUH, 2 A MUN - KIE, 1 A  \nMUN - BER, 1 A MUN H"),
])
def test_a_players_flowed_reply_is_read_with_its_soft_broken_order_line_whole(delsp: str, broken: str) -> None:
    """A mail client replying to the judge's flowed mail: its own long line soft-broken (with
    DelSp=yes, one space more that is not the line's), the judge's text quoted and flowed too."""
    judges = flow(f"Game p1, results of S1901M.\n\n{SENTENCE}\n")
    quoted = "\n".join(f">{'' if line.startswith(' ') else ' '}{line}" for line in judges.splitlines())
    body = f"SIGNON GERMANY@p1 secret\n{broken}\nfür Kim\n\n{quoted}\n"
    raw = (REPLY_HEAD + f'Content-Type: text/plain; charset="utf-8"; format=flowed; delsp={delsp}\n\n'
           + body).encode()
    assert parse_mail(raw).lines == (
        "SIGNON GERMANY@p1 secret",
        "OFFERS 5 A MUN - BUR, 3 A MUN - RUH, 2 A MUN - KIE, 1 A MUN - BER, 1 A MUN H",
        "für Kim",
    )
