"""The wording of the judge's mails, against golden files: the one place the words are asserted.

Each test renders a template from answers written here (`Echo`: a line, its outcome, its message) and compares
the text with a file under golden/, written by hand from what a reader should see: the line quoted after "> ",
its outcome as a word (OK, ERROR, IGNORED; none for a line that needs no answer), the message after it, the
lines under it indented.  The tests of behaviour assert outcomes and codes (`tests.support.harness.Answer`), so a
reworded template fails here and nowhere else; a change of wording is made by changing the golden file with it.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from types import SimpleNamespace

import pytest

from judge.bootstrap import kinds
from judge.service.config import Settings
from judge.service.incoming.handlers.conversation import Echo
from judge.service.templates import counted, environment, render
from judge.wording import power_title

GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path, judge_name="Test judge", domain="example.org")


def golden(name: str) -> str:
    return (GOLDEN / name).read_text("utf-8")


def test_a_reply_quotes_each_line_then_its_outcome_and_message_and_the_lines_under_it(settings: Settings) -> None:
    echoes = [
        Echo("SIGNON F@g1 ****", "ok", "signed on as France in g1"),
        Echo("3 : A PAR - BUR", "ignored", "not applied: the sheet has errors (see below)", code="SHEET_REFUSED"),
        Echo("99 : A XXX - YYY", "error", "unknown province 'XXX'", ["offer sheet refused"], code="BAD_OFFER"),
        Echo("LIST g1", "info", "", ["state: forming"]),
    ]
    text = render("reply", echoes=echoes, notes=["your mail was cut: only its beginning was read"], settings=settings)
    assert text == golden("reply.txt")


def test_a_reply_to_a_mail_without_commands_says_so_and_points_to_help(settings: Settings) -> None:
    assert render("reply", echoes=[], notes=[], settings=settings) == golden("reply_empty.txt")


@pytest.mark.parametrize(("count", "noun", "words"), [
    (1, "offer", "1 offer"), (3, "offer", "3 offers"), (0, "player", "0 players"),
    (1, "reduction round", "1 reduction round"), (2, "reduction round", "2 reduction rounds")])
def test_counts_are_written_singular_for_one_and_plural_otherwise_never_with_s_in_brackets(
        count: int, noun: str, words: str) -> None:
    assert counted(count, noun) == words


def test_a_board_says_one_center_and_one_unit_in_the_singular() -> None:
    kinds()  # the kinds' templates (Payola's board among them) are found once a registry of them is made
    board = {"phase": "W1905A", "dislodged": [], "unowned": [],
             "powers": [{"power": "ITALY", "centers": ["ROM"], "units": ["A ROM"]},
                        {"power": "FRANCE", "centers": ["BRE", "PAR"], "units": []}],
             "adjustments": [{"power": "ITALY", "centers": 1, "units": 2, "builds": 0, "removals": 1,
                              "free_homes": []}]}
    text = environment().from_string('{% from "mail/payola/board.txt.j2" import board %}{{ board(b) }}').render(b=board)
    lines = text.splitlines()
    assert "  Italy: 1 center, 1 unit: A ROM" in lines and "  France: 2 centers, 0 units: no units" in lines
    assert "  Italy: 1 center, 2 units: must remove 1" in lines


@pytest.mark.parametrize(("power", "words"), [("FRANCE", "France"), ("UNITED_STATES", "United States"),
                                              ("BRITISH_COLUMBIA", "British Columbia"),
                                              ("GULF_OF_BOTHNIA", "Gulf of Bothnia")])
def test_a_power_of_several_words_is_written_with_spaces_not_underscores(power: str, words: str) -> None:
    assert power_title(power) == words
    assert environment().from_string("{{ p | power }}").render(p=power) == words


def test_the_players_of_a_game_a_restore_took_back_are_told_to_when_and_which_phase_is_played_again() -> None:
    game = SimpleNamespace(name="g1", phase="S1901M", state="active", deadline=datetime(2026, 1, 7, 12, 0))
    text = render("restored", game=game, phase="S1901M", backup="2026-01-05 03:00 UTC",
                  processed="2026-01-05 12:00 UTC")
    assert text == golden("restored.txt")
