"""The command language: press blocks that are not ended, press recipients, comments and new words."""

from __future__ import annotations

import pytest

from judge.commands.parse import (
    UNENDED_PRESS,
    UNENDED_PRESS_BEFORE_PRESS,
    UNREAD_AFTER_PRESS,
    BadCommand,
    Command,
    Press,
    Status,
    Unread,
)
from judge.games.payola.commands import MapRequest, NoWait, OfferLine, Wait, parse_lines


def commands(text: str) -> list[tuple[str, Command]]:
    """The lines of ``text`` as read, each as (line, command)."""
    return [(line.text, line.command) for line in parse_lines(text.split("\n"))]


# --- 1. press without ENDPRESS ---------------------------------------------------------------------------


def test_press_without_endpress_is_refused_and_nothing_after_it_is_read() -> None:
    assert commands("PRESS TO G\nLet us share Belgium.\n\nTRANSFER 10 TO G\n5 : A PAR - BUR\nSTATUS") == [
        ("PRESS TO G", BadCommand(UNENDED_PRESS)),
        ("Let us share Belgium.", Unread(UNREAD_AFTER_PRESS)),
        ("TRANSFER 10 TO G", Unread(UNREAD_AFTER_PRESS)),
        ("5 : A PAR - BUR", Unread(UNREAD_AFTER_PRESS)),
        ("STATUS", Unread(UNREAD_AFTER_PRESS)),
    ]


def test_broadcast_without_endpress_is_refused_too() -> None:
    assert commands("BROADCAST\nhello all\n10 $") == [
        ("BROADCAST", BadCommand(UNENDED_PRESS)),
        ("hello all", Unread(UNREAD_AFTER_PRESS)),
        ("10 $", Unread(UNREAD_AFTER_PRESS)),
    ]


def test_press_ended_only_after_the_next_press_is_refused_so_one_power_never_reads_anothers_press() -> None:
    text = "PRESS TO G\nfor Germany only\nPRESS TO E\nfor England only\nENDPRESS\nSTATUS"
    assert commands(text) == [
        ("PRESS TO G", BadCommand(UNENDED_PRESS_BEFORE_PRESS)),
        ("for Germany only", Unread(UNREAD_AFTER_PRESS)),
        ("PRESS TO E", Press(("E",), ("for England only",))),
        ("STATUS", Status()),
    ]
    # only a line "PRESS TO ..." or "BROADCAST" alone counts as the next press
    text = "PRESS TO G\nPress on to Burgundy!\nBroadcast it if you like.\nENDPRESS"
    assert commands(text) == [("PRESS TO G", Press(("G",), ("Press on to Burgundy!", "Broadcast it if you like.")))]


def test_endpress_without_press_is_an_error() -> None:
    assert commands("ENDPRESS") == [("ENDPRESS", BadCommand("ENDPRESS without a PRESS before it"))]


# --- 4. % comment lines -----------------------------------------------------------------------------------


def test_percent_lines_are_skipped_silently_outside_press() -> None:
    text = ("% my sheet for spring\n  %indented comment\n5 : A PAR - BUR % the trailing comment stays\n%\n"
            "PRESS TO G\n% press text\nENDPRESS")
    assert commands(text) == [
        ("5 : A PAR - BUR % the trailing comment stays", OfferLine("5 : A PAR - BUR % the trailing comment stays")),
        ("PRESS TO G", Press(("G",), ("% press text",))),
    ]


# --- 6. press recipients ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "to"),
    [
        ("PRESS TO ENGLAND", ("ENGLAND",)),
        ("PRESS TO England France", ("ENGLAND", "FRANCE")),
        ("PRESS TO ENGLAND, FRANCE", ("ENGLAND", "FRANCE")),
        ("PRESS TO ENGLAND,FRANCE", ("ENGLAND", "FRANCE")),
        ("PRESS TO EF", ("E", "F")),
        ("PRESS TO efg", ("E", "F", "G")),
        ("PRESS TO E F", ("E", "F")),
        ("PRESS TO E, ENGLAND", ("E", "ENGLAND")),  # both kept: the service resolves them to one power
        ("PRESS TO EFE", None),
        ("PRESS TO ALL", ("ALL",)),
        ("press to all", ("ALL",)),
        ("PRESS TO M", ("MASTER",)),
        ("PRESS TO MASTER", ("MASTER",)),
        ("PRESS TO GM", ("MASTER",)),
        ("PRESS TO EM", ("E", "MASTER")),
        ("PRESS TO FRANCE MASTER", ("FRANCE", "MASTER")),
        ("PRESS TO E.F.", ("E", "F")),
    ],
)
def test_press_recipients(line: str, to: tuple[str, ...] | None) -> None:
    command = commands(f"{line}\ntext\nENDPRESS")[0][1]
    if to is None:
        assert isinstance(command, BadCommand)
    else:
        assert command == Press(to, ("text",))


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ("PRESS TO ENGLND", "'ENGLND' is not a power, a run of power initials, ALL or MASTER"),
        ("PRESS TO ALL, ENGLAND", "PRESS TO ALL takes no other recipient"),
        ("PRESS TO E3", "'E3' is not a power, a run of power initials, ALL or MASTER"),
        ("PRESS TO", "expected PRESS TO followed by powers (names or initials), ALL, or MASTER"),
        ("PRESS ENGLAND", "expected PRESS TO followed by powers (names or initials), ALL, or MASTER"),
    ],
)
def test_bad_press_recipients_are_refused_and_the_block_still_not_read(line: str, error: str) -> None:
    assert commands(f"{line}\nTRANSFER 5 TO G\nENDPRESS") == [(line, BadCommand(error))]


def test_broadcast_alone_inside_press_is_the_next_press_to_everyone() -> None:
    assert commands("PRESS TO G\nhi\nBROADCAST\nhello all\nENDPRESS") == [
        ("PRESS TO G", BadCommand(UNENDED_PRESS_BEFORE_PRESS)),
        ("hi", Unread(UNREAD_AFTER_PRESS)),
        ("BROADCAST", Press(("ALL",), ("hello all",))),
    ]


# --- 7. new command words ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("WAIT", Wait()),
        ("wait", Wait()),
        ("NOWAIT", NoWait()),
        ("NoWait", NoWait()),
        ("MAP", MapRequest()),
        ("map", MapRequest()),
        ("WAIT please", BadCommand("WAIT takes nothing after it")),
        ("MAP 1901", BadCommand("MAP takes nothing after it")),
    ],
)
def test_new_command_words(line: str, command: Command) -> None:
    assert commands(line) == [(line, command)]
