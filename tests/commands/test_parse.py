"""The command language: press blocks that are not ended, press recipients, comments and new words."""

from __future__ import annotations

import pytest

from judge.commands.parse import (
    UNENDED_PRESS,
    UNENDED_PRESS_BEFORE_PRESS,
    UNREAD_AFTER_PRESS,
    BadCommand,
    Check,
    Command,
    DecideAbsence,
    GameLine,
    GetInfo,
    History,
    PhaseNamed,
    Press,
    Status,
    Unknown,
    Unread,
    Wait,
    WhoGame,
)
from judge.commands.parse import parse_lines as host_lines
from judge.games.payola.commands import MapRequest, OfferLine, OrderLine, Transfer, parse_lines


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
        ("NOWAIT", Wait(False)),
        ("NoWait", Wait(False)),
        ("MAP", MapRequest()),
        ("map", MapRequest()),
        ("WAIT please", BadCommand("WAIT takes nothing after it")),
        ("CHECK", Check()),
        ("check", Check()),
        ("PHASE s1901m", PhaseNamed("S1901M")),
        ("Phase SP1454C", PhaseNamed("SP1454C")),
        ("PHASE", BadCommand("expected PHASE and the phase the mail is meant for (e.g. PHASE S1902M)")),
        ("PHASE S1901M F1901M", BadCommand("expected PHASE and the phase the mail is meant for (e.g. PHASE S1902M)")),
        ("MAP 1901", BadCommand("MAP takes nothing after it")),
    ],
)
def test_new_command_words(line: str, command: Command) -> None:
    assert commands(line) == [(line, command)]


# --- issue 23 and 29.6: how the judge reads ------------------------------------------------------------------


def test_and_29_6_whogame_get_info_and_history_without_a_game() -> None:
    assert [command for _, command in commands("WHOGAME g1\nWHOGAME\nGET INFO g1\nget rules\nHISTORY\nGET LOST")] == [
        WhoGame("g1"), WhoGame(None), GetInfo("g1"), GetInfo(None), History(None),
        BadCommand("expected GET INFO game or GET RULES game")]


def test_signon_question_mark_is_njudge_join() -> None:
    [(_, command)] = commands("SIGNON ?classic pw")
    assert isinstance(command, BadCommand) and command.error.startswith("to join a game, send JOIN classic password")


def test_and_23_27_lines_that_are_no_command_nor_order_are_unknown() -> None:
    read = dict(commands("Thanks!\nSent from my iPhone\nA PAR - BUR\nParis - Burgundy\nWAIVE\nBUILD A PAR"))
    assert read["Thanks!"] == Unknown("unknown command 'Thanks!': HELP lists the commands")
    assert read["Sent from my iPhone"] == Unknown("unknown command 'Sent': HELP lists the commands")
    assert all(isinstance(read[line], OrderLine) for line in ("A PAR - BUR", "Paris - Burgundy", "BUILD A PAR"))


def test_negative_and_fractional_amounts_are_read_as_offers_or_refused() -> None:
    read = dict(commands("-3 : A MUN H\n3.5 : A MUN H\nTRANSFER -5 TO RUSSIA\nTRANSFER 3.5 TO RUSSIA"))
    assert read["-3 : A MUN H"] == OfferLine("-3 : A MUN H") and read["3.5 : A MUN H"] == OfferLine("3.5 : A MUN H")
    assert read["TRANSFER -5 TO RUSSIA"] == BadCommand("'-5': an amount is a whole number of AgP, 0 or more")
    assert read["TRANSFER 3.5 TO RUSSIA"] == BadCommand("'3.5': an amount is a whole number of AgP, 0 or more")


def test_a_transfer_of_more_than_a_million_agp_is_refused_at_reading_whatever_its_length() -> None:
    """A million AgP (a savings request's most) is read; one more, a number of 5,000 digits (Python
    refuses to read one of 4,301 or more) and digits that are no ASCII digits are refused with the
    judge's words, never Python's."""
    read = dict(commands(f"TRANSFER 1000000 TO RUSSIA\nTRANSFER 1000001 TO RUSSIA\nTRANSFER {'9' * 5000} TO RUSSIA\n"
                         "TRANSFER \u00b25 TO RUSSIA"))
    assert read["TRANSFER 1000000 TO RUSSIA"] == Transfer(1_000_000, "RUSSIA")
    assert read["TRANSFER 1000001 TO RUSSIA"] == BadCommand("a transfer is at most 1,000,000 AgP")
    assert read[f"TRANSFER {'9' * 5000} TO RUSSIA"] == BadCommand("a transfer is at most 1,000,000 AgP")
    assert read["TRANSFER \u00b25 TO RUSSIA"] == BadCommand("expected TRANSFER amount TO POWER")


def test_approve_absence_is_the_hosts_and_any_other_approve_is_left_to_the_games_kind() -> None:
    """``APPROVE ABSENCE power`` is the game master's; ``APPROVE GERMANY 2`` is Exchange Payola's
    approval of an issue (E11), for the game's own grammar to read."""
    lines = host_lines(["APPROVE ABSENCE FRANCE", "APPROVE GERMANY 2", "APPROVE"])
    assert lines[0].command == DecideAbsence("FRANCE", True)
    assert lines[1].command == GameLine("APPROVE GERMANY 2")
    assert isinstance(lines[2].command, BadCommand)
